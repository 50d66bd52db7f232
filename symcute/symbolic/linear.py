"""Linear forms over bounded digits: the object the prover compares (docs/symbolic.md, "Proofs by mutual refinement").

A *term* is a Layout, a Formula, or ``Compose(outer, inner)`` (the function
``x -> outer(inner(x))``, evaluated as CuTe evaluates layouts on integers; this
is not CuTe's ``composition``, whose result the prover must not take on trust).
``linearize(term, n)`` writes the term on ``[0, n)`` as ``sum(c_i * x_i)`` over
a chain of digits ``x_i in [0, e_i)`` of the index, or raises :class:`NotLinear`
saying why it cannot.

For ``Compose``, each digit of the inner form is *landed* on the outer
layout's input digits (``digits.land``): it splits into pieces that each step
through one outer digit, and the sum stays linear as long as no outer digit can
overflow into the next (``digits.carries``).  That is the whole argument, and
its cost is O(number of digits), not O(n).
"""

from __future__ import annotations

from typing import NamedTuple

from ..core import int_tuple as it
from ..core.composed import ComposedLayout
from ..core.layout import Layout, has_empty_mode
from ..core.swizzle import Swizzle
from ..errors import LayoutError, SymcuteError
from .digits import carries, land, refine
from .formula import Formula, formula
from .swizzled import SwizzledFormula
from .names import split_names
from .naming import input_chain
from .vocabulary import Phrase, Reason


class NotLinear(Exception):
    """The term has no linear form over a digit chain of the domain (the reason is the message: a
    :class:`~symcute.symbolic.vocabulary.Phrase`, or an error's text)."""


def reason_of(e: Exception):
    """The reason a NotLinear (or any exception) carries: its Phrase as it is, else its text."""
    return e.args[0] if len(e.args) == 1 and isinstance(e.args[0], Phrase) else str(e)


class Compose:
    """The function ``x -> outer(inner(x))`` (functional composition of layouts, CuTe's evaluation)."""

    __slots__ = ("outer", "inner")

    def __init__(self, outer, inner):
        self.outer = as_term(outer)
        self.inner = as_term(inner)

    def __call__(self, x):
        return evaluate(self.outer, evaluate(self.inner, x))

    def size(self) -> int:
        return size_of(self.inner)

    def __str__(self) -> str:
        return f"{term_text(self.outer)} o {term_text(self.inner)}"

    def __repr__(self) -> str:
        return f"Compose({self.outer!r}, {self.inner!r})"


def as_term(x):
    if isinstance(x, (Compose, ComposedLayout, Swizzle, SwizzledFormula)):  # a Compose's parts were checked
        return x
    if isinstance(x, (Layout, Formula)):
        layout = x.layout if isinstance(x, Formula) else x
        if has_empty_mode(layout.shape):  # a claim about values CuTe cannot compute is no claim
            raise LayoutError(f"layout {layout}: it has an empty mode (), which CuTe cannot evaluate "
                              f"(crd2idx has no case for an empty shape)")
        return x
    raise SymcuteError(f"{x!r} is not a layout, a formula or a Compose")


def layout_of(term):
    """The core value a term evaluates (a Formula's layout; a layout, swizzle or composed layout itself)."""
    return term.layout if isinstance(term, (Formula, SwizzledFormula)) else term


def size_of(term) -> int:
    if isinstance(term, Compose):
        return term.size()
    return term.size()


def evaluate(term, x: int) -> int:
    """CuTe's value of the term at integer ``x`` (core evaluation, no shortcut)."""
    if isinstance(term, Compose):
        return term(x)
    return layout_of(term)(x)


def term_text(term) -> str:
    if isinstance(term, (Formula, SwizzledFormula)):
        return str(term.layout)
    if isinstance(term, Compose):
        return f"({term})"
    return str(term)


class Digit(NamedTuple):
    """One digit of a linear form: ``coef * x`` for ``x in [0, extent)``, input weight ``weight``."""
    name: str
    extent: int
    weight: int
    coef: int
    via: tuple = ()   # how the coefficient arises through compositions (for the certificate)


def linearize(term, n: int) -> list[Digit]:
    """``term`` on ``[0, n)`` as digits with coefficients, in weight order (see module doc)."""
    if isinstance(term, Compose):
        inner = linearize(term.inner, n)
        return _through(term.outer, inner)
    return _domain_digits(_formula_of(term), n)


def _formula_of(layout) -> Formula:
    if isinstance(layout, Formula):
        return layout
    if isinstance(layout, SwizzledFormula):
        layout = layout.layout
    if isinstance(layout, (ComposedLayout, Swizzle)):
        raise NotLinear(Phrase(Reason.SWIZZLED, layout=str(layout)))
    try:
        return formula(layout)
    except SymcuteError as e:  # e.g. a negative extent (CuTe's left_inverse can produce one)
        raise NotLinear(str(e)) from None


def _domain_digits(f: Formula, n: int) -> list[Digit]:
    """The digits of ``f`` restricted (or, past the last mode, extended) to the box ``[0, n)``."""
    size = f.size()
    axes = list(f.axes)
    last_leaf = len(f.leaf_labels) - 1
    if n > size:
        # CuTe's last mode takes any overflow: the domain grows along the last mode
        shape = it.flatten_to_tuple(f.layout.shape)
        last_w = size // shape[-1]
        if n % last_w:
            raise NotLinear(Phrase(Reason.NOT_A_BOX_EXTENDED, n=n, layout=str(f.layout), size=size))
        ext = n // last_w
        last_stride = it.flatten_to_tuple(f.layout.stride)[-1]
        if axes and axes[-1].leaf == last_leaf:
            top = axes.pop()  # the last mode's lower digits stay, its top digit grows
            if n % top.weight:
                raise NotLinear(Phrase(Reason.NOT_A_BOX, n=n, layout=str(f.layout)))
            axes.append(top._replace(extent=n // top.weight))
        else:
            axes.append(_axis(f.leaf_labels[-1], ext, size, last_stride, last_leaf))
    out = []
    for a in axes:
        if a.weight * a.extent <= n:
            out.append(Digit(a.name, a.extent, a.weight, a.stride))
        elif a.weight < n:
            if n % a.weight:
                raise NotLinear(Phrase(Reason.ENDS_INSIDE, n=n, layout=str(f.layout), digit=a.name, weight=a.weight))
            out.append(Digit(a.name, n // a.weight, a.weight, a.stride))
    return [d for d in out if d.extent > 1]


def _axis(name, extent, weight, stride, leaf):
    from .formula import SubAxis
    return SubAxis(name, extent, weight, stride, leaf)


def _through(outer, inner: list[Digit]) -> list[Digit]:
    if isinstance(outer, (ComposedLayout, Swizzle, SwizzledFormula)):
        _formula_of(outer)  # raises NotLinear: the F2 back-end decides swizzled terms
    f = _formula_of(outer) if isinstance(outer, (Formula, Layout)) else None
    if f is None:  # nested Compose as the outer function: linearize it as a function on its own domain
        return _through_compose(outer, inner)
    chain = input_chain(f)
    strides = [a.stride for a in f.axes]
    if len(chain.names) > len(f.axes):
        strides.append(it.flatten_to_tuple(f.layout.stride)[-1])
    out, pieces_all = [], []
    for d in inner:
        if d.coef < 0:
            raise NotLinear(Phrase(Reason.NEGATIVE_INNER, digit=d.name, coef=d.coef))
        pieces = land(d.coef, d.extent, chain.weights, chain.extents)
        if pieces is None:
            raise NotLinear(Phrase(Reason.NO_SPLIT, digit=d.name, extent=d.extent, step=d.coef, layout=str(f.layout)))
        names = split_names(d.name, len(pieces)) if len(pieces) > 1 else [d.name]
        for nm, p in zip(names, pieces):
            if p.target is None:
                out.append(Digit(nm, p.extent, d.weight * p.sub, 0, d.via + ("0 (stride 0)",)))
            else:
                c = strides[p.target] * p.step
                hop = f"{d.coef * p.sub}->{chain.names[p.target]}" + (f"x{p.step}" if p.step != 1 else "")
                out.append(Digit(nm, p.extent, d.weight * p.sub, c, d.via + (hop,)))
            pieces_all.append(p)
    bad = carries(pieces_all, chain.extents)
    if bad:
        j, span, ext = bad[0]
        raise NotLinear(Phrase(Reason.CARRIES, digit=chain.names[j], layout=str(f.layout), span=span + 1, extent=ext))
    return out


def _through_compose(outer: Compose, inner: list[Digit]) -> list[Digit]:
    mid = _through(outer.inner, inner)
    return _through(outer.outer, mid)


def coalesce_digits(ds: list[Digit]) -> list[Digit]:
    """Merge neighbours ``(e0, c0), (e1, c0*e0)`` into one digit (same function, fewer boundaries)."""
    out: list[Digit] = []
    for d in ds:
        if out and d.coef == out[-1].coef * out[-1].extent and d.weight == out[-1].weight * out[-1].extent:
            p = out[-1]
            out[-1] = Digit(f"{p.name}·{d.name}", p.extent * d.extent, p.weight, p.coef, p.via)
        else:
            out.append(d)
    return out


class Row(NamedTuple):
    """A digit of the common refinement of two linear forms, with both coefficients."""
    name: str
    extent: int
    weight: int
    lhs: int
    rhs: int
    lhs_via: tuple
    rhs_via: tuple


def common_rows(a: list[Digit], b: list[Digit]) -> list[Row] | None:
    """Both forms over their common refinement (a digit split in k pieces: coefficients scale by the sub-weight)."""
    ref = refine([d.extent for d in a], [d.extent for d in b])
    if ref is None:
        return None
    counts: dict[int, int] = {}
    for r in ref:
        counts[r.a] = counts.get(r.a, 0) + 1
    seen: dict[int, int] = {}
    rows = []
    for r in ref:
        da, db = a[r.a], b[r.b]
        k = seen.get(r.a, 0)
        seen[r.a] = k + 1
        name = split_names(da.name, counts[r.a])[k] if counts[r.a] > 1 else da.name
        rows.append(Row(name, r.extent, r.weight, da.coef * r.sub_a, db.coef * r.sub_b, da.via, db.via))
    return rows
