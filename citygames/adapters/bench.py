"""Steps per second through each research adapter, next to the raw engine (``citygames bench GAME
--adapters``).

Every measurement plays seeded random games on one core and counts game actions applied per
second (setup excluded where the adapter allows). A step of an adapter includes what a learning
loop consumes at every step: the mover's observation tensor and legal-action mask. The issue's
budget: an adapter costs at most 3× the engine's own speed (``engine / adapter <= 3``).

- ``engine``: ``legal_actions`` + ``apply_action`` (what ``citygames bench`` reports);
- ``engine+views``: the same plus ``observation_tensor(mover)`` and ``legal_action_mask(mover)``:
  the floor of any adapter (at a simultaneous step the mover is the seat acting, each seat in turn);
- ``pettingzoo``: the AEC environment of ``make_env`` (PettingZoo's wrappers included):
  ``env.last()``, a random legal action from the mask, ``env.step``; ``pettingzoo raw``: the same
  without PettingZoo's wrappers (``make_raw_env``);
- ``pettingzoo parallel``: the Parallel environment of ``make_parallel_env``: a random legal action
  from the mask of every agent to move, ``env.step`` of them all; each ``step`` returns every
  agent's observation, so a turn-based step costs ``num_players`` tensors and masks (the Parallel
  API's price for a game that is mostly turn-based); counted per game action (a simultaneous step
  of N choices counts N);
- ``gymnasium``: ``CitygamesEnv`` with seat 0 learning at random from the mask and ``random``
  bots in the other seats (their actions count too).

For these two the clock runs only inside the environment's calls: the agent's own choice from
the mask (a ``nonzero`` over the whole action space, about 10 µs for The Capitals' 12,388
actions) is the agent's cost, not the adapter's;
- ``openspiel``: the ``pyspiel`` game of ``citygames.adapters.openspiel`` (when installed):
  ``legal_actions()``, ``apply_action`` and ``observation_tensor()`` of the mover; at a
  simultaneous node every seat's ``legal_actions(p)`` and ``observation_tensor(p)``, then one
  ``apply_actions`` (counted as one action per seat).
"""

from __future__ import annotations

import time
from typing import Callable

from citygames.core import Game, Rng
from citygames.sim.bench import bench_actions

#: the largest allowed ratio engine speed / adapter speed
ADAPTER_BUDGET = 3.0


def _timed(deal: Callable[[int], object], play: Callable[[object], int], seconds: float) -> float:
    """Deal game after game with ``deal(game_index)`` (not timed, as in ``citygames bench``) and
    play each with ``play(state) -> actions`` (timed) until ``seconds`` of play have passed (at
    least one game); return actions per second."""
    actions, elapsed, g = 0, 0.0, 0
    while elapsed < seconds or actions == 0:
        state = deal(g)
        start = time.perf_counter()
        actions += play(state)
        elapsed += time.perf_counter() - start
        g += 1
    return actions / max(elapsed, 1e-9)


def _random_legal(obs: dict, rng: Rng) -> int:
    """A random legal action id from an observation's ``action_mask`` (the agent's side of a step)."""
    legal = obs["action_mask"].nonzero()[0]
    return int(legal[rng.randbelow(len(legal))])


def bench_engine_views(game: Game, seconds: float, seed: int = 0) -> float:
    """Engine random play plus the mover's tensor and mask at every step (actions/s)."""
    rng = Rng(seed)

    def play(state):
        n = 0
        while not state.is_terminal():
            p = state.players_to_move()[0]
            state.observation_tensor(p)
            state.legal_action_mask(p)
            legal = state.legal_actions(p)
            state.apply_action(legal[rng.randbelow(len(legal))], player=p)
            n += 1
        return n
    return _timed(lambda g: game.new_initial_state(seed=seed + g), play, seconds)


def bench_pettingzoo(game: Game, seconds: float, seed: int = 0, wrapped: bool = True) -> float:
    """The AEC environment (``make_env``, PettingZoo's wrappers included; ``wrapped=False``: the raw
    environment) played at random from the masks: actions per second of time spent inside
    ``env.last()`` and ``env.step()`` (the agent's own choice is not counted)."""
    from citygames.adapters.pettingzoo import make_env, make_raw_env
    env = (make_env if wrapped else make_raw_env)(game.info.id, **game.options)
    rng = Rng(seed)
    clock = time.perf_counter
    spent = 0.0
    actions = 0
    g = 0
    while spent < seconds or actions == 0:
        env.reset(seed=seed + g)
        g += 1
        for agent in env.agent_iter():
            t0 = clock()
            obs, _, term, trunc, _ = env.last()
            t1 = clock()
            if term or trunc:
                env.step(None)
                continue
            action = _random_legal(obs, rng)
            t2 = clock()
            env.step(action)
            spent += (t1 - t0) + (clock() - t2)
            actions += 1
    return actions / max(spent, 1e-9)


def bench_parallel(game: Game, seconds: float, seed: int = 0) -> float:
    """The Parallel environment (``make_parallel_env``) played at random from the masks: game actions
    per second of time spent inside ``reset`` and ``step`` (the agents' own choices are not counted)."""
    from citygames.adapters.pettingzoo import make_parallel_env
    env = make_parallel_env(game.info.id, **game.options)
    rng = Rng(seed)
    clock = time.perf_counter
    spent = 0.0
    actions = 0
    g = 0
    while spent < seconds or actions == 0:
        t0 = clock()
        obs, _ = env.reset(seed=seed + g)
        spent += clock() - t0
        g += 1
        while env.agents:
            choice = {a: _random_legal(obs[a], rng) for a in env.agents_to_move}
            t0 = clock()
            obs = env.step(choice)[0]
            spent += clock() - t0
            actions += len(choice)
    return actions / max(spent, 1e-9)


def bench_gymnasium(game: Game, seconds: float, seed: int = 0) -> float:
    """``CitygamesEnv`` (seat 0 random from the mask, random bots elsewhere): actions of all seats
    per second of time spent inside ``reset`` and ``step`` (the bots' own choices are counted, the
    learner's is not)."""
    from citygames.adapters.gym import CitygamesEnv
    env = CitygamesEnv(game.info.id, seat=0, opponents="random", **game.options)
    rng = Rng(seed)
    clock = time.perf_counter
    spent = 0.0
    actions = 0
    g = 0
    while spent < seconds or actions == 0:
        t0 = clock()
        obs, _ = env.reset(seed=seed + g)
        spent += clock() - t0
        g += 1
        while True:
            action = _random_legal(obs, rng)
            t0 = clock()
            obs, _, terminated, truncated, _ = env.step(action)
            spent += clock() - t0
            if terminated or truncated:
                actions += len(env.state.history)
                break
    return actions / max(spent, 1e-9)


def bench_openspiel(game: Game, seconds: float, seed: int = 0) -> float | None:
    """The ``pyspiel`` game played at random through its state API, with the mover's observation
    tensor each step (actions/s); ``None`` when OpenSpiel is not installed."""
    try:
        from citygames.adapters import openspiel as cg_openspiel
        import pyspiel
    except ImportError:
        return None
    params = cg_openspiel.game_parameters(game)
    spiel_game = pyspiel.load_game(cg_openspiel.short_name(game.info.id), dict(params, rng_seed=seed))
    rng = Rng(seed)

    def deal(g):
        state = spiel_game.new_initial_state()
        state.is_terminal()   # the adapter deals on first use: do it before the clock starts
        return state

    simultaneous = pyspiel.PlayerId.SIMULTANEOUS
    seats = range(game.num_players)

    def play(state):
        n = 0
        while not state.is_terminal():
            p = state.current_player()
            if p == simultaneous:
                joint = []
                for q in seats:
                    state.observation_tensor(q)
                    legal = state.legal_actions(q)
                    joint.append(legal[rng.randbelow(len(legal))] if legal else pyspiel.INVALID_ACTION)
                    n += bool(legal)
                state.apply_actions(joint)
                continue
            state.observation_tensor(p)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randbelow(len(legal))])
            n += 1
        return n
    return _timed(deal, play, seconds)


def run_adapter_bench(game: Game, seconds: float = 2.0, seed: int = 0) -> dict[str, float | None]:
    """Every measurement above, ``seconds`` each: ``{name: actions/s or None}`` in the order
    engine, engine+views, pettingzoo, pettingzoo raw, pettingzoo parallel, gymnasium, openspiel."""
    return {
        "engine": bench_actions(game, seconds, seed),
        "engine+views": bench_engine_views(game, seconds, seed),
        "pettingzoo": bench_pettingzoo(game, seconds, seed),
        "pettingzoo raw": bench_pettingzoo(game, seconds, seed, wrapped=False),
        "pettingzoo parallel": bench_parallel(game, seconds, seed),
        "gymnasium": bench_gymnasium(game, seconds, seed),
        "openspiel": bench_openspiel(game, seconds, seed),
    }
