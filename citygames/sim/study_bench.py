"""The study benchmark (``citygames bench-study``): how fast a study runs on each backend and how
much memory its parent process needs as the study grows.

Each measurement is a fresh process (``python -m citygames.sim.study_bench --child ...``) that
runs one study of random bots with its results streamed to a temporary results folder, and reports
its wall time once the backend is ready (and the backend's start-up apart), games/s, the share of
worker time spent playing (``busy``: the rest is scheduling, start-up and idling at the end) and
its own peak resident memory (``ru_maxrss`` of that process
only; worker processes are not counted). A benchmark, not a test: numbers vary with the machine
and its load.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Measurement:
    """One benchmarked study.

    Attributes:
        label: e.g. ``"local x2"``.
        games: games played.
        seconds: wall time of the study once the backend is ready (writing the results included), s.
        startup: seconds to start the backend (a local Ray instance takes several), s.
        games_per_s: ``games / seconds``.
        busy: worker seconds spent in games / (wall seconds x workers), 0..1.
        peak_rss_mb: peak resident memory of the study's own process, MiB.
    """

    label: str
    games: int
    seconds: float
    startup: float
    games_per_s: float
    busy: float
    peak_rss_mb: float


def _child(args: dict) -> dict:
    """Run one study in this process and return its measurement as a dict."""
    from citygames.core import load_game
    from citygames.sim.backends import make_backend
    from citygames.sim.study import run_study
    start = time.perf_counter()
    backend = make_backend(args["backend"], workers=args["workers"])
    game = load_game(args["game"], **args["options"])
    ready = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "bench.parquet")
        run_study(args["game"], game.options, ["random"] * game.num_players, args["games"], backend,
                  seed=args["seed"], out=out, progress=False)
    seconds = time.perf_counter() - ready
    if args["backend"] == "ray":
        backend.shutdown()
    return {"seconds": seconds, "startup": ready - start, "busy": backend.busy_seconds / (seconds * backend.workers),
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def measure(game: str, options: dict, games: int, backend: str, workers: int, seed: int = 0) -> Measurement:
    """Benchmark one study in a fresh process.

    Raises:
        RuntimeError: the child process failed (its error output is in the message).
    """
    args = {"game": game, "options": options, "games": games, "backend": backend, "workers": workers, "seed": seed}
    proc = subprocess.run([sys.executable, "-m", "citygames.sim.study_bench", "--child", json.dumps(args)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"benchmark of {backend} x{workers} failed:\n{proc.stderr[-2000:]}")
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    return Measurement(label=f"{backend} x{workers}", games=games, seconds=got["seconds"], startup=got["startup"],
                       games_per_s=games / got["seconds"], busy=got["busy"], peak_rss_mb=got["peak_rss_mb"])


if __name__ == "__main__":  # the child process of ``measure``
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        print(json.dumps(_child(json.loads(sys.argv[2]))))
    else:
        sys.exit("usage: python -m citygames.sim.study_bench --child JSON (use citygames bench-study)")
