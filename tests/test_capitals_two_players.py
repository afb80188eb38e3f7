"""The 2-player variant of The Capitals (HU "2 játékos szabályváltozat", IT "Variante 2 giocatori",
reference §8 "2-player rules")."""

import collections

import citygames
from citygames.core import Rng
from citygames.games.the_capitals.components import CULTURE, TYPE_NAMES, components

from capitals_helpers import set_track

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
    assert sorted(s.space) == [1, 2]
    assert s.game.politics_spaces == (0, 1, 2, 3)


def _to_tourism(s):
    """Play random legal actions until the next tourism phase has just happened."""
    rng = Rng(9)
    start = len([e for e in s.log if e.kind == "capitals.tourism"])
    while len([e for e in s.log if e.kind == "capitals.tourism"]) == start:
        legal = s.legal_actions()
        s.apply_action(legal[rng.randbelow(len(legal))])


def test_neutral_tourist_goes_to_the_higher_culture_city_and_neutral_loses_ties():
    """HU/IT: the neutral tourist always goes to the city with higher culture; the neutral culture
    marker loses every tie, so a city level with it keeps its own tourist."""
    s = new(5)
    a, b = s.order
    set_track(s, a, CULTURE, 4)
    set_track(s, b, CULTURE, 0)
    s.neutral = 0  # level with b: the neutral marker loses the tie and is the lowest
    s._tourism()
    assert s.hc == a
    assert s.t_host[2] == a                  # the neutral tourist is with the leader
    assert s.t_host[b] == b                  # b is not the lowest: the neutral marker is
    assert "neutral marker is lowest" in s.log[-1].text
    # now the neutral marker is ahead of b: b is the lowest city and loses its tourist
    s.neutral = 1
    s._tourism()
    assert s.t_host[b] == a and s.t_host[2] == a
    # b overtakes a: the leader changes and takes the neutral tourist and b's own back
    set_track(s, b, CULTURE, 9)
    s._tourism()
    assert s.hc == b and s.t_host[2] == b and s.t_host[b] == b
    assert s.t_slot[2] == -1                 # placed beside the new leader's city


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
    assert s.neutral == 3
    assert [e.text for e in s.log if e.kind == "capitals.neutral"][0] == "The neutral culture marker advances to 1."


def test_titan_of_progress_counts_the_neutral_marker_ahead():
    """Titan of Progress: +2 culture per marker ahead on the culture track; the neutral marker is one
    (board.yaml two_player.neutral_counts_as_marker_ahead)."""
    s = new(7)
    p = s.order[0]
    set_track(s, p, CULTURE, 1)
    set_track(s, 1 - p, CULTURE, 5)
    s.neutral = 3
    titan = C.tile_by_id["titan_of_progress"]
    gains = dict(s._conditional_gains(p, titan.cond))
    assert gains == {CULTURE: 4}


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
