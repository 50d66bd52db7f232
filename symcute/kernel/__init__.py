"""symcute.kernel: a CuTe GEMM mainloop described in TOML (or Python) and its data path proved (docs/kernel.md).

- :mod:`.description`: the description (``[problem]``, ``[tile]``, ``[a]``, ``[b]``, ``[c]``, ``[mma]``,
  ``[pipeline]``), every value a symcute expression; :func:`load` (a TOML file), :func:`from_dict`;
- :mod:`.datapath`: the data path's maps as layouts over the static CTA tile;
- :mod:`.claims`: :func:`check`, the claims ``a.load``, ``b.load``, ``a.fragment``, ``b.fragment``,
  ``c.store`` and ``residue`` decided by the prover, for every problem size;
- :mod:`.simulate`: :func:`run`, the same data path executed on integer numpy arrays at one problem size.

It sits above the expression language (its values are expressions) and below the CLI.
"""

from __future__ import annotations

from .claims import ClaimResult, KernelCheck, check
from .description import Accumulator, Kernel, Operand, from_dict, load
from .simulate import RunResult, run

__all__ = ["Kernel", "Operand", "Accumulator", "load", "from_dict", "check", "ClaimResult", "KernelCheck", "run", "RunResult"]
