"""Blackwell and sparse-Hopper atoms against real CuTe 4.2: traits of every family, a sample of every axis.

CI runs every UMMA family at the smallest, middle and largest N of each M plus
one case per other axis (majors, ScaleIn, saturate, ScaleC, VS, value types)
and the refusals; every SM120 family on a spread of its type combinations;
sparse GMMA at N = 8 and 256 for a third of the families and a few extended
N; every SM100 copy atom's bit traits with one value type; every TMA/bulk
traits form.  ``SYMCUTE_LARGE=1`` takes every N, every type combination,
every sparse GMMA specialisation and four value types per copy atom.
"""

from __future__ import annotations

import pytest

from .atoms_cpp import PREAMBLE
from .atoms_sm100_cases import (
    ffma2_cases, fragment_cases, sm100_copy_cases, sm120_cases, sparse_gmma_cases, tiled_cases, tma_cases,
    tmem_copy_cases, umma_cases, umma_refusal_cases, utccp_copy_cases,
)
from .harness import compare, large, oracle_or_skip

SPARSE_EXT = ("#include <cute/arch/mma_sm90_gmma_sparse_ext.hpp>\n"
              "#include <cute/atom/mma_traits_sm90_gmma_sparse_ext.hpp>\n")


def all_cases():
    big = large()
    cases = umma_cases(big) + umma_refusal_cases() + ffma2_cases() + sm120_cases(big)
    cases += sparse_gmma_cases(big) + sm100_copy_cases(big) + tma_cases()
    cases += tiled_cases(big) + fragment_cases(big) + tmem_copy_cases(big) + utccp_copy_cases(big)
    unique = {}
    for c in cases:   # a refusal or an axis sample may coincide with an (M, N) sample: keep one
        unique.setdefault(c.key, c)
    return list(unique.values())


@pytest.fixture(scope="module")
def verdicts():
    oracle = oracle_or_skip()
    cases = all_cases()
    results = oracle.run({c.key: c.cpp for c in cases}, preamble=PREAMBLE + SPARSE_EXT)
    return cases, results, compare(cases, results, str, "atoms_sm100")


OPS = ["umma_traits", "sm120_traits", "sparse_gmma_traits", "sm100_copy_traits", "tma_traits", "tiled_new",
       "fragment_new", "tmem_copy", "utccp_copy"]


@pytest.mark.parametrize("op", OPS)
def test_blackwell_atoms_equal_cute(verdicts, op):
    cases, results, bad = verdicts
    mine = [c for c in cases if c.op == op]
    assert mine, f"no cases for {op}"
    msgs = bad.get(op, [])
    assert not msgs, f"{len(msgs)} mismatches for {op}; first ones:\n" + "\n".join(msgs[:5])


def test_refusals_are_refused_by_cute(verdicts):
    """The refusal cases really are refused by CuTe (and the two near-misses accepted)."""
    cases, results, _ = verdicts
    refused = {c.key for c in cases if c.op == "umma_traits" and results[c.key].rejected}
    assert any(",96,64," in k for k in refused)
    assert any("TS<half_t,half_t,float,128,64,UMMA::Major::MN" in k for k in refused)
    accepted = [c.key for c in cases if c.key.endswith("SM100_MMA_F16BF16_TS<half_t,half_t,float,64,8,"
                                                           "UMMA::Major::K,UMMA::Major::K>")]
    assert accepted and results[accepted[0]].ok
