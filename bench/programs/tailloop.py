"""A 1,000,000-step loop, the plain Python twin of tailloop.lspx (Python has no tail calls,
so the idiomatic form is a while loop)."""


def loop(i: int, acc: int) -> int:
    while i != 0:
        i, acc = i - 1, acc + 1
    return acc


def main() -> int:
    return loop(1_000_000, 0)
