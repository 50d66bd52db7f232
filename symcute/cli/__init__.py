"""The ``symcute`` command: calc, formula, prove, check, derive, atoms, lint, hwcheck, bank, serve.

Each subcommand lives in its own module here with ``register(subparsers)``;
the module list below is the registry.  Any :class:`SymcuteError` (bad input)
becomes one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys

from ..errors import SymcuteError

# (subcommand module, one-line help); a module that does not exist yet is skipped
COMMANDS = ["calc", "formula", "prove", "check", "derive", "atoms", "lint", "hwcheck", "bank", "kernel", "serve"]


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # argparse takes '-3:2' for an option (only '-3' and '-3.5' look like numbers to it); no symcute
        # option starts with '-' and a digit, so every such word is a positional value (a layout, an int)
        self._negative_number_matcher = re.compile(r"^-\d")

    def error(self, message):  # one line, exit 2 (argparse prints usage by default)
        raise _UsageError(f"{self.prog}: {message}")


class _UsageError(Exception):
    pass


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="symcute", description="A symbolic prover for CuTe's layout algebra.")
    parser.add_argument("--version", action="version", version=f"symcute {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"{__name__}.{name}":
                continue
            raise
        module.register(sub)
    return parser


def _version() -> str:
    from .. import __version__
    return __version__


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    digits = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # results may have more digits than Python prints by default (4300)
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "handler", None):
            parser.print_help()
            return 0
        from ..core import budget
        with budget.limited():  # every command runs under one work budget (docs/errors.md, "Work budget")
            return args.handler(args) or 0
    except _UsageError as e:
        print(_one_line(str(e)), file=sys.stderr)
        return 2
    except SymcuteError as e:
        print(f"symcute: error: {_one_line(str(e))}", file=sys.stderr)
        return 2
    except RecursionError:
        print("symcute: error: input nested too deeply", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    finally:
        sys.set_int_max_str_digits(digits)


MAX_MESSAGE = 4000  # characters of one error line; the rest of a message about a huge value is elided


def _one_line(msg: str) -> str:
    """One line, no control characters (a message may quote the user's text), at most MAX_MESSAGE characters."""
    from ..markup import terminal
    text = terminal(" ".join(msg.split()))
    if len(text) > MAX_MESSAGE:
        text = text[:MAX_MESSAGE] + f" ... ({len(text) - MAX_MESSAGE} more characters)"
    return text


def run() -> None:
    sys.exit(main())
