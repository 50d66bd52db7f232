"""hwcheck's untrusted files and symcute's writes (issue 16): one-line errors, exit 2; nothing written through a link."""

import json
import os
import stat

import pytest

from symcute import files
from symcute.errors import SymcuteError

from ..cli_runner import run_cli
from .test_fuzz_cli import check_exit

ATOM = "SM80_16x8x8_F16F16F16F16_TN"


@pytest.fixture(scope="module")
def emitted(tmp_path_factory):
    d = tmp_path_factory.mktemp("emit")
    code, out, err = run_cli(["hwcheck", "--atom", ATOM, "--emit", str(d)])
    assert code == 0, err
    return d, (d / "manifest.json").read_text()


@pytest.mark.parametrize("line, expected", [
    ("[1]", r"line 1: at \$: \[1\] is not of type 'object'"),
    ('{"kind":"case"}', r"line 1: at \$: 'index' is a required property"),
    ('{"kind":"case","index":"abc","status":"ok","d":[]}', r"line 1: at \$\.index: 'abc' is not of type 'integer'"),
    ('{"kind":"case","index":1e400}', "line 1: the number 1e400 is not a finite float"),
    ('{"kind":"case","index":0,"status":"ok","d":["zz"]}', r"line 1: at \$\.d\[0\]: 'zz' does not match"),
    ('{"kind":"case","index":0,"status":"ok","d":[1]}', r"line 1: at \$\.d\[0\]: 1 is not of type 'string'"),
    ('{"kind":"surprise"}', r"line 1: at \$\.kind: 'surprise' is not one of \['env', 'case'\]"),
    ("[" * 5000 + "]" * 5000, "line 1: line 1 column 65: nested deeper than 64 levels"),
])
def test_hostile_results_lines_are_one_line_errors(emitted, line, expected):
    # was: tracebacks with exit status 1 (which means "a case disagrees")
    import re
    d, manifest = emitted
    (d / "manifest.json").write_text(manifest)
    (d / "results.jsonl").write_text(line + "\n")
    argv = ["hwcheck", "--results", str(d / "results.jsonl")]
    code, out, err = run_cli(argv)
    check_exit(argv, code, err)
    assert code == 2 and re.search(expected, err), err
    assert str(d / "results.jsonl") in err


@pytest.mark.parametrize("edit, expected", [
    (lambda m: m.update(cases=[{}]), r"at \$\.cases\[0\]: 'index' is a required property"),
    (lambda m: m.update(cases=5), r"at \$\.cases: 5 is not of type 'array'"),
    (lambda m: m.update(trials=100000), r"at \$\.trials: 100000 is greater than the maximum of 64"),
    (lambda m: m["cases"][0].update(index=7), r"at \$\.cases\[0\]\.index: 7 \(expected 0: cases in order\)"),
    (lambda m: m["cases"][0]["atom"].update(shape_mnk=[1, 1, "x"]), r"at \$\.cases\[0\]\.atom\.shape_mnk\[2\]"),
    # found by the fuzz run: a negative extent rebuilt the inputs with bytearray(-n) (ValueError)
    (lambda m: m["cases"][0]["atom"].update(a_layout="((4,8),(-02,2)):((32,1),(16,8))"),
     r"a_layout \(\(4,8\),\(-2,2\)\):\(\(32,1\),\(16,8\)\) has an extent below 1"),
])
def test_hostile_manifests_are_one_line_errors(emitted, edit, expected):
    # was: tracebacks (exit 1); "trials": 100000 rebuilt the inputs for minutes before the hash check
    import re
    d, manifest = emitted
    m = json.loads(manifest)
    edit(m)
    (d / "manifest.json").write_text(json.dumps(m))
    # an env line naming the manifest: results without one are refused before the manifest is read (issue 31)
    env = '{"kind":"env","manifest":"%s","device":"x","start":0}\n' % m.get("id", "x")
    (d / "results.jsonl").write_text(env + '{"kind":"case","index":0,"status":"ok","d":["00"]}\n')
    argv = ["hwcheck", "--results", str(d / "results.jsonl")]
    code, out, err = run_cli(argv)
    check_exit(argv, code, err)
    assert code == 2 and re.search(expected, err), err
    (d / "manifest.json").write_text(manifest)


@pytest.mark.parametrize("text, expected", [
    ("[1]", "at $[0]: 1 is not of type 'object'"),
    ('{"name": "u", "base": "SM80_16x8x8_F16F16F16F16_TN", "z": 1}', "'z' was unexpected"),
    ("{", "not JSON"),
])
def test_hostile_user_atom_files(tmp_path, text, expected):
    p = tmp_path / "atoms.json"
    p.write_text(text)
    argv = ["hwcheck", "--user-json", str(p), "--emit", str(tmp_path / "out")]
    code, out, err = run_cli(argv)
    check_exit(argv, code, err)
    assert code == 2 and expected in err and str(p) in err, err


def test_hostile_evidence_file(tmp_path):
    from symcute.hwcheck.evidence import load_evidence
    p = tmp_path / "ev.json"
    p.write_text('{"format": "symcute-hwcheck-evidence/1", "atoms": {"X": {"corrected": 5}}}')
    with pytest.raises(SymcuteError, match=r"at \$\.atoms\.X\.corrected: 5 is not of type 'object'"):
        load_evidence(p)


def test_emit_replaces_a_planted_link_and_never_writes_through_it(tmp_path):
    # was: run.sh written through the link and its target chmod-ed to 0755
    victim = tmp_path / "victim"
    victim.write_text("secret\n")
    victim.chmod(0o600)
    out = tmp_path / "out"
    out.mkdir()
    (out / "run.sh").symlink_to(victim)
    (out / "manifest.json").symlink_to(victim)
    code, _, err = run_cli(["hwcheck", "--atom", ATOM, "--emit", str(out)])
    assert code == 0, err
    assert victim.read_text() == "secret\n" and stat.S_IMODE(victim.stat().st_mode) == 0o600
    for name, mode in (("run.sh", 0o755), ("manifest.json", 0o644), ("hwcheck.cu", 0o644)):
        p = out / name
        assert not p.is_symlink() and stat.S_IMODE(p.stat().st_mode) == mode


def test_copy_headers_never_removes_through_a_link(tmp_path):
    # was: rmtree on the target of DIR/include (a file there was deleted)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "cute").mkdir(parents=True)
    (elsewhere / "cute" / "keep.txt").write_text("keep")
    out = tmp_path / "out"
    out.mkdir()
    (out / "include").symlink_to(elsewhere)
    code, _, err = run_cli(["hwcheck", "--atom", ATOM, "--emit", str(out), "--copy-headers"])
    assert code == 0, err
    assert (elsewhere / "cute" / "keep.txt").read_text() == "keep"
    assert not (out / "include").is_symlink() and (out / "include" / "cute" / "layout.hpp").is_file()


def test_derive_output_refuses_a_link_and_leaves_it(tmp_path):
    # issue 31: a link at the target is refused (it was replaced); neither the link nor its target changes
    victim = tmp_path / "victim"
    victim.write_text("keep\n")
    target = tmp_path / "proof.md"
    target.symlink_to(victim)
    code, _, err = run_cli(["derive", "expr", "right_inverse(4:1)", "-o", str(target)])
    assert code == 2 and "symbolic link" in err, err
    assert victim.read_text() == "keep\n" and target.is_symlink()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    target.unlink()
    code, _, err = run_cli(["derive", "expr", "right_inverse(4:1)", "-o", str(target)])
    assert code == 0 and "right" in target.read_text(), err


def test_files_write_mode_is_explicit_whatever_the_umask(tmp_path):
    old = os.umask(0o077)
    try:
        p = files.write(tmp_path / "a.txt", "x", mode=0o644)
    finally:
        os.umask(old)
    assert stat.S_IMODE(p.stat().st_mode) == 0o644 and p.read_text() == "x"


def test_files_write_into_a_missing_directory_is_a_symcute_error(tmp_path):
    with pytest.raises(SymcuteError, match="cannot write .*No such file or directory"):
        files.write(tmp_path / "missing" / "a.txt", "x")
