"""``symcute kernel check FILE [--json]``: prove a CuTe GEMM mainloop's data path (docs/kernel.md).

    symcute kernel check examples/kernels/sgemm_sm80_nt.toml          # one line per claim
    symcute kernel check examples/kernels/sgemm_sm80_nt.toml --json   # {"claims": {"a.load": {...}, ...}}

Exit status as ``symcute prove``: 0 every claim proved, 1 a claim refuted, 3 one unknown, 2 bad input.
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
    p.set_defaults(handler=lambda args: p.print_help() or 2)


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
