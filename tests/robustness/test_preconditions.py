"""Every documented precondition, violated: a SymcuteError whose message names the condition and the values.

Each case is an expression of the expression language (so the same input runs
through the Python API, ``lang.evaluate``, and the CLI, ``symcute calc``): the
error class, and fragments the message must contain -- the violated condition in
CuTe's words and the offending values.  The CLI turns each into one line on
stderr and exit status 2 (in-process for all; a few through a subprocess).
"""

from __future__ import annotations

import os

import pytest

import symcute
from symcute import Layout
from symcute import expr as lang
from symcute.atoms import UnknownAtom
from symcute.errors import LayoutError, LimitError, ParseError, SymcuteError

from ..cli_runner import run_cli, run_cli_process
from .test_fuzz_cli import check_exit

SEED_A = "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"
MMA = "SM80_16x8x16_F16F16F16F16_TN{}"
TILED = f"make_tiled_mma({MMA}, (2,2,1))"

# (id, expression, error class, fragments of the message: the condition and the offending values)
CASES = [
    # --- core: composition (CuTe's Stride/Shape Divisibility Conditions) -----------------------------
    ("composition/shape-divisibility", "composition((4,6):(1,5), 3:2)", LayoutError,
     ["composition((4,6):(1,5), 3:2)", "Shape Divisibility Condition", "shape 3", "2"]),
    ("composition/stride-divisibility", "composition((4,6):(1,5), 3:6)", LayoutError,
     ["Stride Divisibility Condition", "stride 6 is neither divisible by nor less than shape 4"]),
    ("composition/tiler-rank", "composition(4:1, (1,2,3))", LayoutError,
     ["tiler (1,2,3) has 3 modes", "layout 4:1 has rank 1"]),
    ("composition/not-a-layout", "composition(4:1, half_t)", LayoutError, ["right-hand side", "half_t"]),
    ("composition/swizzle-offset", "composition(16:1, Sw<2,0,2> o 3 o 16:1)", LayoutError,
     ["Require offset == 0"]),
    # --- complement ---------------------------------------------------------------------------------
    ("complement/non-injective", "complement((2,2):(1,1), 8)", LayoutError,
     ["(2,2):(1,1)", "Non-injective Layout", "stride 1", "extent 2"]),
    ("complement/cotarget-type", "complement(4:2, half_t)", LayoutError, ["cotarget must be an integer or a shape"]),
    ("complement/basis", "complement((4,2):(1@0,1@1), 8)", LayoutError,
     ["(4,2):(1@0,1@1)", "basis strides are not supported"]),
    # --- inverses ----------------------------------------------------------------------------------
    ("right_inverse/basis", "right_inverse((4,2):(1@0,1@1))", LayoutError,
     ["right_inverse((4,2):(1@0,1@1))", "basis strides"]),
    ("left_inverse/basis", "left_inverse((4,2):(1@0,1@1))", LayoutError, ["left_inverse", "basis strides"]),
    ("right_inverse/not-a-layout", "right_inverse(half_t)", LayoutError, ["right_inverse", "half_t"]),
    # --- upcast / downcast / recast_layout -----------------------------------------------------------
    ("upcast/divisibility", "upcast((4,3):(1,3), 2)", LayoutError,
     ["upcast<2>((4,3):(1,3))", "Divisibility condition", "stride 3", "N = 2"]),
    ("upcast/N-positive", "upcast(4:1, 0)", LayoutError, ["upcast requires a positive integer N", "got 0"]),
    ("upcast/N-negative", "upcast(4:1, -2)", LayoutError, ["positive integer N", "-2"]),
    ("upcast/basis", "upcast((4,2):(1@0,1@1), 2)", LayoutError, ["upcast<2>", "basis strides"]),
    ("downcast/adjacent", "downcast(4:2, 2)", LayoutError,
     ["downcast<2>(4:2)", "Downcast requires adjacent elements"]),
    ("downcast/N-positive", "downcast(4:1, 0)", LayoutError, ["downcast requires a positive integer N", "0"]),
    ("recast_layout/divisibility", "recast_layout(4:3, uint8_t, uint16_t)", LayoutError,
     ["upcast<2>(4:3)", "Divisibility condition", "stride 3"]),
    ("recast_layout/unknown-type", "recast_layout(4:1, nosuchtype, uint16_t)", LayoutError,
     ["unknown value type 'nosuchtype'"]),
    ("recast_layout/zero-bits", "recast_layout(4:1, uint8_t, 0)", LayoutError, ["positive bit width", "0"]),
    # --- divides and products --------------------------------------------------------------------------
    ("logical_divide/tiler-rank", "logical_divide((4,6):(1,5), (2,3,4))", LayoutError,
     ["Too many modes in tiler", "3 modes", "(4,6):(1,5)", "rank 2"]),
    ("zipped_divide/tiler-rank", "zipped_divide(8:1, (2,2))", LayoutError, ["Too many modes in tiler", "8:1"]),
    ("logical_divide/divisibility", "logical_divide((4,6):(1,5), 3:2)", LayoutError,
     ["Shape Divisibility Condition", "shape 3 is not divisible by 2"]),
    ("logical_product/arguments", "raked_product((2,2):(1,2), 4)", LayoutError, ["raked_product takes two layouts"]),
    ("tile_to_shape/divides", "tile_to_shape((2,2):(1,2), (3,8))", LayoutError,
     ["tile_to_shape", "block shape does not divide the target shape", "(2,2):(1,2) into (3, 8)"]),
    ("tile_to_shape/rank", "tile_to_shape((2,2,2):(1,2,4), (8,8))", LayoutError,
     ["Rank of layout must be <= rank of target shape"]),
    ("shape_div/divisibility", "shape_div(6, 4)", LayoutError,
     ["Divisibility Condition violated in shape_div", "neither 6 nor 4 divides the other"]),
    ("ceil_div/ranks", "ceil_div((2,3), (1,2,3))", LayoutError, ["ceil_div: mismatched ranks", "(1, 2, 3)"]),
    # --- coalesce with a profile, make_ordered_layout, modes -------------------------------------------
    ("coalesce/profile", "coalesce((2,4):(1,2), (1,1,1))", LayoutError,
     ["profile (1, 1, 1) has more modes than layout (2,4):(1,2)"]),
    ("make_ordered_layout/congruent", "make_ordered_layout((2,3), (0,1,2))", LayoutError,
     ["order (0, 1, 2) is not weakly congruent to shape (2, 3)"]),
    ("make_layout/congruent", "make_layout((2,3), (1,2,3))", LayoutError,
     ["shape (2,3) and stride (1,2,3) are not congruent"]),
    ("get/range", "get<5>(L)", LayoutError, ["mode (5,) out of range", "((4,8,2,2)"]),
    ("select/range", "select(L, 7)", LayoutError, ["select: mode 7 out of range for rank 2"]),
    ("take/range", "take(L, 1, 1)", LayoutError, ["take<1,1>", "empty or out-of-bounds range for rank 2"]),
    ("group/range", "group(L, 1, 9)", LayoutError, ["group<1,9>", "out of bounds for rank 2"]),
    ("append/rank", "append<1>((2,3):(1,2))", LayoutError, ["append<1>", "rank 2 is already larger"]),
    ("append/limit", "append<100000000>(L)", LimitError, ["append<100000000>", "exceeds the limit of 65536"]),
    # --- evaluation ------------------------------------------------------------------------------------
    ("evaluate/rank", "L(1,2,3)", LayoutError, ["Mismatched Ranks", "(1, 2, 3)"]),
    ("evaluate/nested-rank", "L((1,2),3)", LayoutError, ["Mismatched Ranks", "(1, 2)", "(4, 8, 2, 2)"]),
    ("evaluate/basis-limit", "B(3)", LimitError, ["basis stride 1@100000000", "4096"]),
    # --- swizzles ---------------------------------------------------------------------------------------
    ("swizzle/shift", "Swizzle<3,4,2>{}", LayoutError, ["Swizzle<3,4,2>", "abs(SShift) must be more than BBits"]),
    ("swizzle/bbits", "Swizzle<-1,4,3>{}", LayoutError, ["Swizzle<-1,4,3>", "BBits must be positive"]),
    ("swizzle/mbase", "Swizzle<3,-1,3>{}", LayoutError, ["Swizzle<3,-1,3>", "MBase must be positive"]),
    ("swizzle/32-bit", "Swizzle<20,10,20>{}", LayoutError, ["Swizzle<20,10,20>", "32-bit"]),
    ("swizzle/upcast-power-of-two", "upcast(Sw<3,4,3> o 0 o (8,64):(64,1), 3)", LayoutError,
     ["upcast", "Sw<3,4,3>"]),
    # --- atoms --------------------------------------------------------------------------------------------
    ("make_tiled_mma/rank", f"make_tiled_mma({MMA}, (2,2,1,1))", LayoutError,
     ["TiledMMA requires rank-3 AtomLayoutMNK", "(2,2,1,1):(1,2,0,0)", "rank 4"]),
    ("make_tiled_mma/permutation-extent", f"make_tiled_mma({MMA}, (2,2,1), (0,8,8))", LayoutError,
     ["permutation extent 0 must be positive"]),
    ("make_tiled_mma/permutation-rank", f"make_tiled_mma({MMA}, (2,2,1), (32,16,8,4))", LayoutError,
     ["TiledMMA requires rank-3 PermutationMNK", "4 permutations"]),
    ("make_tiled_mma/permutation-divisibility",
     f"make_tiled_mma({MMA}, (2,2,1), (3,8,8)).get_layoutA_TV()", LayoutError,
     ["(3,8,8)", "thrfrg_A", "Shape Divisibility Condition", "shape 16 is not divisible by 3"]),
    ("make_tiled_mma/unknown-atom", "make_tiled_mma(NoSuchAtom{}, (2,2,1))", UnknownAtom,
     ["unknown MMA atom 'NoSuchAtom'"]),
    ("mma_atom/template", "mma_atom(SM80_16x8x16_F16F16F16F16_TN<1>)", SymcuteError,
     ["SM80_16x8x16_F16F16F16F16_TN is not a template"]),
    ("mma_atom/major", "mma_atom(SM90_64x64x16_F16F16F16_SS<GMMA::Major::XX,GMMA::Major::K>)", LayoutError,
     ["GMMA::Major::XX is not one of GMMA::Major::K, GMMA::Major::MN"]),
    ("mma_atom/rs-k-major", "mma_atom(SM90_64x64x16_F16F16F16_RS<GMMA::Major::MN,GMMA::Major::K>)", LayoutError,
     ["Register source operand A must have K major layout"]),
    ("copy_atom/value-type", "copy_atom(SM75_U32x2_LDSM_N, double)", LayoutError,
     ["Copy_Atom<SM75_U32x2_LDSM_N, double>", "CopyOperation is not valid for Dst of ValType", "size(ThrID) = 32"]),
    ("copy_atom/unknown-type", "copy_atom(SM75_U32x2_LDSM_N, nosuch_t)", LayoutError,
     ["unknown value type 'nosuch_t'"]),
    ("copy_atom/unknown", "copy_atom(NoSuchCopy)", UnknownAtom, ["unknown copy atom 'NoSuchCopy'"]),
    ("make_tiled_copy/values", "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, (4,8):(8,1), (3,1))",
     LayoutError, ["TiledCopy uses too few vals for selected CopyAtom", "3 values", "multiple of 2"]),
    ("make_tiled_copy_A/not-a-tiled-mma", "make_tiled_copy_A(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, 4:1)",
     LayoutError, ["make_tiled_copy_A: expected a TiledMMA", "4:1"]),
    # --- symbolic -----------------------------------------------------------------------------------------
    ("formula/basis", "formula(4:1@0)", SymcuteError, ["formula: layout 4:1@0 has a basis stride 1@0"]),
    ("formula/composed-names", "formula(Sw<3,4,3> o 0 o (8,64):(64,1), (a,b,c))", SymcuteError,
     ["(a,b,c) is not congruent to the shape (8,64)"]),
    ("prove/domain", "is_surjective(formula(4:2), -3)", SymcuteError,
     ["domain must be a positive integer", "-3"]),
    ("prove/domain-zero", "is_bijective(formula(4:1), 0)", SymcuteError, ["domain must be a positive integer", "0"]),
    # --- the expression language itself ----------------------------------------------------------------------
    ("expr/unknown-function", "nosuchfunction(1)", ParseError, ["unknown function 'nosuchfunction'"]),
    ("expr/arity", "right_inverse(4:1, 2)", LayoutError, ["right_inverse(4:1, 2) is not a valid call"]),
    ("expr/not-a-function", "L2(1)", LayoutError, ["L2 is a int, not a function or a layout"]),
    ("expr/syntax", "upcast<4>(L", ParseError, ["expected ')'", "position 11", "end of input"]),
    ("expr/character", "4:1 $ 2", ParseError, ["unexpected character '$' at position 4"]),
    ("expr/nesting", "(" * 200 + "1" + ")" * 200, ParseError, ["nesting deeper than 100 levels"]),
    ("expr/integer", "1--2", ParseError, ["malformed integer"]),
]

ENV = {"L": SEED_A, "B": "(2,2):(1@0,1@100000000)", "L2": "7"}


@pytest.mark.parametrize("expr,cls,fragments", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_precondition_message(expr, cls, fragments):
    with pytest.raises(SymcuteError) as info:
        lang.evaluate(expr, ENV)
    assert isinstance(info.value, cls), (type(info.value).__name__, str(info.value))
    for fragment in fragments:
        assert fragment in str(info.value), (fragment, str(info.value))


@pytest.mark.parametrize("expr,cls,fragments", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_precondition_cli_one_line_exit_2(expr, cls, fragments):
    argv = ["calc", expr] + [f"--let={k}={v}" for k, v in ENV.items()]
    code, out, err = run_cli(argv)
    assert code == 2 and out == ""
    check_exit(argv, code, err)
    assert err.startswith("symcute: error: ")
    for fragment in fragments:
        assert " ".join(fragment.split()) in err, (fragment, err)


# --- preconditions of the commands' own arguments --------------------------------------------------------

CLI_CASES = [
    (["prove", "surjective", "4:1"], ["prove surjective needs --cotarget N"]),
    (["prove", "equal", "4:1"], ["prove equal takes 2 layouts, got 1"]),
    (["prove", "injective", "4:1", "--limit", "-5"], ["exhaustive limit must be a non-negative integer, got -5"]),
    (["prove", "bijective", "4:1", "--cotarget", "0"], ["--cotarget must be a positive integer, got 0"]),
    (["prove", "equal", "4:1", "4:1", "--domain", "-1"], ["domain must be a positive integer, got -1"]),
    (["prove", "nonsense", "4:1"], ["argument claim: invalid choice: 'nonsense'"]),
    (["prove", "injective", "4:1", "--limit", "x"], ["argument --limit: invalid int value: 'x'"]),
    (["calc", "x", "--let", "1bad=3"], ["--let expects NAME=VALUE with NAME an identifier, got '1bad=3'"]),
    (["formula", "L", "--let", "L=4:1", "--name", "Q=(a)"], ["--name expects VAR=TREE with VAR bound by --let"]),
    (["formula", "size(4:1)"], ["formula: the expression gives 4, not a layout"]),
    (["formula", "4:1", "--names", "(a,b)"], ["(a,b) is not congruent to the shape 4"]),
    (["formula", "(4,8):(8,1)", "--names", "(a,a)"], ["sub-axis name 'a' is used twice in (a,a)"]),
    (["formula", "(4,8):(8,1)", "--names", "(a,lambda)"], ["'lambda' is not an identifier"]),
    (["formula", "(4,8):(8,1)", "--names", "(a,\u00e9)"], ["'\u00e9' is not an identifier"]),
    (["lint", "--mma-shape", "16,8", "--a", "1", "--b", "1", "--c", "1"],
     ["shape_mnk must be three positive integers (M,N,K), got (16, 8)"]),
    (["lint", "--mma-shape", "16,8,x", "--a", "1", "--b", "1", "--c", "1"],
     ["--mma-shape expects three integers M,N,K, got '16,8,x'"]),
    (["lint", "--mma-shape", "16,8,16", "--a", "4:1"], ["--mma-shape needs the three layouts --a, --b and --c"]),
    (["lint", "NoSuchAtom"], ["unknown MMA atom 'NoSuchAtom'"]),
    (["derive", "retile-d", "--atom-layout", "a,b,c"], ["atom layout must be a shape of positive integers"]),
    (["derive", "retile-d", "--values", "0"], ["the fragment's value count must be a positive integer, got 0"]),
    (["derive", "retile-d", "--contrast", "3"], ["upcast<3>", "Divisibility condition", "N = 3"]),
    (["derive", "retile-d", "--operand", "C", "--copy-atom", "SM75_U32x4_LDSM_N"],
     ["TiledCopy uses too few vals for selected CopyAtom", "multiple of 8"]),
    (["derive", "-o", "/proc/no/such/dir/proof.md"], ["cannot write /proc/no/such/dir/proof.md"]),
    (["derive", "tv", "--mma", "NOPE"], ["unknown MMA atom 'NOPE'"]),
    (["derive", "expr", "x", "--name", "F=(a,b)"], ["names given for 'F', which no --let binds"]),
    (["atoms", "--copy", "--show", "SM75_U32x2_LDSM_N", "--value-type", "double"],
     ["CopyOperation is not valid for Dst of ValType"]),
    (["hwcheck", "--evidence-out", "x"], ["--evidence-out needs --results"]),
    (["hwcheck", "--user-atom", "x"], ["--user-atom needs --base INSTR"]),
    (["hwcheck", "--results", "/no/such/results.jsonl"], ["results: cannot read /no/such/results.jsonl"]),
    (["hwcheck", "--all", "--trials", "0", "--emit", "/no/such/dir"], ["trials must be in 1..64, got 0"]),
    (["nosuchcommand"], ["invalid choice: 'nosuchcommand'"]),
    (["calc"], ["the following arguments are required: expr"]),
]


@pytest.mark.parametrize("argv,fragments", CLI_CASES, ids=[" ".join(a[:3]) for a, _ in CLI_CASES])
def test_cli_argument_preconditions(argv, fragments):
    code, out, err = run_cli(argv)
    check_exit(argv, code, err)
    assert code == 2, (argv, out, err)
    for fragment in fragments:
        assert fragment in err, (fragment, err)


SUBPROCESS = [CLI_CASES[0][0], CLI_CASES[12][0], ["calc", CASES[0][1]], ["calc", CASES[5][1]],
              ["calc", "append<100000000>(4:1)"], ["derive", "retile-d", "--contrast", "3"]]


@pytest.mark.parametrize("argv", SUBPROCESS, ids=[" ".join(a[:2]) for a in SUBPROCESS])
def test_cli_preconditions_in_a_subprocess(argv):
    code, out, err = run_cli_process(argv, env=dict(os.environ, LC_ALL="C.UTF-8"), timeout=120)
    assert code == 2 and out == ""
    assert err.startswith("symcute") and err.count("\n") == 1 and "Traceback" not in err


# --- Python-API preconditions outside the expression language ----------------------------------------------

def test_retile_with_bad_fragments():
    tiled = symcute.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1))
    thr = symcute.make_tiled_copy_A(symcute.copy_atom("SM75_U32x2_LDSM_N", "half_t"), tiled).get_slice(0)
    for frag, fragments in [("8:1", ["retile(8:1)", "Too many modes in tiler", "rank 1"]),
                            ("((2,2,2),1):((1,2,4),0)", ["Too many modes in tiler", "rank 2"]),
                            ("(3,1,1):(1,0,0)", ["upcast<384>", "Divisibility condition", "N = 384"]),
                            ("(0,1,1):(1,0,0)", ["upcast requires a positive integer N, got 0"])]:
        with pytest.raises(LayoutError) as info:
            thr.retile_D(Layout.parse(frag))
        for fragment in fragments:
            assert fragment in str(info.value), (frag, fragment, str(info.value))
    with pytest.raises(SymcuteError, match="thread index must be a non-negative integer, got -1"):
        symcute.make_tiled_copy_A(symcute.copy_atom("SM75_U32x2_LDSM_N", "half_t"), tiled).get_slice(-1)


def test_prove_with_mismatched_domains_refutes_with_the_sizes():
    import symcute.symbolic as sym
    proof = sym.prove(Layout.parse("(4,8):(8,1)"), Layout.parse("16:1"))
    assert proof.verdict == "refuted" and proof.method == "domains"
    assert proof.counterexample == {"index": 16, "size(lhs)": 32, "size(rhs)": 16}
    with pytest.raises(SymcuteError, match=r"domain must be a positive integer, got 'x'"):
        sym.prove(Layout.parse("4:1"), Layout.parse("4:1"), domain="x")
    from symcute.symbolic.limits import set_exhaustive_limit
    with pytest.raises(SymcuteError, match=r"exhaustive limit must be a non-negative integer, got -1"):
        set_exhaustive_limit(-1)
    with pytest.raises(SymcuteError, match=r"exhaustive limit must be a non-negative integer, got -1"):
        sym.is_injective(Layout.parse("(3,5):(5,3)"), limit=-1)  # no refinement: the limit is consulted


@pytest.mark.parametrize("names,fragments", [
    (("a",), ["(a) is not congruent to the shape (4,8)"]),
    (("a", 1), ["sub-axis name 1 is not a string"]),
    (("a", "a"), ["sub-axis name 'a' is used twice"]),
    (("a", "for"), ["'for' is not an ASCII identifier"]),
    (("a", "b c"), ["'b c' is not an ASCII identifier"]),
    ("(a,b", ["expected ',' or ')'", "end of input"]),
])
def test_bad_names(names, fragments):
    with pytest.raises(SymcuteError) as info:
        symcute.formula(Layout.parse("(4,8):(8,1)"), names=names)
    for fragment in fragments:
        assert fragment in str(info.value), (fragment, str(info.value))


def test_swizzle_construction_preconditions():
    from symcute import composition, downcast, upcast
    from symcute.core.composed import ComposedLayout
    from symcute.core.swizzle import Swizzle, make_swizzle
    C = ComposedLayout(Swizzle(3, 4, 3), 0, Layout.parse("(8,64):(64,1)"))
    for fn, pattern in [
        (lambda: composition(Swizzle(2, 0, 2), Swizzle(2, 0, 3)),
         r"composition\(Sw<2,0,2>, Sw<2,0,3>\): Can only merge swizzles of the same shift"),
        (lambda: upcast(C, 3), r"upcast<3>\(Sw<3,4,3>\): N must be a power of two"),
        (lambda: downcast(C, 6), r"downcast<6>\(Sw<3,4,3>\): N must be a power of two"),
        (lambda: make_swizzle(0b110, 0b011), r"make_swizzle<6,3>: Swizzle<2,0,1>: abs\(SShift\) must be more than BBits"),
        (lambda: Swizzle(3, 4, 3)(1.5), r"Sw<3,4,3> applies to integer offsets, got 1.5"),
        (lambda: Swizzle("3", 4, 3), r"Swizzle B must be an integer, got '3'"),
    ]:
        with pytest.raises(LayoutError, match=pattern):
            fn()
