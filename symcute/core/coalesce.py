"""coalesce, filter and filter_zeros (``cute/layout.hpp``).

CuTe coalesces back to front (``bw_coalesce``): walking the flattened modes
from the last, it skips size-1 modes, and merges ``s0:d0`` into the front
``s1:d1`` when ``s0 * d0 == d1``.  The result is the same function on
``[0, size)`` with depth at most 1.

Each test is on CuTe's *types*: only a static 1 is skipped or replaced, and
two modes merge only when the front extent is static and ``s0 * d0 == d1`` is
a compile-time truth (both sides static).  A run-time integer
(:class:`~symcute.core.integer.DynamicInt`) therefore stops a merge that its
value would allow: ``coalesce((_2,1,_3):(3,_3,_1))`` is ``(_2,1,_3):(3,_3,_1)``.
"""

from __future__ import annotations

from ..errors import LayoutError
from . import int_tuple as it, kinds
from .dispatch import operation
from .integer import DynamicInt
from .layout import Layout, _filter_zeros_tuple, _normalize, no_modes_error, refuse_arithmetic_strides


# Past this many modes the merge test first compares bit lengths (``_bw_coalesce_wide``).
_WIDE = 64
# A front stride of more bits than this has its merge test screened by bit lengths first.
_WIDE_BITS = 256


def _bw_coalesce(flat_shape: tuple, flat_stride: tuple, new_shape, new_stride) -> Layout:
    if len(flat_shape) > _WIDE:
        return _bw_coalesce_wide(flat_shape, flat_stride, new_shape, new_stride)
    # walking back to front: `front` is the mode CuTe compares with, `done` the modes behind it
    done_shapes, done_strides = [], []
    front_shape, front_stride = new_shape, new_stride
    for i in range(len(flat_shape) - 2, -1, -1):
        s = flat_shape[i]
        if s == 1 and type(s) is int:               # is_constant<1>: a run-time 1 is a mode like any other
            continue
        d = flat_stride[i]
        if not done_shapes and front_shape == 1 and type(front_shape) is int:   # replace a static-1 front
            front_shape, front_stride = s, d
        elif s * d == front_stride and (
                type(s) is int and type(d) is int and type(front_shape) is int and type(front_stride) is int
                or _static_merge(s, d, front_shape, front_stride)):
            front_shape = s * front_shape           # contiguous: merge into the front mode
            front_stride = d
        else:
            done_shapes.append(front_shape)
            done_strides.append(front_stride)
            front_shape, front_stride = s, d
    return _finish(done_shapes, done_strides, front_shape, front_stride)


def _bw_coalesce_wide(flat_shape: tuple, flat_stride: tuple, new_shape, new_stride) -> Layout:
    """:func:`_bw_coalesce` for many modes: the same walk, the same result.

    Many modes mean large strides (a layout of n modes that do not merge has strides of about n bits),
    and there the merge test ``s * d == front_stride`` costs a multiplication of a long integer.  Where
    all three are nonzero static ints and the front stride is long, the bit lengths answer it first:
    ``|s * d|`` has ``bl(s) + bl(d)`` or one bit fewer, so any other length of the front stride is no merge.
    """
    done_shapes, done_strides = [], []
    front_shape, front_stride = new_shape, new_stride
    wide_bits = _WIDE_BITS
    for i in range(len(flat_shape) - 2, -1, -1):
        s = flat_shape[i]
        if s == 1 and type(s) is int:
            continue
        d = flat_stride[i]
        if not done_shapes and front_shape == 1 and type(front_shape) is int:
            front_shape, front_stride = s, d
            continue
        if type(front_stride) is int and type(s) is int and type(d) is int and s and d:
            fb = front_stride.bit_length()
            if fb > wide_bits:
                pb = s.bit_length() + d.bit_length()
                if fb != pb and fb != pb - 1:   # s * d != front_stride: a new mode
                    done_shapes.append(front_shape)
                    done_strides.append(front_stride)
                    front_shape, front_stride = s, d
                    continue
        if s * d == front_stride and (
                type(s) is int and type(d) is int and type(front_shape) is int and type(front_stride) is int
                or _static_merge(s, d, front_shape, front_stride)):
            front_shape = s * front_shape
            front_stride = d
        else:
            done_shapes.append(front_shape)
            done_strides.append(front_stride)
            front_shape, front_stride = s, d
    return _finish(done_shapes, done_strides, front_shape, front_stride)


def _static_merge(s, d, front_shape, front_stride) -> bool:
    """CuTe merges only where ``is_static<front shape>`` and ``s*d == front stride`` is a static truth."""
    if type(s) is int and type(d) is int and type(front_shape) is int and type(front_stride) is int:
        return True   # the all-static case: one test per merge
    prod = s * d
    return (type(front_shape) is not DynamicInt and type(prod) is not DynamicInt
            and type(front_stride) is not DynamicInt and not _dynamic_basis(prod, front_stride))


def _dynamic_basis(*xs) -> bool:
    return any(type(getattr(x, "value", None)) is DynamicInt for x in xs)


def _flat_modes(layout: Layout, op: str) -> tuple[tuple, tuple]:
    """The flattened shape and stride; CuTe takes the last of them, so a layout with none is refused."""
    fs = it.flatten_to_tuple(layout._shape)
    if not fs:
        raise no_modes_error(op, layout)
    return fs, it.flatten_to_tuple(layout._stride)


def _coalesce_flat(layout: Layout, op: str = "coalesce") -> Layout:
    fs, fd = _flat_modes(layout, op)
    return _bw_coalesce(fs, fd, fs[-1], fd[-1])


def coalesce_x(layout: Layout, profile=None, op: str = "composition") -> Layout:
    """CuTe's ``detail::coalesce_x``: like coalesce, but the function is kept outside the domain too.

    A trailing size-1 mode is kept as a size-2 mode so its stride survives.
    """
    if isinstance(profile, tuple):
        return _by_profile(layout, profile, lambda m, p: coalesce_x(m, p, op), op)
    fs, fd = _flat_modes(layout, op)
    last = 2 if fs[-1] == 1 and type(fs[-1]) is int else fs[-1]
    return _bw_coalesce(fs, fd, last, fd[-1])


def _by_profile(layout: Layout, profile: tuple, op, name: str) -> Layout:
    if len(profile) > layout.rank:
        raise LayoutError(f"profile {profile} has more modes than layout {layout}")
    modes = layout.modes()
    out = [op(modes[i], profile[i]) for i in range(len(profile))] + modes[len(profile):]
    if not out:  # CuTe's make_layout() of no modes does not compile
        raise no_modes_error(name, layout)
    return Layout._make(tuple(m.shape for m in out), tuple(m.stride for m in out))


@operation("coalesce")
def coalesce(layout: Layout, profile=None) -> Layout:
    """Simplify ``layout`` by merging modes that are contiguous in the codomain.

    @post size(result) == size(layout); depth(result) <= 1
    @post result(i) == layout(i) for all 0 <= i < size(layout)
    With a ``profile`` (an IntTuple), coalesce applies at the terminals of the
    profile only, so the top-level modes it names keep their identity.
    On an IntTuple (no layout) it is CuTe's ``coalesce(Shape)``: the flattened extents with each run of
    static (or of run-time) extents multiplied together: ``coalesce((2,(3,4))) == 24``.
    """
    if type(layout) is not Layout:
        if profile is None and (type(layout) is tuple or kinds.is_integer(layout)):
            return _coalesce_shape(layout)
        kinds.layout_like("coalesce", (layout,) if profile is None else (layout, profile), 0,
                          composed=False, tensor=False)
    if profile is not None:
        kinds.int_tuple("coalesce", (layout, profile), 1)
    if isinstance(profile, tuple):
        return _by_profile(layout, _normalize(profile, "profile"), coalesce, "coalesce")
    return _coalesce_flat(layout)


def _coalesce_shape(shape):
    """The public ``coalesce(Shape)``: an IntTuple with at least one extent (CuTe's fold_first takes get<0>)."""
    kinds.int_tuple("coalesce", (shape,), 0)
    if type(shape) is tuple and not it.flatten_to_tuple(shape):
        raise LayoutError(f"coalesce({it.format_int_tuple(shape)}): the shape has no extents (CuTe's fold_first "
                          f"takes get<0> of it)")
    return coalesce_shape(shape)


def coalesce_shape(shape):
    """CuTe's ``coalesce(Shape)``: neighbouring extents multiply when both are static or both run-time.

    An all-static (or all run-time) shape is its product, one mode; a mixed one keeps a mode per run.
    A shape of no extents is 1 here (complement's use; the public call refuses it, as CuTe does).
    """
    if type(shape) is not tuple:
        return shape
    flat = it.flatten_to_tuple(shape)
    if not flat:
        return it.product(shape)
    out = [flat[0]]
    for a in flat[1:]:
        if (type(out[-1]) is DynamicInt) == (type(a) is DynamicInt):
            out[-1] = out[-1] * a
        else:
            out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


def filter_zeros(layout: Layout, profile=None) -> Layout:
    """Replace the extent of every stride-0 mode (or 0 at the profile's leaves) by 1.

    On IntTuples it is CuTe's ``filter_zeros(a, b)`` of ``int_tuple.hpp``: ``b`` with each part paired with
    a static 0 of ``a`` made 1s (``filter_zeros(t) == filter_zeros(t, t)``); on a Tensor, its layout's.
    """
    args = (layout,) if profile is None else (layout, profile)
    if kinds.is_kind(layout, "Tensor"):   # tensor_impl.hpp: make_tensor(tensor.data(), filter_zeros(layout...))
        return type(layout)(filter_zeros(layout.layout(), profile), layout.data())
    if type(layout) is not Layout:
        if type(layout) is tuple or kinds.is_integer(layout):
            kinds.int_tuple("filter_zeros", args, 0, 1)
            b = layout if profile is None else profile
            if not _pairs(layout, b):
                raise LayoutError(f"filter_zeros({', '.join(map(kinds.shown, args))}): the tuples' ranks differ "
                                  f"(CuTe's transform needs equal ranks)")
            return _filter_zeros_tuple(layout, b)
        kinds.layout_like("filter_zeros", args, 0, composed=False, tensor=True)
    if profile is not None:
        kinds.int_tuple("filter_zeros", args, 1)
        if not _pairs(profile, layout._shape):
            raise LayoutError(f"filter_zeros({layout}, {kinds.shown(profile)}): the profile is not congruent to "
                              f"the shape (CuTe's transform needs equal ranks)")
    refuse_arithmetic_strides("filter_zeros", layout)
    guide = layout._stride if profile is None else profile
    return Layout._make(_filter_zeros_tuple(guide, layout._shape), layout._stride)


def _pairs(a, b) -> bool:
    """Each tuple of ``a`` meets a tuple of ``b`` of its rank (CuTe's ``transform(a, b, f)``)."""
    if type(a) is not tuple:
        return True
    return type(b) is tuple and len(a) == len(b) and all(_pairs(x, y) for x, y in zip(a, b))


@operation("filter")
def filter(layout: Layout, profile=None) -> Layout:
    """Remove all stride-0 and size-1 modes (``coalesce(filter_zeros(layout))``); ``1:0`` if empty."""
    args = (layout,) if profile is None else (layout, profile)
    kinds.layout_like("filter", args, 0, composed=False)
    if profile is not None:
        kinds.int_tuple("filter", args, 1)
    if isinstance(profile, tuple):
        return _by_profile(layout, profile, filter, "filter")
    return _filter_flat(layout)


def _filter_flat(layout: Layout, op: str = "filter") -> Layout:
    fs, fd = _flat_modes(layout, op)
    if 0 in fd:   # static-0 strides only become size 1
        fs = tuple([1 if d == 0 and type(d) is int else s for s, d in zip(fs, fd)])
    return _bw_coalesce(fs, fd, fs[-1], fd[-1])


def _finish(done_shapes: list, done_strides: list, front_shape, front_stride) -> Layout:
    """The walk's result: the modes done (back to front) and the front mode; one static-1 mode is ``1:0``."""
    if not done_shapes:
        if front_shape == 1 and type(front_shape) is int:
            return Layout._make(1, 0)
        return Layout._make(front_shape, front_stride)
    done_shapes.append(front_shape)
    done_strides.append(front_stride)
    return Layout._make(tuple(reversed(done_shapes)), tuple(reversed(done_strides)))
