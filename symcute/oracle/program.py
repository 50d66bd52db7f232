"""Write one C++ program for many cases, and split what it prints back into cases.

Contract:

* :func:`render` puts case ``i``'s body in its own function ``symcute_run_i``,
  preceded by ``#line 1 "symcute-case-i"``: every compiler message about the
  case then names ``symcute-case-i:LINE``, which is how errors are attributed.
* ``main`` runs each case in a forked child (stderr joined to stdout, an alarm
  as a time limit), so a crash (SIGFPE, abort) ends only that case; it frames
  each case's output with ``\\x1e``-markers carrying the child's exit status.
* :func:`split_output` returns ``{i: (raw_output, signal, exit_code)}`` for the
  cases whose end marker was seen.
* :func:`normalize` maps CuTe's printed text to the form symcute prints:
  the static-integer underscores removed (``_4`` -> ``4``, ``_-1`` -> ``-1``,
  a lone ``_`` = Underscore kept), trailing spaces and outer blank lines dropped.
"""

from __future__ import annotations

import hashlib
import re

CASE_FILE = "symcute-case-{}"
CASE_FILE_RE = re.compile(r"symcute-case-(\d+):\d+")
CASE_FUNCTION_RE = re.compile(r"symcute_run_(\d+)\b")

_CASE = '#line 1 "{file}"\nstatic void symcute_run_{index}() {{\n{body}\n}}\n'
_END_RE = re.compile(r"\n\x1esymcute-end (\d+) (-?\d+) (-?\d+)\x1e\n")
_BEGIN_RE = re.compile(r"\x1esymcute-begin (\d+)\x1e\n")

_MAIN = r"""
#line 1 "symcute-main"
typedef void (*symcute_fn)();
static symcute_fn const symcute_cases[] = { %(table)s };
int main() {
  int const n = int(sizeof(symcute_cases) / sizeof(symcute_cases[0])) - 1;  // last entry is a null sentinel
  for (int i = 0; i < n; ++i) {
    std::printf("\x1esymcute-begin %%d\x1e\n", i);
    std::fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      dup2(1, 2);  // assertion messages belong to the case's output
      std::setvbuf(stdout, nullptr, _IONBF, 0);  // keep what was printed before a crash
      alarm(%(seconds)d);
      symcute_cases[i]();
      std::fflush(stdout);
      _exit(0);
    }
    int status = 0, sig = -1, code = -1;
    if (pid > 0 && waitpid(pid, &status, 0) == pid) {
      sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
      code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    std::printf("\n\x1esymcute-end %%d %%d %%d\x1e\n", i, sig, code);
    std::fflush(stdout);
  }
  return 0;
}
"""


# Part of the result-cache key: a change to the case runner invalidates stored results.
TEMPLATE_ID = hashlib.sha256((_MAIN + _CASE).encode()).hexdigest()[:16]


def render(bodies: list[str], preamble: str = "", seconds: int = 20, includes: str = "") -> str:
    """The C++ source running ``bodies`` (statements) in order; ``preamble`` goes before them.

    ``includes`` is the header text to inline when no precompiled header is
    ``-include``d (see ``toolchain.PCH_HEADER``).
    """
    parts = [includes, "using namespace cute;\n"]
    if preamble:
        parts.append('#line 1 "symcute-preamble"\n' + preamble.rstrip() + "\n")
    for i, body in enumerate(bodies):
        parts.append(_CASE.format(file=CASE_FILE.format(i), index=i, body=body.rstrip()))
    table = "".join(f"symcute_run_{i}, " for i in range(len(bodies))) + "nullptr"
    parts.append(_MAIN % {"table": table, "seconds": seconds})
    return "".join(parts)


def split_output(stdout: str) -> dict[int, tuple[str, int, int]]:
    """Per case index: (raw output, terminating signal or 0, exit code or -1)."""
    results: dict[int, tuple[str, int, int]] = {}
    for begin in _BEGIN_RE.finditer(stdout):
        index = int(begin.group(1))
        end = _END_RE.search(stdout, begin.end())
        if end is None or int(end.group(1)) != index:
            continue
        results[index] = (stdout[begin.end():end.start()], int(end.group(2)), int(end.group(3)))
    return results


def last_started(stdout: str) -> int | None:
    """Index of the last case whose begin marker was printed (to blame a dying runner)."""
    found = _BEGIN_RE.findall(stdout)
    return int(found[-1]) if found else None


# Only a free-standing "_" before a number: identifiers such as SM80_16x8x16 keep theirs.
_STATIC_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9_])_(?=-?[0-9])")


def normalize(text: str) -> str:
    """CuTe's printed text without static-int underscores, trailing spaces or outer blank lines."""
    text = _STATIC_UNDERSCORE.sub("", text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines()).strip()
