"""A single-agent Gymnasium view of any citygames game: one seat learns, bots play the others.

::

    from citygames.adapters.gym import CitygamesEnv
    env = CitygamesEnv("seven_wonders_duel", seat=0, opponents="greedy")
    obs, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

Also registered with Gymnasium as ``citygames/<game id>-v0`` (``gymnasium.make("citygames/the_capitals-v0",
num_players=3, opponents="random")``) when this module is imported.

- Observation: ``{"observation": the learner's observation_tensor (float32; layout in
  ``env.layout`` and the game's ``TENSOR.md``), "action_mask": its legal_action_mask (int8)}``;
  ``env.action_masks()`` gives the mask as booleans (the method sb3-contrib's ``MaskablePPO`` calls).
- Action: ``Discrete(game.num_distinct_actions)``, the game's stable action ids.
- Reward: 0 until the end, then ``state.returns()[seat]`` (1 win, 0 loss, 0.5 each on a shared
  7 Wonders Duel victory). ``terminated`` at the end of the game; never ``truncated`` (every game
  ends within ``game.max_game_length()`` actions).
- Illegal action: with ``illegal_action="terminate"`` (the default, PettingZoo's classic
  convention) the episode ends with reward -1 and ``info["illegal_action"] = True``, the game
  unchanged; with ``"raise"`` the step raises ``IllegalActionError``.
- Opponents: one bot name for every other seat or one per other seat in seat order (``"random"``,
  ``"greedy"``, any name of ``citygames.bots.BOTS``); each is seeded from the game seed as
  ``citygames simulate`` seeds them (``citygames.sim.runner.bot_seeds``), so an episode is
  reproducible from ``reset(seed=...)`` and the learner's actions.
- ``render_mode="ansi"``: the terminal board as the learner's seat sees it.
"""

from __future__ import annotations

from typing import Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from citygames.bots import make_bot
from citygames.adapters import Deals, render_ansi
from citygames.core import load_game

__all__ = ["CitygamesEnv", "register_envs"]

ILLEGAL_MODES = ("terminate", "raise")


class CitygamesEnv(gymnasium.Env):
    """A citygames game as a single-agent Gymnasium environment (see the module docstring).

    Args:
        game_id: a registered game id.
        seat: the learner's seat (0..n-1).
        opponents: a bot name for every other seat, or a sequence with one name per other seat.
        illegal_action: ``"terminate"`` (reward -1, episode over) or ``"raise"``.
        illegal_reward: the reward of an illegal action under ``"terminate"`` (default -1).
        render_mode: ``None`` or ``"ansi"``.
        **options: the game's options (``load_game(game_id, **options)``).

    Raises:
        GameOptionError: unknown game options; ValueError: a bad seat, opponent list, bot name,
        illegal-action mode or render mode.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game_id: str, seat: int = 0, opponents: str | Sequence[str] = "random",
                 illegal_action: str = "terminate", illegal_reward: float = -1.0,
                 render_mode: str | None = None, **options):
        self.game = load_game(game_id, **options)
        n = self.game.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be in 0..{n - 1}, got {seat}")
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"{n - 1} opponents needed (one per other seat), got {len(names)}")
        for name in set(names):
            make_bot(name)  # raises ValueError naming the known bots
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_MODES}, got {illegal_action!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.seat = seat
        self.opponent_names = names
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.layout = self.game.observation_tensor_layout()
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low=self.layout.low(), high=self.layout.high(), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.game.num_distinct_actions,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.state = None
        self._ended = False
        self._bots: dict = {}
        self._deals = Deals()

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Deal a new game (game ``seed`` if given, else the next seed of the current generator),
        let the bots play until the learner's turn, and return ``(observation, info)``."""
        super().reset(seed=seed)
        game_seed = self._deals.next(seed)
        from citygames.sim.runner import bot_seeds
        seeds = bot_seeds(game_seed, self.game.num_players)
        others = [p for p in range(self.game.num_players) if p != self.seat]
        self._bots = {p: make_bot(name, seeds[p]) for p, name in zip(others, self.opponent_names)}
        self.state = self.game.new_initial_state(seed=game_seed)
        self._ended = False
        self._play_bots()
        return self._obs(), {"seat": self.seat, "game_seed": game_seed}

    def _play_bots(self) -> None:
        state = self.state
        while not state.is_terminal():
            movers = state.players_to_move()
            if self.seat in movers:   # the bots choose first in a simultaneous step: theirs stay hidden
                if len(movers) == 1:
                    return
                p = next(q for q in movers if q != self.seat)
            else:
                p = movers[0]
            state.apply_action(self._bots[p].step(state, p), player=p)

    def _obs(self) -> dict:
        return {"observation": self.state.observation_tensor(self.seat),
                "action_mask": self.state.legal_action_mask(self.seat)}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a bool vector (for sb3-contrib's ``MaskablePPO``)."""
        return self.state.legal_action_mask(self.seat).astype(bool)

    def step(self, action: int):
        """Apply the learner's action, then the bots' until the learner's next turn or the end.

        Returns:
            ``(observation, reward, terminated, truncated, info)``.

        Raises:
            IllegalActionError: an illegal action with ``illegal_action="raise"`` (state unchanged).
            RuntimeError: ``step`` after the episode ended, before ``reset``.
        """
        state = self.state
        if state is None or state.is_terminal() or self._ended:
            raise RuntimeError("the episode is over: call reset()")
        action = int(action)
        legal = state.legal_actions(self.seat)
        if not any(a.id == action for a in legal):
            if self.illegal_action == "raise":
                state.apply_action(action, player=self.seat)  # raises IllegalActionError naming the rule
            self._ended = True
            return self._obs(), self.illegal_reward, True, False, {"illegal_action": True, "seat": self.seat}
        state.apply_action(action, player=self.seat)
        self._play_bots()
        done = state.is_terminal()
        reward = float(state.returns()[self.seat]) if done else 0.0
        info = {"seat": self.seat}
        if done:
            info["scores"] = state.scores()
        return self._obs(), reward, done, False, info

    def render(self) -> str | None:
        """The terminal board as the learner's seat sees it (ANSI colours), with ``render_mode="ansi"``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return render_ansi(self.game, self.state, self.seat)


def register_envs() -> list[str]:
    """Register ``citygames/<game id>-v0`` with Gymnasium for every registered game; return the ids."""
    from citygames.core import registered_games
    ids = []
    for game_id in registered_games():
        env_id = f"citygames/{game_id}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=CitygamesEnv, kwargs={"game_id": game_id})
        ids.append(env_id)
    return ids


register_envs()
