"""Mixed-radix digit chains: common refinement and landing (the arithmetic of mutual refinement).

A *chain* is the list of extents of the digits of an index range ``[0, n)``:
digit ``i`` has weight ``w_i = e_0 * ... * e_{i-1}`` and the index is
``sum(x_i * w_i)``.  Every flat layout is a chain (its shape) with a stride per
digit; splitting a digit of extent ``e`` into ``a * b`` (``e == a*b``) refines
the chain without changing the function.

``refine`` finds the common refinement of two chains of the same range (it
exists iff the union of their boundary weights is a divisibility chain).
``land`` follows a digit ``x in [0, e)`` scaled by a stride ``s`` into another
chain, the way CuTe's ``composition`` divides a stride through the modes of
its left-hand side: the digit splits into pieces, each stepping through one
digit of the target chain, as long as no carry can occur.
All arithmetic is on Python ints (no size limit, nothing enumerated).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import NamedTuple, Sequence


class Refined(NamedTuple):
    """One digit of a common refinement: its weight and extent, and its place in each parent chain."""
    weight: int
    extent: int
    a: int        # index of the parent digit in chain a
    sub_a: int    # weight of this digit inside that parent (parent value = sum sub * digit)
    b: int
    sub_b: int


def weights(extents: Sequence[int]) -> list[int]:
    """Exclusive prefix products (the weight of each digit)."""
    out, w = [], 1
    for e in extents:
        out.append(w)
        w *= e
    return out


def refine(ext_a: Sequence[int], ext_b: Sequence[int]) -> list[Refined] | None:
    """Common refinement of two chains with the same product, or ``None`` if none exists.

    @pre all extents >= 2; product(ext_a) == product(ext_b)
    @post the result's extents multiply, parent by parent, to the parents' extents
    """
    out: list[Refined] = []
    ia = ib = 0
    wa = wb = pos = 1
    while ia < len(ext_a) and ib < len(ext_b):
        end_a, end_b = wa * ext_a[ia], wb * ext_b[ib]
        nxt = min(end_a, end_b)
        if nxt % pos:
            return None
        out.append(Refined(pos, nxt // pos, ia, pos // wa, ib, pos // wb))
        pos = nxt
        if end_a == nxt:
            wa, ia = end_a, ia + 1
        if end_b == nxt:
            wb, ib = end_b, ib + 1
    if ia != len(ext_a) or ib != len(ext_b):
        return None
    return out


class Landing(NamedTuple):
    """A piece of a digit that steps through one target digit: ``x -> target`` at ``step * x``."""
    target: int | None   # index of the target digit; None for a stride-0 piece (lands on 0)
    step: int            # position step inside the target digit
    extent: int          # extent of the piece
    sub: int             # weight of the piece inside the digit it came from


def land(stride: int, extent: int, target_weights: Sequence[int],
         target_extents: Sequence[int | None]) -> list[Landing] | None:
    """Split the digit ``x in [0, extent)`` with input offset ``stride * x`` over a target chain.

    The target chain is given by its weights (ascending, starting at 1) and
    extents; an extent of ``None`` is unbounded (CuTe's last mode takes any
    overflow).  Returns the pieces, least significant first, or ``None`` when
    the offsets do not decompose digit by digit (a piece would straddle a
    target digit with a carry), which is CuTe's stride/shape divisibility
    failure seen on the finer chain.
    @pre stride >= 0
    """
    pieces: list[Landing] = []
    rest, s, sub = extent, stride, 1
    while rest > 1:
        if s == 0:
            pieces.append(Landing(None, 0, rest, sub))
            break
        j = bisect_right(target_weights, s) - 1
        w = target_weights[j]
        if s % w:
            return None
        c = s // w
        e = target_extents[j]
        if e is None or c * (rest - 1) < e:
            pieces.append(Landing(j, c, rest, sub))
            break
        if e % c:
            return None
        m = e // c
        if rest % m:
            return None
        pieces.append(Landing(j, c, m, sub))
        rest //= m
        s *= m
        sub *= m
    return pieces


def carries(pieces: Sequence[Landing], target_extents: Sequence[int | None]) -> list[tuple]:
    """Target digits where the pieces' offsets can add up past the digit's extent.

    Returns ``(target, span, extent)`` for each bounded target digit whose total
    span ``sum(step * (extent - 1))`` reaches its extent; empty means the
    composed map is linear in the pieces (no carry between target digits).
    """
    span: dict[int, int] = {}
    for p in pieces:
        if p.target is not None:
            span[p.target] = span.get(p.target, 0) + p.step * (p.extent - 1)
    return [(j, s, target_extents[j]) for j, s in sorted(span.items())
            if target_extents[j] is not None and s >= target_extents[j]]


def split_points(pieces: Sequence[Landing], target_extents: Sequence[int | None]) -> dict[int, list[int]] | None:
    """Per target digit, the boundaries that split it into sub-digits matching the pieces 1:1.

    Returns ``{target: [1, b1, ..., extent]}`` when every piece covers exactly one
    sub-digit of a divisibility chain of its target (the clean case, where each
    piece can be named after a split of the target digit), else ``None``.
    Unbounded targets get their last boundary from the pieces.
    """
    by_target: dict[int, list[tuple[int, int]]] = {}
    for p in pieces:
        if p.target is not None:
            by_target.setdefault(p.target, []).append((p.step, p.step * p.extent))
    out = {}
    for j, spans in by_target.items():
        spans.sort()
        e = target_extents[j]
        if len(spans) == 1 and spans[0][0] == 1:
            out[j] = [1, spans[0][1]]  # one piece from the bottom: the target itself, on a prefix of its range
            continue
        points = {1}
        for lo, hi in spans:
            points.update((lo, hi))
        if e is not None:
            if max(points) > e:
                return None
            points.add(e)
        pts = sorted(points)
        if any(b % a for a, b in zip(pts, pts[1:])):
            return None
        for lo, hi in spans:  # each piece must be one sub-digit, and no two pieces the same
            if pts.index(hi) != pts.index(lo) + 1:
                return None
        if len(set(spans)) != len(spans):
            return None
        out[j] = pts
    return out
