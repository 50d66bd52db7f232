"""Print the differential suite's case counts per operation at the end of the run."""

from .harness import COUNTS


def pytest_terminal_summary(terminalreporter):
    if not COUNTS:
        return
    tr = terminalreporter
    tr.section("symcute vs real CuTe (differential suite)")
    total = 0
    for key in sorted(COUNTS):
        c = COUNTS[key]
        total += c["cases"]
        tr.write_line(f"{key:40s} cases={c['cases']:5d}  valid={c['valid']:5d}  "
                      f"refused={c['refused']:4d}  mismatches={c['mismatch']}"
                      + (f"  undefined={c['undefined']}" if c['undefined'] else ""))
    tr.write_line(f"{'total':40s} cases={total:5d}")
