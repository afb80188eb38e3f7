"""The Capitals: heuristic evaluation for the greedy bot (placeholder, replaced below)."""

from __future__ import annotations

from .components import NT, PRESTIGE


def evaluate(state, player: int) -> float:
    return float(state.t[player * NT + PRESTIGE])
