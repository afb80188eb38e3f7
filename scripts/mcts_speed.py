"""Search speed: MCTS / IS-MCTS iterations per second per game on one core.

Usage: ``python scripts/mcts_speed.py [ITERATIONS] [GAME ...]``. For each game, positions are taken
from 3 seeded random games at 10%, 40% and 70% of their length; each search bot runs ITERATIONS
iterations (default 200) from each position, for the seat to move. Prints iterations/s (total
iterations over total wall time), with full random rollouts and with an evaluation cut-off at depth
10. Single process: one core.
"""

from __future__ import annotations

import sys
import time

from citygames.bots import make_bot
from citygames.core import Rng, load_game
from citygames.core.registry import registered_games

OPTIONS = {"between_two_cities": {"num_players": 3}, "the_capitals": {"num_players": 2}}


def positions(game_id: str, games: int = 3) -> list:
    """States at 10%, 40% and 70% of ``games`` seeded random games."""
    game = load_game(game_id, **OPTIONS.get(game_id, {}))
    out = []
    for seed in range(games):
        rng = Rng(seed)
        state = game.new_initial_state(seed)
        trail = []
        while not state.is_terminal():
            trail.append(state.clone())
            for seat in state.players_to_move():
                legal = state.legal_actions(seat)
                state.apply_action(legal[rng.randbelow(len(legal))], player=seat)
        out += [trail[int(len(trail) * f)] for f in (0.1, 0.4, 0.7)]
    return out


def main() -> None:
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    games = sys.argv[2:] or registered_games()
    print(f"{'game':22} {'bot':40} {'iterations/s':>12}")
    for game_id in games:
        states = positions(game_id)
        for spec in (f"mcts:iterations={iterations}", f"ismcts:iterations={iterations}",
                     f"ismcts:iterations={iterations},max_depth=10"):
            done, spent = 0, 0.0
            for k, state in enumerate(states):
                bot = make_bot(spec, k)
                seat = state.players_to_move()[0]
                t0 = time.perf_counter()
                bot.step(state, seat)
                spent += time.perf_counter() - t0
                done += bot.last_iterations
            print(f"{game_id:22} {spec:40} {done / spent:12.0f}", flush=True)


if __name__ == "__main__":
    main()
