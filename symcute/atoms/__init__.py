"""symcute.atoms: CuTe's MMA and copy atoms as data, TiledMMA and TiledCopy, names, and the atom linter."""

from .lint import Finding, LintReport, lint_catalog, lint_copy_atom, lint_mma_atom
from .mma_atom import MMAAtom, UpstreamDefect
from .mma_lookup import UnknownAtom, mma_atom, mma_atoms
from .copy_atom import CopyAtom
from .copy_catalog import copy_atom, copy_atoms
from .names import tile_names, tv_names
from .smem_layouts import smem_layout_atom, smem_layout_atom_bits, smem_layout_atom_names
from .tiled_copy import RetileSteps, ThrCopy, TiledCopy
from .tiled_mma import ThrMMA, TiledMMA, make_tiled_mma
from .tmem import tmem_frg
from .builders import (
    make_cotiled_copy, make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B, make_tiled_copy_C,
    make_tiled_copy_C_atom, make_tiled_copy_D, make_tiled_copy_S, make_tmem_copy, make_utccp_copy,
)

__all__ = ["MMAAtom", "UpstreamDefect", "UnknownAtom", "mma_atom", "mma_atoms",
           "ThrMMA", "TiledMMA", "make_tiled_mma", "CopyAtom", "copy_atom", "copy_atoms",
           "RetileSteps", "ThrCopy", "TiledCopy", "make_tiled_copy", "make_tiled_copy_A", "make_tiled_copy_B",
           "make_tiled_copy_C", "make_tiled_copy_D", "make_tiled_copy_S", "make_tiled_copy_C_atom", "make_cotiled_copy", "tv_names", "tile_names",
           "Finding", "LintReport", "lint_catalog", "lint_copy_atom", "lint_mma_atom",
           "smem_layout_atom", "smem_layout_atom_bits", "smem_layout_atom_names",
           "make_tmem_copy", "make_utccp_copy", "tmem_frg"]
