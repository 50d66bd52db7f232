"""Hypothesis strategies for hostile input: arbitrary text and near-valid mutations of valid input.

A near-valid input is a valid one (a seed) with a few token edits: delete,
duplicate, swap, insert a token from a hostile pool, replace a number by a
huge, negative or zero one, wrap a span in deep parentheses, or insert
non-ASCII text.  Seeds come from the seed document, CuTe's own notation and
the catalog, so most mutants get past the first token and reach the algebra.
"""

from __future__ import annotations

import re

from hypothesis import strategies as st

SEED_A = "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"

LAYOUT_SEEDS = [
    SEED_A,
    "(8,2,2,2,4,2):(4,256,32,128,1,512)",
    "((_4,_8),_2):((_1,_4),_32)",
    "(8,64):(64,1)",
    "Sw<3,4,3> o 0 o (8,64):(64,1)",
    "Sw<2,0,-2> o 5 o ((4,2),8):((2,1),8)",
    "((2,4),3):((1@0,1@1),4)",
    "(_2,_3):(1@1@0,1@0)",
    "32:1",
    "(2,(3,4)):(12,(1,3))",
    "(4611686018427387904,2):(1,9223372036854775809)",
    "(4,8)",
    "()",
    "(0,4):(1,-2)",
]

EXPR_SEEDS = [
    "upcast<1024>(right_inverse(L).with_shape(32,16))",
    "upcast<128*4>(right_inverse(L).with_shape(32,16))",
    "right_inverse(L)",
    "left_inverse((4,8):(8,1))",
    "composition((4,8):(8,1), (2,4):(4,1))",
    "complement(4:2, 32)",
    "coalesce((2,(1,6)):(1,(6,2)), (1,1))",
    "logical_divide(Layout<Shape<_8,_8>,Stride<_8,_1>>{}, make_tile(4:1, 2:1))",
    "zipped_divide((8,8):(1,8), (2,4))",
    "blocked_product((2,2):(1,2), (3,4):(4,1))",
    "raked_product((2,2):(1,2), (3,4):(4,1))",
    "tile_to_shape((2,2):(1,2), (8,8))",
    "make_ordered_layout((2,3,4), (2,0,1))",
    "recast_layout(8:1, uint16_t, uint32_t)",
    "downcast(L, 2)",
    "get<0,1>(L)",
    "size<1>(L)",
    "L(3)",
    "L(1, 5)",
    "composition(Sw<3,4,3> o 0 o (8,64):(64,1), (8,8):(1,8))",
    "right_inverse(Sw<2,0,2> o 0 o 16:1)",
    "ceil_div(7, 2)",
    "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{})",
    "make_tiled_copy_A(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, "
    "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, (2,2,1)))",
    "formula(L)",
    "prove_right_inverse(formula(L))",
    "is_injective(formula((4,8):(8,1)))",
]

NAMES_SEEDS = [
    "((t0,t1,wm,wn),((v0,v1,v2),(a,b)))",
    "((t0,t1,wm,wn),((v0,v1,v2),(_a,_b)))",
]

MMA_SEEDS = [
    "SM80_16x8x16_F16F16F16F16_TN",
    "MMA_Atom<SM80_16x8x8_F16F16F16F16_TN>",
    "cute::SM70_8x8x4_F16F16F16F16_NT{}",
    "SM90_64x128x16_F32BF16BF16_RS<GMMA::Major::K, GMMA::Major::K>",
    "SM90_64x64x16_F16F16F16_SS<GMMA::Major::MN,GMMA::Major::K>",
    "SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K,GMMA::ScaleIn::One,GMMA::ScaleIn::One>",
    "MMA_Traits<SM61_DP4A>",
]

COPY_SEEDS = [
    "SM75_U32x2_LDSM_N",
    "Copy_Atom<SM75_U32x4_LDSM_N, half_t>",
    "UniversalCopy<uint128_t>",
    "Copy_Atom<UniversalCopy<uint32_t>, float>",
    "SM80_CP_ASYNC_CACHEALWAYS<cute::uint128_t>",
    "Copy_Traits<SM90_U32x4_STSM_N>",
]

VALUE_TYPES = ["half_t", "float", "double", "uint8_t", "int4_t", "uint128_t", "bfloat16_t", "tfloat32_t",
               "float_e4m3_t", "bool", "cute::half_t", "uint1b_t", "void", "int", "half"]

HUGE = ["0", "-1", "-64", "1", "2", "4611686018427387904", "9223372036854775807", "9223372036854775808",
        "18446744073709551617", "340282366920938463463374607431768211457", "-9223372036854775809",
        "1" + "0" * 300, "_0", "_-4"]

HOSTILE = ["(", ")", ",", ":", "<", ">", "{", "}", "@", ".", "*", "+", "-", "=", "_", "o", "Sw", "'", '"',
           "[", "]", ";", "\\", "/", "#", "$", "%", "&", "|", "`", "~", "!", "?", "^",
           " ", "\t", "\n", "\r", "\x00", "\x1b[31m", "\u00e9", "\u4e2d\u6587", "\u200b", "\ufeff",
           "\U0001f600", "\u0661", "\uff08", "\u2212", "\u00b2", "\ud800",
           "__import__('os').system('true')", "eval", "exec", "lambda", "import", "os", "__class__",
           "<script>alert(1)</script>", "${IFS}", "$(true)", "None", "True", "nan", "inf", "1e400",
           "0x10", "0b101", "1_000", "1.5", "I", "E", "pi", "oo", "zoo", "Symbol", "S", "Integer",
           "L", "F", "G", "upcast", "right_inverse", "composition", "make_layout", "Layout", "Shape",
           "Int", "GMMA", "::", "Major", "half_t"]

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|-?[0-9]+|\s+|.", re.S)


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


@st.composite
def mutated(draw, seeds: list[str], pool: list[str] = HOSTILE, max_edits: int = 4):
    """A seed with 1..max_edits token edits (see the module docstring)."""
    toks = tokens(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, max_edits))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "number", "wrap", "unicode",
                                   "replace"]))
        if not toks:
            toks = [draw(st.sampled_from(pool))]
            continue
        i = draw(st.integers(0, len(toks) - 1))
        if op == "delete":
            del toks[i]
        elif op == "duplicate":
            j = draw(st.integers(i, min(len(toks), i + 8)))
            toks[i:i] = toks[i:j] or [toks[i]]
        elif op == "swap":
            j = draw(st.integers(0, len(toks) - 1))
            toks[i], toks[j] = toks[j], toks[i]
        elif op == "insert":
            toks.insert(i, draw(st.sampled_from(pool)))
        elif op == "number":
            nums = [k for k, t in enumerate(toks) if re.fullmatch(r"-?[0-9]+", t)] or [i]
            toks[draw(st.sampled_from(nums))] = draw(st.sampled_from(HUGE) | st.integers(-(2 ** 70), 2 ** 70).map(str))
        elif op == "wrap":
            j = draw(st.integers(i, len(toks)))
            k = draw(st.sampled_from([1, 2, 3, 50, 99, 100, 101, 1000]))
            toks[i:j] = ["(" * k] + toks[i:j] + [")" * k]
        elif op == "unicode":
            toks.insert(i, draw(st.text(min_size=1, max_size=3)))
        else:
            toks[i] = draw(st.sampled_from(pool))
    return "".join(toks)


def text_inputs(seeds: list[str], pool: list[str] = HOSTILE):
    """Arbitrary text, text over the grammar's own alphabet, and near-valid mutants of ``seeds``."""
    alphabet = "".join(sorted(set("".join(seeds)))) + " _-"
    return st.one_of(
        st.text(max_size=200),
        st.text(alphabet=alphabet, max_size=120),
        mutated(seeds, pool, max_edits=1),
        mutated(seeds, pool, max_edits=2),
        mutated(seeds, pool),
        st.sampled_from(seeds),
    )


def nested(depth: int, open_: str = "(", close: str = ")", inner: str = "1") -> str:
    return open_ * depth + inner + close * depth
