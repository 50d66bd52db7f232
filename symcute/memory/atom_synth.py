"""Shared-memory layout synthesis over CuTe's smem layout atoms (and swizzles of a base layout).

Given the accesses of one smem tile (a TiledCopy's write, an ldmatrix read, a
TV layout's loads or stores) and the tile's shape and element type, every
candidate layout is analysed exactly with :func:`symcute.memory.bank_conflicts`
/ :func:`symcute.memory.shared_access`:

* CuTe's GMMA layout atoms (``GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>``,
  :mod:`symcute.atoms.smem_layouts`) tiled to the tile with ``tile_to_shape``;
* the SM80 atoms CUTLASS's Ampere kernels write (``SM80_ATOMS``: a swizzle
  composed with a K- or MN-major atom, on element offsets), tiled the same way;
* the unswizzled K-major (row-major) and MN-major (column-major) tiles;
* when a ``base`` layout is given, every ``Sw<B,M,S> o 0 o base`` of
  :func:`symcute.memory.synth.synthesize_swizzle`'s family.

A candidate an access cannot use (its vectors broken, or the atom does not
tile the shape, as CuTe's ``tile_to_shape`` refuses) is refused with the
reason.  The result ranks the candidates by total wavefronts (ties: the
catalog order, widest swizzle first), lists the optimal ones and the
alternatives with their costs, and says when none is conflict-free on every
access.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import ComposedLayout, Layout, Swizzle, sizeof_bits, tile_to_shape
from ..errors import LayoutError, SymcuteError
from .synth import rank_alternatives

# name -> (value bits, (B, M, S) on element offsets, atom shape, atom stride, where CUTLASS writes it)
SM80_ATOMS = {
    "SM80 K-major 8x64 Sw<3,3,3> (16-bit)": (16, (3, 3, 3), (8, 64), (64, 1),
                                             "CUTLASS SM80 F16 TN configurations: composition(Swizzle<3,3,3>{}, "
                                             "Layout<Shape<_8,_64>,Stride<_64,_1>>{})"),
    "SM80 K-major 8x(8,8) Sw<3,3,3> (16-bit, sgemm_sm80)": (16, (3, 3, 3), (8, (8, 8)), (8, (1, 64)),
                                                            "examples/cute/tutorial/sgemm_sm80.cu, swizzle_atom"),
    "SM80 K-major 8x32 Sw<2,3,3> (16-bit)": (16, (2, 3, 3), (8, 32), (32, 1),
                                             "CUTLASS SM80 F16 configurations for 32-element K tiles"),
    "SM80 K-major 8x16 Sw<1,3,3> (16-bit)": (16, (1, 3, 3), (8, 16), (16, 1),
                                             "CUTLASS SM80 F16 configurations for 16-element K tiles"),
    "SM80 MN-major 64x8 Sw<3,3,3> (16-bit)": (16, (3, 3, 3), (64, 8), (1, 64),
                                              "CUTLASS SM80 F16 NT configurations: composition(Swizzle<3,3,3>{}, "
                                              "Layout<Shape<_64,_8>,Stride<_1,_64>>{})"),
    "SM80 K-major 8x32 Sw<3,2,3> (32-bit)": (32, (3, 2, 3), (8, 32), (32, 1),
                                             "examples/59_ampere_gather_scatter_conv/ampere_conv_kernel.h "
                                             "(the bank-conflict-free alternative it names)"),
    "SM80 K-major 8x(4,2) Sw<1,2,3> (32-bit, ampere_conv)": (32, (1, 2, 3), (8, (4, 2)), (4, (1, 32)),
                                                             "examples/59_ampere_gather_scatter_conv/"
                                                             "ampere_conv_kernel.h, SmemLayoutAtomFlt"),
}

GMMA_ATOMS = tuple(f"GMMA::Layout_{major}_{kind}_Atom" for major in ("K", "MN")
                   for kind in ("SW128", "SW64", "SW32", "INTER"))


@dataclass(frozen=True)
class Access:
    """One access of the tile: a TiledCopy's shared-memory side, or a TV layout's loads/stores."""
    label: str
    tiled_copy: object = None
    side: str | None = None
    tv_layout: object = None
    value_bits: int = 0
    vector_bits: int | None = None
    op: str = "ld"

    def analyse(self, smem):
        from .copy import bank_conflicts
        from .shared import shared_access
        if self.tiled_copy is not None:
            return bank_conflicts(self.tiled_copy, smem, self.side)
        return shared_access(self.tv_layout, smem, self.value_bits, self.vector_bits, self.op)


def copy_access(tiled_copy, side: str | None = None, label: str | None = None) -> Access:
    """The shared-memory side of ``tiled_copy`` (see :func:`symcute.memory.bank_conflicts`)."""
    name = getattr(getattr(tiled_copy, "atom", None), "name", "copy")
    return Access(label or name, tiled_copy=tiled_copy, side=side)


def tv_access(tv_layout, value_bits: int, vector_bits: int | None = None, op: str = "ld",
              label: str | None = None) -> Access:
    """A TV layout's accesses (see :func:`symcute.memory.shared_access`)."""
    return Access(label or f"{op} {tv_layout}", tv_layout=tv_layout, value_bits=value_bits,
                  vector_bits=vector_bits, op=op)


@dataclass(frozen=True)
class LayoutCandidate:
    name: str
    kind: str                  # 'GMMA atom', 'SM80 atom', 'unswizzled', 'swizzle of base'
    layout: object             # the tile's smem layout (None when the atom does not tile the shape)
    wavefronts: tuple          # per access (None: refused)
    reasons: tuple             # per access: why it is refused, or None

    @property
    def valid(self) -> bool:
        return self.layout is not None and all(w is not None for w in self.wavefronts)

    @property
    def total(self) -> int:
        return sum(self.wavefronts) if self.valid else -1


@dataclass(frozen=True)
class LayoutSynthesis:
    shape: tuple
    value_bits: int
    accesses: tuple
    ideal: tuple                     # per access: ideal wavefronts
    candidates: tuple                # every candidate, in catalog order
    best: LayoutCandidate
    optimal: tuple                   # every valid candidate with the best total
    alternatives: tuple              # the next totals, best candidate of each
    conflict_free: bool
    reasons: tuple                   # why none is conflict-free on every access (empty when one is)

    def candidate(self, name: str) -> LayoutCandidate:
        for c in self.candidates:
            if c.name == name:
                return c
        raise SymcuteError(f"no candidate {name!r}; candidates: {', '.join(c.name for c in self.candidates)}")

    def is_optimal(self, name: str) -> bool:
        return any(c.name == name for c in self.optimal)


def _sm80_atom(entry) -> ComposedLayout:
    _, (b, m, s), shape, stride, _ = entry
    return ComposedLayout(Swizzle(b, m, s), 0, Layout(shape, stride))


def _catalog(shape: tuple, value_type) -> list:
    from ..atoms.smem_layouts import smem_layout_atom
    bits = sizeof_bits(value_type)
    out = []
    for name in GMMA_ATOMS:
        try:
            atom = smem_layout_atom(name, value_type)
        except LayoutError as e:
            out.append((name, "GMMA atom", None, str(e)))
            continue
        out.append((name, "GMMA atom", atom, None))
    for name, entry in SM80_ATOMS.items():
        if entry[0] == bits:
            out.append((name, "SM80 atom", _sm80_atom(entry), None))
    m, n = shape
    out.append(("unswizzled K-major (row-major)", "unswizzled", Layout((m, n), (n, 1)), None))
    out.append(("unswizzled MN-major (column-major)", "unswizzled", Layout((m, n), (1, m)), None))
    return out


def _tiled(atom, shape):
    if isinstance(atom, Layout) and atom.shape == shape:
        return atom, None
    try:
        return tile_to_shape(atom, shape), None
    except SymcuteError as e:
        return None, f"does not tile {shape}: {e}"


def _evaluate(name, kind, layout, accesses) -> LayoutCandidate:
    waves, why = [], []
    for a in accesses:
        try:
            waves.append(a.analyse(layout).wavefronts)
            why.append(None)
        except LayoutError as e:
            waves.append(None)
            why.append(f"{a.label}: {e}")
    return LayoutCandidate(name, kind, layout, tuple(waves), tuple(why))


def synthesize_smem_layout(shape, accesses, value_type, base=None, max_alternatives: int = 8) -> LayoutSynthesis:
    """The smem layout of a ``shape`` tile of ``value_type`` that minimises the wavefronts of ``accesses``
    (from :func:`copy_access` / :func:`tv_access`), over CuTe's smem layout atoms, the SM80 atoms, the
    unswizzled tiles and (with ``base``) every ``Sw<B,M,S> o 0 o base``.

    @pre shape is a rank-2 tile (M, N) or (MN, K); every access covers it
    """
    shape = tuple(shape)
    if len(shape) != 2 or not all(isinstance(x, int) and x > 0 for x in shape):
        raise LayoutError(f"synthesize_smem_layout: shape must be two positive extents, got {shape!r}")
    if not accesses:
        raise LayoutError("synthesize_smem_layout: give at least one access (copy_access or tv_access)")
    bits = sizeof_bits(value_type)
    cands = []
    for name, kind, atom, err in _catalog(shape, value_type):
        layout, why = (None, err) if atom is None else _tiled(atom, shape)
        if layout is None:
            cands.append(LayoutCandidate(name, kind, None, tuple(None for _ in accesses),
                                         tuple(why for _ in accesses)))
        else:
            cands.append(_evaluate(name, kind, layout, accesses))
    if base is not None:       # the swizzle family over base: synthesize_swizzle's fast exact path
        from .synth import copy_side, synthesize_swizzle, tv_side
        sides = [copy_side(a.tiled_copy, base, a.label, a.side) if a.tiled_copy is not None else
                 tv_side(a.tv_layout, base, a.value_bits, a.vector_bits or a.value_bits, a.op, a.label)
                 for a in accesses]
        fam = synthesize_swizzle(base, sides)
        for c in sorted((c for c in fam.optimal + fam.alternatives), key=lambda c: c.key()):
            if c.swizzle.bits:
                cands.append(LayoutCandidate(f"{c.swizzle} o 0 o {fam.base}", "swizzle of base", fam.layout(c.swizzle),
                                             c.wavefronts, c.refused))
    ideal = tuple(_ideal(a, cands) for a in accesses)
    valid = [c for c in cands if c.valid]
    if not valid:
        raise LayoutError("synthesize_smem_layout: no candidate serves every access: "
                          + "; ".join(r for c in cands for r in c.reasons if r)[:500])
    order = {id(c): i for i, c in enumerate(cands)}
    ranked = sorted(valid, key=lambda c: (c.total, order[id(c)]))
    best = ranked[0]
    optimal, alts = rank_alternatives(ranked, max_alternatives)
    free = best.total == sum(ideal)
    reasons = () if free else tuple(
        f"{a.label}: best {min(c.wavefronts[i] for c in valid)} wavefronts against {ideal[i]} ideal over "
        f"{len(valid)} candidates" for i, a in enumerate(accesses)
        if min(c.wavefronts[i] for c in valid) > ideal[i]) or (
        "every access can be conflict-free alone, but no candidate makes all of them so",)
    return LayoutSynthesis(shape, bits, tuple(accesses), ideal, tuple(cands), best, optimal, tuple(alts), free,
                           reasons)


def _ideal(access, cands) -> int:
    """The ideal wavefronts of ``access`` (independent of the placement): from the first candidate it can use."""
    for c in cands:
        if c.layout is not None:
            try:
                return access.analyse(c.layout).ideal_wavefronts
            except LayoutError:
                continue
    return -1
