"""symcute.hwcheck: confirm MMA atoms' layouts on a GPU's tensor cores (beside the layer stack, like ``oracle``).

It reads the atom catalog and core's layouts, generates CUDA for nvcc, and
compares measured D registers with the product model.  ``import symcute.atoms``
does not load it; it finds CUTLASS's headers with the oracle's lookup
(:func:`symcute.oracle.toolchain.find_cute_include`).

- :mod:`.api`: :func:`hwcheck`, :func:`plan`, :func:`read_results` (emit, run, read back);
- :mod:`.plan`: cases and their deterministic inputs; :mod:`.values`: value types and packing;
- :mod:`.model`: the product model (what D must be); :mod:`.program`: the CUDA program and run script;
- :mod:`.report`: per-case comparison and its Markdown; :mod:`.evidence`: the recorded-evidence file.
"""

from .api import hwcheck, plan, read_results

__all__ = ["hwcheck", "plan", "read_results"]
