"""Ground truth for symcute: real CuTe (the CUTLASS C++ headers) compiled with g++.

symcute's differential tests compare its results with what CuTe itself
prints. This package makes that cheap:

* :mod:`symcute.oracle.notation` reads CuTe's printed notation
  (``((4,8),2):((1,4),32)``, ``1@0``, ``Sw<2,0,3> o 0 o 8:1``, tilers with ``_``);
* :mod:`symcute.oracle.cpp` turns it into C++ building the same static value
  (:func:`cpp_value`, :func:`cpp_type`, :func:`cpp_dynamic`,
  :func:`cpp_as_printed`, :func:`cpp_call`);
* :class:`CuteOracle` compiles hundreds of cases per g++ run (with a cached
  precompiled header and an on-disk result memo), runs them, and returns one
  :class:`CaseResult` per case: ``ok`` with CuTe's printed ``output``, or
  ``rejected`` with the compiler's reason (CuTe's static_assert text), or
  ``crashed`` at run time. ``run`` takes C++ statements; ``run_exprs`` takes
  expressions and prints them with ``SYMCUTE_PRINT`` (same text as
  ``cute::print``, ~2.5x cheaper to compile for static values).

Usage::

    from symcute.oracle import CuteOracle, OracleUnavailable, cpp_call, cpp_value
    oracle = CuteOracle()     # OracleUnavailable says why if g++/headers are missing
    res = oracle.run({"r": "print(right_inverse(%s));" % cpp_value("(4,2):(1,4)")})
    assert res["r"].output == "8:1"   # all-static (4,2):(1,4) is 8:1
    res = oracle.run_exprs({"c": cpp_call("composition", "(4,6,8):(1,10,100)", "2:6")})
    assert res["c"].rejected and res["c"].condition == "Stride Divisibility Condition"

How it works, its timings and environment variables: ``docs/oracle.md``.
"""

from symcute.oracle.cpp import cpp_as_printed, cpp_call, cpp_dynamic, cpp_type, cpp_value
from symcute.oracle.program import normalize
from symcute.oracle.runner import CaseResult, CuteOracle, RunStats
from symcute.oracle.toolchain import OracleError, OracleUnavailable

__all__ = [
    "CaseResult",
    "CuteOracle",
    "OracleError",
    "OracleUnavailable",
    "RunStats",
    "cpp_as_printed",
    "cpp_call",
    "cpp_dynamic",
    "cpp_type",
    "cpp_value",
    "normalize",
]
