"""right_inverse / left_inverse facts of every catalogued MMA atom (one table)."""

from __future__ import annotations

from .. import symbolic as sym
from ..atoms.operand import OPERANDS
from ..core import Layout, right_inverse
from ..core import int_tuple as it
from ..errors import LayoutError
from ..trace.derivation import Derivation
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
            rows.append({"atom": entry.name, "arch": entry.arch, "header": entry.header, "cells": cells})
    add_table(d, "catalog", rows=rows, count=len(rows), version=CUTLASS_VERSION)
    return d


def _tv_names(layout: Layout):
    """Positional names for an atom's TV layout: thread leaves t0, t1, ...; value leaves v0, v1, ..."""
    def leaves(shape, prefix):
        flat = it.flatten_to_tuple(shape) if isinstance(shape, tuple) else (shape,)
        names = [f"{prefix}{k}" for k in range(len(flat))]
        return it.unflatten(tuple(names), shape) if isinstance(shape, tuple) else names[0]
    return (leaves(layout.shape[0], "t"), leaves(layout.shape[1], "v"))


def _inverse_facts(L: Layout) -> dict:
    f = sym.formula(L, _tv_names(L))
    R = right_inverse(L)
    pr = sym.prove_right_inverse(f, R)
    out = {"size": L.size(), "rsize": R.size(), "right": pr.verdict, "right_method": pr.method,
           "broadcast": [[a.name, a.extent] for a in sym.broadcast_axes(f)]}
    try:
        pl = sym.prove_left_inverse(f)
        out["left"], out["left_method"] = pl.verdict, pl.method
    except LayoutError as e:   # CuTe's left_inverse refuses it (divisibility)
        out["left"], out["left_method"] = "error", str(e)
    return out
