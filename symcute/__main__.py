"""``python -m symcute`` is the ``symcute`` command."""

from .cli import run

run()
