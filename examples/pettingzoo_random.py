"""A random agent in a citygames PettingZoo environment (AEC API).

    python examples/pettingzoo_random.py --game the_capitals --players 4 --games 3

Needs the adapters extra: pip install 'citygames[adapters]'.
"""

from __future__ import annotations

import argparse

import numpy as np

from citygames.adapters.pettingzoo import make_env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="seven_wonders_duel")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--render", action="store_true", help="print the final board")
    args = parser.parse_args()
    env = make_env(args.game, num_players=args.players, render_mode="ansi" if args.render else None)
    rng = np.random.default_rng(args.seed)
    for g in range(args.games):
        env.reset(seed=args.seed + g)
        steps, rewards = 0, {}
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                rewards[agent] = reward
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(rng.choice(legal)))
            steps += 1
        if args.render:
            print(env.unwrapped.render())
        print(f"game {g} (seed {args.seed + g}): {steps} steps, rewards {rewards}, "
              f"scores {env.unwrapped.state.scores()}")
    env.close()


if __name__ == "__main__":
    main()
