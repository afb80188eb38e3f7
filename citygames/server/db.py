"""Persistence of the browser table: SQLAlchemy 2.0 models and a small synchronous repository.

Three tables (see ``PROTOCOL.md``, "Persistence"; ``chat`` since issue 15):

- ``tables``: one row per game table (id, game, options, seed, seats with hashed tokens,
  status, seq, created/finished times, result);
- ``actions``: one row per applied action (table_id, seq, seat, action, created). A seat's choice
  in a simultaneous step is a row like any other: replaying the rows (each applied for its
  ``seat``) restores the pending choices, and the record's ``[seat, id]`` pairs come from the
  replayed state's history, so the schema is the same as before simultaneous steps existed;
- ``chat``: one row per chat message (table_id, n, seat or null, name, text, created).

The repository's methods are blocking; the server calls them from a worker thread, never on the
event loop. ``append_action`` inserts the action and advances ``tables.seq`` in one transaction,
and refuses (``StaleWrite``) when the stored seq is not the expected one, so the database itself
orders the actions of a table; ``append_actions`` does the same for actions of several tables in
one transaction (group commit); ``delete_action`` takes a choice of a simultaneous step back
(not necessarily the last row). SQLite runs in WAL mode; a ``postgresql://`` URL uses psycopg 3.

Storage faults (issue 16; PROTOCOL.md, "Storage faults"): a ``Repository`` on an SQLite file
holds ``DatabaseLock`` (an advisory ``flock`` on ``<db>.lock``) for its life, so a second server on
the file refuses to start (``DatabaseInUse``, defect 3); it refuses a file it cannot write
(``DatabaseUnwritable``); it opens SQLite through the ``unix-excl`` VFS, which keeps the WAL index
in the process's heap instead of a memory-mapped ``-shm`` file, so a damaged or unwritable
``-shm`` cannot kill the server with SIGBUS (defect 8); and every write reports to a
``health.StorageHealth``, a storage fault raising ``health.StorageUnavailable`` (defect 10).
"""

from __future__ import annotations

import datetime as dt
import errno
import logging
import os
import sqlite3
import tempfile
import threading
import urllib.parse
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: the lock is kept within the process only
    fcntl = None

from sqlalchemy import (JSON, BigInteger, DateTime, ForeignKey, Integer, String, bindparam, create_engine, delete,
                        event, func, insert, select, text, update)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .health import StorageHealth, StorageUnavailable, storage_fault

log = logging.getLogger("citygames.server")

#: the embedded default database, relative to the current directory (``citygames serve``)
DEFAULT_DB_PATH = Path("data") / "citygames.sqlite3"


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    """A game table. ``seats`` is a JSON list of ``{seat, kind, name, bot?, token_hash?}``."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    seats: Mapped[list] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    result: Mapped[dict | None] = mapped_column(JSON, nullable=True)


class ActionRow(Base):
    """One applied action: the ``seq``-th action (0-based) of a table, made by ``seat``."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """One chat message of a table (issue 15, "Chat"): the ``n``-th (0-based) message of
    ``table_id``, posted by ``seat`` (``None``: a spectator) under the display ``name``. A table of
    its own, so databases written before chat existed gain it through ``create_all``."""
    __tablename__ = "chat"
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(String(400))
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
class LifeRow(Base):
    """Issue 15 (resign, abandon, clocks, rematch; ``lifecycle.py``): one optional row per table,
    ``data`` a JSON object (creator token hash, clock settings and times, who resigned, the
    rematch). A new table: ``create_all`` adds it to an old database; a table without a row is a
    table created before it (no creator, no clock)."""
    __tablename__ = "table_life"
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    data: Mapped[dict] = mapped_column(JSON)


# the hot path (one action) as prepared text statements: a fraction of the cost of building
# insert()/update() constructs for every action
_ADVANCE = text("UPDATE tables SET seq = :next WHERE id = :id AND seq = :seq AND status = 'open'")
_INSERT_ACTION = text("INSERT INTO actions (table_id, seq, seat, action, created) "
                      "VALUES (:id, :seq, :seat, :action, :created)").bindparams(
    bindparam("created", type_=DateTime(timezone=True)))


class StaleWrite(Exception):
    """The table's stored seq is not the one the writer expected (another action came first)."""


@dataclass
class TableData:
    """A ``tables`` row as plain data (detached from any session)."""

    id: str
    game: str
    options: dict
    seed: int
    seats: list
    status: str = "open"
    seq: int = 0
    created_at: dt.datetime = field(default_factory=lambda: now())
    finished_at: dt.datetime | None = None
    result: dict | None = None


def now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def iso(t: dt.datetime | None) -> str | None:
    """ISO 8601 in UTC (SQLite hands back naive datetimes: they are UTC)."""
    if t is None:
        return None
    if t.tzinfo is None:
        t = t.replace(tzinfo=dt.timezone.utc)
    return t.astimezone(dt.timezone.utc).isoformat(timespec="seconds")


def resolve_db_url(db: str | None, data_dir: str | Path | None = None) -> str:
    """An SQLAlchemy URL from ``--db``: a URL is kept (``postgresql://`` gets the psycopg 3
    driver); a file path, or nothing (``data_dir/citygames.sqlite3``, default ``data/``), becomes
    an SQLite URL and its folder is created."""
    if db and "://" in db:
        for prefix in ("postgresql://", "postgres://"):
            if db.startswith(prefix):
                return "postgresql+psycopg://" + db[len(prefix):]
        return db
    if db:
        path = Path(db)
    else:
        path = (Path(data_dir) if data_dir is not None else DEFAULT_DB_PATH.parent) / DEFAULT_DB_PATH.name
    path = path.expanduser().resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


class DatabaseInUse(Exception):
    """Another server (another process, or another app in this process) holds the SQLite file
    (issue 16, defect 3). The message is one line naming the file and, when known, the holder's pid."""


class DatabaseUnwritable(Exception):
    """The SQLite file, its ``-wal`` file or its folder cannot be written (read-only, immutable,
    wrong owner, read-only file system): the server refuses to start (issue 16, defect 8). The
    message is one line naming the file."""


def sqlite_path(url: str) -> Path | None:
    """The file of an ``sqlite:///PATH`` URL (absolute), or ``None`` (not SQLite, in memory)."""
    if not url.startswith("sqlite"):
        return None
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).expanduser().resolve()


@dataclass
class _Held:
    fd: int
    process: bool          # taken for the life of the process (``hold_database``)
    user: object = None    # the ``DatabaseLock`` using it now, if any


_HELD: dict[str, _Held] = {}       # lock file -> the lock this process holds on it
_HELD_GUARD = threading.Lock()


def _flock(db: Path, lock_path: Path) -> int:
    """Open ``lock_path`` and take an exclusive ``flock`` on it without waiting; the descriptor
    (close-on-exec, so no child process keeps the lock after the server dies), holding the lock
    until it is closed or the process ends. Writes our pid into it for the next one's message.

    Raises:
        DatabaseInUse: another process holds it.
        DatabaseUnwritable: the lock file cannot be created or opened.
    """
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError as exc:
        if lock_path.exists():
            raise DatabaseUnwritable(f"the lock file {lock_path} is not writable: {exc.strerror}") from None
        raise DatabaseUnwritable(f"the database folder {lock_path.parent} is not writable (the lock file "
                                 f"{lock_path.name} cannot be created): {exc.strerror}") from None
    if fcntl is None:  # pragma: no cover - Windows
        return fd
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        try:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        except OSError:  # pragma: no cover
            holder = ""
        os.close(fd)
        if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):  # pragma: no cover
            raise DatabaseUnwritable(f"cannot lock {lock_path}: {exc.strerror}") from None
        pid = f" (pid {holder})" if holder.isdigit() else ""
        raise DatabaseInUse(f"the database {db} is in use by another citygames server{pid}: one server per "
                            f"SQLite file (stop that one first, or use PostgreSQL for several processes)") from None
    try:  # best effort: a full disk must not stop the lock itself
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except OSError:
        pass
    return fd


class DatabaseLock:
    """One server per SQLite file (issue 16, defect 3): an advisory exclusive ``flock`` on
    ``<db>.lock`` next to the database, held while a ``Repository`` is open on it. The kernel drops
    it when the process ends in any way (``kill -9`` included), so a stale lock never blocks the
    next start. Within one process a second ``Repository`` on the same file is refused too (two
    apps would each keep their own copy of the tables), unless the first has closed.

    ``hold_database`` (``citygames serve``) takes the lock for the life of the process before the
    app starts; the app's ``Repository`` then uses that lock instead of taking its own.

    Args:
        db: the SQLite file (absolute path).
    """

    def __init__(self, db: Path):
        self.db = db
        self.path = db.with_name(db.name + ".lock")
        self._key = str(self.path)

    def acquire(self) -> "DatabaseLock":
        """Take the lock; returns ``self``.

        Raises:
            DatabaseInUse: another process, or another open repository of this one, holds it.
            DatabaseUnwritable: the lock file cannot be created.
        """
        with _HELD_GUARD:
            held = _HELD.get(self._key)
            if held is not None:
                if held.process and held.user is None:
                    held.user = self
                    return self
                raise DatabaseInUse(f"the database {self.db} is already open in this process (another app "
                                    f"or server holds it): one server per SQLite file")
            _HELD[self._key] = _Held(fd=_flock(self.db, self.path), process=False, user=self)
        return self

    def release(self) -> None:
        """Give the lock back (a lock held for the process stays held). Idempotent."""
        with _HELD_GUARD:
            held = _HELD.get(self._key)
            if held is None or held.user is not self:
                return
            held.user = None
            if not held.process:
                del _HELD[self._key]
                os.close(held.fd)


def hold_database(url: str) -> None:
    """Take the lock of the SQLite file of ``url`` for the life of this process (``citygames
    serve``, issue 16 defect 3); a later ``Repository`` of this process on it uses this lock. No-op
    for PostgreSQL (several processes on one database are correct there) or a lock already held.

    Raises:
        DatabaseInUse: another server holds the file.
        DatabaseUnwritable: the lock file cannot be created.
    """
    db = sqlite_path(url)
    if db is None:
        return
    lock = DatabaseLock(db)
    with _HELD_GUARD:
        held = _HELD.get(lock._key)
        if held is not None:
            held.process = True
            return
        _HELD[lock._key] = _Held(fd=_flock(db, lock.path), process=True)


def check_writable(db: Path) -> None:
    """Refuse an SQLite file the server could not write (issue 16, defect 8): the folder must take
    new files (the ``-wal`` file), and the database and its ``-wal`` file, when they exist, must open
    for writing. (SQLite would open them read-only without a word and fail at the first move.)

    Raises:
        DatabaseUnwritable: one line naming the file and the reason.
    """
    folder = db.parent
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise DatabaseUnwritable(f"the database folder {folder} is not writable: {exc.strerror}") from None
    for path in (db, db.with_name(db.name + "-wal")):
        try:
            with open(path, "r+b"):
                pass
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise DatabaseUnwritable(f"the database file {path} is not writable: {exc.strerror}") from None


def _public_url(url: str) -> str:
    """``url`` without a password (for log lines)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # pragma: no cover - unparsable URLs never reach an engine
        return url.split("@")[-1]


class Repository:
    """Blocking data access. Every public method runs in its own transaction.

    On an SQLite file it holds the file's ``DatabaseLock`` until ``close()`` and opens the file
    through the ``unix-excl`` VFS (the WAL index in heap memory, no ``-shm`` file; other processes
    cannot open the file meanwhile, which the lock promises anyway). ``health`` tracks whether
    writes succeed; a write that fails for a storage fault raises ``StorageUnavailable``.

    Args:
        url: an SQLAlchemy URL (``sqlite:///...``, ``postgresql+psycopg://...``); see
            ``resolve_db_url``.

    Raises:
        DatabaseInUse: another server holds the SQLite file (issue 16, defect 3).
        DatabaseUnwritable: the SQLite file, its ``-wal`` file or its folder is not writable.
    """

    def __init__(self, url: str):
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.path = sqlite_path(url)
        self.lock = DatabaseLock(self.path).acquire() if self.path is not None else None
        try:
            self._open()
        except BaseException:
            if self.lock is not None:
                self.lock.release()
            raise

    def _open(self) -> None:
        url = self.url
        self.health = StorageHealth(str(self.path) if self.path is not None else _public_url(url))
        kwargs: dict = {"future": True}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
        if self.path is not None:
            check_writable(self.path)
            # unix-excl: the WAL index lives in heap memory shared by this process's connections
            # instead of a memory-mapped <db>-shm file, whose truncation or loss of write access
            # killed the server with SIGBUS (issue 16, defect 8)
            uri = "file:" + urllib.parse.quote(str(self.path)) + "?vfs=unix-excl"
            kwargs.pop("connect_args")
            kwargs["creator"] = lambda: sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=30)
        self.engine = create_engine(url, **kwargs)
        if self.is_sqlite:
            @event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.execute("PRAGMA busy_timeout=30000")
                cur.close()
        try:
            Base.metadata.create_all(self.engine)
        except BaseException:
            self.engine.dispose()
            raise

    def close(self) -> None:
        """Close every connection and give the SQLite file's lock back."""
        self.engine.dispose()
        if self.lock is not None:
            self.lock.release()

    @contextmanager
    def _write(self):
        """A write transaction (``engine.begin()``) reporting to ``health``: a storage fault
        raises ``StorageUnavailable`` (nothing is written); a commit marks the storage healthy."""
        try:
            with self.engine.begin() as conn:
                yield conn
        except DBAPIError as exc:
            reason = storage_fault(exc)
            if reason is None:
                raise
            self.health.failed(reason)
            raise StorageUnavailable(reason) from exc
        self.health.succeeded()

    # --- tables ------------------------------------------------------------------------------
    def insert_table(self, t: TableData) -> bool:
        """Store a new table; ``False`` if its id is taken."""
        try:
            with self._write() as conn:
                conn.execute(insert(TableRow).values(
                    id=t.id, game=t.game, options=t.options, seed=t.seed, seats=t.seats, status=t.status,
                    seq=t.seq, created_at=t.created_at, finished_at=t.finished_at, result=t.result))
        except IntegrityError:
            return False
        return True

    def get_table(self, table_id: str) -> TableData | None:
        """The table ``table_id``; ``None`` when there is none, or when its row cannot be read as
        a table (damaged; logged): one bad row answers as an unknown table, never as an error."""
        with self.engine.connect() as conn:
            row = conn.execute(select(TableRow).where(TableRow.id == table_id)).first()
        if row is None:
            return None
        try:
            return _tuple_data(row)
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            log.warning("table row %r cannot be read: %s", table_id, exc)
            return None

    def list_tables(self, status: str | None = None, limit: int | None = 200) -> list[TableData]:
        """Tables, newest first (at most ``limit``; ``None``: all). A row that cannot be read as
        a table (a damaged or hand-edited row: seats not a list of objects, options not an
        object, ...) is left out and logged, so one bad row never breaks a listing (issue 16,
        defect 1)."""
        q = select(TableRow).order_by(TableRow.created_at.desc(), TableRow.id).limit(limit)
        if status is not None:
            q = q.where(TableRow.status == status)
        out = []
        with self.engine.connect() as conn:
            for r in conn.execute(q):
                try:
                    out.append(_tuple_data(r))
                except (TypeError, ValueError, KeyError, AttributeError) as exc:
                    log.warning("table row %r cannot be read and is left out of the listing: %s",
                                r._mapping.get("id"), exc)
        return out

    def unfinished(self) -> list[tuple[TableData, list[tuple[int, int, int]]]]:
        """Every open table with its actions ``(seq, seat, action)`` in order."""
        out = []
        with self.engine.connect() as conn:
            rows = [_tuple_data(r) for r in conn.execute(
                select(TableRow).where(TableRow.status == "open").order_by(TableRow.created_at))]
            for t in rows:
                out.append((t, self._actions(conn, t.id)))
        return out

    def actions(self, table_id: str) -> list[tuple[int, int, int]]:
        """``(seq, seat, action)`` of every action of the table, in order."""
        with self.engine.connect() as conn:
            return self._actions(conn, table_id)

    @staticmethod
    def _actions(conn, table_id: str) -> list[tuple[int, int, int]]:
        q = (select(ActionRow.seq, ActionRow.seat, ActionRow.action)
             .where(ActionRow.table_id == table_id).order_by(ActionRow.seq))
        return [(r.seq, r.seat, r.action) for r in conn.execute(q)]

    # --- actions -----------------------------------------------------------------------------
    def append_action(self, table_id: str, seq: int, seat: int, action: int, result: dict | None = None) -> None:
        """Append the ``seq``-th action and advance the table to ``seq + 1`` in one transaction;
        with ``result`` the table is finished in the same transaction.

        Raises:
            StaleWrite: the stored seq is not ``seq`` (nothing is written).
        """
        outcome = self.append_actions([(table_id, seq, seat, action, result)])[0]
        if outcome is not None:
            raise outcome

    def append_actions(self, batch: list[tuple]) -> list[StaleWrite | None]:
        """Group commit: append several actions ``(table_id, seq, seat, action, result)`` of
        different tables in one transaction. Each item is checked like ``append_action``; the
        answer holds, per item, ``None`` (stored) or the ``StaleWrite`` that refused it (nothing of
        that item is written). If the transaction fails as a whole, every item is retried alone.
        """
        try:
            with self._write() as conn:
                return [self._append(conn, *item) for item in batch]
        except IntegrityError:
            if len(batch) == 1:
                table_id, seq = batch[0][:2]
                return [StaleWrite(f"action {seq} of table {table_id} exists already")]
        out: list[StaleWrite | None] = []
        for item in batch:
            try:
                with self._write() as conn:
                    out.append(self._append(conn, *item))
            except IntegrityError:
                out.append(StaleWrite(f"action {item[1]} of table {item[0]} exists already"))
        return out

    @staticmethod
    def _append(conn, table_id: str, seq: int, seat: int, action: int, result: dict | None) -> StaleWrite | None:
        if result is None:
            res = conn.execute(_ADVANCE, {"next": seq + 1, "id": table_id, "seq": seq})
        else:
            res = conn.execute(update(TableRow).where(
                TableRow.id == table_id, TableRow.seq == seq, TableRow.status == "open").values(
                seq=seq + 1, status="finished", finished_at=now(), result=result))
        if res.rowcount != 1:  # the update changed nothing: skip the insert, nothing is written
            return StaleWrite(f"table {table_id} is not open at seq {seq}")
        conn.execute(_INSERT_ACTION, {"id": table_id, "seq": seq, "seat": seat, "action": action,
                                      "created": now()})
        return None

    def delete_last_action(self, table_id: str, seq: int) -> None:
        """Undo: delete the ``seq``-th action (the last one) and set the table back to ``seq``.

        Raises:
            StaleWrite: the table is not at ``seq + 1``.
        """
        with self._write() as conn:
            res = conn.execute(update(TableRow).where(TableRow.id == table_id, TableRow.seq == seq + 1,
                                                      TableRow.status == "open").values(seq=seq))
            if res.rowcount != 1:
                raise StaleWrite(f"table {table_id} is not open at seq {seq + 1}")
            conn.execute(delete(ActionRow).where(ActionRow.table_id == table_id, ActionRow.seq == seq))

    def delete_action(self, table_id: str, index: int, seq: int) -> None:
        """Change of a choice in a simultaneous step: delete the ``index``-th action of a table at
        ``seq`` (``index < seq``; not necessarily the last one: the other seats may have chosen
        since), renumber the actions after it one down and set the table back to ``seq - 1``, in
        one transaction.

        Raises:
            StaleWrite: the table is not open at ``seq`` (nothing is changed).
        """
        with self._write() as conn:
            res = conn.execute(update(TableRow).where(TableRow.id == table_id, TableRow.seq == seq,
                                                      TableRow.status == "open").values(seq=seq - 1))
            if res.rowcount != 1:
                raise StaleWrite(f"table {table_id} is not open at seq {seq}")
            conn.execute(delete(ActionRow).where(ActionRow.table_id == table_id, ActionRow.seq == index))
            # two passes through negative numbers: shifting in place would collide with the primary key
            # (table_id, seq) row by row on SQLite and PostgreSQL alike
            conn.execute(update(ActionRow).where(ActionRow.table_id == table_id, ActionRow.seq > index)
                         .values(seq=-ActionRow.seq - 1))
            conn.execute(update(ActionRow).where(ActionRow.table_id == table_id, ActionRow.seq < 0)
                         .values(seq=-ActionRow.seq - 2))

    def finish(self, table_id: str, result: dict) -> None:
        """Mark a table finished (used when a restored record turns out to be complete)."""
        with self._write() as conn:
            conn.execute(update(TableRow).where(TableRow.id == table_id)
                         .values(status="finished", finished_at=now(), result=result))

    def count_actions(self, table_id: str) -> int:
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(ActionRow)
                                .where(ActionRow.table_id == table_id)).scalar_one()


    # --- names and chat (issue 15: names, chat) --------------------------------------------------
    def set_seat_name(self, table_id: str, seat: int, name: str) -> list:
        """Store ``name`` as the name of ``seat`` in the table's ``seats`` JSON (key ``name``; the
        optional key ``named`` records that the player chose it); returns the new seats list.

        Raises:
            KeyError: no such table or seat.
        """
        with self._write() as conn:
            row = conn.execute(select(TableRow.seats).where(TableRow.id == table_id)).first()
            if row is None:
                raise KeyError(table_id)
            seats = [dict(s) for s in row.seats]
            if not 0 <= seat < len(seats):
                raise KeyError(seat)
            seats[seat]["name"] = name
            seats[seat]["named"] = True
            conn.execute(update(TableRow).where(TableRow.id == table_id).values(seats=seats))
        return seats

    def add_chat(self, table_id: str, seat: int | None, name: str, text: str) -> dict:
        """Append a chat message to the table; returns it as ``{n, seat, name, text, at}`` (``at``:
        ISO 8601 UTC). ``n`` is one more than the table's last message (a retry on a clash, for
        two servers on one PostgreSQL database)."""
        for _ in range(5):
            try:
                with self._write() as conn:
                    last = conn.execute(select(func.max(ChatRow.n)).where(ChatRow.table_id == table_id)).scalar()
                    n = 0 if last is None else last + 1
                    created = now()
                    conn.execute(insert(ChatRow).values(table_id=table_id, n=n, seat=seat, name=name, text=text,
                                                        created=created))
                return {"n": n, "seat": seat, "name": name, "text": text, "at": iso(created)}
            except IntegrityError:
                continue
        raise StaleWrite(f"chat of table {table_id}: could not number the message")

    def recent_chat(self, table_id: str, limit: int = 100) -> list[dict]:
        """The last ``limit`` chat messages of the table, oldest first, as ``add_chat`` returns them."""
        q = (select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.n.desc()).limit(limit))
        with self.engine.connect() as conn:
            rows = [r._mapping for r in conn.execute(q)]
        return [{"n": r["n"], "seat": r["seat"], "name": r["name"], "text": r["text"], "at": iso(r["created"])}
                for r in reversed(rows)]

def _tuple_data(row) -> TableData:
    """A ``select(TableRow)`` result row (plain columns on a Core connection) as ``TableData``."""
    m = row._mapping
    return TableData(id=m["id"], game=m["game"], options=dict(m["options"]), seed=int(m["seed"]),
                     seats=[dict(s) for s in m["seats"]], status=m["status"], seq=m["seq"],
                     created_at=m["created_at"], finished_at=m["finished_at"], result=m["result"])
