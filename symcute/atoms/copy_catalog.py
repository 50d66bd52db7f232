"""The copy atoms of CuTe 4.2 (``cute/atom/copy_traits*.hpp``) and ``copy_atom(name, value_type)``.

Fixed atoms are rows of data (ThrID, SrcLayout, DstLayout, RefLayout in bits,
and the PTX instruction); the SM100 rows (TMEM load/store, shared-to-TMEM
``SM100_UTCCP_*``, the sub-byte ``SM100_SU4/SU6_DU8x16_*_LDSM_N``, 8-bit
LDSM/STSM, 256-bit loads) come from ``copy_sm100_data`` (generated from the
header by ``tools/gen_copy_sm100.py``) and carry CuTe's ``ValID`` too.  The
templates ``UniversalCopy<S,D>``, ``SM80_CP_ASYNC_*<S,D>`` and
``AutoVectorizingCopyWithAssumedAlignment<N>`` are instantiated by the same
rules as their C++ templates, with their static_asserts.  TMA and bulk-copy
traits (``Copy_Traits<SM90_TMA_LOAD, NumBitsPerTMA, AuxParams>``) are covered as
far as their layouts go: one thread moving ``NumBitsPerTMA`` bits; the
descriptor that ``make_tma_copy`` builds from a tensor is not modelled.
"""

from __future__ import annotations

import difflib
import functools

from ..core import sizeof_bits
from ..errors import LayoutError, SymcuteError
from .copy_atom import CopyAtom, _type_text
from .mma_lookup import UnknownAtom
from .spelling import Spelled, last_component, read_spelling, strip_namespace, type_name

H = "cute/atom/copy_traits.hpp"
H50 = "cute/atom/copy_traits_sm50.hpp"
H75 = "cute/atom/copy_traits_sm75.hpp"
H80 = "cute/atom/copy_traits_sm80.hpp"
H90 = "cute/atom/copy_traits_sm90.hpp"

# ldmatrix layouts (bits): the source side gives one 128-bit row address per thread,
# the destination side is what each thread receives in registers
_LDSM = {
    "SM75_U32x1_LDSM_N": ("((8,4),128):((128,0),1)", "(32,32):(32,1)", "ldmatrix.sync.aligned.x1.m8n8.shared.b16"),
    "SM75_U32x2_LDSM_N": ("((16,2),128):((128,0),1)", "(32,(32,2)):(32,(1,1024))",
                          "ldmatrix.sync.aligned.x2.m8n8.shared.b16"),
    "SM75_U32x4_LDSM_N": ("(32,128):(128,1)", "(32,(32,4)):(32,(1,1024))", "ldmatrix.sync.aligned.x4.m8n8.shared.b16"),
    "SM75_U16x2_LDSM_T": ("((8,4),128):((128,0),1)", "((4,8),(16,2)):((256,16),(1,128))",
                          "ldmatrix.sync.aligned.x1.trans.m8n8.shared.b16"),
    "SM75_U16x4_LDSM_T": ("((16,2),128):((128,0),1)", "((4,8),(16,2,2)):((256,16),(1,128,1024))",
                          "ldmatrix.sync.aligned.x2.trans.m8n8.shared.b16"),
    "SM75_U16x8_LDSM_T": ("(32,128):(128,1)", "((4,8),(16,2,4)):((256,16),(1,128,1024))",
                          "ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16"),
}
_STSM = {  # stmatrix: the ldmatrix of the same shape with source and destination exchanged
    "SM90_U32x1_STSM_N": ("SM75_U32x1_LDSM_N", "stmatrix.sync.aligned.x1.m8n8.shared.b16"),
    "SM90_U32x2_STSM_N": ("SM75_U32x2_LDSM_N", "stmatrix.sync.aligned.x2.m8n8.shared.b16"),
    "SM90_U32x4_STSM_N": ("SM75_U32x4_LDSM_N", "stmatrix.sync.aligned.x4.m8n8.shared.b16"),
    "SM90_U16x2_STSM_T": ("SM75_U16x2_LDSM_T", "stmatrix.sync.aligned.x1.trans.m8n8.shared.b16"),
    "SM90_U16x4_STSM_T": ("SM75_U16x4_LDSM_T", "stmatrix.sync.aligned.x2.trans.m8n8.shared.b16"),
    "SM90_U16x8_STSM_T": ("SM75_U16x8_LDSM_T", "stmatrix.sync.aligned.x4.trans.m8n8.shared.b16"),
}


_MOVM_SHFL = {  # name: (SrcLayout, DstLayout, RefLayout, header, PTX, arch), ThrID 32:1
    "SM75_U32x1_MOVM_T": ("(32,32):(32,1)", "(32,32):(32,1)", "(32,32):(32,1)", H75,
                          "movmatrix.sync.aligned.m8n8.trans.b16", "sm75"),
    "SM50_Shuffle_U32_2x2Trans_XOR1": ("(32,64):(64,1)", "((2,16),(32,2)):((32,128),(1,64))", "(32,64):(64,1)", H50,
                                       "shfl.sync.bfly.b32 (lane ^ 1)", "sm50"),
    "SM50_Shuffle_U32_2x2Trans_XOR4": ("(32,64):(64,1)", "((4,2,4),(32,2)):((64,32,512),(1,256))", "(32,64):(64,1)",
                                       H50, "shfl.sync.bfly.b32 (lane ^ 4)", "sm50"),
}


@functools.cache
def _sm100_rows() -> dict:
    # the generated SM100 table, imported on the first lookup of a fixed atom
    from . import copy_sm100_data as sm100
    return {row[0]: row for row in sm100.ROWS}


def fixed_names() -> list[str]:
    """The fixed atoms' names, in the catalog's order (none is built to list them)."""
    return list(_LDSM) + list(_STSM) + list(_MOVM_SHFL) + list(_sm100_rows())


_BUILT: dict = {}


def _fixed_atom(name: str) -> CopyAtom | None:
    """The fixed atom ``name``, built (its layouts parsed) on its first lookup; None if there is none."""
    atom = _BUILT.get(name)
    if atom is not None:
        return atom
    if name in _LDSM:        # RefLayout = DstLayout
        src, dst, ptx = _LDSM[name]
        atom = CopyAtom(name, "32:1", src, dst, dst, header=H75, ptx=ptx, arch="sm75")
    elif name in _STSM:      # RefLayout = SrcLayout
        ldsm, ptx = _STSM[name]
        src, dst, _ = _LDSM[ldsm]
        atom = CopyAtom(name, "32:1", dst, src, dst, header=H90, ptx=ptx, arch="sm90")
    elif name in _MOVM_SHFL:
        src, dst, ref, header, ptx, arch = _MOVM_SHFL[name]
        atom = CopyAtom(name, "32:1", src, dst, ref, header=header, ptx=ptx, arch=arch)
    else:
        row = _sm100_rows().get(name)
        if row is None:
            return None
        from .copy_sm100_data import HEADER
        _, thr, val_id, src, dst, ref, ptx = row
        atom = CopyAtom(name, thr, src, dst, ref, header=HEADER, ptx=ptx, arch="sm100", val_id=val_id)
    _BUILT[name] = atom
    return atom


_ALL: dict = {}


def fixed_atoms() -> dict:
    """name -> CopyAtom for every fixed atom (one dict, built on the first call)."""
    if not _ALL:
        _ALL.update((name, _fixed_atom(name)) for name in fixed_names())
    return _ALL


def __getattr__(name: str):
    # FIXED, the whole table, is built when first read: importing the catalog parses no layout
    if name == "FIXED":
        return fixed_atoms()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# C++ spells the TMEM and UTCCP ops also with their namespaces
_NAMESPACES = ("SM100::TMEM::LOAD::", "SM100::TMEM::STORE::", "SM100::TMEM::UTCCP::")

HT = "cute/atom/copy_traits_sm90_tma.hpp"
HT100 = "cute/atom/copy_traits_sm100_tma.hpp"
# Copy_Traits<Op, NumBitsPerTMA, ...>: ThrID 1:0, Src = Dst = Ref = (1,NumBitsPerTMA):(0,1);
# value: (header, PTX, arch, number of further template arguments CuTe's partial specialisation takes)
TMA = {
    "SM90_TMA_LOAD": (HT, "cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes", "sm90", 1),
    "SM90_TMA_LOAD_MULTICAST": (HT, "cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes"
                                    ".multicast::cluster", "sm90", 1),
    "SM90_TMA_STORE": (HT, "cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group", "sm90", 1),
    "SM90_TMA_REDUCE_ADD": (HT, "cp.reduce.async.bulk.tensor.Nd.global.shared::cta.add.bulk_group", "sm90", 1),
    "SM90_BULK_COPY_G2S": (HT, "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes", "sm90", None),
    "SM90_BULK_COPY_S2G": (HT, "cp.async.bulk.global.shared::cta.bulk_group", "sm90", 0),
    "SM100_TMA_2SM_LOAD": (HT100, "cp.async.bulk.tensor.Nd.cta_group::2.shared::cluster.global.mbarrier::"
                                  "complete_tx::bytes", "sm100", 1),
    "SM100_TMA_2SM_LOAD_MULTICAST": (HT100, "cp.async.bulk.tensor.Nd.cta_group::2.shared::cluster.global."
                                            "mbarrier::complete_tx::bytes.multicast::cluster", "sm100", 1),
}
# families CuTe 4.2 has that this catalog does not model (their layouts need a tensor or a descriptor)
NOT_COVERED = ("SM90_TMA_LOAD_IM2COL", "SM90_TMA_LOAD_IM2COL_MULTICAST", "SM90_TMA_STORE_IM2COL",
               "SM100_TMA_2SM_LOAD_IM2COL", "SM100_TMA_2SM_LOAD_IM2COL_MULTICAST", "SM90_BULK_COPY_AUTO",
               "SM90_TMA_STORE_PTR", "SM90_TMA_LOAD_OP", "SM90_TMA_LOAD_MULTICAST_OP", "SM90_TMA_LOAD::PREFETCH")


def _tma(name: str, args: tuple, spelled: str) -> CopyAtom:
    header, ptx, arch, n_extra = TMA[name]
    if not args:
        raise LayoutError(f"{spelled}: {name} has no Copy_Traits<{name}> of its own: CuTe 4.2 specialises "
                          f"Copy_Traits<{name}, NumBitsPerTMA" + (", AuxParams" if n_extra else "")
                          + "> (built by make_tma_copy from a tensor); spell Copy_Traits<" + name
                          + ", Int<bits>" + (", AuxParams" if n_extra else "") + ">")
    bits = args[0]
    if isinstance(bits, Spelled) and last_component(bits.name) in ("Int", "C") and len(bits.args) == 1:
        bits = bits.args[0]
    elif isinstance(bits, Spelled) and bits.name.startswith("_") and bits.name[1:].isdigit():
        bits = int(bits.name[1:])
    if not isinstance(bits, int) or isinstance(bits, bool) or bits <= 0:
        raise LayoutError(f"{spelled}: NumBitsPerTMA must be a static positive integer (Int<N>), got {args[0]}")
    if n_extra is not None and len(args) - 1 != n_extra:
        raise LayoutError(f"{spelled}: Copy_Traits<{name}, NumBitsPerTMA" + (", AuxParams" if n_extra else "")
                          + f"> takes {1 + n_extra} arguments after the op, got {len(args)}")
    # the 2SM loads are issued for a CTA pair: ThrID 2:1, each "thread" moving its own NumBitsPerTMA bits
    lay = f"(2,{bits}):({bits},1)" if name.startswith("SM100_TMA_2SM") else f"(1,{bits}):(0,1)"
    text = f"Copy_Traits<{name},Int<{bits}>" + "".join("," + type_name(a) if not isinstance(a, int) else f",{a}"
                                                        for a in args[1:]) + ">"
    thr = "2:1" if name.startswith("SM100_TMA_2SM") else "1:0"
    return CopyAtom(text, thr, lay, lay, lay, header=header, ptx=ptx, arch=arch)

# template name -> (header, PTX, arch)
_TEMPLATES = {
    "UniversalCopy": (H, "ld/st of one S value (dst = src)", ""),
    "SM80_CP_ASYNC_CACHEALWAYS": (H80, "cp.async.ca.shared.global", "sm80"),
    "SM80_CP_ASYNC_CACHEGLOBAL": (H80, "cp.async.cg.shared.global", "sm80"),
    "SM80_CP_ASYNC_CACHEALWAYS_ZFILL": (H80, "cp.async.ca.shared.global (zero-fill)", "sm80"),
    "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL": (H80, "cp.async.cg.shared.global (zero-fill)", "sm80"),
}
_AUTOVEC = "AutoVectorizingCopyWithAssumedAlignment"
_AUTOVEC_ALIASES = {"AutoVectorizingCopy": 128, "DefaultCopy": 8}


def _sizeof(t: str) -> int:
    """C++ ``sizeof``: sub-byte types occupy one byte."""
    return max(1, sizeof_bits(t) // 8)


def _universal(tmpl: str, args: tuple, spelled: str) -> CopyAtom:
    if not args or len(args) > 2:
        raise LayoutError(f"{spelled}: {tmpl}<S, D = S> takes one or two value types")
    s = type_name(args[0])
    d = type_name(args[1]) if len(args) == 2 else s
    bs, bd = sizeof_bits(s), sizeof_bits(d)
    if tmpl == "UniversalCopy":
        if bs < 8 or bd < 8:
            raise LayoutError(f"{spelled}: UniversalCopy requires sizeof_bits_v<S> >= 8 and sizeof_bits_v<D> >= 8")
    else:
        if _sizeof(s) != _sizeof(d):
            raise LayoutError(f"{spelled}: cp.async requires sizeof(src_value_type) == sizeof(dst_value_type)")
        allowed = (16,) if tmpl.startswith("SM80_CP_ASYNC_CACHEGLOBAL") else (4, 8, 16)
        if _sizeof(s) not in allowed:
            raise LayoutError(f"{spelled}: cp.async sizeof(TS) is not supported (sizeof({s}) = {_sizeof(s)}, "
                              f"allowed {allowed})")
    header, ptx, arch = _TEMPLATES[tmpl]
    name = f"{tmpl}<{s}>" if d == s else f"{tmpl}<{s},{d}>"
    src, dst = f"(1,{bs}):(0,1)", f"(1,{bd}):(0,1)"
    return CopyAtom(name, "1:0", src, dst, src, header=header, ptx=f"{ptx} ({bs} bits)", arch=arch)


def _autovec(bits: int, spelled: str, name: str | None = None) -> CopyAtom:
    if bits not in (8, 16, 32, 64, 128):
        raise LayoutError(f"{spelled}: Expected MaxVecBits to be 8 or 16 or 32 or 64 or 128 for alignment and "
                          f"performance.")
    name = name or f"{_AUTOVEC}<{bits}>"
    return CopyAtom(name, "1:0", "(1,1):(0,0)", "(1,1):(0,0)", "(1,1):(0,0)", header=H,
                    ptx=f"auto-vectorized ld/st up to {bits} bits", arch="")


def _lookup(sp: Spelled, spelled: str, traits_args: tuple | None = None) -> CopyAtom:
    name = strip_namespace(sp.name)
    for ns in _NAMESPACES:
        if name.startswith(ns) and _fixed_atom(name[len(ns):]) is not None:
            name = name[len(ns):]
    if name in TMA:
        if sp.args:
            raise SymcuteError(f"{spelled}: {name} is not a template; its traits take the arguments")
        return _tma(name, traits_args or (), spelled)
    if traits_args:
        raise SymcuteError(f"{spelled}: CuTe defines no Copy_Traits<{name}, ...> with further arguments")
    if name in NOT_COVERED:
        raise UnknownAtom(f"copy atom {spelled!r}: the {name} family is in CuTe 4.2 but not covered by symcute "
                          f"(its layouts are built from a tensor and a TMA descriptor)")
    fixed = _fixed_atom(name)
    if fixed is not None:
        if sp.args:
            raise SymcuteError(f"{spelled}: {name} is not a template and takes no template arguments")
        return fixed
    if name in _TEMPLATES:
        return _universal(name, sp.args, spelled)
    if name in _AUTOVEC_ALIASES:
        return _autovec(_AUTOVEC_ALIASES[name], spelled, name)
    if name == _AUTOVEC:
        if len(sp.args) > 1 or (sp.args and not isinstance(sp.args[0], int)):
            raise LayoutError(f"{spelled}: {_AUTOVEC}<int MaxVecBits = 128> takes one integer")
        return _autovec(sp.args[0] if sp.args else 128, spelled)
    names = copy_operation_names()
    close = difflib.get_close_matches(name, names, n=4, cutoff=0.6)
    if not close and any(name.startswith(p) for p in ("SM100_TMEM", "SM100_UTCCP", "SM90_TMA", "SM100_TMA")):
        close = difflib.get_close_matches(name, names, n=4, cutoff=0.4)
    hint = f"; did you mean {', '.join(close)}?" if close else "; `symcute atoms --copy` lists the catalog"
    raise UnknownAtom(f"unknown copy atom {spelled!r}{hint}")


def copy_operation_names() -> list[str]:
    """Every copy operation name the catalog knows (fixed atoms, templates, auto-vectorizing aliases)."""
    return fixed_names() + list(_TEMPLATES) + list(_AUTOVEC_ALIASES) + [_AUTOVEC] + list(TMA)


def copy_atom(name, value_type=None) -> CopyAtom:
    """The copy atom spelled ``name`` (``"SM75_U32x2_LDSM_N"``, ``"UniversalCopy<uint128_t>"``,
    ``"Copy_Atom<SM75_U32x2_LDSM_N, half_t>"``), seen in values of ``value_type`` when given.

    @pre with a value type, each recast layout keeps size(ThrID) threads (CuTe's static_assert)
    """
    if isinstance(name, CopyAtom):
        atom = name
    else:
        sp = read_spelling(name)
        if strip_namespace(sp.name) == "Copy_Atom":
            if len(sp.args) != 2 or not isinstance(sp.args[0], Spelled):
                raise LayoutError(f"{name!r}: Copy_Atom<CopyOperation, ValType> takes two arguments")
            if value_type is not None and _type_text(value_type) != type_name(sp.args[1]):
                raise LayoutError(f"{name!r}: value type given twice ({value_type} and {type_name(sp.args[1])})")
            value_type = type_name(sp.args[1])
            sp = sp.args[0]
        traits_args = None
        if strip_namespace(sp.name) == "Copy_Traits" and sp.args and isinstance(sp.args[0], Spelled):
            traits_args = sp.args[1:]
            sp = sp.args[0]
        atom = _lookup(sp, str(name), traits_args)
    if value_type is not None:
        atom = atom.with_value_type(value_type)
    return atom


def copy_atoms(filter: str | None = None) -> list[CopyAtom]:
    """The fixed copy atoms and a representative of each template (128-bit UniversalCopy, cp.async)."""
    rows = list(fixed_atoms().values())
    rows += [_universal(t, (Spelled("uint128_t"),), t) for t in _TEMPLATES]
    rows += [_autovec(b, n, n) for n, b in _AUTOVEC_ALIASES.items()]
    rows += [_tma(n, (4096,) + ((Spelled("AuxParams"),) * (TMA[n][3] or 0)), n) for n in TMA]
    if filter:
        needle = "".join(filter.split()).lower()
        rows = [r for r in rows if needle in r.name.lower() or needle in r.ptx.lower()]
    return rows
