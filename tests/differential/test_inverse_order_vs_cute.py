"""exchange_sort_by_stride against CuTe's own constexpr sort, on long key lists with repeats.

``right_inverse`` and ``left_inverse`` walk the modes in the order of CuTe's
``detail::SortByKey`` (an exchange sort, cute/int_tuple.hpp), which is not stable:
the order among equal strides is part of both inverses' values.  Past 64 keys
symcute computes that order with its queue form (core/inverse.py) instead of the
literal loop.  A layout of so many modes overflows CuTe's integers, so the form is
checked here on the sort itself: the same key lists through ``SortByKey``.
"""

from __future__ import annotations

import random

from symcute.core.inverse import _SMALL_EXCHANGE_SORT, exchange_sort_by_stride
from .harness import oracle_or_skip

PREAMBLE = "template <int... I> void print_seq(cute::seq<I...>) { ((printf(\"%d,\", I)), ...); }"


def key_lists() -> list[tuple]:
    rng = random.Random("exchange-sort")
    out = []
    for i in range(16):
        n = rng.choice([_SMALL_EXCHANGE_SORT + 1, 80, 120, 200])
        pool = rng.sample(range(-3, 40), rng.choice([2, 3, 5, 12]))
        out.append(tuple(rng.choice(pool) for _ in range(n)))
    # runs of repeats in descending order, and interleaved blocks
    out.append(tuple(v for v in range(12, 0, -1) for _ in range(8)))
    out.append(tuple(v for _ in range(8) for v in range(12, 0, -1)))
    return out


def body(keys: tuple) -> str:
    seq = ",".join(map(str, keys))
    return (f"print_seq(typename cute::detail::SortByKey<cute::seq<{seq}>, "
            f"cute::make_seq<{len(keys)}>>::val_type{{}});")


def test_long_key_lists_sort_as_cute():
    oracle = oracle_or_skip()
    lists = key_lists()
    assert all(len(k) > _SMALL_EXCHANGE_SORT and len(set(k)) < len(k) for k in lists)  # the queue form's inputs
    results = oracle.run({f"sort#{i}": body(k) for i, k in enumerate(lists)}, preamble=PREAMBLE)
    for i, keys in enumerate(lists):
        res = results[f"sort#{i}"]
        assert res.ok, (keys, res.status, res.error)
        cute_order = [int(x) for x in res.output.strip().strip(",").split(",")]
        assert exchange_sort_by_stride(keys) == cute_order, keys
