"""symcute.kernel: the sgemm_sm80 examples proved, planted bugs refuted with counterexamples re-evaluated here
through CuTe's per-thread partitions (ThrCopy/ThrMMA slices evaluated with core), bad descriptions refused."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from symcute.core import make_layout, right_inverse
from symcute.errors import SymcuteError
from symcute.expr import evaluate
from symcute.kernel import check, from_dict, load
from symcute.kernel import datapath as dp
from tests.cli_runner import run_cli

ROOT = Path(__file__).resolve().parents[2]
NT = ROOT / "examples" / "kernels" / "sgemm_sm80_nt.toml"
TN = ROOT / "examples" / "kernels" / "sgemm_sm80_tn.toml"
CLAIMS = ["a.load", "b.load", "a.fragment", "b.fragment", "c.store", "residue", "pipeline", "gemm", "a.g2s.vector",
          "b.g2s.vector", "a.s2r.vector", "b.s2r.vector", "a.s2r.banks", "b.s2r.banks"]


def variant(tmp_path, base: Path, old: str, new: str) -> Path:
    text = base.read_text()
    assert old in text, old
    p = tmp_path / "k.toml"
    p.write_text(text.replace(old, new, 1))
    return p


@pytest.mark.parametrize("path", [NT, TN], ids=["nt", "tn"])
def test_examples_every_claim_proved(path):
    r = check(load(path))
    assert list(r.claims) == CLAIMS
    assert {c: v.verdict for c, v in r.claims.items()} == dict.fromkeys(CLAIMS, "proved")
    # the side conditions are found from the tile and the copies, and the declared divisors imply them
    assert r.claims["residue"].conditions == ["M % 128 == 0", "K % 8 == 0", "N % 128 == 0"]
    assert r.exit_status == 0


def test_cli_json(tmp_path):
    code, out, err = run_cli("kernel", "check", str(NT), "--json")
    assert code == 0, err
    d = json.loads(out)
    assert set(d["claims"]) == set(CLAIMS)
    for c in d["claims"].values():
        assert c["verdict"] == "proved" and c["counterexample"] is None and isinstance(c["conditions"], list)


def _s2r_variant(tmp_path, ctor: str) -> Path:
    return variant(tmp_path, NT, 'g2s = "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>,float>{}, '
                   'Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{})"\npredicate = false\n\n[b]',
                   'g2s = "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>,float>{}, '
                   'Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{})"\npredicate = false\n'
                   f's2r = "{ctor}(Copy_Atom<UniversalCopy<float>,float>{{}}, mma)"\n\n[b]')


def test_s2r_copy_of_operand_a_proved(tmp_path):
    r = check(load(_s2r_variant(tmp_path, "make_tiled_copy_A")), ["a.fragment"])
    assert r.claims["a.fragment"].verdict == "proved"


def test_planted_s2r_copy_for_the_wrong_operand(tmp_path):
    k = load(_s2r_variant(tmp_path, "make_tiled_copy_B"))
    r = check(k, ["a.fragment", "a.load"])
    f = r.claims["a.fragment"]
    assert r.claims["a.load"].verdict == "proved"
    assert f.verdict == "refuted" and r.exit_status == 1
    ce = f.counterexample
    assert "make_tiled_copy_B" in f.link and f.fix == "make_tiled_copy_A(..., mma)"
    # re-evaluate with core through CuTe's per-thread views: the S2R copy's partition_D of the tile (the
    # element each destination value receives) and its retile_D of the fragment give the element put in
    # the register; ThrMMA.partition_A the one the MMA reads
    t, reg = ce["thread"], ce["register"]
    ref = make_layout((128, 8))
    F = dp.fragment(k.mma, "A", k.a.smem)
    thr_copy = k.a.s2r.get_slice(t)
    dst, RD = thr_copy.partition_D(ref), thr_copy.retile_D(F)
    js = [j for j in range(RD.size()) if RD(j) == reg]
    assert len(js) == 1
    found = dp.tile_coord(thr_copy.partition_offset("D", ref) + dst(js[0]), (128, 8))
    thr = k.mma.get_slice(t)
    expected = dp.tile_coord(thr.partition_offset("A", ref) + thr.partition_A(ref)(right_inverse(F)(reg)), (128, 8))
    assert ce["found"] == f"A(m={found[0]},k={found[1]})" and ce["expected"] == f"A(m={expected[0]},k={expected[1]})"
    assert found != expected
    assert ce["k_block"] == expected[1]   # the 16x16x1 UniversalFMA reads one k per k-block


def test_planted_partition_of_the_wrong_operand(tmp_path):
    p = variant(tmp_path, NT, 'predicate = false\n\n[b]', 'predicate = false\npartition = "B"\n\n[b]')
    k = load(p)
    f = check(k, ["a.fragment"]).claims["a.fragment"]
    assert f.verdict == "refuted" and "partition_B" in f.link
    ce = f.counterexample
    t, reg = ce["thread"], ce["register"]
    ref = make_layout((128, 8))
    F = dp.fragment(k.mma, "A", k.a.smem)
    r = right_inverse(F)(reg)
    thr = k.mma.get_slice(t)
    got = dp.tile_coord(thr.partition_offset("B", ref) + thr.partition_B(ref)(r), (128, 8))
    want = dp.tile_coord(thr.partition_offset("A", ref) + thr.partition_A(ref)(r), (128, 8))
    assert got != want
    assert ce["found"] == f"A(m={got[0]},k={got[1]})" and ce["expected"] == f"A(m={want[0]},k={want[1]})"


def test_planted_thread_layout_that_does_not_cover_the_tile(tmp_path):
    # a hand-written thread layout with a stride-0 mode: 8 threads along k share one column
    p = variant(tmp_path, NT, "Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{})\"\npredicate = false\n\n[b]",
                "Layout<Shape<_32,_8>,Stride<_1,_0>>{}, Layout<Shape<_4,_1>>{})\"\npredicate = false\n\n[b]")
    k = load(p)
    c = check(k, ["a.load"]).claims["a.load"]
    assert c.verdict == "refuted"
    ce = c.counterexample
    ref = make_layout((128, 8))
    def written_by(t, v):   # the tile index thread t's value v writes (CuTe's slice plus its offset)
        thr = k.a.g2s.get_slice(t)
        return thr.partition_offset("D", ref) + thr.partition_D(ref)(v)
    assert (ce["thread"], ce["value"]) != (ce["other_thread"], ce["other_value"])
    assert written_by(ce["thread"], ce["value"]) == written_by(ce["other_thread"], ce["other_value"])
    m, kk = dp.tile_coord(written_by(ce["thread"], ce["value"]), (128, 8))
    assert ce["expected"] == f"sA(m={m},k={kk},stage=0) written once"
    # the tile holds 1024 elements and 1024 (thread, value) pairs write it: a duplicate leaves one unwritten
    miss = ce["never_written"]
    written = {written_by(t, v) for t in range(256) for v in range(4)}
    mm, mk = (int(s.split("=")[1]) for s in miss[3:-1].split(",")[:2])
    assert mm + 128 * mk not in written


def test_planted_stages_sharing_smem(tmp_path):
    p = variant(tmp_path, NT, 'smem = "(128,8,3):(1,128,1024)"', 'smem = "(128,8,3):(1,128,512)"')
    c = check(load(p), ["a.load"]).claims["a.load"]
    assert c.verdict == "refuted" and "share offset" in c.why
    smem = evaluate("(128,8,3):(1,128,512)")
    off = int(c.counterexample["found"].split()[-1])
    assert sum(1 for i in range(smem.size()) if smem(i) == off) >= 2


def test_planted_residue_without_predication(tmp_path):
    p = variant(tmp_path, NT, 'params = ["M:128", "N:128", "K:8"]', 'params = ["M", "N:128", "K:8"]')
    k = load(p)
    r = check(k, ["residue"])
    c = r.claims["residue"]
    assert c.verdict == "refuted" and r.exit_status == 1
    assert c.conditions == ["M % 128 == 0", "K % 8 == 0", "N % 128 == 0"]
    ce = c.counterexample
    M = ce["problem"]["M"]
    assert M == 1   # the least admissible M: one row, and the CTA reads 128
    # the last CTA along M is block ceil(M/128)-1; the thread's G2S value reads row 128*b + m >= M
    b = math.ceil(M / 128) - 1
    assert ce["cta"]["m"] == b
    ref = make_layout((128, 8))
    thr = k.a.g2s.get_slice(ce["thread"])
    m, kk = dp.tile_coord(thr.partition_offset("S", ref) + thr.partition_S(ref)(ce["value"]), (128, 8))
    row = 128 * b + m
    assert row >= M and ce["found"].startswith(f"read A(m={row},k={kk + 8 * ce['k_tile']})")
    offset = evaluate("(M,K):(1,M)", {"M": M, "K": ce["problem"]["K"]})((row, kk + 8 * ce["k_tile"]))
    assert ce["found"].endswith(f"at offset {offset} of gA")


def test_residue_predicated(tmp_path):
    p = variant(tmp_path, NT, 'params = ["M:128", "N:128", "K:8"]', 'params = ["M", "N:128", "K:8"]')
    text = p.read_text().replace("predicate = false", "predicate = true", 1)
    p.write_text(text)
    c = check(load(p), ["residue"]).claims["residue"]
    assert c.verdict == "refuted" and c.counterexample["found"].startswith("written C(")   # C is not predicated
    p.write_text(text.replace('gmem = "(M,N):(1,M)"', 'gmem = "(M,N):(1,M)"\npredicate = true'))
    c = check(load(p), ["residue"]).claims["residue"]
    assert c.verdict == "proved" and c.conditions == ["N % 128 == 0", "K % 8 == 0"]   # B alone is unpredicated


def test_residue_fixed_shape(tmp_path):
    p = variant(tmp_path, NT, 'shape = ["M", "N", "K"]\nparams = ["M:128", "N:128", "K:8"]',
                'shape = [256, 256, 60]')
    p.write_text(p.read_text().replace("(M,K):(1,M)", "(256,60):(1,256)").replace("(N,K):(1,N)", "(256,60):(1,256)")
                 .replace("(M,N):(1,M)", "(256,256):(1,256)"))
    c = check(load(p), ["residue"]).claims["residue"]
    assert c.verdict == "refuted" and c.counterexample["problem"]["K"] == 60 and c.counterexample["k_tile"] == 7


BAD = [
    ("[a]\nfoo = 1\n", "[a] unknown key 'foo'"),
    ("[tile]\ncta = [128, 128]\n", "[tile] cta must be an array of 3 integers"),
    ('[a]\ng2s = "make_tiled_copy(Nope{})"\n', "[a] g2s:"),
    ('[a]\ng2s = "(4,2):(1,4)"\n', "[a] g2s: expected a TiledCopy"),
    ('[a]\nsmem = "(64,8,3):(1,64,512)"\n', "[a] smem: (64,8,3):(1,64,512) covers 64x8"),
    ('[mma]\ntiled = "make_tiled_mma(UniversalFMA<float,float,float>{}, Layout<Shape<_8,_16,_1>>{})"\n',
     "[a] g2s has 256 threads, the TiledMMA 128"),
    ("[extra]\n", "unknown table [extra]"),
    ('[a]\ntype = "floot"\n', "[a] type: 'floot' is not a CuTe value type"),
    ('[pipeline]\nstages = 2\n', "[a] smem has 3 stage(s)"),
    ('[a]\ngmem = "(M,Q):(1,M)"\n', "[a] gmem:"),
]


@pytest.mark.parametrize("patch,message", BAD)
def test_bad_descriptions_are_one_line_errors(tmp_path, patch, message):
    import tomllib
    data = tomllib.loads(NT.read_text())
    for table, body in tomllib.loads(patch).items():
        data.setdefault(table, {}).update(body)
    with pytest.raises(SymcuteError) as e:
        from_dict(data, source="k.toml")
    assert message in str(e.value) and "\n" not in str(e.value)


def test_cli_bad_input_exit_2(tmp_path):
    p = tmp_path / "k.toml"
    p.write_text("[a\n")
    code, out, err = run_cli("kernel", "check", str(p))
    assert code == 2 and err.startswith("symcute: error:") and "not TOML" in err and err.count("\n") == 1
    code, out, err = run_cli("kernel", "check", str(tmp_path / "missing.toml"))
    assert code == 2 and "cannot read" in err


# An SM80 tensor-op mainloop modelled on CUTLASS's SM80 HGEMMs (not a transcription of one example):
# 2x2 SM80_16x8x16 atoms with the N permutation that lets one LDSM x4 feed B, LDSM S2R copies made from
# the TiledMMA, and a Swizzle<3,3,3> k-major smem atom tiled to 128x32x3
HGEMM = """
[problem]
shape = ["M", "N", "K"]
params = ["M:128", "N:128", "K:32"]
[tile]
cta = [128, 128, 32]
[a]
type = "half_t"
gmem = "(M,K):(K,1)"
smem = "tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_32>,Stride<_32,_1>>{}), make_shape(128,32,3))"
g2s = "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>,half_t>{}, Layout<Shape<_32,_4>,Stride<_4,_1>>{}, Layout<Shape<_1,_8>>{})"
s2r = "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>{}, mma)"
[b]
type = "half_t"
gmem = "(N,K):(K,1)"
smem = "tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_32>,Stride<_32,_1>>{}), make_shape(128,32,3))"
g2s = "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>,half_t>{}, Layout<Shape<_32,_4>,Stride<_4,_1>>{}, Layout<Shape<_1,_8>>{})"
s2r = "make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N,half_t>{}, mma)"
[c]
type = "half_t"
gmem = "(M,N):(1,M)"
[mma]
tiled = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,Layout<Shape<_8,_2,_2>,Stride<_1,_16,_8>>,_16>{})"
[pipeline]
stages = 3
wait = 1
"""
UNPERMUTED = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})"


def _hgemm(tmp_path, old: str = "", new: str = "") -> Path:
    p = tmp_path / "hgemm.toml"
    assert old in HGEMM
    p.write_text(HGEMM.replace(old, new, 1) if old else HGEMM)
    return p


def _register_holds(k, op: str, t: int, reg: int):
    """(element the S2R copy puts in register ``reg`` of thread ``t``, element the MMA reads there), by
    CuTe's per-thread views of the tile: ThrCopy.partition_D and retile_D, ThrMMA.partition_A/B."""
    x = k.operand(op)
    shape = k.tile_shape(op)
    ref = make_layout(shape)
    F = dp.fragment(k.mma, op.upper(), x.smem)
    thr_copy = x.s2r.get_slice(t)
    dst, RD = thr_copy.partition_D(ref), thr_copy.retile_D(F)
    js = [j for j in range(RD.size()) if RD(j) == reg]
    assert len(js) == 1
    found = thr_copy.partition_offset("D", ref) + dst(js[0])
    thr = k.mma.get_slice(t)
    part = thr.partition_A(ref) if op == "a" else thr.partition_B(ref)
    needed = thr.partition_offset(op.upper(), ref) + part(right_inverse(F)(reg))
    return dp.tile_coord(found, shape), dp.tile_coord(needed, shape)


def test_tensor_op_ldsm_mainloop_proved(tmp_path):
    r = check(load(_hgemm(tmp_path)))
    assert {c: v.verdict for c, v in r.claims.items()} == dict.fromkeys(CLAIMS, "proved")
    assert r.claims["residue"].conditions == ["M % 128 == 0", "K % 32 == 0", "N % 128 == 0"]


def test_planted_tiled_mma_permutation_dropped(tmp_path):
    k = load(_hgemm(tmp_path, "make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N,half_t>{}, mma)",
                    f"make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N,half_t>{{}}, {UNPERMUTED})"))
    r = check(k, ["a.fragment", "b.fragment"])
    assert r.claims["a.fragment"].verdict == "proved"   # the permutation permutes N only
    f = r.claims["b.fragment"]
    assert f.verdict == "refuted"
    ce = f.counterexample
    found, expected = _register_holds(k, "b", ce["thread"], ce["register"])
    assert found != expected
    assert ce["found"] == f"B(n={found[0]},k={found[1]})" and ce["expected"] == f"B(n={expected[0]},k={expected[1]})"


def test_planted_ldsm_copy_for_the_wrong_operand(tmp_path):
    k = load(_hgemm(tmp_path, "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>{}, mma)",
                    "make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N,half_t>{}, mma)"))
    f = check(k, ["a.fragment"]).claims["a.fragment"]
    assert f.verdict == "refuted" and f.fix == "make_tiled_copy_A(..., mma)"
    found, expected = _register_holds(k, "a", f.counterexample["thread"], f.counterexample["register"])
    assert found != expected and f.counterexample["found"] == f"A(m={found[0]},k={found[1]})"



def test_planted_wait_count_and_one_stage_too_few(tmp_path):
    p = variant(tmp_path, NT, "wait = 1", "wait = 2")
    c = check(load(p), ["pipeline"]).claims["pipeline"]
    assert c.verdict == "refuted" and c.fix == "[pipeline] wait = 1 (cp_async_wait<1>)"
    assert c.counterexample["K"] == 8 and c.counterexample["k_tile"] == 0
    # the stage the MMA's first k-block was read from holds k-tile 0, whose group wait<2> did not retire:
    # after the prologue's 2 commits, wait<2> retires none
    from symcute.kernel.pipeline import run
    assert run(3, 2, 8, 1).kind == "raw" and run(3, 1, 8, 1) is None
    text = NT.read_text().replace("stages = 3", "stages = 2")
    text = text.replace("(128,8,3):(1,128,1024)", "(128,8,2):(1,128,1024)")
    p.write_text(text)
    r = check(load(p), ["pipeline", "gemm"])
    assert r.claims["pipeline"].verdict == "refuted"
    assert r.claims["pipeline"].fix == "[pipeline] wait = 0 (cp_async_wait<0>)"
    assert r.claims["gemm"].verdict == "refuted" and r.claims["gemm"].counterexample == {"claim": "pipeline"}


@pytest.mark.parametrize("stages", [1, 2, 3, 4, 5])
def test_pipeline_counts_stand_for_every_count(stages):
    # the claim runs a few k-tile counts; every count up to 6P + 12 must agree with them, for every wait
    from symcute.kernel.pipeline import run, tile_counts
    counts = tile_counts("K", 8, 8, stages)
    for wait in range(stages):
        for kb in (1, 2, 3):
            reduced = any(run(stages, wait, kb, n) is not None for n in counts)
            full = any(run(stages, wait, kb, n) is not None for n in range(1, 6 * stages + 13))
            assert reduced == full, (stages, wait, kb)
            by_residue = {n % stages: run(stages, wait, kb, n) is None for n in range(2 * stages + 2, 6 * stages + 13)}
            for n in range(2 * stages + 2, 6 * stages + 13):
                assert (run(stages, wait, kb, n) is None) == by_residue[n % stages]


def test_planted_unswizzled_smem_under_ldmatrix(tmp_path):
    # the same mainloop without the Swizzle<3,3,3>: the data path stays correct, the LDSM reads conflict
    k = load(_hgemm(tmp_path, "composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_32>,Stride<_32,_1>>{})",
                    "Layout<Shape<_8,_32>,Stride<_32,_1>>{}"))
    r = check(k)
    assert r.claims["gemm"].verdict == "proved"
    c = r.claims["a.s2r.banks"]
    assert c.verdict == "refuted" and c.figures["wavefronts"] > c.figures["ideal_wavefronts"]
    assert c.figures["ncu"] == {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum":
                                c.figures["wavefronts"] - c.figures["ideal_wavefronts"]}
    ce = c.counterexample
    lanes = ce["lanes"]
    assert len({lane["byte_address"] // 4 for lane in lanes}) == len(lanes) >= 2      # distinct words
    assert {(lane["byte_address"] // 4) % 32 for lane in lanes} == {ce["bank"]}        # one bank
    # each address is one the lane's thread reads: 2 bytes times the smem offset of one of its source elements
    ref = make_layout((128, 32))
    stage = dp.smem_stage(k.a.smem, 0)
    for lane in lanes:
        thr = k.a.s2r.get_slice(lane["thread"])
        part, off = thr.partition_S(ref), thr.partition_offset("S", ref)
        assert any(2 * stage(off + part(v)) == lane["byte_address"] for v in range(part.size()))


def test_planted_cp_async_vector_misaligned_in_gmem(tmp_path):
    # M undeclared: ldA = M need not be a multiple of 4, so a k > 0 column's 16-byte cp.async is misaligned
    p = variant(tmp_path, NT, 'params = ["M:128", "N:128", "K:8"]', 'params = ["M", "N:128", "K:8"]')
    k = load(p)
    c = check(k, ["a.g2s.vector"]).claims["a.g2s.vector"]
    assert c.verdict == "refuted"
    ce = c.counterexample
    M = ce["problem"]["M"]
    gm = evaluate("(M,K):(1,M)", {"M": M, "K": ce["problem"]["K"]})
    thr = k.a.g2s.get_slice(ce["thread"])
    ref = make_layout((128, 8))
    part, off = thr.partition_S(ref), thr.partition_offset("S", ref)
    coords = [dp.tile_coord(off + part(v + 4 * ce["call"]), (128, 8)) for v in range(4)]
    offs = [gm((128 * ce["cta"] + m, 8 * ce["k_tile"] + kk)) for m, kk in coords]
    assert ce["found"] == f"offsets {offs}" and offs[0] % 4 != 0


def test_planted_cp_async_vector_across_a_k_major_smem(tmp_path):
    p = variant(tmp_path, NT, 'smem = "(128,8,3):(1,128,1024)"', 'smem = "(128,8,3):(8,1,1024)"')
    c = check(load(p), ["a.g2s.vector", "a.load"]).claims
    assert c["a.load"].verdict == "proved" and c["a.g2s.vector"].verdict == "refuted"
    assert c["a.g2s.vector"].counterexample["found"] == "offsets [0, 8, 16, 24]"


def test_planted_transposed_ldmatrix_on_a_k_major_tile(tmp_path):
    k = load(_hgemm(tmp_path, "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N,half_t>{}, mma)",
                    "make_tiled_copy_A(Copy_Atom<SM75_U16x8_LDSM_T,half_t>{}, mma)"))
    r = check(k, ["a.fragment", "a.s2r.vector"])
    # CuTe's values are right (the copy is coordinate-based); the instruction's 16-byte row is not contiguous
    assert r.claims["a.fragment"].verdict == "proved" and r.claims["a.s2r.vector"].verdict == "refuted"
    ce = r.claims["a.s2r.vector"].counterexample
    thr = k.a.s2r.get_slice(ce["thread"])
    ref = make_layout((128, 32))
    part, off = thr.partition_S(ref), thr.partition_offset("S", ref)
    stage = dp.smem_stage(k.a.smem, 0)
    offs = [int(stage(off + part(v + 8 * ce["call"]))) for v in range(8)]
    assert ce["found"] == f"offsets {offs}" and offs != list(range(offs[0], offs[0] + 8))


def _epilogue(tmp_path, expr: str) -> Path:
    return variant(tmp_path, NT, 'gmem = "(M,N):(1,M)"', f'gmem = "(M,N):(1,M)"\nepilogue = "{expr}"')


def test_epilogue_copy_made_from_the_mma_proved(tmp_path):
    p = _epilogue(tmp_path, "make_tiled_copy_C(Copy_Atom<UniversalCopy<float>,float>{}, mma)")
    assert check(load(p), ["c.store"]).claims["c.store"].verdict == "proved"


def test_planted_wrong_epilogue_partition(tmp_path):
    # the epilogue copy made from a TiledMMA whose threads run n-major: it writes each accumulator to C^T's place
    other = "make_tiled_mma(UniversalFMA<float,float,float>{}, Layout<Shape<_16,_16,_1>,Stride<_16,_1,_0>>{})"
    k = load(_epilogue(tmp_path, f"make_tiled_copy_C(Copy_Atom<UniversalCopy<float>,float>{{}}, {other})"))
    c = check(k, ["c.store"]).claims["c.store"]
    assert c.verdict == "refuted"
    t, reg = c.counterexample["thread"], c.counterexample["register"]
    ref = make_layout((128, 128))
    F = dp.fragment(k.mma, "C", ref)
    thr_copy = k.c.epilogue.get_slice(t)
    dst, RS = thr_copy.partition_D(ref), thr_copy.retile_S(F)
    js = [j for j in range(RS.size()) if RS(j) == reg]
    assert len(js) == 1
    written = dp.tile_coord(thr_copy.partition_offset("D", ref) + dst(js[0]), (128, 128))
    thr = k.mma.get_slice(t)
    acc = dp.tile_coord(thr.partition_offset("C", ref) + thr.partition_C(ref)(right_inverse(F)(reg)), (128, 128))
    assert written != acc
    assert c.counterexample["found"] == f"written to C(m={written[0]},n={written[1]})"
    assert c.counterexample["expected"] == f"written to C(m={acc[0]},n={acc[1]})"


HOSTILE = [
    ("a", "smem", "(128,8,3):(1,128,-1024)"),
    ("a", "smem", "Sw<3,2,3> o 0 o (128,8,3):(1,128,1024)"),
    ("a", "g2s", "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>,float>{}, Layout<Shape<_64,_4>>{}, "
                 "Layout<Shape<_4,_1>>{})"),
    ("a", "g2s", "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>,float>{}, Layout<Shape<_256,_1>>{}, "
                 "Layout<Shape<_4,_1>>{})"),
    ("a", "s2r", "make_tiled_copy(Copy_Atom<UniversalCopy<float>,float>{}, Layout<Shape<_256,_1>>{}, "
                 "Layout<Shape<_1,_1>>{})"),
    ("a", "s2r", "mma"),
    ("a", "gmem", "M"),
    ("a", "gmem", "(M,K):(1,0)"),
    ("mma", "tiled", "make_tiled_mma(UniversalFMA<float,float,float>{}, Layout<Shape<_16,_16,_1>>{}, "
                     "Tile<_32,_32,_1>{})"),
    ("mma", "tiled", "make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_2,_4,_1>>{})"),
    ("c", "epilogue", "make_tiled_copy_A(Copy_Atom<UniversalCopy<float>,float>{}, mma)"),
    ("c", "epilogue", "(4,2):(1,4)"),
    ("problem", "shape", ["M", "N", 7]),
    ("problem", "params", ["M:0", "N", "K"]),
    ("tile", "cta", [1 << 20, 2, 8]),
    ("pipeline", "stages", 0),
]


@pytest.mark.parametrize("table,key,value", HOSTILE, ids=[f"{t}.{k}:{str(v)[:30]}" for t, k, v in HOSTILE])
def test_hostile_descriptions_give_verdicts_or_one_line_errors(table, key, value):
    import tomllib
    data = tomllib.loads(NT.read_text())
    data.setdefault(table, {})[key] = value
    try:
        r = check(from_dict(data, source="k.toml"))
    except SymcuteError as e:
        assert "\n" not in str(e) and str(e).startswith("k.toml: ")
        return
    for c in r.claims.values():
        assert c.verdict in ("proved", "refuted", "unknown")
        json.dumps(c.to_dict())


def _models(tmp_path):
    yield load(NT)
    yield load(TN)
    yield load(_hgemm(tmp_path))


def test_joint_maps_are_cutes_per_thread_partitions(tmp_path):
    # the model's (thread, index) maps equal, at every thread and index, CuTe's per-thread views (slice plus
    # offset), which the differential suite checks against real CuTe: ThrMMA.partition_A/B/C over the CTA
    # tile and ThrCopy.partition_S/D of each copy
    import numpy as np
    from symcute.symbolic import exhaustive
    for k in _models(tmp_path):
        T = k.mma.size()
        for op, O in (("a", "A"), ("b", "B"), ("c", "C")):
            shape = k.tile_shape(op)
            ref = make_layout(shape)
            L = dp.mma_tv(k.mma, O, shape)
            joint = exhaustive.values(L, L.size()).reshape((T, -1), order="F")
            for t in range(0, T, 7):
                thr = k.mma.get_slice(t)
                part = {"A": thr.partition_A, "B": thr.partition_B, "C": thr.partition_C}[O](ref)
                off = thr.partition_offset(O, ref)
                assert [off + part(r) for r in range(part.size())] == joint[t].tolist(), (k.source, O, t)
            if op == "c":
                continue
            x = k.operand(op)
            for copy in (x.g2s, x.s2r):
                if copy is None:
                    continue
                for role in ("S", "D"):
                    J = dp.copy_tv(copy, role, shape)
                    joint = np.asarray(exhaustive.values(J, J.size())).reshape((copy.size(), -1), order="F")
                    for t in range(0, copy.size(), 5):
                        tc = copy.get_slice(t)
                        part = tc.partition_S(ref) if role == "S" else tc.partition_D(ref)
                        off = tc.partition_offset(role, ref)
                        assert [off + part(j) for j in range(part.size())] == joint[t].tolist(), (k.source, role, t)


def test_python_values_in_place_of_expressions():
    import tomllib
    data = tomllib.loads(NT.read_text())
    mma = evaluate(data["mma"]["tiled"])
    data["mma"]["tiled"] = mma
    data["a"]["g2s"] = evaluate(data["a"]["g2s"])
    data["a"]["s2r"] = evaluate("make_tiled_copy_A(Copy_Atom<UniversalCopy<float>,float>{}, mma)", {"mma": mma})
    data["b"]["smem"] = evaluate(data["b"]["smem"])
    r = check(data)
    assert r.claims["gemm"].verdict == "proved" and r.claims["a.fragment"].verdict == "proved"
    data["a"]["s2r"] = evaluate("make_tiled_copy_B(Copy_Atom<UniversalCopy<float>,float>{}, mma)", {"mma": mma})
    assert check(data, ["a.fragment"]).claims["a.fragment"].verdict == "refuted"
    data["a"]["g2s"] = mma
    with pytest.raises(SymcuteError, match=r"\[a\] g2s: expected a TiledCopy"):
        check(data)
    assert check(str(NT), ["c.store"]).claims["c.store"].verdict == "proved"   # a path


def test_predicated_k_residue_needs_zero_fill(tmp_path):
    text = NT.read_text().replace('params = ["M:128", "N:128", "K:8"]', 'params = ["M:128", "N:128", "K"]')
    text = text.replace("predicate = false", "predicate = true")
    p = tmp_path / "k.toml"
    p.write_text(text)
    c = check(load(p), ["residue"]).claims["residue"]
    assert c.verdict == "unknown" and "zero fill" in c.why and c.conditions == ["M % 128 == 0", "N % 128 == 0"]
    p.write_text(text.replace("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>"))
    assert check(load(p), ["residue"]).claims["residue"].verdict == "proved"
