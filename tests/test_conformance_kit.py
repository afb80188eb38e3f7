"""The conformance kit's own tests (citygames.core.conformance, DESIGN.md "Tests").

The honest toy game passes, and actually exercises the hidden-information checks; each broken
variant of tests/leaky_games.py fails with the check that must catch it, and the message names the
game, options, seed, step, seat and the first difference.
"""

from __future__ import annotations

import json
import re

import pytest
from leaky_games import VARIANTS, UndeclaredStaleGame

from citygames.core import PositionError, Rng, load_game, replay
from citygames.core import conformance as kit
from citygames.core.conformance import ConformanceError, check_game, hidden_dict


@pytest.mark.parametrize("players", [2, 3, 4])
def test_honest_toy_passes_and_exercises_the_hidden_checks(players):
    report = check_game(load_game("toy", num_players=players), n_games=20, seed=5)
    assert report["games"] == 20
    # resamples changed the state (the bonuses and the chance before the end) ...
    assert 0 < report["redrawn"] < report["resamples"]
    # ... and the followed worlds ran until a bonus token revealed the redrawn chance
    assert report["reveals"] > 0


@pytest.mark.parametrize("seed", [0, 100, 200])
@pytest.mark.parametrize("game_id", list(VARIANTS))
def test_each_broken_variant_fails_its_check(game_id, seed):
    _, check, options = VARIANTS[game_id]
    game = load_game(game_id, **options)
    with pytest.raises(ConformanceError) as info:
        check_game(game, n_games=5, seed=seed)
    assert info.value.check == check, str(info.value)
    message = str(info.value)
    where = re.match(rf"{game_id} {re.escape(str(game.options))} seed (\d+) (step \d+|end)", message)
    assert where and seed <= int(where[1]) < seed + 5, message
    assert f"[{check}]" in message


@pytest.mark.parametrize("game_id, seed, fragments", [
    ("toy_leaky_observation", 0, [" seed 0 step 0 seat 0: [observation leak] ", "bonus[1]: "]),
    ("toy_leaky_spectator", 0, [" step 0 spectator: [spectator leak] "]),
    # the leaking event is written by an action: the kit sees it only by playing on both worlds
    ("toy_leaky_log_data", 0, ["after 1 action(s) applied to the original and to a resample",
                               "(toy.take) differs in its data: data.bonuses["]),
    ("toy_leaky_log_text", 0, ["(toy.forecast) differs in its text", "The next bonus token will go to seat"]),
    ("toy_leaky_action_text", 0, ["[action text leak] after resample(0), action_to_string(", "has a bonus of"]),
    ("toy_leaky_action_json", 0, ["[action_json leak] ", "next_bonus: "]),
    ("toy_stale_resample", 3, [" seed 3 end: [resample redraws nothing] ", "resample must redraw the hidden parts"]),
    ("toy_partial_resample", 0, ["[resample misses a hidden part]", "resamples for seat 0 all have the same bonus[2] "]),
    ("toy_bad_position", 0, ["[position] the state rebuilt from", "tokens["]),
    ("toy_leaky_tensor", 0, [" step 0 seat 0: [observation tensor leak] observation_tensor(0) changed",
                             "slice 'bonus' index 1"]),
    ("toy_tensor_bounds", 0, ["[observation tensor] observation_tensor(0)[0] = -", "outside slice 'pile'"]),
    ("toy_wrong_mask", 0, ["[legal action mask] legal_action_mask()", "is not the legal actions"]),
])
def test_messages_name_where_and_the_first_difference(game_id, seed, fragments):
    _, _, options = VARIANTS[game_id]
    with pytest.raises(ConformanceError) as info:
        check_game(load_game(game_id, **options), n_games=5, seed=seed)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_a_game_without_declared_hidden_information_may_resample_nothing():
    report = check_game(UndeclaredStaleGame(), n_games=5, seed=1)
    assert report["redrawn"] == 0 and report["games"] == 5


def test_hidden_dict_drops_the_log_and_leaves_the_state(toy):
    state = toy.new_initial_state(seed=2)
    state.apply_action(state.legal_actions()[0])
    before = state.to_dict()
    d = hidden_dict(state)
    assert "log" not in d and d == {k: v for k, v in before.items() if k != "log"}
    assert state.to_dict() == before


def test_diff_paths_stop_at_the_requested_depth():
    a = {"decks": [[1, 2, 3], [4, 5]], "rng": 7, "bonus": [0, 1]}
    b = {"decks": [[1, 3, 2], [4, 5]], "rng": 8, "bonus": [0, 1, 2]}
    assert kit._diff_paths(a, b) == [("decks", 0, 1), ("decks", 0, 2), ("rng",), ("bonus",)]
    assert kit._diff_paths(a, b, depth=2) == [("decks", 0), ("rng",), ("bonus",)]
    assert kit._diff_paths(a, a) == []


# --- the toy game is honest for the stronger kit ---------------------------------------------------
def test_toy_resample_redraws_the_chance_to_come_but_not_after_the_end(toy):
    state = toy.new_initial_state(seed=8)
    rng = Rng(3)
    assert len({state.resample(0, rng).rng.state for _ in range(10)}) > 1
    final = state.clone()
    while not final.is_terminal():
        final.apply_action(final.legal_actions()[0])
    assert hidden_dict(final.resample(1, rng)) == hidden_dict(final)


def _midgame(toy, seed=4, actions=3):
    state = toy.new_initial_state(seed=seed)
    for _ in range(actions):
        state.apply_action(state.legal_actions()[-1])
    return state


def test_toy_position_round_trip_and_record(toy):
    state = _midgame(toy)
    text = state.position()
    rebuilt = toy.state_from_position(text)
    assert rebuilt.position() == text and rebuilt.history == [] and rebuilt.log == []
    assert {k: v for k, v in hidden_dict(rebuilt).items() if k not in ("seed", "history", "origin")} == \
        {k: v for k, v in hidden_dict(state).items() if k not in ("seed", "history", "origin")}
    rebuilt.apply_action(rebuilt.legal_actions()[0])
    record = json.loads(json.dumps(rebuilt.record()))
    assert record["position"] == text
    assert replay(record).to_dict() == rebuilt.to_dict()


@pytest.mark.parametrize("text, field", [
    ("13 0 0,0 1,3 0,0 0,0 -", "8 fields"),
    ("13 2 0,0 1,3 0,0 0,0 - 5", "current seat"),
    ("13 0 0,0,0 1,3 0,0 0,0 - 5", "taken"),
    ("13 0 0,0 1,4 0,0 0,0 - 5", "bonuses"),
    ("13 0 0,0 1,3 0,x 0,0 - 5", "tokens"),
    ("0 0 0,0 1,3 0,0 0,0 - 5", "last taker"),
    ("3 0 0,0 1,3 0,0 0,0 1 5", "last taker"),
    ("3 0 0,0 1,3 0,0 0,0 - -1", "chance"),
])
def test_toy_bad_positions_name_the_field(toy, text, field):
    with pytest.raises(PositionError, match=field):
        toy.state_from_position(text)
