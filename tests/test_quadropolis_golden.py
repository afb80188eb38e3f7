"""Golden playthroughs of Quadropolis (DESIGN.md "Tests"): seeded games recorded step by step (seat
to move, legal action ids and texts, the action applied, log events with their visibility, every
seat's and the spectator's observation, final scoring; see tests/golden/INDEX) must match the
stored texts.

``quadropolis_classic_4p_seed7.txt`` plays a Classic game at 4 players (every tile face up): the
four rounds, a tower stacked to a second floor, the mayor tower built (the Mayor changes hands and
starts the next round), buildings put back in the box, and the automatic end-of-game allocation.
``quadropolis_expert_2p_seed16.txt`` plays an Expert game at 2 players: five rounds, the shared
architect pool with #5, 4 x 5 cities with numbered districts, face-down tiles ("3-4" and "4"
markers) that architects point at and cannot take, a stack and the mayor tower.

The observations carry each seat's score as it stands, which comes from ``scoring.py``: a change of
the scoring (the exact allocation search replacing the stand-in) changes these files on purpose.
When a rule or a text changes on purpose, regenerate with ``bash scripts/regen_goldens.sh`` and
review the diff.
"""

import json

import pytest

from golden_helpers import check, event_texts, golden_names

#: per golden: sentences (parts of event texts) the game must log
EXPECTED_EVENTS = {
    "quadropolis_classic_4p_seed7.txt": ("Round 4 begins", "as floor 2", "takes the Mayor", "back in the box",
                                         "The game is over after round 4"),
    "quadropolis_expert_2p_seed16.txt": ("Round 5 begins", "architect #5", "a face-down tile", "as floor 2",
                                         "takes the Mayor", "The game is over after round 5"),
}


@pytest.mark.parametrize("name", golden_names("quadropolis"))
def test_golden(name):
    recorded = check(name)
    text = event_texts(recorded)
    for event in EXPECTED_EVENTS.get(name, ()):
        assert event in text
    # each golden plays to the end: every round dealt and closed, the game-end event last
    game = recorded.game
    rounds = game.board.rounds
    events = recorded.events()
    assert [json.loads(e.data)["round"] for e in events if e.kind == "quadropolis.round"] == list(range(1, rounds + 1))
    assert sum(e.kind == "quadropolis.round_end" for e in events) == rounds
    assert events[-1].kind == "quadropolis.game_end"
    n = game.num_players
    assert sum(e.kind == "quadropolis.take" for e in events) == rounds * 4 * n
    assert sorted(recorded.ranking) == list(range(n)) and sum(recorded.returns) == 1.0
    assert list(recorded.scores) == [sum(bd.values()) for bd in recorded.breakdowns]
    # every log event is public (the only hidden things, face-down tiles, are never logged)
    assert all(e.visible_to is None for e in events)


def test_face_down_tiles_are_never_logged():
    recorded = check("quadropolis_expert_2p_seed16.txt")
    events = [(e.kind, json.loads(e.data)) for e in recorded.events()]
    down = [d for kind, d in events if kind == "quadropolis.take" and d.get("why") == "face_down"]
    assert down and all(d["tile"] is None for d in down)
    for kind, d in events:
        if kind == "quadropolis.round":
            assert None in d["site"]   # 2 players: the "3-4" and "4" tiles stay face down


def test_the_two_modes_are_covered():
    names = golden_names("quadropolis")
    assert names == ["quadropolis_classic_4p_seed7.txt", "quadropolis_expert_2p_seed16.txt"]
    assert set(EXPECTED_EVENTS) == set(names)
