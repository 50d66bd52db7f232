"""Issue 31: readers take only bounded regular files; writers never write through a link or onto a device.

Readers (``symcute.files.read``): a FIFO (even one named ``sass_mma.txt`` beside a results file),
``/dev/zero``, a directory, a ``/proc`` entry, a gzip bomb and an oversized file are each one clean error,
at once.  Writers (``symcute.files.write`` and every writer built on it: ``derive -o``, ``bank --svg``,
``hwcheck --evidence-out``, ``sparse.emit``): a symbolic link, a hard-linked file, a FIFO, a device node
and a ``/proc`` link at the target are refused and left as they were.  Two concurrent ``hwcheck --emit``
runs into one directory leave one run's program and manifest (``files.write_tree``'s directory swap).
"""

from __future__ import annotations

import gzip
import json
import os
import stat
import subprocess
import sys
import textwrap

import pytest

from symcute import files
from symcute.errors import SymcuteError

from ..cli_runner import ROOT, run_cli

ENV = '{"kind":"env","manifest":"x","device":"x","start":0}\n'


def _one_line(code, err):
    return code == 2 and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("kind", ["fifo", "zero", "dir", "proc", "bomb", "big"])
@pytest.mark.parametrize("option", ["--results", "--manifest", "--user-json"])
def test_hostile_files_are_refused_by_every_reader(tmp_path, kind, option):
    p = tmp_path / ("results.jsonl.gz" if kind == "bomb" else "input.json")
    if kind == "fifo":
        os.mkfifo(p)
    elif kind == "zero":
        p.symlink_to("/dev/zero")
    elif kind == "dir":
        p.mkdir()
    elif kind == "proc":
        p.symlink_to("/proc/self/status")
    elif kind == "bomb":   # 2 MB of gzip that inflates to 256 MiB
        with gzip.open(p, "wb", compresslevel=9) as g:
            for _ in range(256):
                g.write(b" " * (1 << 20))
    else:
        with open(p, "wb") as f:
            f.truncate(files.MAX_READ_BYTES + 1)   # sparse: no disk
    ok = tmp_path / "ok.jsonl"
    ok.write_text(ENV)
    argv = {"--results": ["hwcheck", "--results", str(p), "--manifest", str(tmp_path / "none.json")],
            "--manifest": ["hwcheck", "--results", str(ok), "--manifest", str(p)],
            "--user-json": ["hwcheck", "--user-json", str(p), "--atom", "SM80_16x8x8_F16F16F16F16_TN"]}[option]
    code, _, err = run_cli(argv)
    assert _one_line(code, err) and str(p.name) in err, err


def test_a_fifo_named_sass_mma_beside_results_does_not_block(tmp_path):
    (tmp_path / "results.jsonl").write_text(ENV)
    (tmp_path / "manifest.json").write_text("{}")
    os.mkfifo(tmp_path / "sass_mma.txt")
    with pytest.raises(SymcuteError):
        files.read(tmp_path / "sass_mma.txt", "sass")
    code, _, err = run_cli(["hwcheck", "--results", str(tmp_path / "results.jsonl")])
    assert _one_line(code, err), err


def test_gzip_is_bounded_after_decompression_and_read_whole_below(tmp_path):
    p = tmp_path / "r.jsonl.gz"
    p.write_bytes(gzip.compress(b"x" * 5000) + gzip.compress(b"y" * 10))   # two members
    assert files.read(p, "r") == b"x" * 5000 + b"y" * 10
    with pytest.raises(SymcuteError, match="more than 4096 bytes once decompressed"):
        files.read(p, "r", limit=4096)
    p.write_bytes(gzip.compress(b"x" * 5000)[:-12])
    with pytest.raises(SymcuteError, match="truncated"):
        files.read(p, "r")


def _device(p):
    try:
        os.mknod(p, 0o666 | stat.S_IFCHR, os.stat("/dev/null").st_rdev)   # a copy of /dev/null (root only)
        return True
    except OSError:
        return False


@pytest.mark.parametrize("kind", ["symlink", "hardlink", "fifo", "device", "proc", "dir"])
@pytest.mark.parametrize("writer", ["derive-o", "bank-svg", "evidence-out", "api"])
def test_writers_refuse_special_targets_and_leave_them(tmp_path, kind, writer):
    victim = tmp_path / "victim"
    victim.write_text("keep\n")
    t = tmp_path / "target"
    if kind == "symlink":
        t.symlink_to(victim)
    elif kind == "hardlink":
        os.link(victim, t)
    elif kind == "fifo":
        os.mkfifo(t)
    elif kind == "device":
        if not _device(t):
            pytest.skip("mknod needs root")
    elif kind == "proc":
        t.symlink_to("/proc/self/fd/1")
    else:
        t.mkdir()
    before = os.lstat(t)
    if writer == "api":
        with pytest.raises(SymcuteError, match="cannot write"):
            files.write(t, "new\n")
    else:
        argv = {"derive-o": ["derive", "expr", "coalesce((4,2):(1,4))", "-o", str(t)],
                "bank-svg": ["bank", "--smem", "(8,64):(64,1)", "--tv", "(32,8):(8,1)", "--value-bits", "16",
                             "--svg", str(t)],
                "evidence-out": ["hwcheck", "--results", str(tmp_path / "none.jsonl"), "--evidence-out", str(t)]}
        code, _, err = run_cli(argv[writer])
        assert _one_line(code, err), err
    after = os.lstat(t)
    assert (after.st_ino, stat.S_IFMT(after.st_mode)) == (before.st_ino, stat.S_IFMT(before.st_mode))
    assert victim.read_text() == "keep\n"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_bank_svg_writes_a_new_file(tmp_path):
    t = tmp_path / "b.svg"
    code, _, err = run_cli(["bank", "--smem", "(8,64):(64,1)", "--tv", "(32,8):(8,1)", "--value-bits", "16",
                            "--svg", str(t)])
    assert code == 0 and t.read_text().startswith("<svg"), err


def test_sparse_emit_replaces_planted_links_without_following_them(tmp_path):
    from symcute.hwcheck import sparse
    out = tmp_path / "sparse"
    out.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("keep\n")
    for name in ("sparse.cu", "run.sh", "manifest.json", "inputs.bin"):
        (out / name).symlink_to(victim)
    (out / "notes.txt").write_text("mine\n")
    paths = sparse.emit(out)
    assert victim.read_text() == "keep\n" and len(paths) == 4
    assert all(not (out / n).is_symlink() for n in ("sparse.cu", "run.sh", "manifest.json", "inputs.bin"))
    assert stat.S_IMODE((out / "run.sh").stat().st_mode) == files.SCRIPT_MODE
    assert (out / "notes.txt").read_text() == "mine\n"   # what the directory held beyond the bundle stays


EMIT = textwrap.dedent("""
    import sys
    from symcute.hwcheck import api
    for _ in range(3):
        api.hwcheck([sys.argv[1]], emit=sys.argv[2])
""")


def test_concurrent_emits_never_mix(tmp_path):
    out = tmp_path / "emit"
    atoms = ["SM80_16x8x8_F16F16F16F16_TN", "SM70_8x8x4_F16F16F16F16_NT"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", EMIT, a, str(out)], env=env) for a in atoms]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    man = json.loads((out / "manifest.json").read_text())
    program = (out / "hwcheck.cu").read_text()
    assert man["id"] in program   # the program embeds its manifest's id
    assert sorted(p.name for p in out.iterdir()) == ["hwcheck.cu", "inputs.bin", "manifest.json", "run.sh"]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_emit_refuses_the_current_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SymcuteError, match="current directory"):
        files.write_tree(".", {"a": ("x", files.FILE_MODE)})


def test_results_without_their_env_line_are_refused(tmp_path):
    # issue 31: without the env line the manifest-id check was skipped
    from symcute.hwcheck import api
    d = tmp_path / "run"
    api.hwcheck(["SM80_16x8x8_F16F16F16F16_TN"], emit=str(d))
    (d / "results.jsonl").write_text('{"kind":"case","index":0,"status":"ok","d":["' + "00" * 8 + '"]}\n')
    code, _, err = run_cli(["hwcheck", "--results", str(d / "results.jsonl")])
    assert _one_line(code, err) and "no env line" in err, err
