"""``symcute hwcheck``: selection, user atoms, --emit, --results, and one-line errors."""

import json
from pathlib import Path

import pytest


from .simulate import simulate_results

RUN = Path(__file__).parent / "data" / "h200_2026-11-29"


def test_results_of_the_h200_run(cli):
    code, out, err = cli(["hwcheck", "--results", str(RUN / "results.jsonl.gz")])
    assert code == 1           # CuTe's own defects disagree with the hardware
    assert "NVIDIA H200 (cc 9.0, 132 SMs), driver 580.159.04" in out
    assert "110 cases: 92 agree, 17 disagree, 1 unsupported" in out
    assert "disagree     user_SM80_16x8x16_F16_C_swapped_values" in out


def test_results_as_markdown_and_json(cli):
    code, out, _ = cli(["hwcheck", "--results", str(RUN / "results.jsonl.gz"), "--format", "markdown"])
    assert "| `SM80_16x8x16_F16F16F16F16_TN` | catalog | f16 = f16\\*f16 + f16 | **agree** | 0/128 x 4 trials |" in out
    code, out, _ = cli(["hwcheck", "--results", str(RUN / "results.jsonl.gz"), "--format", "json"])
    data = json.loads(out)
    assert data["counts"] == {"agree": 92, "disagree": 17, "unsupported": 1}


def test_emit_then_results_round_trip(tmp_path, cli):
    spec = [{"name": "mine", "base": "SM80_16x8x8_F16F16F16F16_TN", "c": "((4,8),(2,2)):((32,1),(8,16))"}]
    (tmp_path / "u.json").write_text(json.dumps(spec))
    code, out, err = cli(["hwcheck", "--atom", "SM80_16x8x8_F16F16F16F16_TN", "--filter", "m16n8k4.row.col.f64",
                          "--user-json", str(tmp_path / "u.json"), "--user-atom", "mine2",
                          "--base", "SM75_16x8x8_F32F16F16F32_TN", "--emit", str(tmp_path / "run"),
                          "--trials", "2"])
    assert code == 0 and "wrote 5 cases" in out
    from symcute.hwcheck.api import plan_from_manifest, read_manifest
    p = plan_from_manifest(read_manifest(tmp_path / "run" / "manifest.json"))
    assert [c.label for c in p.cases] == ["SM80_16x8x8_F16F16F16F16_TN", "SM90_16x8x4_F64F64F64F64_TN",
                                          "SM90_16x8x4_C64C64C64C64_TN", "mine2", "mine"]
    (tmp_path / "run" / "results.jsonl").write_text(simulate_results(p))
    code, out, _ = cli(["hwcheck", "--results", str(tmp_path / "run" / "results.jsonl")])
    assert code == 1 and "disagree     mine  " in out and "agree        mine2  " in out


@pytest.mark.parametrize("argv,msg", [
    (["hwcheck", "--atom", "SM80_16x8x16_F16F16F16F16_TM"], "unknown MMA atom"),
    (["hwcheck", "--user-atom", "x"], "needs --base"),
    (["hwcheck", "--a", "(2,2):(1,2)"], "add --user-atom"),
    (["hwcheck", "--user-atom", "x", "--base", "SM80_16x8x8_F16F16F16F16_TN", "--c", "((4,8),(2,2):((32,1)"],
     "not a layout"),
    (["hwcheck", "--user-atom", "x", "--base", "SM80_16x8x8_F16F16F16F16_TN", "--c", "((4,8),2):((32,1),16)"],
     "values per thread"),
    (["hwcheck", "--results", "/nonexistent/results.jsonl"], "cannot read"),
    (["hwcheck", "--filter", "no-such-instruction"], "no mma.sync atom matches"),
    (["hwcheck", "--all", "--evidence-out", "x.json"], "needs --results"),
    (["hwcheck", "--all", "--arch", "hopper"], "not of the form"),
    (["hwcheck"], "nothing selected"),
])
def test_errors_are_one_line(argv, msg, cli):
    code, out, err = cli(argv)
    assert code == 2 and msg in err and err.count("\n") == 1 and "Traceback" not in err
