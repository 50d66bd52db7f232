"""Shared pieces of the recipes: step-recording helpers, and small computations on formulas.

Step details are JSON-native (ints, strings, lists, dicts), so a derivation
read back with ``Derivation.from_json`` renders the same report.
"""

from __future__ import annotations

from .. import symbolic as sym
from ..core import int_tuple as it
from ..errors import SymcuteError
from ..trace.derivation import Derivation
from .records import AxisRow, Evaluation, FormulaStep, ProofDetails

ATOM_AXES = ("wm", "wn", "wk")
ENUMERATE_LIMIT = 1 << 20   # distinct-value counts and per-value ranges enumerate up to this many inputs

# --- small helpers ------------------------------------------------------------------------------

cute = it.format_int_tuple   # CuTe notation of an int tuple (or its JSON list), a layout or an int: (8,1,1)


def _jsonable(x):
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    return x


def _atom_layout(x) -> tuple:
    if isinstance(x, str):
        parts = [p.strip() for p in x.strip().strip("()").split(",") if p.strip()]
        if not parts or not all(p.isdigit() for p in parts):
            raise SymcuteError(f"atom layout must be a shape of positive integers such as 2,2,1; got {x!r}")
        x = tuple(int(p) for p in parts)
    if isinstance(x, list):
        x = tuple(x)
    if not isinstance(x, tuple) or not 1 <= len(x) <= 3 or any(
            isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in x):
        raise SymcuteError(f"atom layout must be 1 to 3 positive integers (M,N,K), got {x!r}")
    return x + (1,) * (3 - len(x))


def _atom_layout_names(mma) -> frozenset:
    """The names of the atom layout's thread digits (``wm, wn, wk``), as opposed to the atom's own ``t*``."""
    from ..atoms.names import atom_thread_digits, mma_thread_table
    return frozenset(d.name for d in mma_thread_table(mma)) - {d.name for d in atom_thread_digits(mma.atom)}


def _names_tree(mma, op):
    """The semantic names of the operand's TV layout (atoms layer), as a tuple tree."""
    return mma.layout_TV_names(op)


def _formula_row(f) -> tuple:
    """Sub-axes of a Formula as rows: name, extent, stride, weight."""
    return tuple(AxisRow(a.name, a.extent, a.stride, a.weight) for a in f.axes)


def mode_terms(f, mode: int, size_before: int) -> list:
    """``[(weight within the mode, name, extent)]`` of the sub-axes of top-level mode ``mode``.

    A TV layout's thread index is ``t = sum(weight * digit)`` over the digits of
    mode 0; its value index over mode 1 (weights divided by the size of mode 0).
    """
    modes = _leaf_modes(f.layout.shape)
    return [[a.weight // size_before, a.name, a.extent] for a in f.axes if modes[a.leaf] == mode]


def _leaf_modes(shape) -> list:
    """The top-level mode of each flat leaf."""
    if not isinstance(shape, tuple):
        return [0]
    out = []
    for i, s in enumerate(shape):
        out += [i] * len(it.flatten_to_tuple(s))
    return out


def coordinate_terms(f, shape: tuple, outer=frozenset()):
    """The output of ``f`` read as a column-major coordinate of ``shape``: per mode ``[(coef, name)]``.

    ``q = m + M*k``: a sub-axis of stride ``d`` adds ``d // P_j`` to mode ``j``
    (``P`` the prefix products of ``shape``) when ``d`` is a multiple of ``P_j``
    and the mode cannot carry into the next one (the largest sum of its terms
    stays below its extent).  ``None`` when the output does not split this way.
    Terms are listed in sub-axis order, those named in ``outer`` (the atom
    layout's ``wm, wn, wk``) last: the atom's own coordinate first, as the seed.
    """
    prefix, p = [], 1
    for s in shape:
        prefix.append(p)
        p *= s
    modes = [[] for _ in shape]
    for a in f.axes:
        if a.stride == 0:
            continue
        j = max(i for i, pj in enumerate(prefix) if a.stride >= pj)
        if a.stride % prefix[j]:
            return None
        modes[j].append([a.stride // prefix[j], a.name, a.extent])
    order = {a.name: (a.name in outer, k) for k, a in enumerate(f.axes)}
    for terms in modes:
        terms.sort(key=lambda x: order[x[1]])
    for j, terms in enumerate(modes):
        if sum(c * (e - 1) for c, _, e in terms) >= shape[j]:
            return None
    return modes


def image(layout) -> list | None:
    """Every value of ``layout`` in input order, from its sub-axes (``sum(stride * digit)``); None past the limit.

    Pure Python on the digits (no per-point evaluation, no numpy): the value
    list grows one sub-axis at a time, lowest weight first.
    """
    f = layout if isinstance(layout, sym.Formula) else sym.formula(layout)
    if f.size() > ENUMERATE_LIMIT:
        return None
    values = [0]
    for a in f.axes:
        values = [v + a.stride * k for k in range(a.extent) for v in values]
    return values


def distinct_values(layout) -> int | None:
    """The number of distinct values of ``layout`` on its domain (enumerated; None past the limit)."""
    values = image(layout)
    return None if values is None else len(set(values))


def _largest_value(f) -> tuple[int, list]:
    """The largest value of a layout with nonnegative strides: every digit at its top (and the terms)."""
    terms = [[a.extent - 1, a.stride] for a in f.axes if a.stride > 0]
    coord = sum((a.extent - 1) * a.weight for a in f.axes if a.stride > 0)
    return coord, terms


def add_proof(d: Derivation, rule: str, proof, inputs: dict, labels: list, claim: str, domain: int | None,
              target: int | None = None, *, operand: str | None = None, step: int | None = None) -> None:
    """Record a prover result as a step whose details are a :class:`ProofDetails` (``claim`` keys the
    statement template in reports).

    ``domain``: the inputs the claim is about (``[0, domain)``); ``target``: the
    range ``[0, target)`` of a surjectivity claim; ``operand`` (derive_tv) and ``step`` (derive expr): what
    the check is about.
    """
    d.add_step(rule, inputs, proof, ProofDetails(claim, labels, proof.verdict, proof.method, domain, target,
                                                 operand, step).to_details())


def last_node(d: Derivation) -> str:
    """The step node recorded last."""
    return max((n for n, x in d.graph.nodes(data=True) if x.get("role") == "step"), key=lambda n: int(n[1:]))


def add_formula(d: Derivation, layout, f, label: str, **extra) -> None:
    d.add_step("formula", {"layout": layout}, f, {**FormulaStep(label, _formula_row(f), str(f),
                                                                f.str_with_zeros()).to_details(),
                                                  **_jsonable(extra)})


def add_table(d: Derivation, kind: str, **data) -> None:
    d.add_step("table", {}, None, {"kind": kind, **_jsonable(data)})


def add_evaluation(d: Derivation, layout, f, label: str, x, kind: str) -> int:
    """Record ``label(x)`` with the digits of ``x`` (a worked example); returns the value."""
    w = sym.witness(f, x)
    d.add_step("evaluate", {"layout": layout}, w.value,
               _jsonable(Evaluation(label, kind, x, w.index, {k: v for k, v in w.digits.items() if v},
                                    w.value).to_details()))
    return w.value
