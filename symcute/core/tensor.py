"""Tensor: a layout over an iterator (CuTe's ``Tensor<Engine, Layout>``), and CuTe's partitioning functions.

symcute's tensors hold no data.  The iterator (the engine) is one of

- CuTe's ``counting_iterator<int>``: an integer offset, so an element's value is its index;
- for :func:`make_identity_tensor`, CuTe's ``ArithmeticTuple`` counting iterator (an element's
  value is its coordinate);
- a :class:`~symcute.core.pointer.Pointer` (gmem/smem/rmem/tmem, or a raw ``T*`` for an owning
  register tensor) of an element type at an offset, a swizzle_ptr among them; an element's value
  is its index in elements from the pointer's base (after the swizzle_ptr's swizzle);
- a :class:`~symcute.core.pointer.DescriptorIterator` (GMMA/UMMA smem-descriptor fragments).

The layout is a Layout or a ComposedLayout (``Sw o O o L``, whose partitions slice with CuTe's
``slice_and_offset``).  That is what a partition returns in CuTe (``tensor_impl.hpp``): the
layout of the piece and where it starts.

- ``t(c)`` with an integer or coordinate: the element, ``data + layout(c)`` (``data[layout(c)]``);
- ``t(c)`` with ``_`` in ``c``: the slice, ``Tensor(data + layout(c with _ = 0), slice(c, layout))``
  (CuTe's ``slice_and_offset``);
- :func:`dice`, :func:`inner_partition`, :func:`outer_partition`, :func:`local_tile` (with a
  projection ``Step<_1,X,_1>``), :func:`local_partition`, as ``tensor_impl.hpp`` / ``underscore.hpp``
  define them.

``str(t)`` is CuTe's ``print(tensor)``: ``iterator o layout``, the iterator printed as CuTe prints it
(``counting_iter(N)``, ``ArithTuple(0,0)``, ``smem_ptr[16b](0x40)``, ``GMMA::DescriptorIterator``).
"""

from __future__ import annotations

from . import int_tuple as it, kinds
from .basis import ArithmeticTuple
from .composed import ComposedLayout, SmemPtrFlag
from .divide import zipped_divide
from .layout import Layout, Underscore, _, make_identity_layout, make_layout, slice_and_offset
from .numeric import sizeof_bits
from .swizzle import Swizzle
from .pointer import DescriptorIterator, Pointer, raw_ptr
from .recast import recast_layout
from ..errors import LayoutError


_ITERATORS = (ArithmeticTuple, Pointer, DescriptorIterator)


class Tensor:
    """CuTe's ``Tensor``: an iterator ``data`` (an int offset, an ArithmeticTuple for identity tensors,
    a Pointer or a DescriptorIterator) and a layout (a Layout or a ComposedLayout)."""

    __slots__ = ("_data", "_layout")

    def __init__(self, layout, data=0):
        if isinstance(layout, (int, tuple)) and not isinstance(layout, bool):
            layout = make_layout(layout)
        if not isinstance(layout, (Layout, ComposedLayout)):
            raise LayoutError(f"Tensor: {layout!r} is not a layout")
        if not (isinstance(data, _ITERATORS) or (isinstance(data, int) and not isinstance(data, bool))):
            raise LayoutError(f"Tensor: the data {data!r} is not an integer offset, a coordinate or a pointer")
        self._layout, self._data = layout, data

    def layout(self):
        return self._layout

    def data(self):
        """The iterator: the offset of element 0 for a counting iterator (CuTe's ``raw_pointer_cast(t.data())``),
        else the ArithmeticTuple, Pointer or DescriptorIterator."""
        return self._data

    @property
    def engine(self) -> str:
        """The kind of iterator: ``counting``, ``coord`` (identity tensors), ``gmem``, ``smem``, ``rmem``,
        ``tmem``, ``ptr`` (an owning register tensor's raw ``T*``) or ``desc`` (smem descriptors)."""
        d = self._data
        if isinstance(d, Pointer):
            return d.space or "ptr"
        if isinstance(d, DescriptorIterator):
            return "desc"
        return "coord" if isinstance(d, ArithmeticTuple) else "counting"

    @property
    def value_type(self):
        """The element type of a pointer tensor (None for counting iterators and descriptors)."""
        return self._data.value_type if isinstance(self._data, Pointer) else None

    def is_smem(self) -> bool:
        """CuTe's ``is_smem<Engine>``."""
        return isinstance(self._data, Pointer) and self._data.space == "smem"

    @property
    def shape(self):
        return self._layout.shape

    def size(self) -> int:
        return self._layout.size()

    @property
    def rank(self) -> int:
        return self._layout.rank

    def __len__(self) -> int:
        return self.rank

    def __call__(self, *coord):
        c = coord[0] if len(coord) == 1 else tuple(coord)
        if _has_underscore(c):
            sliced, offset = _slice_and_offset(c, self._layout)
            return Tensor(sliced, self._data + offset)
        k = self._layout(c)
        if isinstance(self._data, (Pointer, DescriptorIterator)):
            return self._data.element(k)
        return self._data + k

    def __getitem__(self, c):
        return self(c)

    def __eq__(self, other) -> bool:
        return isinstance(other, Tensor) and self._layout == other._layout and self._data == other._data

    def __hash__(self) -> int:
        return hash((self._layout, str(self._data)))

    def __str__(self) -> str:
        """CuTe's ``print(tensor)``: ``print(t.data()); print(" o "); print(t.layout())``."""
        if isinstance(self._data, ArithmeticTuple):
            return f"ArithTuple{self._data} o {self._layout}"
        if isinstance(self._data, (Pointer, DescriptorIterator)):
            return f"{self._data} o {self._layout}"
        return f"counting_iter({self._data}) o {self._layout}"

    def __repr__(self) -> str:
        return f"Tensor({str(self._layout)!r}, data={self._data!r})"


kinds.register("Tensor", Tensor)


def make_tensor(layout, data=0) -> Tensor:
    """``make_tensor(counting_iterator<int>(data), layout)``; a shape is ``make_layout(shape)``.

    With a Pointer, ``make_tensor(ptr, layout)`` (either argument order): CuTe's overload for
    ``Sw o smem_ptr_flag o L`` (``pointer_flagged.hpp``) moves the swizzle into the pointer,
    ``make_tensor(make_smem_ptr(ptr, Sw), L)``.
    @pre a flagged layout goes with an smem pointer of the flag's bit width (CuTe's static_asserts)
    """
    if isinstance(layout, (Pointer, DescriptorIterator)):
        layout, data = data, layout
    if isinstance(data, Pointer) and isinstance(layout, ComposedLayout) and isinstance(layout.offset, SmemPtrFlag):
        if data.space != "smem":
            raise LayoutError(f"make_tensor({data}, {layout}): Expected smem (CuTe: static_assert is_smem)")
        if layout.offset.bits != data.bits:
            raise LayoutError(f"make_tensor({data}, {layout}): Expected a {layout.offset.bits}-bit pointer type, "
                              f"got {data.value_type} ({data.bits} bits)")
        if data.swizzle is not None:
            raise LayoutError(f"make_tensor({data}, {layout}): the pointer is already a swizzle_ptr")
        sw = layout.outer
        if not isinstance(sw, Swizzle):
            raise LayoutError(f"make_tensor({data}, {layout}): the flagged layout's outer function is not a swizzle")
        ptr = Pointer("smem", data.value_type, data.offset, None if sw.bits == 0 else sw)
        return Tensor(layout.inner, ptr)
    return Tensor(layout, data)


def make_register_tensor(layout, value_type) -> Tensor:
    """``make_tensor<T>(layout)``: an owning register tensor (its iterator a raw ``T*``, address 0 here)."""
    return Tensor(layout, raw_ptr(value_type))


def recast(tensor: Tensor, new_type) -> Tensor:
    """CuTe's ``recast<NewType>(tensor)`` (``tensor_impl.hpp``) of a pointer tensor.

    The layout is ``recast_layout<OldType,NewType>``; an upcast of a plain layout with negative
    strides moves the pointer back by the static negative extents, as CuTe does.
    """
    if not isinstance(tensor, Tensor) or not isinstance(tensor.data(), Pointer):
        raise LayoutError(f"recast<{new_type}>({tensor}): expected a tensor over a typed pointer")
    p = tensor.data()
    old, new = p.bits, sizeof_bits(new_type)
    if old == new and p.value_type == str(new_type):
        return tensor
    lay = tensor.layout()
    new_lay = recast_layout(lay, p.value_type, new_type)
    offset = 0
    if old < new and isinstance(lay, Layout):
        olds, news, strides = it.flatten(lay.shape), it.flatten(new_lay.shape), it.flatten(lay.stride)
        for a, b, d in zip(it.wrap(olds), it.wrap(news), it.wrap(strides)):
            offset += min((a - b) * d, 0)
    start = p.offset + offset
    if (start * old) % new != 0:
        raise LayoutError(f"recast<{new_type}>({tensor}): the pointer at element {start} is not aligned to "
                          f"{new_type}")
    return Tensor(new_lay, Pointer(p.space, str(new_type), start * old // new, p.swizzle))


def make_identity_tensor(shape) -> Tensor:
    """CuTe's ``make_identity_tensor``: each element is its own coordinate."""
    lay = make_identity_layout(shape)
    zero = ArithmeticTuple(it.transform_leaf(it.wrap(shape) if not isinstance(shape, tuple) else shape,
                                             lambda s: 0))
    return Tensor(lay, zero)


def _has_underscore(c) -> bool:
    return isinstance(c, Underscore) or (isinstance(c, tuple) and any(_has_underscore(x) for x in c))


def _zero_underscores(c):
    if isinstance(c, Underscore):
        return 0
    return tuple(_zero_underscores(x) for x in c) if isinstance(c, tuple) else c


def _slice_and_offset(c, layout):
    # CuTe's Tensor::operator() slices with slice_and_offset (ComposedLayouts: their registered overload);
    # unrecorded, as the tensor's own operation is what a derivation shows
    return slice_and_offset.dispatch(c, layout)


def _as_tensor(x, fn: str) -> Tensor:
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (Layout, ComposedLayout)):
        return Tensor(x)
    raise LayoutError(f"{fn}: expected a tensor or a layout, got {x!r}")


def dice(c, b):
    """CuTe's ``dice``: keep the elements of ``b`` paired with an integer in ``c`` (drop those with ``_``);
    ``dice(1, b) == b``.  On a layout, its shape and stride are diced alike.

    @pre c and b have the same rank where c is a tuple (CuTe: "Mismatched Ranks")
    """
    if isinstance(b, Layout):
        return Layout(_dice(c, b.shape, top=True), _dice(c, b.stride, top=True))
    return _dice(c, b, top=True)


def _dice(a, b, top: bool):
    if isinstance(a, tuple):
        if not isinstance(b, tuple) or len(a) != len(b):
            raise LayoutError(f"dice({it.format_int_tuple(a)}, {it.format_int_tuple(b)}): Mismatched Ranks")
        out: tuple = ()
        for x, y in zip(a, b):
            out += _dice(x, y, top=False)
        return out
    if isinstance(a, Underscore):
        return ()
    return b if top else (b,)


def inner_partition(tensor, tiler, coord) -> Tensor:
    """``zipped_divide(tensor, tiler)`` sliced into its rest mode: ``t(repeat<R0>(_), append<R1>(coord, _))``.

    A coordinate that is a tuple is padded with ``_`` to the rank of the rest mode; an integer indexes
    the rest mode flat.
    """
    t = _as_tensor(tensor, "inner_partition")
    tiled = Tensor(zipped_divide(t.layout(), tiler), t.data())
    r0, r1 = _mode_rank(tiled, 0), _mode_rank(tiled, 1)
    first = (_,) * r0 if r0 > 1 else _
    if isinstance(coord, tuple):
        return tiled(first, _append(coord, r1))
    return tiled(first, coord)


def outer_partition(tensor, tiler, coord) -> Tensor:
    """``zipped_divide(tensor, tiler)`` sliced into its tile mode: ``t(append<R0>(coord, _), repeat<R1>(_))``."""
    t = _as_tensor(tensor, "outer_partition")
    tiled = Tensor(zipped_divide(t.layout(), tiler), t.data())
    r0, r1 = _mode_rank(tiled, 0), _mode_rank(tiled, 1)
    rest = (_,) * r1 if r1 > 1 else _
    if isinstance(coord, tuple):
        return tiled(_append(coord, r0), rest)
    return tiled(coord, rest)


def local_tile(tensor, tiler, coord, proj=None) -> Tensor:
    """The tile of ``tensor`` at ``coord`` of the remainder (``inner_partition``); with ``proj``
    (``Step<_1,X,_1>``) the tiler and coordinate are diced first.

    ``local_tile(data, (32,64), (bx,by))`` is the CTA's (32,64) tile.
    """
    if proj is not None:
        tiler, coord = dice(proj, tiler), dice(proj, coord)
    return inner_partition(tensor, tiler, coord)


def local_partition(tensor, tile: Layout, index: int, proj=None) -> Tensor:
    """Thread ``index``'s elements when ``tile`` (thread coordinate -> index) repeats over ``tensor``:
    ``outer_partition(tensor, product_each(shape(tile)), tile.get_flat_coord(index))``.

    @pre index is an integer (CuTe static_asserts is_integral)
    """
    if not isinstance(tile, Layout):
        raise LayoutError(f"local_partition: the thread layout {tile!r} is not a layout")
    if isinstance(index, bool) or not isinstance(index, int):
        raise LayoutError(f"local_partition: the index {it.format_int_tuple(index)} is not an integer (CuTe: is_integral<Index>)")
    if proj is not None:
        tile = dice(proj, tile)
    return outer_partition(tensor, it.product_each(tile.shape), tile.get_flat_coord(index))


def _mode_rank(t: Tensor, k: int) -> int:
    s = t.shape[k]
    return len(s) if isinstance(s, tuple) else 1


def _append(coord: tuple, n: int) -> tuple:
    """CuTe's ``append<N>(coord, _)``: pad ``coord`` with ``_`` to ``n`` elements."""
    if len(coord) > n:
        raise LayoutError(f"coordinate {it.format_int_tuple(coord)} has more than the {n} modes it indexes")
    return coord + (_,) * (n - len(coord))




# --- CuTe's Tensor overloads of layout functions (tensor_impl.hpp): the same iterator over the new layout ---
# (named functions: ``_`` is CuTe's Underscore in this module)

from .coalesce import coalesce as _coalesce, filter as _filter   # noqa: E402  (after Tensor: no cycle)
from .layout import domain_offset as _domain_offset             # noqa: E402


@_coalesce.register(Tensor)
def _coalesce_tensor(tensor, profile=None):
    """``coalesce(Tensor, profile = _1)``: ``make_tensor(tensor.data(), coalesce(tensor.layout(), profile))``."""
    return Tensor(_coalesce(tensor.layout()) if profile is None else _coalesce(tensor.layout(), profile),
                  tensor.data())


@_filter.register(Tensor)
def _filter_tensor(tensor, profile=None):
    """``filter(Tensor)``: ``make_tensor(tensor.data(), filter(tensor.layout()))`` (CuTe: no profile form)."""
    if profile is not None:
        raise LayoutError(f"filter({tensor}, {profile}): CuTe filters a tensor without a target profile "
                          f"(tensor_impl.hpp has filter(Tensor) only)")
    return Tensor(_filter(tensor.layout()), tensor.data())


@_domain_offset.register(Tensor)
def _domain_offset_tensor(coord, tensor):
    """``domain_offset(coord, Tensor)``: the tensor's layout (or the ComposedLayout's moved one) over the
    iterator advanced by the layout's offset at ``coord``: ``make_tensor(data + offset, layout)``."""
    layout, offset = _domain_offset(coord, tensor.layout())
    return Tensor(layout, tensor.data() + offset)
