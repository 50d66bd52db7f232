"""CuTe's composition over named digits, with CuTe's own contract checked on the value it returns.

``sym.composition(A, B)`` is :func:`symcute.symbolic.ops.composition` (CuTe's
value, named), marked with the quick check of composition's contract
(``R(c) == A(B(c))`` on B's domain, :mod:`symcute.symbolic.contracts`, bounded
as calc's warning is: enumeration up to 2^12 inputs, Z3 1 s, ISL 2 s, 3 s in all).
When CuTe's value breaks it (CUTLASS #3177: ``composition((4,6,8):(2,3,5), 6:3)``
is ``(2,3):(6,3)``, 3 at index 2 where ``A(B(2)) = 7``), the result is still
CuTe's value, with ``breaks_contract`` True, the refutation in ``contract`` and
the true ``A o B`` as a floor/mod closed form in ``true_form``.
"""

from __future__ import annotations

from ..core.layout import Layout
from ..errors import SymcuteError
from . import ops
from .formula import Formula


def _core_value(x):
    """The core value of a composition operand (a Formula's layout; tilers mode by mode)."""
    if isinstance(x, Formula):
        return x.layout
    if isinstance(x, tuple):
        return tuple(_core_value(v) for v in x)
    return x


def composition(lhs, rhs, names=None) -> Formula:
    """CuTe's ``composition(lhs, rhs)`` over named digits, marked with its contract check (see module doc).

    @post result.layout == core.composition(lhs.layout, rhs.layout)
    @post result.contract is the quick check's Proof (None: the check did not finish within its bound)
    @post result.breaks_contract implies result.true_form(c) == lhs(rhs(c)) for every c in rhs's domain
    """
    from .. import core
    from .contracts import evaluate_checked, true_composition
    result = ops.composition(lhs, rhs, names)
    A, B = _core_value(lhs), _core_value(rhs)
    if not isinstance(A, Layout):
        return result
    _value, proof = evaluate_checked(lambda: core.composition(A, B))
    if proof is None:
        return result
    true = None
    if proof.refuted and isinstance(B, (Layout, int)) and not isinstance(B, bool):
        try:
            true = true_composition(A, B if isinstance(B, Layout) else Layout(B))
        except SymcuteError:
            true = None
    return result.checked(proof, true)
