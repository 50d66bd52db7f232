"""``hwcheck``: confirm MMA atoms' layouts on a GPU's tensor cores (emit, run, read back).

Three steps, which may run on different machines:

1. :func:`plan` selects cases (catalogued atoms, user-defined atoms on a
   catalogued instruction, corrected upstream defects) and draws inputs;
2. :meth:`Plan.emit` writes ``hwcheck.cu``, ``inputs.bin``, ``manifest.json``
   and ``run.sh`` (build with nvcc, run on the GPU, write ``results.jsonl``);
3. :func:`read_results` regenerates the inputs from the manifest's seed,
   decodes the measured D registers and compares them with the product model.

:func:`hwcheck` does all three where nvcc and a GPU are present, or one of
the ends (``emit=DIR``, ``results=FILE``) where they are not.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .. import files, jsonread
from ..errors import SymcuteError
from ..oracle.toolchain import find_cute_include
from .plan import (
    DEFAULT_ARCH, LANES, Case, atom_from_spec, atom_spec, catalog_cases, fingerprint, forced_guard, make_inputs,
    user_case,
)
from .program import nvcc_flags, program_text, run_script
from .schema import MANIFEST_SCHEMA, RESULT_LINE_SCHEMA
from .report import (
    NO_TENSOR_OP, AGREE, DISAGREE, ERROR, NOT_RUN, UNSUPPORTED, CaseResult, Report, evaluate_case, parse_sass, types_text,
)
from ..atoms.mma_atom import MMAAtom
from ..atoms.mma_catalog import WARP_ATOMS
from ..atoms.mma_lookup import mma_atom

FORMAT = "symcute-hwcheck/1"
DEFAULT_SEED = 20260101
DEFAULT_TRIALS = 4


GMMA_SAMPLE_N = (8, 256)


def gmma_sample(n_values=GMMA_SAMPLE_N) -> list[str]:
    """One GMMA atom per family (types), source (SS/RS) and N in ``n_values``: C layouts at both ends of N."""
    from ..atoms import mma_gmma
    out = []
    for base, fam, n, _source in mma_gmma.all_base_names(False):
        if n in n_values:
            out.append(mma_atom(base + mma_gmma.default_arguments(fam)).name)
    return out


def select_atoms(atoms=(), filter: str | None = None, all: bool = False, gmma: bool = False) -> list[str]:
    """Atom names: the named ones, the mma.sync atoms whose name or PTX contains ``filter``, all mma.sync
    atoms (``all``), and a sample of the GMMA atoms (``gmma``: every family and source, N = 8 and 256)."""
    names: list[str] = []
    for a in atoms or ():
        names.append(mma_atom(a).name)
    if filter:
        needle = "".join(filter.split()).lower()
        found = [n for n, a in WARP_ATOMS.items() if needle in n.lower() or needle in a.ptx.lower()]
        if not found:
            raise SymcuteError(f"hwcheck: no mma.sync atom matches --filter {filter!r}")
        names += found
    if all:
        names += list(WARP_ATOMS)
    if gmma:
        names += gmma_sample()
    return list(dict.fromkeys(names))


@dataclass
class Plan:
    """Selected cases, skipped atoms (with reasons) and the inputs' seed."""
    cases: list
    skipped: list = field(default_factory=list)      # (atom name, reason)
    seed: int = DEFAULT_SEED
    trials: int = DEFAULT_TRIALS
    arch: str = DEFAULT_ARCH
    _inputs: list | None = None

    def inputs(self) -> list:
        if self._inputs is None:
            self._inputs = [make_inputs(c, self.seed, self.trials) for c in self.cases]
        return self._inputs

    def _layout(self) -> tuple[list, bytes]:
        """Per case (off_a, off_b, off_c, na, nb, nc, nd) into inputs.bin, and the file's bytes."""
        blob = bytearray()
        rows = []
        for case, inp in zip(self.cases, self.inputs()):
            offs = []
            for op in "ABC":
                offs.append(len(blob))
                for image in inp.regs[op]:
                    blob += image
            rows.append((*offs, case.reg_bytes("A"), case.reg_bytes("B"), case.reg_bytes("C"), case.reg_bytes("D")))
        return rows, bytes(blob)

    def manifest(self) -> dict:
        rows, blob = self._layout()
        cases = []
        for i, (case, row) in enumerate(zip(self.cases, rows)):
            cases.append({"index": i, "label": case.label, "instruction": case.instruction, "kind": case.kind,
                          "note": case.note,
                          "atom": atom_spec(case.atom), "offsets": list(row[:3]),
                          "bytes": dict(zip("ABCD", row[3:]))})
        body = {"format": FORMAT, "seed": self.seed, "trials": self.trials, "arch": self.arch, "lanes": LANES,
                "cases": cases, "skipped": [list(s) for s in self.skipped],
                "inputs_sha256": hashlib.sha256(blob).hexdigest()}
        body["id"] = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]
        return body

    def emit(self, directory, copy_headers: bool = False, build: bool = False) -> dict:
        """Write the program, its inputs, the manifest and run.sh into ``directory``; returns their paths.

        ``copy_headers`` copies CUTLASS's include folder beside them (for a GPU
        machine without the wheel); ``build`` compiles ``hwcheck_prog`` here with nvcc.
        """
        rows, blob = self._layout()
        man = self.manifest()
        include = find_cute_include()
        names = {"program": "hwcheck.cu", "inputs": "inputs.bin", "manifest": "manifest.json", "script": "run.sh"}
        guards = sorted({forced_guard(c.instruction, self.arch) for c in self.cases} - {""})
        entries = {
            names["program"]: (program_text(self.cases, rows, self.trials, man["id"], self.arch, len(blob), guards),
                               files.FILE_MODE),
            names["inputs"]: (blob, files.FILE_MODE),
            names["manifest"]: (json.dumps(man, indent=1, sort_keys=True) + "\n", files.FILE_MODE),
            names["script"]: (run_script(self.arch, str(include) if include else "include"), files.SCRIPT_MODE),
        }
        if copy_headers and include is None:
            raise SymcuteError("hwcheck: CUTLASS's headers are not installed (pip install nvidia-cutlass)")

        def headers(staging):
            for sub in ("cute", "cutlass"):
                dst = staging / "include" / sub
                try:
                    shutil.copytree(include / sub, dst)
                except (OSError, shutil.Error) as e:
                    raise SymcuteError(f"hwcheck: cannot copy CUTLASS's headers into {dst}: {e}") from None
        # symcute.files.write_tree: the files go into a staging directory that takes DIR's place in one
        # atomic exchange; two concurrent emits leave one run's program and manifest, never a mix
        try:
            out = files.write_tree(directory, entries, fill=headers if copy_headers else None)
        except SymcuteError as e:
            raise SymcuteError(f"hwcheck: {e}") from None
        paths = {k: out / v for k, v in names.items()}
        if build:
            paths["binary"] = build_program(out, self.arch)
        return paths


def plan(atoms=(), *, filter: str | None = None, all: bool = False, gmma: bool = False, user=(),
         arch: str = DEFAULT_ARCH, seed: int = DEFAULT_SEED, trials: int = DEFAULT_TRIALS) -> Plan:
    """Cases for the selected catalogued atoms plus user atoms ``user`` (each a Case, or (MMAAtom, base))."""
    if not 1 <= int(trials) <= 64:
        raise SymcuteError(f"hwcheck: trials must be in 1..64, got {trials}")
    cases, skipped = catalog_cases(select_atoms(atoms, filter, all, gmma), arch)
    for u in user or ():
        if isinstance(u, Case):
            cases.append(u)
        elif isinstance(u, MMAAtom):
            cases.append(user_case(u, None, arch))
        else:
            atom, base = u
            cases.append(user_case(atom, base, arch))
    labels = [c.label for c in cases]
    dup = {x for x in labels if labels.count(x) > 1}
    if dup:
        raise SymcuteError(f"hwcheck: two cases are named {sorted(dup)[0]!r}; give user atoms distinct names")
    if not cases and not skipped:
        raise SymcuteError("hwcheck: nothing selected (name atoms with --atom, use --filter, --all, --gmma "
                           "or --user-atom)")
    return Plan(cases, skipped, int(seed), int(trials), arch)


def build_program(directory, arch: str = DEFAULT_ARCH) -> Path:
    """Compile ``hwcheck.cu`` in ``directory`` with nvcc (no GPU needed)."""
    d = Path(directory)
    nvcc = shutil.which(os.environ.get("NVCC", "nvcc"))
    inc = find_cute_include() or (d / "include")
    if not nvcc:
        raise SymcuteError("hwcheck: nvcc is not on PATH (set NVCC, or build on the GPU machine with run.sh)")
    cmd = [nvcc, *nvcc_flags(arch).split(), f"-I{inc}", "hwcheck.cu", "-o", "hwcheck_prog"]
    p = subprocess.run(cmd, cwd=d, capture_output=True, text=True)
    if p.returncode != 0:
        raise SymcuteError(f"hwcheck: nvcc failed: {(p.stderr or p.stdout).strip()[-2000:]}")
    return d / "hwcheck_prog"


# ---- reading results back -------------------------------------------------------------------------

def read_manifest(path) -> dict:
    """The manifest at ``path``, validated against ``hwcheck.schema.MANIFEST_SCHEMA``."""
    text = files.read(path, "hwcheck: manifest")   # a regular file, bounded; never a FIFO or /dev/zero
    return check_manifest(jsonread.loads(text, f"hwcheck: manifest {path}"), f"hwcheck: manifest {path}")


def check_manifest(man, source: str = "hwcheck: manifest") -> dict:
    """``man`` if it is a manifest this symcute can read back (schema, then indices 0..n-1 in order)."""
    if not isinstance(man, dict) or man.get("format") != FORMAT:
        raise SymcuteError(f"{source} is not a {FORMAT} manifest (expected an object with \"format\": "
                           f"\"{FORMAT}\")")
    jsonread.checked(man, MANIFEST_SCHEMA, source)
    for k, c in enumerate(man["cases"]):
        if c["index"] != k:
            raise SymcuteError(f"{source}: at $.cases[{k}].index: {c['index']} (expected {k}: cases in order)")
    return man


def plan_from_manifest(man: dict) -> Plan:
    """The plan a manifest describes; its inputs are regenerated and must hash as recorded."""
    check_manifest(man)
    try:
        cases = [Case(c["label"], c["instruction"], atom_from_spec(c["atom"]), c["kind"], c.get("note", ""))
                 for c in man["cases"]]
    except SymcuteError as e:
        raise SymcuteError(f"hwcheck: manifest: a case's atom is not an MMA atom: {e}") from None
    from ..core import int_tuple as it
    for c in cases:   # an edited manifest's layouts rebuild the inputs: extents must be positive
        for op in ("thr_id", "a_layout", "b_layout", "c_layout"):
            lay = getattr(c.atom, op, None)
            shape = getattr(lay, "shape", None)
            if shape is not None and any(type(x) is int and x < 1 for x in it.flatten_to_tuple(shape)):
                raise SymcuteError(f"hwcheck: manifest: case {c.label!r}: {op} {lay} has an extent below 1")
    p = Plan(cases, [tuple(s) for s in man.get("skipped", [])], man["seed"], man["trials"], man["arch"])
    _rows, blob = p._layout()
    if hashlib.sha256(blob).hexdigest() != man["inputs_sha256"]:
        raise SymcuteError("hwcheck: the manifest's inputs do not regenerate (made by another symcute version?)")
    return p


def parse_results(text: str, source: str = "hwcheck: results") -> tuple[dict, dict]:
    """results.jsonl -> (env of the first start, {case index: case line}); each line checked against
    ``hwcheck.schema.RESULT_LINE_SCHEMA`` (errors name the line and the JSON path)."""
    env: dict = {}
    cases: dict = {}
    for n, obj in jsonread.load_lines(text, source):
        jsonread.checked(obj, RESULT_LINE_SCHEMA, f"{source} line {n}")
        if obj["kind"] == "env" and not env:
            env = obj
        elif obj["kind"] == "case":
            cases[obj["index"]] = obj
    return env, cases


def read_results(results, manifest=None, sass=None) -> Report:
    """The report of a run: ``results`` is results.jsonl (path or text); the manifest defaults to its folder."""
    rpath = Path(results) if not isinstance(results, str) or "\n" not in results else None
    try:   # a regular file, bounded in bytes before and after decompression (a gzip bomb is refused)
        text = results if rpath is None else files.read(rpath, "hwcheck: results").decode()
    except (UnicodeDecodeError, ValueError) as e:
        raise SymcuteError(f"hwcheck: cannot read results {results}: {e}") from None
    if manifest is None:
        if rpath is None:
            raise SymcuteError("hwcheck: give the manifest for results passed as text")
        manifest = rpath.parent / "manifest.json"
    man = check_manifest(manifest) if isinstance(manifest, dict) else read_manifest(manifest)
    if sass is None and rpath is not None and (rpath.parent / "sass_mma.txt").exists():
        try:   # a FIFO named sass_mma.txt once blocked this read forever
            sass = files.read(rpath.parent / "sass_mma.txt", "hwcheck: sass_mma.txt").decode()
        except (UnicodeDecodeError, ValueError) as e:
            raise SymcuteError(f"hwcheck: cannot read {rpath.parent / 'sass_mma.txt'}: {e}") from None
    env, lines = parse_results(text, f"hwcheck: results {results if rpath is not None else '(text)'}")
    if env.get("error"):
        raise SymcuteError(f"hwcheck: the program could not use a GPU: {env['error']}")
    if not env:   # without it the manifest-id check below was skipped (issue 31)
        raise SymcuteError(f"hwcheck: results {results if rpath is not None else '(text)'} have no env line "
                           f"(the program writes one first, naming its manifest)")
    if env.get("manifest") != man["id"]:
        raise SymcuteError(f"hwcheck: results belong to manifest {env.get('manifest')}, not {man['id']}")
    return evaluate_plan(plan_from_manifest(man), env, lines, parse_sass(sass) if sass else {}, man)


def evaluate_plan(p: Plan, env: dict, lines: dict, sass: dict, man: dict | None = None) -> Report:
    results = []
    for i, (case, inp) in enumerate(zip(p.cases, p.inputs())):
        line = lines.get(i)
        if line is None:
            results.append(CaseResult(case.label, case.instruction, case.kind, NOT_RUN, types_text(case.atom),
                                      fingerprint(case.atom), reason="no result line for this case"))
            continue
        if line.get("status") != "ok":
            results.append(CaseResult(case.label, case.instruction, case.kind, ERROR, types_text(case.atom),
                                      fingerprint(case.atom), reason=str(line.get("error", "failed"))))
            continue
        d_trials = [bytes.fromhex(h) for h in line["d"]]   # hex checked by the schema
        want = case.block_threads * case.reg_bytes("D")
        if len(d_trials) != p.trials or any(len(d) != want for d in d_trials):
            raise SymcuteError(f"hwcheck: case {i} ({case.label}): D data has the wrong size")
        r = evaluate_case(case, inp.frags, d_trials)
        if sass:
            r.sass = sass.get(i) or [NO_TENSOR_OP]
        r.reason = case.note
        results.append(r)
    results += upstream_rows(p, results)
    for name, reason in p.skipped:
        atom = mma_atom(name)
        results.append(CaseResult(name, name, "catalog", UNSUPPORTED, types_text(atom), fingerprint(atom),
                                  reason=reason))
    return Report(results, env, man or p.manifest())


def upstream_rows(p: Plan, results: list) -> list:
    """One 'disagree' row per catalogued atom whose upstream layout is malformed and whose instruction ran.

    CuTe rejects every use of such a layout, so it predicts no D at all, while
    the instruction (run with the corrected layout) computes one.
    """
    rows = []
    for case, r in zip(p.cases, results):
        if case.kind != "corrected" or r.verdict not in (AGREE, DISAGREE):
            continue
        atom = mma_atom(case.instruction)
        for d in atom.defects:
            if getattr(atom, d.operand.lower() + "_layout") is None:
                rows.append(CaseResult(atom.name, atom.name, "upstream", DISAGREE, types_text(atom),
                                       fingerprint(atom), trials=r.trials,
                                       reason=(f"CuTe's {d.operand}Layout {d.upstream_text} is malformed "
                                               f"({d.what}); the instruction ran and computed D, which this "
                                               f"layout cannot predict; corrected: "
                                               f"{getattr(case.atom, d.operand.lower() + '_layout')} "
                                               f"({r.verdict})")))
    return rows


def extract_cases(man: dict, results_text: str, labels, sass_text: str = "") -> tuple[dict, str, str]:
    """A smaller record of a run: only the cases named ``labels``, re-indexed (manifest, results, SASS).

    The manifest keeps the run's id (the results' env line names it) and
    records the inputs' hash of the kept cases, plus the hash of the whole run's inputs.
    """
    keep = [c for c in man["cases"] if c["label"] in set(labels)]
    remap = {c["index"]: i for i, c in enumerate(keep)}
    sub = dict(man, cases=[dict(c, index=remap[c["index"]]) for c in keep], skipped=[],
               whole_run={"cases": len(man["cases"]), "inputs_sha256": man["inputs_sha256"]})
    p = Plan([Case(c["label"], c["instruction"], atom_from_spec(c["atom"]), c["kind"], c.get("note", ""))
              for c in sub["cases"]], [tuple(x) for x in man.get("skipped", [])], man["seed"], man["trials"],
             man["arch"])
    rows, blob = p._layout()
    sub["inputs_sha256"] = hashlib.sha256(blob).hexdigest()
    for c, row in zip(sub["cases"], rows):
        c["offsets"] = list(row[:3])
    out = []
    for line in results_text.splitlines():
        obj = jsonread.loads(line, "hwcheck: results") if line.strip() else None
        if obj is None:
            continue
        if obj.get("kind") == "case":
            if obj["index"] not in remap:
                continue
            obj["index"] = remap[obj["index"]]
        out.append(json.dumps(obj, separators=(",", ":")))
    sass_out, keep_fn = [], False
    for line in sass_text.splitlines():
        m = re.search(r"Function : hwcheck_case_(\d+)", line)
        if m:
            keep_fn = int(m.group(1)) in remap
            if keep_fn:
                line = line.replace(f"hwcheck_case_{m.group(1)}", f"hwcheck_case_{remap[int(m.group(1))]}")
        if keep_fn:
            sass_out.append(line)
    return sub, "\n".join(out) + "\n", "\n".join(sass_out) + "\n"


# ---- the one-call entry point ---------------------------------------------------------------------

def hwcheck(atoms=(), *, filter: str | None = None, all: bool = False, gmma: bool = False, user=(), emit=None,
            results=None,
            manifest=None, arch: str = DEFAULT_ARCH, seed: int = DEFAULT_SEED, trials: int = DEFAULT_TRIALS,
            copy_headers: bool = False, build: bool = False):
    """Check MMA atoms' layouts against the real instructions.

    * ``results=FILE``: read a run's results.jsonl back (manifest beside it) and return a :class:`Report`.
    * ``emit=DIR``: write the program, inputs, manifest and run.sh for a GPU machine; returns the :class:`Plan`.
    * neither: emit into a temporary folder, build with nvcc, run on this machine's GPU, return the Report.

    >>> hwcheck(["SM80_16x8x16_F16F16F16F16_TN"], emit="hw/run")   # doctest: +SKIP
    """
    if results is not None:
        return read_results(results, manifest)
    p = plan(atoms, filter=filter, all=all, gmma=gmma, user=user, arch=arch, seed=seed, trials=trials)
    if emit is not None:
        p.emit(emit, copy_headers=copy_headers, build=build)
        return p
    return run_plan(p)


def run_plan(p: Plan) -> Report:
    """Emit, build and run ``p`` on this machine (nvcc and an NVIDIA GPU needed) and read the results."""
    if not shutil.which("nvidia-smi"):
        raise SymcuteError("hwcheck: no NVIDIA GPU here (nvidia-smi not found); use --emit DIR, run DIR/run.sh "
                           "on a GPU machine, then --results DIR/results.jsonl")
    with tempfile.TemporaryDirectory(prefix="symcute-hwcheck-") as tmp:
        p.emit(tmp)
        proc = subprocess.run(["bash", str(Path(tmp) / "run.sh")], capture_output=True, text=True)
        res = Path(tmp) / "results.jsonl"
        if not res.exists() or not res.read_text().strip():
            raise SymcuteError(f"hwcheck: run.sh produced no results: {proc.stderr.strip()[-2000:]}")
        return read_results(res)
