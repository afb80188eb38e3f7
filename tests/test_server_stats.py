"""End-of-game statistics, ``GET /api/tables/{id}/stats`` (issue 15, "End of game").

A seeded bot table of each of the four games is played to the end through the server; its
statistics must have the documented shape, end at the result's scores, count what each seat took,
and be refused (409) while the game runs and (404) for an unknown table.
"""

from __future__ import annotations

import pytest

from citygames.core.records import replay

from server_helpers import create, server, until, watchdog, ws_path

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: game, seats, options, the chart's unit and how many round / age ends it shows (start and end aside)
GAMES = [
    ("the_capitals", 3, {}, "Round", 11),
    ("quadropolis", 2, {}, "Round", 3),
    ("between_two_cities", 3, {}, "Round", 2),
    ("seven_wonders_duel", 2, {}, "Age", None),   # a military or science win may end it early
]


@pytest.fixture(autouse=True)
def _watchdog():
    with watchdog(120):
        yield


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """One server with a finished bot table of every game: ``(client, {game: table})``."""
    with server(tmp_path_factory.mktemp("stats") / "t.sqlite3") as client:
        tables = {}
        for game, n, options, _, _ in GAMES:
            t = create(client, ["bot:random"] * n, seed=11, game=game, options=options or None)
            with client.websocket_connect(ws_path(t)) as ws:
                until(ws, lambda m: m["type"] == "state" and m["terminal"])
            tables[game] = t
        yield client, tables


@pytest.mark.parametrize("game,n,options,unit,rounds", GAMES, ids=[g[0] for g in GAMES])
def test_stats_of_a_finished_bot_game(finished, game, n, options, unit, rounds):
    client, tables = finished
    tid = tables[game]["table_id"]
    r = client.get(f"/api/tables/{tid}/stats")
    assert r.status_code == 200, r.text
    st = r.json()
    result = client.get(f"/api/tables/{tid}").json()["result"]
    record = client.get(f"/api/tables/{tid}/record").json()
    assert st["game"] == game and st["num_players"] == n and st["steps"] == len(record["actions"])
    assert st["unit"] == unit

    # the points over time: Start, one point per finished round / age, End
    pts = st["points"]
    assert pts[0]["label"] == "Start" and pts[0]["step"] == 0
    assert pts[-1]["short"] == "End" and pts[-1]["step"] == st["steps"]
    if rounds is not None:
        assert len(pts) == rounds + 2
    assert [p["step"] for p in pts] == sorted(p["step"] for p in pts)
    for p in pts:
        assert len(p["scores"]) == n and len(p["breakdown"]) == n
        for seat in range(n):
            assert sum(p["breakdown"][seat].values()) == p["scores"][seat]
            assert set(p["breakdown"][seat]) <= set(st["categories"])
    # each point is the state after that many actions of the record
    mid = pts[len(pts) // 2]
    state = replay(record, upto=mid["step"])
    assert mid["breakdown"] == [state.score_breakdown(s) for s in range(n)]

    # the end equals the table's result and the score sheet
    assert st["final"]["scores"] == result["scores"] == pts[-1]["scores"]
    assert st["final"]["breakdown"] == result["breakdown"]
    assert st["categories"] == list(result["breakdown"][0])

    # what each seat took, counted from the log
    end = replay(record)
    assert st["taken"], "every game counts something"
    for row in st["taken"]:
        assert set(row) == {"key", "label", "counts"} and len(row["counts"]) == n
        assert all(isinstance(c, int) and c >= 0 for c in row["counts"])
    first = st["taken"][0]
    kind = {"the_capitals": "capitals.take", "quadropolis": "quadropolis.build",
            "between_two_cities": "between_two_cities.place", "seven_wonders_duel": "duel.construct"}[game]
    assert first["counts"] == [sum(1 for e in end.log if e.kind == kind and e.player == s) for s in range(n)]
    assert sum(first["counts"]) > 0

    # cached: the same answer again
    assert client.get(f"/api/tables/{tid}/stats").json() == st


def test_the_capitals_counts_one_project_per_seat_and_round(finished):
    client, tables = finished
    st = client.get(f"/api/tables/{tables['the_capitals']['table_id']}/stats").json()
    taken = {row["key"]: row["counts"] for row in st["taken"]}
    assert taken["taken"] == taken["built"] == [12, 12, 12]   # one tile a round, 12 rounds
    assert [p["short"] for p in st["points"]] == ["Start"] + [f"R{k}" for k in range(1, 12)] + ["End"]


def test_stats_refused_before_the_end_and_for_an_unknown_table(tmp_path):
    with server(tmp_path / "t.sqlite3") as client:
        t = create(client, ["human", "bot:random"], seed=2, game="seven_wonders_duel")
        r = client.get(f"/api/tables/{t['table_id']}/stats")
        assert r.status_code == 409 and "not finished" in r.json()["error"]
        r = client.get("/api/tables/nosuchtable/stats")
        assert r.status_code == 404 and "error" in r.json()
        r = client.get("/api/tables/%3Cscript%3E/stats")
        assert r.status_code == 404 and "error" in r.json()


def test_a_game_without_rounds_or_counts_gets_its_start_and_end(tmp_path):
    """A game the statistics know nothing about (the toy game of the tests): the start and the
    end, its own categories, no counts; never an error."""
    from citygames.core import register_game
    from toygame import ToyGame
    register_game("toy", ToyGame)
    with server(tmp_path / "t.sqlite3") as client:
        t = create(client, ["bot:random", "bot:random"], seed=3, game="toy")
        with client.websocket_connect(ws_path(t)) as ws:
            until(ws, lambda m: m["type"] == "state" and m["terminal"])
        st = client.get(f"/api/tables/{t['table_id']}/stats").json()
        result = client.get(f"/api/tables/{t['table_id']}").json()["result"]
    assert [p["label"] for p in st["points"]] == ["Start", "End of the game"]
    assert st["unit"] is None and st["taken"] == []
    assert st["final"]["scores"] == result["scores"]


def test_computed_once_per_table(tmp_path, monkeypatch):
    """A finished table never changes: its statistics are computed once, then served from the cache."""
    from citygames.server import stats as stats_module
    calls = []
    real = stats_module.game_stats
    monkeypatch.setattr(stats_module, "game_stats", lambda rec: calls.append(1) or real(rec))
    with server(tmp_path / "t.sqlite3") as client:
        t = create(client, ["bot:random", "bot:random"], seed=5, game="seven_wonders_duel")
        with client.websocket_connect(ws_path(t)) as ws:
            until(ws, lambda m: m["type"] == "state" and m["terminal"])
        first = client.get(f"/api/tables/{t['table_id']}/stats").json()
        assert client.get(f"/api/tables/{t['table_id']}/stats").json() == first
    assert len(calls) == 1
