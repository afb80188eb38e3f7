"""The browser table in simultaneous steps (PROTOCOL.md, "Simultaneous steps"), on the toy game
``toy_sim`` (tests/simtoy.py, "Sealed bids": every round all seats bid in secret at once, then the
round's winner keeps a point or taxes the next seat).

Covered: humans and bots choosing in any order, bots not waiting for humans nor humans for bots;
changing a choice (``withdraw``, and ``undo`` as its synonym there) with the stored rows renumbered;
per-seat staleness; no message, HTTP answer or WebSocket state, telling another seat or a spectator
what a seat chose (every message compared with the one the server would build had the seat chosen
otherwise); a restart with pending choices; and tables stored before simultaneous steps existed
loading and replaying as before.
"""

from __future__ import annotations

import json
import random
import secrets

import pytest

from citygames.core import load_game, replay
from citygames.server.db import Repository, TableData
from citygames.server.tables import Table, bot_view, chosen_seats, hash_token, public_seat

from server_helpers import create, manager, next_error, next_state, server, until, watchdog, ws_path

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAME = "toy_sim"
SPACE = load_game(GAME).action_space
KEEP = SPACE.get("keep").id


def bid(coins: int) -> int:
    return SPACE.get("bid", coins).id


@pytest.fixture(autouse=True)
def _watchdog():
    with watchdog(60):
        yield


@pytest.fixture
def client(tmp_path):
    with server(tmp_path / "t.sqlite3") as c:
        yield c


class Seats:
    """Open sockets for some seats of a table (``None``: a spectator), closed on exit."""

    def __init__(self, client, table, seats):
        self.socks = {s: client.websocket_connect(ws_path(table, s)) for s in seats}
        self.ws = {}

    def __enter__(self):
        self.ws = {s: c.__enter__() for s, c in self.socks.items()}
        return self.ws

    def __exit__(self, *exc):
        for c in self.socks.values():
            c.__exit__(None, None, None)


def state_where(ws, pred) -> dict:
    """The next ``state`` message satisfying ``pred`` (an ``error`` fails the test)."""
    def ok(m):
        if m["type"] == "error":
            raise AssertionError(f"unexpected error: {m}")
        return m["type"] == "state" and pred(m)
    return until(ws, ok)


def send(ws, kind: str, seq: int, action: int | None = None) -> None:
    msg = {"type": kind, "seq": seq}
    if action is not None:
        msg["action"] = action
    ws.send_json(msg)


def sync(ws, last: dict, seats) -> dict:
    """Every message the seats' sockets have been sent so far (a ping's answer comes after them):
    ``last`` with each seat's latest ``state``."""
    last = dict(last)
    for p in seats:
        ws[p].send_json({"type": "ping"})
        while True:
            m = ws[p].receive_json()
            if m["type"] == "pong":
                break
            if m["type"] == "error":
                raise AssertionError(f"unexpected error: {m}")
            last[p] = m
    return last


def rows_match_history(client, tid) -> None:
    """The stored rows are the table's history, numbered 0, 1, 2, ... in order."""
    st = manager(client).tables[tid].state
    expected = [(i, e[0], e[1]) if isinstance(e, list) else (i, None, e) for i, e in enumerate(st.history)]
    rows = manager(client).repo.actions(tid)
    assert [(q, s if isinstance(e, list) else None, a) for (q, s, a), e in zip(rows, st.history)] == expected
    assert len(rows) == len(st.history)


# --- playing ----------------------------------------------------------------------------------
def test_two_humans_and_a_bot_choose_in_any_order(client):
    t = create(client, ["human", "human", "bot:greedy"], seed=5, game=GAME)
    tid = t["table_id"]
    with Seats(client, t, [0, 1, None]) as ws:
        w0, w1, spec = ws[0], ws[1], ws[None]
        # the bot chooses at once: it waits for no human
        s0 = state_where(w0, lambda m: m["chosen"] == [2])
        assert s0["to_move"] == [0, 1] and s0["step_seq"] == 0 and s0["seq"] == 1
        assert s0["my_choice"] is None and [a["id"] for a in s0["legal"]] == [bid(b) for b in range(4)]
        assert s0["can_undo"] is False
        # seat 1 first, with the seq it saw when it joined (maybe before the bot chose: not stale)
        s1 = next_state(w1)
        send(w1, "action", s1["seq"], bid(2))
        s1 = state_where(w1, lambda m: m["chosen"] == [1, 2])
        assert s1["to_move"] == [0] and s1["legal"] == [] and s1["can_undo"] is True
        assert s1["my_choice"]["id"] == bid(2) and s1["my_choice"]["text"] == "bid 2 coins"
        s0 = state_where(w0, lambda m: m["chosen"] == [1, 2])
        assert s0["my_choice"] is None and s0["can_undo"] is False and s0["legal"]
        sp = state_where(spec, lambda m: m["chosen"] == [1, 2])
        assert sp["my_choice"] is None and sp["to_move"] == [0]
        # seat 0 last: the step resolves and the bids are revealed to everybody
        send(w0, "action", s0["seq"], bid(1))
        s0 = state_where(w0, lambda m: m["chosen"] is None)
        reveal = next(e for e in s0["log"] if e["kind"] == "simtoy.reveal")
        assert reveal["data"]["bids"][:2] == [1, 2]
        assert s0["step_seq"] == s0["seq"] == 3 and s0["my_choice"] is None
        record_so_far = manager(client).tables[tid].state.record()["actions"]
        assert [tuple(e) for e in record_so_far] == [(2, record_so_far[0][1]), (1, bid(2)), (0, bid(1))]
        # the rest of the game: the humans in a random order each round, the bot whenever it may
        rng = random.Random(3)
        last = {0: s0, 1: s1}
        while True:
            last = sync(ws, last, (0, 1))
            if last[0]["terminal"]:
                break
            movers = [p for p in (0, 1) if p in last[p]["to_move"]]
            if not movers:   # waiting for the bot
                last[0] = state_where(w0, lambda m: True)
                continue
            p = rng.choice(movers)
            m = last[p]
            if m["legal"][0]["kind"] == "keep":
                send(ws[p], "action", m["seq"], KEEP)
                last[p] = state_where(ws[p], lambda x, s=m["seq"]: x["seq"] > s)
            else:
                send(ws[p], "action", m["seq"], rng.choice(m["legal"])["id"])
                # its choice is in (or the step it closed is over), whatever the bot did meanwhile
                last[p] = state_where(ws[p], lambda x, s=m["seq"], p=p: x["seq"] > s and (
                    x["chosen"] is None or p in x["chosen"]))
        rows_match_history(client, tid)
    record = client.get(f"/api/tables/{tid}/record").json()
    assert any(isinstance(a, list) and a[0] == 2 for a in record["actions"])   # the bot's choices, as pairs
    assert all(isinstance(a, int) for a in record["actions"] if not isinstance(a, list))
    assert replay(record).scores() == last[0]["result"]["scores"]
    mid = client.get(f"/api/tables/{tid}/replay?step=1").json()   # in the middle of a step: nothing shown
    assert mid["to_move"] == [0, 1] and mid["observation"]["chosen"] == [2]


def test_bots_choose_together_without_waiting_for_the_human(client):
    t = create(client, ["human", "bot:greedy", "bot:random"], seed=8, game=GAME)
    with Seats(client, t, [0]) as ws:
        m = state_where(ws[0], lambda m: m["chosen"] == [1, 2])
        assert m["to_move"] == [0] and m["legal"] and m["seq"] == 2
        send(ws[0], "action", 0, bid(0))   # the seq of the step's opening: still this step
        m = state_where(ws[0], lambda m: m["chosen"] is None)
        assert m["seq"] >= 3


def test_bot_view_hides_the_other_choices_and_keeps_the_state():
    state = load_game(GAME).new_initial_state(seed=2)
    state.apply_action(bid(3), player=0)
    state.apply_action(bid(1), player=2)
    before = state.to_dict()
    view = bot_view(state, 1)
    assert chosen_seats(view) == [] and view.players_to_move() == (0, 1, 2) and view.history == []
    assert state.to_dict() == before and chosen_seats(state) == [0, 2]


# --- changing a choice --------------------------------------------------------------------------
def test_changing_a_choice(client):
    t = create(client, ["human"] * 3, seed=4, game=GAME)
    tid = t["table_id"]
    with Seats(client, t, [0, 1, 2]) as ws:
        st = {p: next_state(ws[p]) for p in ws}
        # nothing to change yet, and no spectator may
        send(ws[2], "withdraw", 0)
        assert next_error(ws[2])["message"] == "change refused: you have not chosen in this simultaneous step"
        send(ws[0], "action", 0, bid(1))
        st = {p: state_where(ws[p], lambda m: m["seq"] == 1) for p in ws}
        send(ws[1], "action", 1, bid(2))
        st = {p: state_where(ws[p], lambda m: m["seq"] == 2) for p in ws}
        assert st[0]["my_choice"]["id"] == bid(1) and st[0]["can_undo"] is True
        # choosing again is refused: a change goes through withdraw
        send(ws[0], "action", 2, bid(3))
        assert "you have chosen already" in next_error(ws[0])["message"]
        # seat 0 changes its choice; seat 1's row (after it) moves up one place
        send(ws[0], "withdraw", 1)   # the seq it saw when it chose: the same step
        st = {p: state_where(ws[p], lambda m: m["seq"] == 1) for p in ws}
        assert st[0]["my_choice"] is None and st[0]["to_move"] == [0, 2] and st[0]["chosen"] == [1]
        assert [a["id"] for a in st[0]["legal"]] == [bid(b) for b in range(4)] and st[0]["can_undo"] is False
        assert st[1]["my_choice"]["id"] == bid(2) and st[2]["chosen"] == [1]
        assert manager(client).repo.actions(tid) == [(0, 1, bid(2))]
        rows_match_history(client, tid)
        # undo is the same thing in a simultaneous step
        send(ws[1], "undo", 1)
        st = {p: state_where(ws[p], lambda m: m["seq"] == 0) for p in ws}
        assert st[1]["chosen"] == [] and st[1]["to_move"] == [0, 1, 2]
        assert manager(client).repo.actions(tid) == []
        for p, b, seq in ((1, 0, 1), (2, 0, 2)):
            send(ws[p], "action", 0, bid(b))       # all with the seq they saw: the step's opening
            state_where(ws[p], lambda m, seq=seq: m["seq"] == seq)
        send(ws[0], "action", 0, bid(3))           # seat 0, the winner, chooses last
        st = {p: state_where(ws[p], lambda m: m["chosen"] is None) for p in ws}
        reveal = next(e for e in st[0]["log"] if e["kind"] == "simtoy.reveal")
        assert reveal["data"]["bids"] == [3, 0, 0] and st[0]["to_move"] == [0]
        rows_match_history(client, tid)
        # the step is over: no change, and no undo across the reveal (seat 0 made the last action)
        assert st[0]["can_undo"] is False
        send(ws[0], "undo", 3)
        assert "undo refused: the last action was a choice of a simultaneous step" in next_error(ws[0])["message"]
        send(ws[0], "withdraw", 3)
        assert "change refused: no simultaneous step is pending" in next_error(ws[0])["message"]
        send(ws[0], "action", 3, KEEP)
        st = {p: state_where(ws[p], lambda m: m["seq"] == 4) for p in ws}
        send(ws[1], "undo", 4)
        assert next_error(ws[1])["message"] == "undo refused: you have not chosen in this simultaneous step"


def test_stale_is_per_seat_in_a_simultaneous_step(client):
    t = create(client, ["human"] * 3, seed=6, game=GAME)
    tid = t["table_id"]
    with Seats(client, t, [0, 1, 2]) as ws:
        for p in ws:
            next_state(ws[p])
        # all saw seq 0; each may choose with it, whatever the others did meanwhile
        send(ws[0], "action", 0, bid(3))
        state_where(ws[1], lambda m: m["seq"] == 1)
        send(ws[1], "action", 0, bid(0))
        m = state_where(ws[1], lambda m: m["seq"] == 2)
        assert m["my_choice"]["id"] == bid(0)
        send(ws[1], "withdraw", 2)                 # a change makes the seq go down ...
        state_where(ws[1], lambda m: m["seq"] == 1 and m["my_choice"] is None)
        send(ws[1], "action", 2, bid(1))           # ... and a seat's submission at the higher one still counts
        state_where(ws[1], lambda m: m["seq"] == 2 and m["my_choice"] is not None)
        send(ws[2], "action", 7, bid(1))           # not a seq of this step
        assert next_error(ws[2])["message"] == "stale: the table has moved on to seq 2"
        send(ws[2], "action", 1, bid(0))           # seat 0 wins with its 3; seat 2 closes the step
        st = {p: state_where(ws[p], lambda m: m["chosen"] is None) for p in ws}
        assert st[0]["seq"] == 3 and st[0]["to_move"] == [0]
        # the step has really moved on: its seqs are stale now (before the turn is checked)
        send(ws[1], "action", 2, bid(2))
        assert next_error(ws[1])["message"] == "stale: the table has moved on to seq 3"
        send(ws[0], "action", 2, KEEP)
        assert next_error(ws[0])["message"] == "stale: the table has moved on to seq 3"
        send(ws[1], "withdraw", 2)                 # a change of a choice already revealed: late too
        assert next_error(ws[1])["message"] == "stale: the table has moved on to seq 3"
        send(ws[0], "action", 3, KEEP)             # a turn-based step: the exact seq
        st = {p: state_where(ws[p], lambda m: m["seq"] == 4) for p in ws}
        assert st[0]["to_move"] == [0, 1, 2] and st[0]["step_seq"] == 4
        # round 2: one seat's stale submission is refused while the other's is accepted
        send(ws[2], "action", 3, bid(1))           # planned on the keep decision: the round before
        assert next_error(ws[2])["message"] == "stale: the table has moved on to seq 4"
        send(ws[1], "action", 4, bid(1))
        m = state_where(ws[1], lambda m: m["seq"] == 5)
        assert m["my_choice"]["id"] == bid(1) and m["chosen"] == [1]
        send(ws[2], "action", 4, bid(1))           # seat 1 chose since: not stale for seat 2
        m = state_where(ws[2], lambda m: m["seq"] == 6)
        assert m["chosen"] == [1, 2] and m["step_seq"] == 4
        rows_match_history(client, tid)


# --- secrecy ----------------------------------------------------------------------------------
def _message(mgr, table, seat, log_from):
    return json.loads(mgr.state_message(table, seat, log_from))


def test_no_message_tells_another_seat_what_a_seat_chose(client):
    """Three humans and a spectator play the whole game at random, changing choices now and then.
    Every state message each socket receives is exactly what the server builds for it, and the
    server builds the same message for every other seat and the spectator whatever the seats
    that have chosen chose (every other legal bid tried in their place); the HTTP answers about
    the table do not change either."""
    rng = random.Random(11)
    t = create(client, ["human"] * 3, seed=1234567, game=GAME)
    tid = t["table_id"]
    mgr = manager(client)
    viewers = [0, 1, 2, None]
    checked = 0
    with Seats(client, t, viewers) as ws:
        last = {p: next_state(ws[p]) for p in viewers}
        last = sync(ws, last, viewers)   # every seat's arrival is broadcast once all have their first state
        while not last[None]["terminal"]:
            table = mgr.tables[tid]
            st = table.state
            chosen = chosen_seats(st) or []
            before = table.seq   # (read before sending: the answer may come at once)
            if chosen and rng.random() < 0.3:
                p = rng.choice(chosen)
                send(ws[p], "withdraw", last[p]["seq"])
            else:
                p = rng.choice(st.players_to_move())
                legal = last[p]["legal"]
                send(ws[p], "action", last[p]["seq"], rng.choice(legal)["id"])
            last = {q: state_where(ws[q], lambda m: m["seq"] != before or m["terminal"]) for q in viewers}
            table = mgr.tables[tid]
            st = table.state
            chosen = chosen_seats(st) or []
            for q in viewers:
                m = last[q]
                # exactly what the server builds for that seat now
                assert m == _message(mgr, table, q, m["log_from"])
                assert m["observation"] == json.loads(json.dumps(st.observation(q)))
                mine = q is not None and q in chosen
                assert (m["my_choice"] is not None) == mine
                assert "my_bid" not in m["observation"] or mine
                # the same whatever the other seats chose
                for other in chosen:
                    if other == q:
                        continue
                    for alt in _legal_after_withdraw(st, other):
                        if alt.id == st.pending_choice(other).id:
                            continue
                        cf = st.clone()   # (its history has the other choice last: only its length is sent)
                        cf.withdraw(other)
                        cf.apply_action(alt, player=other)
                        cf_table = Table(data=table.data, game=table.game, state=cf, conns=table.conns, life=table.life,
                                         action_seats=table.action_seats, log_marks=table.log_marks)
                        assert _message(mgr, cf_table, q, m["log_from"]) == m, (q, other, alt)
                        checked += 1
            # HTTP: the summary says how many actions, never which; record and replay wait for the end
            if not st.is_terminal():
                s = client.get(f"/api/tables/{tid}").json()
                assert set(s) == {"table_id", "game", "options", "seats", "status", "seq", "created_at"}
                assert s["seq"] == table.seq
                assert client.get(f"/api/tables/{tid}/record").status_code == 409
                assert client.get(f"/api/tables/{tid}/replay?step=0").status_code == 409
    assert checked > 50


def _legal_after_withdraw(state, seat):
    cf = state.clone()
    cf.withdraw(seat)
    return cf.legal_actions(seat)



# --- persistence --------------------------------------------------------------------------------
def test_restart_with_pending_choices(tmp_path):
    db = tmp_path / "t.sqlite3"
    with server(db, bot_delay=1000) as client:   # the bot thinks "forever": the humans do not wait for it
        t = create(client, ["human", "human", "bot:greedy"], seed=9, game=GAME)
        tid = t["table_id"]
        with Seats(client, t, [0, 1]) as ws:
            next_state(ws[0])
            send(ws[0], "action", 0, bid(2))
            send(ws[1], "action", 0, bid(1))
            m = state_where(ws[1], lambda m: m["seq"] == 2)
            assert m["to_move"] == [2] and m["chosen"] == [0, 1]
    with server(db, bot_delay=1000) as client:
        table = client.portal.call(manager(client).get, tid)   # loaded on first use
        assert chosen_seats(table.state) == [0, 1] and table.state.players_to_move() == (2,)
        with Seats(client, t, [0, 1]) as ws:
            m0, m1 = next_state(ws[0]), next_state(ws[1])
            assert m0["my_choice"]["id"] == bid(2) and m1["my_choice"]["id"] == bid(1)
            assert m0["seq"] == 2 and m0["step_seq"] == 0 and m0["can_undo"] is True
            send(ws[0], "withdraw", 2)                 # a change after the restart: seat 1's row moves up
            state_where(ws[0], lambda m: m["seq"] == 1)
            send(ws[0], "action", 1, bid(3))
            m = state_where(ws[0], lambda m: m["seq"] == 2)
            assert m["my_choice"]["id"] == bid(3)
            rows_match_history(client, tid)
    with server(db, bot_delay=0) as client:          # the bot resumes and closes the step
        with Seats(client, t, [0]) as ws:
            m = state_where(ws[0], lambda m: m["chosen"] is None)
            reveal = next(e for e in m["log"] if e["kind"] == "simtoy.reveal")
            assert reveal["data"]["bids"][:2] == [3, 1]
        rows = manager(client).repo.actions(tid)
        assert [(s, a) for _, s, a in rows[:2]] == [(1, bid(1)), (0, bid(3))] and rows[2][1] == 2


def test_tables_stored_before_simultaneous_steps_still_load(tmp_path):
    """Rows written the old way (one (seq, seat, action) row per action of a turn-based game) load
    and replay: an open table of The Capitals resumes where it was, a finished toy table gives its
    record of plain action ids."""
    db = tmp_path / "old.sqlite3"
    repo = Repository(f"sqlite:///{db}")
    try:
        rng = random.Random(2)
        game = load_game("the_capitals", num_players=2)
        token = secrets.token_urlsafe(8)
        seats = [{**public_seat(i, {"kind": "human", "name": f"P{i}"}), "token_hash": hash_token(token)}
                 for i in range(2)]
        repo.insert_table(TableData(id="oldcapitals", game="the_capitals", options=dict(game.options), seed=77,
                                    seats=seats))
        st = game.new_initial_state(seed=77)
        for i in range(30):
            seat = st.current_player()
            a = rng.choice(st.legal_actions()).id
            st.apply_action(a)
            repo.append_action("oldcapitals", i, seat, a)
        toy = load_game("toy")
        repo.insert_table(TableData(id="oldtoy", game="toy", options=dict(toy.options), seed=5,
                                    seats=[public_seat(i, {"kind": "bot", "bot": "random", "name": f"B{i}"})
                                           for i in range(2)]))
        ts = toy.new_initial_state(seed=5)
        i = 0
        while not ts.is_terminal():
            seat, a = ts.current_player(), ts.legal_actions()[0].id
            ts.apply_action(a)
            from citygames.server.tables import result_of
            repo.append_action("oldtoy", i, seat, a, result_of(ts) if ts.is_terminal() else None)
            i += 1
    finally:
        repo.close()
    with server(db) as client:
        table = client.portal.call(manager(client).get, "oldcapitals")   # loaded on first use
        assert table.state.to_dict() == st.to_dict() and table.seq == 30
        p = st.current_player()
        with client.websocket_connect(f"/ws/tables/oldcapitals?seat={p}&token={token}") as ws:
            m = next_state(ws)
            assert m["seq"] == 30 and m["to_move"] == [p] and m["chosen"] is None and m["step_seq"] == 30
            send(ws, "action", 30, m["legal"][0]["id"])
            assert next_state(ws, 31)["seq"] == 31
        rec = client.get("/api/tables/oldtoy/record").json()
        assert rec["actions"] == ts.history and all(isinstance(a, int) for a in rec["actions"])
        assert replay(rec).scores() == ts.scores()
        end = client.get(f"/api/tables/oldtoy/replay?step={len(ts.history)}").json()
        assert end["observation"] == json.loads(json.dumps(ts.observation(None)))
