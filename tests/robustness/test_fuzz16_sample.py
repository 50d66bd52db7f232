"""A CI-sized sample of the independent fuzz run of issue 16 (``tests/robustness/fuzz16.py``).

The large run (``python -m tests.robustness.fuzz16 OUT.json 1 SEED MINUTES``, counts in
docs/errors.md) draws 100,000+ inputs; here each entry point gets a few dozen, with the same
generators, bounds and verdicts: no crash, no hang past the CPU bound, no write outside the target, no
clean error carrying Python's own message (``index out of range``, ``object has no attribute``: the
scan of ``harness.INTERNAL_MESSAGE``).
"""

import pytest

from . import fuzz16

SAMPLE = {"expr": 60, "cli": 30, "huge": 6, "fs": 16, "json:derivation": 30, "json:formula": 60,
          "json:proof": 60, "json:results": 40, "json:manifest": 15, "json:user_atoms": 10, "json:evidence": 10}


@pytest.mark.parametrize("kind", sorted(SAMPLE))
def test_fuzz16_sample(kind, tmp_path):
    log = tmp_path / "failures.txt"
    counts = fuzz16.run(kind, SAMPLE[kind], seed=7, log=str(log))
    bad = {k: counts[k] for k in ("crash", "hang", "wrote-outside", "internal-message") if counts[k]}
    assert not bad, f"{kind}: {bad}\n" + (log.read_text()[:4000] if log.exists() else "")
    assert counts["inputs"] == SAMPLE[kind]
