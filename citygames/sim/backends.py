"""Where simulated games run: worker processes on this machine (the default) or a Ray cluster.

Both backends run the same function, ``run_chunk(spec, indices)``, on chunks of game indices and
hand back each chunk's results as soon as it finishes (in any order). Game ``i`` depends only on
the run's seed and ``i`` (``runner.run_one``), so every backend, worker count and chunking gives
the same rows for the same seed.

Chunks are sized from the measured time per game so that a chunk is about ``chunk_seconds`` of
work (0.5 s locally, 2 s on Ray): process or task round trips then cost well under 5% of the run
(the first chunks are small, to measure). Near the end chunks shrink so that every worker stays
busy; ``2 x workers`` chunks are kept in flight.
"""

from __future__ import annotations

import bisect
import os
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Iterable, Iterator, Sequence

from citygames.bots import BOTS
from citygames.core.registry import game_class

from .runner import GameResult, _init_worker, _picklable, run_one


@dataclass(frozen=True)
class RunSpec:
    """What every game of a run shares.

    Attributes:
        game_id: a registered game id.
        options: resolved game options (``data_overrides`` included when set).
        bots: bot name per seat.
        seed: game ``i`` uses state seed ``seed + i``.
        save_records: folder for every game's record, or ``None``.
        details: keep score breakdowns and facts (``GameResult.breakdowns``/``facts``).
        table_meta: a results folder's meta (``results.open_results``): the worker then builds the
            chunk's Parquet tables itself (``Chunk.tables``) and drops the details from the results,
            so the parent only writes (its work would otherwise compete with the workers').
        seatings: a tournament's seatings instead of one lineup (``bots``/``seed`` unused), each
            ``(first index, games, bots per seat, deal seed, entrant index per seat)``, sorted by first
            index and covering consecutive indices: game ``i`` of the run is game ``k = i - first`` of
            the seating holding it (state seed ``deal seed + k``), its bots seeded by entrant
            (``runner.entrant_seeds``), its result's ``index`` is ``i``. ``None`` (simulate): one lineup,
            bots seeded by seat. Records cannot be saved with seatings.
    """

    game_id: str
    options: dict
    bots: tuple
    seed: int = 0
    save_records: str | None = None
    details: bool = False
    table_meta: dict | None = None
    seatings: tuple | None = None


class Chunk(list):
    """The ``GameResult`` of a chunk's games, in index order; ``tables`` holds their rows as
    ``{table name: pyarrow.Table}`` when the run asked for them (``RunSpec.table_meta``), else ``None``."""

    tables: dict | None = None


def _play(spec: RunSpec, index: int) -> GameResult:
    """Game ``index`` of ``spec`` (``RunSpec.seatings`` says which lineup plays it)."""
    if spec.seatings is None:
        return run_one(spec.game_id, spec.options, spec.bots, index, spec.seed, spec.save_records, spec.details)
    if spec.save_records is not None:
        raise ValueError("records cannot be saved for a run with seatings")
    at = bisect.bisect_right([s[0] for s in spec.seatings], index) - 1
    if at < 0 or index >= spec.seatings[at][0] + spec.seatings[at][1]:
        raise IndexError(f"game {index} is in no seating of the run")
    first, _, bots, seed, entrants = spec.seatings[at]
    return replace(run_one(spec.game_id, spec.options, bots, index - first, seed, None, spec.details,
                           entrants), index=index)


def run_chunk(spec: RunSpec, indices: Sequence[int]) -> tuple[Chunk, float]:
    """Play the games ``indices`` of ``spec``; return ``(results as a Chunk, seconds taken)``.

    Raises:
        RuntimeError: a game failed (``runner.run_one``).
    """
    t0 = time.perf_counter()
    out = Chunk(_play(spec, i) for i in indices)
    if spec.table_meta is not None:
        from .results import chunk_tables
        out.tables = chunk_tables(out, spec.table_meta)
        out[:] = [replace(r, breakdowns=(), facts=()) for r in out]
    return out, time.perf_counter() - t0


class RunInterrupted(RuntimeError):
    """The run stopped before every game was played (a lost worker); what finished was handed out."""


def ranges(indices: Iterable[int]) -> list[range]:
    """Sorted indices as the fewest ``range`` objects (``[0, 1, 2, 5]`` -> ``[range(0, 3), range(5, 6)]``)."""
    out: list[range] = []
    start = prev = None
    for i in sorted(indices):
        if prev is not None and i == prev + 1:
            prev = i
            continue
        if start is not None:
            out.append(range(start, prev + 1))
        start = prev = i
    if start is not None:
        out.append(range(start, prev + 1))
    return out


class _Chunker:
    """Cuts a list of index ranges into chunks of about ``target`` seconds of work."""

    def __init__(self, todo: Sequence[range], workers: int, target: float):
        self.todo = deque(r for r in todo if len(r))
        self.left = sum(len(r) for r in self.todo)
        self.workers = workers
        self.target = target
        self.per_game: float | None = None

    def measured(self, games: int, seconds: float) -> None:
        """Fold a finished chunk's time into the per-game estimate."""
        if games:
            t = seconds / games
            self.per_game = t if self.per_game is None else 0.7 * self.per_game + 0.3 * t

    def next(self) -> list[int] | range | None:
        """The next chunk (a range of indices), or ``None`` when every index was handed out."""
        if not self.todo:
            return None
        if self.per_game is None:
            size = 4
        else:
            size = max(1, int(self.target / max(self.per_game, 1e-6)))
        size = max(1, min(size, 5000, -(-self.left // (2 * self.workers))))
        r = self.todo[0]
        chunk = r[:size]
        rest = r[size:]
        if len(rest):
            self.todo[0] = rest
        else:
            self.todo.popleft()
        self.left -= len(chunk)
        return chunk


class LocalBackend:
    """Worker processes on this machine (``concurrent.futures.ProcessPoolExecutor``); one worker
    runs in this process.

    Args:
        workers: worker processes (default ``os.cpu_count()``), >= 1.
        chunk_seconds: target work per chunk, seconds.

    Raises:
        ValueError: ``workers < 1``.
    """

    name = "local"

    def __init__(self, workers: int | None = None, chunk_seconds: float = 0.5):
        workers = os.cpu_count() or 1 if workers is None else workers
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        self.workers = workers
        self.chunk_seconds = chunk_seconds
        #: seconds the workers spent playing (summed over chunks): busy_seconds / (wall x workers)
        #: is the share of the run spent on games rather than on scheduling and idling
        self.busy_seconds = 0.0

    def run(self, spec: RunSpec, todo: Sequence[range]) -> Iterator[list[GameResult]]:
        """Play every index of ``todo`` (a list of ranges); yield each chunk's results as it finishes.

        Raises:
            RuntimeError: a game failed. RunInterrupted: a worker process died (chunks that had
            finished were yielded).
        """
        chunker = _Chunker(todo, self.workers, self.chunk_seconds)
        if self.workers == 1:
            while (chunk := chunker.next()) is not None:
                results, seconds = run_chunk(spec, chunk)
                chunker.measured(len(chunk), seconds)
                self.busy_seconds += seconds
                yield results
            return
        factory = game_class(spec.game_id)
        extra_games = {spec.game_id: factory} if _picklable(factory) else {}
        extra_bots = {k: v for k, v in BOTS.items() if _picklable(v)}
        pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_init_worker,
                                   initargs=(extra_games, extra_bots))
        pending: dict = {}

        def submit():
            chunk = chunker.next()
            if chunk is not None:
                pending[pool.submit(run_chunk, spec, chunk)] = chunk
            return chunk is not None
        try:
            try:
                for _ in range(2 * self.workers):
                    if not submit():
                        break
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in done:
                        chunk = pending.pop(fut)
                        results, seconds = fut.result()
                        chunker.measured(len(chunk), seconds)
                        self.busy_seconds += seconds
                        yield results
                        submit()
            except BrokenProcessPool as exc:
                # hand out the chunks that did finish before the pool broke, then stop
                for fut, chunk in list(pending.items()):
                    if fut.done() and not fut.cancelled() and fut.exception() is None:
                        del pending[fut]
                        yield fut.result()[0]
                raise RunInterrupted(f"a worker process died ({exc}); the games that finished are kept") from None
        finally:
            for fut in pending:
                fut.cancel()
            pool.shutdown(wait=False, cancel_futures=True)


class RayBackend:
    """A Ray cluster: each chunk is a Ray task (retried by Ray when its worker is lost).

    Args:
        address: ``"auto"`` or a cluster address (``ray://host:10001``, ``host:6379``) to join a
            running cluster; ``None`` starts a local Ray instance.
        num_cpus: CPUs of the local instance (default: all); ignored with ``address``.
        chunk_seconds: target work per chunk, seconds.

    Every node needs citygames installed (the same version); the driver sends only the run's
    description and chunk indices, and receives results.

    Raises:
        ImportError: Ray is not installed (``pip install 'citygames[ray]'``).
    """

    name = "ray"

    def __init__(self, address: str | None = None, num_cpus: int | None = None, chunk_seconds: float = 2.0):
        try:
            import ray
        except ImportError:
            raise ImportError("the Ray backend needs Ray: pip install 'citygames[ray]'") from None
        self.ray = ray
        if not ray.is_initialized():
            kwargs = {"address": address} if address else {"num_cpus": num_cpus}
            ray.init(include_dashboard=False, log_to_driver=False, logging_level="ERROR", **kwargs)
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.chunk_seconds = chunk_seconds
        #: as ``LocalBackend.busy_seconds``
        self.busy_seconds = 0.0
        self._remote = ray.remote(max_retries=3)(run_chunk)

    def run(self, spec: RunSpec, todo: Sequence[range]) -> Iterator[list[GameResult]]:
        """As ``LocalBackend.run``, with Ray tasks.

        Raises:
            RuntimeError: a game failed (the task's error). RunInterrupted: a task was lost for good.
        """
        ray = self.ray
        chunker = _Chunker(todo, self.workers, self.chunk_seconds)
        spec_ref = ray.put(spec)
        pending: dict = {}

        def submit():
            chunk = chunker.next()
            if chunk is not None:
                pending[self._remote.remote(spec_ref, chunk)] = chunk
            return chunk is not None
        try:
            for _ in range(2 * self.workers):
                if not submit():
                    break
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    chunk = pending.pop(ref)
                    try:
                        results, seconds = ray.get(ref)
                    except ray.exceptions.RayTaskError as exc:
                        cause = exc.as_instanceof_cause()
                        raise RuntimeError(str(cause).splitlines()[-1] if str(cause) else repr(cause)) from None
                    except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError,
                            ray.exceptions.ObjectLostError) as exc:
                        raise RunInterrupted(f"a Ray task was lost ({type(exc).__name__}); "
                                             f"the games that finished are kept") from None
                    chunker.measured(len(chunk), seconds)
                    self.busy_seconds += seconds
                    yield results
                    submit()
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    def shutdown(self) -> None:
        """Stop the local Ray instance this backend started (no-op when joined to a cluster)."""
        self.ray.shutdown()


def make_backend(name: str, workers: int | None = None, address: str | None = None):
    """The backend called ``name`` (``"local"`` or ``"ray"``).

    Args:
        workers: local worker processes, or the CPUs of a local Ray instance.
        address: Ray cluster address (``"auto"`` to join the running one); Ray only.

    Raises:
        ValueError: unknown backend, or ``address`` without Ray.
    """
    if name == "local":
        if address:
            raise ValueError("--address needs --backend ray")
        return LocalBackend(workers)
    if name == "ray":
        return RayBackend(address=address, num_cpus=workers)
    raise ValueError(f"unknown backend {name!r}; choose local or ray")
