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
import functools
import hashlib
import hmac
import json
import logging
import secrets
import string
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from citygames.bots import make_bot
from citygames.core import SIMULTANEOUS, Action, Game, IllegalActionError, State, load_game
from citygames.core.errors import CitygamesError

from .db import Repository, StaleWrite, TableData, iso

log = logging.getLogger("citygames.server")

#: the largest WebSocket message a client may send (bytes)
MAX_MESSAGE = 4096
#: a connection whose outgoing queue grows beyond this is too slow and gets closed
MAX_QUEUE = 500
#: table ids: short random strings over this alphabet
ID_ALPHABET = string.ascii_lowercase + string.digits
ID_LENGTH = 10
#: seeds are drawn below 2**53 so records stay exact in JavaScript
SEED_LIMIT = 2 ** 53


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


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


def bot_move(name: str, seed: int, state: State, seat: int) -> int:
    """Run in a worker: the bot ``name`` (seeded with ``seed``) chooses an action for ``seat``."""
    return int(make_bot(name, seed).step(state, seat))


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
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def put(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            log.warning("closing a connection that does not keep up (%d queued messages)", self.queue.qsize())
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def error(self, message: str, seq: int | None = None) -> None:
        self.put(_dumps({"type": "error", "message": message, "seq": seq}))

    async def writer(self) -> None:
        """Send queued messages until ``None`` (then close with 1008: too slow) or cancellation."""
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    await self.close(1008)
                    return
                await self.send_text(text)
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

    @property
    def id(self) -> str:
        return self.data.id

    @property
    def seq(self) -> int:
        return len(self.state.history)

    @property
    def finished(self) -> bool:
        return self.data.status == "finished"

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


def rebuild(data: TableData, actions: list[tuple[int, int, int]]) -> Table:
    """A ``Table`` from its stored row and actions (``(seq, seat, action)``), replaying the record.

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
    return table


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

    Args:
        repo: the ``Repository``.
        bot_delay: seconds a bot waits before moving (a visible pause; 0 in tests).
        bot_processes: run bots in this many worker processes (0: a thread pool).
    """

    #: several workers on PostgreSQL (issue 16, part 5): this worker's ``cluster.Cluster``, set when
    #: it starts; ``None`` in one process (SQLite, or one worker), where the hooks cost nothing
    cluster = None

    def __init__(self, repo: Repository, bot_delay: float = 0.6, bot_processes: int = 0):
        self.repo = repo
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}
        # SQLite has one writer at a time: one database thread avoids lock contention
        self.db_pool = concurrent.futures.ThreadPoolExecutor(max_workers=1 if repo.is_sqlite else 4,
                                                             thread_name_prefix="citygames-db")
        if bot_processes > 0:
            import multiprocessing
            self.bot_pool: concurrent.futures.Executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=bot_processes, mp_context=multiprocessing.get_context("spawn"))
        else:
            self.bot_pool = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="citygames-bot")
        self._load_lock = asyncio.Lock()
        self._closing = False
        self.commits = GroupCommit(self)
        self._records: dict[str, list] = {}   # finished tables' record actions (they never change)

    # --- plumbing ----------------------------------------------------------------------------
    async def db(self, fn, *args, **kwargs):
        """Run a blocking repository call in the database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db_pool, functools.partial(fn, *args, **kwargs))

    async def close(self) -> None:
        self._closing = True
        tasks = [t for table in self.tables.values() for t in table.bot_tasks.values()]
        for t in tasks:
            t.cancel()
        for t in tasks:
            try:
                await t
            except BaseException:
                pass
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        self.db_pool.shutdown(wait=True)

    # --- loading -------------------------------------------------------------------------------
    async def restore(self) -> int:
        """Rebuild every unfinished table from the database and resume its bots; the count."""
        rows = await self.db(self.repo.unfinished)
        loop = asyncio.get_running_loop()
        n = 0
        for data, actions in rows:
            try:
                table = await loop.run_in_executor(None, rebuild, data, actions)
            except CitygamesError as exc:
                log.error("cannot restore table %s: %s", data.id, exc)
                self.broken[data.id] = str(exc)
                continue
            self.tables[data.id] = table
            if table.state.is_terminal():  # complete record left open: close it now
                await self._finish(table)
            n += 1
            self.schedule_bots(table)
        return n

    async def get(self, table_id: str) -> Table | None:
        """The table in memory, loaded from the database if needed; ``None`` if unknown or broken."""
        table = self.tables.get(table_id)
        if table is not None or table_id in self.broken:
            return table
        async with self._load_lock:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            data = await self.db(self.repo.get_table, table_id)
            if data is None:
                return None
            actions = await self.db(self.repo.actions, table_id)
            loop = asyncio.get_running_loop()
            try:
                table = await loop.run_in_executor(None, rebuild, data, actions)
            except CitygamesError as exc:
                self.broken[table_id] = str(exc)
                return None
            self.tables[table_id] = table
        self.schedule_bots(table)
        return table

    def _maybe_evict(self, table: Table) -> None:
        if table.finished and not table.conns and not table.bot_tasks:
            self.tables.pop(table.id, None)

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
        st = table.state
        to_move = list(st.players_to_move())
        connected = table.connected_seats()
        seats = []
        for s in seats_public(table.data):
            if s["kind"] == "human":
                s["connected"] = s["seat"] in connected
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
        }
        return _dumps(msg)

    def broadcast(self, table: Table, conns: list | None = None) -> None:
        """Queue a ``state`` message for every connection in ``conns`` (default: all of the table's),
        built once per seat and log position."""
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
        async with table.lock:
            was = table.connected_seats()
            table.conns.add(conn)
            conn.log_pos = len(table.state.log)
            conn.put(self.state_message(table, conn.seat, 0))
            if conn.seat is not None and conn.seat not in was:
                others = [c for c in table.conns if c is not conn]
                self.broadcast(table, others)  # a seat came: the others see it connected

    async def detach(self, table: Table, conn: Connection) -> None:
        conn.closed = True
        async with table.lock:
            if conn not in table.conns:
                return
            table.conns.discard(conn)
            if conn.seat is not None and conn.seat not in table.connected_seats():
                self.broadcast(table)  # the seat's last socket went: the others see it gone
        self._maybe_evict(table)

    async def handle_message(self, table: Table, conn: Connection, raw: str | bytes) -> None:
        """One message from a client; every problem becomes an ``error`` to that client only."""
        size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
        if size > MAX_MESSAGE:
            conn.error(f"message too large: {size} bytes (the limit is {MAX_MESSAGE})", table.seq)
            return
        try:
            msg = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            conn.error("malformed message: not valid JSON", table.seq)
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            conn.error('malformed message: expected a JSON object with a "type"', table.seq)
            return
        kind = msg["type"]
        if kind == "ping":
            conn.put(_dumps({"type": "pong", "seq": table.seq}))
            return
        if kind not in ("action", "undo", "withdraw"):
            conn.error(f"unknown message type {kind[:40]!r} (expected action, undo, withdraw or ping)", table.seq)
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
                if self.cluster is not None and isinstance(exc, StaleWrite):   # another worker came first
                    await self.reload_table(table)
                    return f"stale: the table has moved on to seq {table.seq}"
                log.exception("table %s: undo of action %d failed", table.id, last)
                return "server error: the undo could not be stored; try again"
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
            if self.cluster is not None and isinstance(exc, StaleWrite):   # another worker came first
                await self.reload_table(table)
                return f"stale: the table has moved on to seq {table.seq}"
            log.exception("table %s: withdrawing action %d failed", table.id, index)
            return f"server error: the {what} could not be stored; try again"
        table.state = new
        del table.action_seats[index]
        del table.log_marks[index]
        table.data.seq = table.seq
        self.broadcast(table)
        return None

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
        refused write, an undo elsewhere, a gap). Each connection's log restarts where the old and
        new histories part. On a database or replay error the copy is kept (logged). (Issue 16,
        part 5.)"""
        try:
            data = await self.db(self.repo.get_table, table.id)
            rows = await self.db(self.repo.actions, table.id)
            if data is None:
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
    def schedule_bots(self, table: Table) -> None:
        """Start a task for every bot seat that must move and has none running."""
        if self._closing or table.finished:
            return
        if self.cluster is not None and not self.cluster.drives(table):   # another worker drives them
            return
        for seat in table.state.players_to_move():
            info = table.data.seats[seat]
            if info["kind"] == "bot" and seat not in table.bot_tasks:
                table.bot_tasks[seat] = asyncio.get_running_loop().create_task(self._bot_turns(table, seat))

    async def _bot_turns(self, table: Table, seat: int) -> None:
        loop = asyncio.get_running_loop()
        name = table.data.seats[seat]["bot"]
        try:
            while not self._closing:
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                else:
                    await asyncio.sleep(0)
                st = table.state
                if table.finished or seat not in st.players_to_move():
                    return
                seq = table.seq
                # seeded from the seq the step opened at: in a simultaneous step the same whatever
                # the order of the other seats' choices (and after a restart)
                seed = _bot_seed(table.data.seed, table.id, seat, step_seq(st))
                view = bot_view(st, seat)
                try:
                    action = await loop.run_in_executor(self.bot_pool, bot_move, name, seed, view, seat)
                except Exception:
                    log.exception("table %s: bot %s (seat %d) failed; playing a random legal action", table.id,
                                  name, seat)
                    action = await loop.run_in_executor(self.bot_pool, bot_move, "random", seed, bot_view(st, seat),
                                                        seat)
                err = await self.submit(table, seat, seq, action)
                if err is not None and not err.startswith("stale"):
                    log.error("table %s: bot %s (seat %d) action refused: %s", table.id, name, seat, err)
                    return
        finally:
            if table.bot_tasks.get(seat) is asyncio.current_task():
                del table.bot_tasks[seat]
            self._maybe_evict(table)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)
