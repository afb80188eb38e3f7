"""Seeded random play for tests that need many states along real games (positions, tensors), and
the checks the games' tensor tests share."""

from __future__ import annotations

import numpy as np

from citygames.core import Rng, load_game
from citygames.core.conformance import random_move


def random_states(game, seeds, every: int = 1, rng_seed=lambda seed: seed):
    """Every ``every``-th state (and the last) of seeded random games of ``game``: game ``seed`` is set
    up from ``seed`` and its actions drawn by ``Rng(rng_seed(seed))`` (in a simultaneous step a random
    seat among those to move acts). The same state object is yielded as it advances: clone it to
    keep it."""
    for seed in seeds:
        rng = Rng(rng_seed(seed))
        s = game.new_initial_state(seed)
        k = 0
        while True:
            if k % every == 0 or s.is_terminal():
                yield s
            if s.is_terminal():
                break
            random_move(s, rng)
            k += 1


def midgame(game_id: str, seed: int, moves: int, **options):
    """The state of ``game_id`` (``options``), set up from ``seed``, after ``moves`` steps of seeded
    random play (``Rng(seed)``; in a simultaneous step every seat to move acts)."""
    state = load_game(game_id, **options).new_initial_state(seed)
    rng = Rng(seed)
    for _ in range(moves):
        for seat in state.players_to_move():
            legal = state.legal_actions(seat)
            state.apply_action(legal[rng.randbelow(len(legal))], player=seat)
    return state


def explain(layout, a, b) -> str:
    """Where two observation tensors of ``layout`` first differ: the slice, the index in it, both values."""
    i = int(np.flatnonzero(a != b)[0])
    sl = next(x for x in layout if x.offset <= i < x.stop)
    return f"slice {sl.name} index {np.unravel_index(i - sl.offset, sl.shape)}: {a[i]} != {b[i]}"


def tensor_maxima(layout, states, seats):
    """Check every tensor of ``states`` seen by ``seats`` against ``layout``'s bounds (float32, its length,
    within each slice's low..high) and return the element-wise maximum seen, to show the slices are used."""
    low, high = layout.low(), layout.high()
    seen = np.full(layout.size, -np.inf, np.float32)
    for s in states:
        for seat in seats:
            t = s.observation_tensor(seat)
            assert t.dtype == np.float32 and t.shape == (layout.size,)
            bad = np.flatnonzero((t < low) | (t > high))
            assert not bad.size, explain(layout, t, np.clip(t, low, high))
            np.maximum(seen, t, out=seen)
    return seen
