"""Layout: an immutable ``(shape, stride)`` pair of congruent IntTuples (CuTe's ``Layout``).

A layout is a function from coordinates to offsets.  Coordinates may be an int
index (split colexicographically over the shape), a flat tuple or a nested tuple
congruent to the shape.  ``str(layout)`` prints exactly what CuTe's ``print``
prints for a static layout, underscores removed: ``((4,8),2):((1,4),32)``.
"""

from __future__ import annotations

import os as _os
from typing import Any

from ..errors import LayoutError, LimitError
from .budget import OPEN as _OPEN, charge_tuple
from . import int_tuple as it
from . import tuple_algorithms as ta
from .int_tuple import format_int_tuple
from .basis import ArithmeticTuple, ScaledBasis, arithmetic_stride_error, arithmetic_tuple_stride
from . import dispatch, kinds
from .dispatch import operation
from .integer import is_static
from .hook import traced

IntTuple = Any


class Underscore:
    """CuTe's ``_``: keeps a mode when slicing, skips a mode in a tiler."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "_"


_ = Underscore()


def _arithmetic_strides_built() -> None:
    """The first layout with an arithmetic-tuple stride arms the algebra's argument check (every traced
    operation refuses such layouts, whatever the overload); until then the check costs nothing."""
    dispatch.argument_check = refuse_arithmetic_arguments


def _check_leaf(x, what: str):
    if type(x) is ArithmeticTuple:
        _arithmetic_strides_built()
    if isinstance(x, bool) or not isinstance(x, (int, ScaledBasis, ArithmeticTuple)):
        raise LayoutError(f"layout {what} leaf {x!r} is not an integer")


MAX_DEPTH = 64  # far deeper than any CuTe layout; keeps recursion bounded
MAX_RANK = 1 << 16  # append<N>/prepend<N> build N modes; beyond this N is a typo, not a layout


def _normalize(t: IntTuple, what: str, depth: int = 0) -> IntTuple:
    if isinstance(t, (list, tuple)):
        if depth >= MAX_DEPTH:
            raise LayoutError(f"layout {what} is nested deeper than {MAX_DEPTH} levels")
        return tuple(_normalize(x, what, depth + 1) for x in t)
    _check_leaf(t, what)
    return t


def _arithmetic_strides(shape, stride):
    """``stride`` with each tuple that stands where ``shape`` has an integer read as a multi-term
    ArithmeticTuple stride (CuTe prints ``make_arithmetic_tuple(1,1)`` as ``(1,1)``, so
    ``(4,4):((1,1),(3,1))`` is CuTe's text of such a layout); else the congruence error."""
    if not isinstance(shape, tuple):
        # CuTe reads the stride of an integer-shaped layout as a tuple of modes (layout<0>(4:(1,1)) is 4:1),
        # not as one coordinate: no layout algebra; symcute takes arithmetic-tuple strides inside a tuple shape
        raise LayoutError(f"shape {format_int_tuple(shape)} and stride {format_int_tuple(stride)} are not congruent "
                          f"(an arithmetic-tuple stride is taken inside a tuple shape only, as in "
                          f"({format_int_tuple(shape)}):({format_int_tuple(stride)}))")

    def go(s, d):
        if isinstance(s, tuple):
            if not isinstance(d, tuple) or len(d) != len(s):
                raise LayoutError(f"shape {format_int_tuple(shape)} and stride {format_int_tuple(stride)} "
                                  f"are not congruent")
            return tuple(go(x, y) for x, y in zip(s, d))
        if isinstance(d, tuple):
            _arithmetic_strides_built()
            return arithmetic_tuple_stride(d, f"layout {format_int_tuple(shape)}:{format_int_tuple(stride)}")
        return d
    return go(shape, stride)


def has_arithmetic_strides(layout) -> bool:
    """Does ``layout`` have a multi-term ArithmeticTuple stride (which CuTe never evaluates)?"""
    return (isinstance(layout, Layout) and not layout._flat_modes()[2]
            and any(isinstance(d, ArithmeticTuple) for d in it.flatten_to_tuple(layout.stride)))


def refuse_arithmetic_strides(op: str, layout) -> None:
    """Raise CuTe's refusal of ``op`` on a layout with an arithmetic-tuple stride.  For the operations that
    multiply nothing but still fail in CuTe: its ArithmeticTuple is a tuple, so ``flatten``, ``filter_zeros``,
    ``zip`` ... walk into the stride's terms and the ranks no longer match the shape's."""
    if has_arithmetic_strides(layout):
        d = next(d for d in it.flatten_to_tuple(layout.stride) if isinstance(d, ArithmeticTuple))
        reason = (f"the arithmetic-tuple stride {d} is a tuple to CuTe's {op}, which then walks into its terms: "
                  f"CuTe compiles and prints such a layout (and its size, rank, shape, stride and modes) but "
                  f"refuses {op} on it")
        raise arithmetic_stride_error(f"{op}({layout}): CuTe refuses it: {reason}", reason)


def refuse_arithmetic_arguments(rule: str, args: tuple) -> None:
    """Every traced operation (the algebra) refuses a layout with an arithmetic-tuple stride, as CuTe does."""
    for a in args:
        if type(a) is Layout and not a._flat_modes()[2] and has_arithmetic_strides(a):
            d = next(d for d in it.flatten_to_tuple(a.stride) if isinstance(d, ArithmeticTuple))
            reason = (f"{a} has the arithmetic-tuple stride {d}: CuTe (arithmetic_tuple.hpp) has no operator* "
                      f"of an integer and an ArithmeticTuple, so it compiles and prints such a layout (its size, "
                      f"rank, shape, stride, modes, append, select) but evaluates none and refuses {rule} on it "
                      f"(where {rule} flattens the stride first, CuTe compiles it and reads the ArithmeticTuple's "
                      f"terms as extra modes, paired with the wrong extents: no layout's {rule}; symcute refuses "
                      f"that too)")
            shown = ", ".join(format_int_tuple(x) if isinstance(x, tuple) else str(x) for x in args)
            raise arithmetic_stride_error(f"{rule}({shown}): CuTe refuses it: {reason}", reason)


def _congruent_offset(c: tuple, shape, stride):
    """``sum(c_i * d_i)`` for an int coordinate congruent to a tuple shape with int strides; else ``None``.

    (Where the coordinate is coarser than the shape, or holds ``_``, ``crd2idx`` decides.)
    """
    if type(shape) is not tuple or len(c) != len(shape):
        return None
    total = 0
    for x, s, d in zip(c, shape, stride):
        if type(x) is int and type(s) is int:
            total += x * d
        elif type(x) is tuple:
            v = _congruent_offset(x, s, d)
            if v is None:
                return None
            total += v
        else:
            return None
    return total


def _plain_pair(shape, stride, depth: int) -> bool:
    """``shape`` and ``stride`` are congruent, nested at most MAX_DEPTH deep, of exact ``int`` leaves
    (stride leaves: ``int`` or ``ScaledBasis``): what the full check would accept unchanged."""
    if type(shape) is int:
        t = type(stride)
        return t is int or t is ScaledBasis
    if type(shape) is not tuple or type(stride) is not tuple or len(shape) != len(stride) or depth >= MAX_DEPTH:
        return False
    for s, d in zip(shape, stride):
        if type(s) is int:
            t = type(d)
            if t is not int and t is not ScaledBasis:
                return False
        elif not _plain_pair(s, d, depth + 1):
            return False
    return True


# The (shape, stride) pairs of tuple objects the public constructor has checked, by the identity
# of the two objects.  A tuple of ints (and frozen basis strides) is deeply immutable, so the same
# pair of objects passes the check every time, and a literal tuple in user code is the same object
# at every call: constructing from it again costs a look-up instead of a walk over every leaf.
# Keyed by the ids (XOR-ed: an int hashes faster than a pair), never by equality: (4.0,) == (4,) and (True,) == (1,) compare and hash equal but
# are not layouts.  The entry holds both objects, so their ids cannot be reused while it is
# remembered (the `is` checks on a hit say so explicitly).  Bounded: cleared when full.
_BUILT: dict = {}
_BUILT_MAX = 1024

# The optional C fast path (core/_fastlayout.c, built by ``pip install .`` where a C compiler is found):
# the same input check as ``_plain_pair`` and the same flat form as ``Layout._flat_modes``, without a
# Python step per leaf.  Without it (or with SYMCUTE_PURE_PYTHON=1) the Python code below does both.
try:
    if _os.environ.get("SYMCUTE_PURE_PYTHON"):
        raise ImportError("SYMCUTE_PURE_PYTHON is set")
    from . import _fastlayout
except ImportError:
    _fastlayout = None
_c_init = _c_flat_modes = None   # set below the class (the C init stores into its slots)


class Layout:
    """CuTe's ``Layout<Shape, Stride>``.

    ``Layout(shape)`` is compact column-major (CuTe's ``LayoutLeft``: size-1
    modes get stride 0).  Instances are values: ``shape`` and ``stride`` are
    read-only, equality is equality of shape and stride (as CuTe's
    ``operator==``), not of functions, and layouts hash.

    CuTe's member functions that are other operations are defined next to
    them: ``parse`` (``parse.py``), ``with_shape`` and ``compose``
    (``composition.py``), ``tile`` (``divide.py``).
    """

    __slots__ = ("_shape", "_stride", "_hash", "_flat")  # _flat: set on first evaluation (never by constructors)

    def __init__(self, shape: IntTuple, stride: IntTuple | None = None):
        if _c_init is not None:
            # 1: checked and stored; 2: the same, and a budget is open; 0: not plain (the full path)
            plain = _c_init(self, shape, stride)
            if plain != 1:
                if plain:
                    charge_tuple(shape, stride)
                else:
                    self._init_checked(shape, stride)
            return
        kind = type(shape)
        if kind is tuple and stride is not None:
            key = id(shape) ^ id(stride)  # an int hashes faster than a pair; a collision is a miss (`is` below)
            seen = _BUILT.get(key)
            hit = seen is not None and seen[0] is shape and seen[1] is stride
            if hit or _plain_pair(shape, stride, 0):
                # checked before, or now in one walk: congruent tuples of exact ints (strides may be
                # basis elements); anything else (lists, other leaves, errors) takes the full path below
                if _OPEN[0]:
                    charge_tuple(shape, stride)
                self._shape, self._stride, self._hash = shape, stride, None
                if not hit:
                    if len(_BUILT) >= _BUILT_MAX:
                        _BUILT.clear()
                    _BUILT[key] = (shape, stride)
                return
        elif kind is int and (type(stride) is int or type(stride) is ScaledBasis):
            if _OPEN[0]:
                charge_tuple(shape, stride)
            self._shape, self._stride, self._hash = shape, stride, None
            return
        self._init_checked(shape, stride)

    def _init_checked(self, shape, stride) -> None:
        """The constructor's full path: lists and other leaves normalised, compact strides, the errors."""
        shape = _normalize(shape, "shape")
        for s in it.flatten_to_tuple(shape):
            if not isinstance(s, int):
                raise LayoutError(f"layout shape {format_int_tuple(shape)} has a non-integer extent {s}")
        if stride is None:
            stride = it.compact_col_major(shape)
        else:
            stride = _normalize(stride, "stride")
            if not it.congruent(shape, stride):
                stride = _arithmetic_strides(shape, stride)
        if _OPEN[0]:
            charge_tuple(shape, stride)
        self._shape, self._stride, self._hash = shape, stride, None

    @classmethod
    def _make(cls, shape, stride) -> "Layout":
        """Internal constructor for values the algebra built itself (already checked; charged to the budget)."""
        if _OPEN[0]:
            charge_tuple(shape, stride)
        self = object.__new__(cls)
        self._shape = shape
        self._stride = stride
        self._hash = None
        return self

    # --- text ----------------------------------------------------------------
    def __str__(self) -> str:
        return format_int_tuple(self._shape) + ":" + format_int_tuple(self._stride)

    def __repr__(self) -> str:
        return f"Layout({str(self)!r})"

    def cute_str(self) -> str:
        """CuTe's own print: static integers as ``_4``, run-time ones as ``4`` (``(_2,1,_3):(3,_3,_1)``).

        ``Layout.parse`` reads this text back with the same static/run-time leaves.
        """
        return format_int_tuple(self._shape, True) + ":" + format_int_tuple(self._stride, True)

    def is_static(self) -> bool:
        """CuTe's ``is_static<Layout>``: no run-time integer in the shape or the stride."""
        return is_static(self._shape) and is_static(self._stride)

    # --- accessors -----------------------------------------------------------
    @property
    def shape(self) -> IntTuple:
        return self._shape

    @property
    def stride(self) -> IntTuple:
        return self._stride

    @property
    def rank(self) -> int:
        return it.rank(self._shape)

    @property
    def depth(self) -> int:
        return it.depth(self._shape)

    def size(self) -> int:
        return it.product(self._shape)

    def cosize(self):
        """One past the largest offset, as CuTe's ``cosize`` (``sum((s-1)*|d|) + 1``)."""
        return cosize(self)

    def __len__(self) -> int:
        return self.rank

    @traced("get", leaf=True)
    def __getitem__(self, i) -> "Layout":
        """Mode access: ``L[1]`` is CuTe's ``layout<1>(L)``; ``L[1, 0]`` is ``layout<1,0>(L)`` (a ``get`` step)."""
        return self._mode(i)

    def _mode(self, i) -> "Layout":
        path = i if isinstance(i, tuple) else (i,)
        shape, stride = self._shape, self._stride
        for k in path:
            if not hasattr(k, "__index__"):  # what Python's sequences accept as an index (ints, numpy ints)
                raise LayoutError(f"mode index {k!r} is not an integer (layout {self})")
            if not isinstance(shape, tuple):
                if k in (0, -1):
                    continue
                raise LayoutError(f"mode {i} out of range for layout {self}")
            if not -len(shape) <= k < len(shape):
                raise LayoutError(f"mode {i} out of range for layout {self}")
            shape, stride = shape[k], stride[k]
        return Layout._make(shape, stride)

    def modes(self) -> list["Layout"]:
        return [self[i] for i in range(self.rank)]

    # --- evaluation ----------------------------------------------------------
    def __call__(self, *coord):
        """Evaluate at an int index, a (nested) coordinate, or slice with ``_``."""
        c = coord[0] if len(coord) == 1 else tuple(coord)
        try:
            if type(c) is int and c >= 0:
                return self._at_index(c)
            flat = self._flat_modes()
            if type(c) is tuple and flat[2] and not flat[3]:
                value = _congruent_offset(c, self._shape, self._stride)
                if value is not None:   # a coordinate of ints congruent to the shape: the sum of c_i * d_i
                    return value
            if flat[3]:
                raise self._empty_mode_error()
            if has_underscore(c):
                return slice_(c, self)
            return it.crd2idx(c, self._shape, self._stride)
        except ZeroDivisionError:  # splitting an index over an extent 0 (C++: division by zero)
            shown = format_int_tuple(c) if isinstance(c, (int, tuple)) else repr(c)
            raise LayoutError(f"layout {self}: evaluating at {shown} divides by an extent 0") from None
        except RecursionError:  # a Python coordinate nested thousands deep (free to catch, costly to pre-check)
            raise LayoutError(f"layout {self}: the coordinate is nested too deeply to be a coordinate of it") from None
        except LayoutError as e:
            if not getattr(e, "arithmetic_stride", False):
                raise
            shown = format_int_tuple(c) if isinstance(c, (int, tuple)) else repr(c)
            raise arithmetic_stride_error(f"layout {self}: evaluating at {shown}: {e.reason}", e.reason) from None

    def _at_index(self, idx: int):
        # For an int index, CuTe's hierarchical split equals the split over the flattened
        # modes (the last flat mode takes the rest), so walk the flat modes directly.
        shape, stride = self._shape, self._stride
        if type(shape) is not tuple:
            return idx * stride
        try:
            fs, fd, ints, empty, signed = self._flat
        except AttributeError:  # first evaluation: flatten once
            fs, fd, ints, empty, signed = self._build_flat()
        if empty:
            raise self._empty_mode_error()
        if not ints or signed:
            # basis strides: CuTe's crd2idx sums from the last mode down, and there the order matters;
            # a negative extent: CuTe splits with C++'s truncating / and % by each mode's product
            # (a nested mode's product can be positive where its leaves are not), so the flat
            # floor-division walk below would differ (`(-3,-5):(1,-12)` at 13: 49, not 58)
            return it.crd2idx(idx, shape, stride)
        total = 0
        last = len(fs) - 1
        for i in range(last):
            if not idx:  # the higher digits are all 0: a digit's unit index costs its position, not the rank
                return total
            idx, r = divmod(idx, fs[i])
            total += r * fd[i]
        return total + idx * fd[last]

    def _flat_modes(self) -> tuple:
        """(flat shape, flat stride, all strides ints, has an empty mode, has a negative extent),
        computed once (layouts are immutable)."""
        try:
            return self._flat
        except AttributeError:
            return self._build_flat()

    def _build_flat(self) -> tuple:
        flat = _c_flat_modes(self._shape, self._stride) if _c_flat_modes is not None else None
        if flat is None:
            fs, fd = it.flatten_to_tuple(self._shape), it.flatten_to_tuple(self._stride)
            flat = (fs, fd, all(type(d) is int for d in fd), has_empty_mode(self._shape),
                    any(isinstance(s, int) and s < 0 for s in fs))
        self._flat = flat
        return flat

    def _empty_mode_error(self) -> LayoutError:
        return LayoutError(f"layout {self}: it has an empty mode (), which CuTe cannot evaluate "
                           f"(crd2idx has no case for an empty shape)")

    # --- CuTe member functions -----------------------------------------------
    def get_hier_coord(self, idx: int) -> IntTuple:
        """CuTe's ``Layout::get_hier_coord``: ``idx2crd(idx, shape(), stride())``.

        The coordinate is read off the *strides* (``(idx / d) % s`` per mode), not the
        colexicographic split of ``idx``: ``Layout((2,4),(64,6)).get_hier_coord(1) == (0, 0)``.
        @post for a compact layout, ``self(result) == idx`` for ``idx < size``
        """
        return it.idx2crd_strided(idx, self._shape, self._stride)

    def get_flat_coord(self, idx: int) -> IntTuple:
        """CuTe's ``Layout::get_flat_coord``: ``crd2crd(get_hier_coord(idx), shape(), repeat<rank>(1))``.

        For rank 1, ``repeat<1>(1)`` is the integer 1, so the result is an integer, not a 1-tuple.
        """
        h = self.get_hier_coord(idx)
        if self.rank == 1:
            return it.crd2idx(h, self._shape, it.compact_col_major(self._shape))
        return tuple(it.crd2idx(c, s, it.compact_col_major(s)) if isinstance(s, tuple) else c
                     for c, s in zip(it.wrap(h), it.wrap(self._shape)))

    def get_1d_coord(self, idx: int) -> int:
        """CuTe's ``Layout::get_1d_coord``: ``crd2idx(get_hier_coord(idx), shape())``."""
        return it.crd2idx(self.get_hier_coord(idx), self._shape, it.compact_col_major(self._shape))

    # --- identity ------------------------------------------------------------
    def __eq__(self, other) -> bool:
        return isinstance(other, Layout) and self._shape == other._shape and self._stride == other._stride

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash((self._shape, self._stride))
        return h

    def __reduce__(self):
        return (Layout, (self._shape, self._stride))


if _fastlayout is not None:
    _fastlayout.setup(ScaledBasis, _OPEN, MAX_DEPTH)
    _fastlayout.slots(Layout, Layout.__dict__["_shape"], Layout.__dict__["_stride"], Layout.__dict__["_hash"])
    _c_init, _c_flat_modes = _fastlayout.init, _fastlayout.flat_modes
    # the constructor itself in C: Layout(shape, stride) of plain tuples runs no Python frame
    Layout.__init__ = _fastlayout.make_init(Layout, Layout.__init__, Layout._init_checked, charge_tuple)


def _shown(x) -> str:
    return format_int_tuple(x) if isinstance(x, tuple) else str(x)


def has_empty_mode(t: IntTuple) -> bool:
    """True when the IntTuple ``t`` is or contains an empty tuple ``()`` (a mode with no modes)."""
    if type(t) is not tuple:
        return False
    return not t or any(type(x) is tuple and has_empty_mode(x) for x in t)


def no_modes_error(op: str, layout) -> LayoutError:
    """CuTe's algebra takes the last flattened mode (``get<R-1>``); a layout with none has no value."""
    return LayoutError(f"{op}({layout}): the layout has no modes (rank 0, or only empty modes); "
                       f"CuTe's {op} takes its last mode (get<R-1>) and does not compile for it")


def has_underscore(c) -> bool:
    """Does the coordinate ``c`` hold a ``_`` (is it a slice)?"""
    if isinstance(c, Underscore):
        return True
    return isinstance(c, tuple) and any(has_underscore(x) for x in c)


# --- construction -------------------------------------------------------------

@operation("make_layout", leaf=True)
def make_layout(*args) -> Layout:
    """CuTe's ``make_layout``: ``(shape)``, ``(shape, stride)``, or concatenation of layouts.

    (``make_layout(Swizzle)`` is registered in ``swizzle_layout.py``.)
    """
    if args and all(type(a) is Layout for a in args):
        if len(args) == 1:  # CuTe wraps a single layout's shape and stride: make_shape(shape)
            return Layout._make((args[0]._shape,), (args[0]._stride,))
        return Layout._make(tuple(a._shape for a in args), tuple(a._stride for a in args))
    if len(args) == 1:
        return Layout(args[0])
    if len(args) == 2:
        major = MAJOR_TAGS.get(args[1]) if isinstance(args[1], str) else None
        if major == "LayoutRight":
            return Layout(args[0], it.compact_row_major(_normalize(args[0], "shape")))
        if major == "LayoutLeft":
            return Layout(args[0])
        return Layout(args[0], args[1])
    raise LayoutError("make_layout takes a shape, a shape and a stride, or layouts")


# CuTe's major-ness tags and their aliases (stride.hpp: ``using GenColMajor = LayoutLeft``, ``GenRowMajor =
# LayoutRight``; CUTLASS's own examples spell them both ways)
MAJOR_TAGS = {"LayoutLeft": "LayoutLeft", "GenColMajor": "LayoutLeft",
              "LayoutRight": "LayoutRight", "GenRowMajor": "LayoutRight"}


@traced("make_ordered_layout", leaf=True)
def make_ordered_layout(shape: IntTuple, order: IntTuple) -> Layout:
    """Compact layout of ``shape`` whose strides increase in the order ``order``."""
    shape = _normalize(shape, "shape")
    return Layout(shape, it.compact_order(shape, _normalize(order, "order")))


@traced("make_layout_like", leaf=True)
def make_layout_like(layout: Layout) -> Layout:
    """Compact layout with ``layout``'s shape and stride order; stride-0 modes stay 0.

    @pre every stride is an integer: CuTe orders the modes by ``stride < stride``, which does
    not compile for basis strides (``no match for 'operator<'``), so those are a LayoutError.
    """
    if type(layout) is not Layout:
        raise LayoutError(f"make_layout_like({_shown(layout)}): CuTe's make_layout_like takes a Layout only "
                          f"(layout.hpp; no overload for a {type(layout).__name__})")
    shape, stride = layout.shape, layout.stride
    bad = next((d for d in it.flatten_to_tuple(stride) if not it.is_int(d)), None)
    if bad is not None:
        raise LayoutError(f"make_layout_like({layout}): stride {bad} is not an integer, and CuTe orders the "
                          f"modes by comparing strides (no operator< for a basis stride)")
    filtered = _filter_zeros_tuple(stride, shape)
    return Layout(shape, it.compact_order(filtered, stride))


@traced("make_identity_layout", leaf=True)
def make_identity_layout(shape: IntTuple) -> Layout:
    """``shape:basis`` mapping each coordinate to itself (CuTe's ``make_identity_layout``)."""
    shape = _normalize(shape, "shape")

    def basis(s, path):
        if isinstance(s, tuple):
            return tuple(basis(x, path + (i,)) for i, x in enumerate(s))
        return ScaledBasis(1, path)
    return Layout(shape, basis(shape, ()))


def _filter_zeros_tuple(a: IntTuple, b: IntTuple) -> IntTuple:
    """Replace the elements of ``b`` paired with a 0 in ``a`` by 1 (CuTe's ``filter_zeros(a, b)``)."""
    if isinstance(a, tuple):
        return tuple(_filter_zeros_tuple(x, y) for x, y in zip(a, b))
    if a == 0 and type(a) is int:   # is_constant<0>: a run-time 0 stride is kept
        return it.repeat_like(b, 1)
    return b


kinds.register("Layout", Layout)
kinds.register("Underscore", Underscore)


# --- tuple-like operations on layouts ---------------------------------------------

def size(x, *mode) -> int:
    if isinstance(x, Layout):
        return x[mode].size() if mode else x.size()
    if hasattr(x, "size") and callable(x.size):
        return x.size()
    return it.product(x)


def cosize(layout) -> Any:
    """One past the largest offset: ``sum((s - 1) * |d|) + 1`` (CuTe's ``cosize``: ``size(coshape(layout))``).

    A layout with basis strides has a coordinate codomain; its cosize is the size of :func:`coshape`
    (``cosize((4,8):(1@0,1@1)) == 32``).
    """
    if not isinstance(layout, Layout):
        if not callable(getattr(layout, "cosize", None)):
            raise LayoutError(f"cosize({_shown(layout)}): CuTe's cosize takes a layout (or a tensor), not a "
                              f"{type(layout).__name__}")
        return layout.cosize()
    total = 1
    for s, d in zip(it.flatten_to_tuple(layout._shape), it.flatten_to_tuple(layout._stride)):
        if isinstance(d, ArithmeticTuple):  # CuTe: no operator* of an int and an ArithmeticTuple
            d._refused_in(f"cosize({layout})")
        if type(d) is not int and not it.is_int(d):
            return it.product(coshape(layout))
        total += (s - 1) * (d if d >= 0 else -d)
    return total


def coshape(layout) -> Any:
    """CuTe's ``coshape``: the smallest codomain coordinate C with ``elem_less(layout(c), C)`` for every c.

    ``inner_product(shape - 1, abs(stride))`` read as an ArithmeticTuple, plus 1 at each leaf: an integer
    for integer strides (the cosize), a tuple for basis strides (``coshape((4,8):(1@0,1@1)) == (4,8)``).
    The sum is CuTe's, in its order: a basis element plus a nonzero integer is refused as CuTe refuses it.
    @post size(coshape(layout)) == cosize(layout)
    """
    if type(layout) is not Layout:
        raise LayoutError(f"coshape({_shown(layout)}): CuTe's coshape takes a Layout (layout.hpp), not a "
                          f"{type(layout).__name__}")
    for d in it.flatten_to_tuple(layout._stride):
        if isinstance(d, ArithmeticTuple):
            d._refused_in(f"coshape({layout})")
    m1 = it.transform_leaf(layout._shape, lambda s: s - 1)
    co = it.inner_product(m1, it.transform_leaf(layout._stride, abs))
    if type(co) is ScaledBasis:
        co = ArithmeticTuple.of(co)
    return it.transform_leaf(ta.as_tuple(co), lambda c: c + 1)


# The ComposedLayout overloads of the operations below (CuTe's layout_composed.hpp) are
# registered in layout_composed.py.

@operation()
def rank(x) -> int:
    return x.rank if isinstance(x, Layout) else it.rank(x)


@operation()
def depth(x) -> int:
    return x.depth if isinstance(x, Layout) else it.depth(x)


@operation("shape", leaf=True)
def shape(x):
    return x.shape if isinstance(x, Layout) else x


@traced("stride", leaf=True)
def stride(x):
    """CuTe's ``stride(layout)``; of a Tensor, its layout's (``tensor_impl.hpp``).  A ComposedLayout has
    none (``layout_composed.hpp`` deletes it) and an IntTuple is no layout."""
    if isinstance(x, Layout):
        return x.stride
    if kinds.is_kind(x, "Tensor"):
        return stride(x.layout())
    if hasattr(x, "inner"):
        raise LayoutError(f"stride({x}): a ComposedLayout has no stride (CuTe: stride(ComposedLayout) = delete)")
    kinds.layout_like("stride", (x,), 0, composed=False, tensor=True)


@operation("flatten", leaf=True)
def flatten(x):
    if isinstance(x, Layout):
        refuse_arithmetic_strides("flatten", x)
        shape = it.flatten(x._shape)
        return x if shape is x._shape else Layout._make(shape, it.flatten(x._stride))
    return ta.flatten(x)


@operation("unflatten", leaf=True)
def unflatten(x, profile):
    """CuTe's ``unflatten(x, profile)``: a flat layout (or tuple) folded into ``profile``'s nesting.

    @pre rank(x) == rank(flatten(profile)); for a layout, ``x`` is flat
    @post congruent(result, profile)
    """
    if isinstance(x, Layout):
        return Layout._make(ta.unflatten(x._shape, profile), ta.unflatten(x._stride, profile))
    return ta.unflatten(x, profile)


@operation("append", leaf=True)
def append(layout: Layout, x: Layout | None = None, n: int | None = None) -> Layout:
    """CuTe's ``append`` (``append<N>`` pads with ``x``, default ``1:0``, up to rank ``n``).

    On a tuple or an int (or a layout and an ``x`` that is no layout) it is CuTe's tuple algorithm:
    ``append((4,8), 1, 4) == (4,8,1,1)``, ``append(L, 2) == (L, 2)``.
    """
    kinds.mode_index("append", (layout, x, n), 2, none=True)
    if type(layout) is not Layout or (x is not None and type(x) is not Layout):
        if x is None:
            raise LayoutError(f"append({_shown(layout)}): the tuple append needs the element to append")
        return ta.append(layout, x, n)
    x = x if x is not None else Layout(1, 0)
    return Layout._make(_append(layout.shape, x.shape, n), _append(layout.stride, x.stride, n))


@traced("prepend", leaf=True)
def prepend(layout: Layout, x: Layout | None = None, n: int | None = None) -> Layout:
    """CuTe's ``prepend`` (``prepend<N>`` pads at the front up to rank ``n``); on tuples as :func:`append`."""
    kinds.mode_index("prepend", (layout, x, n), 2, none=True)
    if type(layout) is not Layout or (x is not None and type(x) is not Layout):
        if x is None:
            raise LayoutError(f"prepend({_shown(layout)}): the tuple prepend needs the element to prepend")
        return ta.prepend(layout, x, n)
    x = x if x is not None else Layout(1, 0)
    return Layout._make(_prepend(layout.shape, x.shape, n), _prepend(layout.stride, x.stride, n))


def _append(t, x, n):
    if n is not None and n > MAX_RANK:
        raise LimitError(f"append<{n}>: rank {n} exceeds the limit of {MAX_RANK} modes")
    if n is None:
        return (t if isinstance(t, tuple) else (t,)) + (x,)
    if not isinstance(t, tuple):
        if n == 1:
            return t
        t = (t,)
    if n < len(t):
        raise LayoutError(f"append<{n}>: rank {len(t)} is already larger")
    return t + (x,) * (n - len(t))


def _prepend(t, x, n):
    if n is not None and n > MAX_RANK:
        raise LimitError(f"prepend<{n}>: rank {n} exceeds the limit of {MAX_RANK} modes")
    if n is None:
        return (x,) + (t if isinstance(t, tuple) else (t,))
    if not isinstance(t, tuple):
        if n == 1:
            return t
        t = (t,)
    if n < len(t):
        raise LayoutError(f"prepend<{n}>: rank {len(t)} is already larger")
    return (x,) * (n - len(t)) + t


@operation("group", leaf=True)
def group(layout: Layout, b: int, e: int) -> Layout:
    """CuTe's ``group<B,E>``: gather modes ``[b, e)`` into one mode (``e == -1``: to the end); on a tuple
    or an int, CuTe's tuple ``group``."""
    kinds.mode_index("group", (layout, b, e), 1, 2)
    if type(layout) is not Layout:
        return ta.group(layout, b, e)
    if e == -1:
        e = layout.rank
    def g(t):
        t = t if isinstance(t, tuple) else (t,)
        if not 0 <= b <= e <= len(t):
            raise LayoutError(f"group<{b},{e}>: range out of bounds for rank {len(t)}")
        return t[:b] + ((t[b:e],) if b < e else ()) + t[e:]
    return Layout._make(g(layout.shape), g(layout.stride))


@traced("select", leaf=True)
def select(layout: Layout, *modes: int) -> Layout:
    """CuTe's ``select<I...>``: the layout made of the chosen modes.

    Anything else is CuTe's tuple ``select``, ``make_tuple(get<I>(x)...)``: on a tuple or an int a tuple
    (``select((1,2,3,4), 0, 2) == (1,3)``); on a ComposedLayout (which has no ``select`` overload in
    ``layout_composed.hpp``) the tuple of its modes ``A o O o B<I>``.
    """
    kinds.mode_index("select", (layout, *modes), *range(1, len(modes) + 1))
    if type(layout) is not Layout:
        if hasattr(layout, "inner"):   # a ComposedLayout: get<I> is its mode
            for m in modes:
                if not 0 <= m < layout.rank:
                    raise LayoutError(f"select: mode {m} out of range for rank {layout.rank}")
            return tuple(layout[m] for m in modes)
        return ta.select(layout, *modes)
    for m in modes:
        if not 0 <= m < layout.rank:
            raise LayoutError(f"select: mode {m} out of range for rank {layout.rank}")
    sh = layout.shape if isinstance(layout.shape, tuple) else (layout.shape,)
    st = layout.stride if isinstance(layout.stride, tuple) else (layout.stride,)
    return Layout._make(tuple(sh[m] for m in modes), tuple(st[m] for m in modes))


@operation("take", leaf=True)
def take(layout: Layout, b: int, e: int) -> Layout:
    """CuTe's ``take<B,E>``: modes ``[b, e)``; on a tuple or an int, CuTe's tuple ``take`` (``e == -1``: to
    the end; an empty range is the empty tuple there, while the layout's take asserts ``B < E``)."""
    kinds.mode_index("take", (layout, b, e), 1, 2)
    if type(layout) is not Layout:
        return ta.take(layout, b, e)
    if not (b < e and 0 <= b and e <= layout.rank):
        raise LayoutError(f"take<{b},{e}>: empty or out-of-bounds range for rank {layout.rank}")
    return select(layout, *range(b, e))


@traced("get", leaf=True)
def get(layout: Layout, *path: int) -> Layout:
    """CuTe's ``get<I...>(layout)`` (``layout<I...>``): the mode at ``path``."""
    if not path:
        return layout
    if isinstance(layout, Layout):
        return layout._mode(path)
    if hasattr(layout, "inner"):   # a ComposedLayout: A o O o get<I...>(B)
        return layout[path]
    return ta.get(layout, *path)


@operation()
def zip_layouts(*layouts: Layout) -> Layout:
    """CuTe's ``zip``: transpose a rank-R0 x rank-R1 nesting (of one layout, or of several); on tuples
    and ints, CuTe's tuple ``zip``."""
    if not layouts or not all(type(x) is Layout for x in layouts):
        if any(type(x) is Layout for x in layouts):
            raise LayoutError(f"zip({', '.join(_shown(x) for x in layouts)}): layouts zip only with layouts")
        if not layouts:
            raise LayoutError("zip(): nothing to zip")
        return ta.zip(*layouts)
    for layout in layouts:
        refuse_arithmetic_strides("zip", layout)
    if len(layouts) == 1:
        return Layout._make(_zip(layouts[0].shape), _zip(layouts[0].stride))
    return Layout._make(_zip(tuple(l.shape for l in layouts)), _zip(tuple(l.stride for l in layouts)))


def _zip(t):
    if not isinstance(t, tuple):
        return t
    if not isinstance(t[0], tuple):
        return (t,)
    r = len(t[0])
    if any(not isinstance(x, tuple) or len(x) != r for x in t):
        raise LayoutError(f"zip: Mismatched Ranks in {format_int_tuple(t)}")
    return tuple(tuple(x[j] for x in t) for j in range(r))


@operation(on=1)
def slice_(coord, layout: Layout) -> Layout:
    """CuTe's ``slice``: keep the modes where ``coord`` has ``_``; nested ``_`` tuples flatten.

    On a tuple or an int, CuTe's ``slice`` of ``underscore.hpp``: ``slice((_,1), ((2,3),(5,7,9))) == ((2,3),)``.
    """
    kinds.coordinate("slice", (coord, layout), 0)
    if type(layout) is not Layout:
        return _slice(ta.as_tuple(coord), ta.as_tuple(layout))
    return Layout._make(_slice(coord, layout.shape), _slice(coord, layout.stride))


def underscore_as_zero(c):
    """CuTe's Underscore evaluates as ``Int<0>``: the coordinate with 0 for each ``_``."""
    if isinstance(c, tuple):
        return tuple(underscore_as_zero(x) for x in c)
    return 0 if isinstance(c, Underscore) else c


@operation("slice_and_offset", on=1)
def slice_and_offset(coord, layout: Layout):
    """CuTe's ``slice_and_offset(coord, layout)``: ``(slice(coord, layout), layout(coord))``, ``_`` as 0.

    @post result[0] == slice(coord, layout); layout(c) == result[1] + result[0](c') where c' fills the ``_``
    """
    kinds.layout_like("slice_and_offset", (coord, layout), 1)
    kinds.coordinate("slice_and_offset", (coord, layout), 0)
    return slice_(coord, layout), layout(underscore_as_zero(coord))


@operation(on=1)
def domain_offset(coord, layout: Layout):
    """CuTe's ``domain_offset(coord, layout)``: ``(layout, layout(coord))`` (the domain is not moved for a Layout)."""
    kinds.layout_like("domain_offset", (coord, layout), 1, tensor=True)
    kinds.coordinate("domain_offset", (coord, layout), 0)
    return layout, layout(coord)


def _slice(c, t):
    if isinstance(c, tuple):
        if not isinstance(t, tuple) or len(c) != len(t):
            raise LayoutError(f"slice: Mismatched Ranks between {c} and {format_int_tuple(t)}")
        out: tuple = ()
        for x, y in zip(c, t):
            out += _lift_slice(x, y)
        return out
    if isinstance(c, Underscore):
        return t
    return ()


def _lift_slice(c, t) -> tuple:
    if isinstance(c, tuple):
        if not isinstance(t, tuple) or len(c) != len(t):
            raise LayoutError(f"slice: Mismatched Ranks between {c} and {format_int_tuple(t)}")
        out: tuple = ()
        for x, y in zip(c, t):
            out += _lift_slice(x, y)
        return out
    if isinstance(c, Underscore):
        return (t,)
    return ()
