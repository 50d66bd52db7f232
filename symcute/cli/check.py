"""``symcute check FILE...``: re-verify certificates with the independent checker (symcute.check).

Exit 0 when every certificate is re-verified, 1 when one fails, 3 when none fails but one could not be
re-checked (its kind is named; it is never reported ok).
"""

from __future__ import annotations


def register(sub) -> None:
    p = sub.add_parser("check", help="re-verify certificate files (exit 0 all ok, 1 a failure, 3 not re-checked)",
                       description="Re-verify certificates written by 'symcute prove --certificate' or shipped in "
                                   "proofs/, with the independent checker (core's evaluation and its own "
                                   "arithmetic; no prover, no solver).")
    p.add_argument("files", nargs="+", metavar="FILE", help="certificate files (one certificate or a list)")
    p.add_argument("--bound", type=int, metavar="N", help="the most inputs the checker enumerates (default 2^16)")
    p.set_defaults(handler=run)


def run(args) -> int:
    from .. import check
    from ..errors import SymcuteError
    bound = check.BOUND if args.bound is None else args.bound
    if bound < 0:
        raise SymcuteError(f"check: --bound must be non-negative, got {bound}")
    counts = {"ok": 0, "failed": 0, "unchecked": 0}
    for path in args.files:
        try:
            results = list(check.check_files([path], bound))
        except (OSError, ValueError, UnicodeDecodeError) as e:   # json.JSONDecodeError is a ValueError
            raise SymcuteError(f"check: cannot read {path} as a certificate file ({type(e).__name__}: {e})") from None
        for _p, r in results:
            counts[r.status] += 1
            print(f"{path}: {r}")
    print(f"{counts['ok']} ok, {counts['failed']} failed, {counts['unchecked']} not re-checked")
    return 1 if counts["failed"] else 3 if counts["unchecked"] else 0
