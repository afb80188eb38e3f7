"""A citygames game in OpenSpiel: random play, OpenSpiel's random_sim_test, then ISMCTS against a bot.

    python examples/openspiel_random.py --game seven_wonders_duel --games 3 --ismcts 20

Needs the adapters extra: pip install 'citygames[adapters]'.
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots

from citygames.adapters import openspiel as cg_openspiel  # registers python_citygames_<game id>


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="seven_wonders_duel")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=3, help="random games to play")
    parser.add_argument("--seed", type=int, default=0, help="rng_seed: game k deals citygames seed SEED + k")
    parser.add_argument("--ismcts", type=int, default=20, metavar="N",
                        help="simulations per move of the ISMCTS bot (0: skip the ISMCTS game)")
    parser.add_argument("--opponent", default="greedy", help="the citygames bot ISMCTS plays against")
    args = parser.parse_args()
    name = cg_openspiel.short_name(args.game)
    game = pyspiel.load_game(name, {"players": args.players, "rng_seed": args.seed})
    print(game, "| observation tensor", game.observation_tensor_shape(), "| max length", game.max_game_length())

    rng = np.random.default_rng(args.seed)
    for g in range(args.games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.observation_tensor()  # what a learner would read (float32, no hidden information)
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        print(f"game {g}: {len(state.history())} actions, returns {state.returns()}")

    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    print("random_sim_test passed")

    if args.ismcts:
        bots = [cg_openspiel.ismcts_bot(game, max_simulations=args.ismcts, seed=args.seed)]
        bots += [cg_openspiel.CitygamesBot(args.opponent, seed=args.seed + p) for p in range(1, args.players)]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(args.seed))
        print(f"ISMCTS ({args.ismcts} simulations/move) vs {args.opponent}: returns {returns}")


if __name__ == "__main__":
    main()
