"""symcute's pictures against real CuTe: print_latex, print_latex_tv, print_svg, byte for byte.

Every case is one C++ body calling CuTe's picture function; its raw stdout (not
the oracle's normalised output: pictures contain ``_4``, ``%`` and ``\\``) must
equal the text symcute returns.  All cases CuTe accepts share one program per
core; the few that CuTe refuses (rank 3) run in a second, small one.  Verdicts
are cached by the oracle, so a warm run compiles nothing.
"""

from __future__ import annotations

import difflib
import random

import pytest

import symcute as sc
from symcute import Layout
from symcute.errors import SymcuteError
from symcute.report.pictures import print_latex, print_latex_tv, print_svg

from .harness import COUNTS, oracle_or_skip

PREAMBLE = "#include <cute/util/print_svg.hpp>\nusing namespace cute;\n"

MMA_ATOMS = ["SM80_16x8x16_F16F16F16F16_TN", "SM80_16x8x8_F32TF32TF32F32_TN", "SM70_8x8x4_F32F16F16F32_NT"]
ATOM_LAYOUTS = [(1, 1, 1), (2, 2, 1)]
COPIES = [  # (copy atom, value type, make_tiled_copy_X, MMA atom, atom layout)
    ("SM75_U32x4_LDSM_N", "half_t", "A", "SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1)),
    ("SM75_U32x4_LDSM_N", "half_t", "A", "SM80_16x8x16_F16F16F16F16_TN", (1, 1, 1)),
    ("UniversalCopy<uint32_t>", "half_t", "A", "SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1)),
    ("SM75_U32x2_LDSM_N", "half_t", "B", "SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1)),
    ("UniversalCopy<uint32_t>", "float", "C", "SM80_16x8x8_F32TF32TF32F32_TN", (2, 1, 1)),
]
TV_CASES = [  # (TV layout: (tid,vid) -> index into the column-major tile, or -> (m,n) by basis strides; tile)
    ("((4,8),(2,2)):((32,1),(16,8))", "(16,8)"),      # SM80 16x8 C fragment
    ("((4,8),(2,2,2)):((32,1),(16,8,128))", "(16,16)"),  # SM80 16x8x16 A fragment
    ("(8,4):(4,1)", "(4,8)"),
    ("(8,2):(1,0)", "(4,2)"),                         # values broadcast: the second visit of a cell is skipped
    ("(32,(4,2)):(1,(32,128))", "(32,8)"),
    ("(4,(2,4)):(1@1,(1@0,4@1))", "(2,16)"),          # already a coordinate layout
]
COMPOSED = ["Sw<3,3,3> o 0 o (8,64):(64,1)", "Sw<3,4,3> o 0 o (8,64):(64,1)", "Sw<2,3,3> o 0 o (8,32):(32,1)",
            "Sw<1,0,1> o 0 o (2,2):(2,1)", "Sw<2,0,-2> o 4 o (4,8):(8,1)", "Sw<3,3,3> o 0 o (64,8):(1,64)",
            "Sw<2,2,3> o 0 o 64:1", "Sw<2,4,3> o 0 o ((8,2),(8,2)):((8,128),(1,64))"]
SMEM_ATOMS = [("GMMA::Layout_K_SW32_Atom", "half_t"), ("GMMA::Layout_K_SW64_Atom", "uint8_t"),
              ("GMMA::Layout_MN_SW32_Atom", "float"), ("GMMA::Layout_K_INTER_Atom", "half_t"),
              ("UMMA::Layout_MN_SW128_32B_Atom", "float")]
REJECTED = ["(2,3,4):(1,2,6)", "((2,2),2,2):((1,2),4,8)"]


def random_layouts(n: int, seed: int = 20250) -> list[str]:
    """2-D layouts with nested modes, stride-0 (broadcast) modes and gaps (non-compact)."""
    rng = random.Random(seed)
    strides = [0, 1, 2, 3, 4, 5, 8, 12, 16, 32]
    out = []
    while len(out) < n:
        modes = []
        for _ in range(2):
            k = rng.choice([1, 1, 2])
            shape = tuple(rng.choice([1, 2, 3, 4]) for _ in range(k))
            stride = tuple(rng.choice(strides) for _ in range(k))
            modes.append((shape[0], stride[0]) if k == 1 else (shape, stride))
        lay = Layout(tuple(m[0] for m in modes), tuple(m[1] for m in modes))
        if lay.size() <= 64 and str(lay) not in out:
            out.append(str(lay))
    return out


LAYOUTS = random_layouts(20) + ["(4,8):(0,1)", "(4,8):(8,1)", "((2,2),(2,4)):((1,16),(2,4))",
                                 "8:2", "(3,1):(5,0)", "():()"]


def _mma_cpp(atom: str, atom_layout: tuple) -> str:
    shape = ",".join(f"_{x}" for x in atom_layout)
    return f"auto mma = make_tiled_mma({atom}{{}}, Layout<Shape<{shape}>>{{}});"


def _cases():
    """{key: (C++ body, symcute thunk)}."""
    from symcute.oracle import cpp_value
    cases = {}
    for i, text in enumerate(LAYOUTS):
        cases[f"latex-{i}"] = (f"print_latex({cpp_value(text)});", lambda t=text: print_latex(Layout.parse(t)))
    for i, text in enumerate(COMPOSED):
        cases[f"composed-{i}"] = (f"print_latex({cpp_value(text)});",
                                  lambda t=text: print_latex(sc.parse_layout(t)))
    for i, (name, t) in enumerate(SMEM_ATOMS):  # smem_ptr_flag: drawn as_position_independent_swizzle_layout
        ns, atom = name.split("::")
        cpp = f"{'SM90::GMMA' if ns == 'GMMA' else 'UMMA'}::{atom}<{'cute::' + t if t == 'half_t' else t}>{{}}"
        cases[f"smem-{i}"] = (f"print_latex({cpp});",
                              lambda name=name, t=t: print_latex(sc.smem_layout_atom(name, t)))
    for i, (tv, tile) in enumerate(TV_CASES):
        lay = Layout.parse(tv)
        arg = cpp_value(tv)
        if "@" not in tv:
            arg = f"composition(make_identity_layout({cpp_value(tile)}), {arg})"
        cases[f"tv-{i}"] = (f"print_latex_tv({arg}, {cpp_value(tile)});",
                            lambda lay=lay, tile=tile: print_latex_tv(lay, _tuple(tile)))
    for atom in MMA_ATOMS:
        for lay in ATOM_LAYOUTS:
            mma = lambda atom=atom, lay=lay: sc.make_tiled_mma(atom, lay)  # noqa: E731
            key = f"{atom}-{''.join(map(str, lay))}"
            cases[f"mma-latex-{key}"] = (f"{_mma_cpp(atom, lay)} print_latex(mma);", lambda m=mma: print_latex(m()))
            cases[f"mma-svg-{key}"] = (f"{_mma_cpp(atom, lay)} print_svg(mma);", lambda m=mma: print_svg(m()))
    for lay in [(16, 16, 1), (4, 8, 1)]:   # sgemm_sm80's atom: operand tiles (16,1) whose TV never reaches k
        fma = lambda lay=lay: sc.make_tiled_mma("UniversalFMA<float,float,float>", lay)  # noqa: E731
        cpp = _mma_cpp("UniversalFMA<float,float,float>", lay)
        cases[f"fma-latex-{''.join(map(str, lay))}"] = (f"{cpp} print_latex(mma);", lambda m=fma: print_latex(m()))
        cases[f"fma-svg-{''.join(map(str, lay))}"] = (f"{cpp} print_svg(mma);", lambda m=fma: print_svg(m()))
    cases["atom-latex"] = ("print_latex(MMA_Atom<SM80_16x8x8_F16F16F16F16_TN>{});",
                           lambda: print_latex(sc.mma_atom("SM80_16x8x8_F16F16F16F16_TN")))
    for i, (copy, vt, op, atom, lay) in enumerate(COPIES):
        make = {"A": sc.make_tiled_copy_A, "B": sc.make_tiled_copy_B, "C": sc.make_tiled_copy_C}[op]
        body = (f"{_mma_cpp(atom, lay)} auto copy = make_tiled_copy_{op}(Copy_Atom<{copy}, {vt}>{{}}, mma);"
                f" print_latex(copy);")
        cases[f"copy-{i}"] = (body, lambda make=make, copy=copy, vt=vt, atom=atom, lay=lay:
                              print_latex(make(sc.copy_atom(copy, vt), sc.make_tiled_mma(atom, lay))))
    cases["copy-thr-val"] = ("print_latex(make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, "
                             "Layout<Shape<_4,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_2>>{}));",
                             lambda: print_latex(sc.make_tiled_copy(sc.copy_atom("UniversalCopy<uint32_t>", "half_t"),
                                                                    Layout.parse("(4,8):(8,1)"),
                                                                    Layout.parse("(1,2)"))))
    return cases


def _tuple(text: str):
    return Layout.parse(text).shape


def _diff(cute: str, mine: str, n: int = 12) -> str:
    lines = list(difflib.unified_diff(cute.splitlines(), mine.splitlines(), "CuTe", "symcute", lineterm="", n=1))
    return "\n".join(lines[:n + 4])


def test_pictures_equal_cute_byte_for_byte():
    oracle = oracle_or_skip()
    cases = _cases()
    results = oracle.run({k: body for k, (body, _) in cases.items()}, preamble=PREAMBLE)
    bad = []
    for key, (body, thunk) in cases.items():
        res = results[key]
        c = COUNTS[f"pictures:{key.split('-')[0]}"]
        c["cases"] += 1
        assert res.ok, f"{key}: CuTe did not print the picture ({res.status}: {res.error})\n{body}"
        c["valid"] += 1
        mine = thunk()
        if mine != res.raw_output:
            c["mismatch"] += 1
            bad.append(f"{key}: {body}\n{_diff(res.raw_output, mine)}")
    assert not bad, f"{len(bad)} of {len(cases)} pictures differ from CuTe:\n\n" + "\n\n".join(bad)


def test_rank3_layouts_are_refused_by_both():
    from symcute.oracle import CuteOracle, cpp_value
    oracle = oracle_or_skip()
    small = CuteOracle(batch_size=len(REJECTED), jobs=1, cache=oracle.cache is not None)
    results = small.run({t: f"print_latex({cpp_value(t)});" for t in REJECTED}, preamble=PREAMBLE)
    for text in REJECTED:
        c = COUNTS["pictures:latex-rank3"]
        c["cases"] += 1
        assert results[text].rejected, (text, results[text].status, results[text].raw_output[:200])
        c["refused"] += 1
        with pytest.raises(SymcuteError, match="rank 3"):
            print_latex(Layout.parse(text))
