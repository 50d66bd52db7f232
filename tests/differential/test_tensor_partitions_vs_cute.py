"""Partitions of smem and gmem Tensors (swizzled, GMMA-atom, staged) against real CuTe.

SM80, SM90 and SM100 TiledMMAs (``partition_A/B/C``, ``partition_fragment_A/B/C``, GMMA/UMMA
smem-descriptor fragments, UMMA's tmem accumulator), LDSM and cp.async tiled copies (``partition_S/D``, ``retile_D``), ``local_tile`` and
``local_partition``: CuTe's ``print(tensor)`` equals symcute's ``str(tensor)`` (iterator and layout),
or CuTe refuses the program and symcute raises a SymcuteError.  Cases: ``tensor_partition_cases.py``.
"""

from __future__ import annotations

import dataclasses

import pytest

from .atoms_cpp import PREAMBLE
from .harness import compare, large, oracle_or_skip
from .tensor_partition_cases import HOST_SMEM_CAST, cases

OPS = ["mma_partition_A", "mma_partition_B", "copy_partition", "g2s_partition", "local_tile_partition"]


def _without_host_cast(res):
    """CuTe's output without the line its host build of make_gmma_desc prints (the start address cast)."""
    if res.ok and res.output and HOST_SMEM_CAST in res.output:
        return dataclasses.replace(res, output=res.output.replace(HOST_SMEM_CAST, ""))
    return res


@pytest.fixture(scope="module")
def verdicts():
    oracle = oracle_or_skip()
    table = cases(wide=large())
    keys = [c.key for c in table]
    assert len(keys) == len(set(keys)), "duplicate case keys"
    results = oracle.run({c.key: c.cpp for c in table}, preamble=PREAMBLE)
    results = {k: _without_host_cast(r) for k, r in results.items()}
    return table, results, compare(table, results, str, "tensor_partition")


@pytest.mark.parametrize("op", OPS)
def test_tensor_partitions_equal_cute(verdicts, op):
    table, results, bad = verdicts
    mine = [c for c in table if c.op == op]
    assert mine, f"no cases for {op}"
    msgs = bad.get(op, [])
    assert not msgs, f"{len(msgs)} of {len(mine)} mismatches for {op}; first ones:\n" + "\n".join(msgs[:4])


def test_descriptor_fragments_are_computed_and_refused_where_cute_refuses(verdicts):
    table, results, _ = verdicts
    desc = [c for c in table if ("#sm90" in c.key or "#sm100" in c.key) and "bad" not in c.key and "plain" not in c.key]
    assert desc and all(results[c.key].ok for c in desc)
    assert all(("UMMA" if "#sm100" in c.key else "GMMA") + "::DescriptorIterator o " in results[c.key].output
               for c in desc)
    assert any("#sm100" in c.key for c in desc) and all(
        "tmem_[32b](0x0000.0000) o " in results[c.key].output for c in desc if "#sm100" in c.key)
    refused = [c for c in table if "#sm90bad" in c.key or "#sm90plain" in c.key]
    assert refused and all(not results[c.key].ok for c in refused)
