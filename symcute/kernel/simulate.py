"""The kernel's data path run on the CPU, on integer numpy arrays (docs/kernel.md, "kernel run").

:func:`run` executes, for each CTA (the whole grid or one), the program of one ``gemm_device`` thread
(:func:`.pipeline.events`, the sgemm_sm80 mainloop) for every thread at once:

- ``issue``: the G2S copy of a k-tile, every (thread, value) of the TiledCopy's ``tidfrg_S``/``tidfrg_D``
  maps: the gmem element at the source coordinate is read through the ``gmem`` layout (an address in a
  flat buffer that holds A as the layout stores it) and written to the smem offset the ``smem`` layout
  gives the destination coordinate in the stage; a read outside ``(M,K)`` is an out-of-bounds access
  (skipped with ``predicate = true``, zero with a ``_ZFILL`` atom);
- ``read``: the S2R copy of one k-block into each thread's registers (``retile_D`` of the fragment), or
  the register copy from ``thr_mma.partition_A(sA)`` without one;
- ``gemm``: the MMA atom on each atom instance of the TiledMMA: its threads' registers placed at the
  atom's own ``ALayout``/``BLayout`` coordinates (the atom's TV layouts, not the tile's), multiplied, and
  added to the registers its ``CLayout`` assigns;
- the epilogue: every accumulator register written to ``partition_C(gC)`` (``axpby`` with alpha 1,
  beta 0) or through ``[c] epilogue``'s ``retile_S``/``partition_D``.

The cp.async schedule is run twice, as the two extreme orders the hardware allows: ``copies-late``
(every copy lands at the first ``__syncthreads`` after a ``cp_async_wait`` retired its group, so a read
before that finds the stage's old contents) and ``reads-late`` (copies land at issue, and a segment's
reads and MMAs between two ``__syncthreads`` run after every copy of the segment, as a lagging warp's
would).  ``tma``/``sync`` kinds run in program order with copies complete at issue (no schedule model).

Each call of a vector copy atom (its ``FrgV``: cp.async's 16 bytes, an ldmatrix row) must move one
contiguous vector aligned to its width, in gmem and in smem; a call that does not is a misaligned access
(the device's misaligned-address fault).  C is compared with numpy's ``A @ B.T`` (A is ``(M,K)``, B ``(N,K)``, as ``gemm_device``'s ``mA``/``mB``).
Unwritten smem words and out-of-bounds gmem reads hold :data:`POISON`; C's memory starts as
:data:`UNWRITTEN`.  Everything is int64, exact for the values drawn (|A|, |B| <= 255: two
sums agree by chance rarely, so a misplaced element shows).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..core import size
from ..core.layout import Layout
from ..errors import LimitError, SymcuteError
from ..symbolic import exhaustive
from . import datapath as dp
from . import pipeline as pl
from .description import Kernel

POISON = 1_000_003        # an smem word no copy wrote, or a gmem read outside the operand
UNWRITTEN = -999_983      # C's memory before the epilogue
VALUE_RANGE = 255         # A and B are uniform in [-255, 255]
MAX_ELEMENTS = 1 << 24    # of A, B or C
MAX_CTA_TILES = 1 << 16   # CTAs run times k-tiles
MAX_ACCESSES = 1 << 16    # out-of-bounds accesses kept (the count is exact)
_NAMES = {"a": ("m", "k"), "b": ("n", "k"), "c": ("m", "n")}
DIM_NAMES = ("M", "N", "K")


def _np():
    import numpy as np
    return np


@dataclass
class RunResult:
    """The run of one problem size: ``C`` as the kernel left it, ``expected`` (numpy's ``A @ B.T``), the
    ``checked`` mask (the C elements of the CTAs run), the wrong elements per schedule, and the bad
    accesses (``accesses``, at most :data:`MAX_ACCESSES`; ``access_count`` is exact): out of bounds
    (``operand``, ``access`` read/write, ``cta``, ``k_tile``, ``thread``, ``value``, ``element``,
    ``coord``, ``offset``) or a misaligned vector (``access`` "misaligned read/write", ``call``, ``offsets``)."""
    kernel: Kernel
    shape: tuple
    ctas: list
    seed: int
    C: object
    expected: object
    checked: object
    schedules: dict                     # name -> (n, 2) array of the wrong (m, n) under that order
    found: dict                         # name -> C as that order left it
    accesses: list = field(default_factory=list)
    access_count: int = 0               # out-of-bounds and misaligned accesses
    misaligned_count: int = 0
    one_cta: bool = False               # run for --cta (not the whole grid)
    first_wrong_k_tile: dict = field(default_factory=dict)   # schedule -> {"k_tile", "cta"}: the first k-tile
                                                             # after which an accumulator is not numpy's partial sum

    @property
    def wrong(self):
        """The wrong ``(m, n)`` under any schedule, sorted, as an ``(n, 2)`` array."""
        np = _np()
        if not self.schedules:
            return np.zeros((0, 2), dtype=np.int64)
        allw = np.concatenate(list(self.schedules.values()))
        return np.unique(allw, axis=0) if len(allw) else allw

    @property
    def exit_status(self) -> int:
        """0: C equals numpy's matmul under every schedule and no access is out of bounds or misaligned; 1
        otherwise."""
        return 1 if len(self.wrong) or self.access_count else 0

    def wrong_elements(self, limit: int | None = 8) -> list:
        """The first wrong elements: ``{"m", "n", "expected", "found", "schedules"}``."""
        out = []
        for m, n in self.wrong[:limit]:
            m, n = int(m), int(n)
            names = [s for s, w in self.schedules.items() if len(w) and ((w[:, 0] == m) & (w[:, 1] == n)).any()]
            v = int(self.found[names[0]][m, n])
            out.append({"m": m, "n": n, "expected": int(self.expected[m, n]),
                        "found": "never written" if v == UNWRITTEN else v, "schedules": names})
        return out

    def to_dict(self, limit: int = 8) -> dict:
        M, N, K = self.shape
        return {"kernel": self.kernel.source, "problem": {"M": M, "N": N, "K": K}, "seed": self.seed,
                "ctas": len(self.ctas), "cta": list(self.ctas[0]) if self.one_cta else None,
                "checked": int(self.checked.sum()), "schedules": list(self.schedules),
                "wrong_count": int(len(self.wrong)),
                "wrong_by_schedule": {s: int(len(w)) for s, w in self.schedules.items()},
                "first_wrong_k_tile": self.first_wrong_k_tile,
                "wrong": self.wrong_elements(limit),
                "out_of_bounds_count": self.access_count - self.misaligned_count,
                "out_of_bounds": [a for a in self.accesses if "call" not in a][:limit],
                "misaligned_count": self.misaligned_count,
                "misaligned": [a for a in self.accesses if "call" in a][:limit], "equal": self.exit_status == 0}


# --- the plan: every map of the data path as index arrays (independent of the problem size) ---------------------
def _vals(layout, n=None):
    np = _np()
    v = exhaustive.values(layout, size(layout) if n is None else n)
    return np.asarray(v, dtype=np.int64)


def _per_thread(layout, T: int):
    """A joint map ``t + T * j -> x`` as a ``(T, J)`` array."""
    v = _vals(layout)
    if v.size % T:
        raise SymcuteError(f"kernel run: {layout} does not split over {T} threads")
    return v.reshape((T, -1), order="F")


def _kblock_of(layout: Layout):
    """The k-block (third top-level mode) of each natural index of a rank-3 register layout."""
    np = _np()
    sizes = dp.flat_sizes(layout)
    if len(sizes) != 3:
        raise SymcuteError(f"kernel run: the register layout {layout} is not (V, MMA, K_BLOCK)")
    j = np.arange(size(layout))
    return (j // (sizes[0] * sizes[1])) % sizes[2], sizes


class _Operand:
    """The maps of A or B: G2S source/destination tile indices per (thread, value), the smem offsets of
    every (tile index, stage), and per k-block the (register, tile index) pairs the register copy fills."""

    def __init__(self, kernel: Kernel, op: str):
        np = _np()
        x = kernel.operand(op)
        mma = kernel.mma
        T = mma.size()
        self.op, self.x, self.shape = op, x, kernel.tile_shape(op)
        self.tile = self.shape[0] * self.shape[1]
        self.src = _per_thread(dp.copy_tv(x.g2s, "S", self.shape), T)
        self.dst = _per_thread(dp.copy_tv(x.g2s, "D", self.shape), T)
        if self.src.shape != self.dst.shape:
            raise SymcuteError(f"kernel run: [{op}] g2s reads {self.src.shape[1]} and writes {self.dst.shape[1]} "
                               f"values per thread")
        self.smem_off = _vals(x.smem)
        self.smem_size = max(int(self.smem_off.max()) + 1, 1)
        self.zfill = "ZFILL" in x.g2s.atom.name
        self.g2s_vector = _vector_width(x.g2s, dp.copy_tv(x.g2s, "D", self.shape))
        F = dp.fragment(mma, op.upper(), x.smem)
        self.fragment = F
        self.registers = int(_vals(F).max()) + 1
        if len(set(_vals(F).tolist())) != size(F):
            raise SymcuteError(f"kernel run: [{op}] the register fragment {F} broadcasts registers (not simulated)")
        if x.s2r is None:
            held = _per_thread(dp.mma_tv(mma, x.partition, self.shape), T)
            regs = np.broadcast_to(_vals(F), held.shape)
            kb, _ = _kblock_of(F)
        else:
            held = _per_thread(dp.copy_tv(x.s2r, "D", self.shape), T)
            RD = x.s2r.retile(F)
            if size(RD) != held.shape[1]:
                raise SymcuteError(f"kernel run: [{op}] s2r moves {held.shape[1]} values per thread, retile_D of "
                                   f"the fragment has {size(RD)}")
            regs = np.broadcast_to(_vals(RD), held.shape)
            kb, _ = _kblock_of(RD)
        KB = dp.flat_sizes(F)[2]
        # the S2R copy's smem side per atom call, by k-block (an ldmatrix row, a vector load)
        self.s2r_calls = None
        if x.s2r is not None:
            from ..memory.copy import default_side
            tv = dp.copy_tv(x.s2r, default_side(x.s2r.atom), self.shape)
            side = _per_thread(tv, T)
            fv = _vector_width(x.s2r, tv)
            if fv > 1:
                calls = side.reshape((T, fv, -1), order="F")
                call_kb = kb[::fv][:calls.shape[2]]
                self.s2r_calls = (fv, [(np.flatnonzero(call_kb == k), calls[:, :, call_kb == k]) for k in
                                       range(dp.flat_sizes(F)[2])])
        # per k-block: the (thread, register) written and the tile index read (copy(tXsA(_,_,kb), tXrA(_,_,kb)))
        self.reads = []
        t = np.broadcast_to(np.arange(T)[:, None], held.shape)
        for k in range(KB):
            sel = kb == k
            self.reads.append((t[:, sel].ravel(), regs[:, sel].ravel(), held[:, sel].ravel()))
        self.k_blocks = KB


def _vector_width(copy, tv) -> int:
    """The values one call of the copy atom moves as one vector: ``FrgV`` of its TV layout ``tv``
    (``(thr, (FrgV,FrgX), rest)``), 1 for an element-wise atom (as the ``vector`` claims read it)."""
    from ..memory.copy import atom_kind
    fam, _ = atom_kind(copy.atom)
    fv = size(tv[1][0]) if isinstance(tv.shape[1], tuple) else 1
    return 1 if fam == "none" else fv


def _misaligned(offs, fv: int):
    """``(thread, call)`` pairs of a ``(T, fv, calls)`` offset array whose values are not one contiguous,
    aligned vector."""
    np = _np()
    bad = (offs != offs[:, :1, :] + np.arange(fv)[None, :, None]).any(axis=1) | (offs[:, 0, :] % fv != 0)
    return np.argwhere(bad)


class _MMA:
    """The TiledMMA as atom instances: each thread's (ThrV, ThrM, ThrN) coordinate, and index arrays that
    place its A, B registers at the atom's ALayout/BLayout coordinates and gather its C registers'
    products at the CLayout's."""

    def __init__(self, kernel: Kernel, A: _Operand, B: _Operand):
        np = _np()
        mma = kernel.mma
        T = mma.size()
        vmnk = mma.get_thr_layout_vmnk()
        V, TM, TN, TK = (size(vmnk[i]) for i in range(4))
        if TK != 1:
            raise SymcuteError("kernel run: a TiledMMA with threads along K (ThrK > 1) is not simulated")
        thrid = _vals(mma.thridx_2_thrid, T)
        tv, tm, tn = thrid % V, (thrid // V) % TM, (thrid // (V * TM)) % TN
        AM, AN, AK = mma.atom.shape_mnk
        self.T, self.TM, self.TN, self.AM, self.AN, self.AK = T, TM, TN, AM, AN, AK
        self.place = {}
        for op, X, AX in (("A", A, AM), ("B", B, AN)):
            atom = _vals(mma.atom.layout(op)).reshape((V, -1), order="F")     # (atom thr, val) -> local index
            F = X.fragment
            Fv = _vals(F)
            VA, MM, KB = dp.flat_sizes(F)
            if VA != atom.shape[1]:
                raise SymcuteError(f"kernel run: the {op} fragment has {VA} values per atom, the atom's {op}Layout "
                                   f"{atom.shape[1]}")
            t = np.arange(T)[:, None, None]
            va = np.arange(VA)[None, :, None]
            mm = np.arange(MM)[None, None, :]
            local = atom[tv[:, None, None], va]                                # (T, VA, 1)
            flat = ((tm[:, None, None] * TN + tn[:, None, None]) * MM + mm) * (AX * AK) + local
            per_kb = [Fv[va + VA * mm + VA * MM * k] for k in range(KB)]    # register of (va, mm, kb)
            shape = (T, VA, MM)
            self.place[op] = (np.broadcast_to(t, shape).ravel(), np.broadcast_to(flat, shape).ravel(),
                              [np.broadcast_to(r, shape).ravel() for r in per_kb], MM)
        # C: register F_C(vc, mm, nn) of thread t += CL[tm, tn, mm, nn, CLayout(tv, vc)]
        self.c_fragment = dp.fragment(mma, "C", dp.tile_ref(kernel.tile_shape("c")))
        FC = self.c_fragment
        FCv = _vals(FC)
        if len(set(FCv.tolist())) != size(FC):
            raise SymcuteError(f"kernel run: the accumulator fragment {FC} broadcasts registers (not simulated)")
        self.c_registers = int(FCv.max()) + 1
        atomC = _vals(mma.atom.layout("C")).reshape((V, -1), order="F")
        VC, MMc, NNc = dp.flat_sizes(FC)
        self.MM, self.NN = self.place["A"][3], self.place["B"][3]
        if (MMc, NNc) != (self.MM, self.NN):
            raise SymcuteError(f"kernel run: the C fragment {FC} is not (V, {self.MM}, {self.NN})")
        t = np.arange(T)[:, None, None, None]
        vc = np.arange(VC)[None, :, None, None]
        mm = np.arange(MMc)[None, None, :, None]
        nn = np.arange(NNc)[None, None, None, :]
        loc = atomC[tv[:, None, None, None], vc]                               # m + AM * n
        # CL is laid out (TM, TN, MM, NN, AN, AM): its last two modes index n * AM + m = the local index
        flat = (((tm[:, None, None, None] * TN + tn[:, None, None, None]) * MMc + mm) * NNc + nn) * (AM * AN) + loc
        shape = (T, VC, MMc, NNc)
        self.c_thread = np.broadcast_to(t, shape).ravel()
        self.c_reg = np.broadcast_to(FCv[vc + VC * mm + VC * MMc * nn], shape).ravel()
        self.c_flat = np.broadcast_to(flat, shape).ravel()
        # the C tile index each accumulator register holds (partition_C over the CTA tile), for the partial
        # sums after each k-tile
        cmap = _per_thread(dp.mma_tv(mma, "C", kernel.tile_shape("c")), T)
        self.acc_thread = np.broadcast_to(np.arange(T)[:, None], cmap.shape).ravel()
        self.acc_reg = np.broadcast_to(FCv, cmap.shape).ravel()
        self.acc_tile = cmap.ravel()

    def accumulate(self, regs_a, regs_b, acc, kb: int) -> None:
        np = _np()
        A = np.zeros(self.TM * self.TN * self.MM * self.AM * self.AK, dtype=np.int64)
        t, flat, per_kb, _ = self.place["A"]
        A[flat] = regs_a[t, per_kb[kb]]
        B = np.zeros(self.TM * self.TN * self.NN * self.AN * self.AK, dtype=np.int64)
        t, flat, per_kb, _ = self.place["B"]
        B[flat] = regs_b[t, per_kb[kb]]
        A = A.reshape((self.TM, self.TN, self.MM, self.AK, self.AM))
        B = B.reshape((self.TM, self.TN, self.NN, self.AK, self.AN))
        CL = np.einsum("xyikm,xyjkn->xyijnm", A, B)     # the atom: C(m,n) += sum_k A(m,k) B(n,k)
        acc[self.c_thread, self.c_reg] += CL.ravel()[self.c_flat]


class _Epilogue:
    """Per (thread, value): the accumulator register written and the C tile index it goes to."""

    def __init__(self, kernel: Kernel, mma: _MMA):
        np = _np()
        shape = kernel.tile_shape("c")
        T = mma.T
        FC = mma.c_fragment
        E = kernel.c.epilogue
        if E is None:      # axpby(alpha, tCrC, beta, tCgC): register (t, r) to partition_C(gC) at (t, r)
            dst = _per_thread(dp.mma_tv(kernel.mma, "C", shape), T)
            regs = np.broadcast_to(_vals(FC), dst.shape)
        else:              # copy(r2g, retile_S(tCrC), partition_D(gC))
            dst = _per_thread(dp.copy_tv(E, "D", shape), T)
            RS = _vals(E.retile(FC))
            if RS.size != dst.shape[1]:
                raise SymcuteError(f"kernel run: [c] epilogue writes {dst.shape[1]} values per thread, retile_S of "
                                   f"the accumulators has {RS.size}")
            regs = np.broadcast_to(RS, dst.shape)
        self.thread = np.broadcast_to(np.arange(T)[:, None], dst.shape)
        self.reg, self.dst = regs, dst


# --- gmem -----------------------------------------------------------------------------------------------------
class _Gmem:
    """One operand in global memory: a flat int64 buffer that holds it as its ``gmem`` layout stores it."""

    def __init__(self, name: str, text: str, env: dict, extent: tuple, source: str):
        from ..expr import evaluate
        np = _np()
        self.name, self.extent = name, extent
        try:
            self.layout = evaluate(text, env)
        except SymcuteError as e:
            raise SymcuteError(f"{source}: [{name}] gmem at {env}: {e}") from None
        if not isinstance(self.layout, Layout) or size(self.layout) != extent[0] * extent[1]:
            raise SymcuteError(f"{source}: [{name}] gmem = {text} is not a {extent[0]}x{extent[1]} layout at {env}")
        self.table = _vals(self.layout)                    # offset of (r, c) at index r + R * c
        lo = int(self.table.min())
        if lo < 0:
            raise SymcuteError(f"{source}: [{name}] gmem = {text} has an offset below 0 ({lo})")
        self.flat = self.layout.rank == 2 and all(isinstance(s, int) for s in (*self.layout.shape,
                                                                               *self.layout.stride))
        self.mem = np.full(int(self.table.max()) + 1, UNWRITTEN, dtype=np.int64)

    def offsets(self, r, c):
        """The buffer offsets of coordinates ``(r, c)`` (any, inside the extent or not)."""
        np = _np()
        if self.flat:
            s0, s1 = self.layout.stride
            return r * s0 + c * s1
        inside = (r < self.extent[0]) & (c < self.extent[1])
        out = np.empty(r.shape, dtype=np.int64)
        out[inside] = self.table[r[inside] + self.extent[0] * c[inside]]
        for i in np.flatnonzero(~inside):
            out[i] = int(self.layout((int(r[i]), int(c[i]))))
        return out

    def fill(self, values) -> None:
        """Store the ``extent`` matrix ``values`` (later coordinates win where the layout aliases)."""
        self.mem[self.table] = values.ravel(order="F")

    def matrix(self):
        """The operand as it reads back through the layout."""
        return self.mem[self.table].reshape(self.extent, order="F")


# --- the run -----------------------------------------------------------------------------------------------------
def _shape(kernel: Kernel, shape) -> tuple:
    if isinstance(shape, str):
        parts = shape.replace("x", ",").split(",")
        try:
            shape = tuple(int(p) for p in parts)
        except ValueError:
            raise SymcuteError(f"kernel run: --shape {shape!r}: expected M,N,K (three positive integers)") from None
    shape = tuple(shape)
    if len(shape) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in shape):
        raise SymcuteError(f"kernel run: shape {shape!r}: expected M,N,K (three positive integers)")
    for d, (want, got) in enumerate(zip(kernel.shape, shape)):
        if isinstance(want, int) and want != got:
            raise SymcuteError(f"kernel run: {kernel.source} fixes {DIM_NAMES[d]} = {want}, the run asks {got}")
    M, N, K = shape
    for what, n in (("A", M * K), ("B", N * K), ("C", M * N)):
        if n > MAX_ELEMENTS:
            raise LimitError(f"kernel run: {what} has {n} elements at M,N,K = {M},{N},{K}, more than the limit of "
                             f"{MAX_ELEMENTS}")
    return shape


def run(kernel, shape, cta=None, seed: int = 0) -> RunResult:
    """Run ``kernel`` (a :class:`Kernel`, a path or a dict) at ``shape`` = ``(M, N, K)`` on random integer
    A and B (seeded), over the whole grid or the one CTA ``cta = (m, n)``, and compare C with numpy's
    ``A @ B.T`` under each schedule (module docstring)."""
    np = _np()
    if isinstance(kernel, dict):
        from .description import from_dict
        kernel = from_dict(kernel)
    elif not isinstance(kernel, Kernel):
        from .description import load
        kernel = load(kernel)
    M, N, K = _shape(kernel, shape)
    BM, BN, BK = kernel.cta
    grid = (math.ceil(M / BM), math.ceil(N / BN))
    if cta is None:
        ctas = [(i, j) for j in range(grid[1]) for i in range(grid[0])]
    else:
        cta = tuple(cta)
        if len(cta) != 2 or not all(isinstance(v, int) and 0 <= v < g for v, g in zip(cta, grid)):
            raise SymcuteError(f"kernel run: cta {cta!r}: expected m,n with 0 <= m < {grid[0]} and 0 <= n < {grid[1]}")
        ctas = [cta]
    n_tiles = math.ceil(K / BK)
    if len(ctas) * n_tiles > MAX_CTA_TILES:
        raise LimitError(f"kernel run: {len(ctas)} CTAs x {n_tiles} k-tiles, more than the limit of {MAX_CTA_TILES} "
                         f"(run one CTA with --cta)")
    env = {}
    for name, v in zip(kernel.shape, (M, N, K)):
        if isinstance(name, str):
            env[name] = v
    A, B = _Operand(kernel, "a"), _Operand(kernel, "b")
    if A.k_blocks != B.k_blocks:
        raise SymcuteError(f"kernel run: A has {A.k_blocks} and B {B.k_blocks} k-blocks per k-tile")
    mma = _MMA(kernel, A, B)
    epi = _Epilogue(kernel, mma)
    rng = np.random.default_rng(seed)
    g = {"a": _Gmem("a", kernel.a.gmem_text, env, (M, K), kernel.source),
         "b": _Gmem("b", kernel.b.gmem_text, env, (N, K), kernel.source)}
    g["a"].fill(rng.integers(-VALUE_RANGE, VALUE_RANGE + 1, size=(M, K), dtype=np.int64))
    g["b"].fill(rng.integers(-VALUE_RANGE, VALUE_RANGE + 1, size=(N, K), dtype=np.int64))
    Am, Bm = g["a"].matrix(), g["b"].matrix()
    expected = Am @ Bm.T
    checked = np.zeros((M, N), dtype=bool)
    for bm, bn in ctas:
        checked[bm * BM:(bm + 1) * BM, bn * BN:(bn + 1) * BN] = True
    schedules = ["copies-late", "reads-late"] if kernel.pipeline_kind == "cp.async" else ["in-order"]
    W = kernel.stages - 2 if kernel.wait is None else kernel.wait
    log = _Accesses()
    wrong, found, first = {}, {}, {}
    for si, sched in enumerate(schedules):
        c = _Gmem("c", kernel.c.gmem_text, env, (M, N), kernel.source)
        for bm, bn in ctas:
            def partial(it, bm=bm, bn=bn):
                k = min((it + 1) * BK, K)
                return Am[bm * BM:(bm + 1) * BM, :k] @ Bm[bn * BN:(bn + 1) * BN, :k].T
            it = _run_cta(kernel, sched, max(W, 0), (bm, bn), A, B, mma, epi, g, c, n_tiles,
                          log if si == 0 else None, partial)
            if it is not None and (sched not in first or it < first[sched]["k_tile"]):
                first[sched] = {"k_tile": it, "cta": [bm, bn]}
        C = c.matrix()
        bad = np.argwhere(checked & (C != expected))
        wrong[sched] = bad
        found[sched] = C
    return RunResult(kernel, (M, N, K), ctas, seed, found[schedules[0]], expected, checked, wrong, found,
                     log.items, log.count, log.misaligned_count, cta is not None, first)


class _Accesses:
    """The out-of-bounds accesses, each once (a re-issued k-tile repeats its accesses)."""

    def __init__(self):
        self.items, self.count, self.seen = [], 0, set()
        self.misaligned_count = 0

    def add(self, operand, access, cta, k_tile, threads, values, rows, cols, offsets):
        names = _NAMES.get(operand.lower(), ("r", "c"))
        for t, j, r, c, o in zip(threads.tolist(), values.tolist(), rows.tolist(), cols.tolist(), offsets.tolist()):
            key = (operand, access, cta, k_tile, t, j)
            if key in self.seen:
                continue
            self.seen.add(key)
            self.count += 1
            if len(self.items) < MAX_ACCESSES:
                self.items.append({"operand": operand, "access": access, "cta": dict(zip(("m", "n"), cta)),
                                   "k_tile": k_tile, "thread": t, "value": j,
                                   "element": f"{operand}({names[0]}={r},{names[1]}={c})", "coord": [r, c],
                                   "offset": o})


    def misaligned(self, operand, access, cta, k_tile, t, call, offsets, fv):
        """A copy-atom call whose ``fv`` values are not one contiguous vector aligned to its width (the
        device's "misaligned address" fault for a cp.async; CuTe's recast refuses it at compile time)."""
        key = (operand, "misaligned " + access, cta, k_tile, t, call)
        if key in self.seen:
            return
        self.seen.add(key)
        self.count += 1
        self.misaligned_count += 1
        if len(self.items) < MAX_ACCESSES:
            self.items.append({"operand": operand, "access": f"misaligned {access}", "cta": dict(zip(("m", "n"), cta)),
                               "k_tile": k_tile, "thread": t, "call": call, "offset": offsets[0], "offsets": offsets,
                               "element": f"a {fv}-value vector at offsets {offsets}"})


def _load(X: _Operand, gm: _Gmem, block: int, k_tile: int, stage: int, cta, log):
    """The G2S copy of one k-tile: (smem offsets, values) every (thread, value) writes."""
    np = _np()
    BX, BK = X.shape
    src, dst = X.src.ravel(order="F"), X.dst.ravel(order="F")
    T = X.src.shape[0]
    r = block * BX + src % BX
    c = k_tile * BK + src // BX
    off = gm.offsets(r, c)
    inside = (r < gm.extent[0]) & (c < gm.extent[1])
    vals = np.full(src.shape, POISON, dtype=np.int64)
    ok = (off >= 0) & (off < gm.mem.size)
    vals[ok] = gm.mem[off[ok]]
    keep = np.ones(src.shape, dtype=bool)
    if not inside.all():
        out = ~inside
        if X.x.predicate:       # copy_if against the identity tensor: the element is not copied
            if X.zfill:
                vals[out] = 0
            else:
                keep &= inside
        elif log is not None:
            i = np.flatnonzero(out)
            log.add(X.op.upper(), "read", cta, k_tile, i % T, i // T, r[i], c[i], off[i])
    in_tile = (dst >= 0) & (dst < X.tile)     # a destination past the stage's tile is no element of it
    soff = np.full(dst.shape, -1, dtype=np.int64)
    soff[in_tile] = X.smem_off[dst[in_tile] + X.tile * stage]
    fv = X.g2s_vector
    if fv > 1 and log is not None:      # each call's values: one contiguous, aligned vector on both sides
        shape3 = (T, fv, -1)
        whole = inside.reshape(shape3, order="F").all(axis=1)
        for side, offs in (("", off), ("s", soff)):
            o3 = offs.reshape(shape3, order="F")
            for t, call in _misaligned(o3, fv):
                if side == "s" or whole[t, call] or not X.x.predicate:   # copy_if skips a partial call
                    log.misaligned(side + X.op.upper(), "write" if side else "read", cta, k_tile, int(t), int(call),
                                   o3[t, :, call].tolist(), fv)
    sok = (soff >= 0) & (soff < X.smem_size)
    if not sok.all() and log is not None:
        i = np.flatnonzero(~sok)
        log.add("s" + X.op.upper(), "write", cta, k_tile, i % T, i // T, dst[i] % BX, dst[i] // BX, soff[i])
    keep &= sok
    return soff[keep], vals[keep]


def _run_cta(kernel, sched, W, cta, A, B, mma, epi, g, c, n_tiles, log, partial=None):
    """Run one CTA under one schedule; the first k-tile after which an accumulator differs from numpy's
    partial sum (``partial(it)``: the CTA's tile of ``A[:, :k] @ B[:, :k].T``), or None."""
    np = _np()
    bm, bn = cta
    BMc = kernel.tile_shape("c")[0]
    P = kernel.stages
    smem = {"a": np.full(A.smem_size, POISON, dtype=np.int64), "b": np.full(B.smem_size, POISON, dtype=np.int64)}
    regs = {"a": np.zeros((mma.T, A.registers), dtype=np.int64), "b": np.zeros((mma.T, B.registers), dtype=np.int64)}
    acc = np.zeros((mma.T, mma.c_registers), dtype=np.int64)
    ops = (("a", A, bm), ("b", B, bn))
    pending, committed, retired, deferred = [], [], set(), []
    group = 0

    def land(writes):
        for op, (off, vals) in writes:
            smem[op][off] = vals

    def read(stage, kb):
        for op, X, _ in ops:
            if X.s2r_calls is not None and log is not None:
                fv, per_kb = X.s2r_calls
                calls, idx3 = per_kb[kb]
                o3 = X.smem_off[np.clip(idx3, 0, X.tile - 1) + X.tile * stage]
                for t, c in _misaligned(o3, fv):
                    log.misaligned("s" + X.op.upper(), "read", cta, None, int(t), int(calls[c]), o3[t, :, c].tolist(),
                                   fv)
            t, r, idx = X.reads[kb]
            soff = np.full(idx.shape, -1, dtype=np.int64)
            in_tile = (idx >= 0) & (idx < X.tile)
            soff[in_tile] = X.smem_off[idx[in_tile] + X.tile * stage]
            ok = (soff >= 0) & (soff < X.smem_size)
            if not ok.all() and log is not None:
                i = np.flatnonzero(~ok)
                log.add("s" + X.op.upper(), "read", cta, None, t[i], r[i], idx[i] % X.shape[0], idx[i] // X.shape[0],
                        soff[i])
            v = np.full(soff.shape, POISON, dtype=np.int64)
            v[ok] = smem[op][soff[ok]]
            regs[op][t, r] = v

    first_bad = []

    def gemm(it, kb):
        mma.accumulate(regs["a"], regs["b"], acc, kb)
        if kb == A.k_blocks - 1 and not first_bad and partial is not None:
            # after k-tile it: every accumulator holds numpy's partial sum over k < (it + 1) * BLK_K
            want = partial(it)
            got = acc[mma.acc_thread, mma.acc_reg]
            m, n = mma.acc_tile % BMc, mma.acc_tile // BMc
            inside = (m < want.shape[0]) & (n < want.shape[1])
            if (got[inside] != want[m[inside], n[inside]]).any():
                first_bad.append(it)

    for ev in (pl.events(P, A.k_blocks, n_tiles) if sched != "in-order" else _in_order(A.k_blocks, n_tiles)):
        kind = ev[0]
        if kind == "issue":
            writes = [(op, _load(X, g[op], blk, ev[1], ev[2], cta, log)) for op, X, blk in ops]
            if sched == "copies-late":
                pending.append((group, writes))
            else:
                land(writes)
        elif kind == "fence":
            committed.append(group)
            group += 1
        elif kind == "wait":
            retired.update(committed[:len(committed) - W] if W else committed)
        elif kind == "sync":
            if sched == "copies-late":
                land([w for grp, ws in pending if grp in retired for w in ws])
                pending = [(grp, ws) for grp, ws in pending if grp not in retired]
            for f, args in deferred:
                f(*args)
            deferred = []
        elif kind == "read":
            if sched == "reads-late":
                deferred.append((read, (ev[1], ev[2])))
            else:
                read(ev[1], ev[2])
        elif kind == "gemm":
            if sched == "reads-late":
                deferred.append((gemm, (ev[1], ev[2])))
            else:
                gemm(ev[1], ev[2])
    for f, args in deferred:
        f(*args)
    _store(kernel, epi, acc, c, cta, log)
    return first_bad[0] if first_bad else None


def _in_order(KB: int, n: int):
    """A schedule without a pipeline model: each k-tile copied (complete at issue), then its k-blocks."""
    for it in range(n):
        yield ("issue", it, 0)
        yield ("sync",)
        for kb in range(KB):
            yield ("read", 0, kb)
            yield ("gemm", it, kb)
        yield ("sync",)


def _store(kernel, epi, acc, c: _Gmem, cta, log) -> None:
    """The epilogue: each (thread, value) writes its accumulator register to C (alpha 1, beta 0)."""
    np = _np()
    BM, BN = kernel.tile_shape("c")
    bm, bn = cta
    dst = epi.dst.ravel(order="F")
    t = epi.thread.ravel(order="F")
    reg = epi.reg.ravel(order="F")
    T = epi.dst.shape[0]
    r = bm * BM + dst % BM
    col = bn * BN + dst // BM
    inside = (r < c.extent[0]) & (col < c.extent[1])
    off = c.offsets(r, col)
    ok = np.ones(dst.shape, dtype=bool)
    if not inside.all():
        if kernel.c.predicate:
            ok &= inside
        elif log is not None:
            i = np.flatnonzero(~inside)
            log.add("C", "write", cta, None, i % T, i // T, r[i], col[i], off[i])
    ok &= (off >= 0) & (off < c.mem.size)      # a write past the buffer lands in no element of C
    c.mem[off[ok]] = acc[t[ok], reg[ok]]
