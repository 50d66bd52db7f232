"""Issue 31's reproducers: each is a clean outcome now (a value, or one line on stderr and exit 2).

They were tracebacks (TypeError, OverflowError, ValueError, IndexError, MemoryError), clean errors
carrying Python's own message (``tuple index out of range``), or inputs of unbounded cost (a printer's
zero extent, a 2^20 CTA tile, 17 parameters, a 2^24-element smem tile).  The bounds are LimitErrors
that name the limit; the costs are measured by the fuzz run (tests/robustness/fuzz31.py), not here.
"""

import pytest

from ..cli_runner import run_cli
from .fuzz31 import INTERNAL

PARAMS = [a for i in range(17) for a in ("--param", f"M{i}:2")]
CASES = [
    (["prove", "equal(L, L)", "--let", "L=(1,(5,1)):(2@0,(8,8))"], 2, "basis stride"),
    (["prove", "bijective(L)", "--let", "L=(2,2):(1@0,1@1)"], 2, "stride"),
    (["prove", "bijective(L)", "--let", "L=(18446744073709551616,2):(1,18446744073709551616)"], 0, ""),
    (["calc", "upcast(4:1, 18446744073709551616)"], 0, ""),
    (["prove", "aligned", "4:1", "--alignment", "18446744073709551616"], 0, ""),
    (["prove", "contiguous", "4:1", "--step", "18446744073709551616"], 1, ""),
    (["bank", "--smem", "(32,-64):(64,1)", "--fix"], 2, "extent -64"),
    (["bank", "--smem", "(1000000000000000000000000000000,0):(2,4)"], 2, "extent 0"),
    (["bank", "--smem", "(8,64):(64,1)", "--tv", "((),()):((),())", "--value-bits", "16"], 2, "no modes"),
    (["bank", "--smem", "(4096,4096):(4096,1)", "--fix"], 2, "MAX_ELEMENTS"),
    (["bank", "--smem", "4:1", "--tv", "(16,4):(1,18446744073709551616)", "--value-bits", "16", "--fix"], 2, "2^40"),
    (["calc", "print_layout((0,1099511627776):(1,1))"], 2, "MAX_CELLS"),
    (["calc", "print_tensor(make_identity_tensor((0,4294967296,4)))"], 2, "MAX_CELLS"),
    (["calc", "print_tensor(make_identity_tensor((32,0,-1,4294967296)))"], 2, "MAX_CELLS"),
    (["calc", "print_latex((0,1099511627776):(1,1))"], 2, "1099511627776"),
    (["calc", "print_latex((0,100000):(1,1))"], 2, "limit"),
    (["derive", "gmem", "--tile", "1048576,1048576"], 2, "MAX_TILE"),
    (["derive", "gmem", "--tile", "32,1000000000000000000000000000000"], 2, "MAX_TILE"),
    (["derive", "gmem", "--atom-layout", "64,64,1"], 2, "MAX_STATIC_POINTS"),   # 86 s of CPU before the limit
    (["derive", "gmem", "--tile", "1024,1024"], 2, "MAX_STATIC_POINTS"),
    (["derive", "swizzle", "Sw<3,4,3> o 0 o (4096,4096):(4096,1)"], 2, "MAX_TILE_ELEMENTS"),
    (["calc", "zipped_divide(make_layout((M0,M1)), (2,2))", *PARAMS], 2, "MAX_PARAMS"),
    (["calc", "depth((32,1), 128)"], 2, "not a valid call"),
    (["calc", "take<2,-4>((((1,4))))"], 2, "static_assert(B <= E)"),   # CuTe's tuple take refuses B > E
    (["calc", "get<4>(12157665459056928801)"], 2, ""),
    (["calc", "right_inverse(4:1, 2)"], 2, "number of arguments"),
]


@pytest.mark.parametrize("argv,code,words", CASES, ids=[" ".join(c[0])[:60] for c in CASES])
def test_reproducer_is_clean(argv, code, words):
    got, out, err = run_cli(argv)
    assert "Traceback" not in err
    if code == 2:
        assert got == 2 and err.count("\n") == 1 and words in err, err
        assert not INTERNAL.search(err), err
    else:
        assert got == code, (got, err)
