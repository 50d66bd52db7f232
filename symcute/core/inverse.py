"""right_inverse and left_inverse (``cute/layout.hpp``).

Both coalesce the layout, weight each mode by the exclusive prefix product of
the shape (its weight in the flattened input index), and walk the modes in
order of stride.  ``right_inverse`` keeps the chain of modes whose stride
equals the extent covered so far (so broadcast and gapped modes are skipped);
``left_inverse`` keeps every non-zero stride, dividing the gaps.
"""

from __future__ import annotations

from ..errors import LayoutError
from . import int_tuple as it
from .coalesce import _bw_coalesce, _coalesce_flat
from .dispatch import operation
from .layout import Layout
from .hook import note, recording


def exchange_sort_by_stride(strides: tuple) -> list[int]:
    """Mode indices ordered by stride, exactly as CuTe's constexpr ``exchange_sort`` orders them.

    (It is not stable: the order among equal strides is part of CuTe's result.)

    @post the same permutation as CuTe's double loop (``for i: for j > i: if
          key[j] < key[i]: swap``), which tests/core/test_inverse_order.py checks
          against a literal transcription of that loop.
    """
    n = len(strides)
    if len(set(strides)) == n:  # distinct keys: any sort gives CuTe's order
        return sorted(range(n), key=strides.__getitem__)
    if n <= _SMALL_EXCHANGE_SORT:
        return _exchange_sort_loop(strides)
    return _exchange_sort_passes(strides)


# Below this many modes the literal loop is cheaper than setting up numpy.
_SMALL_EXCHANGE_SORT = 64


def _exchange_sort_loop(strides: tuple) -> list[int]:
    pairs = [(d, i) for i, d in enumerate(strides)]
    n = len(pairs)
    for i in range(n):
        for j in range(i + 1, n):
            if pairs[j][0] < pairs[i][0]:
                pairs[i], pairs[j] = pairs[j], pairs[i]
    return [i for _, i in pairs]


def _exchange_sort_passes(strides: tuple) -> list[int]:
    # Pass i of CuTe's loop swaps position i with every j > i whose key is below
    # the current one: the elements it touches are exactly the strict running
    # minima of key[i:], and the pass rotates them one step along that chain
    # (the last minimum lands at i).  numpy finds the chain in C, so a pass costs
    # O(n) machine work instead of O(n) Python steps; keys become dense ranks so
    # arbitrarily large Python ints fit in int64.
    import numpy as np

    ranks = {d: r for r, d in enumerate(sorted(set(strides)))}
    key = np.array([ranks[d] for d in strides], dtype=np.int64)
    idx = np.arange(len(strides), dtype=np.int64)
    n = len(strides)
    i = 0
    while i < n - 1:
        rest = key[i:]
        running = np.minimum.accumulate(rest)
        if running[-1] == rest[0]:  # key[i] is already a minimum of the rest: no swap
            i += 1
            continue
        chain = np.flatnonzero(rest[1:] < running[:-1]) + (i + 1)
        positions = np.concatenate(([i], chain))
        moved_key, moved_idx = key[positions], idx[positions]
        key[chain], idx[chain] = moved_key[:-1], moved_idx[:-1]
        key[i], idx[i] = moved_key[-1], moved_idx[-1]
        i += 1
    return [int(v) for v in idx]


def _coalesced_modes(layout: Layout, op: str):
    if not isinstance(layout, Layout):
        raise LayoutError(f"{op}: {layout!r} is not a layout")
    clayout = _coalesce_flat(layout, op)
    shape, stride = clayout._shape, clayout._stride
    if type(shape) is not tuple:
        shape, stride = (shape,), (stride,)
    for d in stride:
        if type(d) is not int:
            raise LayoutError(f"{op}({layout}): basis strides are not supported")
    preprod = [1]
    p = 1
    for s in shape:
        p *= s
        preprod.append(p)
    return clayout, shape, stride, preprod


@operation("right_inverse")
def right_inverse(layout):
    """CuTe's ``right_inverse``: a layout R with ``layout(R(i)) == i`` for all ``i < size(R)``.

    @result the largest such R built from a contiguous chain of ``layout``'s
            modes, in stride order; modes that break the chain (stride 0,
            gaps) are skipped, so ``size(R)`` may be smaller than ``size(layout)``.
    @post composition(layout, R) is identical to make_layout(shape(R))
    """
    clayout, shape, stride, preprod = _coalesced_modes(layout, "right_inverse")
    order = exchange_sort_by_stride(stride)
    result_shape, result_stride = [1], [0]
    curr = 1
    chosen, skipped = [], []
    for i in order:
        if stride[i] == curr:
            result_shape.append(shape[i])
            result_stride.append(preprod[i])
            curr = shape[i] * stride[i]
            chosen.append(i)
        else:
            skipped.append(i)
    if recording() is not None:  # building the details costs; only when a derivation asks
        note(coalesced=clayout, weights=preprod[:-1], order=order, chosen=chosen, skipped=skipped)
    return _bw_coalesce(tuple(result_shape), tuple(result_stride), result_shape[-1], result_stride[-1])


@operation("left_inverse")
def left_inverse(layout):
    """CuTe's ``left_inverse``: a layout R with ``R(layout(i)) == i`` for all ``i < size(layout)``.

    (For a non-injective layout it is a quasi-inverse: ``layout(R(layout(i))) == layout(i)``.)
    @pre static strides; each non-zero stride is divisible by the size gathered
         before it ("Left inverse divisibility condition")
    """
    clayout, shape, stride, preprod = _coalesced_modes(layout, "left_inverse")
    order = exchange_sort_by_stride(stride)
    result_shape, result_stride = [], [0]
    gathered = 1   # product(result_shape), kept as it grows: one multiplication per mode, not a product per mode
    for i in order:
        d = stride[i]
        if d == 0:
            continue
        if it.cmod(d, gathered) != 0:
            raise LayoutError(
                f"left_inverse({layout}): Left inverse divisibility condition violated: "
                f"stride {d} is not divisible by {gathered}")
        result_shape.append(it.cdiv(d, gathered))
        result_stride.append(preprod[i])
        gathered *= result_shape[-1]
    if recording() is not None:  # building the details costs; only when a derivation asks
        note(coalesced=clayout, weights=preprod[:-1], order=order)
    result_shape.append(shape[order[-1]])
    return _bw_coalesce(tuple(result_shape), tuple(result_stride), result_shape[-1], result_stride[-1])
