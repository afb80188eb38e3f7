"""A random agent in the single-agent Gymnasium view: seat 0 learns (here: plays at random from
the action mask), bots play the other seats.

    python examples/gym_random.py --game the_capitals --players 3 --opponents greedy --episodes 5

Needs the adapters extra: pip install 'citygames[adapters]'.
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import citygames.adapters.gym  # noqa: F401  (registers citygames/<game>-v0 with Gymnasium)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="seven_wonders_duel")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="random", help="bot name for the other seats (random, greedy)")
    parser.add_argument("--episodes", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = gymnasium.make(f"citygames/{args.game}-v0", num_players=args.players, opponents=args.opponents)
    rng = np.random.default_rng(args.seed)
    wins = 0.0
    for ep in range(args.episodes):
        obs, info = env.reset(seed=args.seed + ep)
        steps = 0
        while True:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            steps += 1
            if terminated or truncated:
                break
        wins += reward
        print(f"episode {ep}: {steps} decisions, reward {reward}, scores {info['scores']}")
    print(f"mean reward against {args.opponents}: {wins / args.episodes:.2f}")


if __name__ == "__main__":
    main()
