"""Seeded bugs in topaz-vm (Topaz's VM back end), one module per feature family."""
