"""Tests of ``game.facts(state)``: the per-component facts of The Capitals and 7 Wonders Duel.

Each fact is a row ``(seat, kind, component, event, when, where)``; the kinds and events of each game
are documented in its ``facts`` module (``citygames/games/<game>/facts.py``). The tests play seeded
bot games to the end (``citygames.sim.play_game``) and check the rows against what the public views
show of the finished game (the observations), and check by hand the facts of short scripted games
and of positions (``game.state_from_position``).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

import pytest

import citygames
from citygames.bots import make_bot
from citygames.games.seven_wonders_duel.components import BROWN, GREY
from citygames.sim import bot_seeds, play_game

import duel_helpers as duel
from capitals_helpers import Position, act, build, build_lake, build_prosperity, choose_space, drive, tile
from capitals_helpers import new_state as capitals_state

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
    assert game.facts(game.state_from_dict(s.to_dict())) == rows      # the log travels with the state
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


# ================================================================================================
# 7 Wonders Duel
# ================================================================================================
DC = duel.C


def slug(name: str) -> str:
    """The documented component id: the English name in lower case, other characters made ``_``."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


CARD = [slug(x.name) for x in DC.cards]
WONDER = [slug(x.name) for x in DC.wonders]
TOKEN = [slug(x.name) for x in DC.tokens]
#: seeded games covering every kind of fact: the Mausoleum, destructions, both token sources, the
#: 7th wonder, military and scientific supremacy, the first-game wonders
DUEL_GAMES = [({}, "greedy", 0), ({}, "greedy", 1), ({}, "greedy", 8), ({}, "greedy", 14), ({}, "random", 0),
              ({}, "random", 27), ({"first_game_wonders": True}, "greedy", 28),
              ({"first_game_wonders": True}, "random", 1)]


def test_duel_component_ids_are_unique_slugs():
    from citygames.games.seven_wonders_duel.facts import component_id, component_ids
    cards, wonders, tokens = component_ids(DC)
    assert (list(cards), list(wonders), list(tokens)) == (CARD, WONDER, TOKEN)
    assert len(set(cards)) == 73 and len(set(wonders)) == 12 and len(set(tokens)) == 10
    assert component_id("The Statue of Zeus") == "the_statue_of_zeus" and cards[0] == "lumber_yard"


@pytest.fixture(scope="module")
def duel_finished():
    """The games of ``DUEL_GAMES`` played to the end: ``(options, final state, facts)`` each."""
    out = []
    for options, bot, seed in DUEL_GAMES:
        game, s = finished("seven_wonders_duel", options, seed, bot)
        out.append((options, s, game.facts(s)))
    return out


def test_duel_games_cover_every_fact(duel_finished):
    seen = {(r[1], r[3], r[5] if r[5] in ("discard", "board", "library") else "") for _, _, rows in duel_finished
            for r in rows}
    assert seen == {("card", "built", ""), ("card", "built", "discard"), ("card", "discarded", ""),
                    ("card", "tucked", ""), ("card", "destroyed", ""), ("wonder", "drafted", ""),
                    ("wonder", "given", ""), ("wonder", "built", ""), ("wonder", "removed", ""),
                    ("progress_token", "taken", "board"), ("progress_token", "taken", "library")}
    assert {s.outcome() for _, s, _ in duel_finished} == {"civilian", "military", "science"}


@pytest.mark.parametrize("index", range(len(DUEL_GAMES)))
def test_duel_facts_match_the_finished_game(duel_finished, index):
    options, s, rows = duel_finished[index]
    check_shape(rows, 2)
    assert rows == s.game.facts(s)
    assert s.game.facts(s.game.state_from_dict(s.to_dict())) == rows
    final = s.observation(None)
    held_event = "given" if options.get("first_game_wonders") else "drafted"
    for p in (0, 1):
        pl = final["players"][p]
        mine = [r for r in rows if r[0] == p]
        # the city: the cards built (from the structure or the discard pile) less those destroyed, in order
        city = []
        for r in mine:
            if r[1] == "card" and r[3] == "built":
                city.append(r[2])
            elif r[1] == "card" and r[3] == "destroyed":
                city.remove(r[2])
        assert city == [CARD[x] for x in pl["cards"]]
        # wonders: held in the order taken; built with the card tucked under each; out of the game
        assert [r[2] for r in mine if r[1] == "wonder" and r[3] == held_event] == [WONDER[w["wonder"]]
                                                                                   for w in pl["wonders"]]
        assert all(r[4] == 0 for r in mine if r[3] in ("drafted", "given"))
        assert {r[2] for r in mine if r[1] == "wonder" and r[3] == "built"} == {
            WONDER[w["wonder"]] for w in pl["wonders"] if w["built"]}
        assert {(r[2], r[5]) for r in mine if r[3] == "tucked"} == {
            (CARD[w["card"]], WONDER[w["wonder"]]) for w in pl["wonders"] if w["built"]}
        assert {r[2] for r in mine if r[3] == "removed"} == {WONDER[w["wonder"]] for w in pl["wonders"]
                                                             if w["removed"]}
        # progress tokens: those the seat owns; from the box only through its Great Library
        taken = [r for r in mine if r[1] == "progress_token"]
        assert sorted(r[2] for r in taken) == sorted(TOKEN[t] for t in pl["tokens"])
        assert all(r[5] == "board" or (p, "wonder", "the_great_library", "built", r[4], "") in rows for r in taken)
        assert not {r[2] for r in taken} & {TOKEN[t] for t in final["progress_board"]}
    assert not any(r[3] == held_event for r in rows[8:]) and len([r for r in rows if r[3] == held_event]) == 8
    # the discard pile: discarded and destroyed cards, less those the Mausoleum rebuilt, in order
    pile = []
    for r in rows:
        if r[3] in ("discarded", "destroyed"):
            pile.append(r[2])
        elif r[3] == "built" and r[5] == "discard":
            assert r[2] in pile
            pile.remove(r[2])
    assert pile == [CARD[x] for x in final["discard"]]
    # the structures: each card taken once, 20 per age played to its end; ages in order
    taken = [r for r in rows if r[1] == "card" and r[3] in ("built", "discarded", "tucked") and r[5] != "discard"]
    assert len({r[2] for r in taken}) == len(taken)
    per_age = Counter(r[4] for r in taken)
    assert all(per_age[a] == 20 for a in range(1, final["age"]))
    assert (per_age[final["age"]] == 20) if s.outcome() == "civilian" else (per_age[final["age"]] <= 20)
    assert [r[4] for r in rows] == sorted(r[4] for r in rows)
    # each destruction follows the opponent's Statue of Zeus (a brown card) or Circus Maximus (grey), each
    # rebuild from the discard pile the seat's Mausoleum (the 7th wonder's "removed" fact may come between)
    colors = {CARD[x.idx]: x.color for x in DC.cards}
    for i, r in enumerate(rows):
        if r[3] == "destroyed" or r[5] == "discard":
            j = max(k for k in range(i) if rows[k][1] == "wonder" and rows[k][3] == "built")
            q, _, w, _, when, _ = rows[j]
            assert when == r[4] and all(x[3] == "removed" for x in rows[j + 1:i])
            if r[3] == "destroyed":
                assert q == 1 - r[0] and (w, colors[r[2]]) in (("the_statue_of_zeus", BROWN), ("circus_maximus", GREY))
            else:
                assert (q, w) == (r[0], "the_mausoleum")


def test_duel_facts_of_a_short_game_by_hand():
    """Seed 3: South drafts first; the draft, then South constructs the Quarry and North discards the Theater."""
    s = duel.game().new_initial_state(seed=3)
    north, south = 0, 1
    picks = [(south, "The Great Library"), (north, "The Hanging Gardens"), (north, "The Pyramids"),
             (south, "The Statue of Zeus"), (north, "Circus Maximus"), (south, "The Colossus"),
             (south, "The Great Lighthouse"), (north, "The Temple of Artemis")]
    for seat, name in picks:
        assert s.current_player() == seat
        s.apply_action(duel.act(s, "draft", duel.wonder_id(name)))
    assert s.game.facts(s) == [(seat, "wonder", slug(name), "drafted", 0, "") for seat, name in picks]
    assert s.current_player() == south
    duel.construct(s, "Quarry")
    duel.discard(s, "Theater")
    assert s.game.facts(s)[8:] == [(south, "card", "quarry", "built", 1, ""),
                                   (north, "card", "theater", "discarded", 1, "")]


def test_duel_facts_of_wonders_by_hand():
    """From positions (the facts are what happens after them): the Statue of Zeus destroys the opponent's
    Quarry, the Great Library gives a token from the box, the Mausoleum rebuilds the Tavern, a science pair
    takes Law from the board, the 7th wonder puts the last unbuilt one out of the game."""
    s = duel.state(age=2, coins=(30, 7), wonders=(["The Statue of Zeus", "The Great Library"], []),
                   city=([], ["Quarry"]), tokens=(["Theology"], []), spare=2,
                   board=["Agriculture", "Architecture", "Economy", "Urbanism", "Law"],
                   box=["Strategy", "Mathematics", "Philosophy", "Masonry"])
    assert duel.accessible_names(s) == ["Library", "Dispensary"]
    duel.build_wonder(s, "The Statue of Zeus", "Library")
    s.apply_action(duel.act(s, "destroy", duel.card("Quarry")))
    duel.build_wonder(s, "The Great Library", "Dispensary")
    s.apply_action(duel.act(s, "progress", duel.token_id("Strategy")))
    assert s.game.facts(s) == [
        (0, "card", "library", "tucked", 2, "the_statue_of_zeus"),
        (0, "wonder", "the_statue_of_zeus", "built", 2, ""),
        (1, "card", "quarry", "destroyed", 2, ""),
        (0, "card", "dispensary", "tucked", 2, "the_great_library"),
        (0, "wonder", "the_great_library", "built", 2, ""),
        (0, "progress_token", "strategy", "taken", 2, "library")]

    s = duel.state(age=2, wonders=(["The Mausoleum"], []), discard=["Tavern", "Palisade"],
                   city=(["Clay Pool", "Clay Pit", "Glassworks", "Glassblower", "Press"], []),
                   accessible=["Dispensary"])
    duel.build_wonder(s, "The Mausoleum", "Dispensary")
    s.apply_action(duel.act(s, "mausoleum", duel.card("Tavern")))
    assert s.game.facts(s) == [(0, "card", "dispensary", "tucked", 2, "the_mausoleum"),
                               (0, "wonder", "the_mausoleum", "built", 2, ""),
                               (0, "card", "tavern", "built", 2, "discard")]

    s = duel.state(age=2, city=(["Scriptorium"], []), accessible=["Library"],
                   board=["Law", "Economy", "Strategy", "Theology", "Urbanism"])
    duel.construct(s, "Library")                 # chained from the Scriptorium: a pair of quills
    s.apply_action(duel.act(s, "progress", duel.token_id("Law")))
    assert s.game.facts(s) == [(0, "card", "library", "built", 2, ""),
                               (0, "progress_token", "law", "taken", 2, "board")]

    s = duel.state(age=3, coins=(60, 7), wonders=(["The Great Lighthouse"], ["The Mausoleum"]),
                   built=(["The Pyramids", "The Colossus", "The Sphinx"],
                          ["Piraeus", "The Appian Way", "The Temple of Artemis"]),
                   accessible=["Town Hall"])
    duel.build_wonder(s, "The Great Lighthouse", "Town Hall")
    assert s.game.facts(s) == [(0, "card", "town_hall", "tucked", 3, "the_great_lighthouse"),
                               (0, "wonder", "the_great_lighthouse", "built", 3, ""),
                               (1, "wonder", "the_mausoleum", "removed", 3, "")]
