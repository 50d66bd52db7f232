"""Parameters and their side conditions: what is known about a run-time extent.

``params("M K", multiple_of={"M": 128}, at_least={"K": 32})`` declares named
positive integers.  Each parameter ``P`` with ``multiple_of=m`` is kept
internally as ``m * p`` over a fresh positive integer ``p`` (bounded by
``at_least`` / ``at_most``), so SymPy itself simplifies ``ceiling(M/128)``,
``Mod(M, 64)`` and ``floor(M*K/K)``; every expression is shown to the user in
the declared names again.

:meth:`Params.decide` answers a fact (a SymPy relation over the parameters)
for *every* admissible value, as a :class:`FactVerdict` whose ``verdict`` is the
prover's :class:`~symcute.symbolic.vocabulary.Verdict`: ``PROVED`` (a polynomial
certificate or Z3's unsat of "conditions and not fact"), ``REFUTED`` with an
admissible instantiation where the fact is false (Z3's model, re-evaluated
here), or ``UNKNOWN``.  Never a proof that was not made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .lazy_sympy import sympy

from ...errors import LayoutError, SymcuteError
from ..vocabulary import Phrase, Reason, Verdict

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*\Z")
Z3_TIMEOUT_MS = 500   # per fact; an answer Z3 does not find in time is unknown, never a guess
# the budget is spent as Z3 resource units at the rate of symcute.symbolic.z3_backend (a work budget: the
# same answer on any machine), the wall-clock stop only a safety net far past it
Z3_RLIMIT_PER_MS, Z3_SAFETY_FACTOR = 1_000, 20


@dataclass(frozen=True)
class FactVerdict:
    """The answer on one fact over the parameters: its ``verdict``, with ``witness`` (user values) when
    refuted, and ``how`` it was reached (a :class:`~symcute.symbolic.vocabulary.Phrase` of a ``Reason.FACT_*``
    member; its text is the member's)."""

    verdict: Verdict
    witness: dict | None = None
    how: Phrase | str = ""

    @property
    def proved(self) -> bool:
        return self.verdict is Verdict.PROVED


@dataclass(frozen=True)
class Param:
    """One declared parameter: ``name`` is a positive integer, a multiple of ``multiple``, in [lo, hi]."""

    name: str
    symbol: sympy.Symbol          # what the user writes (``M``)
    inner: sympy.Symbol           # ``M == multiple * inner``
    multiple: int = 1
    lo: int = 1
    hi: int | None = None

    def describe(self) -> str:
        parts = [f"{self.name} >= {self.lo}"]
        if self.hi is not None:
            parts.append(f"{self.name} <= {self.hi}")
        if self.multiple > 1:
            parts.append(f"{self.name} % {self.multiple} == 0")
        return ", ".join(parts)

    def inner_bounds(self) -> tuple[int, int | None]:
        lo = -(-self.lo // self.multiple)
        hi = None if self.hi is None else self.hi // self.multiple
        return max(lo, 1), hi


def _symbol(name: str) -> sympy.Symbol:
    return sympy.Symbol(name, integer=True, positive=True)


class Params:
    """A set of declared parameters; iterating gives their symbols in declaration order."""

    def __init__(self, params: tuple[Param, ...]):
        self._params = params
        self._by_name = {p.name: p for p in params}
        self._by_symbol = {p.symbol: p for p in params}
        self._to_inner = {p.symbol: p.multiple * p.inner for p in params}
        self._to_user = {p.inner: p.symbol / p.multiple for p in params}

    # --- access -----------------------------------------------------------------------
    def __iter__(self):
        return iter(p.symbol for p in self._params)

    def __len__(self) -> int:
        return len(self._params)

    def __getitem__(self, name: str) -> sympy.Symbol:
        return self._by_name[name].symbol

    @property
    def params(self) -> tuple[Param, ...]:
        return self._params

    def param(self, name: str) -> Param:
        return self._by_name[name]

    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self._params)

    def describe(self) -> list[str]:
        return [p.describe() for p in self._params]

    def __str__(self) -> str:
        return "; ".join(self.describe()) or "(no parameters)"

    def __eq__(self, other) -> bool:
        return isinstance(other, Params) and set(other._params) == set(self._params)

    def __hash__(self) -> int:
        return hash(frozenset(self._params))

    def union(self, other: "Params") -> "Params":
        """Both sets of declarations; the same name declared differently is an error."""
        if other is self or other == self:
            return self
        merged = dict(self._by_name)
        for p in other._params:
            q = merged.get(p.name)
            if q is not None and q != p:
                raise SymcuteError(f"parameter {p.name} is declared twice, as {q.describe()} and as {p.describe()}")
            merged[p.name] = p
        return Params(tuple(merged.values()))

    # --- conversion between the user's names and the inner form -------------------------
    def inner(self, expr) -> sympy.Expr:
        """``expr`` (over the declared symbols) in inner form; a foreign symbol is an error."""
        if isinstance(expr, bool) or not isinstance(expr, (int, sympy.Basic)):
            raise SymcuteError(f"{expr!r} is not an integer or an expression in parameters")
        expr = sympy.Integer(expr) if isinstance(expr, int) else expr
        for s in expr.free_symbols:
            if s not in self._by_symbol:
                raise SymcuteError(f"{s} is not a declared parameter (declared: {', '.join(self.names()) or 'none'})")
        return expr.xreplace(self._to_inner)

    def user(self, expr) -> sympy.Expr:
        return expr.xreplace(self._to_user) if isinstance(expr, sympy.Basic) else expr

    def inner_symbols(self) -> tuple[sympy.Symbol, ...]:
        return tuple(p.inner for p in self._params)

    # --- values ---------------------------------------------------------------------------
    def check_values(self, values: dict) -> dict:
        """``{inner symbol: int}`` for admissible user ``values`` (keys: names or symbols)."""
        given = {}
        for k, v in values.items():
            name = k if isinstance(k, str) else str(k)
            if name not in self._by_name:
                raise SymcuteError(f"subs: {name} is not a parameter of this layout (parameters: "
                                   f"{', '.join(self.names()) or 'none'})")
            if isinstance(v, bool) or not isinstance(v, (int, sympy.Integer)):
                raise SymcuteError(f"subs: {name} = {v!r} is not an integer")
            given[name] = int(v)
        out = {}
        for p in self._params:
            if p.name not in given:
                raise SymcuteError(f"subs: no value for parameter {p.name}")
            v = given[p.name]
            if v < p.lo or (p.hi is not None and v > p.hi) or v % p.multiple:
                raise SymcuteError(f"subs: {p.name} = {v} violates its side condition {p.describe()}")
            out[p.inner] = v // p.multiple
        return out

    def user_values(self, inner_values: dict) -> dict:
        return {p.name: p.multiple * int(inner_values[p.inner]) for p in self._params}

    def evaluate(self, expr, inner_values: dict) -> int:
        if not isinstance(expr, sympy.Basic):
            return expr
        v = expr.xreplace({s: sympy.Integer(x) for s, x in inner_values.items()})
        if not v.is_Integer:
            v = sympy.simplify(v)
        if not v.is_Integer:
            raise SymcuteError(f"{self.user(expr)} is not an integer at {self.user_values(inner_values)}")
        return int(v)

    def random_values(self, rng, span: int = 8) -> dict:
        """Admissible user values (for cross-checks): each inner value in [lo, lo + span) or up to hi."""
        out = {}
        for p in self._params:
            lo, hi = p.inner_bounds()
            top = lo + span - 1 if hi is None else min(hi, lo + span - 1)
            out[p.name] = p.multiple * rng.randint(lo, max(lo, top))
        return out

    # --- deciding facts ---------------------------------------------------------------------
    def decide(self, fact) -> FactVerdict:
        """``fact`` (a SymPy relation in inner form) for every admissible value; see the module doc."""
        if fact is sympy.true or fact is True:
            return FactVerdict(Verdict.PROVED, how=Phrase(Reason.FACT_EVALUATION))
        if fact is sympy.false or fact is False:
            return self._witness_any()
        return _decide_cached(self, fact)

    def _witness_any(self) -> FactVerdict:
        vals = {}
        for p in self._params:
            lo, _ = p.inner_bounds()
            vals[p.inner] = lo
        return FactVerdict(Verdict.REFUTED, self.user_values(vals), how=Phrase(Reason.FACT_EVALUATION))

    def _polynomial_nonnegative(self, expr) -> bool:
        """A certificate for ``expr >= 0``: after ``p = lo + n`` (n >= 0) every coefficient is >= 0."""
        if not all(s in self._by_inner() for s in expr.free_symbols):
            return False
        shift = {}
        fresh = []
        for s in expr.free_symbols:
            p = self._by_inner()[s]
            lo, _ = p.inner_bounds()
            n = sympy.Symbol(f"_n_{p.name}", integer=True, nonnegative=True)
            fresh.append(n)
            shift[s] = lo + n
        try:
            poly = sympy.Poly(sympy.expand(expr.xreplace(shift)), *fresh) if fresh else None
        except sympy.PolynomialError:
            return False
        if poly is None:
            return expr.is_number and expr >= 0
        if not all(c.is_Integer or c.is_Rational for c in poly.coeffs()):
            return False
        return all(c >= 0 for c in poly.coeffs())

    def _by_inner(self) -> dict:
        return {p.inner: p for p in self._params}


@lru_cache(maxsize=4096)
def _decide_cached(params: Params, fact) -> FactVerdict:
    # polynomial certificates first: free, and they cover most shape/stride comparisons
    rel = fact
    if isinstance(rel, (sympy.GreaterThan, sympy.StrictGreaterThan, sympy.LessThan, sympy.StrictLessThan)):
        if isinstance(rel, (sympy.GreaterThan, sympy.StrictGreaterThan)):
            diff = rel.lhs - rel.rhs
        else:
            diff = rel.rhs - rel.lhs
        if isinstance(rel, (sympy.StrictGreaterThan, sympy.StrictLessThan)):
            diff = diff - 1  # integers: a > b iff a - b - 1 >= 0
        if params._polynomial_nonnegative(diff):
            return FactVerdict(Verdict.PROVED, how=Phrase(Reason.FACT_POLYNOMIAL))
    from .z3_backend import decide_z3
    return decide_z3(params, fact)


MAX_PARAMS = 8   # parameters of one declaration (a GEMM has M, N, K and a batch)


def params(names, multiple_of: dict | None = None, at_least: dict | None = None,
           at_most: dict | None = None) -> Params:
    """Declare positive integer parameters with side conditions.

    ``names`` is ``"M K"`` (or a sequence of names).  ``multiple_of={"M": 128}``:
    ``M % 128 == 0``; ``at_least={"K": 64}``: ``K >= 64``; ``at_most``: an upper
    bound.  Every parameter is a positive integer (CuTe's extents are).
    """
    if isinstance(names, str):
        names = names.replace(",", " ").split()
    names = list(names)
    if len(names) > MAX_PARAMS:   # every decision ranges over all of them: zipped_divide with 16 ran past 120 s
        from ...errors import LimitError
        raise LimitError(f"params: {len(names)} parameters, more than the limit of {MAX_PARAMS} "
                         f"(symcute.symbolic.parametric.conditions.MAX_PARAMS)")
    multiple_of = dict(multiple_of or {})
    at_least = dict(at_least or {})
    at_most = dict(at_most or {})
    for d, what in ((multiple_of, "multiple_of"), (at_least, "at_least"), (at_most, "at_most")):
        for k, v in d.items():
            if k not in names:
                raise SymcuteError(f"params: {what} names {k!r}, which is not among the parameters {names}")
            if isinstance(v, bool) or not isinstance(v, int):
                raise SymcuteError(f"params: {what}[{k!r}] = {v!r} is not an integer")
    out = []
    seen = set()
    for name in names:
        if not isinstance(name, str) or not _NAME.match(name):
            raise SymcuteError(f"params: {name!r} is not a parameter name (a letter, then letters or digits)")
        if name in seen:
            raise SymcuteError(f"params: {name} is declared twice")
        seen.add(name)
        m = multiple_of.get(name, 1)
        lo = at_least.get(name, 1)
        hi = at_most.get(name)
        if m < 1:
            raise SymcuteError(f"params: multiple_of[{name!r}] = {m} must be positive")
        lo = max(lo, m)  # a positive multiple of m is at least m
        if hi is not None and hi < lo:
            raise SymcuteError(f"params: {name} has no admissible value ({name} >= {lo} and {name} <= {hi})")
        out.append(Param(name, _symbol(name), _symbol(f"{name}__{m}"), m, lo, hi))
    return Params(tuple(out))


def parse_declaration(text: str) -> tuple[str, int | None]:
    """``"M"`` or ``"M:128"`` (the CLI's ``--param``): the name and its divisor."""
    name, _, div = text.partition(":")
    name = name.strip()
    if not _NAME.match(name):
        raise SymcuteError(f"--param {text!r}: {name!r} is not a parameter name")
    if not div:
        return name, None
    div = div.strip()
    if not div.isdigit() or int(div) < 1:
        raise SymcuteError(f"--param {text!r}: the divisor {div!r} is not a positive integer")
    return name, int(div)


def missing(what: str, fact_text: str, verdict: FactVerdict) -> LayoutError:
    """The refusal for a fact CuTe's value depends on and the side conditions do not settle."""
    if verdict.verdict is Verdict.REFUTED:
        w = ", ".join(f"{k}={v}" for k, v in verdict.witness.items())
        return LayoutError(f"{what}: needs {fact_text}, which fails for the admissible values {w}; "
                           f"declare a side condition that excludes them")
    return LayoutError(f"{what}: needs {fact_text}, which the side conditions do not settle; declare it "
                       f"(multiple_of / at_least, or --param NAME:DIVISOR)")
