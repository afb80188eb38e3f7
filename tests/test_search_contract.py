"""What search needs from the game contract (issue 12, item 1), on every game through the public API:

- ``search_clone()`` / ``drop_log()``: a log-less state plays exactly as the state it came from,
  also when it applies its moves with ``apply_legal`` (no decoding, no legality check).
  Seeded random games of every game (all player counts, the main options) are played twice, once
  normally and once switching to search clones at several points (and to ``resample`` +
  ``drop_log`` for the seat to move, whose hidden parts then differ, compared with a normal
  ``resample`` drawn with the same rng): histories, the legal actions at every step, scores,
  rankings and returns must be identical, so no rule reads the log.
- ``information_state_key(seat)``: hashable; equal for a state and its resamples for that seat;
  equal keys mean equal observations along random games (a dict key -> observation JSON stays
  consistent); and a seat's key changes whenever its observation changes between consecutive
  decision points.
- ``game.max_game_length()`` exists and bounds the games played.
"""

from __future__ import annotations

import json
import pickle

import pytest

from citygames.core import Rng, load_game
from citygames.core.flat import NULL_LOG

from play_helpers import midgame as _midgame

CONFIGS = [
    ("seven_wonders_duel", {}),
    ("seven_wonders_duel", {"first_game_wonders": True}),
    ("seven_wonders_duel", {"next_age_chooser": "first_print"}),
    ("the_capitals", {"num_players": 2}),
    ("the_capitals", {"num_players": 3, "refill_variant": True}),
    ("the_capitals", {"num_players": 4, "prosperity": True}),
    ("the_capitals", {"num_players": 5}),
    ("quadropolis", {"num_players": 2}),
    ("quadropolis", {"num_players": 3, "mode": "expert"}),
    ("quadropolis", {"num_players": 4, "allocation": "manual"}),
    ("between_two_cities", {"num_players": 2}),
    ("between_two_cities", {"num_players": 3, "capitals": True}),
    ("between_two_cities", {"num_players": 5}),
    ("between_two_cities", {"num_players": 7}),
]
IDS = [g + "".join(f"-{k}={v}" for k, v in o.items()) for g, o in CONFIGS]
SEEDS = (3, 17)


def _pick(state, rng):
    """One random move of a random seat among those to move: ``(seat, Action)``."""
    movers = state.players_to_move()
    seat = movers[rng.randbelow(len(movers))] if len(movers) > 1 else movers[0]
    legal = state.legal_actions(seat)
    return seat, legal[rng.randbelow(len(legal))]


def _move(state, rng):
    """As ``_pick``, the action as its id."""
    seat, action = _pick(state, rng)
    return seat, action.id


def _trace(game, seed, switch_at=(), resample_at=()):
    """Play a seeded random game; at the step indices of ``switch_at`` replace the state by its
    ``search_clone()``; at those of ``resample_at`` by ``resample(seat to move, Rng(step))``, made
    log-less with ``drop_log()`` when the state already is (a normal resample otherwise). Log-less
    states apply their moves with ``apply_legal`` (as searches do), the others with
    ``apply_action`` of the id. Returns
    the per-step legal action ids of every seat to move and the final history, scores, ranking and
    returns."""
    state = game.new_initial_state(seed)
    rng = Rng(seed + 1000)
    steps = []
    k = 0
    while not state.is_terminal():
        if k in switch_at:
            state = state.search_clone()
            assert state.log is NULL_LOG
        if k in resample_at:
            logless = state.log is NULL_LOG
            state = state.resample(state.players_to_move()[0], Rng(k))
            if logless:
                assert state.drop_log() is state and state.log is NULL_LOG
        steps.append([(p, [a.id for a in state.legal_actions(p)]) for p in state.players_to_move()])
        seat, action = _pick(state, rng)
        if state.log is NULL_LOG:
            state.apply_legal(action, seat)
        else:
            state.apply_action(action.id, player=seat)
        k += 1
    return {"steps": steps, "history": [list(e) if isinstance(e, list) else e for e in state.history],
            "scores": list(state.scores()), "ranking": list(state.ranking()), "returns": list(state.returns()),
            "outcome": state.outcome(), "length": k, "log": len(state.log)}


@pytest.mark.parametrize("game_id, options", CONFIGS, ids=IDS)
def test_log_less_states_play_exactly_as_normal_ones(game_id, options):
    game = load_game(game_id, **options)
    for seed in SEEDS:
        normal = _trace(game, seed)
        n = normal["length"]
        assert normal["log"] > 0
        assert n <= game.max_game_length()
        cuts = {0, n // 3, 2 * n // 3, n - 1}
        for switch in ({0}, {n // 2}, cuts):
            searched = _trace(game, seed, switch_at=switch)
            assert searched["log"] == 0
            assert {k: v for k, v in searched.items() if k != "log"} == \
                {k: v for k, v in normal.items() if k != "log"}, (seed, switch)
        # a resample made log-less plays as the same resample with its log
        points = {n // 4, n // 2}
        with_log = _trace(game, seed, resample_at=points)
        without = _trace(game, seed, switch_at={0}, resample_at=points)
        assert {k: v for k, v in without.items() if k != "log"} == \
            {k: v for k, v in with_log.items() if k != "log"}, seed


def test_search_clones_are_independent_and_keep_nothing_of_the_log():
    game = load_game("the_capitals", num_players=3)
    state = game.new_initial_state(5)
    rng = Rng(1)
    for _ in range(40):
        state.apply_action(*reversed(_move(state, rng)))
    log_before, history_before = list(state.log), list(state.history)
    copy = state.search_clone()
    assert copy.history == state.history and copy.history is not state.history
    assert copy.log is NULL_LOG and len(copy.log) == 0 and list(copy.log) == [] and copy.log[3:] is NULL_LOG
    assert copy.log_for(0) == [] and copy.clone().log is NULL_LOG and copy.search_clone().log is NULL_LOG
    for _ in range(30):
        copy.apply_action(*reversed(_move(copy, rng)))
    assert copy.log is NULL_LOG
    assert state.log == log_before and state.history == history_before   # the original is untouched
    assert pickle.loads(pickle.dumps(NULL_LOG)) is NULL_LOG
    rebuilt = game.state_from_dict(copy.to_dict())      # a log-less state serialises with an empty log
    assert rebuilt.history == copy.history and rebuilt.log == []
    with pytest.raises(IndexError):
        copy.log[0]


@pytest.mark.parametrize("game_id, options", CONFIGS, ids=IDS)
def test_information_state_keys_follow_what_the_seat_sees(game_id, options):
    game = load_game(game_id, **options)
    n = game.num_players
    seats = list(range(n)) + [None]
    seen: dict = {}                         # key -> the observation JSON it stands for (all seeds)
    for seed in SEEDS:
        state = game.new_initial_state(seed)
        rng = Rng(seed + 7)
        previous = {}                       # seat -> (key, observation JSON) at the previous step
        k = 0
        while True:
            for seat in seats:
                key = state.information_state_key(seat)
                hash(key)
                obs = json.dumps(state.observation(seat), sort_keys=True)
                assert seen.setdefault(key, obs) == obs, (seed, k, seat)   # equal keys, equal observations
                if seat in previous and previous[seat][1] != obs:
                    assert previous[seat][0] != key, (seed, k, seat)
                previous[seat] = (key, obs)
            if seed == SEEDS[0] and not state.is_terminal():   # siblings: after other actions of the mover
                mover = state.players_to_move()[0]
                legal = state.legal_actions(mover)
                for _ in range(min(2, len(legal))):
                    child = state.clone()
                    child.apply_action(legal[rng.randbelow(len(legal))], player=mover)
                    for seat in (mover, (mover + 1) % n):
                        obs = json.dumps(child.observation(seat), sort_keys=True)
                        assert seen.setdefault(child.information_state_key(seat), obs) == obs, (seed, k, seat)
            if k % 5 == 0 or state.is_terminal():   # resamples for every seat keep its key
                for seat in range(n):
                    key = state.information_state_key(seat)
                    for r in range(3):
                        other = state.resample(seat, Rng(1000 * k + r))
                        assert other.information_state_key(seat) == key, (seed, k, seat, r)
            if state.is_terminal():
                break
            seat, action = _move(state, rng)
            state.apply_action(action, player=seat)
            k += 1


@pytest.mark.parametrize("game_id, options", CONFIGS[::3], ids=IDS[::3])
def test_information_state_keys_tell_seats_apart_and_hide_hidden_parts(game_id, options):
    game = load_game(game_id, **options)
    state = game.new_initial_state(11)
    rng = Rng(4)
    for _ in range(12):
        state.apply_action(*reversed(_move(state, rng)))
    keys = [state.information_state_key(p) for p in range(game.num_players)]
    assert len(set(keys)) == game.num_players           # the seat is part of the key
    # a resample drawn for another seat may change what this seat cannot see, never its key
    for seat in range(game.num_players):
        other = (seat + 1) % game.num_players
        variant = state.resample(other, Rng(9))
        if variant.observation(seat) == state.observation(seat):
            assert variant.information_state_key(seat) == keys[seat]


def test_every_game_gives_max_game_length():
    for game_id, options in CONFIGS:
        assert load_game(game_id, **options).max_game_length() > 0


# --- IS-MCTS with information-state keys (ISMCTSBot(key="infoset")) ------------------------------------
SEARCH_GAMES = [("seven_wonders_duel", 10, {}), ("the_capitals", 12, {"num_players": 3}), ("quadropolis", 6, {}),
                ("between_two_cities", 2, {"num_players": 3}), ("between_two_cities", 9, {"num_players": 2})]


@pytest.mark.parametrize("game_id, moves, options", SEARCH_GAMES)
def test_infoset_keyed_ismcts_is_deterministic_legal_and_reads_only_resamples(game_id, moves, options):
    from test_mcts import _OnlyWhatTheSeatMayRead

    from citygames.bots import ISMCTSBot
    state = _midgame(game_id, 7, moves, **options)
    before = state.to_dict()
    for seat in state.players_to_move():     # every seat of a simultaneous step
        first = ISMCTSBot(11, iterations=25, max_depth=6, key="infoset").step(state, seat)
        assert first == ISMCTSBot(11, iterations=25, max_depth=6, key="infoset").step(state, seat)
        assert first in state.legal_actions(seat)
        wrapped = _OnlyWhatTheSeatMayRead(state, seat)
        assert ISMCTSBot(3, iterations=10, max_depth=4, key="infoset").step(wrapped, seat) == \
            ISMCTSBot(3, iterations=10, max_depth=4, key="infoset").step(state, seat)
    assert state.to_dict() == before


def test_infoset_keyed_ismcts_finds_immediate_wins_whatever_the_hidden_parts():
    from test_mcts import MAUSOLEUM, MILITARY, SCIENCE, _duel, _winning

    from citygames.bots import ISMCTSBot
    for text in (MILITARY, SCIENCE, MAUSOLEUM):
        state = _duel(text)
        seat = state.players_to_move()[0]
        wins = _winning(state, seat)
        budget = 3 * len(state.legal_actions(seat)) + 20
        moves = set()
        for k in range(3):
            variant = state.resample(seat, Rng(100 + k))
            moves.add(ISMCTSBot(9, iterations=budget, key="infoset").step(variant, seat).id)
            moves.add(ISMCTSBot(k, iterations=budget, max_depth=3, key="infoset").step(state, seat).id)
        assert moves <= wins and len(moves) == 1


@pytest.mark.parametrize("game_id, moves, options", SEARCH_GAMES)
def test_infoset_keyed_ismcts_finds_its_root_in_every_determinization(game_id, moves, options):
    """Every iteration's determinization has the root's key (resamples keep the seat's key), so the
    root's statistics count every iteration, as with path keys (white box: ``_search``)."""
    from citygames.bots import ISMCTSBot
    state = _midgame(game_id, 5, moves, **options)
    seat = state.players_to_move()[0]
    for key in ("path", "infoset"):
        root = ISMCTSBot(2, iterations=40, max_depth=5, key=key)._search(state, seat)
        assert sum(st.n for st in root.values()) == 40, key


def test_ismcts_refuses_an_unknown_key():
    from citygames.bots import ISMCTSBot
    with pytest.raises(ValueError, match="key must be one of path, infoset"):
        ISMCTSBot(0, iterations=5, key="observation")
