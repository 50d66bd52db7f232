"""Robustness suite: an address-space cap and a scratch working directory per test; the counts."""

import pytest

from . import harness

# Loaded before any address-space cap: their thread pools and arenas belong to the baseline, not to an input.
import numpy  # noqa: E402,F401
import sympy  # noqa: E402,F401
import networkx  # noqa: E402,F401


@pytest.fixture(autouse=True)
def _bounded_memory():
    with harness.memory_cap():
        yield


@pytest.fixture(autouse=True)
def _scratch_directory(tmp_path, monkeypatch):
    """Fuzzed commands write where hostile arguments say (``derive -o '('``): never into the checkout."""
    monkeypatch.chdir(tmp_path)


def pytest_terminal_summary(terminalreporter):
    if not harness.COUNTS:
        return
    terminalreporter.write_sep("-", "robustness: generated inputs per entry point")
    for entry, n in sorted(harness.COUNTS.items()):
        kinds = {k[1]: v for k, v in harness.OUTCOMES.items() if k[0] == entry}
        detail = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
        terminalreporter.write_line(f"{entry:28s} {n:8d}   ({detail})")


@pytest.fixture
def small_exhaustive_limit():
    """Fuzzing checks the contract, not the limit: 2^16 keeps each fallback enumeration within the time bound.

    (At the default 2^24 one enumeration legitimately takes seconds; the limit itself is tested in
    test_large_values.py and test_errors_doc.py.)
    """
    from symcute.symbolic.limits import set_exhaustive_limit
    old = set_exhaustive_limit(1 << 16)
    yield
    set_exhaustive_limit(old)
