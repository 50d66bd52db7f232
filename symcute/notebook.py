"""symcute in Jupyter: rich displays of layouts, formulas, tables, proofs, derivations, TiledMMA/TiledCopy.

``import symcute`` inside an IPython kernel registers these with IPython's display formatters (as
SymPy's ``init_printing`` does); ``%load_ext symcute.notebook`` does it explicitly.  The layers keep
no display code: each object is rendered by the report layer, through :func:`display_data`.

========================  ============================================================
object                    shown as
========================  ============================================================
Layout, ComposedLayout    SVG grid of its values (rank <= 2) and Markdown: CuTe notation + ``print_layout``
Formula                   LaTeX ``$64\\,t_{0} + ...$`` and Markdown: the formula, its sub-axis table
Table                     Markdown table
Proof                     Markdown: verdict, method, claim, certificate table, counterexample
Derivation                Markdown: the whole proof document (``symcute.report.markdown``)
TiledMMA, MMAAtom         SVG: CuTe's ``print_svg``; Markdown: its print
TiledCopy                 SVG: its S and D tiles (``report.svg.copy_svg``); Markdown: its print
Tensor                    Markdown: ``print_tensor``
Picture                   SVG when it is one (``print_svg``), else its text
SharedAccess              Markdown: its summary (instruction, wavefronts against the ideal, vector, method)
SwizzleSynthesis          Markdown: its summary (best, optimal and next swizzles, the unswizzled cost)
========================  ============================================================

A picture over the cell limit (``--max-cells``) is left out: the Markdown still shows.
"""

from __future__ import annotations

from .atoms.mma_atom import MMAAtom
from .atoms.tiled_copy import TiledCopy
from .atoms.tiled_mma import TiledMMA
from .core import ComposedLayout, Layout
from .core.tensor import Tensor
from .errors import SymcuteError
from .symbolic.formula import Formula
from .symbolic.proof import Proof
from .symbolic.table import Table
from .trace.derivation import Derivation

SVG, MARKDOWN, LATEX = "image/svg+xml", "text/markdown", "text/latex"
TABLE_CELLS = 1024  # the largest print_layout shown in a Markdown display


def _code(text: str) -> str:
    return "```\n" + text.rstrip("\n") + "\n```"


def _layout(obj) -> dict:
    from .report.console import print_layout
    from .report.svg import layout_svg
    out = {}
    md = f"`{obj}`"
    if obj.rank == 2 and obj.size() <= TABLE_CELLS:
        try:
            md += "\n\n" + _code(print_layout(obj))
        except SymcuteError:
            pass
    out[MARKDOWN] = md
    try:
        out[SVG] = layout_svg(obj)
    except SymcuteError:
        pass
    return out


def _formula(f: Formula) -> dict:
    return {LATEX: f"$F = {f.latex()}$",
            MARKDOWN: f"`{f.layout}`\n\n$F = {f.latex()}$\n\n" + f.table().to_markdown()}


def _proof(p: Proof) -> dict:
    from .report.templates import Text
    from . import markup
    t = Text("en")   # the statement, reason and conditions in the report's words, Markdown-escaped
    # a Proof may come from a file (Proof.from_json): every field is escaped, none becomes markup or HTML
    lines = [f"**{markup.esc(p.verdict)}** ({markup.esc(p.method)}): {t.phrase(p.statement)}"]
    if p.reason:
        lines.append(f"\n{t.phrase(p.reason)}")
    if p.counterexample:
        lines.append("\ncounterexample: " + ", ".join(f"{markup.esc(k)} = {markup.code(v)}"
                                                        for k, v in p.counterexample.items()))
    if p.certificate is not None:
        lines.append("\n" + p.certificate.table.to_markdown())
        lines += [f"- {t.phrase(c)}" for c in p.certificate.conditions]
    return {MARKDOWN: "\n".join(lines)}


def _derivation(d: Derivation) -> dict:
    from .report import markdown
    return {MARKDOWN: markdown(d)}


def _mma(m) -> dict:
    from .report.pictures import print_svg
    out = {MARKDOWN: _code(str(m))}
    try:
        out[SVG] = print_svg(m)
    except SymcuteError:
        pass
    return out


def _copy(c: TiledCopy) -> dict:
    from .report.svg import copy_svg
    out = {MARKDOWN: _code(str(c))}
    try:
        out[SVG] = copy_svg(c)
    except SymcuteError:
        pass
    return out


def _tensor(t: Tensor) -> dict:
    from .report.console import print_tensor
    try:
        return {MARKDOWN: _code(print_tensor(t))}
    except SymcuteError:
        return {MARKDOWN: f"`{t}`"}


def _memory(result) -> dict:
    # SharedAccess / SwizzleSynthesis: their summary rows, escaped (no per-lane arrays)
    from . import markup
    rows = "\n".join(f"| {markup.esc(k)} | {markup.esc(v)} |" for k, v in result.summary())
    return {MARKDOWN: f"**{type(result).__name__}**\n\n| | |\n|---|---|\n{rows}"}


def _picture(p) -> dict:
    return {SVG: p.text} if "<svg" in p.text else {MARKDOWN: _code(p.text)}


def _renderers() -> list:
    from .memory.shared import SharedAccess
    from .memory.synth import SwizzleSynthesis
    from .report.pictures import Picture
    return [((SharedAccess, SwizzleSynthesis), _memory), ((Layout, ComposedLayout), _layout), (Formula, _formula), (Table, lambda t: {MARKDOWN: t.to_markdown()}),
            (Proof, _proof), (Derivation, _derivation), ((TiledMMA, MMAAtom), _mma), (TiledCopy, _copy),
            (Tensor, _tensor), (Picture, _picture)]


def display_data(obj) -> dict:
    """``{mime type: data}`` for ``obj`` (empty when symcute has no rich display for it)."""
    for cls, render in _renderers():
        if isinstance(obj, cls):
            return render(obj)
    return {}


def register(ipython) -> None:
    """Register symcute's displays with an IPython shell's formatters (idempotent)."""
    formatters = ipython.display_formatter.formatters
    for cls, _render in _renderers():
        for c in cls if isinstance(cls, tuple) else (cls,):
            for mime in (SVG, MARKDOWN, LATEX):
                if mime in formatters:
                    formatters[mime].for_type(c, lambda obj, mime=mime: display_data(obj).get(mime))


def load_ipython_extension(ipython) -> None:
    """``%load_ext symcute.notebook``."""
    register(ipython)
