"""With the atoms layer present, its names tree for the seed's TiledMMA gives the seed's formulas."""

import pytest

from symcute import Layout
import symcute.symbolic as sym

from .seed import F_TEXT

atoms = pytest.importorskip("symcute.atoms")


def test_tiled_mma_names_give_the_seed_formula():
    mma = atoms.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", Layout((2, 2, 1)))
    F = sym.formula(mma.get_layoutA_TV(), mma.layoutA_TV_names())
    assert str(F.layout) == F_TEXT
    assert str(F) == "64*t0 + t1 + 16*wm + 32*v0 + 8*v1 + 256*v2"
    G = sym.right_inverse(F)
    assert str(G) == "4*t1 + 256*v1 + 32*wm + 128*v0 + t0 + 512*v2"
    assert sym.prove_right_inverse(F, G).proved
