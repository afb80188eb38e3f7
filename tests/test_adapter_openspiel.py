"""The OpenSpiel adapter (issue: research adapters, part 3).

OpenSpiel's own ``random_sim_test`` runs on every game at its smallest and largest player count and
every option set, with a state checker that compares the observation tensors with the engine's and
round-trips the serialization; OpenSpiel's ``ISMCTSBot`` plays our bots through ``evaluate_bots``.
The toy game (registered by conftest.py) shows the conventions where its short games make them
easy to see.
"""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from adapter_helpers import REAL_GAMES, all_option_sets, option_id  # noqa: E402
from citygames.adapters import openspiel as cgo  # noqa: E402
from citygames.core import GameOptionError, IllegalActionError, load_game, registered_games, replay  # noqa: E402
from citygames.core.registry import game_info  # noqa: E402
from open_spiel.python import observation as os_observation  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots  # noqa: E402

CONFIGS = all_option_sets()
GAMES = list(REAL_GAMES) + ["toy"]
#: OpenSpiel's ISMCTS bots search sequential games only
SEQUENTIAL_GAMES = [g for g in REAL_GAMES if not game_info(g).simultaneous_moves]


@pytest.fixture(scope="module", autouse=True)
def _toy_registered():
    cgo.register("toy")


def spiel(game_id: str, rng_seed: int = 0, **options):
    """The OpenSpiel game of ``game_id`` with citygames options."""
    return cgo.load(game_id, rng_seed=rng_seed, **options)


def random_step(states, rng: np.random.RandomState):
    """Apply one random legal move to each of ``states`` (OpenSpiel states in the same position): an action,
    or at a simultaneous node a joint action (one per seat, ``INVALID_ACTION`` for a seat with none);
    return it."""
    state = states[0]
    if state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
        joint = []
        for p in range(state.num_players()):
            legal = state.legal_actions(p)
            joint.append(legal[rng.randint(len(legal))] if legal else pyspiel.INVALID_ACTION)
        for s in states:
            s.apply_actions(joint)
        return joint
    legal = state.legal_actions()
    a = legal[rng.randint(len(legal))]
    for s in states:
        s.apply_action(a)
    return a


def random_moves(state, rng: np.random.RandomState, k: int | None = None) -> list:
    """Apply up to ``k`` random legal moves (all to the end without ``k``); return them (joint actions as
    lists)."""
    done = []
    while not state.is_terminal() and (k is None or len(done) < k):
        done.append(random_step([state], rng))
    return done


def flat_history(engine) -> list[int]:
    """OpenSpiel's history of a game played through the adapter: the engine's, a simultaneous step's
    ``[seat, id]`` choices as their ids (every seat chooses, in seat order, through ``apply_actions``)."""
    return [e[1] if isinstance(e, list) else e for e in engine.history]


def fresh_info(engine, seat: int) -> str:
    """The information-state string of ``seat`` built from scratch from the engine state (the
    adapter builds it incrementally and shares it between clones and resamples)."""
    lines = [f"seat {seat}"] + [cgo._json(e.to_dict()) for e in engine.log_for(seat)]
    return "\n".join(lines + [cgo._json(engine.observation(seat))])


def check_state(state) -> None:
    """What ``random_sim_test`` calls at every state: the tensors, strings and serialization of
    the adapter agree with the engine (the serialization round trip at OpenSpiel's own schedule:
    the first ten steps, then powers of two)."""
    engine = cgo.engine_state(state)
    game = state.get_game()
    for p in range(game.num_players()):
        expected = engine.observation_tensor(p)
        assert np.array_equal(np.asarray(state.observation_tensor(p), np.float32), expected)
        assert state.observation_string(p) == cgo._json(engine.observation(p))
        assert state.information_state_string(p).startswith(f"seat {p}\n")
    n = len(state.history())
    if n < 10 or (n & (n - 1)) == 0:
        for p in range(game.num_players()):
            assert state.information_state_string(p) == fresh_info(engine, p)
        again = game.deserialize_state(state.serialize())
        assert again.history() == state.history()
        assert cgo.engine_state(again).to_dict() == engine.to_dict()
        assert str(again) == str(state)


# --- registration, GameType and GameInfo ---------------------------------------------------------
def test_every_registered_game_is_a_pyspiel_game():
    # the built-in games are registered on import; games registered later (as tests do) by
    # register_all() or register(game_id)
    assert {cgo.short_name(g) for g in REAL_GAMES} <= set(pyspiel.registered_names())
    assert set(cgo.register_all()) == {cgo.short_name(g) for g in registered_games()}
    names = set(pyspiel.registered_names())
    for game_id in registered_games():
        assert cgo.short_name(game_id) in names
        assert cgo.register(game_id).short_name == f"python_citygames_{game_id}"


@pytest.mark.parametrize("game_id", GAMES)
def test_game_type_and_parameters(game_id):
    info = game_info(game_id)
    gtype = pyspiel.load_game(cgo.short_name(game_id)).get_type()
    assert gtype.short_name == f"python_citygames_{game_id}"
    assert gtype.dynamics == (pyspiel.GameType.Dynamics.SIMULTANEOUS if info.simultaneous_moves
                              else pyspiel.GameType.Dynamics.SEQUENTIAL)
    assert gtype.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert gtype.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gtype.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert gtype.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (gtype.min_num_players, gtype.max_num_players) == (info.min_players, info.max_players)
    assert gtype.provides_observation_tensor and gtype.provides_observation_string
    assert gtype.provides_information_state_string and not gtype.provides_information_state_tensor
    spec = dict(gtype.parameter_specification)
    defaults = {o.name: o.default for o in info.options}
    expected = {"players": defaults["num_players"], "rng_seed": 0}
    expected.update({k: v for k, v in defaults.items() if k != "num_players"})
    assert spec == expected


@pytest.mark.parametrize("game_id,options", CONFIGS + [("toy", {"num_players": 4, "big_pile": True})], ids=option_id)
def test_game_info_matches_the_engine(game_id, options):
    game = spiel(game_id, **options)
    cg = load_game(game_id, **options)
    assert game.citygames_game is cg
    assert game.num_players() == options["num_players"]
    assert game.num_distinct_actions() == cg.num_distinct_actions
    assert game.max_chance_outcomes() == 0
    assert (game.min_utility(), game.max_utility()) == (cg.info.min_utility, cg.info.max_utility)
    assert game.utility_sum() == cg.info.utility_sum
    assert game.max_game_length() == cg.max_game_length()
    assert game.observation_tensor_shape() == [cg.observation_tensor_size()]
    assert game.observation_tensor_size() == cg.observation_tensor_size()
    params = game.get_parameters()
    assert params["players"] == options["num_players"]
    assert all(params[k] == v for k, v in options.items() if k != "num_players")


def test_parameters_from_the_game_string_and_errors():
    game = pyspiel.load_game("python_citygames_seven_wonders_duel(next_age_chooser=first_print,rng_seed=7)")
    assert game.citygames_game.options["next_age_chooser"] == "first_print"
    assert game.next_seed == 7
    with pytest.raises(GameOptionError):
        pyspiel.load_game("python_citygames_the_capitals", {"players": 6})
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game("python_citygames_the_capitals", {"num_players": 2})
    cg = load_game("the_capitals", num_players=2, data_overrides={"board:final_scoring.cubes_per_prestige": 3})
    with pytest.raises(ValueError, match="data_overrides"):
        cgo.game_parameters(cg)


# --- OpenSpiel's random simulation test ---------------------------------------------------------
@pytest.mark.parametrize("game_id,options", CONFIGS, ids=option_id)
def test_random_sim_test(game_id, options):
    # serialize=False: OpenSpiel's serialize_game_and_state needs Game::GetRNGState, which a Python
    # game with sampled chance cannot provide in OpenSpiel 2.0; check_state round-trips the state
    # itself, and test_serialize_game_and_state the adapter's own serialize_game_and_state
    game = spiel(game_id, rng_seed=11, **options)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False, state_checker_fn=check_state)


def test_random_sim_test_toy_every_player_count():
    for n in (2, 3, 4):
        game = spiel("toy", num_players=n, big_pile=n == 4)
        pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False, state_checker_fn=check_state)


# --- the state: actions, returns, views ----------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_state_wraps_the_engine(game_id):
    game = spiel(game_id, rng_seed=5)
    state = game.new_initial_state()
    engine = cgo.engine_state(state)
    assert engine.seed == 5 and game.next_seed == 6
    rng = np.random.RandomState(0)
    simultaneous = 0
    while not state.is_terminal():
        p = state.current_player()
        assert p == engine.current_player()
        assert state.returns() == [0.0] * game.num_players()
        if p == pyspiel.PlayerId.SIMULTANEOUS:
            simultaneous += 1
            with pytest.raises(ValueError, match="several seats"):
                state.legal_actions()
            for q in range(game.num_players()):
                legal = state.legal_actions(q)
                assert legal == sorted(a.id for a in engine.legal_actions(q)) and legal   # every seat chooses
                assert state.legal_actions_mask(q) == engine.legal_action_mask(q).tolist()
            random_step([state], rng)
            continue
        legal = state.legal_actions()
        assert legal == sorted(a.id for a in engine.legal_actions())
        assert legal == state.legal_actions(p)
        assert state.legal_actions_mask() == engine.legal_action_mask(p).tolist()
        for q in range(game.num_players()):
            if q != p:
                assert state.legal_actions(q) == []
        a = legal[rng.randint(len(legal))]
        assert state.action_to_string(p, a) == engine.action_to_string(a)
        state.apply_action(a)
    assert bool(simultaneous) == game.citygames_game.info.simultaneous_moves
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == engine.returns()
    assert sum(state.returns()) == pytest.approx(game.utility_sum())
    assert state.legal_actions() == []
    assert state.history() == flat_history(engine)
    assert "[/" not in str(state)  # rich markup removed


def test_illegal_action_raises_and_changes_nothing():
    game = spiel("toy")
    state = game.new_initial_state()
    while state.legal_actions() == [0, 1, 2, 3]:
        state.apply_action(0)
    before = cgo.engine_state(state).to_dict()
    illegal = 3 if 3 not in state.legal_actions() else None
    if illegal is not None:
        with pytest.raises(IllegalActionError):
            state.apply_action(illegal)
        assert cgo.engine_state(state).to_dict() == before
        assert len(state.history()) == len(before["history"])


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_observer_tensor_and_dict_views(game_id):
    game = spiel(game_id)
    layout = game.citygames_game.observation_tensor_layout()
    obs = os_observation.make_observation(game)
    public = os_observation.make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    info = os_observation.make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    state = game.new_initial_state()
    random_moves(state, np.random.RandomState(3), 25)
    engine = cgo.engine_state(state)
    for p in range(game.num_players()):
        obs.set_from(state, p)
        assert np.array_equal(obs.tensor, engine.observation_tensor(p))
        assert list(obs.dict) == layout.names
        for s in layout:
            assert np.array_equal(obs.dict[s.name], layout.view(engine.observation_tensor(p), s.name))
        assert obs.string_from(state, p) == state.observation_string(p)
        public.set_from(state, p)
        assert np.array_equal(public.tensor, engine.observation_tensor(None))
        assert info.tensor is None and info.string_from(state, p) == state.information_state_string(p)
    with pytest.raises(ValueError, match="ALL_PLAYERS"):
        os_observation.make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def test_information_state_string_separates_what_the_seat_can_tell():
    game = spiel("toy", num_players=2)
    a, b = game.new_initial_state(), game.new_initial_state()
    ea, eb = cgo.engine_state(a), cgo.engine_state(b)
    # a seat tells deals apart by what it sees: its own secret bonus or the pile
    if (ea.bonus[0], ea.pile) != (eb.bonus[0], eb.pile):
        assert a.information_state_string(0) != b.information_state_string(0)
    # the same deal after different actions differs; after the same actions it does not
    c = game.new_initial_state(ea.record())
    assert c.information_state_string(1) == a.information_state_string(1)
    a.apply_action(0)
    c.apply_action(1)
    assert c.information_state_string(1) != a.information_state_string(1)
    # another seat's hidden bonus cannot be told apart: a resample for seat 1 keeps its string
    r = a.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert r.information_state_string(1) == a.information_state_string(1)


# --- resample_from_infostate -------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_resample_keeps_the_players_information(game_id):
    game = spiel(game_id, rng_seed=2)
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for step in range(6):
        random_moves(state, rng, 3 if game_id == "toy" else 9)
        if state.is_terminal():
            break
        for p in range(game.num_players()):
            r = state.resample_from_infostate(p, sampler)
            assert isinstance(r, cgo.CitygamesState)
            assert r.history() == state.history()
            assert r.information_state_string(p) == state.information_state_string(p)
            assert fresh_info(cgo.engine_state(r), p) == fresh_info(cgo.engine_state(state), p)
            assert state.information_state_string(p) == fresh_info(cgo.engine_state(state), p)
            assert r.observation_string(p) == state.observation_string(p)
            assert np.array_equal(r.observation_tensor(p), state.observation_tensor(p))
            assert r.legal_actions(p) == state.legal_actions(p)
            changed += cgo.engine_state(r).to_dict() != cgo.engine_state(state).to_dict()
            # the resampled world plays on, and serializes as its full state
            again = game.deserialize_state(r.serialize())
            assert cgo.engine_state(again).to_dict() == cgo.engine_state(r).to_dict()
            random_moves(r, np.random.RandomState(step), 5)
    assert changed  # hidden parts really are redrawn


def test_resample_with_a_python_sampler_is_reproducible():
    game = spiel("toy", num_players=3)
    state = game.new_initial_state()
    state.apply_action(0)
    draws = iter([0.25, 0.25, 0.75])
    a = state.resample_from_infostate(0, lambda: next(draws))
    b = state.resample_from_infostate(0, lambda: next(draws))
    assert cgo.engine_state(a).to_dict() == cgo.engine_state(b).to_dict()


# --- cloning, serialization and seeding ---------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_clone_is_independent(game_id):
    game = spiel(game_id)
    state = game.new_initial_state()
    random_moves(state, np.random.RandomState(4), 12)
    before = cgo.engine_state(state).to_dict()
    clone = state.clone()
    assert isinstance(clone, cgo.CitygamesState)
    assert clone.history() == state.history() and str(clone) == str(state)
    assert cgo.engine_state(clone) is not cgo.engine_state(state)
    random_moves(clone, np.random.RandomState(5))
    assert cgo.engine_state(state).to_dict() == before


@pytest.mark.parametrize("game_id", GAMES)
def test_serialize_game_and_state_plays_on_identically(game_id):
    game = spiel(game_id, rng_seed=3)
    game.new_initial_state().is_terminal()  # deal 3; the state below is deal 4
    state = game.new_initial_state()
    random_moves(state, np.random.RandomState(6), 17)
    text = cgo.serialize_game_and_state(game, state)
    assert "[GameRNGState]\n5\n" in text
    game2, state2 = cgo.deserialize_game_and_state(text)
    assert str(game2) == str(game) and game2.next_seed == game.next_seed
    assert state2.history() == state.history() and str(state2) == str(state)
    # OpenSpiel's own state serialization round-trips too
    state3 = game.deserialize_state(state.serialize())
    rng = np.random.RandomState(7)
    while not state.is_terminal():
        for p in range(game.num_players()):
            assert state2.legal_actions(p) == state.legal_actions(p) == state3.legal_actions(p)
            assert state2.information_state_string(p) == state.information_state_string(p)
        random_step([state, state2, state3], rng)
        assert str(state2) == str(state) == str(state3)
    assert state2.is_terminal() and state3.is_terminal()
    assert state2.returns() == state.returns() == state3.returns()
    assert cgo.engine_state(state2).to_dict() == cgo.engine_state(state).to_dict()
    # the two games deal the same next games
    assert str(game2.new_initial_state()) == str(game.new_initial_state())


def test_deals_follow_rng_seed_and_internal_states_use_none():
    game = spiel("toy", rng_seed=40, num_players=3)
    states = [game.new_initial_state() for _ in range(3)]
    # OpenSpiel's C++ side builds states through new_initial_state for clones, deserialization
    # and the tensor shape; none of them may use up a deal
    first = states[0]
    first.clone()
    game.deserialize_state(first.serialize())
    pyspiel.State.observation_tensor(first, 0)  # the C++ path, with its shape query
    assert [cgo.engine_state(s).seed for s in states] == [40, 41, 42]
    assert game.next_seed == 43
    same = spiel("toy", rng_seed=40, num_players=3)
    assert [str(same.new_initial_state()) for _ in range(3)] == [str(s) for s in states]
    # the k-th deal is citygames game rng_seed + k
    engine = load_game("toy", num_players=3).new_initial_state(41)
    assert cgo.engine_state(states[1]).to_dict() == engine.to_dict()


def test_a_fresh_state_read_by_the_observer_gets_the_deal_it_showed():
    game = spiel("toy", rng_seed=9)
    fresh = game.new_initial_state()
    obs = os_observation.make_observation(game)
    obs.set_from(fresh, 0)
    shown = obs.tensor.copy()
    other = game.new_initial_state()
    other.legal_actions()  # takes deal 9 first
    assert np.array_equal(np.asarray(fresh.observation_tensor(0), np.float32), shown)
    assert cgo.engine_state(fresh).seed == 9
    assert cgo.engine_state(other).seed == 9  # the pinned deal is shared, not lost


def test_state_from_record():
    game = spiel("seven_wonders_duel")
    state = game.new_initial_state()
    random_moves(state, np.random.RandomState(8), 30)
    record = cgo.engine_state(state).record()
    again = game.new_initial_state(record)
    assert again.history() == state.history() and str(again) == str(state)
    assert cgo.engine_state(again).to_dict() == replay(record).to_dict()
    with pytest.raises(Exception, match="record"):
        spiel("seven_wonders_duel", first_game_wonders=True).state_from_record(record)


# --- bots: ours as pyspiel bots, OpenSpiel's ISMCTS ---------------------------------------------
def test_our_bots_play_through_evaluate_bots():
    game = spiel("the_capitals", num_players=3)
    bots = [cgo.CitygamesBot("greedy", seed=1), cgo.CitygamesBot("random", seed=2), cgo.CitygamesBot("random", 3)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sorted(returns) == [0.0, 0.0, 1.0]
    # the C++ evaluate_bots takes them too
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)
    assert sum(returns) == pytest.approx(1.0)


def test_ismcts_beats_random_on_the_toy_game():
    game = spiel("toy", num_players=2)
    total = np.zeros(2)
    for i in range(6):
        bots = [cgo.ismcts_bot(game, max_simulations=40, seed=i), cgo.CitygamesBot("random", seed=i)]
        total += evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(i))
    assert total[0] >= 4


@pytest.mark.parametrize("game_id", SEQUENTIAL_GAMES)
def test_ismcts_against_greedy_finishes_a_game(game_id):
    # OpenSpiel's ISMCTSBot plays random play-outs to the end of the game at every simulation:
    # a small budget from the last stretch of a game keeps this test short
    game = spiel(game_id, rng_seed=1, num_players=2)
    probe = game.new_initial_state()
    random_moves(probe, np.random.RandomState(9))
    record = cgo.engine_state(probe).record()
    state = game.new_initial_state(dict(record, actions=record["actions"][:-14]))
    seat = state.current_player()
    bots = [None, None]
    bots[seat] = cgo.ismcts_bot(game, max_simulations=6, seed=2)
    bots[1 - seat] = cgo.CitygamesBot("greedy", seed=3)
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(0))
    assert state.is_terminal()
    assert sum(returns) == pytest.approx(1.0)


def test_cpp_ismcts_cannot_resample_python_games():
    # documented limitation: OpenSpiel's C++ side never calls a Python game's
    # resample_from_infostate; ismcts_bot (OpenSpiel's Python ISMCTSBot) is the one to use
    game = spiel("toy")
    bot = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, 5)
    with pytest.raises(pyspiel.SpielError, match="ResampleFromInfostate"):
        pyspiel.evaluate_bots(game.new_initial_state(), [bot, cgo.CitygamesBot("random")], 1)


def test_pyspiel_serialize_game_and_state_needs_the_game_rng_state():
    # documented limitation: OpenSpiel 2.0 serializes a game with sampled chance with its RNG
    # state (Game::GetRNGState), which a Python game cannot provide; the adapter's
    # serialize_game_and_state writes the same format with the deal counter as that state.
    # If this starts passing, OpenSpiel can do it itself: use it in test_random_sim_test.
    game = spiel("toy")
    state = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="GetRNGState"):
        pyspiel.serialize_game_and_state(game, state)


def test_game_type_follows_the_game_info(monkeypatch):
    # no game has simultaneous steps or a general-sum outcome yet: the mapping, on toy variants
    import dataclasses

    toy = game_info("toy")
    variants = {
        "toy_simultaneous": dataclasses.replace(toy, simultaneous_moves=True, utility_sum=None),
        "toy_zero_sum": dataclasses.replace(toy, utility_sum=0.0, min_utility=-1.0),
    }
    monkeypatch.setattr(cgo, "game_info", variants.__getitem__)
    gtype = cgo.game_type("toy_simultaneous")
    assert gtype.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert gtype.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert cgo.game_type("toy_zero_sum").utility == pyspiel.GameType.Utility.ZERO_SUM


def test_a_negative_rng_seed_starts_from_a_random_deal():
    a, b = spiel("toy", rng_seed=-1), spiel("toy", rng_seed=-1)
    assert a.next_seed >= 0 and b.next_seed >= 0 and a.next_seed != b.next_seed


def test_games_and_states_pickle():
    import pickle
    game = spiel("the_capitals", rng_seed=8, num_players=3)
    state = game.new_initial_state()
    random_moves(state, np.random.RandomState(10), 20)
    again = pickle.loads(pickle.dumps(state))
    assert isinstance(again, cgo.CitygamesState)
    assert again.history() == state.history() and str(again) == str(state)
    assert str(again.get_game()) == str(game) and again.get_game().next_seed == game.next_seed == 9
    game2 = pickle.loads(pickle.dumps(game))
    assert str(game2) == str(game) and str(game2.new_initial_state()) == str(game.new_initial_state())


def test_seeded_ismcts_games_replay_exactly():
    game = spiel("toy", rng_seed=4)
    # (OpenSpiel's default resampler, seeded anew at random every simulation, gives three
    # different games in three runs here)
    histories = []
    for _ in range(3):
        game.next_seed = 4
        state = game.new_initial_state()
        bots = [cgo.ismcts_bot(game, max_simulations=15, seed=5), cgo.CitygamesBot("random", seed=6)]
        evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(0))
        histories.append(state.history())
    assert histories[0] == histories[1] == histories[2]


# --- games with simultaneous steps: Between Two Cities, the sealed-bids toy ----------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test_sealed_bids(players):
    """OpenSpiel's random simulation on a game with both simultaneous and turn-based nodes, the toy's short
    games at every player count."""
    cgo.register("toy_sim")
    game = spiel("toy_sim", num_players=players, rounds=4)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False, state_checker_fn=check_state)


def _at_simultaneous(game, rng_seed=0):
    state = game.new_initial_state()
    rng = np.random.RandomState(rng_seed)
    while state.current_player() != pyspiel.PlayerId.SIMULTANEOUS:
        random_step([state], rng)
    return state


def test_a_simultaneous_node_takes_one_action_per_seat_all_or_nothing():
    game = spiel("between_two_cities", num_players=3)
    state = _at_simultaneous(game)
    engine = cgo.engine_state(state)
    legal = [state.legal_actions(p) for p in range(3)]
    with pytest.raises(ValueError, match="apply_actions"):
        state.apply_action(legal[0][0])
    with pytest.raises(ValueError, match="several seats"):
        state.legal_actions_mask()
    before, history = engine.to_dict(), state.history()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal[2])
    with pytest.raises(IllegalActionError):
        state.apply_actions([legal[0][0], legal[1][0], illegal])
    assert engine.to_dict() == before and state.history() == history     # nothing applied, not even seat 0's
    with pytest.raises(ValueError, match="one entry per seat"):
        state.apply_actions([legal[0][0]])
    state.apply_actions([legal[0][0], legal[1][-1], legal[2][0]])
    assert state.history() == history + [legal[0][0], legal[1][-1], legal[2][0]]
    assert engine.history[-3:] == [[0, legal[0][0]], [1, legal[1][-1]], [2, legal[2][0]]]
    # a turn-based node: apply_actions applies the mover's entry only (OpenSpiel's rl_environment does this)
    p = state.current_player()
    assert p == 0 and state.legal_actions(1) == []
    a = state.legal_actions()[0]
    state.apply_actions([a, -1, -1])
    assert engine.history[-1] == a


def test_a_seat_that_has_chosen_has_no_legal_action_and_its_entry_is_ignored():
    """Wrapping an engine state where one seat has chosen already (a table in progress): that seat has no legal
    actions at the node, ``evaluate_bots`` passes INVALID_ACTION for it, and the step completes."""
    game = spiel("toy_sim", num_players=3)
    engine = game.citygames_game.new_initial_state(4)
    engine.apply_action(engine.legal_actions(1)[0], player=1)
    state = game.wrap(engine, exact=True)
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    assert state.legal_actions(1) == [] and state.legal_actions(0) and state.legal_actions(2)
    bots = [cgo.CitygamesBot("random", seed=p, player_id=p) for p in range(3)]
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(0))
    assert state.is_terminal() and sum(returns) == pytest.approx(1.0)


@pytest.mark.parametrize("game_id,options", [("between_two_cities", {"num_players": 3}),
                                             ("between_two_cities", {"num_players": 2, "capitals": True}),
                                             ("toy_sim", {"num_players": 3})])
def test_our_bots_play_a_simultaneous_game_through_evaluate_bots(game_id, options):
    cgo.register("toy_sim")
    game = spiel(game_id, rng_seed=3, **options)
    n = options["num_players"]
    bots = [cgo.CitygamesBot("greedy" if p == 0 else "random", seed=p, player_id=p) for p in range(n)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sum(returns) == pytest.approx(1.0)
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)     # the C++ loop too
    assert sum(returns) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="player_id"):
        cgo.CitygamesBot("random").step(_at_simultaneous(game))


def test_openspiel_rl_environment_plays_a_simultaneous_game():
    """OpenSpiel's ``rl_environment`` sends one action per seat at every node of a simultaneous game; at the
    turn-based nodes only the mover's counts."""
    from open_spiel.python import rl_environment
    game = spiel("between_two_cities", rng_seed=5, num_players=3)
    env = rl_environment.Environment(game)
    step = env.reset()
    rng = np.random.RandomState(1)
    count = 0
    while not step.last():
        actions = []
        for p in range(3):
            legal = step.observations["legal_actions"][p]
            actions.append(legal[rng.randint(len(legal))] if legal else pyspiel.INVALID_ACTION)
        step = env.step(actions)
        count += 1
    # the 3 choices of each of the 7 secret steps (2 singles stages of 3 turns, 1 duplex stage) are one step
    assert count == game.max_game_length() - 7 * 2
    assert sum(step.rewards) == pytest.approx(1.0)


def in_seat_order(record: dict) -> dict:
    """``record`` with each run of simultaneous choices sorted by seat (but an unfinished one at its end)."""
    out, run = [], []
    for e in record["actions"] + [None]:
        if isinstance(e, list):
            run.append(e)
            continue
        out += sorted(run) if e is not None else run
        run = []
        if e is not None:
            out.append(e)
    return dict(record, actions=out)


def test_state_from_a_record_groups_the_choices_into_joint_actions():
    game = spiel("between_two_cities", num_players=3)
    engine = game.citygames_game.new_initial_state(7)
    rng = np.random.RandomState(2)
    while len(engine.history) < 40:
        p = engine.players_to_move()[-1]          # the seats choose in reverse order: the record keeps that
        legal = engine.legal_actions(p)
        engine.apply_action(legal[rng.randint(len(legal))], player=p)
    record = engine.record()
    state = game.new_initial_state(record)
    # the same state; through apply_actions the seats of a step choose in seat order
    assert cgo.engine_state(state).to_dict() == replay(in_seat_order(record)).to_dict()
    assert len(state.history()) == 40
    # a record ending inside a simultaneous step: those choices are made in the engine, the others pending
    cut = next(i for i in range(len(record["actions"]) - 1, 0, -1)
               if isinstance(record["actions"][i], list) and isinstance(record["actions"][i - 1], list))
    partial = dict(record, actions=record["actions"][:cut])
    state = game.new_initial_state(partial)
    assert cgo.engine_state(state).to_dict() == replay(in_seat_order(partial)).to_dict()
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
