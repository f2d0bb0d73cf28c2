"""Seeded bugs for measuring the fuzzer's power (bench/fuzz_power.py).

A seeded bug is a realistic single-point mistake in one implementation, applied by patching the
running process. Each is a `Bug` record (bench/seeded_bugs/seeding.py): its name, the
implementation it is seeded into (`tree`, `vm`, `topaz-tree`, `topaz-vm`), where in the code it
sits (a back end, or a kernel module of that member's own copy: reader, normalizer, printer,
numbers, primitives, meters), its feature family, what it gets wrong, a small witness program on
which it changes the result, and the patch function. tests/test_seeded_bugs.py checks that every
witness shows its bug, so the benchmark cannot pass vacuously. worker.py applies one bug and then
serves the ordinary worker protocol.

A bug can instead be seeded into a kernel, `lispex-kernel` (tree and vm) or `topaz-kernel`
(topaz-tree and topaz-vm), as `seeding.KERNELS` lists: worker.py then applies it in any member of
that lineage, and fuzz_power.py replaces both members. Patch it where the members share the
kernel (a table or function of implementations/lispex/ or implementations/topaz/kernel/; for a
primitive, `patch_kernel_primitive`, which patches each member's own table).

Layout: one package per implementation or kernel, one module per family,

    bench/seeded_bugs/<implementation>/<family>.py      e.g. vm/meters_limits.py
    bench/seeded_bugs/<kernel>/<family>.py              e.g. topaz_kernel/printing.py

the names being `seeding.slug` of the implementation and the family (`topaz-tree` ->
`topaz_tree`, `scoping/set!` -> `scoping_set`). registry.py discovers the modules; nothing lists
them.

To add a bug, write a function in the module of its implementation and family (create the module
if the family has none yet; its name must be the family's slug, which the test checks):

    from bench.seeded_bugs.seeding import bug, edit_function, patch_primitive

    @bug("vector-ref-off-by-one", "vm", "kernel primitives", "vectors",
         "vector-ref reads the element after the one asked for",
         "(vector-ref (vector 1 2 3) 0)")
    def _vector_ref_off_by_one() -> None:
        patch_primitive("vm", "vector-ref", lambda real: lambda v, k: real(v, k + 1))

The name says what the bug is and is unique across all implementations; the family is one of
`seeding.FAMILIES` (a new family is added there). Patch with `patch_primitive` (wrap a primitive),
`edit_function` (recompile one function of the implementation with one text replaced), or plain
attribute assignment; import the implementation's modules inside the function, so that only the
bug being applied touches them. Then check it: `python3 -m pytest tests/test_seeded_bugs.py -k
NAME` and `python bench/fuzz_power.py --bugs NAME`.
"""
