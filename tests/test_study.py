"""Studies: results folders of Parquet tables, backends (local processes and Ray), resuming an
interrupted run (a lost worker, Ctrl-C, SIGKILL of the whole run), CSV streaming and the CLI."""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from citygames.bots import BOTS, Bot, RandomBot
from citygames.cli import main
from citygames.sim import run_one, simulate, write_csv
from citygames.sim.backends import LocalBackend, RayBackend, ranges
from citygames.sim.results import ResultsError, iter_results, read_meta, read_table
from citygames.sim.study import run_study

BOTS3 = ("greedy", "random", "random")
CRASH_FLAG = "CITYGAMES_TEST_CRASH_FLAG"


class CrashBot(RandomBot):
    """A random bot that kills its worker process in the game with state seed 13, while the file
    named by ``$CITYGAMES_TEST_CRASH_FLAG`` exists (a lost worker, as when a machine dies)."""

    name = "crashy"

    def step(self, state, player=None):
        flag = os.environ.get(CRASH_FLAG)
        if flag and os.path.exists(flag) and state.seed == 13:
            os._exit(3)
        return super().step(state, player)


def _rows(path, table, sort):
    return read_table(path, table).to_pandas().sort_values(sort).reset_index(drop=True)


def test_results_folder_holds_every_game_seat_and_category(tmp_path):
    out = tmp_path / "toy.parquet"
    done = run_study("toy", {"num_players": 3}, BOTS3, 50, LocalBackend(2), seed=4, out=out,
                     progress=False, flush_games=7)
    assert done.played == 50 and done.interrupted is None and done.stats.games == 50
    assert len(list((out / "games").iterdir())) >= 4       # streamed part by part
    games = _rows(out, "games", "game")
    seats = _rows(out, "seats", ["game", "seat"])
    assert games["game"].tolist() == list(range(50)) and games["seed"].tolist() == list(range(4, 54))
    assert len(seats) == 150
    expected = simulate("toy", {"num_players": 3}, list(BOTS3), 50, seed=4, workers=1)
    assert seats["score"].tolist() == [s for r in expected for s in r.scores]
    assert seats["rank"].tolist() == [k for r in expected for k in r.ranks]
    assert games["winner"].tolist() == [r.winner for r in expected]
    assert games["actions"].tolist() == [r.actions for r in expected]
    cats = [c for c in seats.columns if c.startswith("cat_")]
    assert cats == ["cat_counters", "cat_secret_bonus", "cat_tokens", "cat_last_counter", "cat_penalties"]
    assert (seats[cats].sum(axis=1) == seats["score"]).all()
    assert set(seats["opt_num_players"]) == {3} and set(seats["overrides"]) == {"{}"}
    assert seats.loc[seats["won"], "rank"].eq(1).all()
    meta = read_meta(out)
    assert meta["game"] == "toy" and meta["bots"] == list(BOTS3) and meta["games"] == 50 and meta["seed"] == 4
    # the reader gives back what was written
    back = sorted(iter_results(out), key=lambda r: r.index)
    assert [(r.scores, r.ranks, r.winner) for r in back] == [(r.scores, r.ranks, r.winner) for r in expected]


def test_ray_and_local_backends_give_identical_rows(tmp_path):
    game = "seven_wonders_duel"
    local = tmp_path / "local.parquet"
    ray_out = tmp_path / "ray.parquet"
    run_study(game, {}, ("greedy", "random"), 40, LocalBackend(2), seed=11, out=local, progress=False)
    backend = RayBackend(num_cpus=2)
    try:
        assert backend.workers == 2
        run_study(game, {}, ("greedy", "random"), 40, backend, seed=11, out=ray_out, progress=False, flush_games=9)
    finally:
        backend.shutdown()
    assert read_meta(ray_out)["backend"] == "ray"
    for table, key in (("games", ["game"]), ("seats", ["game", "seat"]),
                       ("components", ["game", "seat", "kind", "component", "event", "when", "where"])):
        a, b = _rows(local, table, key), _rows(ray_out, table, key)
        assert len(a) == len(b) and a.equals(b), table
    assert len(_rows(local, "games", "game")) == 40


def test_resume_after_a_lost_worker_plays_each_missing_game_once(tmp_path, monkeypatch):
    flag = tmp_path / "crash"
    flag.write_text("")
    monkeypatch.setenv(CRASH_FLAG, str(flag))
    BOTS["crashy"] = CrashBot
    try:
        out = tmp_path / "run.parquet"
        first = run_study("toy", {"num_players": 2}, ("crashy", "random"), 60, LocalBackend(2), seed=0,
                          out=out, progress=False, flush_games=3)
        assert first.interrupted and "worker" in first.interrupted
        kept = sorted(read_table(out, "games", ["game"]).column("game").to_pylist())
        assert 13 not in kept and len(kept) < 60 and len(set(kept)) == len(kept)
        flag.unlink()
        second = run_study("toy", {"num_players": 2}, ("crashy", "random"), 60, LocalBackend(2), seed=0,
                           out=out, resume=True, progress=False, flush_games=3)
        assert second.interrupted is None and second.played == 60 - len(kept)
        assert second.stats.games == 60     # the summary covers the earlier games too
        games = read_table(out, "games").to_pandas()
        assert sorted(games["game"]) == list(range(60))
        fresh = simulate("toy", {"num_players": 2}, ["crashy", "random"], 60, seed=0, workers=1)
        by_index = games.set_index("game")
        assert [by_index.loc[r.index, "winner"] for r in fresh] == [r.winner for r in fresh]
        assert [by_index.loc[r.index, "actions"] for r in fresh] == [r.actions for r in fresh]
    finally:
        del BOTS["crashy"]


class _StopAfter:
    """A backend that plays like ``LocalBackend(1)`` and then acts as if Ctrl-C was pressed."""

    name = "local"

    def __init__(self, chunks):
        self.chunks = chunks

    def run(self, spec, todo):
        for k, part in enumerate(LocalBackend(1).run(spec, todo)):
            if k == self.chunks:
                raise KeyboardInterrupt
            yield part


def test_ctrl_c_keeps_what_finished_and_resume_completes(tmp_path):
    out = tmp_path / "run.parquet"
    first = run_study("toy", {}, ("random", "greedy"), 40, _StopAfter(3), out=out, progress=False, flush_games=5)
    assert first.interrupted == "interrupted (Ctrl-C)" and 0 < first.played < 40
    assert len(read_table(out, "games")) == first.played    # the buffer was written on the way out
    second = run_study("toy", {}, ("random", "greedy"), 40, LocalBackend(1), out=out, resume=True, progress=False)
    assert second.played == 40 - first.played
    assert sorted(read_table(out, "games", ["game"]).column("game").to_pylist()) == list(range(40))


def test_resume_after_sigkill_of_the_whole_run(tmp_path):
    """The run is killed (SIGKILL, no chance to flush) while writing parts; --resume completes it
    with every game exactly once, and the rows are those of an uninterrupted run."""
    out = tmp_path / "cap.parquet"
    cmd = [sys.executable, "-m", "citygames.cli", "simulate", "the_capitals", "--players", "2", "--games", "1000",
           "--seed", "5", "--out", str(out), "--part-games", "20", "--workers", "2", "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if len(list((out / "games").glob("part-*.parquet"))) >= 3 if (out / "games").is_dir() else False:
            break
        time.sleep(0.02)
    killed = proc.poll() is None
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    kept = read_table(out, "games", ["game"]).column("game").to_pylist()
    assert len(kept) == len(set(kept))
    assert killed and len(kept) < 1000    # it was killed in the middle of the run
    result = CliRunner().invoke(main, cmd[3:] + ["--resume"])
    assert result.exit_code == 0, result.output
    assert "Wrote 1000 games" in result.output
    games = read_table(out, "games").to_pandas().set_index("game").sort_index()
    assert games.index.tolist() == list(range(1000))
    assert len(read_table(out, "seats")) == 2000
    for i in (0, 57, 999):
        r = run_one("the_capitals", {"num_players": 2}, ["random", "random"], i, 5)
        assert (games.loc[i, "winner"], games.loc[i, "actions"]) == (r.winner, r.actions)
    # no part is left without its games part
    names = {p.name for p in (out / "games").glob("part-*.parquet")}
    assert {p.name for p in (out / "seats").glob("part-*.parquet")} == names


def test_resume_refuses_another_run_and_an_existing_folder_needs_resume(tmp_path):
    out = tmp_path / "run.parquet"
    run_study("toy", {}, ("random", "random"), 5, LocalBackend(1), seed=1, out=out, progress=False)
    with pytest.raises(ResultsError, match="exists; add --resume"):
        run_study("toy", {}, ("random", "random"), 5, LocalBackend(1), seed=1, out=out, progress=False)
    with pytest.raises(ResultsError, match="seed was 1, now 2"):
        run_study("toy", {}, ("random", "random"), 5, LocalBackend(1), seed=2, out=out, resume=True, progress=False)
    # asking for more games extends the run
    more = run_study("toy", {}, ("random", "random"), 8, LocalBackend(1), seed=1, out=out, resume=True,
                     progress=False)
    assert more.played == 3 and read_meta(out)["games"] == 8


def test_streamed_csv_equals_the_list_csv(tmp_path):
    streamed = tmp_path / "s.csv"
    listed = tmp_path / "l.csv"
    run_study("toy", {"num_players": 3}, BOTS3, 30, LocalBackend(2), seed=2, out=streamed, progress=False)
    write_csv(simulate("toy", {"num_players": 3}, list(BOTS3), 30, seed=2, workers=1), listed)
    assert streamed.read_text() == listed.read_text()
    with streamed.open() as fh:
        assert [int(r["game"]) for r in csv.DictReader(fh)] == list(range(30))


def test_ranges():
    assert ranges([5, 0, 1, 2, 7, 8]) == [range(0, 3), range(5, 6), range(7, 9)]
    assert ranges([]) == []


@pytest.mark.parametrize("args, message", [
    (["--out", "x.json"], "must end in .parquet"),
    (["--resume"], "--resume needs --out"),
    (["--out", "x.csv", "--resume"], "--resume needs a results folder"),
    (["--address", "auto"], "--address needs --backend ray"),
])
def test_simulate_bad_study_options_exit_2(args, message, tmp_path):
    result = CliRunner().invoke(main, ["simulate", "toy", "--games", "2", "--no-progress"] + args)
    assert result.exit_code == 2 and message in result.output


def test_cli_writes_a_results_folder_and_refuses_to_overwrite_it(tmp_path):
    out = tmp_path / "t.parquet"
    args = ["simulate", "toy", "--games", "12", "--workers", "1", "--no-progress", "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0 and "Wrote 12 games" in result.output
    assert pq.read_table(next((out / "seats").glob("part-*.parquet"))).num_rows == 24
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 2 and "exists; add --resume" in again.output
    done = CliRunner().invoke(main, args + ["--resume"])
    assert done.exit_code == 0 and "12 games" in done.output
    assert Path(out / "meta.json").exists()


def test_simulate_uses_one_worker_per_core_by_default():
    result = CliRunner().invoke(main, ["simulate", "toy", "--games", "40", "--no-progress"])
    assert result.exit_code == 0
    assert f"Played 40 games on local with {min(os.cpu_count() or 1, 40)} worker" in result.output


def test_a_data_override_changes_that_run_only_and_is_recorded(tmp_path):
    """--set board:setup.starting_coins=40 gives every seat 40 coins at the start; the override is in
    meta.json, in every row and in the records, and a run without it in the same process plays the
    default game."""
    key = "board.yaml:setup.starting_coins"
    with_set = tmp_path / "rich.parquet"
    plain = tmp_path / "plain.parquet"
    records = tmp_path / "records"
    args = ["simulate", "seven_wonders_duel", "--games", "30", "--workers", "1", "--no-progress"]
    result = CliRunner().invoke(main, args + ["--set", "board:setup.starting_coins=40", "--out", str(with_set),
                                              "--save-records", str(records)])
    assert result.exit_code == 0, result.output
    assert CliRunner().invoke(main, args + ["--out", str(plain)]).exit_code == 0
    assert read_meta(with_set)["overrides"] == {key: 40} and read_meta(plain)["overrides"] == {}
    rich = read_table(with_set, "seats").to_pandas()
    base = read_table(plain, "seats").to_pandas()
    assert set(rich["overrides"]) == {'{"board.yaml:setup.starting_coins": 40}'} and set(base["overrides"]) == {"{}"}
    assert rich["cat_coins"].mean() > base["cat_coins"].mean() + 2
    # the default run equals a fresh default run, so the override did not leak into it
    fresh = run_one("seven_wonders_duel", {}, ["random", "random"], 3, 0)
    row = base[base["game"] == 3].sort_values("seat")
    assert row["score"].tolist() == list(fresh.scores)
    # the records carry the override and replay to the same scores
    from citygames.core import load_record, replay
    record = load_record(next(records.iterdir()))
    assert record["options"]["data_overrides"] == {key: 40}
    from citygames.core import load_game
    start = load_game("seven_wonders_duel", **record["options"]).new_initial_state(seed=record["seed"])
    assert [p["coins"] for p in start.observation(0)["players"]] == [40, 40]
    state = replay(record)
    game_rows = rich[rich["game"] == int(next(records.iterdir()).stem.split("-")[-1])].sort_values("seat")
    assert state.scores() == game_rows["score"].tolist()
