"""Seeded bugs in the lispex kernel, carried by every member of its lineage (tree, vm)."""
