"""Takeuchi's function, the plain Python twin of tak.lspx."""


def tak(x: int, y: int, z: int) -> int:
    if y < x:
        return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y))
    return z


def main() -> int:
    return tak(18, 12, 6)
