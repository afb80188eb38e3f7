"""The Capitals' position notation (``game.state_from_position`` / ``state.position()``).

The spec is the docstring of ``citygames/games/the_capitals/position.py`` (DESIGN.md "Positions from
text": python-chess's FEN is the model). Any state written out reads back as the same position:
the same text, the same observation for every seat, the same legal actions, and the same game
from there on. A text that is not a valid position raises ``PositionError`` naming its line and
what is wrong.
"""

from __future__ import annotations

import random
import re

import pytest

import citygames
from citygames.core import replay
from citygames.core.errors import PositionError
from citygames.games.the_capitals import position as notation
from citygames.games.the_capitals.components import components

from capitals_helpers import RED, Position, events, slot, tile

C = components()


def _game(n: int = 3, **options):
    return citygames.load_game("the_capitals", num_players=n, **options)


def _same_position(a, b) -> None:
    assert b.position() == a.position()
    for seat in [None, *range(a.n)]:
        assert b.observation(seat) == a.observation(seat)
    assert [x.id for x in b.legal_actions()] == [x.id for x in a.legal_actions()]
    assert b.expects() == a.expects()


# ----------------------------------------------------------------------------------------------
# round trip
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,options", [(2, {}), (3, {}), (4, {}), (5, {}), (2, {"prosperity": True}),
                                       (3, {"prosperity": True}), (4, {"prosperity": True}),
                                       (5, {"prosperity": True}), (4, {"refill_variant": True})])
def test_every_state_of_random_games_reads_back_as_the_same_position(n, options):
    """``parse(write(s))`` for states all through seeded random games: the same text, observations
    (every seat and a spectator), legal actions and pending decision; and the hidden parts (deck
    order, hands, removed tiles) are the same too, so the next action leads to the same position."""
    g = _game(n, **options)
    for seed in (1, 2):
        s = g.new_initial_state(seed)
        rng = random.Random(seed * 10 + n)
        k = 0
        while True:
            if k % 3 == 0 or s.is_terminal():
                r = g.state_from_position(s.position())
                _same_position(s, r)
                assert r.history == [] and r.origin == s.position()
                if not s.is_terminal():
                    a = rng.choice(s.legal_actions())
                    s2, r2 = s.clone(), r.clone()
                    s2.apply_action(a)
                    r2.apply_action(a)
                    _same_position(s2, r2)
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
            k += 1


def test_the_docstring_example():
    """The example of the spec loads: Red is to build the Market it took, which is nowhere else (not
    dealt into a deck), and its other values are as written."""
    doc = notation.__doc__
    block = doc.split("::", 1)[1].split("\nLines (", 1)[0]
    text = "\n".join(line[4:] for line in block.splitlines())
    s = _game(3).state_from_position(text)
    assert s.expects() == "building: now Red must choose where to build the tile"
    assert s.observation(None)["pending"]["tile"] == "market"
    assert "market" not in re.sub(r"decision: place market", "", s.position())
    assert (s.track(RED, "money"), s.track(RED, "cubes"), s.round) == (14, 3, 2)
    assert {"x": 0, "y": 1, "tile": "baker", "cubes": 1} in s.observation(None)["players"][RED]["city"]
    assert s.observation(None)["projects"] == [["library", "opera_house"], [], []]


@pytest.mark.parametrize("n,options", [(4, {}), (2, {}), (3, {"prosperity": True}), (2, {"prosperity": True})])
def test_parts_left_out_are_as_at_setup(n, options):
    """``game`` and ``seed`` alone are the new game of that seed (decks, the tiles a 2-player game
    removes, hands and box included)."""
    g = _game(n, **options)
    head = f"game: the_capitals players={n}" + (" prosperity=yes" if options else "")
    _same_position(g.new_initial_state(0), g.state_from_position(head))
    _same_position(g.new_initial_state(9), g.state_from_position(f"{head}\nseed: 9\n"))


def test_tiles_the_text_moves_leave_the_setup_deal_and_none_is_lost():
    """A tile the text puts in a city leaves the deck, the tiles removed at setup or the hand it was
    dealt to; the setup's projects tiles the text leaves out go back into the deck; every tile is
    still somewhere (a removed tile is replaced by one of its type, a hand keeps its size)."""
    g = _game(2, prosperity=True)
    setup = g.new_initial_state(4)
    removed = C.tiles[setup.removed[1][0]].id
    dealt = C.tiles[setup.hands[0][0]].id
    s = g.state_from_position(f"game: the_capitals players=2 prosperity=yes\nseed: 4\n"
                              f"red city: hotel@0,0 city_hall@1,0 {removed}@0,1 {dealt}@1,1\n"
                              "projects: $0 - | $2 - | $4 -\n")
    for era in (1, 2, 3):
        assert len(s.decks[era]) + len(s.removed[era]) + (1 if era == 1 else 0) == \
            len(setup.decks[era]) + len(setup.removed[era]) + len(setup.projects[0] if era == 1 else [])
        assert sorted(C.tiles[x].type for x in s.removed[era]) == sorted(C.tiles[x].type for x in setup.removed[era])
    assert tile(removed) not in s.removed[1] + s.decks[1]
    assert set(setup.projects[0]) <= set(s.decks[1])
    assert [len(h) for h in s.hands] == [6, 5]      # red built a prosperity tile; green keeps six
    assert tile(dealt) not in s.hands[0] + s.hands[1] + s.prosperity_box
    assert len(s.hands[0]) + len(s.hands[1]) + len(s.prosperity_box) + 1 == len(C.prosperity_tiles)


def test_decision_none_runs_the_automatic_work_and_keeps_its_events():
    """``decision: none`` (the default): the machine runs the phase's automatic work from the given
    turn to the next decision; the log holds what that work did. With a decision pending nothing
    runs and the log is empty."""
    s = (Position(3, seed=4).order(0, 1, 2).seat(0, culture=6).seat(1, culture=3).seat(2, culture=1)
         .at("tourism").state())
    assert s.expects() == "executive: now Green must activate a tile or end activations"
    assert s.highest_culture == 0 and [e.kind for e in s.log][0] == "capitals.tourism"
    assert Position(3, seed=4).building(RED, "market").state().log == []


def test_the_tile_being_built_is_dealt_nowhere_else():
    """A ``place <tile>`` or ``lake <tile>`` decision takes the tile out of what the seed deals: the
    projects area, the decks, the hands (which then hold one tile less) and the box."""
    s = Position(3, seed=5).at("building", RED, "place market").state()
    assert "market" not in s.position().replace("decision: place market", "")
    s = Position(3, seed=5, prosperity=True).at("prosperity", RED, "lake casino", round=3).state()
    assert [len(h) for h in s.hands] == [6, 5, 6] and tile("casino") not in s.prosperity_box
    assert "casino" not in s.position().replace("decision: lake casino", "")


def test_plants_taken_by_default_cover_the_plants_held():
    """``plants taken`` defaults to at least the plants the cities hold (the supply is used best
    first), so the next upgrade never offers a plant a city already has."""
    s = Position(4).seat(RED, plant="2:5").state()
    supply = s.game.plant_supply[2]
    held = supply.index(s.plant[RED])
    assert C.plants[s.plant[RED]].cubes == 5 and held > 0         # not the best level-2 plant
    assert s.observation(None)["plants_left"]["2"] == [C.plants[i].cubes for i in supply[held + 1:]]
    assert s.next_plant(0).idx not in supply[:held + 1]


def test_a_world_expo_after_the_era_change_holds_the_next_era():
    """The World Expo and the prosperity build follow the administration phase, whose refill already
    drew the next round's era: an Era II tile may be in the projects area in round 4's Expo, not in
    round 4's building phase."""
    s = Position(4).projects(["university"]).at("world expo", round=4, expo="scored").state()
    assert s.round == 5 and s.observation(None)["projects"][0] == ["university"]
    with pytest.raises(PositionError, match=r"university cannot be in the projects area in round 4"):
        Position(4).projects(["university"]).at("building", RED, "take", round=4).state()


def test_a_later_build_from_a_position_replays_from_its_record():
    """A game started from a position carries the text in its record and replays from it."""
    s = Position(3, seed=6).building(RED, "market").state()
    s.apply_action(s.legal_actions()[0])
    s.apply_action(s.game.action_space.table[s.game.off["place"] + slot(s, 0, 1)])
    rec = s.record()
    assert rec["position"] == s.origin
    r = replay(rec)
    _same_position(s, r)
    assert events(r, "build", RED)


# ----------------------------------------------------------------------------------------------
# validation: each error names the line and the rule
# ----------------------------------------------------------------------------------------------
G3 = "game: the_capitals players=3"
G3P = "game: the_capitals players=3 prosperity=yes"
CITY = "hotel@0,0 city_hall@1,0"

#: (text after the game line, the game line, the line number named, what the message says)
INVALID = [
    ("foo", G3, 2, r"expected 'key: value'"),
    ("round: 2\nround: 3", G3, 3, r"'round' is given twice \(first on line 2\)"),
    ("colour: red", G3, 2, r"unknown line 'colour'"),
    ("purple: money 3", G3, 2, r"unknown line 'purple'"),               # no purple seat with 3 players
    ("", "game: seven_wonders_duel", 1, r"a position of the_capitals"),
    ("", "game: the_capitals players=4", 1, r"option num_players=4 differs from the game's num_players=3"),
    ("", "game: the_capitals players=3 speed=yes", 1, r"unknown option 'speed'"),
    ("seed: abc", G3, 2, r"seed must be an integer, got 'abc'"),
    ("round: 13", G3, 2, r"round 13 does not exist \(1 to 12\)"),
    ("phase: building\nto move: orange\ndecision: take", G3, 3, r"unknown seat 'orange'"),
    (f"red city: {CITY} castle@0,1", G3, 2, r"unknown tile 'castle'"),
    ("projects: $0 hotel | $2 - | $4 -", G3, 2, r"hotel is a starting tile"),
    (f"red city: {CITY} market@0,1\ngreen city: {CITY} market@0,1", G3, 2,
     r"market is in two places: green's city and red's city"),
    (f"red city: {CITY} market@0,0", G3, 2, r"two tiles on \(0, 0\)"),
    (f"red city: {CITY} market@5,5", G3, 2, r"red's city is not connected: the tile at \(5, 5\) touches no other"),
    ("red city: city_hall@1,0 market@0,1", G3, 2, r"red's city lacks its hotel"),
    (f"red city: {CITY} market@0,1@", G3, 2, r"expected tile@x,y"),
    (f"red city: {CITY} market@30,0", G3, 2, r"\(30, 0\) is off the city grid"),
    (f"red city: {CITY} fountain@0,1+2", G3, 2, r"fountain has no activation, so no energy cube can be on it"),
    (f"red city: {CITY} church@0,1", G3, 2, r"church is a Prosperity tile and this game is played without"),
    (f"red city: {CITY} lake(market)@0,1", G3P, 2, r"a Lake is a prosperity tile turned face down; market is not"),
    ("red tokens: 1,0 1,0", G3, 2, r"the two construction tokens are on one corner"),
    ("red tokens: 1,0 7,7", G3, 2, r"construction token at 7,7 touches no tile of the city"),
    ("red tokens: 1,0 99,0", G3, 2, r"corner \(99, 0\) is off the city grid"),
    ("red: culture 99", G3, 2, r"culture 99 is off its track \(0 to 40\)"),
    ("red: culture", G3, 2, r"expected name value pairs"),
    ("red: charm 3", G3, 2, r"unknown seat value 'charm'"),
    ("red: employment 3 population 1", G3, 2, r"employment can never exceed population"),
    ("red: space 2\ngreen: space 2", G3, 3, r"green and red are both on initiative space 2"),
    ("red: space 6", G3, 2, r"initiative space 6 is not used with 3 players"),
    ("red: plant 9", G3, 2, r"plant level 9 does not exist"),
    ("red: plant 2:11", G3, 2, r"no level-2 plant bringing 11 cubes is left for red"),
    ("plants taken: 2:9", G3, 2, r"more level-2 plants taken \(9\) than the supply holds"),
    ("red: plant 2\nplants taken: 2:0", G3, 3, r"a level-2 plant held by a city is still in the supply"),
    ("red: prestige 5\nred score: loans -1", G3, 3, r"the score categories sum to -1, the prestige is 5"),
    ("red score: charm 2", G3, 2, r"unknown score category 'charm'"),
    ("projects: $0 market", G3, 2, r"the projects area has three rows"),
    ("projects: $0 university | $2 - | $4 -", G3, 2, r"university cannot be in the projects area in round 1"),
    ("deck era1: university", G3, 2, r"university is an era 2 tile"),
    ("removed era1: market", G3, 2, r"tiles are removed unseen only in a 2-player game"),
    ("red hand: church", G3, 2, r"prosperity hands exist only with the Prosperity expansion"),
    ("box: church", G3P, 2, r"the box lacks prosperity tiles that are nowhere else: "),
    ("red hand: market", G3P, 2, r"market is not a prosperity tile"),
    ("red hand: " + ", ".join(sorted(C.tiles[x].id for x in C.prosperity_tiles)[:7]), G3P, 2,
     r"a hand holds at most 6 tiles with 3 players"),
    ("tourists: red@green:3,3", G3, 2, r"the red tourist stands on \(3, 3\), where green's city has no tile"),
    ("tourists: neutral@-", G3, 2, r"the neutral tourist exists only in a 2-player game"),
    ("tourists: red@-", G3, 2, r"only the neutral tourist can be beside the board"),
    ("neutral: 3", G3, 2, r"the neutral culture marker exists only in a 2-player game"),
    ("expo: maybe", G3, 2, r"expo: the only value is 'scored'"),
    ("phase: lunch", G3, 2, r"unknown phase 'lunch'"),
    ("round: 3\nphase: world expo", G3, 3, r"there is no World Expo in round 3"),
    ("round: 12\nphase: administration", G3, 3, r"round 12 has no administration phase"),
    ("round: 3\nphase: prosperity", G3, 3, r"no prosperity build in round 3 of this game"),
    ("round: 5\nphase: final scoring", G3, 3, r"final scoring happens only in round 12"),
    ("phase: building\nto move: red\ndecision: dance", G3, 4, r"unknown decision 'dance'"),
    ("phase: politics\nto move: red\ndecision: take", G3, 4, r"a take decision cannot be pending in the politics phase"),
    ("phase: building\ndecision: take", G3, 3, r"a pending decision needs 'to move: <seat>'"),
    ("phase: building\nto move: red\ndecision: place", G3, 4, r"'decision: place <tile>' names the tile"),
    ("phase: building\nto move: red\ndecision: place church", G3P, 4, r"a prosperity tile is built in the prosperity"),
    ("phase: building\nto move: red\ndecision: take 3", G3, 4, r"'decision: take' takes no argument"),
    ("phase: executive\nto move: red\ndecision: pay 5,5", G3, 4, r"red's city has no tile at \(5, 5\)"),
    (f"red city: {CITY} fountain@0,1\nphase: executive\nto move: red\ndecision: pay 0,1", G3, 5,
     r"Fountain has no activation to pay for"),
    ("phase: executive\nto move: red\ndecision: free 0,0", G3, 4, r"Hotel gives no free activation"),
    ("phase: administration\nto move: red\ndecision: token 0", G3, 4,
     r"red's construction token 0 is not surrounded on all four sides"),
    ("phase: building\nto move: red\ndecision: upgrade", G3, 4, r"red owes no upgrade"),
    ("round: 12\nphase: final scoring\nto move: red\ndecision: effect", G3, 5,
     r"an effect decision orders at least two effects"),
    ("phase: executive\nto move: red\ndecision: reward\nactivations: left 0 made 1", G3, 4,
     r"the no-activation reward needs a turn without activation"),
    ("phase: executive\nto move: red\ndecision: activate\ncubes due: 2", G3, 5, r"cubes are due only while paying"),
    ("phase: building\nto move: red\ndecision: take\nactivations: left 1 made 0", G3, 5,
     r"activations are counted only in the executive phase"),
    ("round: 12\nphase: game over\nto move: red\ndecision: take", G3, 5, r"the game is over: no decision is pending"),
]


@pytest.mark.parametrize("body,game_line,line,message", INVALID, ids=[m for *_, m in INVALID])
def test_an_invalid_position_names_its_line_and_the_rule(body, game_line, line, message):
    g = _game(3, prosperity=game_line == G3P)
    with pytest.raises(PositionError, match=rf"^line {line}: .*(?:{message})"):
        g.state_from_position(f"{game_line}\n{body}\n")


def test_a_position_is_a_text_starting_with_its_game_line():
    g = _game(3)
    with pytest.raises(PositionError, match="a position is a text"):
        g.state_from_position(None)
    with pytest.raises(PositionError, match=r"^line 1: a position starts with 'game: the_capitals players=N'"):
        g.state_from_position("seed: 3\n")
