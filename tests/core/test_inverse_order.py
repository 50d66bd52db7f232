"""exchange_sort_by_stride gives exactly CuTe's exchange-sort permutation (cute/int_tuple.hpp, exchange_sort)."""

import itertools
import random

from symcute.core.inverse import _exchange_sort_loop, _exchange_sort_queues, exchange_sort_by_stride


def random_keys(rng, n):
    """Keys with many repeats, signs and big ints (strides are Python ints)."""
    distinct = rng.randint(1, max(1, n // rng.choice([1, 2, 5, 20])))
    pool = [rng.choice([0, 1, -3, 2**70]) + k * rng.choice([1, 7]) for k in range(distinct)]
    return tuple(rng.choice(pool) for _ in range(n))


def test_queues_equal_the_literal_loop_on_random_keys_with_repeats():
    rng = random.Random(2026)
    for _ in range(3000):
        keys = random_keys(rng, rng.randint(1, rng.choice([8, 40, 120])))
        assert _exchange_sort_queues(keys) == _exchange_sort_loop(keys), keys


def test_queues_equal_the_literal_loop_on_every_short_key_list():
    for n in range(1, 8):
        for keys in itertools.product((0, 1, 2), repeat=n):
            assert _exchange_sort_queues(keys) == _exchange_sort_loop(keys), keys


def test_larger_keys_do_not_reorder_a_smaller_block():
    # what the queue model rests on: the order among the modes of key v is the same with
    # every larger key removed from the input
    rng = random.Random(11)
    for _ in range(2000):
        keys = tuple(rng.randint(0, rng.choice([1, 2, 4])) for _ in range(rng.randint(1, 14)))
        full = _exchange_sort_loop(keys)
        for v in set(keys):
            kept = [i for i, k in enumerate(keys) if k <= v]
            sub = tuple(keys[i] for i in kept)
            assert [kept[j] for j in _exchange_sort_loop(sub) if sub[j] == v] == [i for i in full if keys[i] == v]


def test_the_order_among_equal_strides_is_not_stable():
    # CuTe's exchange sort swaps equal keys out of their input order; a stable sort would give [2, 0, 1, 3].
    keys = (2, 2, 1, 2)
    assert exchange_sort_by_stride(keys) == _exchange_sort_loop(keys) == [2, 1, 0, 3]


def test_large_inputs_use_the_queues_and_agree():
    rng = random.Random(7)
    for keys in (tuple(rng.choice([1, 2, 4, 8]) for _ in range(2000)),   # few values, long blocks
                 tuple(v for v in range(40, 0, -1) for _ in range(25)),  # descending runs of repeats
                 tuple(v for _ in range(30) for v in range(30, 0, -1)),  # interleaved blocks
                 random_keys(rng, 500)):
        assert exchange_sort_by_stride(keys) == _exchange_sort_loop(keys)
