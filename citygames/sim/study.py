"""A study: ``citygames simulate`` with its results streamed to disk as games finish.

``run_study`` plays the games on a backend (``backends``), folds each finished chunk into
constant-size statistics (``StatsAccumulator``) and writes it to a results folder of Parquet parts
(``results``) or a CSV file, so the parent process holds at most one flush of games whatever the
size of the run. An interrupted run (Ctrl-C, a lost worker) keeps every game that finished;
``resume=True`` with the same ``--out`` plays exactly the games still missing.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from citygames import __version__
from citygames.core import load_game

from .backends import RunInterrupted, RunSpec, ranges
from .runner import GameResult, progress_bar
from .stats import SimStats, StatsAccumulator, csv_header


@dataclass
class StudyOutcome:
    """What ``run_study`` did.

    Attributes:
        stats: statistics of every game in the results (earlier runs included when resumed).
        played: games played by this call.
        total: games the run asks for.
        interrupted: why the run stopped early (``None`` when complete).
    """

    stats: SimStats
    played: int
    total: int
    interrupted: str | None = None


def out_format(path: str | Path) -> str:
    """``"parquet"`` for a path ending in ``.parquet`` (a results folder), ``"csv"`` for ``.csv``.

    Raises:
        ValueError: another ending.
    """
    suffix = Path(path).suffix.lower()
    if suffix == ".parquet":
        return "parquet"
    if suffix == ".csv":
        return "csv"
    raise ValueError(f"--out must end in .parquet (a results folder) or .csv, got {str(path)!r}")


class _CsvStream:
    """Writes ``write_csv``'s rows in game order as chunks arrive in any order (the run must cover
    ``range(games)``)."""

    def __init__(self, path: Path, num_players: int, outcome: bool):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.fh = path.open("w", newline="")
        self.writer = csv.writer(self.fh)
        self.writer.writerow(csv_header(num_players, outcome))
        self.n = num_players
        self.outcome = outcome
        self.next = 0
        self.waiting: dict[int, GameResult] = {}

    def add(self, results: Sequence[GameResult]) -> None:
        for r in results:
            self.waiting[r.index] = r
        while self.next in self.waiting:
            r = self.waiting.pop(self.next)
            row = [r.index, r.seed, r.actions, r.winner, r.bots[r.winner] if r.winner >= 0 else ""]
            if self.outcome:
                row.append(r.outcome or "")
            for s in range(self.n):
                row += [r.bots[s], r.scores[s], r.ranks[s], r.returns[s]]
            self.writer.writerow(row)
            self.next += 1

    def close(self) -> None:
        self.fh.close()


def run_study(game_id: str, options: dict, bots: Sequence[str], games: int, backend, seed: int = 0,
              out: str | Path | None = None, resume: bool = False, save_records: str | Path | None = None,
              progress: bool = True, console=None, flush_games: int = 2000) -> StudyOutcome:
    """Play ``games`` seeded games and stream their results to ``out``.

    Args:
        game_id, options: the game (options may hold ``data_overrides``).
        bots: bot name per seat.
        games: games the run asks for (indices ``0 .. games-1``; game ``i`` has state seed ``seed+i``).
        backend: a ``LocalBackend`` or ``RayBackend``.
        out: a results folder (``*.parquet``: games, seats, score categories and facts) or a CSV
            file (``*.csv``: one row per game), or ``None``.
        resume: complete the run already in ``out`` (a results folder of the same game, options,
            overrides, bots and seed): only the missing indices are played.
        save_records: folder for every game's record.
        progress: show a progress bar (on ``console``).
        flush_games: games per Parquet part.

    Returns:
        a ``StudyOutcome``; when interrupted (Ctrl-C, a lost worker), the games that finished are
        written and ``interrupted`` says why.

    Raises:
        ValueError: a bad ``out`` ending, ``resume`` without a results folder.
        citygames.sim.results.ResultsError: ``out`` exists without ``resume``, or holds another run.
        RuntimeError: a game failed (engine or bot error; what finished before is written).
    """
    from . import results as res
    game = load_game(game_id, **options)
    n = game.num_players
    fmt = out_format(out) if out is not None else None
    if resume and fmt != "parquet":
        raise ValueError("--resume needs a results folder (--out ending in .parquet)")
    details = fmt == "parquet"
    acc = StatsAccumulator()
    todo = [range(games)]
    writer = None
    csv_stream = None
    done_before = 0
    if fmt == "parquet":
        probe = game.new_initial_state(seed=seed)
        meta = {"game": game_id, "options": {k: v for k, v in game.options.items() if k != "data_overrides"},
                "overrides": dict(game.options.get("data_overrides") or {}), "bots": list(bots), "seed": seed,
                "games": games, "categories": list(probe.score_breakdown(0)),
                "citygames_version": __version__, "backend": backend.name}
        writer = res.open_results(out, meta, resume=resume, flush_games=flush_games)
        if resume:
            done = res.done_indices(out)
            for r in res.iter_results(out):
                acc.add(r)
            done_before = len(done)
            todo = ranges(i for i in range(games) if i not in done)
    elif fmt == "csv":
        csv_stream = _CsvStream(Path(out), n, outcome=_reports_outcome(game, seed))
    if save_records is not None:
        Path(save_records).mkdir(parents=True, exist_ok=True)
    table_meta = None if writer is None else {k: writer.meta[k] for k in ("options", "overrides", "categories")}
    spec = RunSpec(game_id, dict(options), tuple(bots), seed,
                   None if save_records is None else str(save_records), details, table_meta)
    played = 0
    interrupted = None
    try:
        with progress_bar(game_id, done_before + sum(len(r) for r in todo), progress, console,
                          done=done_before) as advance:
            try:
                for part in backend.run(spec, todo):
                    for r in part:
                        acc.add(r)
                    if writer is not None:
                        writer.add(part)
                    if csv_stream is not None:
                        csv_stream.add(part)
                    played += len(part)
                    advance(len(part))
            except KeyboardInterrupt:
                interrupted = "interrupted (Ctrl-C)"
            except RunInterrupted as exc:
                interrupted = str(exc)
    finally:
        if writer is not None:
            writer.close()
        if csv_stream is not None:
            csv_stream.close()
    return StudyOutcome(stats=acc.stats(), played=played, total=games, interrupted=interrupted)


def _reports_outcome(game, seed: int) -> bool:
    """Whether the game names its outcomes (``State.outcome`` overridden), for the CSV's columns."""
    from citygames.core import State
    state_cls = type(game.new_initial_state(seed=seed))
    return state_cls.outcome is not State.outcome
