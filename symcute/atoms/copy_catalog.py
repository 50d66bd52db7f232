"""The copy atoms of CuTe 4.2 (``cute/atom/copy_traits*.hpp``) and ``copy_atom(name, value_type)``.

Fixed atoms are rows of data (ThrID, SrcLayout, DstLayout, RefLayout in bits,
and the PTX instruction); the templates ``UniversalCopy<S,D>``,
``SM80_CP_ASYNC_*<S,D>`` and ``AutoVectorizingCopyWithAssumedAlignment<N>``
are instantiated by the same rules as their C++ templates, with their
static_asserts.
"""

from __future__ import annotations

import difflib

from ..core import sizeof_bits
from ..errors import LayoutError, SymcuteError
from .copy_atom import CopyAtom, _type_text
from .mma_lookup import UnknownAtom
from .spelling import Spelled, read_spelling, strip_namespace, type_name

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


def _fixed() -> dict:
    atoms = {}
    for name, (src, dst, ptx) in _LDSM.items():   # RefLayout = DstLayout
        atoms[name] = CopyAtom(name, "32:1", src, dst, dst, header=H75, ptx=ptx, arch="sm75")
    for name, (ldsm, ptx) in _STSM.items():       # RefLayout = SrcLayout
        src, dst, _ = _LDSM[ldsm]
        atoms[name] = CopyAtom(name, "32:1", dst, src, dst, header=H90, ptx=ptx, arch="sm90")
    atoms["SM75_U32x1_MOVM_T"] = CopyAtom("SM75_U32x1_MOVM_T", "32:1", "(32,32):(32,1)", "(32,32):(32,1)",
                                          "(32,32):(32,1)", header=H75,
                                          ptx="movmatrix.sync.aligned.m8n8.trans.b16", arch="sm75")
    atoms["SM50_Shuffle_U32_2x2Trans_XOR1"] = CopyAtom(
        "SM50_Shuffle_U32_2x2Trans_XOR1", "32:1", "(32,64):(64,1)", "((2,16),(32,2)):((32,128),(1,64))",
        "(32,64):(64,1)", header=H50, ptx="shfl.sync.bfly.b32 (lane ^ 1)", arch="sm50")
    atoms["SM50_Shuffle_U32_2x2Trans_XOR4"] = CopyAtom(
        "SM50_Shuffle_U32_2x2Trans_XOR4", "32:1", "(32,64):(64,1)", "((4,2,4),(32,2)):((64,32,512),(1,256))",
        "(32,64):(64,1)", header=H50, ptx="shfl.sync.bfly.b32 (lane ^ 4)", arch="sm50")
    return atoms


FIXED: dict = _fixed()

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


def _lookup(sp: Spelled, spelled: str) -> CopyAtom:
    name = strip_namespace(sp.name)
    if name in FIXED:
        if sp.args:
            raise SymcuteError(f"{spelled}: {name} is not a template and takes no template arguments")
        return FIXED[name]
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
    hint = f"; did you mean {', '.join(close)}?" if close else f"; known: {', '.join(sorted(names))}"
    raise UnknownAtom(f"unknown copy atom {spelled!r}{hint}")


def copy_operation_names() -> list[str]:
    """Every copy operation name the catalog knows (fixed atoms, templates, auto-vectorizing aliases)."""
    return list(FIXED) + list(_TEMPLATES) + list(_AUTOVEC_ALIASES) + [_AUTOVEC]


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
        if strip_namespace(sp.name) == "Copy_Traits" and sp.args and isinstance(sp.args[0], Spelled):
            sp = sp.args[0]
        atom = _lookup(sp, str(name))
    if value_type is not None:
        atom = atom.with_value_type(value_type)
    return atom


def copy_atoms(filter: str | None = None) -> list[CopyAtom]:
    """The fixed copy atoms and a representative of each template (128-bit UniversalCopy, cp.async)."""
    rows = list(FIXED.values())
    rows += [_universal(t, (Spelled("uint128_t"),), t) for t in _TEMPLATES]
    rows += [_autovec(b, n, n) for n, b in _AUTOVEC_ALIASES.items()]
    if filter:
        needle = "".join(filter.split()).lower()
        rows = [r for r in rows if needle in r.name.lower() or needle in r.ptx.lower()]
    return rows
