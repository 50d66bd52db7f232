"""The TiledCopy builders (``cute/atom/copy_atom.hpp``, ``copy_traits_sm100.hpp``): ``make_tiled_copy``,
``make_tiled_copy_A/B/C``, ``make_tiled_copy_S/D``, ``make_tiled_copy_C_atom``, ``make_cotiled_copy`` and
the TMEM builders ``make_tmem_copy`` and ``make_utccp_copy``.

They sit above the TiledMMA and TiledCopy classes (``tiled_mma``, ``tiled_copy``) and the catalog lookup
(a copy atom given by name is looked up here), so no class imports its builders.  ``make_cotiled_copy`` is
written once: the Python API, the expression language and the TMEM builders all call this one (traced)
function.
"""

from __future__ import annotations

from ..core import Layout, coalesce, composition, filter, left_inverse, make_layout, raked_product, right_inverse, \
    size, sizeof_bits, upcast
from ..core import int_tuple as it
from ..core.hook import note, traced
from ..errors import LayoutError
from .copy_atom import CopyAtom
from .copy_catalog import copy_atom as lookup_copy_atom
from .tiled_copy import TiledCopy
from .tiled_mma import TiledMMA, as_tensor_layout
from .tmem import tmem_dp


def _copy_atom(atom, value_type=None) -> CopyAtom:
    return lookup_copy_atom(atom, value_type)


def make_tiled_copy_impl(atom, layout_tv: Layout, tiler, origin: str = "", source=None) -> TiledCopy:
    return TiledCopy(_copy_atom(atom), layout_tv, tiler, origin, source)


@traced("make_tiled_copy_A")
def make_tiled_copy_A(copy_atom, tiled_mma: TiledMMA) -> TiledCopy:
    """``make_tiled_copy_impl(atom, mma.get_layoutA_TV(), make_shape(tile_size<0>(mma), tile_size<2>(mma)))``."""
    _check_mma(tiled_mma, "make_tiled_copy_A")
    return make_tiled_copy_impl(copy_atom, tiled_mma.get_layoutA_TV(), (tiled_mma.tile_size(0), tiled_mma.tile_size(2)),
                                "make_tiled_copy_A", (tiled_mma, "A"))


@traced("make_tiled_copy_B")
def make_tiled_copy_B(copy_atom, tiled_mma: TiledMMA) -> TiledCopy:
    """``make_tiled_copy_impl(atom, mma.get_layoutB_TV(), make_shape(tile_size<1>(mma), tile_size<2>(mma)))``."""
    _check_mma(tiled_mma, "make_tiled_copy_B")
    return make_tiled_copy_impl(copy_atom, tiled_mma.get_layoutB_TV(), (tiled_mma.tile_size(1), tiled_mma.tile_size(2)),
                                "make_tiled_copy_B", (tiled_mma, "B"))


@traced("make_tiled_copy_C")
def make_tiled_copy_C(copy_atom, tiled_mma: TiledMMA) -> TiledCopy:
    """``make_tiled_copy_impl(atom, mma.get_layoutC_TV(), make_shape(tile_size<0>(mma), tile_size<1>(mma)))``."""
    _check_mma(tiled_mma, "make_tiled_copy_C")
    return make_tiled_copy_impl(copy_atom, tiled_mma.get_layoutC_TV(), (tiled_mma.tile_size(0), tiled_mma.tile_size(1)),
                                "make_tiled_copy_C", (tiled_mma, "C"))


def make_tiled_copy_C_atom(copy_atom, tiled_mma: TiledMMA) -> TiledCopy:
    """CuTe's ``make_tiled_copy_C_atom``: the smallest TiledCopy that retiles LayoutC_TV (subtiled epilogues).

    The C TV layout truncated to the atom's ``NumValSrc`` values (V order kept); the tiler is, per mode of
    the MMA tile, ``filter`` of the tile's mode composed with it; the TV layout is re-expressed in the tile
    through ``left_inverse(make_layout(mma_tiler) o tiler)``.
    @pre NumValSrc <= size<1>(LayoutC_TV) (CuTe static_asserts it)
    """
    _check_mma(tiled_mma, "make_tiled_copy_C_atom")
    atom = _copy_atom(copy_atom)
    c_tv = tiled_mma.get_layoutC_TV()
    copy_v = atom.num_val_src
    if copy_v > size(c_tv[1]):
        raise LayoutError(f"make_tiled_copy_C_atom({atom.name}, ...): the atom moves {copy_v} values, more than the "
                          f"{size(c_tv[1])} of LayoutC_TV {c_tv} (CuTe: static_assert copy_V <= size<1>(layoutC_TV))")
    layout_tv = composition(c_tv, make_layout((size(c_tv[0]), copy_v)))
    mma_tiler = (tiled_mma.tile_size(0), tiled_mma.tile_size(1))
    return _retiled(atom, layout_tv, mma_tiler, "make_tiled_copy_C_atom")


@traced("make_cotiled_copy")
def make_cotiled_copy(copy_atom, atom_tv_layout: Layout, data_layout: Layout) -> TiledCopy:
    """CuTe's ``make_cotiled_copy(atom, atom_tv_layout, data_layout)``: a TiledCopy from (thr,val) -> data
    address offsets, re-expressed over the coordinates of ``data_layout`` (coord -> address).

    @pre every address ``atom_tv_layout`` reaches is an address of ``data_layout`` (CuTe: "The memory
         pointed to by AtomTVLayout does not exist in the DataLayout.")
    """
    atom = _copy_atom(copy_atom)
    tv = as_tensor_layout(atom_tv_layout, "make_cotiled_copy")
    data = as_tensor_layout(data_layout, "make_cotiled_copy")
    try:
        inv_data = make_layout(left_inverse(data), Layout(1, 0))  # off-the-end addresses get stride 0
        tv_data = composition(inv_data, tv)
        if coalesce(composition(make_layout(data, Layout(1, 0)), tv_data[1])) != coalesce(tv[1]):
            raise LayoutError(f"make_cotiled_copy({atom.name}, {tv}, {data}): The memory pointed to by "
                              f"AtomTVLayout does not exist in the DataLayout.")
    except LayoutError as e:
        if "make_cotiled_copy" in str(e):
            raise
        raise LayoutError(f"make_cotiled_copy({atom.name}, {tv}, {data}): {e}") from None
    return _retiled(atom, tv_data, it.product_each(data.shape), "make_cotiled_copy")


def _retiled(atom, layout_tv: Layout, flat_shape: tuple, origin: str) -> TiledCopy:
    """The by-mode tiler of the elements ``layout_tv`` reaches in ``flat_shape`` and the TV layout over it."""
    flat_shape = tuple(flat_shape) if isinstance(flat_shape, tuple) else (flat_shape,)
    zeros = [0] * len(flat_shape)
    tiler = tuple(filter(composition(Layout(flat_shape, tuple(1 if k == i else 0 for k in range(len(zeros)))),
                                     layout_tv)) for i in range(len(flat_shape)))
    tile2data = composition(make_layout(flat_shape), tiler)
    return make_tiled_copy_impl(atom, composition(left_inverse(tile2data), layout_tv), tiler, origin)


def _check_mma(m, where: str):
    if not isinstance(m, TiledMMA):
        raise LayoutError(f"{where}: expected a TiledMMA, got {m!r}")


@traced("make_tiled_copy")
def make_tiled_copy(copy_atom, thr_layout, val_layout=None) -> TiledCopy:
    """CuTe's ``make_tiled_copy(atom, thr_layout, val_layout = Layout<_1>{})``.

    ``layout_mn = raked_product(thr_layout, val_layout)``: (M,N) -> (thr_idx, val_idx);
    ``layout_tv = right_inverse(layout_mn).with_shape(size(thr_layout), size(val_layout))``;
    ``tiler = product_each(shape(layout_mn))``.
    """
    thr = as_tensor_layout(thr_layout, "make_tiled_copy")
    val = Layout(1) if val_layout is None else as_tensor_layout(val_layout, "make_tiled_copy")
    try:
        layout_mn = raked_product(thr, val)
        layout_tv = right_inverse(layout_mn).with_shape((size(thr), size(val)))
    except LayoutError as e:
        raise LayoutError(f"make_tiled_copy(thr_layout={thr}, val_layout={val}): {e}") from None
    tiler = it.product_each(layout_mn.shape)
    note(layout_mn=layout_mn, layout_tv=layout_tv, tiler=tiler)
    return make_tiled_copy_impl(copy_atom, layout_tv, tiler, "make_tiled_copy", ("thr_val", thr, val))


def make_tiled_copy_S(copy_atom, tiled_copy: TiledCopy) -> TiledCopy:
    """A TiledCopy of ``copy_atom`` matching the source TV layout of ``tiled_copy``."""
    return make_tiled_copy_impl(copy_atom, tiled_copy.get_layoutS_TV(), tiled_copy.tiler_mn, "make_tiled_copy_S")


def make_tiled_copy_D(copy_atom, tiled_copy: TiledCopy) -> TiledCopy:
    return make_tiled_copy_impl(copy_atom, tiled_copy.get_layoutD_TV(), tiled_copy.tiler_mn, "make_tiled_copy_D")


# --- TMEM copies -----------------------------------------------------------------------------------------

@traced("make_tmem_copy")
def make_tmem_copy(copy_atom, tmem_layout, value_type=None):
    """CuTe's ``make_tmem_copy(Copy_Atom<Op, T>, tmem_tensor)`` for a TMEM tensor of ``T`` with ``tmem_layout``.

    ``copy_atom`` is a TMEM load/store atom (with its value type, or ``value_type`` given here).
    @pre the atom's value type has the tensor's width; the atom has a ValID (a TMEM atom)
    """
    atom = lookup_copy_atom(copy_atom, value_type)
    if atom.value_type is None:
        raise LayoutError(f"make_tmem_copy: {atom.name} needs a value type (Copy_Atom<{atom.name}, T>)")
    if atom.val_id is None:
        raise LayoutError(f"make_tmem_copy: {atom.name} is not a TMEM copy (its Copy_Traits have no ValID)")
    tmem = as_tensor_layout(tmem_layout, "make_tmem_copy")
    bits = sizeof_bits(atom.value_type)
    atom_t = Layout((32, 4), (0, 32 * tmem_dp(atom.value_type)))
    atom_v = coalesce(upcast(atom.val_id, bits))
    return make_cotiled_copy(atom, make_layout(atom_t, atom_v), tmem)


@traced("make_utccp_copy")
def make_utccp_copy(copy_atom, tmem_layout, value_type):
    """CuTe's ``make_utccp_copy(Op, tmem_tensor)`` (shared memory -> TMEM, ``SM100_UTCCP_*``) for a TMEM tensor of
    ``value_type`` with ``tmem_layout``: one "thread" per CTA (``size(ThrID)`` at stride 0), the atom's ValID in
    ``value_type`` units, then ``make_cotiled_copy``.
    """
    atom = lookup_copy_atom(copy_atom, value_type)
    if atom.val_id is None or not atom.name.startswith("SM100_UTCCP"):
        raise LayoutError(f"make_utccp_copy: {atom.name} is not a shared-memory -> TMEM copy (SM100_UTCCP_*)")
    tmem = as_tensor_layout(tmem_layout, "make_utccp_copy")
    atom_t = Layout(atom.thr_id.size(), 0)
    atom_v = coalesce(upcast(atom.val_id, sizeof_bits(atom.value_type)))
    return make_cotiled_copy(atom, make_layout(atom_t, atom_v), tmem)
