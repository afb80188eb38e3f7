"""Load test of the browser table: many tables driven over WebSockets from one process.

    python -m citygames.server.loadtest --tables 50                         # starts its own server
    python -m citygames.server.loadtest --tables 50 --url http://127.0.0.1:8000
    python -m citygames.server.loadtest --capacity --think 5 --bots 1 --workers 2 --db postgresql://...

Every human seat of every table is a WebSocket client playing a random legal action (preferring
placements without a penalty) as soon as it is to move, or after ``--think`` seconds of thought
(uniform between 0 and twice that mean). ``--bots K`` makes the last K seats of each table bots,
moved inside the server after its bot delay (``--bot-delay``, 0.6 s as ``serve`` by default). The
latency of an action is the time from sending it to receiving the broadcast ``state`` with the
new seq on the same socket: validation, the database commit and the broadcast. The run is bounded
by ``--seconds`` and ``--actions`` and only talks to a loopback address. It prints actions/s,
latency percentiles and the number of errors.

``--capacity`` (issue 16, "Load") ramps the number of tables held at once (``--steps``, default
100, 200, 400, 700, 1000, 1400, 2000): each step adds tables (a finished table is replaced by a new
one, so the count holds), waits ``--warmup`` seconds, measures for ``--seconds``, and stops at the
first step whose p95 is at or above ``--p95`` (100 ms); it reports the largest count held under
it. Each step also reports the CPU the server used (its processes, in cores) and the CPU of this
load generator, which shares the machine: read the figures with it in mind.

A server the load test starts itself (without ``--url``) gets ``--workers`` and ``--db`` (default:
a temporary SQLite file; several workers need a ``postgresql://`` URL).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
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
        self.since = 0.0    # only actions sent from this perf_counter() time on are counted
        self.workers: dict[str, int] = {}   # sockets opened on each worker (pid), several workers only
        # action -> broadcast as another seat of the table sees it (across workers when the seats
        # sit on different ones): (table, seq) -> send time, and the latencies
        self.sent: dict[tuple[str, int], float] = {}
        self.others: list[float] = []

    def reset(self) -> None:
        """Count from now on (a new step of the capacity ramp)."""
        self.latencies, self.errors, self.actions, self.finished_tables, self.others = [], [], 0, 0, []
        self.since = time.perf_counter()


def _choose(legal: list[dict], rng: random.Random) -> dict:
    """A random legal action, avoiding placement penalties when possible (a cheap greedy touch)."""
    calm = [a for a in legal if not a.get("penalty")]
    return rng.choice(calm or legal)


async def _seat(url: str, table: dict, seat: int, stats: Stats, rng: random.Random, deadline: float,
                max_actions: int, think: float, stop: asyncio.Event) -> None:
    from websockets.asyncio.client import connect

    ws_url = url.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
    players_watching = sum(1 for s in table["seats"] if s["kind"] == "human")
    path = f"/ws/tables/{table['table_id']}?seat={seat}&token={table['seats'][seat]['token']}"
    try:
        async with connect(ws_url + path, max_size=2 ** 22, open_timeout=30) as ws:
            worker = ws.response.headers.get("x-citygames-worker")   # set by a server with several workers
            if worker is not None:
                stats.workers[worker] = stats.workers.get(worker, 0) + 1
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
                if (m["seq"] - 1 != sent_seq and (when := stats.sent.pop((table["table_id"], m["seq"] - 1), None))
                        is not None and when >= stats.since):   # another seat's action reached this socket
                    stats.others.append(time.perf_counter() - when)
                if sent_seq >= 0 and m["seq"] == sent_seq + 1:
                    if sent_at >= stats.since:
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
                    if players_watching > 1:
                        stats.sent[(table["table_id"], sent_seq)] = sent_at
                    await ws.send(json.dumps({"type": "action", "seq": m["seq"], "action": action}))
    except Exception as exc:  # a failed connection counts as an error
        stats.errors.append(f"seat {seat} of {table['table_id']}: {type(exc).__name__}: {exc}")


def _seats_body(players: int, bots: int) -> list[dict]:
    """The ``seats`` of a load table: ``players - bots`` humans, then ``bots`` greedy bots."""
    return [{"kind": "human"}] * (players - bots) + [{"kind": "bot", "bot": "greedy"}] * bots


async def _create_table(client, seed: int, players: int, bots: int) -> dict:
    r = await client.post("/api/tables", json={"game": "the_capitals", "seed": seed,
                                               "seats": _seats_body(players, bots)})
    r.raise_for_status()
    return r.json()


async def run(url: str, tables: int, players: int, seconds: float, max_actions: int, think: float,
              seed: int, bots: int = 0, server_pid: int | None = None) -> dict:
    """Create ``tables`` tables (``players`` seats, the last ``bots`` of them bots) on the server at
    ``url`` and drive their human seats; the numbers."""
    import httpx

    if not _is_loopback(url):
        raise SystemExit(f"the load test only talks to a loopback address, not {url}")
    rng = random.Random(seed)
    stats = Stats()
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        created = [await _create_table(client, seed + i, players, bots) for i in range(tables)]
    gc.collect()
    gc.disable()   # as in capacity(): the generator's pauses are not the server's latency
    cpu0, gen0 = (_cpu_seconds(server_pid) if server_pid else 0.0), time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    stop = asyncio.Event()
    tasks = [asyncio.create_task(_seat(url, t, s, stats, random.Random(rng.random()), deadline, max_actions,
                                       think, stop))
             for t in created for s in range(players - bots)]
    everything = asyncio.gather(*tasks)
    stopped = asyncio.create_task(stop.wait())
    await asyncio.wait([everything, stopped], return_when=asyncio.FIRST_COMPLETED)
    elapsed = time.perf_counter() - start
    server_cores = round((_cpu_seconds(server_pid) - cpu0) / elapsed, 2) if server_pid and elapsed else None
    generator_cores = round((time.process_time() - gen0) / elapsed, 2) if elapsed else None
    if stop.is_set():  # the count is reached: seats still waiting for a message stop now
        for t in tasks:
            t.cancel()
    await asyncio.gather(everything, return_exceptions=True)
    gc.enable()
    stopped.cancel()
    lat = [x * 1000 for x in stats.latencies]
    return {
        "tables": tables, "sockets": tables * players, "actions": stats.actions, "seconds": round(elapsed, 2),
        "actions_per_s": round(stats.actions / elapsed, 1) if elapsed else 0.0,
        "latency_ms": {"p50": round(_percentile(lat, 50), 2), "p95": round(_percentile(lat, 95), 2),
                       "p99": round(_percentile(lat, 99), 2), "max": round(max(lat), 2) if lat else None,
                       "mean": round(statistics.fmean(lat), 2) if lat else None},
        "other_seat_latency_ms": _latency(stats.others),
        "errors": len(stats.errors), "error_samples": stats.errors[:5],
        "finished_tables": stats.finished_tables, "server_cores": server_cores, "generator_cores": generator_cores,
        "sockets_per_worker": sorted(stats.workers.values(), reverse=True),
    }


def _latency(lat_s: list[float]) -> dict:
    lat = [x * 1000 for x in lat_s]
    return {"p50": round(_percentile(lat, 50), 2), "p95": round(_percentile(lat, 95), 2),
            "p99": round(_percentile(lat, 99), 2), "max": round(max(lat), 2) if lat else None,
            "mean": round(statistics.fmean(lat), 2) if lat else None}


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` and its live descendants
    (a server's uvicorn workers and bot processes); 0.0 where /proc cannot tell."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    stats = {}
    try:
        for d in os.listdir("/proc"):
            if d.isdigit():
                try:
                    with open(f"/proc/{d}/stat") as f:
                        fields = f.read().rsplit(")", 1)[1].split()
                    stats[int(d)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
                except (OSError, ValueError, IndexError):
                    continue
    except OSError:
        return 0.0
    total, todo, seen = 0, [pid], set()
    while todo:
        p = todo.pop()
        if p in seen or p not in stats:
            continue
        seen.add(p)
        total += stats[p][1]
        todo.extend(c for c, (ppid, _) in stats.items() if ppid == p)
    return total / tick


async def capacity(url: str, steps: list[int], players: int, bots: int, think: float, warmup: float,
                   seconds: float, p95_limit_ms: float, seed: int, server_pid: int | None = None,
                   report=None) -> dict:
    """The capacity ramp (issue 16, "Load"): hold ``steps[0]``, then ``steps[1]``... tables at once
    (finished tables replaced), each step measured for ``seconds`` after ``warmup``; stops after
    the first step whose p95 latency reaches ``p95_limit_ms``. Returns ``{"steps": [...],
    "largest_under_limit": tables or None, ...}``; ``report(step_dict)`` is called after each step.
    CPU: ``server_cores`` (the server's processes, when ``server_pid`` is given) and
    ``generator_cores`` (this process) per step, in cores (CPU seconds per second)."""
    import httpx

    if not _is_loopback(url):
        raise SystemExit(f"the load test only talks to a loopback address, not {url}")
    rng = random.Random(seed)
    stats = Stats()
    stats.since = float("inf")
    stop = asyncio.Event()
    counter = [seed]
    drivers: list[asyncio.Task] = []

    async def drive(client):
        """Keep one table going: play it to its end, then start another."""
        while not stop.is_set():
            counter[0] += 1
            try:
                table = await _create_table(client, counter[0], players, bots)
            except Exception as exc:
                stats.errors.append(f"create: {type(exc).__name__}: {exc}")
                await asyncio.sleep(1)
                continue
            await asyncio.gather(*(_seat(url, table, s, stats, random.Random(rng.random()),
                                         time.perf_counter() + 1e9, 2 ** 62, think, stop) for s in range(players - bots)))

    lags: list[float] = []

    async def lag_probe():
        """How late this generator's own event loop wakes (its lag adds to every latency measured)."""
        while not stop.is_set():
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - t - 0.01)

    probe = asyncio.create_task(lag_probe())
    out_steps = []
    largest = None
    # this generator's own garbage collection would pause every socket it drives (a full pass over
    # thousands of sockets' objects takes hundreds of ms) and count as server latency: it is
    # collected between steps only
    gc.disable()
    async with httpx.AsyncClient(base_url=url, timeout=60,
                                 limits=httpx.Limits(max_connections=20)) as client:
        try:
            for n in steps:
                gc.collect()
                while len(drivers) < n:
                    drivers.append(asyncio.create_task(drive(client)))
                    if len(drivers) % 20 == 0:
                        await asyncio.sleep(0.05)   # spread the new tables' first moves a little
                await asyncio.sleep(warmup)
                stats.reset()
                lags.clear()
                cpu0, gen0, t0 = (_cpu_seconds(server_pid) if server_pid else 0.0), time.process_time(), \
                    time.perf_counter()
                await asyncio.sleep(seconds)
                elapsed = time.perf_counter() - t0
                step = {"tables": n, "sockets": n * (players - bots), "actions": stats.actions,
                        "actions_per_s": round(stats.actions / elapsed, 1), "latency_ms": _latency(stats.latencies),
                        "other_seat_latency_ms": _latency(stats.others),
                        "server_cores": round(((_cpu_seconds(server_pid) if server_pid else 0.0) - cpu0) / elapsed,
                                              2) if server_pid else None,
                        "generator_cores": round((time.process_time() - gen0) / elapsed, 2),
                        "generator_loop_lag_ms": _latency(lags),
                        "errors": len(stats.errors), "error_samples": stats.errors[:3],
                        "sockets_per_worker": sorted(stats.workers.values(), reverse=True)}
                out_steps.append(step)
                if report is not None:
                    report(step)
                ok = stats.latencies and step["latency_ms"]["p95"] < p95_limit_ms and not stats.errors
                if not ok:
                    break
                largest = n
        finally:
            stop.set()
            for t in drivers:
                t.cancel()
            await asyncio.gather(*drivers, return_exceptions=True)
            probe.cancel()
            gc.enable()
    return {"players": players, "bots": bots, "think_s": think, "p95_limit_ms": p95_limit_ms, "steps": out_steps,
            "largest_under_limit": largest}


def _serve_has(flag: str) -> bool:
    """Whether this checkout's ``citygames serve`` knows ``flag``."""
    out = subprocess.run([sys.executable, "-m", "citygames.cli", "serve", "--help"], capture_output=True, text=True)
    return flag in out.stdout


def _start_server(db: Path | str, bot_delay: float = 0.0, workers: int = 1) -> tuple[subprocess.Popen, str]:
    import httpx

    port = _free_port()
    cmd = [sys.executable, "-m", "citygames.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--db", str(db), "--bot-delay", str(bot_delay)]
    if workers > 1:
        cmd += ["--workers", str(workers)]
    # the server's per-client rate limits would throttle this one client: a server the load test
    # starts for itself runs without them (when its checkout has them: the before/after comparisons)
    cmd += ["--no-rate-limits"] if _serve_has("--no-rate-limits") else []
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(os.environ))
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
    ap.add_argument("--bots", type=int, default=0,
                    help="bot seats per table (the last ones), moved by the server after its bot delay (default 0)")
    ap.add_argument("--bot-delay", type=float, default=0.6,
                    help="the bot delay of a server the load test starts (default 0.6 s, as serve)")
    ap.add_argument("--workers", type=int, default=1, help="worker processes of a server the load test starts")
    ap.add_argument("--db", help="database of a server the load test starts (default: a temporary SQLite file; "
                                 "--workers above 1 needs postgresql://...)")
    ap.add_argument("--capacity", action="store_true",
                    help="ramp the number of tables (--steps) and report the largest held with p95 under --p95")
    ap.add_argument("--steps", default="100,200,400,700,1000,1400,2000",
                    help="table counts of the capacity ramp (default 100,200,400,700,1000,1400,2000)")
    ap.add_argument("--warmup", type=float, default=10.0, help="seconds before each capacity step is measured")
    ap.add_argument("--p95", type=float, default=100.0, help="the capacity ramp's p95 limit, ms (default 100)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = ap.parse_args(argv)
    if args.tables < 1 or args.players < 1 or args.seconds <= 0 or args.actions < 1:
        ap.error("--tables, --players, --seconds and --actions must be positive")
    if not 0 <= args.bots < args.players:
        ap.error("--bots must leave at least one human seat")
    try:
        steps = [int(x) for x in args.steps.split(",") if x.strip()]
    except ValueError:
        ap.error("--steps must be table counts separated by commas")
    proc = None
    tmp = None
    url = args.url
    if url is None:
        db = args.db
        if db is None:
            tmp = tempfile.TemporaryDirectory(prefix="citygames-load-")
            db = Path(tmp.name) / "load.sqlite3"
        proc, url = _start_server(db, bot_delay=args.bot_delay, workers=args.workers)
    elif not _is_loopback(url):
        ap.error(f"--url must be a loopback address (127.0.0.1, ::1, localhost), got {url}")
    try:
        if args.capacity:
            def report(step):
                if not args.json:
                    lat = step["latency_ms"]
                    print(f"{step['tables']:5d} tables: {step['actions_per_s']:7.1f} actions/s  p50 {lat['p50']:7.2f}"
                          f"  p95 {lat['p95']:7.2f} ms  (other seat p95 {step['other_seat_latency_ms']['p95']} ms)"
                          f"  server {step['server_cores']} cores  generator "
                          f"{step['generator_cores']} cores (loop lag p95 {step['generator_loop_lag_ms']['p95']} ms)"
                          f"  errors {step['errors']}"
                          + (f"  sockets per worker {step['sockets_per_worker']}" if step["sockets_per_worker"] else ""),
                          flush=True)
            out = asyncio.run(capacity(url.rstrip("/"), steps, args.players, args.bots, args.think, args.warmup,
                                       args.seconds, args.p95, args.seed, proc.pid if proc else None, report))
            out["workers"] = args.workers if proc else None
        else:
            out = asyncio.run(run(url.rstrip("/"), args.tables, args.players, args.seconds, args.actions,
                                  args.think, args.seed, args.bots, proc.pid if proc else None))
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
    elif args.capacity:
        print(f"largest number of tables held with p95 under {args.p95:g} ms: {out['largest_under_limit']}")
        return 0
    else:
        lat = out["latency_ms"]
        print(f"{out['tables']} tables, {out['sockets']} sockets, {out['actions']} actions in {out['seconds']} s: "
              f"{out['actions_per_s']} actions/s")
        print(f"latency send -> broadcast (ms): p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  "
              f"max {lat['max']}  mean {lat['mean']}")
        other = out["other_seat_latency_ms"]
        print(f"latency send -> another seat's socket (ms): p50 {other['p50']}  p95 {other['p95']}")
        if out["server_cores"] is not None:
            print(f"CPU: server {out['server_cores']} cores, this load generator {out['generator_cores']} cores")
        print(f"errors: {out['errors']}" + (f" (e.g. {out['error_samples'][0]})" if out["errors"] else "")
              + f"; finished tables: {out['finished_tables']}")
    if args.capacity:
        return 0
    return 0 if out["errors"] == 0 else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
