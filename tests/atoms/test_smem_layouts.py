"""The shared-memory layout atom catalog (GMMA, UMMA) in Python and in the expression language."""

import pytest

import symcute as sc
import symcute.symbolic as sym
from symcute.atoms.smem_layouts import ALIASES, SMEM_LAYOUT_ATOMS, smem_layout_atom, smem_layout_atom_bits
from symcute.errors import LayoutError
from symcute.expr import evaluate


def test_atoms_are_upcasts_of_their_bits_definition():
    a = sc.smem_layout_atom("GMMA::Layout_K_SW128_Atom", "half_t")
    assert str(a) == "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"
    assert str(smem_layout_atom("GMMA::Layout_MN_SW64_Atom", 32)) == "Sw<2,4,3> o smem_ptr[32b](unset) o (16,8):(1,16)"
    assert str(smem_layout_atom_bits("UMMA::Layout_MN_SW128_32B_Atom")) == \
        "Sw<2,5,2> o smem_ptr[1b](unset) o (1024,4):(1,1024)"
    assert smem_layout_atom("UMMA::Layout_K_SW32_Atom", "float") == smem_layout_atom("GMMA::Layout_K_SW32_Atom", "float")
    assert len(SMEM_LAYOUT_ATOMS) == 9 and len(ALIASES) == 8


def test_every_atom_is_a_bijection_on_its_rows_of_128_bytes_or_less():
    for name in SMEM_LAYOUT_ATOMS:
        for t in ("half_t", "float", "uint8_t"):
            p = sym.is_bijective(smem_layout_atom(name, t), limit=0)
            assert p.proved and p.method == "gf2", (name, t, p)


def test_expression_language_spellings():
    assert evaluate("GMMA::Layout_K_SW128_Atom<half_t>{}") == smem_layout_atom("GMMA::Layout_K_SW128_Atom", 16)
    t = evaluate("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, (128,64))")
    assert str(t) == "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,1)):((64,512),(1,0))"
    assert str(evaluate("composition(Swizzle<3,4,3>{}, (8,64):(64,1))")) == "Sw<3,4,3> o 0 o (8,64):(64,1)"
    with pytest.raises(LayoutError, match="not a member of UMMA"):
        evaluate("UMMA::Layout_K_SW64_Atom_Bits{}")


def test_unknown_atoms_and_types_are_refused():
    with pytest.raises(LayoutError, match="unknown shared-memory layout atom"):
        smem_layout_atom("GMMA::Layout_K_SW256_Atom", "half_t")
    with pytest.raises(LayoutError, match="unknown value type"):
        smem_layout_atom("GMMA::Layout_K_SW128_Atom", "half_float")
