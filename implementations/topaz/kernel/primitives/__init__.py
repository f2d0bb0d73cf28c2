"""The kernel's primitives, one module per family; :mod:`.table` binds them to the rows of the
primitive table (data) and builds the procedure objects."""
