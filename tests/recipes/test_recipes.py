"""The recipes of symcute.recipes: their values are the atoms' and core's, their checks the prover's."""

import pytest
from hypothesis import given, settings, strategies as st

import symcute as sc
import symcute.symbolic as sym
from symcute.atoms import make_tiled_mma, mma_atoms
from symcute.errors import SymcuteError
from symcute.report import markdown
from symcute.trace import Derivation
from symcute.expr import derive_expr
from symcute.recipes import (
    SEED, coordinate_terms, derive_catalog, derive_retile, derive_tv, distinct_values, image,
)

from ..report.seedfacts import has, plain


def test_retile_values_are_the_atoms_values():
    for op in "ABC":
        d = derive_retile(**dict(SEED, operand=op, contrast=None, copy_atom="UniversalCopy<uint32_t>"))
        mma = make_tiled_mma(SEED["mma"], SEED["atom_layout"])
        F = mma.get_layout_TV(op)
        assert d.obj(d.labelled("F")) == F
        assert d.obj(d.labelled("G")) == sc.right_inverse(F)
        tile = next(s.details["tile"] for s in d.find("table") if s.details["kind"] == "retile_config")
        assert d.obj(d.labelled("H")) == sc.right_inverse(F).with_shape(*tile)
        V = sc.size(d.obj(d.labelled("fragment"))[0])   # size<0>(fragment)
        assert d.obj(d.labelled("frg_layout_mn")) == sc.upcast(d.obj(d.labelled("H")), 128 * V)
        proofs = {s.details["claim"]: s.details["verdict"] for s in d.steps(top_level_only=True)
                  if "claim" in s.details}
        assert proofs["right_inverse"] == "proved" and proofs["with_shape"] == "proved"
        assert proofs["left_inverse"] == ("proved" if op == "C" else "refuted")   # A, B are broadcast
        assert proofs["injective"] == ("proved" if op == "C" else "refuted")


def test_thread_domain_counts_for_B_broadcast_over_M():
    d = derive_retile(**dict(SEED, operand="B", contrast=None))
    rows = next(s.details for s in d.steps(top_level_only=True) if s.details.get("kind") == "thread_domain")["rows"]
    assert [(r["threads"], r["tvs"], r["distinct"]) for r in rows] == [(64, 256, 256), (128, 512, 256)]
    out = markdown(d, "en")
    assert "btile" in out and has(out, "(wm,wn) → 0*wm+wn → wn")


def test_frg_values_changes_V_and_N():
    d = derive_retile(**dict(SEED, frg_values=4, contrast=None))
    cfg = next(s.details for s in d.steps(top_level_only=True) if s.details.get("kind") == "retile_config")
    assert (cfg["V"], cfg["N"]) == (4, 512)
    assert d.text(d.labelled("frg_layout_mn")) == "((1,1,1),(1,1,2)):((1,1,1),(1,1,1))"


@pytest.mark.parametrize("kwargs, needle", [
    (dict(operand="D"), "operand"), (dict(atom_layout="2,x"), "atom layout"), (dict(frg_values=0), "value count"),
    (dict(contrast=-1), "contrast"), (dict(mma="NOPE"), "unknown MMA atom"),
])
def test_retile_errors(kwargs, needle):
    with pytest.raises(SymcuteError, match=needle):
        derive_retile(**dict(SEED, **kwargs))


def test_image_and_distinct_values_match_core_evaluation():
    for text in ["((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))", "(3,(2,5)):(7,(0,-2))", "7:0"]:
        L = sc.Layout.parse(text)
        values = [L(i) for i in range(L.size())]
        assert image(L) == values and distinct_values(L) == len(set(values))


def test_coordinate_terms_split_only_without_carries():
    F = sym.formula(sc.Layout.parse("(4,8):(8,1)"), names=("a", "b"))
    assert coordinate_terms(F, (8, 4)) == [[[1, "b", 8]], [[1, "a", 4]]]
    G = sym.formula(sc.Layout.parse("(4,8):(1,4)"), names=("a", "b"))   # b carries out of the first mode
    assert coordinate_terms(G, (8, 4)) is None


def test_expr_follows_names_and_proves_each_rule():
    d = derive_expr("upcast<1024>(right_inverse(F).with_shape(32,16))",
                    {"F": "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"},
                    {"F": "((t0,t1,wm,wn),((v0,v1,v2),(a,b)))"})
    formulas = [s.details for s in d.steps(top_level_only=True) if s.rule == "formula"]
    assert [f["rule"] for f in formulas] == ["right_inverse", "with_shape", "upcast"]
    assert formulas[0]["text"] == "4*t1 + 256*v1 + 32*wm + 128*v0 + t0 + 512*v2"
    checks = [s.details for s in d.steps(top_level_only=True) if "claim" in s.details]
    assert [(c["claim"], c["verdict"], c["step"]) for c in checks] == [("right_inverse", "proved", 1),
                                                                       ("equal", "proved", 2),
                                                                       ("contract", "proved", 3)]
    again = markdown(Derivation.from_json(d.to_json()))
    # the same document, plus the closing note of what was re-checked on reading
    assert again.startswith(markdown(d)) and "**Imported.** Re-checked when read from JSON: derived again" in again


def test_expr_with_cpp_spellings_of_atoms():
    d = derive_expr("right_inverse(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, "
                    "Layout<Shape<_2,_2,_1>>{}).get_layoutA_TV())")
    assert d.text(d.labelled("result")) == "(8,2,2,2,4,2):(4,256,32,128,1,512)"
    rules = [s.rule for s in d.steps(top_level_only=True)]
    assert rules[:2] == ["make_tiled_mma", "get_layoutA_TV"] and "prove_right_inverse" in rules
    for lang in ("en", "zh"):
        out = markdown(d, lang)
        assert "thridx_2_thrid" in plain(out) and has(out, "(8,2,2,2,4,2):(4,256,32,128,1,512)")
        assert has(out, "64*t0 + t1 + 16*wm + 0*wn + 32*v0 + 8*v1 + 256*v2")   # the atoms layer's names
        assert has(out, "4*t1 + 256*v1 + 32*wm + 128*v0 + t0 + 512*v2")


def test_expr_composition_is_checked_against_the_composite():
    d = derive_expr("composition(A, B)", {"A": "(4,8):(8,1)", "B": "(8,4):(4,1)"})
    (c,) = [s.details for s in d.steps(top_level_only=True) if "claim" in s.details]
    assert (c["claim"], c["verdict"]) == ("equal", "proved")


@pytest.mark.parametrize("args, needle", [
    (("", {}, {}), "empty"), (("F", {}, {"F": "(a)"}), "no --let"), (("F", {"F": "3"}, {"F": "a"}), "not a layout"),
    (("right_inverse(F", {"F": "4:1"}, {}), "right_inverse"),
])
def test_expr_errors(args, needle):
    with pytest.raises(SymcuteError, match=needle):
        derive_expr(*args)


shapes = st.lists(st.integers(1, 4), min_size=1, max_size=4)


@given(shapes, st.data())
@settings(max_examples=60, deadline=None)
def test_every_right_inverse_step_is_proved(shape, data):
    """CuTe's @post for right_inverse, checked through the whole derive-expr chain on random layouts."""
    strides = data.draw(st.lists(st.integers(0, 40), min_size=len(shape), max_size=len(shape)))
    text = f"({','.join(map(str, shape))}):({','.join(map(str, strides))})"
    d = derive_expr("right_inverse(L)", {"L": text})
    (check,) = [s.details for s in d.steps(top_level_only=True) if s.details.get("claim") == "right_inverse"]
    assert check["verdict"] == "proved"
    assert d.text(d.labelled("result")) == str(sc.right_inverse(sc.Layout.parse(text)))


def test_tv_recipe_for_gmma():
    d = derive_tv("SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>", (1, 1, 1))
    f = {s.details["label"]: s.details for s in d.steps(top_level_only=True) if s.rule == "formula"}
    assert f["F_A"]["broadcast"] == [["t0t1t2", 128]] and f["F_A"]["copies"] == 128
    assert f["G_A"]["size"] == 64 * 16 and f["G_A"]["skipped"] == ["t0t1t2"]
    assert f["F_C"]["broadcast"] == []
    verdicts = [(s.details["operand"], s.details["claim"], s.details["verdict"])
                for s in d.steps(top_level_only=True) if "claim" in s.details]
    assert ("A", "right_inverse", "proved") in verdicts and ("A", "left_inverse", "refuted") in verdicts
    assert ("C", "left_inverse", "proved") in verdicts
    out = markdown(d, "zh")
    assert "描述符" in out and "GMMA::smem_desc<GMMA::Major::K>" in out


def test_catalog_rows_match_the_catalog():
    d = derive_catalog(filter="SM80_16x8x8")
    (tab,) = [s.details for s in d.steps() if s.rule == "table"]
    entries = mma_atoms(filter="SM80_16x8x8")
    assert tab["count"] == len(entries) == len(tab["rows"])
    for row, entry in zip(tab["rows"], entries):
        for op in "ABC":
            L = entry.atom.layout(op)
            assert row["cells"][op]["size"] == L.size()
            assert row["cells"][op]["rsize"] == sc.right_inverse(L).size()
            assert row["cells"][op]["right"] == "proved"
    rows = [line for line in markdown(d).splitlines() if line.startswith("| `SM80")]
    assert len(rows) == len(entries) and sum(r.count("✓") for r in rows) == 3 * len(entries)
