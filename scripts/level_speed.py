"""Seconds per move of each difficulty level, per game, on one core.

Usage: ``python scripts/level_speed.py [LEVEL ...] [--games GAME ...]`` (default: every level,
every game). Positions come from ``mcts_speed.positions`` (3 seeded random games at 10%, 40% and
70% of their length); the level searches each for the seat to move. Prints the level's spec on
the game, the mean and the largest seconds per move, and iterations per second. A move that hit
the level's ``seconds`` cap shows it in "capped" (its iterations were cut short).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from citygames.bots import LEVEL_NAMES, make_bot  # noqa: E402
from citygames.bots.levels import level_params, level_spec  # noqa: E402
from citygames.core.registry import registered_games  # noqa: E402
from mcts_speed import positions  # noqa: E402


def main() -> None:
    args = sys.argv[1:]
    games = registered_games()
    if "--games" in args:
        k = args.index("--games")
        games, args = args[k + 1:], args[:k]
    levels = args or list(LEVEL_NAMES)
    print(f"{'game':20} {'level':7} {'spec':48} {'mean s':>7} {'max s':>7} {'it/s':>7} {'capped':>6}")
    for game_id in games:
        states = positions(game_id)
        seats = states[0].game.num_players   # the positions' seat count (the levels depend on it)
        for level in levels:
            budget = level_params(level, game_id, seats)["iterations"]
            times, done, capped = [], 0, 0
            for k, state in enumerate(states):
                bot = make_bot(level, k)
                seat = state.players_to_move()[0]
                t0 = time.perf_counter()
                bot.step(state, seat)
                times.append(time.perf_counter() - t0)
                done += bot.last_iterations
                capped += 0 < bot.last_iterations < budget
            print(f"{game_id:20} {level:7} {level_spec(level, game_id, seats):48} {sum(times) / len(times):7.2f} "
                  f"{max(times):7.2f} {done / sum(times):7.0f} {capped:6d}", flush=True)


if __name__ == "__main__":
    main()
