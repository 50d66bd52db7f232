"""The TV layouts of a TiledMMA and their right inverses (GMMA and other atoms without an LDSM tiled copy)."""

from __future__ import annotations

from .. import symbolic as sym
from ..atoms.operand import OPERANDS, get_operand
from ..core import right_inverse
from ..core import int_tuple as it
from ..trace.derivation import Derivation
from .records import BroadcastAxis, TVConfiguration, TVInverse, TVLayout
from .steps import (
    _atom_layout, _names_tree, add_evaluation, add_formula, add_proof, add_table,
    cute,
)

def derive_tv(mma="SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>", atom_layout=(1, 1, 1), operands=tuple(OPERANDS)) -> Derivation:
    """The TV layouts of a TiledMMA with named sub-axes, their right inverses and the inverse identities.

    For each operand: F = get_layoutX_TV() (recorded), its formula, broadcast
    sub-axes, G = right_inverse(F) (recorded) with the skipped modes, checks
    ``F(G(i)) == i``, ``G(F(x)) == x``, injectivity, surjectivity onto the
    operand tile, and a worked example (G's top digit).
    """
    from ..atoms import make_tiled_mma
    shape_layout = _atom_layout(atom_layout)
    ops = [get_operand(o).name for o in operands]
    d = Derivation(f"TV layouts of {mma} tiled {cute(shape_layout)}", recipe="tv", mma=str(mma),
                   atom_layout=list(shape_layout), operands=ops)
    with d:
        tiled = make_tiled_mma(mma, shape_layout)
        d.label(tiled, "mma")
        atom = tiled.atom
        descriptors = {o: (atom.frg_type_a if o == "A" else atom.frg_type_b) for o in ("A", "B")
                       if (atom.frg_type_a if o == "A" else atom.frg_type_b)}
        add_table(d, "tv_configuration", **TVConfiguration(
            atom.name, atom.ptx, atom.header, atom.arch, tuple(tiled.tile_size(k) for k in range(3)), tiled.size(),
            str(tiled.atom_layout_mnk), descriptors).to_details())
        for op in ops:
            _tv_operand(d, tiled, op)
    return d


def derive_tv_copy(copy_atom="SM100_TMEM_LOAD_32dp32b32x", tmem="(128,32):(65536,1)", value_type="float",
                   operands=("S", "D")) -> Derivation:
    """The TV layouts of ``make_tmem_copy(Copy_Atom<copy_atom, value_type>, tmem)`` and their right inverses.

    The same facts as :func:`derive_tv`, for the source and destination TV layouts of a TMEM TiledCopy:
    ``(thread, value) -> coordinate of the tile`` the copy moves (CuTe's ``get_layoutS_TV`` / ``get_layoutD_TV``).
    """
    from ..atoms import make_tmem_copy
    from ..core import Layout
    lay = Layout.parse(tmem) if isinstance(tmem, str) else tmem
    ops = [str(o).upper() for o in operands]
    d = Derivation(f"TV layouts of make_tmem_copy({copy_atom}, {lay})", recipe="tv", mma=str(copy_atom),
                   atom_layout=[], operands=ops, copy=True, tmem=str(lay), value_type=str(value_type))
    with d:
        tc = make_tmem_copy(copy_atom, lay, value_type)
        d.label(tc, "tiled_copy")
        atom = tc.atom
        tile = [x.size() for x in tc.tiler_mn] if isinstance(tc.tiler_mn, tuple) else list(tc.tiler_mn)
        add_table(d, "tv_configuration", **TVConfiguration(
            atom.name, atom.ptx, atom.header, atom.arch, tuple(tile), tc.size(), str(lay), {}, str(value_type),
            str(tc.layout_tv), tuple(str(x) for x in tc.tiler_mn)).to_details())
        for op in ops:
            F = tc.get_layoutS_TV() if op == "S" else tc.get_layoutD_TV()
            names = tc.layoutS_TV_names if op == "S" else tc.layoutD_TV_names
            _tv_layout(d, F, names, (tile[0], tile[1]), op)
    return d


def _tv_operand(d, tiled, op) -> None:
    F = tiled.get_layout_TV(op)
    tile = get_operand(op).tile_shape([tiled.tile_size(k) for k in range(3)])
    _tv_layout(d, F, lambda: _names_tree(tiled, op), tile, op)


def _tv_layout(d, F, names, tile, op) -> None:
    """``names``: a callable giving the names tree (it runs unrecorded, as naming is not a CuTe step)."""
    d.label(F, f"F_{op}")
    with d.paused():
        Ff = sym.formula(F, names())
    T = F[0].size()
    bc = sym.broadcast_axes(Ff)
    copies = 1
    for b in bc:
        copies *= b.extent
    add_formula(d, F, Ff, f"F_{op}", **TVLayout(op, tuple(tile), tuple(BroadcastAxis(b.name, b.extent) for b in bc),
                                                copies, T, F.size() // T, F.size()).to_details())
    G = right_inverse(F)
    d.label(G, f"G_{op}")
    with d.paused():
        Gf = sym.right_inverse(Ff)
        Cf = sym.coalesce(Ff)
        det = d.last("right_inverse").details
        labels = list(Cf.leaf_labels)
        strides = it.flatten_to_tuple(det["coalesced"].stride)
        order = [f"{labels[k]}({strides[k]})" for k in det["order"]]
        skipped = [labels[k] for k in det["skipped"]]
    add_formula(d, G, Gf, f"G_{op}", **TVInverse(op, G.size(), tuple(order), tuple(skipped)).to_details())
    with d.paused():
        checks = [("prove_right_inverse", sym.prove_right_inverse(Ff, Gf, labels=("F", "G")), "right_inverse",
                   G.size(), None),
                  ("prove_left_inverse", sym.prove_left_inverse(Ff, Gf, labels=("F", "G")), "left_inverse",
                   F.size(), None),
                  ("is_injective", sym.is_injective(Ff), "injective", F.size(), None),
                  ("is_surjective", sym.is_surjective(Ff, tile[0] * tile[1]), "surjective", F.size(),
                   tile[0] * tile[1])]
    for rule, p, claim, n, target in checks:
        add_proof(d, rule, p, {"L": F, "R": G} if "inverse" in rule else {"L": F}, ["F", "G"], claim, n, target,
                  operand=op)
    if Gf.axes:
        top = max(Gf.axes, key=lambda a: a.stride)
        q = top.weight
        tv = G(q)
        add_evaluation(d, G, Gf, f"G_{op}", q, f"example_{op}")
        add_evaluation(d, F, Ff, f"F_{op}", it.idx2crd(tv, (T, F.size() // T)), f"example_{op}")
