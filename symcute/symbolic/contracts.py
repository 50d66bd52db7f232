"""CuTe's own contracts, checked: does the value CuTe returns meet the operation's postcondition?

symcute returns what CuTe returns, even where that value is mathematically
wrong (CUTLASS #3177: ``composition((4,6,8):(2,3,5), 6:3)`` is ``(2,3):(6,3)``,
whose value at 2 is 3 while ``A(B(2)) = 7``).  ``contract(op, *args)`` computes
CuTe's result with core and proves, refutes (with a counterexample re-evaluated
by core) or leaves unknown the postcondition CuTe documents for ``op``
(``cute/layout.hpp``, CUTLASS 4.2):

==================  =======================================================================
composition(A, B)   ``R(c) == A(B(c))`` for every ``c`` in B's domain (by mode for a tiler)
right_inverse(L)    ``L(R(i)) == i`` for ``i < size(R)``
left_inverse(L)     ``L(R(L(i))) == L(i)`` for ``i < size(L)`` (a quasi-inverse; a left inverse
                    when L is injective)
complement(L, M)    ``R`` ordered (``R(i-1) < R(i)``), ``R(i) != L(j)`` for ``i >= 1``, and
                    ``size(R) >= M / size(filter(L))``
logical_divide      ``D(c) == L(B(c))`` with ``B = make_layout(T, complement(T, size(L)))``
logical_product     mode 1 is ``complement(A, size(A)*cosize(B)) o B`` as a function
coalesce, filter    coalesce: the same function; filter: the same image, no stride-0 mode
upcast/downcast     the same memory in units N times larger/smaller: image(upcast<N>(L)) ==
                    { floor(v / N) : v in image(L) }, image(downcast<N>(L)) == { N v + j }
recast_layout       upcast or downcast by the ratio of the two type widths
==================  =======================================================================

The answer is a :class:`Proof` whose statement names CuTe's value; a refuted
contract's counterexample says where the value breaks it.  The composition
contract also gives the true ``A o B`` as a floor/mod closed form
(:func:`true_composition`), beside CuTe's value.
"""

from __future__ import annotations

import contextlib
import signal
import threading

from ..core import int_tuple as it
from ..core.layout import Layout, format_int_tuple
from ..errors import SymcuteError
from .linear import Compose
from .proof import Certificate, Proof
from .vocabulary import Column, CounterexampleKey as Key, Method, Verdict
from .table import Table

CONTRACT_OPS = ("composition", "right_inverse", "left_inverse", "complement", "logical_divide",
                "logical_product", "coalesce", "filter", "upcast", "downcast", "recast_layout")


def contract(op: str, *args, limit: int | None = None) -> Proof:
    """Check CuTe's value of ``op(*args)`` against its postcondition (see the module table).

    CuTe's refusals stay refusals: an input CuTe rejects raises the same LayoutError here.
    """
    from .. import core
    if op not in CONTRACT_OPS:
        raise SymcuteError(f"contract: no contract for {op!r}; known: {', '.join(CONTRACT_OPS)}")
    check = globals()[f"_{op}"]
    return check(core, *args, limit=limit)


def _named(proof: Proof, statement: str) -> Proof:
    return Proof(statement, proof.verdict, proof.method, proof.certificate, proof.counterexample, proof.reason)


def _all(statement: str, proofs) -> Proof:
    """The conjunction: the first refuted part, else the first unknown, else proved."""
    proofs = list(proofs)
    for verdict in (Verdict.REFUTED, Verdict.UNKNOWN):
        for p in proofs:
            if p.verdict == verdict:
                return Proof(statement, verdict, p.method, p.certificate, p.counterexample,
                             f"{p.statement}: {p.reason}" if p.reason else p.statement)
    methods = sorted({p.method for p in proofs})
    conds = tuple(p.statement for p in proofs)
    return Proof(statement, Verdict.PROVED, "+".join(methods) or "refinement",
                 Certificate("conjunction", Table([Column.PART, Column.VERDICT, Column.METHOD],
                                                  [[p.statement, p.verdict, p.method] for p in proofs]), conds))


# --- composition ------------------------------------------------------------------------

def _tiler_modes(B):
    """A tiler as layouts, one per mode (an integer ``n`` is ``n:1``)."""
    from ..core.layout import Underscore
    out = []
    for b in B:
        if isinstance(b, Underscore):
            out.append(None)
        elif isinstance(b, int):
            out.append(Layout(b))
        else:
            out.append(b)
    return out


def _composition(core, A, B, limit=None) -> Proof:
    from . import prover
    R = core.composition(A, B)
    if isinstance(B, tuple):  # by mode: R_i == A_i o B_i (a `_` keeps A's mode as it is)
        parts = []
        for i, b in enumerate(_tiler_modes(B)):
            if b is None:
                continue
            if isinstance(b, tuple) or not isinstance(b, Layout):  # nested modes compose by mode again
                parts.append(_composition(core, A[i], b, limit))
                continue
            parts.append(_composition_layout(prover, R[i], A[i], b, limit))
        return _all(f"composition({A}, {format_int_tuple(B)}) = {R} meets R(c) == A(B(c)) mode by mode", parts)
    if isinstance(B, int):
        B = Layout(B)
    if not isinstance(B, Layout):  # `_`: CuTe returns A itself
        return _named(prover.prove(R, A, limit=limit), f"composition({A}, _) = {R}: the same function as {A}")
    return _composition_layout(prover, R, A, B, limit)


def _composition_layout(prover, R, A, B, limit) -> Proof:
    n = B.size()
    statement = f"composition({A}, {B}) = {R}: R(c) == A(B(c)) for all 0 <= c < {n}"
    p = prover.prove(R, Compose(A, B), domain=n, limit=limit, labels=("R", "A(B)"))
    return _named(p, statement)


def true_composition(A, B):
    """The true function ``c -> A(B(c))`` on B's domain as a SymPy floor/mod closed form of the index ``c``
    (CuTe's value need not be it: see :func:`contract`).

    @pre A and B are layouts and B's values are non-negative (A's index form is CuTe's value there)
    @post for every 0 <= c < size(B): result.subs(c, c) == A(B(c))
    """
    import sympy
    from .formula import formula
    if not isinstance(A, Layout) or not isinstance(B, Layout):
        raise SymcuteError(f"true_composition: A and B must be layouts, got {A} and {B}")
    if any(d < 0 for d in it.flatten_to_tuple(B.stride) if type(d) is int):
        raise SymcuteError(f"true_composition: {B} has a negative stride; A's index form covers q >= 0 only")
    q = sympy.Symbol("q", integer=True, nonnegative=True)
    return formula(A).index_form("q").subs(q, formula(B).index_form("c"))


# --- inverses ------------------------------------------------------------------------------

def _right_inverse(core, L, limit=None) -> Proof:
    from . import prover
    R = core.right_inverse(L)
    p = prover.prove_right_inverse(L, R, limit=limit)
    return _named(p, f"right_inverse({L}) = {R}: L(R(i)) == i for all 0 <= i < {R.size()}")


def _left_inverse(core, L, limit=None) -> Proof:
    from . import prover
    R = core.left_inverse(L)
    n = L.size()
    p = prover.prove(Compose(L, Compose(R, L)), L, domain=n, limit=limit, labels=("L(R(L(i)))", "L(i)"))
    return _named(p, f"left_inverse({L}) = {R}: L(R(L(i))) == L(i) for all 0 <= i < {n}")


# --- complement -----------------------------------------------------------------------------

def _complement(core, L, cotarget=None, limit=None) -> Proof:
    from . import prover
    R = core.complement(L) if cotarget is None else core.complement(L, cotarget)
    hi = core.cosize(L) if cotarget is None else it.product(cotarget) if isinstance(cotarget, tuple) else cotarget
    statement = f"complement({L}{'' if cotarget is None else f', {format_int_tuple(cotarget)}'}) = {R} meets CuTe's @post"
    parts = []
    size_filtered = core.filter(L).size()
    need = hi // size_filtered if size_filtered else hi
    if R.size() >= need:
        parts.append(Proof(f"size(R) = {R.size()} >= {hi} / size(filter(L)) = {need}", Verdict.PROVED, Method.ARITHMETIC))
    else:
        parts.append(Proof(f"size(R) = {R.size()} >= {hi} / size(filter(L)) = {need}", Verdict.REFUTED, Method.ARITHMETIC,
                           counterexample={"size(R)": R.size(), "needed": need}))
    n = R.size()
    if n > 1:  # ordered: R(i) - R(i-1) > 0, i.e. the differences layout is positive
        parts.append(_ordered(prover, R, limit))
        parts.append(_disjoint_from(prover, R, L, limit))
    return _all(statement, parts)


def _ordered(prover, R, limit) -> Proof:
    from . import exact, exhaustive
    n = R.size()
    statement = f"R(i-1) < R(i) for all 1 <= i < {n}"
    if n <= _small(limit):
        v = [R(i) for i in range(n)]
        bad = next((i for i in range(1, n) if not v[i - 1] < v[i]), None)
        return _enumerated(statement, n, bad, lambda i: {Key.INDEX: i, "R(i-1)": v[i - 1], "R(i)": v[i]})
    holds, x, evidence, method = exact.decide("increasing", R, n)
    return _decided(statement, holds, x, evidence, method,
                    lambda i: {Key.INDEX: i, "R(i-1)": R(i - 1), "R(i)": R(i)}, check=lambda i: not R(i - 1) < R(i))


def _disjoint_from(prover, R, L, limit) -> Proof:
    from . import exact
    n, m = R.size(), L.size()
    statement = f"R(i) != L(j) for all 1 <= i < {n}, 0 <= j < {m}"
    if n * m <= _small(limit) * 4:
        image = {L(j): j for j in range(m)}
        bad = next((i for i in range(1, n) if R(i) in image), None)
        return _enumerated(statement, n, bad, lambda i: {Key.INDEX: i, "R(i)": R(i), "L index": image[R(i)]})
    # from i = 1: R(0) is always 0, which L(0) is too
    holds, pair, evidence, method = exact.decide("disjoint", R, n, L, m, 1)
    return _decided(statement, holds, pair, evidence, method,
                    lambda p: {Key.INDEX: p[0], "R(i)": R(p[0]), "L index": p[1]},
                    check=lambda p: R(p[0]) == L(p[1]))


def _small(limit) -> int:
    from .limits import exhaustive_limit
    return min(exhaustive_limit(limit), 1 << 14)


def _enumerated(statement, n, bad, witness) -> Proof:
    cert = Certificate("exhaustive", Table([Column.INPUTS, Column.FAILURES], [[n, 0 if bad is None else "≥1"]]),
                       (f"evaluated at all {n} inputs with core",))
    if bad is None:
        return Proof(statement, Verdict.PROVED, Method.EXHAUSTIVE, cert)
    return Proof(statement, Verdict.REFUTED, Method.EXHAUSTIVE, cert, witness(bad), reason="evaluated with core")


def _decided(statement, holds, w, evidence, method, witness, check) -> Proof:
    cert = Certificate(method, Table([Column.EXACT_QUERY, Column.RESULT], [[statement, evidence]]), ())
    if holds is None:
        return Proof(statement, Verdict.UNKNOWN, Method.NONE, reason=evidence)
    if holds:
        return Proof(statement, Verdict.PROVED, method, cert)
    if not check(w):
        raise AssertionError(f"contract: the back-end's witness {w} does not break {statement}")
    return Proof(statement, Verdict.REFUTED, method, cert, witness(w), reason="re-evaluated with core")


# --- divide, product, coalesce, filter --------------------------------------------------------

def _logical_divide(core, L, T, limit=None) -> Proof:
    from . import prover
    D = core.logical_divide(L, T)
    if isinstance(T, tuple):
        parts = []
        for i, t in enumerate(_tiler_modes(T)):
            if t is None:
                continue
            if isinstance(t, tuple):  # a nested tiler mode divides by mode again, as CuTe recurses
                parts.append(_logical_divide(core, L[i], t, limit))
                continue
            parts.append(_divide_layout(core, prover, D[i], L[i], t, limit))
        return _all(f"logical_divide({L}, {format_int_tuple(T)}) = {D} meets the definition mode by mode", parts)
    if not isinstance(T, (int, Layout)):  # `_`: CuTe returns L itself
        return _named(prover.prove(D, L, limit=limit), f"logical_divide({L}, _) = {D}: the same function as {L}")
    return _divide_layout(core, prover, D, L, Layout(T) if isinstance(T, int) else T, limit)


def _divide_layout(core, prover, D, L, T, limit) -> Proof:
    B = core.make_layout(T, core.complement(T, L.size()))
    n = D.size()
    statement = f"logical_divide({L}, {T}) = {D}: D(c) == L(B(c)) for all 0 <= c < {n}, B = {B}"
    return _named(prover.prove(D, Compose(L, B), domain=n, limit=limit, labels=("D", "L(B)")), statement)


def _logical_product(core, A, B, limit=None) -> Proof:
    from . import prover
    P = core.logical_product(A, B)
    if isinstance(B, tuple):
        raise SymcuteError("contract: logical_product with a tiler is checked mode by mode; give one layout")
    if isinstance(B, int):  # an integer tile n is the layout n:1, as core reads it
        B = Layout(B)
    C = core.complement(A, A.size() * core.cosize(B))
    parts = [_named(prover.prove(P[0], A, limit=limit), f"mode 0 of {P} == {A}"),
             _named(prover.prove(P[1], Compose(C, B), domain=B.size(), limit=limit, labels=("P[1]", "C(B)")),
                    f"mode 1 of {P} == complement(A, {A.size() * core.cosize(B)}) o B = {C} o {B}")]
    return _all(f"logical_product({A}, {B}) = {P} meets its definition", parts)


def _coalesce(core, L, limit=None) -> Proof:
    from . import prover
    C = core.coalesce(L)
    return _named(prover.prove(L, C, limit=limit), f"coalesce({L}) = {C}: the same function on [0, {L.size()})")


def _filter(core, L, limit=None) -> Proof:
    from . import exact
    F = core.filter(L)
    statement = f"filter({L}) = {F}: the same image, no stride-0 mode"
    zero = [d for s, d in zip(it.flatten_to_tuple(F.shape), it.flatten_to_tuple(F.stride)) if s != 1 and d == 0]
    parts = [Proof("no stride-0 mode of extent > 1", Verdict.REFUTED if zero else Verdict.PROVED, Method.INSPECTION)]
    parts.append(_same_image(L, F, 1, 1, limit))
    return _all(statement, parts)


# --- recast ----------------------------------------------------------------------------------

def _upcast(core, L, n, limit=None) -> Proof:
    U = core.upcast(L, n)
    return _recast_claim(L, f"upcast<{n}>({L}) = {U}: the same memory in units of {n}", U, n, 1, limit)


def _downcast(core, L, n, limit=None) -> Proof:
    D = core.downcast(L, n)
    return _recast_claim(L, f"downcast<{n}>({L}) = {D}: the same memory in units of 1/{n}", D, 1, n, limit)


def _recast_layout(core, L, old, new, limit=None) -> Proof:
    from ..core.recast import recast_ratio
    R = core.recast_layout(L, old, new)
    up, down = recast_ratio(old, new)   # CuTe: upcast<up> then downcast<down>
    return _recast_claim(L, f"recast_layout<{old},{new}>({L}) = {R}: the same memory", R, up, down, limit)


def _recast_claim(L, statement, R, up, down, limit) -> Proof:
    """CuTe documents no @post for the casts; their meaning (the same bytes in other units) is a claim
    about the memory of a layout of distinct elements: for an injective layout with non-negative
    strides.  Elsewhere the claim is vacuous, and said so."""
    from . import prover
    if any(type(d) is int and d < 0 for d in it.flatten_to_tuple(L.stride)) or not prover.is_injective(L).proved:
        return Proof(f"if {L} is injective with non-negative strides, then {statement}", Verdict.PROVED, Method.VACUOUS,
                     reason="the precondition does not hold (a negative stride, or L not proved injective): "
                            "the claim says nothing here")
    return _all(statement, [_same_image(L, R, up, down, limit)])


def _scaled_text(up: int, down: int) -> str:
    v = "v" if up == 1 else f"floor(v / {up})"
    return f"{{ {v} : v in image(L) }}" if down == 1 else f"{{ {down}*{v} + j : v in image(L), 0 <= j < {down} }}"


def _same_image(L, R, up: int, down: int, limit) -> Proof:
    """image(R) == { down * floor(v / up) + j : v in image(L), 0 <= j < down } (an upcast by ``up``, then a
    downcast by ``down``: the same bytes in other units)."""
    from . import exact
    statement = f"image(R) == {_scaled_text(up, down)}"
    if L.size() * down + R.size() <= _small(limit) * 16:
        want = {down * _floor(L(i), up) + j for i in range(L.size()) for j in range(down)}
        got = {R(i) for i in range(R.size())}
        if got == want:
            return _enumerated(statement, L.size() + R.size(), None, None)
        extra, missing = sorted(got - want), sorted(want - got)
        ce = {"in image(R) only": extra[:3]} if extra else {}
        if missing:
            ce["missing from image(R)"] = missing[:3]
        return Proof(statement, Verdict.REFUTED, Method.EXHAUSTIVE, None, ce, reason="both images enumerated with core")
    holds, w, evidence, method = exact.decide("same_image", L, R, up, down)
    if holds is None:
        return Proof(statement, Verdict.UNKNOWN, Method.NONE, reason=evidence)
    cert = Certificate(method, Table([Column.EXACT_QUERY, Column.RESULT], [[statement, evidence]]), ())
    if holds:
        return Proof(statement, Verdict.PROVED, method, cert)
    return Proof(statement, Verdict.REFUTED, method, cert, {Key.VALUE: w}, reason="in one image and not the other")


def _floor(v: int, n: int) -> int:
    return v // n


# --- checking the values a computation returns -------------------------------------------------

class _Watcher:
    """A recorder for ``core.hook`` that keeps the top-level traced calls (rule, args, kwargs, result)."""

    def __init__(self):
        self.calls = []
        self.depth = 0

    def call(self, rule, fn, args, kwargs):
        self.depth += 1
        try:
            result = fn(*args, **kwargs)
        finally:
            self.depth -= 1
        if self.depth == 0:
            self.calls.append((rule, args, kwargs, result))
        return result

    def note(self, **details) -> None:
        pass


def evaluate_checked(compute, z3_ms: int = 1000, isl_seconds: float = 2.0):
    """``compute()`` and the contract of the call that produced its value: ``(value, proof or None)``.

    The check is quick: enumeration up to 2^12 inputs, Z3 and ISL within the given bounds (an
    undecided contract gives no warning).

    The proof is None when the value does not come from an operation with a contract (or the call
    had keyword arguments this module does not take); otherwise it is the contract's Proof.
    """
    from ..core import hook
    watcher = _Watcher()
    token = hook.current.set(watcher)
    try:
        value = compute()
    finally:
        hook.current.reset(token)
    for rule, args, kwargs, result in reversed(watcher.calls):
        if result is value and rule in CONTRACT_OPS and not kwargs:
            from . import exact
            if _flat_modes((*args, result)) > exact.MAX_MODES:
                # the quick check must stay cheaper than the computation it follows: past the
                # exact back-ends' mode bound even enumerating a few inputs costs seconds (big ints)
                return value, None
            try:
                with exact.time_budget(z3_ms, isl_seconds), _wall_clock_bound(QUICK_CHECK_SECONDS):
                    return value, contract(rule, *args, limit=1 << 12)
            except _CheckTookTooLong:
                return value, None
            except (SymcuteError, TypeError, AttributeError, IndexError, ValueError):
                # the quick check follows a value CuTe computes: an argument form the contract does not
                # take (tests/symbolic/test_contracts.py pins the forms it does) leaves that value unchecked
                return value, None
    return value, None


# The whole quick check, whatever back-end it reaches, stays within this many seconds
# (complement(-4:1099511627776)'s check ran for minutes before this bound; found by the fuzz run).
QUICK_CHECK_SECONDS = 3.0


class _CheckTookTooLong(BaseException):
    """Raised by the timer inside the quick check only (a BaseException, so no handler below swallows it)."""


@contextlib.contextmanager
def _wall_clock_bound(seconds: float):
    if threading.current_thread() is not threading.main_thread():
        yield  # signals reach the main thread only; the back-ends' own budgets still apply
        return

    def expire(signum, frame):
        raise _CheckTookTooLong()
    old = signal.signal(signal.SIGALRM, expire)
    previous = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if previous[0]:  # give an outer timer (the fuzz harness, a caller's) its remaining time back
            signal.setitimer(signal.ITIMER_REAL, max(previous[0] - seconds, 1e-3), previous[1])


def _flat_modes(values) -> int:
    """The largest number of flat modes among the layouts in ``values`` (0 when there are none)."""
    return max((len(it.flatten_to_tuple(v.shape)) for v in values if isinstance(v, Layout)), default=0)


def warning_line(proof: Proof) -> str:
    """One line for a broken contract: ``CuTe's value ... breaks ...: at index 2, R = 3 but A(B) = 7``."""
    ce = proof.counterexample or {}
    shown = ", ".join(f"{k} = {v}" for k, v in ce.items() if not k.endswith("steps") and k != "digit")
    return f"CuTe's value breaks its contract: {proof.statement} is refuted ({shown})"
