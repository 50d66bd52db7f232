"""Writing files: never through a link, with explicit modes, atomically.

Every file symcute writes (``derive -o``, ``--regenerate-proofs DIR``,
``hwcheck --emit DIR``, ``--evidence-out``, the memory probe) goes through
:func:`write`:

* the content goes to a fresh temporary file in the target's directory
  (``O_CREAT | O_EXCL | O_NOFOLLOW``: created here, never opened through a
  link), gets its mode with ``fchmod`` (the umask does not decide it), is
  flushed, and is then renamed over the target; a reader sees the old file
  or the new one, never half of one;
* a rename replaces whatever is at the target's name, a symbolic link
  included: the link goes, its target is untouched (a planted
  ``DIR/run.sh -> ~/.bashrc`` cannot be written, nor chmod-ed);
* directories inside an output directory are made by :func:`fresh_dir`: a
  link there is removed (not followed) and ``shutil.rmtree`` only ever runs
  on a real directory (it removes links inside without following them).

* a target that is already there must be a regular file with one name: a
  symbolic link, a hard-linked file, a FIFO, a device node, a socket or a
  directory at the target is refused (``-o /dev/null`` as root would otherwise
  replace the system's /dev/null with a regular file; a FIFO would block);
* a multi-file output (``hwcheck --emit DIR``) is written by :func:`write_tree`:
  the files go into a fresh staging directory beside ``DIR`` which is then
  exchanged with ``DIR`` in one ``renameat2(RENAME_EXCHANGE)``, so two
  concurrent runs leave one run's program and manifest, never a mix.

The output directory itself (``DIR``) and the directories above it are the
caller's choice and may be links.

Reading files symcute did not write goes through :func:`read`: regular files
only (a FIFO, a device such as ``/dev/zero``, a directory or anything under
``/proc`` and ``/sys`` is refused without blocking), at most ``limit`` bytes,
and a gzip file at most ``limit`` bytes once decompressed (a gzip bomb is
refused after ``limit`` bytes, never inflated whole).
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
from pathlib import Path

from .errors import SymcuteError

FILE_MODE = 0o644
SCRIPT_MODE = 0o755


def output_dir(directory) -> Path:
    """``directory``, created with its parents if needed; a SymcuteError if it is not a directory."""
    d = Path(directory)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise SymcuteError(f"cannot write into {d}: it is not a directory") from None
    except (OSError, ValueError) as e:
        raise SymcuteError(f"cannot write into {d}: {getattr(e, 'strerror', None) or e}") from None
    return d


def write(path, data, mode: int = FILE_MODE) -> Path:
    """Write ``data`` (str as UTF-8, or bytes) to ``path`` atomically, with ``mode``, never through a link.

    @pre nothing is at path, or a regular file with one name (:func:`refuse_special_target`)
    @post path is a regular file (not a link) holding exactly data, with permission bits mode
    """
    p = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    refuse_special_target(p)
    parent = p.parent
    tmp = None
    fd = None
    try:
        for attempt in range(100):
            tmp = parent / f".{p.name}.symcute-{os.getpid()}-{attempt}.tmp"
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
                break
            except FileExistsError:
                continue
        else:
            raise SymcuteError(f"cannot write {p}: no free temporary name in {parent}")
        try:
            os.fchmod(fd, mode)
            view = memoryview(raw)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, p)   # replaces a link at p by the file; never writes through it
        tmp = None
    except SymcuteError:
        raise
    except (OSError, ValueError) as e:
        raise SymcuteError(f"cannot write {p}: {getattr(e, 'strerror', None) or e}") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except (OSError, ValueError):   # never created (a missing directory, a NUL in the path)
                pass
    return p


def fresh_dir(path) -> Path:
    """An empty real directory at ``path``: a link there is unlinked (its target untouched), a directory removed.

    @pre the parent of path is a directory the caller owns (an output directory)
    """
    p = Path(path)
    try:
        if p.is_symlink() or (p.exists() and not p.is_dir()):
            p.unlink()
        elif p.exists():
            shutil.rmtree(p)   # a real directory: rmtree unlinks the links inside it, never follows them
        p.mkdir(mode=0o755)
    except (OSError, ValueError) as e:
        raise SymcuteError(f"cannot make the directory {p}: {getattr(e, 'strerror', None) or e}") from None
    return p


def real_subdir(directory, name: str) -> Path:
    """``directory/name`` as a real directory (created if missing; a link there is replaced by a directory)."""
    p = Path(directory) / name
    if p.is_symlink() or (p.exists() and not p.is_dir()):
        return fresh_dir(p)
    if not p.exists():
        try:
            p.mkdir(mode=0o755)
        except (OSError, ValueError) as e:
            raise SymcuteError(f"cannot make the directory {p}: {getattr(e, 'strerror', None) or e}") from None
    return p


def refuse_special_target(p: Path) -> None:
    """A SymcuteError unless nothing is at ``p`` or a regular file with one name (no link of either kind)."""
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        return
    except (OSError, ValueError) as e:
        raise SymcuteError(f"cannot write {p}: {getattr(e, 'strerror', None) or e}") from None
    kind = _kind(st.st_mode)
    if kind != "regular file":
        raise SymcuteError(f"cannot write {p}: it is a {kind}; symcute writes only new or regular files")
    if st.st_nlink > 1:
        raise SymcuteError(f"cannot write {p}: it is a file with {st.st_nlink} hard links; "
                           f"symcute writes only new or regular files with one name")


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISLNK, "symbolic link"), (stat.S_ISREG, "regular file"), (stat.S_ISDIR, "directory"),
                       (stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"),
                       (stat.S_ISSOCK, "socket")):
        if test(mode):
            return name
    return "special file"


def _exchange(a: Path, b: Path) -> bool:
    """Atomically exchange the names ``a`` and ``b`` (Linux renameat2 RENAME_EXCHANGE); False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    AT_FDCWD, RENAME_EXCHANGE = -100, 2
    if renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (22, 38, 95):   # EINVAL, ENOSYS, EOPNOTSUPP: the file system or kernel cannot exchange
        return False
    raise OSError(err, os.strerror(err), str(b))


def write_tree(directory, entries: dict, fill=None) -> Path:
    """Write ``entries`` (name -> ``(data, mode)``) as the directory ``directory``, in one swap.

    The files are written into a fresh staging directory beside ``directory`` (``fill(staging)``, if
    given, adds more there: copied headers), which then takes ``directory``'s place in one atomic
    exchange; what the old directory held beyond ``entries`` (and what ``fill`` made) is moved into
    the new one, and the rest of the old one is removed (links in it removed, not followed).
    @post directory holds exactly one call's entries, whatever other calls run at the same time
    """
    d = Path(directory)
    if d.is_symlink():   # the caller's choice of DIR may be a link: swap where it points
        d = Path(os.path.realpath(d))
    parent = output_dir(d.parent)
    if d.exists() and not d.is_dir():
        raise SymcuteError(f"cannot write into {d}: it is not a directory")
    try:
        cwd = Path.cwd().resolve()
    except OSError:
        cwd = None
    if cwd is not None and (cwd == d.resolve() or d.resolve() in cwd.parents):
        raise SymcuteError(f"cannot write into {d}: it is (or holds) the current directory, which a swap "
                           f"would leave behind; name a directory below it")
    staging = None
    for attempt in range(100):
        staging = parent / f".{d.name}.symcute-{os.getpid()}-{attempt}.tmp"
        try:
            staging.mkdir(mode=0o755)
            break
        except FileExistsError:
            continue
        except (OSError, ValueError) as e:
            raise SymcuteError(f"cannot write into {d}: {getattr(e, 'strerror', None) or e}") from None
    else:
        raise SymcuteError(f"cannot write into {d}: no free staging name in {parent}")
    try:
        for name, (data, mode) in entries.items():
            write(staging / name, data, mode)
        if fill is not None:
            fill(staging)
        made = {p.name for p in staging.iterdir()}
        try:
            if d.is_dir() and _exchange(staging, d):
                old = staging   # the old directory now has the staging name
                for p in list(old.iterdir()):
                    if p.name not in made:
                        try:
                            os.rename(p, d / p.name)
                        except OSError:   # a concurrent run put it there first
                            pass
                shutil.rmtree(old)
            else:
                if d.is_dir():
                    for p in list(d.iterdir()):
                        if p.name not in made:
                            os.rename(p, staging / p.name)
                    shutil.rmtree(d)
                os.rename(staging, d)
        except OSError as e:
            raise SymcuteError(f"cannot write into {d}: {getattr(e, 'strerror', None) or e}") from None
        staging = None
    finally:
        if staging is not None and staging.is_dir():
            shutil.rmtree(staging, ignore_errors=True)
    return d


MAX_READ_BYTES = 64 * 2**20


def read(path, what: str, limit: int = MAX_READ_BYTES, gzipped: bool | None = None) -> bytes:
    """The bytes of the regular file ``path`` (decompressed when ``gzipped``, or when None and it ends in .gz).

    @pre path names a regular file outside /proc and /sys, of at most limit bytes (decompressed, too)
    Opened with O_NONBLOCK, so a FIFO is refused without waiting for a writer.
    """
    p = Path(path)
    try:
        real = os.path.realpath(p)
        if real == "/proc" or real.startswith(("/proc/", "/sys/", "/dev/")):
            raise SymcuteError(f"{what}: {p} is under {real.split('/')[1] and '/' + real.split('/')[1]}; "
                               f"symcute reads only regular files")
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except SymcuteError:
        raise
    except (OSError, ValueError, TypeError) as e:
        raise SymcuteError(f"{what}: cannot read {p} ({getattr(e, 'strerror', None) or e})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SymcuteError(f"{what}: {p} is a {_kind(st.st_mode)}; symcute reads only regular files")
        if st.st_size > limit:
            raise SymcuteError(f"{what}: {p} has {st.st_size} bytes, more than the limit of {limit}")
        chunks, n = [], 0
        while n <= limit:
            b = os.read(fd, min(1 << 20, limit + 1 - n))
            if not b:
                break
            chunks.append(b)
            n += len(b)
    except OSError as e:
        raise SymcuteError(f"{what}: cannot read {p} ({e.strerror or e})") from None
    finally:
        os.close(fd)
    raw = b"".join(chunks)
    if len(raw) > limit:
        raise SymcuteError(f"{what}: {p} has more than the limit of {limit} bytes")
    if gzipped or (gzipped is None and p.name.endswith(".gz")):
        return _gunzip(raw, f"{what}: {p}", limit)
    return raw


def _gunzip(raw: bytes, what: str, limit: int) -> bytes:
    """``raw`` decompressed (gzip, every member), refused past ``limit`` bytes of output."""
    import zlib
    out, n, data = [], 0, raw
    try:
        while data:
            z = zlib.decompressobj(wbits=31)
            while data:
                chunk = z.decompress(data, limit + 1 - n)
                out.append(chunk)
                n += len(chunk)
                if n > limit:
                    raise SymcuteError(f"{what}: more than {limit} bytes once decompressed")
                data = z.unconsumed_tail
                if z.eof:
                    break
                if not data and not chunk:
                    raise SymcuteError(f"{what}: a truncated gzip stream")
            if not z.eof:
                raise SymcuteError(f"{what}: a truncated gzip stream")
            data = z.unused_data
    except zlib.error as e:
        raise SymcuteError(f"{what}: not gzip data ({e})") from None
    return b"".join(out)


__all__ = ["FILE_MODE", "MAX_READ_BYTES", "SCRIPT_MODE", "fresh_dir", "output_dir", "read", "real_subdir",
           "refuse_special_target", "write", "write_tree"]
