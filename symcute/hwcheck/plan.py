"""What a hardware check runs: cases (an instruction and the layouts claimed for it) and their inputs.

A :class:`Case` pairs one real instruction (CuTe's ``MMA_Op`` struct, e.g.
``SM80_16x8x16_F16F16F16F16_TN``, whose ``fma`` issues the PTX) with an
:class:`MMAAtom` whose layouts are being checked: the catalogued atom itself,
a user's own layouts on top of the same instruction, or the corrected form of
an upstream defect.  :func:`make_inputs` draws the register fragments of every
trial deterministically from a seed, so a manifest regenerates them exactly.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from ..core import Layout
from ..errors import LayoutError, SymcuteError
from .model import OperandMap, operand_map
from .values import SplitMix64, pack, value_type
from ..atoms.mma_atom import MMAAtom
from ..atoms.operand import OPERANDS
from ..atoms.mma_catalog import WARP_ATOMS
from ..atoms.mma_lookup import mma_atom

LANES = 32
WARPGROUP = 128
DEFAULT_ARCH = "sm_90a"

# Layouts CuTe gets wrong, as corrected here (upstream text -> corrected layout), per atom and operand.
# The 16x8x128 b1 A layout: the value mode's stride must be (16,8), as in the 16x8x256 atom's first two modes.
# The 16x8x32 s4/u4 B layout ((4,8),8):((32,1),8) sends (t0=1, v=0) and (t0=0, v=4) to one element; PTX's
# m16n8k32 .s4 B fragment holds k = 8*(lane%4) + i, n = lane/4, i.e. stride 64 for t0 (as in the 8x8x32 atom).
CORRECTIONS = {
    ("SM80_16x8x128_S32U1U1S32_TN_XORPOPC", "A"): "((4,8),(32,2)):((512,1),(16,8))",
    ("SM80_16x8x128_S32U1U1S32_TN_ANDPOPC", "A"): "((4,8),(32,2)):((512,1),(16,8))",
}
CORRECTIONS.update({(f"SM80_16x8x32_S32{a}{b}S32_TN{sat}", "B"): "((4,8),8):((64,1),8)"
                    for a in ("S4", "U4") for b in ("S4", "U4") for sat in ("", "_SATURATE")})


@dataclass(frozen=True)
class Case:
    """One hardware check: run ``instruction`` and test ``atom``'s layouts against what it computes.

    ``kind`` is 'catalog' (the catalogued atom as CuTe defines it), 'user'
    (a user's layouts on a catalogued instruction) or 'corrected' (a known
    upstream defect, corrected).
    """
    label: str
    instruction: str
    atom: MMAAtom
    kind: str = "catalog"
    note: str = ""

    @property
    def threads(self) -> int:
        return self.atom.thr_id.size()

    @property
    def warpgroup(self) -> bool:
        """A GMMA (wgmma) case: 128 threads, B (and A for SS) read from shared memory by descriptor."""
        return self.instruction not in WARP_ATOMS

    @property
    def block_threads(self) -> int:
        """Threads of the launch: one warp, or one warpgroup for GMMA."""
        return WARPGROUP if self.warpgroup else LANES

    def smem_operands(self) -> tuple:
        """Operands the instruction reads from shared memory (the atom's fragment type is a descriptor)."""
        return tuple(op for op in ("A", "B") if getattr(self.atom, "frg_type_" + op.lower()) is not None)

    def tile_bytes(self, operand: str) -> int:
        M, N, K = self.atom.shape_mnk
        count = {"A": M * K, "B": N * K}[operand.upper()]
        return (count * self.value_type(operand).bits + 7) // 8

    def trial_bytes(self, operand: str) -> int:
        """Bytes of one trial's input for ``operand``: a shared-memory tile, or every thread's registers."""
        op = operand.upper()
        if op in self.smem_operands():
            return self.tile_bytes(op)
        return self.block_threads * self.reg_bytes(op)

    def values(self, operand: str) -> int:
        return self.atom.layout(operand)[1].size()

    def lanes(self) -> list:
        """The physical lane of each logical thread (``thr_id``)."""
        return [self.atom.thr_id(t) for t in range(self.threads)]

    def value_type(self, operand: str):
        op = operand.upper()
        if op == "D":
            return value_type(self.atom.val_type_d or self.atom.val_type_c, "C")
        return value_type(self.atom.val_type(op), op)

    def reg_bytes(self, operand: str) -> int:
        """Bytes of one lane's register array for ``operand`` (D holds C's values in D's type)."""
        op = operand.upper()
        bits = self.value_type(op).bits * self.values("C" if op == "D" else op)
        return (bits + 7) // 8

    def operand_maps(self) -> dict:
        M, N, K = self.atom.shape_mnk
        tiles = {"A": M * K, "B": N * K, "C": M * N}
        return {op: operand_map(op, self.atom.layout(op), self.threads, self.values(op), tiles[op])
                for op in OPERANDS if op not in self.smem_operands()}

    def arithmetic(self) -> str:
        if self.instruction.endswith("_XORPOPC"):
            return "xor"
        d_kind = self.value_type("D").kind
        if d_kind == "gauss":
            return "gauss"
        return "complex" if d_kind == "complex" else "real"


# ---- which instructions a target runs ---------------------------------------------------------

_MIN_CC = {"SM61": 61, "SM70": 70, "SM75": 75, "SM80": 80, "SM89": 89, "SM90": 90}


def target_cc(arch: str) -> int:
    m = re.fullmatch(r"sm_?(\d+)a?", arch.strip().lower())
    if not m:
        raise SymcuteError(f"hwcheck: target {arch!r} is not of the form sm_90a / sm_80")
    return int(m.group(1))


# CuTe compiles its b1 XOR wrappers only up to sm_89, but ptxas (CUDA 13.0) assembles mma .xor.popc for
# sm_90a: the check defines the guard in device code so that CuTe's own wrapper text runs on Hopper too.
FORCE_B1_XOR = True
B1_XOR_GUARD = "CUTE_ARCH_MMA_B1_XOR_SM80_ENABLED"


def forced_guard(name: str, arch: str = DEFAULT_ARCH) -> str:
    """The CuTe guard macro the program defines to run ``name`` on ``arch`` ('' when none is needed)."""
    if FORCE_B1_XOR and name.endswith("_XORPOPC") and target_cc(arch) > 89:
        return B1_XOR_GUARD
    return ""


def guard_note(name: str, arch: str = DEFAULT_ARCH) -> str:
    g = forced_guard(name, arch)
    return (f"CuTe's guard {g} defined in device code: CuTe enables this wrapper only up to sm_89"
            if g else "")


def unsupported_reason(name: str, arch: str = DEFAULT_ARCH) -> str | None:
    """Why CuTe's wrapper of instruction ``name`` cannot run on ``arch`` (None when it can)."""
    cc = target_cc(arch)
    if name not in WARP_ATOMS:
        if not name.startswith("SM90_64x"):
            return f"{name} is neither an mma.sync nor a GMMA atom of the catalog"
        if cc != 90 or not arch.strip().lower().endswith("a"):
            return f"GMMA (wgmma) needs the arch-specific target sm_90a, not {arch}"
        return None
    family = name[:4]
    if cc < _MIN_CC.get(family, 10 ** 6):
        return f"{family.lower()} instruction, target {arch} is older"
    if name.endswith("_XORPOPC") and cc > 89 and not FORCE_B1_XOR:
        return ("CuTe defines CUTE_ARCH_MMA_B1_XOR_SM80_ENABLED only for __CUDA_ARCH__ <= 890 "
                "(cute/arch/mma_sm80.hpp): the wrapper has no code for this target")
    if name.endswith("_ANDPOPC") and cc > 90:
        return "CuTe defines CUTE_ARCH_MMA_B1_AND_SM80_ENABLED only for __CUDA_ARCH__ <= 900"
    if name == "SM61_DP2A":
        return ("CuTe's wrapper issues 'dp2a.s32.s32' without the .lo/.hi mode that PTX requires; "
                "ptxas (CUDA 13.0) rejects it: \".hi/.lo' modifier required for instruction 'dp2a'\"")
    return None


# ---- building cases -------------------------------------------------------------------------------

def catalog_cases(names, arch: str = DEFAULT_ARCH) -> tuple[list, list]:
    """Cases for catalogued atoms: (cases, skipped) where skipped holds (name, reason).

    An atom with an upstream defect that leaves a layout undefined is run with
    the corrected layout (kind 'corrected') when one is known.
    """
    cases, skipped = [], []
    for name in names:
        atom = mma_atom(name)
        reason = unsupported_reason(atom.name, arch)
        if reason:
            skipped.append((atom.name, reason))
            continue
        if any(getattr(atom, op.lower() + "_layout") is None for op in OPERANDS):
            fixed = corrected_atom(atom)
            if fixed is None:
                skipped.append((atom.name, "an upstream layout is malformed and no correction is known"))
            else:
                cases.append(Case(fixed.name, atom.name, fixed, "corrected", guard_note(atom.name, arch)))
            continue
        cases.append(Case(atom.name, atom.name, atom, "catalog", guard_note(atom.name, arch)))
        fixed = corrected_atom(atom)
        if fixed is not None:
            cases.append(Case(fixed.name, atom.name, fixed, "corrected", guard_note(atom.name, arch)))
    return cases, skipped


def corrected_atom(atom: MMAAtom) -> MMAAtom | None:
    """The atom with its known upstream defects corrected (None when nothing is known to correct)."""
    fixes = {op: text for (name, op), text in CORRECTIONS.items() if name == atom.name}
    for d in atom.defects:
        text = getattr(d, "corrected", None) or getattr(d, "correction", None)
        if text and d.operand not in fixes:
            fixes[d.operand] = str(text)
    if not fixes:
        return None
    return derive_atom(atom, name=f"{atom.name}[corrected]", **{op.lower(): t for op, t in fixes.items()})


def derive_atom(base: MMAAtom, name: str, a=None, b=None, c=None, thr_id=None) -> MMAAtom:
    """An MMAAtom on ``base``'s instruction with some layouts replaced (CuTe notation or Layout)."""
    return MMAAtom(name, base.shape_mnk, thr_id if thr_id is not None else base.thr_id,
                   a if a is not None else base.a_layout, b if b is not None else base.b_layout,
                   c if c is not None else base.c_layout,
                   base.val_type_d, base.val_type_a, base.val_type_b, base.val_type_c,
                   header=base.header, ptx=base.ptx, arch=base.arch,
                   frg_type_a=base.frg_type_a, frg_type_b=base.frg_type_b)


def user_case(atom: MMAAtom, base: str | MMAAtom | None = None, arch: str = DEFAULT_ARCH) -> Case:
    """A case testing a user-defined atom on the instruction of catalogued atom ``base``.

    ``base`` defaults to the atom's own name when that names a catalogued
    instruction.  The user atom must match the instruction: same Shape_MNK,
    value types, thread count and values per thread.
    """
    base_atom = mma_atom(base if base is not None else atom.name)
    reason = unsupported_reason(base_atom.name, arch)
    if reason:
        raise SymcuteError(f"hwcheck: instruction {base_atom.name} cannot run on {arch}: {reason}")
    if tuple(atom.shape_mnk) != tuple(base_atom.shape_mnk):
        raise LayoutError(f"hwcheck: user atom {atom.name!r} has Shape_MNK {atom.shape_mnk}, "
                          f"instruction {base_atom.name} computes {base_atom.shape_mnk}")
    types = ("d", "a", "b", "c")
    atom = MMAAtom(atom.name, atom.shape_mnk, atom.thr_id, atom.a_layout, atom.b_layout, atom.c_layout,
                   *[getattr(atom, "val_type_" + t) or getattr(base_atom, "val_type_" + t) for t in types],
                   header=atom.header or base_atom.header, ptx=atom.ptx or base_atom.ptx,
                   arch=atom.arch or base_atom.arch, frg_type_a=atom.frg_type_a, frg_type_b=atom.frg_type_b)
    for t in types:
        if getattr(atom, "val_type_" + t) != getattr(base_atom, "val_type_" + t):
            raise LayoutError(f"hwcheck: user atom {atom.name!r} has ValType{t.upper()} "
                              f"{getattr(atom, 'val_type_' + t)}, instruction {base_atom.name} uses "
                              f"{getattr(base_atom, 'val_type_' + t)}")
    ref = Case(base_atom.name, base_atom.name, corrected_atom(base_atom) or base_atom)
    case = Case(atom.name, base_atom.name, atom, "user", guard_note(base_atom.name, arch))
    if case.threads != ref.threads:
        raise LayoutError(f"hwcheck: user atom {atom.name!r} has {case.threads} threads (thr_id {atom.thr_id}); "
                          f"instruction {base_atom.name} runs on {ref.threads}")
    for op in OPERANDS:
        if case.values(op) != ref.values(op):
            raise LayoutError(f"hwcheck: user atom {atom.name!r}: the {op} layout {atom.layout(op)} has "
                              f"{case.values(op)} values per thread; instruction {base_atom.name}'s "
                              f"{op} registers hold {ref.values(op)}")
    if any(not 0 <= lane < case.block_threads for lane in case.lanes()):
        raise LayoutError(f"hwcheck: user atom {atom.name!r}: thr_id {atom.thr_id} maps a thread outside "
                          f"the launch's threads 0..{case.block_threads - 1}")
    if case.smem_operands() != ref.smem_operands():
        raise LayoutError(f"hwcheck: user atom {atom.name!r} must read {'/'.join(ref.smem_operands()) or 'no'} "
                          f"operand(s) from shared memory, like instruction {base_atom.name}")
    case.operand_maps()   # layouts must evaluate on every (t, v)
    return case


# ---- inputs ---------------------------------------------------------------------------------------

@dataclass
class Inputs:
    """The register images of one case: ``regs[op][trial]`` is 32 lanes of bytes, and the fragments drawn."""
    regs: dict      # 'A'/'B'/'C' -> [trial] -> bytes (threads * reg_bytes, or a shared-memory tile)
    frags: dict     # 'A'/'B'/'C' -> [trial] -> frag[t][v] (the tile itself for a shared-memory operand)


def _stream(seed: int, label: str, trial: int, what: str) -> SplitMix64:
    h = hashlib.sha256(f"{seed}|{label}|{trial}|{what}".encode()).digest()
    return SplitMix64(int.from_bytes(h[:8], "little"))


def make_inputs(case: Case, seed: int, trials: int, maps: dict | None = None) -> Inputs:
    """Draw A, B, C tiles of small exact integers and load them into fragments through the case's layouts.

    A (t, v) outside the tile gets a random value of its own; lanes that no
    logical thread uses get zeros.
    """
    maps = maps or case.operand_maps()
    lanes = case.lanes()
    regs = {op: [] for op in "ABC"}
    frags = {op: [] for op in "ABC"}
    smem = case.smem_operands()
    for trial in range(trials):
        for op in "ABC":
            vt = case.value_type(op)
            rng = _stream(seed, case.label, trial, op)
            if op in smem:
                # a shared-memory operand is its tile (column-major), copied into smem by CuTe's layout
                M, N, K = case.atom.shape_mnk
                tile = [vt.draw(rng) for _ in range((M if op == "A" else N) * K)]
                regs[op].append(pack(tile, vt))
                frags[op].append(tile)
                continue
            omap: OperandMap = maps[op]
            tile = [vt.draw(rng) for _ in range(omap.tile)]
            frag = [[tile[i] if 0 <= i < omap.tile else vt.draw(rng) for i in row] for row in omap.index]
            nbytes = case.reg_bytes(op)
            image = bytearray(case.block_threads * nbytes)
            for t, lane in enumerate(lanes):
                image[lane * nbytes:(lane + 1) * nbytes] = pack(frag[t], vt)
            regs[op].append(bytes(image))
            frags[op].append(frag)
    return Inputs(regs, frags)


# ---- canonical text (manifests and evidence) --------------------------------------------------------

def atom_spec(atom: MMAAtom) -> dict:
    """The atom as plain data: everything the check depends on, in CuTe notation."""
    return {
        "name": atom.name,
        "shape_mnk": list(atom.shape_mnk),
        "thr_id": str(atom.thr_id),
        "a_layout": str(atom.a_layout),
        "b_layout": str(atom.b_layout),
        "c_layout": str(atom.c_layout),
        "val_types": [atom.val_type_d, atom.val_type_a, atom.val_type_b, atom.val_type_c],
        **({"frg_types": [atom.frg_type_a, atom.frg_type_b]} if atom.frg_type_a or atom.frg_type_b else {}),
    }


def atom_from_spec(spec: dict) -> MMAAtom:
    d, a, b, c = spec["val_types"]
    fa, fb = spec.get("frg_types", (None, None))
    return MMAAtom(spec["name"], tuple(spec["shape_mnk"]), Layout.parse(spec["thr_id"]),
                   spec["a_layout"], spec["b_layout"], spec["c_layout"], d, a, b, c, frg_type_a=fa, frg_type_b=fb)


def fingerprint(atom: MMAAtom) -> str:
    """sha256 of the canonical text of the atom's shape, thr_id, A/B/C layouts and value types."""
    s = atom_spec(atom)
    text = (f"shape_mnk={tuple(s['shape_mnk'])};thr_id={s['thr_id']};A={s['a_layout']};B={s['b_layout']};"
            f"C={s['c_layout']};types={','.join(str(t) for t in s['val_types'])}")
    return hashlib.sha256(text.encode()).hexdigest()
