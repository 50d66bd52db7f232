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
from .integer import DynamicInt


def exchange_sort_by_stride(strides: tuple) -> list[int]:
    """Mode indices ordered by stride, exactly as CuTe's constexpr ``exchange_sort`` orders them.

    (It is not stable: the order among equal strides is part of CuTe's result.)

    @post the same permutation as CuTe's double loop (``for i: for j > i: if
          key[j] < key[i]: swap``), which tests/core/test_inverse_order.py checks
          against a literal transcription of that loop.
    Cost: O(n log n) for n modes (the literal loop, O(n^2), below a small n).
    """
    n = len(strides)
    if n > _SMALL_EXCHANGE_SORT:
        # many modes: sort, then look for equal neighbours (a set would hash every stride, a cost in the
        # length of each integer; neighbours of different values mostly differ in their leading digits)
        order = sorted(range(n), key=strides.__getitem__)
        prev = strides[order[0]]
        for i in order[1:]:
            d = strides[i]
            if d == prev:
                return _exchange_sort_queues(strides)
            prev = d
        return order
    if len(set(strides)) == n:  # distinct keys: any sort gives CuTe's order
        return sorted(range(n), key=strides.__getitem__)
    if n <= _SMALL_EXCHANGE_SORT:
        return _exchange_sort_loop(strides)
    return _exchange_sort_queues(strides)


# Below this many modes the literal loop is cheaper than the queues' bookkeeping.
_SMALL_EXCHANGE_SORT = 64


def _exchange_sort_loop(strides: tuple) -> list[int]:
    pairs = [(d, i) for i, d in enumerate(strides)]
    n = len(pairs)
    for i in range(n):
        for j in range(i + 1, n):
            if pairs[j][0] < pairs[i][0]:
                pairs[i], pairs[j] = pairs[j], pairs[i]
    return [i for _, i in pairs]


def _exchange_sort_queues(strides: tuple) -> list[int]:
    # The result holds the modes of each stride value v in one block; what the exchange
    # sort decides is the order inside a block.  That order depends only on where the
    # smaller strides sit (larger strides never reorder two v's: tests/core/
    # test_inverse_order.py checks this by brute force).  Read the input from the first
    # v on, 1 for a v and 0 for a smaller stride: pass t finds a 1 at position t and swaps
    # it with the t-th 0, so the positions behave as a queue: a 1 appends a new v at the
    # back, a 0 moves the v at the front to the back.  The block's order is the queue at
    # the end: c pushes, a rotation between consecutive v's by the count of smaller
    # strides between them (a Fenwick tree over positions), O(c log n) for c modes of
    # value v and O(n log n) in all.
    n = len(strides)
    order = sorted(range(n), key=strides.__getitem__)  # stable: each block in input order
    smaller = _Fenwick(n)  # positions of the modes of strides below the current block's
    result = []
    start = 0
    while start < n:
        v = strides[order[start]]
        end = start + 1
        while end < n and strides[order[end]] == v:
            end += 1
        block = order[start:end]
        if len(block) == 1:
            result.append(block[0])
        else:
            before = [smaller.prefix(p) for p in block]  # smaller strides left of each v
            before.append(start)                          # all of them: the rotations after the last v
            result.extend(_queue_after_rotations(block, before))
        for p in block:
            smaller.add(p)
        start = end
    return result


def _queue_after_rotations(items: list, before: list) -> list:
    """The queue after: push ``items[i]``, then rotate ``before[i+1] - before[i]`` times, for each i.

    The queue is a circular list with a head; a push inserts just before the head.  The
    insertion indices are known as we go, so the final list is rebuilt offline from the
    last insertion to the first, each taking the k-th free slot (a Fenwick tree): O(c log c).
    """
    c = len(items)
    head, at = 0, []
    for i in range(c):
        at.append(head)             # inserted at `head` into a list of i items
        size = i + 1
        head = (head + 1 + before[i + 1] - before[i]) % size
    free = _Fenwick(c, full=True)
    slots = [0] * c
    for i in range(c - 1, -1, -1):
        slot = free.kth(at[i] + 1)
        free.add(slot, -1)
        slots[slot] = items[i]
    return slots[head:] + slots[:head]


class _Fenwick:
    """Counts over positions ``0..n-1``: add, prefix counts, and the k-th counted position."""

    __slots__ = ("n", "tree")

    def __init__(self, n: int, full: bool = False):
        self.n = n
        self.tree = [(i & -i) if full else 0 for i in range(n + 1)]  # full: every position counted once

    def add(self, p: int, delta: int = 1) -> None:
        tree, n = self.tree, self.n
        p += 1
        while p <= n:
            tree[p] += delta
            p += p & -p

    def prefix(self, p: int) -> int:
        """Count of positions < p."""
        tree, total = self.tree, 0
        while p > 0:
            total += tree[p]
            p -= p & -p
        return total

    def kth(self, k: int) -> int:
        """The position of the k-th counted position (1-based k)."""
        tree, pos = self.tree, 0
        step = 1 << self.n.bit_length()
        while step:
            nxt = pos + step
            if nxt <= self.n and tree[nxt] < k:
                pos = nxt
                k -= tree[nxt]
            step >>= 1
        return pos


def _coalesced_modes(layout: Layout, op: str):
    if not isinstance(layout, Layout):
        raise LayoutError(f"{op}: {layout!r} is not a layout")
    clayout = _coalesce_flat(layout, op)
    shape, stride = clayout._shape, clayout._stride
    if type(shape) is not tuple:
        shape, stride = (shape,), (stride,)
    run_time = False   # a run-time (DynamicInt) stride among them
    for d in stride:
        if type(d) is not int:
            if not it.is_int(d):
                raise LayoutError(f"{op}({layout}): basis strides are not supported")
            run_time = True
    preprod = [1]
    p = 1
    for s in shape:
        p *= s
        preprod.append(p)
    return clayout, shape, stride, preprod, run_time


@operation("right_inverse")
def right_inverse(layout):
    """CuTe's ``right_inverse``: a layout R with ``layout(R(i)) == i`` for all ``i < size(R)``.

    @result the largest such R built from a contiguous chain of ``layout``'s
            modes, in stride order; modes that break the chain (stride 0,
            gaps) are skipped, so ``size(R)`` may be smaller than ``size(layout)``.
    @post composition(layout, R) is identical to make_layout(shape(R))
    Run-time strides are left out (CuTe filters them before sorting), and the chain stops where
    the extent covered becomes a run-time value.
    """
    clayout, shape, stride, preprod, run_time = _coalesced_modes(layout, "right_inverse")
    if not run_time:
        order = exchange_sort_by_stride(stride)
    else:  # CuTe filters out the run-time strides, then sorts the static ones
        kept = [i for i, d in enumerate(stride) if type(d) is not DynamicInt]
        order = [kept[k] for k in exchange_sort_by_stride(tuple(stride[i] for i in kept))]
    result_shape, result_stride = [1], [0]
    curr = 1
    chosen, skipped = [], []
    rec = recording()
    for i in order:
        # is_constant<stride, curr>: the chain continues only while the extent covered is static
        if stride[i] == curr and type(curr) is int:
            result_shape.append(shape[i])
            result_stride.append(preprod[i])
            curr = shape[i] * stride[i]
            chosen.append(i)
        elif rec is None and (type(curr) is not int or stride[i] > curr):
            break   # the strides ascend and curr stays: no later mode continues the chain (CuTe's fold skips them)
        else:
            skipped.append(i)
    if rec is not None:  # building the details costs; only when a derivation asks
        note(coalesced=clayout, weights=preprod[:-1], order=order, chosen=chosen, skipped=skipped)
    return _bw_coalesce(tuple(result_shape), tuple(result_stride), result_shape[-1], result_stride[-1])


@operation("left_inverse")
def left_inverse(layout):
    """CuTe's ``left_inverse``: a layout R with ``R(layout(i)) == i`` for all ``i < size(layout)``.

    (For a non-injective layout it is a quasi-inverse: ``layout(R(layout(i))) == layout(i)``.)
    @pre static strides (run-time extents are allowed); each non-zero stride is divisible by the size gathered
         before it ("Left inverse divisibility condition")
    """
    clayout, shape, stride, preprod, run_time = _coalesced_modes(layout, "left_inverse")
    if run_time:
        raise LayoutError(f"left_inverse({layout}): Left inverse requires static strides "
                          f"(CuTe static_asserts is_static on the coalesced strides)")
    order = exchange_sort_by_stride(stride)
    result_shape, result_stride = [], [0]
    gathered = 1   # product(result_shape), kept as it grows: one multiplication per mode, not a product per mode
    for i in order:
        d = stride[i]
        if d == 0:
            continue
        if type(d) is int and type(gathered) is int and d > 0 and gathered > 0:
            q, r = divmod(d, gathered)   # C++'s / and % for these signs, in one division
        else:
            q, r = it.cdiv(d, gathered), it.cmod(d, gathered)
        if r != 0:
            raise LayoutError(
                f"left_inverse({layout}): Left inverse divisibility condition violated: "
                f"stride {d} is not divisible by {gathered}")
        result_shape.append(q)
        result_stride.append(preprod[i])
        gathered *= result_shape[-1]
    if recording() is not None:  # building the details costs; only when a derivation asks
        note(coalesced=clayout, weights=preprod[:-1], order=order)
    result_shape.append(shape[order[-1]])
    return _bw_coalesce(tuple(result_shape), tuple(result_stride), result_shape[-1], result_stride[-1])
