"""The data path of a GEMM mainloop as layouts over the static CTA tile (docs/kernel.md, "The model").

Every map here is a core Layout (or a ``Compose`` of layouts) from a joint index to a *tile index*:
the column-major index ``m + BLK_M * k`` of a coordinate of the operand's CTA tile (CuTe's TV layouts
map into the same index of their tiler).  The joint index of a per-thread map is
``thread + NumThreads * j`` (thread fastest), so a claim "for every thread and every j" is one equality
of two such layouts on ``[0, NumThreads * J)``, which the prover decides.

- :func:`mma_tv`: ``(thr_idx, (FrgV,(RestM,RestK))) -> tile index``, the TiledMMA's partition of the
  whole CTA tile (``thrfrg_A`` composed with ``thridx_2_thrid``, as ``get_layoutA_TV`` does for one
  MMA tile); the value index is the fragment's natural index ``(v, m, k)`` of ``partition_A``;
- :func:`copy_tv`: ``(thr_idx, (FrgV,FrgX), (RestM,RestK)) -> tile index``: ``tidfrg_S``/``tidfrg_D``;
- :func:`fragment`: the register layout ``make_fragment_A(partition_A(sA(_,_,0)))``;
- :func:`with_thread`: ``(t, j) -> t + T * L(j)``, a per-thread map lifted to the joint index.

Only layouts and TV layouts are read (``thrfrg_*``, ``tidfrg_*``, ``retile``, ``partition_fragment_*``),
so the model does not depend on partitions returning Tensors.
"""

from __future__ import annotations

from ..atoms.tiled_copy import TiledCopy
from ..atoms.tiled_mma import TiledMMA
from ..core import Layout, composition, make_layout, size, slice_, _
from ..core.composed import ComposedLayout


def tile_ref(shape: tuple) -> Layout:
    """The CTA tile as its column-major index: ``(BLK_M,BLK_K) -> m + BLK_M * k``."""
    return make_layout(tuple(shape))


def mma_tv(mma: TiledMMA, op: str, shape: tuple) -> Layout:
    """``(thr_idx, frg) -> tile index`` of operand ``op`` ("A", "B", "C") over the whole CTA tile ``shape``.

    The same steps as ``TiledMMA::get_layoutA_TV`` (mma_atom.hpp), applied to the CTA tile instead of
    one MMA tile: ``thrfrg_A``, A broadcast over ThrN (B over ThrM), then ``thridx_2_thrid``."""
    vmnk = mma.get_thr_layout_vmnk()
    thr = mma.thrfrg(op, tile_ref(shape))
    if op == "A":
        thr = composition(thr, ((_, (Layout((size(vmnk[1]), size(vmnk[2])), (1, 0)), _)), _))
    elif op == "B":
        thr = composition(thr, ((_, (Layout((size(vmnk[1]), size(vmnk[2])), (0, 1)), _)), _))
    return composition(thr, (mma.thridx_2_thrid, _))


def copy_tv(copy: TiledCopy, role: str, shape: tuple) -> Layout:
    """``(thr_idx, (FrgV,FrgX), (RestM,RestK)) -> tile index``: the copy's ``tidfrg_S`` or ``tidfrg_D``."""
    ref = tile_ref(shape)
    return copy.tidfrg_S(ref) if role == "S" else copy.tidfrg_D(ref)


def smem_stage(smem, stage: int = 0):
    """``sA(_,_,stage)`` (a rank-2 smem layout is its own single stage)."""
    inner = smem.inner if isinstance(smem, ComposedLayout) else smem
    if inner.rank < 3:
        return smem
    return slice_((_, _, stage), smem)


def fragment(mma: TiledMMA, op: str, smem) -> Layout:
    """The register fragment ``make_fragment_A(partition_A(sA(_,_,0)))`` (B alike; C: the accumulators
    ``partition_fragment_C`` of the tile); its layout.

    A swizzled smem layout contributes its layout ``L`` of ``Sw o O o L`` (CuTe's make_fragment_like of a
    ComposedLayout is that of its layout_b)."""
    stage = smem_stage(smem, 0)
    if isinstance(stage, ComposedLayout):
        stage = stage.inner
    thr = mma.get_slice(0)
    frg = {"A": thr.partition_fragment_A, "B": thr.partition_fragment_B, "C": thr.partition_fragment_C}[op](stage)
    return frg if isinstance(frg, Layout) else frg.layout()


def scaled(layout: Layout, k: int) -> Layout:
    """``layout`` with every stride multiplied by ``k`` (its values times ``k``)."""
    def mul(d):
        return tuple(mul(x) for x in d) if isinstance(d, tuple) else d * k
    return Layout(layout.shape, mul(layout.stride))


def with_thread(threads: int, per_thread: Layout) -> Layout:
    """``(t, j) -> t + threads * per_thread(j)``: a map of one thread's index lifted to the joint index."""
    return make_layout(Layout(threads, 1), scaled(per_thread, threads))


def tile_coord(index: int, shape: tuple) -> tuple:
    """The tile coordinate ``(m, k)`` of a column-major tile index."""
    return index % shape[0], index // shape[0]


def flat_sizes(layout: Layout) -> tuple:
    """The sizes of the top-level modes of ``layout``."""
    shp = layout.shape if isinstance(layout.shape, tuple) else (layout.shape,)
    return tuple(size(s) for s in shp)


def natural_coord(j: int, sizes: tuple) -> tuple:
    """The colexicographic coordinate of ``j`` in modes of the given sizes."""
    out = []
    for s in sizes:
        out.append(j % s)
        j //= s
    return tuple(out)
