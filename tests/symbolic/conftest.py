"""Print the prover cross-check counts (test_trust.py) at the end of the run."""

from .trust_counts import COUNTS


def pytest_terminal_summary(terminalreporter):
    if not COUNTS:
        return
    tr = terminalreporter
    tr.section("symcute prover vs exhaustive evaluation (tests/symbolic/test_trust.py)")
    for line in COUNTS.get("lines", []) + COUNTS.get("f2 lines", []):
        tr.write_line(line)
