"""Round trips: layouts, formulas, proofs and derivations through their JSON, exactly; hostile JSON refused.

Layouts travel as CuTe notation (a JSON string), as every symcute JSON document
holds them: ``Layout.parse(str(L)) == L`` for any layout, huge, negative, zero
or basis-strided.  Formulas, proofs and derivations have ``to_json`` and
``from_json``; reading back gives the same JSON and the same text (and, for a
derivation, the same Markdown proof).  Mutated JSON is a value or a SymcuteError.
"""

from __future__ import annotations

import json

from hypothesis import assume, given, strategies as st

import symcute.symbolic as sym
from symcute.expr import derive_expr
from symcute import Layout
from symcute.core.basis import ScaledBasis
from symcute.core.composed import ComposedLayout
from symcute.core.parse import parse_layout
from symcute.core.swizzle import Swizzle
from symcute.report import markdown, recheck_note
from symcute.symbolic import Formula
from symcute.symbolic.proof import Proof
from symcute import recipes
from symcute.trace import Derivation

from ..strategies import flat_layouts
from .harness import fuzz_settings, outcome
from .hostile import mutated

INTS = st.integers(-(1 << 70), 1 << 70) | st.sampled_from([0, 1, -1, 2, 1 << 62, (1 << 63) + 1, -(1 << 64)])


def int_tuples(leaf, depth=0):
    if depth >= 3:
        return leaf
    return leaf | st.lists(st.deferred(lambda: int_tuples(leaf, depth + 1)), max_size=4).map(tuple)


@st.composite
def any_layouts(draw):
    shape = draw(int_tuples(INTS))
    def stride_like(s, path=()):
        if isinstance(s, tuple):
            return tuple(stride_like(x, path + (i,)) for i, x in enumerate(s))
        if draw(st.integers(0, 5)) == 0:
            return ScaledBasis(draw(INTS), tuple(draw(st.lists(st.integers(0, 5), min_size=1, max_size=3))))
        return draw(INTS)
    return Layout(shape, stride_like(shape))


@fuzz_settings(ci=300, large=20_000)
@given(any_layouts())
def test_layout_round_trips_through_its_notation(L):
    text = json.loads(json.dumps(str(L)))
    assert Layout.parse(text) == L
    assert str(Layout.parse(text)) == str(L)


@fuzz_settings(ci=100, large=5_000)
@given(st.integers(0, 5), st.integers(0, 5), st.integers(-8, 8).filter(bool), st.integers(0, 1 << 20),
       st.sampled_from(["(8,64):(64,1)", "((4,2),8):((2,1),8)", "16:1"]))
def test_composed_layout_round_trips(b, m, s, offset, inner):
    kind, sw = outcome("Swizzle", Swizzle, b, m, s)
    assume(kind == "value")   # CuTe refuses this swizzle: not a case of the round trip
    C = ComposedLayout(sw, offset, Layout.parse(inner))
    assert str(parse_layout(json.loads(json.dumps(str(C))))) == str(C)


SMALL_EXTENTS = (1, 2, 2, 3, 4, 8)
WILD_STRIDES = (0, 1, 2, 3, 4, 8, 16, -1, -4, 1 << 40, (1 << 63) + 5)


def small_layouts():
    return flat_layouts(extents=SMALL_EXTENTS, strides=WILD_STRIDES)


def _named(L, draw_names):
    return sym.formula(L, draw_names) if draw_names else sym.formula(L)


@fuzz_settings(ci=200, large=20_000)
@given(small_layouts(), st.booleans())
def test_formula_round_trips(L, rename):
    names = None
    if rename:
        flat = [f"n{i}_x" for i in range(len(str(L)))]
        it = iter(flat)
        def like(s):
            return tuple(like(x) for x in s) if isinstance(s, tuple) else next(it)
        names = like(L.shape)
    f = sym.formula(L, names)
    for g in (f, sym.right_inverse(f) if _ok(sym.right_inverse, f) else f,
              sym.coalesce(f) if _ok(sym.coalesce, f) else f):
        back = Formula.from_json(g.to_json())
        assert back.to_json() == g.to_json()
        assert str(back) == str(g) and back.layout == g.layout and back.axes == g.axes
        assert back.names == g.names and back.table() == g.table()


def _ok(fn, f) -> bool:
    from symcute.errors import SymcuteError
    try:
        fn(f)
        return True
    except SymcuteError:
        return False


CLAIMS = [
    lambda a, b: sym.prove(a, b),
    lambda a, b: sym.prove(a, b, domain=7),
    lambda a, b: sym.prove_right_inverse(a),
    lambda a, b: sym.prove_left_inverse(a),
    lambda a, b: sym.prove_right_inverse(a, b),
    lambda a, b: sym.is_injective(a),
    lambda a, b: sym.is_surjective(a, 8),
    lambda a, b: sym.is_bijective(a),
]


@fuzz_settings(ci=300, large=20_000)
@given(small_layouts(), small_layouts(), st.sampled_from(range(len(CLAIMS))))
def test_proof_round_trips(a, b, k):
    kind, proof = outcome("prove", CLAIMS[k], a, b)
    assume(kind == "value")   # a refused claim has no proof to round-trip
    back = Proof.from_json(proof.to_json())
    assert back.to_json() == proof.to_json()
    assert str(back) == str(proof)
    assert (back.verdict, back.method, back.statement, back.reason) == (proof.verdict, proof.method,
                                                                     proof.statement, proof.reason)


EXPRESSIONS = ["right_inverse(F)", "upcast<4>(right_inverse(F))", "left_inverse(F)", "coalesce(F)",
               "complement(F, 64)", "composition(F, 4:2)", "logical_divide(F, 2)", "F.with_shape(2, size(F) / 2)",
               "right_inverse(F).with_shape(2, 2)", "make_layout(F, F)"]


@fuzz_settings(ci=30, large=2_000)
@given(small_layouts(), st.sampled_from(EXPRESSIONS), st.booleans())
def test_derivation_round_trips(L, expr, named):
    names = {"F": "((a,b),(c,d))" if isinstance(L.shape[0], tuple) else
             "(" + ",".join(f"x{i}" for i in range(L.rank)) + ")"} if named else {}
    kind, d = outcome("derive_expr", derive_expr, expr, {"F": str(L)}, names, seconds=30)
    assume(kind == "value")   # a refused expression has no derivation to round-trip
    text = d.to_json()
    back = Derivation.from_json(text)
    assert back.to_json() == text
    assert markdown(back, "en") == markdown(d, "en") + recheck_note(back, "en")  # the same document, re-checked


def test_recipes_round_trip():
    for d in [recipes.derive_retile(**recipes.SEED),
              recipes.derive_tv("SM90_64x64x16_F16F16F16_RS<GMMA::Major::K,GMMA::Major::K>", "1,1,1", ("A", "C")),
              recipes.derive_bank(smem="Sw<3,3,3> o 0 o (32,64):(64,1)"), recipes.derive_swizzle()]:
        text = d.to_json()
        back = Derivation.from_json(text)
        assert back.to_json() == text
        for lang in ("en", "zh"):
            assert recheck_note(back, lang) and markdown(back, lang) == markdown(d, lang) + recheck_note(back, lang)


# --- hostile JSON ---------------------------------------------------------------------------------------

F_JSON = sym.formula(Layout.parse("(4,8):(8,1)"), "(m,k)").to_json()
P_JSON = sym.prove_right_inverse(Layout.parse("(4,8):(8,1)")).to_json()
P2_JSON = sym.is_injective(Layout.parse("(4,2):(1,1)")).to_json()
D_JSON = derive_expr("upcast<2>(right_inverse(F))", {"F": "(4,8):(8,1)"}, {"F": "(m,k)"}).to_json()
JSON_POOL = ['"', "{", "}", "[", "]", ",", ":", "null", "true", "1e400", "-1", "0", "4611686018427387904",
             '"layout"', '"axes"', '"role"', '"value"', '"step"', '"kind"', '"tuple"', '"text"',
             '"((((((((((1))))))))))"', '"Sw<3,4,3> o 0 o 8:1"', '"__import__(\'os\')"', '"<script>"', "\\u0000",
             '"' + "(" * 150 + '"', '"1' + "0" * 5000 + '"']


@fuzz_settings(ci=150, large=20_000)
@given(mutated([F_JSON], JSON_POOL, max_edits=3))
def test_formula_from_hostile_json(text):
    outcome("Formula.from_json", Formula.from_json, text)


@fuzz_settings(ci=150, large=20_000)
@given(mutated([P_JSON, P2_JSON], JSON_POOL, max_edits=3))
def test_proof_from_hostile_json(text):
    kind, p = outcome("Proof.from_json", Proof.from_json, text)
    if kind == "value":
        str(p)


@fuzz_settings(ci=100, large=20_000)
@given(mutated([D_JSON], JSON_POOL, max_edits=3))
def test_derivation_from_hostile_json(text):
    kind, d = outcome("Derivation.from_json", Derivation.from_json, text)
    if kind == "value":
        outcome("markdown(from_json)", markdown, d, "en", seconds=10)


BANK_JSON = recipes.derive_bank(copy_atom="SM90_U32x4_STSM_N", smem="(32,16):(16,1)").to_json()
SWIZZLE_JSON = recipes.derive_swizzle().to_json()


@fuzz_settings(ci=60, large=5_000)
@given(mutated([BANK_JSON, SWIZZLE_JSON], JSON_POOL + ['"bytes"', '"notes"', '"store_stream"', '"certificate"',
                                                       '"skipped"', '"swizzled"', '"lanes"'], max_edits=3))
def test_a_bank_or_swizzle_derivation_from_hostile_json(text):
    # reading back re-proves each proof step: a layout mutated to 2^63-1 rows takes the prover's exact back-ends
    # (isl, z3) to their own time limits before it answers unknown and the document is refused
    kind, d = outcome("Derivation.from_json", Derivation.from_json, text, seconds=30)
    if kind == "value":   # the records refuse what their recipe did not write: a SymcuteError, never a crash
        outcome("markdown(from_json)", markdown, d, "zh", seconds=10)


def test_derive_expr_json_reads_back_in_a_fresh_process(tmp_path):
    # issue 31: the prove_contract rule was registered by symcute.recipes.steps at its import, so a
    # fresh process refused the JSON of derive expr ("cites origin 'symcute'; the rule catalog has 'cute'")
    import subprocess
    import sys
    from ..cli_runner import ROOT, run_cli
    code, out, err = run_cli(["derive", "expr", "logical_divide((8,8):(1,8), (2,2))", "--format", "json"])
    assert code == 0, err
    p = tmp_path / "d.json"
    p.write_text(out)
    script = ("import sys; from symcute.trace import Derivation; "
              "Derivation.from_json(open(sys.argv[1]).read()); "
              "print('recipes imported' if 'symcute.recipes.steps' in sys.modules else 'read')")
    proc = subprocess.run([sys.executable, "-c", script, str(p)], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() in ("read", "recipes imported"), proc.stderr[-800:]
