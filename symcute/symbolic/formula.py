"""Formula: a layout as a linear form over named sub-axes (docs/symbolic.md, "Sub-axes" and "Names").

A flat layout ``(s_i):(d_i)`` is a list of sub-axes ``x_i in [0, s_i)``: its
input index is ``q = sum(x_i * P_i)`` (``P`` the exclusive prefix product of the
flattened shape, the sub-axis *weight*) and its value is ``sum(x_i * d_i)``.
A Formula is the layout (a core :class:`~symcute.core.Layout`, the single
source of values) together with that list of named sub-axes.  An operation may
refine a mode into several finer digits (``t0`` -> ``t0_0, t0_1``), so a leaf
of the layout holds one sub-axis or more; size-1 modes hold none and are
omitted from the expression, stride-0 modes stay (they are broadcasts).

For the seed's A layout (``get_layoutA_TV`` of an SM80 16x8x16 MMA tiled 2x2x1)::

    >>> F = formula(Layout.parse("((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"),
    ...             names=(("t0","t1","wm","wn"), (("v0","v1","v2"), ("_a","_b"))))
    >>> str(F)
    '64*t0 + t1 + 16*wm + 32*v0 + 8*v1 + 256*v2'
    >>> F.str_with_zeros()
    '64*t0 + t1 + 16*wm + 0*wn + 32*v0 + 8*v1 + 256*v2'

Printing is in sub-axis order (by weight), as the seed writes it, not SymPy's
order; SymPy is imported only when ``.expr``, ``.lambdify()`` or
``.index_form()`` is asked for.
"""

from __future__ import annotations

import json
from typing import NamedTuple, Sequence

from ..core.basis import ArithmeticTuple
from ..core import budget
from ..core import int_tuple as it
from ..core.layout import Layout, has_empty_mode
from ..errors import LayoutError, SymcuteError
from .names import check_names_tree, default_names, format_names, leaf_paths, unflatten_names
from .table import Table
from .vocabulary import in_summary


class SubAxis(NamedTuple):
    """A named digit of the input index: ``name in [0, extent)``, input weight, output stride."""
    name: str
    extent: int
    weight: int   # contribution of one step of this digit to the linear input index
    stride: int   # contribution of one step of this digit to the layout's value
    leaf: int     # index of the (flattened) layout mode this digit belongs to


# Labels of the seed's table rows: 子轴 / shape / stride / TV 权重.
TABLE_LABELS = ("sub-axis", "shape", "stride", "weight")


class Formula:
    """A layout with named sub-axes.  Immutable.

    ``layout``: the core layout (values always come from it);
    ``axes``: the sub-axes of extent > 1 in input order (by weight);
    ``aliases``: for each sub-axis created by an operation, the digit of the
    operation's input it corresponds to (``{"m0": "t1", ...}`` after
    ``with_shape``); ``steps``: a Table of the operation's intermediate
    arithmetic when it has one (``upcast``'s per-mode ``ceil_div``).
    """

    __slots__ = ("layout", "axes", "aliases", "steps", "op", "_leaf_labels", "_cache", "contract", "true_form")

    def __init__(self, layout: Layout, leaf_digits: Sequence[Sequence[tuple]], leaf_labels: Sequence[str] | None = None,
                 aliases: dict | None = None, steps: Table | None = None, op: str | None = None):
        """Low-level constructor: ``leaf_digits[k]`` lists ``(name, extent)`` of flat leaf ``k``, low digit first.

        Use :func:`formula` to name a layout's modes; operations in
        :mod:`symcute.symbolic.ops` build results through this constructor.
        """
        _check_layout(layout)
        shape = it.flatten_to_tuple(layout.shape)
        stride = it.flatten_to_tuple(layout.stride)
        if len(leaf_digits) != len(shape):
            raise SymcuteError(f"formula: {len(leaf_digits)} digit groups for {len(shape)} modes of {layout}")
        axes, w = [], 1
        for k, (s, d) in enumerate(zip(shape, stride)):
            sub = 1
            for name, e in leaf_digits[k]:
                if e < 2:
                    raise SymcuteError(f"formula: sub-axis {name!r} has extent {e}; sub-axes have extent >= 2")
                axes.append(SubAxis(name, e, w * sub, d * sub, k))
                sub *= e
            if sub != s:
                raise SymcuteError(
                    f"formula: the digits {[n for n, _ in leaf_digits[k]]} of mode {k} multiply to {sub}, "
                    f"not to its extent {s}")
            w *= s
        b = budget.current.get()
        if b is not None:  # a formula's weights are prefix products of the extents: as big as compact strides
            b.value(len(axes), sum(a.weight.bit_length() + abs(a.stride).bit_length() for a in axes),
                    f"formula of {len(axes)} sub-axes")
        seen = set()
        for a in axes:
            if a.name in seen:
                raise SymcuteError(f"formula: sub-axis name {a.name!r} is used twice")
            seen.add(a.name)
        labels = list(leaf_labels) if leaf_labels is not None else [None] * len(shape)
        paths = leaf_paths(layout.shape)
        for k in range(len(shape)):
            digits = leaf_digits[k]
            if len(digits) == 1:
                labels[k] = digits[0][0]
            elif len(digits) > 1:
                labels[k] = "·".join(n for n, _ in digits)
            elif labels[k] is None:
                labels[k] = "_" + "_".join(str(i) for i in paths[k])
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "axes", tuple(axes))
        object.__setattr__(self, "aliases", dict(aliases or {}))
        object.__setattr__(self, "steps", steps)
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "_leaf_labels", tuple(labels))
        object.__setattr__(self, "_cache", {})
        object.__setattr__(self, "contract", None)     # see checked()
        object.__setattr__(self, "true_form", None)

    def checked(self, contract, true_form=None) -> "Formula":
        """This formula marked with the check of its operation's contract (:mod:`symcute.symbolic.contracts`).

        ``contract``: the Proof that CuTe's value meets the operation's postcondition; ``true_form``: when it
        does not, the true function as a SymPy closed form (composition: ``A(B(c))`` with floor and mod).
        The values are CuTe's either way.
        """
        g = object.__new__(Formula)
        for name in Formula.__slots__:
            object.__setattr__(g, name, getattr(self, name))
        object.__setattr__(g, "_cache", {})
        object.__setattr__(g, "contract", contract)
        object.__setattr__(g, "true_form", true_form)
        return g

    @property
    def breaks_contract(self) -> bool:
        """CuTe's value (this formula's layout) was checked and breaks its operation's contract."""
        return self.contract is not None and self.contract.refuted

    def __setattr__(self, name, value):
        raise AttributeError("Formula is immutable")

    # --- structure ------------------------------------------------------------
    @property
    def names(self):
        """Tree congruent to the layout's shape: the sub-axis name of each mode.

        A mode refined into several digits is labelled with their names joined
        by ``·``; a size-1 mode keeps the name it was given (or ``_`` + its path).
        """
        return unflatten_names(self._leaf_labels, self.layout.shape)

    @property
    def leaf_labels(self) -> tuple:
        return self._leaf_labels

    def leaf_digits(self) -> list[list[tuple]]:
        """``(name, extent)`` of the digits of each flat mode, low digit first."""
        out = [[] for _ in self._leaf_labels]
        for a in self.axes:
            out[a.leaf].append((a.name, a.extent))
        return out

    def size(self) -> int:
        return self.layout.size()

    @property
    def shape(self):
        return self.layout.shape

    @property
    def stride(self):
        return self.layout.stride

    def axis(self, name: str) -> SubAxis:
        for a in self.axes:
            if a.name == name:
                return a
        raise SymcuteError(f"formula {self}: no sub-axis named {name!r}")

    def broadcast_axes(self) -> tuple[SubAxis, ...]:
        """The sub-axes of stride 0 (the domain grows with them, the image does not)."""
        return tuple(a for a in self.axes if a.stride == 0)

    def __eq__(self, other) -> bool:
        return isinstance(other, Formula) and self.layout == other.layout and self.axes == other.axes

    def __hash__(self) -> int:
        return hash((self.layout, self.axes))

    def __getitem__(self, i) -> "Formula":
        """Mode access (``F[1]`` is CuTe's ``layout<1>(F)``), keeping the names of the mode's digits."""
        path = i if isinstance(i, tuple) else (i,)
        sub = self.layout[path]
        prefix = _normalize_path(self.layout.shape, path)
        keep = [k for k, p in enumerate(leaf_paths(self.layout.shape)) if p[:len(prefix)] == prefix]
        digits = self.leaf_digits()
        return Formula(sub, [digits[k] for k in keep], [self._leaf_labels[k] for k in keep],
                       aliases={a: v for a, v in self.aliases.items() if a in _names_in(digits, keep)})

    # --- values ---------------------------------------------------------------
    def __call__(self, *coord):
        """The layout's value (core evaluation)."""
        return self.layout(*coord)

    def index_of(self, coord) -> int:
        """The linear input index of a coordinate (an int index is returned as is)."""
        if isinstance(coord, int) and not isinstance(coord, bool):
            return coord
        return it.crd2idx(coord, self.layout.shape, it.compact_col_major(self.layout.shape))

    def digits_of(self, coord) -> dict:
        """``{name: value}`` of every sub-axis at an index or coordinate of the domain."""
        q = self.index_of(coord)
        if not 0 <= q < self.size():
            raise SymcuteError(f"formula {self}: index {q} is outside the domain [0, {self.size()})")
        return {a.name: (q // a.weight) % a.extent for a in self.axes}

    # --- text -----------------------------------------------------------------
    def terms(self, zeros: bool = False) -> list[tuple[int, str]]:
        """``(coefficient, name)`` in sub-axis order; stride-0 axes only with ``zeros``."""
        return [(a.stride, a.name) for a in self.axes if zeros or a.stride != 0]

    def __str__(self) -> str:
        return linear_text(self.terms())

    def str_with_zeros(self) -> str:
        """Like ``str`` but broadcast sub-axes shown as ``0*wn``."""
        return linear_text(self.terms(zeros=True))

    def __repr__(self) -> str:
        flag = ""
        if self.breaks_contract:
            ce = ", ".join(f"{k} = {v}" for k, v in (self.contract.counterexample or {}).items() if in_summary(k))
            flag = f", breaks CuTe's contract: {ce}" + (f"; the true function is {self.true_form}"
                                                        if self.true_form is not None else "")
        return f"Formula({str(self.layout)!r}, names={format_names(self.names)!r}{flag})"

    def table(self, labels: Sequence[str] = TABLE_LABELS) -> Table:
        """The seed's table: one column per sub-axis; rows sub-axis, shape, stride, (input) weight."""
        a = self.axes
        return Table([labels[0]] + [x.name for x in a],
                     [[labels[1]] + [x.extent for x in a],
                      [labels[2]] + [x.stride for x in a],
                      [labels[3]] + [x.weight for x in a]])

    def correspondence(self) -> Table:
        """Each sub-axis with the digit of the operation's input it stands for (``m0 = t1``)."""
        return Table(["sub-axis", "extent", "stride", "is"],
                     [[x.name, x.extent, x.stride, self.aliases.get(x.name, x.name)] for x in self.axes])

    # --- SymPy ----------------------------------------------------------------
    @property
    def symbols(self) -> tuple:
        """SymPy symbols of the sub-axes, in order (integer, nonnegative)."""
        c = self._cache
        if "symbols" not in c:
            import sympy
            c["symbols"] = tuple(sympy.Symbol(a.name, integer=True, nonnegative=True) for a in self.axes)
        return c["symbols"]

    @property
    def expr(self):
        """The SymPy expression ``sum(stride * symbol)`` (SymPy orders its terms its own way)."""
        import sympy
        return sympy.Add(*[a.stride * s for a, s in zip(self.axes, self.symbols)])

    def latex(self, zeros: bool = False) -> str:
        """LaTeX of the linear form, terms in sub-axis order; names get subscripts (``x0_1`` -> ``x_{0,1}``)
        and multi-letter bases are upright (``wm`` -> ``\\mathrm{wm}``)."""
        from .code import latex
        return latex(self, zeros)

    def to_c(self, name: str = "layout", parameters=None, int_type: str | None = None) -> str:
        """Integer C/CUDA: a function of one index per top-level mode (``tid``, ``vid`` for a TV layout)
        that recovers each sub-axis with ``/`` and ``%`` (see :mod:`symcute.symbolic.code`)."""
        from .code import to_c
        return to_c(self, name, parameters, int_type)

    def index_form(self, q: str = "q"):
        """The value as a SymPy expression of the linear index ``q``: ``sum(d * Mod(floor(q/w), s))``.

        The digit of the last mode of the layout has no ``Mod``: CuTe lets the
        last mode take any overflow, so the form agrees with the layout beyond
        ``size`` too.
        """
        import sympy
        qs = sympy.Symbol(q, integer=True, nonnegative=True)
        return sympy.Add(*[stride * self._index_term(w, e, qs) for stride, w, e in self._index_digits()])

    def index_text(self, q: str = "q") -> str:
        """``index_form`` as text in sub-axis order (``64*Mod(q, 4) + Mod(floor(q/4), 8) + ...``)."""
        import sympy
        qs = sympy.Symbol(q, integer=True, nonnegative=True)
        return linear_text([(stride, str(self._index_term(w, e, qs))) for stride, w, e in self._index_digits()
                            if stride != 0], parenthesize=False)

    def _index_digits(self) -> list:
        """``(stride, weight, extent)`` per digit of the index form; ``extent`` None for the digit that
        takes the overflow past ``size`` (CuTe's last mode is not reduced).

        When the last mode has extent 1 it has no sub-axis, but its stride still multiplies the
        overflow ``floor(q / size)``: that digit is added here (it is 0 on ``[0, size)``).
        """
        last = len(self._leaf_labels) - 1
        out = []
        for a in self.axes:
            top = a.leaf == last and a is self.axes[-1]
            out.append((a.stride, a.weight, None if top else a.extent))
        if not (self.axes and self.axes[-1].leaf == last):
            last_stride = it.flatten_to_tuple(self.layout.stride)[-1]
            if last_stride != 0:
                out.append((last_stride, self.layout.size(), None))
        return out

    @staticmethod
    def _index_term(weight: int, extent, qs):
        import sympy
        digit = qs if weight == 1 else sympy.floor(qs / weight)
        return digit if extent is None else sympy.Mod(digit, extent)

    def lambdify(self, index: bool = False):
        """A numpy function: of the sub-axis values (in order, arrays broadcast), or with
        ``index=True`` of an array of linear indices.

        Integer arithmetic throughout; when values can exceed int64 the
        arrays are computed with Python ints (numpy ``object`` dtype).
        """
        np = _numpy()
        big = _needs_object(self)
        if index:
            digits = self._index_digits()

            def by_index(q):
                q = np.asarray(q, dtype=object if big or _big_array(np, q) else np.int64)
                total = np.zeros(q.shape, dtype=q.dtype)
                for stride, weight, extent in digits:
                    d = q // weight
                    if extent is not None:
                        d = d % extent
                    total = total + stride * d
                return total
            return by_index
        import sympy
        fn = sympy.lambdify(self.symbols, self.expr, "numpy")
        n = len(self.axes)

        def by_digits(*digits):
            if len(digits) != n:
                raise SymcuteError(f"formula {self}: expected {n} sub-axis values "
                                   f"({', '.join(a.name for a in self.axes)}), got {len(digits)}")
            arrs = [np.asarray(x, dtype=object if big else np.int64) for x in digits]
            shape = np.broadcast_shapes(*(x.shape for x in arrs)) if arrs else ()
            out = fn(*arrs)
            return np.broadcast_to(np.asarray(out, dtype=object if big else np.int64), shape).copy()
        return by_digits

    # --- JSON -----------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "layout": str(self.layout),
            "names": _listify(self.names),
            "axes": [a._asdict() for a in self.axes],
            "aliases": dict(self.aliases),
            "op": self.op,
            "steps": self.steps.to_dict() if self.steps is not None else None,
            "text": str(self),
        }

    def to_json(self, **kw) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, **kw)

    @staticmethod
    def from_json(text, source: str = "Formula.from_json") -> "Formula":
        """Rebuild a Formula from :meth:`to_json` output (text or its dict), validated and checked.

        The document must match ``FORMULA_SCHEMA`` (``symcute.jsonread``); every
        sub-axis name must be a name :func:`check_name` accepts (labels of
        merged digits join such names with ``·``), and the sub-axes must be
        the ones of the layout it names (weights and strides).
        """
        from .. import jsonread
        from .names import _flatten, _tuplify, check_name
        d = jsonread.checked(jsonread.loads(text, source) if isinstance(text, (str, bytes)) else text,
                             FORMULA_SCHEMA, source)
        try:
            layout = Layout.parse(d["layout"])
            n_leaves = len(it.flatten_to_tuple(layout.shape))
            groups = [[] for _ in range(n_leaves)]
            for a in d["axes"]:
                check_name(a["name"], source)
                groups[a["leaf"]].append((a["name"], a["extent"]))
            for k, v in (d.get("aliases") or {}).items():
                check_name(k, source)
                for part in v.split("·"):
                    check_name(part, source)
            names = d.get("names")
            labels = None
            if names is not None:
                labels = [str(x) for x in _flatten(_tuplify(names))]
                if len(labels) != n_leaves:
                    raise SymcuteError("names do not match the layout's modes")
                for label in labels:
                    for part in label.split("·"):
                        check_name(part, source)
            steps = Table.from_dict(d["steps"]) if d.get("steps") else None
            f = Formula(layout, groups, labels, aliases=d.get("aliases") or {}, steps=steps, op=d.get("op"))
            stored = [(a["name"], a["extent"], a["weight"], a["stride"], a["leaf"]) for a in d["axes"]]
        except IndexError:
            raise SymcuteError(f"{source}: an axis names a leaf the layout {d['layout']} does not have") from None
        except SymcuteError as e:
            raise SymcuteError(f"{source}: malformed formula JSON ({e})") from None
        if stored != [tuple(a) for a in f.axes]:
            raise SymcuteError(f"{source}: the sub-axes do not match the layout "
                               f"{layout} (weights or strides differ)")
        return f


_NAME = {"type": "string", "maxLength": 1000, "pattern": "^[A-Za-z_][A-Za-z0-9_]*$",
         "description": "a sub-axis name (an ASCII identifier)"}
_LABEL = {"type": "string", "maxLength": 100_000, "pattern": "^[A-Za-z_][A-Za-z0-9_]*(·[A-Za-z_][A-Za-z0-9_]*)*$",
          "description": "a mode label (sub-axis names joined by '·')"}
_INT = {"type": "integer"}
FORMULA_SCHEMA = {
    "type": "object",
    "required": ["layout", "axes"],
    "$defs": {"names": {"anyOf": [_LABEL, {"type": "array", "items": {"$ref": "#/$defs/names"}}]}},
    "properties": {
        "layout": {"type": "string", "maxLength": 100_000, "description": "a layout in CuTe notation"},
        "names": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/names"}]},
        "axes": {"type": "array", "items": {
            "type": "object", "required": ["name", "extent", "weight", "stride", "leaf"],
            "properties": {"name": _NAME, "extent": _INT, "weight": _INT, "stride": _INT,
                           "leaf": {"type": "integer", "minimum": 0}}}},
        "aliases": {"type": "object", "propertyNames": _NAME, "additionalProperties": _LABEL},
        "op": {"type": ["string", "null"], "maxLength": 100},
        "steps": {"anyOf": [{"type": "null"}, {"type": "object", "required": ["header", "rows"]}]},
        "text": {"type": "string"},
    },
}


def formula(layout, names=None) -> Formula:
    """``layout`` as a Formula over named sub-axes.

    ``names``: a tree of identifiers congruent to the shape, or text such as
    ``"((t0,t1),(v0,v1))"``; by default each mode is named ``x`` followed by its
    mode path (``x0_1`` for mode path (0,1); ``x`` for a rank-1 layout).
    A Formula passed in is returned as is, or renamed when ``names`` is given.
    A ComposedLayout or a Swizzle gives a :class:`~symcute.symbolic.swizzled.SwizzledFormula`
    (``names`` name its innermost layout's modes).
    @post formula(L).layout == L
    @post formula(L)(q) == sum(a.stride * digit_a(q)) for every q < size(L)
    """
    if isinstance(layout, Formula):
        if names is None:
            return layout
        layout = layout.layout
    if not isinstance(layout, Layout) and _is_swizzled(layout):
        from .swizzled import swizzled_formula
        return swizzled_formula(layout, names)
    if not isinstance(layout, Layout):
        raise SymcuteError(f"formula: {layout!r} is not a layout")
    _check_layout(layout)
    if names is None:
        names = default_names(layout.shape)
    elif isinstance(names, str):
        from .names import parse_names
        names = parse_names(names)
    flat = check_names_tree(names, layout.shape, where=f"formula({layout}) names")
    shape = it.flatten_to_tuple(layout.shape)
    return Formula(layout, [[(n, s)] if s > 1 else [] for n, s in zip(flat, shape)], list(flat))


def _is_swizzled(x) -> bool:
    from ..core.composed import ComposedLayout
    from ..core.swizzle import Swizzle
    from .swizzled import SwizzledFormula
    return isinstance(x, (ComposedLayout, Swizzle, SwizzledFormula))


def linear_text(terms: Sequence[tuple], parenthesize: bool = False) -> str:
    """``64*t0 + t1 - 2*x`` from ``[(64, "t0"), (1, "t1"), (-2, "x")]`` (SymPy's style, given order)."""
    parts = []
    for c, name in terms:
        if c == 1:
            parts.append(name)
        elif c == -1:
            parts.append("-" + name)
        else:
            parts.append(f"{c}*{name}")
    return _join_signed(parts) if parts else "0"


def _join_signed(parts: list[str]) -> str:
    out = parts[0]
    for p in parts[1:]:
        out += " - " + p[1:] if p.startswith("-") else " + " + p
    return out


def _check_layout(layout):
    if not isinstance(layout, Layout):
        raise SymcuteError(f"formula: {layout!r} is not a layout")
    for d in it.flatten_to_tuple(layout.stride):
        if isinstance(d, bool) or not isinstance(d, int):
            kind = "an arithmetic-tuple stride" if isinstance(d, ArithmeticTuple) else "a basis stride"
            raise SymcuteError(f"formula: layout {layout} has {kind} {d}; formulas take integer strides"
                               + (" (CuTe evaluates no layout with an arithmetic-tuple stride)"
                                  if isinstance(d, ArithmeticTuple) else ""))
    for s in it.flatten_to_tuple(layout.shape):
        if s < 1:
            raise SymcuteError(f"formula: layout {layout} has an extent {s} < 1")
    if has_empty_mode(layout.shape):
        raise LayoutError(f"formula: layout {layout} has an empty mode (), which CuTe cannot evaluate "
                          f"(crd2idx has no case for an empty shape)")


def _normalize_path(shape, path) -> tuple:
    """A mode path with negative indices resolved (``Layout.__getitem__`` accepted it already)."""
    out = []
    for k in path:
        if not isinstance(shape, tuple):
            continue  # indexing a leaf with 0 or -1 is the leaf itself
        k = k % len(shape)
        out.append(k)
        shape = shape[k]
    return tuple(out)


def _names_in(digits, keep) -> set:
    return {n for k in keep for n, _ in digits[k]}


def _listify(x):
    return [_listify(y) for y in x] if isinstance(x, tuple) else x


def _numpy():
    try:
        import numpy
    except ModuleNotFoundError:  # pragma: no cover - numpy is a runtime dependency (pyproject.toml); a broken environment still gets one line
        raise SymcuteError("lambdify and exhaustive checks need numpy (pip install numpy)") from None
    return numpy


INT64_MAX = (1 << 63) - 1


def _needs_object(f: Formula) -> bool:
    span = sum(abs(a.stride) * (a.extent - 1) for a in f.axes)
    return span > INT64_MAX or f.size() > INT64_MAX


def _big_array(np, q) -> bool:
    arr = np.asarray(q)
    return arr.dtype == object


