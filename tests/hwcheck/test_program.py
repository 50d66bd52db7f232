"""The emitted program, inputs, manifest and run script (and, where nvcc exists, that they compile)."""

import json
import shutil
import subprocess

import pytest

from symcute.hwcheck.api import plan, plan_from_manifest, read_manifest, read_results
from symcute.oracle.toolchain import find_cute_include
from symcute.hwcheck.plan import derive_atom, user_case
from symcute.atoms.mma_lookup import mma_atom
from symcute.errors import LayoutError, SymcuteError

from .simulate import simulate_results


def test_emit_writes_program_inputs_manifest_script(tmp_path):
    p = plan(["SM80_16x8x16_F16F16F16F16_TN", "SM70_8x8x4_F32F16F16F32_TN", "SM80_8x8x32_S32S4U4S32_TN"], trials=3)
    paths = p.emit(tmp_path)
    cu = paths["program"].read_text()
    assert "HWCHECK_CASE(0, cute::SM80_16x8x16_F16F16F16F16_TN, 16, 8, 8, 8)" in cu
    assert "HWCHECK_CASE(1, cute::SM70_8x8x4_F32F16F16F32_TN, 8, 8, 32, 32)" in cu
    assert "HWCHECK_CASE(2, cute::SM80_8x8x32_S32S4U4S32_TN, 4, 4, 8, 8)" in cu
    assert "#define HWCHECK_TRIALS 3" in cu and "CUTE_ARCH_MMA_B1_XOR" not in cu
    man = read_manifest(paths["manifest"])
    assert [c["label"] for c in man["cases"]] == ["SM80_16x8x16_F16F16F16F16_TN", "SM70_8x8x4_F32F16F16F32_TN",
                                                 "SM80_8x8x32_S32S4U4S32_TN"]
    assert paths["inputs"].stat().st_size == 3 * 32 * ((16 + 8 + 8) + (8 + 8 + 32) + (4 + 4 + 8))
    script = paths["script"].read_text()
    assert "-gencode=arch=compute_90a,code=sm_90a" in script and "results.jsonl" in script


def test_quad_pair_lanes_outside_thr_id_get_zeros():
    p = plan(["SM70_8x8x4_F16F16F16F16_TN"], trials=1)
    image = p.inputs()[0].regs["A"][0]            # 32 lanes x 8 bytes
    used = {0, 1, 2, 3, 16, 17, 18, 19}
    for lane in range(32):
        chunk = image[lane * 8:(lane + 1) * 8]
        assert (any(chunk) if lane in used else not any(chunk)), lane


def test_no_user_text_reaches_the_cpp_source(tmp_path):
    name = 'evil"); system("rm -rf /"); //'
    base = "SM80_16x8x8_F16F16F16F16_TN"
    atom = derive_atom(mma_atom(base), name)
    p = plan(user=[(atom, base)], trials=1)
    paths = p.emit(tmp_path)
    assert "evil" not in paths["program"].read_text()
    assert json.loads(paths["manifest"].read_text())["cases"][0]["label"] == name


def test_manifest_regenerates_inputs_and_refuses_tampering(tmp_path):
    p = plan(["SM89_16x8x32_F32E4M3E5M2F32_TN"], trials=2, seed=5)
    paths = p.emit(tmp_path)
    man = read_manifest(paths["manifest"])
    assert plan_from_manifest(man).inputs()[0].regs == p.inputs()[0].regs
    man["seed"] = 6
    with pytest.raises(SymcuteError, match="do not regenerate"):
        plan_from_manifest(man)


def test_results_for_another_manifest_are_refused(tmp_path):
    p = plan(["SM80_16x8x8_F16F16F16F16_TN"], trials=1)
    p.emit(tmp_path)
    other = plan(["SM80_16x8x8_F16F16F16F16_TN"], trials=1, seed=99)
    (tmp_path / "results.jsonl").write_text(simulate_results(other))
    with pytest.raises(SymcuteError, match="belong to manifest"):
        read_results(tmp_path / "results.jsonl")


def test_missing_and_failed_cases_are_reported(tmp_path):
    p = plan(["SM80_16x8x8_F16F16F16F16_TN", "SM80_16x8x16_F16F16F16F16_TN"], trials=1)
    p.emit(tmp_path)
    lines = simulate_results(p).splitlines()
    lines[2] = json.dumps({"kind": "case", "index": 1, "status": "error", "error": "an illegal instruction"})
    (tmp_path / "results.jsonl").write_text("\n".join(lines[:3]) + "\n")
    rep = read_results(tmp_path / "results.jsonl")
    assert [r.verdict for r in rep.results] == ["agree", "error"] and not rep.ok
    (tmp_path / "results.jsonl").write_text("\n".join(lines[:2]) + "\n")
    assert [r.verdict for r in read_results(tmp_path / "results.jsonl").results] == ["agree", "not run"]


def test_user_atoms_must_fit_the_instruction():
    base = "SM80_16x8x16_F16F16F16F16_TN"
    b = mma_atom(base)
    with pytest.raises(LayoutError, match="values per thread"):
        user_case(derive_atom(b, "u", a="((4,8),(2,2)):((32,1),(16,8))"), base)
    with pytest.raises(LayoutError, match="threads"):
        user_case(derive_atom(b, "u", thr_id="16:1", a="(16,8):(1,16)", b="(16,4):(1,16)", c="(16,8):(1,16)"),
                  base)
    with pytest.raises(LayoutError, match="threads 0..31"):
        user_case(derive_atom(b, "u", thr_id="32:2"), base)
    with pytest.raises(LayoutError, match="Shape_MNK"):
        user_case(derive_atom(mma_atom("SM80_16x8x8_F16F16F16F16_TN"), "u"), base)
    p = plan(["SM90_64x8x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>"], arch="sm_90")
    assert p.cases == [] and "sm_90a" in p.skipped[0][1]


@pytest.mark.skipif(not shutil.which("nvcc") or find_cute_include() is None, reason="nvcc or CUTLASS headers missing")
def test_the_program_compiles_with_nvcc(tmp_path):
    """Compiling checks CuTe's register sizes against symcute's packing (static_assert per case)."""
    p = plan(["SM80_16x8x16_F32BF16BF16F32_TN", "SM80_8x8x128_S32U1U1S32_TN_XORPOPC"], trials=1)
    p.emit(tmp_path, build=True)
    out = subprocess.run([str(tmp_path / "hwcheck_prog"), "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and "cases=2" in out.stdout
    assert "CUTE_ARCH_MMA_B1_XOR_SM80_ENABLED" in (tmp_path / "hwcheck.cu").read_text()
