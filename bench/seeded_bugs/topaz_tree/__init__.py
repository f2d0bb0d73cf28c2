"""Seeded bugs in topaz-tree (Topaz's tree back end), one module per feature family."""
