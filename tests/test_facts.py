"""Tests of ``game.facts(state)``: the per-component facts of The Capitals and 7 Wonders Duel.

Each fact is a row ``(seat, kind, component, event, when, where)``; the kinds and events of each game
are documented in its ``facts`` module (``citygames/games/<game>/facts.py``). The tests play seeded
bot games to the end (``citygames.sim.play_game``) and check the rows against what the public views
show of the finished game (the observations), and check by hand the facts of short scripted games
and of positions (``game.state_from_position``).
"""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

import citygames
from citygames.bots import make_bot
from citygames.sim import bot_seeds, play_game

from capitals_helpers import Position, act, build, build_lake, build_prosperity, choose_space, drive
from capitals_helpers import new_state as capitals_state
from capitals_helpers import tile

TYPES = (int, str, str, str, int, str)


def finished(game_id: str, options: dict, seed: int, bot: str = "random"):
    """A game of ``game_id`` played to the end by ``bot`` in every seat; returns (game, final state)."""
    game = citygames.load_game(game_id, **options)
    bots = [make_bot(bot, s) for s in bot_seeds(seed, game.num_players)]
    return game, play_game(game, bots, seed)


def check_shape(rows, n: int) -> None:
    for row in rows:
        assert len(row) == 6 and all(isinstance(v, t) for v, t in zip(row, TYPES)), row
        assert 0 <= row[0] < n


# ================================================================================================
# The Capitals
# ================================================================================================
CAPITALS_GAMES = [
    ({"num_players": 4}, 11, "random"),
    ({"num_players": 2}, 12, "random"),
    ({"num_players": 3}, 13, "greedy"),
    ({"num_players": 5, "prosperity": True}, 14, "random"),
    ({"num_players": 3, "prosperity": True}, 15, "greedy"),
]
START = {(0, 0), (1, 0)}   # the Hotel and the City Hall


def xy(where: str) -> tuple[int, int]:
    x, y = where.split(",")
    return int(x), int(y)


@pytest.mark.parametrize("options,seed,bot", CAPITALS_GAMES)
def test_capitals_facts_match_the_finished_game(options, seed, bot):
    game, s = finished("the_capitals", options, seed, bot)
    n = game.num_players
    rows = game.facts(s)
    check_shape(rows, n)
    assert rows == game.facts(s)                                      # no side effect
    final = s.observation(None)
    rounds = game.components.rounds
    by = defaultdict(list)
    for r in rows:
        by[r[0], r[1], r[3]].append(r)

    for p in range(n):
        pl = final["players"][p]
        # the city: every tile built (building tiles, prosperity tiles, Lakes) where the city shows it
        city = {(t["x"], t["y"]): t["tile"] for t in pl["city"]}
        assert city[0, 0] == "hotel" and city[1, 0] == "city_hall"
        built = {}
        for kind, event in (("tile", "built"), ("prosperity", "built"), ("prosperity", "lake")):
            for _, _, comp, _, when, where in by[p, kind, event]:
                assert 1 <= when <= rounds
                assert xy(where) not in built and xy(where) not in START
                built[xy(where)] = "lake" if event == "lake" else comp
        assert built == {k: v for k, v in city.items() if k not in START}
        assert len(built) == len(pl["city"]) - 2
        # Lakes: the tile given up, where the city shows it
        lakes = {(lk["x"], lk["y"]): lk["revealed"] for lk in pl.get("lakes", [])}
        assert lakes == {xy(r[5]): r[2] for r in by[p, "prosperity", "lake"]}

        # power plants: one "taken" per level from 2 to the plant held; a declined / lost upgrade
        # is to the level above the one held then
        level = 1
        for r in rows:
            if r[0] == p and r[1] == "power_plant":
                assert r[2] == f"level_{level + 1}", r
                if r[3] == "taken":
                    level += 1
                else:
                    assert r[3] in ("declined", "lost")
        assert level == pl["plant"]["level"]

        # initiative: the space of the setup, then one chosen space per round from round 2; the last
        # one is the space the seat holds
        chosen = by[p, "initiative", "chosen"]
        assert [r[4] for r in chosen] == list(range(2, rounds + 1))
        assert int(chosen[-1][2]) == pl["initiative_space"]
        assert [r[4] for r in by[p, "initiative", "start"]] == [1]

    # round by round: one building tile per seat (base game), distinct initiative spaces
    tiles_per_round = Counter(r[4] for r in rows if r[1] == "tile")
    spaces = defaultdict(set)
    for r in rows:
        if r[1] == "initiative":
            spaces[r[4]].add(r[2])
    assert all(len(spaces[k]) == n for k in range(1, rounds + 1))
    setup = game.new_initial_state(seed=seed).observation(None)["initiative"]   # per space, its seat
    assert {r[0]: int(r[2]) for r in rows if r[3] == "start"} == {p: k + 1 for k, p in enumerate(setup)
                                                                  if p is not None}
    if not options.get("prosperity"):
        assert tiles_per_round == {k: n for k in range(1, rounds + 1)}
        assert not any(r[1] == "prosperity" for r in rows)
    else:
        marked = set(final["prosperity_rounds"])
        financial = Counter(r[4] for r in rows if r[2] == "financial_district" and r[3] == "built")
        for k in range(1, rounds + 1):   # a Financial District's extra build, when the area holds a tile
            assert n <= tiles_per_round[k] <= n + financial[k]
        # the prosperity tiles: dealt at setup, each built or made a Lake at most once, in a marked round,
        # by the seat it was dealt to; what is left is the seat's hand
        dealt = {}
        for r in rows:
            if r[1] == "prosperity" and r[3] == "dealt":
                assert r[2] not in dealt and r[4] == 0
                dealt[r[2]] = r[0]
        used = [r for r in rows if r[1] == "prosperity" and r[3] != "dealt"]
        assert len({r[2] for r in used}) == len(used)
        assert all(dealt[r[2]] == r[0] and r[4] in marked for r in used)
        for p in range(n):
            hand = {t["tile"] for t in s.observation(p)["players"][p]["prosperity_hand"]}
            assert hand == {t for t, q in dealt.items() if q == p} - {r[2] for r in used}
        assert Counter(dealt.values()) == {p: 5 if n == 5 else 6 for p in range(n)}   # the setup's deal


def test_capitals_facts_of_a_short_game_by_hand():
    """Seed 3, 4 players: the setup orders Blue, Purple, Green, Red on spaces 2-5; everybody builds in
    round 1; in round 2 the politics phase starts with Blue."""
    s = capitals_state(4, seed=3)
    green, red, blue, purple = range(4)
    start = [(blue, "initiative", "2", "start", 1, ""), (purple, "initiative", "3", "start", 1, ""),
             (green, "initiative", "4", "start", 1, ""), (red, "initiative", "5", "start", 1, "")]
    assert s.game.facts(s) == start
    assert s.observation(None)["projects"][0] == ["iron_foundry", "davinci_estate", "doctor", "baker", "market",
                                                  "bookseller"]
    build(s, "baker", 0, -1)          # Blue
    build(s, "market", 1, -1)         # Purple
    build(s, "doctor", -1, 1)         # Green
    build(s, "bookseller", 2, 1)      # Red
    assert s.game.facts(s) == start + [
        (blue, "tile", "baker", "built", 1, "0,-1"), (purple, "tile", "market", "built", 1, "1,-1"),
        (green, "tile", "doctor", "built", 1, "-1,1"), (red, "tile", "bookseller", "built", 1, "2,1")]
    drive(s, lambda st: st.round == 2 and st.expects().startswith("politics: now"), prefer=("end_activations",))
    assert s.current_player() == blue
    choose_space(s, 0)
    assert s.game.facts(s)[-1] == (blue, "initiative", "1", "chosen", 2, "")


def test_capitals_facts_from_a_position_prosperity():
    """From a position the facts are what happened after it, ``when`` its round: a prosperity tile, the
    Financial District's extra building tile, a Lake."""
    pos = Position(3, seed=25, prosperity=True).order(0, 1, 2).projects(["inspiration_fountain"],
                                                                        ["osler_general"])
    s = build_prosperity(pos, 0, "financial_district", 0, 1, round=5)
    assert s.game.facts(s) == [(0, "prosperity", "financial_district", "built", 5, "0,1")]
    s.apply_action(act(s, "take", tile("osler_general")))
    s.apply_action(act(s, "place", s.game.slot_at(-1, -1)))
    assert s.game.facts(s)[1:] == [(0, "tile", "osler_general", "built", 5, "-1,-1")]
    s = build_lake(Position(3, seed=4, prosperity=True).order(0, 1, 2), 0, "casino", -1, 1)
    assert s.game.facts(s) == [(0, "prosperity", "casino", "lake", 3, "-1,1")]


def test_capitals_power_plant_facts_by_hand():
    """A seat passing the upgrade space takes the level-2 plant (or declines it): one fact in the round."""
    for choice, event in (("upgrade", "taken"), ("decline", "declined")):
        s = capitals_state(4, seed=3)
        p = None
        for _ in range(3000):
            if s.expects().endswith("upgrade the power plant?"):
                p = s.current_player()
                rnd = s.round
                s.apply_action(act(s, choice))
                break
            legal = s.legal_actions()
            s.apply_action(next((a for a in legal if a.kind == "end_activations"), legal[0]))
        assert p is not None
        plants = [r for r in s.game.facts(s) if r[1] == "power_plant"]
        assert plants == [(p, "power_plant", "level_2", event, rnd, "")]
        assert s.observation(None)["players"][p]["plant"]["level"] == (2 if choice == "upgrade" else 1)
