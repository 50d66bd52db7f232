"""How an operation's result gets its sub-axis names: landing its modes on a named chain.

Every result mode is a digit ``x in [0, s)`` with an *input weight* (its
place in the result's own index) and an *output stride*.  Its names come from
a named chain that the mode steps through:

- the chain of the result's input space (``coalesce``: the input's own
  digits; ``composition``: the right-hand side's digits; ``left_inverse``:
  the input's codomain), reached through the mode's input weight;
- the chain of the result's output space (``right_inverse``: the input's
  digits; ``complement``: the gaps of the input's codomain), reached through
  the mode's output stride.

``digits.land`` splits the mode into pieces, each stepping through one digit
of the chain; when every piece covers exactly one sub-digit of its target, the
piece is named after the target (``t1``), or after the target's split
(``t0`` -> ``t0_0, t0_1``, see :mod:`symcute.symbolic.names`).
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from ..core import int_tuple as it
from .digits import Landing, land, split_points, weights
from .names import split_names


class Chain(NamedTuple):
    """Named digits of an index space, least significant first; an extent ``None`` is unbounded."""
    names: tuple
    weights: tuple
    extents: tuple

    @staticmethod
    def of(pairs: Sequence[tuple]) -> "Chain":
        """From ``(name, extent)`` pairs (the last extent may be ``None``)."""
        names = tuple(n for n, _ in pairs)
        exts = tuple(e for _, e in pairs)
        ws, w = [], 1
        for e in exts:
            ws.append(w)
            w = w * e if e is not None else w
        return Chain(names, tuple(ws), exts)


def input_chain(f) -> Chain:
    """The digits of ``f``'s input index; the last mode is unbounded, as in CuTe's evaluation."""
    n_leaves = len(f.leaf_labels)
    pairs = [(a.name, a.extent) for a in f.axes]
    if f.axes and f.axes[-1].leaf == n_leaves - 1:
        pairs[-1] = (pairs[-1][0], None)
    else:
        pairs.append((f.leaf_labels[-1], None))
    return Chain.of(pairs)


def codomain_chain(f, taken: set, gap_prefix: str = "g") -> Chain | None:
    """The positive-stride digits of ``f`` in stride order with the gaps between them named.

    Gaps are named ``g0, g1, ...`` in codomain order (avoiding ``taken``); the
    last gap is unbounded.  ``None`` when two digits overlap or a stride does
    not divide the next (the codomain is not a chain).
    """
    digits = sorted((a for a in f.axes if a.stride > 0), key=lambda a: (a.stride, a.weight))
    pairs, pos, k = [], 1, 0
    used = set(taken)

    def gap(extent):
        nonlocal k
        while f"{gap_prefix}{k}" in used:
            k += 1
        name = f"{gap_prefix}{k}"
        used.add(name)
        k += 1
        pairs.append((name, extent))

    for a in digits:
        if a.stride < pos or a.stride % pos:
            return None
        if a.stride > pos:
            gap(a.stride // pos)
        pairs.append((a.name, a.extent))
        pos = a.stride * a.extent
    gap(None)
    return Chain.of(pairs)


class Piece(NamedTuple):
    """A digit of a result mode after landing: extent, target digit and position in it."""
    extent: int
    target: int | None
    step: int
    sub: int        # weight inside the result mode


def land_modes(items: Sequence[tuple], chain: Chain) -> list[list[Piece]] | None:
    """Land each ``(extent, offset)`` on ``chain``; ``None`` when some mode does not decompose."""
    out = []
    for extent, offset in items:
        if extent == 1:
            out.append([])
            continue
        if not isinstance(offset, int) or offset < 0:
            return None
        pieces = land(offset, extent, chain.weights, chain.extents)
        if pieces is None:
            return None
        out.append([Piece(p.extent, p.target, p.step, p.sub) for p in pieces])
    return out


def piece_names(pieces: Sequence[list[Piece]], chain: Chain, taken: set) -> list[list[str]] | None:
    """Names for landed pieces when each covers exactly one sub-digit of its target, else ``None``."""
    flat = [Landing(p.target, p.step, p.extent, p.sub) for ps in pieces for p in ps]
    if any(p.target is None for p in flat):
        return None
    points = split_points(flat, chain.extents)
    if points is None:
        return None
    names = {}
    for j, pts in points.items():
        subs = split_names(chain.names[j], len(pts) - 1, taken)
        names[j] = {lo: n for lo, n in zip(pts, subs)}
    return [[names[p.target][p.step] for p in ps] for ps in pieces]


def leaf_items(layout, by: str) -> list[tuple]:
    """``(extent, offset)`` of each flat mode: offset is its input weight (``by="weight"``) or stride."""
    shape = it.flatten_to_tuple(layout.shape)
    if by == "weight":
        return list(zip(shape, weights(shape)))
    return list(zip(shape, it.flatten_to_tuple(layout.stride)))


def name_modes(layout, chain: Chain, by: str, taken: set) -> list[list[tuple]] | None:
    """``leaf_digits`` for ``layout`` named by landing its modes on ``chain`` (see module doc)."""
    pieces = land_modes(leaf_items(layout, by), chain)
    if pieces is None:
        return None
    names = piece_names(pieces, chain, taken)
    if names is None:
        return None
    return [[(n, p.extent) for n, p in zip(ns, ps)] for ns, ps in zip(names, pieces)]
