"""``symcute serve``: the explorer page on a local web server (docs/web.md)."""

from __future__ import annotations


def register(sub) -> None:
    p = sub.add_parser("serve", help="serve the explorer page (calc, prove, banks) on a local web server",
                       description="Serve the symcute explorer: type an expression of the calc language, see its "
                                   "value, code, formula and pictures, prove claims, analyse shared-memory banks; "
                                   "the URL holds the inputs (a permalink). Binds 127.0.0.1 unless --host says "
                                   "otherwise.")
    p.add_argument("--port", type=int, default=8000, help="TCP port (default 8000; 0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--workers", type=int, default=4, help="worker processes for cheap requests (default 4)")
    p.add_argument("--seconds", type=float, default=10.0, help="per-request limit in CPU seconds (default 10)")
    p.add_argument("--slow", type=int, default=4, help="slow requests computed at once, at low priority beside the "
                   "cheap ones (default 4; past that a slow request is refused with a LimitError)")
    p.set_defaults(handler=run)


def run(args) -> int:
    import socket
    import sys
    from ..errors import SymcuteError
    if not 0 <= args.port < 65536:
        raise SymcuteError(f"--port {args.port}: expected 0 to 65535")
    if not 1 <= args.workers <= 64:
        raise SymcuteError(f"--workers {args.workers}: expected 1 to 64")
    if not 0 <= args.slow <= 64:
        raise SymcuteError(f"--slow {args.slow}: expected 0 to 64")
    if not 0 < args.seconds <= 3600:
        raise SymcuteError(f"--seconds {args.seconds}: expected more than 0 and at most 3600")
    import uvicorn
    from ..web.app import create_app
    sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)   # inherited by accepted connections: no 40 ms
    # delayed-ACK stall between a response's header and body segments
    try:
        sock.bind((args.host, args.port))
    except (OSError, OverflowError) as e:
        raise SymcuteError(f"--host {args.host} --port {args.port}: cannot listen there ({e.strerror or e})") from None
    sock.listen(256)   # connections wait in the backlog while the workers start, never refused
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"symcute explorer: http://{shown}:{port}/", flush=True)
    if host not in ("127.0.0.1", "::1", "localhost"):
        print(f"warning: listening on {host}: every machine that reaches it can run computations", file=sys.stderr)
    config = uvicorn.Config(create_app(args.workers, args.seconds, args.slow), log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])
    return 0
