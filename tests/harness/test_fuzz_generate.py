"""The generator and the mutator: every feature yields valid programs on which the healthy
implementations agree, every diagnostic snippet raises its code, and the program stream is
reproducible and free of exact duplicates."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from fuzz_support import ROOT, assert_agree, observe

from court.fuzz import transforms
from court.fuzz import values as V
from court.fuzz.campaign import ProgramSource, fingerprint
from court.fuzz.case import Case
from court.fuzz.context import Context, Scope, Steering
from court.fuzz.control import fault, fault_sampler, p_callcc, p_handler_compose
from court.fuzz.edges import edge_fresh, edge_sampler
from court.fuzz.feedback import Coverage, core_ir_census
from court.fuzz.forms import p_prim
from court.fuzz.generate import FEATURES, generate, program
from court.fuzz.mutate import Mutator, expression_paths
from court.fuzz.pitfalls import edge_numtext
from court.fuzz.recursion import TAIL_STEPS, shape_deep, tail_helper_loop
from court.fuzz.reduce import parse
from court.fuzz.shapes import diagnostic, through_global
from court.verdict import judge


def forced(feature: str, seed: int, n: int, safe: bool = True):
    rng = random.Random(f"{feature}:{seed}")
    for _ in range(n):
        features = {f for f in FEATURES if rng.randrange(100) < 30} | {feature}
        gen = Context(rng, features, safe)
        source, input_text = program(gen)
        yield source, input_text, gen.tags


@pytest.mark.parametrize("feature", FEATURES)
def test_each_feature_yields_programs_the_healthy_court_agrees_on(feature):
    tags: set[str] = set()
    for source, input_text, t in forced(feature, 1, 10):
        assert_agree(source, input_text)
        tags |= t
    assert tags, feature


@pytest.mark.parametrize("seed", [1, 2])
def test_unsafe_programs_agree_too(seed):
    for source, input_text, _ in forced("errors", seed, 12, safe=False):
        assert_agree(source, input_text)


def test_the_language_is_covered():
    """Over several hundred programs the generator reaches the forms the issue lists (with
    this seed all are reached by program 514; each new producer takes a share from the rest)."""
    rng = random.Random("cover")
    tags: set[str] = set()
    for _ in range(800):
        tags |= set(generate(rng).tags)
    for wanted in ["gen:set_local", "shape:set-captured", "shape:global_set", "shape:rebind",
                   "shape:shadow-prim", "shape:letrec-forward", "shape:internal-define",
                   "form:do-multi", "form:named-let-multi", "form:let-multi", "gen:cond",
                   "gen:when", "gen:case", "prim:vector-set!", "shape:nested-handlers",
                   "shape:wind-guard-handler", "shape:callcc-handler", "shape:callcc-wind",
                   "shape:callcc-inside", "shape:reraise", "shape:values-floor/",
                   "shape:values-truncate/", "shape:values-sqrt", "shape:rest-one", "prim:apply",
                   "shape:nonboolean-test", "shape:several-raises", "shape:printer",
                   "shape:improper", "prim:car", "prim:member", "prim:vector-ref",
                   "prim:list-ref", "edge:index", "edge:span", "edge:big", "edge:compare",
                   "edge:empty", "edge:rounding", "shape:compose-return-through-guard",
                   "shape:compose-escape-then-raise", "shape:compose-handler-escapes",
                   "shape:compose-escape-out-of-wind", "shape:tailloop", "edge:equality",
                   "edge:arity", "edge:quasi", "edge:predicate", "shape:loop-closures-do",
                   "shape:loop-closures-named-let", "form:do-no-step",
                   "shape:set-between-operands", "shape:vector-from-literal",
                   "shape:wind-after-handlers"]:
        assert wanted in tags, wanted


# Shapes that reach the programs seeded bugs (bench/seeded_bugs/) need; each must give programs
# the healthy court agrees on.
NEW_SHAPES = ("shape:set-between-operands", "shape:vector-from-literal",
              "shape:wind-after-handlers", "shape:let*-rebind", "shape:deep-escapes",
              "shape:vector-mutated-while-mapped", "shape:case-uncomparable-data",
              "edge:contagion", "edge:near", "edge:numtext", "edge:unicode", "edge:confused",
              "shape:number-tokens", "shape:deep-through", "shape:diag-global",
              "shape:callcc-operands", "shape:reraise-resumed", "shape:wind-before-escape",
              "shape:wind-values", "form:do-prev", "shape:tail-wide", "edge:novalue",
              "edge:improper", "edge:falsy", "edge:allocation", "shape:define-in-when",
              "shape:define-in-cond", "shape:define-in-guard", "shape:define-in-let*",
              "shape:procedure-replaced", "edge:escaping", "shape:rebind-in-procedure",
              "shape:rebind-in-let", "shape:tail-cond-first", "shape:tail-do-result",
              "shape:tail-cond-middle", "shape:tail-case-first", "edge:retyped",
              "edge:valuecount", "edge:fresh", "shape:deep-arity", "edge:misfed",
              "shape:guard-then-locals", "edge:indirect", "edge:signedzero", "edge:order",
              "edge:cycle", "edge:sided", "shape:deep-through2", "shape:deep-tail-through",
              "shape:deep-bounce", "shape:loop-closures-define", "edge:absent",
              "shape:nested-callcc", "shape:nested-wind", "edge:nested-equal",
              "shape:tail-helper-3", "shape:wind-escape-bad-after", "shape:wind-raise-bad-after",
              "shape:procedure-replaced-internal", "shape:procedure-replaced-letrec",
              "shape:values-inexact", "shape:fault-sampler", "shape:edge-sampler")


@pytest.mark.parametrize("shape", NEW_SHAPES)
def test_the_shapes_for_seeded_bugs_give_programs_the_court_agrees_on(shape):
    rng = random.Random(shape)
    found = 0
    for _ in range(30000):  # generation alone is cheap; the deep shapes are rare by design
        gen = Context(rng, set(FEATURES), rng.random() < 0.5)
        source, input_text = program(gen)
        if shape in gen.tags:
            assert_agree(source, input_text)
            found += 1
            if found == 4:
                return
    pytest.fail(f"no program with {shape}")


def test_the_deepest_recursion_that_fits_is_reached_at_every_arity():
    """The sweep shape (rare in whole programs: four recursions of 9,999 levels cost every
    member tens of milliseconds) recurs through procedures of one to four parameters to the
    deepest depth the limit allows: the members agree, and none reaches the limit."""
    rng = random.Random("deep-sweep")
    for _ in range(500):
        gen = Context(rng, set(FEATURES), True)
        forms = shape_deep(gen, Scope())
        if "shape:deep-arity-sweep" in gen.tags:
            break
    else:
        pytest.fail("the sweep was never drawn")
    shown = [f for f in forms if f.startswith("(display")]
    assert len(shown) in (4, 5) and all(f.count(" 9999") == 1 for f in shown), forms
    obs = assert_agree("\n".join(forms), None)
    assert obs["tree"]["semantic"]["stdout"] == "9999" * len(shown)


def test_a_tail_loop_making_a_helper_call_each_iteration_finishes_in_every_form():
    """A loop of 10,050 iterations past the recursion limit, each making one non-tail call that
    returns (directly, by apply or map, under call/cc, guard, a handler or a wind): nothing the
    call leaves behind may pile up, so every member finishes with the same sum."""
    rng = random.Random("tail-helper")
    hows: dict[str, list[str]] = {}
    for _ in range(400):
        gen = Context(rng, set(FEATURES), True)
        forms = tail_helper_loop(gen, "loop", "n")
        how = next(t for t in gen.tags if t.startswith("shape:tail-helper-by-"))
        hows.setdefault(how, forms)
    assert len(hows) == 12, sorted(hows)
    for how, forms in sorted(hows.items()):
        sem = assert_agree("\n".join(forms), None)["tree"]["semantic"]
        assert sem["status"] == "ok" and sem["stdout"].lstrip("-").isdigit(), (how, sem)


def test_broken_programs_agree_and_are_mostly_reader_diagnostics():
    """A program cut short or given a stray bracket: the members agree, and most such
    programs end in a source error (the span of which is compared)."""
    rng = random.Random("broken")
    statuses = []
    for _ in range(40):
        gen = Context(rng, set(FEATURES), False)
        source, input_text = program(gen)
        obs = assert_agree(transforms.broken(gen, source), input_text)
        statuses.append(obs["tree"]["semantic"]["status"])
    assert statuses.count("source-error") > len(statuses) // 2, statuses


def test_misnamed_programs_agree_and_a_forbidden_name_is_refused_anywhere():
    """One symbol replaced by a reserved word or a forbidden name: the members agree, and a
    forbidden name in an operand, a binder or a quoted datum is E120 like one at a head."""
    rng = random.Random("misnamed")
    codes = []
    for _ in range(30):
        gen = Context(rng, set(FEATURES), False)
        source, input_text = program(gen)
        misnamed = transforms.misnamed(gen, source)
        assert misnamed != source and "shape:misnamed" in gen.tags
        sem = assert_agree(misnamed, input_text)["tree"]["semantic"]
        codes += [d["code"] for d in sem["diagnostics"]]
    assert "E120" in codes and "E110" in codes, codes
    for text in ["(list 1 let-values)", "(lambda (include) 1)", "'(a define-values)"]:
        sem = assert_agree(text + "\n", None)["tree"]["semantic"]
        assert sem["diagnostics"][0]["code"] == "E120", text


def transformed_codes(transform: str, n: int) -> list[str]:
    """The first diagnostic codes of ``n`` unsafe programs changed by the generator's
    ``transform``, each checked for agreement (programs it leaves unchanged are skipped)."""
    rng = random.Random(transform)
    codes = []
    for _ in range(n):
        gen = Context(rng, set(FEATURES), False)
        source, input_text = program(gen)
        changed = getattr(transforms, transform)(gen, source)
        if changed == source:  # nothing for the transform to change
            continue
        assert f"shape:{transform}" in gen.tags
        sem = assert_agree(changed, input_text)["tree"]["semantic"]
        codes += [d["code"] for d in sem["diagnostics"]][:1]
    return codes


def test_misescaped_programs_agree_and_a_foreign_escape_is_refused():
    """A string given another Scheme's escape, or a character another Scheme's name: the
    members agree, and the reader refuses it (E150) unless it landed inside an escape."""
    codes = transformed_codes("misescaped", 30)
    assert codes.count("E150") >= 10, codes
    for text in ['(display "bell\\a")', "(list #\\Space)", '"\\0"']:
        sem = assert_agree(text + "\n", None)["tree"]["semantic"]
        assert sem["diagnostics"][0]["code"] == "E150", text


def test_a_parameter_written_twice_is_refused_at_the_second():
    codes = transformed_codes("rebound", 40)
    assert codes.count("E130") >= 10, codes
    sem = assert_agree("(define (f a b a) a)\n", None)["tree"]["semantic"]
    diagnostic = sem["diagnostics"][0]
    assert diagnostic["code"] == "E130" and diagnostic["span"]["column"] == 16  # the second a


def test_a_fault_through_a_global_procedure_is_made_there():
    gen = Context(random.Random("global"), set(FEATURES), False)
    text = through_global(gen, "E312", "(+ #t 1)", "bad")
    assert text.startswith("(define (bad p") and "(+ p" in text
    sem = assert_agree(text + "\n", None)["tree"]["semantic"]
    assert sem["diagnostics"][0]["code"] in ("E312", "E302")
    five = through_global(gen, "E301", "(5 3)", "five")
    assert assert_agree(five + "\n", None)["tree"]["semantic"]["diagnostics"][0]["code"] == "E301"


def test_multi_line_strings_and_the_new_faults_agree():
    for snippet in ['(define s "two\nlines")\n(car s)', "(+ 1 (floor/ 7 2))",
                    "((lambda () (define a (g)) (define (g) 1) a))"]:
        assert_agree(snippet + "\n", None)


def test_any_typed_calls_draw_primitives_returning_any():
    rng = random.Random("any")
    gen = Context(rng, set(FEATURES), True)
    for _ in range(2000):
        p_prim(gen, 1, gen_scope(), "any")
    names = {t[5:] for t in gen.tags if t.startswith("prim:")}
    assert {"car", "member", "vector-ref", "list-ref", "assoc"} <= names


def gen_scope():
    return Scope()


@pytest.mark.parametrize("code", sorted(V.RUNTIME_FAULTS))
def test_every_runtime_fault_snippet_raises_its_code(code):
    for snippet in V.RUNTIME_FAULTS[code]:
        obs = observe(snippet + "\n", None)
        sem = obs["tree"]["semantic"]
        if code.startswith("W"):
            assert code in [w["code"] for w in sem["warnings"]], snippet
        else:
            assert sem["diagnostics"] and sem["diagnostics"][0]["code"] == code, (snippet, sem)
        assert judge(obs).kind == "agree", snippet


@pytest.mark.parametrize("code", sorted(V.SOURCE_FAULTS))
def test_every_source_fault_snippet_raises_its_code(code):
    for snippet in V.SOURCE_FAULTS[code]:
        obs = observe(snippet + "\n", None)
        sem = obs["tree"]["semantic"]
        assert sem["diagnostics"] and sem["diagnostics"][0]["code"] == code, (snippet, sem)
        assert judge(obs).kind == "agree", snippet


@pytest.mark.parametrize("outer", sorted(TAIL_STEPS))
def test_every_tail_position_loops_past_the_recursion_limit(outer):
    """Each tail loop shape, alone and around every other, answers `done` on every healthy
    member: a position that is not a tail call would end with recursion-limit instead."""
    inners = [None] + (sorted(TAIL_STEPS) if "{call}" in TAIL_STEPS[outer] else [])
    for inner in inners:
        call = "(loop (- n 1))"
        if inner:
            call = TAIL_STEPS[inner].format(n="n", f="loop", call=call)
        step = TAIL_STEPS[outer].format(n="n", f="loop", call=call)
        obs = assert_agree(f"(define (loop n) {step})\n(loop 10050)\n", None)
        assert obs["tree"]["semantic"]["values"] == ["done"], (outer, inner)


def test_handler_compositions_agree_and_answer():
    """The composed-handler shapes run to an answer or a diagnostic the members share."""
    rng = random.Random("compose")
    seen: set[str] = set()
    for _ in range(60):
        gen = Context(rng, {"handlers", "errors", "callcc", "dynwind"}, True)
        assert_agree(p_handler_compose(gen, 2, gen_scope(), "any") + "\n", None)
        seen |= {t for t in gen.tags if t.startswith("shape:compose-")}
    assert len(seen) == 6, seen


def test_deep_recursion_near_the_limit_agrees():
    source = "(define (d n) (if (= n 0) 0 (+ 1 (d (- n 1)))))\n(d 9999)\n"
    obs = assert_agree(source, None)
    assert obs["tree"]["semantic"]["values"] == ["9999"]


def test_printer_paths_agree():
    assert_agree("\n".join(V.PRINTER) + "\n", None)


def test_mutants_are_valid_and_agree():
    m = Mutator(ROOT / "corpus", random.Random("mutants"))
    assert m.available()
    ops: set[str] = set()
    for _ in range(25):
        case = m.mutant()
        assert case is not None and case.origin.startswith("mutated:")
        parse(case.source)  # a mutant is always readable
        assert_agree(case.source, case.input)
        ops |= set(case.tags)
    assert {"mut:swap", "mut:constant", "mut:wrap"} <= ops


def test_mutation_stays_in_expression_positions():
    forms = parse("(define (f x) (let ((y 1)) (list 'a x y)))\n(f 2)\n")
    texts = set()
    for p in expression_paths(forms):
        node = forms[p[0]]
        for i in p[1:]:
            node = node[1][i]
        texts.add(str(node))
    assert str(["atom", "a"]) not in texts  # quoted data is not an expression
    assert str(["atom", "x"]) in texts and str(["atom", "1"]) in texts
    assert str(["list", [["atom", "x"]], None]) not in texts  # formals are not


def test_the_program_stream_is_reproducible_and_has_no_duplicates():
    def stream(seed):
        src = ProgramSource(seed, corpus=ROOT / "corpus", mutate_percent=30)
        return [(c.source, c.input) for c in (src.next(None, None) for _ in range(300))], src

    a, sa = stream(5)
    b, _ = stream(5)
    c, _ = stream(6)
    assert a == b
    assert a != c
    assert len(set(a)) == len(a)


def test_duplicates_are_skipped_and_counted(monkeypatch):
    from court.fuzz import campaign
    programs = iter(["(+ 1 2)\n", "(+ 1 2)\n", "(+ 1 3)\n", "(+ 1 2)\n", "(+ 1 4)\n"])
    monkeypatch.setattr(campaign, "generate",
                        lambda rng, **kw: Case(next(programs), None, (), True))
    src = ProgramSource(1, corpus=None)
    got = [src.next(None, None).source for _ in range(3)]
    assert got == ["(+ 1 2)\n", "(+ 1 3)\n", "(+ 1 4)\n"]
    assert src.duplicates == 2


def test_steering_favours_what_is_rare():
    cov = Coverage()
    rng = random.Random("steer")
    for i in range(60):
        cov.add_program(generate(rng), census=i % 3 == 0)
    cov.add_observations({"tree": {"semantic": {"status": "runtime-error", "warnings": [],
                                                "diagnostics": [{"code": "E312"}]}}})
    steering = cov.steering()
    assert steering.faults["E340"] >= steering.faults["E312"]
    assert isinstance(steering, Steering) and steering.primitives
    kinds, names = core_ir_census("(define (f x) (set! x 1) x)\n(f 2)\n")
    assert {"DefineGlobal", "Lambda", "SetLocal", "TailApp"} <= kinds


def test_the_fault_tables_entries_are_drawn_toward_the_least_drawn():
    """Steered by what was drawn, the entries of one fault code's row are reached about
    equally often, where a uniform draw leaves some unreached for a long time."""
    cov = Coverage()
    pool = V.RUNTIME_FAULTS["E312"]
    rng = random.Random("entries")
    drawn = Counter()
    for _ in range(3 * len(pool)):
        gen = Context(rng, set(), False, cov.steering())
        gen.fault_entry("E312", pool)
        cov.add_program(Case("1\n", None, (), False, tags=tuple(gen.tags)), census=False)
        drawn.update(t for t in gen.tags if t.startswith("entry:"))
    assert len(drawn) == len(pool)  # every entry, in three draws per entry
    assert max(drawn.values()) <= 8, drawn
    steering = cov.steering()
    assert set(steering.entries) >= {f"E312:{i}" for i in range(len(pool))}



def test_the_fault_sampler_leaves_out_dear_entries_and_catches_inside_top_level_ones():
    """The sampler places several entries a program, each caught: never an exact product past
    the size bound (tens of milliseconds each), which fault() still places, one a program; a
    top-level define with the guard round its value."""
    left_out = V.TOP_LEVEL_FAULTS | V.DEAR_FAULTS
    assert V.DEAR_FAULTS and V.TOP_LEVEL_FAULTS
    rng = random.Random("sampler")
    sampled, planted = Counter(), Counter()
    for _ in range(1500):
        gen = Context(rng, set(), False)
        text = fault_sampler(gen, Scope())
        assert not any(e in text for e in left_out), text
        head = text[:text.index("(write (list ")]
        assert all(line.startswith("(define ") and "(guard (" in line
                   for line in head.splitlines()), text
        sampled.update(t for t in gen.tags if t.startswith("entry:"))
        gen = Context(rng, set(), False)
        fault(gen, Scope())
        planted.update(t for t in gen.tags if t.startswith("entry:"))
    dear = {f"entry:E311:{i}" for i, e in enumerate(V.RUNTIME_FAULTS["E311"])
            if e in V.DEAR_FAULTS}
    assert not dear & set(sampled) and dear & set(planted)
    assert len(sampled) >= 0.9 * (sum(map(len, V.RUNTIME_FAULTS.values())) - len(V.DEAR_FAULTS))
    programs = [fault_sampler(Context(random.Random(f"top:{i}"), set(), True), Scope()) for i in range(400)]
    top = [p for p in programs if "(define self-" in p]
    assert top and all(assert_agree(p + "\n", None) for p in top[:6])

def test_outer_escapes_labelled_tails_number_texts_and_later_definitions_agree():
    """Producers of rare program shapes: an outer continuation called
    from inside an inner call/cc, a cycle whose label falls on a list's tail, several number
    texts in one call, recursions through a primitive at the deepest level that fits (one
    way, or every way in turn), and globals read before the forms that define them."""
    from court.fuzz.effects import CYCLES

    rng = random.Random("nineteen")
    outer = 0
    for _ in range(200):
        gen = Context(rng, {"callcc", "errors"}, True)
        text = p_callcc(gen, 2, gen_scope(), "any")
        if "shape:callcc-outer" in gen.tags:
            outer += 1
            if outer <= 8:
                assert_agree(f"(write {text})\n", None)
    assert outer >= 20
    tails = [c for c in CYCLES if "(cdr {v})" in c]
    assert tails
    gen = Context(rng, set(), True)
    for cycle in tails:
        obs = assert_agree(cycle.format(v="v", w="w", a="1", b="2", use="(begin (write v) v)")
                           + "\n", None)
        assert " . #0=(" in obs["tree"]["semantic"]["stdout"]
    texts = {edge_numtext(gen, 2, gen_scope()) for _ in range(120)}
    several = [t for t in texts if t.startswith("(map string->number")]
    assert several and assert_agree("\n".join(sorted(several)[:10]) + "\n", None)
    deepest = [Context(random.Random(f"deep:{i}"), set(), True) for i in range(300)]
    forms = [shape_deep(g, Scope()) for g in deepest]
    assert any("shape:deep-through" in g.tags and "9999" in f[-1] for g, f in zip(deepest, forms, strict=True))
    rotating = [f for g, f in zip(deepest, forms, strict=True)
                if "shape:deep-rotate" in g.tags and "9999" in f[-1]]
    obs = assert_agree("\n".join(rotating[0]) + "\n", None)
    assert obs["tree"]["semantic"]["stdout"] == "9999"
    # the entry that calls a procedure before its definition: E300 where it stands, and a
    # value once the definition has run
    program = "\n".join(["(later-proc 4)", *V.later_definitions(["(later-proc 4)"])]) + "\n"
    obs = assert_agree(program, None)
    assert obs["vm"]["semantic"]["diagnostics"][0]["code"] == "E300"
    samplers = [fault_sampler(Context(random.Random(f"later:{i}"), set(), True), Scope()) for i in range(2000)]
    later = [p for p in samplers if "(define (later-proc x)" in p]
    assert later and all(p.index("(write (list ") < p.index("(define (later-proc") for p in later)
    obs = assert_agree(later[0] + "\n(write (later-proc 1))\n", None)
    assert obs["tree"]["semantic"]["stdout"].endswith("10")


def test_a_fault_caught_kept_and_raised_again_is_reported_where_it_happened():
    """diagnostic()'s re-raise context: the members agree, and the span is the fault's own,
    not the re-raise's (the code stays the fault's)."""
    rng = random.Random("reraise")
    checked = 0
    while checked < 6:
        gen = Context(rng, set(), False)
        text = diagnostic(gen, Scope())
        if "shape:diag-reraise" not in gen.tags or "(raise kept" not in text:
            continue
        code = next(t for t in gen.tags if t.startswith("fault:"))[len("fault:"):]
        diags = assert_agree(text + "\n", None)["tree"]["semantic"]["diagnostics"]
        checked += 1
        if diags and diags[0]["code"] == code and code not in ("E331", "E332"):
            assert diags[0]["span"]["line"] == 1, text
    program = "(let ((kept2 (guard (e1 (#t e1)) (car '()))))\n  (display 'kept)\n  (raise kept2))\n"
    span = assert_agree(program, None)["vm"]["semantic"]["diagnostics"][0]["span"]
    assert (span["line"], span["column"]) == (1, 34)


def test_several_copiers_of_one_base_agree():
    """edge_fresh's several-copier form: each copier's eq?, eqv? and equal? against the base,
    on which the healthy members agree."""
    rng = random.Random("copiers")
    several = []
    while len(several) < 8:
        gen = Context(rng, set(), True)
        text = edge_fresh(gen, 2, Scope())
        if "(list (let ((y" in text:
            several.append(text)
    obs = assert_agree("".join(f"(write {t})\n" for t in several), None)
    assert obs["tree"]["semantic"]["stdout"].count("#t") > 0


def test_fingerprint_ignores_boilerplate():
    assert fingerprint("(display (quotient -7 2))\n") == fingerprint("(quotient 1 -7)\n")
    # routing forms and the program's own names are not part of it: these two minimised
    # programs of one seeded bug (list-tail) share their primitives
    assert fingerprint("(cond ((car (list-tail (list 0 0 #f) 2))))\n") == ("car", "list-tail")
    assert fingerprint("(define (g15 x19) (if x19 (car (list-tail x19 1)) 0))\n(g15 1)\n") == \
        ("car", "list-tail")
    assert "guard" in fingerprint("(guard (e (#t 1)) (raise 'x))\n")


def test_the_edge_sampler_catches_every_fault_leaves_out_allocations_and_agrees():
    """Several edge calls in one written list, beside the rest of a program: every call that
    may fault is caught (one uncaught would end the program early), no allocation at the
    length bound (180 ms of the members' CPU each), and the healthy court agrees on them."""
    rng = random.Random("edge-sampler")
    families: Counter = Counter()
    texts = []
    for i in range(600):
        gen = Context(rng, set(), i % 2 == 0)
        text = edge_sampler(gen, Scope())
        assert "edge:allocation" not in gen.tags, text
        assert not re.search(r"\(make-\w+ (9999999|10000000)", text), text
        assert not gen.sampling
        families.update(t for t in gen.tags if t.startswith("edge:"))
        texts.append(text)
    assert len(families) >= 30, families
    for text in texts[:24]:
        obs = assert_agree(text + "\n", None)
        # caught faults come back as values: the program ends normally, its list written
        assert obs["tree"]["semantic"]["status"] == "ok", text
        assert obs["tree"]["semantic"]["stdout"].endswith(")"), text
