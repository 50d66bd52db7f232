"""``bank_conflicts(tiled_copy, smem_layout)``: the shared-memory side of a TiledCopy.

The copy atom decides the instruction (see :func:`atom_instruction`); the
TiledCopy's source or destination TV layout (``get_layoutS_TV`` /
``get_layoutD_TV``: (thread, value) -> tile coordinate) decides the lanes'
addresses; ``smem_layout`` is tiled by ``Tiler_MN`` as ``zipped_divide`` does,
so a smem tile larger than the copy's tile is covered rest tile by rest tile
(each rest tile is more instructions of the same warps).
"""

from __future__ import annotations

import re
import weakref

import numpy as np

from ..core import int_tuple as it
from ..errors import LayoutError
from . import model
from .addresses import bit_addresses, element_offsets
from .shared import SharedAccess, VectorWidth, _as_layout, analyse, max_vector


def atom_kind(atom) -> tuple:
    """``(family, detail)`` of a copy atom: ('matrix', (op, num, trans)), ('cp.async', (bytes, cache)),
    ('universal', bits), ('autovec', max_bits) or ('none', why)."""
    name = atom.name
    m = re.match(r"SM(75|90)_U(32|16)x(\d)_(LDSM|STSM)_(N|T)$", name)
    if m:
        op = "ld" if m.group(4) == "LDSM" else "st"
        per = int(m.group(3))
        num = per if m.group(2) == "32" else per // 2
        return "matrix", (op, num, m.group(5) == "T")
    m = re.match(r"SM80_CP_ASYNC_CACHE(ALWAYS|GLOBAL)(_ZFILL)?<", name)
    if m:
        bits = int(re.search(r"\((\d+) bits\)", atom.ptx).group(1))
        return "cp.async", (bits // 8, "ca" if m.group(1) == "ALWAYS" else "cg")
    if name.startswith("UniversalCopy<"):
        return "universal", int(re.search(r"\((\d+) bits\)", atom.ptx).group(1))
    m = re.search(r"up to (\d+) bits", atom.ptx)
    if m:
        return "autovec", int(m.group(1))
    return "none", f"{name} moves registers ({atom.ptx}) and does not access shared memory"


def default_side(atom) -> str:
    """Which side of the copy is shared memory: 'S' for ldmatrix and plain copies (smem -> registers),
    'D' for stmatrix and cp.async."""
    fam, det = atom_kind(atom)
    if fam == "matrix":
        return "S" if det[0] == "ld" else "D"
    if fam == "cp.async":
        return "D"
    return "S"


# The TV layout of a TiledCopy's side and its lanes' names, per TiledCopy: a copy analysed over several smem
# layouts (a kernel's stages, a search over swizzles) computes them once.  Weak keys: a dropped TiledCopy
# drops its entry; the entry remembers the fields it was computed from and is recomputed if one changed.
_TV_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _side_tv(tiled_copy, side: str):
    """``(tv, names)``: ``get_layout{side}_TV()`` and the flat thread names of it (for the witness)."""
    from ..atoms import tv_names
    key = (side, tiled_copy.atom, tiled_copy.layout_tv, tiled_copy.tiler_mn)
    try:
        entries = _TV_CACHE.setdefault(tiled_copy, {})
    except TypeError:   # not weakly referenceable: no cache
        entries = {}
    hit = entries.get(side)
    if hit is not None and hit[0] == key:
        return hit[1], hit[2]
    tv = tiled_copy.get_layoutS_TV() if side == "S" else tiled_copy.get_layoutD_TV()
    names = it.flatten_to_tuple(tv_names(tiled_copy, side)[0])
    entries[side] = (key, tv, names)
    return tv, names


def _tile_bits(tiled_copy, smem_layout, value_bits: int, side: str) -> tuple:
    """``bits[t, v']``: bit addresses of thread t's values over every rest tile (v' = v + V * rest)."""
    tv, _names = _side_tv(tiled_copy, side)
    tiler = tiled_copy.tiler_mn
    if not (isinstance(tiler, tuple) and all(it.is_int(x) for x in tiler)) and not it.is_int(tiler):
        raise LayoutError(f"bank_conflicts: Tiler_MN {tiler} is not a tuple of integers")
    tile = tuple(tiler) if isinstance(tiler, tuple) else (tiler,)
    sshape = it.product_each(smem_layout.shape)
    if len(sshape) != len(tile):
        raise LayoutError(f"bank_conflicts: the smem layout {smem_layout} has rank {len(sshape)}, the copy's tile "
                          f"{tile} rank {len(tile)}")
    for s, t in zip(sshape, tile):
        if s % t:
            raise LayoutError(f"bank_conflicts: the smem layout's shape {sshape} is not a multiple of the copy's "
                              f"tile {tile}")
    nt, nv = tv[0].size(), tv[1].size()
    idx = np.arange(nt, dtype=np.int64)[:, None] + nt * np.arange(nv, dtype=np.int64)[None, :]
    tidx = element_offsets(tv, idx)                     # index into the tile (colexicographic)
    coords = []
    r = tidx
    for t in tile[:-1]:
        r, c = np.divmod(r, t)
        coords.append(c)
    coords.append(r)
    rests = [s // t for s, t in zip(sshape, tile)]
    nrest = int(np.prod(rests))
    rq = np.arange(nrest, dtype=np.int64)[None, :, None]   # the rest tiles in zipped_divide's order
    full = np.zeros((nt, nrest, nv), dtype=np.int64)
    mult = 1
    for c, t, n, s in zip(coords, tile, rests, sshape):   # every rest tile at once: [t, rest, v]
        rq, ri = np.divmod(rq, n)
        full += (c[:, None, :] + ri * t) * mult
        mult *= s
    return bit_addresses(smem_layout, value_bits, full).reshape(nt, nrest * nv), tv


def bank_conflicts(tiled_copy, smem_layout, side: str | None = None) -> SharedAccess:
    """Bank conflicts of ``tiled_copy``'s shared-memory side over ``smem_layout`` (any copy atom that touches
    shared memory, swizzled or not, any element type).

    ``side``: 'S' or 'D' (default: :func:`default_side`).  ldmatrix/stmatrix
    give one 16-byte row address per lane (8 per matrix); cp.async and
    UniversalCopy move their own width; AutoVectorizingCopy the widest
    contiguous vector up to its limit.
    @pre each thread's values of one instruction are contiguous and aligned in shared memory
    """
    from ..atoms import TiledCopy
    if not isinstance(tiled_copy, TiledCopy):
        raise LayoutError(f"bank_conflicts: expected a TiledCopy, got {tiled_copy!r}")
    atom = tiled_copy.atom
    fam, det = atom_kind(atom)
    if fam == "none":
        raise LayoutError(f"bank_conflicts: {det}")
    side = (side or default_side(atom)).upper()
    if side not in ("S", "D"):
        raise LayoutError(f"bank_conflicts: side must be 'S' or 'D', got {side!r}")
    smem_layout = _as_layout(smem_layout, "smem_layout", swizzled=True)
    from ..core import sizeof_bits
    vbits = sizeof_bits(atom.value_type)
    bits, tv = _tile_bits(tiled_copy, smem_layout, vbits, side)
    names = _side_tv(tiled_copy, side)[1]
    shape = it.flatten_to_tuple(tv.shape[0])
    instr, per = _instruction_of(tiled_copy, side, vbits, bits)
    fam, det = atom_kind(atom)
    if fam == "autovec":
        vec = max_vector(bits, vbits, det, f"{atom.name} vectorizes up to {det} bits")
    else:
        vec = VectorWidth(per * vbits, per, "atom", f"{atom.name} moves {per * vbits} bits per lane address")
    return analyse(bits, vbits, per, instr, names, shape, vec)


def _instruction_of(tiled_copy, side: str, vbits: int, bits) -> tuple:
    """``(instruction, values per access)`` of the atom on the shared-memory side, after checking that each
    thread's values of one access are contiguous and aligned there (CuTe's copy recasts them to one
    register of that width and cannot otherwise)."""
    atom = tiled_copy.atom
    fam, det = atom_kind(atom)
    where = f"Copy_Atom<{atom.name}, {atom.value_type}>"
    if fam == "autovec":
        vec = max_vector(bits, vbits, det, f"{atom.name} vectorizes up to {det} bits")
        return model.ld_st("ld" if side == "S" else "st", max(8, vec.bits)), vec.values
    if fam == "matrix":
        op, num, trans = det
        instr, need = model.matrix(op, num, trans), 128
    elif fam == "cp.async":
        instr, need = model.cp_async(*det), det[0] * 8
    else:
        instr, need = model.ld_st("ld" if side == "S" else "st", max(8, det)), det
    per = max(1, need // vbits)
    if per * vbits != need:
        raise LayoutError(f"bank_conflicts: {where}: {need}-bit accesses of {vbits}-bit values")
    vec = max_vector(bits, vbits, max(need, vbits))
    if vec.values < per:
        raise LayoutError(f"bank_conflicts: {where} needs each thread's {per} values of one access contiguous and "
                          f"aligned in shared memory ({need} bits), but {vec.detail}")
    return instr, per
