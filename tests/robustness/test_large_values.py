"""Sizes up to 2^62 and strides beyond 2^63: exact in core, formulas and proofs, never enumerated.

Everything here is computed from the modes (O(rank)), so each result is
checked against the arithmetic it must equal, at a size no enumeration could
reach.  What would enumerate (the prover's exhaustive fallback, lint) refuses
past its limit with a message naming the limit and how to change it.  The
CLI runs on a 2^62-element layout in a subprocess under an address-space cap.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

import symcute
import symcute.symbolic as sym
from symcute import (Layout, coalesce, complement, composition, downcast, left_inverse, logical_divide, right_inverse,
                     upcast)
from symcute.errors import LimitError
from symcute.symbolic import limits

from ..cli_runner import run_cli_process
from .harness import fuzz_settings

P62 = 1 << 62
BIG_STRIDE = (1 << 64) + 3 * (1 << 10)   # beyond 2^63, not a power of two


def test_layout_values_are_exact_beyond_int64():
    L = Layout((1 << 31, 1 << 31), (BIG_STRIDE, 1))
    assert L.size() == P62
    assert L.cosize() == ((1 << 31) - 1) * BIG_STRIDE + (1 << 31) - 1 + 1
    i = P62 - 1
    assert L(i) == (i % (1 << 31)) * BIG_STRIDE + i // (1 << 31)
    assert L((5, 7)) == 5 * BIG_STRIDE + 7


def test_core_operations_at_2_62():
    assert right_inverse(Layout((P62, 2), (2, 1))) == Layout((2, P62), (P62, 1))
    assert left_inverse(Layout((P62, 2), (2, 1))) == Layout((2, P62), (P62, 1))
    assert right_inverse(Layout((1 << 31, 1 << 31), (1 << 31, 1))) == Layout((1 << 31, 1 << 31), (1 << 31, 1))
    assert composition(Layout((P62,), (BIG_STRIDE,)), Layout(1 << 40, 4)) == Layout(1 << 40, 4 * BIG_STRIDE)
    assert upcast(Layout((P62, 2), (1 << 64, 1)), 1 << 32) == Layout((P62, 1), (1 << 32, 1))
    assert downcast(Layout((P62, 2), (2, 1)), 1 << 10) == Layout((P62, 1 << 11), (1 << 11, 1))
    assert coalesce(Layout((1 << 31, 1 << 31, 4), (1, 1 << 31, P62))) == Layout(1 << 64, 1)
    assert complement(Layout(1 << 31, 1 << 31), 1 << 70) == Layout((1 << 31, 1 << 8), (1, P62))
    assert logical_divide(Layout(P62, 1), 1 << 20) == Layout((1 << 20, 1 << 42), (1, 1 << 20))


@st.composite
def big_layouts(draw):
    """Rank-2..4 layouts whose size reaches 2^62 and whose strides pass 2^63."""
    n = draw(st.integers(2, 4))
    shape = [1 << draw(st.integers(1, 62 // n)) for _ in range(n)]
    stride = [draw(st.sampled_from([0, 1, 3, (1 << 63) + 1, BIG_STRIDE, 1 << 70])) for _ in range(n)]
    return Layout(tuple(shape), tuple(stride))


@fuzz_settings(ci=100)
@given(big_layouts(), st.integers(0, (1 << 62) - 1))
def test_formula_agrees_with_the_layout_beyond_int64(L, q):
    q %= L.size()
    f = sym.formula(L)
    assert f(q) == L(q)
    assert sum(a.stride * ((q // a.weight) % a.extent) for a in f.axes) == L(q)  # the sub-axis table is exact
    assert str(max(L.stride)) in f.to_json()  # exact integers in JSON, no float rounding


def test_refinement_proofs_at_2_62_without_enumeration(monkeypatch):
    from symcute.symbolic import exhaustive

    def refuse(*args, **kwargs):
        raise AssertionError("enumerated")
    monkeypatch.setattr(exhaustive, "values", refuse)
    L = Layout((P62, 2), (2, 1))
    for proof in [sym.prove_right_inverse(L), sym.prove_left_inverse(L), sym.is_injective(L), sym.is_bijective(L),
                  sym.is_surjective(L, 2 * P62), sym.prove(L, coalesce(L)),
                  sym.prove_right_inverse(Layout((1 << 31, 1 << 31), (1 << 31, 1)))]:
        assert proof.verdict == "proved", proof
    assert sym.is_injective(Layout((P62, 2), (1, 1))).verdict == "refuted"
    assert sym.is_surjective(Layout((P62, 2), (4, 1)), 2 * P62).verdict == "refuted"
    assert sym.prove(Layout((P62, 3), (3, 1)), Layout((3, P62), (1, 3))).verdict == "refuted"


def test_astronomical_enumeration_refuses_with_the_limit():
    from symcute.symbolic import exact
    L = Layout((3 << 60, 5), (5, 3))   # no common refinement: only enumeration or an exact back-end decides
    assert sym.is_injective(L).verdict == "proved"   # 5a + 3b: equal values need b1 - b2 = 0 mod 5 (Z3 proves it)
    old_exact = exact.set_enabled(False)
    try:
        proof = sym.is_injective(L)
        assert proof.verdict == "unknown"
        assert "exceeds the exhaustive limit 2^24" in proof.reason and "EXHAUSTIVE_LIMIT" in proof.reason
        with pytest.raises(LimitError, match=r"enumerating .* exceeds the exhaustive limit 2\^24 .*SYMCUTE_EXHAUSTIVE_LIMIT"):
            limits.check_enumerable(L.size(), "evaluating L")
        old = limits.set_exhaustive_limit(10)
        try:
            assert sym.is_injective(Layout((3, 5), (5, 3))).verdict == "unknown"   # 15 > 10: refused, not run
        finally:
            limits.set_exhaustive_limit(old)
    finally:
        exact.set_enabled(old_exact)
    assert sym.is_injective(Layout((3, 5), (5, 3)), limit=15).verdict == "proved"


def test_the_limit_comes_from_the_environment():
    code = "from symcute.symbolic import limits; print(limits.EXHAUSTIVE_LIMIT)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, SYMCUTE_EXHAUSTIVE_LIMIT="1000")).stdout
    assert out.strip() == "1000"


# --- the CLI on 2^62 elements, memory capped -------------------------------------------------------------

CAP = 1 << 30  # 1 GiB of address space: SymPy, numpy and networkx load in less; any O(size) array would not


def _run_capped(argv):
    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))
    # one BLAS thread: numpy's per-thread buffers on a many-core machine are not the input's
    env = dict(os.environ, LC_ALL="C.UTF-8", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return run_cli_process(argv, env=env, timeout=300, preexec_fn=cap)


BIG = f"({P62},2):(2,1)"


@pytest.mark.parametrize("argv,code,expect", [
    (["prove", "right-inverse", BIG], 0, "verdict: proved (refinement)"),
    (["prove", "bijective", BIG], 0, "verdict: proved"),
    (["prove", "injective", f"({3 << 60},5):(5,3)"], 0, "verdict: proved (z3)"),
    (["formula", f"({P62},2):({BIG_STRIDE},1)", "--table", "--index", "--json"], 0, str(BIG_STRIDE)),
    (["calc", f"right_inverse({BIG})"], 0, f"(2,{P62}):({P62},1)"),
    (["derive", "expr", "right_inverse(F)", "--let", f"F={BIG}"], 0, f"(2,{P62}):({P62},1)"),
    (["lint", "--mma-shape", "16,8,16", "--a", f"({P62},8):(1,32)", "--b", "(32,4):(1,32)", "--c", "(32,4):(1,32)"],
     2, "exceeds the limit of 16777216"),
])
def test_cli_on_2_62_elements_in_bounded_memory(argv, code, expect):
    got, out, err = _run_capped(argv)
    assert got == code, (got, out[-500:], err[-2000:])
    assert expect in out + err
    assert "MemoryError" not in err and "Traceback" not in err
