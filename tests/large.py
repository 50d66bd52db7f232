"""The one switch for large runs: ``SYMCUTE_LARGE=1`` (hypothesis profile, differential case counts, fuzz sizes).

The older per-suite names (``SYMCUTE_DIFF_LARGE``, ``SYMCUTE_FUZZ_LARGE``) are still read, as aliases.
"""

import os


def large_run() -> bool:
    return any(os.environ.get(name) == "1" for name in ("SYMCUTE_LARGE", "SYMCUTE_DIFF_LARGE", "SYMCUTE_FUZZ_LARGE"))
