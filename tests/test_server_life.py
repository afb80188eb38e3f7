"""Resign, abandon, bot takeover ("zombie") and take back, clocks, rematch (issue 15; server part,
``citygames/server/lifecycle.py``), through HTTP and the table socket of an in-process app."""

from __future__ import annotations

import secrets
import time

import pytest

from citygames.core import load_game
from citygames.server.db import Repository, TableData
from citygames.server.tables import hash_token, public_seat
from server_helpers import create, next_error, server, until, watchdog, ws_path

DUEL = "seven_wonders_duel"


@pytest.fixture(autouse=True)
def _watchdog():
    with watchdog(120):
        yield


@pytest.fixture
def client(tmp_path):
    with server(tmp_path / "life.sqlite3") as c:
        yield c


def _state(ws, pred=lambda m: True) -> dict:
    """The next ``state`` message satisfying ``pred`` (an ``error`` fails the test)."""
    def ok(m):
        if m["type"] == "error":
            raise AssertionError(f"unexpected error: {m}")
        return m["type"] == "state" and pred(m)
    return until(ws, ok)


def _post(client, path, body):
    return client.post(path, json=body)


# --- resign --------------------------------------------------------------------------------------
def test_resign_in_a_two_player_game_ends_it_and_the_other_wins(client):
    t = create(client, ["human", "human"], game=DUEL, seed=3)
    tid = t["table_id"]
    with client.websocket_connect(ws_path(t, 0)) as ws0, client.websocket_connect(ws_path(t, 1)) as ws1:
        s0 = _state(ws0)
        _state(ws1)
        assert s0["status"] == "open" and s0["life"]["resigned"] == [] and s0["clock"] is None
        ws1.send_json({"type": "resign", "seq": s0["seq"]})
        end1 = _state(ws1, lambda m: m["terminal"])
        end0 = _state(ws0, lambda m: m["terminal"])
    for end in (end0, end1):
        res = end["result"]
        assert end["status"] == "finished"
        assert res["resigned"] == [1] and res["ranking"] == [0, 1] and res["returns"] == [1.0, -1.0]
        assert len(res["scores"]) == 2 and len(res["breakdown"]) == 2
        assert end["life"]["resigned"] == [1]
        assert any(n["text"] == "Player 2 resigned" or n["text"].endswith(" resigned") for n in end["life"]["notices"])
        assert end["legal"] == []
    summary = client.get(f"/api/tables/{tid}").json()
    assert summary["status"] == "finished" and summary["result"]["resigned"] == [1]
    assert tid in [x["table_id"] for x in client.get("/api/tables?status=finished").json()]
    # the record and the replay of a resigned table work: the actions played, and who resigned
    rec = client.get(f"/api/tables/{tid}/record").json()
    assert rec["resigned"] == [1] and rec["actions"] == []
    rep = client.get(f"/api/tables/{tid}/replay?step=0").json()
    assert rep["steps"] == 0 and rep["result"]["resigned"] == [1]


def test_resign_after_some_moves_names_the_player_and_replays(client):
    body = {"game": DUEL, "seed": 5, "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]}
    t = client.post("/api/tables", json=body).json()
    with client.websocket_connect(ws_path(t, 0)) as ws:
        s = _state(ws, lambda m: 0 in m["to_move"])
        for _ in range(3):
            ws.send_json({"type": "action", "seq": s["seq"], "action": s["legal"][0]["id"]})
            s = _state(ws, lambda m, q=s["seq"]: m["seq"] > q and (0 in m["to_move"] or m["terminal"]))
        ws.send_json({"type": "resign", "seq": s["seq"]})
        end = _state(ws, lambda m: m["terminal"])
    assert end["result"]["ranking"] == [1, 0] and end["result"]["returns"] == [-1.0, 1.0]
    assert "Ann resigned" in [n["text"] for n in end["life"]["notices"]]
    rec = client.get(f"/api/tables/{t['table_id']}/record").json()
    assert len(rec["actions"]) == end["seq"] >= 3
    assert client.get(f"/api/tables/{t['table_id']}/replay?step={end['seq']}").status_code == 200
    stats = client.get(f"/api/tables/{t['table_id']}/stats")   # the end-of-game statistics stop at the resignation
    assert stats.status_code == 200, stats.text
    st = stats.json()
    assert st["resigned"] == [0] and st["steps"] == end["seq"] and st["points"][-1]["label"] == "Resigned"


def test_resign_refusals(client):
    t = create(client, ["human", "human"], game=DUEL, seed=4)
    with client.websocket_connect(ws_path(t)) as spectator:
        _state(spectator)
        spectator.send_json({"type": "resign", "seq": 0})
        assert next_error(spectator)["message"] == "spectators cannot resign"
    # a wrong token never gets a socket to resign with
    wrong = f"/ws/tables/{t['table_id']}?seat=0&token={secrets.token_urlsafe(24)}"
    with client.websocket_connect(wrong) as ws:
        assert ws.receive()["code"] == 4403
    with client.websocket_connect(ws_path(t, 0)) as ws0:
        _state(ws0)
        ws0.send_json({"type": "resign", "seq": 0})
        _state(ws0, lambda m: m["terminal"])
        ws0.send_json({"type": "resign", "seq": 0})
        assert next_error(ws0)["message"] == "resign refused: the game is over"
        ws0.send_json({"type": "take_back"})
        assert next_error(ws0)["message"] == "take back refused: no bot plays for you"
    assert client.get(f"/api/tables/{t['table_id']}").json()["result"]["resigned"] == [0]


# --- abandon -------------------------------------------------------------------------------------
def test_abandon_by_the_creator_only(client):
    t = create(client, ["human", "bot:greedy"], game=DUEL, seed=6)
    tid = t["table_id"]
    assert isinstance(t["creator_token"], str) and len(t["creator_token"]) >= 24
    assert tid in [x["table_id"] for x in client.get("/api/tables?status=open").json()]
    r = _post(client, f"/api/tables/{tid}/abandon", {"creator_token": secrets.token_urlsafe(24)})
    assert r.status_code == 403 and r.json()["error"] == "wrong creator token"
    assert _post(client, f"/api/tables/{tid}/abandon", {"creator_token": t["seats"][0]["token"]}).status_code == 403
    assert _post(client, f"/api/tables/{tid}/abandon", {}).status_code == 422
    assert _post(client, "/api/tables/nosuchtable/abandon", {"creator_token": "x"}).status_code == 404
    with client.websocket_connect(ws_path(t, 0)) as ws:
        _state(ws)
        r = _post(client, f"/api/tables/{tid}/abandon", {"creator_token": t["creator_token"]})
        assert r.status_code == 200 and r.json()["status"] == "abandoned"
        s = _state(ws, lambda m: m["status"] == "abandoned")
        assert s["terminal"] and s["legal"] == [] and not s["life"]["can_abandon"]
        ws.send_json({"type": "action", "seq": s["seq"], "action": 0})
        assert next_error(ws)["message"] == "the game is over"
    assert tid not in [x["table_id"] for x in client.get("/api/tables?status=open").json()]
    assert tid in [x["table_id"] for x in client.get("/api/tables?status=abandoned").json()]
    assert client.get(f"/api/tables/{tid}").json()["status"] == "abandoned"
    assert client.get(f"/table/{tid}").status_code == 200
    r = _post(client, f"/api/tables/{tid}/abandon", {"creator_token": t["creator_token"]})
    assert r.status_code == 409
    # the record of an abandoned table stays hidden (its seed too)
    assert client.get(f"/api/tables/{tid}/record").status_code == 409


def test_a_table_from_before_creator_tokens_cannot_be_abandoned_but_still_plays(tmp_path):
    db = tmp_path / "old.sqlite3"
    token = secrets.token_urlsafe(16)
    repo = Repository(f"sqlite:///{db}")
    try:
        game = load_game(DUEL)
        seats = [{**public_seat(i, {"kind": "human", "name": f"P{i}"}), "token_hash": hash_token(token)}
                 for i in range(2)]
        repo.insert_table(TableData(id="oldduel", game=DUEL, options=dict(game.options), seed=9, seats=seats))
    finally:
        repo.close()
    with server(db) as client:
        r = _post(client, "/api/tables/oldduel/abandon", {"creator_token": token})
        assert r.status_code == 409 and "cannot be abandoned" in r.json()["error"]
        with client.websocket_connect(f"/ws/tables/oldduel?seat=0&token={token}") as ws:
            s = _state(ws)
            assert s["clock"] is None and s["clocks"] == [] and not s["life"]["can_abandon"]
            mover = s["to_move"][0]
            if mover == 0:
                ws.send_json({"type": "action", "seq": s["seq"], "action": s["legal"][0]["id"]})
                assert _state(ws, lambda m: m["seq"] == 1)["seq"] == 1
            ws.send_json({"type": "resign", "seq": 0})
            end = _state(ws, lambda m: m["terminal"])
            assert end["result"]["resigned"] == [0]


# --- clocks, bot takeover, take back --------------------------------------------------------------
def test_clock_validation(client):
    base = {"game": DUEL, "seats": [{"kind": "human"}, {"kind": "human"}]}
    for clock in ({"mode": "blitz"}, {"mode": "live", "bank_s": 0}, {"mode": "live", "bank_s": 10 ** 9},
                  {"mode": "live", "bank_s": 60, "increment_s": -1}, {"mode": "turn", "per_move_s": 5},
                  {"mode": "turn", "per_move_s": "3600"}, {"mode": "live", "bank_s": 60, "extra": 1}, "live", [1]):
        r = client.post("/api/tables", json={**base, "clock": clock})
        assert r.status_code == 422 and "clock" in r.json()["error"], (clock, r.text)
    r = client.post("/api/tables", json={**base, "clock": {"mode": "turn", "per_move_s": 86400}})
    assert r.status_code == 201 and r.json()["clock"] == {"mode": "turn", "per_move_s": 86400}
    r = client.post("/api/tables", json={**base, "clock": {"mode": "live", "bank_s": 600, "increment_s": 10}})
    assert r.json()["clock"] == {"mode": "live", "bank_s": 600, "increment_s": 10}


def test_a_clock_waits_for_every_player_then_runs_out_a_bot_takes_the_seat_and_the_player_takes_it_back(tmp_path):
    with server(tmp_path / "clock.sqlite3", bot_delay=0.3) as client:
        body = {"game": DUEL, "seed": 11, "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
                "clock": {"mode": "live", "bank_s": 2, "increment_s": 0}}
        t = client.post("/api/tables", json=body).json()
        with client.websocket_connect(ws_path(t, 0)) as ws0:
            s = _state(ws0)
            # Bob has not come yet: no clock runs
            assert [c["running"] for c in s["clocks"]] == [False, False]
            assert [c["remaining_s"] for c in s["clocks"]] == [2, 2]
            with client.websocket_connect(ws_path(t, 1)) as ws1:
                first = _state(ws1)
                mover = first["to_move"][0]
                assert [c["running"] for c in first["clocks"]] == [c["seat"] == mover for c in first["clocks"]]
                ws = ws0 if mover == 0 else ws1
                taken = _state(ws, lambda m: m["seats"][mover].get("zombie") == "timeout")
                assert taken["life"]["bot_plays_you"] is True
                assert taken["clocks"][mover]["remaining_s"] == 0 and not taken["clocks"][mover]["running"]
                name = ["Ann", "Bob"][mover]
                assert f"{name} ran out of time: a bot plays for them" in [n["text"] for n in taken["life"]["notices"]]
                # the bot moves for the seat
                moved = _state(ws, lambda m: m["seq"] > taken["seq"])
                assert moved["seats"][mover].get("zombie") == "timeout"
                ws.send_json({"type": "take_back"})
                back = _state(ws, lambda m: "zombie" not in m["seats"][mover])
                assert back["life"]["bot_plays_you"] is False
                assert f"{name} took their seat back from the bot" in [n["text"] for n in back["life"]["notices"]]
                summary = client.get(f"/api/tables/{t['table_id']}").json()
                assert "zombie" not in summary["seats"][mover]


def test_clocks_survive_a_restart(tmp_path):
    db = tmp_path / "restart.sqlite3"
    with server(db) as client:
        body = {"game": DUEL, "seed": 12, "seats": [{"kind": "human"}, {"kind": "human"}],
                "clock": {"mode": "live", "bank_s": 600, "increment_s": 10}}
        t = client.post("/api/tables", json=body).json()
        with client.websocket_connect(ws_path(t, 0)) as ws0, client.websocket_connect(ws_path(t, 1)) as ws1:
            _state(ws0)
            s = _state(ws1, lambda m: any(c["running"] for c in m["clocks"]))
            mover = s["to_move"][0]
            time.sleep(0.5)   # some time on the mover's clock (no bound is asserted on it)
    with server(db) as client:
        with client.websocket_connect(ws_path(t)) as spectator:
            s = _state(spectator)
    by_seat = {c["seat"]: c for c in s["clocks"]}
    assert by_seat[mover]["running"] and 0 < by_seat[mover]["remaining_s"] < 600
    assert by_seat[mover]["deadline"] is not None
    assert by_seat[1 - mover] == {"seat": 1 - mover, "remaining_s": 600, "running": False, "deadline": None}


# --- rematch -------------------------------------------------------------------------------------
def test_rematch_is_idempotent_and_hands_each_player_their_own_seat(client):
    body = {"game": DUEL, "seed": 21, "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
            "clock": {"mode": "turn", "per_move_s": 3600}}
    t = client.post("/api/tables", json=body).json()
    old = t["table_id"]
    tok = [t["seats"][0]["token"], t["seats"][1]["token"]]
    assert _post(client, f"/api/tables/{old}/rematch", {"seat": 0, "token": tok[0]}).status_code == 409
    with client.websocket_connect(ws_path(t, 0)) as ws0, client.websocket_connect(ws_path(t, 1)) as ws1:
        _state(ws0)
        _state(ws1)
        ws0.send_json({"type": "resign", "seq": 0})
        _state(ws1, lambda m: m["terminal"])
        assert _post(client, f"/api/tables/{old}/rematch", {"seat": 1, "token": tok[0]}).status_code == 403
        assert _post(client, f"/api/tables/{old}/rematch", {"seat": 1, "token": "x" * 32}).status_code == 403
        assert _post(client, f"/api/tables/{old}/rematch", {"seat": "1", "token": tok[1]}).status_code == 422
        first = _post(client, f"/api/tables/{old}/rematch", {"seat": 1, "token": tok[1]})
        assert first.status_code == 200, first.text
        a = first.json()
        assert a["created"] is True and a["join_url"] == f"/table/{a['table_id']}?seat=1&token={a['token']}"
        assert a["creator_token"]
        # the other player's finished table offers the rematch
        offer = _state(ws0, lambda m: m["life"]["rematch"] is not None)
        assert offer["life"]["rematch"] == {"table_id": a["table_id"], "by": 1, "by_name": "Bob"}
        assert "Bob wants a rematch" in [n["text"] for n in offer["life"]["notices"]]
    again = _post(client, f"/api/tables/{old}/rematch", {"seat": 1, "token": tok[1]}).json()
    assert again == {**a, "created": False}
    other = _post(client, f"/api/tables/{old}/rematch", {"seat": 0, "token": tok[0]}).json()
    assert other["table_id"] == a["table_id"] and other["seat"] == 0 and other["token"] != a["token"]
    assert "creator_token" not in other
    assert _post(client, f"/api/tables/{old}/rematch", {"seat": 0, "token": tok[0]}).json() == other
    new = client.get(f"/api/tables/{a['table_id']}").json()
    assert new["game"] == DUEL and new["status"] == "open" and new["seq"] == 0
    assert [(s["kind"], s["name"]) for s in new["seats"]] == [("human", "Ann"), ("human", "Bob")]
    # both new tokens open their seat; the old ones do not
    for seat, token in ((0, other["token"]), (1, a["token"])):
        with client.websocket_connect(f"/ws/tables/{a['table_id']}?seat={seat}&token={token}") as ws:
            s = _state(ws)
            assert s["your_seat"] == seat and s["clock"] == {"mode": "turn", "per_move_s": 3600}
            assert s["life"]["rematch_of"] == old
    with client.websocket_connect(f"/ws/tables/{a['table_id']}?seat=0&token={tok[0]}") as ws:
        assert ws.receive()["code"] == 4403
    # the first caller's creator token abandons the new table
    r = _post(client, f"/api/tables/{a['table_id']}/abandon", {"creator_token": a["creator_token"]})
    assert r.status_code == 200


def test_rematch_keeps_bots_and_options(client):
    body = {"game": "the_capitals", "seed": 2, "options": {"num_players": 3},
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]}
    t = client.post("/api/tables", json=body).json()
    with client.websocket_connect(ws_path(t, 0)) as ws:
        _state(ws)
        ws.send_json({"type": "resign", "seq": 0})
        end = _state(ws, lambda m: m["terminal"])
    assert end["result"]["ranking"][-1] == 0 and end["result"]["returns"][0] == -1.0
    assert sorted(end["result"]["ranking"]) == [0, 1, 2]
    a = _post(client, f"/api/tables/{t['table_id']}/rematch", {"seat": 0, "token": t["seats"][0]["token"]}).json()
    new = client.get(f"/api/tables/{a['table_id']}").json()
    old = client.get(f"/api/tables/{t['table_id']}").json()
    assert new["options"] == old["options"]
    assert [(s["kind"], s.get("bot"), s["name"]) for s in new["seats"]] == \
        [(s["kind"], s.get("bot"), s["name"]) for s in old["seats"]]


def test_after_a_restart_the_server_enforces_clocks_nobody_watches(tmp_path):
    """A clocked table is restored at start (no socket needed): its timer runs out and bots take
    the seats over, here until the end of the game."""
    db = tmp_path / "unwatched.sqlite3"
    with server(db) as client:
        body = {"game": DUEL, "seed": 13, "seats": [{"kind": "human"}, {"kind": "human"}],
                "clock": {"mode": "live", "bank_s": 1, "increment_s": 0}}
        t = client.post("/api/tables", json=body).json()
        with client.websocket_connect(ws_path(t, 0)) as ws0, client.websocket_connect(ws_path(t, 1)) as ws1:
            _state(ws0)
            _state(ws1, lambda m: any(c["running"] for c in m["clocks"]))
    with server(db) as client:
        deadline = time.monotonic() + 60
        while True:
            s = client.get(f"/api/tables/{t['table_id']}").json()
            if s["status"] == "finished":
                break
            assert time.monotonic() < deadline, "the restored clocks were not enforced"
            time.sleep(0.1)
    assert [x.get("zombie") for x in s["seats"]] == ["timeout", "timeout"]
    assert "resigned" not in s["result"]


@pytest.mark.parametrize("clock", [{"mode": "turn", "per_move_s": 3600}, {"mode": "live", "bank_s": 600, "increment_s": 10}])
def test_a_move_stops_the_movers_clock_and_starts_the_next(client, clock):
    """Turn-based: the mover's allowance is full again after its move; live: its bank lost the time
    used and won the increment (the test takes far less than the 10 s increment)."""
    body = {"game": DUEL, "seed": 14, "seats": [{"kind": "human"}, {"kind": "human"}], "clock": clock}
    t = client.post("/api/tables", json=body).json()
    with client.websocket_connect(ws_path(t, 0)) as ws0, client.websocket_connect(ws_path(t, 1)) as ws1:
        _state(ws0)
        s = _state(ws1, lambda m: any(c["running"] for c in m["clocks"]))
        mover = s["to_move"][0]
        ws = ws0 if mover == 0 else ws1
        s = _state(ws, lambda m: m["legal"])
        ws.send_json({"type": "action", "seq": s["seq"], "action": s["legal"][0]["id"]})
        after = _state(ws, lambda m: m["seq"] == s["seq"] + 1)
    nxt = after["to_move"][0]
    assert nxt != mover
    clocks = {c["seat"]: c for c in after["clocks"]}
    assert clocks[nxt]["running"] and not clocks[mover]["running"] and clocks[mover]["deadline"] is None
    if clock["mode"] == "turn":
        assert clocks[mover]["remaining_s"] == 3600 and 3590 < clocks[nxt]["remaining_s"] <= 3600
    else:
        assert 600 < clocks[mover]["remaining_s"] <= 610 and clocks[nxt]["remaining_s"] <= 600


# --- a seat away handed to a bot ("Presence": BGA's zombie) ------------------------------------
GRACE = 1.0   # the away grace of these tests' servers (seconds)


def _away(state: dict) -> list[dict]:
    """The seats a state message says may be handed to a bot: ``[{seat, since, handable_at, wait_s}]``."""
    return [{"seat": x["seat"], **x["away"]} for x in state["seats"] if "away" in x]


def _errors(ws, sends: list[dict]) -> list[str]:
    """Send each message of ``sends`` and collect the ``error`` answering it (states are skipped)."""
    out = []
    for m in sends:
        ws.send_json(m)
        out.append(next_error(ws)["message"])
    return out


def test_a_seat_away_is_handed_to_a_bot_by_another_player_and_taken_back(tmp_path):
    db = tmp_path / "away.sqlite3"
    body = {"game": DUEL, "seed": 31, "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]}
    with server(db, away_grace=GRACE) as client:
        t = client.post("/api/tables", json=body).json()
        tid = t["table_id"]
        with client.websocket_connect(ws_path(t, 0)) as ws0, client.websocket_connect(ws_path(t, 1)) as ws1:
            s0 = _state(ws0)
            s1 = _state(ws1, lambda m: all(x["connected"] for x in m["seats"]))
            mover = s0["to_move"][0]
            other = 1 - mover
            who, by = ["Ann", "Bob"][mover], ["Ann", "Bob"][other]
            ws_m, ws_o = (ws0, ws1) if mover == 0 else (ws1, ws0)
            assert _away(s1) == [] and s1["life"]["away_grace_s"] == GRACE
            assert _errors(ws_o, [
                {"type": "hand_to_bot", "seat": mover},
                {"type": "hand_to_bot", "seat": other},
                {"type": "hand_to_bot", "seat": 2},
                {"type": "hand_to_bot", "seat": "0"},
                {"type": "hand_to_bot"},
            ]) == [
                f"hand to bot refused: {who} is connected",
                "hand to bot refused: that is your own seat (resign instead, or take it back if a bot plays it)",
                'malformed hand_to_bot: "seat" must be a seat number from 0 to 1',
                'malformed hand_to_bot: "seat" must be a seat number from 0 to 1',
                'malformed hand_to_bot: "seat" must be a seat number from 0 to 1',
            ]
            # the seat that is not to move cannot be handed over, connected or not
            assert _errors(ws_m, [{"type": "hand_to_bot", "seat": other}]) == [
                f"hand to bot refused: {by} is not to move (only a seat the game waits for can be handed over)"]
            with client.websocket_connect(ws_path(t)) as spectator:
                _state(spectator)
                assert _errors(spectator, [{"type": "hand_to_bot", "seat": mover}]) == [
                    "spectators cannot hand a seat to a bot"]
            ws_m.close()
            gone = _state(ws_o, lambda m: not m["seats"][mover]["connected"])
            away = _away(gone)
            assert [a["seat"] for a in away] == [mover] and 0 < away[0]["wait_s"] <= GRACE
            assert away[0]["since"] < away[0]["handable_at"]
            # too early: the refusal says how long is left
            err = _errors(ws_o, [{"type": "hand_to_bot", "seat": mover}])[0]
            assert err.startswith(f"hand to bot refused: {who} has been away for 0 s; a seat may be handed to a bot "
                                  f"after 1 s away, in "), err
            time.sleep(away[0]["wait_s"] + 0.1)
            ws_o.send_json({"type": "hand_to_bot", "seat": mover})
            handed = _state(ws_o, lambda m: m["seats"][mover].get("zombie") == "away")
            assert _away(handed) == [] and handed["life"]["bot_plays_you"] is False
            assert f"{by} handed {who}'s seat to a bot (away for 1 s)" in [n["text"] for n in handed["life"]["notices"]]
            # the bot moves for the absent seat
            moved = _state(ws_o, lambda m: m["seq"] > handed["seq"])
            assert moved["seats"][mover]["zombie"] == "away"
            assert _errors(ws_o, [{"type": "hand_to_bot", "seat": mover}]) == [
                f"hand to bot refused: a bot plays for {who} already"]
        assert client.get(f"/api/tables/{tid}").json()["seats"][mover]["zombie"] == "away"
    # stored: after a restart the bot still plays the seat, and the player coming back sees it and takes it back
    with server(db, away_grace=GRACE) as client:
        with client.websocket_connect(ws_path(t, mover)) as ws:
            back = _state(ws)
            assert back["seats"][mover]["zombie"] == "away"
            life = back["life"]
            assert life["bot_plays_you"] is True and life["bot_plays_you_why"] == "away" and life["handed_by"] == by
            ws.send_json({"type": "take_back"})
            mine = _state(ws, lambda m: "zombie" not in m["seats"][mover])
            assert mine["life"]["bot_plays_you"] is False and mine["life"]["handed_by"] is None
            assert f"{who} took their seat back from the bot" in [n["text"] for n in mine["life"]["notices"]]
        assert "zombie" not in client.get(f"/api/tables/{tid}").json()["seats"][mover]


def test_hand_to_bot_refused_for_a_bot_seat_and_after_the_game(tmp_path):
    with server(tmp_path / "away2.sqlite3", away_grace=0) as client:
        body = {"game": DUEL, "seed": 32, "seats": [{"kind": "human", "name": "Ann"},
                                                    {"kind": "bot", "bot": "greedy", "name": "Robo"}]}
        t = client.post("/api/tables", json=body).json()
        with client.websocket_connect(ws_path(t, 0)) as ws:
            _state(ws)
            assert _errors(ws, [{"type": "hand_to_bot", "seat": 1}]) == ["hand to bot refused: Robo is a bot already"]
            ws.send_json({"type": "resign", "seq": 0})
            _state(ws, lambda m: m["terminal"])
            assert _errors(ws, [{"type": "hand_to_bot", "seat": 1}]) == ["hand to bot refused: the game is over"]


def test_a_seat_never_connected_is_away_since_the_table_was_loaded(tmp_path):
    """With no grace, a seat whose player never opened the link can be handed over at once by the
    other player; its clock-less table then plays on."""
    with server(tmp_path / "away3.sqlite3", away_grace=0) as client:
        body = {"game": DUEL, "seed": 33, "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]}
        t = client.post("/api/tables", json=body).json()
        with client.websocket_connect(ws_path(t, 0)) as ws0:
            s = _state(ws0)
            if s["to_move"] == [0]:   # Ann moves first: play until Bob (never connected) is to move
                ws0.send_json({"type": "action", "seq": s["seq"], "action": s["legal"][0]["id"]})
                s = _state(ws0, lambda m: m["to_move"] == [1])
            assert [a["seat"] for a in _away(s)] == [1] and _away(s)[0]["wait_s"] == 0
            ws0.send_json({"type": "hand_to_bot", "seat": 1})
            handed = _state(ws0, lambda m: m["seats"][1].get("zombie") == "away")
            assert "Ann handed Bob's seat to a bot (away for 0 s)" in [n["text"] for n in handed["life"]["notices"]]
            _state(ws0, lambda m: m["seq"] > handed["seq"])
