"""7 Wonders Duel through the server (HTTP and WebSocket, in process): a table created, joined and
played to the end against a bot; bots alone; the first-game option; and the leak test: no message
to a seat or a spectator ever names a face-down or removed card, a card of a later age, an unused
guild, an unrevealed wonder, a boxed progress token or the opponent's Great Library draw.
"""

from __future__ import annotations

import json
import random

import pytest

from citygames.core import replay
from citygames.core.registry import load_game

from duel_helpers import card, listed, slots, token_id
from server_helpers import create, manager, my_turn, next_state, play_to_end, server, until, watchdog, ws_path

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAME = "seven_wonders_duel"
CATEGORIES = {"military", "blue", "green", "yellow", "purple", "wonders", "progress", "coins"}
STATE_KEYS = {"type", "table_id", "game", "seq", "your_seat", "seats", "to_move", "observation", "legal", "log",
              "log_from", "can_undo", "terminal", "result", "step_seq", "chosen", "my_choice",
              # issue 15, lifecycle.py: table status, clock settings and times, resign/rematch notices
              "status", "clock", "clocks", "life",
              # issue 12: the bot seats whose search is running (public: who is thinking, not what)
              "thinking"}
EVENT_KEYS = {"index", "kind", "player", "text", "data", "visible_to"}


@pytest.fixture(autouse=True)
def _watchdog():
    with watchdog(150):
        yield


@pytest.fixture
def client(tmp_path):
    with server(tmp_path / "duel.sqlite3") as c:
        yield c


def hidden_of(gs) -> set[int]:
    """The cards nobody may see in ``gs`` (read from its full position, the server's view): face-down cards, the
    decks of the ages to come, the removed cards and the unused guilds."""
    age = gs.observation(None)["age"]
    names = [name for name, up in slots(gs) if name is not None and not up] if age else []
    for a in range(age + 1, 4):
        names += listed(gs, f"Age {'I' * a} deck")
    for a in ("I", "II", "III"):
        names += listed(gs, f"removed from Age {a}")
    names += listed(gs, "guilds in the box")
    return set(map(card, names))


def _normal(x):
    return json.loads(json.dumps(x))


# --- a table against a bot ------------------------------------------------------------------------
def test_duel_table_create_join_and_play_against_a_bot(client):
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert GAME in games and games[GAME]["min_players"] == games[GAME]["max_players"] == 2
    assert {"first_game_wonders", "next_age_chooser"} <= {o["name"] for o in games[GAME]["options"]}
    comps = client.get(f"/api/games/{GAME}/components").json()
    assert comps["game"] == GAME and len(comps["cards"]) == 73 and len(comps["wonders"]) == 12
    assert len(comps["tokens"]) == 10 and set(comps["structures"]) == {"1", "2", "3"}
    assert {"name", "color", "cost", "effect", "cost_text"} <= set(comps["cards"][0])

    t = create(client, ["human", "bot:greedy"], seed=5, game=GAME)
    tid = t["table_id"]
    summary = client.get(f"/api/tables/{tid}").json()
    assert summary["game"] == GAME and summary["status"] == "open"
    with client.websocket_connect(ws_path(t, 0)) as ws, client.websocket_connect(ws_path(t)) as spec:
        st = my_turn(ws, 0)
        assert st["game"] == GAME and st["your_seat"] == 0
        obs = st["observation"]
        assert obs["phase"] == "draft" and obs["current_player"] == 0 and len(obs["draft"]) in (3, 4)
        assert {a["kind"] for a in st["legal"]} == {"draft"}
        assert sorted(a["wonder"] for a in st["legal"]) == sorted(obs["draft"])
        state = manager(client).tables[tid].state
        assert obs == _normal(state.observation(0))
        assert st["legal"] == _normal([state.game.action_json(state, a) for a in state.legal_actions(0)])
        # every kind a seat meets carries what the board needs to place it
        seen: dict[str, dict] = {}

        def choose(legal):
            for a in legal:
                seen.setdefault(a["kind"], a)
            return legal[0]

        final = play_to_end(ws, 0, st, choose)
        end = until(spec, lambda m: m["type"] == "state" and m["terminal"])
    assert {"draft", "construct", "discard"} <= set(seen)
    for kind, keys in {"draft": {"wonder"}, "construct": {"card", "price"}, "discard": {"card", "price"},
                       "wonder": {"card", "wonder", "price"}, "progress": {"token"}, "start": {"seat"},
                       "destroy": {"card"}, "mausoleum": {"card"}}.items():
        if kind in seen:
            assert keys <= set(seen[kind]), (kind, seen[kind])
    result = final["result"]
    assert final["terminal"] and final["legal"] == [] and end["result"] == result
    assert set(result["breakdown"][0]) == CATEGORIES
    for p in (0, 1):
        assert sum(result["breakdown"][p].values()) == result["scores"][p]
    obs = final["observation"]
    assert obs["phase"] == "end" and obs["result"]["scores"] == result["scores"]
    assert obs["result"]["victory"] in ("civilian", "military", "science", "shared")
    assert end["observation"]["result"] == obs["result"] and end["your_seat"] is None
    summary = client.get(f"/api/tables/{tid}").json()
    assert summary["status"] == "finished" and summary["result"] == result
    record = client.get(f"/api/tables/{tid}/record").json()
    assert replay(record).scores() == result["scores"]
    # the replay endpoint gives the spectator's observation
    r3 = client.get(f"/api/tables/{tid}/replay?step=3").json()
    assert r3["observation"] == _normal(replay(record, upto=3).observation(None))


def test_duel_bots_play_alone(client):
    t = create(client, ["bot:greedy", "bot:random"], seed=12, game=GAME)
    with client.websocket_connect(ws_path(t)) as spec:
        end = until(spec, lambda m: m["type"] == "state" and m["terminal"])
    record = client.get(f"/api/tables/{t['table_id']}/record").json()
    assert end["result"]["scores"] == replay(record).scores()
    assert end["observation"]["result"]["scores"] == end["result"]["scores"]


def test_duel_first_game_wonders_skip_the_draft(client):
    t = create(client, ["human", "human"], seed=4, game=GAME, options={"first_game_wonders": True})
    with client.websocket_connect(ws_path(t, 0)) as ws:
        st = next_state(ws)
    obs = st["observation"]
    assert obs["phase"] == "play" and obs["age"] == 1 and obs["draft"] == []
    assert [len(p["wonders"]) for p in obs["players"]] == [4, 4]
    assert len(obs["structure"]) == 20
    assert sum(1 for s in obs["structure"] if s["face_up"]) == 12
    assert all(s["card"] is None for s in obs["structure"] if not s["face_up"])


# --- the leak test -------------------------------------------------------------------------------
BASE_SEED = 7_301_905_577_123_459   # long enough that it cannot appear by accident


def _great_library(game) -> int:
    return next(w.idx for w in game.components.wonders if w.name == "The Great Library")


def _choose(rng, legal: list[dict], library: int) -> dict:
    """Random play, but draft and build the Great Library whenever possible."""
    for a in legal:
        if a["kind"] in ("draft", "wonder") and a.get("wonder") == library:
            return a
    return legal[rng.randrange(len(legal))]


def _library_seed(game) -> int:
    """The first seed from BASE_SEED whose game (played by ``_choose``) builds the Great Library."""
    library = _great_library(game)
    for k in range(60):
        seed = BASE_SEED + k
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            p = s.players_to_move()[0]
            if s.observation(p)["phase"] == "library":
                return seed
            legal = [game.action_json(s, a) for a in s.legal_actions(p)]
            s.apply_action(_choose(rng, legal, library)["id"])
    raise AssertionError("no seed builds the Great Library")


def _mentions(msg) -> tuple[set, set, set]:
    """(card ids, wonder ids, token ids) a message names anywhere."""
    cards, wonders, tokens = set(), set(), set()

    def ints(v):
        if isinstance(v, bool):
            return []
        if isinstance(v, int):
            return [v]
        if isinstance(v, list):
            return [x for y in v for x in ints(y)]
        return []

    def walk(x, parent=None):
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("card", "cards", "discard"):
                    cards.update(i for i in ints(v) if i >= 0)
                elif k in ("wonder", "draft") or (k == "wonders" and isinstance(v, list)):
                    wonders.update(ints(v))   # (an int "wonders" is a VP category)
                elif k in ("token", "tokens", "progress_board", "library_draw") and parent != "conflict":
                    tokens.update(ints(v))
                if k == "prices" and isinstance(v, dict):
                    cards.update(int(c) for c in v)
                    for p in v.values():
                        wonders.update(int(w) for w in (p.get("wonders") or {}))
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, parent)

    walk(msg)
    return cards, wonders, tokens


def test_no_message_leaks_hidden_information(tmp_path):
    game = load_game(GAME)
    library = _great_library(game)
    seed = _library_seed(game)
    rng = random.Random(seed)
    seats = [0, 1, None]
    received: dict = {s: [] for s in seats}
    with server(tmp_path / "leak.sqlite3") as client:
        t = create(client, ["human", "human"], seed=seed, game=GAME)
        tid = t["table_id"]
        socks = {s: client.websocket_connect(ws_path(t, s)) for s in seats}
        wss = {s: c.__enter__() for s, c in socks.items()}
        try:
            def take(seat, min_seq):
                def pred(m):
                    received[seat].append(m)
                    return m["type"] == "state" and m["seq"] >= min_seq
                return until(wss[seat], pred)

            states = {s: take(s, 0) for s in seats}
            seq = 0
            while not states[None]["terminal"]:
                mover = states[None]["to_move"][0]
                a = _choose(rng, states[mover]["legal"], library)
                wss[mover].send_json({"type": "action", "seq": seq, "action": a["id"]})
                seq += 1
                states = {s: take(s, seq) for s in seats}
            record = client.get(f"/api/tables/{tid}/record").json()
        finally:
            for c in socks.values():
                c.__exit__(None, None, None)

    assert record["seed"] == seed and len(record["actions"]) == seq
    game_states = [replay(record, upto=0)]
    st = replay(record, upto=0)
    for a in record["actions"]:
        st.apply_action(a)
        game_states.append(st.clone())
    assert game_states[-1].is_terminal()
    library_states = [gs for gs in game_states if gs.observation(None)["phase"] == "library"]
    assert library_states, "the Great Library was never built"
    observed_keys: set = set()

    def keys(x, out):
        if isinstance(x, dict):
            for k, v in x.items():
                out.add(k)
                keys(v, out)
        elif isinstance(x, list):
            for v in x:
                keys(v, out)
        return out

    for gs in game_states:
        for s in seats:
            keys(gs.observation(s), observed_keys)
    hidden_names = set(game_states[0].to_dict()) - observed_keys - {"log", "player", "game"}
    # the full state's hidden fields (library_draw is also an observation key: its content is checked below)
    assert {"age_decks", "removed_cards", "guild_box", "progress_box", "unrevealed_wonders", "seed",
            "history"} <= hidden_names

    checked_library = {0: 0, 1: 0, None: 0}
    for seat, msgs in received.items():
        drawn_seen: set = set()     # tokens this seat saw in its own Great Library draws
        for m in msgs:
            assert m["type"] == "state", m
            assert set(m) <= STATE_KEYS
            # a turn-based game: no simultaneous step, so no choices to count or show
            assert m["chosen"] is None and m["my_choice"] is None and m["step_seq"] == m["seq"]
            text = json.dumps(m)
            assert str(seed) not in text and "seed" not in keys(m, set())
            leaked = keys(m, set()) & hidden_names
            assert not leaked, f"seq {m['seq']}: full-state keys {leaked} sent to {seat}"
            gs = game_states[m["seq"]]
            # exactly this seat's observation, legal actions and visible events at that seq
            assert m["observation"] == _normal(gs.observation(seat))
            if seat is not None and seat in gs.players_to_move():
                assert m["legal"] == _normal([gs.game.action_json(gs, a) for a in gs.legal_actions(seat)])
            else:
                assert m["legal"] == []
            for e in m["log"]:
                assert set(e) <= EVENT_KEYS
                ev = gs.log[e["index"]]
                assert ev.visible(seat) and e["kind"] == ev.kind and e["data"] == _normal(ev.data)
                if ev.kind == "duel.library_draw":
                    drawn_seen.update(ev.data["tokens"])
            # what the seat may know at this seq
            full = gs.observation(None)
            mover = full["current_player"]
            hidden_cards = hidden_of(gs)
            revealed_wonders = set(full["draft"]) | {w["wonder"] for pl in full["players"] for w in pl["wonders"]}
            allowed_tokens = set(full["progress_board"]) | {t for pl in full["players"] for t in pl["tokens"]}
            if full["phase"] == "library" and seat == mover:
                allowed_tokens |= set(gs.observation(mover)["library_draw"])
            allowed_tokens |= drawn_seen
            cards, wonders, tokens = _mentions(m)
            assert not cards & hidden_cards, f"seq {m['seq']}: hidden cards {cards & hidden_cards} sent to {seat}"
            assert wonders <= revealed_wonders, f"seq {m['seq']}: unrevealed wonders {wonders - revealed_wonders} sent to {seat}"
            assert tokens <= allowed_tokens, f"seq {m['seq']}: boxed tokens {tokens - allowed_tokens} sent to {seat}"
            for s in m["observation"]["structure"]:
                assert s["face_up"] or s["card"] is None
            # the Great Library's draw: its builder sees the three tokens, nobody else
            if full["phase"] == "library":
                checked_library[seat] += 1
                draw = m["observation"]["library_draw"]
                drawn = listed(gs, "library draw")    # the server's view (the full position)
                if seat == mover:
                    assert draw == sorted(map(token_id, drawn)) and len(draw) == 3
                else:
                    assert draw == []
                    assert not set(map(token_id, drawn)) & tokens
        assert sorted({m["seq"] for m in msgs}) == list(range(seq + 1))
    assert all(checked_library.values()), checked_library
    # the checker itself sees a name wherever the message would carry it
    probe = {"observation": {"structure": [{"card": 5}], "prices": {"7": {"wonders": {"3": 2}}}, "draft": [4],
                             "library_draw": [8], "conflict": {"tokens": [[True, False], [True, True]]},
                             "players": [{"vp": {"wonders": 9}, "tokens": [2]}]},
             "log": [{"data": {"cards": [11, -1], "tokens": [6]}}], "legal": [{"card": 12, "wonder": 1, "token": 0}]}
    assert _mentions(probe) == ({5, 7, 11, 12}, {1, 3, 4}, {0, 2, 6, 8})
