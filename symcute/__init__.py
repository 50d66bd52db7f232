"""symcute: a symbolic prover for CuTe's layout algebra.

It computes exactly what CuTe (CUTLASS's C++ layout library) computes, and then
says why: closed-form formulas over named sub-axes, recorded derivations, and
proofs of layout identities.  The public API uses CuTe's names::

    from symcute import Layout, right_inverse, upcast
    F = Layout.parse("((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))")
    print(upcast(right_inverse(F).with_shape(32, 16), 1024))
"""

from .errors import IntOverflowWarning, LayoutError, LimitError, ParseError, SymcuteError, SymcuteWarning
from . import markup  # noqa: F401  (a leaf module every layer writes Markdown with; loaded here so that
#                        `from .. import markup` never goes through the lazy __getattr__ below)
from .core import *  # noqa: F401,F403  (CuTe's names, re-exported)


__version__ = "0.1.0"


def _register_notebook_displays() -> None:
    """Inside an IPython kernel, show symcute's values richly (symcute.notebook); elsewhere do nothing."""
    import sys
    ipython_module = sys.modules.get("IPython")
    shell = ipython_module.get_ipython() if ipython_module is not None else None
    if shell is not None and hasattr(shell, "display_formatter"):
        from .notebook import register
        register(shell)


_register_notebook_displays()

# The upper layers (atoms, symbolic, memory, trace, report) are imported on first use so
# that `import symcute` stays cheap (no SymPy) for users of the core algebra.
_LAYERS = ("atoms", "symbolic", "memory", "trace", "report")
_SUBPACKAGES = ("atoms", "symbolic", "memory", "trace", "recipes", "report", "expr", "cli", "hwcheck", "oracle")


def __getattr__(name: str):
    import importlib
    import os
    # `symcute.expr`, and `from .. import environment` inside a layer (Python asks the package for the name
    # before importing the submodule): a module of the package is imported alone, without loading every layer
    # first (the search below would import the memory layer, numpy included, for a leaf module)
    if name in _SUBPACKAGES or (name.isidentifier() and os.path.isfile(os.path.join(os.path.dirname(__file__),
                                                                                    name + ".py"))):
        return importlib.import_module(f"{__name__}.{name}")
    for layer in _LAYERS:
        try:
            module = importlib.import_module(f"{__name__}.{layer}")
        except ModuleNotFoundError as e:
            if e.name == f"{__name__}.{layer}":
                continue
            raise
        if name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            globals()[name] = value
            return value
    raise AttributeError(f"module 'symcute' has no attribute {name!r}")
