"""Read g++'s error output and say which generated case caused each error.

Contract: :func:`attribute` maps case index -> list of :class:`Diagnostic`
(an error with the context lines that led to it and the notes after it).
An error located at ``symcute-case-N:LINE`` (the ``#line`` file of case N,
see ``program.py``) belongs to case N; an error located in a header belongs
to every case its context names that way or as "In function
'symcute_run_N'". Notes never attribute: a note can point anywhere (a
candidate, a declaration).

g++ prints a context ("In instantiation of", "required from", "In function")
only when it changes, so an error without fresh context inherits the previous
error's context. Errors that name no case are returned under the key ``None``.
g++ reports an error from a template instantiation once, for its first user;
the runner therefore recompiles the unattributed rest (see ``runner.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from symcute.oracle.program import CASE_FILE_RE, CASE_FUNCTION_RE

_LOCATED = re.compile(r"^(?P<where>[^\s:][^:]*?(?::\d+:\d+)?): (?P<kind>error|fatal error|note|warning): (?P<message>.*)$")
_CONTEXT = re.compile(
    r"(: In (instantiation|function|member function|static member function|constructor|lambda|substitution)"
    r"|:\s+(recursively )?required (from|by)"
    r"|^In file included from|^\s+from "
    r"|: At global scope:|: In (static )?member function)"
)
_ASSERT = re.compile(r"static assertion failed(?::\s*(?P<text>.*))?$")


@dataclass
class Diagnostic:
    """One compiler error: ``message`` (after ``error:``), the context that led to it, its notes."""

    message: str
    context: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    location: str = ""

    @property
    def condition(self) -> str | None:
        """The static_assert text (``"Stride Divisibility Condition"``), or None if not a static_assert."""
        m = _ASSERT.search(self.message)
        if m is None:
            return None
        return (m.group("text") or "").strip() or "static assertion failed"

    def text(self) -> str:
        """Context, error and notes as g++ printed them (source carets omitted)."""
        return "\n".join([*self.context, f"{self.location}: error: {self.message}", *self.notes])


def parse(stderr: str) -> list[Diagnostic]:
    """All errors in ``stderr`` with their contexts and notes."""
    diagnostics: list[Diagnostic] = []
    fresh: list[str] = []
    context: list[str] = []
    for line in stderr.splitlines():
        if not line.strip() or re.match(r"^\s*\d*\s*\|", line):  # source snippet / caret lines
            continue
        m = _LOCATED.match(line)
        if m and m.group("kind") in ("error", "fatal error"):
            if fresh:
                context, fresh = fresh, []
            # Driver messages ("g++: fatal error: Killed signal ...") have no
            # source location and belong to no instantiation context.
            located = re.search(r":\d+:\d+$", m.group("where")) is not None
            diagnostics.append(Diagnostic(m.group("message").strip(), list(context) if located else [], [], m.group("where")))
        elif m and m.group("kind") == "note":
            if diagnostics and not fresh:
                diagnostics[-1].notes.append(line)
        elif _CONTEXT.search(line):
            if line.startswith("In file included from"):
                fresh = []  # a new include chain starts a new context
            fresh.append(line)
    return diagnostics


def cases_named(diagnostic: Diagnostic) -> set[int]:
    """Case indices a diagnostic is about.

    An error located in a case's own lines belongs to that case alone: g++
    does not always announce that it left an instantiation context, so an
    inherited context may be stale. An error located in a header belongs to
    the cases its context names (``required from here``, ``In function``).
    """
    own = {int(n) for n in CASE_FILE_RE.findall(diagnostic.location)}
    if own:
        return own
    found: set[int] = set()
    for line in diagnostic.context:
        found.update(int(n) for n in CASE_FILE_RE.findall(line))
        if ": In " in line:
            found.update(int(n) for n in CASE_FUNCTION_RE.findall(line))
    return found


def attribute(stderr: str) -> dict[int | None, list[Diagnostic]]:
    """Errors grouped by the case that caused them (``None``: no case named)."""
    grouped: dict[int | None, list[Diagnostic]] = {}
    for diagnostic in parse(stderr):
        owners = cases_named(diagnostic) or {None}
        for owner in owners:
            grouped.setdefault(owner, []).append(diagnostic)
    return grouped


def summary(diagnostics: list[Diagnostic]) -> str:
    """The most telling message: the first static_assert's text, else the first error."""
    for diagnostic in diagnostics:
        if diagnostic.condition is not None:
            return diagnostic.message
    return diagnostics[0].message if diagnostics else "compilation failed"
