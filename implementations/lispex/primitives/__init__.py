"""The kernel's primitives: one module per family, all registered in :mod:`.table`."""
