"""Sparse GMMA (wgmma.sp) on the H200, re-judged on the CPU from the recorded output.

The run of hw/h200_2026-12-01_sparse (10 SS atoms x 4 trials) recorded the raw D registers; the inputs are a
function of the seed.  The catalog's ELayout and CLayout must predict every D element; wrong layouts must not.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from symcute.core import Layout
from symcute.hwcheck import sparse

DATA = Path(__file__).parent / "data" / "h200_2026-12-01_sparse"
HW = Path(__file__).resolve().parents[2] / "hw" / "h200_2026-12-01_sparse"


@pytest.fixture(scope="module")
def lines():
    return gzip.decompress((DATA / "results.jsonl.gz").read_bytes()).decode().splitlines()


def test_recorded_run_is_this_program(lines):
    env = json.loads(lines[0])
    assert env["kind"] == "env" and env["device"] == "NVIDIA H200" and env["cc"] == "9.0"
    assert env["manifest"] == sparse.manifest()["id"]
    assert json.loads((HW / "manifest.json").read_text())["id"] == env["manifest"]
    assert (HW / "sparse.cu").read_text() == sparse.program()     # the committed program is the one emitted
    sass = (DATA / "sass_mma.txt").read_text()
    assert sass.count("GMMA.SP.") == len(sparse.CASES)


def test_every_case_agrees_with_the_catalog(lines):
    verdicts = sparse.judge(lines)
    assert len(verdicts) == len(sparse.CASES)
    assert [v.verdict for v in verdicts] == ["agree"] * len(sparse.CASES), [v for v in verdicts if v.verdict != "agree"]
    assert sum(v.total for v in verdicts) == 512 + 16384 + 4096 + 8192 + 512 + 16384 + 4096 + 512 + 16384 + 2048


def _mutants(atom):
    e, c = atom.extra_layout("ELayout"), atom.c_layout
    es, ed = e.shape, e.stride
    # the metadata of rows m and m+8 exchanged with the columns k and k+16 (two sub-axes' strides swapped)
    bad_e = Layout(es, ((ed[0][0], ed[0][1], ed[0][2], ed[0][3]), (ed[1][1], ed[1][0]) if isinstance(ed[1], tuple)
                        else ed[1]))
    cs, cd = c.shape, c.stride
    bad_c = Layout(cs, (cd[0], (cd[1][1], cd[1][0], cd[1][2])))
    return bad_e, bad_c


def test_wrong_layouts_disagree_on_the_recorded_output(lines):
    name = sparse.CASES[0][0]                     # GMMA_64x8x32_F16F16F16_SS
    atom = sparse._cases()[0][0]
    bad_e, bad_c = _mutants(atom)
    assert bad_e != atom.extra_layout("ELayout") and bad_c != atom.c_layout
    v_e, = sparse.judge(lines, {name: {"E": bad_e}}, only={name})
    v_c, = sparse.judge(lines, {name: {"C": bad_c}}, only={name})
    assert v_e.verdict == "disagree" and v_e.mismatches > 0
    assert v_c.verdict == "disagree" and v_c.mismatches > 0
