"""PettingZoo Parallel environments for every citygames game: every agent to move acts in one ``step``.

::

    from citygames.adapters.pettingzoo import between_two_cities_v0
    env = between_two_cities_v0.parallel_env(num_players=4)
    observations, infos = env.reset(seed=42)
    while env.agents:
        actions = {agent: env.action_space(agent).sample(observations[agent]["action_mask"])
                   for agent in env.agents_to_move}
        observations, rewards, terminations, truncations, infos = env.step(actions)

or any registered game by id: ``make_parallel_env("the_capitals", num_players=3)``.

The Parallel API (``pettingzoo.ParallelEnv``) fits games with simultaneous steps: in Between Two
Cities' draft every seat chooses its tiles in secret, and one ``step`` takes all their choices at
once. Its other steps are turn-based (the revealed tiles are placed seat after seat), and so are all
steps of the other games. The conventions (those of the AEC environments, ``citygames.adapters.
pettingzoo``, where they apply):

- agents ``"player_0"`` ... are the seats; observations ``{"observation": observation_tensor(seat),
  "action_mask": legal_action_mask(seat)}`` for every agent at every step (nothing hidden);
  actions are ids of the game's stable action space, ``Discrete(game.num_distinct_actions)``;
- **who acts**: the agents in ``env.agents_to_move`` (the state's ``players_to_move()``): several
  at a simultaneous step, the one seat to move at a turn-based step. The others have an all-zero
  ``action_mask`` (and ``infos[agent]["to_move"]`` False); an action given for them is ignored, so a
  caller may send an action for every agent, as PettingZoo's ``parallel_api_test`` does (it samples
  0 from an all-zero mask). An agent to move that is left out of ``actions`` keeps its turn: at a
  simultaneous step the choices given are recorded (secretly) and the step is revealed once the
  last seat has chosen, in a later ``step``; a ``step`` without any action of an agent to move
  changes nothing;
- the choices of one ``step`` are applied in seat order (the engine's result never depends on the
  order); they stay hidden from the other agents until the reveal, which the observations show;
- rewards are 0 until the end, then ``state.returns()``; at the end every agent is terminated and
  ``env.agents`` becomes empty; never truncated (every game ends within ``max_game_length()``);
- ``parallel_env()`` (``make_parallel_env``) ends the game on an illegal action with reward -1 for
  each agent that sent one (and ``infos[agent]["illegal_action"]``) and 0 for the others, nothing
  applied; ``raw_parallel_env()`` raises ``IllegalActionError`` instead, nothing applied (an
  illegal action of one seat voids the whole step);
- ``reset(seed=s)`` deals game ``s``; ``render_mode="ansi"``: the spectator's board.
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from pettingzoo import ParallelEnv

from citygames.adapters import render_spectator
from citygames.core import IllegalActionError

__all__ = ["CitygamesParallelEnv", "make_parallel_env", "make_raw_parallel_env"]


class CitygamesParallelEnv(ParallelEnv):
    """A citygames game as a PettingZoo Parallel environment (see the module docstring).

    Args:
        game_id: a registered game id.
        render_mode: ``None`` or ``"ansi"``.
        illegal_reward: ``None`` (the default): an illegal action raises ``IllegalActionError`` and
            nothing of the step is applied; a number: an illegal action ends the game, each agent
            that sent one gets this reward and the others 0.
        **options: the game's options (``load_game(game_id, **options)``).

    Attributes:
        game: the citygames ``Game``; ``state``: the current state (``None`` before ``reset``);
        layout: the observation tensor's ``TensorLayout``.

    Raises:
        GameOptionError: unknown options or bad values; ValueError: an unknown render mode.
    """

    metadata = {"render_modes": ["ansi"], "name": "citygames", "is_parallelizable": True, "render_fps": 1}

    def __init__(self, game_id: str, render_mode: str | None = None, illegal_reward: float | None = None,
                 **options):
        from citygames.adapters.pettingzoo import set_up_env
        set_up_env(self, game_id, render_mode, illegal_reward, options)
        self.agents = []

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    @property
    def agents_to_move(self) -> list[str]:
        """The agents whose actions the next ``step`` takes (``[]`` before ``reset`` and at the end)."""
        if self.state is None:
            return []
        return [self.possible_agents[p] for p in self.state.players_to_move()]

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """Deal a new game (game ``seed`` if given, else the next seed of the current generator);
        return ``(observations, infos)`` of every agent."""
        game_seed = self._deals.next(seed)
        self.state = self.game.new_initial_state(seed=game_seed)
        self.agents = self.possible_agents[:]
        return self._observations(self.agents), self._infos(self.agents)

    def _observations(self, agents) -> dict:
        state = self.state
        return {a: {"observation": state.observation_tensor(self._seat[a]),
                    "action_mask": state.legal_action_mask(self._seat[a])} for a in agents}

    def _infos(self, agents) -> dict:
        movers = self.state.players_to_move()
        return {a: {"to_move": self._seat[a] in movers} for a in agents}

    def step(self, actions: dict) -> tuple[dict, dict, dict, dict, dict]:
        """Apply the actions of the agents to move (others' are ignored; see the module docstring).

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``, each keyed by the agents
            alive before the step (empty dicts once the game is over).

        Raises:
            RuntimeError: ``step`` before ``reset``.
            ValueError: an action of an agent to move outside the action space.
            IllegalActionError: an illegal action with ``illegal_reward=None`` (nothing applied).
        """
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        agents = self.agents
        if not agents:
            return {}, {}, {}, {}, {}
        n_actions = self.game.num_distinct_actions
        chosen = []
        for p in state.players_to_move():
            agent = self.possible_agents[p]
            if agent not in actions or actions[agent] is None:
                continue
            a = int(actions[agent])
            if not 0 <= a < n_actions:
                raise ValueError(f"action {a} of {agent} is outside the action space Discrete({n_actions})")
            chosen.append((p, a))
        bad = [(p, a) for p, a in chosen if not any(x.id == a for x in state.legal_actions(p))]
        if bad:
            if self.illegal_reward is None:
                p, a = bad[0]
                state.apply_action(a, player=p)   # raises IllegalActionError naming the rule, state unchanged
                raise IllegalActionError("not legal", a)   # pragma: no cover - the line above raises
            return self._end_by_illegal_actions(agents, [p for p, _ in bad])
        for p, a in chosen:
            state.apply_action(a, player=p)
        observations = self._observations(agents)
        infos = self._infos(agents)
        truncations = dict.fromkeys(agents, False)
        if state.is_terminal():
            returns = state.returns()
            rewards = {a: float(returns[self._seat[a]]) for a in agents}
            terminations = dict.fromkeys(agents, True)
            self.agents = []
        else:
            rewards = dict.fromkeys(agents, 0.0)
            terminations = dict.fromkeys(agents, False)
        return observations, rewards, terminations, truncations, infos

    def _end_by_illegal_actions(self, agents, authors) -> tuple[dict, dict, dict, dict, dict]:
        """End the game: ``illegal_reward`` for each author, 0 for the others, everybody terminated."""
        names = {self.possible_agents[p] for p in authors}
        rewards = {a: (self.illegal_reward if a in names else 0.0) for a in agents}
        infos = self._infos(agents)
        for a in names:
            infos[a]["illegal_action"] = True
        observations = self._observations(agents)
        self.agents = []
        return observations, rewards, dict.fromkeys(agents, True), dict.fromkeys(agents, False), infos

    def render(self) -> str | None:
        """The terminal board as a spectator sees it (``render_mode="ansi"``); ``None`` and a warning
        without a render mode."""
        return render_spectator(self)

    def close(self) -> None:
        """Nothing to release."""


def make_raw_parallel_env(game_id: str, render_mode: str | None = None, **options: Any) -> CitygamesParallelEnv:
    """The Parallel environment of ``game_id`` raising ``IllegalActionError`` on an illegal action."""
    return CitygamesParallelEnv(game_id, render_mode=render_mode, **options)


def make_parallel_env(game_id: str, render_mode: str | None = None, **options: Any) -> CitygamesParallelEnv:
    """The Parallel environment of ``game_id`` as PettingZoo's classic environments behave: an illegal
    action ends the game with -1 for its author(s)."""
    return CitygamesParallelEnv(game_id, render_mode=render_mode, illegal_reward=-1, **options)
