"""Several worker processes on one PostgreSQL database (issue 16, part 5: more than one core).

``citygames serve --workers N --db postgresql://...`` starts N uvicorn workers on one port
(``serve_workers``: uvicorn's own supervisor, ``workers=N`` with the app factory ``worker_app``
configured through the environment; it restarts a worker that dies). A socket lands on any
worker, and every worker keeps its own in-memory copy of the tables its sockets watch. The
database keeps them one game:

- **Commits are ordered by the database**, exactly as in one process: an action is appended with
  the optimistic seq check (``Repository.append_actions``); the loser gets ``StaleWrite``, catches
  up from the database (``TableManager.reload_table``) and its client hears "stale" as always.
- **Every change is announced by the database itself**: triggers (``install``) send
  ``NOTIFY citygames_tables`` in the transaction that stores an action (payload
  ``a <table> <seq> <seat> <action>``) or takes one back (undo, change of a choice: ``r <table>
  <new seq>``), so a notification exists exactly when the change is committed, whoever wrote it
  and however the writer dies afterwards.
- **Every worker listens** (``Cluster``: one psycopg 3 async connection, reconnecting on loss).
  Notifications from its own database sessions are skipped (it applied those at commit); for
  another worker's change to a table it holds, it applies the action when it is the next seq,
  reloads the table's rows otherwise (a gap, an undo, an action that does not apply), broadcasts
  to its own sockets and schedules its bots. Changes to one table are applied in order, under
  the table's lock, one drain task per table. A reload whose stored rows only extend the copy
  applies them one by one with a broadcast each, so a socket sees every seq even then.
- **A sweep** every ``SWEEP_SECONDS`` compares the seq of the tables in memory with the database
  and reloads a table whose copy differs twice in a row: the safety net for anything a
  notification could not cover (a table loaded while its change was on the way, a listener
  reconnecting).
- **Bots: exactly one worker drives a table's bots** -- the one holding the table's PostgreSQL
  advisory lock (``pg_try_advisory_lock`` on the worker's own lock session; key
  ``hashtextextended('citygames-bots:' || id, 0)``). A worker claims the lock when it needs the
  table's bots to move; when a worker dies its session ends, its locks are freed, and the next
  sweep of another worker claims the tables (open tables with a bot seat whose lock is free),
  loads them and resumes their bots. The lock only avoids wasted work: a second driver could not
  double an action (the seq check refuses it).

Every server on PostgreSQL takes part, one worker or several (``create_app``'s lifespan installs
the triggers and starts a ``Cluster``), so two separate ``serve`` processes on one database keep
one game too (defect 3: never silently split). The SQLite server is one process and has no
cluster: ``TableManager.cluster`` is ``None`` and the hooks cost one attribute test.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import sys
from typing import TYPE_CHECKING

from .tables import cancel_and_wait

if TYPE_CHECKING:  # pragma: no cover
    from .tables import Table, TableManager

log = logging.getLogger("citygames.server")

#: the NOTIFY channel of table changes
CHANNEL = "citygames_tables"
#: environment variable carrying the workers' configuration (JSON) from ``serve_workers``
CONFIG_ENV = "CITYGAMES_WORKER_CONFIG"
#: seconds between sweeps (seq check, bot tables whose driver is gone, locks of finished tables)
SWEEP_SECONDS = 1.0
#: the response header (HTTP and the WebSocket handshake) naming the worker process that answered
WORKER_HEADER = "x-citygames-worker"

_TRIGGERS_SQL = f"""
CREATE OR REPLACE FUNCTION citygames_notify_action() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('{CHANNEL}', 'a ' || NEW.table_id || ' ' || NEW.seq || ' ' || NEW.seat || ' ' || NEW.action);
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION citygames_notify_rewind() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.seq < OLD.seq THEN
    PERFORM pg_notify('{CHANNEL}', 'r ' || NEW.id || ' ' || NEW.seq);
  END IF;
  RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS citygames_action_notify ON actions;
CREATE TRIGGER citygames_action_notify AFTER INSERT ON actions
  FOR EACH ROW EXECUTE FUNCTION citygames_notify_action();
DROP TRIGGER IF EXISTS citygames_rewind_notify ON tables;
CREATE TRIGGER citygames_rewind_notify AFTER UPDATE OF seq ON tables
  FOR EACH ROW EXECUTE FUNCTION citygames_notify_rewind();
"""

_LOCK_KEY = "hashtextextended('citygames-bots:' || %s, 0)"

#: open tables with a bot seat whose bot lock nobody holds (a driver is needed)
_FREE_BOT_TABLES = """
SELECT t.id FROM tables t
WHERE t.status = 'open'
  AND EXISTS (SELECT 1 FROM json_array_elements(t.seats::json) s WHERE s->>'kind' = 'bot')
  AND NOT EXISTS (
    SELECT 1 FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.objsubid = 1
      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended('citygames-bots:' || t.id, 0))
LIMIT 200
"""


def libpq_url(url: str) -> str:
    """The libpq form (``postgresql://...``) of an SQLAlchemy PostgreSQL URL
    (``postgresql+psycopg://...``), for psycopg's own connections."""
    from sqlalchemy.engine import make_url
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def install(url: str) -> None:
    """Create (or replace) the notification triggers in the database at ``url`` (an SQLAlchemy
    PostgreSQL URL; the tables must exist). Serialized by an advisory transaction lock, so servers
    starting together do not collide.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database refused (e.g. no right to create triggers).
    """
    from sqlalchemy import create_engine, text
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtextextended('citygames-install', 0))"))
            conn.exec_driver_sql(_TRIGGERS_SQL)
    finally:
        engine.dispose()


class Cluster:
    """One worker's part in a cluster of workers sharing a PostgreSQL database (see the module).

    Args:
        manager: this worker's ``TableManager`` (its ``cluster`` attribute is set to this).
        url: the SQLAlchemy URL of the database.
    """

    def __init__(self, manager: "TableManager", url: str):
        self.manager = manager
        self.dsn = libpq_url(url)
        self.own_pids: set[int] = set()       # backend pids of this worker's SQLAlchemy sessions
        self.owned: set[str] = set()          # tables whose bot lock this worker holds
        self.claiming: set[str] = set()       # claims in flight, or refused (the sweep retries)
        self.pending: dict[str, list[tuple]] = {}    # table id -> changes waiting for its drain task
        self.draining: dict[str, asyncio.Task] = {}
        self.suspects: dict[str, tuple[int, int]] = {}   # table -> (db seq, memory seq) last sweep
        self.lock_conn = None
        self._lock_mutex = asyncio.Lock()
        self._tasks: list[asyncio.Task] = []
        self._stopping = False
        self.listening = asyncio.Event()
        self.notifications = 0                # received (a gauge for tests and logs)
        self._background: set[asyncio.Task] = set()   # claims and loads (tasks are weakly held)

    def _spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # --- start and stop ---------------------------------------------------------------------------
    async def start(self) -> None:
        """Record this worker's database sessions, open the lock session, and start listening and
        sweeping; returns once the listener is subscribed.

        Raises:
            psycopg.OperationalError: the database cannot be reached.
        """
        from sqlalchemy import event

        engine = self.manager.repo.engine

        @event.listens_for(engine, "connect")
        def _remember(dbapi_conn, record):
            record.info["citygames_pid"] = pid = dbapi_conn.info.backend_pid
            self.own_pids.add(pid)

        @event.listens_for(engine, "close")
        def _forget(_dbapi_conn, record):   # PostgreSQL reuses pids: a closed session's is not ours
            self.own_pids.discard(record.info.get("citygames_pid"))

        # sessions opened before the hook (the schema check) are closed: every later one is known
        await asyncio.to_thread(engine.dispose)
        self.lock_conn = await self._connect()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._sweep())]
        await asyncio.wait_for(self.listening.wait(), 30)

    async def _connect(self):
        """A psycopg async connection in autocommit, named ``citygames-worker-<pid>`` in
        ``pg_stat_activity`` (so an operator, or a test, can see which worker holds which lock)."""
        import psycopg
        return await psycopg.AsyncConnection.connect(self.dsn, autocommit=True,
                                                     application_name=f"citygames-worker-{os.getpid()}")

    async def stop(self) -> None:
        """Stop listening and sweeping and close the lock session (freeing this worker's bot locks)."""
        self._stopping = True
        await cancel_and_wait(self._tasks + list(self.draining.values()) + list(self._background))
        if self.lock_conn is not None:
            try:
                await self.lock_conn.close()
            except Exception:  # pragma: no cover - closing a broken connection
                pass

    # --- listening ----------------------------------------------------------------------------------
    async def _listen(self) -> None:
        delay = 0.1
        while not self._stopping:
            try:
                async with await self._connect() as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if self.listening.is_set():   # a reconnection: changes may have been missed
                        log.warning("worker %d: listening again on %s; checking every table", os.getpid(),
                                    CHANNEL)
                        self.suspects.clear()
                        for table in list(self.manager.tables.values()):
                            self._queue(table.id, ("r", None, None, None))
                    self.listening.set()
                    delay = 0.1
                    async for n in conn.notifies():
                        self.notifications += 1
                        if n.pid in self.own_pids:
                            continue
                        self._notified(n.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self._stopping:
                    return
                log.warning("worker %d: the %s listener lost its connection (%s); reconnecting", os.getpid(),
                            CHANNEL, exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    def _notified(self, payload: str) -> None:
        parts = payload.split()
        try:
            if parts[0] == "a" and len(parts) == 5:
                change = ("a", int(parts[2]), int(parts[3]), int(parts[4]))
            elif parts[0] == "r" and len(parts) == 3:
                change = ("r", int(parts[2]), None, None)
            else:
                raise ValueError(payload)
        except (ValueError, IndexError):
            log.warning("worker %d: ignoring an unexpected notification %r", os.getpid(), payload[:200])
            return
        tid = parts[1]
        if tid in self.manager.tables:
            self._queue(tid, change)
        elif tid in self.owned:   # a table whose bots this worker drives, not in memory: load it
            self._spawn(self.manager.get(tid))

    def _queue(self, tid: str, change: tuple) -> None:
        self.pending.setdefault(tid, []).append(change)
        if tid not in self.draining:
            self.draining[tid] = asyncio.get_running_loop().create_task(self._drain(tid))

    async def _drain(self, tid: str) -> None:
        """Apply the queued changes of table ``tid`` in order, under its lock, broadcasting after
        each action (a reload broadcasts after each row it adds, or once after a replay); then
        schedule its bots."""
        m = self.manager
        try:
            while True:
                changes = self.pending.pop(tid, None)
                table = m.tables.get(tid)
                if not changes or table is None:
                    return
                async with table.lock:
                    reload = False
                    for kind, seq, seat, action in changes:
                        if kind == "r" or seq > table.seq:   # an undo, or a gap: read the rows
                            reload = True
                            break
                        if seq == table.seq:
                            if not m.apply_remote(table, seat, action):
                                reload = True
                                break
                            m.broadcast(table)   # one state per action: every socket sees every seq
                        # seq < table.seq: this copy has it already (a catch-up came first)
                    if reload:
                        await m.reload_table(table)
                m.schedule_bots(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("worker %d: applying a change of table %s failed", os.getpid(), tid)
        finally:
            if self.draining.get(tid) is asyncio.current_task():
                del self.draining[tid]
            if tid in self.pending and not self._stopping:   # queued while the task was ending
                self.draining[tid] = asyncio.get_running_loop().create_task(self._drain(tid))

    # --- bots ---------------------------------------------------------------------------------------
    def drives(self, table: "Table") -> bool:
        """Whether this worker drives ``table``'s bots now. When nobody is known to, a claim of
        the table's bot lock starts in the background (it schedules the bots when it wins)."""
        tid = table.id
        if tid in self.owned:
            return True
        if tid not in self.claiming and any(s["kind"] == "bot" for s in table.data.seats):
            self.claiming.add(tid)
            self._spawn(self._claim(tid))
        return False

    async def _try_lock(self, tid: str) -> bool:
        async with self._lock_mutex:
            cur = await self.lock_conn.execute(f"SELECT pg_try_advisory_lock({_LOCK_KEY})", (tid,))
            row = await cur.fetchone()
        return bool(row and row[0])

    async def _claim(self, tid: str) -> None:
        try:
            won = await self._try_lock(tid)
        except Exception as exc:
            log.warning("worker %d: claiming the bots of table %s failed: %s", os.getpid(), tid, exc)
            return
        if not won:
            return   # another worker drives them; the sweep takes over if it dies
        self.owned.add(tid)
        self.claiming.discard(tid)
        table = self.manager.tables.get(tid)
        if table is None:
            table = await self.manager.get(tid)
        if table is not None:
            self.manager.schedule_bots(table)

    async def _release(self, tid: str) -> None:
        self.owned.discard(tid)
        self.claiming.discard(tid)
        async with self._lock_mutex:
            await self.lock_conn.execute(f"SELECT pg_advisory_unlock({_LOCK_KEY})", (tid,))

    # --- the sweep ----------------------------------------------------------------------------------
    async def _sweep(self) -> None:
        while not self._stopping:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                if self.lock_conn is None or self.lock_conn.closed:
                    # the lock session is gone and every lock with it: open a new one, claim again
                    self.owned.clear()
                    self.claiming.clear()
                    self.lock_conn = await self._connect()
                await self._sweep_once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("worker %d: sweep failed: %s", os.getpid(), exc)
                if self.lock_conn is not None and self.lock_conn.broken:
                    try:
                        await self.lock_conn.close()
                    except Exception:  # pragma: no cover
                        pass

    async def _sweep_once(self) -> None:
        m = self.manager
        # 1. copies that differ from the database twice in a row are reloaded
        ids = list(m.tables)
        if ids:
            async with self._lock_mutex:
                cur = await self.lock_conn.execute("SELECT id, seq FROM tables WHERE id = ANY(%s)", (ids,))
                rows = await cur.fetchall()
            suspects = {}
            for tid, seq in rows:
                table = m.tables.get(tid)
                if table is not None and table.seq != seq and tid not in self.draining:
                    pair = (seq, table.seq)
                    if self.suspects.get(tid) == pair:
                        log.warning("worker %d: table %s at seq %d here but %d stored: reloading", os.getpid(),
                                    tid, table.seq, seq)
                        self._queue(tid, ("r", seq, None, None))
                    else:
                        suspects[tid] = pair
            self.suspects = suspects
        # 2. locks of finished tables are released
        for tid in list(self.owned):
            table = m.tables.get(tid)
            if table is not None and table.finished:
                await self._release(tid)
        # 3. bot tables nobody drives (their worker died, or nobody needed them yet) are claimed
        async with self._lock_mutex:
            cur = await self.lock_conn.execute(_FREE_BOT_TABLES)
            free = [r[0] for r in await cur.fetchall()]
        for tid in free:
            self.claiming.add(tid)
            await self._claim(tid)


async def start_cluster(app, manager: "TableManager") -> Cluster | None:
    """Start this worker's ``Cluster`` when the app was made by ``worker_app`` (several workers);
    ``None`` otherwise (one process: nothing runs, nothing costs). Sets ``manager.cluster``."""
    if not getattr(app.state, "cluster_url", None):
        return None
    cluster = Cluster(manager, app.state.cluster_url)
    manager.cluster = cluster
    await cluster.start()
    log.info("worker %d listening on %s", os.getpid(), CHANNEL)
    return cluster


class WorkerHeader:
    """ASGI middleware: every HTTP response and WebSocket handshake carries ``x-citygames-worker:
    <pid>``, so a client (and the tests) can tell which worker answered."""

    def __init__(self, app):
        self.app = app
        self.header = (WORKER_HEADER.encode(), str(os.getpid()).encode())

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)

        async def send_with_header(message):
            if message["type"] in ("http.response.start", "websocket.accept"):
                message = dict(message)
                message["headers"] = list(message.get("headers") or []) + [self.header]
            await send(message)

        return await self.app(scope, receive, send_with_header)


#: the youngest generation's collection threshold of a server process (CPython's default: 700)
GC_YOUNG_THRESHOLD = 50_000


def tune_gc() -> None:
    """The garbage collector's settings for a server process (issue 16, part 5: found by the
    capacity ramp). Everything loaded so far is frozen out of the collector, and the youngest
    generation is collected every ``GC_YOUNG_THRESHOLD`` allocations instead of 700: with the
    default, objects that live a few seconds (a table's state between two actions, a queued
    message) reach the oldest generation, which then fills fast enough to trigger a full collection
    every one or two seconds, each a pause of 250-350 ms over the thousands of sockets' objects at
    1,400 tables, and p95 goes past 100 ms with the CPU mostly idle. With it, a young collection
    is a pause of a few ms and a full one is rare. (Nothing changes for reference counting: objects
    are freed as before; only cycles wait longer.)"""
    import gc
    gc.collect()
    gc.freeze()
    _, mid, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, mid, old)


def _die_with_parent() -> None:
    """Ask Linux to SIGTERM this worker when its parent (the supervisor) dies, even by SIGKILL,
    and exit at once if the parent is already gone."""
    parent = os.environ.get("CITYGAMES_SUPERVISOR_PID")
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGTERM, 0, 0, 0)   # PR_SET_PDEATHSIG
        except Exception:  # pragma: no cover - no prctl: the supervisor's own shutdown still works
            pass
    if parent and os.getppid() != int(parent):
        os._exit(0)


def worker_app():
    """The app factory each worker process runs (``uvicorn ... --factory``): ``create_app`` with
    the configuration ``serve_workers`` put in ``CITYGAMES_WORKER_CONFIG`` (JSON: ``url`` and the
    keyword arguments of ``create_app``), marked to start a ``Cluster``, behind ``WorkerHeader``."""
    from citygames.core import load_game, registered_games

    from .app import create_app

    _die_with_parent()
    config = json.loads(os.environ[CONFIG_ENV])
    url = config.pop("url")
    app = create_app(url, **config)
    app.state.cluster_url = url
    for game_id in registered_games():  # import every engine now rather than during play
        try:
            load_game(game_id)
        except Exception:  # pragma: no cover
            pass
    tune_gc()
    return WorkerHeader(app)


def serve_workers(url: str, host: str, port: int, workers: int, **app_kwargs) -> None:
    """Run ``workers`` uvicorn worker processes of the table server on ``host:port`` (blocks until
    stopped). ``url`` must be a PostgreSQL SQLAlchemy URL; ``app_kwargs`` go to ``create_app``.

    uvicorn's own supervisor (``workers=``) is used rather than gunicorn: it is already a
    dependency, binds the port once and hands the socket to every worker, restarts a worker that
    dies, and stops them all on SIGINT/SIGTERM.

    Raises:
        ValueError: ``url`` is not PostgreSQL, or ``workers < 2``.
    """
    import uvicorn

    from .app import WS_MAX_FRAME

    if not url.startswith("postgresql"):
        raise ValueError("several workers need PostgreSQL")
    if workers < 2:
        raise ValueError("serve_workers is for two workers or more")
    install(url)
    os.environ[CONFIG_ENV] = json.dumps(dict(app_kwargs, url=url))
    os.environ["CITYGAMES_SUPERVISOR_PID"] = str(os.getpid())
    uvicorn.run("citygames.server.cluster:worker_app", factory=True, workers=workers, host=host, port=port,
                ws_max_size=WS_MAX_FRAME, ws_per_message_deflate=False, log_level="warning",
                timeout_graceful_shutdown=3)
