"""``symcute kernel check FILE [--json]``: prove a CuTe GEMM mainloop's data path; ``symcute kernel run FILE
--shape M,N,K [--cta m,n] [--json]``: run it on the CPU (docs/kernel.md).

    symcute kernel check examples/kernels/sgemm_sm80_nt.toml          # one line per claim
    symcute kernel check examples/kernels/sgemm_sm80_nt.toml --json   # {"claims": {"a.load": {...}, ...}}
    symcute kernel run examples/kernels/sgemm_sm80_nt.toml --shape 256,256,64

Exit status as ``symcute prove``: 0 every claim proved, 1 a claim refuted, 3 one unknown, 2 bad input;
``run``: 0 C equals numpy's matmul and no access is out of bounds, 1 otherwise, 2 bad input.
"""

from __future__ import annotations


def register(sub) -> None:
    p = sub.add_parser("kernel", help="prove a GEMM kernel's data path (exit 0 proved, 1 refuted, 3 unknown)",
                       description="Claims about a CuTe GEMM mainloop described in a TOML file "
                                   "(docs/kernel.md), decided by the prover over the static CTA tile, for every "
                                   "problem size.")
    ks = p.add_subparsers(dest="kernel_command", metavar="SUBCOMMAND", parser_class=sub._parser_class)
    c = ks.add_parser("check", help="decide the claims (a.load, b.load, a.fragment, b.fragment, c.store, residue, "
                                         "pipeline, gemm, the vector and S2R bank claims; a.g2s.banks and "
                                         "b.g2s.banks on request)")
    c.add_argument("file", help="the kernel description (TOML)")
    c.add_argument("--json", action="store_true", help="print {\"claims\": {id: {verdict, conditions, "
                   "counterexample, ...}}}")
    c.add_argument("--claim", action="append", default=None, metavar="ID", help="decide only this claim "
                   "(repeatable)")
    c.set_defaults(handler=run_check)
    r = ks.add_parser("run", help="run the data path on integer numpy arrays and compare C with numpy's matmul "
                                  "(exit 0 equal, 1 wrong elements, out-of-bounds or misaligned accesses)")
    r.add_argument("file", help="the kernel description (TOML)")
    r.add_argument("--shape", required=True, metavar="M,N,K", help="the problem size")
    r.add_argument("--cta", default=None, metavar="m,n", help="run only this CTA (default: the whole grid)")
    r.add_argument("--seed", type=int, default=0, help="the seed of A's and B's random integers (default 0)")
    r.add_argument("--json", action="store_true", help="print the run as JSON")
    r.set_defaults(handler=run_run)
    p.set_defaults(handler=_no_subcommand)


def _no_subcommand(args) -> int:
    from ..errors import ParseError
    raise ParseError("kernel: expected a subcommand, check FILE or run FILE --shape M,N,K (symcute kernel -h)")


def run_check(args) -> int:
    import json
    from ..kernel import check, load
    result = check(load(args.file), args.claim)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
        return result.exit_status
    for cid, r in result.claims.items():
        line = f"{cid:<11} {r.verdict:<8} {r.method}"
        if r.conditions:
            line += "  if " + " and ".join(f"({c})" if " or " in c else c for c in r.conditions)
        print(line)
        f = r.figures or {}
        if "wavefronts" in f:
            print(f"  figures: {f['wavefronts']} wavefronts (ideal {f['ideal_wavefronts']}, {f['ways']}-way) per "
                  f"{f['per']}; {f['instruction']}; " + ", ".join(f"{k} = {v}" for k, v in f["ncu"].items()))
        elif "vector_bits" in f:
            print(f"  figures: {f['values_per_call']} values per call, {f['vector_bits']}-bit vectors ({f['atom']})")
        if r.verdict != "proved":
            if r.why:
                print(f"  why:     {r.why}")
            if r.counterexample:
                print("  counterexample: " + ", ".join(f"{k}={v}" for k, v in r.counterexample.items()))
            if r.link:
                print(f"  parts at: {r.link}")
            if r.fix:
                print(f"  fix:     {r.fix}")
    return result.exit_status


def _pair(text: str):
    from ..errors import SymcuteError
    try:
        m, n = (int(v) for v in text.split(","))
    except ValueError:
        raise SymcuteError(f"kernel run: --cta {text!r}: expected m,n (two integers)") from None
    return m, n


def run_run(args) -> int:
    import json
    from ..kernel import load, run
    r = run(load(args.file), args.shape, _pair(args.cta) if args.cta else None, seed=args.seed)
    d = r.to_dict()
    if args.json:
        print(json.dumps(d, indent=2, ensure_ascii=False))
        return r.exit_status
    M, N, K = r.shape
    where = f"CTA ({d['cta'][0]},{d['cta'][1]})" if d["cta"] else f"{d['ctas']} CTA{'s' if d['ctas'] != 1 else ''}"
    print(f"{args.file}: M,N,K = {M},{N},{K}, {where}, seed {r.seed}, schedules {', '.join(d['schedules'])}")
    if r.exit_status == 0:
        print(f"C equals numpy's A @ B.T on {d['checked']} elements under every schedule; no access out of bounds "
              f"or misaligned")
        return 0
    if d["wrong_count"]:
        per = ", ".join(f"{s} {n}" for s, n in d["wrong_by_schedule"].items())
        print(f"{d['wrong_count']} wrong C elements of {d['checked']} ({per})")
        for w in d["wrong"]:
            print(f"  C(m={w['m']},n={w['n']}): expected {w['expected']}, found {w['found']} "
                  f"({', '.join(w['schedules'])})")
        for s, f in d["first_wrong_k_tile"].items():
            print(f"  {s}: the accumulators first differ from numpy's partial sums after k-tile {f['k_tile']} "
                  f"(CTA ({f['cta'][0]},{f['cta'][1]}))")
    if d["out_of_bounds_count"]:
        print(f"{d['out_of_bounds_count']} out-of-bounds accesses")
        for a in d["out_of_bounds"]:
            print(f"  {a['access']} {a['element']} at offset {a['offset']}: thread {a['thread']} value {a['value']}, "
                  f"{_where(a)}")
    if d["misaligned_count"]:
        print(f"{d['misaligned_count']} misaligned vector accesses")
        for a in d["misaligned"]:
            print(f"  {a['access']} of {a['operand']}: {a['element']}: thread {a['thread']} call {a['call']}, "
                  f"{_where(a)}")
    return r.exit_status


def _where(access: dict) -> str:
    """``CTA (m,n), k-tile k`` of a reported access (no k-tile for the epilogue's)."""
    kt = f", k-tile {access['k_tile']}" if access["k_tile"] is not None else ""
    return f"CTA ({access['cta']['m']},{access['cta']['n']}){kt}"
