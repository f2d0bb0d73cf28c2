"""Seeded bugs in the topaz kernel, carried by every member of its lineage (topaz-tree,
topaz-vm)."""
