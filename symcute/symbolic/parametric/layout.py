"""ParamLayout: a CuTe layout whose leaves are static ints or dynamic expressions in parameters.

The structure (nesting, which leaves are static) is what CuTe's types are; the
dynamic leaves are what CuTe computes at run time, as closed forms over the
declared parameters.  ``str()`` prints in the declared names without
underscores (symcute's default notation); ``cute_str(values)`` prints what
CuTe's ``print`` prints for those run-time values (``_128`` static, ``256``
dynamic); ``subs(values)`` is the core :class:`~symcute.core.Layout` of the
same printed structure, its dynamic leaves core's run-time integers
(:class:`~symcute.core.integer.DynamicInt`), so core's algebra on it takes the
same run-time code paths and ``subs(values).cute_str() == cute_str(values)``.
"""

from __future__ import annotations

import re
import warnings

from .lazy_sympy import sympy

from ...core import Layout
from ...core.integer import DynamicInt
from ...errors import IntOverflowWarning, LayoutError, ParseError, SymcuteError
from .conditions import Params
from .printing import show_expr, show_tree
from . import values as V


INT_MAX = 2**31 - 1   # CuTe's run-time integers: C++ int
INT_MIN = -(2**31)


def _leaves(t) -> list:
    if type(t) is tuple:
        out = []
        for x in t:
            out.extend(_leaves(x))
        return out
    return [t]


class ParamLayout:
    """CuTe's ``Layout<Shape, Stride>`` with run-time extents named by parameters.

    ``conditions`` lists the facts (in the declared names) that the operations
    producing this layout relied on; each holds for every admissible value of
    the parameters, as proved when it was used.
    """

    __slots__ = ("shape", "stride", "params", "conditions")

    def __init__(self, shape, stride, params: Params, conditions: tuple = ()):
        self.shape = shape
        self.stride = stride
        self.params = params
        self.conditions = tuple(conditions)

    # --- structure ---------------------------------------------------------------------
    @property
    def rank(self) -> int:
        return len(self.shape) if type(self.shape) is tuple else 1

    def __getitem__(self, i) -> "ParamLayout":
        path = i if isinstance(i, tuple) else (i,)
        s, d = self.shape, self.stride
        for k in path:
            if type(s) is tuple:
                if not 0 <= k < len(s):
                    raise LayoutError(f"mode {k} of {self} does not exist (rank {len(s)})")
                s, d = s[k], d[k]
            elif k != 0:
                raise LayoutError(f"mode {k} of {self} does not exist (rank 1)")
        return ParamLayout(s, d, self.params, self.conditions)

    def modes(self) -> list["ParamLayout"]:
        if type(self.shape) is tuple:
            return [ParamLayout(s, d, self.params, self.conditions) for s, d in zip(self.shape, self.stride)]
        return [self]

    def is_static(self) -> bool:
        return V.is_static(self.shape) and V.is_static(self.stride)

    def size(self):
        with V.using(self.params):
            out = 1
            for s in _leaves(self.shape):
                out = V.mul(out, s)
            return out

    def cosize(self):
        """CuTe's ``cosize``: ``layout(size - 1) + 1``."""
        with V.using(self.params):
            total = 1
            for s, d in zip(_leaves(self.shape), _leaves(self.stride)):
                total = V.add(total, V.mul(V.sub(s, 1), d))
            return total

    # --- values ------------------------------------------------------------------------
    def __call__(self, *coord):
        """The offset of a coordinate (ints or SymPy symbols, congruent to the shape), in declared names."""
        c = coord[0] if len(coord) == 1 else coord
        return self.params.user(sympy.expand(_crd2idx(c, self.shape, self.stride)))

    def subs(self, values: dict, *, warn_overflow: bool = True) -> Layout:
        """The core Layout CuTe computes for these run-time values: same printed structure, dynamic leaves
        as core's run-time integers (``DynamicInt``).

        Issues an :class:`~symcute.errors.IntOverflowWarning` when a parameter value or a dynamic leaf
        does not fit CuTe's 32-bit ``int`` (``warn_overflow=False`` for evaluations that are not CuTe's,
        such as a prover's search for a witness).
        """
        inner = self.params.check_values(values)
        ev = lambda x: x if type(x) is int else DynamicInt(self.params.evaluate(x, inner))
        if warn_overflow:
            self._warn_int_overflow(values, inner)
        return Layout(_map(self.shape, ev), _map(self.stride, ev))

    def _warn_int_overflow(self, values: dict | None, inner: dict | None) -> None:
        """CuTe's run-time integers are C++ ``int`` (``make_shape(M, K)`` with ``int M, K``): warn where one
        is beyond it.  Static leaves are types, not run-time ints; an intermediate product that overflows and
        comes back into range (``(K * 2^20) / 2^20``) is not seen, only the values CuTe stores."""
        found = [(str(k), v) for k, v in (values or {}).items() if not INT_MIN <= v <= INT_MAX]
        if not found:
            for where, tree in (("shape", self.shape), ("stride", self.stride)):
                for x in _leaves(tree):
                    if type(x) is int or (inner is None and x.free_symbols):
                        continue
                    v = self.params.evaluate(x, inner or {})
                    if not INT_MIN <= v <= INT_MAX:
                        found.append((f"{where} leaf {show_expr(self.params.user(x))}", v))
                        break
        if found:
            what, v = found[0]
            warnings.warn(f"{self}: {what} = {v} does not fit CuTe's 32-bit int (|value| > 2^31 - 1); "
                          f"compiled CuTe overflows there, symcute keeps the exact value",
                          IntOverflowWarning, stacklevel=3)

    def cute_str(self, values: dict | None = None) -> str:
        """CuTe's ``print``: static leaves with ``_``; dynamic leaves evaluated at ``values`` if given
        (then it is core's ``subs(values).cute_str()``), else shown as expressions.  An
        :class:`~symcute.errors.IntOverflowWarning` where a run-time value does not fit CuTe's 32-bit ``int``."""
        if values is not None:
            self._warn_int_overflow(values, self.params.check_values(values))
            return self.subs(values, warn_overflow=False).cute_str()
        self._warn_int_overflow(None, None)   # dynamic constants (pasted CuTe output) are values too

        def leaf(x):
            if type(x) is int:
                return f"_{x}"
            return show_expr(self.params.user(x))
        return show_tree(self.shape, leaf) + ":" + show_tree(self.stride, leaf)

    def __str__(self) -> str:
        leaf = lambda x: show_expr(self.params.user(x)) if type(x) is not int else str(x)
        return show_tree(self.shape, leaf) + ":" + show_tree(self.stride, leaf)

    def __repr__(self) -> str:
        return f"ParamLayout({self})"

    def __eq__(self, other) -> bool:
        return (isinstance(other, ParamLayout) and _same(self.shape, other.shape)
                and _same(self.stride, other.stride) and self.params == other.params)

    def __hash__(self) -> int:
        return hash((str(self), self.params))

    def with_conditions(self, used) -> "ParamLayout":
        conds = list(self.conditions)
        for u in used:
            if u not in conds:
                conds.append(u)
        return ParamLayout(self.shape, self.stride, self.params, tuple(conds))


def _same(a, b) -> bool:
    if type(a) is tuple or type(b) is tuple:
        return type(a) is tuple and type(b) is tuple and len(a) == len(b) and all(map(_same, a, b))
    if type(a) is int or type(b) is int:
        return type(a) is int and type(b) is int and a == b
    return sympy.simplify(a - b) == 0


def _map(t, f):
    if type(t) is tuple:
        return tuple(_map(x, f) for x in t)
    return f(t)


def _crd2idx(c, s, d):
    if type(c) is tuple:
        if type(s) is not tuple or len(c) != len(s):
            raise LayoutError(f"coordinate {c} is not congruent to the shape")
        return sum((_crd2idx(x, y, z) for x, y, z in zip(c, s, d)), sympy.Integer(0))
    if type(s) is tuple:  # an index split colexicographically over the modes
        if isinstance(c, int) or isinstance(c, sympy.Integer):
            total, rest = sympy.Integer(0), int(c)
            for i, (y, z) in enumerate(zip(s, d)):
                n = V._known_int(_size(y))
                if n is None:
                    raise LayoutError("an integer coordinate over a dynamic mode needs a tuple coordinate")
                if i == len(s) - 1:
                    total += _crd2idx(rest, y, z)
                else:
                    total += _crd2idx(rest % n, y, z)
                    rest //= n
            return total
        raise LayoutError("a symbolic coordinate must be congruent to the shape")
    return sympy.Integer(c) * V._expr(d) if isinstance(c, int) else c * V._expr(d)


def _size(s):
    out = 1
    for x in _leaves(s):
        out = out * (x if type(x) is int else x)
    return out


# --- construction -------------------------------------------------------------------------

class dynamic:
    """A run-time integer with a known value (CuTe's plain ``int``), for ``layout(...)``: ``dynamic(4)``."""

    __slots__ = ("value",)

    def __init__(self, value: int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise SymcuteError(f"dynamic({value!r}): not an integer")
        self.value = value


def _leaf_in(x, params: Params, what: str):
    if isinstance(x, dynamic):
        return sympy.Integer(x.value)
    if type(x) is DynamicInt:   # core's run-time integer: a dynamic constant here
        return sympy.Integer(int(x))
    if isinstance(x, bool):
        raise LayoutError(f"layout {what} leaf {x!r} is not an integer")
    if isinstance(x, int):
        return x
    if isinstance(x, sympy.Basic):
        e = params.inner(x)
        if not e.is_integer:
            raise LayoutError(f"layout {what} leaf {x} is not an integer expression")
        return e
    raise LayoutError(f"layout {what} leaf {x!r} is not an integer, a parameter or an expression in parameters")


def _tree_in(t, params, what):
    if isinstance(t, (tuple, list)):
        return tuple(_tree_in(x, params, what) for x in t)
    return _leaf_in(t, params, what)


def _congruent(a, b) -> bool:
    if type(a) is tuple:
        return type(b) is tuple and len(a) == len(b) and all(map(_congruent, a, b))
    return type(b) is not tuple


def compact_col_major(shape, current=1):
    """CuTe's ``compact_major<LayoutLeft>``: a static-1 mode gets ``_0``, a dynamic one the running stride."""
    return _compact(shape, current)[0]


def _compact(shape, current):
    if type(shape) is tuple:
        out = []
        for s in shape:
            d, current = _compact(s, current)
            out.append(d)
        return tuple(out), current
    if V.is_constant(1, shape):
        return 0, current
    return current, V.mul(current, shape)


def compact_row_major(shape, current=1):
    if type(shape) is tuple:
        out = [None] * len(shape)
        for i in range(len(shape) - 1, -1, -1):
            out[i] = compact_row_major(shape[i], current)
            current = V.mul(current, _size_static_aware(shape[i]))
        return tuple(out)
    if V.is_constant(1, shape):
        return 0
    return current


def _size_static_aware(s):
    out = 1
    for x in _leaves(s):
        out = V.mul(out, x)
    return out


def _collect_params(t, acc):
    if isinstance(t, (tuple, list)):
        for x in t:
            _collect_params(x, acc)
    elif isinstance(t, sympy.Basic):
        for s in t.free_symbols:
            acc.add(s)


def layout(shape, stride=None, params: Params | None = None) -> ParamLayout:
    """A parametric layout: ``layout((M, K), (K, 1), params=P)``.

    Python ints are static (CuTe's ``Int<n>{}``), parameters and expressions in
    them are dynamic, ``dynamic(n)`` is a run-time ``n``.  Without ``stride``
    the layout is compact column-major (CuTe's ``make_layout(shape)``).
    ``params`` defaults to the latest declaration of each symbol used.
    """
    if params is None:
        from .registry import params_of
        syms = set()
        _collect_params(shape, syms)
        _collect_params(stride, syms)
        params = params_of(syms)
    s = _tree_in(shape, params, "shape")
    with V.using(params) as e:
        if stride is None:
            d = compact_col_major(s)
        else:
            d = _tree_in(stride, params, "stride")
            if not _congruent(s, d):
                raise LayoutError(f"layout shape {show_tree(s, str)} and stride {show_tree(d, str)} are not congruent")
        return ParamLayout(s, d, params, tuple(e.used))


def lift(core: Layout, params: Params) -> ParamLayout:
    """A core Layout as a ParamLayout: its static leaves static (as CuTe's atom layouts are), its run-time
    integers (``DynamicInt``) dynamic constants."""
    if not isinstance(core, Layout):
        raise LayoutError(f"{core!r} is not a layout")
    if core.is_static():
        return ParamLayout(core.shape, core.stride, params)
    ev = lambda x: sympy.Integer(int(x)) if type(x) is DynamicInt else x
    return ParamLayout(_map(core.shape, ev), _map(core.stride, ev), params)


# --- notation -------------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(?P<num>_?-?\d+)|(?P<name>[A-Za-z][A-Za-z0-9]*)|(?P<op>[(),:*]))")


def parse(text: str, params: Params) -> ParamLayout:
    """``(M,K):(K,1)`` over declared parameters; a leaf is an int, a name or a product (``128*K``).

    Numbers are static, as in symcute's notation, unless the text is CuTe's own
    print (some number is written ``_n``): then unprefixed numbers are the
    run-time integers CuTe prints them as.  Nothing here evaluates text.
    """
    if not isinstance(text, str):
        raise ParseError(f"parametric layout: {text!r} is not text")
    if len(text) > 100_000:
        raise ParseError("parametric layout: text longer than 100000 characters")
    toks = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m:
            raise ParseError(f"parametric layout {text!r}: unexpected {text[pos:pos + 10]!r} at {pos}")
        kind = m.lastgroup
        toks.append((kind, m.group(kind), m.start(kind)))
        pos = m.end()
    cute_print = any(k == "num" and v.startswith("_") for k, v, _ in toks)
    names = set(params.names())
    i = 0

    def err(msg):
        where = toks[i][2] if i < len(toks) else len(text)
        return ParseError(f"parametric layout {text!r}: {msg} at {where}")

    def leaf():
        nonlocal i
        factors = []
        while True:
            if i >= len(toks):
                raise err("expected a number or a parameter")
            k, v, _ = toks[i]
            if k == "num":
                n = int(v.lstrip("_"))
                factors.append(n if (v.startswith("_") or not cute_print) else sympy.Integer(n))
            elif k == "name":
                if v not in names:
                    raise err(f"{v} is not a declared parameter (declared: {', '.join(sorted(names)) or 'none'})")
                factors.append(params[v])
            else:
                raise err(f"expected a number or a parameter, got {v!r}")
            i += 1
            if i < len(toks) and toks[i][1] == "*":
                i += 1
                continue
            break
        out = factors[0]
        for f in factors[1:]:
            out = (out * f) if (type(out) is int and type(f) is int) else (sympy.Integer(out) if type(out) is int else out) * f
        return out

    def tree(depth=0):
        nonlocal i
        if depth > 64:
            raise err("nested deeper than 64 levels")
        if i < len(toks) and toks[i][1] == "(":
            i += 1
            items = [tree(depth + 1)]
            while i < len(toks) and toks[i][1] == ",":
                i += 1
                items.append(tree(depth + 1))
            if i >= len(toks) or toks[i][1] != ")":
                raise err("expected ')'")
            i += 1
            return tuple(items)
        return leaf()

    shape = tree()
    stride = None
    if i < len(toks) and toks[i][1] == ":":
        i += 1
        stride = tree()
    if i != len(toks):
        raise err(f"unexpected {toks[i][1]!r}")
    return layout(_dyn_marks(shape), None if stride is None else _dyn_marks(stride), params)


def _dyn_marks(t):
    """SymPy integers from the parser are run-time constants: ``dynamic`` for :func:`layout`."""
    if type(t) is tuple:
        return tuple(_dyn_marks(x) for x in t)
    if isinstance(t, sympy.Integer):
        return dynamic(int(t))
    return t
