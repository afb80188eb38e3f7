"""Seeded random play for tests that need many states along real games (positions, tensors)."""

from __future__ import annotations

from citygames.core import Rng


def random_states(game, seeds, every: int = 1, rng_seed=lambda seed: seed):
    """Every ``every``-th state (and the last) of seeded random games of ``game``: game ``seed`` is set
    up from ``seed`` and its actions drawn by ``Rng(rng_seed(seed))``. The same state object is
    yielded as it advances: clone it to keep it."""
    for seed in seeds:
        rng = Rng(rng_seed(seed))
        s = game.new_initial_state(seed)
        k = 0
        while True:
            if k % every == 0 or s.is_terminal():
                yield s
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply_action(legal[rng.randbelow(len(legal))])
            k += 1
