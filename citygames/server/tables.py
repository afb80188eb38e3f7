"""The in-memory tables of the server: one authoritative ``State`` per table, one asyncio lock per
table, the connections watching it, and its bots.

An action goes through one path whoever sends it (a seat's socket or a bot): under the table's
lock it is checked (seq, turn), applied to a clone of the state, appended to the database in a
worker thread (the commit happens before anything is sent), then the clone replaces the state
and every connection gets its own ``state`` message, built from its seat's observation only.
Messages go through a per-connection queue, so a slow client never holds up a table.

Bots run outside the event loop (a thread pool by default, or processes): after each change the
manager starts a task per bot seat to move; the task waits ``bot_delay`` seconds, asks the bot for
an action on a clone of the state, and submits it with the seq it planned on.

Simultaneous steps (DESIGN.md "Simultaneous steps"): every seat in ``players_to_move()`` may act;
its action is applied with ``player=seat`` and stored as a row like any other. A submission is
stale only when the step it was planned in is over, not when another seat chose or changed its
choice meanwhile (``step_seq``). A seat changes its choice with ``withdraw`` (the engine's
``withdraw(seat)`` and the deletion of that row). Each bot seat to move chooses in its own task on
a clone from which the other seats' pending choices are taken back, so it neither sees them nor
depends on their order. See PROTOCOL.md, "Simultaneous steps".
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import ctypes
import functools
import hashlib
import hmac
import json
import logging
import os
import secrets
import signal
import string
import sys
import threading
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Generator

from citygames.bots import BOTS, LevelBot, MCTSBot, make_bot, parse_bot_spec
from citygames.core import SIMULTANEOUS, Action, Game, IllegalActionError, State, load_game
from citygames.core.errors import CitygamesError
from citygames.core.events import named_seats

from . import lifecycle, social
from .db import Repository, StaleWrite, TableData, iso
from .health import STORAGE_REFUSAL, StorageUnavailable, retry_delay
from .security import JsonError, hash_token, parse_json
from .why import why_answer

log = logging.getLogger("citygames.server")

#: the largest WebSocket message a client may send (bytes)
MAX_MESSAGE = 4096
#: a connection whose outgoing queue grows beyond this is too slow and gets closed (1008)
MAX_QUEUE = 500
#: seconds the server waits for the transport to take the 1008 close frame of a connection that
#: fell behind; after that the connection is dropped from its table (issue 16, defect 9)
CLOSE_TIMEOUT = 10.0
#: default seconds an open table with no connection and no bot task stays in memory
IDLE_EVICT = 600.0
#: seconds of replay after which a table being loaded hands the event loop back
REBUILD_SLICE = 0.002
#: table ids: short random strings over this alphabet
ID_ALPHABET = string.ascii_lowercase + string.digits
ID_LENGTH = 10
#: seeds are drawn below 2**53 so records stay exact in JavaScript
SEED_LIMIT = 2 ** 53


def new_table_id() -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def result_of(state: State) -> dict:
    """``{scores, ranking, breakdown, returns}`` of a finished game."""
    n = state.game.num_players
    return {"scores": list(state.scores()), "ranking": list(state.ranking()),
            "breakdown": [dict(state.score_breakdown(s)) for s in range(n)], "returns": list(state.returns())}


def event_json(index: int, e) -> dict:
    d = {"index": index, "kind": e.kind, "player": e.player, "text": e.text, "data": e.data}
    if e.visible_to is not None:
        d["visible_to"] = e.visible_to
    return d


def is_search_bot(name: str) -> bool:
    """Whether the bot ``name`` searches (``mcts``, ``ismcts`` and the difficulty levels): its moves
    take long enough to run in a search process and to be announced as "thinking"."""
    cls = BOTS.get(parse_bot_spec(name)[0])
    return cls is not None and issubclass(cls, (MCTSBot, LevelBot))


def bot_move(name: str, seed: int, state: State, seat: int) -> int:
    """Run in a worker: the bot ``name`` (seeded with ``seed``) chooses an action for ``seat``."""
    return int(make_bot(name, seed).step(state, seat))


#: prctl(2) option: the signal a process gets when its parent dies (Linux)
PR_SET_PDEATHSIG = 1


def bot_worker_init(parent_pid: int, poll: float = 0.5) -> None:
    """Initializer of every bot worker process (``--bot-processes N``; issue 16, defect 7): the
    worker dies with the server, even when the server is killed with SIGKILL.

    On Linux the kernel sends the worker SIGKILL when its parent goes (``prctl(PR_SET_PDEATHSIG)``);
    everywhere, a daemon thread checks every ``poll`` seconds that ``os.getppid()`` is still
    ``parent_pid`` and exits the process otherwise (also covering a parent that died before
    ``prctl`` took effect). The spawn context's resource tracker needs nothing: it exits when the
    last process holding its pipe (the server and these workers) is gone.

    Args:
        parent_pid: the server's pid (``os.getpid()`` in the server when the pool is made).
        poll: seconds between two checks of the parent.
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no usable libc: the thread below still works
            pass
    if os.getppid() != parent_pid:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(poll)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="citygames-parent-watch", daemon=True).start()


def _bot_seed(table_seed: int, table_id: str, seat: int, seq: int) -> int:
    """Per-decision bot seed: bots play the same after a restart and reveal nothing of the seed."""
    digest = hashlib.sha256(f"{table_seed}:{table_id}:{seat}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def chosen_seats(state: State) -> list[int] | None:
    """The seats that have chosen in the pending simultaneous step, ascending; ``None`` when no
    simultaneous step is pending. (A game whose states do not tell pending choices apart,
    without ``pending_choice``, reports nobody.)"""
    if state.current_player() != SIMULTANEOUS:
        return None
    pending = getattr(state, "pending_choice", None)
    if pending is None:
        return []
    return [p for p in range(state.game.num_players) if pending(p) is not None]


def step_seq(state: State) -> int:
    """The seq at which the pending step opened: the number of actions applied minus the choices
    made so far in a pending simultaneous step (in a turn-based step: the number of actions)."""
    chosen = chosen_seats(state)
    return len(state.history) - (len(chosen) if chosen else 0)


def apply_for(state: State, seat: int, action: int) -> None:
    """Apply ``action`` of ``seat``: as that seat's choice in a simultaneous step, else as the
    turn's action (exactly as tables were always replayed)."""
    if state.current_player() == SIMULTANEOUS:
        state.apply_action(action, player=seat)
    else:
        state.apply_action(action)


def bot_view(state: State, seat: int) -> State:
    """A clone of ``state`` for the bot of ``seat`` to choose on: in a simultaneous step the other
    seats' pending choices are taken back, so the bot can neither read them nor depend on the order
    in which the seats chose."""
    view = state.clone()
    for p in chosen_seats(view) or ():
        if p != seat:
            view.withdraw(p)
    return view


def _dumps(msg: dict) -> str:
    return json.dumps(msg, separators=(",", ":"))


class Connection:
    """One WebSocket watching a table: its seat (``None``: a spectator) and an outgoing queue.

    Messages are sent by ``writer()`` (one task per socket), so a slow client never holds up a
    table. A client that falls ``MAX_QUEUE`` messages behind is closed with code 1008 (issue 16,
    defect 9): its queued messages are dropped, the writer is stopped (it may be blocked sending to
    a client that reads nothing) and the close frame is sent at once, waiting at most
    ``CLOSE_TIMEOUT`` seconds for the transport to take it; then ``on_gone`` (set by
    ``TableManager.attach``: detach from the table) runs either way.

    Args:
        send_text: coroutine function sending one text frame.
        close: coroutine function closing the socket with a code.
        seat: the seat this socket plays, or ``None``.
    """

    def __init__(self, send_text: Callable[[str], Awaitable[Any]], close: Callable[[int], Awaitable[Any]],
                 seat: int | None):
        self.send_text = send_text
        self.close = close
        self.seat = seat
        self.log_pos = 0          # events the client has received (index into state.log)
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.closed = False
        #: the task sending the 1008 close of a connection that fell behind (``None``: not closing)
        self.closing: asyncio.Task | None = None
        #: called once the 1008 close is sent or given up (``TableManager.attach`` sets it)
        self.on_gone: Callable[[], Any] | None = None
        self._writer_task: asyncio.Task | None = None

    def put(self, text: str) -> None:
        """Queue ``text`` for the client; past ``MAX_QUEUE`` queued messages, close it (1008)."""
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self._overflow()
            return
        self.queue.put_nowait(text)

    def error(self, message: str, seq: int | None = None) -> None:
        self.put(_dumps({"type": "error", "message": message, "seq": seq}))

    def _overflow(self) -> None:
        log.warning("closing a connection that does not keep up (%d queued messages): 1008", self.queue.qsize())
        self.closed = True
        while not self.queue.empty():   # nothing more goes to it: the close frame is next
            self.queue.get_nowait()
        if self._writer_task is not None and not self._writer_task.done():
            self._writer_task.cancel()  # it may wait on a full socket buffer
        self.closing = asyncio.get_running_loop().create_task(self._close_slow())

    async def _close_slow(self) -> None:
        try:
            await asyncio.wait_for(self.close(1008), CLOSE_TIMEOUT)
        except asyncio.TimeoutError:
            log.warning("a connection closed for not keeping up did not take its close frame within %.0f s; "
                        "dropped", CLOSE_TIMEOUT)
        except Exception:  # the socket went away meanwhile
            pass
        finally:
            if self.on_gone is not None:
                self.on_gone()

    async def writer(self) -> None:
        """Send queued messages until cancellation (or the socket fails: then ``closed`` is set)."""
        self._writer_task = asyncio.current_task()
        try:
            while True:
                await self.send_text(await self.queue.get())
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket went away: the reader notices and detaches
            self.closed = True


class GroupCommit:
    """Writes the actions of many tables with one transaction per trip to the database thread.

    ``await append(item)`` returns once the item is committed (or raises its ``StaleWrite`` or the
    database error). Items queued while a transaction runs go together into the next one, so a
    busy server commits in batches and a quiet one commits each action at once.
    """

    def __init__(self, manager: "TableManager"):
        self.manager = manager
        self.pending: list[tuple[tuple, asyncio.Future]] = []
        self.flushing = False
        self._task: asyncio.Task | None = None

    async def append(self, item: tuple) -> None:
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self.pending.append((item, fut))
        if not self.flushing:
            self.flushing = True
            self._task = loop.create_task(self._flush())  # keep a reference: tasks are weakly held
        await fut

    async def _flush(self) -> None:
        try:
            while self.pending:
                batch, self.pending = self.pending, []
                try:
                    outcomes = await self.manager.db(self.manager.repo.append_actions, [i for i, _ in batch])
                except BaseException as exc:  # the database failed: every waiting action hears it
                    for _, fut in batch:
                        if not fut.done():
                            fut.set_exception(exc if isinstance(exc, Exception) else RuntimeError(str(exc)))
                    if not isinstance(exc, Exception):
                        raise
                    continue
                for (_, fut), outcome in zip(batch, outcomes):
                    if fut.done():
                        continue
                    if outcome is None:
                        fut.set_result(None)
                    else:
                        fut.set_exception(outcome)
        finally:
            self.flushing = False


@dataclass
class Table:
    """One game table held in memory."""

    data: TableData
    game: Game
    state: State
    action_seats: list[int] = field(default_factory=list)   # seat of each applied action
    log_marks: list[int] = field(default_factory=list)      # len(state.log) before each action
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set = field(default_factory=set)
    bot_tasks: dict = field(default_factory=dict)
    #: the bot seats whose search is running now (the "thinking" state, issue 12)
    thinking: set = field(default_factory=set)
    #: resign, abandon, clocks, rematch (``lifecycle.Life``; issue 15)
    life: Any = None

    @property
    def id(self) -> str:
        return self.data.id

    @property
    def seq(self) -> int:
        return len(self.state.history)

    @property
    def finished(self) -> bool:
        """Whether the table is over: finished (or resigned), or abandoned (issue 15)."""
        return self.data.status != "open"

    def seat_info(self, seat: int) -> dict:
        return self.data.seats[seat]

    def connected_seats(self) -> set:
        return {c.seat for c in self.conns if c.seat is not None}

    def check_token(self, seat: int, token: str) -> bool:
        return token_ok(self.data, seat, token)

    def undo_refusal(self, seat: int | None) -> str | None:
        """Why ``seat`` may not undo now, or ``None`` if it may (see PROTOCOL.md, "Undo")."""
        st = self.state
        if seat is None:
            return "spectators cannot undo"
        if st.is_terminal() or self.finished:
            return "undo refused: the game is over"
        chosen = chosen_seats(st)
        if chosen is not None:  # in a simultaneous step an undo changes the seat's own choice
            return self.withdraw_refusal(seat, "undo")
        if seat not in st.players_to_move():
            return "undo refused: only the seat to move may undo, and it is not your turn"
        if not self.action_seats:
            return "undo refused: there is nothing to undo"
        if self.action_seats[-1] != seat:
            return "undo refused: the last action is not yours"
        if isinstance(st.history[-1], (list, tuple)):
            return "undo refused: the last action was a choice of a simultaneous step, revealed with the others"
        if self.game.reveals_hidden(st.log[self.log_marks[-1]:]):
            return "undo refused: the last action revealed hidden information or drew chance"
        return None

    def withdraw_refusal(self, seat: int | None, what: str = "change") -> str | None:
        """Why ``seat`` may not change (withdraw) its choice now, or ``None`` if it may: only a
        seat that has chosen in the pending simultaneous step may (see PROTOCOL.md). ``what``
        names the request in the message (``"change"``, or ``"undo"``, which is a change there)."""
        st = self.state
        if seat is None:
            return "spectators cannot act"
        if st.is_terminal() or self.finished:
            return f"{what} refused: the game is over"
        chosen = chosen_seats(st)
        if chosen is None:
            return f"{what} refused: no simultaneous step is pending (undo works within your own turn)"
        if seat not in chosen:
            return f"{what} refused: you have not chosen in this simultaneous step"
        if getattr(st, "withdraw", None) is None:   # pragma: no cover - every simultaneous engine has it
            return f"{what} refused: this game cannot take a choice back"
        return None

    def staleness(self, seq: int) -> str | None:
        """Why an action or change planned at ``seq`` is stale, or ``None``. In a turn-based step
        ``seq`` must be the table's; in a simultaneous step any seq of the same step is current
        (``step_seq <= seq < step_seq + its seats``): the other seats' choices and changes do not
        make a seat's submission stale, the end of the step does."""
        st = self.state
        chosen = chosen_seats(st)
        if chosen is None:
            ok = seq == self.seq
        else:
            start = self.seq - len(chosen)
            ok = start <= seq < start + len(chosen) + len(st.players_to_move())
        return None if ok else f"stale: the table has moved on to seq {self.seq}"


def token_ok(data: TableData, seat: int, token: str) -> bool:
    """Whether ``token`` is the secret of human seat ``seat`` (compared in constant time)."""
    if not isinstance(seat, int) or not 0 <= seat < len(data.seats) or not token:
        return False
    expected = data.seats[seat].get("token_hash")
    return bool(expected) and hmac.compare_digest(expected, hash_token(token))


def public_seat(index: int, seat: dict) -> dict:
    """What anyone may know of seat ``index`` (``seat``: ``{kind, name, bot?, ...}``):
    ``{seat, kind, name}`` and, for a bot, ``bot``; never its token or token hash."""
    d = {"seat": index, "kind": seat["kind"], "name": seat["name"]}
    if seat["kind"] == "bot":
        d["bot"] = seat["bot"]
    if seat.get("zombie"):   # a bot plays this human seat (lifecycle.py, issue 15)
        d["zombie"] = seat["zombie"]
    return d


def seats_public(data: TableData) -> list[dict]:
    """``public_seat`` of every seat of the table."""
    return [public_seat(s["seat"], s) for s in data.seats]


def summary(data: TableData) -> dict:
    """The public summary of a table (``GET /api/tables``): never the seed nor token hashes."""
    d = {"table_id": data.id, "game": data.game, "options": data.options, "seats": seats_public(data),
         "status": data.status, "seq": data.seq, "created_at": iso(data.created_at)}
    if data.status == "finished":
        d["finished_at"] = iso(data.finished_at)
        d["result"] = data.result
    return d


def replay_steps(data: TableData, actions: list[tuple[int, int, int]]) -> Generator[None, None, Table]:
    """``rebuild`` one action at a time: a generator that yields after each applied action and
    returns the ``Table`` (``StopIteration.value``), so a caller can pause between actions.

    Raises:
        CitygamesError: the record does not replay (unknown game, illegal action, wrong seat).
    """
    game = load_game(data.game, **data.options)
    state = game.new_initial_state(seed=data.seed)
    table = Table(data=data, game=game, state=state)
    for i, (seq, seat, action) in enumerate(actions):
        if seq != i:
            raise CitygamesError(f"table {data.id}: action {i} is missing (found seq {seq})")
        if seat not in state.players_to_move():
            raise CitygamesError(f"table {data.id}: action {i} was made by seat {seat}, who was not to move")
        table.log_marks.append(len(state.log))
        try:
            apply_for(state, seat, action)
        except CitygamesError as exc:
            raise CitygamesError(f"table {data.id}: action {i} ({action}) does not replay: {exc}") from None
        table.action_seats.append(seat)
        yield
    return table


def rebuild(data: TableData, actions: list[tuple[int, int, int]]) -> Table:
    """A ``Table`` from its stored row and actions (``(seq, seat, action)``), replaying the record.

    Raises:
        CitygamesError: the record does not replay (unknown game, illegal action, wrong seat).
    """
    steps = replay_steps(data, actions)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


async def rebuild_cooperatively(data: TableData, actions: list[tuple[int, int, int]],
                                slice_s: float = REBUILD_SLICE) -> Table:
    """``rebuild`` on the event loop, handing the loop back every ``slice_s`` seconds of replay, so
    requests wait at most about one slice (issue 16, defect 4: restoring without starving live
    requests; a worker thread would make every request wait for the interpreter lock instead).

    Raises:
        CitygamesError: the record does not replay.
    """
    steps = replay_steps(data, actions)
    deadline = time.perf_counter() + slice_s
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value
        if time.perf_counter() >= deadline:
            await asyncio.sleep(0)
            deadline = time.perf_counter() + slice_s


def record_actions(data: TableData, actions: list[tuple[int, int, int]]) -> list:
    """The record's ``actions`` of a table from its stored rows: the action ids, and the
    ``[seat, id]`` pairs of the choices made in simultaneous steps (found by replaying the rows;
    a game without simultaneous steps needs no replay).

    Raises:
        CitygamesError: the rows do not replay.
    """
    if not load_game(data.game, **data.options).info.simultaneous_moves:
        return [a for _, _, a in actions]
    return rebuild(data, actions).state.record()["actions"]


class TableManager:
    """Every table of the server, the repository behind them and the bots' workers.

    Tables live in memory only while they are used (issue 16, defect 4 and "idle open tables are
    evicted"): a table is loaded from its record on first use (``get``); after a start,
    ``start()`` restores in the background the open tables with a bot seat, so bot turns resume by
    themselves; an open table with no connection and no bot task for ``idle_evict`` seconds is
    dropped from memory (and loaded again on the next use). See PROTOCOL.md, "Restore and eviction".

    Args:
        repo: the ``Repository``.
        bot_delay: seconds a bot waits before moving (a visible pause; 0 in tests).
        bot_processes: run bots in this many worker processes (0: a thread pool); the workers die
            with the server (``bot_worker_init``).
        idle_evict: seconds after which an idle open table leaves memory; ``None`` or 0: never.
    """

    #: PostgreSQL (issue 16, part 5): this server process's ``cluster.Cluster``, set when it starts;
    #: ``None`` on SQLite (one process), where the hooks cost nothing
    cluster = None

    def __init__(self, repo: Repository, bot_delay: float = 0.6, bot_processes: int = 0,
                 idle_evict: float | None = IDLE_EVICT, search_processes: int | None = None):
        self.repo = repo
        self.bot_delay = bot_delay
        self.idle_evict = idle_evict or None
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}
        # SQLite has one writer at a time: one database thread avoids lock contention
        self.db_pool = concurrent.futures.ThreadPoolExecutor(max_workers=1 if repo.is_sqlite else 4,
                                                             thread_name_prefix="citygames-db")
        if bot_processes > 0:
            import multiprocessing
            self.bot_pool: concurrent.futures.Executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=bot_processes, mp_context=multiprocessing.get_context("spawn"),
                initializer=bot_worker_init, initargs=(os.getpid(),))
        else:
            self.bot_pool = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="citygames-bot")
        #: search bots (``is_search_bot``) without ``bot_processes``: this many processes, made on the
        #: first search (a search in a thread would hold the interpreter lock and slow every table)
        self.search_processes = max(1, search_processes or os.cpu_count() or 1)
        self._search_pool: concurrent.futures.Executor | None = None
        self._bot_processes = bot_processes
        self._closing = False
        self.commits = GroupCommit(self)
        self._records: dict[str, list] = {}   # finished tables' record actions (they never change)
        self._loading: dict[str, asyncio.Task] = {}     # table id -> the task loading it (one per table)
        # tables dropped from memory that something still holds (a socket between get and attach):
        # the same object comes back on the next get, never a second copy of a table
        self._evicted: weakref.WeakValueDictionary[str, Table] = weakref.WeakValueDictionary()
        self._idle_since: dict[str, float] = {}          # table id -> loop time it was last seen in use
        self._background: list[asyncio.Task] = []
        #: open tables with a bot seat still to be restored in the background after a start
        self.restore_pending = 0
        #: connections closed (1008) because they did not keep up with their messages
        self.slow_closed = 0

    # --- plumbing ----------------------------------------------------------------------------
    async def db(self, fn, *args, **kwargs):
        """Run a blocking repository call in the database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db_pool, functools.partial(fn, *args, **kwargs))

    def start(self, restore: bool = True) -> None:
        """Start the server's background work and return at once (the port opens without waiting;
        issue 16, defect 4): ``restore()`` (unless ``restore`` is false: with several workers the
        cluster claims the bot tables) and, with ``idle_evict``, the sweep of idle tables."""
        loop = asyncio.get_running_loop()
        if restore:
            self._background.append(loop.create_task(self.restore()))
        if self.idle_evict:
            self._background.append(loop.create_task(self._sweep()))

    async def close(self) -> None:
        """Stop bots, background work and the workers (called once, when the server stops)."""
        self._closing = True
        tasks = [t for table in self.tables.values() for t in table.bot_tasks.values()]
        tasks += self._background + list(self._loading.values())
        await cancel_and_wait(tasks)
        # the workers finish the move at hand and exit (a process pool torn down under them leaves
        # its semaphores to the resource tracker, which warns); a stuck one is not waited for long
        pools = [self.bot_pool] + ([self._search_pool] if self._search_pool is not None else [])

        def shutdown() -> None:
            for pool in pools:
                pool.shutdown(wait=True, cancel_futures=True)
        stop = asyncio.get_running_loop().run_in_executor(None, shutdown)
        try:
            await asyncio.wait_for(asyncio.shield(stop), 2.0)
        except (asyncio.TimeoutError, Exception):
            pass
        self.db_pool.shutdown(wait=True)

    def health(self) -> dict:
        """What ``GET /api/health`` answers: counts only, never an id, token or seed.

        ``{status, storage, tables_in_memory, connections, bot_tasks, restoring, broken_tables,
        slow_clients_closed, idle_evict_s}``: ``status`` is ``"ok"``, or ``"degraded"`` while the
        last write failed (``storage``: ``"ok"`` or ``"unavailable"``, from the repository's
        ``StorageHealth``; the reason stays in the log); ``restoring`` counts the open tables with
        a bot seat not yet restored since the start; ``idle_evict_s`` is ``None`` when tables are
        never evicted.
        """
        storage = getattr(self.repo, "health", None)
        storage_ok = storage is None or bool(storage.ok)
        return {
            "status": "ok" if storage_ok else "degraded",
            "storage": "ok" if storage_ok else "unavailable",
            "tables_in_memory": len(self.tables),
            "connections": sum(len(t.conns) for t in self.tables.values()),
            "bot_tasks": sum(len(t.bot_tasks) for t in self.tables.values()),
            "restoring": self.restore_pending,
            "broken_tables": len(self.broken),
            "slow_clients_closed": self.slow_closed,
            "idle_evict_s": self.idle_evict,
        }

    # --- loading -------------------------------------------------------------------------------
    async def restore(self) -> int:
        """Restore, one table at a time, every open table with a bot seat (newest first) and resume
        its bots; returns how many were restored. Runs in the background after a start
        (``start``): it yields to the event loop between tables and each rebuild hands the loop back
        every few milliseconds (``rebuild_cooperatively``), so requests are served meanwhile; a table somebody asks for is loaded at once by
        ``get`` whatever its place here. Tables with human seats only wait for their first use.
        """
        while True:
            try:
                rows = await self.db(self.repo.list_tables, "open", None)
                break
            except Exception:
                log.exception("cannot list the open tables to restore; trying again in 5 s")
                await asyncio.sleep(5)
        try:   # tables with a clock restore too, so their timers run (lifecycle.py)
            clocked = await self.db(lifecycle.clocked_ids, self.repo)
        except Exception:
            log.exception("cannot list the tables with a clock")
            clocked = set()
        todo = [d for d in rows if any(lifecycle.plays_bot(s) for s in d.seats) or d.id in clocked]
        self.restore_pending = len(todo)
        n = 0
        try:
            for data in todo:
                if self._closing:
                    break
                try:
                    if data.id in self.tables or await self._load(data.id, data) is not None:
                        n += 1
                except Exception:
                    log.exception("cannot restore table %s", data.id)
                self.restore_pending -= 1
                await asyncio.sleep(0)
        finally:
            self.restore_pending = 0
        if n:
            log.info("restored %d open table(s) with bots", n)
        return n

    async def get(self, table_id: str) -> Table | None:
        """The table in memory, loaded from the database if needed (on first use after a start or
        after an eviction); ``None`` if unknown or broken (its record does not replay).

        Raises:
            Exception: the database failed (nothing is cached: the next call tries again).
        """
        table = self.tables.get(table_id)
        if table is None:
            if table_id in self.broken:
                return None
            table = self._evicted.pop(table_id, None)
            if table is None:
                return await self._load(table_id)
            self.tables[table_id] = table   # evicted but still held somewhere: the same object back
            self.schedule_bots(table)
        self._touch(table_id)
        return table

    async def _load(self, table_id: str, data: TableData | None = None) -> Table | None:
        """Load a table not in memory; concurrent calls for one table share one load."""
        task = self._loading.get(table_id)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._rebuild(table_id, data))
            self._loading[table_id] = task
            task.add_done_callback(lambda _t: self._loading.pop(table_id, None))
        return await asyncio.shield(task)

    async def _rebuild(self, table_id: str, data: TableData | None) -> Table | None:
        if data is None:
            data = await self.db(self.repo.get_table, table_id)
            if data is None:
                return None
        life = await lifecycle.read(self, table_id)   # read before the actions (issue 15)
        actions = await self.db(self.repo.actions, table_id)
        try:
            table = await rebuild_cooperatively(data, actions)
        except CitygamesError as exc:
            log.error("cannot restore table %s: %s", table_id, exc)
            self.broken[table_id] = str(exc)
            return None
        if table.state.is_terminal() and not table.finished:  # a complete record left open: close it
            await self._finish(table)
        current = self.tables.get(table_id)
        if current is not None:  # pragma: no cover - nothing else puts a table not in memory back
            return current
        self.tables[table_id] = table
        self._touch(table_id)
        table.life = life
        lifecycle.sync(self, table)   # its clocks run again
        self.schedule_bots(table)
        return table

    def _touch(self, table_id: str) -> None:
        self._idle_since[table_id] = asyncio.get_running_loop().time()

    def _evict(self, table: Table) -> None:
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        self._idle_since.pop(table.id, None)
        self._evicted[table.id] = table

    def _maybe_evict(self, table: Table) -> None:
        """Drop a finished table nobody watches from memory at once (it is loaded back to be watched)."""
        if table.finished and not table.conns and not table.bot_tasks:
            self._evict(table)

    def evict_idle(self) -> int:
        """Drop from memory every open table idle (no connection, no bot task, nothing running on
        it) for ``idle_evict`` seconds; returns how many were dropped. The first time a table is
        seen idle starts its clock (as does every ``get``)."""
        if not self.idle_evict:
            return 0
        now = asyncio.get_running_loop().time()
        n = 0
        for tid, table in list(self.tables.items()):
            if table.conns or table.bot_tasks or table.lock.locked() or tid in self._loading:
                self._idle_since.pop(tid, None)
                continue
            if now - self._idle_since.setdefault(tid, now) >= self.idle_evict:
                self._evict(table)
                n += 1
        if n:
            log.debug("evicted %d idle table(s) from memory", n)
        return n

    async def _sweep(self) -> None:
        interval = min(30.0, max(0.05, self.idle_evict / 4))
        while not self._closing:
            await asyncio.sleep(interval)
            try:
                self.evict_idle()
            except Exception:  # pragma: no cover - a bug here must not stop the sweeps
                log.exception("evicting idle tables failed")

    async def finished_actions(self, data: TableData) -> list:
        """The record's ``actions`` of the finished table ``data`` (see ``record_actions``), kept
        for the next request (a replay viewer asks once per step)."""
        cached = self._records.get(data.id)
        if cached is None:
            rows = await self.db(self.repo.actions, data.id)
            cached = await asyncio.get_running_loop().run_in_executor(None, record_actions, data, rows)
            if len(self._records) >= 64:
                self._records.pop(next(iter(self._records)))
            self._records[data.id] = cached
        return cached

    # --- creating ------------------------------------------------------------------------------
    async def create(self, game: Game, seats: list[dict], seed: int | None) -> tuple[Table, dict[int, str]]:
        """A new table for ``game`` with ``seats`` (``{kind, name, bot?}``); returns it and the
        secret token of each human seat."""
        if seed is None:
            seed = secrets.randbelow(SEED_LIMIT)
        tokens: dict[int, str] = {}
        stored = []
        for i, s in enumerate(seats):
            d = public_seat(i, s)
            if s["kind"] != "bot":
                tokens[i] = secrets.token_urlsafe(24)
                d["token_hash"] = hash_token(tokens[i])
            stored.append(d)
        state = game.new_initial_state(seed=seed)
        for _ in range(10):
            data = TableData(id=new_table_id(), game=game.info.id, options=dict(game.options), seed=seed,
                             seats=stored)
            if await self.db(self.repo.insert_table, data):
                break
        else:  # pragma: no cover - 36**10 ids
            raise RuntimeError("could not find a free table id")
        table = Table(data=data, game=game, state=state)
        self.tables[data.id] = table
        self.schedule_bots(table)
        return table, tokens

    # --- messages ------------------------------------------------------------------------------
    def state_message(self, table: Table, seat: int | None, log_from: int) -> str:
        """The ``state`` message for ``seat`` (``None``: a spectator) with the log from ``log_from``, as
        JSON text. Its sentences (log, legal actions, turn descriptions) name the players, not the
        seats (issue 15, defect 4: ``named_seats``)."""
        with named_seats(social.seat_names(table)):
            return self._state_message(table, seat, log_from)

    def _state_message(self, table: Table, seat: int | None, log_from: int) -> str:
        st = table.state
        to_move = list(st.players_to_move())
        connected = table.connected_seats()
        seats = []
        for s in seats_public(table.data):
            if s["kind"] == "human":
                s["connected"] = s["seat"] in connected
                s["named"] = social.has_chosen_name(table, s["seat"])
            seats.append(s)
        if seat is not None and seat in to_move:
            legal = [table.game.action_json(st, a) for a in st.legal_actions(seat)]
        else:
            legal = []
        events = st.log
        log_items = [event_json(i, events[i]) for i in range(log_from, len(events)) if events[i].visible(seat)]
        terminal = st.is_terminal()
        chosen = chosen_seats(st)
        my_choice = None
        if chosen is not None and seat in chosen:   # the seat's own pending choice, for it alone
            a = st.pending_choice(seat)
            my_choice = table.game.action_json(st, a) if a is not None else None
        msg = {
            "type": "state", "table_id": table.id, "game": table.data.game, "seq": table.seq,
            "step_seq": table.seq - len(chosen) if chosen else table.seq,
            "your_seat": seat, "seats": seats, "to_move": to_move, "chosen": chosen, "my_choice": my_choice,
            "observation": st.observation(seat), "legal": legal,
            "log": log_items, "log_from": log_from,
            "can_undo": seat is not None and table.undo_refusal(seat) is None,
            "terminal": terminal, "result": table.data.result if terminal else None,
            "thinking": sorted(table.thinking),
        }
        if not terminal and table.finished:   # resigned or abandoned (lifecycle.py)
            msg.update(terminal=True, result=table.data.result, legal=[], can_undo=False, to_move=[])
        msg.update(lifecycle.state_extra(table, seat, self, seats))
        return _dumps(msg)

    def broadcast(self, table: Table, conns: list | None = None) -> None:
        """Queue a ``state`` message for every connection in ``conns`` (default: all of the table's),
        built once per seat and log position."""
        lifecycle.sync(self, table)   # clocks follow the state first (issue 15)
        cache: dict[tuple, str] = {}
        n_log = len(table.state.log)
        for conn in list(table.conns) if conns is None else conns:
            log_from = min(conn.log_pos, n_log)
            key = (conn.seat, log_from)
            text = cache.get(key)
            if text is None:
                text = cache[key] = self.state_message(table, conn.seat, log_from)
            conn.log_pos = n_log
            conn.put(text)

    # --- connections ---------------------------------------------------------------------------
    async def attach(self, table: Table, conn: Connection) -> None:
        conn.on_gone = functools.partial(self._slow_gone, table, conn)
        async with table.lock:
            if table.id not in self.tables:   # evicted between get() and now: it is the table still
                self.tables[table.id] = table
                self._evicted.pop(table.id, None)
            was = table.connected_seats()
            table.conns.add(conn)
            lifecycle.sync(self, table)   # a clock starts once every human seat has come
            conn.log_pos = len(table.state.log)
            conn.put(self.state_message(table, conn.seat, 0))
            if conn.seat is not None and conn.seat not in was:
                others = [c for c in table.conns if c is not conn]
                self.broadcast(table, others)  # a seat came: the others see it connected

    async def detach(self, table: Table, conn: Connection) -> None:
        conn.closed = True
        closing = conn.closing
        if closing is not None and closing is not asyncio.current_task():
            await asyncio.wait([closing])   # the 1008 close goes out before the socket is let go
        async with table.lock:
            if conn not in table.conns:
                return
            table.conns.discard(conn)
            if conn.seat is not None and conn.seat not in table.connected_seats():
                self.broadcast(table)  # the seat's last socket went: the others see it gone
        self._maybe_evict(table)

    def _slow_gone(self, table: Table, conn: Connection) -> None:
        """A connection closed for not keeping up (``Connection.on_gone``): count it and detach it
        from its table now, even if its socket lingers."""
        async def drop() -> None:
            await self.detach(table, conn)
            self.slow_closed += 1

        self._background = [t for t in self._background if not t.done()]
        self._background.append(asyncio.get_running_loop().create_task(drop()))

    async def handle_message(self, table: Table, conn: Connection, raw: str | bytes) -> None:
        """One message from a client; every problem becomes an ``error`` to that client only."""
        size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
        if size > MAX_MESSAGE:
            conn.error(f"message too large: {size} bytes (the limit is {MAX_MESSAGE})", table.seq)
            return
        try:  # size and nesting depth are checked before parsing (issue 16, defect 2)
            msg = parse_json(raw, max_bytes=MAX_MESSAGE)
        except JsonError as exc:
            conn.error(f"malformed message: {exc}", table.seq)
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            conn.error('malformed message: expected a JSON object with a "type"', table.seq)
            return
        kind = msg["type"]
        if kind == "ping":
            conn.put(_dumps({"type": "pong", "seq": table.seq}))
            return
        if kind in ("name", "chat"):   # names and chat (issue 15): social.py
            await (social.handle_name if kind == "name" else social.handle_chat)(self, table, conn, msg)
            return
        if kind == "why":   # "why can't I do this?" on a clone, to the sender only (why.py)
            with named_seats(social.seat_names(table)):   # the engine's reason names the players
                refused = social.socket_limited(self, "why", conn) if conn.seat is not None else None
                conn.put(_dumps(why_answer(table, conn.seat, msg, refused)))
            return
        if kind in lifecycle.MESSAGES:   # resign, take_back, hand_to_bot (issue 15)
            err = await lifecycle.handle(self, table, conn, msg)
            if err is not None:
                conn.error(err, table.seq)
            return
        if kind not in ("action", "undo", "withdraw"):
            conn.error(f"unknown message type {kind[:40]!r} (expected action, undo, withdraw, resign, take_back, "
                       f"hand_to_bot, name, chat, why or ping)", table.seq)
            return
        if conn.seat is None:
            conn.error("spectators cannot act", table.seq)
            return
        seq = msg.get("seq")
        if not _is_int(seq):
            conn.error(f'malformed {kind}: "seq" must be an integer', table.seq)
            return
        if kind == "undo":
            err = await self.undo(table, conn.seat, seq)
        elif kind == "withdraw":
            err = await self.withdraw(table, conn.seat, seq)
        else:
            action = msg.get("action")
            if not _is_int(action):
                conn.error('malformed action: "action" must be an integer action id', table.seq)
                return
            err = await self.submit(table, conn.seat, seq, action)
        if err is not None:
            conn.error(err, table.seq)

    # --- the action path -----------------------------------------------------------------------
    def _turn_refusal(self, table: Table, seat: int, seq: int) -> str | None:
        if table.finished or table.state.is_terminal():
            return "the game is over"
        stale = table.staleness(seq)
        if stale:
            return stale
        to_move = table.state.players_to_move()
        if seat not in to_move:
            if seat in (chosen_seats(table.state) or ()):
                return "you have chosen already in this step: withdraw your choice to change it"
            who = ", ".join(str(s) for s in to_move)
            return f"not your turn: seat {who} is to move"
        return None

    async def submit(self, table: Table, seat: int, seq: int, action: int) -> str | None:
        """Apply ``action`` for ``seat`` if ``seq`` is current (in a simultaneous step: of the same
        step); persist, then broadcast. Returns ``None``, or the message explaining the refusal.

        The work runs in its own task (shielded): a cancelled caller cannot leave an action stored
        in the database but missing from the table in memory."""
        return await asyncio.shield(self._submit(table, seat, seq, action))

    async def _submit(self, table: Table, seat: int, seq: int, action: int) -> str | None:
        async with table.lock:
            err = self._turn_refusal(table, seat, seq)
            if err:
                return err
            new = table.state.clone()
            mark = len(new.log)
            at = table.seq
            try:
                with named_seats(social.seat_names(table)):   # a refusal names the players (issue 15)
                    apply_for(new, seat, action)
            except IllegalActionError as exc:
                a = exc.action
                if isinstance(a, Action):
                    return f"illegal action {a.id} ({a.text}): {exc.rule}" + (f" ({exc.detail})" if exc.detail else "")
                return str(exc)
            result = result_of(new) if new.is_terminal() else None
            try:
                await self.commits.append((table.id, at, seat, int(action), result))
            except StaleWrite as exc:
                if self.cluster is not None:   # another worker's action came first: catch up
                    await self.reload_table(table)
                    return f"stale: the table has moved on to seq {table.seq}"
                log.error("table %s: %s", table.id, exc)
                return f"stale: the action could not be stored ({exc})"
            except StorageUnavailable as exc:  # logged once by the repository's health (defect 10)
                return f"{STORAGE_REFUSAL}: the action could not be stored ({exc.reason}); try again later"
            except Exception:
                log.exception("table %s: storing action %d failed", table.id, at)
                return "server error: the action could not be stored; try again"
            table.state = new
            table.action_seats.append(seat)
            table.log_marks.append(mark)
            table.data.seq = table.seq
            if result is not None:
                self._mark_finished(table, result)
            self.broadcast(table)
        self.schedule_bots(table)
        self._maybe_evict(table)
        return None

    async def undo(self, table: Table, seat: int, seq: int) -> str | None:
        """Take back ``seat``'s last action (see PROTOCOL.md, "Undo"); ``None`` or the refusal."""
        return await asyncio.shield(self._undo(table, seat, seq))

    async def _undo(self, table: Table, seat: int, seq: int) -> str | None:
        async with table.lock:
            if chosen_seats(table.state) is not None:   # in a simultaneous step, undo = change
                return await self._withdraw_locked(table, seat, seq, "undo")
            err = table.undo_refusal(seat)
            if seq != table.seq and not table.state.is_terminal():
                err = f"stale: the table has moved on to seq {table.seq}"
            if err:
                return err
            last = table.seq - 1
            record = table.state.record()
            loop = asyncio.get_running_loop()
            rebuilt = await loop.run_in_executor(
                None, rebuild, table.data, [(i, s, a) for i, (s, a) in
                                            enumerate(zip(table.action_seats[:last], record["actions"][:last]))])
            try:
                await self.db(self.repo.delete_last_action, table.id, last)
            except Exception as exc:
                return await self._deletion_refused(table, exc, "undo", last)
            table.state = rebuilt.state
            table.action_seats = rebuilt.action_seats
            table.log_marks = rebuilt.log_marks
            table.data.seq = table.seq
            self.broadcast(table)
        self.schedule_bots(table)
        return None

    async def withdraw(self, table: Table, seat: int, seq: int) -> str | None:
        """Take back ``seat``'s choice in the pending simultaneous step ("change my choice"; see
        PROTOCOL.md, "Simultaneous steps"); ``None`` or the refusal."""
        return await asyncio.shield(self._withdraw(table, seat, seq))

    async def _withdraw(self, table: Table, seat: int, seq: int) -> str | None:
        async with table.lock:
            return await self._withdraw_locked(table, seat, seq, "change")

    async def _withdraw_locked(self, table: Table, seat: int, seq: int, what: str) -> str | None:
        # stale first, as for an action: a change meant for a step that has resolved meanwhile (the
        # last seat chose while it was on its way) is late, not a request outside any step
        err = table.staleness(seq) or table.withdraw_refusal(seat, what)
        if err:
            return err
        st = table.state
        entry = [seat, st.pending_choice(seat).id]
        index = max(i for i, e in enumerate(st.history) if isinstance(e, (list, tuple)) and list(e) == entry)
        new = st.clone()
        new.withdraw(seat)
        try:
            await self.db(self.repo.delete_action, table.id, index, table.seq)
        except Exception as exc:
            return await self._deletion_refused(table, exc, what, index)
        table.state = new
        del table.action_seats[index]
        del table.log_marks[index]
        table.data.seq = table.seq
        self.broadcast(table)
        return None

    async def _deletion_refused(self, table: Table, exc: Exception, what: str, index: int) -> str:
        """The refusal of an undo or a change of choice (``what``) whose deletion of the
        ``index``-th stored action failed with ``exc``: "stale" after catching up when another
        server process came first (PostgreSQL), "storage unavailable" on a storage fault (logged
        once by the repository's health, issue 16 defect 10), else a server error (logged)."""
        if self.cluster is not None and isinstance(exc, StaleWrite):
            await self.reload_table(table)
            return f"stale: the table has moved on to seq {table.seq}"
        if isinstance(exc, StorageUnavailable):
            return f"{STORAGE_REFUSAL}: the {what} could not be stored ({exc.reason}); try again later"
        log.error("table %s: the %s of action %d failed", table.id, what, index, exc_info=exc)
        return f"server error: the {what} could not be stored; try again"

    # --- changes made by another worker (several workers: see cluster.py) ---------------------
    def apply_remote(self, table: Table, seat: int, action: int) -> bool:
        """Apply to ``table`` (its lock held by the caller) the next action, stored by another
        worker: ``action`` of ``seat`` at seq ``table.seq``. Nothing is written; the caller
        broadcasts. Returns ``False`` when it does not apply (``seat`` not to move, illegal), and
        the caller reloads the table from the database. (Issue 16, part 5.)"""
        st = table.state
        if seat not in st.players_to_move():
            return False
        new = st.clone()
        mark = len(new.log)
        try:
            apply_for(new, seat, action)
        except CitygamesError:
            return False
        table.state = new
        table.action_seats.append(seat)
        table.log_marks.append(mark)
        table.data.seq = table.seq
        if new.is_terminal() and not table.finished:
            self._mark_finished(table, result_of(new))
        return True

    async def reload_table(self, table: Table) -> None:
        """Replace ``table``'s state (its lock held by the caller) by a replay of its stored rows
        and broadcast it: the catch-up of a worker whose copy fell behind another's changes (a
        refused write, an undo elsewhere, a gap). When the stored rows only extend this copy, the
        new ones are applied in order with a broadcast after each, so every socket still sees every
        seq; otherwise the rows are replayed and each connection's log restarts where the old and
        new histories part. On a database or replay error the copy is kept (logged). (Issue 16,
        part 5.)"""
        try:
            data = await self.db(self.repo.get_table, table.id)
            rows = await self.db(self.repo.actions, table.id)
            if data is None:
                return
            if self._catch_up(table, data, rows):
                return
            fresh = await asyncio.get_running_loop().run_in_executor(None, rebuild, data, rows)
        except Exception:
            log.exception("table %s: reloading from the database failed", table.id)
            return
        old_seats, old_hist = table.action_seats, table.state.history
        new_hist = fresh.state.history
        same = 0
        while (same < len(old_seats) and same < len(fresh.action_seats) and old_seats[same] == fresh.action_seats[same]
               and old_hist[same] == new_hist[same]):
            same += 1
        keep = fresh.log_marks[same] if same < len(fresh.log_marks) else len(fresh.state.log)
        if same < len(table.log_marks):
            keep = min(keep, table.log_marks[same])
        table.state, table.action_seats, table.log_marks = fresh.state, fresh.action_seats, fresh.log_marks
        table.data = data
        table.data.seq = table.seq
        if table.state.is_terminal() and not table.finished:
            self._mark_finished(table, result_of(table.state))
        for conn in table.conns:
            conn.log_pos = min(conn.log_pos, keep)
        self.broadcast(table)

    def _catch_up(self, table: Table, data: TableData, rows: list[tuple[int, int, int]]) -> bool:
        """Apply to ``table`` (its lock held) the stored ``rows`` past its seq, broadcasting after
        each, when the rows before them are this copy's history, taking ``data`` (the stored table
        row: status, seats) with the last. Returns ``False`` when the histories part, when there is
        nothing to add, or when a row does not apply (the caller then replays every row)."""
        hist, seats, n = table.state.history, table.action_seats, table.seq
        if len(rows) <= n:
            return False
        for (_, seat, action), mine, mine_seat in zip(rows, hist, seats):
            if seat != mine_seat or (mine != action and not (isinstance(mine, (list, tuple))
                                                             and list(mine) == [seat, action])):
                return False
        for i, (_, seat, action) in enumerate(rows[n:], start=n):
            if i == len(rows) - 1:   # the stored row's status and seats come with the last state
                table.data = data
            if not self.apply_remote(table, seat, action):
                return False   # a row that does not apply: the caller's replay says why
            self.broadcast(table)
        return True

    def _mark_finished(self, table: Table, result: dict) -> None:
        from .db import now
        table.data.status = "finished"
        table.data.result = result
        table.data.finished_at = now()

    async def _finish(self, table: Table) -> None:
        result = result_of(table.state)
        await self.db(self.repo.finish, table.id, result)
        self._mark_finished(table, result)

    # --- bots ----------------------------------------------------------------------------------
    def pool_for(self, name: str) -> concurrent.futures.Executor:
        """Where the bot ``name`` runs: the bot processes when the server has them; otherwise a
        search bot in the search processes (made now if needed), any other bot in the bot threads."""
        if self._bot_processes > 0 or not is_search_bot(name):
            return self.bot_pool
        if self._search_pool is None:
            import multiprocessing
            self._search_pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.search_processes, mp_context=multiprocessing.get_context("spawn"),
                initializer=bot_worker_init, initargs=(os.getpid(),))
        return self._search_pool

    def announce_thinking(self, table: Table) -> None:
        """Tell every connection of ``table`` which bot seats are searching now:
        ``{"type": "thinking", "seq", "seats"}`` (PROTOCOL.md)."""
        text = _dumps({"type": "thinking", "seq": table.seq, "seats": sorted(table.thinking)})
        for conn in list(table.conns):
            conn.put(text)

    def schedule_bots(self, table: Table) -> None:
        """Start a task for every bot seat that must move and has none running."""
        if self._closing or table.finished:
            return
        if self.cluster is not None and not self.cluster.drives(table):   # another worker drives them
            return
        for seat in table.state.players_to_move():
            info = table.data.seats[seat]
            if lifecycle.plays_bot(info) and seat not in table.bot_tasks:
                table.bot_tasks[seat] = asyncio.get_running_loop().create_task(self._bot_turns(table, seat))

    async def _bot_turns(self, table: Table, seat: int) -> None:
        """Move the bot of ``seat`` while it is to move. A move refused because the storage failed
        (full disk, read-only database) is retried after ``retry_delay`` (0.5 s doubling to 30 s),
        so the table resumes by itself once the fault clears (issue 16, defect 6)."""
        loop = asyncio.get_running_loop()
        name = lifecycle.bot_name(table.data.seats[seat])
        refused = 0   # storage refusals in a row
        try:
            while not self._closing:
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                else:
                    await asyncio.sleep(0)
                st = table.state
                if table.finished or seat not in st.players_to_move() or not lifecycle.plays_bot(table.data.seats[seat]):
                    return
                seq = table.seq
                # seeded from the seq the step opened at: in a simultaneous step the same whatever
                # the order of the other seats' choices (and after a restart)
                seed = _bot_seed(table.data.seed, table.id, seat, step_seq(st))
                view = bot_view(st, seat)
                thinks = is_search_bot(name)
                if thinks:
                    table.thinking.add(seat)
                    self.announce_thinking(table)
                try:
                    action = await loop.run_in_executor(self.pool_for(name), bot_move, name, seed, view, seat)
                except Exception:
                    log.exception("table %s: bot %s (seat %d) failed; playing a random legal action", table.id,
                                  name, seat)
                    action = await loop.run_in_executor(self.bot_pool, bot_move, "random", seed, bot_view(st, seat),
                                                        seat)
                finally:
                    if thinks:
                        table.thinking.discard(seat)
                if not lifecycle.plays_bot(table.data.seats[seat]):   # the player took the seat back
                    return
                err = await self.submit(table, seat, seq, action)
                if err is not None and err.startswith(STORAGE_REFUSAL):
                    refused += 1
                    await asyncio.sleep(retry_delay(refused))
                    continue
                refused = 0
                if err is not None and not err.startswith("stale"):
                    log.error("table %s: bot %s (seat %d) action refused: %s", table.id, name, seat, err)
                    return
        finally:
            if seat in table.thinking:   # cancelled while searching
                table.thinking.discard(seat)
                self.announce_thinking(table)
            if table.bot_tasks.get(seat) is asyncio.current_task():
                del table.bot_tasks[seat]
            self._maybe_evict(table)


async def cancel_and_wait(tasks) -> None:
    """Cancel every task of ``tasks`` and wait until each has ended (whatever it raised)."""
    tasks = list(tasks)
    for t in tasks:
        t.cancel()
    for t in tasks:
        try:
            await t
        except BaseException:
            pass


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)
