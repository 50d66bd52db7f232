"""The host side of the check end to end, with a CPU stand-in for the GPU (tests/hwcheck/simulate.py).

The stand-in computes D from the layouts it is told are the instruction's; the
real hardware's answers are tested in test_recorded.py.  What is tested here:
inputs -> registers -> model -> verdict is self-consistent, and every layout
that differs from the truth as a function of (t, v) is caught.
"""

import itertools

import pytest

from symcute.hwcheck.api import evaluate_plan, parse_results, plan
from symcute.hwcheck.plan import CORRECTIONS, derive_atom, user_case
from symcute.atoms.mma_lookup import mma_atom
from symcute.core import Layout

from .simulate import simulate_results


def report_of(p):
    env, lines = parse_results(simulate_results(p))
    return evaluate_plan(p, env, lines, {})


def test_catalog_agrees_with_itself_except_the_known_defects():
    rep = report_of(plan(all=True, trials=2))
    bad = {r.label for r in rep.results if r.verdict == "disagree"}
    defects = {n for n, _ in CORRECTIONS}
    assert bad <= defects
    assert "SM80_16x8x32_S32S4S4S32_TN" in bad                          # conflicts in CuTe's B layout
    assert "SM80_16x8x32_S32S4S4S32_TN[corrected]" not in bad
    assert {r.verdict for r in rep.results if r.kind == "corrected"} == {"agree"}
    assert sum(r.verdict == "agree" for r in rep.results) >= 80


def _mutants(layout: Layout):
    """Layouts that swap two leaf strides (same shape), as functions of (t, v) different from ``layout``."""
    flat_shape, flat_stride = _flat(layout.shape), _flat(layout.stride)
    seen = set()
    for i, j in itertools.combinations(range(len(flat_stride)), 2):
        if flat_stride[i] == flat_stride[j]:
            continue
        st = list(flat_stride)
        st[i], st[j] = st[j], st[i]
        mutant = Layout(layout.shape, _unflat(layout.stride, iter(st)))
        fn = tuple(mutant(x) for x in range(layout.size()))
        if fn != tuple(layout(x) for x in range(layout.size())) and fn not in seen:
            seen.add(fn)
            yield mutant


def _flat(t):
    return [x for s in t for x in _flat(s)] if isinstance(t, tuple) else [t]


def _unflat(like, it):
    return tuple(_unflat(s, it) for s in like) if isinstance(like, tuple) else next(it)


ATOMS = ["SM80_16x8x16_F16F16F16F16_TN", "SM75_8x8x16_S32S8S8S32_TN", "SM80_8x8x4_F64F64F64F64_TN",
         "SM89_16x8x32_F16E5M2E4M3F16_TN", "SM80_16x8x256_S32U1U1S32_TN_XORPOPC", "SM70_8x8x4_F32F16F16F32_NT",
         "SM80_8x8x4_GC64C64C64GC64_TN", "SM90_16x8x8_C64C64C64C64_TN", "SM80_16x8x64_S32U4S4S32_TN",
         "SM80_16x8x8_F32TF32TF32F32_TN"]


@pytest.mark.parametrize("name", ATOMS)
def test_every_stride_swap_mutant_disagrees(name):
    base = mma_atom(name)
    users = []
    for op in ("a", "b", "c", "thr_id"):
        lay = getattr(base, op + "_layout" if op != "thr_id" else op)
        for k, mutant in enumerate(_mutants(lay)):
            atom = derive_atom(base, f"mutant_{op}_{k}", **{op: mutant})
            try:
                users.append(user_case(atom, name))
            except Exception:      # a thr_id mutant that leaves the warp is refused up front
                assert op == "thr_id"
    assert len(users) >= 3
    rep = report_of(plan(user=users, trials=2))
    caught = [r for r in rep.results if r.verdict == "disagree"]
    missed = [r.label for r in rep.results if r.verdict != "disagree"]
    assert not missed, f"{name}: mutants not caught: {missed}"
    assert all(r.mismatches > 0 or r.conflicts for r in caught)


def test_a_common_permutation_of_k_is_not_observable():
    # K = 8: k = 2*t0 + v0 becomes k = t0 + 4*v0 in A and in B alike
    name = "SM80_16x8x8_F16F16F16F16_TN"
    base = mma_atom(name)
    both = derive_atom(base, "kperm_both", a="((4,8),(2,2)):((16,1),(64,8))", b="((4,8),2):((8,1),32)")
    a_only = derive_atom(base, "kperm_a_only", a="((4,8),(2,2)):((16,1),(64,8))")
    rep = report_of(plan(user=[(both, name), (a_only, name)], trials=2))
    verdicts = {r.label: r.verdict for r in rep.results}
    assert verdicts == {"kperm_both": "agree", "kperm_a_only": "disagree"}


def test_notation_does_not_matter_only_the_function():
    name = "SM80_16x8x8_F16F16F16F16_TN"
    regrouped = derive_atom(mma_atom(name), "regrouped", c="((4,8),(2,(2))):((32,1),(16,(8)))")
    rep = report_of(plan(user=[(regrouped, name)], trials=1))
    assert rep.results[0].verdict == "agree"


def test_disagreement_names_a_thread_and_value():
    name = "SM80_16x8x16_F16F16F16F16_TN"
    wrong = derive_atom(mma_atom(name), "wrong_c", c="((4,8),(2,2)):((32,1),(8,16))")
    r = report_of(plan(user=[(wrong, name)], trials=2)).results[0]
    assert r.verdict == "disagree" and r.mismatches == 64 and r.d_elements == 128
    x = r.example
    lay = Layout.parse("((4,8),(2,2)):((32,1),(8,16))")
    i = lay(x["thread"], x["value"])
    assert tuple(x["mn"]) == (i % 16, i // 16) and x["predicted"] != x["measured"]


def test_gmma_cases_shared_memory_tiles_and_register_c():
    """GMMA: A/B of SS atoms are shared-memory tiles (no per-thread fragment), C/D are per thread (128)."""
    ss = "SM90_64x8x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>"
    rs = "SM90_64x16x16_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::K>"
    base_ss, base_rs = mma_atom(ss), mma_atom(rs)
    wrong_c = derive_atom(base_ss, "ss_wrong_c", c="((4,8,4),(2,2,1)):((128,1,16),(8,64,512))")
    wrong_a = derive_atom(base_rs, "rs_wrong_a", a="((4,8,4),(2,2,2)):((128,1,16),(64,512,8))")
    p = plan([ss, rs], user=[(wrong_c, ss), (wrong_a, rs)], trials=1)
    assert [c.smem_operands() for c in p.cases] == [("A", "B"), ("B",), ("A", "B"), ("B",)]
    assert [c.trial_bytes("C") for c in p.cases] == [128 * 8, 128 * 32, 128 * 8, 128 * 32]
    verdicts = {r.label: r.verdict for r in report_of(p).results}
    assert verdicts == {base_ss.name: "agree", base_rs.name: "agree", "ss_wrong_c": "disagree",
                        "rs_wrong_a": "disagree"}
