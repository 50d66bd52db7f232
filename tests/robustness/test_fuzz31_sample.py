"""A default-run sample of the round-three fuzz run of issue 31 (``tests/robustness/fuzz31.py``).

The large run (``python -m tests.robustness.fuzz31 OUT.json 1 SEED MINUTES``) draws 150,000+ inputs; here
each entry point gets a handful (a few seconds in all), with the same generators, bounds and verdicts: no
crash, no hang past the CPU or wall-clock bound, no unsafe write, and no clean error carrying Python's own
message (``index out of range``, ``object has no attribute``, ...: ``harness.INTERNAL_MESSAGE``).
"""

import pytest

from . import fuzz31

SAMPLE = {"prove": 12, "calc": 12, "bank": 8, "derive": 6, "read": 6, "write": 6, "emit": 1}


@pytest.mark.parametrize("kind", sorted(SAMPLE))
def test_fuzz31_sample(kind, tmp_path):
    log = tmp_path / "failures.txt"
    counts = fuzz31.run(kind, SAMPLE[kind], seed=7, log=str(log))
    bad = {k: counts[k] for k in fuzz31.BAD if counts[k]}
    assert not bad, f"{kind}: {bad}\n" + (log.read_text()[:4000] if log.exists() else "")
    assert counts["inputs"] == SAMPLE[kind]
