"""Every import in symcute/ (function-level ones included) is the standard library, symcute itself, or a
runtime dependency that pyproject.toml declares: ``pip install .`` alone must satisfy the package."""

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# distribution name -> the module it is imported as, where the two differ
IMPORT_NAME = {"networkx": "networkx", "sympy": "sympy", "numpy": "numpy", "z3-solver": "z3"}


def runtime_dependencies() -> set:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = re.search(r"^dependencies = \[(.*?)\]", text, re.S | re.M).group(1)
    names = {re.match(r"[A-Za-z0-9_.-]+", d).group(0).lower() for d in re.findall(r'"([^"]+)"', block)}
    return {IMPORT_NAME.get(n, n.replace("-", "_")) for n in names}


def optional_dependencies() -> set:
    """The modules of the optional extras a user opts into (``dot``, ``check``; not ``test``)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = re.search(r"^\[project\.optional-dependencies\](.*?)^\[", text, re.S | re.M).group(1)
    names = set()
    for group, body in re.findall(r"^(\w+) = \[(.*?)\]", block, re.S | re.M):
        if group != "test":
            names |= {re.match(r"[A-Za-z0-9_.-]+", d).group(0).lower() for d in re.findall(r'"([^"]+)"', body)}
    return {IMPORT_NAME.get(n, n.replace("-", "_")) for n in names}


def guarded_imports() -> dict:
    """``{module: file}`` of imports inside a ``try`` that catches ImportError (an optional extra's)."""
    found = {}
    for path in (ROOT / "symcute").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Try) and any(
                    isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError")
                    for h in node.handlers):
                for inner in node.body:
                    if isinstance(inner, ast.Import):
                        for a in inner.names:
                            found[a.name.split(".")[0]] = path.relative_to(ROOT).as_posix()
    return found


def imported_top_levels() -> dict:
    found = {}
    for path in (ROOT / "symcute").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                tops = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                tops = [node.module.split(".")[0]]
            else:
                continue
            for top in tops:
                found.setdefault(top, path.relative_to(ROOT).as_posix())
    return found


def test_every_import_is_stdlib_symcute_or_a_declared_runtime_dependency():
    declared = runtime_dependencies()
    # an optional extra's module may be imported only where ImportError is caught (pip install . must work)
    optional = optional_dependencies() & set(guarded_imports())
    undeclared = {top: where for top, where in imported_top_levels().items()
                  if top != "symcute" and top not in sys.stdlib_module_names and top not in declared
                  and top not in optional}
    assert not undeclared, f"imported but not in pyproject.toml's dependencies: {undeclared}"


def test_optional_extras_are_imported_only_behind_an_import_guard():
    # cvc5 (symcute[check]) is read by the checker inside try/except ImportError: without it the certificate is
    # "not re-checked", never an ImportError
    assert "cvc5" in optional_dependencies() and guarded_imports().get("cvc5") == "symcute/check.py"


def test_the_scan_sees_the_third_party_imports():
    # the check above is only as good as the scan: numpy (imported inside functions) must be seen
    assert {"numpy", "sympy", "networkx"} <= set(imported_top_levels())
