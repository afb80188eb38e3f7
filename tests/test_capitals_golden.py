"""Golden playthroughs of The Capitals (DESIGN.md "Tests"): seeded games (4 players, 4 players
with Prosperity, 2 players; see tests/golden/INDEX) recorded step by step (seat to move, legal
action ids and texts, the action applied, log events, every seat's and the spectator's
observation, final scoring) must match the stored texts.

Any change of a rule, an action id or text, a log event or an observation shows up here as a
report naming the first differing step. When one is made on purpose, regenerate with
``bash scripts/regen_goldens.sh`` and review the diff.
"""

import pytest

from golden_helpers import check, golden_names


@pytest.mark.parametrize("name", golden_names("the_capitals"))
def test_golden(name):
    recorded = check(name)
    # each golden plays to the end: every seat is scored and the game-end event comes last
    n = recorded.game.num_players
    assert sorted(e.player for e in recorded.events() if e.kind == "capitals.final_scoring") == list(range(n))
    assert recorded.events()[-1].kind == "capitals.game_end"
    assert sorted(recorded.ranking) == list(range(n)) and sum(recorded.returns) == 1.0


def test_the_three_variants_are_covered():
    assert golden_names("the_capitals") == ["the_capitals_4p_seed7.txt", "the_capitals_4p_prosperity_seed5.txt",
                                            "the_capitals_2p_seed3.txt"]
