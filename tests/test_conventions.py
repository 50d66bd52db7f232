"""The tests' own conventions, checked over tests/ (docs/architecture.md, "Tests"): one CLI runner, one module of
shared generators, ``assume`` (never a silent ``return``) where a property test meets a refused input."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
RUNNER = TESTS / "cli_runner.py"


def _modules(root: Path = TESTS):
    for path in sorted(root.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def cli_runner_bypasses(root: Path = TESTS) -> list[str]:
    """Places that run the symcute command without tests/cli_runner.py: ``symcute.cli.main`` imported, or a
    ``[sys.executable, "-m", "symcute", ...]`` command line."""
    found = []
    for path, tree in _modules(root):
        if path == RUNNER:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "symcute.cli":
                if any(a.name == "main" for a in node.names):
                    found.append(f"{path.relative_to(root)}:{node.lineno}: imports symcute.cli.main")
            if isinstance(node, ast.List) and len(node.elts) >= 3:
                head = node.elts[:3]
                if (ast.unparse(head[0]) == "sys.executable" and all(isinstance(e, ast.Constant) for e in head[1:])
                        and [e.value for e in head[1:]] == ["-m", "symcute"]):
                    found.append(f"{path.relative_to(root)}:{node.lineno}: runs python -m symcute itself")
    return found


def silent_returns(root: Path = TESTS) -> list[str]:
    """Hypothesis tests that ``return`` from an ``except`` clause (the input is then counted as a passing case)."""
    found = []
    for path, tree in _modules(root):
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef) or not any("given" in ast.unparse(d) for d in fn.decorator_list):
                continue
            for handler in ast.walk(fn):
                if isinstance(handler, ast.ExceptHandler):
                    for node in ast.walk(handler):
                        if isinstance(node, ast.Return) and node.value is None:
                            found.append(f"{path.relative_to(root)}:{node.lineno}: {fn.name} returns on an error")
    return found


def strategy_modules(root: Path = TESTS) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("strategies.py"))


def test_every_cli_call_goes_through_the_runner():
    assert cli_runner_bypasses() == []


def test_property_tests_assume_instead_of_returning():
    assert silent_returns() == []


def test_one_module_of_shared_generators():
    assert strategy_modules() == ["strategies.py"]


def test_the_checks_find_what_they_forbid(tmp_path):
    (tmp_path / "strategies.py").write_text("")
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "strategies.py").write_text("")
    (tmp_path / "test_bad.py").write_text(
        "import sys\n"
        "from hypothesis import given\n"
        "from symcute.cli import main\n"
        "CMD = [sys.executable, '-m', 'symcute', 'calc']\n"
        "@given(layouts())\n"
        "def test_x(L):\n"
        "    try:\n"
        "        f(L)\n"
        "    except LayoutError:\n"
        "        return\n")
    assert [f.split(": ", 1)[1] for f in cli_runner_bypasses(tmp_path)] == ["imports symcute.cli.main",
                                                                          "runs python -m symcute itself"]
    assert silent_returns(tmp_path) == ["test_bad.py:10: test_x returns on an error"]
    assert strategy_modules(tmp_path) == ["core/strategies.py", "strategies.py"]
