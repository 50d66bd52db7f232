"""TiledMMA and ThrMMA (``cute/atom/mma_atom.hpp``): an MMA atom tiled over threads and permuted tiles.

Every method follows the C++ member of the same name line by line, using only
core operations, so each intermediate value is the one CuTe computes.  Nothing
is computed before it is asked for (CuTe instantiates members lazily too), and
results are cached: a TiledMMA is immutable.
"""

from __future__ import annotations

from functools import cached_property

from ..core import (
    Layout, Underscore, _, append, complement, composition, logical_divide, make_layout, right_inverse,
    size, slice_, tiled_product, zipped_divide,
)
from ..core import int_tuple as it
from ..core.composed import ComposedLayout, SmemPtrFlag
from ..core.numeric import sizeof_bits
from ..core.pointer import make_smem_ptr, make_tmem_ptr
from ..core.tensor import Tensor, make_register_tensor, make_tensor
from ..errors import LayoutError, SymcuteError
from ..core.hook import note, traced
from ..core.fragment import make_fragment_like, repeat_underscore
from ..core.layout import slice_and_offset
from .mma_atom import MMAAtom
from .smem_desc import make_desc_tensor
from .operand import get_operand
from .mma_lookup import mma_atom
from .tmem import parse_frg as tmem_parse_frg, tmem_frg


def _as_layout(x, where: str, expected: str) -> Layout:
    """A Layout, its CuTe notation, or a shape (``make_layout(shape)``)."""
    if isinstance(x, Layout):
        return x
    if isinstance(x, str):
        return Layout.parse(x)
    if isinstance(x, (int, tuple, list)) and not isinstance(x, bool):
        return Layout(x)  # Layout reads lists as tuples and bounds the nesting
    raise LayoutError(f"{where}: {expected}, got {x!r}")


def _as_atom_layout(x, where: str) -> Layout:
    return _as_layout(x, where, "the atom layout must be a Layout or a shape")


def _tuple(x):
    return tuple(_tuple(y) for y in x) if isinstance(x, (list, tuple)) else x


def _as_permutation(p, where: str):
    if p is None or isinstance(p, Underscore):
        return _
    if isinstance(p, Layout):
        return p
    if isinstance(p, str):
        return _ if p.strip() == "_" else Layout.parse(p)
    if isinstance(p, int) and not isinstance(p, bool):
        if p <= 0:
            raise LayoutError(f"{where}: permutation extent {p} must be positive")
        return p
    if isinstance(p, (tuple, list)):
        return tuple(_as_permutation(q, where) for q in p)
    raise LayoutError(f"{where}: a permutation must be an int, a Layout or _, got {p!r}")




class TiledMMA:
    """CuTe's ``TiledMMA<MMA_Atom, AtomLayoutMNK, PermutationMNK>``.

    Build it with :func:`make_tiled_mma`.  ``thr_layout_vmnk`` is
    ``tiled_product(AtomThrID, AtomLayoutMNK)``: (ThrV, ThrM, ThrN, ThrK) -> thread index.
    """

    def __init__(self, atom: MMAAtom, atom_layout_mnk: Layout, permutation_mnk: tuple):
        self.atom = atom
        self.atom_layout_mnk = atom_layout_mnk
        self.permutation_mnk_ = permutation_mnk
        where = self._where()
        if atom_layout_mnk.rank != 3:
            raise LayoutError(f"{where}: TiledMMA requires rank-3 AtomLayoutMNK, got {atom_layout_mnk}")
        if len(permutation_mnk) != 3:
            raise LayoutError(f"{where}: TiledMMA requires rank-3 PermutationMNK")
        try:
            self.thr_layout_vmnk = tiled_product(atom.thr_id, atom_layout_mnk)
        except LayoutError as e:
            raise LayoutError(f"{where}: tiled_product(ThrID, AtomLayoutMNK) fails: {e}") from None

    def _where(self) -> str:
        return f"make_tiled_mma({self.atom.name}, {self.atom_layout_mnk}, {it.format_int_tuple(self.permutation_mnk_)})"

    # --- sizes ---------------------------------------------------------------------------
    def get_thr_layout_vmnk(self) -> Layout:
        return self.thr_layout_vmnk

    def permutation_mnk(self, i: int):
        """The permutation of mode i; ``_`` stands for ``size<i>(AtomShape_MNK) * size<i+1>(ThrLayoutVMNK)``."""
        p = self.permutation_mnk_[i]
        if isinstance(p, Underscore):
            return self.atom.shape_mnk[i] * size(self.thr_layout_vmnk[i + 1])
        return p

    def tile_size_mnk(self, i: int) -> int:
        p = self.permutation_mnk(i)
        return p.size() if isinstance(p, Layout) else it.product(p)

    def tile_size(self, i: int) -> int:
        """CuTe's ``tile_size<I>(mma)``."""
        if i not in (0, 1, 2):
            raise LayoutError(f"tile_size<{i}>: a TiledMMA has modes 0 (M), 1 (N) and 2 (K)")
        return self.tile_size_mnk(i)

    def tile_shape(self) -> tuple:
        return tuple(self.tile_size(i) for i in range(3))

    def size(self) -> int:
        """The number of threads (``size(mma)``)."""
        return self.thr_layout_vmnk.size()

    # --- partitioning patterns ------------------------------------------------------------
    def _thrfrg(self, tensor, modes: tuple, op: str) -> Layout:
        i, j = modes
        tensor = _as_partitioned_layout(tensor, f"thrfrg_{op}")
        if tensor.rank < 2:
            raise LayoutError(f"thrfrg_{op}({tensor}): the tensor must have rank >= 2")
        atom_tv = self.atom.layout(op)
        shape = self.atom.shape_mnk
        vmnk = self.thr_layout_vmnk
        try:
            t_tile = (self.permutation_mnk(i), self.permutation_mnk(j))
            t_tensor = logical_divide(tensor, t_tile)
            a_tile = (Layout(shape[i]), Layout(shape[j]))
            a_tensor = zipped_divide(t_tensor, a_tile)
            tv_tensor = composition(a_tensor, (atom_tv, _))
            thr_tile = (_, (Layout(size(vmnk[i + 1])), Layout(size(vmnk[j + 1]))))
            thr_tensor = zipped_divide(tv_tensor, thr_tile)
        except LayoutError as e:
            raise LayoutError(f"{self._where()}.thrfrg_{op}({tensor}): {e}") from None
        note(t_tile=t_tile, t_tensor=t_tensor, atom_tile=a_tile, atom_tensor=a_tensor, tv_tensor=tv_tensor,
             thr_tile=thr_tile)
        return thr_tensor

    @traced("thrfrg_C")
    def thrfrg_C(self, ctensor) -> Layout:
        """(M,N,...) -> ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN,...)))."""
        return self._thrfrg(ctensor, (0, 1), "C")

    @traced("thrfrg_A")
    def thrfrg_A(self, atensor) -> Layout:
        """(M,K,...) -> ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK,...)))."""
        return self._thrfrg(atensor, (0, 2), "A")

    @traced("thrfrg_B")
    def thrfrg_B(self, btensor) -> Layout:
        """(N,K,...) -> ((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK,...)))."""
        return self._thrfrg(btensor, (1, 2), "B")

    def thrfrg(self, operand: str, tensor) -> Layout:
        return {"A": self.thrfrg_A, "B": self.thrfrg_B, "C": self.thrfrg_C}[get_operand(operand).name](tensor)

    # --- TV layouts ----------------------------------------------------------------------
    @cached_property
    def thridx_2_thrid(self) -> Layout:
        """thr_idx -> (ThrV,ThrM,ThrN,ThrK): ``composition((size(vmnk),1):(1,0), right_inverse((vmnk, complement(vmnk))))``."""
        vmnk = self.thr_layout_vmnk
        return composition(Layout((vmnk.size(), 1), (1, 0)), right_inverse(make_layout(vmnk, complement(vmnk))))

    def _layout_tv(self, op: str) -> Layout:
        m, n, k = (self.tile_size_mnk(i) for i in range(3))
        vmnk = self.thr_layout_vmnk
        ref = make_layout(get_operand(op).tile_shape((m, n, k)))
        thr = thrfrg = self.thrfrg(op, ref)
        try:
            if op == "A":    # (ThrV,(ThrM,ThrK)) -> (ThrV,(ThrM,ThrN,ThrK)): A is broadcast over ThrN
                tile = (_, (Layout((size(vmnk[1]), size(vmnk[2])), (1, 0)), _))
                thr = composition(thr, (tile, _))
            elif op == "B":  # (ThrV,(ThrN,ThrK)) -> (ThrV,(ThrM,ThrN,ThrK)): B is broadcast over ThrM
                tile = (_, (Layout((size(vmnk[1]), size(vmnk[2])), (0, 1)), _))
                thr = composition(thr, (tile, _))
            else:
                tile = None
            result = composition(thr, (self.thridx_2_thrid, _))
        except LayoutError as e:
            raise LayoutError(f"{self._where()}.get_layout{op}_TV(): {e}") from None
        note(ref=ref, thrfrg=thrfrg, broadcast_tile=tile, thridx_2_thrid=self.thridx_2_thrid)
        return result

    @cached_property
    def _tv_cache(self) -> dict:
        return {}

    def _cached_tv(self, op: str) -> Layout:
        lay = self._tv_cache.get(op)
        if lay is None:
            lay = self._tv_cache[op] = self._layout_tv(op)
        return lay

    @traced("get_layoutA_TV")
    def get_layoutA_TV(self) -> Layout:
        """(thr_idx, val) -> (M,K) coordinate of the A tile, column-major."""
        return self._cached_tv("A")

    @traced("get_layoutB_TV")
    def get_layoutB_TV(self) -> Layout:
        """(thr_idx, val) -> (N,K) coordinate of the B tile, column-major."""
        return self._cached_tv("B")

    @traced("get_layoutC_TV")
    def get_layoutC_TV(self) -> Layout:
        """(thr_idx, val) -> (M,N) coordinate of the C tile, column-major."""
        return self._cached_tv("C")

    def get_layout_TV(self, operand: str) -> Layout:
        return {"A": self.get_layoutA_TV, "B": self.get_layoutB_TV, "C": self.get_layoutC_TV}[get_operand(operand).name]()

    # --- names -------------------------------------------------------------------------------
    def layout_TV_names(self, operand: str):
        from .names import tv_names
        return tv_names(self, operand)

    def layoutA_TV_names(self):
        return self.layout_TV_names("A")

    def layoutB_TV_names(self):
        return self.layout_TV_names("B")

    def layoutC_TV_names(self):
        return self.layout_TV_names("C")

    # --- slices ----------------------------------------------------------------------------------
    @traced("get_slice")
    def get_slice(self, thr_idx: int) -> "ThrMMA":
        return ThrMMA(self, thr_idx)

    get_thread_slice = get_slice

    def partition_shape_C(self, shape_mn) -> tuple:
        return self._partition_shape("C", shape_mn)

    def partition_shape_A(self, shape_mk) -> tuple:
        return self._partition_shape("A", shape_mk)

    def partition_shape_B(self, shape_nk) -> tuple:
        return self._partition_shape("B", shape_nk)

    def _partition_shape(self, op: str, shp) -> tuple:
        dummy = make_layout(_tuple(shp) if not isinstance(shp, Layout) else shp.shape)
        tv = self.thrfrg(op, dummy)
        return slice_((0, (_, repeat_underscore(dummy.rank))), tv).shape

    # --- fragments ---------------------------------------------------------------------------------
    def make_fragment(self, op: str, part, where: str = ""):
        """CuTe's ``TiledMMA::make_fragment_A/B/C`` of an already partitioned tensor (V, M, K, ...).

        A layout in gives a layout out (the fragment's layout); a Tensor gives a Tensor:

        - C: ``make_tensor<FrgTypeC>(shape(ctensor))`` (a register tensor, or for UMMA a tmem one);
        - A/B of a value type: ``make_fragment_like<FrgTypeA>(atensor)``;
        - A/B of a GMMA/UMMA ``smem_desc``: the descriptor tensor of ``mma_traits_sm90_gmma.hpp``'s
          ``MakeTensor<smem_desc>``: ``DescriptorIterator{make_gmma_desc(tensor<0>(t))}`` over
          ``replace<0>(recast<uint128_t>(t).layout(), Layout<_1,_0>{})``.
        @pre rank(part) >= 3 and size<0>(part) == size<1>(LayoutX_TV) (CuTe's static_asserts)
        """
        op = get_operand(op).name
        where = where or f"make_fragment_{op}"
        atom = self.atom
        lay = part.layout() if isinstance(part, Tensor) else part
        if not isinstance(lay, (Layout, ComposedLayout)):
            raise LayoutError(f"{where}: expected a partitioned tensor or layout, got {part!r}")
        if lay.rank < 3:
            raise LayoutError(f"{where}: expected a partitioned tensor of rank >= 3 (V,M,K), got {lay}")
        if size(lay[0]) != size(atom.layout(op)[1]):
            raise LayoutError(f"{where}: size<0>({lay}) != size<1>(Layout{op}_TV {atom.layout(op)})")
        frg = {"A": atom.frg_type_a, "B": atom.frg_type_b, "C": atom.frg_type_c}[op]
        vt = atom.val_type(op)
        tmem = tmem_parse_frg(frg)
        if tmem is not None:   # UMMA: accumulators (and a _TS A) are allocated in tensor memory
            frag = tmem_frg(*tmem, lay.shape)
            if not isinstance(part, Tensor):
                return frag
            return Tensor(frag, make_tmem_ptr(tmem[0]))   # make_tensor(make_tmem_ptr<ValueType>(), ...)
        if op == "C":   # accumulators never follow the input's layout
            frag = make_layout(lay.shape)
            return frag if not isinstance(part, Tensor) else make_register_tensor(frag, vt or "float")
        if frg is not None:
            if not isinstance(part, Tensor):
                raise SymcuteError(f"{where}: {atom.name} reads {op} from shared memory through {frg}; its fragment "
                                   f"is a descriptor tensor of an smem tensor, not a register layout (pass the "
                                   f"smem Tensor, or use partition_{op})")
            return make_desc_tensor(frg, part, where, vt, op)
        if not isinstance(part, Tensor):
            return make_fragment_like(part)
        return make_fragment_like(part.layout(), vt or part.value_type or "float")

    def make_fragment_A(self, atensor):
        """CuTe's ``TiledMMA::make_fragment_A(partition_A(...))``."""
        return self.make_fragment("A", atensor)

    def make_fragment_B(self, btensor):
        return self.make_fragment("B", btensor)

    def make_fragment_C(self, ctensor):
        return self.make_fragment("C", ctensor)

    # --- printing ---------------------------------------------------------------------------------
    def __str__(self) -> str:
        """CuTe's ``print(TiledMMA)``."""
        return ("TiledMMA\n"
                f"  ThrLayoutVMNK:  {self.thr_layout_vmnk}\n"
                f"  PermutationMNK: {it.format_int_tuple(self.permutation_mnk_)}\n" + str(self.atom))

    def __repr__(self) -> str:
        return f"TiledMMA({self.atom.name!r}, {str(self.atom_layout_mnk)!r}, {it.format_int_tuple(self.permutation_mnk_)!r})"

    def __eq__(self, other) -> bool:
        return (isinstance(other, TiledMMA) and self.atom == other.atom
                and self.atom_layout_mnk == other.atom_layout_mnk and self.permutation_mnk_ == other.permutation_mnk_)

    def __hash__(self) -> int:
        return hash((self.atom, self.atom_layout_mnk, it.format_int_tuple(self.permutation_mnk_)))


def as_tensor_layout(x, where: str) -> Layout:
    """A tensor argument: its layout, or ``make_layout(shape)`` for a shape (as ``make_tensor(shape)``)."""
    return _as_layout(x, where, "expected a layout or a shape")


def _as_partitioned_layout(x, where: str):
    """The layout a partition divides: a Tensor's layout, a layout (a ComposedLayout ``Sw o O o L``
    included: CuTe's divides and compositions apply to ``L``), or ``make_layout(shape)``.

    A bare ``Sw o smem_ptr_flag o L`` is the tensor ``make_tensor(smem_ptr, Sw o smem_ptr_flag o L)``,
    whose layout is ``L`` (``pointer_flagged.hpp`` moves the swizzle into the pointer).
    """
    if isinstance(x, Tensor):
        return x.layout()
    if isinstance(x, ComposedLayout):
        return x.inner if isinstance(x.offset, SmemPtrFlag) else x
    return as_tensor_layout(x, where)


def _flagged_smem_tensor(layout: ComposedLayout, value_type) -> Tensor:
    """``make_tensor(make_smem_ptr((T*)nullptr), Sw o smem_ptr_flag_bits<B> o L)``: T is the atom's value type
    where its width is B, else the unsigned type of B bits."""
    bits = layout.offset.bits
    if value_type is None or sizeof_bits(value_type) != bits:
        value_type = {8: "uint8_t", 16: "uint16_t", 32: "uint32_t", 64: "uint64_t"}.get(bits)
        if value_type is None:
            raise LayoutError(f"{layout}: a smem_ptr_flag of {bits} bits names no pointer type symcute models")
    return make_tensor(make_smem_ptr(value_type), layout)


class ThrMMA:
    """CuTe's ``ThrMMA``: one thread's view of a TiledMMA (``mma.get_slice(thr_idx)``)."""

    def __init__(self, tiled_mma: TiledMMA, thr_idx: int):
        if isinstance(thr_idx, bool) or not isinstance(thr_idx, int) or thr_idx < 0:
            raise LayoutError(f"get_slice: thread index must be a non-negative integer, got {thr_idx!r}")
        self.tiled_mma = tiled_mma
        self.thr_idx = thr_idx
        self.thr_vmnk = get_flat_coord(tiled_mma.thr_layout_vmnk, thr_idx)

    def __repr__(self) -> str:
        return f"ThrMMA({self.tiled_mma!r}, thr_idx={self.thr_idx})"

    def __str__(self) -> str:
        v, m, n, k = self.thr_vmnk
        return f"ThrMMA thread {self.thr_idx} (v,m,n,k) = ({v},{m},{n},{k}) of\n{self.tiled_mma}"

    def _coord(self, op: str, thr_tensor: Layout):
        v, m, n, k = self.thr_vmnk
        thr = get_operand(op).thread_coord(v, m, n, k)
        return (thr, (_, repeat_underscore(thr_tensor[1, 1].rank)))

    def _partition(self, op: str, tensor):
        """(offset, sliced layout, the input Tensor or None): CuTe's ``partition_X``,
        ``thr_tensor(thr_coord, make_coord(_, repeat<rank<1,1>(thr_tensor)>(_)))`` of
        ``make_tensor(tensor.data(), thrfrg_X(tensor.layout()))``."""
        thr_tensor = self.tiled_mma.thrfrg(op, _as_partitioned_layout(tensor, f"partition_{op}"))
        coord = self._coord(op, thr_tensor)
        if isinstance(thr_tensor, ComposedLayout):   # Tensor::operator(): the swizzle's slice_and_offset
            sliced, offset = slice_and_offset.dispatch(coord, thr_tensor)
        else:
            sliced, offset = slice_(coord, thr_tensor), _slice_offset(coord, thr_tensor)
        return offset, sliced, tensor if isinstance(tensor, Tensor) else None

    def _partitioned(self, op: str, tensor):
        offset, sliced, t = self._partition(op, tensor)
        return sliced if t is None else Tensor(sliced, t.data() + offset)

    def partition_A(self, atensor):
        """This thread's (FrgV, RestM, RestK, ...) slice of ``atensor``: a Tensor for a Tensor (its
        iterator advanced to the slice), the slice's layout for a layout or a shape."""
        return self._partitioned("A", atensor)

    def partition_B(self, btensor):
        return self._partitioned("B", btensor)

    def partition_C(self, ctensor):
        return self._partitioned("C", ctensor)

    def partition_offset(self, operand: str, tensor) -> int:
        """The offset of this thread's slice in ``tensor`` (what CuTe adds to the data pointer)."""
        return self._partition(get_operand(operand).name, tensor)[0]

    def _fragment(self, op: str, tensor):
        atom = self.tiled_mma.atom
        frg = {"A": atom.frg_type_a, "B": atom.frg_type_b, "C": atom.frg_type_c}[op]
        if (frg is not None and "smem_desc" in frg and isinstance(tensor, ComposedLayout)
                and isinstance(tensor.offset, SmemPtrFlag)):
            # a bare Sw o smem_ptr_flag o L names its memory: it is make_tensor(smem_ptr, Sw o smem_ptr_flag o L)
            tensor = _flagged_smem_tensor(tensor, atom.val_type(op))
        return self.tiled_mma.make_fragment(op, self._partitioned(op, tensor), f"partition_fragment_{op}")

    @traced("partition_fragment_A")
    def partition_fragment_A(self, atensor):
        """``make_fragment_A(partition_A(atensor))``: the register fragment (CuTe's ``make_fragment_like``),
        or for a GMMA/UMMA atom reading A from shared memory, the smem-descriptor tensor."""
        return self._fragment("A", atensor)

    @traced("partition_fragment_B")
    def partition_fragment_B(self, btensor):
        return self._fragment("B", btensor)

    @traced("partition_fragment_C")
    def partition_fragment_C(self, ctensor):
        """``make_fragment_C(partition_C(ctensor))``: compact column-major of the partition's shape."""
        return self._fragment("C", ctensor)


def get_flat_coord(layout: Layout, idx: int) -> tuple:
    """CuTe's ``Layout::get_flat_coord``: ``crd2crd(idx2crd(idx, shape, stride), shape, (1,...))``."""
    def hier(s, d):
        if isinstance(s, tuple):
            return tuple(hier(x, y) for x, y in zip(s, d))
        if s == 1:
            return 0
        if d == 0:
            raise LayoutError(f"get_flat_coord({layout}, {idx}): a stride-0 mode of extent {s} divides by zero")
        return (idx // d) % s
    h = hier(layout.shape, layout.stride)
    return tuple(it.crd2idx(c, s, it.compact_col_major(s)) if isinstance(s, tuple) else c
                 for c, s in zip(it.wrap(h), it.wrap(layout.shape)))


def _slice_offset(coord, layout: Layout) -> int:
    """The offset of the slice: ``crd2idx`` with every ``_`` taken as 0."""
    def zero(c):
        if isinstance(c, tuple):
            return tuple(zero(x) for x in c)
        return 0 if isinstance(c, Underscore) else c

    def fill(c, s):  # a `_` standing for a whole nested mode becomes a 0 of the mode's profile
        if isinstance(c, Underscore):
            return it.repeat_like(s, 0)
        if isinstance(c, tuple):
            return tuple(fill(x, y) for x, y in zip(c, s))
        return c
    return it.crd2idx(fill(coord, layout.shape), layout.shape, layout.stride)


@traced("make_tiled_mma")
def make_tiled_mma(atom, atom_layout=(1, 1, 1), permutations=None) -> TiledMMA:
    """CuTe's ``make_tiled_mma(atom, thr_layout = Layout<Shape<_1,_1,_1>>{}, permutations = Tile<_,_,_>{})``.

    ``atom``: an MMAAtom or its C++ name.  ``atom_layout``: a Layout or a shape
    (``(2,2,1)`` means ``make_layout((2,2,1))``), padded to rank 3 with ``1:0``.
    ``permutations``: a tuple of up to three ints, Layouts or ``_`` (CuTe's
    ``Tile<...>``), padded with ``_``.
    @post result.tile_size(i) == size(permutation i), or atom extent * atom-layout extent for ``_``
    """
    atom = mma_atom(atom)
    where = f"make_tiled_mma({atom.name}, ...)"
    lay = _as_atom_layout(atom_layout, where)
    if lay.rank > 3:
        raise LayoutError(f"{where}: TiledMMA requires rank-3 AtomLayoutMNK, got {lay} of rank {lay.rank}")
    lay = append(lay, Layout(1, 0), 3)
    perms = _as_permutation(permutations, where)
    if not isinstance(perms, tuple):
        perms = (perms,)
    if len(perms) > 3:
        raise LayoutError(f"{where}: TiledMMA requires rank-3 PermutationMNK, got {len(perms)} permutations")
    perms = perms + (_,) * (3 - len(perms))
    return TiledMMA(atom, lay, perms)
