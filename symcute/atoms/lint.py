"""Lint: check that an atom's layouts describe the instruction they claim to, with counterexamples.

For an MMA atom, each TV layout ``(thread, value) -> q`` must map onto its tile
(``q = m + M*k`` for A, ``n + N*k`` for B, ``m + M*n`` for C):

* ``threads``: its thread mode has ``size(ThrID)`` threads, and ThrID is injective;
* ``range``: every ``q`` lies inside the tile;
* ``coverage``: every element of the tile is reached;
* ``multiplicity``: every element is reached by the same number of (thread, value)
  pairs (a broadcast repeats all elements alike); otherwise two pairs hitting one
  element, or an element no pair reaches, is the counterexample;
* broadcast axes (stride-0 sub-axes) are reported as information.

For a copy atom, the Src, Dst and Ref bit layouts must keep ``size(ThrID)``
threads and reach the same set of bits (the same number of bits moved).
Layouts are evaluated with numpy once per distinct (layout, tile); stride-0
modes are factored out first, so the whole catalog lints in well under a second.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ..core import Layout
from ..core import int_tuple as it
from ..errors import LayoutError, LimitError
from .mma_atom import MMAAtom
from .operand import OPERANDS

_AXES = {**{o.name: o.axes for o in OPERANDS.values()}, "E": ("m", "k"), "SFA": ("m", "k"), "SFB": ("n", "k")}
# the further layouts of sparse / block-scaled traits and the tile each maps onto: ELayout (the sparsity
# metadata) and SFALayout onto A's (M,K), SFBLayout onto B's (N,K)
_EXTRA = {"ELayout": ("E", 0, 2), "SFALayout": ("SFA", 0, 2), "SFBLayout": ("SFB", 1, 2)}
MAX_ELEMENTS = 1 << 24


@dataclass(frozen=True)
class Finding:
    """One failed check: which operand, what failed, and a concrete counterexample."""
    operand: str
    check: str
    message: str
    counterexample: str = ""
    known_upstream: bool = False

    def __str__(self) -> str:
        tag = " [known upstream defect]" if self.known_upstream else ""
        ce = f"; counterexample: {self.counterexample}" if self.counterexample else ""
        return f"{self.operand}: {self.check}: {self.message}{ce}{tag}"


@dataclass(frozen=True)
class LintReport:
    """The findings for one atom; ``ok`` when there are none (known upstream defects count)."""
    atom: str
    findings: tuple = ()
    broadcasts: tuple = ()     # informational: (operand, description)
    checked: tuple = field(default=())   # operands that were checked

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def known_upstream(self) -> tuple:
        return tuple(f for f in self.findings if f.known_upstream)

    def __str__(self) -> str:
        head = f"{self.atom}: {'ok' if self.ok else f'{len(self.findings)} finding(s)'}"
        lines = [head] + [f"  {f}" for f in self.findings]
        lines += [f"  {op}: broadcast: {d}" for op, d in self.broadcasts]
        return "\n".join(lines)


# --- evaluation --------------------------------------------------------------------------------------

def _flat(layout: Layout):
    return it.flatten_to_tuple(layout.shape), it.flatten_to_tuple(layout.stride)




def _offsets(shape: tuple, stride: tuple):
    """All offsets of the flat layout, in colexicographic input order (numpy int64)."""
    import numpy as np
    total = 1
    for s in shape:
        total *= s
    if total > MAX_ELEMENTS:
        raise LimitError(f"lint: a layout of {total} elements exceeds the limit of {MAX_ELEMENTS}")
    if any(s < 0 for s in shape):
        raise LayoutError(f"lint: layout {it.format_int_tuple(shape)}:{it.format_int_tuple(stride)} has a negative extent")
    if sum((s - 1) * abs(d) for s, d in zip(shape, stride)) >= 1 << 63:  # numpy's int64 would wrap silently
        raise LimitError(f"lint: the offsets of {it.format_int_tuple(shape)}:{it.format_int_tuple(stride)} do not fit in 64-bit integers")
    idx = np.arange(total, dtype=np.int64)
    out = np.zeros(total, dtype=np.int64)
    p = 1
    for s, d in zip(shape, stride):
        out += ((idx // p) % s) * d
        p *= s
    return out


@dataclass(frozen=True)
class _Analysis:
    size: int
    out_of_range: int | None      # first non-broadcast flat index out of range, or None
    unreached: int | None         # first unreached element
    min_count: int
    max_count: int
    max_element: int | None       # an element with the max count (when counts differ)
    min_element: int | None
    broadcast: int                # product of the stride-0 extents


@lru_cache(maxsize=4096)
def _analyse(layout: Layout, total: int) -> _Analysis:
    import numpy as np
    shape, stride = _flat(layout)
    for d in stride:
        if not isinstance(d, int):
            raise LayoutError(f"lint: layout {layout} has non-integer strides")
    bshape = tuple(s if d != 0 else 1 for s, d in zip(shape, stride))
    broadcast = 1
    for s, d in zip(shape, stride):
        if d == 0:
            broadcast *= s
    if total > MAX_ELEMENTS:  # counts below has one entry per tile element
        raise LimitError(f"lint: a tile of {total} elements exceeds the limit of {MAX_ELEMENTS}")
    off = _offsets(bshape, stride)
    bad = np.nonzero((off < 0) | (off >= total))[0]
    out_of_range = int(bad[0]) if bad.size else None
    inside = off[(off >= 0) & (off < total)]
    counts = np.bincount(inside, minlength=total)[:total] if total else np.zeros(0, dtype=np.int64)
    unreached = np.nonzero(counts == 0)[0]
    cmin, cmax = (int(counts.min()), int(counts.max())) if total else (0, 0)
    return _Analysis(off.size * broadcast, out_of_range, int(unreached[0]) if unreached.size else None,
                     cmin * broadcast, cmax * broadcast,
                     int(np.argmax(counts)) if cmin != cmax else None,
                     int(np.argmin(counts)) if cmin != cmax else None, broadcast)


def _pairs_hitting(layout: Layout, element: int, n: int = 2) -> list[tuple[int, int]]:
    """Up to n (thread, value) pairs that ``layout`` maps to ``element``."""
    import numpy as np
    shape, stride = _flat(layout)
    off = _offsets(shape, stride)
    hits = np.nonzero(off == element)[0][:n]
    nthr = layout[0].size()
    return [(int(i) % nthr, int(i) // nthr) for i in hits]


def _unflatten_index(layout: Layout, flat_bshape_index: int) -> tuple[int, int]:
    """(thread, value) of an index into the broadcast-free flat layout (broadcast coordinates 0)."""
    shape, stride = _flat(layout)
    idx, p, full, pfull = flat_bshape_index, 1, 0, 1
    for s, d in zip(shape, stride):
        bs = s if d != 0 else 1
        c = (idx // p) % bs
        full += c * pfull
        p *= bs
        pfull *= s
    nthr = layout[0].size()
    return full % nthr, full // nthr


# --- MMA atoms ---------------------------------------------------------------------------------------

def _element(op: str, q: int, rows: int) -> str:
    a, b = _AXES[op]
    return f"{op}({a}={q % rows},{b}={q // rows})"


def _broadcast_axes(op: str, layout: Layout) -> list[str]:
    out = []
    for mode, what in ((0, "thread"), (1, "value")):
        sub = layout[mode]
        shape, stride = _flat(sub)
        for j, (s, d) in enumerate(zip(shape, stride)):
            if d == 0 and s > 1:
                out.append(f"{what} sub-axis {j} (extent {s}) has stride 0: "
                           f"each {op} element is held by {s} {what}s along it")
    return out


def _lint_tv(op: str, layout: Layout, rows: int, cols: int, nthr: int) -> tuple[list, list]:
    findings, broadcasts = [], []
    if layout[0].size() != nthr:
        findings.append(Finding(op, "threads", f"the thread mode of {layout} has {layout[0].size()} threads but "
                                f"ThrID has {nthr}", f"thread index {min(layout[0].size(), nthr)}"))
    total = rows * cols
    a = _analyse(layout, total)
    if a.out_of_range is not None:
        t, v = _unflatten_index(layout, a.out_of_range)
        findings.append(Finding(op, "range", f"{layout} maps outside the {rows}x{cols} tile",
                                f"(t={t},v={v}) -> {layout((t, v))} >= {total}"))
    if a.unreached is not None:
        findings.append(Finding(op, "coverage", f"{layout} does not reach every element of the {rows}x{cols} tile",
                                f"{_element(op, a.unreached, rows)} (q={a.unreached}) is reached by no "
                                f"(thread, value) pair"))
    if a.min_count != a.max_count:
        pairs = _pairs_hitting(layout, a.max_element)
        low = (f"{_element(op, a.min_element, rows)} by none" if a.min_count == 0 else
               f"{_element(op, a.min_element, rows)} only {a.min_count} time(s)")
        findings.append(Finding(op, "multiplicity",
                                f"elements of the tile are reached by different numbers of (thread, value) pairs "
                                f"({a.min_count} to {a.max_count})",
                                f"{_element(op, a.max_element, rows)} is reached {a.max_count} times, e.g. by "
                                + " and ".join(f"(t={t},v={v})" for t, v in pairs) + f"; {low}"))
    broadcasts += [(op, d) for d in _broadcast_axes(op, layout)]
    return findings, broadcasts


def lint_mma_atom(atom) -> LintReport:
    """Check an MMA atom (catalogued name or a user-built MMAAtom); see the module docstring.

    @result LintReport with ``ok``, ``findings`` (operand, check, message, counterexample) and broadcasts
    """
    from .mma_lookup import mma_atom
    atom = mma_atom(atom)
    if not isinstance(atom, MMAAtom):
        raise LayoutError(f"lint_mma_atom: expected an MMA atom, got {atom!r}")
    findings, broadcasts, checked = [], [], []
    nthr = atom.thr_id.size()
    findings += _lint_thr_id(atom.thr_id)
    known = {d.operand for d in atom.defects}
    for d in atom.defects:
        findings.append(Finding(d.operand, "upstream", d.what, d.counterexample, known_upstream=True))
    for op in OPERANDS:
        layout = getattr(atom, op.lower() + "_layout")
        if layout is None:
            continue
        rows, cols = atom.tile_shape(op)
        f, b = _lint_tv(op, layout, rows, cols, nthr)
        if op in known:  # the catalog already records this operand as defined wrongly upstream
            f = [Finding(x.operand, x.check, x.message, x.counterexample, known_upstream=True) for x in f]
        findings += f
        broadcasts += b
        checked.append(op)
    for trait, layout in atom.extra_layouts:
        if trait not in _EXTRA:
            continue
        tag, i, j = _EXTRA[trait]
        f, b = _lint_tv(tag, layout, atom.shape_mnk[i], atom.shape_mnk[j], nthr)
        findings += f
        broadcasts += b
        checked.append(tag)
    return LintReport(atom.name, tuple(findings), tuple(broadcasts), tuple(checked))


def _lint_thr_id(thr_id: Layout) -> list:
    import numpy as np
    shape, stride = _flat(thr_id)
    off = _offsets(shape, stride)
    uniq, first, counts = np.unique(off, return_index=True, return_counts=True)
    if (counts > 1).any():
        dup = uniq[np.argmax(counts > 1)]
        ids = np.nonzero(off == dup)[0][:2]
        return [Finding("ThrID", "injective", f"ThrID {thr_id} maps two logical threads to one thread index",
                        f"logical threads {int(ids[0])} and {int(ids[1])} -> thread {int(dup)}")]
    return []


# --- copy atoms --------------------------------------------------------------------------------------

def lint_copy_atom(atom) -> LintReport:
    """Check a copy atom: Src, Dst and Ref keep size(ThrID) threads and reach the same bits."""
    import numpy as np
    from .copy_atom import CopyAtom
    from .copy_catalog import copy_atom
    if not isinstance(atom, CopyAtom):
        atom = copy_atom(atom)
    findings, broadcasts = [], []
    nthr = atom.thr_id.size()
    findings += _lint_thr_id(atom.thr_id)
    images = {}
    for role, lay in (("Src", atom.src_layout), ("Dst", atom.dst_layout), ("Ref", atom.ref_layout)):
        if lay[0].size() != nthr:
            findings.append(Finding(role, "threads", f"the thread mode of {lay} has {lay[0].size()} threads but "
                                    f"ThrID has {nthr}", f"thread index {min(lay[0].size(), nthr)}"))
        images[role] = _bit_image(lay)
        broadcasts += [(role, d.replace(" element", " bit")) for d in _broadcast_axes(role, lay)]
    ref = images["Ref"]
    for role in ("Src", "Dst"):
        img = images[role]
        lay = atom.src_layout if role == "Src" else atom.dst_layout
        spread = _value_broadcast(lay)
        if (spread > 1 and img.size * spread == ref.size and np.isin(img, ref, assume_unique=True).all()
                and images["Src" if role == "Dst" else "Dst"].size == ref.size):
            # a multicast: the stride-0 value sub-axes of this side spread each bit over `spread` bits of the
            # other side (SM100_UTCCP_4x32dp / 2x64dp refresh all four / both TMEM sub-partitions at once:
            # "the stride of the third mode in the SrcLayout must be zero", copy_traits_sm100.hpp)
            broadcasts.append((role, f"{role} reaches {img.size} distinct bits and Ref {ref.size}: each {role} bit "
                                     f"is copied to {spread} bits (stride-0 value sub-axes)"))
            continue
        if img.size != ref.size or not np.array_equal(img, ref):
            extra = np.setdiff1d(img, ref)
            missing = np.setdiff1d(ref, img)
            ce = (f"bit {int(extra[0])} is reached by {role} but not by Ref" if extra.size else
                  f"bit {int(missing[0])} is reached by Ref but not by {role}")
            findings.append(Finding(role, "size", f"{role} reaches {img.size} distinct bits, Ref {ref.size}", ce))
    return LintReport(atom.name, tuple(findings), tuple(broadcasts), ("Src", "Dst", "Ref"))


@lru_cache(maxsize=1024)
def _bit_image(layout: Layout):
    """The sorted distinct offsets of ``layout`` (stride-0 modes factored out; a mask, not a sort, finds them)."""
    import numpy as np
    shape, stride = _flat(layout)
    bshape = tuple(s if d != 0 else 1 for s, d in zip(shape, stride))
    off = _offsets(bshape, stride)
    if off.size and off.min() >= 0 and off.max() < (1 << 26):
        mask = np.zeros(int(off.max()) + 1, dtype=bool)
        mask[off] = True
        out = np.flatnonzero(mask)
    else:
        out = np.unique(off)
    out.flags.writeable = False
    return out


def _value_broadcast(layout: Layout) -> int:
    """The product of the extents of the stride-0 sub-axes of the value mode."""
    shape, stride = _flat(layout[1])
    out = 1
    for s, d in zip(shape, stride):
        if d == 0:
            out *= s
    return out


def lint_catalog(extended: bool = True, progress=None) -> list[LintReport]:
    """Lint every catalogued MMA atom (each GMMA family member once) and every copy atom.

    ``progress(done, total)``, when given, is called after each atom (the CLI draws a bar with it).
    """
    from .copy_catalog import copy_atoms
    from .mma_lookup import mma_atoms
    work = [(lint_mma_atom, e.atom) for e in mma_atoms(extended=extended)]
    work += [(lint_copy_atom, a) for a in copy_atoms()]
    reports = []
    for k, (lint, atom) in enumerate(work, 1):
        reports.append(lint(atom))
        if progress is not None:
            progress(k, len(work))
    return reports
