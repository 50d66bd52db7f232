"""The one switch for large runs: ``SYMCUTE_LARGE=1`` (hypothesis profile, differential case counts, fuzz sizes,
trust claims).  Every suite reads it through :func:`large_run`; no suite has a switch of its own.
"""

import os


def large_run() -> bool:
    return os.environ.get("SYMCUTE_LARGE") == "1"
