"""Train a small masked policy on 7 Wonders Duel for a few minutes and report its win rate
against the random bot.

The learner is seat 0 of the single-agent Gymnasium view (``citygames.adapters.gym``); the
other seat is the ``random`` bot. The policy is sb3-contrib's ``MaskablePPO`` (PPO that samples
only legal actions: the view's ``action_masks()``) with a small MLP over the observation tensor.

    pip install 'citygames[adapters,rl]'
    python examples/train_duel_maskable_ppo.py --minutes 5

It prints the win rate of the untrained policy and of the trained one over the same seeded
evaluation games (a shared victory counts one half), with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import math
import time

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.callbacks import BaseCallback

from citygames.adapters.gym import CitygamesEnv


class TensorOnly(gymnasium.ObservationWrapper):
    """Keeps only the observation tensor (the mask reaches the policy through ``action_masks``)."""

    def __init__(self, env):
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation):
        return observation["observation"]


def make_env(seat: int, opponent: str):
    env = CitygamesEnv("seven_wonders_duel", seat=seat, opponents=opponent)
    return ActionMasker(TensorOnly(env), lambda e: e.unwrapped.action_masks())


class Deadline(BaseCallback):
    """Stops training after ``seconds`` of wall-clock time."""

    def __init__(self, seconds: float):
        super().__init__()
        self.deadline = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.deadline


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def evaluate(model, games: int, seed: int, opponent: str) -> float:
    """Total reward of seat 0 over ``games`` seeded games (win 1, shared 0.5, loss 0)."""
    env = make_env(0, opponent)
    total = 0.0
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        while True:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                total += reward
                break
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="training time")
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = make_env(0, args.opponent)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=1024, batch_size=256, learning_rate=3e-4,
                        gamma=1.0, ent_coef=0.01, policy_kwargs={"net_arch": [128, 128]}, verbose=0)
    eval_seed = 1_000_000 + args.seed
    before = evaluate(model, args.eval_games, eval_seed, args.opponent)
    start = time.monotonic()
    model.learn(total_timesteps=10**9, callback=Deadline(args.minutes * 60))
    trained_for = time.monotonic() - start
    after = evaluate(model, args.eval_games, eval_seed, args.opponent)
    n = args.eval_games
    for label, wins in (("untrained", before), ("trained", after)):
        lo, hi = wilson(wins, n)
        print(f"{label:>9}: win rate {wins / n:.3f} against {args.opponent} over {n} games "
              f"(95% CI {lo:.3f}-{hi:.3f})")
    print(f"trained {model.num_timesteps:,} decisions in {trained_for / 60:.1f} min "
          f"({model.num_timesteps / trained_for:,.0f} decisions/s)")


if __name__ == "__main__":
    main()
