"""Storage faults of the table server (issue 16, defects 6, 8 and 10): which database errors mean
"the storage cannot take writes now" (a full disk, a read-only or unreadable file, an I/O error, an
unreachable PostgreSQL), the server's storage health with one log line per transition, and the
back-off of a bot whose move could not be stored.

The repository (``db.Repository``) reports every write to a ``StorageHealth`` and turns a storage
fault into ``StorageUnavailable``; the table manager answers it with a refusal that starts with
``STORAGE_REFUSAL`` (actions) or a 503 (``POST /api/tables``), and bots retry after
``retry_delay(n)`` seconds. Health is the outcome of the last write: the first write that succeeds
after a fault (a bot's retry, a player's action, a new table) logs the recovery. See PROTOCOL.md,
"Storage faults".
"""

from __future__ import annotations

import logging
import threading
import time

from sqlalchemy.exc import DBAPIError, OperationalError

log = logging.getLogger("citygames.server")

#: every refusal of an action caused by the storage starts with this (PROTOCOL.md, "Storage faults")
STORAGE_REFUSAL = "storage unavailable"
#: a bot's first retry after a storage fault waits this long (seconds); each next one twice as long
RETRY_FIRST = 0.5
#: ... up to this (seconds)
RETRY_MAX = 30.0

# primary SQLite result codes (https://sqlite.org/rescode.html) that mean the storage, not the
# statement, is at fault; extended codes (SQLITE_IOERR_WRITE = 778, ...) carry them in the low byte
_SQLITE_FAULTS = {
    3: "permission denied",                          # SQLITE_PERM
    5: "the database is locked",                     # SQLITE_BUSY (after the 30 s busy timeout)
    6: "the database is locked",                     # SQLITE_LOCKED
    8: "the database is read-only",                  # SQLITE_READONLY
    10: "disk I/O error",                            # SQLITE_IOERR
    11: "the database file is damaged",              # SQLITE_CORRUPT
    13: "the disk is full",                          # SQLITE_FULL
    14: "the database file cannot be opened",        # SQLITE_CANTOPEN
    22: "the file system refuses large files",       # SQLITE_NOLFS
    26: "the file is not a database",                # SQLITE_NOTADB
}
# the same, by message, for an sqlite3 module without ``sqlite_errorcode``
_SQLITE_MESSAGES = {
    "database or disk is full": "the disk is full",
    "attempt to write a readonly database": "the database is read-only",
    "disk i/o error": "disk I/O error",
    "unable to open database file": "the database file cannot be opened",
    "database is locked": "the database is locked",
}


class StorageUnavailable(Exception):
    """A write failed because the storage cannot take it now (defect 10): ``reason`` is a short
    text for people ("the disk is full", "the database is read-only", ...). Nothing of the write is
    stored; the same write may succeed once the fault clears."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def storage_fault(exc: BaseException) -> str | None:
    """The reason (short text) if ``exc``, a database error, is a storage fault; else ``None``
    (a constraint violation, a bad statement: a bug or a conflict, not the storage).

    SQLite: by the primary result code (``SQLITE_FULL``, ``SQLITE_READONLY``, ``SQLITE_IOERR``,
    ``SQLITE_CANTOPEN``, ...). PostgreSQL (psycopg 3): by SQLSTATE (class 53 insufficient
    resources, e.g. 53100 disk full; 25006 read-only transaction; class 08 connection; 57P0x
    shutdown; class 58 system I/O) and any ``OperationalError`` without one (server unreachable).
    """
    orig = getattr(exc, "orig", None) if isinstance(exc, DBAPIError) else exc
    if orig is None:
        return None
    code = getattr(orig, "sqlite_errorcode", None)
    if code is not None:
        why = _SQLITE_FAULTS.get(code & 0xFF)
        name = getattr(orig, "sqlite_errorname", None)
        return f"{why} ({name})" if why and name else why
    if type(orig).__module__.startswith("sqlite3"):
        text = str(orig).lower()
        return next((why for msg, why in _SQLITE_MESSAGES.items() if msg in text), None)
    state = getattr(orig, "sqlstate", None)
    if state:
        if state == "53100":
            return "the disk is full"
        if state.startswith("53"):
            return f"the database server is out of resources (SQLSTATE {state})"
        if state == "25006":
            return "the database is read-only"
        if state.startswith("08"):
            return f"the connection to the database failed (SQLSTATE {state})"
        if state.startswith("57P0"):
            return f"the database server is shutting down or starting (SQLSTATE {state})"
        if state.startswith("58"):
            return f"the database server has an I/O error (SQLSTATE {state})"
        return None
    if isinstance(exc, OperationalError):
        first = (str(orig).strip().splitlines() or [type(orig).__name__])[0]
        return f"the database cannot be reached ({first[:200]})"
    return None


class StorageHealth:
    """Whether the database took the last write (defect 10), logged once per transition.

    ``failed(reason)`` after a write failed for a storage fault: the first one logs ONE error line
    naming ``where`` and the reason (and a changed reason one more); ``succeeded()`` after a write
    committed: after a fault it logs ONE warning line (the recovery, how long it lasted, how many
    writes were refused). Thread-safe: the repository calls it from its database threads.

    Args:
        where: what to name in the log lines (the SQLite file, or the URL without password).
    """

    def __init__(self, where: str):
        self.where = where
        self.ok = True
        self.reason: str | None = None
        self.refused = 0
        self._since = 0.0
        self._lock = threading.Lock()

    def failed(self, reason: str) -> None:
        with self._lock:
            self.refused += 1
            if not self.ok and reason == self.reason:
                return
            if self.ok:
                self._since = time.monotonic()
                self.refused = 1
            self.ok, self.reason = False, reason
        log.error("storage fault on %s: %s; new tables and moves are refused until it clears "
                  "(bots retry by themselves)", self.where, reason)

    def succeeded(self) -> None:
        if self.ok:   # the common case, without taking the lock
            return
        with self._lock:
            if self.ok:
                return
            self.ok, reason, self.reason = True, self.reason, None
            lasted, refused = time.monotonic() - self._since, self.refused
        log.warning("storage recovered on %s: writes succeed again (%s lasted %.1f s, %d write(s) refused)",
                    self.where, reason, lasted, refused)


def retry_delay(attempt: int) -> float:
    """Seconds to wait before retry number ``attempt`` (1, 2, ...) of a write refused for a storage
    fault: ``RETRY_FIRST`` doubled each time, capped at ``RETRY_MAX`` (0.5, 1, 2, ..., 30, 30)."""
    return min(RETRY_MAX, RETRY_FIRST * 2 ** min(max(attempt, 1) - 1, 16))
