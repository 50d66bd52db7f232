"""Swizzle synthesis: the ``Swizzle<B,M,S>`` that minimises the wavefronts of every access to one smem tile.

Given the accesses of one tile (the write side, e.g. a 128-bit cp.async from a
row-major gmem tile, and the read side, e.g. an ldmatrix.x4 for an SM80 MMA)
and the tile's unswizzled layout ``base``, every candidate ``Sw<B,M,S> o 0 o
base`` of the family (``1 <= B <= 5``, ``B <= S``, ``B + M + S <= log2
cosize(base)``, and the identity) is analysed exactly, side by side (see
:func:`symcute.memory.shared_access`).  A candidate that breaks a side's
vectors (a 128-bit access no longer contiguous) is refused for that side, as
CuTe's copy would be.  The result lists the best candidate (fewest total
wavefronts; ties broken by fewer swizzle bits, then smaller M, then S), the
alternatives with their costs, and, when no candidate makes every side
conflict-free, why.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import ComposedLayout, Layout, Swizzle
from ..core import int_tuple as it
from ..errors import LayoutError
from ..symbolic.vocabulary import Phrase, Reason
from . import model
from .addresses import _swizzle_eval, element_offsets
from .shared import _as_layout, _mode_leaves, analyse, max_vector, VectorWidth


@dataclass(frozen=True)
class Side:
    """One access of the tile: its instruction, values per access and unswizzled element offsets [t, v]."""
    label: str
    instruction: model.Instruction
    per_access: int
    value_bits: int
    offsets: object            # numpy [thread, value]: element offsets under the unswizzled base
    thread_names: tuple
    thread_shape: tuple

    def bits(self, sw: Swizzle) -> np.ndarray:
        off = self.offsets if sw.bits == 0 else _swizzle_eval(sw, self.offsets)
        return off * self.value_bits

    def refusal(self, sw: Swizzle, bits=None):
        """Why ``sw`` breaks this side's vectors, or None."""
        bits = self.bits(sw) if bits is None else bits
        if self.per_access == 1:
            return None
        vec = max_vector(bits, self.value_bits, self.per_access * self.value_bits)
        if vec.values < self.per_access:
            return (f"{sw} breaks {self.label}'s {self.per_access * self.value_bits}-bit accesses "
                    f"({vec.detail})")
        return None

    def evaluate(self, sw: Swizzle):
        """``(SharedAccess, None)`` or ``(None, reason)`` when the swizzle breaks this side's vectors."""
        bits = self.bits(sw)
        why = self.refusal(sw, bits)
        if why:
            return None, why
        fixed = VectorWidth(self.per_access * self.value_bits, self.per_access, "atom",
                            f"{self.label} uses {self.per_access * self.value_bits}-bit accesses")
        return analyse(bits, self.value_bits, self.per_access, self.instruction, self.thread_names,
                       self.thread_shape, fixed), None


def copy_side(tiled_copy, base, label: str | None = None, side: str | None = None) -> Side:
    """The shared-memory side of ``tiled_copy`` over the unswizzled tile ``base`` (see bank_conflicts)."""
    from ..atoms import tv_names
    from ..core import sizeof_bits
    from .copy import _instruction_of, _tile_bits, default_side
    base = _as_layout(base, "base")
    atom = tiled_copy.atom
    side = (side or default_side(atom)).upper()
    vbits = sizeof_bits(atom.value_type)
    ident = Layout(base.shape, base.stride)
    bits, tv = _tile_bits(tiled_copy, ident, vbits, side)
    instr, per = _instruction_of(tiled_copy, side, vbits, bits)
    names = it.flatten_to_tuple(tv_names(tiled_copy, side)[0])
    return Side(label or f"{atom.name} ({'read' if side == 'S' else 'write'})", instr, per, vbits,
                bits // vbits, names, it.flatten_to_tuple(tv.shape[0]))


def tv_side(tv_layout, base, value_bits: int, vector_bits: int, op: str = "ld", label: str | None = None) -> Side:
    """A TV layout's access of ``vector_bits`` per thread to the unswizzled tile ``base``."""
    tv_layout = _as_layout(tv_layout, "tv_layout")
    base = _as_layout(base, "base")
    nt, nv = tv_layout[0].size(), tv_layout[1].size()
    idx = np.arange(nt, dtype=np.int64)[:, None] + nt * np.arange(nv, dtype=np.int64)[None, :]
    off = element_offsets(base, element_offsets(tv_layout, idx))
    if vector_bits % value_bits:
        raise LayoutError(f"tv_side: vector_bits {vector_bits} is not a multiple of value_bits {value_bits}")
    instr = model.ld_st(op, vector_bits)
    return Side(label or f"{op} {tv_layout}", instr, vector_bits // value_bits, value_bits, off,
                tuple(f"t{i}" for i in range(len(_mode_leaves(tv_layout, 0)))), _mode_leaves(tv_layout, 0))


@dataclass(frozen=True)
class Candidate:
    swizzle: Swizzle
    wavefronts: tuple          # per side (None: refused)
    refused: tuple             # per side: the reason, or None

    @property
    def valid(self) -> bool:
        return all(w is not None for w in self.wavefronts)

    @property
    def total(self) -> int:
        return sum(self.wavefronts) if self.valid else -1

    def key(self):
        sw = self.swizzle
        return (self.total, sw.bits, sw.base, sw.shift)


@dataclass(frozen=True)
class SwizzleSynthesis:
    base: Layout
    sides: tuple                  # the Side objects
    ideal: tuple                  # per side: ideal wavefronts
    unswizzled: Candidate
    best: Candidate
    optimal: tuple                # every candidate with the best total
    alternatives: tuple           # the next best candidates (by total), one per total
    searched: int
    conflict_free: bool           # the best makes every side conflict-free
    reasons: tuple                # why no candidate is conflict-free on every side (empty when one is)

    def layout(self, sw: Swizzle | None = None) -> ComposedLayout:
        """``Sw<B,M,S> o 0 o base`` of the best (or the given) swizzle."""
        return ComposedLayout(sw or self.best.swizzle, 0, self.base)

    def is_optimal(self, sw: Swizzle) -> bool:
        return any(c.swizzle == sw for c in self.optimal)

    def summary(self) -> tuple:
        """``((what, value), ...)``: the synthesis in a few words (its repr and notebook display)."""
        ideal = sum(self.ideal)
        rows = [("base", str(self.base)), ("searched", f"{self.searched} swizzles"),
                ("best", f"{self.best.swizzle}: {self.best.total} wavefronts (ideal {ideal}"
                         f"{', conflict-free' if self.conflict_free else ''})"),
                ("optimal", ", ".join(str(c.swizzle) for c in self.optimal)),
                ("unswizzled", f"{self.unswizzled.total} wavefronts" if self.unswizzled.valid else "refused")]
        if self.alternatives:
            rows.append(("next", ", ".join(f"{c.swizzle} ({c.total})" for c in self.alternatives[:4])))
        rows += [("why not conflict-free", str(r)) for r in self.reasons]
        return tuple(rows)

    def __repr__(self) -> str:
        return (f"SwizzleSynthesis(base {self.base}: best {self.best.swizzle} with {self.best.total} wavefronts, "
                f"ideal {sum(self.ideal)}, unswizzled {self.unswizzled.total}; {self.searched} searched)")


def candidates(nbits: int) -> list:
    out = [Swizzle(0, 0, 0)]
    for b in range(1, 6):
        for m in range(0, nbits):
            for s in range(b, nbits - m - b + 1):
                out.append(Swizzle(b, m, s))
    return out


def synthesize_swizzle(base, sides, max_alternatives: int = 8) -> SwizzleSynthesis:
    """The best ``Sw<B,M,S> o 0 o base`` for the accesses ``sides`` (from :func:`copy_side` / :func:`tv_side`).

    @pre every side's element offsets lie in [0, cosize(base))
    """
    base = _as_layout(base, "base")
    if not sides:
        raise LayoutError("synthesize_swizzle: give at least one access (copy_side or tv_side)")
    cos = base.cosize()
    nbits = max(1, (cos - 1).bit_length())
    evaluated = []
    ideal = None
    for sw in candidates(nbits):
        why = [s.refusal(sw) for s in sides]
        if any(why) and sw.bits:     # refused by a side: the others are not analysed (it cannot be chosen)
            evaluated.append(Candidate(sw, tuple(None if w else -1 for w in why), tuple(why)))
            continue
        waves = []
        for s, w in zip(sides, why):
            r = None if w else s.evaluate(sw)[0]
            waves.append(None if r is None else r.wavefronts)
        evaluated.append(Candidate(sw, tuple(waves), tuple(why)))
    unsw = evaluated[0]
    ideal = tuple(_ideal(s) for s in sides)
    valid = sorted((c for c in evaluated if c.valid), key=Candidate.key)
    if not valid:
        raise LayoutError("synthesize_swizzle: no candidate (not even the identity) keeps every side's vectors: "
                          + "; ".join(r for r in unsw.refused if r))
    best = valid[0]
    optimal, alts = rank_alternatives(valid, max_alternatives)
    free = best.total == sum(ideal)
    reasons = () if free else _reasons(sides, ideal, evaluated)
    return SwizzleSynthesis(base, tuple(sides), ideal, unsw, best, optimal, tuple(alts), len(evaluated), free,
                            reasons)


def rank_alternatives(ranked: list, max_alternatives: int) -> tuple:
    """The optimal candidates (every one at the best total) and up to ``max_alternatives`` others, one per
    next-best total, from candidates already sorted best first (each has ``.total``)."""
    best = ranked[0].total
    optimal = tuple(c for c in ranked if c.total == best)
    alts, seen = [], {best}
    for c in ranked:
        if c.total not in seen and len(alts) < max_alternatives:
            alts.append(c)
            seen.add(c.total)
    return optimal, tuple(alts)


def _ideal(side: Side) -> int:
    r, _ = side.evaluate(Swizzle(0, 0, 0))
    if r is None:
        # the ideal does not depend on the placement of the words: count it under any valid candidate
        return -1
    return r.ideal_wavefronts


def _joined(clauses):
    """Clauses as one: ``a; b; c`` (Reason.BOTH, nested to the right); a refusal's message stays its text."""
    return clauses[0] if len(clauses) == 1 else Phrase(Reason.BOTH, first=clauses[0], second=_joined(clauses[1:]))


def _reasons(sides, ideal, evaluated) -> tuple:
    """Why no candidate is conflict-free on every side: per side, whether any candidate makes it conflict-free
    on its own, and what such a candidate does to the other sides."""
    full = []
    for c in evaluated:      # analyse the sides a refused candidate skipped: the reason needs them
        waves = tuple(w if w != -1 else sides[i].evaluate(c.swizzle)[0].wavefronts
                      for i, w in enumerate(c.wavefronts))
        full.append(Candidate(c.swizzle, waves, c.refused))
    out, alone = [], []
    for i, s in enumerate(sides):
        ok = [c for c in full if c.wavefronts[i] is not None and c.wavefronts[i] == ideal[i]]
        alone.append(ok)
        if not ok:
            best = min((c for c in full if c.wavefronts[i] is not None), key=lambda c: c.wavefronts[i])
            out.append(Phrase(Reason.SYNTH_NONE_ALONE, side=s.label, best=best.wavefronts[i], ideal=ideal[i],
                              swizzle=str(best.swizzle)))
    for i, s in enumerate(sides):
        if not alone[i] or len(alone[i]) == len(full):
            continue
        c = min(alone[i], key=Candidate.key if alone[i][0].valid else (lambda c: (c.swizzle.bits, c.swizzle.base)))
        broken = [c.refused[j] for j in range(len(sides)) if c.refused[j] is not None]
        worse = [Phrase(Reason.SYNTH_THEN_NEEDS, side=sides[j].label, wavefronts=c.wavefronts[j], ideal=ideal[j])
                 for j in range(len(sides)) if j != i and c.wavefronts[j] is not None and c.wavefronts[j] > ideal[j]]
        if broken or worse:
            out.append(Phrase(Reason.SYNTH_ALONE_BUT, side=s.label, swizzle=str(c.swizzle), why=_joined(broken + worse)))
    return tuple(out)
