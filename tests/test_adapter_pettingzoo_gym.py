"""The PettingZoo AEC and Parallel environments and the Gymnasium single-agent view (issue: research adapters).

PettingZoo's own ``api_test``, ``seed_test``, ``parallel_api_test`` and ``parallel_seed_test`` and
Gymnasium's ``check_env`` run on every game at its smallest and largest player count and every option set;
the toy games show the conventions (rewards, illegal actions, seeding, opponents, simultaneous steps) where
their short games make them easy to see.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402

from adapter_helpers import all_option_sets, option_id  # noqa: E402
from citygames.adapters.gym import CitygamesEnv  # noqa: E402
from citygames.adapters.pettingzoo import (  # noqa: E402
    between_two_cities_v0,
    make_env,
    make_parallel_env,
    make_raw_env,
    make_raw_parallel_env,
    seven_wonders_duel_v0,
    the_capitals_v0,
)
from citygames.core import IllegalActionError, load_game, replay  # noqa: E402

CONFIGS = all_option_sets()


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        # PettingZoo warns that a Dict observation "probably should be" a Box: the classic
        # environments (chess, connect four) use the same Dict {observation, action_mask}
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("game_id,options", CONFIGS, ids=option_id)
def test_pettingzoo_api_and_seed_tests(game_id, options):
    env = make_env(game_id, render_mode="ansi", **options)
    api_test(env, num_cycles=60)
    seed_test(lambda: make_env(game_id, **options), num_cycles=60)


@pytest.mark.parametrize("game_id,options", CONFIGS, ids=option_id)
def test_gymnasium_check_env(game_id, options):
    n = options["num_players"]
    env = CitygamesEnv(game_id, seat=n - 1, opponents="random", render_mode="ansi", **options)
    check_env(env, skip_render_check=False)


def test_versioned_modules_build_the_named_games():
    env = the_capitals_v0.env(num_players=3, prosperity=True)
    assert env.metadata["name"] == "the_capitals_v0"
    assert env.unwrapped.game.options["prosperity"] is True
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    duel = seven_wonders_duel_v0.raw_env()
    assert duel.metadata["name"] == "seven_wonders_duel_v0"
    assert duel.action_space("player_0").n == load_game("seven_wonders_duel").num_distinct_actions


def _play_aec(env, seed, pick):
    """Play one whole game through the AEC API; return (agents' final rewards, actions taken)."""
    env.reset(seed=seed)
    final, actions = {}, []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        a = pick(obs)
        actions.append(a)
        env.step(a)
    return final, actions


def test_aec_rewards_are_the_returns_and_the_game_replays():
    env = make_raw_env("toy", num_players=3)
    rng = np.random.default_rng(5)
    final, actions = _play_aec(env, 11, lambda obs: int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = load_game("toy", num_players=3).new_initial_state(seed=11)
    state.apply_actions(actions)
    assert state.is_terminal()
    assert final == {f"player_{p}": r for p, r in enumerate(state.returns())}
    assert sorted(final.values()) == [0.0, 0.0, 1.0]


def test_aec_observation_is_the_seats_tensor_and_mask():
    env = make_raw_env("toy", num_players=2)
    env.reset(seed=4)
    state = load_game("toy").new_initial_state(seed=4)
    mover = env.agent_selection
    assert mover == "player_0"
    obs = env.observe("player_1")
    assert np.array_equal(obs["observation"], state.observation_tensor(1))
    assert not obs["action_mask"].any()           # seat 1 is not to move
    assert np.array_equal(env.observe(mover)["action_mask"], state.legal_action_mask(0))
    assert env.observation_space(mover).contains(env.observe(mover))


TAKE_3 = 2     # toy action ids: take 1, 2, 3 counters = 0, 1, 2; grab 4 = 3 (legal while 4 are left)


def _until_grab_is_illegal(env) -> str:
    """Take 3 counters until grabbing 4 is illegal; return the agent to move."""
    while env.observe(env.agent_selection)["action_mask"][3]:
        env.step(TAKE_3)
    return env.agent_selection


def test_aec_illegal_action_ends_the_game_with_minus_one_for_its_author():
    env = make_env("toy", num_players=2)
    env.reset(seed=2)
    author = _until_grab_is_illegal(env)
    other = "player_1" if author == "player_0" else "player_0"
    history = list(env.unwrapped.state.history)
    env.step(3)
    assert all(env.terminations.values())
    assert env.rewards == {author: -1, other: 0}
    assert env.unwrapped.state.history == history      # the illegal action was not applied


def test_raw_aec_refuses_an_illegal_action_and_keeps_the_state():
    env = make_raw_env("toy")
    env.reset(seed=3)
    agent = _until_grab_is_illegal(env)
    before = env.state.to_dict()
    with pytest.raises(IllegalActionError, match="grab"):
        env.step(3)
    assert env.state.to_dict() == before and env.agent_selection == agent


def test_reset_without_seed_draws_new_deals_reproducibly_after_a_seed():
    a, b = make_raw_env("toy"), make_raw_env("toy")
    a.reset(seed=9)
    b.reset(seed=9)
    deals_a, deals_b = [], []
    for _ in range(3):
        a.reset()
        b.reset()
        deals_a.append(a.state.seed)
        deals_b.append(b.state.seed)
    assert deals_a == deals_b
    assert len(set(deals_a)) == 3


def test_render_ansi_is_the_spectators_board():
    env = make_raw_env("toy", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "Pile:" in text and "\x1b[" in text
    assert "bonus ?" in text   # secret bonuses stay hidden from a spectator
    assert make_raw_env("toy").render() is None      # no render mode: nothing (and a warning)


def test_gym_view_plays_the_bots_and_pays_the_returns():
    env = CitygamesEnv("toy", seat=1, opponents=["greedy", "random"], num_players=3)
    obs, info = env.reset(seed=21)
    assert env.state.current_player() == 1
    rng = np.random.default_rng(0)
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert not truncated
        if terminated:
            break
        assert reward == 0.0 and env.state.current_player() == 1
    assert reward == env.state.returns()[1]
    with pytest.raises(RuntimeError):
        env.step(0)


def test_gym_episode_is_reproducible_from_the_seed():
    def episode():
        env = CitygamesEnv("toy", seat=0, opponents="random", num_players=4)
        obs, _ = env.reset(seed=8)
        while True:
            obs, reward, terminated, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            if terminated:
                return env.state.record()
    assert episode() == episode()


def _gym_until_grab_is_illegal(env, obs):
    while obs["action_mask"][3]:
        obs, _, terminated, _, _ = env.step(TAKE_3)
        assert not terminated
    return obs


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_gym_illegal_action_terminates_or_raises(seed):
    env = CitygamesEnv("toy", opponents="random")
    _gym_until_grab_is_illegal(env, env.reset(seed=seed)[0])
    history = list(env.state.history)
    obs, reward, terminated, _, info = env.step(3)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert env.state.history == history
    strict = CitygamesEnv("toy", opponents="random", illegal_action="raise")
    _gym_until_grab_is_illegal(strict, strict.reset(seed=seed)[0])
    with pytest.raises(IllegalActionError, match="grab"):
        strict.step(3)
    assert strict.state.history == history


@pytest.mark.parametrize("kwargs,match", [
    ({"seat": 2}, "seat must be"),
    ({"opponents": ["random", "random"]}, "1 opponents needed"),
    ({"opponents": "nobody"}, "unknown bot"),
    ({"illegal_action": "ignore"}, "illegal_action"),
    ({"render_mode": "human"}, "render_mode"),
])
def test_gym_bad_arguments_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        CitygamesEnv("toy", **kwargs)


def test_gymnasium_make_finds_every_game():
    env = gymnasium.make("citygames/toy-v0", num_players=3, opponents="greedy")
    obs, info = env.reset(seed=0)
    assert obs["observation"].shape == (load_game("toy", num_players=3).observation_tensor_size(),)


def test_aec_calls_before_reset_and_out_of_space_actions_are_refused():
    env = make_env("toy")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        env.observe("player_0")
    env.reset(seed=1)
    with pytest.raises(ValueError, match=r"outside the action space Discrete\(4\)"):
        env.step(4)
    assert env.state.history == []


# --- the Parallel API and simultaneous steps -----------------------------------------------------------
@pytest.mark.parametrize("game_id,options", CONFIGS + [("toy_sim", {"num_players": 3}), ("toy", {"num_players": 2})],
                         ids=option_id)
def test_parallel_api_and_seed_tests(game_id, options):
    """PettingZoo's own tests, two whole games each (every agent is sent an action at every step, sampled from
    its mask: the agents not to move get 0 from their all-zero mask, which the environment ignores)."""
    parallel_api_test(make_parallel_env(game_id, render_mode="ansi", **options), num_cycles=1000)
    parallel_seed_test(lambda: make_parallel_env(game_id, **options), num_cycles=60)


def _random_actions(env, obs, rng, agents=None):
    return {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"])))
            for a in (env.agents_to_move if agents is None else agents)}


def test_parallel_step_takes_every_secret_choice_at_once():
    """Between Two Cities: the seats choose in one step and the choices are revealed together; the placements
    that follow are turn-based steps (one agent to move); the rewards are the returns and the game replays."""
    env = between_two_cities_v0.raw_parallel_env(num_players=3)
    obs, infos = env.reset(seed=11)
    assert env.agents_to_move == ["player_0", "player_1", "player_2"]
    assert all(infos[a]["to_move"] for a in env.agents)
    rng = np.random.default_rng(0)
    obs, rewards, term, trunc, infos = env.step(_random_actions(env, obs, rng))
    state = env.state
    assert [len(e) for e in state.history] == [2, 2, 2] and state.current_player() == 0
    assert env.agents_to_move == ["player_0"] and not obs["player_1"]["action_mask"].any()
    assert infos["player_0"]["to_move"] and not infos["player_1"]["to_move"]
    steps = 1
    while env.agents:
        # an action for every agent: those not to move are ignored
        actions = _random_actions(env, obs, rng)
        actions.update({a: 0 for a in env.agents if a not in actions})
        obs, rewards, term, trunc, infos = env.step(actions)
        steps += 1
    g = env.game
    assert steps == g.max_game_length() - 7 * 2      # 7 secret steps of 3 choices each
    assert all(term.values()) and not any(trunc.values())
    assert rewards == {f"player_{p}": r for p, r in enumerate(state.returns())}
    assert replay(state.record()).to_dict() == state.to_dict()
    assert env.step({"player_0": 0}) == ({}, {}, {}, {}, {})


def test_parallel_a_seat_left_out_keeps_its_turn_and_its_choice_stays_secret():
    env = make_raw_parallel_env("toy_sim", num_players=3)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(1)
    before = {a: o["observation"].copy() for a, o in obs.items()}
    obs, rewards, _, _, infos = env.step(_random_actions(env, obs, rng, ["player_1"]))
    assert env.agents_to_move == ["player_0", "player_2"]             # player_1 has bid; the others still to
    assert not obs["player_1"]["action_mask"].any() and not infos["player_1"]["to_move"]
    bid = env.state.pending[1]
    # the others see that player_1 has bid, not what: another bid would show them the same
    other = make_raw_parallel_env("toy_sim", num_players=3)
    o2, _ = other.reset(seed=2)
    legal = np.flatnonzero(o2["player_1"]["action_mask"])
    o2, *_ = other.step({"player_1": int(next(a for a in legal if a != bid))})
    for a in ("player_0", "player_2"):
        assert np.array_equal(obs[a]["observation"], o2[a]["observation"])
        assert not np.array_equal(obs[a]["observation"], before[a])   # "chosen" shows
    # a step without any action of an agent to move changes nothing
    history = list(env.state.history)
    env.step({"player_1": 3})
    assert env.state.history == history
    env.step(_random_actions(env, obs, rng))
    assert len(env.state.history) == 3 and env.state.current_player() >= 0  # revealed: the winner decides


def test_parallel_illegal_actions():
    """``parallel_env``: every agent that sent an illegal action gets -1, the others 0, nothing applied;
    ``raw_parallel_env`` raises, nothing applied; an action outside the space is an error."""
    env = make_parallel_env("toy_sim", num_players=3)
    obs, _ = env.reset(seed=5)
    masks = {a: obs[a]["action_mask"] for a in env.agents}
    illegal = {a: int(np.flatnonzero(masks[a] == 0)[0]) for a in env.agents}
    legal = {a: int(np.flatnonzero(masks[a])[0]) for a in env.agents}
    obs, rewards, term, trunc, infos = env.step({"player_0": illegal["player_0"], "player_1": legal["player_1"],
                                                 "player_2": illegal["player_2"]})
    assert rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": -1.0}
    assert all(term.values()) and env.agents == [] and env.state.history == []
    assert infos["player_0"]["illegal_action"] and "illegal_action" not in infos["player_1"]
    raw = make_raw_parallel_env("toy_sim", num_players=3)
    raw.reset(seed=5)
    with pytest.raises(IllegalActionError):
        raw.step({"player_0": legal["player_0"], "player_1": illegal["player_1"]})
    assert raw.state.history == [] and raw.agents_to_move == ["player_0", "player_1", "player_2"]
    with pytest.raises(ValueError, match="outside the action space"):
        raw.step({"player_0": 10_000})
    with pytest.raises(RuntimeError, match="reset"):
        make_raw_parallel_env("toy").step({})


def test_parallel_modules_and_render():
    env = between_two_cities_v0.parallel_env(num_players=5, capitals=True, render_mode="ansi")
    assert env.metadata["name"] == "between_two_cities_v0" and env.metadata["is_parallelizable"]
    obs, _ = env.reset(seed=3)
    assert obs["player_4"]["observation"].shape == (load_game("between_two_cities", num_players=5,
                                                               capitals=True).observation_tensor_size(),)
    assert "\x1b[" in env.render()
    assert make_parallel_env("the_capitals", num_players=3).possible_agents == ["player_0", "player_1", "player_2"]


def test_aec_steps_the_seats_of_a_secret_step_in_seat_order_and_keeps_choices_hidden():
    env = make_raw_env("between_two_cities", num_players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(2)
    seen = []
    for _ in range(3):
        agent = env.agent_selection
        seen.append(agent)
        others = {a: env.observe(a)["observation"].copy() for a in env.agents if a != agent}
        obs = env.observe(agent)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if len(seen) < 3:   # before the reveal the others' views change only by "chosen"
            lay = env.layout
            for a, before in others.items():
                after = env.observe(a)["observation"]
                diff = {s.name for s in lay if not np.array_equal(lay.view(before, s.name), lay.view(after, s.name))}
                assert diff <= {"chosen", "to_move"}, diff
    assert seen == ["player_0", "player_1", "player_2"]
    assert env.unwrapped.state.current_player() == 0 and env.agent_selection == "player_0"   # revealed: placing


def test_gym_bots_choose_first_in_a_secret_step():
    """The learner's observation at a secret step shows the bots' choices as made (``chosen``), never what they
    are; its step completes the step."""
    env = CitygamesEnv("between_two_cities", seat=1, opponents="random", num_players=3)
    obs, _ = env.reset(seed=6)
    lay = env.layout
    assert env.state.players_to_move() == (1,) and lay.view(obs["observation"], "chosen").sum() == 2
    obs, reward, terminated, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert not terminated and env.state.current_player() == 1 and env.state.side[0] == 2   # Blue has placed
