"""Golden playthrough of The Capitals (DESIGN.md "Tests"): one seeded 4-player game whose actions
are drawn from a seeded generator; its whole log and final scores must match the stored text.

Any rule change shows up here as a diff. When a rule is fixed on purpose, regenerate the file
with ``CITYGAMES_REGEN_GOLDEN=1 pytest tests/test_capitals_golden.py`` and review the diff.
"""

import os
from pathlib import Path

import citygames
from citygames.core import Rng

GOLDEN = Path(__file__).parent / "golden"


def playthrough(players: int, seed: int, **options) -> str:
    game = citygames.load_game("the_capitals", num_players=players, **options)
    state = game.new_initial_state(seed=seed)
    rng = Rng(seed)
    lines = []
    shown = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[rng.randbelow(len(legal))]
        lines.append(f"> {state.action_to_string(action)}")
        state.apply_action(action)
        lines.extend(e.text for e in state.log[shown:])
        shown = len(state.log)
    lines.append(f"scores {state.scores()} ranking {state.ranking()}")
    for p in range(players):
        lines.append(f"seat {p}: {state.score_breakdown(p)}")
    return "\n".join(lines) + "\n"


def check(name: str, players: int, seed: int, **options):
    text = playthrough(players, seed, **options)
    path = GOLDEN / name
    if os.environ.get("CITYGAMES_REGEN_GOLDEN"):
        path.write_text(text)
    expected = path.read_text()
    assert text.splitlines() == expected.splitlines()


def test_golden_4_players():
    check("the_capitals_4p_seed7.txt", 4, 7)


def test_golden_4_players_prosperity():
    check("the_capitals_4p_prosperity_seed5.txt", 4, 5, prosperity=True)


def test_golden_2_players():
    check("the_capitals_2p_seed3.txt", 2, 3)


def test_same_seed_same_log():
    assert playthrough(3, 11) == playthrough(3, 11)
