"""symcute.atoms: CuTe's MMA and copy atoms as data, TiledMMA and TiledCopy, names, and the atom linter."""

from .mma_atom import MMAAtom, UpstreamDefect
from .mma_lookup import UnknownAtom, mma_atom, mma_atoms
from .tiled_mma import ThrMMA, TiledMMA, make_tiled_mma

__all__ = ["MMAAtom", "UpstreamDefect", "UnknownAtom", "mma_atom", "mma_atoms",
           "ThrMMA", "TiledMMA", "make_tiled_mma"]
