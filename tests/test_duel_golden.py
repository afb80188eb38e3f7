"""Golden playthroughs of 7 Wonders Duel (DESIGN.md "Tests"): seeded games recorded step by step
(seat to move, legal action ids and texts, the action applied, log events with their visibility,
both seats' and the spectator's observations, final scoring; see tests/golden/INDEX) must match
the stored texts.

Seed 7 plays the wonder draft and all three ages to a civilian victory at the end of Age III;
on the way seven wonders are built (the eighth leaves the game), the Mausoleum rebuilds a
discarded card, extra turns are played and both age starters are chosen. Seed 24 also ends
after Age III and adds a science pair taking a progress token (Economy, which then receives the
opponent's trading coins), the Great Library's private draw (seen by South only), a Circus
Maximus destruction, the Mausoleum and both military tokens of one side looted.

When a rule or a text changes on purpose, regenerate with ``bash scripts/regen_goldens.sh`` and
review the diff.
"""

import pytest

from golden_helpers import check, event_texts, golden_names

#: per golden: sentences (parts of event texts) the game must log
EXPECTED_EVENTS = {
    "seven_wonders_duel_seed7.txt": ("wins by civilian victory", "Age III begins.", "leaves the game",
                                     "(Mausoleum)"),
    "seven_wonders_duel_seed24.txt": ("progress token", "(Great Library)", "into the discard pile", "(Economy)",
                                      "(Mausoleum)", "to a military token", "wins by civilian"),
}


@pytest.mark.parametrize("name", golden_names("seven_wonders_duel"))
def test_golden(name):
    recorded = check(name)
    text = event_texts(recorded)
    for event in EXPECTED_EVENTS.get(name, ()):
        assert event in text
    assert recorded.outcome == "civilian"


def test_the_great_library_draw_is_private():
    recorded = check("seven_wonders_duel_seed24.txt")
    draws = [e for e in recorded.events() if e.kind == "duel.library_draw"]
    assert draws and all(e.visible_to == e.player == 1 for e in draws)


def test_every_expected_golden_is_listed():
    assert set(EXPECTED_EVENTS) <= set(golden_names("seven_wonders_duel"))
