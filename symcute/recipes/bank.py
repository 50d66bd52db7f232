"""The bank-conflict recipe: one TiledCopy's shared-memory side over one smem layout, every lane explained.

Records the TiledMMA / TiledCopy construction (CuTe's chain), then adds what
a reader needs: the lane address as a formula over the TV layout's named
sub-axes, the bank bits (address bits 2..6) as XORs of those sub-axes where
the map is F2-linear, the per-phase bank table of the worst instruction, the
witness (lanes, named sub-axes, bank, addresses), the exact totals with the
method used, and the fix (the swizzle synthesis over the smem tile's
unswizzled layout).  Every number is computed by ``symcute.memory``.
"""

from __future__ import annotations

from ..atoms.operand import get_operand
from ..core import ComposedLayout, Layout, composition
from ..core import int_tuple as it
from ..core.composed import SmemPtrFlag
from ..errors import SymcuteError
from ..trace.derivation import Derivation
from .records_memory import (BankAddress, BankBitRow, BankCertificate, BankConfiguration, BankFix, BankPhases,
                             BankReason, BankResult, BankWitness, InstructionCount, PhaseRow, SwizzleCost,
                             SwizzleUnit, WitnessLane, WordLanes)
from .steps import _atom_layout, _jsonable, add_table

BANK_SEED = {"mma": "SM80_16x8x16_F16F16F16F16_TN", "atom_layout": (2, 2, 1), "operand": "A",
             "copy_atom": "SM75_U32x4_LDSM_N", "value_type": "half_t", "smem": "(32,64):(64,1)"}


def build_copy(mma, atom_layout, operand, copy_atom, value_type, permutations=None):
    from ..atoms import copy_atom as lookup, make_tiled_copy_A, make_tiled_copy_B, make_tiled_copy_C, make_tiled_mma
    op = get_operand(str(operand)).name
    tiled = make_tiled_mma(mma, _atom_layout(atom_layout), permutations)
    make = {"A": make_tiled_copy_A, "B": make_tiled_copy_B, "C": make_tiled_copy_C}[op]
    return tiled, make(lookup(copy_atom, value_type), tiled)


def resolve_smem(smem, value_type, tile):
    """A smem layout from text: CuTe notation, or a layout atom ``GMMA::Layout_K_SW128_Atom[@MxN]`` tiled by
    ``tile_to_shape`` to ``MxN`` (default: each mode the larger of the copy's tile and the atom)."""
    from ..core import parse_layout, tile_to_shape
    if isinstance(smem, (Layout, ComposedLayout)):
        return smem
    text = str(smem)
    if text.startswith(("GMMA::", "UMMA::")):
        from ..atoms.smem_layouts import smem_layout_atom
        name, _, shape = text.partition("@")
        atom = smem_layout_atom(name, value_type)
        if shape:
            try:
                target = tuple(int(x) for x in shape.lower().split("x"))
            except ValueError:
                raise SymcuteError(f"smem {text!r}: the shape after @ must be MxN, e.g. @32x64") from None
        else:
            target = tuple(max(t, a) for t, a in zip(it.flatten_to_tuple(tile), it.product_each(atom.shape)))
        return tile_to_shape(atom, target)
    return parse_layout(text)


def _base(smem):
    """The unswizzled layout under a swizzle (the synthesis' search space), and the swizzle's unit."""
    if isinstance(smem, ComposedLayout) and isinstance(smem.inner, Layout):
        return smem.inner, (SwizzleUnit.BYTES if isinstance(smem.offset, SmemPtrFlag) else SwizzleUnit.ELEMENTS)
    if isinstance(smem, Layout):
        return smem, SwizzleUnit.ELEMENTS
    return None, None


def derive_bank(mma=BANK_SEED["mma"], atom_layout=BANK_SEED["atom_layout"], operand=BANK_SEED["operand"],
                copy_atom=BANK_SEED["copy_atom"], value_type=BANK_SEED["value_type"], smem=BANK_SEED["smem"],
                permutations=None, side=None) -> Derivation:
    """Bank conflicts of ``make_tiled_copy_<operand>(Copy_Atom<copy_atom, value_type>, TiledMMA)`` over
    ``smem`` (CuTe notation, swizzled or not, or a GMMA layout atom name tiled to the copy's tile)."""
    from .. import memory
    from ..atoms import tv_names
    d = Derivation(f"Bank conflicts of {copy_atom} for {operand} of {mma} over {smem}", recipe="bank",
                   mma=str(mma), atom_layout=list(_atom_layout(atom_layout)), operand=str(operand).upper(),
                   copy_atom=str(copy_atom), value_type=str(value_type), smem=str(smem),
                   permutations=_jsonable(permutations) if permutations else None,
                   side=None if side is None else str(side))   # the whole call: a reader derives it again
    with d:
        tiled, tc = build_copy(mma, atom_layout, operand, copy_atom, value_type, permutations)
        d.label(tc, "tiled_copy")
        role = (side or memory.default_side(tc.atom)).upper()
        tv = tc.get_layoutS_TV() if role == "S" else tc.get_layoutD_TV()
        d.label(tv, "TV")
    layout = resolve_smem(smem, value_type, tc.tiler_mn)
    res = memory.bank_conflicts(tc, layout, role)
    names = tv_names(tc, role)
    instr = res.instruction
    _table(d, "bank_configuration", BankConfiguration(
        atom=tc.atom.name, ptx=tc.atom.ptx, header=tc.atom.header, value_type=str(value_type),
        value_bits=res.value_bits, smem=str(layout), side=role, tiler=it.flatten_to_tuple(tc.tiler_mn), tv=str(tv),
        names=names, threads=res.threads, warps=res.warps, per_warp=res.instructions_per_warp, instruction=instr.name,
        lane_bytes=instr.lane_bytes, phase_lanes=instr.phase_lanes, phases=instr.phases,
        active_lanes=instr.active_lanes))
    _address(d, tc, tv, names, layout, res)
    w = res.witness
    addresses = res.addresses(w.warp, w.instruction)
    _table(d, "bank_phases", BankPhases(
        warp=w.warp, instruction=w.instruction,
        rows=tuple(PhaseRow(p.index, (p.lanes[0], p.lanes[-1]), p.wavefronts, p.ideal, p.bank, tuple(p.bank_words))
                   for p in res.phases(w.warp, w.instruction)),
        banks=tuple(None if a is None else (a // 4) % 32 for a in addresses),
        words=tuple(None if a is None else a // 4 for a in addresses)))
    lanes = [l for ls in w.lanes for l in ls]
    varying = [n for n, _ in lanes[0].axes if len({dict(l.axes).get(n) for l in lanes}) > 1] if lanes else []
    _table(d, "bank_witness", BankWitness(
        warp=w.warp, instruction=w.instruction, phase=w.phase, bank=w.bank, words=tuple(w.words),
        varying=tuple(varying),
        lanes=tuple(WordLanes(WitnessLane(l.lane, l.thread, tuple(tuple(a) for a in l.axes), l.byte_address)
                              for l in ls) for ls in w.lanes)))
    cert = res.certificate
    _table(d, "bank_result", BankResult(
        wavefronts=res.wavefronts, ideal=res.ideal_wavefronts, ways=res.ways, conflicts=res.conflicts,
        conflict_free=res.conflict_free, method=res.method,
        per_instruction=tuple(InstructionCount(*p) for p in res.per_instruction[:8]),
        instructions=len(res.per_instruction), notes=tuple(n.key for n in res.notes),
        certificate=None if cert is None else BankCertificate(tuple(cert.images), cert.dim_ker_bank,
                                                              cert.dim_ker_word, cert.wavefronts)))
    _fix(d, tc, layout, role, res)
    return d


def _table(d, kind: str, record) -> None:
    add_table(d, kind, **record.to_details())



def _address(d, tc, tv, names, layout, res) -> None:
    """The element offset as a formula of the named sub-axes, and the bank bits as XORs (where F2-linear)."""
    from .. import symbolic as sym
    base, unit = _base(layout)
    formula_text, bank_rows, note = None, [], None
    # the TV layout's values index the copy's tile (colexicographic over Tiler_MN), not the smem layout:
    # embed the tile's index as the smem tile's index of the same coordinate (as memory.copy does per lane)
    embed = _tile_embedding(tc.tiler_mn, layout)
    if base is not None:
        try:
            with d.paused():
                comp = composition(composition(base, embed), tv)
                f = sym.formula(comp, names)
            formula_text = str(f)
        except SymcuteError as e:
            note = str(e)
    try:
        if unit is not SwizzleUnit.ELEMENTS:
            raise _NoBankBits(BankReason.BITS_OF_BYTE_SWIZZLE)
        from ..symbolic.bits import bit_layout
        b = bit_layout(tv, names).then(embed).then(layout)
        shift = {8: 3, 16: 4, 32: 5, 64: 6, 128: 7}.get(res.value_bits)
        # element offset bit i is byte bit i + log2(bytes); the bank is byte bits 2..6
        lg = (res.value_bits // 8).bit_length() - 1 if res.value_bits >= 8 else None
        if shift is not None and lg is not None:
            for bank_bit in range(5):
                elem_bit = bank_bit + 2 - lg
                if elem_bit < 0:
                    bank_rows.append(BankBitRow(bank_bit, BankReason.INSIDE_ELEMENT))
                else:
                    bank_rows.append(BankBitRow(bank_bit, " ^ ".join(b.row_names(elem_bit)) or "0"))
    except _NoBankBits as e:
        note = note or e.reason
    except SymcuteError as e:
        note = note or str(e)
    _table(d, "bank_address", BankAddress(
        formula=formula_text, swizzle=str(layout.outer) if isinstance(layout, ComposedLayout) else None,
        swizzle_unit=unit, bank_bits=tuple(bank_rows), note=note,
        bytes_per_value=res.value_bits // 8 if res.value_bits >= 8 else None))


def _tile_embedding(tiler, smem) -> Layout:
    """The copy tile's index -> the smem tile's index of the same coordinate: ``Tiler_MN`` with the smem shape's
    column-major strides (the identity when the two shapes are equal)."""
    tile = it.flatten_to_tuple(tiler)
    sshape = it.product_each(smem.shape)
    strides, s = [], 1
    for n in sshape[:len(tile)]:
        strides.append(s)
        s *= n
    return Layout(tuple(tile), tuple(strides))


class _NoBankBits(Exception):
    """The bank bits are not a formula, for a reason of the recipe's own (not an error)."""

    def __init__(self, reason: BankReason):
        super().__init__(reason.value)
        self.reason = reason


def _fix(d, tc, layout, role, res) -> None:
    from ..memory.synth import copy_side, synthesize_swizzle
    base, unit = _base(layout)
    if base is None or unit is not SwizzleUnit.ELEMENTS:
        _table(d, "bank_fix", BankFix.none(BankReason.FIX_OF_BYTE_SWIZZLE if unit else BankReason.NO_BASE,
                                           current=str(layout)))
        return
    s = synthesize_swizzle(base, [copy_side(tc, base, side=role)])
    current = layout.outer if isinstance(layout, ComposedLayout) else None
    _table(d, "bank_fix", BankFix(
        searched=s.searched, best=str(s.best.swizzle), cost=s.best.total, ideal=sum(s.ideal),
        optimal=tuple(str(c.swizzle) for c in s.optimal)[:6],
        alternatives=tuple(SwizzleCost(str(c.swizzle), c.total) for c in s.alternatives)[:5],
        reasons=tuple(s.reasons), current=str(current) if current else None,
        current_optimal=bool(current is not None and s.is_optimal(current)) or
        (current is None and res.wavefronts == s.best.total), base=str(base), skipped=None))
