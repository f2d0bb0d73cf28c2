"""The Topaz kernel: reader, normalizer to Core IR, values, numeric tower, printer, primitives
and the run entry of the topaz back ends, written from the language reference alone. It shares
nothing with the lispex kernel but data (the diagnostic catalogue, the primitive table, the
profiles) and protocols (Core IR's canonical text, the observation schema)."""
