"""PettingZoo environments for every citygames game: the AEC API (turn by turn) and the Parallel API.

Load a game as PettingZoo's classic environments are loaded::

    from citygames.adapters.pettingzoo import the_capitals_v0
    env = the_capitals_v0.env(num_players=4, prosperity=True, render_mode="ansi")
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else \\
            env.action_space(agent).sample(observation["action_mask"])
        env.step(action)

or any registered game by id: ``make_env("seven_wonders_duel")``. The keyword arguments are the
game's options (``citygames rules GAME`` lists them; ``data_overrides`` too) plus ``render_mode``.

Conventions (those of PettingZoo's classic environments):

- agents ``"player_0"`` ... ``"player_{n-1}"`` are the game's seats 0..n-1;
- an observation is ``{"observation": float32 vector, "action_mask": int8 vector}``: the seat's
  ``state.observation_tensor(seat)`` (layout: ``env.unwrapped.layout``, documented in the game
  package's ``TENSOR.md``; no hidden information) and ``state.legal_action_mask(seat)`` over the
  game's stable action space (``Discrete(game.num_distinct_actions)``, all zeros for a seat not to
  move);
- rewards are 0 until the end, then ``state.returns()`` (1 for the winner, 0 for the others; a
  shared 7 Wonders Duel victory gives 0.5 each); every agent is terminated together at the end;
- ``env()`` behaves as PettingZoo's ``classic`` environments do: an illegal action ends the game
  with reward -1 for its author, an action outside the space is an error, and ``step`` or
  ``observe`` before ``reset`` is refused; ``raw_env()`` raises ``IllegalActionError`` on an
  illegal action instead;
- ``reset(seed=s)`` deals game ``s`` (the same deal as ``citygames play ... --seed s``); a
  ``reset()`` without a seed deals the next game of the generator the last seed started (or of a
  fresh random one);
- ``render_mode="ansi"``: ``render()`` returns the terminal board as the spectator sees it (ANSI
  colours).

- **Simultaneous steps** (Between Two Cities' draft, where every seat chooses its tiles in secret):
  the AEC environment steps the seats of such a step one after another, in seat order
  (``agent_selection`` moves to the next seat still to choose); each choice stays hidden in the
  state (the other agents' observations do not change) until the last seat has chosen and all are
  revealed together.

The Parallel API (``parallel_env()``, module ``citygames.adapters.pettingzoo.parallel``) takes every
choice of a simultaneous step in one ``step(actions)``; it works for every game (a turn-based step
takes the one mover's action).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from citygames.adapters import Deals, render_spectator
from citygames.core import load_game

__all__ = ["CitygamesAECEnv", "CitygamesParallelEnv", "make_env", "make_raw_env", "make_parallel_env",
           "make_raw_parallel_env", "agent_name", "the_capitals_v0", "seven_wonders_duel_v0", "quadropolis_v0",
           "between_two_cities_v0"]

#: Environment version per game id: the ``_vN`` suffix of its name; raise it when an engine or
#: tensor change makes old results incomparable.
VERSIONS = {"the_capitals": 0, "seven_wonders_duel": 0, "quadropolis": 0, "between_two_cities": 0}


def agent_name(seat: int) -> str:
    """PettingZoo's name of a seat: ``"player_<seat>"``."""
    return f"player_{seat}"


def env_name(game_id: str) -> str:
    """The versioned environment name of a game: ``"<game id>_v<N>"``."""
    return f"{game_id}_v{VERSIONS.get(game_id, 0)}"



def set_up_env(env, game_id: str, render_mode: str | None, illegal_reward: float | None, options: dict) -> None:
    """What the AEC and the Parallel environment set up alike: ``illegal_reward``, ``game``
    (``load_game(game_id, **options)``), ``metadata`` (with ``env_name``), ``render_mode``,
    ``layout``, ``possible_agents``, the agent -> seat map, the observation spaces (``Dict`` of the
    tensor ``Box`` and the ``action_mask``), the ``Discrete`` action spaces, ``state = None`` and
    the deals tracker. ``env.agents`` is left to the caller.

    Raises:
        ValueError: ``render_mode`` is neither ``None`` nor ``"ansi"``.
        GameOptionError: unknown options or bad values.
    """
    if render_mode not in (None, "ansi"):
        raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
    env.illegal_reward = None if illegal_reward is None else float(illegal_reward)
    env.game = load_game(game_id, **options)
    env.metadata = dict(env.metadata, name=env_name(game_id))
    env.render_mode = render_mode
    env.layout = env.game.observation_tensor_layout()
    env.possible_agents = [agent_name(p) for p in range(env.game.num_players)]
    env._seat = {a: p for p, a in enumerate(env.possible_agents)}
    box = spaces.Box(low=env.layout.low(), high=env.layout.high(), dtype=np.float32)
    mask = spaces.Box(low=0, high=1, shape=(env.game.num_distinct_actions,), dtype=np.int8)
    env.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask}) for a in env.possible_agents}
    env.action_spaces = {a: spaces.Discrete(env.game.num_distinct_actions) for a in env.possible_agents}
    env.state = None
    env._deals = Deals()

class CitygamesAECEnv(AECEnv):
    """A citygames game as a PettingZoo AEC environment (see the module docstring).

    Args:
        game_id: a registered game id.
        render_mode: ``None`` or ``"ansi"``.
        illegal_reward: ``None`` (the default): an illegal action raises ``IllegalActionError`` and
            changes nothing; a number: an illegal action ends the game, its author gets this
            reward and the others 0 (``info["illegal_action"]`` is set for the author), as
            PettingZoo's ``TerminateIllegalWrapper`` does.
        **options: the game's options (``load_game(game_id, **options)``).

    Attributes:
        game: the citygames ``Game``; ``state``: the current state (``None`` before ``reset``);
        layout: the observation tensor's ``TensorLayout``.

    Raises:
        GameOptionError: unknown options or bad values; ValueError: an unknown render mode.
    """

    metadata = {"render_modes": ["ansi"], "name": "citygames", "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game_id: str, render_mode: str | None = None, illegal_reward: float | None = None,
                 **options):
        super().__init__()
        set_up_env(self, game_id, render_mode, illegal_reward, options)
        self.agents = self.possible_agents[:]
        self._mask: tuple = (None, -1, -1, None)
        self._deals = Deals()

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game: game ``seed`` if given, else the next seed of the current generator."""
        game_seed = self._deals.next(seed)
        self.state = self.game.new_initial_state(seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        """Point ``agent_selection`` at the seat to move; at the end, terminate everybody with
        the game's returns as rewards."""
        state = self.state
        if state.is_terminal():
            returns = state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                self.terminations[a] = True
            # every agent now takes its final (None) step, the one that moved last first
            self.agent_selection = self.agents[0]
        else:
            # in a simultaneous step the seats to move act one after another, in seat order: a seat's
            # choice stays hidden in the state until the last one has chosen
            self.agent_selection = self.possible_agents[state.players_to_move()[0]]

    def observe(self, agent: str) -> dict:
        """``{"observation": observation_tensor(seat), "action_mask": legal_action_mask(seat)}``."""
        if self.state is None:
            raise RuntimeError("call reset() before observe()")
        seat = self._seat[agent]
        mask = self.state.legal_action_mask(seat)
        self._mask = (self.state, len(self.state.history), seat, mask)   # spares step() a legality scan
        return {"observation": self.state.observation_tensor(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (an id of the action space); ``None`` for an agent
        already terminated.

        Raises:
            IllegalActionError: the action is not legal now (``env()`` catches this earlier and
                ends the game with reward -1 for its author); the state is unchanged.
        """
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        n = self.game.num_distinct_actions
        if not 0 <= action < n:
            raise ValueError(f"action {action} is outside the action space Discrete({n})")
        if self.illegal_reward is not None and not self._is_legal(action):
            self._end_by_illegal_action(agent)
            return
        self.state.apply_action(int(action), player=self._seat[agent])
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._select()
        self._accumulate_rewards()

    def _is_legal(self, action: int) -> bool:
        """Whether the selected agent may play ``action`` now (from the mask ``observe`` just gave)."""
        state, moves, seat, mask = self._mask
        if state is self.state and moves == len(state.history) and seat == self._seat[self.agent_selection]:
            return bool(mask[action])
        return any(a.id == action for a in self.state.legal_actions(self._seat[self.agent_selection]))

    def _end_by_illegal_action(self, agent: str) -> None:
        """End the game: ``illegal_reward`` for ``agent``, 0 for the others, everybody terminated."""
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = dict(self.infos[agent], illegal_action=True)
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The terminal board as a spectator sees it (``render_mode="ansi"``: a string with ANSI
        colours); ``None`` and a warning without a render mode."""
        return render_spectator(self)

    def close(self) -> None:
        """Nothing to release."""


def make_raw_env(game_id: str, render_mode: str | None = None, **options: Any) -> CitygamesAECEnv:
    """The unwrapped environment of ``game_id`` (``CitygamesAECEnv``)."""
    return CitygamesAECEnv(game_id, render_mode=render_mode, **options)


def make_env(game_id: str, render_mode: str | None = None, **options: Any):
    """The environment of ``game_id`` as PettingZoo's classic environments behave: an illegal
    action ends the game with -1 for its author, an action outside the space is an error, and
    ``step``/``observe`` before ``reset`` are refused. These are built into the environment rather
    than stacked as PettingZoo's ``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper`` and
    ``OrderEnforcingWrapper``: each wrapper layer makes every attribute read of an AEC loop a
    Python ``__getattr__`` call, and the three together cost more than the engine's own step."""
    return CitygamesAECEnv(game_id, render_mode=render_mode, illegal_reward=-1, **options)


class _EnvModule:
    """What ``pettingzoo.classic.chess_v6`` offers, for one game: ``env(**options)``,
    ``raw_env(**options)``, ``parallel_env(**options)``, ``raw_parallel_env(**options)`` and ``name``."""

    def __init__(self, game_id: str):
        self.game_id = game_id
        self.name = env_name(game_id)

    def env(self, render_mode: str | None = None, **options):
        """The wrapped environment (see ``make_env``)."""
        return make_env(self.game_id, render_mode=render_mode, **options)

    def raw_env(self, render_mode: str | None = None, **options):
        """The unwrapped environment (see ``make_raw_env``)."""
        return make_raw_env(self.game_id, render_mode=render_mode, **options)

    def parallel_env(self, render_mode: str | None = None, **options):
        """The Parallel environment (see ``parallel.make_parallel_env``)."""
        return make_parallel_env(self.game_id, render_mode=render_mode, **options)

    def raw_parallel_env(self, render_mode: str | None = None, **options):
        """The Parallel environment raising on illegal actions (see ``parallel.make_raw_parallel_env``)."""
        return make_raw_parallel_env(self.game_id, render_mode=render_mode, **options)

    def __repr__(self) -> str:
        return f"<citygames PettingZoo environment {self.name}>"


the_capitals_v0 = _EnvModule("the_capitals")
seven_wonders_duel_v0 = _EnvModule("seven_wonders_duel")
quadropolis_v0 = _EnvModule("quadropolis")
between_two_cities_v0 = _EnvModule("between_two_cities")

from citygames.adapters.pettingzoo.parallel import (  # noqa: E402 - it imports agent_name and env_name from here
    CitygamesParallelEnv,
    make_parallel_env,
    make_raw_parallel_env,
)
