"""Find g++ and CuTe's headers, fingerprint them, and keep a precompiled header.

Contract:

* :func:`locate` returns a :class:`Toolchain` or raises
  :class:`OracleUnavailable` saying what is missing. Headers come from the
  installed wheels (``nvidia-cutlass`` ships ``cutlass_library/source/include``;
  ``nvidia-cuda-runtime``/``-crt``/``-cccl`` ship ``nvidia/cu*/include`` and its
  ``cccl`` folder), found through ``importlib`` without importing them.
* :attr:`Toolchain.key` changes whenever the compiler, the flags or any header
  file (path, size or mtime) changes, so nothing cached under it goes stale.
* :meth:`Toolchain.ensure_pch` builds ``<cache>/pch/<key>/symcute_oracle.hpp.gch``
  once; concurrent builders each write a private temporary file and rename it,
  so readers never see half a file. PCH folders of other keys unused for three
  days are deleted (each is ~180 MB; CI venvs make a new key per install).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from symcute.oracle.prelude import PRELUDE


class OracleError(RuntimeError):
    """The oracle machinery itself failed (not a verdict about a case)."""


class OracleUnavailable(OracleError):
    """Real CuTe cannot be compiled here: no g++ or no headers. The message says which."""


# Kept in its own module: it is C++ text, long, and part of the cache key.
PCH_HEADER = PRELUDE

BASE_FLAGS = ("-std=c++17", "-w", "-O0", "-g0")


def cache_root() -> Path:
    """``$SYMCUTE_CACHE_DIR``, else ``$XDG_CACHE_HOME/symcute``, else ``~/.cache/symcute``."""
    if os.environ.get("SYMCUTE_CACHE_DIR"):
        return Path(os.environ["SYMCUTE_CACHE_DIR"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "symcute"
    return Path.home() / ".cache" / "symcute"


def _package_dirs(name: str) -> list[Path]:
    """Directories of an installed (possibly namespace) package, without importing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    if spec.submodule_search_locations:
        return list(dict.fromkeys(Path(p) for p in spec.submodule_search_locations))
    return [Path(spec.origin).parent] if spec.origin else []


def find_cute_include() -> Path | None:
    """CUTLASS's include folder (it holds ``cute/`` and ``cutlass/``): ``$CUTLASS_INCLUDE`` when it has
    ``cute/tensor.hpp``, else ``cutlass_library/source/include`` from the ``nvidia-cutlass`` wheel.

    The one header lookup of symcute: the oracle (g++) and ``hwcheck`` (nvcc) both use it.
    """
    env = os.environ.get("CUTLASS_INCLUDE")
    if env and (Path(env) / "cute" / "tensor.hpp").is_file():
        return Path(env)
    for pkg in _package_dirs("cutlass_library"):
        inc = pkg / "source" / "include"
        if (inc / "cute" / "tensor.hpp").is_file():
            return inc
    return None


def find_cuda_includes() -> list[Path] | None:
    """``nvidia/cu*/include`` with ``cuda_runtime_api.h`` and its ``cccl`` folder (``cuda/std``)."""
    for pkg in _package_dirs("nvidia"):
        for inc in sorted(pkg.glob("cu*/include"), reverse=True):  # newest CUDA first
            if (inc / "cuda_runtime_api.h").is_file() and (inc / "cccl" / "cuda" / "std").is_dir():
                return [inc, inc / "cccl"]
    return None


def _fingerprint(dirs: list[Path]) -> str:
    """Hash of every file's relative path, size and mtime under ``dirs`` (~40 ms)."""
    digest = hashlib.sha256()
    for top in dirs:
        digest.update(str(top).encode() + b"\0")
        for root, subdirs, files in os.walk(top):
            subdirs.sort()
            for name in sorted(files):
                path = os.path.join(root, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                digest.update(f"{os.path.relpath(path, top)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()


@dataclass
class Toolchain:
    """A compiler plus include directories, identified by :attr:`key`."""

    cxx: str
    include_dirs: list[Path]
    flags: tuple[str, ...] = BASE_FLAGS
    cache_dir: Path = field(default_factory=cache_root)
    compiler_version: str = ""
    key: str = ""
    _pch_lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def command(self, source: Path, output: Path, pch: Path | None) -> list[str]:
        """The g++ command line compiling ``source`` into the executable ``output``."""
        cmd = [self.cxx, *self.flags]
        cmd += [f"-I{d}" for d in self.include_dirs]
        if pch is not None:
            cmd += ["-include", str(pch)]
        return cmd + [str(source), "-o", str(output)]

    def ensure_pch(self) -> Path | None:
        """Path of the header to ``-include`` (its ``.gch`` sits next to it), or None if it cannot be built."""
        directory = self.cache_dir / "pch" / self.key
        header = directory / "symcute_oracle.hpp"
        gch = directory / "symcute_oracle.hpp.gch"
        with self._pch_lock:  # threads of one process build once; processes race benignly
            if gch.is_file() and header.is_file():
                _touch(directory)
                return header
            _prune(directory.parent, keep=directory.name)
            try:
                directory.mkdir(parents=True, exist_ok=True)
                _atomic_write(header, PCH_HEADER.encode())
                fd, tmp = tempfile.mkstemp(prefix=".gch-", dir=directory)
                os.close(fd)
                cmd = [self.cxx, *self.flags, *(f"-I{d}" for d in self.include_dirs), "-x", "c++-header", str(header), "-o", tmp]
                try:
                    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
                except subprocess.TimeoutExpired:
                    os.unlink(tmp)
                    return None  # a starved machine: compile without a PCH (slower, same results)
                if proc.returncode != 0:
                    os.unlink(tmp)
                    raise OracleUnavailable("the CuTe headers do not compile here:\n" + proc.stderr[-4000:])
                os.replace(tmp, gch)
            except OSError:
                return None  # unwritable cache: compile without a PCH (slower, same results)
        return header


STALE_SECONDS = 3 * 24 * 3600  # a PCH is ~180 MB; one unused this long belongs to old headers


def _touch(directory: Path) -> None:
    try:
        os.utime(directory)
    except OSError:
        pass


def _prune(pch_root: Path, keep: str) -> None:
    """Delete other toolchains' PCH folders unused for STALE_SECONDS, and orphaned temporaries.

    Age, not mere difference, decides: another process may be using a PCH
    for other headers right now (ensure_pch touches the folder on each use).
    """
    if not pch_root.is_dir():
        return
    now = time.time()
    for entry in pch_root.iterdir():
        try:
            if entry.name != keep and entry.is_dir() and now - entry.stat().st_mtime > STALE_SECONDS:
                shutil.rmtree(entry, ignore_errors=True)
            elif entry.is_dir():
                for tmp in entry.glob(".gch-*"):
                    if now - tmp.stat().st_mtime > 3600:  # a build killed half-way
                        tmp.unlink()
        except OSError:
            continue


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def locate(cxx: str | None = None, include_dirs: list[Path] | None = None, cache_dir: Path | None = None) -> Toolchain:
    """Find the compiler (``cxx``, else ``$SYMCUTE_CXX``, else ``g++``) and CuTe's headers."""
    cxx_name = cxx or os.environ.get("SYMCUTE_CXX") or "g++"
    cxx_path = shutil.which(cxx_name)
    if cxx_path is None:
        raise OracleUnavailable(f"no C++ compiler: {cxx_name!r} is not on PATH (set SYMCUTE_CXX)")
    if include_dirs is None:
        cute = find_cute_include()
        if cute is None:
            raise OracleUnavailable("CuTe headers not found: install nvidia-cutlass (cutlass_library/source/include/cute)")
        cuda = find_cuda_includes()
        if cuda is None:
            raise OracleUnavailable(
                "CUDA headers not found: install nvidia-cuda-runtime, nvidia-cuda-crt and nvidia-cuda-cccl "
                "(nvidia/cu*/include with cuda_runtime_api.h and cccl/cuda/std)"
            )
        include_dirs = [cute, *cuda]
    try:
        version = subprocess.run([cxx_path, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        raise OracleUnavailable(f"cannot run {cxx_path}: {exc}") from exc
    chain = Toolchain(cxx=cxx_path, include_dirs=list(include_dirs), compiler_version=version.strip())
    if cache_dir is not None:
        chain.cache_dir = Path(cache_dir)
    # cccl sits inside the CUDA include dir, so walking the non-nested dirs covers it.
    tops = [d for d in chain.include_dirs if not any(d != o and o in d.parents for o in chain.include_dirs)]
    key = hashlib.sha256()
    for part in (cxx_path, version, " ".join(chain.flags), PCH_HEADER, _fingerprint(tops)):
        key.update(part.encode() + b"\0")
    chain.key = key.hexdigest()[:24]
    return chain
