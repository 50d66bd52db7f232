"""The SM90 sparse warpgroup MMA atoms (``cute/atom/mma_traits_sm90_gmma_sparse.hpp`` and ``_ext.hpp``).

``SM90::GMMA::SPARSE::GMMA_64xNxK_<types>_<SS|RS>[_TN][_SATURATE]`` issues
``wgmma.mma_async.sp``: A is 2:4 structured-sparse, so each family has twice
the K of its dense twin (``K = 512 / sizeof_bits(A)``) and the same types, N
values and template parameters plus ``GMMA::SparseSel spsel = Zero``.  Its
traits, for every one of the 1056 specialisations in the two headers:

  ThrID   = 128:1,
  ALayout = GMMA::ABLayout<64,K> (SS) or GMMA::ALayout_64xK (RS),
  BLayout = GMMA::ABLayout<N,K>,  CLayout = GMMA::CLayout_64xN,
  ELayout = GMMA::ELayout_64xK (the metadata: (thread, value) -> (m, k) of A),
  ValTypeA = sparse_elem<2, A>, ValTypeE = sparse_elem<8, uint8_t> (tf32: sparse_elem<4, uint8_t>).
"""

from __future__ import annotations

import re

from ..errors import LayoutError
from . import mma_gmma as dense
from .mma_atom import MMAAtom
from .spelling import Spelled

HEADER = "cute/atom/mma_traits_sm90_gmma_sparse.hpp"
HEADER_EXT = "cute/atom/mma_traits_sm90_gmma_sparse_ext.hpp"
PREFIX = "SM90::GMMA::SPARSE::GMMA_"

# GMMA::ALayout_64xK for the register-sourced sparse A (K = 512 / sizeof_bits(A))
A_LAYOUT_RS = {
    16: "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))",      # tf32 (ALayout_64x16)
    32: "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))",     # f16/bf16 (ALayout_64x32)
    64: "((4,8,4),(8,2,2)):((512,1,16),(64,8,2048))",     # 8-bit (ALayout_64x64)
}
# GMMA::ELayout_64xK of mma_traits_sm90_gmma_sparse.hpp
E_LAYOUT = {
    64: "((2,2,8,4),(32)):((8,2048,1,16),(64))",
    32: "((2,2,8,4),(16,2)):((1024,0,1,16),(64,8))",
    16: "((2,2,8,4),(8,2)):((512,0,1,16),(64,8))",
}

_NAME = re.compile(r"^GMMA_64x(\d+)x(\d+)_([A-Z0-9]+)_(SS|RS)(_TN)?(_SATURATE)?$")


def base_name(fam: dense.Family, n: int, source: str) -> str:
    return (f"{PREFIX}64x{n}x{2 * fam.k}_{fam.types}_{source}{fam.suffix}"
            + ("_SATURATE" if fam.saturate else ""))


def family_of(name: str):
    """(dense family, N, source) for a sparse GMMA name (with or without its namespace), or None."""
    short = name[len("SM90::GMMA::SPARSE::"):] if name.startswith("SM90::GMMA::SPARSE::") else \
        name[len("GMMA::SPARSE::"):] if name.startswith("GMMA::SPARSE::") else \
        name[len("SPARSE::"):] if name.startswith("SPARSE::") else None
    if short is None:
        return None
    m = _NAME.match(short)
    if not m:
        return None
    n, k, types, source, tn, sat = int(m[1]), int(m[2]), m[3], m[4], m[5] or "", bool(m[6])
    for fam in dense.FAMILIES:
        if fam.types == types and 2 * fam.k == k and fam.suffix == tn and fam.saturate == sat:
            return (fam, n, source) if n in fam.n_values() else None
    return None


def template_signature(fam: dense.Family) -> str:
    sel = "GMMA::SparseSel spsel=Zero"
    if fam.params == dense.MAJORS:
        return f"<GMMA::Major tnspA,GMMA::Major tnspB,GMMA::ScaleIn scaleA=One,GMMA::ScaleIn scaleB=One,{sel}>"
    if fam.params == dense.SCALES:
        return f"<GMMA::ScaleIn scaleA=One,GMMA::ScaleIn scaleB=One,{sel}>"
    return f"<{sel}>"


def default_arguments(fam: dense.Family) -> str:
    return "<GMMA::Major::K,GMMA::Major::K>" if fam.params == dense.MAJORS else "<>"


def instantiate(fam: dense.Family, n: int, source: str, args: tuple, has_args: bool, spelled: str) -> MMAAtom:
    """The atom of one instantiation; template arguments are checked as the C++ templates check them."""
    base = base_name(fam, n, source)
    if not has_args:
        raise LayoutError(f"{spelled}: {base} is a template{template_signature(fam)}; write {base}"
                          f"{default_arguments(fam)}")
    majors, rest = ("K", "K"), list(args)
    if fam.params == dense.MAJORS:
        if len(args) < 2 or len(args) > 5:
            raise LayoutError(f"{spelled}: {base} takes 2 to 5 template arguments {template_signature(fam)}, "
                              f"got {len(args)}")
        majors = tuple(dense._enum(a, "Major", ("K", "MN"), spelled) for a in args[:2])
        rest = list(args[2:])
        if source == "RS" and majors[0] != "K":
            raise LayoutError(f"{spelled}: Register source operand A must have K major layout "
                              f"(static_assert in cute/arch/mma_sm90_gmma_sparse.hpp)")
    n_scales = 2 if fam.params in (dense.MAJORS, dense.SCALES) else 0
    if len(rest) > n_scales + 1:
        raise LayoutError(f"{spelled}: {base} takes at most {len(args) - len(rest) + n_scales + 1} template "
                          f"arguments {template_signature(fam)}, got {len(args)}")
    scales = [dense._enum(a, "ScaleIn", ("One", "Neg"), spelled) for a in rest[:n_scales]]
    scales += ["One"] * (n_scales - len(scales))
    sel = dense._enum(rest[n_scales], "SparseSel", ("Zero", "One"), spelled) if len(rest) > n_scales else "Zero"
    targs = [f"GMMA::Major::{m}" for m in majors] if fam.params == dense.MAJORS else []
    if scales != ["One"] * n_scales or sel != "Zero":
        targs += [f"GMMA::ScaleIn::{s}" for s in scales]
    if sel != "Zero":
        targs.append(f"GMMA::SparseSel::{sel}")
    return make_atom(fam, n, source, base + "<" + ",".join(targs) + ">", majors)


_CACHE: dict = {}


def make_atom(fam: dense.Family, n: int, source: str, canonical: str, majors=("K", "K")) -> MMAAtom:
    atom = _CACHE.get(canonical)
    if atom is not None:
        return atom
    k = 2 * fam.k
    header = HEADER if n in dense.BASE_N else HEADER_EXT
    a = dense.ab_layout(64, k) if source == "SS" else A_LAYOUT_RS[k]
    ptx = (f"wgmma.mma_async.sp.sync.aligned.m64n{n}k{k}.{fam.ptx_types}" + (".satfinite" if fam.saturate else ""))
    atom = MMAAtom(canonical, (64, n, k), "128:1", a, dense.ab_layout(n, k), dense.c_layout_64xN(n),
                   fam.val_types[0], f"sparse_elem<2,{fam.val_types[1]}>", fam.val_types[2], fam.val_types[3],
                   header=header, ptx=ptx, arch="sm90",
                   frg_type_a=f"GMMA::smem_desc<GMMA::Major::{majors[0]}>" if source == "SS" else None,
                   frg_type_b=f"GMMA::smem_desc<GMMA::Major::{majors[1]}>",
                   extra_layouts=(("ELayout", E_LAYOUT[k]),))
    _CACHE[canonical] = atom
    return atom


def all_base_names(extended: bool = True) -> list:
    out = []
    for fam in dense.FAMILIES:
        for n in fam.n_values(extended):
            for source in ("SS", "RS"):
                out.append((base_name(fam, n, source), fam, n, source))
    return out


def lookup(sp: Spelled, base: str, spelled: str):
    found = family_of(base)
    if found is None:
        return None
    fam, n, source = found
    return instantiate(fam, n, source, sp.args, sp.has_args, spelled)
