"""docs/errors.md cannot drift: every example in it runs and prints exactly what it shows.

* each ``console`` block: ``$ symcute ...`` exits with status 2 and prints the
  line below it (a line ending in ``...`` is a prefix); a ``calc`` example also
  raises, through ``symcute.expr``, the class its section heading names;
* the ``pycon`` blocks run as doctests (the Python-API-only errors);
* every row of the Limits table has a trigger here that passes the limit and
  checks what the row says happens (and every trigger has its row);
* every class of the Classes table is raised by some catalogued example.
"""

from __future__ import annotations

import doctest
import pathlib
import re
import shlex

import pytest

import symcute
from symcute.expr import derive_expr
from symcute import expr as language
from symcute.errors import LimitError, ParseError, SymcuteError, LayoutError

from ..cli_runner import run_cli

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "errors.md"
TEXT = DOC.read_text(encoding="utf-8")


def console_examples() -> list[tuple[str, str, list[str], list[str]]]:
    """(section class, heading, argv, expected stderr lines) of every console block."""
    out, section, cls = [], "", ""
    lines = TEXT.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("### "):
            section = line[4:]
            m = re.match(r"`(\w+)`", section)
            cls = m.group(1) if m else ""
        if line.strip() == "```console":
            j = i + 1
            block = []
            while lines[j].strip() != "```":
                block.append(lines[j])
                j += 1
            cmd = [k for k, b in enumerate(block) if b.startswith("$ symcute")]
            for n, k in enumerate(cmd):
                end = cmd[n + 1] if n + 1 < len(cmd) else len(block)
                argv = shlex.split(block[k][len("$ symcute"):])
                out.append((cls, section, argv, block[k + 1:end]))
            i = j
        i += 1
    return out


EXAMPLES = console_examples()


def test_the_catalog_is_read():
    assert len(EXAMPLES) >= 60
    assert {c for c, *_ in EXAMPLES} >= {"ParseError", "LayoutError", "UnknownAtom", "LimitError", "SymcuteError"}


@pytest.mark.parametrize("cls,section,argv,expected", EXAMPLES,
                         ids=[" ".join(a)[:60] for _, _, a, _ in EXAMPLES])
def test_console_example(cls, section, argv, expected):
    code, out, err = run_cli(argv)
    assert code == 2, (argv, out, err)
    assert len(expected) == 1, f"an example shows exactly one line of stderr: {expected}"
    assert err.endswith("\n") and err.count("\n") == 1, err
    got, want = err.rstrip("\n"), expected[0]
    if want.endswith("..."):
        assert got.startswith(want[:-3]), (got, want)
    else:
        assert got == want
    if argv[0] == "calc" and cls:
        from symcute.expr.bindings import parse_lets
        lets = [a[len("--let="):] if a.startswith("--let=") else argv[k + 1]
                for k, a in enumerate(argv) if a == "--let" or a.startswith("--let=")]
        with pytest.raises(SymcuteError) as info:
            language.evaluate(argv[1], parse_lets(lets))
        assert type(info.value).__name__ == cls, (type(info.value).__name__, cls)


def test_python_api_examples():
    blocks = re.findall(r"```pycon\n(.*?)```", TEXT, re.S)
    assert blocks
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for k, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"errors.md pycon block {k}", str(DOC), 0)
        assert test.examples
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted >= 10


# --- Limits -------------------------------------------------------------------------------------

def _raises(cls, pattern, fn, *args):
    with pytest.raises(cls, match=pattern):
        fn(*args)


def _exhaustive():
    import symcute.symbolic as sym
    from symcute.symbolic import exact
    assert sym.is_injective(symcute.Layout((3 << 60, 5), (5, 3))).method == "z3"
    old = exact.set_enabled(False)
    try:
        proof = sym.is_injective(symcute.Layout((3 << 60, 5), (5, 3)))
    finally:
        exact.set_enabled(old)
    assert proof.verdict == "unknown" and "exceeds the exhaustive limit 2^24" in proof.reason
    assert sym.is_bijective(symcute.Layout((1 << 62, 2), (2, 1))).verdict == "proved"


def _lint_elements():
    code, _, err = run_cli(["lint", "--mma-shape", "16,8,16", "--a", f"(32,{1 << 62}):(1,32)", "--b", "(32,4):(1,32)",
                             "--c", "(32,4):(1,32)"])
    assert code == 2 and "exceeds the limit of 16777216" in err


def _lint_offsets():
    code, _, err = run_cli(["lint", "--mma-shape", "16,8,16", "--a", f"(32,8):(1,{1 << 63})", "--b", "(32,4):(1,32)",
                             "--c", "(32,4):(1,32)"])
    assert code == 2 and "do not fit in 64-bit integers" in err


def _derivation_enumeration():
    from symcute.report import markdown
    d = derive_expr("right_inverse(F)", {"F": f"({1 << 62},2):(2,1)"}, {})
    assert f"(2,{1 << 62}):({1 << 62},1)" in markdown(d, "en")


def _work_budget():
    from symcute.core import budget
    with budget.limited(work=100):
        _raises(LimitError, r"exceeds the work budget of 100 units .*symcute.core.budget.MAX_WORK",
                lambda: [symcute.coalesce(symcute.Layout((4, 8, 2), (1, 4, 32))) for _ in range(100)])
    assert budget.MAX_WORK == 1 << 22


def _value_bits():
    _raises(LimitError, r"integers of more than 4194304 bits in all, past symcute.core.budget.MAX_VALUE_BITS",
            language.evaluate, "make_layout((" + ",".join(["2"] * 3000) + "))")


def _json(pattern, text):
    from symcute import jsonread
    _raises(SymcuteError, pattern, jsonread.loads, text, "doc")


def _hwcheck_trials():
    from symcute.hwcheck.api import check_manifest
    _raises(SymcuteError, r"at \$\.trials: 100000 is greater than the maximum of 64 \(expected trials in 1\.\.64\)",
            check_manifest, {"format": "symcute-hwcheck/1", "seed": 1, "trials": 100000, "arch": "sm_90a",
                             "cases": [], "inputs_sha256": "0" * 64, "id": "0" * 16})


def _error_line():
    code, _, err = run_cli(["calc", "complement(L)", "--let", "L=(" + ",".join(["2"] * 3000) + "):(" + ",".join(["1"] * 3000) + ")"])
    assert code == 2 and err.count("\n") == 1 and "more characters)" in err and len(err) < 4200


def _kernel_dict():
    import tomllib
    return tomllib.loads((DOC.parents[1] / "examples" / "kernels" / "sgemm_sm80_nt.toml").read_text())


def _kernel_size():
    import tempfile
    from symcute.kernel import load
    with tempfile.TemporaryDirectory() as d:
        p = pathlib.Path(d) / "k.toml"
        p.write_text("#" * (2**20 + 1))
        _raises(SymcuteError, r"has 1048577 bytes, more than the limit of 1048576", load, p)


def _kernel_expression():
    from symcute.kernel import from_dict
    data = _kernel_dict()
    data["a"]["g2s"] = " " * 4097
    _raises(SymcuteError, r"^k.toml: \[a\] g2s: 4097 characters, more than the limit of 4096", from_dict, data, "k.toml")


def _kernel_tile():
    from symcute.kernel import from_dict
    data = _kernel_dict()
    data["tile"]["cta"] = [2048, 2048, 1024]
    _raises(LimitError, r"^k.toml: \[tile\] cta: the A tile has 2097152 elements, more than the limit of 1048576",
            from_dict, data, "k.toml")


def _kernel_run_elements():
    from symcute.kernel import from_dict, run
    k = from_dict(_kernel_dict(), "k.toml")
    _raises(LimitError, r"^kernel run: A has 16781312 elements at M,N,K = 4097,128,4096, more than the limit of "
            r"16777216", run, k, (4097, 128, 4096))


def _kernel_run_cta_tiles():
    from symcute.kernel import from_dict, run
    k = from_dict(_kernel_dict(), "k.toml")
    _raises(LimitError, r"^kernel run: 256 CTAs x 257 k-tiles, more than the limit of 65536 \(run one CTA with --cta\)",
            run, k, (2048, 2048, 2056))


def _deep(n, leaf=1):
    for _ in range(n):
        leaf = (leaf,)
    return leaf


TRIGGERS = {
    "exhaustive limit": _exhaustive,
    "lint elements": _lint_elements,
    "lint offsets": _lint_offsets,
    "integer literal": lambda: _raises(ParseError, r"integer literal of 4301 digits at position 0 is too long",
                                       symcute.Layout.parse, "7" * 4301),
    "text length": lambda: _raises(ParseError, r"input of 100001 characters exceeds the limit of 100000",
                                   symcute.Layout.parse, "1" * 100_001),
    "reader nesting": lambda: _raises(ParseError, r"nesting deeper than 100 levels", symcute.Layout.parse,
                                      "(" * 101 + "1" + ")" * 101),
    "expression nesting": lambda: _raises(ParseError, r"expression nested deeper than 100 levels", language.evaluate,
                                          "1" + "*2" * 101),
    "layout nesting": lambda: _raises(LayoutError, r"layout shape is nested deeper than 64 levels", symcute.Layout,
                                      _deep(65)),
    "names nesting": lambda: _raises(SymcuteError, r"names nested deeper than 100 levels", symcute.formula,
                                     symcute.Layout(4, 1), _deep(101, "a")),
    "expression integer bits": lambda: _raises(LimitError, r"total more than 262144 bits, which exceeds the limit",
                                               language.evaluate, "size((" + ",".join(["X"] * 80) + "))",
                                               {"X": "9" * 1000}),
    "rank of `append<N>`": lambda: _raises(LimitError, r"append<70000>: rank 70000 exceeds the limit of 65536 modes",
                                           language.evaluate, "append<70000>(4:1)"),
    "basis mode index": lambda: _raises(LimitError, r"beyond 4096 is no CuTe coordinate", language.evaluate, "L(3)",
                                        {"L": "(2,2):(1@0,1@5000)"}),
    "atom name length": lambda: _raises(ParseError, r"atom name of 2001 characters exceeds the limit of 2000",
                                        symcute.mma_atom, "A" * 2001),
    "atom name nesting": lambda: _raises(ParseError, r"template arguments nested too deeply", symcute.mma_atom,
                                         "A<" * 21 + "B" + ">" * 21),
    "derivation enumeration": _derivation_enumeration,
    "work budget": _work_budget,
    "value bits": _value_bits,
    "JSON nesting": lambda: _json(r"^doc: line 1 column 65: nested deeper than 64 levels", "[" * 65 + "]" * 65),
    "JSON integer digits": lambda: _json(r"^doc: an integer of 4301 digits \(at most 4300\)", "7" * 4301),
    "JSON text length": lambda: _json(r"^doc: 67108865 characters exceed the limit of 67108864", " " * (64 * 2**20 + 1)),
    "hwcheck trials": _hwcheck_trials,
    "error line": _error_line,
    "kernel description size": _kernel_size,
    "kernel expression length": _kernel_expression,
    "kernel CTA tile": _kernel_tile,
    "kernel run elements": _kernel_run_elements,
    "kernel run CTA tiles": _kernel_run_cta_tiles,
    "picture cells": lambda: _raises(LimitError, r"draws 262144 cells, more than the limit of 65536 .*symcute.report.pictures.MAX_CELLS\)",
                                     language.evaluate, "print_latex((512,512):(1,512))"),
    "gmem tile": lambda: _raises(LimitError, r"the tile 2048,32 needs extents in 1..1024", _derive_gmem, (2048, 32)),
    "gmem static check": lambda: _raises(LimitError, r"evaluates 2097152 \(thread, value\) points, more than the limit "
                                         r"of 262144", _derive_gmem, (1024, 1024)),
}


def _derive_gmem(tile):
    from symcute.recipes.gmem import derive_gmem
    return derive_gmem(tile=tile)


def limit_rows() -> list[str]:
    section = TEXT.split("## Limits", 1)[1]
    rows = [r for r in section.split("\n") if r.startswith("| ") and not r.startswith("| limit") and "---" not in r]
    return [r.split("|")[1].strip() for r in rows]


def test_every_limit_row_has_its_trigger():
    assert sorted(limit_rows()) == sorted(TRIGGERS)


@pytest.mark.parametrize("name", sorted(TRIGGERS))
def test_limit(name):
    TRIGGERS[name]()


def test_every_class_is_raised_by_an_example():
    classes = re.findall(r"^\| `(\w+)` \| `symcute\.\w+` \|", TEXT, re.M)
    assert set(classes) == {"SymcuteError", "LayoutError", "ParseError", "LimitError", "UnknownAtom"}
    assert set(classes) <= {c for c, *_ in EXAMPLES}
