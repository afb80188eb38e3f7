"""The life of a table beyond its moves (issue 15, "Features players expect"): resign, abandon,
bot takeover of a seat (Board Game Arena's "zombie") and taking it back, clocks, and rematch.

Storage (old databases keep working): one optional row per table in ``table_life``
(``db.LifeRow``), whose JSON ``data`` holds::

    {"creator_hash": sha256 of the creator token,          # absent: the table cannot be abandoned
     "clock": {"mode": "turn", "per_move_s": S} | {"mode": "live", "bank_s": B, "increment_s": I},
     "clocks": {"<seat>": {"remaining": seconds, "since": unix time | null}},
     "seen": [seats that have connected once], "started": bool,   # a clock runs once all came
     "resigned": [seat], "notices": [{"at": iso, "text": "Ann resigned", "log": events before it}],
     "rematch": {"table_id": id, "by": seat}, "rematch_of": old table id}

and, in the seats JSON of ``tables``, the optional key ``"zombie": "timeout"`` (out of time) or
``"zombie": "away"`` (handed to a bot by another player while away) on a human seat a bot plays;
``data["handed"] = {"<seat>": {"by": seat, "at": iso}}`` says who handed an "away" seat over. A table without a row (created before this module) has no creator, no clock and can
still be resigned, rematched and replayed.

Rules chosen where the issue is silent (PROTOCOL.md, "Resign, abandon, bot takeover, clocks,
rematch"):

- resign ends the game for the table whatever the number of players: the resigner is last, the
  others are ranked as the engine ranks them at that moment; ``returns`` are 1 for the first,
  -1 for the resigner, 0 for the others;
- a bot takes a seat over when its clock runs out, or when another seated player hands it to a
  bot (``hand_to_bot``) because it is to move and has had no open connection for the server's
  ``away_grace`` seconds (BGA lets the others expel a player who is away); never on a mere
  disconnection by itself; the player takes it back by sending ``take_back`` from a socket
  opened with the seat's token;
- "away since" is kept in memory only: the moment the seat's last socket closed, or, for a seat
  not seen since, the moment the table was loaded (after a restart or an eviction the grace
  starts again: nobody is handed over for the server's own downtime);
- a clock starts once every human seat has connected at least once (nobody loses time while
  the others open their links); it is wall time: it keeps running while the server is down;
- a taken-back live seat whose bank is empty gets ``min(bank_s, 60)`` seconds again.

The clock timer of a table is a task kept in ``Table.bot_tasks["clock"]`` (so it is cancelled
with the bots when the server stops, and the table is not evicted while a clock runs).
"""

from __future__ import annotations

import asyncio
import base64
import copy
import hashlib
import hmac
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request
from sqlalchemy import select, update

from citygames.core import load_game

from .db import LifeRow, TableRow, iso, now as db_now
from .security import hash_token

log = logging.getLogger("citygames.server")

#: socket message types handled here (PROTOCOL.md)
MESSAGES = ("resign", "take_back", "hand_to_bot")
#: the bot that plays a seat taken over
ZOMBIE_BOT = "greedy"
#: clock limits (seconds)
TURN_MIN, TURN_MAX = 60, 30 * 86400
BANK_MIN, BANK_MAX = 1, 86400
INCREMENT_MAX = 3600
#: seconds a taken-back live seat with an empty bank gets again (at most its bank)
TAKE_BACK_GRACE = 60
#: notices kept per table
MAX_NOTICES = 50
#: default seconds a seat to move must have had no open connection before another player may hand
#: it to a bot (``create_app(away_grace=...)``, ``serve --away-grace``)
AWAY_GRACE = 120.0


class LifeError(Exception):
    """A refused request: ``status`` is the HTTP status (400, 403, 404, 409, 422), ``message``
    the sentence shown to the user."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Life:
    """A table's ``table_life`` data held in memory, with its pending write."""

    data: dict = field(default_factory=dict)
    dirty: bool = False
    writer: Any = None            # the asyncio task writing ``data``
    deadline: float | None = None  # the clock timer's wake-up time (unix)
    #: presence (memory only): unix time the table was loaded, the human seats connected at the
    #: last look, and the unix time each absent seat's last socket closed
    loaded_at: float = field(default_factory=time.time)
    present: set = field(default_factory=set)
    left: dict = field(default_factory=dict)


def life_of(table) -> Life:
    """The ``Life`` of a table in memory (an empty one for a table loaded without it)."""
    life = getattr(table, "life", None)
    if life is None:
        life = table.life = Life()
    return life


# --- storage (blocking; run in the database thread) ---------------------------------------------
def load_life(repo, table_id: str) -> dict | None:
    """The ``table_life`` data of a table, or ``None`` (a table created before it)."""
    with repo.engine.connect() as conn:
        row = conn.execute(select(LifeRow.data).where(LifeRow.table_id == table_id)).first()
    if row is None or not isinstance(row[0], dict):
        return None
    return dict(row[0])


def save_life(repo, table_id: str, data: dict) -> None:
    """Insert or replace the ``table_life`` data of a table (one transaction)."""
    with repo._write() as conn:
        res = conn.execute(update(LifeRow).where(LifeRow.table_id == table_id).values(data=data))
        if res.rowcount != 1:
            conn.execute(LifeRow.__table__.insert().values(table_id=table_id, data=data))


def save_seats(repo, table_id: str, seats: list) -> None:
    """Replace the seats JSON of a table (bot takeover, rematch tokens)."""
    with repo._write() as conn:
        conn.execute(update(TableRow).where(TableRow.id == table_id).values(seats=seats))


def end_table(repo, table_id: str, status: str, result: dict | None) -> bool:
    """Set an open table to ``status`` (``"finished"`` with ``result``, or ``"abandoned"``);
    ``False`` when it is not open any more (nothing changed)."""
    values: dict = {"status": status, "finished_at": db_now()}
    if result is not None:
        values["result"] = result
    with repo._write() as conn:
        res = conn.execute(update(TableRow).where(TableRow.id == table_id, TableRow.status == "open").values(**values))
        return res.rowcount == 1


def clocked_ids(repo) -> set[str]:
    """Ids of the open tables with a clock (restored at start so their timers run)."""
    with repo.engine.connect() as conn:
        rows = conn.execute(select(LifeRow.table_id, LifeRow.data).join(TableRow, TableRow.id == LifeRow.table_id)
                            .where(TableRow.status == "open")).all()
    return {tid for tid, data in rows if isinstance(data, dict) and data.get("clock")}


# --- creation ---------------------------------------------------------------------------------
def parse_clock(raw) -> dict | None:
    """The ``clock`` of a ``POST /api/tables`` body, checked: ``None`` (no clock), ``{"mode":
    "turn", "per_move_s": 60..2592000}`` or ``{"mode": "live", "bank_s": 1..86400,
    "increment_s": 0..3600}`` (integers).

    Raises:
        LifeError: 422 with the reason.
    """
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise LifeError(422, 'clock must be an object like {"mode": "live", "bank_s": 600, "increment_s": 10}')

    def number(key: str, lo: int, hi: int, default=None) -> int:
        v = raw.get(key, default)
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise LifeError(422, f"clock.{key} must be an integer between {lo} and {hi} (seconds)")
        return v

    mode = raw.get("mode")
    if mode == "turn":
        extra = set(raw) - {"mode", "per_move_s"}
        clock = {"mode": "turn", "per_move_s": number("per_move_s", TURN_MIN, TURN_MAX)}
    elif mode == "live":
        extra = set(raw) - {"mode", "bank_s", "increment_s"}
        clock = {"mode": "live", "bank_s": number("bank_s", BANK_MIN, BANK_MAX),
                 "increment_s": number("increment_s", 0, INCREMENT_MAX, 0)}
    else:
        raise LifeError(422, 'clock.mode must be "turn" or "live"')
    if extra:
        raise LifeError(422, f"unknown clock setting {sorted(extra)[0][:40]!r}")
    return clock


def new_life(body: dict) -> tuple[dict, str]:
    """The ``table_life`` data of a table created from the ``POST /api/tables`` ``body`` and its
    creator token (returned once; only its hash is stored).

    Raises:
        LifeError: 422 for a malformed ``clock``.
    """
    clock = parse_clock(body.get("clock"))
    creator = secrets.token_urlsafe(24)
    data: dict = {"creator_hash": hash_token(creator)}
    if clock is not None:
        data["clock"] = clock
    return data, creator


async def attach_life(manager, table, data: dict) -> None:
    """Store the ``table_life`` data of a table just created and start its clocks."""
    await manager.db(save_life, manager.repo, table.id, data)
    table.life = Life(data=data)
    sync(manager, table)


async def read(manager, table_id: str) -> Life:
    """Hook of ``TableManager._rebuild``: the ``Life`` of a table being loaded, from its
    ``table_life`` row (none, or a database error: an empty one, logged)."""
    try:
        data = await manager.db(load_life, manager.repo, table_id)
    except Exception:
        log.exception("table %s: cannot read its life data", table_id)
        data = None
    return Life(data=data or {})


# --- seats played by a bot ----------------------------------------------------------------------
def plays_bot(seat_info: dict) -> bool:
    """Whether a bot moves for this seat: a bot seat, or a human seat taken over (``zombie``)."""
    return seat_info.get("kind") == "bot" or bool(seat_info.get("zombie"))


def bot_name(seat_info: dict) -> str:
    """The bot that moves for this seat (``ZOMBIE_BOT`` for a seat taken over)."""
    return seat_info.get("bot") or ZOMBIE_BOT


def _notice(table, text: str) -> None:
    notices = life_of(table).data.setdefault("notices", [])
    # "log": where it falls in the game log (the number of events then), so the page can place it there
    notices.append({"at": iso(db_now()), "text": text, "log": len(table.state.log)})
    del notices[:-MAX_NOTICES]


def _name(table, seat: int) -> str:
    return str(table.data.seats[seat].get("name") or f"Seat {seat}")


# --- clocks ------------------------------------------------------------------------------------
def _humans(table) -> list[int]:
    return [i for i, s in enumerate(table.data.seats) if s.get("kind") == "human"]


def running_seats(table) -> set[int]:
    """Seats whose clock runs now: human seats not played by a bot, to move in an open,
    unfinished game whose clock has started."""
    data = life_of(table).data
    if not data.get("clock") or not data.get("started") or table.data.status != "open" or table.state.is_terminal():
        return set()
    return {s for s in table.state.players_to_move()
            if 0 <= s < len(table.data.seats) and table.data.seats[s].get("kind") == "human"
            and not table.data.seats[s].get("zombie")}


def _full(clock: dict) -> float:
    return float(clock["per_move_s"] if clock["mode"] == "turn" else clock["bank_s"])


def remaining(c: dict, at: float) -> float:
    """Seconds left on one seat's clock ``c`` (``{remaining, since}``) at unix time ``at``."""
    if c.get("since") is None:
        return max(0.0, float(c.get("remaining", 0)))
    return max(0.0, float(c["remaining"]) - (at - float(c["since"])))


def sync(manager, table) -> None:
    """Bring a table's clocks in line with its state (called before every broadcast and when a
    socket attaches): record who has connected, start the clocks once every human seat has come,
    stop the clock of a seat no longer to move (live: minus the time used, plus the increment;
    turn: a fresh per-move allowance), start the seats now to move; persist what changed and
    re-arm the timer. Cheap and idempotent; nothing else happens on a table without a clock.
    Also notes who is connected (``track_presence``) on every table."""
    track_presence(table)
    life = life_of(table)
    data = life.data
    clock = data.get("clock")
    if not clock:
        return
    at = time.time()
    changed = False
    humans = _humans(table)
    if not data.get("started"):
        seen = set(data.get("seen", [])) | (table.connected_seats() & set(humans))
        if seen != set(data.get("seen", [])):
            data["seen"] = sorted(seen)
            changed = True
        if all(h in seen for h in humans):
            data["started"] = True
            changed = True
    clocks = data.setdefault("clocks", {})
    running = running_seats(table)
    for seat in humans:
        c = clocks.get(str(seat))
        if c is None:
            c = clocks[str(seat)] = {"remaining": _full(clock), "since": None}
            changed = True
        if c["since"] is not None and seat not in running:
            if clock["mode"] == "live":
                c["remaining"] = remaining(c, at) + clock["increment_s"]
            else:
                c["remaining"] = _full(clock)
            c["since"] = None
            changed = True
        elif c["since"] is None and seat in running:
            if clock["mode"] == "turn":
                c["remaining"] = _full(clock)
            c["since"] = at
            changed = True
    if changed:
        persist(manager, table)
    arm(manager, table)


def clock_view(table, at: float | None = None) -> list[dict]:
    """The ``clocks`` of a ``state`` message: ``[{seat, remaining_s, running, deadline}]`` for the
    human seats (``deadline``: ISO time the running clock runs out, else ``None``); ``[]``
    without a clock."""
    data = life_of(table).data
    if not data.get("clock"):
        return []
    at = time.time() if at is None else at
    out = []
    for seat in _humans(table):
        c = data.get("clocks", {}).get(str(seat)) or {"remaining": _full(data["clock"]), "since": None}
        rem = remaining(c, at)
        running = c.get("since") is not None
        deadline = None
        if running:
            import datetime as dt
            deadline = iso(dt.datetime.fromtimestamp(at + rem, dt.timezone.utc))
        out.append({"seat": seat, "remaining_s": round(rem, 1), "running": running, "deadline": deadline})
    return out


def arm(manager, table) -> None:
    """(Re)start the table's clock timer for the earliest running deadline (none: stop it)."""
    life = life_of(table)
    data = life.data
    current = table.bot_tasks.get("clock")
    deadline = None
    for seat in running_seats(table):
        c = data.get("clocks", {}).get(str(seat))
        if c and c.get("since") is not None:
            d = float(c["since"]) + float(c["remaining"])
            deadline = d if deadline is None else min(deadline, d)
    me = asyncio.current_task()
    if current is not None and not current.done() and life.deadline == deadline:
        return
    if current is not None and current is not me and not current.done():
        current.cancel()
    table.bot_tasks.pop("clock", None)
    life.deadline = deadline
    if deadline is None or manager._closing:
        return
    table.bot_tasks["clock"] = asyncio.get_running_loop().create_task(_timer(manager, table, deadline))


async def _timer(manager, table, deadline: float) -> None:
    try:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        await expire(manager, table)
    finally:
        if table.bot_tasks.get("clock") is asyncio.current_task():
            del table.bot_tasks["clock"]
            life_of(table).deadline = None
            arm(manager, table)


async def expire(manager, table) -> list[int]:
    """Take over by a bot every seat whose clock has run out (issue 15: "a player out of time is
    replaced by a bot"); the log notices say so. Returns the seats taken over."""
    out: list[int] = []
    async with table.lock:
        data = life_of(table).data
        at = time.time()
        for seat in sorted(running_seats(table)):
            c = data["clocks"][str(seat)]
            if remaining(c, at) <= 0.02:
                c["remaining"], c["since"] = 0.0, None
                table.data.seats[seat]["zombie"] = "timeout"
                _notice(table, f"{_name(table, seat)} ran out of time: a bot plays for them")
                out.append(seat)
        if out:
            try:
                await manager.db(save_seats, manager.repo, table.id, table.data.seats)
            except Exception:
                log.exception("table %s: storing the bot takeover failed", table.id)
            persist(manager, table)
            manager.broadcast(table)
    if out:
        manager.schedule_bots(table)
    return out


def persist(manager, table) -> None:
    """Write the table's life data soon (one writer task per table, which writes again while
    something changed meanwhile)."""
    life = life_of(table)
    life.dirty = True
    if life.writer is None or life.writer.done():
        life.writer = asyncio.get_running_loop().create_task(_writer(manager, table))


async def _writer(manager, table) -> None:
    life = life_of(table)
    while life.dirty:
        life.dirty = False
        try:
            await manager.db(save_life, manager.repo, table.id, copy.deepcopy(life.data))
        except Exception:
            log.exception("table %s: storing its clocks failed", table.id)
            return


# --- presence: a seat away handed to a bot (issue 15, "Presence") ------------------------------
def track_presence(table) -> None:
    """Note which human seats have an open socket now, and when each absent seat's last socket
    closed (``Life.left``, unix time). Called by ``sync`` on every attach and broadcast (a seat's
    last socket closing always broadcasts), so the times are those of the changes."""
    life = life_of(table)
    at = time.time()
    now = table.connected_seats() & set(_humans(table))
    for seat in life.present - now:
        life.left[seat] = at
    for seat in now:
        life.left.pop(seat, None)
    life.present = now


def away_grace(manager) -> float:
    """The server's grace (seconds) before a seat away may be handed to a bot (``AWAY_GRACE``
    unless ``create_app(away_grace=...)`` set another)."""
    g = getattr(manager, "away_grace", None)
    return AWAY_GRACE if g is None else float(g)


def away_since(table, seat: int) -> float | None:
    """Unix time since which the human ``seat`` has had no open socket (the last close, or when the
    table was loaded for a seat not seen since); ``None`` when it is connected now."""
    if seat in table.connected_seats():
        return None
    life = life_of(table)
    return float(life.left.get(seat, life.loaded_at))


def _clustered(manager) -> bool:
    # several server processes on one PostgreSQL database: each knows only its own sockets
    return getattr(manager, "cluster", None) is not None


def away_seats(manager, table, at: float | None = None) -> list[dict]:
    """The seats that may be handed to a bot now or later: human seats not played by a bot, to move
    (in a simultaneous step: still to choose) in an open, unfinished game, with no open socket.
    ``[{seat, since, handable_at, wait_s}]``: ISO times the seat left and it may be handed over,
    and the seconds until then (0: now). ``[]`` on a server of several processes (presence is
    per process there)."""
    if table.data.status != "open" or table.state.is_terminal() or _clustered(manager):
        return []
    at = time.time() if at is None else at
    grace = away_grace(manager)
    out = []
    for seat in sorted(set(table.state.players_to_move())):
        if not 0 <= seat < len(table.data.seats):
            continue
        info = table.data.seats[seat]
        if info.get("kind") != "human" or info.get("zombie"):
            continue
        since = away_since(table, seat)
        if since is None:
            continue
        out.append({"seat": seat, "since": _iso_at(since), "handable_at": _iso_at(since + grace),
                    "wait_s": round(max(0.0, since + grace - at), 1)})
    return out


def _iso_at(t: float) -> str:
    import datetime as dt
    return iso(dt.datetime.fromtimestamp(t, dt.timezone.utc))


def duration_words(s: float) -> str:
    """A duration for people: "40 s", "3 min", "1 h 5 min", "2 d 3 h" (``s`` seconds, >= 0)."""
    s = max(0, int(s))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min"
    if s < 86400:
        h, m = divmod(s // 60, 60)
        return f"{h} h {m} min" if m else f"{h} h"
    d, h = divmod(s // 3600, 24)
    return f"{d} d {h} h" if h else f"{d} d"


def _wait_words(s: float) -> str:
    s = max(1, int(-(-s // 1)))   # rounded up: "in 1 s" rather than "in 0 s"
    if s < 60:
        return f"{s} s"
    m, r = divmod(s, 60)
    return f"{m} min {r} s" if r and m < 10 else duration_words(s)


async def hand_to_bot(manager, table, by: int | None, seat) -> str | None:
    """The player of seat ``by`` hands ``seat`` to a bot (issue 15, "Presence": Board Game Arena's
    expulsion of a player who is away; the seat is then played "zombie"): allowed when ``seat`` is
    a human seat not played by a bot, to move (or to choose) in an open game, and has had no open
    socket for ``away_grace`` seconds; ``by`` must be another seat. The seat gets
    ``zombie: "away"`` (stored), the notices say "Bob handed Ann's seat to a bot (away for 3 min)",
    every connection hears it and the bot moves. ``None`` or the refusal (a sentence)."""
    if by is None:
        return "spectators cannot hand a seat to a bot"
    n = len(table.data.seats)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        return f'malformed hand_to_bot: "seat" must be a seat number from 0 to {n - 1}'
    async with table.lock:
        if table.finished or table.state.is_terminal():
            return "hand to bot refused: the game is over"
        who = _name(table, seat)
        if seat == by:
            return "hand to bot refused: that is your own seat (resign instead, or take it back if a bot plays it)"
        info = table.data.seats[seat]
        if info.get("kind") != "human":
            return f"hand to bot refused: {who} is a bot already"
        if info.get("zombie"):
            return f"hand to bot refused: a bot plays for {who} already"
        if _clustered(manager):
            return ("hand to bot refused: this server runs as several processes, which do not know each "
                    "other's connections, so it cannot tell who is away")
        if seat not in set(table.state.players_to_move()):
            return f"hand to bot refused: {who} is not to move (only a seat the game waits for can be handed over)"
        since = away_since(table, seat)
        if since is None:
            return f"hand to bot refused: {who} is connected"
        at = time.time()
        grace = away_grace(manager)
        if at - since < grace:
            return (f"hand to bot refused: {who} has been away for {duration_words(at - since)}; a seat may be "
                    f"handed to a bot after {duration_words(grace)} away, in {_wait_words(since + grace - at)}")
        info["zombie"] = "away"
        data = life_of(table).data
        data.setdefault("handed", {})[str(seat)] = {"by": by, "at": iso(db_now())}
        try:
            await manager.db(save_seats, manager.repo, table.id, table.data.seats)
        except Exception as exc:
            del info["zombie"]
            data["handed"].pop(str(seat), None)
            log.error("table %s: storing the hand over failed: %s", table.id, exc)
            return "server error: the hand over could not be stored; try again"
        _notice(table, f"{_name(table, by)} handed {who}'s seat to a bot (away for {duration_words(at - since)})")
        persist(manager, table)
        manager.broadcast(table)
    manager.schedule_bots(table)
    return None


# --- state messages ---------------------------------------------------------------------------
def state_extra(table, seat: int | None, manager=None, seats: list[dict] | None = None) -> dict:
    """The keys this module adds to every ``state`` message: ``status`` (``open``, ``finished``,
    ``abandoned``), ``clock`` (the settings or ``None``), ``clocks`` (``clock_view``) and ``life``:
    ``{resigned: [seats], notices: [{at, text, log}], rematch: {table_id, by, by_name} | None,
    rematch_of: id | None, bot_plays_you: bool, bot_plays_you_why: "timeout" | "away" | None,
    handed_by: name | None, away_grace_s: seconds}``.

    With ``manager`` and the message's ``seats`` (``[{seat, ...}]``), each seat that may be handed
    to a bot (``away_seats``) gets ``away: {since, handable_at, wait_s}`` there, next to its
    ``connected``: presence lives in ``seats``, so the rest of a message does not change when a
    seat comes or goes."""
    data = life_of(table).data
    if manager is not None and seats is not None:
        by_seat = {s.get("seat"): s for s in seats}
        for a in away_seats(manager, table):
            if a["seat"] in by_seat:
                by_seat[a["seat"]]["away"] = {k: a[k] for k in ("since", "handable_at", "wait_s")}
    rm = data.get("rematch")
    if rm:
        rm = {"table_id": rm["table_id"], "by": rm["by"], "by_name": _name(table, rm["by"])}
    mine = seat is not None and 0 <= seat < len(table.data.seats) and bool(table.data.seats[seat].get("zombie"))
    why = table.data.seats[seat].get("zombie") if mine else None
    handed = data.get("handed", {}).get(str(seat)) if why == "away" else None
    by = handed.get("by") if isinstance(handed, dict) else None
    by_name = _name(table, by) if isinstance(by, int) and 0 <= by < len(table.data.seats) else None
    return {
        "status": table.data.status,
        "clock": data.get("clock"),
        "clocks": clock_view(table),
        "life": {"resigned": list(data.get("resigned", [])), "notices": list(data.get("notices", [])),
                 "rematch": rm or None, "rematch_of": data.get("rematch_of"), "bot_plays_you": mine,
                 "bot_plays_you_why": why, "handed_by": by_name,
                 "away_grace_s": away_grace(manager) if manager is not None else AWAY_GRACE,
                 "can_abandon": table.data.status == "open" and bool(data.get("creator_hash"))},
    }


# --- socket messages: resign, take back --------------------------------------------------------
async def handle(manager, table, conn, msg: dict) -> str | None:
    """A ``resign``, ``take_back`` or ``hand_to_bot`` message from ``conn``; ``None`` or the
    refusal."""
    if msg["type"] == "hand_to_bot":
        return await hand_to_bot(manager, table, conn.seat, msg.get("seat"))
    if conn.seat is None:
        return f"spectators cannot {'resign' if msg['type'] == 'resign' else 'take a seat back'}"
    if msg["type"] == "resign":
        return await resign(manager, table, conn.seat)
    return await take_back(manager, table, conn.seat)


def resign_result(table, seat: int) -> dict:
    """The ``result`` of a game ``seat`` resigned: the usual keys, the resigner last in
    ``ranking`` with return -1, the first of the others (as the engine ranks them now) 1, the
    others 0; plus ``resigned: [seat]``."""
    st = table.state
    n = table.game.num_players
    try:
        scores = [int(x) for x in st.scores()]
    except Exception:
        scores = [0] * n
    try:
        breakdown = [dict(st.score_breakdown(s)) for s in range(n)]
    except Exception:
        breakdown = [{} for _ in range(n)]
    try:
        order = [int(p) for p in st.ranking()]
        assert sorted(order) == list(range(n))
    except Exception:
        order = sorted(range(n), key=lambda p: (-scores[p], p))
    ranking = [p for p in order if p != seat] + [seat]
    returns = [0.0] * n
    returns[ranking[0]] = 1.0
    returns[seat] = -1.0
    return {"scores": scores, "ranking": ranking, "breakdown": breakdown, "returns": returns, "resigned": [seat]}


async def resign(manager, table, seat: int) -> str | None:
    """``seat`` resigns (issue 15, "Resign and abandon"): the game ends for the table, stored
    finished with ``resign_result``; every connection gets the final state. ``None`` or the
    refusal."""
    async with table.lock:
        if table.data.status != "open" or table.state.is_terminal():
            return "resign refused: the game is over"
        result = resign_result(table, seat)
        try:
            ok = await manager.db(end_table, manager.repo, table.id, "finished", result)
        except Exception as exc:
            log.error("table %s: storing the resignation failed: %s", table.id, exc)
            return "server error: the resignation could not be stored; try again"
        if not ok:
            return "resign refused: the game is over"
        manager._mark_finished(table, result)
        life_of(table).data["resigned"] = [seat]
        _notice(table, f"{_name(table, seat)} resigned")
        persist(manager, table)
        manager.broadcast(table)
    return None


async def take_back(manager, table, seat: int) -> str | None:
    """The player of ``seat`` takes their seat back from the bot (issue 15, "the player can take it
    back"). ``None`` or the refusal."""
    async with table.lock:
        info = table.data.seats[seat]
        if not info.get("zombie"):
            return "take back refused: no bot plays for you"
        if table.data.status != "open":
            return "take back refused: the game is over"
        was = info.pop("zombie")
        data = life_of(table).data
        handed = data.get("handed", {}).pop(str(seat), None)
        clock = data.get("clock")
        c = data.get("clocks", {}).get(str(seat))
        if clock and clock["mode"] == "live" and c is not None and remaining(c, time.time()) <= 0:
            c["remaining"] = float(min(clock["bank_s"], TAKE_BACK_GRACE))
        _notice(table, f"{_name(table, seat)} took their seat back from the bot")
        try:
            await manager.db(save_seats, manager.repo, table.id, table.data.seats)
        except Exception as exc:
            info["zombie"] = was
            if handed is not None:
                data.setdefault("handed", {})[str(seat)] = handed
            log.error("table %s: storing the take back failed: %s", table.id, exc)
            return "server error: the take back could not be stored; try again"
        persist(manager, table)
        manager.broadcast(table)
    return None


# --- HTTP: abandon, rematch --------------------------------------------------------------------
async def _table(manager, table_id: str):
    table = await manager.get(table_id)
    if table is None:
        raise LifeError(404, f"no table {table_id!r}")
    return table


async def abandon(manager, table_id: str, creator_token) -> dict:
    """The creator abandons an unfinished table (issue 15): status ``abandoned``; it leaves the
    open list, bots stop, every connection hears it. Returns the table's summary fields.

    Raises:
        LifeError: 404 unknown table; 409 a table without a creator (created before creator
            tokens) or not open; 403 a wrong token; 422 a malformed body.
    """
    if not isinstance(creator_token, str) or not 0 < len(creator_token) <= 128:
        raise LifeError(422, 'the body must be {"creator_token": "..."}')
    table = await _table(manager, table_id)
    async with table.lock:
        data = life_of(table).data
        expected = data.get("creator_hash")
        if not expected:
            raise LifeError(409, "this table has no creator token (it was created before tables could be "
                                 "abandoned), so it cannot be abandoned")
        if not hmac.compare_digest(expected, hash_token(creator_token)):
            raise LifeError(403, "wrong creator token")
        if table.data.status != "open" or table.state.is_terminal():
            raise LifeError(409, f"the table is {table.data.status}: only an unfinished table can be abandoned")
        if not await manager.db(end_table, manager.repo, table.id, "abandoned", None):
            raise LifeError(409, "the table is not open any more")
        table.data.status = "abandoned"
        table.data.finished_at = db_now()
        _notice(table, "The table's creator abandoned it")
        persist(manager, table)
        manager.broadcast(table)
    arm(manager, table)
    return {"table_id": table.id, "status": "abandoned"}


def _derived(old_token: str, new_id: str, seat: int, purpose: str) -> str:
    """A token only the holder of ``old_token`` can compute: URL-safe base64 of the first 24
    bytes of HMAC-SHA256(key=old_token, "citygames rematch {purpose} {new_id} {seat}")."""
    mac = hmac.new(old_token.encode("utf-8"), f"citygames rematch {purpose} {new_id} {seat}".encode(),
                   hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode("ascii")


_rematch_locks: dict[str, asyncio.Lock] = {}


async def rematch(manager, old_id: str, seat, token) -> dict:
    """A rematch of the finished table ``old_id`` for the player of ``seat`` (issue 15, "Rematch"):
    the first call creates the new table (same game, options, clock and seats, new seed) and
    records it on the old one; every call hands the caller their own seat of it.

    The new table's token of a seat is derived from the old table's token of that seat
    (``_derived``), so nothing secret is stored: the new seat's hash is written when its player
    first asks, and only that player can compute it. The first caller also gets the new table's
    creator token (derived likewise, so a repeated call gives it again).

    Returns:
        ``{table_id, seat, token, join_url, created, creator_token?}``.

    Raises:
        LifeError: 404 unknown table; 409 not finished; 403 wrong seat or token; 422 malformed.
    """
    from .tables import token_ok
    if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(token, str) or not 0 < len(token) <= 128:
        raise LifeError(422, 'the body must be {"seat": N, "token": "..."}')
    if len(_rematch_locks) > 1000:   # forget the locks nobody holds (one per table rematched)
        for key in [k for k, v in _rematch_locks.items() if not v.locked()]:
            del _rematch_locks[key]
    lock = _rematch_locks.setdefault(old_id, asyncio.Lock())
    async with lock:
        old = await _table(manager, old_id)
        if not token_ok(old.data, seat, token):
            raise LifeError(403, "wrong seat or token")
        if old.data.status != "finished":
            raise LifeError(409, "a rematch is offered once the game is finished")
        old_life = life_of(old).data
        rm = old_life.get("rematch")
        created = rm is None
        if created:
            game = load_game(old.data.game, **old.data.options)
            seats = []
            for s in old.data.seats:
                d = {"kind": s["kind"], "name": s["name"]}
                if s["kind"] == "bot":
                    d["bot"] = s["bot"]
                seats.append(d)
            new, _random_tokens = await manager.create(game, seats, None)
            for s in new.data.seats:   # the random tokens are never handed out
                s.pop("token_hash", None)
            creator = _derived(token, new.id, seat, "creator")
            data = {"creator_hash": hash_token(creator), "rematch_of": old.id}
            if old_life.get("clock"):
                data["clock"] = dict(old_life["clock"])
            await manager.db(save_seats, manager.repo, new.id, new.data.seats)
            await attach_life(manager, new, data)
            rm = old_life["rematch"] = {"table_id": new.id, "by": seat}
            _notice(old, f"{_name(old, seat)} wants a rematch")
            persist(manager, old)
            async with old.lock:
                manager.broadcast(old)
        new = await _table(manager, rm["table_id"])
        mine = _derived(token, new.id, seat, "seat")
        async with new.lock:
            info = new.data.seats[seat] if seat < len(new.data.seats) else None
            if info is None or info.get("kind") != "human":
                raise LifeError(409, "your seat is not a human seat in the rematch")
            if not info.get("token_hash"):
                info["token_hash"] = hash_token(mine)
                await manager.db(save_seats, manager.repo, new.id, new.data.seats)
        out = {"table_id": new.id, "seat": seat, "token": mine,
               "join_url": f"/table/{new.id}?seat={seat}&token={mine}", "created": created}
        if rm["by"] == seat:
            out["creator_token"] = _derived(token, new.id, seat, "creator")
        manager._maybe_evict(old)
        return out


def add_routes(app, read_json, api_error, limit) -> None:
    """``POST /api/tables/{id}/abandon`` and ``POST /api/tables/{id}/rematch`` (PROTOCOL.md).
    ``read_json``, ``api_error`` and ``limit`` are app.py's body reader, error class and rate
    limit check."""
    from .security import valid_table_id

    async def run(coro):
        try:
            return await coro
        except LifeError as exc:
            raise api_error(exc.status, exc.message) from None

    @app.post("/api/tables/{table_id}/abandon")
    async def abandon_table(request: Request, table_id: str):
        limit(request, "create")
        if not valid_table_id(table_id):
            raise api_error(404, "no such table")
        body = await read_json(request)
        if not isinstance(body, dict):
            raise api_error(422, 'the body must be {"creator_token": "..."}')
        return await run(abandon(request.app.state.manager, table_id, body.get("creator_token")))

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch_table(request: Request, table_id: str):
        limit(request, "create")
        if not valid_table_id(table_id):
            raise api_error(404, "no such table")
        body = await read_json(request)
        if not isinstance(body, dict):
            raise api_error(422, 'the body must be {"seat": N, "token": "..."}')
        return await run(rematch(request.app.state.manager, table_id, body.get("seat"), body.get("token")))
