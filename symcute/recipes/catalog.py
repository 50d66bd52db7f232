"""right_inverse / left_inverse facts of every catalogued MMA atom (one table)."""

from __future__ import annotations

from .. import symbolic as sym
from ..atoms.operand import OPERANDS
from ..core import Layout, right_inverse
from ..core import int_tuple as it
from ..errors import LayoutError
from ..trace.derivation import Derivation
from .records import BroadcastAxis
from .records_catalog import LEFT_REFUSED, Catalog, CatalogRow, InverseFacts
from .steps import add_table

def derive_catalog(filter: str | None = None, arch: str | None = None, progress=None) -> Derivation:
    """right_inverse / left_inverse facts of every catalogued MMA atom's A, B and C TV layouts (one table).

    Per layout L: size(L), size(right_inverse(L)), the prover's verdict on
    ``L(R(i)) == i``, the broadcast sub-axes (thread sub-axes ``t0, t1, ...``,
    value sub-axes ``v0, v1, ...``, numbered by position), and whether
    ``left_inverse(L)`` undoes L.  The operations run unrecorded (thousands of
    them); the derivation holds the table.  ``progress(done, total)``, when given, is called after each atom.
    """
    from ..atoms import mma_atoms
    from ..trace.rules import CUTLASS_VERSION
    d = Derivation("right_inverse / left_inverse of the MMA atom catalog", recipe="catalog", filter=filter,
                   arch=arch)
    rows = []
    with d.paused():
        entries = list(mma_atoms(filter=filter, arch=arch))
        for k, entry in enumerate(entries, 1):
            if progress is not None:
                progress(k - 1, len(entries))
            atom = entry.atom
            cells = {}
            for op in OPERANDS:
                lay = getattr(atom, op.lower() + "_layout")
                cells[op] = None if lay is None else _inverse_facts(lay)
            rows.append(CatalogRow(entry.name, entry.arch, entry.header, cells))
    add_table(d, "catalog", **Catalog(tuple(rows), len(rows), CUTLASS_VERSION).to_details())
    return d


def _tv_names(layout: Layout):
    """Positional names for an atom's TV layout: thread leaves t0, t1, ...; value leaves v0, v1, ..."""
    def leaves(shape, prefix):
        flat = it.flatten_to_tuple(shape) if isinstance(shape, tuple) else (shape,)
        names = [f"{prefix}{k}" for k in range(len(flat))]
        return it.unflatten(tuple(names), shape) if isinstance(shape, tuple) else names[0]
    return (leaves(layout.shape[0], "t"), leaves(layout.shape[1], "v"))


def _inverse_facts(L: Layout) -> InverseFacts:
    f = sym.formula(L, _tv_names(L))
    R = right_inverse(L)
    pr = sym.prove_right_inverse(f, R)
    try:
        pl = sym.prove_left_inverse(f)
        left, left_method = pl.verdict, pl.method
    except LayoutError as e:   # CuTe's left_inverse refuses it (divisibility)
        left, left_method = LEFT_REFUSED, str(e)
    return InverseFacts(L.size(), R.size(), pr.verdict, pr.method,
                        tuple(BroadcastAxis(a.name, a.extent) for a in sym.broadcast_axes(f)), left, left_method)
