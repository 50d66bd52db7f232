"""Judging the H200's TMA smem images (:mod:`symcute.hwcheck.tma_program`) against symcute's model of TMA's
swizzle modes (:func:`symcute.memory.model.tma_smem_byte`: ``Swizzle<B,4,3>`` on the shared byte address).

A load case agrees when every element of the box sits in shared memory where the model puts it; a store
case when every element of the gmem tensor holds the smem element the model says the box element came from
(and elements outside the box stay 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..memory.model import tma_smem_byte
from .tma_program import SWIZZLE_BYTES


@dataclass(frozen=True)
class TmaVerdict:
    index: int
    store: bool
    esize: int
    swizzle_bytes: int
    soff: int
    elements: int
    mismatches: int

    @property
    def agrees(self) -> bool:
        return self.mismatches == 0


def expected(store, esize, mode, inner, rows, W, H, c0, c1, soff) -> list:
    """The values the run prints for a case, by the model."""
    span = SWIZZLE_BYTES[mode]
    at = {}     # box (r, c) -> smem element index
    for r in range(rows):
        for c in range(inner):
            at[r, c] = tma_smem_byte(span, r, c * esize, inner * esize, soff) // esize
    if not store:
        img = [None] * (inner * rows)
        for (r, c), o in at.items():
            img[o] = (c1 + r) * W + (c0 + c)
        return img
    g = [0] * (W * H)
    for (r, c), o in at.items():
        g[(c1 + r) * W + (c0 + c)] = o
    return g


def judge(text: str) -> list:
    out = []
    for line in text.splitlines():
        if not line.startswith("case "):
            continue
        head, values = line.split(":", 1)
        f = [int(x) for x in head.split()[1:]]
        idx, params = f[0], f[1:]
        got = [int(x) for x in values.split()]
        want = expected(*params)
        bad = sum(1 for a, b in zip(got, want) if a != b) + abs(len(got) - len(want))
        out.append(TmaVerdict(idx, bool(params[0]), params[1], SWIZZLE_BYTES[params[2]], params[9], len(want), bad))
    return out


def judge_recorded(path) -> list:
    p = Path(path)
    from .. import files
    text = files.read(p, "hwcheck: recorded run").decode()
    return judge(text)
