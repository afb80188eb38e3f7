"""'Why can't I do this?' (issue 15, "Rules help"): the socket message {"type": "why"} answers a
seated player with the engine's refusal, computed on a clone: the table is never touched."""

from __future__ import annotations

import json

import pytest

from citygames.core.registry import load_game

from server_helpers import create, my_turn, next_state, server, until, watchdog, ws_path

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def _watchdog():
    with watchdog():
        yield


def _why(ws, **msg) -> dict:
    ws.send_json({"type": "why", **msg})
    return until(ws, lambda m: m["type"] in ("why", "error"))


def _snapshot(client, t) -> tuple:
    """What a fresh spectator sees: seq, observation, log length (the table as the public sees it)."""
    with client.websocket_connect(ws_path(t)) as spec:
        st = next_state(spec)
    return st["seq"], json.dumps(st["observation"], sort_keys=True), len(st["log"])


def test_why_gives_the_rule_and_leaves_the_table_alone(tmp_path):
    game = load_game("the_capitals", num_players=2)
    space = game.action_space
    with server(tmp_path / "t.sqlite3") as client:
        t = create(client, ["human", "human"], seed=5, options={"num_players": 2})
        before = _snapshot(client, t)
        with client.websocket_connect(ws_path(t, 0)) as a, client.websocket_connect(ws_path(t, 1)) as b:
            first = next_state(a)
            mover = first["to_move"][0]
            ws0, ws1 = (a, b) if mover == 0 else (b, a)
            st = my_turn(ws0, mover)
            on_table = {x["tile"] for x in st["legal"] if x["kind"] == "take"}
            # a tile that is not in the projects area, named by kind and argument
            tile_ids = list(game.components_json()["tiles"])   # the take argument is the tile's index
            arg = next(i for i in range(space.sizes["take"]) if tile_ids[i] not in on_table)
            ans = _why(ws0, kind="take", arg=arg)
            assert ans["type"] == "why" and ans["legal"] is False
            assert ans["action"] == space.offsets["take"] + arg
            assert "not in the projects area" in ans["reason"]
            # the same by id
            again = _why(ws0, action=ans["action"])
            assert again["reason"] == ans["reason"]
            # a legal action: said so, and not played
            legal_id = st["legal"][0]["id"]
            ok = _why(ws0, action=legal_id)
            assert ok["legal"] is True and ok["action"] == legal_id
            # the other seat is not to move
            other = _why(ws1, action=legal_id)
            assert other["legal"] is False and "not your turn" in other["reason"]
            # out-of-range ids and unknown kinds are refused (legal: null), the socket stays open
            for bad in ({"action": -1}, {"action": len(space)}, {"action": "3"}, {"kind": "nope"},
                        {"kind": "take", "arg": 10 ** 6}, {}):
                r = _why(ws0, **bad)
                assert r["type"] == "why" and r["legal"] is None and r["reason"], (bad, r)
            # the table is unharmed: still seat 0 to act at the same seq, and it can play on
            ws0.send_json({"type": "action", "seq": st["seq"], "action": legal_id})
            after = next_state(ws0, st["seq"] + 1)
            assert after["seq"] == st["seq"] + 1
        assert before[0] == st["seq"]
        assert _snapshot(client, t)[0] == st["seq"] + 1


def test_why_changes_nothing_and_refuses_spectators(tmp_path):
    with server(tmp_path / "t.sqlite3") as client:
        t = create(client, ["human", "human"], seed=8, game="seven_wonders_duel")
        before = _snapshot(client, t)
        with client.websocket_connect(ws_path(t, 0)) as ws0, client.websocket_connect(ws_path(t)) as spec:
            st = next_state(ws0)
            legal = {a["id"] for a in st["legal"]}
            n = load_game("seven_wonders_duel").num_distinct_actions
            illegal = [i for i in range(n) if i not in legal][:25]
            answers = [_why(ws0, action=i) for i in illegal[:15]]
            assert all(a["type"] == "why" and a["legal"] is False and a["reason"] for a in answers)
            # spectators may not ask
            r = _why(spec, action=illegal[0])
            assert r["legal"] is None and "spectator" in r["reason"]
        # nothing moved: seq, observation and log as before the questions
        assert _snapshot(client, t) == before


def test_why_is_rate_limited_per_socket(tmp_path):
    with server(tmp_path / "t.sqlite3") as client:
        t = create(client, ["human", "human"], seed=3, game="seven_wonders_duel")
        with client.websocket_connect(ws_path(t, 0)) as ws0:
            next_state(ws0)
            answers = [_why(ws0, action=0) for _ in range(25)]
            refused = [a for a in answers if a["legal"] is None]
            assert refused and "too many questions" in refused[0]["reason"]
            assert all(a["legal"] is not None for a in answers[:20])
