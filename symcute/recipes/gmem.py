"""The global-memory derivation: a parametric (M, K) tensor through ``local_tile`` and ``partition_A``.

``derive_gmem`` follows CuTe's kernel prologue for operand A of a TiledMMA::

    Tensor mA = make_tensor(ptr, make_shape(M, K), make_stride(K, Int<1>{}));   // run-time M, K
    Tensor gA = local_tile(mA, make_tile(Int<BM>{}, Int<BK>{}), make_coord(bm, bk));
    Tensor tA = thr_mma.partition_A(gA);                                         // thread t

with M and K parameters (symcute.symbolic.parametric), and records, as tables
for the report: the tile count in closed form, the CTA tile's offset, the
(thread, value) -> address formula over named sub-axes with coefficients in K,
and claims decided for *every* admissible (M, K): the closed form
``(BM*bm + m(t,v))*K + BK*bk + k(t,v)``, that ``(m, k)`` is CuTe's static TV
layout of the BMxBK tile, injectivity inside a tile, vector alignment, and
whether every tile is full.  A cross-check instantiates random admissible
(M, K) and compares every (thread, value) with core's ``partition_A``.
"""

from __future__ import annotations

import random

import sympy

from ..core import Layout, Tensor, _, composition, slice_, zipped_divide
from ..core.int_tuple import flatten_to_tuple
from ..errors import LimitError
from ..symbolic.vocabulary import Verdict
from ..trace.derivation import Derivation
from .records_gmem import (
    AddressAxis, Agreement, CopyAxis, GmemCheck, GmemChecks, GmemConfiguration, GmemCopy, GmemFormula, GmemMethod,
    GmemPartition, GmemTiles, ThreadPartition,
)
from .steps import _atom_layout, add_table, cute

CROSS_CHECKS = 6


MAX_TILE = 1024   # CTA tile extents (CUTLASS's largest are 256)
# (thread, value) points the static TV check evaluates one by one (a few us each): 2^18 is a 512x256 tile (2 per element);
# a 64x64x1 atom layout asked for 2 million and ran 86 s of CPU before the work budget stopped it (issue 31)
MAX_STATIC_POINTS = 1 << 18


def derive_gmem(mma="SM80_16x8x16_F16F16F16F16_TN", atom_layout=(2, 2, 1), tile=(128, 32),
                multiple_of=None) -> Derivation:
    """The global-memory address of every (thread, value) of every CTA tile of a row-major (M, K) A."""
    from ..atoms import make_tiled_mma
    from ..symbolic import parametric as P
    from ..symbolic.parametric import prover as R
    from ..symbolic.parametric import tensor as T
    shape_layout = _atom_layout(atom_layout)
    BM, BK = (int(x) for x in tile)
    if not (0 < BM <= MAX_TILE and 0 < BK <= MAX_TILE):   # 1048576,1048576 ran past 60 s (issue 31)
        from ..errors import LimitError
        raise LimitError(f"derive_gmem: the tile {BM},{BK} needs extents in 1..{MAX_TILE} "
                         f"(symcute.recipes.gmem.MAX_TILE)")
    multiple_of = dict(multiple_of or {"M": BM, "K": BK})
    d = Derivation(f"Global-memory addresses of A through local_tile and partition_A of {mma} tiled "
                   f"{cute(shape_layout)}", recipe="gmem", mma=str(mma), atom_layout=list(shape_layout),
                   tile=[BM, BK], multiple_of=dict(sorted(multiple_of.items())))
    tiled = make_tiled_mma(mma, shape_layout)
    atom = tiled.atom
    ps = P.params("M K", multiple_of=multiple_of)
    M, K = ps["M"], ps["K"]
    loose = P.params("M K")
    add_table(d, "gmem_configuration", **GmemConfiguration(
        mma=atom.name, ptx=atom.ptx, header=atom.header, arch=atom.arch, atom_layout=str(tiled.atom_layout_mnk),
        tile=(BM, BK), threads=tiled.size(), mma_tile=tuple(tiled.tile_size(k) for k in range(3)),
        conditions=tuple(ps.describe())).to_details())

    # the global tensor and its CTA tiles
    mA = P.layout((M, K), (K, 1), ps)
    tiles = P.zipped_divide(mA, (BM, BK))
    tiles_loose = P.zipped_divide(P.layout((loose["M"], loose["K"]), (loose["K"], 1), loose), (BM, BK))
    bm, bk = sympy.symbols("bm bk", integer=True, nonnegative=True)
    gA = T.local_tile(mA, (BM, BK), (bm, bk))
    full = loose.decide(sympy.And(sympy.Eq(sympy.Mod(loose.inner(loose["M"]), BM), 0),
                                  sympy.Eq(sympy.Mod(loose.inner(loose["K"]), BK), 0)))
    add_table(d, "gmem_tiles", **GmemTiles(
        global_layout=str(mA), global_cute=mA.cute_str(), tiles=str(tiles), tiles_loose=str(tiles_loose),
        tile_counts=(_show(ps, tiles.shape[1][0]), _show(ps, tiles.shape[1][1])),
        tile_counts_loose=(_show(loose, tiles_loose.shape[1][0]), _show(loose, tiles_loose.shape[1][1])),
        offset=_expr_text(gA.offset_expr()), tile_layout=str(gA.layout),
        all_full_loose=full.verdict, all_full_witness=full.witness or {}).to_details())

    # thread partitioning: thrfrg_A, one thread's partition_A, and the (thread, value) layout
    thr = T.thrfrg(tiled, "A", gA)
    tv = T.layout_tv(tiled, "A", gA)
    threads = []
    for t in _sample_threads(tiled.size()):
        part = T.partition(tiled, "A", gA, t)
        threads.append(ThreadPartition(t, _expr_text(part.offset_expr()), str(part.layout)))
    add_table(d, "gmem_partition", **GmemPartition(str(thr.layout), str(tv.layout), tuple(threads)).to_details())

    # the address formula over named sub-axes
    names = _names(tiled, tv.layout)
    f = R.formula(tv.layout, names)
    rows = []
    m_expr, k_expr = sympy.Integer(0), sympy.Integer(0)
    for a, s in zip(f.axes, f.symbols()):
        coef = sympy.expand(ps.user(_e(a.coefficient)))
        m_part, k_part = coef.coeff(K, 1), coef.coeff(K, 0)
        rows.append(AddressAxis(a.name, _show(ps, a.extent), _expr_text(coef), _expr_text(m_part),
                                _expr_text(k_part)))
        m_expr += m_part * s
        k_expr += k_part * s
    closed = (BM * bm + m_expr) * K + BK * bk + k_expr
    address_text = f"{_expr_text(gA.offset_expr())} + {f}"   # in sub-axis order, as the seed writes formulas
    add_table(d, "gmem_formula", **GmemFormula(
        formula=str(f), domain=f.domain(), axes=tuple(rows), address=address_text,
        closed=f"({BM}*bm + m)*K + {BK}*bk + k", m=_expr_text(m_expr), k=_expr_text(k_expr)).to_details())

    # claims for every admissible (M, K)
    checks = []
    p_closed = R.prove_formula(f, sympy.expand(closed - gA.offset_expr()), claim="address == closed form")
    checks.append(_check("closed_form", p_closed))
    checks.append(_static_tv_check(tiled, f, m_expr, k_expr, BM, BK))
    # A is broadcast over the wn threads (stride 0); the rest must read distinct addresses
    checks.append(_check("injective", R.prove_injective(P.filter(tv.layout))))
    checks.append(_alignment_check(ps, f))
    checks.append(_cross_check(tiled, ps, gA, bm, bk, BM, BK))
    add_table(d, "gmem_checks", **GmemChecks(tuple(checks)).to_details())
    _copy_section(d, ps, loose, gA, bm, bk, BM, BK)
    return d


COPY_ATOM = ("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "half_t")


def _copy_section(d, ps, loose, gA, bm, bk, BM, BK) -> None:
    """The same CTA tile through a TiledCopy's partition_S: 128-bit cp.async, 8 half_t per thread and copy."""
    from ..atoms import make_tiled_copy
    from ..atoms.copy_catalog import copy_atom
    from ..symbolic import parametric as P
    from ..symbolic.parametric import prover as R
    from ..symbolic.parametric import tensor as T
    vec = 8
    threads_k = BK // vec
    if threads_k < 1 or BK % vec or 128 % threads_k:
        return
    thr_layout = Layout((128 // threads_k, threads_k), (threads_k, 1))
    val_layout = Layout((1, vec))
    atom = copy_atom(*COPY_ATOM)
    tc = make_tiled_copy(atom, thr_layout, val_layout)
    frag = T.tidfrg(tc, "S", gA)
    part = T.partition_copy(tc, "S", gA, 0)
    f = R.formula(frag.layout, ["t0", "t1", "v0", "v1", "c0", "c1"][:len(_leaves_of(frag.layout))])
    rows = tuple(CopyAxis(a.name, _show(ps, a.extent), _expr_text(ps.user(_e(a.coefficient)))) for a in f.axes)
    # contiguity: the 8 values of one copy are the axis of extent 8 with coefficient 1
    vec_axes = [a for a in f.axes if a.extent == vec and _e(a.coefficient) == 1]
    others = [a for a in f.axes if a not in vec_axes]

    # the tile's own offset (coefficients of bm and bk) must keep the alignment too
    off = sympy.expand(gA.offset_expr())
    tile_coefs = [ps.inner(off.coeff(bm, 1)), ps.inner(off.coeff(bk, 1))]
    bad = None
    for c in [_e(a.coefficient) for a in others] + tile_coefs:
        v = ps.decide(sympy.Eq(sympy.Mod(c, vec), 0))
        if v.verdict is not Verdict.PROVED:
            bad = v
            break
    # the same claim without divisibility: K only a positive integer
    loose_layout = P.layout((loose["M"], loose["K"]), (loose["K"], 1), loose)
    lbm, lbk = sympy.symbols("bm bk", integer=True, nonnegative=True)
    lf = R.formula(T.tidfrg(tc, "S", T.local_tile(loose_layout, (BM, BK), (lbm, lbk))).layout)
    lbad = None
    for a in lf.axes:
        if a.extent == vec and _e(a.coefficient) == 1:
            continue
        v = loose.decide(sympy.Eq(sympy.Mod(_e(a.coefficient), vec), 0))
        if v.verdict is not Verdict.PROVED:
            lbad = v
            break
    k8 = P.params("K", multiple_of={"K": vec})
    k8_layout = P.layout((BM, k8["K"]), (k8["K"], 1), k8)
    kf = R.formula(T.tidfrg(tc, "S", k8_layout).layout)
    kbad = any(not k8.decide(sympy.Eq(sympy.Mod(_e(a.coefficient), vec), 0)).proved
               for a in kf.axes if not (a.extent == vec and _e(a.coefficient) == 1))
    add_table(d, "gmem_copy", **GmemCopy(
        atom=f"Copy_Atom<{COPY_ATOM[0]}, {COPY_ATOM[1]}>", thr_layout=str(thr_layout), val_layout=str(val_layout),
        tidfrg=str(frag.layout), partition0=str(part.layout), offset0=_expr_text(part.offset_expr()),
        formula=str(f), axes=rows, vector=vec, contiguous=bool(vec_axes),
        aligned=Verdict.PROVED if bad is None and vec_axes else Verdict.UNKNOWN,
        aligned_loose=Verdict.PROVED if lbad is None else lbad.verdict,
        aligned_loose_witness=lbad.witness if lbad is not None and lbad.witness else {},
        aligned_k8=Verdict.UNKNOWN if kbad else Verdict.PROVED).to_details())


def _leaves_of(L):
    return flatten_to_tuple(L.shape)


def _e(x):
    """An int as a SymPy Integer (values built here, never user text)."""
    return sympy.Integer(x) if type(x) is int else x


def _show(ps, x) -> str:
    from ..symbolic.parametric.printing import show_expr
    return show_expr(ps.user(x) if not isinstance(x, int) else x)


def _expr_text(e) -> str:
    from ..symbolic.parametric.printing import show_expr
    return show_expr(e)


def _sample_threads(n: int) -> list:
    return sorted({0, 1, 4, 32, 64, n - 1} & set(range(n)))


def _names(tiled, tv_layout):
    """The TV layout's sub-axes: the TiledMMA's own names for (thread, value), rm/rk for the atom tiles."""
    (thr_names, val_names) = tiled.layoutA_TV_names()
    flat = lambda t: [x for y in t for x in flat(y)] if isinstance(t, tuple) else [t]
    names = [n for n in flat(thr_names) + flat(val_names) if not n.startswith("_")]
    rest = len(flatten_to_tuple(tv_layout.shape)) - len(names)
    return names + (["rm", "rk"][:rest] if rest <= 2 else [f"r{i}" for i in range(rest)])


def _check(claim: str, proof) -> GmemCheck:
    if proof.refuted:
        return GmemCheck(claim, proof.verdict, proof.method, proof.witness, str(proof.coordinate), tuple(proof.values))
    return GmemCheck(claim, proof.verdict, proof.method)


def _static_tv_check(tiled, f, m_expr, k_expr, BM, BK) -> GmemCheck:
    """m + BM*k at every (thread, value) equals CuTe's static layout of the BMxBK column-major tile.

    Both sides are static integers over a finite domain, so evaluating every
    point is a complete proof; the static side is computed by core alone.
    """
    import itertools
    ref = tiled.thrfrg_A(Layout((BM, BK)))
    vmnk = tiled.thr_layout_vmnk
    ref = composition(ref, ((_, (Layout((vmnk[1].size(), vmnk[2].size()), (1, 0)), _)), _))
    ref = composition(ref, (tiled.thridx_2_thrid, _))
    syms = f.symbols()
    extents = [int(a.extent) for a in f.axes]
    points = 1
    for e in extents:
        points *= e
    if points > MAX_STATIC_POINTS:
        raise LimitError(f"derive_gmem: the static check of the {BM}x{BK} tile over {tiled.size()} threads evaluates "
                         f"{points} (thread, value) points, more than the limit of {MAX_STATIC_POINTS} "
                         f"(symcute.recipes.gmem.MAX_STATIC_POINTS); a CTA runs at most 1024 threads")
    target = sympy.expand(m_expr + BM * k_expr)
    weights = [int(target.coeff(s, 1)) for s in syms]
    lin = lambda *digits: sum(d * w for d, w in zip(digits, weights))  # noqa: E731
    # the static reference is indexed colexicographically over the same flat modes as f's layout
    leaves = flatten_to_tuple(f.layout.shape)
    keep = [not (type(s) is int and s == 1) for s in leaves]
    bad = None
    count = 0
    for digits in itertools.product(*[range(e) for e in extents]):
        it = iter(digits)
        full = [next(it) if k else 0 for k in keep]
        idx, run = 0, 1
        for x, s in zip(full, leaves):
            idx += x * run
            run *= int(s)
        count += 1
        if lin(*digits) != ref(idx):
            bad = (idx, lin(*digits), ref(idx))
            break
    if bad is None:
        return GmemCheck("static_tv", Verdict.PROVED, GmemMethod.EXHAUSTIVE, reference=str(ref), points=count)
    return GmemCheck("static_tv", Verdict.REFUTED, GmemMethod.EXHAUSTIVE_STOPPED, {}, str(bad[0]), (bad[1], bad[2]),
                     str(ref))


def _alignment_check(ps, f) -> GmemCheck:
    """v0's two values are adjacent (coefficient 1) and every other coefficient is even: 4-byte aligned pairs."""
    v0 = [a for a in f.axes if a.name == "v0"]
    ok = bool(v0) and _e(v0[0].coefficient) == 1
    witness = None
    if ok:
        for a in f.axes:
            if a.name == "v0":
                continue
            v = ps.decide(sympy.Eq(sympy.Mod(_e(a.coefficient), 2), 0))
            if v.verdict is not Verdict.PROVED:
                ok = False
                witness = v.witness
                break
    return GmemCheck("aligned_pairs", Verdict.PROVED if ok else (Verdict.REFUTED if witness else Verdict.UNKNOWN),
                     GmemMethod.EVEN_COEFFICIENTS if ok else GmemMethod.A_COEFFICIENT,
                     witness or None)


def _cross_check(tiled, ps, gA, bm, bk, BM, BK) -> GmemCheck:
    """Random admissible (M, K), a random tile, every thread: core's partition_A and offset vs the formula."""
    from ..symbolic.parametric import tensor as T
    rng = random.Random(2026)
    points = 0
    parts = {t: T.partition(tiled, "A", gA, t) for t in range(tiled.size())}
    for _trial in range(CROSS_CHECKS):
        vals = ps.random_values(rng, span=3)
        Mv, Kv = vals["M"], vals["K"]
        tiles = zipped_divide(Layout((Mv, Kv), (Kv, 1)), (BM, BK))
        cb, ck = rng.randrange(-(-Mv // BM)), rng.randrange(-(-Kv // BK))
        tile = slice_(((_, _), (cb, ck)), tiles)
        base = tiles(((0, 0), (cb, ck)))
        for t, part in parts.items():
            # one partition_A of the tile as a tensor at offset 0 gives both the slice's layout and its offset
            core = tiled.get_slice(t).partition_A(Tensor(tile, 0))
            core_layout, core_off = core.layout(), base + core.data()
            off = int(part.offset_expr().subs({bm: cb, bk: ck, ps["K"]: Kv, ps["M"]: Mv}))
            mine = part.layout.subs(vals)
            # the same shape and strides are the same function: only layouts spelled differently are compared
            # point by point (every point is still counted as checked)
            if off != core_off or (mine != core_layout and any(
                    mine(i) != core_layout(i) for i in range(core_layout.size()))):
                return GmemCheck("cross_check", Agreement.DIFFERS, GmemMethod.CORE_DIFFERS, vals, f"thread {t}",
                                 (off, core_off))
            points += core_layout.size()
    return GmemCheck("cross_check", Agreement.AGREES, GmemMethod.CORE_AGREES, instances=CROSS_CHECKS, points=points)
