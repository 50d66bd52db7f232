"""Writing where the user says: a path that cannot be written is a SymcuteError (one line, exit 2)."""

from __future__ import annotations

import contextlib

from ..errors import SymcuteError


@contextlib.contextmanager
def writing(what: str):
    """Turn an OSError (missing directory, permissions, a file in the way) or the ValueError of a NUL in
    a path (possible in-process) into ``SymcuteError(f"{what}: {reason}")``."""
    try:
        yield
    except (OSError, ValueError) as e:
        raise SymcuteError(f"{what}: {getattr(e, 'strerror', None) or e}") from None
