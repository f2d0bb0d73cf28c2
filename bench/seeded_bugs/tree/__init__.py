"""Seeded bugs in tree (the tree-walking interpreter), one module per feature family."""
