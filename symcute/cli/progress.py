"""A progress bar on stderr for commands that take more than a second (derive catalog, lint of the catalog).

Standard library only: one bar, redrawn in place with ``\\r``, is all these commands need, and a
dependency (rich, tqdm) would be the package's largest for it.  It draws only when stderr is a
terminal and ``--quiet`` is not given, so pipes, files, CI logs and tests see nothing; it redraws
at most ~20 times a second and clears its line when done, so the command's own output is unchanged.
"""

from __future__ import annotations

import sys
import time


class Bar:
    """``bar(done, total)`` draws ``label [#####.....] done/total``; ``close()`` clears the line."""

    WIDTH = 30

    def __init__(self, label: str, enabled: bool = True, stream=None):
        self.stream = stream if stream is not None else sys.stderr
        self.label = label
        self.enabled = enabled and _is_tty(self.stream)
        self._last = 0.0
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        now = time.monotonic()
        if done < total and now - self._last < 0.05:
            return
        self._last = now
        filled = self.WIDTH * done // total
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{total}")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\r" + " " * (len(self.label) + self.WIDTH + 24) + "\r")
            self.stream.flush()
            self._drawn = False

    def __enter__(self) -> "Bar":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _is_tty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False
