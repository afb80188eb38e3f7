"""Engine benchmarks on one core: random-play actions/s, clones/s and random games/s.

These are commands (``citygames bench GAME``), not timed tests. DESIGN.md's budget for every
game: at least 30,000 random-play actions/s and 20,000 clones/s.
"""

from __future__ import annotations

import time

from citygames.core import Game, Rng, State

ACTIONS_BUDGET = 30_000
CLONES_BUDGET = 20_000


def bench_actions(game: Game, seconds: float, seed: int = 0) -> float:
    """Random-play speed in actions per second (``legal_actions`` + ``apply_action`` per step).

    Plays seeded random games back to back (game setup not counted) for about ``seconds``
    seconds, finishing the game under way. Returns actions/s (float > 0).
    """
    rng = Rng(seed)
    actions = 0
    elapsed = 0.0
    g = 0
    while elapsed < seconds or actions == 0:
        state = game.new_initial_state(seed=seed + g)
        g += 1
        start = time.perf_counter()
        n = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randbelow(len(legal))])
            n += 1
        elapsed += time.perf_counter() - start
        actions += n
    return actions / max(elapsed, 1e-9)


def sample_states(game: Game, count: int, seed: int = 0) -> list[State]:
    """About ``count`` states taken at random steps along seeded random games (list of ``State``)."""
    rng = Rng(seed ^ 0xC10E)
    states: list[State] = []
    g = 0
    while len(states) < count:
        state = game.new_initial_state(seed=seed + g)
        g += 1
        trail = []
        while not state.is_terminal():
            trail.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randbelow(len(legal))])
        trail.append(state)
        # up to 8 states per game, spread along it
        for _ in range(min(8, len(trail))):
            states.append(trail[rng.randbelow(len(trail))])
    return states[:count]


def bench_clones(game: Game, seconds: float, seed: int = 0, pool: int = 64) -> float:
    """``state.clone()`` speed in clones per second, over ``pool`` states sampled along random games."""
    states = sample_states(game, pool, seed)
    clones = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for s in states:
            s.clone()
        clones += len(states)
        now = time.perf_counter()
        if now >= deadline:
            break
    return clones / max(now - start, 1e-9)


def bench_games(game: Game, seconds: float, seed: int = 0) -> float:
    """Full random games per second, setup included (at least one game is played)."""
    rng = Rng(seed ^ 0x6A3E)
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state(seed=seed + games)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randbelow(len(legal))])
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    return games / max(now - start, 1e-9)


def run_bench(game: Game, seconds: float = 3.0, seed: int = 0) -> dict[str, float]:
    """All three benchmarks, sharing ``seconds`` equally.

    Returns:
        ``{"actions_per_s", "clones_per_s", "games_per_s"}`` (floats).

    Raises:
        ValueError: if ``seconds <= 0``.
    """
    if seconds <= 0:
        raise ValueError(f"seconds must be > 0, got {seconds}")
    part = seconds / 3
    return {
        "actions_per_s": bench_actions(game, part, seed),
        "clones_per_s": bench_clones(game, part, seed),
        "games_per_s": bench_games(game, part, seed),
    }
