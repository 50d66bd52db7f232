"""CI guard: every catalogued atom of the covered families has hardware evidence for its current layouts.

The shipped evidence (symcute/hwcheck/data/hw_evidence.json) records the
fingerprint of the layouts that ran on the GPU.  Changing a catalogued atom's
shape, thr_id, A/B/C layouts or value types, or adding an atom to a covered
family, fails this test until the hardware check is run again:

    symcute hwcheck --all --emit DIR; bash DIR/run.sh   # on a machine with the GPU
    symcute hwcheck --results DIR/results.jsonl --evidence-out symcute/hwcheck/data/hw_evidence.json
"""

from pathlib import Path

import pytest

from symcute.hwcheck.api import read_results
from symcute.hwcheck.api import gmma_sample
from symcute.hwcheck.evidence import check_evidence, evidence_from_report, load_evidence
from symcute.hwcheck.plan import derive_atom
from symcute.atoms.mma_atom import MMAAtom
from symcute.atoms.mma_catalog import WARP_ATOMS

RUN = Path(__file__).parent / "data" / "h200_2026-11-29"
GMMA_RUN = Path(__file__).parent / "data" / "h200_2026-11-29_gmma"     # the N = 8 part of the GMMA run


@pytest.fixture(scope="module")
def evidence():
    return load_evidence()


def test_catalog_matches_the_hardware_evidence(evidence):
    problems = check_evidence(evidence)
    assert problems == [], "\n".join(problems)


def test_covered_families_are_the_mma_sync_families_that_ran(evidence):
    assert set(evidence["covered_families"]) >= {"SM70", "SM75", "SM80", "SM89", "SM90"}
    ran = [n for n, row in evidence["atoms"].items() if row["verdict"] in ("agree", "disagree")]
    assert len(ran) >= 20
    assert all(r["device"] == "NVIDIA H200" and r["arch"] == "sm_90a" for r in evidence["runs"])
    assert evidence["gmma_sample_n"] == [8, 256]
    assert all(evidence["atoms"][n]["verdict"] == "agree" for n in gmma_sample())


def _rows(ev, run):
    return {k: dict(v, run=run) for k, v in ev.items()}


def test_evidence_is_derived_from_the_recorded_runs_not_edited(evidence):
    mma = evidence_from_report(read_results(RUN / "results.jsonl.gz"), 0)
    assert evidence["runs"][0] == mma["runs"][0]
    assert {k: v for k, v in evidence["atoms"].items() if v["run"] == 0} == mma["atoms"]
    gmma = evidence_from_report(read_results(GMMA_RUN / "results.jsonl.gz"), 1)
    assert {k: v for k, v in evidence["runs"][1].items() if k != "manifest"} == \
        {k: v for k, v in gmma["runs"][0].items() if k != "manifest"}
    assert len(gmma["atoms"]) == 40
    for name, row in gmma["atoms"].items():
        assert evidence["atoms"][name] == row, name
    for name, row in gmma["user_atoms"].items():
        assert evidence["user_atoms"][name] == row, name


def test_a_changed_gmma_layout_is_caught(evidence, monkeypatch):
    import symcute.hwcheck.evidence as ev_mod
    name = gmma_sample()[0]
    real = ev_mod.fingerprint
    monkeypatch.setattr(ev_mod, "fingerprint", lambda a: "0" * 64 if a.name == name else real(a))
    problems = check_evidence(evidence)
    assert [p.split(":")[0] for p in problems] == [name.split(":")[0]] and "re-run" in problems[0]


def test_a_changed_layout_is_caught(evidence):
    name = "SM80_16x8x16_F16F16F16F16_TN"
    changed = dict(WARP_ATOMS)
    changed[name] = derive_atom(WARP_ATOMS[name], name, c="((4,8),(2,2)):((32,1),(8,16))")
    problems = check_evidence(evidence, changed)
    assert len(problems) == 1 and problems[0].startswith(name) and "re-run symcute hwcheck" in problems[0]


def test_a_changed_value_type_is_caught(evidence):
    name = "SM80_16x8x8_F32BF16BF16F32_TN"
    a = WARP_ATOMS[name]
    changed = dict(WARP_ATOMS)
    changed[name] = MMAAtom(name, a.shape_mnk, a.thr_id, a.a_layout, a.b_layout, a.c_layout,
                            "float", "half_t", "half_t", "float")
    assert [p.split(":")[0] for p in check_evidence(evidence, changed)] == [name]


def test_a_new_atom_of_a_covered_family_needs_evidence(evidence):
    base = WARP_ATOMS["SM80_16x8x16_F16F16F16F16_TN"]
    extra = dict(WARP_ATOMS)
    extra["SM80_16x8x16_F16F16F16F16_TN_NEW"] = derive_atom(base, "SM80_16x8x16_F16F16F16F16_TN_NEW")
    extra["SM100_NOT_COVERED"] = derive_atom(base, "SM100_NOT_COVERED")
    problems = check_evidence(evidence, extra)
    assert len(problems) == 1 and "no hardware evidence" in problems[0]


def test_a_disagreement_must_be_a_known_defect(evidence):
    import copy
    ev = copy.deepcopy(evidence)
    ev["atoms"]["SM80_16x8x16_F16F16F16F16_TN"]["verdict"] = "disagree"
    assert any("not a known upstream defect" in p for p in check_evidence(ev))


def test_the_linters_upstream_defects_are_the_hardware_disagreements(evidence):
    """Every known upstream defect `symcute lint` reports disagrees with the GPU, and its correction agrees."""
    from symcute.atoms.lint import lint_catalog
    lint_defects = {r.atom for r in lint_catalog(False) if r.known_upstream}
    disagree = {n for n, row in evidence["atoms"].items() if row["verdict"] == "disagree"}
    assert lint_defects == disagree and len(disagree) == 10
    assert all(evidence["atoms"][n]["corrected"]["verdict"] == "agree" for n in disagree)
