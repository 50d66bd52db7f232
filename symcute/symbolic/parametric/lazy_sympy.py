"""SymPy, imported on first use: ``from .lazy_sympy import sympy`` binds a module that loads on its first
attribute read (importlib's ``LazyLoader``).

Importing SymPy costs about 0.4 s of CPU, more than the rest of the parametric prover; with this module,
``import symcute.symbolic.parametric.prover`` (and every layer that imports it) pays for SymPy only when a
parametric value, condition or proof is built.  Once SymPy is loaded (here or by anyone's ``import sympy``),
the name is the ordinary module.
"""

from __future__ import annotations

import importlib.util
import sys


def _lazy(name: str):
    module = sys.modules.get(name)
    if module is not None:
        return module
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:   # not installed: fail as `import sympy` would, at import
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


sympy = _lazy("sympy")
