"""A CPU stand-in for the GPU: the D registers an instruction would return if ``truth``'s layouts were its own.

Used to test the host side (packing, model, comparison, reports) without a GPU:
with the catalogued layouts as truth every case must agree, and a layout that
differs from the truth must disagree.  Real hardware outputs are tested in
test_recorded.py.
"""

from __future__ import annotations

import json

from symcute.hwcheck.model import assemble, predict_d
from symcute.hwcheck.plan import LANES, Case, corrected_atom
from symcute.hwcheck.values import pack
from symcute.atoms.mma_lookup import mma_atom


def truth_case(case: Case) -> Case:
    base = mma_atom(case.instruction)
    return Case(base.name, base.name, corrected_atom(base) or base, "catalog")


def simulate_d(case: Case, frags_trial: dict, truth: Case) -> bytes:
    """32 lanes of D registers: the instruction reads the lanes' registers through ``truth``'s layouts."""
    maps = truth.operand_maps()
    arith = truth.arithmetic()
    zero = {"real": 0, "xor": 0, "complex": (0, 0), "gauss": (0, 0, 0)}[arith]
    ab_zero = zero if arith in ("real", "xor") else (0, 0)
    zeros = {"A": ab_zero, "B": ab_zero, "C": zero}
    # What the truth's threads hold: the lanes' register contents, read by truth's thread ids.
    lane_of_case = {lane: t for t, lane in enumerate(case.lanes())}
    tiles = {}
    for op in "ABC":
        if op in truth.smem_operands():
            tiles[op] = list(frags_trial[op])          # the shared-memory tile itself
            continue
        nv = truth.values(op)
        frag = []
        for lane in truth.lanes():
            t = lane_of_case.get(lane)
            frag.append(list(frags_trial[op][t]) if t is not None else [zeros[op]] * nv)
        tiles[op] = assemble(maps[op], frag, zeros[op])
    d = predict_d(truth.atom.shape_mnk, tiles["A"], tiles["B"], tiles["C"], arith)
    vt = truth.value_type("D")
    nb = truth.reg_bytes("D")
    out = bytearray(truth.block_threads * nb)
    for t, lane in enumerate(truth.lanes()):
        out[lane * nb:(lane + 1) * nb] = pack([d[i] for i in maps["C"].index[t]], vt)
    return bytes(out)


def simulate_results(plan, env=None, truth=truth_case) -> str:
    """results.jsonl text as hwcheck_prog would write it, computed on the CPU."""
    man = plan.manifest()
    lines = [json.dumps({"kind": "env", "manifest": man["id"], "device": "CPU simulation", "cc": "0.0",
                         **(env or {})})]
    for i, (case, inp) in enumerate(zip(plan.cases, plan.inputs())):
        t = truth(case)
        d = [simulate_d(case, {op: inp.frags[op][k] for op in "ABC"}, t).hex() for k in range(plan.trials)]
        lines.append(json.dumps({"kind": "case", "index": i, "status": "ok", "d": d}))
    return "\n".join(lines) + "\n"
