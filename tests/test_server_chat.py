"""Names, presence and chat at a table (issue 15, "Player names", "Presence", "Chat"), through the
public surface: HTTP and the table socket of an in-process app (TestClient)."""

from __future__ import annotations

import json
import sqlite3
import time

import pytest

from citygames.core import load_game, replay
from citygames.core import events
from citygames.core.events import named_seats, seat_label
from citygames.server.tables import MAX_MESSAGE
from server_helpers import create, next_error, next_state, play_to_end, server, until, watchdog, ws_path

GAME = "seven_wonders_duel"


@pytest.fixture(autouse=True)
def _watchdog():
    with watchdog(60):
        yield


def _chat(ws, history: bool = False) -> list[dict]:
    """The messages of the next ``chat`` message (errors are raised): of a new one, or with
    ``history`` of the history a socket gets when it opens."""
    def pred(m):
        if m["type"] == "error":
            raise AssertionError(f"unexpected error: {m}")
        return m["type"] == "chat" and bool(m.get("history")) == history
    return until(ws, pred)["messages"]


def _seat(state: dict, seat: int) -> dict:
    return next(s for s in state["seats"] if s["seat"] == seat)


def _duel_renders_names() -> bool:
    """Whether the Duel's log sentences name the players under ``named_seats`` (the renderers are
    converted by another part of issue 15; until then the log keeps the seat names)."""
    st = load_game(GAME).new_initial_state(seed=3)
    for _ in range(6):
        st.apply_action(st.legal_actions()[0])
    plain = [e.text for e in st.log]
    with named_seats(["Zed-0", "Zed-1"]):
        named = [e.text for e in st.log]
    return plain != named and any("Zed-" in t for t in named)


def test_chat_is_stored_broadcast_and_survives_a_restart(tmp_path):
    db = tmp_path / "t.sqlite3"
    with server(db) as c:
        t = create(c, ["human", "human"], game=GAME, seed=1)
        with c.websocket_connect(ws_path(t, 0)) as a, c.websocket_connect(ws_path(t, 1)) as b, \
                c.websocket_connect(ws_path(t)) as spec:
            for ws in (a, b, spec):
                next_state(ws)
            a.send_json({"type": "chat", "text": "  hello Bob  "})
            for ws in (a, b, spec):
                [m] = _chat(ws)
                assert m["n"] == 0 and m["seat"] == 0 and m["text"] == "hello Bob"
                assert m["name"] == t["seats"][0]["name"]
                assert m["at"].endswith("+00:00")
            spec.send_json({"type": "chat", "text": "nice move"})
            seen = [_chat(ws) for ws in (a, b, spec)]
            assert seen[0] == seen[1] == seen[2] and seen[0][0]["name"] == "Spectator" and seen[0][0]["seat"] is None
            spec.send_json({"type": "chat", "text": "go on", "name": "Kim"})
            [m] = _chat(a)
            assert m["seat"] is None and m["name"] == "Kim (watching)" and m["n"] == 2
    # a new app on the same database: the history comes with the first state
    with server(db) as c:
        with c.websocket_connect(ws_path(t, 1)) as b:
            next_state(b)
            history = _chat(b, history=True)
            assert [m["text"] for m in history] == ["hello Bob", "nice move", "go on"]
            assert [m["n"] for m in history] == [0, 1, 2]
            b.send_json({"type": "chat", "text": "back again"})
            assert _chat(b)[0]["n"] == 3


def test_a_script_is_stored_verbatim_and_sent_as_a_json_string(tmp_path):
    evil = '<script>alert(1)</script> & <img src=x onerror="alert(2)">'
    with server(tmp_path / "t.sqlite3") as c:
        t = create(c, ["human", "human"], game=GAME, seed=1)
        with c.websocket_connect(ws_path(t, 0)) as a:
            next_state(a)
            a.send_json({"type": "chat", "text": evil})
            assert _chat(a)[0]["text"] == evil
        with c.websocket_connect(ws_path(t)) as spec:   # and so it comes back from the database
            next_state(spec)
            raw_text = spec.receive_text()
            assert json.loads(raw_text)["history"] is True
            assert json.loads(raw_text)["messages"][0]["text"] == evil
            assert '"<script>alert(1)</script>' in raw_text   # a plain JSON string, not escaped HTML


def test_chat_refusals_change_nothing(tmp_path):
    with server(tmp_path / "t.sqlite3") as c:
        t = create(c, ["human", "human"], game=GAME, seed=1)
        with c.websocket_connect(ws_path(t, 0)) as a:
            next_state(a)
            for bad, why in [("", "empty"), ("   ", "empty"), ("x" * 301, "at most 300"), (42, "must be a string"),
                             (None, "must be a string"), ("line\nbreak", "control characters"),
                             ("bell\x07", "control characters"), ("\u202egnp.exe", "control characters")]:
                a.send_json({"type": "chat", "text": bad})
                err = next_error(a)
                assert err["message"].startswith("chat refused") and why in err["message"], (bad, err)
            a.send_json({"type": "chat", "text": "ok", "name": "ignored for a seat"})   # a seat posts as itself
            assert _chat(a)[0]["name"] != "ignored for a seat (watching)"
        with c.websocket_connect(ws_path(t)) as spec:
            next_state(spec)
            assert [m["text"] for m in _chat(spec, history=True)] == ["ok"]   # nothing refused was stored
            spec.send_json({"type": "chat", "text": "hi", "name": "x" * 41})
            assert "at most 40" in next_error(spec)["message"]
            spec.send_json({"type": "chat", "text": "y" * 300})   # exactly the limit is fine
            assert _chat(spec)[0]["text"] == "y" * 300


def test_chat_rate_limit_per_socket(tmp_path):
    with server(tmp_path / "t.sqlite3", rate_limits={"chat": "3/minute"}) as c:
        t = create(c, ["human", "human"], game=GAME, seed=1)
        with c.websocket_connect(ws_path(t, 0)) as a, c.websocket_connect(ws_path(t, 1)) as b:
            next_state(a)
            next_state(b)
            for i in range(3):
                a.send_json({"type": "chat", "text": f"m{i}"})
                assert _chat(a)[0]["text"] == f"m{i}"
            a.send_json({"type": "chat", "text": "one too many"})
            err = next_error(a)
            assert "too many chat messages" in err["message"] and "3 per 1 minute" in err["message"]
            b.send_json({"type": "chat", "text": "b still may"})   # the limit counts per socket
            assert _chat(a)[0]["text"] == "b still may"
            a.send_json({"type": "ping"})   # the socket stays open and plays on
            assert until(a, lambda m: m["type"] == "pong")


def test_name_change_is_checked_stored_and_broadcast(tmp_path):
    db = tmp_path / "t.sqlite3"
    with server(db) as c:
        t = create(c, ["human", "human"], game=GAME, seed=1)
        with c.websocket_connect(ws_path(t, 0)) as a, c.websocket_connect(ws_path(t, 1)) as b, \
                c.websocket_connect(ws_path(t)) as spec:
            first = next_state(a)
            assert _seat(first, 0)["named"] is False   # created without a name: the page asks for one
            assert _seat(first, 0)["connected"] is True
            for ws in (b, spec):
                next_state(ws)
            a.send_json({"type": "name", "name": "  Ann  "})
            for ws in (a, b, spec):
                st = next_state(ws)
                while _seat(st, 1)["connected"] is False or (ws is a and _seat(st, 0)["name"] != "Ann"
                                                             and st["log"] == []):   # b's arrival
                    st = next_state(ws)
                assert st["seq"] == first["seq"] and st["log"] == []
                assert _seat(st, 0)["name"] == "Ann" and _seat(st, 0)["named"] is True
                assert _seat(st, 1)["named"] is False
            for bad, why in [("", "empty"), ("   ", "empty"), ("x" * 41, "at most 40"), (7, "must be a string"),
                             ("tab\there", "control characters")]:
                b.send_json({"type": "name", "name": bad})
                err = next_error(b)
                assert err["message"].startswith("name refused") and why in err["message"], (bad, err)
            spec.send_json({"type": "name", "name": "Kim"})
            assert "spectators" in next_error(spec)["message"]
            b.send_json({"type": "chat", "text": "hi"})
            assert _chat(a)[0]["name"] == _seat(first, 1)["name"]   # the refused names changed nothing
            assert _chat(b)[0]["text"] == "hi"
            a.send_json({"type": "chat", "text": "hello"})
            assert _chat(b)[0]["name"] == "Ann"
        assert c.get(f"/api/tables/{t['table_id']}").json()["seats"][0]["name"] == "Ann"   # the lobby's list
    with server(db) as c:   # stored with the table
        with c.websocket_connect(ws_path(t, 1)) as b:
            assert _seat(next_state(b), 0)["name"] == "Ann"


def test_name_rate_limit(tmp_path):
    with server(tmp_path / "t.sqlite3", rate_limits={"name": "2/minute"}) as c:
        t = create(c, ["human", "human"], game=GAME, seed=1)
        with c.websocket_connect(ws_path(t, 0)) as a:
            next_state(a)
            for n in ("A1", "A2"):
                a.send_json({"type": "name", "name": n})
                assert _seat(next_state(a), 0)["name"] == n
            a.send_json({"type": "name", "name": "A3"})
            assert "too many name messages" in next_error(a)["message"]


def test_presence_reaches_the_other_player(tmp_path):
    with server(tmp_path / "t.sqlite3") as c:
        t = create(c, ["human", "human"], game=GAME, seed=1)
        with c.websocket_connect(ws_path(t, 0)) as a:
            assert _seat(next_state(a), 1)["connected"] is False
            with c.websocket_connect(ws_path(t, 1)) as b:
                next_state(b)
                assert _seat(next_state(a), 1)["connected"] is True
            assert _seat(next_state(a), 1)["connected"] is False


def test_record_and_replay_carry_the_names_and_the_log_names_players(tmp_path):
    with server(tmp_path / "t.sqlite3") as c:
        t = create(c, ["human", "bot:random"], game=GAME, seed=5)
        with c.websocket_connect(ws_path(t, 0)) as a:
            st = next_state(a)
            a.send_json({"type": "name", "name": "Ann"})
            st = next_state(a)
            log_texts = []
            while not st["terminal"]:
                log_texts += [e["text"] for e in st["log"]]
                if 0 in st["to_move"]:
                    a.send_json({"type": "action", "seq": st["seq"], "action": st["legal"][0]["id"]})
                st = next_state(a, st["seq"] + 1)
            log_texts += [e["text"] for e in st["log"]]
        bot_name = t["seats"][1]["name"]
        rec = c.get(f"/api/tables/{t['table_id']}/record").json()
        assert rec["players"] == ["Ann", bot_name]
        assert replay(rec).is_terminal()   # the optional key does not disturb a replay
        rp = c.get(f"/api/tables/{t['table_id']}/replay?step=3").json()
        assert [s["name"] for s in rp["seats"]] == ["Ann", bot_name]
        assert all("token" not in json.dumps(s) for s in rp["seats"])
        if not _duel_renders_names():
            pytest.skip("the Duel's log renderers do not use seat_label yet (converted by the 'text' part of "
                        "issue 15): the log keeps the seat names; the server's named_seats wrapping itself is "
                    "checked by test_the_log_and_the_replay_name_the_players")
        assert any("Ann" in s for s in log_texts)
        assert any("Ann" in e["text"] for e in c.get(f"/api/tables/{t['table_id']}/replay?step=10").json()["log"])


def test_an_old_database_still_loads_plays_replays_and_chats(tmp_path):
    """A database written before names and chat: no ``chat`` table, no ``named`` keys, records
    without ``players``."""
    db = tmp_path / "old.sqlite3"
    with server(db) as c:
        done = create(c, ["bot:random", "bot:random"], game=GAME, seed=2)
        t = create(c, ["human", "human"], game=GAME, seed=1)
        with c.websocket_connect(ws_path(t)) as spec:
            mover = next_state(spec)["to_move"][0]
        with c.websocket_connect(ws_path(t, mover)) as a:
            st = next_state(a)
            a.send_json({"type": "action", "seq": st["seq"], "action": st["legal"][0]["id"]})
            next_state(a, 1)
        tid = done["table_id"]
        for _ in range(200):
            if c.get(f"/api/tables/{tid}").json()["status"] == "finished":
                break
            time.sleep(0.05)
    with sqlite3.connect(db) as conn:   # make it as an older server left it
        conn.execute("DROP TABLE chat")
        assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'chat'").fetchone() == (0,)
    with server(db) as c:
        assert c.get(f"/api/tables/{tid}").json()["status"] == "finished"
        rec = c.get(f"/api/tables/{tid}/record").json()
        old = {k: v for k, v in rec.items() if k != "players"}
        assert replay(old).is_terminal()   # a record without players still replays
        assert c.get(f"/api/tables/{tid}/replay?step=5").status_code == 200
        with c.websocket_connect(ws_path(t)) as spec:
            mover = next_state(spec)["to_move"][0]
        with c.websocket_connect(ws_path(t, mover)) as b:
            st = next_state(b)
            assert st["seq"] == 1 and _seat(st, 0)["named"] is False
            b.send_json({"type": "chat", "text": "still here"})   # the chat table was created on start
            assert _chat(b)[0]["text"] == "still here"
            b.send_json({"type": "action", "seq": st["seq"], "action": st["legal"][0]["id"]})
            assert next_state(b, 2)["seq"] == 2


def test_oversized_chat_frame_is_refused(tmp_path):
    with server(tmp_path / "t.sqlite3") as c:
        t = create(c, ["human", "human"], game=GAME, seed=1)
        with c.websocket_connect(ws_path(t, 0)) as a:
            next_state(a)
            a.send_json({"type": "chat", "text": "z" * (MAX_MESSAGE + 10)})
            assert "too large" in next_error(a)["message"]
            a.send_json({"type": "chat", "text": "after"})
            assert _chat(a)[0]["text"] == "after"


def test_the_log_and_the_replay_name_the_players(tmp_path, monkeypatch):
    """The server renders log sentences under ``named_seats``: a game whose renderer uses
    ``seat_label`` (here the toy game's "take", given such a renderer) names the players."""
    monkeypatch.setitem(events._RENDERERS, "toy.take",
                        lambda e: f"{seat_label(e.player, [f'Seat {i}' for i in range(8)])} takes {e.data['n']}.")
    with server(tmp_path / "t.sqlite3") as c:
        t = create(c, ["human", "human"], game="toy", seed=1)
        with c.websocket_connect(ws_path(t, 0)) as a, c.websocket_connect(ws_path(t, 1)) as b:
            st = next_state(a)
            next_state(b)
            a.send_json({"type": "name", "name": "Ann"})
            b.send_json({"type": "name", "name": "Bob"})
            named = lambda m: m["type"] == "state" and [s["name"] for s in m["seats"]] == ["Ann", "Bob"]  # noqa: E731
            st, sb = until(a, named), until(b, named)
            texts = []
            while not st["terminal"]:
                ws, mine = (a, st) if st["to_move"] == [0] else (b, sb)
                ws.send_json({"type": "action", "seq": mine["seq"], "action": mine["legal"][0]["id"]})
                st, sb = next_state(a, st["seq"] + 1), next_state(b, st["seq"] + 1)
                texts += [e["text"] for e in st["log"]]
        assert "Ann takes" in " ".join(texts) and "Bob takes" in " ".join(texts), texts
        rp = c.get(f"/api/tables/{t['table_id']}/replay?step={st['seq']}").json()
        joined = " ".join(e["text"] for e in rp["log"])
        assert "Ann takes" in joined and "Bob takes" in joined
