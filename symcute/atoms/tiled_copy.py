"""TiledCopy and ThrCopy (``cute/atom/copy_atom.hpp``): a copy atom tiled over a (thread, value) layout.

A TiledCopy is a copy atom, a TV layout ``TiledLayout_TV: (thr_idx, val_idx) ->
coordinate of a tile`` and the tile's shape ``Tiler_MN``.  ``make_tiled_copy_A``
takes them from a TiledMMA; ``retile`` is the computation inside
``retile_S``/``retile_D`` that the seed document follows step by step, and it
records every intermediate value (see :class:`RetileSteps`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import (
    Layout, _, coalesce, composition, logical_product, make_layout, right_inverse, size, slice_, upcast, zip_layouts, zipped_divide,
)
from ..core import int_tuple as it
from ..core.composed import ComposedLayout, SmemPtrFlag
from ..core.layout import format_int_tuple, slice_and_offset
from ..errors import LayoutError
from ..core.hook import note, traced
from ..core.tensor import Tensor
from .copy_atom import CopyAtom
from ..core.fragment import repeat_underscore
from .tiled_mma import as_tensor_layout, _slice_offset


@dataclass(frozen=True)
class RetileSteps:
    """The intermediate values of ``TiledCopy::retile`` (what the derivation report shows)."""
    V: int                      # size<0>(tensor)
    right_inverse: Layout       # right_inverse(TiledLayout_TV)
    with_shape: Layout          # right_inverse(TiledLayout_TV).with_shape(shape(Tiler_MN))
    upcast_n: int               # TiledNumThr * V
    frg_layout_mn: Layout       # upcast<TiledNumThr*V>(...): (m,n) -> v_idx
    frg_shape_each: tuple       # product_each(shape(frg_layout_mn))
    frg_layout_v: Layout        # zipped_divide(logical_product(make_layout(V), right_inverse(frg_layout_mn)), AtomNumVal)
    tiler: tuple                # prepend(product_each(shape(frg_layout_mn)), V)
    t_tensor: Layout            # zipped_divide(tensor, tiler)
    v_tensor: Layout            # t_tensor.compose(frg_layout_v, _)
    result: Layout              # v_tensor(_, append<R>(0, _))


class TiledCopy:
    """CuTe's ``TiledCopy<Copy_Atom, LayoutCopy_TV, ShapeTiler_MN>``."""

    def __init__(self, atom: CopyAtom, layout_tv: Layout, tiler_mn, origin: str = "", source=None):
        self.atom = atom
        self.layout_tv = layout_tv
        self.tiler_mn = tiler_mn
        self.origin = origin or "make_tiled_copy_impl"
        self.source = source   # (TiledMMA, operand) when built by make_tiled_copy_A/B/C
        where = self._where()
        if atom.value_type is None:
            raise LayoutError(f"{where}: the copy atom needs a value type (Copy_Atom<{atom.name}, T>)")
        if layout_tv.rank < 2:
            raise LayoutError(f"{where}: the TV layout {layout_tv} must have rank 2 (thread, value)")
        if self.tiled_num_thr % self.atom_num_thr != 0:
            raise LayoutError(f"{where}: TiledCopy uses too few thrs for selected CopyAtom "
                              f"({self.tiled_num_thr} threads, the atom needs a multiple of {self.atom_num_thr})")
        if self.tiled_num_val % self.atom_num_val != 0:
            raise LayoutError(f"{where}: TiledCopy uses too few vals for selected CopyAtom "
                              f"({self.tiled_num_val} values, the atom needs a multiple of {self.atom_num_val})")

    def _where(self) -> str:
        return f"{self.origin}(Copy_Atom<{self.atom.name}, {self.atom.value_type}>, ...)"

    # --- CuTe's member types ---------------------------------------------------------------------
    @property
    def atom_num_thr(self) -> int:
        return size(self.atom.val_layout_ref[0])

    @property
    def atom_num_val(self) -> int:
        return size(self.atom.val_layout_ref[1])

    @property
    def tiled_num_thr(self) -> int:
        """CuTe's ``TiledNumThr = size<0>(TiledLayout_TV)``."""
        return size(self.layout_tv[0])

    @property
    def tiled_num_val(self) -> int:
        return size(self.layout_tv[1])

    # CuTe's spellings of the same member types
    TiledNumThr = tiled_num_thr
    TiledNumVal = tiled_num_val
    AtomNumThr = atom_num_thr
    AtomNumVal = atom_num_val

    @property
    def TiledLayout_TV(self) -> Layout:
        return self.layout_tv

    @property
    def Tiler_MN(self):
        return self.tiler_mn

    def size(self) -> int:
        return self.tiled_num_thr

    def tile_size(self, *mode: int) -> int:
        t = self.tiler_mn
        for i in mode:
            t = t[i] if isinstance(t, tuple) else t
        return t.size() if isinstance(t, Layout) else it.product(_tiler_shape(t))

    # --- partitioning patterns ------------------------------------------------------------------
    def _ref2trg(self, role: str) -> Layout:
        trg = self.atom.val_layout_src if role == "S" else self.atom.val_layout_dst
        return composition(right_inverse(self.atom.val_layout_ref), trg)

    def tile2thrfrg(self, tensor: Layout, ref2trg: Layout) -> Layout:
        """((TileM,TileN,...),(RestM,RestN,...)) -> (Thr,(FrgV,FrgX),(RestM,RestN,...))."""
        atom_layout_tv = zipped_divide(self.layout_tv, (self.atom_num_thr, self.atom_num_val))
        trg_layout_tv = composition(atom_layout_tv, (ref2trg, _))
        thrval2mn = coalesce(zip_layouts(trg_layout_tv), (1, (1, 1)))
        tv_tensor = composition(tensor, (thrval2mn, _))
        note(atom_layout_TV=atom_layout_tv, ref2trg=ref2trg, trg_layout_TV=trg_layout_tv, thrval2mn=thrval2mn,
             tv_tensor=tv_tensor)
        return _slice(((_, _), _), tv_tensor)

    def _tidfrg(self, tensor, role: str) -> Layout:
        tensor = _as_copy_tensor(tensor, f"tidfrg_{role}")
        if tensor.rank < it.rank(self.tiler_mn):
            raise LayoutError(f"{self._where()}.tidfrg_{role}({tensor}): Rank of tensor to be partitioned too small.")
        try:
            return self.tile2thrfrg(zipped_divide(tensor, self.tiler_mn), self._ref2trg(role))
        except LayoutError as e:
            raise LayoutError(f"{self._where()}.tidfrg_{role}({tensor}): {e}") from None

    @traced("tidfrg_S")
    def tidfrg_S(self, stensor) -> Layout:
        """(M,N,...) -> (Thr,(FrgV,FrgX),(RestM,RestN,...)) for the source side."""
        return self._tidfrg(stensor, "S")

    @traced("tidfrg_D")
    def tidfrg_D(self, dtensor) -> Layout:
        """(M,N,...) -> (Thr,(FrgV,FrgX),(RestM,RestN,...)) for the destination side."""
        return self._tidfrg(dtensor, "D")

    def _layout_tv(self, role: str) -> Layout:
        ref = make_layout((_tiler_shape(self.tiler_mn), 1))
        try:
            return slice_((_, _, 0), self.tile2thrfrg(ref, self._ref2trg(role)))
        except LayoutError as e:
            raise LayoutError(f"{self._where()}.get_layout{role}_TV(): {e}") from None

    @traced("get_layoutS_TV")
    def get_layoutS_TV(self) -> Layout:
        """(thr_idx, val_idx) -> (M,N) for the source side."""
        return self._layout_tv("S")

    @traced("get_layoutD_TV")
    def get_layoutD_TV(self) -> Layout:
        """(thr_idx, val_idx) -> (M,N) for the destination side."""
        return self._layout_tv("D")

    def layoutS_TV_names(self):
        from .names import tv_names
        return tv_names(self, "S")

    def layoutD_TV_names(self):
        from .names import tv_names
        return tv_names(self, "D")

    # --- retile ------------------------------------------------------------------------------------
    @traced("retile")
    def retile(self, tensor, explain: bool = False):
        """CuTe's ``TiledCopy::retile(tensor)`` (the layout inside ``retile_S``/``retile_D``).

        Regroups a register fragment ``(V, RestM, RestN, ...)`` into
        ``((atom_vals, rest_vals), RestM, RestN, ...)``, the value groups one copy
        atom moves.  With ``explain=True`` returns ``(layout, RetileSteps)``.
        @pre rank(tensor) >= 1 + rank(Tiler_MN)
        """
        if isinstance(tensor, Tensor):   # CuTe's retile takes the layout; the Tensor keeps its iterator
            return Tensor(self.retile(tensor.layout(), explain), tensor.data()) if not explain else \
                self.retile(tensor.layout(), explain)
        steps = self._retile(_as_copy_tensor(tensor, "retile"))
        note(V=steps.V, right_inverse=steps.right_inverse, with_shape=steps.with_shape, upcast_n=steps.upcast_n,
             frg_layout_mn=steps.frg_layout_mn, product_each=steps.frg_shape_each,
             frg_layout_v=steps.frg_layout_v, tiler=steps.tiler)
        return (steps.result, steps) if explain else steps.result

    def retile_steps(self, tensor) -> RetileSteps:
        """The intermediate values of :meth:`retile`."""
        return self.retile(tensor, explain=True)[1]

    def _retile(self, tensor: Layout) -> RetileSteps:
        where = f"{self._where()}.retile({tensor})"
        r = tensor.rank
        v = size(tensor[0])
        try:
            g = right_inverse(self.layout_tv)
            h = g.with_shape(_tiler_shape(self.tiler_mn))
            n = self.tiled_num_thr * v
            frg_layout_mn = upcast(h, n)
            frg_layout_v = zipped_divide(logical_product(make_layout(v), right_inverse(frg_layout_mn)),
                                         make_layout(self.atom_num_val))
            each = it.product_each(frg_layout_mn.shape)
            tiler = (v,) + each
            t_tensor = zipped_divide(tensor, tiler)
            v_tensor = composition(t_tensor, (frg_layout_v, _))
            coord = (_, _append_rank(r))
            result = _slice(coord, v_tensor)
        except LayoutError as e:
            raise LayoutError(f"{where}: {e}") from None
        return RetileSteps(v, g, h, n, frg_layout_mn, each, frg_layout_v, tiler, t_tensor, v_tensor, result)

    # --- slices ---------------------------------------------------------------------------------------
    def get_slice(self, thr_idx: int) -> "ThrCopy":
        return ThrCopy(self, thr_idx)

    get_thread_slice = get_slice

    def __str__(self) -> str:
        """CuTe's ``print(TiledCopy)``."""
        return ("TiledCopy\n"
                f"  Tiler_MN:       {format_int_tuple(self.tiler_mn)}\n"
                f"  TiledLayout_TV: {self.layout_tv}\n" + str(self.atom))

    def __repr__(self) -> str:
        return f"TiledCopy({self.atom!r}, {str(self.layout_tv)!r}, {format_int_tuple(self.tiler_mn)!r})"


def _as_copy_tensor(x, where: str):
    """A tensor argument: a Tensor's layout, a layout, a shape, or a swizzled layout ``Sw o O o L``.

    CuTe's ``make_tensor(smem_ptr, Sw o smem_ptr_flag o L)`` (``pointer_flagged.hpp``) moves the
    swizzle into the pointer, so such a tensor's layout is ``L``; with an integer offset the
    tensor keeps the composed layout and partitions slice it (``slice_and_offset``).
    """
    if isinstance(x, Tensor):
        return x.layout()
    if isinstance(x, ComposedLayout):
        return x.inner if isinstance(x.offset, SmemPtrFlag) else x
    return as_tensor_layout(x, where)


def _slice(coord, layout):
    """``slice`` of a layout or of a swizzled (composed) layout."""
    return slice_(coord, layout)


def _append_rank(r: int):
    """CuTe's ``append<R>(Int<0>{}, _)``: ``(0, _, ..., _)`` of rank R (just 0 when R == 1)."""
    if r == 1:
        return 0
    return (0,) + (_,) * (r - 1)


def _tiler_shape(t):
    """``shape(Tiler_MN)``: a tiler of ints is its own shape; layouts contribute their shape."""
    if isinstance(t, Layout):
        return t.shape
    if isinstance(t, tuple):
        return tuple(_tiler_shape(x) for x in t)
    return t


class ThrCopy:
    """CuTe's ``ThrCopy``: one thread's view of a TiledCopy."""

    def __init__(self, tiled_copy: TiledCopy, thr_idx: int):
        if isinstance(thr_idx, bool) or not isinstance(thr_idx, int) or thr_idx < 0:
            raise LayoutError(f"get_slice: thread index must be a non-negative integer, got {thr_idx!r}")
        self.tiled_copy = tiled_copy
        self.thr_idx = thr_idx

    def __repr__(self) -> str:
        return f"ThrCopy({self.tiled_copy!r}, thr_idx={self.thr_idx})"

    def __str__(self) -> str:
        return f"ThrCopy thread {self.thr_idx} of\n{self.tiled_copy}"

    def _partition(self, tensor, role: str):
        """(offset, sliced layout): ``tidfrg_X(tensor.layout())(thr_idx, _, repeat<R>(_))``."""
        lay = _as_copy_tensor(tensor, f"partition_{role}")
        thr = self.tiled_copy._tidfrg(lay, role)
        coord = (self.thr_idx, _, repeat_underscore(lay.rank))
        if isinstance(thr, ComposedLayout):  # Tensor::operator(): slice_and_offset of the swizzled layout
            sliced, offset = slice_and_offset(coord, thr)
            return offset, sliced
        return _slice_offset(coord, thr), slice_(coord, thr)

    def _partitioned(self, tensor, role: str):
        offset, sliced = self._partition(tensor, role)
        return Tensor(sliced, tensor.data() + offset) if isinstance(tensor, Tensor) else sliced

    def partition_S(self, stensor):
        """This thread's ((CPY_V), CPY_M, CPY_N, ...) slice of the source: a Tensor for a Tensor (its
        iterator advanced to the slice), the slice's layout for a layout or a shape."""
        return self._partitioned(stensor, "S")

    def partition_D(self, dtensor):
        return self._partitioned(dtensor, "D")

    def partition_offset(self, role: str, tensor) -> int:
        return self._partition(tensor, role.upper())[0]

    def _retiled(self, tensor):
        # CuTe: make_tensor(tensor.data(), TiledCopy::retile(tensor.layout()))
        if isinstance(tensor, Tensor):
            return Tensor(self.tiled_copy.retile(tensor.layout()), tensor.data())
        return self.tiled_copy.retile(tensor)

    def retile_S(self, stensor):
        return self._retiled(stensor)

    def retile_D(self, dtensor):
        return self._retiled(dtensor)
