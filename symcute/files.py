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

The output directory itself (``DIR``) and the directories above it are the
caller's choice and may be links.
"""

from __future__ import annotations

import os
import shutil
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

    @post path is a regular file (not a link) holding exactly data, with permission bits mode
    """
    p = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
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


__all__ = ["FILE_MODE", "SCRIPT_MODE", "fresh_dir", "output_dir", "real_subdir", "write"]
