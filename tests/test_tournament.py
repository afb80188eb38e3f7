"""The tournament: the schedule (seats rotated equally), the Bradley–Terry rating function on
synthetic results, and the ``citygames tournament`` command on a fast game (7 Wonders Duel)."""

from __future__ import annotations

import csv
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner

from citygames.cli import main
from citygames.sim.tournament import (entrant_labels, pairwise, rate, rotations, schedule,
                                      split_bot_list)


def _synthetic(p_win: float, games: int, seed: int):
    """Two-player games between entrants 0 and 1 (seats alternated): 0 wins with probability ``p_win``."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        who = (0, 1) if g % 2 == 0 else (1, 0)
        zero_wins = rng.random() < p_win
        ranks = (1, 2) if (who[0] == 0) == zero_wins else (2, 1)
        out.append((who, ranks))
    return out


def test_stronger_bot_rates_higher_and_its_interval_excludes_a_tie():
    r = rate(_synthetic(0.8, 200, 1), ["strong", "weak"], bootstrap=100, seed=3)
    assert r.rating[0] > r.rating[1]
    assert r.diff_low[0, 1] > 0                      # the interval of the difference excludes 0
    assert r.low[0] <= r.rating[0] <= r.high[0]
    assert r.order() == [0, 1]
    assert r.wins[0, 1] + r.wins[1, 0] == 200


def test_equal_bots_intervals_overlap_and_contain_no_difference():
    r = rate(_synthetic(0.5, 200, 2), ["a", "b"], bootstrap=200, seed=3)
    assert r.diff_low[0, 1] <= 0 <= r.diff_high[0, 1]
    assert r.low[0] <= r.high[1] and r.low[1] <= r.high[0]


def test_rating_is_pure_and_seeded():
    games = _synthetic(0.6, 60, 5)
    a = rate(games, ["a", "b"], bootstrap=50, seed=9)
    b = rate(games, ["a", "b"], bootstrap=50, seed=9)
    assert np.array_equal(a.rating, b.rating) and np.array_equal(a.low, b.low)


def test_a_clean_sweep_has_a_finite_rating_and_draws_count_half():
    sweep = rate([((0, 1), (1, 2))] * 10, ["a", "b"], bootstrap=0)
    assert np.isfinite(sweep.rating).all() and sweep.rating[0] > sweep.rating[1]
    w = pairwise([((0, 1), (1, 1)), ((0, 1, 1), (2, 1, 3))], 2)
    assert w[0, 1] == 0.5 + 1 and w[1, 0] == 0.5 + 1     # seats of the same entrant are not compared


def test_schedule_rotates_every_bot_over_every_seat_equally():
    for entrants, seats in ((3, 2), (2, 4), (4, 3)):
        plan = schedule(entrants, seats, 2 * seats, seed=0)
        counts = Counter()
        for p in plan:
            for seat, e in enumerate(p.lineup):
                counts[e, seat] += p.games
        per_seat = {e: {counts[e, s] for s in range(seats)} for e in range(entrants)}
        assert all(len(v) == 1 for v in per_seat.values()), per_seat
        # the rotations of a group share their deals
        assert len({p.deal_seed for p in plan}) == len(plan) // seats
    assert rotations((0, 1, 2)) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    with pytest.raises(ValueError):
        schedule(2, 2, 3)


def test_bot_list_and_labels():
    assert split_bot_list(" random, greedy,,") == ["random", "greedy"]
    assert entrant_labels(["random", "greedy", "random"]) == ["random", "greedy", "random#2"]


def _run(tmp_path, name, *extra):
    out, plot = tmp_path / f"{name}.csv", tmp_path / f"{name}.png"
    res = CliRunner().invoke(main, ["tournament", "seven_wonders_duel", "--bots", "random,greedy,random",
                                    "--games", "6", "--seed", "4", "--workers", "1", "--bootstrap", "100",
                                    "--no-progress", "--out", str(out), "--plot", str(plot), *extra])
    assert res.exit_code == 0, res.output
    return res, out, plot


def test_command_writes_file_and_plot_rotates_seats_and_is_reproducible(tmp_path):
    res, out, plot = _run(tmp_path, "a")
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 3 * 6                         # three pairs, 6 games each
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    seats = Counter((r[f"bot_{s}"], s) for r in rows for s in (0, 1))
    assert set(seats.values()) == {6}                 # every bot 6 times in each seat
    assert "Head to head" in res.output and "greedy" in res.output
    _, again, _ = _run(tmp_path, "b", "--workers", "2")   # same file whatever the workers
    assert again.read_bytes() == out.read_bytes()


def test_a_bot_against_itself_rates_within_its_intervals(tmp_path):
    from citygames.sim.tournament import run_tournament
    done = run_tournament("seven_wonders_duel", {}, ["random", "random"], 12, seed=2, workers=1)
    r = rate(done.games, done.labels, bootstrap=200, seed=2)
    assert r.low[0] <= r.rating[1] <= r.high[0] and r.low[1] <= r.rating[0] <= r.high[1]
    assert r.diff_low[0, 1] <= 0 <= r.diff_high[0, 1]


@pytest.mark.parametrize("args", [
    ["--bots", "random"],                             # one bot
    ["--bots", "random,nosuchbot"],
    ["--bots", "random,greedy", "--games", "3"],      # not a multiple of the seats
    ["--bots", "random,greedy", "--games", "0"],
    ["--bots", "random,greedy", "--out", "x.txt"],
    ["--bots", "random,greedy", "--plot", "x.jpg"],
    ["--bots", "random,greedy", "--workers", "0"],
    ["--bots", "random,greedy", "--players", "5"],
])
def test_bad_options_exit_2(args):
    res = CliRunner().invoke(main, ["tournament", "seven_wonders_duel", "--no-progress", *args])
    assert res.exit_code == 2, res.output


def test_more_seats_than_bots_seats_a_field(tmp_path):
    out = tmp_path / "c.csv"
    res = CliRunner().invoke(main, ["tournament", "the_capitals", "--players", "3", "--bots", "greedy,random",
                                    "--games", "3", "--workers", "1", "--bootstrap", "20", "--no-progress",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(out.open()))
    lineups = Counter(tuple(r[f"bot_{s}"] for s in range(3)) for r in rows)
    # each bot alone against two copies of the other, in every seat once
    assert lineups == Counter({("greedy", "random", "random"): 1, ("random", "random", "greedy"): 1,
                               ("random", "greedy", "random"): 1, ("random", "greedy", "greedy"): 1,
                               ("greedy", "greedy", "random"): 1, ("greedy", "random", "greedy"): 1})
