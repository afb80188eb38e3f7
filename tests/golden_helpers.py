"""Golden playthroughs (DESIGN.md "Tests"): one seeded game whose actions are drawn from a seeded
generator; its whole log (setup included) and final scores are compared with a stored text.

When a rule or sentence changes on purpose, regenerate with ``CITYGAMES_REGEN_GOLDEN=1 pytest
tests/test_<game>_golden.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import citygames
from citygames.core import Rng

GOLDEN = Path(__file__).parent / "golden"


def playthrough(game_id: str, seed: int, **options) -> str:
    """The game's log as text: every event, each action as ``> text``, then scores and breakdowns."""
    game = citygames.load_game(game_id, **options)
    state = game.new_initial_state(seed=seed)
    rng = Rng(seed)
    lines = [e.text for e in state.log]
    shown = len(state.log)
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[rng.randbelow(len(legal))]
        lines.append(f"> {state.action_to_string(action)}")
        state.apply_action(action)
        lines.extend(e.text for e in state.log[shown:])
        shown = len(state.log)
    lines.append(f"scores {state.scores()} ranking {state.ranking()} returns {state.returns()}")
    for p in range(game.num_players):
        lines.append(f"seat {p}: {state.score_breakdown(p)}")
    return "\n".join(lines) + "\n"


def check(name: str, game_id: str, seed: int, **options) -> str:
    """Assert the playthrough equals ``tests/golden/<name>`` (written instead when regenerating)."""
    text = playthrough(game_id, seed, **options)
    path = GOLDEN / name
    if os.environ.get("CITYGAMES_REGEN_GOLDEN"):
        path.write_text(text)
    assert text.splitlines() == path.read_text().splitlines()
    return text
