"""When real CuTe cannot be compiled: skip only where the test extra is not installed.

The differential tests compare with real CuTe.  Without the ``nvidia-cutlass``
wheel (a plain ``pip install .``) they cannot run and are skipped; with it
installed (``pip install '.[test]'``, as CI does) an oracle that does not come
up (no g++, headers that fail to compile) is a failure, so a broken toolchain
can never turn the differential suite into a silent pass.
"""

import importlib.util

import pytest


def cute_unavailable(reason) -> None:
    """Skip (headers not installed) or fail (installed, yet real CuTe does not work here)."""
    if importlib.util.find_spec("cutlass_library") is None:
        pytest.skip(f"real CuTe is not available here (the test extra is not installed): {reason}")
    pytest.fail(f"the nvidia-cutlass headers are installed but real CuTe does not work here: {reason}")
