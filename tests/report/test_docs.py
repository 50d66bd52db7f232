"""docs/tutorial.md and docs/cli.md work as written: every ``console`` command runs with the output shown,
and the tutorial's Python blocks run in order."""

import shlex
from pathlib import Path

import pytest

from ..examples import blocks, console_cases

DOCS = Path(__file__).resolve().parents[2] / "docs"


CASES = [(doc, cmd, exp) for doc in ("tutorial.md", "cli.md") for cmd, exp in console_cases(f"docs/{doc}")]


@pytest.fixture(scope="module")
def shells(tmp_path_factory):
    # one working directory per document, as one shell session: a later command reads what an earlier one
    # wrote (`symcute prove ... --certificate c.json` then `symcute check c.json`)
    return {doc: tmp_path_factory.mktemp(doc.replace(".", "_")) for doc in ("tutorial.md", "cli.md")}


@pytest.mark.parametrize("doc, cmd, expected", CASES, ids=[f"{d}:{c[:60]}" for d, c, _ in CASES])
def test_console_examples(doc, cmd, expected, cli, shells, monkeypatch):
    tmp_path = shells[doc]
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(cmd)
    assert argv[0] == "symcute"
    piped = "|" in argv  # `symcute ... | tail -1`: the command runs here, the pipeline in tests/examples.py
    code, out, _ = cli(argv[1:argv.index("|")] if piped else argv[1:])
    assert code in (0, 1, 3)
    if piped:
        return
    lines = out.splitlines()
    pos = 0
    for want in expected:
        if want.strip() == "...":
            continue
        while pos < len(lines) and lines[pos].rstrip() != want.rstrip():
            pos += 1
        assert pos < len(lines), f"{cmd!r}: expected line not in output (in order): {want!r}"
        pos += 1
    for arg, value in zip(argv, argv[1:]):
        if arg in ("-o", "--output"):
            assert (tmp_path / value).read_text(encoding="utf-8").startswith(("# ", "{", "<graphml"))


def test_tutorial_python_blocks_run_in_order(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    namespace = {}
    code = blocks("docs/tutorial.md", "python")
    assert len(code) >= 3
    for body in code:
        exec(compile(body, "docs/tutorial.md", "exec"), namespace)  # noqa: S102  (our own documentation)
    out = capsys.readouterr().out
    assert "(8,2,2,2,4,2):(4,256,32,128,1,512)" in out and "['right_inverse', 'coalesce']" in out


def test_cli_reference_covers_every_command():
    from symcute.cli import COMMANDS
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    for name in COMMANDS:
        assert f"## `symcute {name}" in text
