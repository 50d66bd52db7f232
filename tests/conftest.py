"""Shared pytest configuration: hypothesis profiles (a larger one behind SYMCUTE_LARGE=1) and the markers.

Markers (registered in pyproject.toml): ``cute`` for tests that compile real CuTe
(the differential suite, the oracle, any module that builds a CuteOracle) and
``slow`` for the fuzz suites; ``pytest -m "not cute and not slow"`` is the fast loop.
"""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from .cli_runner import run_cli
from .large import large_run

settings.register_profile("ci", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("large", max_examples=5000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("large" if large_run() else "ci")


@pytest.fixture
def cli():
    """Run the symcute command in-process: ``code, out, err = cli("calc", "4:1")`` (see tests/cli_runner.py)."""
    return run_cli


_CUTE_DIRS = {"differential", "oracle"}
_CUTE_WORDS = ("CuteOracle", "oracle_or_skip", "symcute.oracle")


def _compiles_cute(path: Path, cache: dict) -> bool:
    if path not in cache:
        text = path.read_text(encoding="utf-8") if path.suffix == ".py" else ""
        cache[path] = bool(_CUTE_DIRS & set(path.parts)) or any(w in text for w in _CUTE_WORDS)
    return cache[path]


def pytest_collection_modifyitems(config, items):
    cache: dict = {}
    for item in items:
        path = Path(str(item.fspath))
        if _compiles_cute(path, cache):
            item.add_marker(pytest.mark.cute)
        if path.name.startswith("test_fuzz_") or path.name == "test_proofs_drift.py":
            item.add_marker(pytest.mark.slow)
