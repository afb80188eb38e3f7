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


def _failure(game_id: str, **kwargs) -> str:
    _, _, options = VARIANTS[game_id]
    with pytest.raises(ConformanceError) as info:
        check_game(load_game(game_id, **options), n_games=5, **kwargs)
    return str(info.value)


def test_observation_leak_names_step_seat_and_the_differing_key():
    message = _failure("toy_leaky_observation")
    assert " seed 0 step 0 seat 0: [observation leak] " in message
    assert "bonus[1]: " in message


def test_spectator_leak_names_the_spectator():
    assert " step 0 spectator: [spectator leak] " in _failure("toy_leaky_spectator")


def test_log_data_leak_is_found_going_forward():
    # the leaking event is written by an action: the kit sees it only by playing on both worlds
    message = _failure("toy_leaky_log_data")
    assert "after 1 action(s) applied to the original and to a resample" in message
    assert "(toy.take) differs in its data: data.bonuses[" in message


def test_log_text_leak_is_found_even_when_the_data_agree():
    message = _failure("toy_leaky_log_text")
    assert "(toy.forecast) differs in its text" in message
    assert "The next bonus token will go to seat" in message


def test_action_text_and_json_leaks_show_both_versions():
    message = _failure("toy_leaky_action_text")
    assert "action_to_string(" in message and message.count("has a bonus of") == 2
    assert "next_bonus: " in _failure("toy_leaky_action_json")


def test_stale_resample_fails_at_the_end_of_the_first_game():
    message = _failure("toy_stale_resample", seed=3)
    assert " seed 3 end: [resample redraws nothing] " in message
    assert "resample must redraw the hidden parts" in message


def test_partial_resample_names_the_part_it_never_redraws():
    message = _failure("toy_partial_resample")
    assert "[resample misses a hidden part]" in message
    assert "resamples for seat 0 all have the same bonus[2] " in message


def test_a_game_without_declared_hidden_information_may_resample_nothing():
    report = check_game(UndeclaredStaleGame(), n_games=5, seed=1)
    assert report["redrawn"] == 0 and report["games"] == 5


def test_bad_position_is_caught_once_tokens_were_drawn():
    message = _failure("toy_bad_position")
    assert "[position] the state rebuilt from" in message and "tokens[" in message


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
