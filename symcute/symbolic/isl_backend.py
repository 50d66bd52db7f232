"""The exact integer-set back-end: layouts as ISL maps, claims decided by islpy.

A CuTe layout evaluated on an integer index is a Presburger function: with the
flattened shape ``s_i``, strides ``d_i`` and prefix products ``W_i``,
``L(q) = sum_i d_i * (floor(q / W_i) mod s_i)`` for ``q >= 0`` (the last mode
has no ``mod``: CuTe lets it take any overflow), and ``L(q) = -L(-q)`` for
``q < 0`` (C++ division truncates).  A swizzle ``Sw<B,M,S>`` xors bit fields:
each output bit is ``(y + z) mod 2`` of two input bits, again Presburger (bit
existentials); ``floor(x / 2^k) mod 2`` is bit ``k`` of ``x`` in two's complement,
so the same text is core's value (C++ ``^``, ``&``, ``>>`` on signed ints) on
negative offsets too (see :func:`swizzle_pieces` for the one mask that sign-extends).  ISL (through islpy) decides emptiness, equality, injectivity
and image inclusion of such maps exactly, whatever the sizes (2^40 included),
and gives a point of every non-empty set: that is where refinement carries,
floor/mod and swizzles leave the digit argument without an answer
(the NVIDIA ISL model of CuTe layouts, arXiv 2511.10374).

Every counterexample this module returns is re-evaluated with ``symcute.core``
by the prover before it is shown.  ISL work is bounded (``MAX_OPERATIONS``); a
query that runs past it is "unknown", never a guess.

``to_isl(L)`` is also a public export: an ``islpy.Map`` from the index (or,
with ``digits=True``, from the named sub-axis digits) to the value.
"""

from __future__ import annotations

from ..core import int_tuple as it
from ..core.layout import Layout
from ..errors import SymcuteError
from .formula import Formula, formula

# islpy's bound on the elementary operations of one query (ISL's ``max_operations``); past it the
# query raises and the answer is "unknown".
MAX_OPERATIONS = 400_000

INSTALL_HINT = "the exact back-end needs islpy: pip install islpy (a dependency of symcute)"


class NotRepresentable(Exception):
    """The term has no Presburger form here (the reason is the message): the claim stays undecided."""


class Exhausted(Exception):
    """ISL ran past MAX_OPERATIONS."""


def available() -> bool:
    try:
        import islpy  # noqa: F401
    except ImportError:
        return False
    return True


def _isl():
    try:
        import islpy
    except ImportError:
        raise SymcuteError(INSTALL_HINT) from None
    return islpy


# --- terms as maps on all integers -----------------------------------------------------

def _layout_text(layout: Layout, x: str) -> str:
    """CuTe's value of ``layout`` at ``x >= 0`` as an ISL affine expression (floor and mod by constants)."""
    shape = it.flatten_to_tuple(layout.shape)
    stride = it.flatten_to_tuple(layout.stride)
    terms, w = [], 1
    for k, (s, d) in enumerate(zip(shape, stride)):
        if type(s) is not int or type(d) is not int:
            raise NotRepresentable(f"{layout}: only integer shapes and strides have a Presburger form")
        if s < 1:
            raise NotRepresentable(f"{layout}: extent {s} (CuTe divides by it)")
        last = k == len(shape) - 1
        if d != 0 and (s != 1 or last):
            digit = x if w == 1 else f"floor({x}/{w})"
            if not last:
                digit = f"(({digit}) mod {s})"
            terms.append((d, digit))
        w *= s
    return _sum(terms)


def _sum(terms) -> str:
    """``c0*e0 + c1*e1 - ...`` in ISL's syntax (it reads no parenthesised constant such as ``(-2)*x``)."""
    out = ""
    for c, e in terms:
        mag = "" if abs(c) == 1 else f"{abs(c)}*"
        if not out:
            out = f"{'-' if c < 0 else ''}{mag}{e}"
        else:
            out += f" {'-' if c < 0 else '+'} {mag}{e}"
    return out or "0"


# Where a swizzle's Y mask has bit 31 set (S > 0 and M + S + B == 32), CuTe's ``int`` mask is negative:
# ``x & yyy_msk`` keeps every bit of ``x`` from M + S up (sign extension), and the xor then reaches every
# bit from M + B = 32 - S up.  Not Presburger for all integers; exact on this range (see swizzle_pieces).
SIGN_EXTENDED_RANGE = (-(1 << 31), 1 << 32)


def _swizzle_field(sw, x: str) -> str:
    """``x`` plus, per Z bit, the change ``((y + z) mod 2) - z``: ``Sw<B,M,S>(x)`` for every integer ``x``
    when the Y mask is non-negative (``floor`` and ``mod 2`` read two's-complement bits)."""
    ybase = sw.base + max(0, sw.shift)
    zbase = sw.base - min(0, sw.shift)
    parts = [x]
    for k in range(sw.bits):
        y, z = f"floor({x}/{1 << (ybase + k)})", f"floor({x}/{1 << (zbase + k)})"
        parts.append(f"{1 << (zbase + k)}*((({y}) + ({z})) mod 2 - (({z}) mod 2))")
    return " + ".join(parts)


def swizzle_pieces(sw, x: str):
    """``Sw<B,M,S>(x)`` as ``[(condition or None, value text)]``, pieces whose conditions partition the
    integers where the text equals core's value (every integer, or ``SIGN_EXTENDED_RANGE``).

    @post for every integer x satisfying a piece's condition, its value is ``sw(x)`` (core)
    """
    field = _swizzle_field(sw, x)
    if sw.yyy_msk >= 0:
        return [(None, field)]
    lo, hi = SIGN_EXTENDED_RANGE
    c = 1 << (sw.base + sw.bits)
    # x < 0: every bit of x from 32 up is 1, so the xor flips every bit from c up: subtract (2*floor(x/c)+1)*c
    return [(f"0 <= {x} < {hi}", field),
            (f"{lo} <= {x} < 0", f"{field} - {2 * c}*floor({x}/{c}) - {c}")]


def function_map(term, ctx):
    """``term`` as a single-valued ISL map on the integers where CuTe evaluates it.

    Layouts and swizzles: every integer (negative ones by C++ truncation and two's-complement bits; a
    swizzle whose Y mask holds bit 31: ``SIGN_EXTENDED_RANGE``);
    ``ComposedLayout(A, O, B)``: ``c -> A(O + B(c))``; ``Compose(outer, inner)``: ``outer o inner``.
    """
    isl = _isl()
    from ..core.composed import ComposedLayout
    from ..core.swizzle import Swizzle
    from .linear import Compose
    if isinstance(term, Formula):
        term = term.layout
    if isinstance(term, Layout):
        f = _layout_text(term, "x")
        g = _layout_text(term, "(-x)")
        return isl.Map(f"{{ [x] -> [v] : x >= 0 and v = {f}; [x] -> [v] : x < 0 and v = -({g}) }}", context=ctx)
    if isinstance(term, Swizzle):
        pieces = "; ".join(f"[x] -> [v] : {cond + ' and ' if cond else ''}v = {value}"
                           for cond, value in swizzle_pieces(term, "x"))
        return isl.Map(f"{{ {pieces} }}", context=ctx)
    if isinstance(term, ComposedLayout):
        if type(term.offset) is not int:
            raise NotRepresentable(f"{term}: the offset {term.offset} is not an integer")
        inner = function_map(term.inner, ctx)
        shift = isl.Map(f"{{ [x] -> [x + {term.offset}] }}", context=ctx)
        return inner.apply_range(shift).apply_range(function_map(term.outer, ctx))
    if isinstance(term, Compose):
        return function_map(term.inner, ctx).apply_range(function_map(term.outer, ctx))
    raise NotRepresentable(f"{term!r} is not a layout, a swizzle, a composed layout or a Compose")


def _box(n: int, ctx, lo: int = 0):
    return _isl().Set(f"{{ [x] : {lo} <= x < {n} }}", context=ctx)


def _on(term, n: int, ctx, lo: int = 0):
    """``term``'s map on ``[lo, n)``; NotRepresentable unless it is defined on every input there (a query over a
    partial map would silently drop the other inputs)."""
    box = _box(n, ctx, lo)
    m = function_map(term, ctx).intersect_domain(box)
    if not m.domain().is_equal(box):
        lo_, hi = SIGN_EXTENDED_RANGE
        raise NotRepresentable(f"{term_name(term)} applies a swizzle with a sign-extended Y mask to an offset "
                               f"outside [{lo_}, {hi}) (not encoded)")
    return m


def term_name(term) -> str:
    from .linear import term_text
    try:
        return str(term_text(term))
    except Exception:  # a term the printer does not know: the error text still names its type
        return type(term).__name__


def _context():
    isl = _isl()
    ctx = isl.Context()
    ctx.set_max_operations(MAX_OPERATIONS)
    return ctx


def to_isl(L, domain: int | None = None, digits: bool = False):
    """``L`` as an ``islpy.Map``: ``{ [q] -> [v] : 0 <= q < domain and v = L(q) }`` (``domain`` defaults
    to the size), or with ``digits=True`` from the named sub-axis digits of its formula
    (``{ [t0, t1, ...] -> [v] : 0 <= t0 < 4 and ... and v = 64*t0 + t1 + ... }``).

    @post for every q in the domain, the map's only image of q is core's ``L(q)``
    """
    try:
        return _to_isl(L, domain, digits)
    except NotRepresentable as e:  # a user's layout with no Presburger form (basis strides): their error
        raise SymcuteError(f"to_isl: {e}") from None


def _to_isl(L, domain, digits):
    ctx = _context()
    if digits:
        f = L if isinstance(L, Formula) else formula(L)
        names = [a.name for a in f.axes]
        isl = _isl()
        dom = " and ".join(f"0 <= {a.name} < {a.extent}" for a in f.axes) or "true"
        value = _sum([(a.stride, a.name) for a in f.axes if a.stride])
        return isl.Map(f"{{ [{', '.join(names)}] -> [v] : {dom} and v = {value} }}", context=ctx)
    from .linear import size_of
    n = size_of(L) if domain is None and not _is_swizzle(L) else domain
    if n is None:
        raise SymcuteError("to_isl: a swizzle has no size of its own; give domain=")
    return function_map(L, ctx).intersect_domain(_box(n, ctx))


def _is_swizzle(x) -> bool:
    from ..core.swizzle import Swizzle
    return isinstance(x, Swizzle)


# --- decisions ---------------------------------------------------------------------------
# Each returns ``(holds, witness, evidence)``: the witness is None when the claim holds, and the
# evidence is the ISL text of the set whose emptiness decided it; or raises NotRepresentable /
# Exhausted (the claim stays undecided).

def _point(s) -> tuple:
    """The lexicographically smallest point of a non-empty set, as ints."""
    isl = _isl()
    try:
        p = s.lexmin().sample_point()
    except isl.Error:
        p = s.sample_point()
    n = s.dim(isl.dim_type.set)
    return tuple(p.get_coordinate_val(isl.dim_type.set, i).to_python() for i in range(n))


def _guard(fn):
    def run(*args):
        isl = _isl()
        try:
            return fn(*args)
        except isl.Error as e:
            text = str(e).strip().splitlines()[0] if str(e).strip() else "isl error"
            if "maximal number of operations" in text:
                raise Exhausted(f"ISL stopped after {MAX_OPERATIONS} operations "
                                f"(symcute.symbolic.isl_backend.MAX_OPERATIONS)") from None
            raise NotRepresentable(f"ISL refused the query: {text}") from None
    run.__name__, run.__doc__ = fn.__name__, fn.__doc__
    return run


@_guard
def equal(lhs, rhs, n: int):
    """``lhs(q) == rhs(q)`` on ``[0, n)``: ``(True, None)`` or ``(False, q)`` with the smallest such ``q``."""
    ctx = _context()
    a, b = _on(lhs, n, ctx), _on(rhs, n, ctx)
    diff = a.subtract(b).domain()
    if diff.is_empty():
        return True, None, f"{{ q in [0, {n}) : lhs(q) != rhs(q) }} = {diff} is empty"
    return False, _point(diff)[0], str(diff)


@_guard
def injective(term, n: int):
    """``term`` injective on ``[0, n)``: ``(True, None)`` or ``(False, (x, y))``, ``x < y``, same value."""
    ctx = _context()
    m = _on(term, n, ctx)
    isl = _isl()
    pairs = m.apply_range(m.reverse())
    later = isl.Map("{ [x] -> [y] : y > x }", context=ctx)
    clash = pairs.intersect(later).wrap()
    if clash.is_empty():
        return True, None, f"{{ (x, y) : 0 <= x < y < {n}, L(x) == L(y) }} = {clash} is empty"
    x, y = _point(clash)
    return False, (x, y), str(clash)


@_guard
def covers(term, size: int, n: int):
    """Every ``y`` in ``[0, n)`` is ``term(x)`` for some ``x < size``: ``(True, None)`` or ``(False, y)``."""
    ctx = _context()
    image = _on(term, size, ctx).range()
    missing = _box(n, ctx).subtract(image)
    if missing.is_empty():
        return True, None, f"[0, {n}) minus the image of [0, {size}) = {missing} is empty"
    return False, _point(missing)[0], str(missing)


@_guard
def inside(term, size: int, n: int):
    """Every value of ``term`` on ``[0, size)`` lies in ``[0, n)``: ``(True, None)`` or ``(False, x)``."""
    ctx = _context()
    m = _on(term, size, ctx)
    out = m.intersect_range(_box(n, ctx)).domain()
    bad = _box(size, ctx).subtract(out)
    if bad.is_empty():
        return True, None, f"{{ x in [0, {size}) : L(x) outside [0, {n}) }} = {bad} is empty"
    return False, _point(bad)[0], str(bad)


@_guard
def image_relation(a, na: int, b, nb: int, relation: str, a_from: int = 0):
    """Images of ``a`` on ``[a_from, na)`` and ``b`` on ``[0, nb)``: ``relation`` ``"disjoint"`` or ``"subset"``
    (a's image inside b's); ``(True, None)`` or ``(False, w)``: for ``"subset"`` an index ``x`` of ``a`` whose
    value b never takes, for ``"disjoint"`` the pair ``(x, y)`` with ``a(x) == b(y)``."""
    ctx = _context()
    ma = _on(a, na, ctx, a_from)
    mb = _on(b, nb, ctx)
    ib = mb.range()
    if relation == "disjoint":
        meet = ma.apply_range(mb.reverse()).wrap()
        if meet.is_empty():
            return True, None, f"{{ (x, y) : {a_from} <= x < {na}, 0 <= y < {nb}, a(x) == b(y) }} = {meet} is empty"
        return False, _point(meet), str(meet)
    elif relation == "subset":
        bad = ma.subtract_range(ib).domain()
    else:
        raise SymcuteError(f"image_relation: unknown relation {relation!r}")
    if bad.is_empty():
        return True, None, f"{{ x in [{a_from}, {na}) : the {relation} condition fails at x }} = {bad} is empty"
    return False, _point(bad)[0], str(bad)


@_guard
def same_image(L, R, up: int, down: int):
    """``image(R) == { down * floor(v / up) + j : v in image(L), 0 <= j < down }``: ``(True, None, evidence)``
    or ``(False, value, evidence)`` with a value in one image and not the other."""
    isl = _isl()
    ctx = _context()
    a = _on(L, L.size(), ctx).range()
    a = a.apply(isl.Map(f"{{ [v] -> [w] : {down}*floor(v/{up}) <= w < {down}*floor(v/{up}) + {down} }}", context=ctx))
    b = _on(R, R.size(), ctx).range()
    diff = a.subtract(b).union(b.subtract(a))
    if diff.is_empty():
        return True, None, f"the symmetric difference of the two images, {diff}, is empty"
    return False, _point(diff)[0], str(diff)
