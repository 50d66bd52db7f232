"""The product model of an MMA atom: what D its A, B, C layouts predict from given register fragments.

An atom's layouts claim that thread ``t``'s value ``v`` of operand A holds the
tile element ``A[a(t,v)]`` (``a(t,v) = m + M*k``), likewise B (``n + N*k``)
and C/D (``m + M*n``).  Given the fragments that were actually loaded into
the registers, the claim determines the tiles, hence ``D = A * B^T + C``, hence
the value that each ``(t, v)`` of D must read back.  A common permutation of
k in A and B leaves D unchanged, so the check confirms the layouts up to that
permutation and no further.

What the model cannot represent is reported, not hidden: two ``(t, v)`` on one
element (a *conflict*: the claim says two registers hold one value),
``(t, v)`` outside the tile, and tile elements no ``(t, v)`` holds (taken as 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import Layout
from ..errors import LayoutError


@dataclass(frozen=True)
class OperandMap:
    """Where each (t, v) of one operand lands: ``index[t][v]``, plus what the product model cannot represent."""
    operand: str
    index: tuple                 # index[t][v] -> column-major tile index
    tile: int                    # tile size (M*K, N*K or M*N)
    conflicts: tuple = ()        # (tile index, ((t, v), (t, v), ...)) for elements held by several (t, v)
    outside: tuple = ()          # (t, v) whose index is outside the tile
    uncovered: int = 0           # tile elements no (t, v) holds


def operand_map(operand: str, layout: Layout, threads: int, values: int, tile: int) -> OperandMap:
    """Evaluate a TV layout on every (t, v) and find conflicts, out-of-tile pairs and uncovered elements.

    @pre layout has rank 2 with ``size(mode 0) == threads`` and ``size(mode 1) == values``
    """
    if layout.rank != 2:
        raise LayoutError(f"the {operand} TV layout {layout} must have rank 2 (thread, value)")
    t_size, v_size = layout[0].size(), layout[1].size()
    if (t_size, v_size) != (threads, values):
        raise LayoutError(f"the {operand} TV layout {layout} has {t_size} threads x {v_size} values; "
                          f"the instruction's registers hold {threads} threads x {values} values")
    index = tuple(tuple(layout(t, v) for v in range(values)) for t in range(threads))
    holders: dict = {}
    outside = []
    for t in range(threads):
        for v in range(values):
            i = index[t][v]
            if not 0 <= i < tile:
                outside.append((t, v))
            else:
                holders.setdefault(i, []).append((t, v))
    conflicts = tuple((i, tuple(h)) for i, h in sorted(holders.items()) if len(h) > 1)
    return OperandMap(operand, index, tile, conflicts, tuple(outside), tile - len(holders))


def assemble(omap: OperandMap, frag: list, zero) -> list:
    """The tile the claim implies from fragment ``frag[t][v]``; on a conflict the first (t, v) in order wins."""
    tile = [None] * omap.tile
    for t, row in enumerate(omap.index):
        for v, i in enumerate(row):
            if 0 <= i < omap.tile and tile[i] is None:
                tile[i] = frag[t][v]
    return [zero if x is None else x for x in tile]


# ---- scalar arithmetic of the three kinds of atom ---------------------------------------------------

def _mul_real(a, b):
    return a * b


def _add_real(x, y):
    return x + y


def _mul_complex(a, b):
    return (a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0])


def _add_pair(x, y):
    return tuple(p + q for p, q in zip(x, y))


def _mul_gauss(a, b):
    """SM80_8x8x4_GC64C64C64GC64_TN's three real products: (re*re, im*im, (re+im)*(re+im))."""
    return (a[0] * b[0], a[1] * b[1], (a[0] + a[1]) * (b[0] + b[1]))


def _mul_xor(a, b):
    """b1 ``.xor.popc``: D = C + popc(a XOR b) over k."""
    return a ^ b


ARITHMETIC = {
    "real": (_mul_real, _add_real, 0),
    "xor": (_mul_xor, _add_real, 0),
    "complex": (_mul_complex, _add_pair, (0, 0)),
    "gauss": (_mul_gauss, _add_pair, (0, 0, 0)),
}


def predict_d(shape_mnk: tuple, a_tile: list, b_tile: list, c_tile: list, arithmetic: str) -> list:
    """``D(m,n) = C(m,n) + sum_k A(m,k) * B(n,k)`` on column-major tiles (A: m + M*k, B: n + N*k, C: m + M*n)."""
    mul, add, _zero = ARITHMETIC[arithmetic]
    M, N, K = shape_mnk
    d = list(c_tile)
    for n in range(N):
        for m in range(M):
            acc = c_tile[m + M * n]
            for k in range(K):
                acc = add(acc, mul(a_tile[m + M * k], b_tile[n + N * k]))
            d[m + M * n] = acc
    return d


@dataclass
class Mismatch:
    """One (thread, value) of D whose measured value differs from the prediction."""
    trial: int
    thread: int
    value: int
    lane: int
    coord: tuple          # (m, n) that the C layout assigns to (thread, value)
    predicted: object
    measured: object


@dataclass
class Comparison:
    """The product model against measured D fragments, over all trials of one case."""
    mismatched: set = field(default_factory=set)     # distinct (t, v) of D that differ in some trial
    mismatch_count: int = 0                          # (trial, t, v) that differ
    compared: int = 0                                # (trial, t, v) compared
    first: Mismatch | None = None

    @property
    def agree(self) -> bool:
        return self.compared > 0 and self.mismatch_count == 0


def compare_trial(result: Comparison, trial: int, c_map: OperandMap, d_pred: list, d_frag: list, lanes: list,
                  shape_mnk: tuple) -> None:
    """Compare measured ``d_frag[t][v]`` with ``d_pred[c(t,v)]`` and record the differences into ``result``."""
    M = shape_mnk[0]
    for t, row in enumerate(c_map.index):
        for v, i in enumerate(row):
            result.compared += 1
            predicted = d_pred[i] if 0 <= i < len(d_pred) else None
            measured = d_frag[t][v]
            if predicted != measured:
                result.mismatch_count += 1
                result.mismatched.add((t, v))
                if result.first is None:
                    coord = (i % M, i // M) if predicted is not None else None
                    result.first = Mismatch(trial, t, v, lanes[t], coord, predicted, measured)
