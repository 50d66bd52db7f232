"""On-disk memo of case results, so repeated local runs are instant.

Contract: a result is stored under ``sha256(toolchain key, format version,
case-runner template, preamble, case body)``; the toolchain key changes with the compiler, the
flags and every header file (see ``toolchain.py``), so a stored result is
never served for other headers. Only verdicts that the program text alone
decides are stored (ok, rejected, crashed); time-outs and machinery failures
are not. ``SYMCUTE_ORACLE_CACHE=0`` (or ``CuteOracle(cache=False)``) turns the
memo off. Files are written to a temporary name and renamed, so concurrent
runs never read half a result; an unreadable entry is treated as a miss.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from symcute import environment
from symcute.oracle.program import TEMPLATE_ID

FORMAT_VERSION = "1"  # bump when the program template or result fields change


def enabled_by_env() -> bool:
    """False when ``SYMCUTE_ORACLE_CACHE`` is ``0``/``false``/``no``/``off``."""
    return environment.flag("SYMCUTE_ORACLE_CACHE", True)   # any other word than a switch is refused


class ResultCache:
    """Results by case text under ``directory`` (one small JSON file per case)."""

    def __init__(self, directory: Path, toolchain_key: str):
        # One folder per toolchain, so results for old headers can be deleted as a whole.
        self.directory = Path(directory) / toolchain_key
        self.toolchain_key = toolchain_key

    def key(self, preamble: str, body: str) -> str:
        digest = hashlib.sha256()
        for part in (self.toolchain_key, FORMAT_VERSION, TEMPLATE_ID, preamble, body):
            digest.update(part.encode() + b"\0")
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict | None:
        try:
            with open(self._path(key), encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def put(self, key: str, record: dict) -> None:
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(record, f)
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only cache only costs speed
