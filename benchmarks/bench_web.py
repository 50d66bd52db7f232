"""Load test of ``symcute serve`` (issue 27): concurrent requests of mixed cost against a local server.

    python benchmarks/bench_web.py [--requests 200] [--concurrency 200] [--workers 4] [--markdown]

One ``symcute serve`` process is started on a free port.  The client (asyncio + httpx, one process) sends
``--requests`` requests, at most ``--concurrency`` in flight at once, in a fixed shuffled order:

- cheap: distinct small layouts to evaluate, claims to prove (each different, so the cache never answers);
- expensive: a 4x4x1 SM80 TiledMMA with CuTe's print_svg and its 5,120 cells (about 0.5 s of CPU each),
  one in 20 requests;
- over the limit: the same TiledMMA tiled to 128x128x32 (about 3.8 s of CPU), which the server's
  per-request limit (``--seconds``, 2 s here) stops, one in 50.

It reports, per class: requests, answered, lost (no HTTP answer), p50 and p99 latency (wall clock, from
send to answer), and checks every over-budget request was answered with its LimitError line.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
EXPENSIVE = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_4,_4,_1>>{})"
OVER = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_4,_4,_1>>{}, Tile<_128,_128,_32>{})"


def requests(n: int, seed: int = 1):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        if i % 50 == 49:
            out.append(("over", "eval", {"expr": OVER, "let": [f"unused{i}=1:1"]}))
        elif i % 20 == 10:
            out.append(("expensive", "eval", {"expr": EXPENSIVE, "let": [f"unused{i}=1:1"]}))
        elif i % 2:
            out.append(("cheap", "eval", {"expr": f"({4 + i % 7},{8 + i}):({8 + i},1)"}))
        else:
            out.append(("cheap", "prove", {"claim": "injective(L)", "let": [f"L=({4 + i % 5},{8 + i}):({8 + i},1)"]}))
    rng.shuffle(out)
    return out


async def drive(url: str, reqs, concurrency: int):
    sem = asyncio.Semaphore(concurrency)
    results = []
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:
        async def one(kind, endpoint, body):
            async with sem:
                t = time.perf_counter()
                try:
                    r = await client.post(f"/api/{endpoint}", json=body)
                    results.append((kind, time.perf_counter() - t, r.status_code, r.json()))
                except httpx.HTTPError as e:
                    results.append((kind, time.perf_counter() - t, None, {"error": repr(e)}))
        await asyncio.gather(*(one(*r) for r in reqs))
    return results


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--concurrency", type=int, default=200)
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    server = subprocess.Popen([sys.executable, "-m", "symcute", "serve", "--port", "0", "--workers", str(a.workers),
                               "--seconds", str(a.seconds)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        url = re.search(r"(http://\S+/)", server.stdout.readline()).group(1)
        httpx.post(url + "api/eval", json={"expr": "4:1"}, timeout=120)   # the workers are up
        load0 = os.getloadavg()[0]
        t0 = time.perf_counter()
        results = asyncio.run(drive(url, requests(a.requests), a.concurrency))
        wall = time.perf_counter() - t0
        load1 = os.getloadavg()[0]
    finally:
        server.terminate()
        server.wait(timeout=30)
    rows = []
    for kind in ("cheap", "expensive", "over"):
        rs = [r for r in results if r[0] == kind]
        lat = [r[1] * 1000 for r in rs]
        answered = [r for r in rs if r[2] is not None]
        ok = [r for r in answered if (r[2] == 400 and "LimitError" in r[3].get("error", "")) == (kind == "over")
              and (kind == "over" or r[2] == 200)]
        rows.append((kind, len(rs), len(answered), len(rs) - len(answered), len(ok), pct(lat, 50), pct(lat, 99)))
    head = f"{a.requests} requests, {a.concurrency} in flight at most, {a.workers} workers, limit {a.seconds:g} s, " \
           f"{wall:.1f} s wall, load {load0:.1f} -> {load1:.1f} on {os.cpu_count()} cores"
    if a.markdown:
        print(head + "\n")
        print("| class | requests | answered | lost | right answer | p50 ms | p99 ms |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for k, n, ans, lost, ok, p50, p99 in rows:
            print(f"| {k} | {n} | {ans} | {lost} | {ok} | {p50:.0f} | {p99:.0f} |")
    else:
        print(head)
        for k, n, ans, lost, ok, p50, p99 in rows:
            print(f"{k:10s} n={n:4d} answered={ans:4d} lost={lost} right={ok:4d} p50={p50:7.0f} ms p99={p99:7.0f} ms")
    bad = [r for r in results if r[2] is None]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
