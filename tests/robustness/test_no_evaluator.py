"""No code path feeds user text to ``eval``, ``exec``, ``compile``, ``sympify`` or ``parse_expr``.

(a) Static: an AST walk over the whole package finds no call of ``eval``,
``exec``, ``compile`` (the builtin), ``__import__``, ``sympify``,
``parse_expr`` or ``S(...)`` -- ``sympify``/``S`` only with literal
arguments -- and no import of ``sympy.parsing``.  ``sympy.lambdify`` (which
generates source from symbol names and ``exec``s it) is allowed in
``symbolic/formula.py`` alone, where the names are validated identifiers.

(b) Dynamic: with ``builtins.eval``/``exec``/``compile``, ``sympy.sympify``
(every module's reference, and ``S(...)``) and ``parse_expr`` patched, formulas,
proofs, derive and the CLI run on adversarial input and still answer, or fail
with a SymcuteError.  SymPy calls ``sympify`` internally on objects symcute
built (Symbols, ints): allowed; a ``str`` reaching it fails the test.  The one
``exec`` allowed is lambdify's, and only on source whose identifiers are the
formula's validated names and SymPy's own.
"""

from __future__ import annotations

import ast
import builtins
import keyword
import pathlib
import sys

import pytest

import symcute

from ..cli_runner import run_cli

PACKAGE = pathlib.Path(symcute.__file__).parent
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "parse_expr", "sympify", "_sympify", "S"}
LAMBDIFY_HOME = PACKAGE / "symbolic" / "formula.py"


def _called_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        base = func.value
        if func.attr == "compile" and isinstance(base, ast.Name) and base.id == "re":
            return None  # re.compile: a regular expression, not Python source
        if func.attr in ("eval", "exec", "compile", "__import__"):
            return func.attr if isinstance(base, ast.Name) and base.id == "builtins" else None
        return func.attr
    return None


def _literal(node: ast.expr) -> bool:
    try:
        value = ast.literal_eval(node)  # reads a literal node; evaluates nothing
    except ValueError:
        return False
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _findings(path: pathlib.Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    rel = path.relative_to(PACKAGE.parent)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _called_name(node.func)
            if name in ("sympify", "_sympify", "S"):
                if not all(_literal(a) for a in node.args) or node.keywords:
                    out.append(f"{rel}:{node.lineno}: {name}() with a non-literal argument")
            elif name in FORBIDDEN_CALLS:
                out.append(f"{rel}:{node.lineno}: call of {name}()")
            elif name == "getattr" and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                    and node.args[1].value in FORBIDDEN_CALLS:
                out.append(f"{rel}:{node.lineno}: getattr(..., {node.args[1].value!r})")
            elif name == "lambdify" and path != LAMBDIFY_HOME:
                out.append(f"{rel}:{node.lineno}: lambdify outside symbolic/formula.py")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            imported = [a.name for a in node.names]
            if any(m.startswith("sympy.parsing") for m in modules) or (
                    isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sympy")
                    and set(imported) & {"sympify", "parse_expr", "S", "parsing"}):
                out.append(f"{rel}:{node.lineno}: imports an evaluator from sympy ({', '.join(imported)})")
    return out


def test_static_no_evaluator_in_the_package():
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 50  # the walk really covers the package
    findings = [f for path in files for f in _findings(path)]
    assert findings == []


def test_static_check_catches_what_it_forbids(tmp_path, monkeypatch):
    """The walk is not vacuous: each forbidden form in a file is reported."""
    bad = PACKAGE / "_robustness_probe_never_committed.py"
    source = ("import builtins, sympy\nfrom sympy import sympify\nfrom sympy.parsing.sympy_parser import parse_expr\n"
              "def f(text):\n    eval(text); exec(text); compile(text, 'x', 'eval'); __import__(text)\n"
              "    sympy.sympify(text); sympy.S(text); parse_expr(text); builtins.eval(text)\n"
              "    getattr(builtins, 'exec')(text); sympy.lambdify([], text)\n"
              "    sympy.S(1); import re; re.compile(text)\n")
    monkeypatch.setattr(pathlib.Path, "read_text", lambda self, **kw: source)
    findings = _findings(bad)
    kinds = " ".join(findings)
    for word in ["eval()", "exec()", "compile()", "__import__()", "sympify() with", "S() with", "parse_expr()",
                 "getattr(..., 'exec')", "lambdify outside", "imports an evaluator"]:
        assert word in kinds, (word, findings)
    assert len(findings) == 12  # S(1) and re.compile(text) are not findings


# --- dynamic ------------------------------------------------------------------------------

class EvaluatorReached(AssertionError):
    pass


# Every adversarial input below holds the tag PWN: Python's own library evaluates text of its making
# (namedtuple, dataclasses), which never holds it.
MARKERS = ["PWN"]


def _holds_user_text(source) -> bool:
    if isinstance(source, bytes):
        source = source.decode("utf-8", "replace")
    return isinstance(source, str) and any(m in source for m in MARKERS)


@pytest.fixture
def no_evaluators(monkeypatch):
    """Patch every evaluator; yields the list of lambdify sources that were compiled (and checked).

    ``eval``/``exec``/``compile`` refuse: any call made directly from symcute's code; any text that
    holds a piece of the adversarial input; and lambdify's generated source unless its arguments are
    valid identifiers.  ``sympify`` (every module's reference, and ``S(...)``) refuses any ``str``;
    ``parse_expr`` refuses everything.
    """
    import sympy
    import numpy  # noqa: F401  (imported before patching: importing runs the library's own code)
    import symcute.cli, symcute.expr, symcute.report, symcute.symbolic, symcute.recipes  # noqa: F401,E401
    sympify_module = sys.modules["sympy.core.sympify"]
    original = sympify_module.sympify
    from sympy.parsing import sympy_parser
    lambdified: list[str] = []
    real = {"eval": builtins.eval, "exec": builtins.exec, "compile": builtins.compile}

    def guarded_sympify(a, *args, **kwargs):
        if isinstance(a, (str, bytes)):
            raise EvaluatorReached(f"sympify received text {a!r}")
        return original(a, *args, **kwargs)

    def refuse(name):
        def f(*args, **kwargs):
            raise EvaluatorReached(f"{name} called with {args[:1]!r}")
        return f

    def guard(name):
        def f(source, *args, **kwargs):
            if name == "compile" and (args[2:3] or [kwargs.get("flags", 0)])[0] & ast.PyCF_ONLY_AST:
                return real[name](source, *args, **kwargs)  # ast.parse: a tree, nothing runs
            caller = sys._getframe(1).f_globals.get("__name__", "")
            if caller == "symcute" or caller.startswith("symcute."):
                raise EvaluatorReached(f"{name} called from {caller}: {source!r:.200}")
            if caller.startswith("importlib.") and name == "compile" and pathlib.Path(str(args[0])).is_file():
                pass  # importing a module: its source comes from its file
            elif caller == "sympy.utilities.lambdify" and isinstance(source, str):
                _check_lambdify_source(source)
                lambdified.append(source)
            elif _holds_user_text(source):
                raise EvaluatorReached(f"{name} from {caller} received user text: {source!r:.200}")
            if name != "compile" and not args and "globals" not in kwargs:  # the caller's namespace, as unpatched
                frame = sys._getframe(1)
                args = (frame.f_globals, frame.f_locals)
            return real[name](source, *args, **kwargs)
        return f

    for mod in list(sys.modules.values()):
        if mod is None or not getattr(mod, "__name__", "").startswith("sympy"):
            continue
        for attr, value in list(vars(mod).items()):
            if value is original:
                monkeypatch.setattr(mod, attr, guarded_sympify)
            elif value is sympy_parser.parse_expr:
                monkeypatch.setattr(mod, attr, refuse("parse_expr"))
    monkeypatch.setattr(type(sympy.S), "__call__", staticmethod(guarded_sympify))
    for name in real:
        monkeypatch.setattr(builtins, name, guard(name))
    yield lambdified


def _check_lambdify_source(source: str) -> None:
    """Every identifier in lambdify's generated function is a valid name that is no keyword."""
    tree = ast.parse(source)  # ast.parse builds a tree only; nothing is evaluated
    fns = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    if not fns:  # lambdify importing its numeric module: imports only, of numpy
        assert all(isinstance(n, (ast.Import, ast.ImportFrom)) for n in tree.body), source
        assert "numpy" in source
        return
    assert len(fns) == 1
    for arg in fns[0].args.args:
        assert arg.arg.isidentifier() and arg.arg.isascii() and not keyword.iskeyword(arg.arg), arg.arg


HOSTILE_NAMES = ["__import__('os').system('PWN')", "eval('PWN')", "exec_PWN(1)", "lambda: PWN", "os.PWN",
                 "(a,PWN)); import os", "x; PWN", "{PWN}", "a' + 'PWN", "PWN\\x00", "<script>PWN"]
VALID_BUT_LOADED = [("E", "I"), ("pi", "oo"), ("Symbol", "Integer"), ("sympify", "exec"), ("numpy", "builtins"),
                    ("__import__", "eval"), ("S", "N")]
HOSTILE_EXPRESSIONS = ["__import__('os').system('PWN')", "eval('PWN')", "L.__class__.PWN", "L.__init__(PWN)",
                       "exec('PWN')", "compile('PWN','x','eval')", "sympify('PWN')", "S('PWN')",
                       "parse_expr('PWN')", "().__class__.__bases__[0].__subclasses__(PWN)", "open('/PWN')",
                       "1 if PWN else 0", "[PWN for x in ()]", "lambda: PWN", "getattr(L, 'PWN')", "L.PWN",
                       "globals(PWN)", "upcast(L, PWN)", "composition(L, PWN)"]


def test_user_text_never_reaches_an_evaluator(no_evaluators):
    from symcute import Layout
    from symcute import expr as language
    from symcute.expr import derive_expr
    from symcute.errors import SymcuteError
    import symcute.symbolic as sym
    L = Layout.parse("((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))")
    results = []

    def attempt(fn, *args):
        try:
            results.append(("value", fn(*args)))
        except SymcuteError as e:
            results.append(("error", e))

    for name in HOSTILE_NAMES:
        attempt(sym.formula, Layout.parse("(4,8):(8,1)"), f"({name},b)")
        attempt(sym.formula, Layout.parse("(4,8):(8,1)"), (name, "b"))
    for names in VALID_BUT_LOADED:
        f = sym.formula(Layout.parse("(4,8):(8,1)"), names)
        assert str(f) == f"8*{names[0]} + {names[1]}"
        assert {s.name for s in f.expr.free_symbols} == set(names)  # Symbols named so, not SymPy's E, I, pi
        f.latex()
        f.index_text()
        assert f.lambdify()(1, 1) == 9
        proof = sym.prove_right_inverse(f)
        assert proof.verdict == "proved", proof
        assert sym.is_injective(f).verdict == "proved"
    assert no_evaluators, "lambdify's exec was never reached: the check of its source did not run"
    for text in HOSTILE_EXPRESSIONS:
        attempt(language.evaluate, text, {"L": L})
        assert results[-1][0] == "error", (text, results[-1])
    # formulas, proofs and derivations over adversarial layout text
    for text in ["(4,8):(8,1); import PWN", "(4,8):(8,__import__('PWN'))", "Sw<3,4,3> o PWN o (8,64):(64,1)"]:
        attempt(lambda t: sym.prove_right_inverse(sym.formula(Layout.parse(t))), text)
    d = derive_expr("upcast<1024>(right_inverse(F).with_shape(32,16))", {"F": str(L)},
                            {"F": "((t0,t1,wm,wn),((v0,v1,v2),(a,b)))"})
    from symcute.report import markdown
    assert "512" in markdown(d, "en")
    for names in HOSTILE_NAMES:
        attempt(derive_expr, "right_inverse(F)", {"F": str(L)}, {"F": f"(({names},t1,wm,wn),((v0,v1,v2),(a,b)))"})
        assert results[-1][0] == "error"


CLI_ARGV = [
    ["calc", "__import__('os').system('PWN')"],
    ["calc", "upcast<1024>(right_inverse(F).with_shape(32,16))", "--let",
     "F=((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"],
    ["formula", "(4,8):(8,1)", "--names", "(__import__('PWN'),b)"],
    ["formula", "(4,8):(8,1)", "--names", "(exec,eval)", "--latex", "--index", "--table", "--json"],
    ["prove", "right-inverse", "(4,8):(8,1)", "--names", "(E,I)", "--json"],
    ["prove", "equal", "(4,8):(8,1)", "eval('PWN')"],
    ["derive", "expr", "right_inverse(F)", "--let", "F=(4,8):(8,1)", "--name", "F=(sympify,S)"],
    ["derive", "expr", "right_inverse(F)", "--let", "F=(4,8):(8,1)", "--name", "F=(__import__('PWN'),b)"],
    ["derive", "--format", "json"],
    ["lint", "--mma-shape", "16,8,16", "--a", "__import__('PWN')", "--b", "1", "--c", "1"],
    ["atoms", "--show", "__import__('PWN')"],
    ["derive", "retile-d", "--mma", "SM80_16x8x16_F16F16F16F16_TN<PWN>", "--copy-atom", "eval('PWN')"],
]


@pytest.mark.parametrize("argv", CLI_ARGV, ids=[" ".join(a[:2]) for a in CLI_ARGV])
def test_cli_never_reaches_an_evaluator(no_evaluators, argv):
    code, _, err = run_cli(argv)
    assert code in (0, 1, 2, 3)
    assert "Traceback" not in err and "EvaluatorReached" not in err
    if code == 2:
        assert err.count("\n") == 1


def test_dynamic_guard_catches_what_it_forbids(no_evaluators):
    """The patches are live: text reaching each evaluator, or a call from symcute's code, fails."""
    import sympy
    from sympy.parsing.sympy_parser import parse_expr
    for call in (lambda: sympy.sympify("x"), lambda: sympy.S("x"), lambda: parse_expr("x"),
                 lambda: sys.modules["sympy.core.sympify"].sympify("1"), lambda: builtins.eval("'PWN'"),
                 lambda: builtins.exec("PWN = 1", {})):
        with pytest.raises(EvaluatorReached):
            call()
    assert sympy.sympify(3) == 3 and sympy.S(2) == 2  # objects, not text: allowed
    as_symcute = {"__name__": "symcute.fake", "__builtins__": builtins}
    code = compile("def f():\n    return eval('1')\n", "<probe>", "exec", flags=0)
    # compiling here is the test's own doing (its caller is this module, and the text holds no tag)
    ns = dict(as_symcute)
    exec(code, ns)
    with pytest.raises(EvaluatorReached, match="called from symcute.fake"):
        ns["f"]()
