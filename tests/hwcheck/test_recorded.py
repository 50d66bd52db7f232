"""Replays of the real H200 run (tests/hwcheck/data/h200_2026-11-29): the hardware's D, checked on a CPU.

The data are the program's own output (results.jsonl, gzipped), the manifest
that regenerates every input from its seed, and the kernels' MMA opcodes from
cuobjdump.  Nothing here is simulated: each D value was computed by the GPU.
"""

from pathlib import Path

import pytest

from symcute.hwcheck.api import plan_from_manifest, read_manifest, read_results
from symcute.hwcheck.plan import Case, derive_atom
from symcute.hwcheck.report import evaluate_case
from symcute.atoms.mma_catalog import WARP_ATOMS

DATA = Path(__file__).parent / "data" / "h200_2026-11-29"


@pytest.fixture(scope="module")
def report():
    return read_results(DATA / "results.jsonl.gz")


@pytest.fixture(scope="module")
def recorded():
    man = read_manifest(DATA / "manifest.json")
    p = plan_from_manifest(man)
    import gzip
    import json
    lines = {}
    for line in gzip.decompress((DATA / "results.jsonl.gz").read_bytes()).decode().splitlines():
        obj = json.loads(line)
        if obj.get("kind") == "case":
            lines[obj["index"]] = [bytes.fromhex(h) for h in obj["d"]]
    return {c.label: (c, inp, lines[i]) for i, (c, inp) in enumerate(zip(p.cases, p.inputs()))}


def test_where_it_ran(report):
    e = report.env
    assert e["device"] == "NVIDIA H200" and e["cc"] == "9.0" and e["arch"] == "sm_90a"
    assert e["driver"] == "580.159.04" and e["nvcc"] == "13.0.88"


def test_verdict_counts(report):
    assert report.counts() == {"agree": 92, "disagree": 17, "unsupported": 1}
    catalog = [r for r in report.results if r.kind == "catalog" and r.verdict == "agree"]
    assert len(catalog) == 80      # 91 catalogued: DP2A does not assemble, 2 malformed, 8 s4 B layouts


def test_cutes_16x8x32_s4_b_layout_disagrees_and_the_correction_agrees(report):
    rows = {r.label: r for r in report.results}
    for a in ("S4", "U4"):
        for b in ("S4", "U4"):
            for sat in ("", "_SATURATE"):
                name = f"SM80_16x8x32_S32{a}{b}S32_TN{sat}"
                assert rows[name].verdict == "disagree" and rows[name].conflicts == {"B": 96}
                assert rows[name].mismatches == 128
                assert rows[name + "[corrected]"].verdict == "agree"


def test_malformed_16x8x128_b1_layout_is_a_disagreement_with_a_corrected_agreement(report):
    rows = {(r.label, r.kind): r for r in report.results}
    for op in ("XORPOPC", "ANDPOPC"):
        name = f"SM80_16x8x128_S32U1U1S32_TN_{op}"
        assert rows[(name, "upstream")].verdict == "disagree"
        assert rows[(name + "[corrected]", "corrected")].verdict == "agree"


def test_deliberately_wrong_user_layouts_disagree_on_the_gpu(report):
    user = {r.label: r for r in report.results if r.kind == "user"}
    assert len(user) == 9
    agree = {k for k, r in user.items() if r.verdict == "agree"}
    # a common k permutation of A and B, and a regrouped notation of the same C, are indistinguishable
    assert agree == {"user_SM80_16x8x8_F16_A_B_common_k_permutation", "user_SM80_16x8x8_F16_C_regrouped_notation"}
    wrong_c = user["user_SM80_16x8x16_F16_C_swapped_values"]
    assert wrong_c.mismatches == 64 and wrong_c.example["predicted"] != wrong_c.example["measured"]


def test_tensor_core_instructions_ran(report):
    rows = {r.label: r for r in report.results}
    assert rows["SM80_16x8x16_F16F16F16F16_TN"].sass == ["HMMA.16816.F16"]
    assert set(rows["SM90_16x8x16_F64F64F64F64_TN"].sass) == {"DMMA.16x8x16"}
    assert set(rows["SM80_16x8x256_S32U1U1S32_TN_ANDPOPC"].sass) == {"BMMA.168256.AND.POPC"}
    # sm_90 has no m8n8k4 tensor-core instruction: ptxas emulates the SM70 atoms
    assert rows["SM70_8x8x4_F16F16F16F16_TN"].sass == ["none (emulated)"]


def test_current_catalog_against_recorded_hardware(recorded):
    """Every catalogued atom that ran: its current layouts predict the D the GPU computed."""
    checked = 0
    for name, atom in WARP_ATOMS.items():
        if name not in recorded or any(getattr(atom, o) is None for o in ("a_layout", "b_layout", "c_layout")):
            continue
        case, inp, d = recorded[name]
        r = evaluate_case(Case(name, name, atom), inp.frags, d)
        expect_bad = name.startswith("SM80_16x8x32_S32") and ("S4" in name or "U4" in name)
        assert (r.verdict == "disagree") == expect_bad, (name, r.verdict, r.example)
        checked += 1
    assert checked == 88


def test_a_new_wrong_layout_against_recorded_hardware(recorded):
    """A user layout that never ran is still judged on the recorded fragments and D."""
    case, inp, d = recorded["SM80_16x8x16_F32BF16BF16F32_TN"]
    # B's two k-halves swapped: ((4,8),(2,2)):((16,1),(64,8)) instead of ((16,1),(8,64))
    wrong = derive_atom(case.atom, "wrong_b", b="((4,8),(2,2)):((16,1),(64,8))")
    r = evaluate_case(Case("wrong_b", case.instruction, wrong, "user"), inp.frags, d)
    assert r.verdict == "disagree" and r.mismatches == 128
    right = evaluate_case(Case("same", case.instruction, case.atom, "user"), inp.frags, d)
    assert right.verdict == "agree" and right.mismatches == 0


GMMA = Path(__file__).parent / "data" / "h200_2026-11-29_gmma"


def test_gmma_atoms_on_the_gpu():
    """SM90 wgmma: 40 of the 80 sampled atoms (N = 8; N = 256 agreed too but its 19 MB output is not kept)."""
    rep = read_results(GMMA / "results.jsonl.gz")
    assert rep.counts() == {"agree": 40, "disagree": 2}
    ops = {r.label: {s.split(".")[0] for s in r.sass} for r in rep.results}
    assert ops["SM90_64x8x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>"] == {"HGMMA"}
    assert ops["SM90_64x8x32_S32U8S8_RS_TN"] == {"IGMMA"}
    assert ops["SM90_64x8x32_F16E5M2E4M3_SS_TN<>"] == {"QGMMA"}
    user = {r.label: r for r in rep.results if r.kind == "user"}
    assert {k: r.verdict for k, r in user.items()} == {"user_SM90_64x8x16_F16_SS_C_swapped_values": "disagree",
                                                     "user_SM90_64x8x16_F32F16_RS_A_swapped_v1_v2": "disagree"}
    assert user["user_SM90_64x8x16_F16_SS_C_swapped_values"].mismatches == 256
