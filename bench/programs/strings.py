"""String building, the plain Python twin of strings.lspx.

The same work: 20,000 numbers as text joined with commas, each chunk of 100 built by repeated
concatenation, then the chunks joined; returns the length and a checksum of the character codes,
printed the way Lispex writes the list `(length checksum)`.
"""


def chunk(start: int, end: int) -> str:
    acc = ""
    for i in range(start, end):
        acc = acc + str(i * 7) + ","
    return acc


def join_chunks(n: int, size: int) -> str:
    return "".join(chunk(start, min(n, start + size)) for start in range(0, n, size))


def checksum(s: str) -> int:
    total = 0
    for ch in s:
        total = (total * 31 + ord(ch)) % 1_000_000_007
    return total


def main() -> str:
    s = join_chunks(20_000, 100)
    return f"({len(s)} {checksum(s)})"
