"""The wide walk of coalesce (``_bw_coalesce_wide``, past ``_WIDE`` modes) against the plain walk.

Both walks must give the same layout on every input: the wide one only answers some merge tests by bit
lengths before multiplying.  Inputs mix long strides (where the bit lengths decide), merging neighbours,
static 1s, zeros, negative values and run-time integers.
"""

from __future__ import annotations

import importlib
import random

import pytest

from symcute.core.integer import DynamicInt

co = importlib.import_module("symcute.core.coalesce")


def _plain(fs, fd):
    saved = co._WIDE
    co._WIDE = 1 << 30
    try:
        return co._bw_coalesce(fs, fd, fs[-1], fd[-1])
    finally:
        co._WIDE = saved


def _modes(rng, n):
    fs, fd = [], []
    d = rng.choice((1, 1 << 300, 3 << 500))
    for _ in range(n):
        s = rng.choice((1, 2, 3, 4, 2, 3, 0, -2))
        if rng.random() < 0.05:
            s = DynamicInt(rng.choice((1, 2, 3)))
        fs.append(s)
        fd.append(d)
        r = rng.random()
        if r < 0.4:
            d = d * s if type(s) is int and s else d * 2   # the next mode merges (when the types allow)
        elif r < 0.55:
            d = d * rng.choice((2, 3, 5)) + rng.choice((0, 1))
        elif r < 0.65:
            d = 0
        elif r < 0.7:
            d = -abs(d or 1) * 2
        elif r < 0.75:
            d = DynamicInt(rng.choice((1, 4, 8)))
        else:
            d = rng.choice((1 << rng.randint(250, 900), rng.getrandbits(600) + 1, d * 3 or 7))
    return tuple(fs), tuple(fd)


@pytest.mark.parametrize("seed", range(4))
def test_wide_walk_equals_the_plain_walk(seed):
    rng = random.Random(f"coalesce-wide:{seed}")
    merged = 0
    for _ in range(150):
        fs, fd = _modes(rng, rng.randint(co._WIDE + 1, 3 * co._WIDE))
        wide = co._bw_coalesce(fs, fd, fs[-1], fd[-1])
        plain = _plain(fs, fd)
        assert (wide.shape, wide.stride) == (plain.shape, plain.stride)
        assert [type(x) for x in _leaves(wide.shape)] == [type(x) for x in _leaves(plain.shape)]
        merged += len(_leaves(wide.shape)) < len(fs) - fs.count(1)
    assert merged > 100   # merges happened (the shortcut did not make every test a "no")


def _leaves(t):
    return list(t) if isinstance(t, tuple) else [t]
