"""The 2-player variant of The Capitals (HU "2 játékos szabályváltozat", IT "Variante 2 giocatori",
reference §8 "2-player rules")."""

import collections

import citygames
from citygames.core import Rng
from citygames.games.the_capitals.components import TYPE_NAMES, components

from capitals_helpers import GREEN, RED, Position, build, events, tourists

C = components()


def new(seed=1):
    return citygames.load_game("the_capitals", num_players=2).new_initial_state(seed=seed)


def test_setup_removes_one_tile_of_each_type_per_era():
    """IT: from each era deck discard one tile of each type (housing, industry, tourism, commerce,
    public); HU: 4 tiles are revealed in the projects area (2 + players, reference §8 / P7)."""
    s = new(3)
    for era, full in ((1, 27), (2, 27), (3, 24)):
        removed = s.removed[era]
        assert sorted(C.tiles[x].type_name for x in removed) == sorted(TYPE_NAMES[:5])
        in_area = len(s.projects[0]) if era == 1 else 0
        assert len(s.decks[era]) + in_area == full - 5
        assert not set(removed) & set(s.decks[era])
    assert len(s.projects[0]) == 4 and s.projects[1] == s.projects[2] == []


def test_only_the_first_four_initiative_spaces():
    """HU/IT: with 2 players use only the first 4 initiative spaces; setup puts the first player on
    space 2 and the other on space 3."""
    s = new(4)
    assert sorted(s.initiative) == [1, 2]
    assert s.game.politics_spaces == (0, 1, 2, 3)


def _tourism(pos, a_culture, b_culture, neutral):
    """The state after the tourism phase of ``pos`` (green leftmost, then red) with these cultures."""
    return (pos.seat(GREEN, culture=a_culture).seat(RED, culture=b_culture).set("neutral", neutral)
            .at("tourism").state())


def test_neutral_tourist_goes_to_the_higher_culture_city_and_neutral_loses_ties():
    """HU/IT: the neutral tourist always goes to the city with higher culture; the neutral culture
    marker loses every tie, so a city level with it keeps its own tourist."""
    a, b = GREEN, RED
    neutral = C.colors[C.neutral_color]
    s = _tourism(Position(2, seed=5).order(a, b), 4, 0, 0)   # b level with the neutral marker, which loses the tie
    assert s.highest_culture == a
    where = tourists(s)
    assert where[neutral][0] == "green"      # the neutral tourist is with the leader
    assert where["red"][0] == "red"          # b is not the lowest: the neutral marker is
    assert "neutral marker is lowest" in events(s, "tourism")[-1].text
    # now the neutral marker is ahead of b: b is the lowest city and loses its tourist
    s = _tourism(Position.of(s), 4, 0, 1)
    where = tourists(s)
    assert where["red"][0] == "green" and where[neutral][0] == "green"
    # b overtakes a: the leader changes and takes the neutral tourist and b's own back
    s = _tourism(Position.of(s), 4, 9, 1)
    where = tourists(s)
    assert s.highest_culture == b and where[neutral][0] == "red" and where["red"][0] == "red"
    assert where[neutral][1] is None         # placed beside the new leader's city


def test_neutral_marker_advances_at_the_start_of_each_administration_phase():
    """HU/IT: at the start of each administration phase the neutral culture marker advances 1."""
    s = new(6)
    rng = Rng(2)
    while s.round < 4:
        legal = s.legal_actions()
        s.apply_action(legal[rng.randbelow(len(legal))])
    # the neutral move opens each administration phase (before the construction tokens and the rows)
    kinds = [e.kind for e in s.log if e.kind in ("capitals.neutral", "capitals.token", "capitals.admin")]
    kinds = [k for k in kinds if k != "capitals.token"]
    assert kinds == ["capitals.neutral", "capitals.admin"] * 3
    assert [e.data["culture"] for e in s.log if e.kind == "capitals.neutral"] == [1, 2, 3]
    assert s.observation(None)["neutral"]["culture"] == 3
    assert [e.text for e in s.log if e.kind == "capitals.neutral"][0] == "The neutral culture marker advances to 1."


def test_titan_of_progress_counts_the_neutral_marker_ahead():
    """Titan of Progress (IT appendix: "gain 2 culture for every player marker ahead of yours on the
    culture track"): the neutral marker is one (board.yaml two_player.neutral_counts_as_marker_ahead).
    Green on culture 1 builds it with red on 5 and the neutral marker on 3 ahead: +3 printed, +2 x 2."""
    for neutral, ahead in ((3, 2), (0, 1)):
        s = (Position(2, seed=7).seat(GREEN, culture=1).seat(RED, culture=5).set("neutral", neutral)
             .building(GREEN, "titan_of_progress").state())
        build(s, "titan_of_progress", 0, 1)
        assert s.track(GREEN, "culture") == 1 + 3 + 2 * ahead


def test_resample_redraws_the_removed_tiles_consistently():
    """Resampling for a seat keeps every public fact: one removed tile of each type per era, the
    same set of unseen tiles, and identical observations."""
    s = new(8)
    rng = Rng(1)
    for _ in range(40):
        legal = s.legal_actions()
        s.apply_action(legal[rng.randbelow(len(legal))])
    counts = collections.Counter()
    for k in range(30):
        r = s.resample(0, Rng(k))
        assert r.observation(0) == s.observation(0)
        for era in (1, 2, 3):
            assert sorted(C.tiles[x].type for x in r.removed[era]) == sorted(C.tiles[x].type for x in s.removed[era])
            assert sorted(r.decks[era] + r.removed[era]) == sorted(s.decks[era] + s.removed[era])
        counts[tuple(r.removed[2])] += 1
    assert len(counts) > 1  # the hidden removals really are redrawn


def test_two_player_games_end_with_a_winner():
    g = citygames.load_game("the_capitals", num_players=2)
    rng = Rng(3)
    for seed in range(5):
        s = g.new_initial_state(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[rng.randbelow(len(legal))])
        assert sorted(s.returns()) == [0.0, 1.0]
        assert s.observation(None)["neutral"]["culture"] == 11  # +1 in each of the 11 administration phases
