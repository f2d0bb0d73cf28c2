"""Lispex Court: runs one program on several Lispex implementations and compares what they do."""

__version__ = "0.1.0"
