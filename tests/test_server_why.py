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
    with server(tmp_path / "t.sqlite3", rate_limits={"why": "20/10 seconds"}) as client:
        t = create(client, ["human", "human"], seed=3, game="seven_wonders_duel")
        with client.websocket_connect(ws_path(t, 0)) as ws0:
            next_state(ws0)
            answers = [_why(ws0, action=0) for _ in range(25)]
            refused = [a for a in answers if a["legal"] is None]
            assert refused and "too many why messages" in refused[0]["reason"]
            assert all(a["legal"] is not None for a in answers[:20])


# --- issue 15, "why not?" on every greyed choice: the kinds the boards now ask about -------------------

def _slot(grid: int, x: int, y: int) -> int:
    """The action argument of city slot (x, y) (PROTOCOL.md "## Why not": the components' grid)."""
    o = grid // 2
    return (y + o) * grid + x + o


def _drive(sockets: dict, state: dict, stop, src: int | None = None) -> dict:
    """Play the first legal action of whoever is to move until ``stop(state)``; returns that state.
    ``src``: the seat whose socket gave ``state`` (consumed there; None: every socket still has it)."""
    for _ in range(400):
        mover = state["to_move"][0]
        if mover != src:
            state = my_turn(sockets[mover], mover, state["seq"])
        if stop(state):
            return state
        sockets[mover].send_json({"type": "action", "seq": state["seq"], "action": state["legal"][0]["id"]})
        state, src = next_state(sockets[mover], state["seq"] + 1), mover
    raise AssertionError("the stop state never came")


def test_capitals_city_tiles_and_slots_say_why_not(tmp_path):
    """A Capitals city: the tile in hand cannot go on an occupied slot (the tile named), a tile that
    cannot be activated in the executive phase says which cost the city lacks or that it has no
    activation effect; the table is unharmed."""
    grid = load_game("the_capitals", num_players=2).components_json()["grid"]
    with server(tmp_path / "t.sqlite3") as client:
        t = create(client, ["human", "human"], seed=0, options={"num_players": 2})
        with client.websocket_connect(ws_path(t, 0)) as a, client.websocket_connect(ws_path(t, 1)) as b:
            sockets = {0: a, 1: b}
            st = next_state(a)   # (seat 1's socket has its own copy of this state)
            # the building step: the Hotel's slot is taken
            st = _drive(sockets, st, lambda s: any(x["kind"] == "place" for x in s["legal"]), src=0)
            mover = st["to_move"][0]
            ans = _why(sockets[mover], kind="place", arg=_slot(grid, 0, 0))
            assert ans["legal"] is False and "slot (0, 0) is taken by your Hotel" in ans["reason"], ans
            far = _why(sockets[mover], kind="place", arg=_slot(grid, 9, 9))
            assert far["legal"] is False and "touches no tile of your city" in far["reason"], far

            def greyed(s):
                if not any(x["kind"] == "end_activations" for x in s["legal"]):
                    return False
                me = s["to_move"][0]
                can = {(x["x"], x["y"]) for x in s["legal"] if x["kind"] == "activate"}
                return any((c["x"], c["y"]) not in can for c in s["observation"]["players"][me]["city"])
            st = _drive(sockets, st, greyed, src=mover)
            mover = st["to_move"][0]
            can = {(x["x"], x["y"]) for x in st["legal"] if x["kind"] == "activate"}
            tiles = load_game("the_capitals", num_players=2).components_json()["tiles"]
            asked = 0
            for c in st["observation"]["players"][mover]["city"]:
                if (c["x"], c["y"]) in can:
                    continue
                ans = _why(sockets[mover], kind="activate", arg=_slot(grid, c["x"], c["y"]))
                name = tiles[c["tile"]]["name"]
                assert ans["legal"] is False and ans["reason"].startswith("executive: "), ans
                assert name in ans["reason"], (name, ans)
                # the rule in words: the cost the city lacks (with what it has), the cubes, or no effect
                assert ("(the city has " in ans["reason"] or "no activation effect" in ans["reason"]
                        or "the plant holds" in ans["reason"] or "no activations left" in ans["reason"]), ans
                asked += 1
            assert asked
            # the table is unharmed: the same seq, and the mover can still act
            sockets[mover].send_json({"type": "action", "seq": st["seq"], "action": st["legal"][0]["id"]})
            assert next_state(sockets[mover], st["seq"] + 1)["seq"] == st["seq"] + 1


def test_duel_progress_token_outside_a_pair_names_the_rule(tmp_path):
    """7 Wonders Duel: a progress token on the board, asked for on a card turn, names the science-pair
    rule (not just "take a card")."""
    with server(tmp_path / "t.sqlite3") as client:
        t = create(client, ["human", "human"], seed=4, game="seven_wonders_duel")
        before = None
        with client.websocket_connect(ws_path(t, 0)) as a, client.websocket_connect(ws_path(t, 1)) as b:
            sockets = {0: a, 1: b}
            st = _drive(sockets, next_state(a), lambda s: any(x["kind"] == "construct" or x["kind"] == "discard"
                                                               for x in s["legal"]), src=0)
            mover = st["to_move"][0]
            before = _snapshot(client, t)
            token = st["observation"]["progress_board"][0]
            ans = _why(sockets[mover], kind="progress", arg=token)
            assert ans["legal"] is False and "pair of identical science symbols" in ans["reason"], ans
        assert _snapshot(client, t) == before
