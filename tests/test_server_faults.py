"""Storage faults of the table server (issue 16): one server per SQLite file (defect 3), an
unwritable database refused at start and survived while running (defect 8), a full disk or a
read-only database answered with 503 and one log line, recovering by itself (defect 10), and bots
that retry a move the storage refused (defect 6). See PROTOCOL.md, "Storage faults".

The faults are real: a second ``citygames serve`` process, ``kill -9``, ``chattr +i`` (root) or
``chmod`` (otherwise) on the files, and a size-limited tmpfs filled to the last byte (root; the
tests that need root or a mount skip without them).
"""

from __future__ import annotations

import errno
import logging
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from citygames.core import replay
from citygames.server.db import DatabaseInUse
from citygames.server.health import RETRY_FIRST, RETRY_MAX, STORAGE_REFUSAL, retry_delay

from pg_helpers import postgres  # noqa: F401  (the session fixture)
from server_helpers import create, free_port, next_error, next_state, server, until, wait_until, watchdog, ws_path
from test_server_restart import Server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
BOTS_ONLY = {"game": "the_capitals", "seats": [{"kind": "bot", "bot": "random"}] * 3}


@pytest.fixture(autouse=True)
def _watchdog():
    with watchdog(120):
        yield


@pytest.fixture(autouse=True)
def _this_checkout(monkeypatch):
    """Server subprocesses run in another folder: they import citygames from this checkout (a
    relative PYTHONPATH such as ``.`` would find another one, or none)."""
    root = str(Path(__file__).resolve().parent.parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))



def _serve_once(db: Path, cwd: Path) -> subprocess.CompletedProcess:
    """``citygames serve --db DB`` expected to refuse to start (a server that starts anyway is
    stopped by the timeout and fails the test)."""
    return subprocess.run([sys.executable, "-m", "citygames.cli", "serve", "--host", "127.0.0.1",
                           "--port", str(free_port()), "--db", str(db)], cwd=cwd, capture_output=True,
                          text=True, timeout=60, env=dict(os.environ, PYTHONUNBUFFERED="1"))


def _one_line_refusal(out: subprocess.CompletedProcess) -> str:
    """The single line a refused ``serve`` printed (exit code 1 or 2, no traceback)."""
    assert out.returncode in (1, 2), (out.returncode, out.stdout, out.stderr)
    text = (out.stdout + out.stderr).strip()
    assert "Traceback" not in text
    lines = text.splitlines()
    assert len(lines) == 1, text
    return lines[0]


@contextmanager
def _unwritable(path: Path):
    """``path`` cannot be written while the block runs: ``chattr +i`` as root (chmod does not stop
    root), ``chmod`` otherwise; put back afterwards."""
    if IS_ROOT:
        r = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
        if r.returncode != 0:
            pytest.skip(f"chattr +i does not work here: {r.stderr.strip()}")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)



# --- defect 3: one server per SQLite file ---------------------------------------------------------
def test_a_second_app_on_the_same_file_is_refused(tmp_path):
    db = tmp_path / "t.sqlite3"
    with server(db) as first:
        t = create(first, ["human", "human"])
        with pytest.raises(DatabaseInUse, match="already open in this process") as refused:
            with server(db):
                pass
        assert str(db) in str(refused.value)
        assert first.get(f"/api/tables/{t['table_id']}").status_code == 200   # the first is unharmed
        assert first.post("/api/tables", json=BOTS_ONLY).status_code == 201
    with server(db) as again:   # closed: the file is free
        assert again.get(f"/api/tables/{t['table_id']}").json()["table_id"] == t["table_id"]


def test_a_second_real_server_is_refused_and_kill_9_frees_the_file(tmp_path):
    db = tmp_path / "t.sqlite3"
    first = Server(db, tmp_path)
    try:
        r = httpx.post(first.url + "/api/tables", json=BOTS_ONLY)
        assert r.status_code == 201
        tid = r.json()["table_id"]
        line = _one_line_refusal(_serve_once(db, tmp_path))
        assert "in use by another citygames server" in line and str(db) in line
        assert f"pid {first.proc.pid}" in line
        assert first.proc.poll() is None
        assert httpx.post(first.url + "/api/tables", json=BOTS_ONLY).status_code == 201
    finally:
        first.kill()   # SIGKILL: the server releases nothing itself; the kernel drops the flock
    second = Server(db, tmp_path)
    try:
        assert httpx.get(f"{second.url}/api/tables/{tid}").status_code == 200
    finally:
        second.stop()


# --- defect 8: unwritable files ---------------------------------------------------------------------
@pytest.mark.parametrize("target", ["file", "folder", "empty folder"])
def test_an_unwritable_database_is_refused_at_start(tmp_path, target):
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "t.sqlite3"
    if target != "empty folder":
        with server(db) as client:
            create(client, ["human", "human"])
    path = db if target == "file" else folder
    with _unwritable(path):
        line = _one_line_refusal(_serve_once(db, tmp_path))
    assert "not writable" in line and str(path) in line


@pytest.mark.skipif(not IS_ROOT, reason="needs root (chattr +i) to make open files unwritable")
def test_an_unwritable_wal_is_refused_at_start_and_survived_while_running(tmp_path):
    """The -wal file left by a killed server, made immutable, is named at start; made immutable
    while the server runs it costs one log line, 503s and refused moves, never the process (the
    audit's SIGBUS came from the memory-mapped -shm file, which is not used at all now: a planted,
    immutable -shm does not matter). When it clears, the bots' tables move on by themselves."""
    db = tmp_path / "t.sqlite3"
    wal, shm = Path(f"{db}-wal"), Path(f"{db}-shm")
    srv = Server(db, tmp_path)
    try:
        tid = httpx.post(srv.url + "/api/tables", json={"game": "the_capitals", "seats": [{"kind": "human"}] * 2}
                         ).json()["table_id"]
    finally:
        srv.kill()
    assert wal.exists()
    with _unwritable(wal):
        line = _one_line_refusal(_serve_once(db, tmp_path))
    assert "not writable" in line and str(wal) in line

    shm.write_bytes(b"")
    with _unwritable(shm):
        srv = Server(db, tmp_path)
        try:
            assert httpx.get(f"{srv.url}/api/tables/{tid}").status_code == 200
            # bot-only tables play about 200 moves at full speed: the fault comes in the middle
            tables = [httpx.post(srv.url + "/api/tables", json=BOTS_ONLY).json()["table_id"] for _ in range(3)]

            def summaries():
                return [httpx.get(f"{srv.url}/api/tables/{t}").json() for t in tables]

            with _unwritable(wal):
                r = httpx.post(srv.url + "/api/tables", json=BOTS_ONLY)
                assert r.status_code == 503 and r.headers["retry-after"] == "30"
                assert r.json()["error"].startswith(STORAGE_REFUSAL) and "I/O error" in r.json()["error"]
                frozen = summaries()
                assert any(s["status"] == "open" for s in frozen), "the bots finished before the fault"
                time.sleep(1)   # the bots try (and are refused) meanwhile
                assert summaries() == frozen       # nothing is stored
                assert httpx.post(srv.url + "/api/tables", json=BOTS_ONLY).status_code == 503
                assert srv.proc.poll() is None
            # no restart: every table finishes once the file is writable again
            wait_until(lambda: all(s["status"] == "finished" for s in summaries()), 60, "the bots finishing")
            assert httpx.post(srv.url + "/api/tables", json=BOTS_ONLY).status_code == 201
            for done in summaries():
                rec = httpx.get(f"{srv.url}/api/tables/{done['table_id']}/record").json()
                assert len(rec["actions"]) == done["seq"]
                assert replay(rec).scores() == done["result"]["scores"]   # nothing lost or doubled
            assert not shm.stat().st_size   # the planted -shm was never used
            log = srv.log()
        finally:
            srv.stop()
    assert log.count("storage fault on") == 1 and str(db) in log
    assert log.count("storage recovered on") == 1
    refused = int(log.split("storage recovered on", 1)[1].split(" write(s) refused")[0].rsplit(" ", 1)[-1])
    assert refused > 2   # the two new tables and at least one bot's move
    assert "Traceback" not in log and "Fatal Python error" not in log


# --- defect 10 and 6: a full disk -----------------------------------------------------------------
@pytest.fixture
def small_disk(tmp_path):
    """A 2 MiB tmpfs mounted for the test (root only)."""
    if not IS_ROOT:
        pytest.skip("needs root to mount a small file system")
    mnt = tmp_path / "disk"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mnt)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def _fill(folder: Path) -> Path:
    """Write a file into ``folder`` until the disk is full; the file."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 65536)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def test_a_full_disk_answers_503_logs_once_and_bots_resume(small_disk, caplog):
    db = small_disk / "t.sqlite3"
    with server(db, bot_delay=1000) as client:   # bots wait "forever": the bot is to move at the restart
        t1 = create(client, ["human", "bot:greedy", "bot:greedy"], seed=5)
        t2 = create(client, ["human", "human"], seed=6)
        with client.websocket_connect(ws_path(t1, 0)) as w:
            st = next_state(w)
            if st["to_move"] == [0]:
                w.send_json({"type": "action", "seq": 0, "action": st["legal"][0]["id"]})
                st = next_state(w, 1)
            waiting = st["seq"]
            assert st["to_move"] in ([1], [2])
    filler = _fill(small_disk)
    caplog.set_level(logging.WARNING, logger="citygames.server")
    with server(db, bot_delay=0) as client:
        r = client.post("/api/tables", json=BOTS_ONLY)
        assert r.status_code == 503 and r.headers["retry-after"] == "30"
        assert r.json()["error"].startswith(STORAGE_REFUSAL) and "disk is full" in r.json()["error"]
        assert client.post("/api/tables", json=BOTS_ONLY).status_code == 503
        first = t2_seat = None
        with client.websocket_connect(ws_path(t2, 0)) as w0, client.websocket_connect(ws_path(t2, 1)) as w1:
            for seat, w in enumerate((w0, w1)):
                st = next_state(w)
                if seat in st["to_move"]:
                    t2_seat, first = seat, st["legal"][0]["id"]
                    w.send_json({"type": "action", "seq": 0, "action": first})
                    err = next_error(w)
                    assert err["message"].startswith(STORAGE_REFUSAL) and err["seq"] == 0
        with client.websocket_connect(ws_path(t1)) as spectator:
            assert next_state(spectator)["seq"] == waiting
            health = client.app.state.manager.repo.health
            wait_until(lambda: health.refused >= 4, what="the bot being refused")   # 2 tables, 1 move, the bot
            assert client.get(f"/api/tables/{t1['table_id']}").json()["seq"] == waiting
            filler.unlink()   # room again: the bot's next retry goes through, nobody restarts anything
            until(spectator, lambda m: m["type"] == "state" and m["seq"] > waiting)
        assert client.post("/api/tables", json=BOTS_ONLY).status_code == 201
        with client.websocket_connect(ws_path(t2, t2_seat)) as w:
            next_state(w)
            w.send_json({"type": "action", "seq": 0, "action": first})
            assert next_state(w, 1)["seq"] == 1
    faults = [r for r in caplog.records if "storage fault on" in r.getMessage()]
    recoveries = [r for r in caplog.records if "storage recovered on" in r.getMessage()]
    assert len(faults) == 1 and "disk is full" in faults[0].getMessage() and str(db) in faults[0].getMessage()
    assert len(recoveries) == 1
    assert not [r for r in caplog.records if r.exc_info]   # no traceback per refused write


def _read_only(pg, dbname: str, on: bool) -> None:
    """Switch the PostgreSQL database ``dbname`` read-only (or back) for new sessions, and end its
    open sessions so the server's next ones see it (its pool reconnects)."""
    import psycopg
    with psycopg.connect(pg.url_of("postgres"), autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{dbname}" {"SET default_transaction_read_only = on" if on else "RESET default_transaction_read_only"}')
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (dbname,))


def test_a_read_only_postgresql_database_answers_503_and_recovers(postgres, caplog):  # noqa: F811
    """Defect 10 on PostgreSQL: a database switched to read-only (SQLSTATE 25006) refuses a new
    table with 503 and an action with "storage unavailable", logs the fault once, and the server
    recovers by itself when the database takes writes again."""
    url = postgres.new_database("readonly")
    caplog.set_level(logging.WARNING, logger="citygames.server")
    with server(url) as client:
        t = create(client, ["human", "human"], seed=6)
        _read_only(postgres, "readonly", True)
        for _ in range(2):
            r = client.post("/api/tables", json=BOTS_ONLY)
            assert r.status_code == 503 and r.headers["retry-after"] == "30", r.text
            assert r.json()["error"].startswith(STORAGE_REFUSAL) and "read-only" in r.json()["error"]
        assert client.get("/api/tables").status_code == 200   # reads go on
        with client.websocket_connect(ws_path(t, 0)) as w0, client.websocket_connect(ws_path(t, 1)) as w1:
            states = [next_state(w0), next_state(w1)]
            seat = states[0]["to_move"][0]
            w = (w0, w1)[seat]
            w.send_json({"type": "action", "seq": 0, "action": states[seat]["legal"][0]["id"]})
            assert next_error(w)["message"].startswith(STORAGE_REFUSAL)
        assert client.get(f"/api/tables/{t['table_id']}").json()["seq"] == 0
        _read_only(postgres, "readonly", False)
        assert client.post("/api/tables", json=BOTS_ONLY).status_code == 201
    faults = [r for r in caplog.records if "storage fault on" in r.getMessage()]
    recoveries = [r for r in caplog.records if "storage recovered on" in r.getMessage()]
    assert len(faults) == 1 and "read-only" in faults[0].getMessage(), [r.getMessage() for r in faults]
    assert len(recoveries) == 1


def test_bot_retry_delays_double_up_to_the_cap():
    delays = [retry_delay(n) for n in range(1, 12)]
    assert delays[0] == RETRY_FIRST and delays[1] == 2 * RETRY_FIRST
    assert all(a <= b for a, b in zip(delays, delays[1:])) and delays[-1] == RETRY_MAX
