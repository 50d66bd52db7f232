"""``symcute hwcheck``: confirm MMA atoms' A/B/C layouts on a GPU's tensor cores.

Select atoms (``--atom NAME`` repeatable, ``--filter TEXT``, ``--all``) and/or
user-defined atoms (``--user-atom NAME --base INSTR --a L --b L --c L
[--thr-id L]``, or ``--user-json FILE``).  Then either

* run here (nvcc and an NVIDIA GPU needed),
* ``--emit DIR``: write hwcheck.cu, inputs.bin, manifest.json and run.sh for a GPU machine, or
* ``--results FILE``: read that machine's results.jsonl back and report.

Exit status: 0 when every case agrees (or is unsupported on the target), 1 when one
disagrees or failed, 2 on bad input.
"""

from __future__ import annotations

import sys
from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser("hwcheck", help="check MMA atoms' layouts against the real instructions on a GPU",
                       description="Run MMA atoms' real instructions (CuTe's own wrappers) on one warp and compare "
                                   "the D they compute with the D that the atoms' A/B/C layouts predict.")
    sel = p.add_argument_group("selection")
    sel.add_argument("--atom", action="append", default=[], metavar="NAME",
                     help="a catalogued mma.sync atom (C++ spelling); repeatable")
    sel.add_argument("--filter", metavar="TEXT", help="every mma.sync atom whose name or PTX contains TEXT")
    sel.add_argument("--all", action="store_true", help="every mma.sync atom of the catalog")
    sel.add_argument("--gmma", action="store_true",
                     help="GMMA (wgmma) atoms: every family and source (SS/RS) at N = 8 and 256")
    usr = p.add_argument_group("user-defined atom (layouts not given are the base's)")
    usr.add_argument("--user-atom", metavar="NAME", help="name of a user-defined atom to check")
    usr.add_argument("--base", metavar="INSTR", help="the catalogued atom whose instruction runs it")
    usr.add_argument("--a", metavar="LAYOUT", help="A TV layout, CuTe notation")
    usr.add_argument("--b", metavar="LAYOUT", help="B TV layout")
    usr.add_argument("--c", metavar="LAYOUT", help="C (= D) TV layout")
    usr.add_argument("--thr-id", metavar="LAYOUT", help="logical thread -> lane")
    usr.add_argument("--user-json", action="append", default=[], metavar="FILE",
                     help='JSON: an object or a list of {"name", "base", "a", "b", "c", "thr_id"}; repeatable')
    run = p.add_argument_group("where it runs")
    run.add_argument("--emit", metavar="DIR", help="write the program, inputs, manifest and run.sh into DIR")
    run.add_argument("--copy-headers", action="store_true", help="with --emit: copy CUTLASS's headers into DIR/include")
    run.add_argument("--build", action="store_true", help="with --emit: compile DIR/hwcheck_prog here with nvcc")
    run.add_argument("--results", metavar="FILE", action="append", default=[],
                     help="read a run's results.jsonl[.gz] back (manifest.json beside it); repeatable")
    run.add_argument("--manifest", metavar="FILE", help="with --results: the manifest, if not beside it")
    run.add_argument("--arch", default="sm_90a", help="target (default sm_90a)")
    run.add_argument("--seed", type=int, default=None, help="inputs' seed")
    run.add_argument("--trials", type=int, default=None, help="random trials per atom (default 4)")
    out = p.add_argument_group("output")
    out.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    out.add_argument("--evidence-out", metavar="FILE", help="with --results: write the evidence file (fingerprints)")
    p.set_defaults(handler=run_cmd)


def user_atoms(args) -> list:
    """(MMAAtom, base name) pairs from --user-atom and --user-json."""
    from ..hwcheck.plan import derive_atom
    from ..atoms.mma_lookup import mma_atom
    from ..core import Layout
    from ..errors import SymcuteError

    specs = []
    if args.user_atom:
        if not args.base:
            raise SymcuteError("hwcheck: --user-atom needs --base INSTR (the catalogued instruction to run)")
        specs.append({"name": args.user_atom, "base": args.base, "a": args.a, "b": args.b, "c": args.c,
                      "thr_id": args.thr_id})
    elif any(x is not None for x in (args.base, args.a, args.b, args.c, args.thr_id)):
        raise SymcuteError("hwcheck: --base/--a/--b/--c/--thr-id describe a user atom: add --user-atom NAME")
    for path in args.user_json:
        from .. import jsonread
        from ..hwcheck.schema import USER_ATOMS_SCHEMA
        from .. import files
        raw = files.read(path, f"hwcheck: --user-json {path}")   # regular files only, bounded
        data = jsonread.read(raw, USER_ATOMS_SCHEMA, f"hwcheck: --user-json {path}")
        for spec in data if isinstance(data, list) else [data]:
            if not isinstance(spec, dict) or not isinstance(spec.get("name"), str) or not spec.get("base"):
                raise SymcuteError(f"hwcheck: {path}: each user atom needs at least \"name\" and \"base\"")
            unknown = set(spec) - {"name", "base", "a", "b", "c", "thr_id"}
            if unknown:
                raise SymcuteError(f"hwcheck: {path}: unknown key(s) {sorted(unknown)} in user atom {spec['name']!r}")
            specs.append(spec)
    pairs = []
    for s in specs:
        base = mma_atom(s["base"])
        layouts = {}
        for key in ("a", "b", "c", "thr_id"):
            if s.get(key) is None:
                continue
            if not isinstance(s[key], str):
                raise SymcuteError(f"hwcheck: user atom {s['name']!r}: {key} must be CuTe notation text")
            try:
                layouts[key] = Layout.parse(s[key])
            except SymcuteError as e:
                raise SymcuteError(f"hwcheck: user atom {s['name']!r}: {key} {s[key]!r} is not a layout: {e}") \
                    from None
        atom = derive_atom(base, s["name"], **layouts)
        pairs.append((atom, base.name))
    return pairs


def run_cmd(args) -> int:
    from ..hwcheck import api
    from ..errors import SymcuteError

    if args.results:
        if args.emit or args.atom or args.filter or args.all or args.gmma or args.user_atom or args.user_json:
            raise SymcuteError("hwcheck: --results reads a finished run; it takes no selection or --emit")
        if args.manifest and len(args.results) > 1:
            raise SymcuteError("hwcheck: --manifest goes with a single --results")
        reports = [api.read_results(r, args.manifest) for r in args.results]
        if args.evidence_out:
            from ..hwcheck.evidence import evidence_from_reports, write_evidence
            from .files import writing
            with writing(f"hwcheck: cannot write {args.evidence_out}"):
                write_evidence(evidence_from_reports(reports), args.evidence_out)
        for report in reports:
            _print(report, args.format)
        return 0 if all(r.ok for r in reports) else 1
    if args.evidence_out:
        raise SymcuteError("hwcheck: --evidence-out needs --results (evidence comes from a GPU run)")
    kw = {}
    if args.seed is not None:
        kw["seed"] = args.seed
    if args.trials is not None:
        kw["trials"] = args.trials
    plan = api.plan(args.atom, filter=args.filter, all=args.all, gmma=args.gmma, user=user_atoms(args),
                    arch=args.arch, **kw)
    if args.emit:
        from .files import writing
        with writing(f"hwcheck: cannot write into {args.emit}"):
            paths = plan.emit(args.emit, copy_headers=args.copy_headers, build=args.build)
        for name, reason in plan.skipped:
            print(f"skipped {name}: {reason}", file=sys.stderr)
        print(f"wrote {len(plan.cases)} cases to {args.emit}: " + ", ".join(p.name for p in paths.values()))
        print(f"next: bash {Path(args.emit) / 'run.sh'} on a machine with the GPU, then "
              f"symcute hwcheck --results {Path(args.emit) / 'results.jsonl'}")
        return 0
    if args.copy_headers or args.build:
        raise SymcuteError("hwcheck: --copy-headers and --build go with --emit DIR")
    report = api.run_plan(plan)
    _print(report, args.format)
    return 0 if report.ok else 1


def _print(report, fmt: str) -> None:
    if fmt == "json":
        print(report.to_json())
    elif fmt == "markdown":
        print(f"GPU: {report.env_line()}\n")
        print(report.to_markdown())
    else:
        print(report.to_text())
