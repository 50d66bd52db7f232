"""The web application: one page, three JSON endpoints, nothing else.

Starlette (a small, well-kept ASGI toolkit: routing, requests and responses, no template engine, no
ORM; served by uvicorn) because the page needs exactly that and nothing more.  Routes:

- ``GET /``: the page (static HTML; the inputs live in the URL's query, so a link reproduces the page);
- ``GET /static/app.js``, ``/static/app.css``: the page's script and style (a fixed table: no path
  is ever joined from the request);
- ``POST /api/eval``, ``/api/prove``, ``/api/bank``, ``/api/kernel``, ``/api/derive``: a JSON object of text fields in, the answer of
  :mod:`.compute` out (``{"error": "one line"}`` with status 400 for bad input or a LimitError).

Safe by default: the server binds 127.0.0.1 unless told otherwise; a body is at most ``MAX_BODY`` bytes
and a flat object of short text fields; every computation runs in a worker of :class:`.pool.Pool` under
the work budget, a memory cap and a per-request time limit; every response carries a
Content-Security-Policy that allows no inline script and no other origin; the page renders every value
as text (DOM text nodes, never HTML).
"""

from __future__ import annotations

import contextlib
import json
from importlib import resources

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .pool import Pool

MAX_BODY = 64 * 1024
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "X-Frame-Options": "DENY", "Cache-Control": "no-store"}
STATIC = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}

# endpoint -> (compute function, its fields in order with their defaults; lists are --let / --param items)
ENDPOINTS = {
    "eval": ("evaluate", (("expr", None), ("let", []), ("param", []))),
    "prove": ("prove", (("claim", None), ("let", []), ("param", []))),
    "bank": ("bank", (("smem", None), ("copy", "SM75_U32x4_LDSM_N"), ("mma", "SM80_16x8x16_F16F16F16F16_TN"),
                      ("atom_layout", "2,2,1"), ("operand", "A"), ("value_type", "half_t"))),
    "kernel": ("kernel", (("toml", None),)),
    "derive": ("derive", (("expr", None), ("let", []), ("lang", "en"))),
}


def _static(name: str) -> bytes:
    return resources.files(__package__).joinpath("static", name).read_bytes()


def _error(status: int, line: str) -> JSONResponse:
    return JSONResponse({"error": line}, status_code=status, headers=HEADERS)


async def _body(request: Request):
    """The request's JSON object, read at most MAX_BODY bytes; a Response when it is refused."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        return _error(413, f"request body: more than {MAX_BODY} bytes")
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            return _error(413, f"request body: more than {MAX_BODY} bytes")
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _error(400, "request body: expected a JSON object of text fields")
    if not isinstance(data, dict):
        return _error(400, "request body: expected a JSON object of text fields")
    return data


def _arguments(endpoint: str, data: dict):
    """The compute function's arguments from ``data`` (a tuple), or an error line."""
    _, fields = ENDPOINTS[endpoint]
    names = {f for f, _ in fields}
    unknown = sorted(k for k in data if k not in names)
    if unknown:
        return f"{endpoint}: unknown field {unknown[0][:40]!r} (fields: {', '.join(sorted(names))})"
    args = []
    for name, default in fields:
        v = data.get(name, default)
        if v is None:
            return f"{endpoint}: the field {name!r} is required"
        if isinstance(default, list):
            if not (isinstance(v, list) and all(isinstance(x, str) for x in v)):
                return f"{endpoint}: {name!r} must be a list of text items"
            v = tuple(v)
        elif not isinstance(v, str):
            return f"{endpoint}: {name!r} must be text"
        args.append(v)
    return tuple(args)


def create_app(workers: int = 4, seconds: float = 10.0, slow: int = 4) -> Starlette:
    """The application, with its worker pool (:class:`.pool.Pool`) started on start-up, stopped on shutdown."""
    pool = Pool(workers=workers, seconds=seconds, slow=slow)

    async def page(request: Request) -> Response:
        return Response(_static("index.html"), media_type="text/html; charset=utf-8", headers=HEADERS)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return _error(404, "not found")
        return Response(_static(name), media_type=STATIC[name], headers=HEADERS)

    async def api(request: Request) -> Response:
        endpoint = request.path_params["endpoint"]
        if endpoint not in ENDPOINTS:
            return _error(404, "not found")
        data = await _body(request)
        if isinstance(data, Response):
            return data
        args = _arguments(endpoint, data)
        if isinstance(args, str):
            return _error(400, args)
        status, answer = await pool.run(ENDPOINTS[endpoint][0], args)
        if status == "error":
            return _error(400, answer)
        return Response(answer, media_type="application/json", headers=HEADERS)

    async def stats(request: Request) -> Response:
        return JSONResponse(pool.stats, headers=HEADERS)

    async def not_found(request: Request, exc) -> Response:
        return _error(getattr(exc, "status_code", 404), "not found")

    routes = [Route("/", page), Route("/static/{name}", static), Route("/api/stats", stats),
              Route("/api/{endpoint}", api, methods=["POST"])]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        await pool.start()
        try:
            yield
        finally:
            await pool.close()

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={404: not_found, 405: not_found})
    app.state.pool = pool
    return app
