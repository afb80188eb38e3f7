"""Names, presence and chat at a table (issue 15, "Player names", "Presence" and "Chat").

The table socket's ``name`` and ``chat`` messages are handled here (``TableManager.handle_message``
hands them over); ``tables.py`` and ``app.py`` only call into this module:

- ``{"type": "name", "name": "Ann"}`` from a human seat's socket: the name is checked like a seat
  name at creation (1-40 printable characters after trimming), stored in the table's ``seats`` JSON
  (key ``name``, plus ``named: true``) and every connection gets a ``state`` (same seq, empty log)
  carrying the new name. Spectators and refused names get an ``error``; nothing changes.
- ``{"type": "chat", "text": "...", "name": "..."?}`` from any socket: 1-300 printable characters
  after trimming, at most ``chat`` (default 5 per 10 s) per socket; stored in the ``chat`` table
  and broadcast as ``{"type": "chat", "messages": [{n, seat, name, text, at}]}``. A seat posts under
  its seat's name; a spectator posts as ``"Spectator"``, or ``"<name> (watching)"`` when its message
  carries a ``name``. A new connection gets the last ``CHAT_HISTORY`` messages right after its first
  ``state``, in one ``chat`` message marked ``"history": true`` (none when there are none).
- Presence needs nothing here: every ``state`` carries ``seats[].connected`` and the manager
  broadcasts when a seat's first socket comes or its last one goes.

Several workers (``serve --workers N`` on PostgreSQL): chat is stored in the shared database, so a
socket opened on any worker gets the whole history, but a new message is broadcast live only to
the sockets of the worker that took it (chat is per worker live); a name change reaches the other
workers' sockets when they next reload the table.
"""

from __future__ import annotations

import itertools
import json
import logging
from typing import TYPE_CHECKING

from .health import STORAGE_REFUSAL, StorageUnavailable
from .security import TextError, check_text

if TYPE_CHECKING:  # pragma: no cover
    from .tables import Connection, Table, TableManager

log = logging.getLogger("citygames.server")
_SOCKET_KEYS = itertools.count()

#: longest player name (as ``app.MAX_NAME``)
MAX_NAME = 40
#: longest chat message, in characters after trimming
MAX_CHAT = 300
#: messages a new connection gets from the table's chat
CHAT_HISTORY = 100
#: the name a spectator's message goes under when it gives none
SPECTATOR = "Spectator"
#: appended to a spectator's own name
WATCHING = " (watching)"


def clean_name(value) -> str:
    """A player name from a client, trimmed. Raises ``TextError`` (message for the client) when it
    is not a string, holds control characters, or is empty or longer than ``MAX_NAME`` after
    trimming."""
    if not isinstance(value, str):
        raise TextError("a name must be a string")
    name = check_text(value.strip(), "a name", MAX_NAME)
    if not name:
        raise TextError("a name may not be empty")
    return name


def clean_chat(value) -> str:
    """A chat text from a client, trimmed. Raises ``TextError`` when it is not a string, holds
    control characters (line breaks included), or is empty or longer than ``MAX_CHAT`` after
    trimming. The text is kept verbatim otherwise (``<script>`` stays ``<script>``: clients render
    it as text)."""
    if not isinstance(value, str):
        raise TextError("a chat message must be a string")
    text = check_text(value.strip(), "a chat message", MAX_CHAT)
    if not text:
        raise TextError("a chat message may not be empty")
    return text


def default_name(table: "Table", seat: int) -> str:
    """The name a human seat gets when the table is created without one: the game's seat name
    (``game.seat_name``) or ``"Seat N"``."""
    game = table.game
    return game.seat_name(seat) if hasattr(game, "seat_name") else f"Seat {seat}"


def has_chosen_name(table: "Table", seat: int) -> bool:
    """Whether the human ``seat`` has a name of its own: one set over the socket (``named`` in the
    stored seat), or one given at creation that differs from ``default_name``. The table page asks
    a player without one for a name."""
    info = table.data.seats[seat]
    return bool(info.get("named")) or info.get("name") != default_name(table, seat)


def seat_names(table: "Table") -> list[str]:
    """The name of every seat, in seat order (for ``named_seats`` and records)."""
    return [str(s.get("name", f"Seat {i}")) for i, s in enumerate(table.data.seats)]


def _dumps(msg: dict) -> str:
    return json.dumps(msg, separators=(",", ":"))


def chat_message(messages: list[dict], history: bool = False) -> str:
    """The ``chat`` socket message carrying ``messages`` (``[{n, seat, name, text, at}]``);
    ``history``: the table's earlier messages, sent once to a new connection (``"history": true``)."""
    msg = {"type": "chat", "messages": messages}
    if history:
        msg["history"] = True
    return _dumps(msg)


async def send_history(manager: "TableManager", table: "Table", conn: "Connection") -> None:
    """Queue the table's last ``CHAT_HISTORY`` chat messages for a new connection, as one ``chat``
    message with ``"history": true`` (nothing when the table has none; a database error is logged
    and the connection goes without)."""
    try:
        messages = await manager.db(manager.repo.recent_chat, table.id, CHAT_HISTORY)
    except Exception:
        log.exception("table %s: reading the chat failed", table.id)
        return
    if messages:
        conn.put(chat_message(messages, history=True))


def socket_limited(manager: "TableManager", name: str, conn: "Connection") -> str | None:
    """The refusal when ``conn`` is over the per-socket rate limit ``name`` (``manager.limits``, set
    by the app: ``chat``, ``name``, ``why``; ``security.DEFAULT_LIMITS``), else ``None``."""
    limits = getattr(manager, "limits", None)
    if limits is None:
        return None
    key = getattr(conn, "social_key", None)
    if key is None:   # one key per socket for its whole life (an id() could be reused by a later one)
        key = conn.social_key = f"socket-{next(_SOCKET_KEYS)}"
    retry = limits.hit(name, key)
    if retry is None:
        return None
    return f"too many {name} messages: the limit is {limits.describe(name)}; try again in {int(retry)} s"


async def handle_name(manager: "TableManager", table: "Table", conn: "Connection", msg: dict) -> None:
    """A ``name`` message: store the seat's new name and broadcast a ``state`` (same seq, empty
    log) to every connection; a refusal goes to ``conn`` as an ``error``."""
    if conn.seat is None:
        conn.error("spectators have no seat to name (give a name with your chat messages instead)", table.seq)
        return
    if table.data.seats[conn.seat].get("kind") != "human":   # pragma: no cover - bots have no socket
        conn.error("only a human seat may change its name", table.seq)
        return
    try:
        name = clean_name(msg.get("name"))
    except TextError as exc:
        conn.error(f"name refused: {exc}", table.seq)
        return
    refused = socket_limited(manager, "name", conn)
    if refused:
        conn.error(refused, table.seq)
        return
    async with table.lock:
        try:
            seats = await manager.db(manager.repo.set_seat_name, table.id, conn.seat, name)
        except StorageUnavailable as exc:
            conn.error(f"{STORAGE_REFUSAL}: the name could not be stored ({exc.reason}); try again later", table.seq)
            return
        except Exception:
            log.exception("table %s: storing the name of seat %d failed", table.id, conn.seat)
            conn.error("server error: the name could not be stored; try again", table.seq)
            return
        table.data.seats[conn.seat]["name"] = seats[conn.seat]["name"]
        table.data.seats[conn.seat]["named"] = True
        manager.broadcast(table)


async def handle_chat(manager: "TableManager", table: "Table", conn: "Connection", msg: dict) -> None:
    """A ``chat`` message: store it and broadcast it to every connection of the table; a refusal
    goes to ``conn`` as an ``error``."""
    try:
        text = clean_chat(msg.get("text"))
        if conn.seat is None:
            given = msg.get("name")
            blank = given is None or (isinstance(given, str) and not given.strip())
            name = SPECTATOR if blank else clean_name(given) + WATCHING
        else:
            name = str(table.data.seats[conn.seat].get("name", f"Seat {conn.seat}"))
    except TextError as exc:
        conn.error(f"chat refused: {exc}", table.seq)
        return
    refused = socket_limited(manager, "chat", conn)
    if refused:
        conn.error(refused, table.seq)
        return
    try:
        stored = await manager.db(manager.repo.add_chat, table.id, conn.seat, name, text)
    except StorageUnavailable as exc:
        conn.error(f"{STORAGE_REFUSAL}: the message could not be stored ({exc.reason}); try again later", table.seq)
        return
    except Exception:
        log.exception("table %s: storing a chat message failed", table.id)
        conn.error("server error: the message could not be stored; try again", table.seq)
        return
    text_out = chat_message([stored])
    for c in list(table.conns):
        c.put(text_out)
