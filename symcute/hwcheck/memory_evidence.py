"""Judging the H200's shared-memory counters against symcute's predictions.

``ncu --csv`` gives one row per (launch, metric); launch ``i`` is case ``i`` of
the run's ``cases.json``.  A case agrees when the counters of its instruction's
family equal the prediction:

* ``ld``/``st`` (LDS/STS/LDSM/STSM): ``l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}``
  == predicted wavefronts and ``l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}``
  == predicted wavefronts - ideal;
* ``ldgsts`` (cp.async.ca): ``l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts``
  == predicted wavefronts - ideal (the total wavefront counter adds a fixed per-launch
  overhead and is recorded, not judged);
* global loads: ``l1tex__t_sectors_pipe_lsu_mem_global_op_ld`` == predicted sectors and
  ``l1tex__t_requests_pipe_lsu_mem_global_op_ld`` == predicted requests (the Verdict's
  wavefront/conflict fields then hold sectors/requests);
* cp.async.cg: its shared-memory write never reaches these counters (bypass path),
  so the case is recorded as *unobservable*, never as agreement.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path

AGREE, DISAGREE, UNOBSERVABLE = "agree", "disagree", "unobservable"
P = "l1tex__"


def read_ncu_csv(text: str) -> dict:
    """``{launch id: {metric: int}}`` from ``ncu --csv`` output (profiler chatter before the header skipped)."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    out: dict = {}
    for r in csv.DictReader(io.StringIO("\n".join(lines[start:]))):
        name = r["Metric Name"].removeprefix(P).removesuffix(".sum")
        out.setdefault(int(r["ID"]), {})[name] = int(float(r["Metric Value"].replace(",", "")))
    return out


@dataclass(frozen=True)
class Verdict:
    index: int
    name: str
    kind: str
    predicted_wavefronts: int
    predicted_conflicts: int
    measured_wavefronts: int | None
    measured_conflicts: int
    verdict: str


def judge_case(i: int, case: dict, m: dict) -> Verdict:
    op, kind = case["op"], case["kind"]
    if op == "gld":     # global loads: sectors and requests
        s, r = m["t_sectors_pipe_lsu_mem_global_op_ld"], m["t_requests_pipe_lsu_mem_global_op_ld"]
        ok = s == case["predicted_sectors"] and r == case["predicted_requests"]
        return Verdict(i, case["name"], kind, case["predicted_sectors"], case["predicted_requests"], s, r,
                       AGREE if ok else DISAGREE)
    pw, pi = case["predicted_wavefronts"], case["predicted_ideal"]
    if op in ("ld", "st"):
        w = m[f"data_pipe_lsu_wavefronts_mem_shared_op_{op}"]
        c = m[f"data_bank_conflicts_pipe_lsu_mem_shared_op_{op}"]
        ok = w == pw and c == pw - pi
    else:
        w, c = None, m["data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts"]
        if kind.startswith("cpasynccg"):
            return Verdict(i, case["name"], kind, pw, pw - pi, w, c, UNOBSERVABLE)
        ok = c == pw - pi
    return Verdict(i, case["name"], kind, pw, pw - pi, w, c, AGREE if ok else DISAGREE)


def judge_run(directory) -> list:
    d = Path(directory)
    cases = json.loads((d / "cases.json").read_text())
    metrics = read_ncu_csv((d / "ncu.csv").read_text())
    if len(metrics) != len(cases):
        raise ValueError(f"{d}: {len(metrics)} profiled launches for {len(cases)} cases")
    return [judge_case(i, c, metrics[i]) for i, c in enumerate(cases)]
