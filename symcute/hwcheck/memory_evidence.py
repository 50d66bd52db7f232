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
  ``l1tex__t_requests_pipe_lsu_mem_global_op_ld`` == predicted requests (the MemoryVerdict's
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
class MemoryVerdict:
    index: int
    name: str
    kind: str
    predicted_wavefronts: int
    predicted_conflicts: int
    measured_wavefronts: int | None
    measured_conflicts: int
    verdict: str


def judge_case(i: int, case: dict, m: dict) -> MemoryVerdict:
    op, kind = case["op"], case["kind"]
    if op == "gld":     # global loads: sectors and requests
        s, r = m["t_sectors_pipe_lsu_mem_global_op_ld"], m["t_requests_pipe_lsu_mem_global_op_ld"]
        ok = s == case["predicted_sectors"] and r == case["predicted_requests"]
        return MemoryVerdict(i, case["name"], kind, case["predicted_sectors"], case["predicted_requests"], s, r,
                       AGREE if ok else DISAGREE)
    pw, pi = case["predicted_wavefronts"], case["predicted_ideal"]
    if op in ("ld", "st"):
        w = m[f"data_pipe_lsu_wavefronts_mem_shared_op_{op}"]
        c = m[f"data_bank_conflicts_pipe_lsu_mem_shared_op_{op}"]
        ok = w == pw and c == pw - pi
    else:
        w, c = None, m["data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts"]
        if kind.startswith("cpasynccg"):
            return MemoryVerdict(i, case["name"], kind, pw, pw - pi, w, c, UNOBSERVABLE)
        ok = c == pw - pi
    return MemoryVerdict(i, case["name"], kind, pw, pw - pi, w, c, AGREE if ok else DISAGREE)


# --- recorded runs (hw/h200_*_memory/run*/): re-judged on CPU with today's model ----------------------

def _read(path: Path) -> str:
    from .. import files
    gz = path.with_name(path.name + ".gz")
    return files.read(gz if gz.exists() else path, "hwcheck: recorded run").decode()


def recorded_addresses(directory, flags: int = 2, sources: list | None = None) -> list:
    """The lane addresses the run executed, from its ``cases.txt``: [case][warp][instr][lane].

    ``flags``: how many fields follow 'kind ninstr warps' on a case line (run 1: none; run 2: serial
    gstride; run 3: serial gstride gap; run 4: serial gstride gap gmode, where gmode 1 means a second list,
    the global source of every lane, follows: appended to ``sources`` when given, None for the others).
    """
    toks = _read(Path(directory) / "cases.txt").split()
    n, pos, out = int(toks[0]), 1, []
    for _ in range(n):
        ninstr, warps = int(toks[pos + 1]), int(toks[pos + 2])
        gmode = flags == 4 and toks[pos + 6] == "1"
        pos += 3 + flags
        cnt = warps * ninstr * 32

        def nested(at):
            flat = [int(x) for x in toks[at:at + cnt]]
            return [[flat[(w * ninstr + k) * 32:(w * ninstr + k + 1) * 32] for k in range(ninstr)]
                    for w in range(warps)]
        out.append(nested(pos))
        pos += cnt
        if sources is not None:
            sources.append(nested(pos) if gmode else None)
        if gmode:
            pos += cnt
    return out


def category(case: dict, timing_dependent: bool = False) -> str:
    """What the model claims for a case, fixed by how the case is built (never by its outcome):

    * 'exact': every counter predicted (loads; single store instructions; one warp at a time storing a
      stream of conflict-free instructions, :func:`symcute.memory.model.store_stream`);
    * 'timing': declared timing-dependent, predicted but not claimed (docs/memory.md): a store stream with a
      conflicting instruction (``timing_dependent``), and warps storing concurrently;
    * 'exact' also covers one cp.async.ca instruction of one warp whose lanes read at a constant stride
      (``src(l) = src(0) + l * stride``: the analysis's own source model, :func:`model.cp_async_cost`);
    * 'timing' also covers several cp.async.ca instructions or warps with such sources (identical launches
      measured 320 and 326 conflicts);
    * 'cp.async': cp.async.ca with any other sources (scattered lines, lanes assigned to lines at random):
      the rule's estimate, not claimed (runs 4-7);
    * 'unobservable': cp.async.cg, whose shared-memory write the counters do not see.
    """
    op, kind = case["op"], case["kind"]
    if kind.startswith("cpasynccg"):
        return "unobservable"
    if op == "ldgsts":
        if not case.get("strided_sources", False):
            return "cp.async"
        return "exact" if case["ninstr"] == 1 and case["warps"] == 1 else "timing"
    if op == "st" and (timing_dependent or (case["warps"] > 1 and not case.get("serial", False))):
        return "timing"
    return "exact"


def rejudge(directory) -> list:
    """``(case, category, MemoryVerdict)`` for every case of a recorded run, predictions recomputed from each
    case's spec with the current model; raises when a rebuilt case's addresses differ from what ran."""
    from ..memory.hwcases import build, cp_factor, cp_groups, cp_random, cp_regular, kind_of, predict_counter
    from ..memory.model import cp_async_strided
    sourced = {"cpgroups": cp_groups, "cprandom": cp_random, "cpregular": cp_regular, "cpfactor": cp_factor}
    d = Path(directory)
    cases = json.loads(_read(d / "cases.json"))
    v4 = "gmode" in _read(d / "memprobe.cu")
    flags = 4 if v4 else ("serial" in cases[0]) + ("serial" in cases[0]) + ("gap" in cases[0])
    sources: list = []
    addrs = recorded_addresses(d, flags, sources)
    metrics = read_ncu_csv(_read(d / "ncu.csv"))
    if not (len(cases) == len(addrs) == len(metrics)):
        raise ValueError(f"{d}: {len(cases)} cases, {len(addrs)} address sets, {len(metrics)} profiled launches")
    out = []
    for i, c in enumerate(cases):
        instr, rebuilt, r = build(c["spec"])
        flat = [[[0 if a is None else a for a in k] for k in w] for w in rebuilt]
        if flat != addrs[i]:
            raise ValueError(f"{d}: case {i} ({c['name']}): rebuilt addresses differ from the recorded run")
        src = None
        if c["spec"]["family"] in sourced:
            src = sourced[c["spec"]["family"]](c["spec"])[1]
            if src != sources[i]:
                raise ValueError(f"{d}: case {i} ({c['name']}): rebuilt global sources differ from the run")
        c = {**c, "serial": c.get("serial", False)}
        timing = False
        if c["op"] == "gld":
            c.update(predicted_sectors=r.sectors, predicted_requests=r.requests)
        else:
            if kind_of(instr) != c["kind"]:
                raise ValueError(f"{d}: case {i}: instruction {kind_of(instr)} != recorded {c['kind']}")
            if c["op"] == "ldgsts" and src is None:
                gs = c.get("gstride", 16)
                src = [[[gs * (32 * w + l) for l in range(32)] for _ in ws] for w, ws in enumerate(rebuilt)]
            wave, ideal, timing = predict_counter(instr, rebuilt, src)
            c["predicted_wavefronts"], c["predicted_ideal"] = wave, ideal
            if c["op"] == "ldgsts":
                c["strided_sources"] = all(cp_async_strided(k) for w in src for k in w)
        out.append((c, category(c, timing), judge_case(i, c, metrics[i])))
    return out
