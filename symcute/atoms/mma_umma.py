"""The SM100 / SM103 UMMA atoms (``cute/atom/mma_traits_sm100.hpp``, ops in ``cute/arch/mma_sm100_umma.hpp``).

A UMMA (``tcgen05.mma``) is issued by one thread for the whole CTA (``1SM``) or
for a pair of CTAs (``2x1SM``); its operands live in shared memory (by
descriptor) or, for ``_TS``, A in tensor memory; D always in tensor memory.
CuTe's traits therefore model the CTA (or the CTA pair) as the "thread":

* 1SM:   ThrID = 1:0, ALayout = (1,(M,K)):(0,(1,M)), BLayout = (1,(N,K)):(0,(1,N)),
         CLayout = (1,(M,N)):(0,(1,M));
* 2x1SM: ThrID = 2:1, ALayout = (2,(M/2,K)):(M/2,(1,M)), BLayout = (2,(N/2,K)):(N/2,(1,N)),
         CLayout = (2,(M/2,N)):(M/2,(1,M)): each CTA of the pair owns half of M (and of B's N).

K is 256 bits of A (512 for the sparse kinds, whose A holds 2:4 pairs), or fixed
by the kind (f8f6f4: 32, mxf4: 64, SM103 mxf4 ultra: 96).  Each row of
``FAMILIES`` transcribes one ``MMA_Traits`` specialisation: its template
parameters, the static_asserts of the op and of the traits (with CuTe's
messages), K, and the PTX instruction of the op.  None of the template
arguments other than M, N and the A type changes a layout.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import sizeof_bits
from ..errors import LayoutError
from .mma_atom import MMAAtom
from .spelling import Spelled, last_component, type_name
from .tmem import DUPLICATED, NON_INTERLEAVED, frg_text

HEADER = "cute/atom/mma_traits_sm100.hpp"
ARCH_HEADER = "cute/arch/mma_sm100_umma.hpp"

# template parameter kinds
TYPE, INT, MAJOR, SCALE, SAT = "type", "int", "UMMA::Major", "UMMA::ScaleIn", "UMMA::Saturate"
_ENUMS = {MAJOR: ("K", "MN"), SCALE: ("One", "Neg"), SAT: ("False", "True")}

_P3 = ((TYPE, "a_type", None), (TYPE, "b_type", None), (TYPE, "c_type", None))
_P4 = _P3 + ((TYPE, "sf_type", None),)
_MN = ((INT, "M", None), (INT, "N", None))
_MAJ = ((MAJOR, "a_major", None), (MAJOR, "b_major", None))
_NEG = ((SCALE, "a_neg", "One"), (SCALE, "b_neg", "One"))
_SATP = ((SAT, "c_sat", "False"),)

P_SS = _P3 + _MN + _MAJ + _NEG                                # TF32 / F16BF16 SS (and their SPARSE)
P_TS = P_SS + _SATP                                           # every TS
P_SCALED_SS = _P3 + _MN + _MAJ + ((INT, "ScaleC", None),) + _NEG
P_SCALED_TS = P_SCALED_SS + _SATP
P_S8_SS = _P3 + _MN + _MAJ + _SATP                            # S8 SS (and SPARSE): no ScaleIn
P_MX = _P4 + _MN + _MAJ + _NEG                                # MXF8F6F4
P_VS = _P4 + _MN + ((INT, "VS", None),) + _MAJ + _NEG         # MXF4, MXF4NVF4, SM103
# MMA_Traits<SM100_MMA_F8F6F4_SS, a, b, c, C<M>, C<N>, integral_constant<UMMA::Major,..> x2,
# integral_constant<UMMA::ScaleIn,..> x2>: the op is not a template, the traits carry the arguments
P_TRAITS_ARGS = _P3 + ((INT, "C<M>", None), (INT, "C<N>", None),
                       ("ic:" + MAJOR, "a_major", None), ("ic:" + MAJOR, "b_major", None),
                       ("ic:" + SCALE, "a_neg", None), ("ic:" + SCALE, "b_neg", None))


@dataclass(frozen=True)
class NRule:
    """Allowed N: a multiple of ``step`` in [lo, 256] (``also`` lists extra single values)."""
    step: int
    lo: int
    also: tuple = ()

    def ok(self, n: int) -> bool:
        return n in self.also or (n % self.step == 0 and self.lo <= n <= 256)

    def values(self) -> tuple:
        return tuple(sorted(set(self.also) | set(range(self.lo, 257, self.step))))


N8, N16, N32 = NRule(8, 8), NRule(16, 16), NRule(32, 32)
N8_OR_16 = NRule(16, 16, (8,))


@dataclass(frozen=True)
class Family:
    name: str             # the C++ name of the op (SM103 ones with their namespace)
    params: tuple         # (kind, name, default) in template order
    cta: int              # 1 or 2 (2x1SM)
    source: str           # "SS" or "TS"
    kind: str             # the tcgen05.mma kind
    k: tuple              # ("bits", 256) : K = 256 / sizeof_bits(a_type); ("fixed", 32)
    m: tuple              # allowed M
    m_msg: str
    n: dict               # M -> NRule, or "K"/"MN" (b_major) -> NRule
    n_msg: str
    a_bits: tuple         # ("eq", 16) both A and B of 16 bits, ("le", 8), ("eq4", 4)
    bits_msg: str
    ptx: str
    sparse: bool = False
    vs: tuple = ()        # allowed VS (the op's static_assert)
    vs_msg: str = ""
    c_int32: bool = False
    k_major_only: bool = False   # SM103: "This MMA does not support transpose"
    defaults: tuple = ()  # representative template arguments (types) for the listing
    arch: str = "sm100"
    traits_args: bool = False    # F8F6F4_SS / F8F6F4_2x1SM_SS: MMA_Traits<Op, args...>

    @property
    def sparse_a(self) -> str | None:
        return None


def _fam(name, params, cta, source, kind, k, m, n, a_bits, ptx_tail="", **kw):
    group = "cta_group::2" if cta == 2 else "cta_group::1"
    sp = ".sp" if kw.get("sparse") else ""
    ptx = f"tcgen05.mma{sp}.{group}.kind::{kind}{ptx_tail}"
    short = name.split("::")[-1]
    m_msg = kw.pop("m_msg", None) or (f"{short} M-mode size should be " + " or ".join(map(str, m))
                                      + f" for {'2 CTA' if cta == 2 else '1 CTA'} cluster MMA.")
    n_msg = kw.pop("n_msg", None) or f"{short} N-mode size is not supported"
    bits_msg = kw.pop("bits_msg", None) or f"{short} supports {a_bits[1]}bit types"
    return Family(name, params, cta, source, kind, k, m, m_msg, n, n_msg, a_bits, bits_msg, ptx, **kw)


_TF32 = ("tfloat32_t", "tfloat32_t", "float")
_F16 = ("half_t", "half_t", "float")
_S8 = ("int8_t", "int8_t", "int32_t")
_F8 = ("float_e4m3_t", "float_e4m3_t", "float")
_MXF8 = ("float_e4m3_t", "float_e4m3_t", "float", "float_ue8m0_t")
_MXF4 = ("float_e2m1_t", "float_e2m1_t", "float", "float_ue8m0_t")

_B256, _B512 = ("bits", 256), ("bits", 512)
_M1, _M2 = (64, 128), (128, 256)
_TS1 = {64: N8, 128: N16}      # TS (and F8F6F4 sparse) 1SM: N multiple of 8 for M=64, of 16 for M=128


def _n_msg(short, rule_text):
    return f"{short} N-mode size should be {rule_text}."


FAMILIES: tuple = (
    # --- tf32 / f16 / bf16 -------------------------------------------------------------------
    *(_fam(f"SM100_MMA_{t}_SS", P_SS, 1, "SS", kd, _B256, _M1, {m: N8 for m in _M1}, ("eq", b),
           n_msg=f"SM100_MMA_{t} N-mode size should be a multiple of 8 between 8 and 256.",
           m_msg=f"SM100_MMA_{t} M-mode size should be 64 or 128 for 1 CTA cluster MMA.",
           bits_msg=f"SM100_MMA_{t}_SS supports {b}bit types", defaults=d)
      for t, kd, b, d in (("TF32", "tf32", 32, _TF32), ("F16BF16", "f16", 16, _F16))),
    *(_fam(f"SM100_MMA_{t}_TS", P_TS, 1, "TS", kd, _B256, _M1, _TS1, ("eq", b),
           n_msg=f"SM100_MMA_{t} N-mode size should be a multiple of 8 between 8 and 256 for M=64, "
                 "or a multiple of 16 between 16 and 256 for M=128.",
           m_msg=f"SM100_MMA_{t} M-mode size should be 64 or 128 for 1 CTA cluster MMA.",
           bits_msg=f"SM100_MMA_{t}_TS supports {b}bit types", defaults=d)
      for t, kd, b, d in (("TF32", "tf32", 32, _TF32), ("F16BF16", "f16", 16, _F16))),
    _fam("SM100_MMA_F16BF16_SS_SCALED", P_SCALED_SS, 1, "SS", "f16", _B256, _M1, {m: N8 for m in _M1}, ("eq", 16),
         n_msg=_n_msg("SM100_MMA_F16BF16_SS_SCALED", "a multiple of 8 between 8 and 256"), defaults=_F16),
    _fam("SM100_MMA_F16BF16_TS_SCALED", P_SCALED_TS, 1, "TS", "f16", _B256, _M1, _TS1, ("eq", 16),
         n_msg=_n_msg("SM100_MMA_F16BF16_TS_SCALED", "a multiple of 8 between 8 and 256 for M=64, or a multiple "
                      "of 16 between 16 and 256 for M=128"), defaults=_F16),
    *(_fam(f"SM100_MMA_{t}_SS_SPARSE", P_SS, 1, "SS", kd, _B512, _M1, {m: N8 for m in _M1}, ("eq", b),
           sparse=True, n_msg=_n_msg(f"SM100_MMA_{t}_SS_SPARSE", "a multiple of 8 between 8 and 256"), defaults=d)
      for t, kd, b, d in (("TF32", "tf32", 32, _TF32), ("F16BF16", "f16", 16, _F16))),
    *(_fam(f"SM100_MMA_{t}_2x1SM_SS", P_SS, 2, "SS", kd, _B256, _M2, {m: N16 for m in _M2}, ("eq", b),
           n_msg=_n_msg(f"SM100_MMA_{t}_2x1SM_SS", "a multiple of 16 between 16 and 256"), defaults=d)
      for t, kd, b, d in (("TF32", "tf32", 32, _TF32), ("F16BF16", "f16", 16, _F16))),
    *(_fam(f"SM100_MMA_{t}_2x1SM_TS", P_TS, 2, "TS", kd, _B256, _M2, {m: N32 for m in _M2}, ("eq", b),
           n_msg=_n_msg(f"SM100_MMA_{t}_2x1SM_TS", "a multiple of 32 between 32 and 256"), defaults=d)
      for t, kd, b, d in (("TF32", "tf32", 32, _TF32), ("F16BF16", "f16", 16, _F16))),
    _fam("SM100_MMA_F16BF16_2x1SM_SS_SCALED", P_SCALED_SS, 2, "SS", "f16", _B256, _M2, {m: N16 for m in _M2},
         ("eq", 16), n_msg=_n_msg("SM100_MMA_F16BF16_2x1SM_SS_SCALED", "a multiple of 16 between 16 and 256"),
         defaults=_F16),
    _fam("SM100_MMA_F16BF16_2x1SM_TS_SCALED", P_SCALED_TS, 2, "TS", "f16", _B256, _M2, {m: N32 for m in _M2},
         ("eq", 16), n_msg=_n_msg("SM100_MMA_F16BF16_2x1SM_TS_SCALED", "a multiple of 32 between 32 and 256"),
         defaults=_F16),
    *(_fam(f"SM100_MMA_{t}_2x1SM_SS_SPARSE", P_SS, 2, "SS", kd, _B512, _M2, {m: N16 for m in _M2}, ("eq", b),
           sparse=True, n_msg=_n_msg(f"SM100_MMA_{t}_2x1SM_SS_SPARSE", "a multiple of 16 between 16 and 256"),
           defaults=d)
      for t, kd, b, d in (("TF32", "tf32", 32, _TF32), ("F16BF16", "f16", 16, _F16))),
    # --- int8 --------------------------------------------------------------------------------
    _fam("SM100_MMA_S8_SS", P_S8_SS, 1, "SS", "i8", _B256, _M1, {m: N8_OR_16 for m in _M1}, ("eq", 8),
         c_int32=True, n_msg=_n_msg("SM100_MMA_S8_SS", "8 or a multiple of 16 between 16 and 256"), defaults=_S8),
    _fam("SM100_MMA_S8_TS", P_TS, 1, "TS", "i8", _B256, _M1, {m: N8_OR_16 for m in _M1}, ("eq", 8),
         n_msg=_n_msg("SM100_MMA_S8_TS", "8 or a multiple of 16 between 16 and 256"), defaults=_S8),
    _fam("SM100_MMA_S8_SS_SPARSE", P_S8_SS, 1, "SS", "i8", _B512, _M1, {m: N8_OR_16 for m in _M1}, ("eq", 8),
         sparse=True, c_int32=True, n_msg=_n_msg("SM100_MMA_S8_SS_SPARSE", "8 or a multiple of 16 between 16 and 256"),
         defaults=_S8),
    _fam("SM100_MMA_S8_2x1SM_SS", P_S8_SS, 2, "SS", "i8", _B256, _M2, {m: N32 for m in _M2}, ("eq", 8),
         n_msg=_n_msg("SM100_MMA_S8_2x1SM_SS", "a multiple of 32 between 32 and 256"), defaults=_S8),
    _fam("SM100_MMA_S8_2x1SM_TS", P_TS, 2, "TS", "i8", _B256, _M2, {m: N32 for m in _M2}, ("eq", 8),
         n_msg=_n_msg("SM100_MMA_S8_2x1SM_TS", "a multiple of 32 between 32 and 256"), defaults=_S8),
    _fam("SM100_MMA_S8_2x1SM_SS_SPARSE", P_S8_SS, 2, "SS", "i8", _B512, _M2, {m: N32 for m in _M2}, ("eq", 8),
         sparse=True, m_msg="SM100_MMA_S8 M-mode size should be 128 or 256 for 2 CTA cluster MMA.",
         n_msg="SM100_MMA_S8 N-mode size should be a multiple of 32 between 32 and 256.", defaults=_S8),
    # --- f8f6f4 (the SS forms: traits carry the arguments) -------------------------------------
    _fam("SM100_MMA_F8F6F4_SS", P_TRAITS_ARGS, 1, "SS", "f8f6f4", ("fixed", 32), _M1,
         {"K": N8, "MN": N16}, ("le", 8), traits_args=True,
         m_msg="SM100_MMA_F8F6F4_SS M-mode size should be 64 or 128 for 1 CTA cluster MMA.",
         n_msg="SM100_MMA_F8F6F4_SS N-mode size should be a multiple of 8 between 8 and 256 when B is K major. "
               "SM100_MMA_F8F6F4_SS N-mode size should be a multiple of 16 between 16 and 256 when B is MN major.",
         bits_msg="SM100_MMA_F8F6F4_SS supports types with leq 8bit types", defaults=_F8),
    _fam("SM100_MMA_F8F6F4_TS", P_TS, 1, "TS", "f8f6f4", ("fixed", 32), _M1, _TS1, ("le", 8),
         n_msg=_n_msg("SM100_MMA_F8F6F4_TS", "a multiple of 8 between 8 and 256 for M=64, or a multiple of 16 "
                      "between 16 and 256 for M=128"),
         bits_msg="SM100_MMA_F8F6F4_TS supports types with leq 8bit types", defaults=_F8),
    _fam("SM100_MMA_F8F6F4_SS_SPARSE", P_SS, 1, "SS", "f8f6f4", ("fixed", 64), _M1, _TS1, ("le", 8), sparse=True,
         n_msg=_n_msg("SM100_MMA_F8F6F4_SS_SPARSE", "a multiple of 8 between 8 and 256 for M=64, or a multiple "
                      "of 16 between 16 and 256 for M=128"),
         bits_msg="SM100_MMA_F8F6F4_SS_SPARSE supports types with leq 8bit types", defaults=_F8),
    _fam("SM100_MMA_F8F6F4_2x1SM_SS", P_TRAITS_ARGS, 2, "SS", "f8f6f4", ("fixed", 32), _M2,
         {"K": N16, "MN": N32}, ("le", 8), traits_args=True,
         m_msg="SM100_MMA_F8F6F4_2x1SM_SS M-mode size should be 64 or 128 for 1 CTA cluster MMA.",
         n_msg="SM100_MMA_F8F6F4_2x1SM_SS N-mode size should be a multiple of 16 between 16 and 256 when B is "
               "K major. SM100_MMA_F8F6F4_2x1SM_SS N-mode size should be a multiple of 32 between 32 and 256 "
               "when B is MN major.",
         bits_msg="SM100_MMA_F8F6F4_2x1SM_SS supports types with leq 8bit types", defaults=_F8),
    _fam("SM100_MMA_F8F6F4_2x1SM_TS", P_TS, 2, "TS", "f8f6f4", ("fixed", 32), _M2, {m: N32 for m in _M2},
         ("le", 8), m_msg="SM100_MMA_F8F6F4_2x1SM_TS M-mode size should be 64 or 128 for 1 CTA cluster MMA.",
         n_msg=_n_msg("SM100_MMA_F8F6F4_2x1SM_TS", "a multiple of 32 between 32 and 256"),
         bits_msg="SM100_MMA_F8F6F4_2x1SM_TS supports types with leq 8bit types", defaults=_F8),
    _fam("SM100_MMA_F8F6F4_2x1SM_SS_SPARSE", P_SS, 2, "SS", "f8f6f4", ("fixed", 64), _M2, {m: N32 for m in _M2},
         ("le", 8), sparse=True, n_msg=_n_msg("SM100_MMA_F8F6F4_2x1SM_SS_SPARSE", "a multiple of 32 between 32 "
                                              "and 256"),
         bits_msg="SM100_MMA_F8F6F4_2x1SM_SS_SPARSE supports types with leq 8bit types", defaults=_F8),
    # --- block-scaled ------------------------------------------------------------------------
    _fam("SM100_MMA_MXF8F6F4_SS", P_MX, 1, "SS", "mxf8f6f4", ("fixed", 32), (128,), {128: N8}, ("le", 8),
         ptx_tail=".block_scale", m_msg="SM100_MMA_MXF8F6F4_SS M-mode size should be 64 or 128 for 1 CTA "
                                        "cluster MMA.",
         n_msg=_n_msg("SM100_MMA_MXF8F6F4_SS", "a multiple of 8 between 8 and 256"),
         bits_msg="SM100_MMA_MXF8F6F4_SS supports types with leq 8bit types", defaults=_MXF8),
    _fam("SM100_MMA_MXF8F6F4_SS_SPARSE", P_MX, 1, "SS", "mxf8f6f4", ("fixed", 64), (128,), {128: N8}, ("le", 8),
         ptx_tail=".block_scale", sparse=True,
         m_msg="SM100_MMA_MXF8F6F4_SS_SPARSE M-mode size should be 128 for 1 CTA cluster MMA.",
         n_msg=_n_msg("SM100_MMA_MXF8F6F4_SS_SPARSE", "a multiple of 8 between 8 and 256"),
         bits_msg="SM100_MMA_MXF8F6F4_SS_SPARSE supports types with leq 8bit types", defaults=_MXF8),
    _fam("SM100_MMA_MXF8F6F4_2x1SM_SS", P_MX, 2, "SS", "mxf8f6f4", ("fixed", 32), (256,), {256: N16}, ("le", 8),
         ptx_tail=".block_scale", m_msg="SM100_MMA_MXF8F6F4_2x1SM_SS M-mode size should be 128 or 256 for 2 CTA "
                                        "cluster MMA.",
         n_msg=_n_msg("SM100_MMA_MXF8F6F4_2x1SM_SS", "a multiple of 16 between 16 and 256"),
         bits_msg="SM100_MMA_MXF8F6F4_2x1SM_SS supports types with leq 8bit types", defaults=_MXF8),
    _fam("SM100_MMA_MXF8F6F4_2x1SM_SS_SPARSE", P_MX, 2, "SS", "mxf8f6f4", ("fixed", 64), (256,), {256: N16},
         ("le", 8), ptx_tail=".block_scale", sparse=True,
         m_msg="SM100_MMA_MXF8F6F4_2x1SM_SS_SPARSE M-mode size should be 256 for 2 CTA cluster MMA.",
         n_msg=_n_msg("SM100_MMA_MXF8F6F4_2x1SM_SS_SPARSE", "a multiple of 16 between 16 and 256"),
         bits_msg="SM100_MMA_MXF8F6F4_2x1SM_SS_SPARSE supports types with leq 8bit types", defaults=_MXF8),
    _fam("SM100_MMA_MXF4_SS", P_VS, 1, "SS", "mxf4nvf4", ("fixed", 64), (128,), {128: N8}, ("eq4", 4),
         ptx_tail=".block_scale", vs=(16, 32), vs_msg="SM100_MMA_MXF4_SS Vector size can only be 16 or 32.",
         m_msg="SM100_MMA_MXF4_SS M-mode size should be 128 for 1 CTA cluster MMA.",
         n_msg=_n_msg("SM100_MMA_MXF4_SS", "a multiple of 8 between 8 and 256"), defaults=_MXF4 + (32,)),
    _fam("SM100_MMA_MXF4NVF4_SS_SPARSE", P_VS, 1, "SS", "mxf4nvf4", ("fixed", 128), (128,), {128: N8},
         ("eq4", 4), ptx_tail=".block_scale", sparse=True, vs=(32, 64),
         m_msg="SM100_MMA_MXF4NVF4_SS_SPARSE M-mode size should be 128 for 1 CTA cluster MMA.",
         n_msg=_n_msg("SM100_MMA_MXF4NVF4_SS_SPARSE", "a multiple of 8 between 8 and 256"),
         defaults=_MXF4 + (64,)),
    _fam("SM100_MMA_MXF4_2x1SM_SS", P_VS, 2, "SS", "mxf4nvf4", ("fixed", 64), _M2, {m: N16 for m in _M2},
         ("eq4", 4), ptx_tail=".block_scale", vs=(16, 32),
         vs_msg="SM100_MMA_MXF4_2x1SM_SS Vector size can only be 16 or 32.",
         n_msg=_n_msg("SM100_MMA_MXF4_2x1SM_SS", "a multiple of 16 between 16 and 256"), defaults=_MXF4 + (32,)),
    _fam("SM100_MMA_MXF4NVF4_2x1SM_SS_SPARSE", P_VS, 2, "SS", "mxf4nvf4", ("fixed", 128), (128, 256),
         {m: N16 for m in (128, 256)}, ("eq4", 4), ptx_tail=".block_scale", sparse=True, vs=(32, 64),
         vs_msg="SM100_MMA_MXF4NVF4_2x1SM_SS_SPARSE Vector size can only be 32 or 64.",
         n_msg=_n_msg("SM100_MMA_MXF4NVF4_2x1SM_SS_SPARSE", "a multiple of 16 between 16 and 256"),
         defaults=_MXF4 + (64,)),
    # --- SM103 -------------------------------------------------------------------------------
    _fam("SM103::SM103_MXF4_ULTRA_SS_VS", P_VS, 1, "SS", "mxf4nvf4", ("fixed", 96), (128,), {128: N16},
         ("any", 0), ptx_tail=".block_scale", vs=(16, 32), k_major_only=True, arch="sm103",
         m_msg="MMA M-mode size should be 128 for 1 CTA cluster MMA.",
         n_msg="MMA N-mode size should be a multiple of 16 between 16 and 256.", defaults=_MXF4 + (32,)),
    _fam("SM103::SM103_MXF4_ULTRA_2x1SM_SS_VS", P_VS, 2, "SS", "mxf4nvf4", ("fixed", 96), _M2,
         {m: N16 for m in _M2}, ("any", 0), ptx_tail=".block_scale", vs=(16, 32), k_major_only=True, arch="sm103",
         m_msg="MMA M-mode size should be 128 or 256 for 2 CTA cluster MMA.",
         n_msg="MMA N-mode size should be a multiple of 16 between 16 and 256.", defaults=_MXF4 + (32,)),
)

BY_NAME = {f.name: f for f in FAMILIES}
BY_NAME.update({f.name.split("::")[-1]: f for f in FAMILIES if "::" in f.name})

# CUDA-core vector FMA "atoms" of the same header (one thread, two lanes of float2)
FFMA2 = {
    "SM100_2x1x1_F32F32F32F32": ((2, 1, 1), "(1,2):(0,1)", "(1,1):(0,0)", "(1,2):(0,1)", "fma.rn.f32x2"),
    "SM100_1x2x1_F32F32F32F32": ((1, 2, 1), "(1,1):(0,0)", "(1,2):(0,1)", "(1,2):(0,1)", "fma.rn.f32x2"),
}


_FFMA2_BUILT: dict = {}


def ffma2_atom(name: str) -> MMAAtom | None:
    """The CUDA-core FMA2 atom ``name`` (built on the first lookup), None if not one."""
    atom = _FFMA2_BUILT.get(name)
    if atom is None and name in FFMA2:
        s, a, b, c, p = FFMA2[name]
        atom = _FFMA2_BUILT[name] = MMAAtom(name, s, "1:0", a, b, c, "float", "float", "float", "float",
                                            header=HEADER, ptx=p, arch="sm100")
    return atom


def ffma2_atoms() -> dict:
    return {n: ffma2_atom(n) for n in FFMA2}


# --- layouts -------------------------------------------------------------------------------------------

def layouts(cta: int, m: int, n: int, k: int) -> tuple:
    """(ThrID, ALayout, BLayout, CLayout) of a UMMA traits specialisation."""
    if cta == 1:
        return ("1:0", f"(1,({m},{k})):(0,(1,{m}))", f"(1,({n},{k})):(0,(1,{n}))", f"(1,({m},{n})):(0,(1,{m}))")
    return ("2:1", f"(2,({m // 2},{k})):({m // 2},(1,{m}))", f"(2,({n // 2},{k})):({n // 2},(1,{n}))",
            f"(2,({m // 2},{n})):({m // 2},(1,{m}))")


# --- template arguments ----------------------------------------------------------------------------------

def _enum(arg, enum: str, spelled: str) -> str:
    allowed = _ENUMS[enum]
    if isinstance(arg, int) or not isinstance(arg, Spelled) or arg.has_args:
        raise LayoutError(f"{spelled}: template argument {arg} is not a {enum} value")
    parts = arg.name.split("::")
    value = last_component(arg.name)
    if value not in allowed or (len(parts) > 1 and parts[-2] != enum.split("::")[-1]):
        raise LayoutError(f"{spelled}: template argument {arg.name} is not one of "
                          + ", ".join(f"{enum}::{a}" for a in allowed))
    return value


def _int_arg(arg, what: str, spelled: str, wrapped: bool = False) -> int:
    if wrapped:  # C<M> / Int<M> / cute::C<M>
        if (isinstance(arg, Spelled) and last_component(arg.name) in ("C", "Int") and len(arg.args) == 1
                and isinstance(arg.args[0], int)):
            return arg.args[0]
        raise LayoutError(f"{spelled}: template argument {arg} for {what} must be C<int>")
    if not isinstance(arg, int):
        raise LayoutError(f"{spelled}: template argument {arg} for {what} must be an integer")
    return arg


def _ic_enum(arg, enum: str, spelled: str) -> str:
    """integral_constant<UMMA::Major, UMMA::Major::K> -> 'K'."""
    if (isinstance(arg, Spelled) and last_component(arg.name) == "integral_constant" and len(arg.args) == 2
            and isinstance(arg.args[0], Spelled) and arg.args[0].name.split("::")[-1] == enum.split("::")[-1]):
        return _enum(arg.args[1], enum, spelled)
    raise LayoutError(f"{spelled}: template argument {arg} must be integral_constant<{enum}, {enum}::...>")


def read_arguments(fam: Family, args: tuple, spelled: str) -> dict:
    """The template arguments by parameter name (defaults filled in); arity checked as C++ does."""
    required = sum(1 for _, _, d in fam.params if d is None)
    if len(args) < required or len(args) > len(fam.params):
        sig = signature(fam)
        raise LayoutError(f"{spelled}: {fam.name} takes {required}"
                          + (f" to {len(fam.params)}" if len(fam.params) > required else "")
                          + f" template arguments {sig}, got {len(args)}")
    out = {}
    for (kind, pname, default), arg in zip(fam.params, list(args) + [None] * (len(fam.params) - len(args))):
        if arg is None:
            out[pname] = default
        elif kind == TYPE:
            out[pname] = type_name(arg)
        elif kind == INT:
            out[pname] = _int_arg(arg, pname, spelled, wrapped=pname.startswith("C<"))
        elif kind.startswith("ic:"):
            out[pname] = _ic_enum(arg, kind[3:], spelled)
        else:
            out[pname] = _enum(arg, kind, spelled)
    if "C<M>" in out:
        out["M"], out["N"] = out.pop("C<M>"), out.pop("C<N>")
    return out


def signature(fam: Family) -> str:
    parts = []
    for kind, pname, default in fam.params:
        if kind == TYPE:
            parts.append(f"class {pname}")
        elif kind == INT:
            parts.append(f"int {pname}" if not pname.startswith("C<") else pname)
        elif kind.startswith("ic:"):
            parts.append(f"integral_constant<{kind[3:]},{pname}>")
        else:
            parts.append(f"{kind} {pname}" + (f"={default}" if default else ""))
    return "<" + ",".join(parts) + ">"


def _check(fam: Family, a: dict, spelled: str) -> int:
    """CuTe's static_asserts (op and traits) for these arguments; returns K."""
    short = fam.name.split("::")[-1]
    m, n = a["M"], a["N"]
    ba, bb = sizeof_bits(a["a_type"]), sizeof_bits(a["b_type"])
    rule, bits = fam.a_bits
    if rule == "eq" and not (ba == bb == bits):
        raise LayoutError(f"{spelled}: {fam.bits_msg} (sizeof_bits: {a['a_type']} {ba}, {a['b_type']} {bb}; "
                          f"static_assert in {HEADER})")
    if rule == "le" and not (ba <= 8 and bb <= 8):
        raise LayoutError(f"{spelled}: {fam.bits_msg} (sizeof_bits: {a['a_type']} {ba}, {a['b_type']} {bb}; "
                          f"static_assert in {HEADER})")
    if rule == "eq4" and not (ba == 4 and bb == 4):
        raise LayoutError(f"{spelled}: {fam.bits_msg} (static_assert in {HEADER})")
    if fam.sparse and fam.k[0] == "bits" and max(1, ba // 8) != {32: 4, 16: 2, 8: 1}[bits]:
        raise LayoutError(f"{spelled}: static_assert sizeof(a_type) == {bits // 8} failed ({HEADER})")
    if fam.c_int32 and a["c_type"] != "int32_t":
        raise LayoutError(f"{spelled}: {short} result type can only be int32_t. (static_assert in {ARCH_HEADER})")
    if m not in fam.m:
        raise LayoutError(f"{spelled}: {fam.m_msg} (static_assert, M = {m})")
    key = a["b_major"] if "K" in fam.n else m
    if not fam.n[key].ok(n):
        raise LayoutError(f"{spelled}: {fam.n_msg} (static_assert, N = {n})")
    if fam.source == "TS" and a["a_major"] != "K":
        raise LayoutError(f"{spelled}: {short.rsplit('_', 1)[0] if short.endswith('_SCALED') else short[:-3]} "
                          f"A from TMEM can't be transposed (static_assert in {ARCH_HEADER})")
    if fam.vs and a["VS"] not in fam.vs:
        raise LayoutError(f"{spelled}: {fam.vs_msg or 'Vector size can only be ' + ' or '.join(map(str, fam.vs))}"
                          f" (static_assert, VS = {a['VS']})")
    if fam.k_major_only and (a["a_major"] != "K" or a["b_major"] != "K"):
        raise LayoutError(f"{spelled}: This MMA does not support transpose (static_assert in {HEADER})")
    if fam.k[0] == "bits":
        return fam.k[1] // ba
    return fam.k[1]


def canonical(fam: Family, a: dict) -> str:
    """The C++ spelling: every required argument, optional ones only when not defaulted."""
    vals = []
    for kind, pname, default in fam.params:
        key = {"C<M>": "M", "C<N>": "N"}.get(pname, pname)
        v = a[key]
        if default is not None and v == default:
            vals.append(None)
            continue
        if kind == TYPE:
            vals.append(v)
        elif kind == INT:
            vals.append(f"C<{v}>" if pname.startswith("C<") else str(v))
        elif kind.startswith("ic:"):
            e = kind[3:]
            vals.append(f"integral_constant<{e},{e}::{v}>")
        else:
            vals.append(f"{kind}::{v}")
    while vals and vals[-1] is None:
        vals.pop()
    text = ",".join(v if v is not None else f"{fam.params[i][0]}::{fam.params[i][2]}" for i, v in enumerate(vals))
    if fam.traits_args:
        return f"MMA_Traits<{fam.name},{text}>"
    return f"{fam.name}<{text}>"


_CACHE: dict = {}


def instantiate(fam: Family, args: tuple, spelled: str) -> MMAAtom:
    a = read_arguments(fam, args, spelled)
    k = _check(fam, a, spelled)
    name = canonical(fam, a)
    atom = _CACHE.get(name)
    if atom is not None:
        return atom
    thr, la, lb, lc = layouts(fam.cta, a["M"], a["N"], k)
    va = f"sparse_elem<2,{a['a_type']}>" if fam.sparse else a["a_type"]
    if fam.sparse and fam.kind == "mxf4nvf4":
        va = "sparse_elem<4,uint8_t>"
    # the fragment types of the traits: A/B by shared-memory descriptor, or A in TMEM (_TS); C always in TMEM
    if fam.source == "SS":
        frg_a = ("UMMA::sparse_smem_desc" if fam.sparse else "UMMA::smem_desc") + f"<UMMA::Major::{a['a_major']}>"
    else:
        frg_a = frg_text(a["a_type"], fam.cta, a["a_type"], NON_INTERLEAVED if fam.cta == 1 else DUPLICATED)
    frg_c = frg_text(a["c_type"], 1, "int32_t", NON_INTERLEAVED) if fam.source == "TS" and fam.cta == 1 \
        else frg_text(a["c_type"], fam.cta)
    atom = MMAAtom(name, (a["M"], a["N"], k), thr, la, lb, lc, a["c_type"], va, a["b_type"], a["c_type"],
                   header=HEADER, ptx=fam.ptx, arch=fam.arch, frg_type_a=frg_a,
                   frg_type_b=f"UMMA::smem_desc<UMMA::Major::{a['b_major']}>", frg_type_c=frg_c)
    _CACHE[name] = atom
    return atom


def default_args(fam: Family, m: int, n: int) -> tuple:
    """Spelled arguments of the representative instantiation (K-major, default types) at (M, N)."""
    d = fam.defaults
    out = []
    types = iter(d[:4] if len(d) >= 4 and isinstance(d[3], str) else d[:3])
    for kind, pname, default in fam.params:
        if default is not None:
            break
        if kind == TYPE:
            out.append(Spelled(next(types)))
        elif pname in ("M", "C<M>"):
            out.append(m if pname == "M" else Spelled("C", (m,), True))
        elif pname in ("N", "C<N>"):
            out.append(n if pname == "N" else Spelled("C", (n,), True))
        elif pname == "VS":
            out.append(d[-1])
        elif pname == "ScaleC":
            out.append(1)
        elif kind.startswith("ic:"):
            e = kind[3:]
            v = "K" if e == MAJOR else "One"
            out.append(Spelled("integral_constant", (Spelled(e), Spelled(f"{e}::{v}")), True))
        else:
            out.append(Spelled(f"{kind}::K"))
    return tuple(out)


def members(fam: Family) -> list:
    """Every (M, N) the family's static_asserts allow (K-major B for the b_major-dependent rule)."""
    out = []
    for m in fam.m:
        rule = fam.n["K"] if "K" in fam.n else fam.n[m]
        out += [(m, n) for n in rule.values()]
    return out
