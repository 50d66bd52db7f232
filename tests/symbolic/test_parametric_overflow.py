"""CuTe's run-time integers are C++ ``int``: ``subs`` and ``cute_str`` warn where a run-time value does not fit."""

import warnings

import pytest

import symcute
from symcute.errors import IntOverflowWarning, SymcuteWarning
from symcute.symbolic import parametric as P
from symcute.symbolic.parametric.prover import prove_equal

INT_MAX = 2**31 - 1


def _layout():
    ps = P.params("M K", multiple_of={"K": 32})
    return P.zipped_divide(P.layout((ps["M"], ps["K"]), (ps["K"], 1), ps), (128, 32))


def test_a_stride_beyond_int_warns_and_keeps_the_exact_value():
    Z = _layout()   # ((128,32),(ceil_div(M,128),K/32)):((K,1),(128*K,32))
    with pytest.warns(IntOverflowWarning, match=r"stride leaf 128\*K = 8589934592 does not fit CuTe's 32-bit int"):
        L = Z.subs({"M": 256, "K": 2**26})
    assert L.stride[1][0] == 2**33   # exact, not wrapped
    with pytest.warns(IntOverflowWarning, match="8589934592"):
        Z.cute_str({"M": 256, "K": 2**26})


def test_a_parameter_beyond_int_warns():
    with pytest.warns(IntOverflowWarning, match="M = 2147483648"):
        _layout().subs({"M": 2**31, "K": 64})


def test_the_boundary_is_int_max():
    ps = P.params("N")
    L = P.layout((ps["N"], 2), (1, ps["N"]), ps)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert L.subs({"N": INT_MAX}).shape == (INT_MAX, 2)   # the largest int: no warning
        assert L.cute_str({"N": INT_MAX}) == f"({INT_MAX},_2):(_1,{INT_MAX})"
    with pytest.warns(IntOverflowWarning):
        P.layout((ps["N"], 2), (1, 2 * ps["N"]), ps).subs({"N": 2**30})   # stride 2^31


def test_static_leaves_and_small_values_do_not_warn():
    ps = P.params("M")
    L = P.layout((ps["M"], 2**40), (2**40, 1), ps)   # static Int<2^40>: a type, not a run-time int
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        L.subs({"M": 4})
        _layout().subs({"M": 256, "K": 2**20})


def test_a_dynamic_constant_beyond_int_warns_without_values():
    L = P.parse("(_2,4294967296):(_1,_2)", P.Params(()))
    with pytest.warns(IntOverflowWarning, match="4294967296"):
        L.cute_str()


def test_proofs_do_not_warn():
    # the prover instantiates the parameters to search for witnesses: not CuTe's run-time values
    ps = P.params("K", multiple_of={"K": 32})
    Z = P.zipped_divide(P.layout((64, ps["K"]), (ps["K"], 1), ps), (32, 32))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert prove_equal(Z, Z).verdict == "proved"


def test_the_warning_is_a_symcute_warning_exported_at_the_top():
    assert issubclass(IntOverflowWarning, SymcuteWarning) and issubclass(SymcuteWarning, UserWarning)
    assert symcute.IntOverflowWarning is IntOverflowWarning
