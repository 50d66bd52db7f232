"""The kernel description: a CuTe GEMM mainloop spelled as CUTLASS's host code spells it (docs/kernel.md).

A description is a TOML file (read with the standard library's ``tomllib``) or the same tables as a
Python dict; :func:`load` and :func:`from_dict` return a :class:`Kernel`.  Every value that is CuTe is a
symcute expression, evaluated exactly as ``symcute calc`` reads it (``symcute.expr``); inside ``[a]``/
``[b]`` ``s2r`` expressions the name ``mma`` is the ``[mma] tiled`` TiledMMA, and the problem's
parameter names (``M``, ``N``, ``K``) are declared parameters in ``gmem`` expressions.

Every file is untrusted: an unknown table or key, a value of the wrong type, an expression that does
not read or evaluate, or a value of the wrong kind is one :class:`~symcute.errors.SymcuteError` line
naming the file and the key (``kernel.toml: [a] g2s: ...``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..atoms.tiled_copy import TiledCopy
from ..atoms.tiled_mma import TiledMMA
from ..core.composed import ComposedLayout
from ..core.layout import Layout
from ..core.numeric import known_types
from ..errors import LimitError, SymcuteError

# the keys of each table, as docs/kernel.md lists them (a key outside these is refused: a typo must not
# silently drop a part of the data path)
_KEYS = {
    "problem": {"shape", "params"},
    "tile": {"cta"},
    "a": {"type", "gmem", "smem", "g2s", "s2r", "partition", "predicate"},
    "b": {"type", "gmem", "smem", "g2s", "s2r", "partition", "predicate"},
    "c": {"type", "gmem", "predicate", "epilogue"},
    "mma": {"tiled"},
    "pipeline": {"kind", "stages", "wait"},
}
_REQUIRED = {
    "problem": {"shape"}, "tile": {"cta"}, "a": {"type", "gmem", "smem", "g2s"},
    "b": {"type", "gmem", "smem", "g2s"}, "c": {"type", "gmem"}, "mma": {"tiled"}, "pipeline": set(),
}
PIPELINE_KINDS = ("cp.async", "tma", "sync")
MAX_EXPR_CHARS = 4096
MAX_TOML_BYTES = 1 << 20
MAX_TILE_ELEMENTS = 1 << 20    # a claim enumerates a tile's elements at most a few times (witnesses, residue)
# the operand each CTA-tile mode belongs to: A is (M,K), B is (N,K), C is (M,N) (gemm_device's local_tile)
OPERAND_DIMS = {"a": (0, 2), "b": (1, 2), "c": (0, 1)}


@dataclass(frozen=True)
class Operand:
    """One of A or B: its gmem layout over the problem, its smem layout (stages last), its copies.

    ``partition`` is the ThrMMA partition the registers are read through without an S2R copy
    (``"A"`` for A: ``thr_mma.partition_A(sA)``; a planted bug names the other operand's)."""
    name: str                       # "a" or "b"
    type: str
    gmem_text: str
    gmem: object                    # a Layout or a parametric layout over the problem's parameters
    smem_text: str
    smem: object                    # Layout or ComposedLayout, (BLK, BLK_K[, PIPE])
    g2s_text: str
    g2s: TiledCopy
    s2r_text: str | None = None
    s2r: TiledCopy | None = None
    partition: str = "A"
    predicate: bool = False


@dataclass(frozen=True)
class Accumulator:
    """C: its type and gmem layout; ``predicate``: the epilogue writes through copy_if; ``epilogue``: a
    register-to-gmem TiledCopy (``copy(r2g, r2g_thr.retile_S(tCrC), r2g_thr.partition_D(gC))``; none:
    ``axpby(alpha, tCrC, beta, tCgC)`` through ``partition_C``, as sgemm_sm80)."""
    type: str
    gmem_text: str
    gmem: object
    predicate: bool = False
    epilogue_text: str | None = None
    epilogue: TiledCopy | None = None


@dataclass(frozen=True)
class Kernel:
    """A GEMM mainloop: problem, CTA tile, A, B, C, the TiledMMA and the pipeline (docs/kernel.md)."""
    source: str
    shape: tuple                    # (M, N, K): ints or parameter names
    params: tuple                   # the --param declarations ("M:128")
    divisors: dict                  # parameter name -> declared divisor (1 when none)
    cta: tuple                      # (BLK_M, BLK_N, BLK_K)
    a: Operand
    b: Operand
    c: Accumulator
    mma_text: str
    mma: TiledMMA
    pipeline_kind: str = "cp.async"
    stages: int = 1
    wait: int | None = None
    raw: dict = field(default_factory=dict, compare=False, repr=False)

    def operand(self, name: str):
        return {"a": self.a, "b": self.b, "c": self.c}[name]

    def tile_shape(self, name: str) -> tuple:
        """The CTA tile of operand ``name``: A (BLK_M,BLK_K), B (BLK_N,BLK_K), C (BLK_M,BLK_N)."""
        i, j = OPERAND_DIMS[name]
        return self.cta[i], self.cta[j]


def load(path) -> Kernel:
    """The kernel described by the TOML file ``path`` (size-bounded read; every error names the key)."""
    import tomllib
    from ..files import read
    raw = read(path, "kernel description", limit=MAX_TOML_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SymcuteError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SymcuteError(f"{path}: not TOML: {_one_line(str(e))}") from None
    return from_dict(data, source=str(path))


def from_dict(data: dict, source: str = "kernel") -> Kernel:
    """The kernel described by ``data`` (the TOML file's tables as a dict).

    In Python a value may also be symcute's own object instead of its expression: a TiledMMA for
    ``[mma] tiled``, a TiledCopy for ``g2s``/``s2r``/``epilogue``, a Layout or ComposedLayout for
    ``smem`` (``gmem`` stays an expression over the parameters)."""
    if not isinstance(data, dict):
        raise SymcuteError(f"{source}: a kernel description is a table of tables, got {type(data).__name__}")
    for table in data:
        if table not in _KEYS:
            raise SymcuteError(f"{source}: unknown table [{table}]; the tables are "
                               f"{', '.join(f'[{t}]' for t in _KEYS)}")
    for table, keys in _KEYS.items():
        t = data.get(table, {})
        if not isinstance(t, dict):
            raise SymcuteError(f"{source}: [{table}] must be a table, got {_kind(t)}")
        for k in t:
            if k not in keys:
                raise SymcuteError(f"{source}: [{table}] unknown key {k!r}; the keys are {', '.join(sorted(keys))}")
        for k in sorted(_REQUIRED[table]):
            if k not in t:
                raise SymcuteError(f"{source}: [{table}] {k} is missing")
    r = _Reader(source, data)
    shape, params, divisors, env = r.problem()
    cta = r.int_list("tile", "cta", 3, positive=True)
    mma = r.value("mma", "tiled", TiledMMA, "a TiledMMA (make_tiled_mma(...))", {})
    for name in ("a", "b", "c"):
        i, j = OPERAND_DIMS[name]
        if cta[i] * cta[j] > MAX_TILE_ELEMENTS:
            raise LimitError(f"{source}: [tile] cta: the {name.upper()} tile has {cta[i] * cta[j]} elements, more "
                             f"than the limit of {MAX_TILE_ELEMENTS}")
    a = r.operand("a", cta, env, mma, shape)
    b = r.operand("b", cta, env, mma, shape)
    epi_text = epi = None
    if r.get("c", "epilogue") is not None:
        epi_text = r.text("c", "epilogue")
        epi = r.value("c", "epilogue", TiledCopy, "a TiledCopy (make_tiled_copy_C(..., mma))", {"mma": mma})
        if epi.size() != mma.size():
            raise SymcuteError(f"{source}: [c] epilogue has {epi.size()} threads, the TiledMMA {mma.size()}")
    c = Accumulator(type=r.type_name("c"), gmem_text=r.text("c", "gmem"),
                    gmem=r.gmem("c", env, 2, shape), predicate=r.boolean("c", "predicate"),
                    epilogue_text=epi_text, epilogue=epi)
    p = data.get("pipeline", {})
    kind = r.choice("pipeline", "kind", PIPELINE_KINDS, "cp.async")
    stages = r.int_value("pipeline", "stages", default=None, minimum=1)
    wait = r.int_value("pipeline", "wait", default=None, minimum=0)
    smem_stages = {_stages(x.smem) for x in (a, b)}
    if stages is None:
        stages = max(smem_stages)
    for x in (a, b):
        if _stages(x.smem) != stages:
            raise SymcuteError(f"{source}: [{x.name}] smem has {_stages(x.smem)} stage(s) (its last mode), "
                               f"[pipeline] stages is {stages}")
    if wait is not None and wait >= stages and "wait" in p:
        raise SymcuteError(f"{source}: [pipeline] wait = {wait} must be less than stages = {stages}")
    for x in (a, b):
        for what, copy in (("g2s", x.g2s), ("s2r", x.s2r)):
            if copy is not None and copy.size() != mma.size():
                # gemm_device: CUTE_STATIC_ASSERT_V(size(copy_a) == size(mma))
                raise SymcuteError(f"{source}: [{x.name}] {what} has {copy.size()} threads, the TiledMMA "
                                   f"{mma.size()} (CuTe: CUTE_STATIC_ASSERT_V(size(copy_{x.name}) == size(mma)))")
    return Kernel(source=source, shape=shape, params=params, divisors=divisors, cta=cta, a=a, b=b, c=c,
                  mma_text=r.text("mma", "tiled"), mma=mma, pipeline_kind=kind, stages=stages, wait=wait, raw=data)


def _stages(smem) -> int:
    """The number of pipeline stages of an smem layout: its third mode's size (1 for a rank-2 layout)."""
    shape = smem.shape if isinstance(smem, Layout) else smem.inner.shape
    if not isinstance(shape, tuple) or len(shape) < 3:
        return 1
    return math.prod(_flat(shape[2]))


def _flat(x) -> list:
    return [v for y in x for v in _flat(y)] if isinstance(x, tuple) else [x]


def _kind(v) -> str:
    return {bool: "a boolean", int: "an integer", float: "a float", str: "a string", list: "an array",
            dict: "a table"}.get(type(v), type(v).__name__)


def _one_line(s: str) -> str:
    return " ".join(s.split())


class _Reader:
    """Typed reads of one description's keys; every refusal names the source, the table and the key."""

    def __init__(self, source: str, data: dict):
        self.source, self.data = source, data

    def _where(self, table: str, key: str) -> str:
        return f"{self.source}: [{table}] {key}"

    def get(self, table: str, key: str, default=None):
        return self.data.get(table, {}).get(key, default)

    def text(self, table: str, key: str) -> str:
        v = self.get(table, key)
        if _is_object(v) and key != "gmem":   # a Python value (from_dict): its CuTe print, for messages
            return _one_line(str(v))
        if not isinstance(v, str):
            raise SymcuteError(f"{self._where(table, key)} must be a string (an expression), got {_kind(v)}")
        if len(v) > MAX_EXPR_CHARS:
            raise SymcuteError(f"{self._where(table, key)}: {len(v)} characters, more than the limit of "
                               f"{MAX_EXPR_CHARS}")
        if not v.strip():
            raise SymcuteError(f"{self._where(table, key)} is empty")
        return v

    def boolean(self, table: str, key: str) -> bool:
        v = self.get(table, key, False)
        if not isinstance(v, bool):
            raise SymcuteError(f"{self._where(table, key)} must be true or false, got {_kind(v)}")
        return v

    def choice(self, table: str, key: str, choices, default):
        v = self.get(table, key, default)
        if v not in choices:
            raise SymcuteError(f"{self._where(table, key)} must be one of {', '.join(choices)}, got {v!r}")
        return v

    def int_value(self, table: str, key: str, default=None, minimum: int = 0):
        v = self.get(table, key, default)
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, int) or not minimum <= v <= 1 << 20:
            raise SymcuteError(f"{self._where(table, key)} must be an integer in [{minimum}, 2^20], got {v!r}")
        return v

    def int_list(self, table: str, key: str, n: int, positive: bool = False) -> tuple:
        v = self.get(table, key)
        if not isinstance(v, list) or len(v) != n:
            raise SymcuteError(f"{self._where(table, key)} must be an array of {n} integers, got {_kind(v)}")
        for x in v:
            if isinstance(x, bool) or not isinstance(x, int) or (positive and not 1 <= x <= 1 << 16):
                raise SymcuteError(f"{self._where(table, key)}: {x!r} is not an integer in [1, 65536]")
        return tuple(v)

    def type_name(self, table: str) -> str:
        v = self.get(table, "type")
        if not isinstance(v, str) or v.replace("cutlass::", "").replace("cute::", "").strip() not in known_types():
            raise SymcuteError(f"{self._where(table, 'type')}: {v!r} is not a CuTe value type (float, half_t, ...)")
        return v

    def problem(self):
        where = self._where("problem", "shape")
        shape = self.get("problem", "shape")
        if not isinstance(shape, list) or len(shape) != 3:
            raise SymcuteError(f"{where} must be an array of three extents (M, N, K), got {_kind(shape)}")
        decls = self.get("problem", "params", [])
        if not isinstance(decls, list) or not all(isinstance(d, str) for d in decls):
            raise SymcuteError(f"{self._where('problem', 'params')} must be an array of strings (\"M:128\")")
        from ..symbolic import parametric as P
        names, divisors = [], {}
        for d in decls:
            try:
                name, div = P.parse_declaration(d)
            except SymcuteError as e:
                raise SymcuteError(f"{self._where('problem', 'params')}: {e}") from None
            if name in divisors:
                raise SymcuteError(f"{self._where('problem', 'params')}: {name} is declared twice")
            names.append(name)
            divisors[name] = div or 1
        out = []
        for x in shape:
            if isinstance(x, bool) or not isinstance(x, (int, str)):
                raise SymcuteError(f"{where}: {x!r} is neither a positive integer nor a parameter name")
            if isinstance(x, int) and not 1 <= x <= 1 << 31:
                raise SymcuteError(f"{where}: {x} is not a positive 32-bit extent")
            if isinstance(x, str) and x not in divisors:
                raise SymcuteError(f"{where}: {x!r} is not declared in [problem] params")
            out.append(x)
        for name in names:
            if name not in out:
                raise SymcuteError(f"{self._where('problem', 'params')}: {name} is not an extent of the shape")
        env = {}
        if names:
            try:
                ps = P.params(names, multiple_of={n: d for n, d in divisors.items() if d > 1})
            except SymcuteError as e:
                raise SymcuteError(f"{self._where('problem', 'params')}: {e}") from None
            env = {n: ps[n] for n in ps.names()}
        return tuple(out), tuple(decls), divisors, env

    def value(self, table: str, key: str, kinds, what: str, env: dict, text: str | None = None):
        """The value of the expression ``[table] key`` (``symcute.expr.evaluate``), of one of ``kinds``."""
        from ..expr import evaluate
        raw = self.get(table, key)
        if _is_object(raw) and key != "gmem":   # gmem stays text: residue evaluates it at concrete sizes
            if not isinstance(raw, kinds):
                raise SymcuteError(f"{self._where(table, key)}: expected {what}, got {type(raw).__name__}")
            return raw
        text = self.text(table, key) if text is None else text
        try:
            v = evaluate(text, env)
        except RecursionError:
            raise SymcuteError(f"{self._where(table, key)}: expression nested too deeply") from None
        except SymcuteError as e:
            raise SymcuteError(f"{self._where(table, key)}: {_one_line(str(e))}") from None
        if not isinstance(v, kinds):
            raise SymcuteError(f"{self._where(table, key)}: expected {what}, got {type(v).__name__} {_clip(v)}")
        return v

    def gmem(self, table: str, env: dict, rank: int, shape: tuple):
        from ..symbolic.parametric.layout import ParamLayout
        v = self.value(table, "gmem", (Layout, ParamLayout), "a layout over the problem ((M,K):(1,M))", env)
        if v.rank != rank:
            raise SymcuteError(f"{self._where(table, 'gmem')}: {v} has rank {v.rank}; the operand is rank {rank}")
        i, j = OPERAND_DIMS[table]
        want = f"({shape[i]},{shape[j]})"
        got = str(v).partition(":")[0].replace(" ", "")
        if got != want:   # gemm_device's mA = make_tensor(A, select<0,2>(shape_MNK), dA)
            raise SymcuteError(f"{self._where(table, 'gmem')}: {v} has shape {got}; {table.upper()} of the "
                               f"problem {tuple(shape)} is {want}")
        return v

    def operand(self, name: str, cta: tuple, env: dict, mma: TiledMMA, pshape: tuple) -> Operand:
        smem = self.value(name, "smem", (Layout, ComposedLayout), "an smem layout", {})
        inner = smem if isinstance(smem, Layout) else smem.inner
        i, j = OPERAND_DIMS[name]
        shape = inner.shape if isinstance(inner.shape, tuple) else (inner.shape,)
        if len(shape) not in (2, 3) or not all(isinstance(s, (int, tuple)) for s in shape):
            raise SymcuteError(f"{self._where(name, 'smem')}: {smem} must be (BLK,BLK_K) or (BLK,BLK_K,PIPE)")
        from ..core.layout import size
        got = (size(shape[0]), size(shape[1]))
        if got != (cta[i], cta[j]):
            # gemm_device: CUTE_STATIC_ASSERT_V(size<0>(ASmemLayout{}) == size<0>(cta_tiler)) and alike
            raise SymcuteError(f"{self._where(name, 'smem')}: {smem} covers {got[0]}x{got[1]}; the CTA tile "
                               f"of {name.upper()} is {cta[i]}x{cta[j]}")
        g2s = self.value(name, "g2s", TiledCopy, "a TiledCopy (make_tiled_copy(...))", {})
        s2r_text = s2r = None
        if self.get(name, "s2r") is not None:
            s2r_text = self.text(name, "s2r")
            s2r = self.value(name, "s2r", TiledCopy, "a TiledCopy (make_tiled_copy_A(..., mma))", {"mma": mma})
        partition = self.choice(name, "partition", ("A", "B"), name.upper())
        return Operand(name=name, type=self.type_name(name), gmem_text=self.text(name, "gmem"),
                       gmem=self.gmem(name, env, 2, pshape), smem_text=self.text(name, "smem"), smem=smem,
                       g2s_text=self.text(name, "g2s"), g2s=g2s, s2r_text=s2r_text, s2r=s2r,
                       partition=partition, predicate=self.boolean(name, "predicate"))


def _is_object(v) -> bool:
    """A value of symcute itself given in Python (``from_dict``) instead of an expression."""
    return isinstance(v, (TiledCopy, TiledMMA, Layout, ComposedLayout))


def _clip(v, n: int = 60) -> str:
    s = _one_line(str(v))
    return s if len(s) <= n else s[:n] + "..."
