"""``mma_atom(name)``: find an MMA atom by its C++ spelling; ``mma_atoms()``: list the catalog."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from ..errors import SymcuteError
from . import mma_gmma as gmma
from .mma_atom import MMAAtom
from .mma_catalog import ALIASES, WARP_ATOMS
from .spelling import Spelled, read_spelling, strip_namespace


class UnknownAtom(SymcuteError):
    """No catalogued atom has this name."""


_WRAPPERS = ("MMA_Atom", "MMA_Traits")


def _unwrap(sp: Spelled) -> Spelled:
    while strip_namespace(sp.name) in _WRAPPERS and sp.has_args and len(sp.args) >= 1 \
            and isinstance(sp.args[0], Spelled):
        sp = sp.args[0]
    return sp


def _canonical_base(name: str) -> str:
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
    sp = _unwrap(read_spelling(name))
    base = _canonical_base(sp.name)
    atom = WARP_ATOMS.get(base)
    if atom is not None:
        if sp.args:
            raise SymcuteError(f"{name!r}: {base} is not a template and takes no template arguments")
        return atom
    found = gmma.family_of(base)
    if found is not None:
        fam, n, source = found
        return gmma.instantiate(fam, n, source, sp.args, sp.has_args, str(name))
    raise UnknownAtom(f"unknown MMA atom {name!r}" + _suggest(base))


def _suggest(base: str) -> str:
    names = list(WARP_ATOMS) + [b for b, *_ in gmma.all_base_names()]
    close = difflib.get_close_matches(base, names, n=4, cutoff=0.6)
    return f"; did you mean {', '.join(close)}?" if close else "; `symcute atoms` lists the catalog"


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
    rows = [CatalogEntry(a.name, a.arch, a.header, a.ptx, a) for a in WARP_ATOMS.values()]
    for base, fam, n, source in gmma.all_base_names(extended):
        sig = gmma.template_signature(fam)
        atom = gmma.make_atom(fam, n, source, base + gmma.default_arguments(fam))
        rows.append(CatalogEntry(base + (sig if fam.params == gmma.MAJORS else ""), "sm90", atom.header, atom.ptx,
                                 atom, sig))
    if arch:
        want = arch.lower().replace("sm_", "sm")
        rows = [r for r in rows if r.arch == want]
    if filter:
        needle = "".join(filter.split()).lower()
        rows = [r for r in rows if needle in r.name.lower() or needle in r.ptx.lower()]
    return rows
