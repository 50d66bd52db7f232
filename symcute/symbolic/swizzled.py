"""SwizzledFormula: the formula of a swizzled layout ``Sw<B,M,S> o O o L`` over named sub-axes.

The domain is ``L``'s (its sub-axes carry the names, as for any Formula); the
value is the linear form of ``L`` (plus the offset) with the swizzle's XOR of
named bit-fields on top.  For ``Sw<3,4,3> o 0 o (8,64):(64,1)`` named ``(r, c)``::

    (64*r + c) ^ ((r >> 1) << 4)

read as C: bits 1..2 of ``r`` are XORed onto offset bits 4..5 (``Sw<3,4,3>``
XORs offset bits 7..9 onto 4..6, and ``64*r`` puts ``r``'s bits 1..2 on bits
7..8).  ``Sw<3,3,3>`` on the same layout gives ``(64*r + c) ^ (r << 3)``.
The exact statement is the bit table (:meth:`table`): for each offset bit, the
named input bits XORed into it (:mod:`symcute.symbolic.bits`).  ``expr`` is a
SymPy polynomial over 0/1 bit symbols (``a XOR b = a + b - 2ab``) that other
analyses can use; ``latex()``, ``lambdify()`` and JSON are as for
:class:`~symcute.symbolic.Formula`.  Values always come from ``symcute.core``.

A swizzled layout whose inner layout has no F2 view (a stride that is not a
power of two, bits that carry) still gets a formula: the swizzle applied to the
linear form, ``v ^ ((v >> 7 & 7) << 4) with v = 3*r + c``.
"""

from __future__ import annotations

import json

from ..core.composed import ComposedLayout
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from ..errors import SymcuteError
from .bits import BitLayout, NotF2Linear, bit_layout
from .f2 import bit_positions
from .formula import Formula, formula
from .table import Table


class SwizzledFormula:
    """A swizzled layout with named sub-axes.  Immutable.

    ``layout``: the core value (a ComposedLayout or a Swizzle); ``domain``: the
    Formula of the innermost layout (its sub-axes name the inputs);
    ``linear``: the bits view of the offset before any swizzle (``O + L``), and
    ``bits``: the bits view of the whole layout (``None`` when it has none;
    ``reason`` says why).
    @post self(q) == layout(q) for every q < size
    """

    __slots__ = ("layout", "domain", "bits", "linear", "reason", "_cache")

    def __init__(self, layout, domain: Formula):
        object.__setattr__(self, "layout", layout)
        object.__setattr__(self, "domain", domain)
        object.__setattr__(self, "_cache", {})
        try:
            full, reason = _rebuilt(layout, domain), ""
        except NotF2Linear as e:
            full, reason = None, str(e)
        object.__setattr__(self, "bits", full)
        object.__setattr__(self, "reason", reason)
        try:
            lin = _linear_part(layout, domain)
        except NotF2Linear:
            lin = None
        object.__setattr__(self, "linear", lin)

    def __setattr__(self, name, value):
        raise AttributeError("SwizzledFormula is immutable")

    # --- structure ------------------------------------------------------------
    @property
    def axes(self):
        return self.domain.axes

    @property
    def names(self):
        return self.domain.names

    @property
    def shape(self):
        return self.domain.shape

    def size(self) -> int:
        return self.domain.size()

    def __call__(self, *coord):
        return self.layout(*coord)

    def digits_of(self, coord) -> dict:
        return self.domain.digits_of(coord)

    def index_of(self, coord) -> int:
        return self.domain.index_of(coord)

    def __eq__(self, other) -> bool:
        return isinstance(other, SwizzledFormula) and str(self.layout) == str(other.layout) and \
            self.domain == other.domain

    def __hash__(self) -> int:
        return hash((str(self.layout), self.domain))

    # --- text -----------------------------------------------------------------
    def linear_text(self) -> str:
        """The offset before the swizzle: the inner layout's linear form plus the offset."""
        o = _total_offset(self.layout)
        text = str(self.domain)
        return text if not o else (f"{o} + {text}" if text != "0" else str(o))

    def xor_terms(self) -> list:
        """``(axis, low bit, bits, output bit)`` of each named bit-field the swizzles XOR in."""
        if self.bits is None or self.linear is None:
            return []
        return _xor_fields(self.bits, self.linear)

    def xor_constant(self) -> int:
        if self.bits is None or self.linear is None:
            return 0
        return self.bits.constant ^ self.linear.constant

    def __str__(self) -> str:
        lin = self.linear_text()
        if self.bits is None or self.linear is None:
            return _generic_text(self.layout, lin)
        terms = [_field_text(*t, _axis_width(self, t[0])) for t in self.xor_terms()]
        if self.xor_constant():
            terms.append(str(self.xor_constant()))
        if not terms:
            return lin
        wrap = f"({lin})" if " " in lin else lin
        return " ^ ".join([wrap] + [f"({t})" if " " in t else t for t in terms])

    str_with_zeros = __str__

    def __repr__(self) -> str:
        from .names import format_names
        return f"SwizzledFormula({str(self.layout)!r}, names={format_names(self.names)!r})"

    def index_text(self, q: str = "q") -> str:
        """The value over the linear index: the inner layout's floor/mod form, then the swizzle(s)."""
        lin = self.domain.index_text(q)
        o = _total_offset(self.layout)
        return _generic_text(self.layout, f"{o} + {lin}" if o else lin)

    def to_c(self, name: str = "layout", parameters=None, int_type: str | None = None) -> str:
        """Integer C/CUDA: the inner layout's function (``Formula.to_c``), then each offset and swizzle as
        CuTe's ``Swizzle::apply`` (``offset ^= (offset & yyy_msk) >> S``), innermost first.

        @post the function returns layout(c0, c1, ...) for each coordinate of the domain
        """
        chain, x = [], self.layout
        if isinstance(x, Swizzle):
            chain.append((0, x))
        while isinstance(x, ComposedLayout):
            if not isinstance(x.outer, Swizzle):
                raise SymcuteError(f"to_c: {self.layout} composes the layout {x.outer}; C code is generated for "
                                   f"swizzles over a layout")
            chain.append((int(x.offset), x.outer))
            x = x.inner
        lines = self.domain.to_c(name, parameters, int_type).splitlines()
        ret = lines[-2].strip()
        head = lines[2]
        int_t = head.split("inline ", 1)[1].split(f" {name}(", 1)[0]
        var = "offset"
        while var in {a.name for a in self.axes}:
            var += "_"
        body = [f"  {int_t} {var} = {ret[len('return '):-1]};"]
        for o, sw in reversed(chain):
            if o:
                body.append(f"  {var} += {o};")
            if sw.bits:
                shift = f">> {sw.shift}" if sw.shift >= 0 else f"<< {-sw.shift}"
                body.append(f"  {var} ^= ({var} & {sw.yyy_msk}) {shift};  // {sw}")
        return "\n".join([f"// {self.layout}", f"// {self}"] + lines[2:-2] + body + [f"  return {var};", "}"])

    def table(self) -> Table:
        """The bit table: for each offset bit, the named input bits XORed into it."""
        if self.bits is None:
            raise SymcuteError(f"formula {self.layout}: no bit table ({self.reason})")
        return self.bits.table()

    def domain_table(self) -> Table:
        """The inner layout's sub-axis / shape / stride / weight table."""
        return self.domain.table()

    # --- SymPy ----------------------------------------------------------------
    @property
    def bit_symbols(self) -> tuple:
        """0/1 SymPy symbols of the input bits, in order (``r_0, r_1, ..., c_5``)."""
        c = self._cache
        if "bit_symbols" not in c:
            import sympy
            c["bit_symbols"] = tuple(sympy.Symbol(b.name, integer=True, nonnegative=True)
                                     for b in self._bits().inputs)
        return c["bit_symbols"]

    def _bits(self) -> BitLayout:
        if self.bits is None:
            raise SymcuteError(f"formula {self.layout}: no polynomial over bits ({self.reason})")
        return self.bits

    @property
    def expr(self):
        """``sum(2^i * XOR_i)`` over 0/1 bit symbols, ``XOR(a, b) = a + b - 2ab`` (exact on {0, 1})."""
        import sympy
        b = self._bits()
        syms = self.bit_symbols
        total = sympy.Integer(0)
        for i in range(b.n_out):
            acc = sympy.Integer((b.constant >> i) & 1)
            for j, col in enumerate(b.matrix.columns):
                if (col >> i) & 1:
                    acc = sympy.expand(acc + syms[j] - 2 * acc * syms[j])
            total += sympy.Integer(1 << i) * acc
        return total

    def latex(self, zeros: bool = False) -> str:
        """``\\left(64 r + c\\right) \\oplus 2^{4} \\left(\\left\\lfloor r / 2 \\right\\rfloor \\bmod 4\\right)``."""
        lin = self.domain.latex(zeros)
        o = _total_offset(self.layout)
        if o:
            lin = f"{o} + {lin}"
        if self.bits is None or self.linear is None:
            return rf"\mathrm{{{_outer_name(self.layout)}}}\left({lin}\right)"
        parts = [rf"\left({lin}\right)" if " " in lin else lin]
        from .code import latex_name
        for name, lo, n, out in self.xor_terms():
            axis = latex_name(name)
            field = axis if not lo else rf"\left\lfloor {axis} / {1 << lo} \right\rfloor"
            if lo + n < _axis_width(self, name):
                field = rf"\left({field} \bmod {1 << n}\right)"
            parts.append(field if not out else rf"2^{{{out}}} {field}")
        if self.xor_constant():
            parts.append(str(self.xor_constant()))
        return r" \oplus ".join(parts)

    def lambdify(self, index: bool = False):
        """A numpy function of the sub-axis values (arrays broadcast), or with ``index=True`` of indices.

        Evaluates core's rule on arrays (linear form, offset, then each swizzle).
        """
        from . import exhaustive
        from .formula import _numpy
        np = _numpy()
        layout, axes = self.layout, self.axes
        if index:
            return lambda q: exhaustive.apply(layout, np.asarray(q, dtype=np.int64))

        def by_digits(*digits):
            if len(digits) != len(axes):
                raise SymcuteError(f"formula {self}: expected {len(axes)} sub-axis values "
                                   f"({', '.join(a.name for a in axes)}), got {len(digits)}")
            arrs = [np.asarray(x, dtype=np.int64) for x in digits]
            q = sum((a.weight * x for a, x in zip(axes, arrs)), np.zeros(np.broadcast_shapes(
                *(x.shape for x in arrs)) if arrs else (), dtype=np.int64))
            return exhaustive.apply(layout, q)
        return by_digits

    # --- JSON -----------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "layout": str(self.layout),
            "kind": "swizzled",
            "domain": self.domain.to_dict(),
            "bits": self.bits.to_dict() if self.bits is not None else None,
            "reason": self.reason,
            "text": str(self),
        }

    def to_json(self, **kw) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, **kw)

    @staticmethod
    def from_json(text) -> "SwizzledFormula":
        """Rebuild from :meth:`to_json` output (the layout re-parsed, the names re-applied, bits re-derived)."""
        from .. import jsonread
        from ..core.parse import parse_layout
        d = jsonread.loads(text, "SwizzledFormula.from_json") if isinstance(text, (str, bytes)) else text
        jsonread.checked(d, SWIZZLED_FORMULA_SCHEMA, "SwizzledFormula.from_json")
        try:
            layout = parse_layout(d["layout"])
            names = Formula.from_json(d["domain"]).names
            out = swizzled_formula(layout, names)
        except (KeyError, TypeError, ValueError, SymcuteError) as e:
            raise SymcuteError(f"SwizzledFormula.from_json: malformed formula JSON ({e})") from None
        if out.to_dict() != d:
            raise SymcuteError("SwizzledFormula.from_json: the stored formula does not match its layout")
        return out


SWIZZLED_FORMULA_SCHEMA = {"type": "object", "required": ["layout", "domain"],
                           "properties": {"layout": {"type": "string", "maxLength": 100_000},
                                          "domain": {"type": "object"}}}


# --- building ----------------------------------------------------------------------

def innermost_layout(layout):
    """The Layout that defines the domain of a (nested) ComposedLayout."""
    while isinstance(layout, ComposedLayout):
        layout = layout.inner
    return layout


def swizzled_formula(layout, names=None) -> SwizzledFormula:
    """The formula of a ComposedLayout or a Swizzle; ``names`` name the innermost layout's modes.

    A Swizzle on its own is a layout of ``[0, size)`` with one sub-axis (``x``, or the name given).
    """
    if isinstance(layout, SwizzledFormula):
        return layout if names is None else swizzled_formula(layout.layout, names)
    if isinstance(layout, Swizzle):
        domain = formula(Layout(layout.size(), 1), names if names is not None else "x")
    elif isinstance(layout, ComposedLayout):
        inner = innermost_layout(layout)
        if not isinstance(inner, Layout):
            raise SymcuteError(f"formula: {layout} has no layout as its domain (innermost {inner})")
        domain = formula(inner, names)
    else:
        raise SymcuteError(f"formula: {layout!r} is not a swizzled layout")
    return SwizzledFormula(layout, domain)


def _rebuilt(layout, domain: Formula) -> BitLayout:
    if isinstance(layout, Swizzle):
        return bit_layout(domain).then(layout)
    b = _inner_view(layout, domain)
    return BitLayout(b.inputs, b.matrix, b.constant, b.axes, layout)


def _inner_view(layout, domain: Formula) -> BitLayout:
    """The bits view of a ComposedLayout whose innermost layout is named by ``domain``."""
    if not isinstance(layout, ComposedLayout):
        return bit_layout(domain)
    from .bits import _add_offset  # noqa: same package: the offset rule of the bits view
    inner = _inner_view(layout.inner, domain)
    return _add_offset(inner, layout.offset, layout).then(layout.outer)


def _linear_part(layout, domain: Formula) -> BitLayout:
    """The bits view of ``O + L`` (every offset, no swizzle) over the same input bits."""
    from .bits import _add_offset  # noqa: same package
    b = bit_layout(domain)
    o = _total_offset(layout)
    return _add_offset(b, o, layout) if o else b


def _total_offset(layout) -> int:
    """The sum of the offsets of a chain of swizzles (each swizzle fixes 0, so they add up when disjoint)."""
    total = 0
    while isinstance(layout, ComposedLayout):
        total += int(layout.offset)
        layout = layout.inner
    return total


def _xor_fields(full: BitLayout, lin: BitLayout) -> list:
    """Group the XOR part ``full ^ lin`` into runs ``(axis, low bit, width, output bit)``."""
    groups: dict = {}
    order = []
    for j, bit in enumerate(full.inputs):
        diff = full.matrix.columns[j] ^ (lin.matrix.columns[j] if j < lin.n_in else 0)
        for o in bit_positions(diff):
            key = (bit.axis, o - bit.position)
            if key not in groups:
                groups[key] = []
                order.append(key)
            groups[key].append(bit.position)
    out = []
    for axis, shift in order:
        ps = sorted(groups[(axis, shift)])
        start = prev = ps[0]
        for p in ps[1:] + [None]:
            if p is not None and p == prev + 1:
                prev = p
                continue
            out.append((axis, start, prev - start + 1, shift + start))
            if p is not None:
                start = prev = p
    out.sort(key=lambda t: t[3])
    return out


def _axis_width(f: SwizzledFormula, axis: str) -> int:
    for a in f.axes:
        if a.name == axis:
            return (a.extent - 1).bit_length()
    return 0


def _field_text(axis: str, lo: int, n: int, out: int, width: int) -> str:
    """``r``, ``r >> 1``, ``r & 3`` or ``r >> 1 & 3`` (C precedence), shifted to output bit ``out``."""
    field = axis if not lo else f"{axis} >> {lo}"
    if lo + n < width:
        field = f"{field} & {(1 << n) - 1}"
    if not out:
        return field
    return f"({field}) << {out}" if " " in field else f"{field} << {out}"


def _outer_name(layout) -> str:
    return str(layout.outer) if isinstance(layout, ComposedLayout) else str(layout)


def _generic_text(layout, lin: str) -> str:
    """``Sw(v)`` spelled out when the bits view does not apply: ``v ^ ((v >> 7 & 7) << 4) with v = ...``."""
    sw = layout.outer if isinstance(layout, ComposedLayout) else layout
    if isinstance(sw, Swizzle) and not isinstance(getattr(layout, "inner", None), ComposedLayout):
        b, m, s = sw.bits, sw.base, sw.shift
        y, z = m + max(0, s), m - min(0, s)
        return f"v ^ ((v >> {y} & {(1 << b) - 1}) << {z}) with v = {lin}" if b else lin
    return f"{_outer_name(layout)}({lin})"
