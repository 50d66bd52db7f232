"""A bounded pool of worker processes: every request runs in one, under a time limit, so a slow request
never blocks the others and never outlives its limit.

The server process only routes: it hands a request's inputs to an idle worker over a pipe and waits (off
the event loop) for the answer.  A worker that passes the per-request limit is killed and replaced; its
request is answered with a LimitError line.  Workers are started by a fork server (``forkserver``: a
clean single-threaded parent that has imported symcute once), so starting or replacing one is cheap and
never forks the server's own threads.  Each worker runs its request under symcute's work budget
(``core.budget``) and a memory cap (``RLIMIT_AS``).  Answers are cached by their inputs (results are
pure functions of them).
"""

from __future__ import annotations

import asyncio
import collections
import multiprocessing
import threading

from ..errors import SymcuteError

MEMORY_BYTES = 2 << 30      # address space of one worker (a request past it gets a MemoryError line)
CACHE_ENTRIES = 512


def _serve(conn, memory_bytes: int) -> None:
    """A worker's loop: ``(function name, args)`` in, ``("ok", dict)`` or ``("error", line)`` out."""
    import resource
    try:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    except (ValueError, OSError):   # a platform that refuses the cap still runs, under the time limit
        pass
    from ..core import budget
    from . import compute
    while True:
        try:
            name, args = conn.recv()
        except EOFError:
            return
        try:
            with budget.limited():
                answer = ("ok", getattr(compute, name)(*args))
        except SymcuteError as e:
            answer = ("error", _one_line(str(e)))   # the CLI's line, without its "symcute: error: "
        except RecursionError:
            answer = ("error", "input nested too deeply")
        except MemoryError:
            answer = ("error", f"LimitError: the request needs more than {memory_bytes >> 20} MiB")
        except Exception as e:   # a defect of symcute: said in one line, the worker stays up
            answer = ("error", _one_line(f"internal error ({type(e).__name__}); please report the input"))
        conn.send(answer)


def _one_line(msg: str, limit: int = 2000) -> str:
    text = " ".join(msg.split())
    return text if len(text) <= limit else text[:limit] + " ..."


class _Worker:
    def __init__(self, ctx, memory_bytes: int):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, memory_bytes), daemon=True)
        self.proc.start()
        child.close()

    def call(self, name: str, args: tuple, seconds: float):
        """The answer, or None when the worker passed ``seconds`` (it is then killed)."""
        self.conn.send((name, args))
        if self.conn.poll(seconds):
            try:
                return self.conn.recv()
            except EOFError:   # the worker died (a signal, the memory cap hit outside Python)
                return ("error", "LimitError: the request's worker stopped (memory or a signal)")
        self.kill()
        return None

    def kill(self) -> None:
        self.proc.kill()
        self.proc.join()
        self.conn.close()


class Pool:
    """``await pool.run("evaluate", args)`` -> ``("ok", dict)`` or ``("error", line)``.

    @param workers  processes (requests served at once; the others wait for an idle one)
    @param seconds  the per-request limit (CPU-bound work in a worker; waiting in line is not counted)
    """

    def __init__(self, workers: int = 2, seconds: float = 10.0, memory_bytes: int = MEMORY_BYTES):
        if workers < 1 or seconds <= 0:
            raise SymcuteError(f"web pool: expected at least 1 worker and a positive limit, got {workers}, {seconds}")
        self.workers, self.seconds, self.memory_bytes = workers, seconds, memory_bytes
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(["symcute.web.compute", "symcute.expr"])
        self._idle: asyncio.Queue | None = None
        self._all: list = []
        self._cache: collections.OrderedDict = collections.OrderedDict()
        self._lock = threading.Lock()
        self.stats = {"requests": 0, "cached": 0, "timeouts": 0}

    async def start(self) -> None:
        self._idle = asyncio.Queue()
        loop = asyncio.get_running_loop()
        for _ in range(self.workers):
            w = await loop.run_in_executor(None, _Worker, self._ctx, self.memory_bytes)
            self._all.append(w)
            self._idle.put_nowait(w)

    async def close(self) -> None:
        for w in self._all:
            w.kill()
        self._all.clear()

    async def run(self, name: str, args: tuple):
        key = (name, args)
        self.stats["requests"] += 1
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                self.stats["cached"] += 1
                return self._cache[key]
        loop = asyncio.get_running_loop()
        w = await self._idle.get()
        call = loop.run_in_executor(None, w.call, name, args, self.seconds)
        try:
            answer = await asyncio.shield(call)
        except asyncio.CancelledError:   # the client left: the worker finishes (or times out), then rejoins
            call.add_done_callback(lambda f: asyncio.ensure_future(self._rejoin(w, f.result())))
            raise
        answer = await self._rejoin(w, answer)
        with self._lock:
            self._cache[key] = answer
            if len(self._cache) > CACHE_ENTRIES:
                self._cache.popitem(last=False)
        return answer

    async def _rejoin(self, w, answer):
        """Put ``w`` (or its replacement, when it timed out) back in line; the request's answer."""
        if answer is None:
            self.stats["timeouts"] += 1
            loop = asyncio.get_running_loop()
            fresh = await loop.run_in_executor(None, _Worker, self._ctx, self.memory_bytes)
            self._all = [fresh if x is w else x for x in self._all]
            w = fresh
            answer = ("error", f"LimitError: the request took more than {self.seconds:g} s "
                               f"(the server's per-request limit, symcute serve --seconds)")
        self._idle.put_nowait(w)
        return answer


__all__ = ["Pool"]
