"""Print the prover cross-check counts (test_trust.py) at the end of the run; shared fixtures."""

from .trust_counts import COUNTS


def pytest_terminal_summary(terminalreporter):
    if not COUNTS:
        return
    tr = terminalreporter
    tr.section("symcute prover vs exhaustive evaluation (tests/symbolic/test_trust.py)")
    for line in COUNTS.get("lines", []) + COUNTS.get("f2 lines", []):
        tr.write_line(line)


import pytest


@pytest.fixture
def solvers_only():
    """Probing off for the test (symcute.symbolic.probe): what Z3 and ISL decide on their own."""
    from symcute.symbolic import probe
    old = probe.set_enabled(False)
    yield
    probe.set_enabled(old)
