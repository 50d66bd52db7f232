"""Lint: catalogued atoms, the two upstream defects, user-built atoms with verified counterexamples."""

from __future__ import annotations

import re

import pytest

import symcute as sc
from symcute.errors import SymcuteError

SEED_A = "((4,8),(2,2,2)):((32,1),(16,8,128))"
SEED_B = "((4,8),(2,2)):((16,1),(8,64))"
SEED_C = "((4,8),(2,2)):((32,1),(16,8))"


def test_catalog_lints_clean_except_known_upstream_defects():
    reports = sc.lint_catalog()
    assert len(reports) == len(sc.mma_atoms()) + len(sc.copy_atoms())
    failing = {r.atom for r in reports if not r.ok}
    assert failing == {r.atom.name for r in sc.mma_atoms() if r.atom.defects}
    assert len(failing) == 10
    for r in reports:
        assert all(f.known_upstream for f in r.findings), r


def test_int4_b_layout_defect_has_a_true_counterexample():
    r = sc.lint_mma_atom("SM80_16x8x32_S32S4S4S32_TN")
    checks = {f.check for f in r.findings}
    assert checks == {"upstream", "coverage", "multiplicity"}
    mult = next(f for f in r.findings if f.check == "multiplicity")
    B = sc.mma_atom("SM80_16x8x32_S32S4S4S32_TN").b_layout
    pairs = [tuple(map(int, p)) for p in re.findall(r"\(t=(\d+),v=(\d+)\)", mult.counterexample)]
    assert len(pairs) == 2 and len({B(p) for p in pairs}) == 1          # two pairs, one element
    cov = next(f for f in r.findings if f.check == "coverage")
    q = int(re.search(r"q=(\d+)", cov.counterexample).group(1))
    assert all(B(i) != q for i in range(B.size()))                      # truly unreached


def test_seed_atom_is_clean_with_no_broadcast():
    r = sc.lint_mma_atom("SM80_16x8x16_F16F16F16F16_TN")
    assert r.ok and r.findings == () and r.broadcasts == ()
    assert r.checked == ("A", "B", "C")


def test_broadcasts_are_reported_as_information():
    r = sc.lint_mma_atom("SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>")
    assert r.ok
    assert [op for op, _ in r.broadcasts] == ["A", "B"]
    assert "extent 128" in r.broadcasts[0][1]


def test_user_atom_with_a_wrong_stride():
    bad = sc.MMAAtom("mine", (16, 8, 16), 32, SEED_A, "((4,8),(2,2)):((16,1),(8,32))", SEED_C)
    r = sc.lint_mma_atom(bad)
    assert not r.ok
    assert {(f.operand, f.check) for f in r.findings} == {("B", "coverage"), ("B", "multiplicity")}
    assert not any(f.known_upstream for f in r.findings)
    assert sc.lint_mma_atom(sc.MMAAtom("good", (16, 8, 16), 32, SEED_A, SEED_B, SEED_C)).ok


def test_user_atom_out_of_range_and_thread_count():
    r = sc.lint_mma_atom(sc.MMAAtom("oob", (16, 8, 16), 32, "((4,8),(2,2,2)):((32,1),(16,8,256))", SEED_B,
                                    SEED_C))
    rng = next(f for f in r.findings if f.check == "range")
    assert rng.operand == "A" and ">= 256" in rng.counterexample
    r2 = sc.lint_mma_atom(sc.MMAAtom("thr", (16, 8, 16), 64, SEED_A, SEED_B, SEED_C))
    assert {f.check for f in r2.findings} == {"threads"}
    r3 = sc.lint_mma_atom(sc.MMAAtom("dup", (16, 8, 16), "(4,8):(1,0)", SEED_A, SEED_B, SEED_C))
    assert any(f.operand == "ThrID" and f.check == "injective" for f in r3.findings)


def test_copy_atoms():
    assert sc.lint_copy_atom("SM75_U32x4_LDSM_N").ok
    r = sc.lint_copy_atom("SM75_U32x1_LDSM_N")
    assert r.ok and r.broadcasts[0][0] == "Src"
    bad = sc.CopyAtom("mine", 32, "((8,4),64):((128,0),1)", "(32,32):(32,1)", "(32,32):(32,1)")
    r = sc.lint_copy_atom(bad)
    assert [(f.operand, f.check) for f in r.findings] == [("Src", "size")]
    assert "512 distinct bits, Ref 1024" in r.findings[0].message


def test_lint_rejects_non_atoms():
    with pytest.raises(SymcuteError):
        sc.lint_mma_atom("NOT_AN_ATOM")
