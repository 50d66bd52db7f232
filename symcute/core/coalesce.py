"""coalesce, filter and filter_zeros (``cute/layout.hpp``).

CuTe coalesces back to front (``bw_coalesce``): walking the flattened modes
from the last, it skips size-1 modes, and merges ``s0:d0`` into the front
``s1:d1`` when ``s0 * d0 == d1``.  The result is the same function on
``[0, size)`` with depth at most 1.
"""

from __future__ import annotations

from ..errors import LayoutError
from . import int_tuple as it
from .layout import Layout, _filter_zeros_tuple, _normalize
from ..trace.hook import traced


def _bw_coalesce(flat_shape: tuple, flat_stride: tuple, new_shape, new_stride) -> Layout:
    for i in range(len(flat_shape) - 2, -1, -1):
        s, d = flat_shape[i], flat_stride[i]
        if s == 1:
            continue
        if not isinstance(new_shape, tuple) and new_shape == 1:
            new_shape, new_stride = s, d
        elif s * d == (new_stride[0] if isinstance(new_stride, tuple) else new_stride):
            if isinstance(new_shape, tuple):
                new_shape = (s * new_shape[0],) + new_shape[1:]
                new_stride = (d,) + new_stride[1:]
            else:
                new_shape, new_stride = s * new_shape, d
        else:
            if isinstance(new_shape, tuple):
                new_shape, new_stride = (s,) + new_shape, (d,) + new_stride
            else:
                new_shape, new_stride = (s, new_shape), (d, new_stride)
    if not isinstance(new_shape, tuple) and new_shape == 1:
        return Layout(1, 0)
    return Layout(new_shape, new_stride)


def _coalesce_flat(layout: Layout) -> Layout:
    fs = it.flatten_to_tuple(layout.shape)
    fd = it.flatten_to_tuple(layout.stride)
    return _bw_coalesce(fs, fd, fs[-1], fd[-1])


def coalesce_x(layout: Layout, profile=None) -> Layout:
    """CuTe's ``detail::coalesce_x``: like coalesce, but the function is kept outside the domain too.

    A trailing size-1 mode is kept as a size-2 mode so its stride survives.
    """
    if isinstance(profile, tuple):
        return _by_profile(layout, profile, coalesce_x)
    fs = it.flatten_to_tuple(layout.shape)
    fd = it.flatten_to_tuple(layout.stride)
    last = 2 if fs[-1] == 1 else fs[-1]
    return _bw_coalesce(fs, fd, last, fd[-1])


def _by_profile(layout: Layout, profile: tuple, op) -> Layout:
    if len(profile) > layout.rank:
        raise LayoutError(f"profile {profile} has more modes than layout {layout}")
    modes = layout.modes()
    out = [op(modes[i], profile[i]) for i in range(len(profile))] + modes[len(profile):]
    return Layout(tuple(m.shape for m in out), tuple(m.stride for m in out))


@traced("coalesce")
def coalesce(layout: Layout, profile=None) -> Layout:
    """Simplify ``layout`` by merging modes that are contiguous in the codomain.

    @post size(result) == size(layout); depth(result) <= 1
    @post result(i) == layout(i) for all 0 <= i < size(layout)
    With a ``profile`` (an IntTuple), coalesce applies at the terminals of the
    profile only, so the top-level modes it names keep their identity.
    """
    if isinstance(profile, tuple):
        return _by_profile(layout, _normalize(profile, "profile"), coalesce)
    return _coalesce_flat(layout)


def filter_zeros(layout: Layout, profile=None) -> Layout:
    """Replace the extent of every stride-0 mode (or 0 at the profile's leaves) by 1."""
    guide = layout.stride if profile is None else profile
    return Layout(_filter_zeros_tuple(guide, layout.shape), layout.stride)


@traced("filter")
def filter(layout: Layout, profile=None) -> Layout:
    """Remove all stride-0 and size-1 modes (``coalesce(filter_zeros(layout))``); ``1:0`` if empty."""
    if isinstance(profile, tuple):
        return _by_profile(layout, profile, filter)
    return _coalesce_flat(filter_zeros(layout))
