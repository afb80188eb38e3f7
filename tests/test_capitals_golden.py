"""Golden playthrough of The Capitals (DESIGN.md "Tests"): one seeded 4-player game whose actions
are drawn from a seeded generator; its whole log and final scores must match the stored text.

Any rule change shows up here as a diff. When a rule is fixed on purpose, regenerate the file
with ``CITYGAMES_REGEN_GOLDEN=1 pytest tests/test_capitals_golden.py`` and review the diff.
"""

from golden_helpers import check, playthrough


def test_golden_4_players():
    check("the_capitals_4p_seed7.txt", "the_capitals", 7, num_players=4)


def test_golden_4_players_prosperity():
    check("the_capitals_4p_prosperity_seed5.txt", "the_capitals", 5, num_players=4, prosperity=True)


def test_golden_2_players():
    check("the_capitals_2p_seed3.txt", "the_capitals", 3, num_players=2)


def test_same_seed_same_log():
    assert playthrough("the_capitals", 11, num_players=3) == playthrough("the_capitals", 11, num_players=3)
