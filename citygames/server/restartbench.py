"""Restart-to-ready of the table server (issue 16, defect 4): a benchmark command, not a test.

    python -m citygames.server.restartbench --tables 1000 --actions 150

fills a fresh SQLite database with ``--tables`` open tables of ``--actions`` stored actions each
(rows written straight through the repository's engine in two bulk inserts, no server involved),
then starts a real ``citygames serve`` subprocess on it ``--repeat`` times and measures, from the
moment the process is started:

- ``ready_s``: the first successful ``GET /api/tables``;
- ``socket_s``: the first ``state`` message on a spectator socket of the oldest table (the last
  one a background restore would reach), checked to be at the stored seq;
- ``restored_s``: ``GET /api/health`` reports no table left to restore (``null`` for a server
  without that endpoint, which restores everything before opening its port);
- ``health_p50_ms``, ``health_max_ms``: the median and the slowest of the ``GET /api/health``
  requests polled meanwhile (how much the background restore delays requests).

An empty database (``--tables 0``) gives the cost of starting Python and the web stack alone.
``--pythonpath DIR`` runs the server from another checkout (e.g. the code before the change) while
the database is filled with this one's schema. Every table has two human seats and one bot seat
(``greedy``) whose delay (``--bot-delay``, default 1000 s) keeps the bots from playing meanwhile.
Prints one line per start and a JSON summary (medians) at the end.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from sqlalchemy import insert

from citygames.core import load_game

from .db import ActionRow, Repository, TableRow, now, resolve_db_url
from .tables import hash_token, new_table_id

GAME = "the_capitals"
#: distinct records cycled over the tables (the rebuild cost does not depend on which)
RECORDS = 8


def _records(actions: int, seed0: int = 1) -> list[tuple[int, list[tuple[int, int]]]]:
    """``RECORDS`` legal random records of (at most) ``actions`` actions: ``(seed, [(seat, id)])``."""
    game = load_game(GAME, num_players=3)
    out = []
    for k in range(RECORDS):
        seed = seed0 + k
        rng = random.Random(seed)
        st = game.new_initial_state(seed=seed)
        moves = []
        while len(moves) < actions and not st.is_terminal():
            seat = st.current_player()
            a = rng.choice(st.legal_actions()).id
            st.apply_action(a)
            moves.append((seat, a))
            if st.is_terminal():   # keep every table open: drop the action that ends the game
                moves.pop()
                break
        out.append((seed, moves))
    return out


def fill(db_path: Path, tables: int, actions: int) -> list[tuple[str, int]]:
    """Write ``tables`` open tables with ``actions`` actions each (fewer if a record would end the
    game) into the SQLite file ``db_path``; returns ``(id, stored actions)`` of each, oldest first."""
    repo = Repository(resolve_db_url(str(db_path)))
    try:
        records = _records(actions)
        game = load_game(GAME, num_players=3)
        seats = [{"seat": 0, "kind": "human", "name": "Ann", "token_hash": hash_token("bench-0")},
                 {"seat": 1, "kind": "human", "name": "Bob", "token_hash": hash_token("bench-1")},
                 {"seat": 2, "kind": "bot", "bot": "greedy", "name": "Cleo (greedy)"}]
        t0 = now()
        ids, table_rows, action_rows = [], [], []
        for i in range(tables):
            tid = new_table_id()
            seed, moves = records[i % len(records)]
            created = t0 - dt.timedelta(seconds=tables - i)
            ids.append((tid, len(moves)))
            table_rows.append({"id": tid, "game": GAME, "options": dict(game.options), "seed": seed, "seats": seats,
                               "status": "open", "seq": len(moves), "created_at": created, "finished_at": None,
                               "result": None})
            action_rows.extend({"table_id": tid, "seq": q, "seat": s, "action": a, "created": created}
                               for q, (s, a) in enumerate(moves))
        with repo.engine.begin() as conn:
            if table_rows:
                conn.execute(insert(TableRow), table_rows)
            if action_rows:
                conn.execute(insert(ActionRow), action_rows)
        return ids
    finally:
        repo.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _first_state(ws_url: str, timeout: float) -> dict:
    from websockets.sync.client import connect
    with connect(ws_url, open_timeout=timeout, max_size=2 ** 22) as ws:
        while True:
            m = json.loads(ws.recv(timeout=timeout))
            if m.get("type") == "state":
                return m


def start_once(db_path: Path, table_id: str | None, expect_seq: int | None, bot_delay: float,
               pythonpath: str | None, log_path: Path, timeout: float = 120.0) -> dict:
    """Start ``citygames serve`` on ``db_path``, measure (see the module's doc), stop it."""
    port = _free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    url = f"http://127.0.0.1:{port}"
    with open(log_path, "w") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "citygames.cli", "serve", "--host", "127.0.0.1",
                                 "--port", str(port), "--db", str(db_path), "--bot-delay", str(bot_delay)],
                                stdout=out, stderr=subprocess.STDOUT, env=env)
        try:
            with httpx.Client(timeout=5) as client:
                while True:
                    try:
                        if client.get(url + "/api/tables?limit=1").status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    if proc.poll() is not None or time.perf_counter() - t0 > timeout:
                        raise RuntimeError(f"the server did not start; see {log_path}")
                    time.sleep(0.005)
                ready = time.perf_counter() - t0
                sock = None
                if table_id is not None:
                    m = _first_state(f"ws://127.0.0.1:{port}/ws/tables/{table_id}", timeout)
                    sock = time.perf_counter() - t0
                    if expect_seq is not None and m["seq"] != expect_seq:
                        raise RuntimeError(f"table {table_id} came back at seq {m['seq']}, stored {expect_seq}")
                restored, lat = None, []
                if client.get(url + "/api/health").status_code == 200:
                    while True:
                        t = time.perf_counter()
                        busy = client.get(url + "/api/health").json().get("restoring")
                        lat.append(time.perf_counter() - t)
                        if not busy:
                            break
                        if time.perf_counter() - t0 > timeout:
                            raise RuntimeError("the background restore did not end")
                        time.sleep(0.01)
                    restored = time.perf_counter() - t0
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:  # pragma: no cover
                proc.kill()
                proc.wait(5)
    return {"ready_s": round(ready, 3), "socket_s": None if sock is None else round(sock, 3),
            "restored_s": None if restored is None else round(restored, 3),
            "health_p50_ms": round(statistics.median(lat) * 1000, 1) if lat else None,
            "health_max_ms": round(max(lat) * 1000, 1) if lat else None}


def run(tables: int, actions: int, repeat: int = 3, bot_delay: float = 1000.0, pythonpath: str | None = None,
        workdir: str | Path | None = None, echo=print) -> dict:
    """Fill a database and start a server on it ``repeat`` times; the medians and every run.

    Returns:
        ``{tables, actions, stored_actions, fill_s, runs: [{ready_s, socket_s, restored_s,
        health_p50_ms, health_max_ms}], ready_s, socket_s, restored_s, health_p50_ms, health_max_ms}``
        (medians over the runs; ``None`` where not measured).
    """
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        db = Path(tmp) / "restartbench.sqlite3"
        t = time.perf_counter()
        ids = fill(db, tables, actions)
        fill_s = time.perf_counter() - t
        stored = sum(n for _, n in ids)
        echo(f"filled {tables} open tables ({stored} actions) in {fill_s:.1f} s")
        first, seq = ids[0] if ids else (None, None)
        runs = []
        for k in range(repeat):
            r = start_once(db, first, seq, bot_delay, pythonpath, Path(tmp) / f"serve-{k}.log")
            echo(f"start {k + 1}: ready {r['ready_s']:.3f} s, first table's socket "
                 f"{'-' if r['socket_s'] is None else format(r['socket_s'], '.3f')} s, background restore done "
                 f"{'-' if r['restored_s'] is None else format(r['restored_s'], '.3f')} s (GET /api/health meanwhile: "
                 f"median {r['health_p50_ms']} ms, slowest {r['health_max_ms']} ms)")
            runs.append(r)

    def med(key):
        vals = [r[key] for r in runs if r[key] is not None]
        return round(statistics.median(vals), 3) if vals else None

    return {"tables": tables, "actions": actions, "stored_actions": stored, "fill_s": round(fill_s, 2),
            "runs": runs, "ready_s": med("ready_s"), "socket_s": med("socket_s"), "restored_s": med("restored_s"),
            "health_p50_ms": med("health_p50_ms"), "health_max_ms": med("health_max_ms")}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m citygames.server.restartbench",
                                 description="Restart-to-ready of citygames serve with many open tables.")
    ap.add_argument("--tables", type=int, default=1000, help="open tables to store (default 1000)")
    ap.add_argument("--actions", type=int, default=150, help="actions per table (default 150)")
    ap.add_argument("--repeat", type=int, default=3, help="server starts to measure (default 3)")
    ap.add_argument("--bot-delay", type=float, default=1000.0,
                    help="the server's --bot-delay (default 1000: bots stay still while measuring)")
    ap.add_argument("--pythonpath", help="run the server with this PYTHONPATH (another checkout)")
    args = ap.parse_args(argv)
    if args.tables < 0 or args.actions < 0 or args.repeat < 1:
        ap.error("--tables and --actions must be >= 0 and --repeat >= 1")
    out = run(args.tables, args.actions, args.repeat, args.bot_delay, args.pythonpath)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
