"""Count the solutions of 8 queens, the plain Python twin of nqueens8.lspx.

Same algorithm: place one row at a time, checking the new column against the columns already
placed (nearest row first); `placed` is a list used as a stack rather than a cons list.
"""


def safe(col: int, placed: list[int]) -> bool:
    dist = 1
    for c in reversed(placed):
        if c == col or c - col == dist or col - c == dist:
            return False
        dist += 1
    return True


def queens(n: int) -> int:
    placed: list[int] = []

    def place(row: int) -> int:
        if row == n:
            return 1
        count = 0
        for col in range(n):
            if safe(col, placed):
                placed.append(col)
                count += place(row + 1)
                placed.pop()
        return count

    return place(0)


def main() -> int:
    return queens(8)
