"""A restarted server restores every unfinished table from its record and play continues."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time

import httpx
import pytest
from websockets.asyncio.client import connect

from citygames.core import replay
from citygames.server import loadtest

from pg_helpers import postgres  # noqa: F401  (the session fixture)
from server_helpers import create, free_port, manager, next_state, server, until, watchdog, ws_path

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def _watchdog():
    with watchdog(120):
        yield



class Server:
    """``citygames serve`` as a real subprocess (``args``: more options; rate limits stay on unless
    ``--no-rate-limits`` is among them)."""

    def __init__(self, db, cwd, args=()):
        self.db = db
        self.cwd = cwd
        self.port = free_port()
        self.out = open(cwd / f"serve-{self.port}.log", "w+")
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "citygames.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--db", str(db), "--bot-delay", "0", *args], cwd=cwd, stdout=self.out, stderr=subprocess.STDOUT, env=env)
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(self.url + "/api/bots", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not start:\n{self.log()}")
            time.sleep(0.1)
        assert f"citygames table at http://127.0.0.1:{self.port}/" in self.log()

    def log(self) -> str:
        self.out.flush()
        self.out.seek(0)
        return self.out.read()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:  # pragma: no cover
            self.proc.kill()
            self.proc.wait(5)
        self.out.close()


async def _play(url: str, table: dict, seats: list[int], rng: random.Random, stop_at: int | None):
    """Drive ``seats`` over WebSockets with random legal actions until the end or ``seq >= stop_at``;
    returns the last state each seat saw."""
    ws_url = url.replace("http://", "ws://")

    async def seat_loop(seat: int):
        async with connect(ws_url + ws_path(table, seat), max_size=2 ** 22) as ws:
            sent = -1
            first = True
            async for raw in ws:
                m = json.loads(raw)
                if m["type"] == "error":
                    assert m["message"].startswith("stale"), m
                    continue
                if m["type"] != "state":
                    continue
                if first:
                    assert m["log_from"] == 0 and m["your_seat"] == seat
                    first = False
                if m["terminal"] or (stop_at is not None and m["seq"] >= stop_at):
                    return m
                if seat in m["to_move"] and m["seq"] > sent:
                    sent = m["seq"]
                    await ws.send(json.dumps({"type": "action", "seq": m["seq"],
                                              "action": rng.choice(m["legal"])["id"]}))
        raise AssertionError("socket closed before the end")

    return await asyncio.wait_for(asyncio.gather(*(seat_loop(s) for s in seats)), 60)


DATABASES = ["sqlite", "postgresql"]


@pytest.mark.parametrize("kind", DATABASES)
def test_restart_a_real_server_mid_game(tmp_path, kind, request):
    """SQLite, and PostgreSQL: the database CITYGAMES_TEST_POSTGRES names, else a fresh one on the
    throwaway server of tests/pg_helpers.py (skipped only when PostgreSQL is not installed)."""
    if kind == "sqlite":
        db = tmp_path / "tables.sqlite3"
    else:
        db = os.environ.get("CITYGAMES_TEST_POSTGRES") or request.getfixturevalue("postgres").new_database("restart")
    rng = random.Random(5)
    srv = Server(db, tmp_path, ["--no-rate-limits"])  # the seats play as fast as the server answers
    try:
        r = httpx.post(srv.url + "/api/tables", json={
            "game": "the_capitals", "seed": 424242,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}, {"kind": "human"}]})
        assert r.status_code == 201
        table = r.json()
        tid = table["table_id"]
        seen = asyncio.run(_play(srv.url, table, [0, 2], rng, stop_at=40))
        mid_seq = max(m["seq"] for m in seen)
        assert mid_seq >= 40
    finally:
        srv.kill()  # no goodbye: everything acknowledged must already be in the database
    srv2 = Server(db, tmp_path, ["--no-rate-limits"])
    try:
        s = httpx.get(f"{srv2.url}/api/tables/{tid}").json()
        assert s["status"] == "open" and s["seq"] >= mid_seq
        assert httpx.get(f"{srv2.url}/api/tables/{tid}/record").status_code == 409
        final = asyncio.run(_play(srv2.url, table, [0, 2], rng, stop_at=None))
        assert all(m["terminal"] for m in final)
        result = final[0]["result"]
        assert final[1]["result"] == result
        rec = httpx.get(f"{srv2.url}/api/tables/{tid}/record").json()
        assert rec["seed"] == 424242 and len(rec["actions"]) == final[0]["seq"]
        state = replay(rec)
        assert state.is_terminal()
        assert state.scores() == result["scores"] and state.ranking() == result["ranking"]
        listed = httpx.get(f"{srv2.url}/api/tables?status=finished").json()
        mine = [x for x in listed if x["table_id"] == tid]
        assert len(mine) == 1 and mine[0]["result"] == result
        # the load test's driver works against this server (a tiny run)
        out = asyncio.run(loadtest.run(srv2.url, tables=2, players=3, seconds=5, max_actions=60, think=0, seed=3))
        assert out["errors"] == 0 and out["actions"] >= 60 and out["latency_ms"]["p50"] > 0
    finally:
        srv2.stop()


def test_restart_resumes_a_waiting_bot(tmp_path):
    """The bot to move when the server stopped moves after the restart."""
    db = tmp_path / "t.sqlite3"
    with server(db, bot_delay=1000) as client:   # bots wait "forever"
        t = create(client, ["human", "human", "bot:greedy"], seed=9)
        tid = t["table_id"]
        with client.websocket_connect(ws_path(t, 0)) as w0, client.websocket_connect(ws_path(t, 1)) as w1:
            wss = [w0, w1]
            st = next_state(w0)
            next_state(w1)
            while st["to_move"] != [2]:
                p = st["to_move"][0]
                state = manager(client).tables[tid].state
                wss[p].send_json({"type": "action", "seq": st["seq"], "action": state.legal_actions()[0].id})
                st = next_state(w0, st["seq"] + 1)
                next_state(w1, st["seq"])
        waiting_at = st["seq"]
        assert len(manager(client).repo.actions(tid)) == waiting_at
    with server(db, bot_delay=0) as client:
        # restored in the background: the bot moves with nobody connected
        deadline = time.monotonic() + 30
        while client.get(f"/api/tables/{tid}").json()["seq"] <= waiting_at:
            assert time.monotonic() < deadline, "the bot did not resume by itself"
            time.sleep(0.02)
        with client.websocket_connect(ws_path(t)) as spec:
            moved = until(spec, lambda m: m["type"] == "state" and m["seq"] > waiting_at)
        assert moved["seq"] > waiting_at
        rows = manager(client).repo.actions(tid)
        assert rows[waiting_at][1] == 2   # the bot's seat made that action
