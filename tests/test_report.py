"""Tests of ``citygames report`` (citygames.sim.report): statistics checked by hand on small synthetic
results folders, the pages' sections and images, the comparison of two runs and the errors."""

from __future__ import annotations

import csv
import math
import re

import pytest

from citygames.sim import GameResult, wilson_interval
from citygames.sim.report import (build_report, compare_win_rates, component_stats,
                                  load_run, newcombe_difference, ranked, t_quantile, welch_difference, wilson)
from citygames.sim.results import open_results

SECTIONS = ["run", "win-rates", "scores", "categories", "length", "components"]
COMPARE_SECTIONS = ["runs", "win-rates", "scores", "length", "components"]


def game(index: int, winner: int, scores=(10, 5), facts=(), outcome=None, bots=("greedy", "random")) -> GameResult:
    """A finished 2-seat game won by ``winner`` (-1: shared), with score categories that sum to the score."""
    n = len(bots)
    if winner >= 0:
        ranks = tuple(1 if s == winner else 2 for s in range(n))
        returns = tuple(1.0 if s == winner else 0.0 for s in range(n))
    else:
        ranks, returns = (1,) * n, (0.5,) * n
    breakdowns = tuple({"buildings": sc + 3, "penalties": -3} for sc in scores)
    return GameResult(index=index, seed=index, bots=tuple(bots), scores=tuple(scores), ranks=ranks,
                      returns=returns, winner=winner, actions=20 + index, outcome=outcome,
                      breakdowns=breakdowns, facts=tuple(facts))


def folder(path, games, game_id="toy", options=None, overrides=None, bots=("greedy", "random"),
           categories=("buildings", "penalties")):
    meta = {"game": game_id, "options": options or {"num_players": len(bots)}, "overrides": overrides or {},
            "bots": list(bots), "seed": 0, "games": len(games), "categories": list(categories),
            "backend": "local"}
    writer = open_results(path, meta, flush_games=4)   # several parts
    writer.add(games)
    writer.close()
    return path


PARK = ("tile", "Park", "built")

# Six games, two seats. The Park is built by the winner in games 0 and 1 (twice by seat 0 in game 0:
# one seat-game), by the loser in games 2 and 4, by nobody in game 3 and by seat 0 in the shared
# victory of game 5. The Bank is discarded once, by the loser of game 3.
HAND_GAMES = [
    game(0, 0, facts=[(0, *PARK, 2, "a1"), (0, *PARK, 1, "b2"), (1, "card", "Bank", "bought", 3, "")]),
    game(1, 1, facts=[(1, *PARK, 3, "a1")], outcome="military"),
    game(2, 0, facts=[(1, *PARK, 4, "c3")]),
    game(3, 1, facts=[(0, "card", "Bank", "discarded", 2, "")], outcome="military"),
    game(4, 0, facts=[(1, *PARK, 5, "a1")], outcome="civilian"),
    game(5, -1, scores=(7, 7), facts=[(0, *PARK, 6, "a1")]),
]


def test_component_statistics_agree_with_a_count_by_hand(tmp_path):
    path = folder(tmp_path / "hand.parquet", HAND_GAMES)
    # 12 seat-games, 5 sole victories (game 5 is shared: no win)
    comps = component_stats(path, seat_games=12, wins=5).set_index(["kind", "component", "event"])
    park = comps.loc[PARK]
    assert park.with_n == 5 and park.with_wins == 2          # games 0,1,2,4,5; won in 0 and 1
    assert park.without_n == 7 and park.without_wins == 3    # wins of games 2,3,4 by the other seat
    assert park.share == pytest.approx(5 / 12)
    assert park.with_rate == pytest.approx(2 / 5)
    assert park.without_rate == pytest.approx(3 / 7)
    assert park.difference == pytest.approx(2 / 5 - 3 / 7)
    assert (park.with_low, park.with_high) == pytest.approx(wilson_interval(2, 5))
    assert (park.without_low, park.without_high) == pytest.approx(wilson_interval(3, 7))
    assert (park.share_low, park.share_high) == pytest.approx(wilson_interval(5, 12))
    assert park.when_mean == pytest.approx((1 + 3 + 4 + 5 + 6) / 5)   # first time in each seat-game
    bank = comps.loc[("card", "Bank", "discarded")]
    assert (bank.with_n, bank.with_wins, bank.without_n, bank.without_wins) == (1, 0, 11, 5)
    bought = comps.loc[("card", "Bank", "bought")]
    assert (bought.with_n, bought.with_wins) == (1, 0)
    assert len(comps) == 3
    # sorted by the difference, largest first
    assert list(component_stats(path, 12, 5)["difference"]) == sorted(comps["difference"], reverse=True)
    # load_run counts seat-games and wins from the seats table
    loaded = load_run(path)
    assert len(loaded.seats) == 12 and int(loaded.seats["won"].sum()) == 5
    assert loaded.components.set_index(["kind", "component", "event"]).loc[PARK].with_n == 5


def test_report_has_every_section_its_images_and_the_component_csv(tmp_path, run):
    path = folder(tmp_path / "hand.parquet", HAND_GAMES)
    out = tmp_path / "deep" / "report"     # created, parents too
    result = run("report", path, "--out", out, "--min-count", 1)
    assert result.exit_code == 0, result.output
    assert f"Wrote {out / 'index.html'}" in result.output
    page = (out / "index.html").read_text()
    ids = re.findall(r'<section id="([^"]+)">', page)
    assert ids == SECTIONS
    images = re.findall(r'<img src="([^"]+)"', page)
    assert {"win_rates.png", "scores.png", "categories.png", "length.png", "components.png"} <= set(images)
    for name in images:
        assert (out / name).stat().st_size > 1000
    assert "<script" not in page
    for text in ("Park", "military", "1/2 = 50.0%", "buildings", "penalties", "greedy"):
        assert text in page
    with open(out / "components.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    park = next(r for r in rows if (r["kind"], r["component"], r["event"]) == PARK)
    assert (int(park["with_n"]), int(park["with_wins"]), int(park["without_n"])) == (5, 2, 7)
    assert float(park["with_rate"]) == pytest.approx(0.4)


def test_report_without_component_facts_score_categories_or_outcomes(tmp_path, run):
    games = [game(i, i % 2) for i in range(5)]
    path = folder(tmp_path / "plain.parquet", games, categories=())
    out = tmp_path / "r"
    build_report(path, out)
    page = (out / "index.html").read_text()
    assert re.findall(r'<section id="([^"]+)">', page) == SECTIONS
    assert "No component facts" in page
    assert "reports no score categories" in page and "categories.png" not in page
    assert "This game reports no outcomes" in page
    with open(out / "components.csv") as fh:
        assert fh.read().startswith("kind,component,event,with_n")
    for name in re.findall(r'<img src="([^"]+)"', page):
        assert (out / name).exists()


def test_ranking_keeps_the_strongest_and_weakest_with_enough_seat_games(tmp_path):
    # component c<k> is built in every game by seat 0, who wins games 0..k-1 of 10 (more k: stronger)
    games = []
    for i in range(10):
        facts = [(0, "tile", f"c{k}", "built", 1, "") for k in range(10) if i < k or k == 0 and i == 0]
        games.append(game(i, 0 if i < 5 else 1, facts=facts))
    path = folder(tmp_path / "r.parquet", games)
    comps = component_stats(path, 20, 10)
    rows, eligible = ranked(comps, min_count=3, top=2)
    assert eligible == len(comps[(comps.with_n >= 3) & (comps.without_n >= 3)])
    assert len(rows) == 4
    assert list(rows["difference"]) == sorted(rows["difference"], reverse=True)
    assert rows["difference"].iloc[0] == comps["difference"][(comps.with_n >= 3)].max()
    few, n = ranked(comps, min_count=3, top=50)
    assert len(few) == n == eligible


def test_comparison_shows_the_win_rate_difference(tmp_path, run):
    # A: seat 0 wins 3 of 6; B: seat 0 wins 5 of 6
    a = folder(tmp_path / "a.parquet", [game(i, 0 if i < 3 else 1, facts=[(0, *PARK, 1, "")]) for i in range(6)])
    b = folder(tmp_path / "b.parquet", [game(i, 0 if i < 5 else 1, facts=[(0, *PARK, 1, "")]) for i in range(6)],
               options={"num_players": 2, "variant": True}, overrides={"tiles": {"Park": 3}})
    t = compare_win_rates(load_run(a), load_run(b), "seat")
    assert t.loc[0, "difference"] == pytest.approx(5 / 6 - 3 / 6)
    assert t.loc[1, "difference"] == pytest.approx(1 / 6 - 3 / 6)
    d, lo, hi = newcombe_difference(5, 6, 3, 6)
    assert (t.loc[0, "low"], t.loc[0, "high"]) == pytest.approx((lo, hi))
    out = tmp_path / "cmp"
    result = run("report", a, b, "--out", out, "--min-count", 1)
    assert result.exit_code == 0, result.output
    page = (out / "index.html").read_text()
    assert re.findall(r'<section id="([^"]+)">', page) == COMPARE_SECTIONS
    assert "+33.3 pp" in page and "-33.3 pp" in page
    assert re.search(r'<tr class="differs"><td class="">option variant</td>', page)
    assert re.search(r'<tr class="differs"><td class="">override tiles</td>', page)
    assert not re.search(r'<tr class="differs"><td class="">bots', page)
    for name in re.findall(r'<img src="([^"]+)"', page):
        assert (out / name).stat().st_size > 1000
    with open(out / "components.csv", newline="") as fh:
        park = next(csv.DictReader(fh))
    # the Park is seat 0's every game: win rate when built 3/6 in A, 5/6 in B
    assert float(park["difference"]) == pytest.approx(5 / 6 - 3 / 6, abs=1e-6)   # 6 significant digits


def test_errors_exit_2_with_one_line(tmp_path, run):
    result = run("report", tmp_path / "nothing.parquet", "--out", tmp_path / "r")
    assert result.exit_code == 2
    assert "is not a citygames results folder" in result.output
    error = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(error) == 1
    a = folder(tmp_path / "a.parquet", [game(0, 0)])
    b = folder(tmp_path / "b.parquet", [game(0, 0)], game_id="the_capitals")
    result = run("report", a, b, "--out", tmp_path / "r")
    assert result.exit_code == 2
    assert "cannot compare runs of different games" in result.output
    empty = folder(tmp_path / "empty.parquet", [])
    result = run("report", empty, "--out", tmp_path / "r")
    assert result.exit_code == 2 and "holds no finished game" in result.output
    result = run("report", a, "--out", tmp_path / "r", "--top", 0)
    assert result.exit_code == 2


def test_report_of_a_real_simulate_run(tmp_path, run):
    out = tmp_path / "toy.parquet"
    result = run("simulate", "toy", "--players", 3, "--games", 30, "--bots", "greedy,random,random",
                 "--workers", 1, "--out", out, "--no-progress")
    assert result.exit_code == 0, result.output
    result = run("report", out, "--out", tmp_path / "report")
    assert result.exit_code == 0, result.output
    page = (tmp_path / "report" / "index.html").read_text()
    assert re.findall(r'<section id="([^"]+)">', page) == SECTIONS
    assert "secret bonus" in page and "1/3 = 33.3%" in page
    for name in re.findall(r'<img src="([^"]+)"', page):
        assert (tmp_path / "report" / name).exists()
    run_ = load_run(out)
    assert len(run_.games) == 30 and len(run_.seats) == 90


# --- the statistics -------------------------------------------------------------------------------
def test_wilson_arrays_match_the_scalar_interval():
    ks, ns = [0, 3, 7, 10, 0], [10, 10, 10, 10, 0]
    low, high = wilson(ks, ns)
    for k, n, lo, hi in zip(ks, ns, low, high):
        assert (lo, hi) == pytest.approx(wilson_interval(k, n))


def test_newcombe_interval_of_newcombes_example():
    # Newcombe (1998), Statistics in Medicine 17:873, example (a): 56/70 - 48/80, method 10
    d, lo, hi = newcombe_difference(56, 70, 48, 80)
    assert d == pytest.approx(0.2)
    assert (float(lo), float(hi)) == pytest.approx((0.0524, 0.3339), abs=1e-4)


def test_t_quantiles():
    for df, q in ((1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281), (30, 2.0423), (1e7, 1.96)):
        assert t_quantile(0.975, df) == pytest.approx(q, abs=1e-3)
    assert t_quantile(0.025, 10) == pytest.approx(-2.2281, abs=1e-3)


def test_welch_interval():
    # A = [1, 2, 3, 4], B = [2, 4, 6, 8, 10]: means 2.5 and 6, variances 5/3 and 10
    d, lo, hi = welch_difference(2.5, 5 / 3, 4, 6, 10, 5)
    se = math.sqrt(5 / 3 / 4 + 10 / 5)
    df = se ** 4 / ((5 / 12) ** 2 / 3 + 2 ** 2 / 4)
    assert d[0] == 3.5
    assert (hi[0] - lo[0]) / 2 == pytest.approx(t_quantile(0.975, df) * se)
    assert df == pytest.approx(5.52, abs=0.01)
    d, lo, hi = welch_difference(1, 0, 1, 2, 0, 5)   # one value in A: no interval
    assert math.isnan(lo[0]) and math.isnan(hi[0])
