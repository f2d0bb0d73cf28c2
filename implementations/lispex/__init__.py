"""The shared Lispex language kernel: reader, normalizer to Core IR, values, printer, numeric
tower, primitives, diagnostics catalog, meters and profiles. Back ends build on it."""
