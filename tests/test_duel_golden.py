"""Golden playthrough of 7 Wonders Duel (DESIGN.md "Tests"): one seeded game whose actions are drawn
from a seeded generator; its whole log (every event, the Great Library's private draw included)
and final scores must match the stored text.

Seed 7 plays the wonder draft and all three ages to a civilian victory at the end of Age III;
on the way seven wonders are built (the eighth leaves the game), the Mausoleum rebuilds a
discarded card, extra turns are played and both age starters are chosen. Seed 24 also ends
after Age III and adds a science pair taking a progress token (Economy, which then receives the
opponent's trading coins), the Great Library's private draw, a Circus Maximus destruction, the
Mausoleum and both military tokens of one side looted.

Any rule or log-sentence change shows up here as a diff. When one is made on purpose, regenerate
the files with ``CITYGAMES_REGEN_GOLDEN=1 pytest tests/test_duel_golden.py`` and review the diff.
"""

from golden_helpers import check, playthrough


def test_golden_seed7():
    text = check("seven_wonders_duel_seed7.txt", "seven_wonders_duel", 7)
    assert "wins by civilian victory" in text
    assert "Age III begins." in text and "leaves the game" in text and "(Mausoleum)" in text


def test_golden_seed24():
    text = check("seven_wonders_duel_seed24.txt", "seven_wonders_duel", 24)
    for event in ("progress token", "(Great Library)", "into the discard pile", "(Economy)", "(Mausoleum)",
                  "to a military token", "wins by civilian"):
        assert event in text


def test_same_seed_same_log():
    assert playthrough("seven_wonders_duel", 11) == playthrough("seven_wonders_duel", 11)
