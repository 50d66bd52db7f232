"""The optional C fast path of the Layout constructor (core/_fastlayout.c) against the Python checks.

The C code must accept exactly what ``_plain_pair`` accepts and build the same flat form as the Python
``_build_flat``; the constructor must give the same layout or the same error with or without it
(``SYMCUTE_PURE_PYTHON=1`` turns it off in a fresh process).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import symcute as sc
from symcute.core import layout as lay
from symcute.core.basis import ScaledBasis
from symcute.core.integer import DynamicInt

ROOT = Path(__file__).resolve().parents[2]
needs_c = pytest.mark.skipif(lay._fastlayout is None, reason="the C extension is not built here "
                             "(python setup.py build_ext --inplace)")


def _leaf(rng, stride):
    r = rng.random()
    if r < 0.8:
        return rng.choice((0, 1, 2, 3, 4, 8, -2, 1 << 70))
    return rng.choice((True, 4.0, DynamicInt(3), "4", None, ScaledBasis(1, (0,)) if stride else 2, [2]))


def _tree(rng, depth, stride):
    if depth == 0 or rng.random() < 0.3:
        return _leaf(rng, stride)
    return tuple(_tree(rng, depth - 1, stride) for _ in range(rng.randint(0, 3)))


def _like(rng, t):
    """A stride for ``t``: congruent mostly, sometimes not (a leaf for a tuple, a rank off by one)."""
    if isinstance(t, tuple):
        if rng.random() < 0.05:
            return _leaf(rng, True)
        out = tuple(_like(rng, x) for x in t)
        return out + (1,) if rng.random() < 0.03 else out
    return _tree(rng, 1, True) if rng.random() < 0.05 else _leaf(rng, True)


def _pairs(n):
    rng = random.Random("fastlayout")
    for _ in range(n):
        s = _tree(rng, 4, False)
        yield s, _like(rng, s)
    deep_s, deep_d = 1, 1
    for _ in range(lay.MAX_DEPTH + 2):
        deep_s, deep_d = (deep_s,), (deep_d,)
    yield deep_s, deep_d


def _outcome(shape, stride):
    try:
        L = sc.Layout(shape, stride)
        return ("ok", L.shape, L.stride)
    except Exception as e:   # noqa: BLE001 - the error's type and text are compared
        return (type(e).__name__, str(e))


@needs_c
def test_c_check_accepts_what_the_python_check_accepts():
    accepted = 0
    for shape, stride in _pairs(4000):
        py = lay._plain_pair(shape, stride, 0)
        assert bool(lay._fastlayout.plain_pair(shape, stride)) == py, (shape, stride)
        accepted += py
    assert 100 < accepted < 4000


@needs_c
def test_c_flat_form_equals_the_python_one():
    built = 0
    for shape, stride in _pairs(4000):
        try:
            L = sc.Layout(shape, stride)
        except Exception:   # noqa: BLE001 - only layouts have a flat form
            continue
        c = lay._fastlayout.flat_modes(L._shape, L._stride)
        saved = lay._c_flat_modes
        lay._c_flat_modes = None
        try:
            py = lay.Layout._make(L._shape, L._stride)._build_flat()
        finally:
            lay._c_flat_modes = saved
        assert c is None or c == py, (shape, stride)
        assert c is None or [type(x) for x in c[0]] == [type(x) for x in py[0]]
        built += c is not None
    assert built > 100


def test_constructor_outcomes_equal_with_and_without_the_c_path():
    pairs = list(_pairs(600))
    here = [_outcome(s, d) for s, d in pairs]
    code = ("import sys, pickle; sys.path.insert(0, sys.argv[1]); import symcute.core.layout as lay; "
            "assert lay._fastlayout is None; from tests.core.test_fastlayout import _pairs, _outcome; "
            "sys.stdout.buffer.write(pickle.dumps([_outcome(s, d) for s, d in _pairs(600)]))")
    env = dict(os.environ, SYMCUTE_PURE_PYTHON="1", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code, str(ROOT)], env=env, capture_output=True, check=True)
    import pickle
    assert pickle.loads(out.stdout) == here
    assert sum(o[0] == "ok" for o in here) > 50 and sum(o[0] != "ok" for o in here) > 50
