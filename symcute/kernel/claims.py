"""The claims about a kernel's data path, decided over the static CTA tile (docs/kernel.md, "The claims").

:func:`check` decides ``a.load``, ``b.load``, ``a.fragment``, ``b.fragment``, ``c.store`` and
``residue``.  The first five are equalities and bijections of layouts (:mod:`.datapath`) that the prover
(:mod:`symcute.symbolic`) decides with its three verdicts; the tile is static and the problem's
parameters enter only the gmem layouts, so a proof holds for every problem size.  ``residue`` is exact
arithmetic over the residues of the parameters modulo the tile (one period), from the tile coordinates
the loads and stores touch.

Every refutation is re-evaluated with core (layouts called on ints) before it is reported: the
counterexample names the thread, the value or register, the k-block, the stage, the element expected
and the one found, and the first link of the data path where they part.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..core import right_inverse, size
from ..errors import SymcuteError
from ..symbolic import is_bijective, is_injective, prove
from ..symbolic.linear import Compose
from ..symbolic import exhaustive
from . import datapath as dp
from .description import Kernel, OPERAND_DIMS

DIM_NAMES = ("M", "N", "K")
_VERDICTS = ("proved", "refuted", "unknown")


@dataclass
class ClaimResult:
    """One claim's answer: ``verdict`` (proved, refuted, unknown), the side ``conditions`` it needs (found
    by the checker), a ``counterexample`` (a refutation only), the ``link`` where a refutation parts, a
    ``fix`` where one is known, and the prover's ``proofs`` of its parts (statement, verdict, method)."""
    id: str
    statement: str
    verdict: str
    method: str = ""
    conditions: list = field(default_factory=list)
    counterexample: dict | None = None
    link: str = ""
    fix: str = ""
    why: str = ""
    proofs: list = field(default_factory=list)
    figures: dict | None = None     # a memory claim's counts (wavefronts, ideal, ways, ncu metrics)

    def to_dict(self) -> dict:
        d = {"verdict": self.verdict, "statement": self.statement, "method": self.method,
             "conditions": list(self.conditions), "counterexample": self.counterexample}
        if self.link:
            d["link"] = self.link
        if self.fix:
            d["fix"] = self.fix
        if self.why:
            d["why"] = self.why
        if self.figures is not None:
            d["figures"] = self.figures
        d["proofs"] = [{"statement": str(p.statement), "verdict": str(p.verdict.value), "method": str(p.method.value
                        if hasattr(p.method, "value") else p.method)} for p in self.proofs]
        return d


@dataclass
class KernelCheck:
    """The answers of :func:`check`, by claim id, in the order they were decided."""
    kernel: Kernel
    claims: dict

    @property
    def exit_status(self) -> int:
        """0 every claim proved, 1 one refuted, 3 one unknown (``symcute prove``'s statuses)."""
        vs = [c.verdict for c in self.claims.values()]
        return 1 if "refuted" in vs else 3 if "unknown" in vs else 0

    def to_dict(self) -> dict:
        return {"kernel": self.kernel.source, "claims": {k: c.to_dict() for k, c in self.claims.items()}}


def check(kernel, claims=None) -> KernelCheck:
    """Decide the claims (``claims``: ids to decide, default every claim but the G2S bank claims) of
    ``kernel``: a :class:`Kernel`, a path to a TOML description, or a dict of its tables."""
    if isinstance(kernel, dict):
        from .description import from_dict
        kernel = from_dict(kernel)
    elif not isinstance(kernel, Kernel):
        from .description import load
        kernel = load(kernel)
    deciders = {
        "a.load": lambda: decide_load(kernel, "a"),
        "b.load": lambda: decide_load(kernel, "b"),
        "a.fragment": lambda: decide_fragment(kernel, "a"),
        "b.fragment": lambda: decide_fragment(kernel, "b"),
        "c.store": lambda: decide_store(kernel),
        "residue": lambda: decide_residue(kernel),
        "pipeline": lambda: decide_pipeline(kernel),
    }
    correctness = list(deciders)
    memory = {f"{op}.{which}.banks": (lambda op=op, which=which: decide_banks(kernel, op, which))
              for op in ("a", "b") for which in ("s2r", "g2s")}
    memory.update({f"{op}.{which}.vector": (lambda op=op, which=which: decide_vector(kernel, op, which))
                   for op in ("a", "b") for which in ("g2s", "s2r")})
    ids = correctness + ["gemm"] + list(memory)
    # the G2S (cp.async) bank claims only on request: their wavefront rule is fitted (docs/memory.md)
    default = correctness + ["gemm", "a.g2s.vector", "b.g2s.vector", "a.s2r.vector", "b.s2r.vector",
                             "a.s2r.banks", "b.s2r.banks"]
    wanted = default if claims is None else list(claims)
    for c in wanted:
        if c not in ids:
            raise SymcuteError(f"kernel check: unknown claim {c!r}; the claims are {', '.join(ids)}")
    deciders.update(memory)
    need = list(dict.fromkeys((correctness if "gemm" in wanted else []) + [c for c in wanted if c != "gemm"]))
    done = {c: _decided(c, deciders[c], kernel.source) for c in need}
    if "gemm" in wanted:
        done["gemm"] = _conjunction({c: done[c] for c in correctness})
    return KernelCheck(kernel, {c: done[c] for c in wanted})


def _conjunction(parts: dict) -> ClaimResult:
    """``gemm``: the kernel computes C = A·B for every admissible size, the conjunction of the data path's
    claims (under the model's assumptions: the MMA atom's arithmetic, the copy atoms' contracts)."""
    statement = "the kernel computes C = A*B for every admissible size (every claim above)"
    conds = [c for r in parts.values() for c in r.conditions]
    conds = list(dict.fromkeys(conds))
    for verdict in ("refuted", "unknown"):
        bad = [c for c, r in parts.items() if r.verdict == verdict]
        if bad:
            return ClaimResult("gemm", statement, verdict, "conjunction", conditions=conds,
                               why=f"{', '.join(bad)} {'is' if len(bad) == 1 else 'are'} {verdict}",
                               counterexample={"claim": bad[0]} if verdict == "refuted" else None)
    return ClaimResult("gemm", statement, "proved", "conjunction", conditions=conds)


def _decided(cid: str, decide, source: str = "kernel") -> ClaimResult:
    """The claim's answer; a refutation whose witness does not re-evaluate as claimed (an assertion of the
    counterexample's construction) is reported unknown, never as a refutation."""
    try:
        return decide()
    except SymcuteError as e:   # a limit or a refusal inside a layer: one line naming the claim
        msg = str(e)
        if msg.startswith(source):
            raise
        try:
            again = type(e)(f"{source}: {cid}: {msg}")
        except TypeError:   # a subclass with its own constructor
            again = SymcuteError(f"{source}: {cid}: {msg}")
        raise again from None
    except AssertionError:
        return ClaimResult(cid, "", "unknown", why="the prover refuted a part, but the witness did not "
                                                    "re-evaluate with core as the refutation states")


# --- helpers -------------------------------------------------------------------------------------------
def _join(proofs) -> tuple[str, str]:
    """The conjunction's verdict and method: refuted if one part is, else unknown if one is, else proved."""
    verdicts = [p.verdict.value for p in proofs]
    verdict = "refuted" if "refuted" in verdicts else "unknown" if "unknown" in verdicts else "proved"
    methods = []
    for p in proofs:
        m = p.method.value if hasattr(p.method, "value") else str(p.method)
        if m not in methods:
            methods.append(m)
    return verdict, "+".join(methods)


def _elem(op: str, coord: tuple) -> str:
    names = {"a": ("m", "k"), "b": ("n", "k"), "c": ("m", "n")}[op]
    return f"{op.upper()}({names[0]}={coord[0]},{names[1]}={coord[1]})"


def _selem(op: str, coord: tuple, stage: int) -> str:
    names = {"a": ("m", "k"), "b": ("n", "k")}[op]
    return f"s{op.upper()}({names[0]}={coord[0]},{names[1]}={coord[1]},stage={stage})"


def _first_collision(term, n: int):
    """Two indices where ``term`` takes one value, or None (core's values over ``[0, n)``)."""
    v = exhaustive.values(term, n)
    order = v.argsort(kind="stable")
    sv = v[order]
    for i in range(1, len(sv)):
        if sv[i] == sv[i - 1]:
            return int(order[i - 1]), int(order[i])
    return None


def _first_missing(term, n: int, onto: int):
    """The least value of ``[0, onto)`` ``term`` never takes on ``[0, n)``, or None."""
    import numpy as np
    v = exhaustive.values(term, n)
    seen = np.zeros(onto, dtype=bool)
    inside = v[(v >= 0) & (v < onto)]
    seen[inside] = True
    miss = np.flatnonzero(~seen)
    return int(miss[0]) if len(miss) else None


def _first_outside(term, n: int, onto: int):
    v = exhaustive.values(term, n)
    import numpy as np
    bad = np.flatnonzero((v < 0) | (v >= onto))
    return int(bad[0]) if len(bad) else None


def _unknown(cid: str, statement: str, proofs, why: str) -> ClaimResult:
    verdict, method = _join(proofs)
    return ClaimResult(cid, statement, "unknown", method, proofs=list(proofs), why=why)


# --- a.load, b.load --------------------------------------------------------------------------------------
def decide_load(kernel: Kernel, op: str) -> ClaimResult:
    """Each k-tile's G2S copy writes every element of its smem stage exactly once, with the gmem element
    the smem layout assigns it.

    The copy atom moves the element at each tile coordinate from the source to the destination (a
    collective atom such as ldmatrix or TMA between threads: CuTe's ValLayoutSrc/Dst are both given over
    the atom's reference layout), so ``sX(c)`` receives ``gX(c)``.  Checked: the destination map
    ``tidfrg_D`` is a bijection onto the tile (every tile coordinate written by exactly one (thread,
    value)); the source map ``tidfrg_S`` stays inside the tile; the smem layout is injective over all of
    its (coordinate, stage) and never below offset 0 (distinct elements and stages never share an address,
    and every address is inside ``smemA[cosize]``)."""
    x = kernel.operand(op)
    shape = kernel.tile_shape(op)
    n = shape[0] * shape[1]
    T = x.g2s.size()
    cid = f"{op}.load"
    statement = (f"each k-tile's G2S copy writes every element of s{op.upper()}'s stage exactly once, with the "
                 f"g{op.upper()} element of the same tile coordinate")
    D = dp.copy_tv(x.g2s, "D", shape)
    src = dp.copy_tv(x.g2s, "S", shape)
    link = f"the G2S copy [{op}] g2s = {x.g2s_text}"
    proofs = []
    if size(D) != T * (size(D) // T):
        raise SymcuteError(f"{kernel.source}: [{op}] g2s: its partition of the {shape[0]}x{shape[1]} tile does "
                           f"not split over {T} threads")
    p_cover = is_bijective(D, n)
    proofs.append(p_cover)
    if p_cover.refuted:
        return _load_cover_refuted(kernel, op, D, T, n, shape, statement, link, proofs)
    out = _first_outside(src, size(src), n)
    if out is not None:   # the source side reads outside the tile: that element is no element of the k-tile
        t, j = out % T, out // T
        assert not 0 <= src(out) < n
        ce = {"thread": t, "value": j, "k_tile": 0, "stage": 0, "expected": f"a g{op.upper()} element of the "
              f"{shape[0]}x{shape[1]} k-tile", "found": f"tile index {src(out)}"}
        return ClaimResult(cid, statement, "refuted", _join(proofs)[1] + "+exhaustive", counterexample=ce,
                           proofs=proofs, link=link, why=f"thread {t} value {j} reads outside the k-tile")
    smem = x.smem
    p_inj = is_injective(smem)
    proofs.append(p_inj)
    if p_inj.refuted:
        pair = _first_collision(smem, size(smem))
        if pair is None:
            return _unknown(cid, statement, proofs, "the prover refuted injectivity; no collision re-evaluated")
        (i0, i1) = pair
        c0, c1 = (_smem_coord(smem, i, shape) for i in (i0, i1))
        addr = smem(i0)
        assert addr == smem(i1)
        ce = {"thread": None, "stage": c0[2], "expected": f"{_selem(op, c0[:2], c0[2])} and "
              f"{_selem(op, c1[:2], c1[2])} at distinct addresses", "found": f"both at smem offset {addr}"}
        return ClaimResult(cid, statement, "refuted", _join(proofs)[1], counterexample=ce, proofs=proofs,
                           link=f"the smem layout [{op}] smem = {x.smem_text}",
                           why=f"two elements of s{op.upper()} share offset {addr}: a later copy overwrites "
                               f"an earlier one")
    low = int(exhaustive.values(smem, size(smem)).min())
    if low < 0:   # __shared__ TA smemA[cosize_v<ASmemLayout>]: an offset below 0 is outside the buffer
        i = int(exhaustive.values(smem, size(smem)).argmin())
        c = _smem_coord(smem, i, shape)
        assert smem(i) == low
        ce = {"thread": None, "stage": c[2], "expected": f"{_selem(op, c[:2], c[2])} inside smem{op.upper()}"
              f"[cosize]", "found": f"smem offset {low}"}
        return ClaimResult(cid, statement, "refuted", _join(proofs)[1] + "+exhaustive", counterexample=ce,
                           proofs=proofs, link=f"the smem layout [{op}] smem = {x.smem_text}",
                           why=f"{_selem(op, c[:2], c[2])} is at offset {low}, before the smem buffer")
    verdict, method = _join(proofs)
    if verdict == "unknown":
        return _unknown(cid, statement, proofs, "a part of the claim is unknown to the prover")
    return ClaimResult(cid, statement, "proved", method + "+exhaustive", proofs=proofs)


def _smem_coord(smem, i: int, shape: tuple) -> tuple:
    stage_size = shape[0] * shape[1]
    m, k = dp.tile_coord(i % stage_size, shape)
    return m, k, i // stage_size


def _first_differ(lhs, rhs, n: int) -> int:
    import numpy as np
    a, b = exhaustive.values(lhs, n), exhaustive.values(rhs, n)
    return int(np.flatnonzero(a != b)[0])


def _load_cover_refuted(kernel, op, D, T, n, shape, statement, link, proofs) -> ClaimResult:
    cid = f"{op}.load"
    N = size(D)
    pair = _first_collision(D, N)
    if pair is not None:
        i0, i1 = pair
        c = dp.tile_coord(D(i0), shape)
        assert D(i0) == D(i1)
        ce = {"thread": i0 % T, "value": i0 // T, "other_thread": i1 % T, "other_value": i1 // T, "k_tile": 0,
              "stage": 0, "expected": f"{_selem(op, c, 0)} written once", "found": "written twice"}
        miss = _first_missing(D, N, n)
        if miss is not None:
            ce["never_written"] = _selem(op, dp.tile_coord(miss, shape), 0)
        return ClaimResult(cid, statement, "refuted", _join(proofs)[1], counterexample=ce, proofs=proofs, link=link,
                           why=f"threads {i0 % T} and {i1 % T} both write {_selem(op, c, 0)}",
                           fix="a thread layout and a value layout whose raked product covers the tile once "
                               "(make_tiled_copy's thr_layout and val_layout)")
    out = _first_outside(D, N, n)
    if out is not None:
        ce = {"thread": out % T, "value": out // T, "k_tile": 0, "stage": 0,
              "expected": f"a tile index in [0, {n})", "found": f"tile index {D(out)}"}
        return ClaimResult(cid, statement, "refuted", _join(proofs)[1], counterexample=ce, proofs=proofs, link=link,
                           why="a value lands outside the CTA tile")
    miss = _first_missing(D, N, n)
    if miss is not None:
        ce = {"thread": None, "k_tile": 0, "stage": 0, "expected": f"{_selem(op, dp.tile_coord(miss, shape), 0)} "
              f"written", "found": "no (thread, value) writes it"}
        return ClaimResult(cid, statement, "refuted", _join(proofs)[1], counterexample=ce, proofs=proofs, link=link,
                           why="the copy does not cover the tile")
    return _unknown(cid, statement, proofs, "the prover refuted the cover; no witness re-evaluated")


# --- a.fragment, b.fragment ------------------------------------------------------------------------------------
def decide_fragment(kernel: Kernel, op: str) -> ClaimResult:
    """At every k-block, each register the MMA atom reads holds exactly the element it needs.

    The MMA reads register ``F(r)`` of thread ``t`` (``F``: the fragment layout, ``r`` its natural index
    ``(v, m, k_block)``) and needs tile coordinate ``mma_tv(t, r)``.  Without an S2R copy the register
    was filled by ``copy(tCsA(_,_,k), tCrA(_,_,k))`` from ``partition_A(sA)`` (``[a] partition``); with
    one, ``copy(s2r, tXsA(_,_,k), tXrA(_,_,k))`` with ``tXrA = retile_D(tCrA)`` put the element
    ``tidfrg_D(t, j)`` (the copy's destination map of the tile) in register ``retile_D(F)(j)``.  Either
    way it is one equality of layouts over (thread, index), and (S2R) ``retile_D(F)`` must write every
    register once."""
    x = kernel.operand(op)
    mma = kernel.mma
    shape = kernel.tile_shape(op)
    T = mma.size()
    cid = f"{op}.fragment"
    O = op.upper()
    statement = (f"at every k-block, each register of tC r{O} the MMA atom reads holds the {O} element its "
                 f"Layout{O}_TV through the TiledMMA needs")
    need = dp.mma_tv(mma, O, shape)
    F = dp.fragment(mma, O, x.smem)
    R = size(F)
    proofs = []
    p_f = is_bijective(F, R)
    if not p_f.proved:
        return _unknown(cid, statement, [p_f], f"the register fragment {F} is not a bijection onto its "
                                                 f"registers (broadcast registers are not modelled)")
    Finv = right_inverse(F)
    fsizes = dp.flat_sizes(F)
    if x.s2r is None:
        held = dp.mma_tv(mma, x.partition, shape)
        link = f"the register copy from thr_mma.partition_{x.partition}(s{O}) (no [{op}] s2r)"
        if size(held) != size(need):
            ce = {"thread": 0, "expected": f"{size(need) // T} values per thread (partition_{O})",
                  "found": f"{size(held) // T} values per thread (partition_{x.partition})"}
            return ClaimResult(cid, statement, "refuted", "domains", counterexample=ce, link=link,
                               why="the copy's source and the fragment have different sizes")
        p = prove(held, need, labels=(f"partition_{x.partition}", f"Layout{O}_TV"))
        proofs.append(p)
        if p.refuted:
            i = _first_differ(held, need, size(need))
            t, r = i % T, i // T
            return _fragment_refuted(cid, statement, op, proofs, link, t, r, F, fsizes, held(i), need(i), shape,
                                     fix=f"thr_mma.partition_{O}(s{O})" if x.partition != O else "")
    else:
        # the element a register receives is the one the copy's destination map assigns its (thread, value):
        # the atom moves each reference coordinate (ldmatrix: from the row another thread addressed)
        s2r_tv = dp.copy_tv(x.s2r, "D", shape)
        RD = x.s2r.retile(F)
        link = f"the S2R copy [{op}] s2r = {x.s2r_text}"
        p_rd = is_bijective(RD, R)
        proofs.append(p_rd)
        if p_rd.refuted:
            miss = _first_missing(RD, size(RD), R)
            ce = {"thread": 0, "register": miss, "expected": "every register of the fragment written by the "
                  "S2R copy", "found": f"register {miss} never written" if miss is not None else
                  "a register written twice"}
            return ClaimResult(cid, statement, "refuted", _join(proofs)[1], counterexample=ce, proofs=proofs,
                               link=f"retile_D of tCr{O} {F} by the S2R copy: {RD}",
                               why="retile_D does not write every register of the fragment once")
        if size(s2r_tv) != T * size(RD):
            ce = {"thread": 0, "expected": f"{size(RD)} values per thread (retile_D(tCr{O}))",
                  "found": f"{size(s2r_tv) // T} values per thread (partition_D of the S2R copy)"}
            return ClaimResult(cid, statement, "refuted", "domains", counterexample=ce, proofs=proofs, link=link,
                               why="the S2R copy moves a different number of values per thread than the "
                                   "fragment holds")
        needed = Compose(Compose(need, dp.with_thread(T, Finv)), dp.with_thread(T, RD))
        p = prove(s2r_tv, needed, labels=("tidfrg_D", f"Layout{O}_TV o retile_D"))
        proofs.append(p)
        if p.refuted:
            i = _first_differ(s2r_tv, needed, size(s2r_tv))
            t, j = i % T, i // T
            reg = RD(j)
            r = Finv(reg)
            assert F(r) == reg
            return _fragment_refuted(cid, statement, op, proofs, link, t, r, F, fsizes, s2r_tv(i), needed(i), shape,
                                     fix=f"make_tiled_copy_{O}(..., mma)" if "make_tiled_copy_" + O not in
                                     x.s2r_text else "")
    verdict, method = _join(proofs)
    if verdict == "unknown":
        return _unknown(cid, statement, proofs, "a part of the claim is unknown to the prover")
    return ClaimResult(cid, statement, "proved", method, proofs=proofs)


def _fragment_refuted(cid, statement, op, proofs, link, t, r, F, fsizes, found, expected, shape, fix=""):
    v, mi, kb = (dp.natural_coord(r, fsizes) + (0, 0, 0))[:3]
    reg = F(r)
    got, want = dp.tile_coord(found, shape), dp.tile_coord(expected, shape)
    assert got != want
    mode = "m" if op == "a" else "n"
    ce = {"thread": t, "register": reg, "value": v, f"mma_{mode}": mi, "k_block": kb, "stage": "every",
          "expected": _elem(op, want), "found": _elem(op, got)}
    why = (f"{link} puts s{op.upper()}({got[0]},{got[1]}) in register {reg} of thread {t} "
           f"(k-block {kb}); the MMA reads {_elem(op, want)} there")
    return ClaimResult(cid, statement, "refuted", _join(proofs)[1], counterexample=ce, proofs=proofs, link=link,
                       why=why, fix=fix)


# --- c.store -------------------------------------------------------------------------------------------------
def decide_store(kernel: Kernel) -> ClaimResult:
    """Every C element of the CTA tile is accumulated in exactly one (thread, register) and written once.

    ``partition_C`` over the CTA tile (``mma_tv(C)``) is a bijection onto the tile; the epilogue
    ``axpby(alpha, tCrC, beta, tCgC)`` writes register ``(t, r)`` to ``tCgC = partition_C(gC)`` at the same
    (t, r), so each C(m,n) is written once, by the thread that accumulated it."""
    mma = kernel.mma
    shape = kernel.tile_shape("c")
    n = shape[0] * shape[1]
    T = mma.size()
    statement = "every C element of the CTA tile is accumulated in exactly one (thread, register) and written once"
    L = dp.mma_tv(mma, "C", shape)
    p = is_bijective(L, n)
    link = f"thr_mma.partition_C(gC) of [mma] tiled = {kernel.mma_text}"
    if p.refuted:
        N = size(L)
        pair = _first_collision(L, N)
        if pair is not None:
            i0, i1 = pair
            c = dp.tile_coord(L(i0), shape)
            ce = {"thread": i0 % T, "register": i0 // T, "other_thread": i1 % T, "other_register": i1 // T,
                  "expected": f"{_elem('c', c)} in one (thread, register)", "found": "in two"}
            return ClaimResult("c.store", statement, "refuted", _join([p])[1], counterexample=ce, proofs=[p],
                               link=link, why=f"{_elem('c', c)} is accumulated twice")
        miss = _first_missing(L, N, n)
        if miss is not None:
            c = dp.tile_coord(miss, shape)
            ce = {"thread": None, "expected": f"{_elem('c', c)} accumulated", "found": "in no (thread, register)"}
            return ClaimResult("c.store", statement, "refuted", _join([p])[1], counterexample=ce, proofs=[p],
                               link=link, why=f"{_elem('c', c)} is never computed")
        return _unknown("c.store", statement, [p], "the prover refuted the bijection; no witness re-evaluated")
    if not p.proved:
        return _unknown("c.store", statement, [p], "the bijection is unknown to the prover")
    c = kernel.c
    if c.epilogue is None:
        return ClaimResult("c.store", statement, "proved", _join([p])[1], proofs=[p])
    # an epilogue copy: copy(r2g, retile_S(tCrC), partition_D(gC)) writes register retile_S(F)(j) of
    # thread t to the C element tidfrg_D(t, j); it must be the element that register accumulated
    E = c.epilogue
    F = dp.fragment(mma, "C", dp.tile_ref(shape))
    R = size(F)
    RS = E.retile(F)
    D = dp.copy_tv(E, "D", shape)
    link = f"the epilogue copy [c] epilogue = {c.epilogue_text}"
    proofs = [p]
    p_rs = is_bijective(RS, R)
    proofs.append(p_rs)
    if not p_rs.proved:
        if p_rs.refuted:
            ce = {"thread": 0, "expected": "every accumulator register written out once",
                  "found": f"retile_S(tCrC) = {RS} over {R} registers"}
            return ClaimResult("c.store", statement, "refuted", _join(proofs)[1], counterexample=ce, proofs=proofs,
                               link=link, why="the epilogue copy does not read every accumulator once")
        return _unknown("c.store", statement, proofs, "the epilogue's register map is unknown to the prover")
    if size(D) != T * size(RS):
        ce = {"thread": 0, "expected": f"{R} values per thread (tCrC)", "found": f"{size(D) // T} (partition_D)"}
        return ClaimResult("c.store", statement, "refuted", "domains", counterexample=ce, proofs=proofs, link=link,
                           why="the epilogue copy moves a different number of values per thread than tCrC holds")
    Finv = right_inverse(F)
    acc = Compose(Compose(L, dp.with_thread(T, Finv)), dp.with_thread(T, RS))
    pe = prove(D, acc, labels=("tidfrg_D", "LayoutC_TV o retile_S"))
    proofs.append(pe)
    if pe.refuted:
        i = _first_differ(D, acc, size(D))
        t, j = i % T, i // T
        reg = RS(j)
        got, want = dp.tile_coord(D(i), shape), dp.tile_coord(acc(i), shape)
        assert got != want and F(Finv(reg)) == reg
        ce = {"thread": t, "register": reg, "expected": f"written to {_elem('c', want)}",
              "found": f"written to {_elem('c', got)}"}
        return ClaimResult("c.store", statement, "refuted", _join(proofs)[1], counterexample=ce, proofs=proofs,
                           link=link, fix="make_tiled_copy_C(..., mma)" if "make_tiled_copy_C" not in c.epilogue_text
                           else "",
                           why=f"{link} writes register {reg} of thread {t}, which accumulated {_elem('c', want)}, "
                               f"to {_elem('c', got)}")
    verdict, method = _join(proofs)
    if verdict != "proved":
        return _unknown("c.store", statement, proofs, "a part of the claim is unknown to the prover")
    return ClaimResult("c.store", statement, "proved", method, proofs=proofs)


# --- residue -----------------------------------------------------------------------------------------------------
def decide_residue(kernel: Kernel) -> ClaimResult:
    """Every read and write stays inside A, B and C, for every admissible M, N, K.

    For each operand and each of its two dimensions X (tile extent ``T``): the grid has ``ceil(X/T)`` tiles
    along X and the last one touches ``(ceil(X/T) - 1) * T + c`` for every tile coordinate ``c`` the
    copies touch (read off the load and store maps); without predication that is inside iff
    ``X % T == 0 or X % T > c_max``.  The checker finds that condition and decides it for every admissible
    X (positive multiples of the declared divisor) over one period of ``X mod T``; a predicated operand
    (copy_if against an identity tensor, tiled_copy_if.cu) has none."""
    statement = "every read and write stays inside A, B and C, for every admissible M, N, K"
    conditions, failures, zfill = [], [], []
    for op in ("a", "b", "c"):
        x = kernel.operand(op)
        shape = kernel.tile_shape(op)
        if op == "c":
            L = dp.mma_tv(kernel.mma, "C", shape) if x.epilogue is None else dp.copy_tv(x.epilogue, "D", shape)
            what = "written"
        else:
            L = dp.copy_tv(x.g2s, "S", shape)
            what = "read"
        vals = exhaustive.values(L, size(L))
        if x.predicate:
            # the skipped elements of a K residue stay in smem from an earlier k-tile: unless the copy fills
            # them with zeros (cp.async's _ZFILL), the MMA adds their products into every C element
            c_max = int((vals // shape[0]).max())
            if op != "c" and _violation(kernel, 2, shape[1], c_max) is not None and "ZFILL" not in x.g2s.atom.name:
                zfill.append(op)
            continue
        for axis, dim in enumerate(OPERAND_DIMS[op]):
            T = shape[axis]
            coords = (vals % shape[0]) if axis == 0 else (vals // shape[0])
            c_max = int(coords.max())
            cond = f"{_dim_text(kernel, dim)} % {T} == 0" if c_max == T - 1 else \
                f"{_dim_text(kernel, dim)} % {T} == 0 or {_dim_text(kernel, dim)} % {T} > {c_max}"
            bad = _violation(kernel, dim, T, c_max)
            if cond not in conditions:
                conditions.append(cond)
            if bad is not None:
                failures.append((op, axis, dim, T, c_max, bad, L, vals, what))
    if not failures and zfill:
        ops = " and ".join(o.upper() for o in zfill)
        return ClaimResult("residue", statement, "unknown", "exact (residues modulo the tile)", conditions=conditions,
                           why=f"{ops} {'is' if len(zfill) == 1 else 'are'} predicated along K without zero fill: "
                               f"the skipped smem elements of the last k-tile hold an earlier tile's values, and "
                               f"whether they are cleared is not modelled",
                           fix="a _ZFILL cp.async atom (SM80_CP_ASYNC_CACHEALWAYS_ZFILL) or clearing the residue")
    if not failures:
        return ClaimResult("residue", statement, "proved", "exact (residues modulo the tile)", conditions=conditions)
    op, axis, dim, T, c_max, X, L, vals, what = failures[0]
    return _residue_refuted(kernel, statement, conditions, op, axis, dim, T, c_max, X, L, vals, what)


def _dim_text(kernel: Kernel, dim: int) -> str:
    x = kernel.shape[dim]
    return x if isinstance(x, str) else DIM_NAMES[dim]


def _violation(kernel: Kernel, dim: int, T: int, c_max: int):
    """The least admissible extent of dimension ``dim`` whose last tile reaches past it, or None."""
    x = kernel.shape[dim]
    candidates = [x] if isinstance(x, int) else [kernel.divisors[x] * q for q in range(1, T + 1)]
    for X in candidates:   # X mod T has period T / gcd(d, T) <= T over the multiples of d
        last = (math.ceil(X / T) - 1) * T + c_max
        if last >= X:
            return X
    return None


def _residue_refuted(kernel, statement, conditions, op, axis, dim, T, c_max, X, L, vals, what) -> ClaimResult:
    import numpy as np
    shape = kernel.tile_shape(op)
    coords = (vals % shape[0]) if axis == 0 else (vals // shape[0])
    i = int(np.flatnonzero(coords == c_max)[0])
    threads = kernel.mma.size() if op == "c" else kernel.operand(op).g2s.size()
    t, j = i % threads, i // threads
    tc = dp.tile_coord(L(i), shape)
    assert tc[axis] == c_max
    extents = {}
    for d in range(3):
        v = kernel.shape[d]
        if d == dim:
            extents[DIM_NAMES[d]] = X
        elif isinstance(v, int):
            extents[DIM_NAMES[d]] = v
        else:
            extents[DIM_NAMES[d]] = math.lcm(kernel.divisors[v], kernel.cta[d])
    blocks = [math.ceil(extents[DIM_NAMES[d]] / kernel.cta[d]) - 1 for d in OPERAND_DIMS[op]]
    g = tuple(blocks[a] * shape[a] + tc[a] for a in range(2))
    assert g[axis] >= X
    env = {}
    for d in range(3):
        v = kernel.shape[d]
        if isinstance(v, str):
            env[v] = extents[DIM_NAMES[d]]
    x = kernel.operand(op)
    from ..expr import evaluate
    gmem = evaluate(x.gmem_text, env)
    offset = gmem(g)
    extent = tuple(extents[DIM_NAMES[d]] for d in OPERAND_DIMS[op])
    names = {"a": ("m", "k"), "b": ("n", "k"), "c": ("m", "n")}[op]
    tile_mode = {"a": "k_tile", "b": "k_tile", "c": None}[op]
    cta = {n_: b for n_, b in zip(names, blocks)} if tile_mode is None else {names[0]: blocks[0]}
    ce = {"problem": extents, "thread": t, "value" if op != "c" else "register": j, "cta": cta}
    if tile_mode:
        ce[tile_mode] = blocks[1]
    ce.update({"expected": f"{op.upper()} element inside {extent[0]}x{extent[1]}",
               "found": f"{what} {_elem(op, g)} at offset {offset} of g{op.upper()}"})
    link = (f"the {'G2S copy' if op != 'c' else 'epilogue'} of {op.upper()} without predication "
            f"([{op}] predicate = false)")
    return ClaimResult("residue", statement, "refuted", "exact (residues modulo the tile)", conditions=conditions,
                       counterexample=ce, link=link,
                       why=f"with {DIM_NAMES[dim]} = {X}, thread {t} {what} {_elem(op, g)}, outside the "
                           f"{extent[0]}x{extent[1]} {op.upper()}",
                       fix=f"[{op}] predicate = true (copy_if with an identity tensor), or declare "
                           f"{_dim_text(kernel, dim)}:{T} in [problem] params")


# --- pipeline ------------------------------------------------------------------------------------------------------
def decide_pipeline(kernel: Kernel) -> ClaimResult:
    """No stage is read before its copy completed and none is overwritten while it may still be read, under
    the sgemm_sm80 schedule (:mod:`.pipeline`: its small model), for every admissible k-tile count."""
    from . import pipeline as pl
    P = kernel.stages
    statement = ("under the mainloop's schedule, no smem stage is read before its copy completed and none is "
                 "overwritten while it may still be read, for every admissible K")
    if kernel.pipeline_kind != "cp.async":
        return ClaimResult("pipeline", statement, "unknown", why=f"no model of the {kernel.pipeline_kind} schedule "
                                                                 f"yet (the cp.async loop of sgemm_sm80 only)")
    W = P - 2 if kernel.wait is None else kernel.wait
    if W < 0:
        return ClaimResult("pipeline", statement, "unknown", why="one stage: sgemm_sm80's cp_async_wait<K_PIPE_MAX-2> "
                                                                 "has no count (give [pipeline] wait)")
    kbs = {size(dp.fragment(kernel.mma, o, kernel.operand(o.lower()).smem)[2]) for o in ("A", "B")}
    if len(kbs) != 1:   # gemm_device: CUTE_STATIC_ASSERT_V(size<2>(tCsA) == size<2>(tCsB))
        raise SymcuteError(f"{kernel.source}: A has {min(kbs)} and B {max(kbs)} k-blocks per k-tile "
                           f"(CuTe: size<2>(tCsA) == size<2>(tCsB))")
    KB = kbs.pop()
    dim = kernel.shape[2]
    d = kernel.divisors.get(dim, 1) if isinstance(dim, str) else 1
    counts = pl.tile_counts(dim, d, kernel.cta[2], P)
    method = f"the schedule's model, run for {len(counts)} k-tile counts (every count behaves as one of them)"
    for n in counts:
        h = pl.run(P, W, KB, n)
        if h is None:
            continue
        n_adm = _admissible_count(dim, d, kernel.cta[2], P, n)
        h = pl.run(P, W, KB, n_adm) if n_adm != n else h
        if h is None:
            return ClaimResult("pipeline", statement, "unknown", method,
                               why=f"{n} k-tiles stand for {n_adm}, which runs clean: the model's periodicity "
                                   f"argument does not hold here")
        safe = [w for w in range(P) if all(pl.run(P, w, KB, m) is None for m in counts)]
        K = _least_k(dim, d, kernel.cta[2], h.k_tiles)
        ce = {"K": K, "k_tiles": h.k_tiles, "k_tile": h.iteration, "k_block": h.k_block, "stage": h.stage,
              "thread": "every", "expected": h.expected, "found": h.found}
        kind = {"raw": "a stage is read before its copy completed", "war": "a stage is overwritten while it may "
                "still be read", "stale": "a register slice holds the wrong k-tile"}[h.kind]
        fix = (f"[pipeline] wait = {max(safe)} (cp_async_wait<{max(safe)}>)" if safe else
               "more stages")
        return ClaimResult("pipeline", statement, "refuted", method, counterexample=ce,
                           link=f"cp_async_wait<{W}> with {P} stages", fix=fix,
                           why=f"with K = {K} ({h.k_tiles} k-tiles) at k-tile {h.iteration}, k-block {h.k_block}: "
                               f"{kind}")
    return ClaimResult("pipeline", statement, "proved", method)


def _admissible_count(dim, d: int, bk: int, P: int, n: int) -> int:
    """``n`` itself when some admissible K has ``ceil(K / bk) == n``, else the least admissible count
    ``>= 2P + 2`` congruent to ``n`` modulo ``P`` (which behaves as ``n``)."""
    if isinstance(dim, int):
        return math.ceil(dim / bk)
    q = 1
    while True:
        m = math.ceil(d * q / bk)
        if m == n or (m >= 2 * P + 2 and m % P == n % P and n >= 2 * P + 2):
            return m
        if m > n + bk * P * d:   # unreachable when n came from pipeline.tile_counts
            return n
        q += 1


def _least_k(dim, d: int, bk: int, n: int) -> int:
    if isinstance(dim, int):
        return dim
    q = 1
    while math.ceil(d * q / bk) < n:
        q += 1
    return d * q


# --- shared-memory banks ---------------------------------------------------------------------------------------
def decide_banks(kernel: Kernel, op: str, which: str) -> ClaimResult:
    """The shared-memory side of the S2R copy (``which="s2r"``) or of the G2S copy (``"g2s"``) over one
    stage is free of bank conflicts: every warp instruction takes its ideal number of wavefronts
    (symcute.memory's exact per-lane model, docs/memory.md).

    Without an S2R copy the registers are read element by element through ``partition_A`` (modelled as
    scalar loads, one instruction per fragment value).  A G2S cp.async is decided by the model's fitted
    cp.async rule; where the model says its figure is an estimate (its notes), the claim is unknown."""
    from .. import memory
    from ..core import sizeof_bits
    x = kernel.operand(op)
    O = op.upper()
    cid = f"{op}.{which}.banks"
    stage = dp.smem_stage(x.smem, 0)
    bits = sizeof_bits(x.type)
    copy = x.s2r if which == "s2r" else x.g2s
    if copy is not None:
        what = f"the {which.upper()} copy [{op}] {which} = {x.s2r_text if which == 's2r' else x.g2s_text}"
    else:
        what = f"the scalar register reads through thr_mma.partition_{x.partition}(s{O}) (no [{op}] s2r)"
    statement = f"{what} over one stage of s{O} is free of shared-memory bank conflicts"
    try:
        if copy is not None:
            r = memory.bank_conflicts(copy, stage)
        else:
            r = memory.shared_access(dp.mma_tv(kernel.mma, O, kernel.tile_shape(op)), stage, bits, bits, "ld")
    except SymcuteError as e:   # the bank model's preconditions (a tile the copy does not divide, ...)
        return ClaimResult(cid, statement, "unknown", why=f"the bank model does not apply: {e}")
    metric = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + (
        "ldgsts" if "cp.async" in r.instruction.name else r.instruction.op if r.instruction.op in ("ld", "st")
        else "ld")
    conflicts = r.wavefronts - r.ideal_wavefronts
    figures = {"instruction": r.instruction.name, "warps": r.warps, "instructions_per_warp": r.instructions_per_warp,
               "wavefronts": r.wavefronts, "ideal_wavefronts": r.ideal_wavefronts, "conflicts": conflicts,
               "ways": r.ways, "vector_bits": r.vector.bits, "method": str(getattr(r.method, "value", r.method)),
               "ncu": {metric + ".sum": conflicts}, "per": "CTA and k-tile (one stage)",
               "notes": [str(n) for n in r.notes]}
    estimate = any(n.key.value.startswith("cp_async") and n.key.value != "cp_async_stream" for n in r.notes)
    if estimate:
        return ClaimResult(cid, statement, "unknown", figures["method"], figures=figures,
                           why="the cp.async wavefront rule is fitted and assumes each lane's source 16 bytes "
                               "after the previous lane's; the figures are the model's estimate")
    if conflicts == 0:
        return ClaimResult(cid, statement, "proved", figures["method"], figures=figures)
    w = r.witness
    lanes = [{"lane": l.lane, "thread": l.thread, "byte_address": l.byte_address} for group in w.lanes for l in group]
    ce = {"warp": w.warp, "instruction": w.instruction, "phase": w.phase, "bank": w.bank, "words": list(w.words),
          "lanes": lanes, "expected": f"{r.ideal_wavefronts} wavefronts", "found": f"{r.wavefronts} wavefronts "
          f"({r.ways}-way)"}
    return ClaimResult(cid, statement, "refuted", figures["method"], counterexample=ce, figures=figures, link=what,
                       why=f"bank {w.bank} serves {len(w.words)} distinct words in phase {w.phase} of warp {w.warp}'s "
                           f"instruction {w.instruction}: {r.wavefronts} wavefronts where {r.ideal_wavefronts} "
                           f"are ideal", fix="a swizzle of the smem layout (symcute bank --fix)")


# --- vector widths ---------------------------------------------------------------------------------------------
def decide_vector(kernel: Kernel, op: str, which: str) -> ClaimResult:
    """Each copy-atom call of the G2S (``which="g2s"``) or S2R copy reads and writes its values as one
    contiguous, aligned vector in memory, as its instruction needs (cp.async of 16 bytes, an ldmatrix
    row), for every admissible problem size.

    smem side: exact, over every (thread, call) of the static tile (the smem buffer assumed aligned to
    the vector).  gmem side (G2S): the offset of value ``v + 1`` minus that of ``v`` is
    ``dm * stride_M + dk * stride_K`` with the strides polynomials in the problem's parameters (a
    declared ``M:128`` is ``M = 128 q``), equal to 1 as polynomials; the first value's offset, over every
    CTA and k-tile, is a polynomial whose coefficients the vector divides (a sufficient condition);
    otherwise a concrete size whose offset is misaligned, re-evaluated with core, refutes."""
    import numpy as np
    from ..core import sizeof_bits
    from ..symbolic.linear import Compose as _C
    x = kernel.operand(op)
    O = op.upper()
    cid = f"{op}.{which}.vector"
    copy = x.g2s if which == "g2s" else x.s2r
    shape = kernel.tile_shape(op)
    bits = sizeof_bits(x.type)
    if copy is None:
        return ClaimResult(cid, f"the register reads of s{O} through partition_{x.partition} are scalar",
                           "proved", "scalar", why="no [" + op + "] s2r: one element per read needs no vector")
    from ..memory.copy import atom_kind, default_side
    fam, _det = atom_kind(copy.atom)
    smem_role = default_side(copy.atom) if which == "s2r" else "D"
    M_ = dp.copy_tv(copy, smem_role, shape)
    fv = size(M_[1][0]) if isinstance(M_.shape[1], tuple) else 1
    text = x.g2s_text if which == "g2s" else x.s2r_text
    statement = (f"each call of the {which.upper()} copy [{op}] {which} moves its {fv} values as one contiguous, "
                 f"aligned {fv * bits}-bit vector in memory, for every admissible size")
    link = f"the {which.upper()} copy [{op}] {which} = {text}"
    figures = {"values_per_call": fv, "vector_bits": fv * bits, "atom": copy.atom.name}
    if fv == 1 or fam in ("none",):
        return ClaimResult(cid, statement, "proved", "exhaustive", figures=figures)
    T = copy.size()
    stage = dp.smem_stage(x.smem, 0)
    offs = exhaustive.values(_C(stage, M_), size(M_)).reshape((T, fv, -1), order="F")
    bad = np.argwhere(offs != offs[:, :1, :] + np.arange(fv)[None, :, None])
    if len(bad):
        t, v, r = (int(a) for a in bad[0])
        got = [int(o) for o in offs[t, :, r]]
        ce = {"thread": t, "call": r, "side": "smem", "expected": f"offsets {got[0]}..{got[0] + fv - 1}",
              "found": f"offsets {got}"}
        return ClaimResult(cid, statement, "refuted", "exhaustive", counterexample=ce, figures=figures, link=link,
                           why=f"thread {t}'s call {r} reads s{O} at offsets {got}, not one vector")
    mis = np.argwhere(offs[:, 0, :] % fv != 0)
    if len(mis):
        t, r = (int(a) for a in mis[0])
        ce = {"thread": t, "call": r, "side": "smem", "expected": f"an offset divisible by {fv}",
              "found": f"offset {int(offs[t, 0, r])}"}
        return ClaimResult(cid, statement, "refuted", "exhaustive", counterexample=ce, figures=figures, link=link,
                           why=f"thread {t}'s call {r} starts at smem offset {int(offs[t, 0, r])}, not aligned "
                               f"to {fv * bits} bits")
    if which == "s2r":
        return ClaimResult(cid, statement, "proved", "exhaustive", figures=figures)
    return _gmem_vector(kernel, op, copy, shape, fv, statement, link, figures)


def _gmem_vector(kernel, op, copy, shape, fv, statement, link, figures) -> ClaimResult:
    import numpy as np
    import sympy
    x = kernel.operand(op)
    cid = f"{op}.g2s.vector"
    S = dp.copy_tv(copy, "S", shape)
    T = copy.size()
    idx = exhaustive.values(S, size(S)).reshape((T, fv, -1), order="F")
    m, k = idx % shape[0], idx // shape[0]
    g = x.gmem
    sM, sK = (_as_expr(d) for d in g.stride)
    steps = {(int(a), int(b)) for a, b in zip((m[:, 1:, :] - m[:, :-1, :]).ravel(),
                                               (k[:, 1:, :] - k[:, :-1, :]).ravel())}
    for dm, dk in sorted(steps):
        if sympy.expand(dm * sM + dk * sK - 1) != 0:
            return _gmem_counterexample(kernel, op, fv, statement, link, figures,
                                        f"consecutive values step {dm} along the first mode and {dk} along k")
    # alignment: bm * BLK * sM + kt * BLK_K * sK + m0 * sM + k0 * sK == 0 mod fv for every CTA, k-tile, size
    syms = sorted((sM.free_symbols | sK.free_symbols), key=str)
    m0, k0 = m[:, 0, :].ravel(), k[:, 0, :].ravel()
    for mono in _monomials([sM, sK, shape[0] * sM, shape[1] * sK], syms):
        a = _coeff(sM, syms, mono)
        b = _coeff(sK, syms, mono)
        if a is None or b is None:
            return ClaimResult(cid, statement, "unknown", "polynomial", figures=figures,
                               why="a gmem stride has a non-integer coefficient")
        if (shape[0] * a) % fv or (shape[1] * b) % fv or np.any((m0 * a + k0 * b) % fv):
            return _gmem_counterexample(kernel, op, fv, statement, link, figures, "a misaligned first value")
    return ClaimResult(cid, statement, "proved", "exhaustive+polynomial", figures=figures)


def _as_expr(v):
    """A gmem stride as a SymPy expression: an int, or the parametric expression it already is (no text is
    ever converted: the package has no sympify)."""
    import sympy
    if isinstance(v, int):
        return sympy.Integer(v)
    if isinstance(v, sympy.Basic):
        return v
    raise SymcuteError(f"kernel: a gmem stride {v!r} is neither an integer nor a parametric expression")


def _monomials(exprs, syms) -> set:
    import sympy
    out = set()
    for e in exprs:
        p = sympy.Poly(sympy.expand(e), *syms) if syms else None
        out |= set(p.monoms()) if p is not None else {()}
    return out


def _coeff(e, syms, mono):
    import sympy
    if not syms:
        c = _as_expr(e)
    else:
        c = sympy.Poly(sympy.expand(e), *syms).as_dict().get(mono, 0)
    c = sympy.nsimplify(c)
    return int(c) if c.is_integer else None


def _gmem_counterexample(kernel, op, fv, statement, link, figures, what) -> ClaimResult:
    """A concrete admissible size, CTA, k-tile and thread whose vector is not contiguous or not aligned in
    gmem, found by evaluating the gmem layout (core) at small sizes; unknown if none is found."""
    import itertools
    from ..expr import evaluate
    x = kernel.operand(op)
    cid = f"{op}.g2s.vector"
    shape = kernel.tile_shape(op)
    S = dp.copy_tv(x.g2s, "S", shape)
    T = x.g2s.size()
    idx = exhaustive.values(S, size(S)).reshape((T, fv, -1), order="F")
    names = [n for n in kernel.shape if isinstance(n, str)]
    choices = [[kernel.divisors[n] * q for q in range(1, 2 * fv + 1)] for n in names]
    for values in itertools.product(*choices):
        env = dict(zip(names, values))
        gm = evaluate(x.gmem_text, env)
        for bm, kt in itertools.product(range(fv), range(fv)):
            for t in range(T):
                for r in range(idx.shape[2]):
                    coords = [(bm * shape[0] + int(c) % shape[0], kt * shape[1] + int(c) // shape[0])
                              for c in idx[t, :, r]]
                    offs = [gm(c) for c in coords]
                    if offs != list(range(offs[0], offs[0] + fv)) or offs[0] % fv:
                        problem = {**{d: v for d, v in zip("MNK", [env.get(s, s) for s in kernel.shape])}}
                        ce = {"problem": problem, "thread": t, "call": r, "cta": bm, "k_tile": kt, "side": "gmem",
                              "expected": f"{fv} consecutive offsets starting at a multiple of {fv}",
                              "found": f"offsets {offs}"}
                        return ClaimResult(cid, statement, "refuted", "polynomial+exhaustive", counterexample=ce,
                                           figures=figures, link=link,
                                           why=f"{what}: with {', '.join(f'{a} = {b}' for a, b in env.items())} "
                                               f"thread {t} reads g{op.upper()} at offsets {offs}")
    return ClaimResult(cid, statement, "unknown", "polynomial", figures=figures,
                       why=f"{what} is not excluded for every size, and no small size shows it")
