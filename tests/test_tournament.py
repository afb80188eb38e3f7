"""The tournament: the schedule (seats rotated equally), the Bradley–Terry rating function and its
intervals on synthetic results, seeding by entrant (no mirrored self-play), streaming, continuing and
extending a run (``--resume``), the budget curve, and the ``citygames tournament`` command on a fast
game (7 Wonders Duel)."""

from __future__ import annotations

import csv
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner

from citygames.cli import main
from citygames.sim import backends
from citygames.sim.tournament import (budget_series, entrant_labels, pairwise, plot_ratings, rate, resume_games,
                                      rotations, run_tournament, schedule, split_bot_list, summary_rows,
                                      wilson)


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
    r = rate(_synthetic(0.8, 200, 1), ["strong", "weak"])
    assert r.rating[0] > r.rating[1]
    assert r.diff_low[0, 1] > 0                      # the interval of the difference excludes 0
    assert r.low[0] <= r.rating[0] <= r.high[0]
    assert r.order() == [0, 1]
    assert r.wins[0, 1] + r.wins[1, 0] == 200


def test_equal_bots_intervals_overlap_and_contain_no_difference():
    r = rate(_synthetic(0.5, 200, 2), ["a", "b"])
    assert r.diff_low[0, 1] <= 0 <= r.diff_high[0, 1]
    assert r.low[0] <= r.high[1] and r.low[1] <= r.high[0]


def test_rating_is_pure_and_seeded():
    games = _synthetic(0.6, 60, 5)
    a = rate(games, ["a", "b"], bootstrap=10, seed=9)
    b = rate(games, ["a", "b"], bootstrap=10, seed=9)
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
                                    "--games", "6", "--seed", "4", "--workers", "1",
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


def _sweep(games: int):
    """Entrant 0 wins every one of ``games`` two-player games, seats alternated."""
    return [((0, 1), (1, 2)) if g % 2 == 0 else ((1, 0), (2, 1)) for g in range(games)]


def test_a_sweep_has_an_interval_of_positive_width_that_excludes_a_tie_only_when_it_should():
    ten = rate(_sweep(10), ["a", "b"])
    assert ten.method == "wald"
    assert (ten.high - ten.low > 50).all()             # not the bootstrap's zero width
    assert ten.low[0] < ten.rating[0] < ten.high[0]
    assert 0 < ten.diff_low[0, 1] < ten.rating[0] - ten.rating[1] < ten.diff_high[0, 1]
    assert ten.score[0, 1] == 1.0 and 0.7 < ten.score_low[0, 1] < 0.75 and ten.score_high[0, 1] == pytest.approx(1)
    three = rate(_sweep(3), ["a", "b"])                 # 3-0 is no evidence of a stronger bot
    assert three.diff_low[0, 1] < 0 < three.diff_high[0, 1]
    (row,) = summary_rows(ten)                         # the claim a 2-bot tournament states
    assert (row["a"], row["b"], row["wins"], row["losses"], row["a_ahead"]) == ("a", "b", 10, 0, True)
    assert row["share_low"] > 0.5 and row["diff_low"] > 0
    assert summary_rows(three)[0]["a_ahead"] is False
    boot = rate(_sweep(10), ["a", "b"], bootstrap=20)   # the bootstrap stays available
    assert boot.method == "bootstrap" and boot.low[0] == boot.high[0]


def test_wald_intervals_cover_a_three_bot_chain_and_are_symmetric_in_the_pair():
    r = rate(_synthetic(0.7, 120, 4), ["a", "b"])
    assert np.allclose(r.diff_low, -r.diff_high.T) and r.diff_low[0, 1] > 0
    games = [((0, 1, 2), (1, 2, 3))] * 6 + [((1, 2, 0), (1, 2, 3))] * 6
    chain = rate(games, ["a", "b", "c"])
    assert chain.order() == [1, 0, 2] or chain.order() == [0, 1, 2]
    assert np.isfinite(chain.low).all() and (chain.high > chain.low).all()
    assert chain.rating.sum() == pytest.approx(0, abs=1e-6)


def test_several_seats_of_one_bot_in_a_game_count_as_one_game_of_evidence():
    # "a" against a field of three "b": 3 games won by "a" are 9 comparisons, but only 3 games
    field = rate([((0, 1, 1, 1), (1, 2, 3, 4)), ((1, 0, 1, 1), (2, 1, 3, 4)), ((1, 1, 0, 1), (2, 3, 1, 4))],
                 ["a", "b"])
    assert field.wins[0, 1] == 9
    assert field.diff_low[0, 1] < 0 < field.diff_high[0, 1]       # as for 3-0 in two-player games
    assert field.score_low[0, 1] == pytest.approx(wilson(3, 3)[0])


def test_wilson_interval():
    low, high = wilson(10, 10)
    assert low == pytest.approx(10 / (10 + 1.959963984540054 ** 2)) and high == pytest.approx(1)
    low, high = wilson(5, 10)
    assert low == pytest.approx(1 - high) and low < 0.5 < high
    assert wilson(0, 0) == (0, 1)


def test_self_play_is_not_mirrored_and_a_seed_gives_the_same_file(tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    done = run_tournament("seven_wonders_duel", {}, ["random", "random"], 8, seed=2, workers=1, out=a)
    first, second = done.results[:4], done.results[4:]      # the two seat orders of the same 4 deals
    assert [r.seed for r in first] == [r.seed for r in second]
    assert [r.bots for r in first] == [("random", "random#2")] * 4
    # with seat-based bot seeds, every game of the second order replayed the first one
    assert all((x.scores, x.actions) != (y.scores, y.actions) for x, y in zip(first, second))
    run_tournament("seven_wonders_duel", {}, ["random", "random"], 8, seed=2, workers=2, out=b)
    assert a.read_bytes() == b.read_bytes()


def test_a_bot_against_itself_rates_within_its_intervals():
    done = run_tournament("seven_wonders_duel", {}, ["random", "random"], 40, seed=2, workers=1)
    r = rate(done.games, done.labels)
    assert r.low[0] <= r.high[1] and r.low[1] <= r.high[0]      # the intervals overlap
    assert r.diff_low[0, 1] <= 0 <= r.diff_high[0, 1]           # no difference claimed
    assert r.score_low[0, 1] <= 0.5 <= r.score_high[0, 1]


def test_rows_are_on_disk_as_games_finish(tmp_path):
    out = tmp_path / "s.csv"
    seen = []

    def on_game(result):
        rows = list(csv.DictReader(out.open()))        # read back while the tournament runs
        seen.append((result.index, len(rows), rows[-1]["game"]))
    run_tournament("seven_wonders_duel", {}, ["random", "greedy"], 4, seed=1, workers=1, out=out, on_game=on_game)
    assert seen == [(k, k + 1, str(k)) for k in range(4)]


def test_budget_series_groups_one_search_bot_by_budget():
    specs = ["random", "ismcts:iterations=4", "ismcts:iterations=2", "ismcts:iterations=2,c=0.5", "greedy",
             "mcts:seconds=0.5", "mcts:seconds=0.1", "mcts"]
    series = {(s.label, s.budget): s.points for s in budget_series(specs)}
    assert series == {("ismcts", "iterations"): ((2.0, 2), (4.0, 1)),
                      ("mcts", "seconds"): ((0.1, 6), (0.5, 5))}
    assert budget_series(["random", "ismcts:iterations=2", "ismcts:iterations=2,c=0.5"]) == []
    # a root prior that grows with the budget (the levels' iterations // 16) keeps one line
    levels = ["ismcts:iterations=100,c=0.5,prior=6", "ismcts:iterations=500,c=0.5,prior=31",
              "ismcts:iterations=3000,c=0.5,prior=187", "ismcts:iterations=500,c=0.5,prior=100"]
    series = {(s.label, s.budget): s.points for s in budget_series(levels)}
    assert series == {("ismcts:c=0.5,prior=6%", "iterations"): ((100.0, 0), (500.0, 1), (3000.0, 2))}


def _png_height(path) -> int:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[20:24], "big")


def test_the_plot_gets_a_budget_panel_with_several_budgets(tmp_path):
    out, plot, summary = tmp_path / "b.csv", tmp_path / "b.png", tmp_path / "b-summary.csv"
    res = CliRunner().invoke(main, ["tournament", "seven_wonders_duel", "--bots",
                                    "ismcts:iterations=2,ismcts:iterations=4,random", "--games", "2",
                                    "--seed", "1", "--workers", "1", "--no-progress", "--out", str(out),
                                    "--plot", str(plot), "--summary", str(summary)])
    assert res.exit_code == 0, res.output
    assert f"Wrote 6 games to {out}" in res.output and f"Wrote the plot to {plot}" in res.output
    pairs = list(csv.DictReader(summary.open()))
    assert len(pairs) == 3 and all(float(p["wins"]) + float(p["draws"]) + float(p["losses"]) == 2 for p in pairs)
    ratings = rate([((0, 1), (1, 2)), ((1, 2), (1, 2)), ((2, 0), (2, 1))], ["a", "b", "c"])
    plain = tmp_path / "plain.png"
    plot_ratings(ratings, plain, specs=["random", "greedy", "ismcts"])
    assert _png_height(plot) > 1.5 * _png_height(plain)     # the second panel


@pytest.mark.parametrize("args", [
    ["--bots", "random"],                             # one bot
    ["--bots", "random,nosuchbot"],
    ["--bots", "random,greedy", "--games", "3"],      # not a multiple of the seats
    ["--bots", "random,greedy", "--games", "0"],
    ["--bots", "random,greedy", "--out", "x.txt"],
    ["--bots", "random,greedy", "--plot", "x.jpg"],
    ["--bots", "random,greedy", "--workers", "0"],
    ["--bots", "random,greedy", "--players", "5"],
    ["--bots", "random,greedy", "--summary", "x.txt"],
    ["--bots", "random,greedy", "--plot", "no/such/folder/x.png"],
    ["--bots", "random,greedy", "--out", "x.csv", "--summary", "x.csv"],
    ["--bots", "random,greedy", "--resume"],          # nothing to resume without --out
])
def test_bad_options_exit_2(args):
    res = CliRunner().invoke(main, ["tournament", "seven_wonders_duel", "--no-progress", *args])
    assert res.exit_code == 2, res.output


def test_more_seats_than_bots_seats_a_field(tmp_path):
    out = tmp_path / "c.csv"
    res = CliRunner().invoke(main, ["tournament", "the_capitals", "--players", "3", "--bots", "greedy,random",
                                    "--games", "3", "--workers", "1", "--bootstrap", "10", "--no-progress",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(out.open()))
    lineups = Counter(tuple(r[f"bot_{s}"] for s in range(3)) for r in rows)
    # each bot alone against two copies of the other, in every seat once
    assert lineups == Counter({("greedy", "random", "random"): 1, ("random", "random", "greedy"): 1,
                               ("random", "greedy", "random"): 1, ("random", "greedy", "greedy"): 1,
                               ("greedy", "greedy", "random"): 1, ("greedy", "random", "greedy"): 1})


# --- --resume --------------------------------------------------------------------------------------
def _tournament(out, games, *extra, bots="random,greedy"):
    """``citygames tournament seven_wonders_duel`` (seed 1, one worker: games run in this process)."""
    return CliRunner().invoke(main, ["tournament", "seven_wonders_duel", "--bots", bots, "--games", str(games),
                                     "--seed", "1", "--workers", "1", "--no-progress", "--out", str(out), *extra])


@pytest.fixture
def played(monkeypatch):
    """The games actually played, as ``(state seed, bots per seat)``: every game goes through
    ``runner.run_one`` in the worker, here this process."""
    calls = []

    def spy(game_id, options, bots, index, seed, *args):
        calls.append((seed + index, tuple(bots)))
        return run_one(game_id, options, bots, index, seed, *args)
    run_one = backends.run_one
    monkeypatch.setattr(backends, "run_one", spy)
    return calls


def test_resume_extends_a_run_to_the_file_of_a_fresh_run_playing_only_the_missing_games(tmp_path, played):
    fresh, grown = tmp_path / "fresh.csv", tmp_path / "grown.csv"
    assert _tournament(fresh, 8).exit_code == 0
    played.clear()
    res = _tournament(grown, 4, "--resume")               # no file yet: a fresh run
    assert res.exit_code == 0, res.output
    assert f"No {grown} yet: 4 games to play." in res.output and len(played) == 4
    played.clear()
    res = _tournament(grown, 8, "--resume")
    assert res.exit_code == 0, res.output
    assert f"Resuming {grown}: 4 of 8 games reused, 4 to play." in res.output
    assert f"Wrote 8 games to {grown} (4 reused, 4 played)" in res.output
    # only deals 3 and 4 of each seat order were played; deals 1 and 2 came from the file
    assert sorted(played) == [(3, ("greedy", "random")), (3, ("random", "greedy")),
                              (4, ("greedy", "random")), (4, ("random", "greedy"))]
    assert grown.read_bytes() == fresh.read_bytes()
    played.clear()
    res = _tournament(grown, 8, "--resume")                 # complete: nothing to play, file unchanged
    assert res.exit_code == 0 and "8 of 8 games reused, 0 to play" in res.output and played == []
    assert grown.read_bytes() == fresh.read_bytes()


def test_resume_completes_an_interrupted_run(tmp_path, played):
    fresh, cut = tmp_path / "fresh.csv", tmp_path / "cut.csv"
    bots = "random,greedy,random"                           # three groups (pairs)
    assert _tournament(fresh, 4, bots=bots).exit_code == 0
    lines = fresh.read_bytes().splitlines(keepends=True)
    cut.write_bytes(b"".join(lines[:1 + 5]))               # the header and the first 5 of 12 games
    played.clear()
    res = _tournament(cut, 4, "--resume", bots=bots)
    assert res.exit_code == 0, res.output
    assert "5 of 12 games reused, 7 to play" in res.output and len(played) == 7
    assert cut.read_bytes() == fresh.read_bytes()


@pytest.mark.parametrize("bots, seed, why", [
    # other bots: no row is a game of random against mcts
    ("random,mcts", "1", "4 of its 4 rows are not games of this tournament: 4 have a lineup"),
    # another seed: deals 2 and 3 instead of 1 and 2, so the rows of deal 1 are no game of it
    ("random,greedy", "2", "2 of its 4 rows are not games of this tournament: 2 play deals"),
    # the same labels and deals, but each bot is seeded by its place in --bots: other games
    ("greedy,random", "1", "in another order"),
])
def test_resume_refuses_a_file_of_another_tournament_and_leaves_it(tmp_path, bots, seed, why):
    out = tmp_path / "t.csv"
    assert _tournament(out, 4).exit_code == 0
    before = out.read_bytes()
    res = _tournament(out, 4, "--resume", "--seed", seed, bots=bots)
    assert res.exit_code == 2, res.output
    assert why in res.output.replace("\n", " ")
    assert out.read_bytes() == before and list(tmp_path.iterdir()) == [out]


def test_an_interrupted_resume_keeps_every_row_it_had_and_played(tmp_path):
    fresh, out = tmp_path / "fresh.csv", tmp_path / "t.csv"
    run_tournament("seven_wonders_duel", {}, ["random", "greedy"], 8, seed=1, out=fresh)
    run_tournament("seven_wonders_duel", {}, ["random", "greedy"], 4, seed=1, out=out)

    def stop(result):
        if result.index == 2:                               # the first game played (0 and 1 are reused)
            raise KeyboardInterrupt                         # as Ctrl-C would
    reuse = resume_games(out, ["random", "greedy"], 2, 8, seed=1)
    assert sorted(reuse) == [0, 1, 4, 5]                   # deals 1 and 2 of each seat order, re-indexed
    with pytest.raises(KeyboardInterrupt):
        run_tournament("seven_wonders_duel", {}, ["random", "greedy"], 8, seed=1, out=out, on_game=stop,
                       reuse=reuse)
    kept = resume_games(out, ["random", "greedy"], 2, 8, seed=1)
    assert {0, 1, 2, 4, 5} <= set(kept)                    # the reused rows and at least the game played
    done = run_tournament("seven_wonders_duel", {}, ["random", "greedy"], 8, seed=1, out=out, reuse=kept)
    assert done.reused == len(kept) and out.read_bytes() == fresh.read_bytes()
