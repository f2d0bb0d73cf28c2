"""Doubly recursive Fibonacci, the plain Python twin of fib25.lspx."""


def fib(n: int) -> int:
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def main() -> int:
    return fib(25)
