"""Tests of citygames.sim (runner, statistics, CSV, bench) on the toy game."""

from __future__ import annotations

import csv
import math

import pytest

from citygames.core import GameOptionError, load_game, load_record, replay
from citygames.sim import (GameResult, bot_seeds, compute_stats, csv_header, record_path,
                           simulate, summary_text, wilson_interval, write_csv)
from citygames.sim.bench import run_bench, sample_states

BOTS3 = ["greedy", "random", "random"]


def test_results_do_not_depend_on_workers():
    one = simulate("toy", {"num_players": 3}, BOTS3, 60, seed=7, workers=1)
    two = simulate("toy", {"num_players": 3}, BOTS3, 60, seed=7, workers=2)
    assert one == two
    assert [r.index for r in two] == list(range(60))
    assert [r.seed for r in two] == list(range(7, 67))
    other = simulate("toy", {"num_players": 3}, BOTS3, 60, seed=8, workers=1)
    assert other != one


def test_game_i_is_reproducible_alone():
    run = simulate("toy", {"num_players": 3}, BOTS3, 10, seed=3, workers=1)
    alone = simulate("toy", {"num_players": 3}, BOTS3, 1, seed=3 + 6, workers=1)[0]
    assert (alone.scores, alone.actions, alone.winner) == (run[6].scores, run[6].actions, run[6].winner)


def test_result_fields():
    results = simulate("toy", {"num_players": 4}, ["greedy"], 20, seed=0, workers=1)
    for r in results:
        assert r.bots == ("greedy",) * 4
        assert sorted(r.ranks) == [1, 2, 3, 4]
        assert r.ranks[r.winner] == 1 and r.returns[r.winner] == 1.0 and sum(r.returns) == 1.0
        assert r.actions >= 3 and r.num_players == 4
        assert max(r.scores) == r.scores[r.winner] or r.scores.count(max(r.scores)) > 1


def test_bot_seeds():
    assert bot_seeds(5, 3) == bot_seeds(5, 3)
    assert len(set(bot_seeds(5, 3))) == 3
    assert bot_seeds(5, 3) != bot_seeds(6, 3)


def test_records_written_replay_to_the_same_scores(tmp_path):
    results = simulate("toy", {"num_players": 3, "big_pile": True}, BOTS3, 12, seed=2, workers=2,
                       save_records=tmp_path / "recs")
    files = sorted((tmp_path / "recs").iterdir())
    assert len(files) == 12
    for r in results:
        path = record_path(tmp_path / "recs", "toy", r.index)
        assert path.name == f"toy-{r.index:06d}.json"
        record = load_record(path)
        assert record["seed"] == r.seed
        state = replay(record)
        assert state.is_terminal()
        assert tuple(state.scores()) == r.scores and len(state.history) == r.actions


def test_simulate_errors():
    with pytest.raises(GameOptionError):
        simulate("nope", {}, ["random"], 1)
    with pytest.raises(GameOptionError):
        simulate("toy", {"colour": 1}, ["random"], 1)
    with pytest.raises(ValueError, match="unknown bot"):
        simulate("toy", {}, ["random", "wizard"], 1)
    with pytest.raises(ValueError, match="needs 3 bots"):
        simulate("toy", {"num_players": 3}, ["random", "random"], 1)
    with pytest.raises(ValueError, match="workers"):
        simulate("toy", {}, ["random"], 1, workers=0)
    assert simulate("toy", {}, ["random"], 0) == []


def test_progress_bar_runs(capsys):
    from rich.console import Console
    import io
    buf = io.StringIO()
    results = simulate("toy", {}, ["random"], 5, seed=0, workers=1, progress=True, console=Console(file=buf))
    assert len(results) == 5
    assert "5/5" in buf.getvalue()


# --- statistics ---------------------------------------------------------------------------
@pytest.mark.parametrize("k, n, low, high", [
    (5, 10, 0.2366, 0.7634),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),
    (1, 1, 0.2065, 1.0),
])
def test_wilson_interval_known_values(k, n, low, high):
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)


def test_wilson_interval_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(50, 100, z=1.0)
    assert lo < 0.5 < hi and hi - lo < wilson_interval(50, 100)[1] - wilson_interval(50, 100)[0]
    for bad in [(3, 2), (-1, 5), (1, -1)]:
        with pytest.raises(ValueError):
            wilson_interval(*bad)


def _result(index, scores, winner, actions, bots=("greedy", "random")):
    ranks = [0] * len(scores)
    order = sorted(range(len(scores)), key=lambda s: (s != winner, -scores[s], s))
    for place, seat in enumerate(order, 1):
        ranks[seat] = place
    returns = tuple(1.0 if s == winner else 0.0 for s in range(len(scores)))
    return GameResult(index, index, tuple(bots), tuple(scores), tuple(ranks), returns, winner, actions)


def test_compute_stats_by_seat_and_bot():
    results = [
        _result(0, [10, 4], 0, 6),
        _result(1, [8, 9], 1, 8),
        _result(2, [12, 2], 0, 4, bots=("random", "greedy")),
        _result(3, [6, 6], 0, 10, bots=("random", "greedy")),
    ]
    stats = compute_stats(results)
    assert stats.games == 4
    s0, s1 = stats.seats
    assert (s0.label, s0.games, s0.wins, s0.win_rate) == ("seat 0", 4, 3, 0.75)
    assert (s0.win_low, s0.win_high) == wilson_interval(3, 4)
    assert s0.score_mean == 9.0 and s0.score_sd == pytest.approx(math.sqrt(20 / 3))
    assert s1.wins == 1 and s1.score_mean == 5.25
    greedy, random_ = stats.bots
    assert greedy.label == "greedy" and random_.label == "random"
    # greedy: seat 0 in games 0-1 (scores 10, 8; won game 0), seat 1 in games 2-3 (2, 6; lost)
    assert (greedy.games, greedy.wins, greedy.score_mean) == (4, 1, 6.5)
    assert (random_.games, random_.wins, random_.score_mean) == (4, 3, 7.75)
    assert greedy.rank_mean == 1.75
    assert (stats.length_mean, stats.length_min, stats.length_max) == (7.0, 4, 10)
    assert stats.length_sd == pytest.approx(math.sqrt(20 / 3))


def test_compute_stats_edge_cases():
    empty = compute_stats([])
    assert empty.games == 0 and empty.seats == () and empty.length_mean == 0.0
    single = compute_stats([_result(0, [3, 1], 0, 5)])
    assert single.seats[0].score_sd == 0.0 and single.length_sd == 0.0
    with pytest.raises(ValueError, match="mix"):
        compute_stats([_result(0, [1, 2], 1, 3), _result(1, [1, 2, 3], 2, 3, bots=("a", "b", "c"))])


def test_summary_text():
    results = simulate("toy", {"num_players": 3}, BOTS3, 30, seed=0, workers=1)
    text = summary_text(results, title="toy, 3 players")
    assert text.startswith("toy, 3 players\n30 games")
    for piece in ("By seat", "By bot", "seat 2", "greedy", "random", "95% CI", "score mean",
                  "Game length (actions)"):
        assert piece in text
    assert summary_text([]).strip() == "0 games"


# --- CSV ----------------------------------------------------------------------------------
def test_csv_columns_and_rows(tmp_path):
    results = simulate("toy", {"num_players": 3}, BOTS3, 15, seed=4, workers=1)
    path = tmp_path / "out" / "results.csv"
    write_csv(results, path)
    with path.open() as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == csv_header(3) == [
        "game", "seed", "actions", "winner", "winner_bot",
        "seat0_bot", "seat0_score", "seat0_rank", "seat0_return",
        "seat1_bot", "seat1_score", "seat1_rank", "seat1_return",
        "seat2_bot", "seat2_score", "seat2_rank", "seat2_return"]
    assert len(rows) == 15
    for row, r in zip(rows, results):
        assert int(row["game"]) == r.index and int(row["seed"]) == r.seed
        assert int(row["winner"]) == r.winner and row["winner_bot"] == r.bots[r.winner]
        for s in range(3):
            assert row[f"seat{s}_bot"] == BOTS3[s]
            assert int(row[f"seat{s}_score"]) == r.scores[s]
            assert int(row[f"seat{s}_rank"]) == r.ranks[s]
            assert float(row[f"seat{s}_return"]) == r.returns[s]


# --- bench --------------------------------------------------------------------------------
def test_bench_returns_three_positive_rates():
    rates = run_bench(load_game("toy", num_players=3), seconds=0.15, seed=1)
    assert set(rates) == {"actions_per_s", "clones_per_s", "games_per_s"}
    assert all(v > 0 for v in rates.values())
    with pytest.raises(ValueError):
        run_bench(load_game("toy"), seconds=0)


def test_sample_states_spread_along_games():
    states = sample_states(load_game("toy"), 30, seed=0)
    assert len(states) == 30
    assert len({len(s.history) for s in states}) > 3


def test_a_failing_game_names_its_index_and_seed():
    from citygames.bots import BOTS, Bot

    class BrokenBot(Bot):
        name = "broken"

        def step(self, state, player=None):
            raise KeyError("boom")

    BOTS["broken"] = BrokenBot
    try:
        with pytest.raises(RuntimeError, match=r"toy game 0 \(seed 5, bots broken,random\) failed: KeyError"):
            simulate("toy", {}, ["broken", "random"], 2, seed=5, workers=1)
    finally:
        del BOTS["broken"]
