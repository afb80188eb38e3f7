"""Tests of the search bots (citygames.bots.mcts): known-best moves, determinism, legality, no reading
of hidden information, bot specs (``make_bot("ismcts:iterations=200,c=1.4")``, ``--bots``)."""

from __future__ import annotations

import pytest

from citygames.bots import BOT_PARAMS, BOTS, ISMCTSBot, MCTSBot, make_bot, parse_bot_spec
from citygames.core import Rng, load_game
from play_helpers import midgame as _midgame

SEARCH = ["mcts", "ismcts"]

# Positions from random games of 7 Wonders Duel where exactly one action wins at once; the hidden
# parts are dealt from the seed.
# Age III, North to move, the conflict pawn 6 spaces toward South: the red Arsenal (3 shields)
# reaches South's capital (military supremacy); the 5 other actions do not end the game, and
# random play from them mostly loses for North.
MILITARY = """\
game: seven_wonders_duel
options: num_players=2, first_game_wonders=no, next_age_chooser=erratum
seed: 124
first player: South
age: III
decision: play
to move: North
extra turn: no
last card taken by: South
conflict pawn: 6 toward South
progress tokens on the board: Agriculture, Architecture, Masonry, Mathematics, Philosophy
discard pile: Guard Tower, Theater, Logging Camp, Clay Pool, Palisade, Quarry, Clay Pit, Lumber Yard, \
Courthouse, Glassblower, School, Caravansery, Brickyard, Forum, Walls, Parade Ground, Drying Room, \
Horse Breeders, Circus, Builders Guild, Academy, Palace, Glassworks, Shipowners Guild, Armory, Arena, \
University
structure:
  row 1: Moneylenders Guild, Pretorium
  row 2: [Town Hall], [Siege Workshop], Arsenal
  row 3: Gardens, Chamber of Commerce, -, -
  row 4: [Obelisk], -
  row 5: -, Lighthouse, -, -
  row 6: -, -, -
  row 7: -, -
North:
  coins: 7
  city: Stable, Scriptorium, Altar, Garrison, Barracks, Rostrum, Sawmill, Archery Range
  wonders: The Colossus (Press), The Mausoleum (Observatory), Piraeus, The Sphinx
  progress tokens: none
  military tokens: 2, 5
South:
  coins: 6
  city: Apothecary, Clay Reserve, Baths, Stone Pit, Workshop, Aqueduct, Shelf Quarry, Statue, Temple, Pantheon
  wonders: The Great Library (Library), The Hanging Gardens (Tavern), Circus Maximus (Port), \
The Great Lighthouse (Customs House)
  progress tokens: Law
  military tokens: none
"""

# South to move: the green Observatory gives South a 6th different scientific symbol (science
# supremacy); 3 other actions.
SCIENCE = """\
game: seven_wonders_duel
options: num_players=2, first_game_wonders=no, next_age_chooser=erratum
seed: 141
first player: North
age: III
decision: play
to move: South
extra turn: no
last card taken by: North
conflict pawn: 1 toward North
progress tokens on the board: Architecture, Economy, Mathematics, Theology
discard pile: Wood Reserve, Palisade, Lumber Yard, Aqueduct, Temple, Laboratory, Rostrum, Brewery, \
Drying Room, Barracks, Courthouse, School, Sawmill, Study, Port, Armory, Circus, Town Hall
structure:
  row 1: Palace, University
  row 2: [Shipowners Guild], [Fortifications], [Magistrates Guild]
  row 3: Obelisk, Chamber of Commerce, Gardens, Arena
  row 4: Siege Workshop, Observatory
  row 5: -, -, -, -
  row 6: -, -, -
  row 7: -, -
North:
  coins: 26
  city: Altar, Press, Clay Reserve, Glassworks, Guard Tower, Clay Pit, Stone Reserve, Workshop, \
Garrison, Parade Ground, Builders Guild
  wonders: The Appian Way (Customs House), The Mausoleum (Walls), The Great Lighthouse (Archery Range), \
Circus Maximus (Forum)
  progress tokens: none
  military tokens: 2, 5
South:
  coins: 6
  city: Logging Camp, Theater, Scriptorium, Stable, Stone Pit, Pharmacist, Apothecary, Clay Pool, \
Statue, Dispensary, Brickyard, Glassblower, Academy, Pretorium
  wonders: The Temple of Artemis (Arsenal), The Colossus (Shelf Quarry), The Pyramids, The Great Library
  progress tokens: Law
  military tokens: 5
"""

# North chooses a card of the discard pile to build for free (The Mausoleum): 31 choices, one of them
# the Pretorium, whose shields end the game by military supremacy.
MAUSOLEUM = """\
game: seven_wonders_duel
options: num_players=2, first_game_wonders=no, next_age_chooser=erratum
seed: 197
first player: South
age: III
decision: mausoleum
to move: North
extra turn: no
last card taken by: North
conflict pawn: 6 toward South
progress tokens on the board: Agriculture, Architecture, Law, Masonry, Strategy
discard pile: Stone Reserve, Baths, Scriptorium, Workshop, Clay Pit, Apothecary, Glassworks, \
Lumber Yard, Tavern, Wood Reserve, Glassblower, Barracks, Aqueduct, Brewery, Customs House, Dispensary, \
Archery Range, School, Forum, Press, Statue, Parade Ground, Caravansery, Walls, University, Study, \
Moneylenders Guild, Palace, Port, Pretorium, Magistrates Guild
structure:
  row 1: Siege Workshop, Obelisk
  row 2: [Chamber of Commerce], [Arsenal], [Senate]
  row 3: -, -, Armory, Circus
  row 4: -, -
  row 5: -, -, -, -
  row 6: -, -, -
  row 7: -, -
North:
  coins: 2
  city: Pharmacist, Guard Tower, Garrison, Quarry, Shelf Quarry, Brickyard, Horse Breeders, Builders Guild
  wonders: Circus Maximus (Sawmill), The Mausoleum (Gardens), The Statue of Zeus (out of the game), \
The Colossus (Stable)
  progress tokens: none
  military tokens: 2, 5
South:
  coins: 9
  city: Theater, Stone Pit, Laboratory, Temple, Drying Room, Observatory, Academy
  wonders: The Hanging Gardens (Fortifications), The Pyramids (Palisade), Piraeus (Altar), \
The Great Library (Lighthouse)
  progress tokens: Economy
  military tokens: none
"""


def _duel(text):
    return load_game("seven_wonders_duel").state_from_position(text)


def _winning(state, seat):
    """The ids of the actions that end the game at once with a win for ``seat``."""
    out = set()
    for a in state.legal_actions(seat):
        nxt = state.clone()
        nxt.apply_action(a, player=seat)
        if nxt.is_terminal() and nxt.returns()[seat] == 1.0:
            out.add(a.id)
    return out


@pytest.mark.parametrize("kind", SEARCH)
@pytest.mark.parametrize("text, outcome", [(MILITARY, "military"), (SCIENCE, "science"),
                                           (MAUSOLEUM, "military")])
def test_search_bots_find_an_immediate_duel_victory(kind, text, outcome):
    state = _duel(text)
    seat = state.players_to_move()[0]
    wins = _winning(state, seat)
    legal = state.legal_actions(seat)
    assert len(wins) == 1 and len(legal) >= 4           # the position is what its comment says
    nxt = state.clone()
    nxt.apply_action(next(iter(wins)), player=seat)
    assert nxt.outcome() == outcome
    budget = 3 * len(legal) + 20
    for seed in range(3):
        assert make_bot(f"{kind}:iterations={budget}", seed).step(state, seat).id in wins
        # with an evaluation cut-off too
        assert make_bot(f"{kind}:iterations={budget},max_depth=3", seed).step(state, seat).id in wins
        # with the opponent model: only the bot's own choices are searched
        assert make_bot(f"{kind}:iterations={budget},max_depth=3,opponents=greedy", seed).step(state, seat).id in wins


@pytest.mark.parametrize("kind", SEARCH)
def test_the_root_prior_starts_the_search_from_the_greedy_look_ahead(kind):
    """``prior``: each root action starts with virtual visits worth its one-step cut-off value, so
    with a single iteration the search already plays the action that wins at once (every other
    action's value is a cut-off's, below a real win's)."""
    state = _duel(MILITARY)
    seat = state.players_to_move()[0]
    wins = _winning(state, seat)
    for seed in range(3):
        bot = make_bot(f"{kind}:iterations=1,max_depth=3,prior=50", seed)
        assert bot.step(state, seat).id in wins and bot.prior == 50


# The Capitals, 2 players, from a greedy game (seed 3): the last round's executive phase, Green to
# activate with 2 activations left. Of its 9 choices, 3 win the game whatever Red answers (the solver
# below checks every line to the end); the other 6, ending activations included, lose.
CAPITALS_LAST_ROUND = """\
game: the_capitals players=2
seed: 3
round: 12
phase: executive
to move: green
decision: activate
activations: left 2 made 0
chosen: green 4 red 3
highest culture: green
neutral: 11
expo: scored
projects: $0 - | $2 - | $4 the_villa, boardgame_factory
deck era1: -
removed era1: king_george_mansion, iron_foundry, market, museum_of_industry, library
deck era2: -
removed era2: cole_harbor, cogswell_cogs, luxury_lanes_mall, titan_of_progress, fire_department
deck era3: harwood_heights, high_finance_square, legacy_park_homes, prescott_pharmaceuticals, bel_air_tower, stadium, belt_and_howl_labs, abl_semiconductor, penfield_health
removed era3: executive_estates, fertilizer_plant, boing_aerospace, modern_dance_tribute, airport
plants taken: 2:2 3:2 4:1 5:0 6:0
tourists: green@green:2,2 red@red neutral@green:2,2
green: money 54 culture 15 employment 1 population 1 public_service 1 progress 20 prestige -10 cubes 5 plant 3:7 space 4
green city: hotel@0,0 city_hall@1,0 barrel_factory@1,-1 fountain@0,1 dancing_horse_statue@1,1 baker@2,2+1 hotrock_tire_factory@0,-1 garden_gnome_mfg@-1,-2 osler_general@2,1 windsor_cottages@1,2+3 royal_cinema@3,2 technotech_inc@0,2+1 nature_trails@-1,1 convention_center@3,1
green tokens: 0,2 0,1
green score: placement_penalties -8 loans -2 tile_effects 6 expo_employment -2 expo_public_service -4
red: money 56 culture 12 employment 1 population 2 public_service 5 progress 31 prestige -7 cubes 19 plant 4:8 space 3
red city: hotel@0,0 city_hall@1,0 courthouse@1,1 school_i@0,-1 bookseller@0,1+6 dillon_residences@-1,1 delight_consulting@-1,0+2 school_ii@-1,-1 public_utilities@1,-1 science_center@1,2 museum_of_history@0,2 community_center@0,-2 recycling_facility@2,2 botanical_gardens@-1,2
red tokens: 0,2 -1,2
red score: placement_penalties -8 loans -3 tile_effects 10 expo_employment -3 expo_unemployment -3
"""


def _forced_wins(state, seat):
    """The ids of ``seat``'s actions after which ``seat`` wins against every reply (an exhaustive
    and-or search to the end of the game; the position's remaining deck is never drawn)."""
    def wins(s):
        if s.is_terminal():
            return s.returns()[seat] == 1.0
        mover = s.players_to_move()[0]
        outcomes = (wins(_after(s, a, mover)) for a in s.legal_actions(mover))
        return any(outcomes) if mover == seat else all(outcomes)
    return {a.id for a in state.legal_actions(seat) if wins(_after(state, a, seat))}


def _after(state, action, seat):
    nxt = state.clone()
    nxt.apply_action(action, player=seat)
    return nxt


@pytest.mark.parametrize("kind", SEARCH)
def test_search_bots_find_the_capitals_forced_last_round_choice(kind):
    state = load_game("the_capitals", num_players=2).state_from_position(CAPITALS_LAST_ROUND)
    seat = state.players_to_move()[0]
    assert "round: 12\nphase: executive\n" in state.position()   # the last round: no era left to draw
    wins = _forced_wins(state, seat)
    assert len(state.legal_actions(seat)) == 9 and len(wins) == 3   # the position is what its comment says
    for seed in range(3):
        assert make_bot(f"{kind}:iterations=200", seed).step(state, seat).id in wins
        assert make_bot(f"{kind}:iterations=200,max_depth=4", seed).step(state, seat).id in wins
        # these moves win against every reply, so against the greedy reply the opponent model predicts
        assert make_bot(f"{kind}:iterations=200,max_depth=4,opponents=greedy", seed).step(state, seat).id in wins


GAMES = [("seven_wonders_duel", 10, {}), ("the_capitals", 12, {}), ("quadropolis", 6, {}),
         ("between_two_cities", 2, {"num_players": 3})]


@pytest.mark.parametrize("kind", SEARCH)
@pytest.mark.parametrize("game_id, moves, options", GAMES)
def test_search_bots_are_deterministic_legal_and_leave_the_state_alone(kind, game_id, moves, options):
    state = _midgame(game_id, 7, moves, **options)
    before = state.to_dict()
    for seat in state.players_to_move():     # every seat of a simultaneous step, not only the first
        for spec in (f"{kind}:iterations=25,max_depth=6", f"{kind}:iterations=25,max_depth=6,opponents=greedy"):
            first = make_bot(spec, 11).step(state, seat)
            again = make_bot(spec, 11).step(state, seat)
            assert first == again
            assert first in state.legal_actions(seat)
    assert state.to_dict() == before


def test_search_bots_play_a_whole_game_with_legal_moves():
    game = load_game("seven_wonders_duel")
    state = game.new_initial_state(3)
    bots = [make_bot("mcts:iterations=4,max_depth=4", 1), make_bot("ismcts:iterations=4,max_depth=4", 2)]
    while not state.is_terminal():
        seat = state.players_to_move()[0]
        action = bots[seat].step(state, seat)
        state.apply_action(action, player=seat)
    assert sorted(state.returns()) in ([0.0, 1.0], [0.0, 0.0], [0.5, 0.5])


class _OnlyWhatTheSeatMayRead:
    """A state wrapper that lets through only what does not reveal hidden parts: the seats to move,
    the bot's seat's legal actions, the game, and ``resample`` for that seat."""

    def __init__(self, state, seat):
        self._state, self._seat = state, seat
        self.game = state.game

    def players_to_move(self):
        return self._state.players_to_move()

    def legal_actions(self, player=None):
        assert player == self._seat, "the bot asked for another seat's actions"
        return self._state.legal_actions(player)

    def resample(self, seat, rng):
        assert seat == self._seat, "the bot resampled for another seat"
        return self._state.resample(seat, rng)

    def __getattr__(self, name):
        raise AssertionError(f"the bot read state.{name} of the real state")


@pytest.mark.parametrize("kind", SEARCH)
@pytest.mark.parametrize("game_id, moves, options", GAMES)
def test_search_bots_read_the_real_state_only_through_resample(kind, game_id, moves, options):
    state = _midgame(game_id, 5, moves, **options)
    for seat in state.players_to_move():
        wrapped = _OnlyWhatTheSeatMayRead(state, seat)
        for spec in (f"{kind}:iterations=10,max_depth=4", f"{kind}:iterations=10,max_depth=4,prior=5",
                     f"{kind}:iterations=10,max_depth=4,opponents=greedy"):
            assert make_bot(spec, 3).step(wrapped, seat) == make_bot(spec, 3).step(state, seat)


@pytest.mark.parametrize("text", [MILITARY, SCIENCE, MAUSOLEUM])
def test_ismcts_moves_the_same_whatever_the_hidden_parts(text):
    state = _duel(text)
    seat = state.players_to_move()[0]
    moves, modelled, worlds = set(), set(), set()
    for k in range(4):
        # the same information set of ``seat`` with other hidden parts (drawn for the opponent:
        # the face-down cards and the boxes change)
        variant = state.resample(seat, Rng(100 + k))
        assert variant.observation(seat) == state.observation(seat)
        worlds.add(repr(variant.to_dict()))
        budget = 3 * len(state.legal_actions(seat)) + 20
        moves.add(ISMCTSBot(9, iterations=budget).step(variant, seat).id)
        modelled.add(ISMCTSBot(9, iterations=budget, max_depth=4, opponents="greedy").step(variant, seat).id)
    assert len(moves) == 1 and len(worlds) == 4    # four different hidden worlds, one move
    assert len(modelled) == 1                       # the opponent model reads only the determinizations


def test_make_bot_reads_specs_with_parameters():
    bot = make_bot("ismcts:iterations=200,c=1.4", 7)
    assert isinstance(bot, ISMCTSBot) and bot.seed == 7
    assert (bot.iterations, bot.c, bot.seconds, bot.rollout, bot.max_depth) == (200, 1.4, None, "random", None)
    bot = make_bot(" mcts : seconds=0.5 , rollout=greedy, max_depth=8 ", 1)
    assert type(bot) is MCTSBot and (bot.seconds, bot.rollout, bot.max_depth, bot.iterations) == \
        (0.5, "greedy", 8, None)
    assert make_bot("mcts", 0).iterations == 1000
    assert parse_bot_spec("greedy") == ("greedy", {})
    assert BOTS["mcts"] is MCTSBot and BOTS["ismcts"] is ISMCTSBot
    assert set(BOT_PARAMS["mcts"]) == {"iterations", "seconds", "c", "rollout", "max_depth", "temperature", "workers",
                                      "prior", "opponents"}
    assert set(BOT_PARAMS["ismcts"]) == set(BOT_PARAMS["mcts"]) | {"key"}
    bot = make_bot("ismcts:iterations=50,key=infoset,temperature=2", 3)
    assert (bot.key, bot.temperature, bot.iterations) == ("infoset", 2.0, 50)


@pytest.mark.parametrize("spec, message", [
    ("wizard", "unknown bot 'wizard'; known bots: easy, expert, greedy, hard, ismcts, mcts, medium, random"),
    ("wizard:iterations=3", "unknown bot 'wizard'"),
    ("", "empty bot spec"),
    ("ismcts:", "nothing after ':'"),
    ("ismcts:iterations", "'iterations' is not key=value"),
    ("ismcts:=3", "'=3' is not key=value"),
    ("ismcts:depth=3", "ismcts has no parameter 'depth' \\(parameters: iterations, seconds, c, rollout, max_depth, temperature, workers, prior, opponents, key\\)"),
    ("mcts:key=infoset", "mcts has no parameter 'key'"),
    ("ismcts:key=state", "key must be one of path, infoset"),
    ("ismcts:temperature=-1", "temperature must be >= 0"),
    ("greedy:iterations=3", "greedy has no parameter 'iterations' \\(parameters: none\\)"),
    ("ismcts:iterations=many", "iterations must be int, got 'many'"),
    ("ismcts:c=high", "c must be float, got 'high'"),
    ("ismcts:c=1,c=2", "parameter 'c' given twice"),
    ("ismcts:iterations=-1", "iterations must be >= 0"),
    ("ismcts:iterations=0", "give iterations > 0 or seconds"),
    ("mcts:seconds=0", "seconds must be > 0"),
    ("mcts:c=-1", "c must be >= 0"),
    ("mcts:rollout=smart", "rollout must be one of random, greedy"),
    ("mcts:max_depth=-2", "max_depth must be >= 0"),
    ("ismcts:workers=0", "workers must be >= 1"),
    ("ismcts:prior=-5", "prior must be >= 0"),
    ("ismcts:opponents=smart", "opponents must be one of search, greedy"),
    ("hard:iterations=3", "hard has no parameter 'iterations' \\(parameters: none\\)"),
])
def test_bad_bot_specs_are_refused_with_a_clear_message(spec, message):
    with pytest.raises(ValueError, match=message):
        make_bot(spec, 0)


def test_cli_bots_take_parameters(run, tmp_path):
    from citygames.cli import parse_bots
    assert parse_bots("ismcts:iterations=200,c=1.4;greedy") == ["ismcts:iterations=200,c=1.4", "greedy"]
    assert parse_bots("ismcts:iterations=200,c=1.4,greedy") == ["ismcts:iterations=200,c=1.4", "greedy"]
    assert parse_bots("random, mcts:iterations=5 ;greedy") == ["random", "mcts:iterations=5", "greedy"]
    result = run("simulate", "toy", "--games", 2, "--bots", "mcts:iterations=5,max_depth=3;ismcts:iterations=5")
    assert result.exit_code == 0, result.output
    assert "mcts:iterations=5,max_depth=3" in result.output
    result = run("simulate", "toy", "--bots", "ismcts:iterations=x")
    assert result.exit_code == 2 and "iterations must be int, got 'x'" in result.output
    result = run("play", "toy", "--bots", "ismcts:c=1,greedy:c=2")
    assert result.exit_code == 2 and "greedy has no parameter 'c'" in result.output


@pytest.mark.parametrize("spec", ["ismcts:seconds=0.02", "mcts:iterations=6,rollout=greedy",
                                  "ismcts:iterations=6,rollout=greedy,max_depth=4"])
def test_time_budget_and_greedy_rollouts_give_legal_moves(spec):
    state = _duel(SCIENCE)
    seat = state.players_to_move()[0]
    bot = make_bot(spec, 2)
    assert bot.step(state, seat) in state.legal_actions(seat)
    assert bot.last_iterations >= 1      # at least one iteration, whatever the clock


@pytest.mark.parametrize("kind", SEARCH)
def test_search_bots_pickle_with_their_parameters_and_rng(kind):
    import pickle
    state = _duel(MILITARY)
    seat = state.players_to_move()[0]
    bot = make_bot(f"{kind}:iterations=12,c=0.7,max_depth=5", 4)
    bot.step(state, seat)
    copy = pickle.loads(pickle.dumps(bot))
    assert (copy.iterations, copy.c, copy.max_depth, copy.rng.state) == (12, 0.7, 5, bot.rng.state)
    assert [copy.step(state, seat) for _ in range(3)] == [bot.step(state, seat) for _ in range(3)]


# --- root parallelism and the difficulty levels -------------------------------------------------
def test_root_parallel_search_sums_independent_trees_wherever_they_run(monkeypatch):
    """``workers=2``: two trees of the whole budget each; the same move and iterations in worker
    processes as searched one after another here (where a process may not have children)."""
    from citygames.bots import mcts
    state = _midgame("seven_wonders_duel", 5, 10)
    seat = state.players_to_move()[0]
    specs = ("ismcts:iterations=30,max_depth=6,workers=2", "ismcts:iterations=30,max_depth=6,workers=2,key=infoset")
    moves = []
    for spec in specs:
        pooled = make_bot(spec, 9)
        moves.append(pooled.step(state, seat))
        assert pooled.last_iterations == 60
    monkeypatch.setattr(mcts, "_pool", lambda workers: None)
    for spec, move in zip(specs, moves):
        here = make_bot(spec, 9)
        assert here.step(state, seat) == move and here.last_iterations == 60
    # an immediate win is still found by the summed trees
    win = _duel(MILITARY)
    s = win.players_to_move()[0]
    assert make_bot("mcts:iterations=40,workers=3", 1).step(win, s).id in _winning(win, s)


def test_levels_are_ismcts_with_growing_budgets_that_find_a_win():
    from citygames.bots.levels import LEVEL_NAMES, level_params, level_spec
    for game_id in ("seven_wonders_duel", "the_capitals", "quadropolis", "between_two_cities"):
        budgets = [level_params(level, game_id)["iterations"] for level in LEVEL_NAMES]
        assert budgets == sorted(budgets) and len(set(budgets)) == 4
        assert all(level_params(level, game_id)["seconds"] <= 6 for level in LEVEL_NAMES)
        assert level_params("hard", game_id)["seconds"] < 2    # "hard answers within 2 s"
    state = _midgame("the_capitals", 3, 12)
    seat = state.players_to_move()[0]
    bot = make_bot("easy", 4)   # easy: 50 iterations take milliseconds, far from its time cap on a busy machine
    assert bot.step(state, seat) == make_bot(level_spec("easy", "the_capitals"), 4).step(state, seat)
    assert bot.last_iterations == level_params("easy", "the_capitals")["iterations"]
    win = _duel(MILITARY)
    s = win.players_to_move()[0]
    assert make_bot("easy", 0).step(win, s).id in _winning(win, s)
    with pytest.raises(ValueError, match="unknown level 'insane'"):
        level_params("insane", "the_capitals")


def test_levels_model_the_opponent_in_the_capitals_with_two_players_only(run):
    from citygames.bots.levels import LEVEL_NAMES, level_params, level_spec
    for level in LEVEL_NAMES:
        assert level_params(level, "the_capitals", 2)["opponents"] == "greedy"
        assert level_params(level, "the_capitals") == level_params(level, "the_capitals", 4)   # the default seats
        for seats in (3, 4, 5):
            assert "opponents" not in level_params(level, "the_capitals", seats)
        assert "opponents" not in level_params(level, "seven_wonders_duel")
    budgets = [level_params(level, "the_capitals", 2)["iterations"] for level in LEVEL_NAMES]
    assert budgets == sorted(budgets) and len(set(budgets)) == 4
    # hard and expert cut off deeper on that table only (an entry's own max_depth beats DEPTH)
    assert [level_params(level, "the_capitals", 2)["max_depth"] for level in LEVEL_NAMES] == [4, 4, 8, 8]
    assert {level_params(level, "the_capitals", 4)["max_depth"] for level in LEVEL_NAMES} == {4}
    assert "max_depth=8" in level_spec("hard", "the_capitals", 2) and "max_depth=4" in level_spec("hard", "the_capitals", 3)
    # a level bot builds its search for the table's seat count
    for seats in (2, 4):
        state = _midgame("the_capitals", 5, 14, num_players=seats)
        seat = state.players_to_move()[0]
        assert make_bot("easy", 2).step(state, seat) == make_bot(level_spec("easy", "the_capitals", seats), 2).step(state, seat)
    result = run("bots", "the_capitals", "-p", 4)
    assert result.exit_code == 0 and "hard" in result.output
    hard = next(line for line in result.output.splitlines() if line.startswith("hard"))
    assert "with 4 players" in hard and "opponents" not in hard
    hard = next(line for line in run("bots", "the_capitals", "-p", 2).output.splitlines() if line.startswith("hard"))
    assert "with 2 players" in hard and "opponents=greedy" in hard and "max_depth=8" in hard
    # without -p: the game's default table (The Capitals: 4 players), said in the line
    hard = next(line for line in run("bots", "the_capitals").output.splitlines() if line.startswith("hard"))
    assert "with 4 players" in hard and "opponents" not in hard
    result = run("bots", "the_capitals", "-p", 9)
    assert result.exit_code == 2 and "takes 2-5 players, not 9" in result.output
    result = run("bots", "-p", 2)
    assert result.exit_code == 2 and "give a GAME with --players" in result.output
