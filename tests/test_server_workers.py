"""Several server workers on one PostgreSQL database (issue 16, part 5: more than one core).

A real ``citygames serve --workers 2 --db postgresql://...`` subprocess on a throwaway
PostgreSQL (tests/pg_helpers.py). Sockets are reconnected until they sit on different workers
(each response and WebSocket handshake names its worker in ``x-citygames-worker``); then a game is
played with actions from both, every socket must see every seq in order, and the record must
replay to the scores shown. Bot tables finish with one row per seq, and a game goes on when the
worker driving its bot is killed with SIGKILL.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

import citygames
from citygames.core import load_game, replay
from citygames.server.cluster import WORKER_HEADER

from pg_helpers import postgres  # noqa: F401  (the session fixture)
from server_helpers import free_port, watchdog, ws_path
from test_server_restart import Server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def _watchdog():
    with watchdog(120):
        yield



def _children(pid: int) -> set[int]:
    """The uvicorn worker processes of the supervisor ``pid`` (children running ``spawn_main``)."""
    out = set()
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{d}/cmdline", "rb") as f:
                cmd = f.read()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == pid and b"spawn_main" in cmd:
            out.add(int(d))
    return out


def _env() -> dict:
    """The environment of a server subprocess: this checkout's ``citygames`` first on the path
    (the tests' own, even when PYTHONPATH is relative and the server runs elsewhere)."""
    root = str(Path(citygames.__file__).resolve().parents[1])
    return dict(os.environ, PYTHONUNBUFFERED="1",
                PYTHONPATH=os.pathsep.join([root] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))


class Workers(Server):
    """``citygames serve --workers N`` as a real subprocess (its log in ``cwd``; ``log``, ``kill``
    and ``stop`` as for one process)."""

    def __init__(self, db_url: str, cwd, workers: int = 2, bot_delay: float = 0.0):
        self.port = free_port()
        self.out = open(cwd / f"serve-{self.port}.log", "w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "citygames.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--db", db_url, "--bot-delay", str(bot_delay), "--workers", str(workers),
             "--no-rate-limits"],
            cwd=cwd, stdout=self.out, stderr=subprocess.STDOUT, env=_env())
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.wait_for(workers)

    def wait_for(self, workers: int, seconds: float = 40) -> set[int]:
        """Wait until ``workers`` workers run and the port answers; their pids."""
        deadline = time.monotonic() + seconds
        while True:
            pids = _children(self.proc.pid)
            try:   # one worker: the server is the supervisor's own process, no children
                if len(pids) == (workers if workers > 1 else 0) and httpx.get(self.url + "/api/bots", timeout=1).status_code == 200:
                    return pids
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the workers did not start:\n{self.log()}")
            time.sleep(0.1)


@pytest.fixture
def workers(postgres, tmp_path, request):  # noqa: F811
    """A two-worker server on a fresh database of the throwaway PostgreSQL; yields it and the URL."""
    url = postgres.new_database("w_" + request.node.name.lower()[:40].replace("[", "_").replace("]", "_"))
    srv = Workers(url, tmp_path)
    try:
        yield srv, url
    finally:
        srv.stop()
        assert not _children(srv.proc.pid)   # SIGTERM stops every worker


async def _connect_on(srv: Workers, path: str, want=None, avoid=None, tries: int = 80):
    """A WebSocket on ``path`` whose worker is ``want`` (or not ``avoid``); reconnects until so."""
    landed = []
    for _ in range(tries):
        ws = await connect(srv.ws_url + path, max_size=2 ** 22)
        pid = int(ws.response.headers[WORKER_HEADER])
        if (want is None or pid == want) and (avoid is None or pid != avoid):
            return ws, pid
        landed.append(pid)
        await ws.close()
        await asyncio.sleep(0.01)
    raise AssertionError(f"no socket landed on the wanted worker ({want}, not {avoid}) in {tries} tries: "
                         f"{sorted(set(landed))}; workers now {_children(srv.proc.pid)}\n{srv.log()[-3000:]}")


def _create(srv: Workers, seats: list[str], seed: int) -> dict:
    body = {"game": "the_capitals", "seed": seed,
            "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats]}
    r = httpx.post(srv.url + "/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def _check_record(srv: Workers, db_url: str, tid: str, shown: dict) -> dict:
    """The finished table's record replays to ``shown`` (the result in the last state), and the
    database holds exactly one row per seq 0..n-1."""
    import psycopg
    rec = httpx.get(f"{srv.url}/api/tables/{tid}/record").json()
    state = replay(rec)
    assert state.is_terminal()
    assert list(state.scores()) == shown["scores"] and list(state.ranking()) == shown["ranking"]
    with psycopg.connect(db_url) as conn:
        seqs = [r[0] for r in conn.execute("SELECT seq FROM actions WHERE table_id = %s ORDER BY seq", (tid,))]
        (stored_seq,) = conn.execute("SELECT seq FROM tables WHERE id = %s", (tid,)).fetchone()
    assert seqs == list(range(len(rec["actions"]))) == list(range(stored_seq))
    return rec


def test_sqlite_refuses_several_workers(run, tmp_path):
    """SQLite stays the single-process embedded database: --workers 2 on it is refused, clearly."""
    result = run("serve", "--workers", "2", "--db", tmp_path / "t.sqlite3")
    assert result.exit_code == 2
    assert "2 workers need a PostgreSQL database" in result.output and "--workers 1" in result.output


def test_two_workers_play_one_game(workers):
    """Seats and spectators on two workers play one game: each socket sees every seq in order and
    the same final result; the record replays to it; then the game's bot tables finish cleanly."""
    srv, db_url = workers
    table = _create(srv, ["human", "human", "human"], seed=2024)
    tid = table["table_id"]

    async def main():
        w0, pid0 = await _connect_on(srv, ws_path(table, 0))
        w1, pid1 = await _connect_on(srv, ws_path(table, 1), avoid=pid0)
        w2, _ = await _connect_on(srv, ws_path(table, 2))
        s0, _ = await _connect_on(srv, ws_path(table), want=pid0)
        s1, _ = await _connect_on(srv, ws_path(table), want=pid1)
        rng = random.Random(7)
        seen: dict[str, list[int]] = {}
        logs: dict[str, list[dict]] = {}
        undone: list[int] = []

        async def socket_loop(name: str, ws, seat):
            seqs = seen.setdefault(name, [])
            sent = -1
            async for raw in ws:
                m = json.loads(raw)
                assert m["type"] != "error", (name, m)
                if m["type"] != "state":
                    continue
                if not seqs or m["seq"] != seqs[-1]:   # a seat's connect/leave repeats the seq
                    seqs.append(m["seq"])
                # the client's log, as PROTOCOL.md says: keep what lies before log_from, append log
                logs[name] = [e for e in logs.get(name, []) if e["index"] < m["log_from"]] + m["log"]
                if m["terminal"]:
                    return m
                if seat is not None and seat in m["to_move"] and m["seq"] > sent:
                    if m["can_undo"] and not undone and m["seq"] > 10:   # one undo, seen on both workers
                        undone.append(m["seq"])
                        sent = m["seq"] - 2
                        await ws.send(json.dumps({"type": "undo", "seq": m["seq"]}))
                        continue
                    sent = m["seq"]
                    await ws.send(json.dumps({"type": "action", "seq": m["seq"],
                                              "action": rng.choice(m["legal"])["id"]}))
            raise AssertionError(f"{name} closed before the end")

        finals = await asyncio.wait_for(asyncio.gather(
            socket_loop("seat0", w0, 0), socket_loop("seat1", w1, 1), socket_loop("seat2", w2, 2),
            socket_loop("spec0", s0, None), socket_loop("spec1", s1, None)), 60)
        for ws in (w0, w1, w2, s0, s1):
            await ws.close()
        fresh = {}
        for pid in (pid0, pid1):   # a spectator arriving after the end, on each worker
            ws, _ = await _connect_on(srv, ws_path(table), want=pid)
            fresh[pid] = json.loads(await ws.recv())
            await ws.close()
        return finals, seen, logs, fresh, (pid0, pid1), undone

    finals, seen, logs, fresh, pids, undone = asyncio.run(main())
    assert pids[0] != pids[1]
    last = finals[0]["seq"]
    assert last > 50 and undone
    for name, seqs in seen.items():
        # every seq in order on both workers; the one undo steps back once (a worker that learns of
        # the undo together with the next action may show the replayed seq at once)
        assert seqs[-1] == last, name
        steps = [b - a for a, b in zip(seqs, seqs[1:])]
        assert all(d == 1 for d in steps if d > 0), (name, seqs)
        assert sum(1 for d in steps if d != 1) <= 1 and all(d >= -1 for d in steps), (name, seqs)
    for pid, spec in (("spec0", pids[0]), ("spec1", pids[1])):   # the undo reached each worker's log
        assert fresh[spec]["log_from"] == 0 and fresh[spec]["seq"] == last
        assert logs[pid] == fresh[spec]["log"], pid
    assert all(f["result"] == finals[0]["result"] for f in finals)
    _check_record(srv, db_url, tid, finals[0]["result"])

    # bot tables: created on either worker, driven by exactly one, each finishes with a row per seq
    bots = [_create(srv, ["greedy", "random", "greedy"], seed=90 + i)["table_id"] for i in range(4)]
    deadline = time.monotonic() + 60
    for bid in bots:
        while (s := httpx.get(f"{srv.url}/api/tables/{bid}").json())["status"] != "finished":
            assert time.monotonic() < deadline, f"bot table {bid} stuck at seq {s['seq']}"
            time.sleep(0.1)
        _check_record(srv, db_url, bid, s["result"])


def test_two_servers_on_one_database_keep_one_game(postgres, tmp_path):  # noqa: F811
    """Defect 3 on PostgreSQL: two separate one-worker servers sharing a database never split a
    table. A seat on each server and a spectator on the second play a game with a bot to the end:
    every socket sees every seq in order and the same result, and the record replays to it."""
    url = postgres.new_database("w_two_servers")
    servers = [Workers(url, tmp_path, workers=1), Workers(url, tmp_path, workers=1)]
    try:
        table = _create(servers[0], ["human", "greedy", "human"], seed=77)

        async def socket_loop(ws, seat, rng):
            seqs, sent = [], -1
            async for raw in ws:
                m = json.loads(raw)
                assert m["type"] != "error", m
                if m["type"] != "state":
                    continue
                if not seqs or m["seq"] != seqs[-1]:
                    seqs.append(m["seq"])
                if m["terminal"]:
                    return m, seqs
                if seat is not None and seat in m["to_move"] and m["seq"] > sent:
                    sent = m["seq"]
                    await ws.send(json.dumps({"type": "action", "seq": m["seq"],
                                              "action": rng.choice(m["legal"])["id"]}))
            raise AssertionError(f"socket of seat {seat} closed before the end")

        async def main():
            plan = [(servers[0], 0), (servers[1], 2), (servers[1], None)]
            socks = [await connect(srv.ws_url + ws_path(table, seat), max_size=2 ** 22) for srv, seat in plan]
            try:
                return await asyncio.wait_for(asyncio.gather(*(
                    socket_loop(ws, seat, random.Random(seat)) for ws, (_, seat) in zip(socks, plan))), 60)
            finally:
                for ws in socks:
                    await ws.close()

        outcomes = asyncio.run(main())
        last = outcomes[0][0]["seq"]
        assert last > 50
        for final, seqs in outcomes:
            assert final["result"] == outcomes[0][0]["result"] and seqs[-1] == last
            assert all(b - a == 1 for a, b in zip(seqs, seqs[1:])), seqs
        for srv in servers:
            assert httpx.get(f"{srv.url}/api/tables/{table['table_id']}").json()["status"] == "finished"
        _check_record(servers[1], url, table["table_id"], outcomes[0][0]["result"])
    finally:
        for srv in servers:
            srv.stop()


def _bot_driver(db_url: str, tid: str) -> int | None:
    """The pid of the worker holding table ``tid``'s bot lock (from its session's name), if any."""
    import psycopg
    with psycopg.connect(db_url) as conn:
        row = conn.execute(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
            "AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended('citygames-bots:' || %s, 0)",
            (tid,)).fetchone()
    return int(row[0].rsplit("-", 1)[1]) if row else None


def test_killed_worker_the_game_goes_on(workers):
    """SIGKILL of the worker driving a table's bot mid-game: uvicorn starts a new worker, another
    takes the bot over, the seats reconnect and the game finishes; no action lost or doubled."""
    srv, db_url = workers
    table = _create(srv, ["human", "greedy", "human"], seed=77)
    tid = table["table_id"]
    rng = random.Random(3)
    acked: dict[int, tuple[int, int]] = {}   # seq -> (seat, action) of each acknowledged action
    killed = []

    async def seat_loop(seat: int):
        sent = None
        while True:
            try:
                ws, _ = await _connect_on(srv, ws_path(table, seat))
            except OSError:
                await asyncio.sleep(0.1)
                continue
            try:
                async for raw in ws:
                    m = json.loads(raw)
                    if m["type"] == "error":
                        assert m["message"].startswith("stale"), m
                        continue
                    if m["type"] != "state":
                        continue
                    if sent is not None and m["seq"] > sent[0]:
                        acked.setdefault(sent[0], (seat, sent[1]))
                        sent = None
                    if m["seq"] >= 30 and not killed and seat == 0:
                        driver = _bot_driver(db_url, tid)
                        assert driver is not None
                        killed.append(driver)
                        os.kill(driver, signal.SIGKILL)
                    if m["terminal"]:
                        await ws.close()
                        return m
                    if seat in m["to_move"] and (sent is None or m["seq"] > sent[0]):
                        action = rng.choice(m["legal"])["id"]
                        sent = (m["seq"], action)
                        await ws.send(json.dumps({"type": "action", "seq": m["seq"], "action": action}))
            except ConnectionClosed:
                sent = None   # unacknowledged: the state after reconnecting tells whether it counted
                await asyncio.sleep(0.05)

    async def main():
        return await asyncio.wait_for(asyncio.gather(seat_loop(0), seat_loop(2)), 90)

    finals = asyncio.run(main())
    assert killed, "the game ended before the kill"
    pids = srv.wait_for(2)   # uvicorn replaced the dead worker
    assert killed[0] not in pids
    assert finals[0]["result"] == finals[1]["result"]
    rec = _check_record(srv, db_url, tid, finals[0]["result"])
    for seq, (seat, action) in acked.items():   # every acknowledged action is in the record, once
        assert rec["actions"][seq] == action, seq
    # the workers die with their supervisor, even when it is killed without a word
    srv.proc.send_signal(signal.SIGKILL)
    srv.proc.wait(10)
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in pids):
        assert time.monotonic() < deadline, "workers outlived their killed supervisor"
        time.sleep(0.1)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_copy_that_fell_behind_catches_up_one_seq_at_a_time(postgres, tmp_path):  # noqa: F811
    """A worker that missed a table's notifications (three actions stored with the triggers off)
    finds the gap in its sweep and catches up: its socket sees each of the three seqs in turn, not
    one jump, and the log it built matches a fresh connection's."""
    import psycopg
    url = postgres.new_database("w_catch_up")
    srv = Workers(url, tmp_path, workers=1)
    try:
        table = _create(srv, ["human", "human", "human"], seed=2024)
        tid = table["table_id"]
        info = httpx.get(f"{srv.url}/api/tables/{tid}").json()
        state = load_game("the_capitals", **info["options"]).new_initial_state(seed=2024)
        rows = []
        for seq in range(3):
            seat = state.players_to_move()[0]
            action = state.legal_actions()[seq % len(state.legal_actions())]
            rows.append((tid, seq, seat, int(action)))
            state.apply_action(action)

        async def main():
            ws = await connect(srv.ws_url + ws_path(table), max_size=2 ** 22)
            first = json.loads(await ws.recv())
            assert first["seq"] == 0
            with psycopg.connect(url) as conn:
                conn.execute("SET session_replication_role = replica")   # no trigger, no NOTIFY
                for row in rows:
                    conn.execute("INSERT INTO actions (table_id, seq, seat, action, created) "
                                 "VALUES (%s, %s, %s, %s, now())", row)
                conn.execute("UPDATE tables SET seq = 3 WHERE id = %s", (tid,))
            seqs, log = [0], list(first["log"])
            while seqs[-1] < 3:
                m = json.loads(await asyncio.wait_for(ws.recv(), 20))
                if m["type"] == "state" and m["seq"] != seqs[-1]:
                    seqs.append(m["seq"])
                    log = [e for e in log if e["index"] < m["log_from"]] + m["log"]
            await ws.close()
            fresh = await connect(srv.ws_url + ws_path(table), max_size=2 ** 22)
            shown = json.loads(await fresh.recv())
            await fresh.close()
            return seqs, log, shown

        seqs, log, shown = asyncio.run(main())
        assert seqs == [0, 1, 2, 3]
        assert shown["seq"] == 3 and shown["log"] == log
    finally:
        srv.stop()
