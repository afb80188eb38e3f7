"""Issue 16: the lifecycle of tables in memory and the hygiene of connections and processes.

- defect 4: the port opens at once; a table is loaded on its first use, the tables with bots are
  restored in the background and their bots resume with nobody connected;
- idle open tables leave memory and come back on their next use (``idle_evict``);
- defect 7: with ``--bot-processes 2`` nothing the server started outlives a ``kill -9``;
- defect 9: a client that does not read its messages gets the documented close code 1008.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.client import ClientProtocol
from websockets.frames import Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from citygames.core import load_game
from citygames.server import restartbench
from citygames.server.db import Repository, TableData
from citygames.server.tables import MAX_QUEUE, hash_token, public_seat, result_of

from server_helpers import create, free_port, next_state, server, wait_until, watchdog, ws_path

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def _watchdog():
    with watchdog(120):
        yield



def _store_table(repo: Repository, tid: str, seats: list[dict], n_actions: int, seed: int, token: str = "t"):
    """Write an open The Capitals table with ``n_actions`` random legal actions straight into the
    database (as a server that stopped would have left it); returns the state after them."""
    game = load_game("the_capitals", num_players=len(seats))
    stored = []
    for i, s in enumerate(seats):
        d = public_seat(i, s)
        if s["kind"] == "human":
            d["token_hash"] = hash_token(token)
        stored.append(d)
    repo.insert_table(TableData(id=tid, game="the_capitals", options=dict(game.options), seed=seed, seats=stored))
    st = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for i in range(n_actions):
        seat = st.current_player()
        st.apply_action(rng.choice(st.legal_actions()).id)
        repo.append_action(tid, i, seat, st.history[-1], result_of(st) if st.is_terminal() else None)
    return st


# --- defect 4: open at once, load on first use, bots resume by themselves -----------------------
def test_tables_load_on_first_use_and_bot_tables_resume_unwatched(tmp_path):
    db = tmp_path / "t.sqlite3"
    repo = Repository(f"sqlite:///{db}")
    try:
        humans = _store_table(repo, "humansonly", [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}],
                              30, seed=7)
        _store_table(repo, "botsonly", [{"kind": "bot", "bot": "random", "name": "R"},
                                        {"kind": "bot", "bot": "greedy", "name": "G"}], 12, seed=8)
    finally:
        repo.close()
    with server(db, bot_delay=0) as client:
        # nobody watches the bot table: its bots finish the game by themselves
        end = wait_until(lambda: (s := client.get("/api/tables/botsonly").json())["status"] == "finished" and s,
                    what="the unwatched bot table finishing")
        assert end["seq"] > 12 and end["result"]["scores"]
        assert client.get("/api/health").json()["restoring"] == 0
        # the humans' table answers its socket at the stored seq, and play goes on
        p = humans.current_player()
        with client.websocket_connect(f"/ws/tables/humansonly?seat={p}&token=t") as ws:
            m = next_state(ws)
            assert m["seq"] == 30 and m["to_move"] == [p] and m["log_from"] == 0
            assert {a["id"] for a in m["legal"]} == {a.id for a in humans.legal_actions()}
            ws.send_json({"type": "action", "seq": 30, "action": m["legal"][0]["id"]})
            assert next_state(ws, 31)["seq"] == 31
        assert client.get("/api/tables/humansonly").json()["seq"] == 31
        # an unknown table is still refused, and nothing is broken
        with client.websocket_connect("/ws/tables/nosuchtable") as ws:
            with pytest.raises(Exception):
                ws.receive_json()
        h = client.get("/api/health").json()
        assert h["status"] == "ok" and h["storage"] == "ok" and h["broken_tables"] == 0
        assert set(h) == {"status", "storage", "tables_in_memory", "connections", "bot_tasks", "restoring",
                          "broken_tables", "slow_clients_closed", "idle_evict_s"}   # counts only


def test_restart_bench_restores_a_stored_table_through_a_real_server(tmp_path):
    """The benchmark command's own run, tiny: a real ``citygames serve`` on a filled database is
    ready, answers a stored table's socket at its stored seq (checked by ``start_once``) and ends
    its background restore."""
    out = restartbench.run(tables=4, actions=20, repeat=1, workdir=tmp_path, echo=lambda *_: None)
    assert out["stored_actions"] == 80
    r = out["runs"][0]
    assert r["ready_s"] <= r["socket_s"] and r["restored_s"] is not None


# --- idle open tables leave memory --------------------------------------------------------------
def test_idle_open_tables_leave_memory_and_come_back(tmp_path):
    with server(tmp_path / "t.sqlite3", bot_delay=1000, idle_evict=0.3) as client:
        idle = create(client, ["human", "human"], seed=3)
        create(client, ["bot:greedy", "bot:greedy"], seed=4)       # a bot thinking: stays
        watched = create(client, ["human", "human"], seed=5)        # somebody watching: stays
        with client.websocket_connect(ws_path(watched)) as spectator:
            next_state(spectator)
            with client.websocket_connect(ws_path(idle, 0)) as w0, client.websocket_connect(ws_path(idle, 1)) as w1:
                st = next_state(w0)
                next_state(w1)
                mover = [w0, w1][st["to_move"][0]]
                mover.send_json({"type": "action", "seq": 0, "action": st["legal"][0]["id"]})
                before = [next_state(w0, 1), next_state(w1, 1)]
            assert client.get("/api/health").json()["tables_in_memory"] == 3
            wait_until(lambda: client.get("/api/health").json()["tables_in_memory"] == 2, what="the idle table's eviction")
            time.sleep(1.0)   # three more idle periods: the others stay
            h = client.get("/api/health").json()
            assert h["tables_in_memory"] == 2 and h["connections"] == 1 and h["bot_tasks"] == 1
            # the evicted table comes back as it was, and play goes on
            with client.websocket_connect(ws_path(idle, 0)) as w0, client.websocket_connect(ws_path(idle, 1)) as w1:
                again = [next_state(w0), next_state(w1)]
                for a, b in zip(before, again):
                    assert a["seq"] == b["seq"] == 1
                    for key in ("observation", "legal", "to_move", "can_undo", "your_seat"):
                        assert a[key] == b[key], key
                mover = [w0, w1][again[0]["to_move"][0]]
                mover.send_json({"type": "action", "seq": 1, "action": again[0]["legal"][0]["id"]})
                assert next_state(w0, 2)["seq"] == 2
            assert client.get("/api/health").json()["tables_in_memory"] == 3


# --- real servers ---------------------------------------------------------------------------------

class Serve:
    """``citygames serve`` as a real subprocess, its output in a log file."""

    def __init__(self, tmp: Path, *args: str):
        for attempt in range(3):   # a free port may be taken by someone else before the server binds it
            self.port = free_port()
            self.log_path = tmp / f"serve-{self.port}.log"
            self.out = open(self.log_path, "w")
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "citygames.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                 "--db", str(tmp / "t.sqlite3"), *args],
                stdout=self.out, stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONUNBUFFERED="1"))
            self.url = f"http://127.0.0.1:{self.port}"

            def up():
                try:
                    return httpx.get(self.url + "/api/health", timeout=1).status_code == 200
                except httpx.HTTPError:
                    return self.proc.poll()
            if wait_until(up, 30, "the server's start") is True:
                return
            self.out.close()
            assert "address already in use" in self.log_path.read_text() and attempt < 2, self.log_path.read_text()

    def log(self) -> str:
        self.out.flush()
        return self.log_path.read_text()

    def create(self, seats: list[dict], game: str = "the_capitals") -> dict:
        r = httpx.post(self.url + "/api/tables", json={"game": game, "seats": seats, "seed": 11})
        assert r.status_code == 201, r.text
        return r.json()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        self.out.close()


def _children() -> dict[int, list[int]]:
    """``{ppid: [pid, ...]}`` of every live (not zombie) process, from /proc."""
    out: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            stat = Path(f"/proc/{d}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z":
            out.setdefault(int(fields[1]), []).append(int(d))
    return out


def _descendants(pid: int) -> set[int]:
    kids = _children()
    found, todo = set(), [pid]
    while todo:
        for c in kids.get(todo.pop(), []):
            if c not in found:
                found.add(c)
                todo.append(c)
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_bot_workers_die_with_a_killed_server(tmp_path):
    srv = Serve(tmp_path, "--bot-processes", "2", "--bot-delay", "0.02")
    try:
        tables = [srv.create([{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]) for _ in range(2)]
        for t in tables:
            wait_until(lambda: httpx.get(f"{srv.url}/api/tables/{t['table_id']}").json()["seq"] >= 3,
                  what="the bots playing in their processes")
        ours = _descendants(srv.proc.pid)
        assert len(ours) >= 2, ours   # worker processes and the resource tracker
        srv.proc.send_signal(signal.SIGKILL)
        srv.proc.wait(10)
        wait_until(lambda: not any(_alive(p) for p in ours), 10, "the end of every process the server started")
    finally:
        srv.stop()


def _raw_socket(port: int, path: str) -> tuple[socket.socket, ClientProtocol]:
    """A WebSocket client on a plain socket with a tiny receive buffer (so it stops reading at the
    socket level when the test does not read): the socket and its sans-I/O protocol, opened."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)   # before connect: a small window
    sock.connect(("127.0.0.1", port))
    proto = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}{path}"), max_size=2 ** 22)
    proto.send_request(proto.connect())
    sock.sendall(b"".join(proto.data_to_send()))
    events: list = []
    while not any(isinstance(e, Response) for e in events):
        data = sock.recv(256)   # no further than the handshake's end, near enough
        assert data, "the handshake failed"
        proto.receive_data(data)
        events += proto.events_received()
    return sock, proto


def test_a_client_that_stops_reading_gets_close_code_1008(tmp_path):
    """A spectator stops reading at the socket level while two seats take a tile and undo it again
    and again (each time a full ``state`` for everyone, the seats reading theirs): its socket
    buffers fill, then its queue. Once the server says it closes it, the spectator sends one more
    ping (a client's keepalive; before the fix that let the socket go without a close frame: 1006)
    and reads again: after what the buffers held comes the close frame, code 1008."""
    from websockets.sync.client import connect

    srv = Serve(tmp_path, "--bot-delay", "0", "--no-rate-limits")   # the seats act as fast as the server answers
    try:
        t = srv.create([{"kind": "human"}, {"kind": "human"}])
        base = f"ws://127.0.0.1:{srv.port}"
        seats = [connect(base + ws_path(t, s), max_size=2 ** 22) for s in (0, 1)]

        def _next(w) -> dict:
            m = json.loads(w.recv(timeout=10))
            assert m["type"] == "state", m
            return m

        def step(seat: int, msg: dict) -> list[dict]:
            seats[seat].send(json.dumps(msg))
            return [_next(w) for w in seats]

        try:
            states = [_next(w) for w in seats]
            while not states[0]["seats"][1]["connected"]:   # seat 0 hears seat 1 come
                states[0] = _next(seats[0])
            while states[0]["to_move"] and states[states[0]["to_move"][0]]["legal"][0]["kind"] != "take":
                p = states[0]["to_move"][0]
                states = step(p, {"type": "action", "seq": states[p]["seq"], "action": states[p]["legal"][0]["id"]})
            p = states[0]["to_move"][0]
            take = states[p]["legal"][0]["id"]
            seq = states[p]["seq"]
            sock, proto = _raw_socket(srv.port, ws_path(t))   # the spectator: reads nothing from now on
            for _ in range(3000):
                if "does not keep up" in srv.log():
                    break
                mid = step(p, {"type": "action", "seq": seq, "action": take})[p]
                assert mid["can_undo"], mid
                assert step(p, {"type": "undo", "seq": seq + 1})[p]["seq"] == seq
            else:
                raise AssertionError("the server never closed the spectator that reads nothing")
        finally:
            for w in seats:
                w.close()
        sock.settimeout(30)
        proto.send_text(b'{"type":"ping"}')
        sock.sendall(b"".join(proto.data_to_send()))
        time.sleep(0.5)
        frames = 0
        while proto.close_rcvd is None:
            data = sock.recv(1 << 16)
            assert data, "the connection ended without a close frame (1006)"
            proto.receive_data(data)
            frames += sum(1 for e in proto.events_received() if getattr(e, "opcode", None) == Opcode.TEXT)
        assert proto.close_rcvd.code == 1008
        assert frames >= 1   # what the socket buffers held (megabytes: TCP buffers grow) came first
        sock.close()
        h = wait_until(lambda: (h := httpx.get(srv.url + "/api/health").json())["slow_clients_closed"] == 1 and h,
                  what="the slow client's count")
        assert h["connections"] == 0
        assert f"{MAX_QUEUE} queued messages" in srv.log()
    finally:
        srv.stop()
