"""Shared pytest configuration: hypothesis profiles (a larger one behind SYMCUTE_LARGE=1) and the markers.

Markers (registered in pyproject.toml): ``cute`` for tests that compile real CuTe (every test in
tests/differential and tests/oracle, and elsewhere each test marked ``@pytest.mark.cute``; a test that runs
the oracle without the marker fails) and ``slow`` for the fuzz suites and the proof drift check;
``pytest -m "not cute"`` or ``pytest -m "not cute and not slow"`` is the fast loop.
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


_CUTE_DIRS = {"differential", "oracle"}   # every test there compiles real CuTe
_RUNNING: list = []                       # the test being run (set by pytest_runtest_protocol below)


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = Path(str(item.fspath))
        if _CUTE_DIRS & set(path.parts[len(Path(__file__).parent.parts):]):
            item.add_marker(pytest.mark.cute)
        if path.name.startswith("test_fuzz_") or path.name == "test_proofs_drift.py":
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    _RUNNING[:] = [item]


def pytest_configure(config):
    """Outside tests/differential and tests/oracle a test that compiles CuTe says so with ``@pytest.mark.cute``;
    one that runs :class:`CuteOracle` without it fails, so ``-m "not cute"`` never compiles anything."""
    from symcute.oracle.runner import CuteOracle
    run = CuteOracle.run

    def guarded(self, *args, **kwargs):
        item = _RUNNING[0] if _RUNNING else None
        if item is not None and item.get_closest_marker("cute") is None:
            pytest.fail(f"{item.nodeid} compiles CuTe but has no cute marker: add @pytest.mark.cute", pytrace=False)
        return run(self, *args, **kwargs)
    CuteOracle.run = guarded
    config.add_cleanup(lambda: setattr(CuteOracle, "run", run))
