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
import json
import multiprocessing
import os
import signal
import threading
import time

from ..errors import SymcuteError

MEMORY_BYTES = 2 << 30      # address space of one worker (a request past it gets a MemoryError line)
# what the fork server imports once, so that a new worker starts with it loaded (a fork, no import)
PRELOAD = ["symcute.web.compute", "symcute.expr", "symcute.symbolic", "symcute.memory", "symcute.report.pictures",
           "symcute.report.bank", "symcute.recipes.bank", "symcute.symbolic.claim", "symcute.web.warm"]
CACHE_ENTRIES = 512
WAITING_PER_SLOT = 8        # slow requests that may wait (stopped) per slow slot before one is refused
WALL_FACTOR = 20             # a slow request's wall-clock cap, in multiples of its CPU limit


def _serve(conn, memory_bytes: int) -> None:
    """A worker's loop: ``(function name, args)`` in, ``("ok", the answer as JSON bytes)`` or ``("error", line)`` out."""
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
            with budget.limited():   # encoded here: the server forwards the bytes, its event loop never encodes
                answer = ("ok", json.dumps(getattr(compute, name)(*args), separators=(",", ":")).encode())
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

    def send(self, name: str, args: tuple) -> None:
        self.cpu_at_send = self.cpu_seconds() or 0.0
        self.conn.send((name, args))

    def receive(self):
        """The answer waiting on the pipe (or the line for a worker that died instead of answering)."""
        try:
            return self.conn.recv()
        except (EOFError, OSError):   # the worker died (a signal, the memory cap hit outside Python)
            return ("error", "LimitError: the request's worker stopped (memory or a signal)")

    def cpu_seconds(self):
        """The worker's CPU time (Linux: /proc), or None where the platform does not say."""
        try:
            with open(f"/proc/{self.proc.pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None

    def lower_priority(self) -> None:
        """A slow request's worker runs at the lowest priority: the fast lane's workers get the CPU first."""
        self._priority(19)

    def normal_priority(self) -> bool:
        """Back to the fast lane's priority; False where the machine does not let a process raise it."""
        return self._priority(0)

    def _priority(self, nice: int) -> bool:
        try:
            os.setpriority(os.PRIO_PROCESS, self.proc.pid, nice)
            return True
        except (OSError, AttributeError):   # raising it back needs privileges some machines do not grant
            return False

    def pause(self) -> None:
        """Stop the worker (SIGSTOP): a slow request waiting for a slot uses no CPU; its CPU limit waits too."""
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        os.kill(self.proc.pid, signal.SIGCONT)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.join()
        self.conn.close()


class Pool:
    """``await pool.run("evaluate", args)`` -> ``("ok", JSON bytes)`` or ``("error", line)``.

    Two lanes, so that a cheap request never waits behind an expensive one: a request starts on one of
    ``workers`` fast workers; when it has used ``fast_seconds`` of CPU without answering it is slow: its worker
    leaves the fast lane (a fresh one takes its place), drops to the lowest CPU priority (the fast lane
    gets the CPU first) and finishes there, until it has used ``seconds`` of CPU.  At most ``slow`` slow
    requests compute at once; the next ones wait stopped (SIGSTOP: no CPU, their limit waits too), up to
    ``WAITING_PER_SLOT`` per slot, past which one is answered with a LimitError at once.  ``slow`` spare
    workers replace the fast lane's without a fork.

    @param workers       fast workers (requests served at once when every one is cheap)
    @param seconds       the per-request limit, in CPU seconds of its worker (waiting is not counted)
    @param slow          slow requests computed beside the fast lane at once
    @param fast_seconds  the CPU time a request may use and still count as cheap
    """

    def __init__(self, workers: int = 2, seconds: float = 10.0, slow: int = 4, fast_seconds: float = 0.03,
                 memory_bytes: int = MEMORY_BYTES):
        if workers < 1 or slow < 0 or seconds <= 0 or fast_seconds <= 0:
            raise SymcuteError(f"web pool: expected at least 1 worker and positive limits, got {workers} workers, "
                               f"{slow} slow, {seconds} s, {fast_seconds} s")
        self.workers, self.seconds, self.slow, self.memory_bytes = workers, seconds, slow, memory_bytes
        self.fast_seconds = min(fast_seconds, seconds)
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(PRELOAD)
        self._idle: asyncio.Queue | None = None
        self._live: set = set()
        self._waiting = 0
        self._cache: collections.OrderedDict = collections.OrderedDict()
        self._lock = threading.Lock()
        self.stats = {"requests": 0, "cached": 0, "slow": 0, "timeouts": 0, "busy": 0}

    async def start(self) -> None:
        self._idle, self._spare = asyncio.Queue(), asyncio.Queue()
        self._slots = asyncio.Semaphore(self.slow)
        for _ in range(self.workers):
            self._idle.put_nowait(await self._spawn())
        for _ in range(self.slow):   # a slow request's fast worker is replaced from here, without a fork
            self._spare.put_nowait(await self._spawn())

    async def close(self) -> None:
        for w in list(self._live):
            w.kill()
        self._live.clear()

    async def _spawn(self):
        w = await asyncio.get_running_loop().run_in_executor(None, _Worker, self._ctx, self.memory_bytes)
        self._live.add(w)
        return w

    def _retire(self, w) -> None:
        self._live.discard(w)
        w.kill()

    async def run(self, name: str, args: tuple):
        key = (name, args)
        self.stats["requests"] += 1
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                self.stats["cached"] += 1
                return self._cache[key]
        work = asyncio.ensure_future(self._compute(name, args))
        answer = await asyncio.shield(work)   # a client that leaves does not abandon a worker mid-request
        with self._lock:
            self._cache[key] = answer
            if len(self._cache) > CACHE_ENTRIES:
                self._cache.popitem(last=False)
        return answer

    async def _compute(self, name: str, args: tuple):
        w = await self._idle.get()
        w.send(name, args)
        answer = await self._answer(w, self.fast_seconds, self.seconds * WALL_FACTOR)
        if answer is not None:
            self._idle.put_nowait(w)
            return answer
        # slow: w leaves the fast lane (a spare takes its place) and yields the CPU to the fast lane
        self.stats["slow"] += 1
        if self._spare.empty():
            asyncio.ensure_future(self._refill(self._idle))
        else:
            self._idle.put_nowait(self._spare.get_nowait())
        w.lower_priority()
        if self._slots.locked():   # every slow slot taken: w waits stopped (no CPU), up to MAX_WAITING of them
            if self._waiting >= self.slow * WAITING_PER_SLOT:
                self._retire(w)
                self.stats["busy"] += 1
                return ("error", f"LimitError: the server has {self._waiting} slow requests waiting already "
                                 f"(symcute serve --slow); try again")
            w.pause()
        self._waiting += 1
        try:
            async with self._slots:
                self._waiting -= 1
                w.resume()
                answer = await self._answer(w, self.seconds, self.seconds * WALL_FACTOR)
        except BaseException:
            self._retire(w)
            raise
        if answer is None or not w.proc.is_alive():
            self._retire(w)
            asyncio.ensure_future(self._refill(self._spare))
        elif self._spare.qsize() < self.slow and w.normal_priority():
            self._spare.put_nowait(w)
        else:
            self._retire(w)
            if self._spare.qsize() < self.slow:
                asyncio.ensure_future(self._refill(self._spare))
        if answer is None:
            self.stats["timeouts"] += 1
            answer = ("error", f"LimitError: the request took more than {self.seconds:g} s of CPU "
                               f"(the server's per-request limit, symcute serve --seconds)")
        return answer

    async def _answer(self, w, cpu_seconds: float, wall_seconds: float):
        """The worker's answer, or None once it has used ``cpu_seconds`` of CPU since the request was sent
        (or ``wall_seconds`` passed).  Waits on the event loop (a reader on the pipe), holding no thread."""
        loop = asyncio.get_running_loop()
        start, fd = loop.time(), w.conn.fileno()
        while True:
            if w.conn.poll(0):
                return w.receive()
            ready = loop.create_future()
            loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
            try:
                await asyncio.wait_for(ready, 0.01 if cpu_seconds < 0.5 else 0.05)
            except asyncio.TimeoutError:
                pass
            finally:
                loop.remove_reader(fd)
            if w.conn.poll(0):
                return w.receive()
            cpu = w.cpu_seconds()
            if (cpu is not None and cpu - w.cpu_at_send > cpu_seconds) or loop.time() - start > wall_seconds:
                return None

    async def _refill(self, queue) -> None:
        queue.put_nowait(await self._spawn())


__all__ = ["Pool"]
