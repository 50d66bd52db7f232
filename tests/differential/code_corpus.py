"""The values the code-out round trips use (C++ through g++, CuTe DSL through recorded prints)."""

from __future__ import annotations

import random

from symcute import LayoutError, parse_layout, to_dsl

from .core_cases import rand_layout

FIXED = ["((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))", "(8,2,2,2,4,2):(4,256,32,128,1,512)",
         "(4,8):(1@0,1@1)", "(4,(2,4)):(1@1,(1@0,4@1))", "((2,2),(2)):((1,-2),(0))", "7:3", "():()", "(1):(0)",
         "Sw<3,4,3> o 0 o (8,64):(64,1)", "Sw<2,0,3> o 0 o Sw<2,0,3> o 0 o (8,8):(1,8)",
         "Sw<1,2,3> o 4 o ((2,4),8):((1,16),2)"]


def corpus(n: int, seed: int = 1802) -> list:
    rng = random.Random(seed)
    out = [parse_layout(t) for t in FIXED]
    while len(out) < n:
        L = rand_layout(rng)
        if L not in out:
            out.append(L)
    return out


def dsl_corpus() -> list:
    """The C++ corpus less what CuTe DSL has no literal for (to_dsl refuses those: bases, unset smem
    flags, a composed inner layout)."""
    out = []
    for v in corpus(300):
        try:
            to_dsl(v)
        except LayoutError:
            continue
        out.append(v)
    return out
