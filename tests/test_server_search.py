"""Search bots at the table (issue 12): the lobby offers the difficulty levels, a level plays a seat
and is announced as "thinking" while it searches, the search runs in its own process, and a hard
bot searching at one table does not hold up another table's broadcasts."""

from __future__ import annotations

import concurrent.futures
import time

import pytest

from citygames.bots import LEVEL_NAMES
from server_helpers import create, manager, my_turn, server, until, watchdog, ws_path

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DUEL = "seven_wonders_duel"


@pytest.fixture(autouse=True)
def _watchdog():
    with watchdog(240):
        yield


@pytest.fixture
def client(tmp_path):
    with server(tmp_path / "search.sqlite3", search_processes=2) as c:
        yield c


def test_the_lobby_offers_the_levels_first_and_a_table_accepts_them(client):
    info = client.get("/api/bots/info").json()
    assert [b["name"] for b in info[:4]] == list(LEVEL_NAMES) == ["easy", "medium", "hard", "expert"]
    assert all(b["level"] for b in info[:4]) and not any(b["level"] for b in info[4:])
    assert {"greedy", "random", "mcts", "ismcts"} <= {b["name"] for b in info[4:]}
    assert all(b["about"] for b in info)
    assert set(LEVEL_NAMES) <= set(client.get("/api/bots").json())
    t = create(client, ["human", "bot:hard"], seed=3, game=DUEL)
    assert t["seats"][1]["bot"] == "hard"
    bad = client.post("/api/tables", json={"game": DUEL, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "hardest"}]})
    assert bad.status_code == 422 and "unknown bot 'hardest'" in bad.text


def test_a_hard_bot_thinks_in_its_own_process_and_moves(client):
    t = create(client, ["human", "bot:hard"], seed=3, game=DUEL)
    with client.websocket_connect(ws_path(t, 0)) as ws:
        st = my_turn(ws, 0)
        assert st["thinking"] == []
        seen_thinking = False
        for _ in range(4):   # four of my moves: the bot answers in between
            ws.send_json({"type": "action", "seq": st["seq"], "action": st["legal"][0]["id"]})
            while True:
                m = until(ws, lambda m: m["type"] in ("state", "thinking"))
                if m["type"] == "thinking" and m["seats"] == [1]:
                    seen_thinking = True
                if m["type"] == "state" and (0 in m["to_move"] or m["terminal"]):
                    st = m
                    break
            assert st["thinking"] == []   # the move that ends a search is sent without it
        assert seen_thinking
    pool = manager(client)._search_pool
    assert isinstance(pool, concurrent.futures.ProcessPoolExecutor)


def test_a_searching_bot_does_not_delay_another_tables_broadcast(client):
    """Two hard bots play each other at table A the whole time; at table B a human plays greedy.
    Every action at B is answered (its state broadcast) quickly: the searches run in other
    processes. The bound is generous (a slow CI machine), far below a search's length."""
    busy = create(client, ["bot:hard", "bot:hard"], seed=11, game=DUEL)
    mine = create(client, ["human", "bot:greedy"], seed=12, game=DUEL)
    with client.websocket_connect(ws_path(busy)) as watch, client.websocket_connect(ws_path(mine, 0)) as ws:
        until(watch, lambda m: m["type"] == "thinking" and m["seats"])   # A is searching
        st = my_turn(ws, 0)
        waits = []
        for _ in range(8):
            sent = time.perf_counter()
            ws.send_json({"type": "action", "seq": st["seq"], "action": st["legal"][0]["id"]})
            answer = until(ws, lambda m: m["type"] == "state" and m["seq"] > st["seq"])
            waits.append(time.perf_counter() - sent)
            st = answer if 0 in answer["to_move"] or answer["terminal"] else my_turn(ws, 0, answer["seq"] + 1)
            if st["terminal"]:
                break
        a = client.get(f"/api/tables/{busy['table_id']}").json()
        assert a["seq"] > 0   # table A went on meanwhile
    assert max(waits) < 1.0, f"broadcast waits (s): {[round(w, 3) for w in waits]}"
