"""Verdicts of a hardware check: measured D fragments against the product model, per case.

:func:`evaluate_case` decodes one case's D registers (every trial, every
logical thread's lane) and compares them with the D that the case's layouts
predict from the very fragments that were loaded.  :class:`Report` holds the
verdicts and prints them as text, Markdown or JSON.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from .model import Comparison, assemble, compare_trial, predict_d
from .plan import Case, fingerprint
from .values import unpack
from ..markup import cell, code, terminal

AGREE, DISAGREE, ERROR, UNSUPPORTED, NOT_RUN = "agree", "disagree", "error", "unsupported", "not run"
NO_TENSOR_OP = "none (emulated)"   # the kernel's SASS holds no MMA/IDP instruction: ptxas lowered the PTX to other code


@dataclass
class CaseResult:
    """The verdict on one case, with the numbers behind it."""
    label: str
    instruction: str
    kind: str                       # catalog / user / corrected / upstream
    verdict: str
    types: str = ""
    fingerprint: str = ""
    trials: int = 0
    d_elements: int = 0             # (t, v) of D per trial
    mismatches: int = 0             # distinct (t, v) of D that differ in some trial
    mismatch_count: int = 0         # (trial, t, v) that differ
    conflicts: dict = field(default_factory=dict)    # operand -> elements held by several (t, v)
    outside: dict = field(default_factory=dict)      # operand -> (t, v) outside the tile
    uncovered: dict = field(default_factory=dict)    # operand -> tile elements no (t, v) holds
    example: dict | None = None     # first mismatching (trial, thread, value, lane, (m,n), predicted, measured)
    idle_lanes_nonzero: int = 0     # D values of lanes outside thr_id that are not 0 (their inputs are 0)
    sass: list = field(default_factory=list)          # MMA opcodes in the case's kernel
    reason: str = ""

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def decode_d(case: Case, d_bytes: bytes) -> tuple[list, int]:
    """D fragments ``d[t][v]`` of the logical threads, and the count of nonzero D values in idle lanes."""
    vt = case.value_type("D")
    nv = case.values("C")
    nb = case.reg_bytes("D")
    lanes = case.lanes()
    frag = [unpack(d_bytes[lane * nb:(lane + 1) * nb], vt, nv) for lane in lanes]
    used = set(lanes)
    zero = vt.decode(0)
    idle = 0
    for lane in range(case.block_threads):
        if lane not in used:
            idle += sum(1 for x in unpack(d_bytes[lane * nb:(lane + 1) * nb], vt, nv) if x != zero)
    return frag, idle


def evaluate_case(case: Case, frags: dict, d_trials: list, maps: dict | None = None) -> CaseResult:
    """Compare measured D (``d_trials[trial]`` = 32 lanes of raw D registers) with the layouts' prediction.

    ``frags[op][trial][t][v]`` are the A, B, C fragments that were loaded.
    @result verdict 'agree' iff every (trial, t, v) of D equals the prediction and no operand map has a
            conflict or an out-of-tile (t, v); else 'disagree' with the first differing (t, v)
    """
    maps = maps or case.operand_maps()
    arith = case.arithmetic()
    zeros = {op: case.value_type(op).decode(0) if arith in ("real", "xor") else
             ((0, 0) if op in "AB" or arith == "complex" else (0, 0, 0)) for op in "ABC"}
    comp = Comparison()
    idle = 0
    for trial, raw in enumerate(d_trials):
        tiles = {op: frags[op][trial] if op not in maps else assemble(maps[op], frags[op][trial], zeros[op])
                 for op in "ABC"}
        d_pred = predict_d(case.atom.shape_mnk, tiles["A"], tiles["B"], tiles["C"], arith)
        d_frag, idle_t = decode_d(case, raw)
        idle += idle_t
        compare_trial(comp, trial, maps["C"], d_pred, d_frag, case.lanes(), case.atom.shape_mnk)
    conflicts = {op: len(m.conflicts) for op, m in maps.items() if m.conflicts}
    outside = {op: len(m.outside) for op, m in maps.items() if m.outside}
    uncovered = {op: m.uncovered for op, m in maps.items() if m.uncovered}
    verdict = AGREE if comp.agree and not conflicts and not outside else DISAGREE
    example = None
    if comp.first is not None:
        f = comp.first
        example = {"trial": f.trial, "thread": f.thread, "value": f.value, "lane": f.lane,
                   "mn": list(f.coord) if f.coord else None,
                   "predicted": _plain(f.predicted), "measured": _plain(f.measured)}
    a = case.atom
    return CaseResult(case.label, case.instruction, case.kind, verdict, types=types_text(a),
                      fingerprint=fingerprint(a), trials=len(d_trials),
                      d_elements=case.threads * case.values("C"), mismatches=len(comp.mismatched),
                      mismatch_count=comp.mismatch_count, conflicts=conflicts, outside=outside,
                      uncovered=uncovered, example=example, idle_lanes_nonzero=idle)


def types_text(atom) -> str:
    """D = A * B + C value types, short: 'f32 = bf16*bf16 + f32'."""
    d, a, b, c = (_short(t) for t in (atom.val_type_d, atom.val_type_a, atom.val_type_b, atom.val_type_c))
    return f"{d} = {a}*{b} + {c}"


_SHORT = {"half_t": "f16", "bfloat16_t": "bf16", "tfloat32_t": "tf32", "float": "f32", "double": "f64",
          "int8_t": "s8", "uint8_t": "u8", "int16_t": "s16", "int32_t": "s32", "int4b_t": "s4",
          "uint4b_t": "u4", "uint1b_t": "b1", "float_e4m3_t": "e4m3", "float_e5m2_t": "e5m2",
          "complex<double>": "c64"}


def _short(t) -> str:
    if t is None:
        return "?"
    if str(t).endswith("GaussComplex"):
        return "gc64"
    return _SHORT.get(t, str(t))


def _plain(x):
    return list(x) if isinstance(x, tuple) else x


# Tensor-core opcodes (HMMA, IMMA, DMMA, BMMA, QMMA, HGMMA, ...) and the dot-product ones (IDP);
# 'HFMA2.MMA' is an FMA issued on the MMA pipe, not a matrix instruction.
_TENSOR_OP = re.compile(r"(?<![A-Z0-9.])((?:[A-Z]G?MMA|IDP|IDP4A)(?:\.[A-Za-z0-9_]+)*)")


def parse_sass(text: str) -> dict:
    """``cuobjdump --dump-sass | grep -E 'Function :|MMA'`` -> {kernel index: [MMA opcodes]}."""
    out: dict = {}
    current = None
    for line in text.splitlines():
        m = re.search(r"Function : hwcheck_case_(\d+)", line)
        if m:
            current = int(m.group(1))
            out.setdefault(current, [])
            continue
        if current is None:
            continue
        op = _TENSOR_OP.search(line)
        if op:
            out[current].append(op.group(1))
    return out


@dataclass
class Report:
    """All verdicts of one run, with where it ran."""
    results: list
    env: dict = field(default_factory=dict)
    manifest: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when no case disagreed or failed (unsupported instructions are not failures)."""
        return all(r.verdict in (AGREE, UNSUPPORTED) for r in self.results)

    def counts(self) -> dict:
        c: dict = {}
        for r in self.results:
            c[r.verdict] = c.get(r.verdict, 0) + 1
        return c

    def to_json(self) -> str:
        return json.dumps({"env": self.env, "counts": self.counts(),
                           "results": [r.to_dict() for r in self.results]}, indent=1, sort_keys=True)

    def env_line(self) -> str:
        e = self.env
        if not e:
            return "no run"
        return (f"{e.get('device', '?')} (cc {e.get('cc', '?')}, {e.get('sms', '?')} SMs), driver "
                f"{e.get('driver', '?')}, CUDA runtime {_cuda(e.get('runtime_cuda'))} / driver API "
                f"{_cuda(e.get('driver_cuda'))}, nvcc {e.get('nvcc', '?')}, target {e.get('arch', '?')}, "
                f"{e.get('date', '?')}")

    def to_text(self) -> str:
        lines = [f"hwcheck: {self.env_line()}"]
        for r in self.results:
            lines.append(f"{r.verdict:12s} {r.label}  [{r.types}]" + _detail(r))
            if r.example:
                x = r.example
                lines.append(f"             e.g. trial {x['trial']}, thread {x['thread']} (lane {x['lane']}), "
                             f"value {x['value']} -> D{tuple(x['mn']) if x['mn'] else '(outside tile)'}: "
                             f"predicted {x['predicted']}, measured {x['measured']}")
            if r.reason:
                lines.append(f"             {r.reason}")
        counts = ", ".join(f"{n} {v}" for v, n in sorted(self.counts().items()))
        lines.append(f"{len(self.results)} cases: {counts}")
        # user atom names, error strings and the env line come from outside: no control characters reach a terminal
        return "\n".join(terminal(line) for line in lines)

    def to_markdown(self) -> str:
        head = ("| atom | kind | types | verdict | D mismatches | conflicts | SASS | note |\n"
                "| --- | --- | --- | --- | --- | --- | --- | --- |")
        rows = [head]
        for r in self.results:
            mism = "" if r.verdict in (UNSUPPORTED, NOT_RUN, ERROR) or r.kind == "upstream" else \
                f"{r.mismatches}/{r.d_elements} x {r.trials} trials"
            conf = ", ".join(f"{op}: {n}" for op, n in sorted(r.conflicts.items())) or \
                ("" if r.kind == "upstream" else "0")
            sass = ", ".join(sorted(set(r.sass)))
            note = r.reason
            if r.example:
                x = r.example
                note = (f"thread {x['thread']} value {x['value']} -> D{tuple(x['mn']) if x['mn'] else ''}: "
                        f"predicted {x['predicted']}, measured {x['measured']}" + (f"; {note}" if note else ""))
            # the label may be a user's atom name, the note quotes it: both are escaped, never markup
            rows.append(f"| {code(r.label, cell=True)} | {cell(r.kind)} | {cell(r.types)} | **{cell(r.verdict)}** | "
                        f"{cell(mism)} | {cell(conf)} | {cell(sass)} | {cell(note)} |")
        return "\n".join(rows)


def _cuda(v) -> str:
    if not isinstance(v, int):
        return "?"
    return f"{v // 1000}.{(v % 1000) // 10}"


def _detail(r: CaseResult) -> str:
    parts = []
    if r.verdict in (AGREE, DISAGREE) and r.kind != "upstream":
        parts.append(f"D mismatches {r.mismatches}/{r.d_elements} ({r.mismatch_count} over {r.trials} trials)")
    for name, d in (("conflicts", r.conflicts), ("outside tile", r.outside), ("uncovered", r.uncovered)):
        if d:
            parts.append(f"{name} " + ", ".join(f"{op}:{n}" for op, n in sorted(d.items())))
    if r.sass:
        parts.append("SASS " + ",".join(sorted(set(r.sass))))
    return ("  " + "; ".join(parts)) if parts else ""
