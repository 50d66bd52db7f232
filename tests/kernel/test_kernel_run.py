"""symcute.kernel.run: the data path on integer numpy arrays. Each shipped example equals numpy's matmul;
each planted bug of test_kernel_check.py (its variant helpers, imported) is refuted by the claim and its
counterexample reproduces in the run, as a wrong C element or an out-of-bounds access, at the element
or access the counterexample names."""

from __future__ import annotations

import json
import re
import tomllib

import numpy as np
import pytest

from symcute.errors import SymcuteError
from symcute.kernel import check, from_dict, load, run
from symcute.kernel import datapath as dp
from symcute.kernel.simulate import UNWRITTEN
from symcute.symbolic import exhaustive
from tests.cli_runner import run_cli
from tests.kernel.test_kernel_check import (HOSTILE, NT, TN, UNPERMUTED, _epilogue, _hgemm, _s2r_variant,
                                            variant)


def _coord(text: str) -> tuple:
    """(r, c) of an element as the claims spell it: ``A(m=1,k=0)``, ``written to C(m=3,n=4)``."""
    m = re.search(r"\((?:m|n)=(\d+),(?:k|n)=(\d+)", text)
    return int(m.group(1)), int(m.group(2))


def _wrong_set(r) -> set:
    return {(int(m), int(n)) for m, n in r.wrong}


def _thread_c_elements(k, t: int) -> set:
    """The C tile coordinates thread ``t`` accumulates (ThrMMA.partition_C's map over the CTA tile)."""
    shape = k.tile_shape("c")
    L = dp.mma_tv(k.mma, "C", shape)
    v = np.asarray(exhaustive.values(L, L.size())).reshape((k.mma.size(), -1), order="F")
    return {dp.tile_coord(int(i), shape) for i in v[t]}


@pytest.mark.parametrize("path,shape", [(NT, (256, 256, 64)), (TN, (256, 256, 64)), (NT, (128, 384, 24))],
                         ids=["nt", "tn", "nt-128x384x24"])
def test_examples_equal_numpy(path, shape):
    r = run(load(path), shape)
    assert r.exit_status == 0 and r.access_count == 0 and r.first_wrong_k_tile == {}
    assert r.checked.all() and len(r.ctas) == (shape[0] // 128) * (shape[1] // 128)
    assert set(r.schedules) == {"copies-late", "reads-late"}
    for C in r.found.values():
        assert np.array_equal(C, r.expected)
    assert np.abs(r.expected).max() > 0     # the data is not all zeros


def test_tensor_op_ldsm_mainloop_equals_numpy(tmp_path):
    r = run(load(_hgemm(tmp_path)), (128, 256, 64))
    assert r.exit_status == 0 and r.checked.all()
    assert np.array_equal(r.C, r.expected)


def test_one_cta_checks_its_tile_only():
    r = run(load(NT), (256, 256, 16), cta=(1, 0))
    assert r.exit_status == 0 and r.ctas == [(1, 0)]
    assert r.checked.sum() == 128 * 128 and r.checked[128:, :128].all()
    assert (r.C[:128, :] == UNWRITTEN).all()          # the CTAs not run left C as it was


def test_the_run_is_not_vacuous():
    # a kernel whose MMA reads B's registers for A: every claim that compares maps would see it, and the run
    # must too (its C differs from numpy's A @ B.T); also a different seed gives different data
    text = NT.read_text().replace('predicate = false\n\n[b]', 'predicate = false\npartition = "B"\n\n[b]', 1)
    r = run(from_dict(tomllib.loads(text)), (128, 128, 8))
    assert r.exit_status == 1 and len(r.wrong) > 1000
    r0, r1 = run(load(NT), (128, 128, 8), seed=0), run(load(NT), (128, 128, 8), seed=1)
    assert not np.array_equal(r0.expected, r1.expected)


# --- planted bugs: the refutation's counterexample reproduces in the run -------------------------------------------
def _fragment_reproduces(k, op: str, shape: tuple):
    f = check(k, [f"{op}.fragment"]).claims[f"{op}.fragment"]
    assert f.verdict == "refuted"
    ce = f.counterexample
    want = _coord(ce["expected"])
    r = run(k, shape, cta=(0, 0))
    assert r.exit_status == 1 and r.access_count == 0
    wrong = _wrong_set(r)
    # the register of thread t holds the wrong element, so a C element that thread's atom computes from it is
    # wrong: row m (A) or column n (B) of the element the MMA needed, among the C elements of that thread
    # (UniversalFMA) or of its atom instance (tensor-op atoms: the row/column the register feeds)
    axis = 0 if op == "a" else 1
    hit = {w for w in wrong if w[axis] == want[0]}
    assert hit, (ce, sorted(wrong)[:5])
    return ce, hit, r


def test_s2r_copy_for_the_wrong_operand_reproduces(tmp_path):
    k = load(_s2r_variant(tmp_path, "make_tiled_copy_B"))
    ce, hit, r = _fragment_reproduces(k, "a", (128, 128, 8))
    assert hit & _thread_c_elements(k, ce["thread"])   # a C element thread t itself accumulates


def test_partition_of_the_wrong_operand_reproduces(tmp_path):
    k = load(variant(tmp_path, NT, 'predicate = false\n\n[b]', 'predicate = false\npartition = "B"\n\n[b]'))
    ce, hit, r = _fragment_reproduces(k, "a", (128, 128, 8))
    assert hit & _thread_c_elements(k, ce["thread"])


def test_tiled_mma_permutation_dropped_reproduces(tmp_path):
    k = load(_hgemm(tmp_path, "make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N,half_t>{}, mma)",
                    f"make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N,half_t>{{}}, {UNPERMUTED})"))
    assert check(k, ["a.fragment"]).claims["a.fragment"].verdict == "proved"
    _fragment_reproduces(k, "b", (128, 128, 32))


def test_ldsm_copy_for_the_wrong_operand_reproduces(tmp_path):
    k = load(_hgemm(tmp_path, "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>{}, mma)",
                    "make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N,half_t>{}, mma)"))
    _fragment_reproduces(k, "a", (128, 128, 32))


def test_thread_layout_that_does_not_cover_the_tile_reproduces(tmp_path):
    k = load(variant(tmp_path, NT, "Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{})\"\npredicate = false\n\n[b]",
                     "Layout<Shape<_32,_8>,Stride<_1,_0>>{}, Layout<Shape<_4,_1>>{})\"\npredicate = false\n\n[b]"))
    c = check(k, ["a.load"]).claims["a.load"]
    assert c.verdict == "refuted"
    m, kk = (int(v) for v in re.findall(r"=(\d+)", c.counterexample["never_written"])[:2])
    r = run(k, (128, 128, 8))
    # the never-written sA(m,k) holds no element of A: every C(m, n) of the tile is wrong
    assert {(m, n) for n in range(128)} <= _wrong_set(r)


def test_stages_sharing_smem_reproduces(tmp_path):
    k = load(variant(tmp_path, NT, 'smem = "(128,8,3):(1,128,1024)"', 'smem = "(128,8,3):(1,128,512)"'))
    c = check(k, ["a.load"]).claims["a.load"]
    assert c.verdict == "refuted"
    rows = {_coord(s)[0] for s in c.counterexample["expected"].split(" and ")}
    r = run(k, (128, 128, 24))
    # the next stage's copy overwrites the shared offset before a lagging warp read it (reads-late)
    assert len(r.schedules["reads-late"]) and any(w[0] in rows for w in _wrong_set(r))


def _access(r, operand, ce, index_key="value"):
    hits = [a for a in r.accesses if a["operand"] == operand and a["thread"] == ce["thread"]
            and a.get("value") == ce[index_key] and all(a["cta"][d] == v for d, v in ce["cta"].items())
            and (a["k_tile"] == ce.get("k_tile"))]
    return hits


def test_residue_without_predication_reproduces(tmp_path):
    k = load(variant(tmp_path, NT, 'params = ["M:128", "N:128", "K:8"]', 'params = ["M", "N:128", "K:8"]'))
    c = check(k, ["residue"]).claims["residue"]
    ce = c.counterexample
    p = ce["problem"]
    r = run(k, (p["M"], p["N"], p["K"]))
    assert r.exit_status == 1 and r.access_count > 0
    hits = _access(r, "A", ce)
    assert len(hits) == 1
    # "read A(m=127,k=0) at offset 127 of gA": the same element and offset
    elem, off = re.match(r"read (A\(m=\d+,k=\d+\)) at offset (\d+)", ce["found"]).groups()
    assert hits[0]["element"] == elem and hits[0]["offset"] == int(off) and hits[0]["access"] == "read"


def test_residue_fixed_shape_reproduces(tmp_path):
    p = variant(tmp_path, NT, 'shape = ["M", "N", "K"]\nparams = ["M:128", "N:128", "K:8"]', 'shape = [256, 256, 60]')
    p.write_text(p.read_text().replace("(M,K):(1,M)", "(256,60):(1,256)").replace("(N,K):(1,N)", "(256,60):(1,256)")
                 .replace("(M,N):(1,M)", "(256,256):(1,256)"))
    k = load(p)
    ce = check(k, ["residue"]).claims["residue"].counterexample
    r = run(k, (256, 256, 60))
    hits = _access(r, "A", ce)     # A's tile is read by every CTA of its row of the grid
    assert len(hits) == 2 and {h["cta"]["n"] for h in hits} == {0, 1}
    assert all(ce["found"].startswith("read " + h["element"]) and h["coord"][1] >= 60 for h in hits)
    with pytest.raises(SymcuteError, match="fixes K = 60"):
        run(k, (256, 256, 64))


def test_residue_of_an_unpredicated_epilogue_reproduces(tmp_path):
    p = variant(tmp_path, NT, 'params = ["M:128", "N:128", "K:8"]', 'params = ["M", "N:128", "K:8"]')
    p.write_text(p.read_text().replace("predicate = false", "predicate = true", 1))
    k = load(p)
    c = check(k, ["residue"]).claims["residue"]
    ce = c.counterexample
    assert c.verdict == "refuted" and ce["found"].startswith("written C(")
    q = ce["problem"]
    r = run(k, (q["M"], q["N"], q["K"]))
    hits = _access(r, "C", {**ce, "k_tile": None}, "register")
    assert len(hits) == 1 and ce["found"].startswith("written " + hits[0]["element"])
    assert all(a["operand"] == "C" for a in r.accesses)      # A is predicated: its reads stay inside
    # predicate the epilogue too: the claim is proved and the run is clean at the same size
    p.write_text(p.read_text().replace('gmem = "(M,N):(1,M)"', 'gmem = "(M,N):(1,M)"\npredicate = true'))
    k = load(p)
    assert check(k, ["residue"]).claims["residue"].verdict == "proved"
    for M in (q["M"], 100, 200):
        assert run(k, (M, 128, 16)).exit_status == 0


def test_wrong_wait_count_reproduces(tmp_path):
    k = load(variant(tmp_path, NT, "wait = 1", "wait = 2"))
    ce = check(k, ["pipeline"]).claims["pipeline"].counterexample
    r = run(k, (128, 128, ce["K"]))
    # a stage read before its copy landed: the copies-late order finds the stage's old contents, and the
    # accumulators first part from numpy's partial sums after the counterexample's k-tile
    assert len(r.schedules["copies-late"]) > 0 and r.access_count == 0
    assert r.first_wrong_k_tile["copies-late"]["k_tile"] == ce["k_tile"]
    assert len(run(load(NT), (128, 128, ce["K"])).wrong) == 0


def test_one_stage_too_few_reproduces(tmp_path):
    p = tmp_path / "k.toml"
    p.write_text(NT.read_text().replace("stages = 3", "stages = 2").replace("(128,8,3):(1,128,1024)",
                                                                         "(128,8,2):(1,128,1024)"))
    k = load(p)
    c = check(k, ["pipeline"]).claims["pipeline"]
    assert c.verdict == "refuted"
    r = run(k, (128, 128, c.counterexample["K"]))
    assert len(r.schedules["copies-late"]) > 0
    assert r.first_wrong_k_tile["copies-late"]["k_tile"] == c.counterexample["k_tile"]
    # the claim's fix, cp_async_wait<0>, makes the run equal
    p.write_text(p.read_text().replace("wait = 1", "wait = 0"))
    k = load(p)
    assert check(k, ["pipeline"]).claims["pipeline"].verdict == "proved"
    assert run(k, (128, 128, 40)).exit_status == 0


def test_one_stage_reproduces(tmp_path):
    # one stage: the prologue prefetches nothing and the first k-block is read before any copy was issued
    p = tmp_path / "k.toml"
    p.write_text(NT.read_text().replace("stages = 3", "stages = 1").replace("wait = 1 ", "wait = 0 ")
                 .replace("(128,8,3):(1,128,1024)", "(128,8,1):(1,128,1024)"))
    k = load(p)
    c = check(k, ["pipeline"]).claims["pipeline"]
    assert c.verdict == "refuted" and c.fix == "more stages"
    r = run(k, (128, 128, c.counterexample["K"]))
    assert r.first_wrong_k_tile["copies-late"]["k_tile"] == c.counterexample["k_tile"]


def test_sync_kind_runs_in_program_order(tmp_path):
    p = variant(tmp_path, NT, 'kind = "cp.async"', 'kind = "sync"')
    k = load(p)
    assert check(k, ["pipeline"]).claims["pipeline"].verdict == "unknown"   # no model of that schedule
    r = run(k, (128, 256, 24))
    assert list(r.schedules) == ["in-order"] and r.exit_status == 0


def test_wrong_epilogue_partition_reproduces(tmp_path):
    other = "make_tiled_mma(UniversalFMA<float,float,float>{}, Layout<Shape<_16,_16,_1>,Stride<_16,_1,_0>>{})"
    k = load(_epilogue(tmp_path, f"make_tiled_copy_C(Copy_Atom<UniversalCopy<float>,float>{{}}, {other})"))
    c = check(k, ["c.store"]).claims["c.store"]
    assert c.verdict == "refuted"
    acc, written = _coord(c.counterexample["expected"]), _coord(c.counterexample["found"])
    r = run(k, (128, 128, 8))
    # the register's sum lands at C(written) instead of C(acc): both are wrong
    assert {acc, written} <= _wrong_set(r)
    good = load(_epilogue(tmp_path, "make_tiled_copy_C(Copy_Atom<UniversalCopy<float>,float>{}, mma)"))
    assert run(good, (128, 128, 8)).exit_status == 0


def test_predicated_k_residue_without_zero_fill(tmp_path):
    # the claim is unknown (the stale smem of the last k-tile is not modelled); the run shows it is wrong,
    # and right with the _ZFILL atom the claim's fix names
    text = NT.read_text().replace('params = ["M:128", "N:128", "K:8"]', 'params = ["M:128", "N:128", "K"]')
    text = text.replace("predicate = false", "predicate = true")
    p = tmp_path / "k.toml"
    p.write_text(text)
    k = load(p)
    assert check(k, ["residue"]).claims["residue"].verdict == "unknown"
    r = run(k, (128, 128, 12))
    assert r.access_count == 0 and len(r.wrong) > 0
    # the last k-tile (k 8..11 real, 12..15 skipped) is the first whose partial sums are wrong
    assert {s: f["k_tile"] for s, f in r.first_wrong_k_tile.items()} == {"copies-late": 1, "reads-late": 1}
    p.write_text(text.replace("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>"))
    k = load(p)
    assert check(k, ["residue"]).claims["residue"].verdict == "proved"
    for K in (12, 5, 33):
        assert run(k, (128, 128, K)).exit_status == 0


def _misaligned(r, operand, ce):
    return [a for a in r.accesses if a["access"].startswith("misaligned") and a["operand"] == operand
            and a["thread"] == ce["thread"] and a["call"] == ce["call"]]


def test_misaligned_cp_async_in_gmem_reproduces(tmp_path):
    # M undeclared: ldA = M = 1, the 16-byte cp.async of a k > 0 column starts at offset 1
    k = load(variant(tmp_path, NT, 'params = ["M:128", "N:128", "K:8"]', 'params = ["M", "N:128", "K:8"]'))
    c = check(k, ["a.g2s.vector"]).claims["a.g2s.vector"]
    assert c.verdict == "refuted"
    ce = c.counterexample
    p = ce["problem"]
    r = run(k, (p["M"], p["N"], p["K"]))
    hits = [a for a in _misaligned(r, "A", ce) if a["cta"]["m"] == ce["cta"] and a["k_tile"] == ce["k_tile"]]
    assert len(hits) == 1 and ce["found"] == f"offsets {hits[0]['offsets']}"
    assert r.to_dict()["misaligned_count"] == r.misaligned_count > 0
    # with ldA a multiple of 4 the vectors are aligned (only the residue's reads are out of bounds)
    r = run(k, (100, 128, 8))
    assert r.misaligned_count == 0 and r.access_count > 0


def test_cp_async_across_a_k_major_smem_reproduces(tmp_path):
    k = load(variant(tmp_path, NT, 'smem = "(128,8,3):(1,128,1024)"', 'smem = "(128,8,3):(8,1,1024)"'))
    c = check(k, ["a.g2s.vector", "a.load"]).claims
    assert c["a.load"].verdict == "proved" and c["a.g2s.vector"].verdict == "refuted"
    ce = c["a.g2s.vector"].counterexample
    r = run(k, (128, 128, 8))
    assert len(r.wrong) == 0                # the elements are right; the 16-byte smem vector is not one
    hits = _misaligned(r, "sA", ce)
    assert hits and all(ce["found"] == f"offsets {h['offsets']}" for h in hits) and r.exit_status == 1


def test_transposed_ldmatrix_on_a_k_major_tile_reproduces(tmp_path):
    k = load(_hgemm(tmp_path, "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>{}, mma)",
                    "make_tiled_copy_A(Copy_Atom<SM75_U16x8_LDSM_T,half_t>{}, mma)"))
    ce = check(k, ["a.s2r.vector"]).claims["a.s2r.vector"].counterexample
    r = run(k, (128, 128, 32))
    assert len(r.wrong) == 0
    hits = _misaligned(r, "sA", ce)
    assert hits and all(ce["found"] == f"offsets {h['offsets']}" and h["access"] == "misaligned read" for h in hits)


def test_bank_conflicts_do_not_change_values(tmp_path):
    # the unswizzled LDSM tile conflicts (a.s2r.banks refuted) but computes the right C: a speed claim the
    # run cannot and does not reproduce
    k = load(_hgemm(tmp_path, "composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_32>,Stride<_32,_1>>{})",
                    "Layout<Shape<_8,_32>,Stride<_32,_1>>{}"))
    assert check(k, ["a.s2r.banks"]).claims["a.s2r.banks"].verdict == "refuted"
    assert run(k, (128, 128, 64)).exit_status == 0


@pytest.mark.parametrize("table,key,value", HOSTILE, ids=[f"{t}.{k}:{str(v)[:30]}" for t, k, v in HOSTILE])
def test_hostile_descriptions_run_or_refuse_and_agree_with_gemm(table, key, value):
    # a result or a one-line error, never a traceback; where both answer, the run is clean exactly when
    # the gemm claim is not refuted
    data = tomllib.loads(NT.read_text())
    data.setdefault(table, {})[key] = value
    try:
        k = from_dict(data, source="k.toml")
    except SymcuteError:
        return
    try:
        r = run(k, (128, 128, 8))
    except SymcuteError as e:
        assert "\n" not in str(e) and str(e).startswith(("k.toml: ", "kernel run: "))
        return
    json.dumps(r.to_dict())
    gemm = check(k, ["gemm"]).claims["gemm"]
    assert (r.exit_status == 0) == (gemm.verdict != "refuted"), (gemm.why, r.to_dict()["wrong_count"])


# --- the command and bad input -----------------------------------------------------------------------------
def test_cli_run(tmp_path):
    code, out, err = run_cli("kernel", "run", str(NT), "--shape", "128,256,16")
    assert code == 0, err
    assert "C equals numpy's A @ B.T on 32768 elements" in out
    p = variant(tmp_path, NT, "wait = 1", "wait = 2")
    code, out, err = run_cli("kernel", "run", str(p), "--shape", "128,128,8", "--json")
    assert code == 1, err
    d = json.loads(out)
    assert d["wrong_count"] > 0 and d["wrong_by_schedule"]["copies-late"] == d["wrong_count"]
    w = d["wrong"][0]
    assert set(w) == {"m", "n", "expected", "found", "schedules"} and w["expected"] != w["found"]
    code, out, err = run_cli("kernel", "run", str(NT), "--shape", "256,128,8", "--cta", "1,0", "--json")
    assert code == 0 and json.loads(out)["cta"] == [1, 0] and json.loads(out)["checked"] == 128 * 128


@pytest.mark.parametrize("args,message", [
    (["--shape", "128,128"], "expected M,N,K"),
    (["--shape", "a,b,c"], "expected M,N,K"),
    (["--shape", "0,128,8"], "expected M,N,K"),
    (["--shape", "128,128,8", "--cta", "1,0"], "cta (1, 0)"),
    (["--shape", "128,128,8", "--cta", "x"], "--cta 'x'"),
    (["--shape", "100000,100000,8"], "more than the limit"),
])
def test_cli_run_bad_input(args, message):
    code, out, err = run_cli("kernel", "run", str(NT), *args)
    assert code == 2 and message in err and err.count("\n") == 1, err
