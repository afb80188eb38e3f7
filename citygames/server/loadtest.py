"""Load test of the browser table: many all-human tables driven over WebSockets from one process.

    python -m citygames.server.loadtest --tables 50                         # starts its own server
    python -m citygames.server.loadtest --tables 50 --url http://127.0.0.1:8000

Every seat of every table is a WebSocket client playing a random legal action (preferring
placements without a penalty) as soon as it is to move (``--think`` adds a pause). The latency of
an action is the time from sending it to receiving the broadcast ``state`` with the new seq on the
same socket: validation, the database commit and the broadcast. Bots are not involved (they run
inside the server), so every action crosses the network. The run is bounded by ``--seconds`` and
``--actions`` and only talks to a loopback address. It prints actions/s, latency percentiles and
the number of errors.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
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
from urllib.parse import urlparse


def _percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, int(round(q / 100 * (len(xs) - 1)))))
    return xs[k]


def _is_loopback(url: str) -> bool:
    host = urlparse(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Stats:
    def __init__(self):
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.actions = 0
        self.finished_tables = 0


def _choose(legal: list[dict], rng: random.Random) -> dict:
    """A random legal action, avoiding placement penalties when possible (a cheap greedy touch)."""
    calm = [a for a in legal if not a.get("penalty")]
    return rng.choice(calm or legal)


async def _seat(url: str, table: dict, seat: int, stats: Stats, rng: random.Random, deadline: float,
                max_actions: int, think: float, stop: asyncio.Event) -> None:
    from websockets.asyncio.client import connect

    ws_url = url.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
    path = f"/ws/tables/{table['table_id']}?seat={seat}&token={table['seats'][seat]['token']}"
    try:
        async with connect(ws_url + path, max_size=2 ** 22, open_timeout=30) as ws:
            sent_seq = -1
            sent_at = 0.0
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.perf_counter()))
                except asyncio.TimeoutError:
                    return
                m = json.loads(raw)
                if m["type"] == "error":
                    stats.errors.append(m["message"])
                    continue
                if m["type"] != "state":
                    continue
                if sent_seq >= 0 and m["seq"] == sent_seq + 1:
                    stats.latencies.append(time.perf_counter() - sent_at)
                    stats.actions += 1
                    sent_seq = -1
                if m["terminal"]:
                    if seat == 0:
                        stats.finished_tables += 1
                    return
                if time.perf_counter() >= deadline or stats.actions >= max_actions:
                    stop.set()
                    return
                if seat in m["to_move"] and m["legal"] and m["seq"] > sent_seq:
                    if think:
                        await asyncio.sleep(think * rng.random() * 2)
                    action = _choose(m["legal"], rng)["id"]
                    sent_seq = m["seq"]
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "action", "seq": m["seq"], "action": action}))
    except Exception as exc:  # a failed connection counts as an error
        stats.errors.append(f"seat {seat} of {table['table_id']}: {type(exc).__name__}: {exc}")


async def run(url: str, tables: int, players: int, seconds: float, max_actions: int, think: float,
              seed: int) -> dict:
    """Create ``tables`` all-human tables on the server at ``url`` and drive them; the numbers."""
    import httpx

    if not _is_loopback(url):
        raise SystemExit(f"the load test only talks to a loopback address, not {url}")
    rng = random.Random(seed)
    stats = Stats()
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        created = []
        for i in range(tables):
            r = await client.post("/api/tables", json={"game": "the_capitals", "seed": seed + i,
                                                       "seats": [{"kind": "human"}] * players})
            r.raise_for_status()
            created.append(r.json())
    start = time.perf_counter()
    deadline = start + seconds
    stop = asyncio.Event()
    tasks = [asyncio.create_task(_seat(url, t, s, stats, random.Random(rng.random()), deadline, max_actions,
                                       think, stop))
             for t in created for s in range(players)]
    everything = asyncio.gather(*tasks)
    stopped = asyncio.create_task(stop.wait())
    await asyncio.wait([everything, stopped], return_when=asyncio.FIRST_COMPLETED)
    elapsed = time.perf_counter() - start
    if stop.is_set():  # the count is reached: seats still waiting for a message stop now
        for t in tasks:
            t.cancel()
    await asyncio.gather(everything, return_exceptions=True)
    stopped.cancel()
    lat = [x * 1000 for x in stats.latencies]
    return {
        "tables": tables, "sockets": tables * players, "actions": stats.actions, "seconds": round(elapsed, 2),
        "actions_per_s": round(stats.actions / elapsed, 1) if elapsed else 0.0,
        "latency_ms": {"p50": round(_percentile(lat, 50), 2), "p95": round(_percentile(lat, 95), 2),
                       "p99": round(_percentile(lat, 99), 2), "max": round(max(lat), 2) if lat else None,
                       "mean": round(statistics.fmean(lat), 2) if lat else None},
        "errors": len(stats.errors), "error_samples": stats.errors[:5],
        "finished_tables": stats.finished_tables,
    }


def _start_server(db: Path, bot_delay: float = 0.0) -> tuple[subprocess.Popen, str]:
    import httpx

    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "citygames.cli", "serve", "--host", "127.0.0.1", "--port",
                             str(port), "--db", str(db), "--bot-delay", str(bot_delay),
                             "--no-rate-limits"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(os.environ))
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server did not start: {proc.stderr.read().decode(errors='replace')}")
        try:
            if httpx.get(url + "/api/bots", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within 30 s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m citygames.server.loadtest", description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", help="a running server (loopback only); default: start one on a temporary database")
    ap.add_argument("--tables", type=int, default=50, help="tables played at once (default 50)")
    ap.add_argument("--players", type=int, default=3, help="human seats per table (default 3)")
    ap.add_argument("--seconds", type=float, default=20.0, help="stop after this long (default 20)")
    ap.add_argument("--actions", type=int, default=20000, help="stop after this many actions (default 20000)")
    ap.add_argument("--think", type=float, default=0.0,
                    help="mean pause of a client before acting, seconds (default 0: act at once)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = ap.parse_args(argv)
    if args.tables < 1 or args.players < 1 or args.seconds <= 0 or args.actions < 1:
        ap.error("--tables, --players, --seconds and --actions must be positive")
    proc = None
    tmp = None
    url = args.url
    if url is None:
        tmp = tempfile.TemporaryDirectory(prefix="citygames-load-")
        proc, url = _start_server(Path(tmp.name) / "load.sqlite3")
    elif not _is_loopback(url):
        ap.error(f"--url must be a loopback address (127.0.0.1, ::1, localhost), got {url}")
    try:
        out = asyncio.run(run(url.rstrip("/"), args.tables, args.players, args.seconds, args.actions, args.think,
                              args.seed))
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if tmp is not None:
            tmp.cleanup()
    if args.json:
        print(json.dumps(out))
    else:
        lat = out["latency_ms"]
        print(f"{out['tables']} tables, {out['sockets']} sockets, {out['actions']} actions in {out['seconds']} s: "
              f"{out['actions_per_s']} actions/s")
        print(f"latency send -> broadcast (ms): p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  "
              f"max {lat['max']}  mean {lat['mean']}")
        print(f"errors: {out['errors']}" + (f" (e.g. {out['error_samples'][0]})" if out["errors"] else "")
              + f"; finished tables: {out['finished_tables']}")
    return 0 if out["errors"] == 0 else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
