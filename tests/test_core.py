"""Tests of citygames.core, run on the toy game (tests/toygame.py)."""

from __future__ import annotations

import json
import pickle

import pytest

from citygames.core import (Action, ActionSpace, Event, GameOptionError, IllegalActionError,
                            RecordError, Rng, TERMINAL, load_game, load_record, registered_games,
                            replay, save_record)
from citygames.core.conformance import check_game, play_random_game
from citygames.core.records import check_record

from toygame import ToyGame


# --- conformance ------------------------------------------------------------------------
@pytest.mark.parametrize("options", [
    {"num_players": 2}, {"num_players": 3}, {"num_players": 4},
    {"num_players": 3, "big_pile": True, "last_bonus": 0},
])
def test_conformance_kit_passes_on_toy_game(options):
    report = check_game(load_game("toy", **options), n_games=25, seed=11)
    assert report["games"] == 25
    assert report["actions"] > 25


def test_toy_is_registered():
    assert "toy" in registered_games()
    assert isinstance(load_game("toy"), ToyGame)


# --- Rng ----------------------------------------------------------------------------------
def test_rng_matches_splitmix64_reference_values():
    # SplitMix64 from state 0: the reference sequence of Steele, Lea & Flood's algorithm
    rng = Rng(0)
    assert [rng.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_rng_same_seed_same_sequence_and_clone_independent():
    a, b = Rng(12345), Rng(12345)
    assert [a.randbelow(1000) for _ in range(50)] == [b.randbelow(1000) for _ in range(50)]
    c = a.clone()
    assert c.next64() == a.next64()
    c.next64()
    assert c.state != a.state
    assert Rng(1).next64() != Rng(2).next64()


def test_rng_reduces_seeds_modulo_2_64():
    assert Rng(-1).state == (1 << 64) - 1
    assert Rng(1 << 64).next64() == Rng(0).next64()


def test_rng_helpers():
    rng = Rng(7)
    draws = [rng.randbelow(6) for _ in range(600)]
    assert set(draws) == set(range(6))
    floats = [rng.random() for _ in range(200)]
    assert all(0.0 <= f < 1.0 for f in floats)
    items = list(range(20))
    rng.shuffle(items)
    assert sorted(items) == list(range(20)) and items != list(range(20))
    again = list(range(20))
    Rng(7).clone()  # no effect on anything else
    r2 = Rng(7)
    [r2.randbelow(6) for _ in range(600)]
    [r2.random() for _ in range(200)]
    r2.shuffle(again)
    assert again == items
    assert rng.choice("abc") in "abc"
    spawned = rng.spawn()
    assert isinstance(spawned, Rng) and spawned.state != rng.state
    with pytest.raises(ValueError):
        rng.randbelow(0)


def test_rng_pickles():
    rng = Rng(99)
    rng.next64()
    copy = pickle.loads(pickle.dumps(rng))
    assert copy.next64() == rng.next64()


# --- actions ------------------------------------------------------------------------------
def test_action_space_encoding():
    space = ActionSpace([("take", 3, lambda i: f"take {i + 1}"), ("pass", 1, lambda i: "pass")])
    assert len(space) == 4
    assert space.offsets == {"take": 0, "pass": 3}
    a = space.get("take", 2)
    assert (a.id, a.kind, a.arg, a.text) == (2, "take", 2, "take 3")
    assert space.get("pass").id == 3
    for action in space.table:
        assert space.decode(int(action)) is action
    assert str(a) == "take 3" and repr(a) == "Action(2, 'take', 2)"
    assert a == Action(2, "take", 2, "take 3") and hash(a) == 2
    assert [0, 1, 2, 3][a] == 2  # __index__


def test_action_space_errors():
    space = ActionSpace([("take", 3, str)])
    with pytest.raises(ValueError):
        space.decode(3)
    with pytest.raises(ValueError):
        space.decode(-1)
    with pytest.raises(ValueError):
        space.decode(True)
    with pytest.raises(ValueError):
        space.decode("1")
    with pytest.raises(IndexError):
        space.get("take", 3)
    with pytest.raises(KeyError):
        space.get("build")
    with pytest.raises(ValueError):
        ActionSpace([("a", 1, str), ("a", 2, str)])
    with pytest.raises(ValueError):
        ActionSpace([("a", 0, str)])


def test_actions_are_immutable_and_pickle():
    a = ActionSpace([("take", 2, str)]).get("take", 1)
    with pytest.raises(AttributeError):
        a.id = 5
    b = pickle.loads(pickle.dumps(a))
    assert b == a and b.text == a.text


def test_game_encode_decode(toy):
    assert toy.num_distinct_actions == 4
    for a in toy.action_space.table:
        assert toy.decode(toy.encode(a)) is a


# --- illegal actions ----------------------------------------------------------------------
def _state_with_pile(game, pile):
    for seed in range(500):
        state = game.new_initial_state(seed=seed)
        rng = Rng(seed)
        while not state.is_terminal() and state.pile > pile:
            legal = [a for a in state.legal_actions() if state.pile - (a.arg + 1 if a.kind == "take" else 4) >= pile]
            state.apply_action(legal[rng.randbelow(len(legal))] if legal else state.legal_actions()[0])
        if state.pile == pile and not state.is_terminal():
            return state
    raise AssertionError("no such state")


def test_illegal_action_leaves_state_unchanged(toy):
    state = _state_with_pile(toy, 2)
    before = state.to_dict()
    for bad, rule in [(toy.action_space.get("take", 2), "not enough counters"),
                      (toy.action_space.get("grab"), "not enough counters"),
                      (99, "not an action of this game"), (-1, "not an action of this game"),
                      ("x", "not an action of this game")]:
        with pytest.raises(IllegalActionError) as info:
            state.apply_action(bad)
        assert rule in info.value.rule
        assert state.to_dict() == before
    assert isinstance(info.value, ValueError)


def test_foreign_action_object_is_rejected(toy):
    state = toy.new_initial_state(seed=1)
    before = state.to_dict()
    with pytest.raises(IllegalActionError):
        state.apply_action(Action(0, "build", 0, "build"))
    assert state.to_dict() == before


def test_no_action_after_the_end(toy):
    state = play_random_game(toy, seed=3)
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(0)
    assert state.to_dict() == before


def test_illegal_action_error_text():
    err = IllegalActionError("politics: the space is taken", "take 3", "seat 2 holds it")
    assert str(err) == "illegal action take 3: politics: the space is taken (seat 2 holds it)"
    assert err.rule == "politics: the space is taken"
    assert str(IllegalActionError("over")) == "illegal action: over"


# --- options ------------------------------------------------------------------------------
def test_option_defaults_and_conversion():
    game = load_game("toy", num_players="3", big_pile="yes")
    assert game.options == {"num_players": 3, "big_pile": True, "last_bonus": 2}
    assert game.num_players == 3
    assert load_game("toy", big_pile="off").options["big_pile"] is False


@pytest.mark.parametrize("options, message", [
    ({"colour": "red"}, "unknown option"),
    ({"num_players": 5}, "between 2 and 4"),
    ({"num_players": 1}, "between 2 and 4"),
    ({"num_players": "many"}, "must be an integer"),
    ({"big_pile": "maybe"}, "true or false"),
    ({"big_pile": 2}, "true or false"),
])
def test_option_errors(options, message):
    with pytest.raises(GameOptionError, match=message):
        load_game("toy", **options)


def test_unknown_game():
    with pytest.raises(GameOptionError, match="unknown game 'chess'"):
        load_game("chess")


def test_games_are_shared_and_pickle_to_the_same_instance():
    a = load_game("toy", num_players=3)
    assert load_game("toy", num_players=3) is a
    b = pickle.loads(pickle.dumps(a))
    assert type(b) is ToyGame and b.options == a.options
    # unpickling shares one instance per resolved options (the cache is keyed by the options
    # as given, so this is not ``a`` itself, which was loaded with partial options)
    assert pickle.loads(pickle.dumps(a)) is b


# --- state, log, information --------------------------------------------------------------
def test_same_seed_same_game_and_seed_drives_setup(toy):
    assert toy.new_initial_state(seed=5).to_dict() == toy.new_initial_state(seed=5).to_dict()
    setups = {(s.pile, tuple(s.bonus)) for s in (toy.new_initial_state(seed=i) for i in range(30))}
    assert len(setups) > 5


def test_log_visibility(toy):
    state = toy.new_initial_state(seed=2)
    private = [e for e in state.log if e.visible_to is not None]
    assert [e.visible_to for e in private] == [0, 1]
    assert all(e.visible(None) for e in state.log_for(None))
    assert len(state.log_for(None)) == len(state.log) - 2
    assert len(state.log_for(0)) == len(state.log) - 1
    assert state.log_for(0, start=len(state.log)) == []
    e = state.log[1]
    assert Event.from_dict(json.loads(json.dumps(e.to_dict()))).to_dict() == e.to_dict()
    assert "secret bonus" in e.text
    assert Event("unknown.kind", None, {"x": 1}).text == "unknown.kind {'x': 1}"


def test_observation_hides_other_bonuses_until_the_end(toy):
    state = toy.new_initial_state(seed=4)
    obs = state.observation(0)
    assert obs["bonus"][0] == state.bonus[0] and obs["bonus"][1] is None
    assert state.observation(None)["bonus"] == [None, None]
    final = play_random_game(toy, seed=4)
    assert final.observation(None)["bonus"] == final.bonus


def test_resample_redraws_only_hidden_parts(toy):
    state = toy.new_initial_state(seed=8)
    rng = Rng(1)
    seen = set()
    for _ in range(40):
        sample = state.resample(0, rng)
        assert sample.bonus[0] == state.bonus[0]
        assert sample.observation(0) == state.observation(0)
        seen.add(sample.bonus[1])
    assert len(seen) > 1  # the opponent's bonus is really redrawn


def test_clone_and_score_breakdown(toy):
    state = toy.new_initial_state(seed=6)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.history == [] and len(clone.history) == 1
    final = play_random_game(toy, seed=6)
    for seat in range(2):
        assert sum(final.score_breakdown(seat).values()) == final.scores()[seat]
    assert sum(final.returns()) == 1.0


# --- records ------------------------------------------------------------------------------
def test_record_save_load_replay(toy, tmp_path):
    state = play_random_game(load_game("toy", num_players=3, big_pile=True), seed=21)
    record = state.record()
    assert record["game"] == "toy" and record["seed"] == 21
    assert record["options"] == {"num_players": 3, "big_pile": True, "last_bonus": 2}
    path = tmp_path / "sub" / "game.json"
    save_record(record, path)
    loaded = load_record(path)
    assert loaded == record
    again = replay(loaded)
    assert again.to_dict() == state.to_dict()
    assert again.scores() == state.scores()
    partial = replay(loaded, upto=2)
    assert partial.history == record["actions"][:2]


@pytest.mark.parametrize("content, message", [
    ("not json", "cannot read record"),
    ("[1, 2]", "JSON object"),
    ('{"game": "toy"}', "lacks"),
    ('{"game": "toy", "version": "1", "options": {}, "seed": 1, "actions": ["a"]}', "integers"),
    ('{"game": "toy", "version": "1", "options": [], "seed": 1, "actions": []}', "options"),
])
def test_bad_record_files(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(RecordError, match=message):
        load_record(path)


def test_missing_record_file(tmp_path):
    with pytest.raises(RecordError, match="cannot read record"):
        load_record(tmp_path / "missing.json")


def test_records_that_do_not_replay(toy):
    record = play_random_game(toy, seed=2).record()
    with pytest.raises(RecordError, match="does not replay"):
        replay({**record, "actions": record["actions"] + [0]})
    with pytest.raises(RecordError, match="version"):
        replay({**record, "version": "999"})
    with pytest.raises(RecordError, match="unknown game"):
        replay({**record, "game": "chess"})
    with pytest.raises(RecordError, match="unknown option"):
        replay({**record, "options": {"colour": 1}})
    assert check_record(record) is record
