"""Seeded bugs in vm (the bytecode VM), one module per feature family."""
