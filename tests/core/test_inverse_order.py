"""exchange_sort_by_stride: the fast passes give exactly CuTe's exchange-sort permutation."""

import random

from symcute.core.inverse import _exchange_sort_loop, _exchange_sort_passes, exchange_sort_by_stride


def test_passes_equal_the_literal_loop_on_random_keys_with_repeats():
    rng = random.Random(2026)
    for trial in range(400):
        n = rng.randint(2, 300)
        distinct = rng.randint(1, max(1, n // rng.choice([1, 2, 5, 20])))
        pool = [rng.choice([0, 1, -3, 2**70]) + k * rng.choice([1, 7]) for k in range(distinct)]
        keys = tuple(rng.choice(pool) for _ in range(n))
        assert _exchange_sort_passes(keys) == _exchange_sort_loop(keys), keys


def test_the_order_among_equal_strides_is_not_stable():
    # CuTe's exchange sort swaps equal keys out of their input order; a stable sort would give [2, 0, 1, 3].
    keys = (2, 2, 1, 2)
    assert exchange_sort_by_stride(keys) == _exchange_sort_loop(keys) == [2, 1, 0, 3]


def test_large_input_uses_the_passes_and_agrees():
    rng = random.Random(7)
    keys = tuple(rng.choice([1, 2, 4, 8]) for _ in range(2000))
    assert exchange_sort_by_stride(keys) == _exchange_sort_loop(keys)
