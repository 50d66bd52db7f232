"""Every fact of the seed document (shared/seeds/000_28a9c404e15f3261.txt), in the generated en and zh proofs.

The documents are generated from the retile-d recipe (symcute.recipes) with
the seed's configuration; every number in them is computed.  The expected values
below are the seed's, typed from the seed text: they are the specification.
"""

import pytest

from symcute.report import markdown, recheck_note
from symcute.trace import Derivation
from symcute.recipes import SEED, derive_retile

from .seedfacts import has, plain, row, squash, table_with_header, tables

LANGS = ("en", "zh")
# the labels of the sub-axis tables' rows, per language
ROWS = {"en": ("sub-axis", "shape", "q stride", "TV weight"), "zh": ("子轴", "shape", "q stride", "TV 权重")}


@pytest.fixture(scope="module")
def derivation():
    return derive_retile(**SEED)


@pytest.fixture(scope="module", params=LANGS)
def doc(request, derivation):
    return request.param, markdown(derivation, request.param)


def test_F_sub_axis_table_with_the_broadcast_and_the_tv_weights(doc):
    lang, md = doc
    sub, shape, stride, weight = ROWS[lang]
    t = table_with_header(md, sub, ["t0", "t1", "wm", "wn", "v0", "v1", "v2"])
    assert row(t, shape) == ["4", "8", "2", "2", "2", "2", "2"]
    assert row(t, stride) == ["64", "1", "16", "0", "32", "8", "256"]   # wn: shape 2, stride 0
    assert row(t, weight) == ["1", "4", "32", "64", "128", "256", "512"]


def test_F_formula_and_its_digits(doc):
    _, md = doc
    assert has(md, "F(t,v) = q = 64*t0 + t1 + 16*wm + 0*wn + 32*v0 + 8*v1 + 256*v2")
    assert has(md, "t = lane + 32*wm + 64*wn")
    assert has(md, "t = t0 + 4*t1 + 32*wm + 64*wn")
    assert has(md, "v = v0 + 2*v1 + 4*v2")
    assert has(md, "m = t1 + 8*v1 + 16*wm")
    assert has(md, "k = 2*t0 + v0 + 8*v2")
    assert has(md, "tv = t+128*v = t0 + 4*t1 + 32*wm + 64*wn + 128*v0 + 256*v1 + 512*v2")
    assert has(md, "ref_A = (32,16):(1,32)") and has(md, "ref_A(m,k) = m+32*k")
    assert has(md, "(M,N,K) = (16*2, 8*2, 16*1) = (32,16,16)")


def test_the_broadcast_example_512_and_576(doc):
    _, md = doc
    assert has(md, "F(t=0, v=4) = 256") and has(md, "F(t=64, v=4) = 256")
    assert has(md, "0+128*4 = 512") and has(md, "64+128*4 = 576")
    assert has(md, "A(0,8)")


def test_thread_domain_table(doc):
    lang, md = doc
    header = {"en": ["thread domain", "TVs", "distinct A elements"], "zh": ["线程域大小", "TV 数量", "不同 A 元素数量"]}[lang]
    t = next(t for t in tables(md) if t[0][1:] == header)
    assert t[1] == ["thrfrg_A(ref_A)", "32*2*1=64", "64*8=512", "512"]
    assert t[2][1:] == ["32*2*2*1=128", "128*8=1024", "512"] and "atile" in t[2][0]
    assert has(md, "(ThrM,ThrN):(1,0) = (2,2):(1,0)")
    assert has(md, "(wm,wn) → wm+0*wn → wm")
    assert has(md, "128:1")   # thridx_2_thrid


def test_copy_configuration(doc):
    _, md = doc
    assert has(md, "TiledNumThr = 128") and has(md, "V = size<0>(tCrA) = 8") and has(md, "Tiler_MN = (32,16)")


def test_right_inverse_G(doc):
    lang, md = doc
    assert has(md, "G = (8,2,2,2,4,2):(4,256,32,128,1,512)")
    assert has(md, "size(G) = 512")
    assert has(md, "G(256) = 512")
    assert has(md, "F(512) = 256")
    assert has(md, "G(F(576)) = 512")
    assert has(md, {"en": "G(F(576)) = 512, not 576", "zh": "G(F(576)) = 512，而不是 576"}[lang])
    assert has(md, "v2 = 4*8*2*2*2*2 = 512")   # the TV weight of v2 keeps ThrN = 2
    assert has(md, "G(q) = 4*t1 + 256*v1 + 32*wm + 128*v0 + t0 + 512*v2")
    skipped = {"en": "Skipped: wn", "zh": "跳过：wn"}[lang]
    assert has(md, skipped)


def test_right_inverse_checks(doc):
    lang, md = doc
    text = squash(plain(md))
    proved, refuted = {"en": ("proved", "refuted"), "zh": ("已证明", "已反驳")}[lang]
    right = squash({"en": "F(G(i)) == i for every 0 <= i < 512:", "zh": "F(G(i)) == i，对所有 0 <= i < 512："}[lang])
    left = squash({"en": "G(F(x)) == x for every 0 <= x < 1024:", "zh": "G(F(x)) == x，对所有 0 <= x < 1024："}[lang])
    assert text[text.index(right) + len(right):].startswith(proved)
    assert text[text.index(left) + len(left):].startswith(refuted)


def test_with_shape_H(doc):
    _, md = doc
    assert has(md, "H = ((8,2,2),(2,4,2)):((4,256,32),(128,1,512))")
    assert has(md, "H(m,k) = G(m+32*k)")
    assert has(md, "H(m,k) = 4*m0 + 256*m1 + 32*m2 + 128*k0 + k1 + 512*k2")
    assert has(md, "m = m0 + 8*m1 + 16*m2") and has(md, "k = k0 + 2*k1 + 8*k2")
    assert has(md, "(m0,m1,m2) = (t1,v1,wm)")
    assert has(md, "(k0,k1,k2) = (v0,t0,v2)")
    assert has(md, "v=7: 896…959") and has(md, "v=0: 0…63")


def test_selected_tv_table(doc):
    _, md = doc
    t = next(t for t in tables(md) if len(t[0]) == 4 and t[0][1] == "q")
    assert t[1:] == [["(0,0)", "0", "(0,0)", "0"], ["(0,8)", "256", "(0,4)", "512"], ["(0,9)", "288", "(0,5)", "640"]]


def test_upcast_table(doc):
    lang, md = doc
    t = next(t for t in tables(md) if len(t[0]) == 5 and t[0][0] == {"en": "sub-axis", "zh": "子轴"}[lang])
    assert t[1:] == [["m0", "8", "4", "256", "ceil_div(8,256)=1"], ["m1", "2", "256", "4", "ceil_div(2,4)=1"],
                     ["m2", "2", "32", "32", "ceil_div(2,32)=1"], ["k0", "2", "128", "8", "ceil_div(2,8)=1"],
                     ["k1", "4", "1", "1024", "ceil_div(4,1024)=1"], ["k2", "2", "512", "2", "ceil_div(2,2)=1"]]
    assert has(md, "ceil_div(1024,512) = 2") and has(md, "ceil_div(2,2) = 1")
    assert has(md, "8/256=0.03125")


def test_upcast_result_and_largest_output(doc):
    _, md = doc
    assert has(md, "frg_layout_mn = ((1,1,1),(1,1,1)):((1,1,1),(1,1,1))")
    assert has(md, "product_each(shape(frg_layout_mn)) = (1,1)")
    assert has(md, "7*4 + 1*256 + 1*32 + 1*128 + 3*1 + 1*512 = 959")
    assert has(md, "upcast<128*8>(H)")


def test_contrast_512(doc):
    _, md = doc
    assert has(md, "new_shape = ceil_div(2, ceil_div(512,512)) = 2")
    assert has(md, "product_each(shape(...))=(1,2)")
    assert has(md, "upcast<512>(H) = ((1,1,1),(1,1,2)):((1,1,1),(1,1,1))")


def test_retile_tiler_and_ldmatrix_grouping(doc):
    _, md = doc
    assert has(md, "(8,1,1)")
    assert has(md, "frg_layout_v = (4,2):(1,4)")
    assert has(md, "= ((4,2),1,1):((1,4),0,0)")
    assert has(md, "ldmatrix.sync.aligned.x2")
    text = squash(plain(md))
    assert "(4,2)" in text[text.index("ldmatrix.sync.aligned.x2"):]


def test_sources_cite_cutlass_4_2(doc):
    _, md = doc
    for where in ("cute/atom/mma_traits_sm80.hpp", "cute/atom/mma_atom.hpp", "cute/atom/copy_atom.hpp",
                  "cute/layout.hpp", "TiledMMA::get_layoutA_TV", "right_inverse", "Layout::with_shape",
                  "upcast<N>", "TiledCopy::retile", "4.2"):
        assert where in plain(md)


def test_the_facts_are_computed_not_stored(derivation):
    """The numbers above come from the recorded steps: the labelled values are CuTe's values."""
    assert derivation.text(derivation.labelled("F")) == \
        "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"
    assert derivation.text(derivation.labelled("G")) == "(8,2,2,2,4,2):(4,256,32,128,1,512)"
    (ri,) = [s for s in derivation.steps(top_level_only=True)
             if s.rule == "right_inverse" and s.inputs["layout"] == derivation.labelled("F")]
    assert ri.details["weights"] == [1, 4, 32, 64, 128, 256, 512]
    assert derivation.text(derivation.labelled("retile")) == "((4,2),1,1):((1,4),0,0)"


def test_reports_are_deterministic_and_survive_json(derivation):
    for lang in LANGS:
        again = Derivation.from_json(derivation.to_json())
        assert markdown(derivation, lang) == markdown(derive_retile(**SEED), lang)
        # read back: the same document, closed by the note of what was re-checked on reading
        assert recheck_note(again, lang) and markdown(again, lang) == markdown(derivation, lang) + recheck_note(again, lang)
