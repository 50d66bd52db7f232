"""symcute.memory: what a layout does to memory.

Bank conflicts (wavefronts per phase, exact for every lane), vector widths,
global-memory sectors and swizzle synthesis, over the addresses
``smem_layout(tv_layout(t, v))``.  The model and its sources: :mod:`.model`,
docs/memory.md.
"""

from .atom_synth import LayoutSynthesis, copy_access, synthesize_smem_layout, tv_access
from .copy import atom_kind, bank_conflicts, default_side
from .gmem import GlobalAccess, global_access
from .model import Instruction, cp_async, ld_st, matrix
from .shared import LaneAxes, Note, NoteKey, SharedAccess, VectorWidth, Witness, max_vector, shared_access

__all__ = ["shared_access", "bank_conflicts", "global_access", "GlobalAccess", "SharedAccess", "Witness", "LaneAxes", "VectorWidth",
           "Note", "NoteKey",
           "Instruction", "ld_st", "matrix", "cp_async", "max_vector", "atom_kind", "default_side",
           "synthesize_smem_layout", "copy_access", "tv_access", "LayoutSynthesis"]
