"""Golden playthroughs of Between Two Cities (DESIGN.md "Tests"): seeded games recorded step by step
(the seats to move, every mover's legal action ids and texts, the action applied with its seat, log
events with their visibility, every seat's and the spectator's observation, final scoring; see
tests/golden/INDEX) must match the stored texts.

``between_two_cities_4p_seed3.txt`` plays a base game at 4 players (rounds 1-3, hands passed left
then right, the last tile of each hand discarded, duplexes in round 2); ``between_two_cities_2p_seed5.txt``
the 2-player variant (each round twice, two cities per player, the sum of both);
``between_two_cities_5p_capitals_seed8.txt`` a Capitals game at 5 players (landscape mats, civic
buildings, 9-tile hands, district scoring). Choices made in secret are stored as ``[seat, id]``
pairs, and the files show that no seat sees another's pending choice.

When a rule or a text changes on purpose, regenerate with ``bash scripts/regen_goldens.sh`` and
review the diff.
"""

import pytest

from golden_helpers import check, event_texts, golden_names

#: per golden: sentences (parts of event texts) the game must log
EXPECTED_EVENTS = {
    "between_two_cities_4p_seed3.txt": ("Round 1 begins", "Round 2 begins", "Round 3 begins", "Revealed",
                                        "The game is over"),
    "between_two_cities_2p_seed5.txt": ("Round 1a begins", "Round 3b begins", "Revealed", "The game is over"),
    "between_two_cities_5p_capitals_seed8.txt": ("Round 1 begins", "draws 9 tiles", "Revealed", "The game is over"),
}


@pytest.mark.parametrize("name", golden_names("between_two_cities"))
def test_golden(name):
    recorded = check(name)
    text = event_texts(recorded)
    for sentence in EXPECTED_EVENTS[name]:
        assert sentence in text, sentence
    game = recorded.game
    n = game.num_players
    events = recorded.events()
    assert events[-1].kind == "between_two_cities.game_end"
    # every city ends complete: 16 squares (Capitals: 20 tiles around the mat), so every seat placed
    # 2 tiles per turn of round 1 and 3 and one duplex per city in round 2
    singles = sum(e.kind == "between_two_cities.place" for e in events)
    duplexes = sum(e.kind == "between_two_cities.place_duplex" for e in events)
    cities = 2 * n if n == 2 else n
    per_city = 16 if not game.capitals else 20
    assert singles + 2 * duplexes == cities * per_city
    assert duplexes == 2 * cities
    assert sorted(recorded.ranking) == list(range(n)) and abs(sum(recorded.returns) - 1.0) < 1e-9
    assert list(recorded.scores) == [sum(bd.values()) for bd in recorded.breakdowns]
    # the secret choices are never logged as they are made: every log event is public
    assert all(e.visible_to is None for e in events)


def test_the_variants_are_covered():
    names = golden_names("between_two_cities")
    assert set(EXPECTED_EVENTS) == set(names) and len(names) == 3


def test_secret_choices_are_made_by_every_seat_and_shown_only_to_their_seat():
    recorded = check("between_two_cities_4p_seed3.txt")
    secret = [st for st in recorded.steps[1:] if st.applied[2].startswith(("choose", "discard"))]
    assert {st.applied[0] for st in secret} == {0, 1, 2, 3}
    for st in secret:
        if len(st.movers) == 1:
            continue    # the last choice reveals them all
        seat = st.applied[0]
        for heading, lines in st.observations:
            if heading != f"seat {seat}":
                assert not any(line.lstrip().startswith("pending") for line in lines), (st.number, heading)
        own = dict(st.observations).get(f"seat {seat}", ())
        assert any(line.lstrip().startswith("pending") for line in own), st.number
