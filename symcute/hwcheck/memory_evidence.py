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


# --- recorded runs (hw/h200_*_memory/run*/): re-judged on CPU with today's model ----------------------

def _read(path: Path) -> str:
    import gzip
    gz = path.with_name(path.name + ".gz")
    if gz.exists():
        return gzip.decompress(gz.read_bytes()).decode()
    return path.read_text()


def recorded_addresses(directory, flags: int = 2) -> list:
    """The lane addresses the run executed, from its ``cases.txt``: [case][warp][instr][lane].

    ``flags``: how many fields follow 'kind ninstr warps' on a case line (run 1: none; run 2: serial
    gstride; run 3: serial gstride gap).
    """
    toks = _read(Path(directory) / "cases.txt").split()
    n, pos, out = int(toks[0]), 1, []
    for _ in range(n):
        ninstr, warps = int(toks[pos + 1]), int(toks[pos + 2])
        pos += 3 + flags
        flat = [int(x) for x in toks[pos:pos + warps * ninstr * 32]]
        pos += warps * ninstr * 32
        out.append([[flat[(w * ninstr + k) * 32:(w * ninstr + k + 1) * 32] for k in range(ninstr)]
                    for w in range(warps)])
    return out


def category(case: dict) -> str:
    """What the model claims for a case: 'exact' (every counter predicted), 'store-stream' (several store
    instructions of one warp, or warps storing concurrently: the counters may add wavefronts the per-instruction
    bank model does not see), 'cp.async' (the write side of cp.async.ca, which follows the global source),
    'unobservable' (cp.async.cg)."""
    op, kind = case["op"], case["kind"]
    if kind.startswith("cpasynccg"):
        return "unobservable"
    if op == "ldgsts":
        return "cp.async"
    if op == "st" and (case["ninstr"] > 1 or (case["warps"] > 1 and not case.get("serial", False))):
        return "store-stream"
    return "exact"


def rejudge(directory) -> list:
    """``(case, category, Verdict)`` for every case of a recorded run, predictions recomputed from each
    case's spec with the current model; raises when a rebuilt case's addresses differ from what ran."""
    from ..memory.hwcases import build, kind_of, predict
    d = Path(directory)
    cases = json.loads(_read(d / "cases.json"))
    addrs = recorded_addresses(d, flags=("serial" in cases[0]) + ("serial" in cases[0]) + ("gap" in cases[0]))
    metrics = read_ncu_csv(_read(d / "ncu.csv"))
    if not (len(cases) == len(addrs) == len(metrics)):
        raise ValueError(f"{d}: {len(cases)} cases, {len(addrs)} address sets, {len(metrics)} profiled launches")
    out = []
    for i, c in enumerate(cases):
        instr, rebuilt, r = build(c["spec"])
        flat = [[[0 if a is None else a for a in k] for k in w] for w in rebuilt]
        if flat != addrs[i]:
            raise ValueError(f"{d}: case {i} ({c['name']}): rebuilt addresses differ from the recorded run")
        c = {**c, "serial": c.get("serial", False)}
        if c["op"] == "gld":
            c.update(predicted_sectors=r.sectors, predicted_requests=r.requests)
        else:
            if kind_of(instr) != c["kind"]:
                raise ValueError(f"{d}: case {i}: instruction {kind_of(instr)} != recorded {c['kind']}")
            c["predicted_wavefronts"], c["predicted_ideal"] = predict(instr, rebuilt)
        out.append((c, category(c), judge_case(i, c, metrics[i])))
    return out
