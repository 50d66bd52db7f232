"""The MMA catalog: coverage of CuTe 4.2's headers (read here, independently of the catalog) and lookup."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import symcute as sc
from symcute.atoms import mma_gmma
from symcute.atoms.mma_catalog import WARP_ATOMS
from symcute.errors import LayoutError, ParseError, SymcuteError

CUTE = None
try:
    import cutlass_library
    CUTE = Path(cutlass_library.__file__).parent / "source" / "include" / "cute"
except ImportError:  # pragma: no cover
    pass

needs_headers = pytest.mark.skipif(CUTE is None or not CUTE.exists(), reason="CuTe headers not installed")


def _trait_names(header: str) -> list[str]:
    text = (CUTE / "atom" / header).read_text()
    return re.findall(r"struct MMA_Traits<(\w+)(?:<[^>]*>)?>", text)


@needs_headers
def test_every_warp_level_trait_of_the_headers_is_catalogued():
    names = []
    for h in ("mma_traits_sm61.hpp", "mma_traits_sm70.hpp", "mma_traits_sm75.hpp", "mma_traits_sm80.hpp",
              "mma_traits_sm89.hpp", "mma_traits_sm90.hpp"):
        names += _trait_names(h)
    assert sorted(names) == sorted(WARP_ATOMS)
    assert len(names) == 91


@needs_headers
@pytest.mark.parametrize("header,extended", [("mma_traits_sm90_gmma.hpp", False),
                                             ("mma_traits_sm90_gmma_ext.hpp", True)])
def test_every_gmma_trait_of_the_headers_is_generated(header, extended):
    in_header = set(_trait_names(header))
    base = {b for b, fam, n, s in mma_gmma.all_base_names(True) if (n not in mma_gmma.BASE_N) == extended}
    assert in_header == base
    assert len(in_header) == (320 if not extended else 736)


@needs_headers
def test_gmma_layout_aliases_match_the_rules():
    """Each GMMA traits struct names its layouts by alias (GMMA::ABLayout< 64, 16>); the rules give the same."""
    text = (CUTE / "atom" / "mma_traits_sm90_gmma.hpp").read_text()
    aliases = {f"ALayout_64x{k}": lay for k, lay in mma_gmma.A_LAYOUT_RS.items()}
    blocks = re.split(r"\nstruct MMA_Traits<", text)[1:]
    assert len(blocks) == 320
    for b in blocks:
        name = re.match(r"(\w+)", b).group(1)
        body = b.split("\n};", 1)[0]
        fam, n, source = mma_gmma.family_of(name)
        atom = mma_gmma.make_atom(fam, n, source, name + mma_gmma.default_arguments(fam))
        for op, lay in (("A", atom.a_layout), ("B", atom.b_layout), ("C", atom.c_layout)):
            ref = re.search(rf"using {op}Layout\s*=\s*GMMA::(\w+)(?:<\s*(\d+),\s*(\d+)>)?;", body)
            alias, x, y = ref.groups()
            if alias == "ABLayout":
                want = mma_gmma.ab_layout(int(x), int(y))
            elif alias.startswith("CLayout_64x"):
                want = mma_gmma.c_layout_64xN(int(alias[len("CLayout_64x"):]))
            else:
                want = aliases[alias]
            assert str(lay) == want, (name, op)
        assert re.search(rf"Shape_MNK = Shape<_64,_{n},_{fam.k}>", body)
        assert ("FrgTypeA" in body) == (source == "SS")


def test_seed_atom():
    a = sc.mma_atom("SM80_16x8x16_F16F16F16F16_TN")
    assert a.shape_mnk == (16, 8, 16)
    assert str(a.thr_id) == "32:1"
    assert str(a.a_layout) == "((4,8),(2,2,2)):((32,1),(16,8,128))"
    assert str(a.b_layout) == "((4,8),(2,2)):((16,1),(8,64))"
    assert str(a.c_layout) == "((4,8),(2,2)):((32,1),(16,8))"
    assert (a.val_type_d, a.val_type_a, a.val_type_b, a.val_type_c) == ("half_t",) * 4
    assert a.header == "cute/atom/mma_traits_sm80.hpp"
    assert a.ptx == "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"


@pytest.mark.parametrize("spelling", [
    "SM80_16x8x16_F16F16F16F16_TN", "  SM80_16x8x16_F16F16F16F16_TN{} ", "cute::SM80_16x8x16_F16F16F16F16_TN",
    "MMA_Atom<SM80_16x8x16_F16F16F16F16_TN>", "MMA_Atom< cute::MMA_Traits<SM80_16x8x16_F16F16F16F16_TN> >"])
def test_spellings_of_one_atom(spelling):
    assert sc.mma_atom(spelling) is sc.mma_atom("SM80_16x8x16_F16F16F16F16_TN")


def test_gmma_lookup_with_template_arguments():
    a = sc.mma_atom("SM90_64x128x16_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::K>")
    b = sc.mma_atom("SM90_64x128x16_F32BF16BF16_RS < cute::SM90::GMMA::Major::K , GMMA::Major::MN >")
    assert a.name == "SM90_64x128x16_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::K>"
    assert b.name == "SM90_64x128x16_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::MN>"
    for x in (a, b):
        assert x.shape_mnk == (64, 128, 16)
        assert str(x.a_layout) == "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))"
        assert str(x.b_layout) == "(128,(128,16)):(0,(1,128))"
        assert str(x.c_layout) == "((4,8,4),(2,2,16)):((128,1,16),(64,8,512))"
        assert (x.val_type_a, x.val_type_c) == ("bfloat16_t", "float")
    ss = sc.mma_atom("SM90_64x8x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::K,GMMA::ScaleIn::Neg,GMMA::ScaleIn::One>")
    assert str(ss.a_layout) == "(128,(64,16)):(0,(1,64))"
    assert ss.frg_type_a == "GMMA::smem_desc<GMMA::Major::MN>"
    assert sc.mma_atom("SM90_64x24x8_F32TF32TF32_SS_TN<>").header.endswith("mma_traits_sm90_gmma_ext.hpp")
    assert sc.mma_atom("SM90_64x256x32_S32U8S8_RS_TN_SATURATE").ptx.endswith(".satfinite")


@pytest.mark.parametrize("spelling,message", [
    ("SM90_64x128x16_F32BF16BF16_RS", "needs its GMMA::Major arguments"),
    ("SM90_64x128x16_F32BF16BF16_RS<GMMA::Major::MN,GMMA::Major::K>", "Register source operand A must have K major"),
    ("SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::X,GMMA::Major::K>", "is not one of GMMA::Major::K"),
    ("SM90_64x128x16_F32BF16BF16_SS<GMMA::ScaleIn::One,GMMA::Major::K>", "is not one of GMMA::Major::K"),
    ("SM90_64x32x32_S32S8S8_SS_TN<GMMA::ScaleIn::One>", "is not a template"),
    ("SM80_16x8x16_F16F16F16F16_TN<int>", "takes no template arguments"),
])
def test_template_argument_errors_name_the_input(spelling, message):
    with pytest.raises(SymcuteError, match=re.escape(message)):
        sc.mma_atom(spelling)


def test_unknown_name_suggests_close_names():
    with pytest.raises(sc.UnknownAtom, match="did you mean SM80_16x8x16_F16F16F16F16_TN"):
        sc.mma_atom("SM80_16x8x16_F16F16F16F16_NT")
    with pytest.raises(sc.UnknownAtom):
        sc.mma_atom("SM90_64x12x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>")   # N=12 is not a GMMA shape
    with pytest.raises(ParseError):
        sc.mma_atom("SM80_16x8x16<")
    with pytest.raises(ParseError):
        sc.mma_atom(42)


def test_listing_and_filters():
    rows = sc.mma_atoms()
    # warp atoms, dense GMMA (base + extended), sparse GMMA (base + extended), UMMA (every family x allowed
    # (M, N)), the two SM100 float2 FMAs, one representative per SM120 family
    assert len(rows) == 91 + 320 + 736 + 320 + 736 + 1318 + 2 + 6
    assert len(sc.mma_atoms(extended=False)) == 91 + 320 + 320 + 1318 + 2 + 6
    sm80 = sc.mma_atoms(arch="sm80")
    assert sm80 and all(r.arch == "sm80" for r in sm80)
    assert [r.name for r in sc.mma_atoms("16x8x16_F16F16F16F16")] == ["SM80_16x8x16_F16F16F16F16_TN"]
    for r in rows[::37]:
        assert sc.mma_atom(r.lookup_name).shape_mnk == r.atom.shape_mnk


def test_layout_sizes_are_consistent_across_the_catalog():
    """size<0> of every TV layout is size(ThrID); size<1> * (broadcast) covers the tile (where CuTe is right)."""
    for r in sc.mma_atoms():
        a = r.atom
        for op in "ABC":
            lay = getattr(a, op.lower() + "_layout")
            if lay is None:
                assert any(d.operand == op for d in a.defects)
                continue
            assert lay[0].size() == a.thr_id.size(), (a.name, op)


def test_known_upstream_defects_are_recorded():
    defective = {r.atom.name: [d.operand for d in r.atom.defects] for r in sc.mma_atoms() if r.atom.defects}
    assert defective == {**{f"SM80_16x8x128_S32U1U1S32_TN_{op}": ["A"] for op in ("XORPOPC", "ANDPOPC")},
                         **{f"SM80_16x8x32_S32{a}{b}S32_TN{s}": ["B"] for a in ("S4", "U4") for b in ("S4", "U4")
                            for s in ("", "_SATURATE")}}
    with pytest.raises(LayoutError, match="malformed"):
        sc.mma_atom("SM80_16x8x128_S32U1U1S32_TN_XORPOPC").layout("A")
