"""What the web page asks of symcute: an expression's value and pictures, a claim's proof, a copy's banks.

Each function takes the page's inputs as text (exactly what ``calc``, ``prove`` and ``bank`` take: an
expression of the calc language, ``--let`` items, ``--param`` declarations) and returns a JSON-ready dict;
bad input raises a SymcuteError (the server answers it as one line).  No text reaches an evaluator: the
expression language reads it.  Pictures are data (``panels``: cells with their coordinate, thread, value,
address and bank), drawn as SVG by :mod:`.draw`; CuTe's own SVG rides beside them for download.
"""

from __future__ import annotations

from ..errors import LayoutError, LimitError, ParseError, SymcuteError

MAX_TEXT = 4000        # characters of one input field (an expression, a claim, one --let item)
MAX_ITEMS = 16         # --let items and --param declarations of one request
MAX_CELLS = 16384      # cells of one panel the page draws (a 128x128 tile)


def _text(value, what: str) -> str:
    if not isinstance(value, str):
        raise ParseError(f"{what}: expected text, got {type(value).__name__}")
    if len(value) > MAX_TEXT:
        raise LimitError(f"{what}: {len(value)} characters, more than the page's {MAX_TEXT}")
    return value


def _items(values, what: str) -> list:
    if values is None:
        return []
    if not isinstance(values, (list, tuple)) or len(values) > MAX_ITEMS:
        raise LimitError(f"{what}: expected a list of at most {MAX_ITEMS} items")
    return [_text(v, what) for v in values if not (isinstance(v, str) and not v.strip())]


def _env(lets, params):
    from ..expr.bindings import declare_params, parse_lets, with_params
    ps = declare_params(_items(params, "--param"))
    return with_params(parse_lets(_items(lets, "--let")), ps), ps


def evaluate(expr: str, lets=None, params=None) -> dict:
    """The value of ``expr`` (CuTe notation, C++ and CuTe DSL code, formula and sub-axis table, panels)."""
    from ..expr.bindings import evaluate_and_check, show, warning_line
    expr = _text(expr, "expression")
    if not expr.strip():
        raise ParseError("expression: empty")
    env, ps = _env(lets, params)
    value, broken = evaluate_and_check(expr, env, ps is not None)
    out = {"value": show(value), "kind": type(value).__name__,
           "warning": warning_line(broken) if broken is not None else None,
           "cpp": _code(value, "cpp"), "dsl": _code(value, "dsl"), "formula": None, "table": None,
           "conditions": list(ps.describe()) if ps is not None else [], "panels": [], "svg": None, "note": None}
    _formula(value, out)
    _pictures(value, out)
    return out


def _code(value, kind: str):
    from ..core.code import to_cpp, to_dsl
    try:
        return (to_cpp if kind == "cpp" else to_dsl)(value)
    except SymcuteError:
        return None   # not every value has a C++ spelling (a claim, an int tuple of ScaledBasis ...)


def _formula(value, out: dict) -> None:
    from ..core import ComposedLayout, Layout
    from ..symbolic import Formula, formula
    if not isinstance(value, (Layout, ComposedLayout, Formula)):
        return
    try:
        f = value if isinstance(value, Formula) else formula(value)
    except SymcuteError as e:
        out["note"] = f"no formula: {e}"
        return
    out["formula"] = str(f)
    table = str(f.table())
    out["table"] = f"{f.domain_table()}\n\n{table}" if hasattr(f, "domain_table") else table


def _pictures(value, out: dict) -> None:
    from ..atoms.mma_atom import MMAAtom
    from ..atoms.tiled_copy import TiledCopy
    from ..atoms.tiled_mma import TiledMMA
    from ..core import ComposedLayout, Layout
    from ..report.pictures import print_svg, tv_panels
    try:
        if isinstance(value, (TiledMMA, MMAAtom, TiledCopy)):
            for title, (M, N), cells in tv_panels(value):
                _check_cells(M * N, title)
                out["panels"].append({"title": title, "rows": M, "cols": N,
                                      "cells": [{"m": m, "n": n, "t": t, "v": v} for m, n, t, v in cells]})
            if not isinstance(value, TiledCopy):
                out["svg"] = print_svg(value)   # CuTe's own print_svg, byte for byte
        elif isinstance(value, (Layout, ComposedLayout)):
            out["panels"].append(layout_panel(value))
    except SymcuteError as e:
        out["note"] = f"no picture: {e}"


def _check_cells(n: int, what: str) -> None:
    if n > MAX_CELLS:
        raise LimitError(f"{what}: {n} cells, more than the page draws ({MAX_CELLS})")


def _rank2(layout):
    """``(rows, cols, at)``: CuTe's print_layout grid (rank 1 drawn as one column, rank 2 as rows x columns)."""
    from ..core import size
    inner = layout.inner if hasattr(layout, "inner") else layout
    if inner.rank > 2:
        raise LayoutError(f"{layout} has rank {inner.rank}; the grid draws rank 1 and 2 (CuTe's print_layout)")
    if inner.rank == 1:
        return size(inner), 1, lambda m, n: layout(m)
    return size(inner[0]), size(inner[1]), lambda m, n: layout(m, n)


def layout_panel(layout, title: str = "layout") -> dict:
    """A layout's grid: cell (m, n) holds ``layout(m, n)``.  @raises LayoutError where it is no grid"""
    M, N, at = _rank2(layout)
    if not (isinstance(M, int) and isinstance(N, int)):
        raise LayoutError(f"{layout}: run-time extents have no picture")
    _check_cells(max(M, 0) * max(N, 0), str(layout))
    cells = []
    for m in range(M):
        for n in range(N):
            v = at(m, n)
            if not isinstance(v, int):
                raise LayoutError(f"{layout} at ({m},{n}) is {v}, not an index")
            cells.append({"m": m, "n": n, "i": v})
    return {"title": title, "rows": M, "cols": N, "cells": cells}


def prove(claim: str, lets=None, params=None) -> dict:
    """A claim of the claim language (``injective(L)``, ``equal(A, B)`` ...) proved, refuted or unknown."""
    from ..expr.bindings import evaluate_named
    from ..symbolic.claim import Claim, prove_claim
    from ..symbolic.proof import Proof
    claim = _text(claim, "claim")
    if params:
        raise ParseError("claim: --param is not read by the prove box yet; bind layouts with --let")
    v = evaluate_named(claim, _items(lets, "--let"), [])
    if not isinstance(v, Proof):
        if not isinstance(v, Claim):
            raise ParseError(f"claim: {claim!r} is no claim (it evaluates to a {type(v).__name__}); write e.g. "
                             f"injective(L) or equal(A, B)")
        v = prove_claim(v, None)
    ce = {str(k): str(x) for k, x in (v.counterexample or {}).items()}
    return {"verdict": str(v.verdict), "text": str(v), "counterexample": ce,
            "markdown": f"**Claim.** `{claim}`\n\n```text\n{v}\n```\n"}


def bank(smem: str, copy_atom: str = "SM75_U32x4_LDSM_N", mma: str = "SM80_16x8x16_F16F16F16F16_TN",
         atom_layout: str = "2,2,1", operand: str = "A", value_type: str = "half_t") -> dict:
    """Wavefronts of a TiledCopy (make_tiled_copy_<operand> of the TiledMMA) over an smem layout, with the
    smem tile in bank colours: each cell's coordinate, the (thread, value) that copies it, its element
    address, byte address and bank."""
    from .. import memory
    from ..memory import default_side
    from ..recipes.bank import build_copy, resolve_smem
    from ..report.bank import bank_svg
    from ..report.pictures import tv_panels
    args = [_text(a, w) for a, w in ((smem, "smem"), (copy_atom, "copy atom"), (mma, "mma"),
                                     (atom_layout, "atom layout"), (operand, "operand"), (value_type, "value type"))]
    smem, copy_atom, mma, atom_layout, operand, value_type = args
    operand = operand.upper()
    if operand not in ("A", "B", "C"):
        raise ParseError(f"operand: expected A, B or C, got {operand!r}")
    _, tc = build_copy(mma, atom_layout, operand, copy_atom, value_type)
    layout = resolve_smem(smem, value_type, tc.tiler_mn)
    res = memory.bank_conflicts(tc, layout, None)
    bits = res.value_bits
    panels = {title: (dims, cells) for title, dims, cells in tv_panels(tc)}
    side = default_side(tc.atom).upper()   # the side bank_conflicts analysed (ldmatrix: S; stmatrix, cp.async: D)
    (M, N), tv = panels[side]
    owner = {(m, n): (t, v) for m, n, t, v in tv}
    grid = layout_panel(layout, f"smem ({side} side of the copy), bank colours")
    for c in grid["cells"]:
        byte = c["i"] * bits // 8
        c["addr"], c["bank"] = byte, (byte // 4) % 32
        if (c["m"], c["n"]) in owner:
            c["t"], c["v"] = owner[(c["m"], c["n"])]
    w = res.witness
    phases = [{"phase": ph.index, "lanes": list(ph.lanes), "wavefronts": ph.wavefronts, "ideal": ph.ideal,
               "bank": ph.bank, "bank_lanes": [list(x) for x in ph.bank_lanes]}
              for ph in res.phases(w.warp, w.instruction)]
    return {"summary": [[k, v] for k, v in res.summary()], "panels": [grid],
            "worst": {"warp": w.warp, "instruction": w.instruction, "phases": phases},
            "per_instruction": [list(r) for r in res.per_instruction],
            "wavefronts": res.wavefronts, "ideal": res.ideal_wavefronts, "conflict_free": res.conflict_free,
            "svg": bank_svg(res, w.warp, w.instruction), "smem": str(layout), "copy": tc.atom.name}


MAX_TOML = 32 * 1024   # characters of a kernel description typed into the page


def kernel(toml: str) -> dict:
    """``symcute kernel check`` of a kernel description (the TOML text of examples/kernels/*.toml): every
    claim's verdict, conditions and counterexample, and the TiledMMA's cells with the counterexample's
    thread to highlight."""
    import tomllib
    from ..kernel import check
    from ..kernel.description import from_dict
    from ..report.pictures import tv_panels
    if not isinstance(toml, str):
        raise ParseError("kernel: expected the TOML text of a kernel description")
    if len(toml) > MAX_TOML:
        raise LimitError(f"kernel: {len(toml)} characters, more than the page's {MAX_TOML}")
    try:
        data = tomllib.loads(toml)
    except tomllib.TOMLDecodeError as e:
        raise ParseError(f"kernel: not TOML: {' '.join(str(e).split())}") from None
    k = from_dict(data, source="kernel")
    result = check(k)
    out = result.to_dict()
    out["exit_status"] = result.exit_status
    out["mma"] = k.mma_text
    refuted = [c for c in result.claims.values() if c.verdict == "refuted" and c.counterexample]
    out["highlight"] = next((c.counterexample.get("thread") for c in refuted
                             if isinstance(c.counterexample.get("thread"), int)), None)
    out["panels"] = []
    try:
        for title, (M, N), cells in tv_panels(k.mma):
            _check_cells(M * N, title)
            out["panels"].append({"title": f"TiledMMA {title}", "rows": M, "cols": N,
                                  "cells": [{"m": m, "n": n, "t": t, "v": v} for m, n, t, v in cells]})
    except SymcuteError as e:
        out["note"] = f"no picture: {e}"
    return out


def derive(expr: str, lets=None, lang: str = "en") -> dict:
    """The Markdown proof of ``expr`` (``symcute derive expr EXPR --let ...``: each step with its formula and
    the identity its rule guarantees, proved) in ``lang`` (en or zh)."""
    from ..expr import derive_expr
    from ..expr.bindings import parse_lets
    from ..report import markdown
    expr = _text(expr, "expression")
    if lang not in ("en", "zh"):
        raise ParseError(f"lang: expected en or zh, got {lang!r}")
    return {"markdown": markdown(derive_expr(expr, parse_lets(_items(lets, "--let"))), lang)}
