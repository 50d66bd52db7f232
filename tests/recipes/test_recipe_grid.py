"""The retile-d documents never overstate: over a grid of atoms x atom layouts x operands, every fact a
sentence claims is checked against values computed here from the atoms and core (not from the document's
own tables).

Facts and the sentences that claim them (en; zh alongside for a part of the grid):

* a broadcast (one element held by several TVs): any "broadcast" / "representative" / "twin" wording,
  "广播" in zh, exactly when size(F) > the number of tile elements;
* "Why E elements have T TVs": E and T are the tile's elements and size(F), and E < T;
* "only E matrix elements, while TiledNumThr*V is ... = N": only when E < N;
* "Why does the right inverse contain a stride S": S is the largest stride of right_inverse(F), S >= E;
* "Skipped: none": exactly when right_inverse(F) takes every mode of F (size(G) == size(F));
* "chose only some of them": exactly when size(G) < N.
"""

from __future__ import annotations

import re

import pytest

import symcute as sc
from symcute import right_inverse
from symcute.core import int_tuple as it
from symcute.recipes import derive_retile
from symcute.report import markdown

ATOMS = [  # (MMA, copy atom and value type that CuTe accepts with it)
    ("SM80_16x8x16_F16F16F16F16_TN", "SM75_U32x2_LDSM_N", "half_t"),
    ("SM80_16x8x8_F32TF32TF32F32_TN", "UniversalCopy<uint32_t>", "float"),
    ("SM75_16x8x8_F32F16F16F32_TN", "SM75_U32x1_LDSM_N", "half_t"),
    ("SM90_64x64x16_F16F16F16_RS<GMMA::Major::K,GMMA::Major::K>", "UniversalCopy<uint32_t>", "half_t"),
]
LAYOUTS = [(1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 2, 1)]
OPERANDS = ["A", "B", "C"]
GRID = [(a, c, t, lay, op) for a, c, t in ATOMS for lay in LAYOUTS for op in OPERANDS]
BROADCAST_WORDS = re.compile(r"broadcast|representative|twin|several TVs", re.I)


def facts(mma, atom_layout, op, N):
    tiled = sc.make_tiled_mma(mma, atom_layout)
    F = tiled.get_layout_TV(op)
    i, j = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}[op]
    elements = tiled.tile_size(i) * tiled.tile_size(j)
    G = right_inverse(F)
    return {"elements": elements, "tvs": F.size(), "G": G, "G_size": G.size(),
            "G_top": max(it.flatten_to_tuple(G.stride)), "N": N}


@pytest.mark.parametrize("mma, copy, vt, atom_layout, op", GRID,
                         ids=[f"{a.split('<')[0]}-{''.join(map(str, lay))}-{op}" for a, _c, _t, lay, op in GRID])
def test_every_claim_holds(mma, copy, vt, atom_layout, op):
    try:
        d = derive_retile(mma=mma, atom_layout=atom_layout, operand=op, copy_atom=copy, value_type=vt)
    except sc.SymcuteError as e:  # a configuration CuTe refuses is refused; nothing is claimed about it
        pytest.skip(f"refused: {e}")
    doc = markdown(d)
    T = sc.make_tiled_mma(mma, atom_layout).size()
    V = int(re.search(r"`TiledNumThr\*V` (?:is|等于) \d+×(\d+)", doc).group(1))
    f = facts(mma, atom_layout, op, T * V)
    broadcast = f["tvs"] > f["elements"]

    said = BROADCAST_WORDS.findall(doc)
    assert bool(said) == broadcast, f"broadcast is {broadcast} but the document says {said[:3]}"

    m = re.search(r"Why (\d+) elements have (\d+) TVs", doc)
    if m:
        assert (int(m[1]), int(m[2])) == (f["elements"], f["tvs"]) and f["elements"] < f["tvs"]
    assert ("only `%d` matrix elements" % f["elements"] in doc) == (f["elements"] < f["N"])
    m = re.search(r"Why does the right inverse contain a stride `(\d+)`\?", doc)
    if m:  # a stride CuTe's G has (the largest), reaching the tile's element count
        assert int(m[1]) == f["G_top"] and f["G_top"] >= f["elements"]
    assert ("Skipped: none." in doc) == (f["G_size"] == f["tvs"]), (f["G_size"], f["tvs"])
    assert ("chose only some of them" in doc) == (f["G_size"] < f["N"])
    assert f"`{f['G']}`" in doc or str(f["G"]) in doc  # G itself, in CuTe notation


@pytest.mark.parametrize("atom_layout, op", [((2, 1, 1), "A"), ((1, 2, 1), "B"), ((2, 2, 1), "A"), ((1, 1, 1), "C")])
def test_zh_broadcast_sentences_follow_the_facts(atom_layout, op):
    d = derive_retile(atom_layout=atom_layout, operand=op)
    f = facts("SM80_16x8x16_F16F16F16F16_TN", atom_layout, op, 0)
    zh = markdown(d, lang="zh")
    assert ("广播" in zh) == (f["tvs"] > f["elements"])
    assert ("代表" in zh) == (f["tvs"] > f["elements"])


def test_atom_layout_2_1_1_says_nothing_about_a_broadcast():
    doc = markdown(derive_retile(atom_layout=(2, 1, 1)))
    assert not BROADCAST_WORDS.search(doc) and "Skipped: none." in doc


@pytest.mark.cute
def test_an_sm70_mma_with_an_sm75_copy_atom_is_built_as_cute_builds_it_and_said_so():
    """CuTe compiles make_tiled_copy_A(Copy_Atom<SM75_U32x2_LDSM_N, half_t>, SM70 MMA) (it checks no
    architecture); symcute returns the same layouts, and the document says what CuTe accepted."""
    d = derive_retile(mma="SM70_8x8x4_F32F16F16F32_NT", atom_layout=(1, 1, 1))
    doc, zh = markdown(d), markdown(d, lang="zh")
    assert "is an sm75 instruction and `SM70_8x8x4_F32F16F16F32_NT` an sm70 MMA" in doc and "sm70 GPU" in zh
    assert "the TiledMMA has `8` threads, not a multiple of the copy atom's `32`" in doc
    mma = sc.make_tiled_mma("SM70_8x8x4_F32F16F16F32_NT")
    mine = sc.make_tiled_copy_A(sc.copy_atom("SM75_U32x2_LDSM_N", "half_t"), mma).get_layoutS_TV()
    from tests.differential.harness import oracle_or_skip
    res = oracle_or_skip().run_exprs({"c": "make_tiled_copy_A(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, "
                                           "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{})).get_layoutS_TV()"})["c"]
    assert res.ok and res.output == str(mine)


def test_a_matching_pair_gets_no_note():
    assert "Note:" not in markdown(derive_retile())


@pytest.mark.cute
def test_permutation_lets_ldsm_x4_load_b_as_cute_does():
    """LDSM x4 for B needs Tile<_32,_32,_16>: without it CuTe's static_assert (too few values) is ours;
    with it the recipe runs, its tile is the permutation's, and the TiledCopy equals CuTe's."""
    with pytest.raises(sc.SymcuteError, match="too few vals"):
        derive_retile(operand="B", copy_atom="SM75_U32x4_LDSM_N")
    d = derive_retile(operand="B", copy_atom="SM75_U32x4_LDSM_N", permutation=(32, 32, 16))
    doc = markdown(d)
    assert "Tile<_32,_32,_16>{});" in doc and "(M,N,K) = Tile<_32,_32,_16> = (32,32,16)" in doc
    mma = sc.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    mine = sc.make_tiled_copy_B(sc.copy_atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    assert d.text(d.labelled("F")) == str(mma.get_layoutB_TV())
    from tests.differential.harness import oracle_or_skip
    res = oracle_or_skip().run_exprs({"s": "make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, "
                                           "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}, "
                                           "Tile<_32,_32,_16>{})).get_layoutS_TV()"})["s"]
    assert res.ok and res.output == str(mine.get_layoutS_TV())


def test_a_bad_permutation_is_one_error(cli):
    code, _, err = cli(["derive", "retile-d", "--permutation", "32,x,16"])
    assert code == 2
    assert err.count("\n") == 1


TV_GRID = [(a, lay) for a, _c, _t in ATOMS for lay in LAYOUTS]


@pytest.mark.parametrize("mma, atom_layout", TV_GRID, ids=[f"{a.split('<')[0]}-{''.join(map(str, lay))}"
                                                           for a, lay in TV_GRID])
def test_tv_documents_claim_broadcasts_only_where_they_are(mma, atom_layout):
    from symcute.recipes import derive_tv
    doc = markdown(derive_tv(mma, atom_layout, ("A", "B", "C")))
    sections = re.split(r"\n## ", doc)
    found = 0
    for op in "ABC":
        f = facts(mma, atom_layout, op, 0)
        body = next((s for s in sections if re.match(rf"(Operand )?`?{op}`?\b", s)), None)
        if body is None:
            continue
        found += 1
        m = re.search(r"Each element of the tile is held by `(\d+)` TVs", body)
        assert bool(m) == (f["tvs"] > f["elements"]), (op, f)
        if m:
            assert int(m[1]) * f["elements"] == f["tvs"]
    assert found == 3, f"{found} operand sections"
