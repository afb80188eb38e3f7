"""No message of the server carries more than the receiving seat's observation.

A seeded 3-player game of The Capitals (base game, and with the Prosperity expansion, whose hands
are hidden) is played to the end through the server by three human seats (random legal actions)
while a spectator watches. Every message each socket received is then
checked against the server's state at that seq, rebuilt by replaying the record.
"""

from __future__ import annotations

import json
import random

import pytest

from citygames.core import replay

from server_helpers import create, server, until, watchdog, ws_path

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SEED = 7_301_905_577_123_459   # long enough that it cannot appear by accident
N = 3
STATE_KEYS = {"type", "table_id", "game", "seq", "your_seat", "seats", "to_move", "observation", "legal", "log",
              "log_from", "can_undo", "terminal", "result", "step_seq", "chosen", "my_choice",
              # issue 15, lifecycle.py: table status, clock settings and times, resign/rematch notices
              "status", "clock", "clocks", "life",
              # issue 12: the bot seats whose search is running (public: who is thinking, not what)
              "thinking"}
EVENT_KEYS = {"index", "kind", "player", "text", "data", "visible_to"}
#: full-state field names that legitimately reappear in messages as other things: "log" (the
#: message's event list), "player" (an event's seat)
SHARED_NAMES = {"log", "player"}


def _keys(x, out: set) -> set:
    if isinstance(x, dict):
        for k, v in x.items():
            out.add(k)
            _keys(v, out)
    elif isinstance(x, list):
        for v in x:
            _keys(v, out)
    return out


def _walk_dicts(x):
    if isinstance(x, dict):
        yield x
        for v in x.values():
            yield from _walk_dicts(v)
    elif isinstance(x, list):
        for v in x:
            yield from _walk_dicts(v)


def _normal(x):
    return json.loads(json.dumps(x))


@pytest.fixture(autouse=True)
def _watchdog():
    with watchdog(120):
        yield


@pytest.mark.parametrize("prosperity", [False, True])
def test_no_message_leaks_hidden_information(tmp_path, prosperity):
    rng = random.Random(1)
    received: dict = {s: [] for s in [*range(N), None]}
    with server(tmp_path / "leak.sqlite3") as client:
        t = create(client, ["human"] * N, seed=SEED, options={"prosperity": prosperity})
        tid = t["table_id"]
        socks = {s: client.websocket_connect(ws_path(t, s)) for s in [*range(N), None]}
        wss = {s: c.__enter__() for s, c in socks.items()}
        try:
            def take(seat, min_seq):
                def pred(m):
                    received[seat].append(m)
                    return m["type"] == "state" and m["seq"] >= min_seq
                return until(wss[seat], pred)

            states = {s: take(s, 0) for s in wss}
            seq = 0
            while not states[None]["terminal"]:
                mover = states[None]["to_move"][0]
                legal = states[mover]["legal"]
                wss[mover].send_json({"type": "action", "seq": seq, "action": rng.choice(legal)["id"]})
                seq += 1
                states = {s: take(s, seq) for s in wss}
            record = client.get(f"/api/tables/{tid}/record").json()
        finally:
            for c in socks.values():
                c.__exit__(None, None, None)

    assert record["seed"] == SEED and len(record["actions"]) == seq
    # the server's state after each action, rebuilt from the record
    game_states = [replay(record, upto=0)]
    st = replay(record, upto=0)
    for a in record["actions"]:
        st.apply_action(a)
        game_states.append(st.clone())
    assert game_states[-1].is_terminal()
    tiles = game_states[0].c.tiles
    observed_keys: set = set()
    for gs in game_states:
        for s in [*range(N), None]:
            _keys(gs.observation(s), observed_keys)
    hidden_names = set(game_states[0].to_dict()) - observed_keys
    assert {"decks", "seed", "history"} <= hidden_names
    if prosperity:
        assert {"hands", "prosperity_box"} <= hidden_names and any(gs.hands[0] for gs in game_states)

    total = 0
    for seat, msgs in received.items():
        log_seen = 0
        for m in msgs:
            assert m["type"] == "state", m
            total += 1
            text = json.dumps(m)
            gs = game_states[m["seq"]]
            over = gs.is_terminal()
            # never the seed of the game, never the decks
            assert str(SEED) not in text
            assert "seed" not in _keys(m, set())
            assert all("deck" not in k or k == "deck_sizes" for k in _keys(m, set())), "a deck key"
            # not one tile still in a deck (let alone their order)
            for deck in gs.decks:
                for x in deck:
                    assert f'"{tiles[x].id}"' not in text, f"seq {m['seq']}: deck tile {tiles[x].id} sent"
            # Prosperity: never another seat's hand or an undealt tile (their ids appear only once
            # built or revealed as a Lake, and then they are no longer in a hand)
            for q in range(N):
                if q != seat:
                    for x in gs.hands[q]:
                        assert f'"{tiles[x].id}"' not in text, f"seq {m['seq']}: seat {q}'s {tiles[x].id} sent to {seat}"
            for x in gs.prosperity_box:
                assert f'"{tiles[x].id}"' not in text, f"seq {m['seq']}: undealt {tiles[x].id} sent"
            # no full-state field name outside what the observation itself uses
            assert set(m) <= STATE_KEYS
            # a turn-based game: no simultaneous step, so no choices to count or show
            assert m["chosen"] is None and m["my_choice"] is None and m["step_seq"] == m["seq"]
            for e in m["log"]:
                assert set(e) <= EVENT_KEYS
            leaked = (_keys(m, set()) & hidden_names) - SHARED_NAMES
            assert not leaked, f"seq {m['seq']}: full-state keys {leaked} sent to seat {seat}"
            # exactly this seat's observation, legal actions and visible events at that seq
            assert m["your_seat"] == seat
            assert m["observation"] == _normal(gs.observation(seat))
            if seat is not None and seat in gs.players_to_move():
                assert m["legal"] == _normal([gs.game.action_json(gs, a) for a in gs.legal_actions(seat)])
            else:
                assert m["legal"] == []
            assert all(e["index"] >= m["log_from"] for e in m["log"])
            assert m["log_from"] <= log_seen or m["log_from"] == 0  # no gap in the log a seat receives
            for e in m["log"]:
                ev = gs.log[e["index"]]
                assert ev.visible(seat) and e["kind"] == ev.kind and e["data"] == _normal(ev.data)
            log_seen = max(log_seen, len(gs.log))  # everything up to here was sent or is not for this seat
            # other seats' prestige stays hidden until the end
            if not over:
                assert m["result"] is None
                for d in _walk_dicts(m["observation"]):
                    if "prestige" in d and "seat" in d and d["seat"] != seat:
                        assert d["prestige"] is None, f"seat {d['seat']}'s prestige sent to seat {seat}"
                assert all(p["prestige"] is None for p in m["observation"]["players"] if p["seat"] != seat)
        # every seat saw every seq
        assert sorted({m["seq"] for m in msgs}) == list(range(seq + 1))
    assert total >= 4 * seq

