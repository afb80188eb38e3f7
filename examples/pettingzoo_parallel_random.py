"""Random agents in a citygames PettingZoo Parallel environment: every agent to move acts in one step.

    python examples/pettingzoo_parallel_random.py --game between_two_cities --players 4 --games 3

In Between Two Cities' secret choices all seats act in the same step; the placements that follow (and
every step of the other games) take the action of the one seat to move. Needs the adapters extra:
pip install 'citygames[adapters]'.
"""

from __future__ import annotations

import argparse

import numpy as np

from citygames.adapters.pettingzoo import make_parallel_env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="between_two_cities")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--render", action="store_true", help="print the final board")
    args = parser.parse_args()
    env = make_parallel_env(args.game, num_players=args.players, render_mode="ansi" if args.render else None)
    rng = np.random.default_rng(args.seed)
    for g in range(args.games):
        observations, infos = env.reset(seed=args.seed + g)
        steps = actions_taken = 0
        while env.agents:
            actions = {agent: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
                       for agent in env.agents_to_move}
            observations, rewards, terminations, truncations, infos = env.step(actions)
            steps += 1
            actions_taken += len(actions)
        if args.render:
            print(env.render())
        print(f"game {g} (seed {args.seed + g}): {steps} steps ({actions_taken} actions), rewards {rewards}, "
              f"scores {env.state.scores()}")
    env.close()


if __name__ == "__main__":
    main()
