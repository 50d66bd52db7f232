"""Fuzz the command line: ``symcute.cli.main(argv)`` in-process on argv built from the real parser.

The generator walks ``build_parser()``: it picks real subcommands and options,
fills each value from a pool fitting its meaning (layouts, expressions, names,
atom names, integers, file paths) or from hostile text, and then mutates the
argv (drop, duplicate, swap).  Contract: exit status 0, 1, 2 or 3; status 2
comes with exactly one line on stderr; never a traceback, never an exception
out of ``main``.

Left out on purpose: ``--build`` (runs nvcc), ``--copy-headers`` (copies CUTLASS),
``--regenerate-proofs`` (writes every committed proof), and the two commands
that walk the whole catalog (``lint`` without a name, ``derive catalog``
without ``--filter``, ``hwcheck --gmma``; seconds each): their error paths are
tested in test_preconditions.py; and ``serve``, which serves until stopped (its option errors:
tests/web/test_serve_cli.py).
"""

from __future__ import annotations

import argparse
import json
import os

import pytest
from hypothesis import given, strategies as st

from symcute.cli import build_parser

from ..cli_runner import run_cli, run_cli_process
from .harness import CLI_TIME_BOUND, OUTCOMES, fuzz_settings, outcome
from .hostile import EXPR_SEEDS, HOSTILE, LAYOUT_SEEDS, MMA_SEEDS, COPY_SEEDS, NAMES_SEEDS, SEED_A, mutated

SKIP = {"--build", "--copy-headers", "--regenerate-proofs", "-h", "--help", "--version"}
INTS = ["0", "1", "-1", "2", "4", "32", "64", "512", "1024", str(2 ** 62), str(2 ** 64), "x", "", "1e3", "0x10"]
NAMES = NAMES_SEEDS + ["(a,b)", "x", "(a,a)", "(__import__('os'),b)", "((((a))))", "(<script>,b)", "(a|b,c)"]
LETS = ["L", "F", "G", "_", "1x", "", "size"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli_fuzz")
    content = {
        "user.json": json.dumps({"name": "x", "base": "SM80_16x8x16_F16F16F16F16_TN", "a": "(32,8):(1,32)"}),
        "user_list.json": json.dumps([{"name": 5, "base": []}]),
        "user_nonstr.json": json.dumps({"name": "x", "base": "SM80_16x8x16_F16F16F16F16_TN", "a": 5}),
        "truncated.json": "[1,2",
        "results.jsonl": '{"x": 1}\n',
        "junk.jsonl": "not json\n",
        "manifest.json": json.dumps({"cases": "nope"}),
    }
    for name, text in content.items():
        (d / name).write_text(text)
    (d / "binary.json").write_bytes(b"\xff\xfe\x00\x80")
    (d / "out").mkdir()
    return {"dir": d, "paths": [str(d / n) for n in content] + [str(d / "binary.json"), str(d / "missing.json"),
                                                                   str(d), os.devnull]}


def _value(draw, dest: str, files) -> str:
    o = dest.lstrip("-")
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(HOSTILE) | st.text(max_size=20) | mutated(LAYOUT_SEEDS))
    if o == "let":
        return draw(st.sampled_from(LETS)) + draw(st.sampled_from(["=", "=", ":", ""])) + draw(
            st.sampled_from(LAYOUT_SEEDS + EXPR_SEEDS) | mutated(LAYOUT_SEEDS, max_edits=1))
    if o == "name":  # --name VAR=TREE, or a positional atom name (lint)
        return draw(st.sampled_from([f"{v}={n}" for v in ("L", "F", "x") for n in NAMES]) | st.sampled_from(MMA_SEEDS))
    if o == "names":
        return draw(st.sampled_from(NAMES) | mutated(NAMES, max_edits=1))
    if o in ("expr", "layouts", "inverse"):
        return draw(st.sampled_from(LAYOUT_SEEDS + EXPR_SEEDS) | mutated(LAYOUT_SEEDS + EXPR_SEEDS, max_edits=1))
    if o == "limit":  # an explicit huge --limit asks for a long enumeration (the default is tested elsewhere)
        return draw(st.sampled_from(["0", "1", "-1", "64", "4096", "x", ""]))
    if o in ("cotarget", "domain", "values", "contrast", "seed", "trials"):
        return draw(st.sampled_from(INTS))
    if o in ("mma", "base", "atom", "user-atom"):
        return draw(st.sampled_from(MMA_SEEDS) | mutated(MMA_SEEDS, max_edits=1))
    if o in ("copy-atom", "show"):
        return draw(st.sampled_from(COPY_SEEDS + MMA_SEEDS) | mutated(COPY_SEEDS, max_edits=1))
    if o in ("a", "b", "c", "thr-id"):
        return draw(st.sampled_from(LAYOUT_SEEDS + ["(32,8):(1,32)", "(32,4):(1,32)", "32:1"]))
    if o in ("atom-layout", "mma-shape"):
        return draw(st.sampled_from(["2,2,1", "1,1,1", "(2,2,1)", "0,1,1", "-1,2,1", f"{2 ** 40},1,1", "2,2",
                                     "a,b,c", "16,8,16", "1,1,1,1"]))
    if o == "value-type":
        return draw(st.sampled_from(["half_t", "float", "uint8_t", "double", "int4_t", "bool", "x<y>"]))
    if o == "filter":
        return draw(st.sampled_from(MMA_SEEDS[:1] + COPY_SEEDS[:1] + ["SM80_16x8x16_F16F16F16F16_TN", "zzz"]))
    if o == "arch":
        return draw(st.sampled_from(["sm80", "sm90", "sm_90a", "SM80", "x", ""]))
    if o in ("user-json", "results", "manifest"):
        return draw(st.sampled_from(files["paths"]))
    if o in ("output", "emit", "evidence-out"):
        return draw(st.sampled_from([str(files["dir"] / "out" / "f"), str(files["dir"] / "out"),
                                     "/proc/no/such/dir/f"]))
    return draw(st.sampled_from(HOSTILE + LAYOUT_SEEDS))


@st.composite
def argvs(draw, files):
    argv: list[str] = []

    def walk(p):
        subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        opts = [a for a in p._actions if a.option_strings and not set(a.option_strings) & SKIP]
        pos = [a for a in p._actions if not a.option_strings and not isinstance(a, argparse._SubParsersAction)]
        for a in pos:
            n = {None: 1, "?": draw(st.integers(0, 1)), "+": draw(st.integers(1, 3))}.get(a.nargs, 1)
            for _ in range(n):
                if a.choices and draw(st.integers(0, 9)):
                    argv.append(draw(st.sampled_from(sorted(a.choices))))
                else:
                    argv.append(_value(draw, a.dest, files))
        for a in draw(st.lists(st.sampled_from(opts), max_size=4)) if opts else []:
            argv.append(draw(st.sampled_from(a.option_strings)))
            if a.nargs != 0:
                if a.choices and draw(st.integers(0, 9)):
                    argv.append(draw(st.sampled_from(list(a.choices))))
                else:
                    argv.append(_value(draw, a.option_strings[-1], files))
        if subs and draw(st.integers(0, 9)):
            name = draw(st.sampled_from(sorted(subs[0].choices)))
            argv.append(name)
            walk(subs[0].choices[name])

    walk(build_parser())
    for _ in range(draw(st.integers(0, 2))):
        if not argv:
            break
        i = draw(st.integers(0, len(argv) - 1))
        op = draw(st.sampled_from(["drop", "duplicate", "swap"]))
        if op == "drop":
            del argv[i]
        elif op == "duplicate":
            argv.insert(i, argv[i])
        else:
            j = draw(st.integers(0, len(argv) - 1))
            argv[i], argv[j] = argv[j], argv[i]
    return argv


def _walks_catalog(argv) -> bool:
    words = [a for a in argv if not a.startswith("-")]
    if argv[:1] == ["serve"]:   # a valid serve runs until stopped (its bad options: tests/web/test_serve_cli.py)
        return True
    if argv[:1] == ["lint"] and len(argv) == 1:
        return True
    if argv[:1] == ["hwcheck"] and "--gmma" in argv:  # builds 80 GMMA cases: ~10 s of CPU, by design
        return True
    return "derive" in argv[:1] and "catalog" in words and "--filter" not in argv


def check_exit(argv, code, err):
    assert code in (0, 1, 2, 3), (argv, code, err)
    assert "Traceback" not in err, (argv, err)
    if code == 2:
        assert err.endswith("\n") and err.count("\n") == 1, (argv, err)


@pytest.mark.usefixtures("small_exhaustive_limit")
def test_cli_fuzz(files):
    # 105,000 in the large run: about 4% of the drawn argvs walk the whole catalog and are skipped
    @fuzz_settings(ci=300, large=105_000)
    @given(argvs(files))
    def fuzz(argv):
        if _walks_catalog(argv):
            return
        kind, result = outcome("cli main(argv)", run_cli, argv, seconds=CLI_TIME_BOUND)
        assert kind == "value", (argv, result)  # main itself never raises, SymcuteError included
        code, _, err = result
        check_exit(argv, code, err)
        OUTCOMES["cli main(argv)", "value"] -= 1  # report the exit statuses instead
        OUTCOMES["cli main(argv)", f"exit {code}"] += 1
    fuzz()


SUBPROCESS_CASES = [
    ["calc", "(" * 10000 + "1" + ")" * 10000],
    ["calc", "upcast<1024>(right_inverse(L).with_shape(32,16))", "--let", f"L={SEED_A}"],
    ["formula", "(4,8):(8,1)", "--names", "(__import__('os'),b)"],
    ["prove", "right-inverse", "(4611686018427387904,2):(2,1)"],
    ["atoms", "--show", "SM80_16x8x16_F16F16F16F16_TN<" * 50],
    ["lint", "--mma-shape", "16,8,16", "--a", "(32,8):(1,32)", "--b", "((", "--c", "(32,4):(1,32)"],
    ["derive", "expr", "complement(4:2, -1)"],
    ["hwcheck", "--user-atom", "\udcff", "--base", "SM80_16x8x16_F16F16F16F16_TN"],
    ["calc", "\udcff\udcfe"],
    ["formula", "x", "--let", "x=(2,2):(1,2)", "--names", "(\u00e9,b)"],
    ["nosuchcommand"],
    [],
]


@pytest.mark.parametrize("argv", SUBPROCESS_CASES, ids=range(len(SUBPROCESS_CASES)))
def test_cli_subprocess(argv):
    """The installed entry point (``python -m symcute``): real argv bytes, real stdout/stderr encodings."""
    env = dict(os.environ, PYTHONIOENCODING="", LC_ALL="C.UTF-8")
    args = [os.fsencode(a) for a in argv]
    code, _, err = run_cli_process(args, env=env, timeout=120)
    check_exit(argv, code, err)
