"""Lispex implementations under test: the shared kernel and the back ends built on it."""
