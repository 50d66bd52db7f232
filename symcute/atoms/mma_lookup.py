"""``mma_atom(name)``: find an MMA atom by its C++ spelling; ``mma_atoms()``: list the catalog."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from ..errors import SymcuteError
from .mma_atom import MMAAtom
from .spelling import Spelled, read_spelling, strip_namespace

# The catalog's data modules (mma_catalog, mma_gmma, mma_gmma_sparse, mma_umma, mma_sm120) are imported by
# the lookups below on their first call, and each builds only the atom it is asked for: importing
# symcute.atoms (or the expression language) parses no atom layout.


class UnknownAtom(SymcuteError):
    """No catalogued atom has this name."""


_WRAPPERS = ("MMA_Atom", "MMA_Traits")


def _unwrap(sp: Spelled) -> tuple[Spelled, bool]:
    """The op inside ``MMA_Atom<MMA_Traits<...>>``; True when ``MMA_Traits<Op, args...>`` carries arguments
    (the form CuTe uses for the non-template ``SM100_MMA_F8F6F4_SS``)."""
    while strip_namespace(sp.name) in _WRAPPERS and sp.has_args and len(sp.args) >= 1 \
            and isinstance(sp.args[0], Spelled):
        if strip_namespace(sp.name) == "MMA_Traits" and len(sp.args) > 1:
            inner = sp.args[0]
            if inner.has_args:
                raise SymcuteError(f"{sp}: MMA_Traits<Op, args...> takes a non-template Op, got {inner}")
            return Spelled(inner.name, sp.args[1:], True), True
        sp = sp.args[0]
    return sp, False


def _canonical_base(name: str) -> str:
    from .mma_catalog import ALIASES
    name = strip_namespace(name)
    if name in ALIASES:
        return ALIASES[name]
    for prefix in ("SM90::GMMA::MMA_", "GMMA::MMA_"):
        if name.startswith(prefix):
            return "SM90_" + name[len(prefix):]
    return name


def mma_atom(name) -> MMAAtom:
    """The catalogued atom spelled ``name`` as in C++ (whitespace, ``cute::`` and ``MMA_Atom<>`` ignored).

    >>> mma_atom("SM80_16x8x16_F16F16F16F16_TN").shape_mnk
    (16, 8, 16)
    An MMAAtom is returned as is.  Unknown names raise UnknownAtom with close names.
    """
    if isinstance(name, MMAAtom):
        return name
    from . import mma_catalog, mma_gmma as gmma, mma_gmma_sparse as gmma_sparse, mma_sm120 as sm120
    from . import mma_umma as umma
    sp, traits_form = _unwrap(read_spelling(name))
    base = _canonical_base(sp.name)
    spelled = str(name)
    if traits_form and base not in umma.BY_NAME:
        raise SymcuteError(f"{name!r}: CuTe defines no MMA_Traits<{base}, ...> with extra arguments")
    if base == "UniversalFMA":
        return universal_fma(sp, spelled)
    atom = mma_catalog.warp_atom(base) or umma.ffma2_atom(base)
    if atom is not None:
        if sp.args:
            raise SymcuteError(f"{name!r}: {base} is not a template and takes no template arguments")
        return atom
    found = gmma.family_of(base)
    if found is not None:
        fam, n, source = found
        return gmma.instantiate(fam, n, source, sp.args, sp.has_args, spelled)
    found = gmma_sparse.lookup(sp, base, spelled)
    if found is not None:
        return found
    fam = umma.BY_NAME.get(base)
    if fam is not None:
        if fam.traits_args != traits_form:
            if fam.traits_args:
                raise SymcuteError(
                    f"{name!r}: {base} is not a template; CuTe 4.2 defines its traits only as "
                    f"MMA_Traits<{base}, a_type, b_type, c_type, C<M>, C<N>, integral_constant<UMMA::Major, ...> x2, "
                    f"integral_constant<UMMA::ScaleIn, ...> x2> (there is no MMA_Traits<{base}>: CUTLASS #3207)")
            raise SymcuteError(f"{name!r}: {base} is a class template; write {base}<...> inside MMA_Traits")
        if not sp.has_args:
            raise SymcuteError(f"{name!r}: {base} is a template{umma.signature(fam)} and needs its arguments")
        return umma.instantiate(fam, sp.args, spelled)
    fam = sm120.BY_NAME.get(base)
    if fam is not None:
        if not sp.has_args:
            raise SymcuteError(f"{name!r}: {fam.name} is a class template and needs its value type arguments")
        return sm120.instantiate(fam, sp.args, spelled)
    raise UnknownAtom(f"unknown MMA atom {name!r}" + _suggest(base))


_FMA_CACHE: dict = {}


def universal_fma(sp: Spelled, spelled: str) -> MMAAtom:
    """CuTe's ``UniversalFMA<D, A = D, B = A, C = D>`` (cute/arch/mma.hpp; its traits in cute/atom/mma_traits.hpp):
    one thread, one value of each operand, ``Shape_MNK = (1,1,1)``: the atom of sgemm_sm80 and of every
    CUDA-core GEMM."""
    from .spelling import type_name
    if not sp.has_args or not 1 <= len(sp.args) <= 4:
        raise SymcuteError(f"{spelled!r}: UniversalFMA is a class template <class D, class A = D, class B = A, "
                           f"class C = D> and takes 1 to 4 value types, got {len(sp.args) if sp.has_args else 0}")
    types = [type_name(a) for a in sp.args]
    d = types[0]
    a = types[1] if len(types) > 1 else d
    b = types[2] if len(types) > 2 else a
    c = types[3] if len(types) > 3 else d
    canonical = f"UniversalFMA<{d},{a},{b},{c}>"
    atom = _FMA_CACHE.get(canonical)
    if atom is None:
        one = "(1,1):(0,0)"
        atom = _FMA_CACHE[canonical] = MMAAtom(canonical, (1, 1, 1), "1:0", one, one, one, d, a, b, c,
                                               header="cute/arch/mma.hpp", ptx="fma", arch="any")
    return atom


def _family_names() -> list:
    from . import mma_gmma as gmma, mma_gmma_sparse as gmma_sparse, mma_sm120 as sm120, mma_umma as umma
    from .mma_catalog import WARP_ATOM_NAMES
    names = ["UniversalFMA"] + list(WARP_ATOM_NAMES) + list(umma.FFMA2) + [b for b, *_ in gmma.all_base_names()]
    names += [b for b, *_ in gmma_sparse.all_base_names()]
    names += [f.name for f in umma.FAMILIES] + [f.name for f in sm120.FAMILIES]
    return names


def _suggest(base: str) -> str:
    names = _family_names()
    close = difflib.get_close_matches(base, names, n=4, cutoff=0.6)
    if not close and "::" in base:   # a namespace-qualified name: compare its last component too
        short = base.rsplit("::", 1)[-1]
        close = [n for n in names if n.rsplit("::", 1)[-1] in
                 difflib.get_close_matches(short, [m.rsplit("::", 1)[-1] for m in names], n=4, cutoff=0.7)]
    return f"; did you mean {', '.join(close[:4])}?" if close else "; `symcute atoms` lists the catalog"


@dataclass(frozen=True)
class CatalogEntry:
    """One row of the catalog listing: a concrete atom or a GMMA template family member."""
    name: str            # the C++ spelling to look up (templates show their parameters)
    arch: str
    header: str
    ptx: str
    atom: MMAAtom        # the atom with default template arguments (layouts do not depend on them)
    template: str = ""   # template parameter list, "" for plain atoms

    @property
    def lookup_name(self) -> str:
        """A spelling that ``mma_atom`` accepts (K-major defaults for the Major parameters)."""
        return self.atom.name


def mma_atoms(filter: str | None = None, arch: str | None = None, extended: bool = True) -> list[CatalogEntry]:
    """Every catalogued MMA atom (GMMA families once per N and source), filtered by substring and arch."""
    from . import mma_gmma as gmma, mma_gmma_sparse as gmma_sparse, mma_sm120 as sm120, mma_umma as umma
    from .mma_catalog import warp_atoms
    rows = [CatalogEntry(a.name, a.arch, a.header, a.ptx, a) for a in warp_atoms().values()]
    for base, fam, n, source in gmma.all_base_names(extended):
        sig = gmma.template_signature(fam)
        atom = gmma.make_atom(fam, n, source, base + gmma.default_arguments(fam))
        rows.append(CatalogEntry(base + (sig if fam.params == gmma.MAJORS else ""), "sm90", atom.header, atom.ptx,
                                 atom, sig))
    for base, fam, n, source in gmma_sparse.all_base_names(extended):
        sig = gmma_sparse.template_signature(fam)
        atom = gmma_sparse.make_atom(fam, n, source, base + gmma_sparse.default_arguments(fam))
        rows.append(CatalogEntry(base + sig, "sm90", atom.header, atom.ptx, atom, sig))
    rows += [CatalogEntry(a.name, a.arch, a.header, a.ptx, a) for a in umma.ffma2_atoms().values()]
    for fam in umma.FAMILIES:   # every (M, N) the static_asserts allow, with representative value types
        sig = umma.signature(fam)
        for m, n in umma.members(fam):
            atom = umma.instantiate(fam, umma.default_args(fam, m, n), fam.name)
            rows.append(CatalogEntry(atom.name, fam.arch, atom.header, atom.ptx, atom, sig))
    for fam in sm120.FAMILIES:  # layouts do not depend on the value types: one representative each
        atom = sm120.instantiate(fam, sm120.default_args(fam), fam.name)
        rows.append(CatalogEntry(atom.name, "sm120", atom.header, atom.ptx, atom, "<a_type,b_type,c_type"
                                 + (",sf_type,VS>" if fam.vs else ">")))
    if arch:
        want = arch.lower().replace("sm_", "sm")
        rows = [r for r in rows if r.arch == want]
    if filter:
        needle = "".join(filter.split()).lower()
        rows = [r for r in rows if needle in r.name.lower() or needle in r.ptx.lower()]
    return rows
