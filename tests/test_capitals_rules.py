"""Rule tests for The Capitals: one test per worked example of the rulebooks and the reference.

Sources: HU = shared/rulebooks/the_capitals.hu.txt, IT = shared/rulebooks/the_capitals.it_en.txt,
"ref §N" = shared/reference/the_capitals.md (§11 lists the worked examples, "ref ex. #k").
Every test sets up a situation in a seeded game (public actions where practical, the engine's
phase methods otherwise) and asserts what the engine does.
"""

from __future__ import annotations

import json

import pytest

import citygames
from citygames.games.the_capitals.components import (CUBES, CULTURE, EMP, LEVEL, MONEY, POP, PRESTIGE, PROG, PS,
                                                     components)
from citygames.games.the_capitals.state import (P_EXECUTIVE, P_EXPO, P_POLITICS, S_ACTIVATE, S_NONE, S_PAY, S_PLACE,
                                                S_POLITICS, S_TAKE, S_UPGRADE)

from capitals_helpers import (act, choose_space, drive, drive_to_politics, get, legal_args, new_state,
                              play_build, put, set_track, set_tracks, slot, tile, to_building, to_executive)

C = components()


# ==============================================================================================
# 1. Politics payment (HU "Politika fázis", IT "Fase Politica"; ref §2, ref ex. #2)
# ==============================================================================================
def test_politics_blue_from_3x4_to_space_4_pays_8():
    """HU/IT politics example (ref §2.1, ref §11 ex. #2): blue, leftmost on the $3/×4 space,
    moves to the 4th space ($2/×2) and pays $2 × 4 = $8."""
    s = new_state(4, seed=3)
    drive_to_politics(s, 2)
    blue = s.player
    assert s.c.colors[blue] == "blue"               # seed 3 makes blue the first player
    assert s.space[blue] == 1                     # the leftmost marker of round 1 is on space 2
    assert (C.init_cost[1], C.init_mult[1]) == (3, 4)
    assert (C.init_cost[3], C.init_mult[3]) == (2, 2)
    set_track(s, blue, MONEY, 20)
    assert s.politics_cost(blue, 3) == 8
    assert "pay $8" in s.action_to_string(act(s, "initiative", 3))
    assert choose_space(s, 3) == 8
    assert get(s, blue, MONEY) == 12
    assert s.log[-1].kind == "capitals.politics" and s.log[-1].text.endswith("pays $8.")
    assert s.score_breakdown(blue)["loans"] == 0  # no loan needed


def test_politics_five_players_round_2_rightmost_space_counts_x1():
    """HU/IT "FONTOS: 5 játékos esetén a 2. forduló..." (ref §2.1 5-player exception): in round 2
    the rightmost space ($0, ×2) counts ×1; from round 3 on it is ×2 again."""
    s = new_state(5, seed=4)
    drive_to_politics(s, 2)
    for p in range(5):
        set_track(s, p, MONEY, 40)
    last = s.order[-1]
    assert s.space[last] == 5 and C.init_mult[5] == 2
    # the first four choose spaces 1, 2, 5 and 6; the fourth one takes the rightmost space
    for space in (0, 1, 4):
        choose_space(s, space)
    rightmost_r2 = s.player
    choose_space(s, 5)
    assert s.player == last
    assert s.politics_cost(last, 2) == 2          # $2 × 1, not $2 × 2
    assert choose_space(s, 2) == 2
    # round 3: whoever sits on the rightmost space pays ×2 again
    drive_to_politics(s, 3)
    assert s.space[rightmost_r2] == 5
    for p in range(5):
        set_track(s, p, MONEY, 40)
    while s.player != rightmost_r2:
        choose_space(s, next(a for a in (0, 1, 4, 5) if a in legal_args(s, "initiative")))
    free = legal_args(s, "initiative")
    assert 2 in free
    assert choose_space(s, 2) == 4                # $2 × 2


def test_politics_usable_spaces_by_player_count():
    """HU politics "Megjegyzés"/"Fontos" (ref §2.1, §2.4): with 4 players the last space ($0, ×2,
    above the "5") cannot be chosen; with 3 players the space above the "4" can be chosen in the
    politics phase but not at setup."""
    s4 = new_state(4, seed=5)
    assert sorted(s4.space) == [1, 2, 3, 4]
    drive_to_politics(s4, 2)
    assert 5 not in legal_args(s4, "initiative")
    before = s4.to_dict()
    with pytest.raises(citygames.IllegalActionError, match="not usable with 4 players"):
        s4.apply_action(act(s4, "initiative", 5))
    assert s4.to_dict() == before

    s3 = new_state(3, seed=5)
    assert sorted(s3.space) == [1, 2, 3]          # setup never uses space 5 with 3 players
    drive_to_politics(s3, 2)
    assert legal_args(s3, "initiative") == [0, 1, 2, 3, 4]
    assert 5 not in legal_args(s3, "initiative")


# ==============================================================================================
# 2. Setup (HU "Alapjáték előkészületek", IT "Setup"; ref §2.1, ref ex. #1)
# ==============================================================================================
def test_setup_deduction_without_multiplier():
    """IT setup example (ref §11 ex. #1): a player on the $2/×3 space loses $2 (no multiplier);
    every player loses the $ above their marker."""
    start = C.track_start[MONEY]
    for n in (3, 4, 5):
        s = new_state(n, seed=n)
        on_2x3 = s.space.index(2)
        assert (C.init_cost[2], C.init_mult[2]) == (2, 3)
        assert get(s, on_2x3, MONEY) == start - 2
        first = s.order[0]
        assert get(s, first, MONEY) == start - 3      # the $3/×4 space: $3, not $12
        for p in range(n):
            assert get(s, p, MONEY) == start - C.init_cost[s.space[p]]
            assert get(s, p, PRESTIGE) == 0


def test_setup_initiative_and_projects_area():
    """HU setup: the first player goes on the second space from the left and the others fill the
    spaces to the right; 2 + players Era I tiles go next to the $0 row ("4 játékos esetén
    2+4=6 lapkát"), the $2 and $4 rows start empty."""
    for n in (3, 4, 5):
        s = new_state(n, seed=10 + n)
        assert [s.space[p] for p in s.order] == list(range(1, n + 1))
        assert s.player == s.order[0] and s.step == S_TAKE
        assert len(s.projects[0]) == 2 + n
        assert all(C.tiles[x].era == 1 for x in s.projects[0])
        assert s.projects[1] == [] and s.projects[2] == []
        assert len(legal_args(s, "take")) == 2 + n


# ==============================================================================================
# 3. Placement penalties (HU "Építési büntetés" example, IT "Regole di piazzamento" example)
# ==============================================================================================
def test_placement_penalties_market_science_center_magnificent_arch():
    """HU/IT placement example (ref §8 Phase 2): the Market, the city's first commerce tile, at a
    construction token: no penalty; the Science Center at a token but not next to a public tile
    (the city has one, the Train Station): -2; the Magnificent Arch neither at a token nor next to
    the city's other tourism tile (the Hotel): -4. Breaking a rule is a legal choice."""
    s = new_state(4, seed=1)
    p = s.order[0]
    set_track(s, p, MONEY, 40)
    put(s, p, "train_station", 1, 1)
    s.tokens[p][0] = s.game.slot_corners[slot(s, 0, 0)][0]      # token on the Hotel's top-left corner
    token_slots = set(s.game.isect_slots[s.tokens[p][0]]) | set(s.game.isect_slots[s.tokens[p][1]])

    def build(tile_id, x, y, penalty, rules):
        to_building(s, p, [tile_id])
        s.apply_action(act(s, "take", tile(tile_id)))
        assert s.step == S_PLACE
        a = act(s, "place", slot(s, x, y))
        assert a in s.legal_actions()
        assert s.broken_rules(p, tile(tile_id), slot(s, x, y)) == rules
        text = s.action_to_string(a)
        assert (f"{penalty} prestige" in text) if penalty else ("prestige" not in text)
        before = get(s, p, PRESTIGE)
        s.apply_action(a)
        assert get(s, p, PRESTIGE) - before == penalty

    assert slot(s, -1, -1) in token_slots
    build("market", -1, -1, 0, (False, False))
    assert slot(s, -1, 0) in token_slots
    build("science_center", -1, 0, -2, (False, True))
    assert slot(s, 2, 0) not in token_slots
    build("magnificent_arch", 2, 0, -4, (True, True))
    assert s.score_breakdown(p)["placement_penalties"] == -6


# ==============================================================================================
# Immediate and conditional effects (HU "Azonnali hatások" examples, IT "Effetto immediato")
# ==============================================================================================
def test_immediate_effect_example():
    """HU/IT immediate-effect example: the tile shown (+3 progress, +2 employment, -2 public
    service: Exxedout Oil Refinery in the IT appendix) moves the markers at once by those amounts."""
    s = new_state(4, seed=27)
    p = s.order[0]
    set_tracks(s, p, POP=5, EMP=1, PS=2, PROG=1)
    play_build(s, p, "exxedout_oil_refinery", 0, 1)
    assert (get(s, p, PROG), get(s, p, EMP), get(s, p, PS)) == (4, 3, 0)


def test_conditional_effect_counts_holding_without_spending_it():
    """HU/IT conditional-effect examples (ref §8 Phase 2): "for every 3 employment, +1 culture" at
    12 employment gives +4 culture and employment stays 12 (University); "for every 3 population,
    +2 culture" (Modern Dance Tribute) at 7 population gives +4 culture."""
    s = new_state(4, seed=28)
    p = s.order[0]
    set_tracks(s, p, POP=12, EMP=12)
    play_build(s, p, "university", 0, 1)
    assert get(s, p, CULTURE) == 4 and get(s, p, EMP) == 12
    s = new_state(4, seed=28)
    p = s.order[0]
    set_tracks(s, p, POP=7)
    play_build(s, p, "modern_dance_tribute", 0, 1)
    assert get(s, p, CULTURE) == 4 and get(s, p, POP) == 7


# ==============================================================================================
# 4. Public-service overflow (HU/IT hospital example; ref §3 overflow rule, ref ex. #9)
# ==============================================================================================
def test_public_service_overflow_gives_3_cubes_once_per_build():
    """HU/IT hospital example (ref §3.5, §11 ex. #9): red on public service 6 builds a +2 public
    service tile: +3 energy cubes at once, the marker stays on 6. The reward comes once per tile
    built however far the move would go (ref §3), and again on the next build."""
    s = new_state(4, seed=2)
    p = s.order[0]
    assert C.track_max[PS] == 6
    set_track(s, p, PS, 6)
    cubes = get(s, p, CUBES)
    play_build(s, p, "courthouse", 0, 1)                # Courthouse: +2 public service
    assert get(s, p, PS) == 6
    assert get(s, p, CUBES) == cubes + 3
    # the Doctor (+1 PS, +1 PS per adjacent housing, here 2) overflows three times in one build
    put(s, p, "dillon_residences", -1, 2)
    put(s, p, "the_villa", 1, 2)
    play_build(s, p, "doctor", 0, 2)
    assert get(s, p, PS) == 6
    assert get(s, p, CUBES) == cubes + 6


# ==============================================================================================
# 5. Construction effects (HU/IT "Építési hatás" examples; ref §8 Phase 2, §10.6)
# ==============================================================================================
def test_opera_house_counts_high_density_housing_in_the_city():
    """HU/IT construction-effect example (Opera House, ref §9.3, §10.6): +3 culture per
    high-density housing already in the city, and +3 again whenever a high-density housing is
    built later anywhere in the city; other densities do not count."""
    s = new_state(4, seed=6)
    p = s.order[0]
    put(s, p, "king_george_mansion", -1, -1)
    put(s, p, "davinci_estate", 2, 1)
    put(s, p, "tudor_townhouses", -1, 1)          # medium density: not counted
    play_build(s, p, "opera_house", 0, 1)
    assert get(s, p, CULTURE) == 2 + 2 * 3        # printed +2, then 2 high-density housing
    play_build(s, p, "victoria_terraces", 3, 1)   # high density, not adjacent to the Opera House
    assert get(s, p, CULTURE) == 8 + 3
    play_build(s, p, "dillon_residences", 1, 2)   # medium density
    assert get(s, p, CULTURE) == 11


def test_doctor_counts_adjacent_housing_now_and_later():
    """HU/IT adjacency construction effect (Doctor, IT appendix; HU "keretén nyilakkal"): +1 public
    service per adjacent housing when built; a later adjacent housing adds 1 more, a housing
    built elsewhere adds nothing."""
    s = new_state(4, seed=7)
    p = s.order[0]
    put(s, p, "dillon_residences", -1, -1)        # housing tiles without public-service effects
    put(s, p, "the_villa", 1, -1)
    play_build(s, p, "doctor", 0, -1)
    assert get(s, p, PS) == 1 + 2
    play_build(s, p, "harwood_heights", 0, -2)    # adjacent to the Doctor
    assert get(s, p, PS) == 4
    play_build(s, p, "legacy_park_homes", 2, 1)   # not adjacent
    assert get(s, p, PS) == 4


def test_heritage_windmill_and_brick_works_count_distinct_other_types():
    """IT appendix (Heritage Windmill, Brick Works: "each different type (color) of tile that is
    adjacent (do not count color of this tile)"; ref §9.3): each other type among the neighbours
    counts once; later a new type adjacent adds 1, a type already adjacent adds nothing."""
    s = new_state(4, seed=8)
    p = s.order[0]
    set_track(s, p, POP, 20)                      # employment is capped by population
    # neighbours of (0, -1): Hotel (tourism, same type), City Hall (public), housing, 2 industry
    put(s, p, "tudor_townhouses", -1, -1)
    put(s, p, "cog_factory", 1, -1)
    put(s, p, "barrel_factory", -1, 0)
    play_build(s, p, "heritage_windmill", 0, -1)
    assert get(s, p, CULTURE) == 2 + 3            # public, housing, industry
    play_build(s, p, "market", 0, -2)             # commerce: a new type next to it
    assert get(s, p, CULTURE) == 6
    play_build(s, p, "iron_foundry", 1, -2)       # industry: already next to it
    assert get(s, p, CULTURE) == 6

    s = new_state(4, seed=8)
    p = s.order[0]
    set_track(s, p, POP, 20)
    put(s, p, "cog_factory", 1, -1)               # same type as the Brick Works: not counted
    put(s, p, "market", -1, -1)
    emp = get(s, p, EMP)
    play_build(s, p, "brick_works", 0, -1)        # next to Hotel, City Hall, Cog Factory, Market
    assert get(s, p, EMP) - emp == 1 + 3          # printed +1; tourism, public, commerce


def test_botanical_gardens_counts_tiles_giving_exactly_3_progress_not_itself():
    """IT appendix Botanical Gardens (ref §9.5 list of exactly-3-progress tiles, §10.6 "counts
    the matching tiles already there"): +3 culture per other tile giving exactly 3 progress; the
    Gardens (itself a 3-progress tile) never count themselves; later 3-progress builds add 3."""
    s = new_state(4, seed=9)
    p = s.order[0]
    put(s, p, "cogswell_cogs", -1, -1)            # 3 progress
    put(s, p, "windsor_cottages", 2, 1)           # 3 progress
    put(s, p, "cole_harbor", -1, 1)               # 2 progress: not counted
    play_build(s, p, "botanical_gardens", 0, 1)
    assert get(s, p, CULTURE) == 2 * 3
    play_build(s, p, "harwood_heights", 3, 1)     # 3 progress, anywhere in the city
    assert get(s, p, CULTURE) == 9
    play_build(s, p, "the_villa", 1, 2)           # 2 progress
    assert get(s, p, CULTURE) == 9


# ==============================================================================================
# 6. Tourism (HU "Turizmus fázis", IT "Fase Turismo" example; ref §3.2, §8 Phase 3)
# ==============================================================================================
def _cultures(s, values):
    for p, v in enumerate(values):
        set_track(s, p, CULTURE, v)


def test_tourism_leader_past_14_takes_tourists_in_range_not_above():
    """IT tourism example (ref §11 ex. #12, §3.2): purple, past space 14 (attraction level 2), holds
    the Highest Culture token and takes the tourists of red, black and blue; green, above the range,
    keeps its tourist; red has reached level 1 itself, which does not help it. Built so that it does
    not depend on the <=9 / <=10 boundary: red 9, black 7, blue 4, green 13."""
    s = new_state(5, seed=12)
    green, red, blue, purple, black = range(5)
    assert s.c.colors[purple] == "purple"
    for p, v in ((green, 13), (red, 9), (blue, 4), (purple, 15), (black, 7)):
        set_track(s, p, CULTURE, v)
    s._tourism()
    assert s.hc == purple
    assert s.t_host == [green, purple, purple, purple, purple]
    assert s.t_slot == [-1] * 5                   # newly captured tourists sit beside the city


def test_tourism_lowest_city_always_loses_its_tourist_ties_by_money_then_initiative():
    """HU/IT tourism basic rule (ref §8 Phase 3) and the "Breaking Ties" box (IT, ref §10.3): below
    attraction level 1 only the single lowest-culture city loses its tourist to the leader; culture
    ties go to more money, then to the leftmost initiative marker."""
    s = new_state(4, seed=13)
    _cultures(s, [5, 3, 3, 1])
    s._tourism()
    assert s.hc == 0 and s.t_host == [0, 1, 2, 0]
    # lowest tie: the poorer city is lower
    s = new_state(4, seed=13)
    _cultures(s, [5, 3, 1, 1])
    set_track(s, 2, MONEY, 9)
    set_track(s, 3, MONEY, 8)
    s._tourism()
    assert s.t_host == [0, 1, 2, 0]
    # lowest tie with equal money: the marker further right on the initiative track is lower
    s = new_state(4, seed=13)
    _cultures(s, [5, 3, 1, 1])
    set_track(s, 2, MONEY, 8)
    set_track(s, 3, MONEY, 8)
    right = 2 if s.space[2] > s.space[3] else 3
    s._tourism()
    assert [q for q in range(4) if s.t_host[q] != q] == [right]
    # leader tie: the richer city holds the Highest Culture token and takes the tourist
    s = new_state(4, seed=13)
    _cultures(s, [6, 6, 3, 1])
    set_track(s, 0, MONEY, 5)
    set_track(s, 1, MONEY, 9)
    s._tourism()
    assert s.hc == 1 and s.t_host == [0, 1, 2, 1]


def test_tourism_leader_on_10_is_still_level_1():
    """HU "ha egy játékos jelölője a kultúra sáv 10. mezőjén van, az ugyan úgy 1-es szintű vonzerőnek
    számít" (ref §11 ex. #11): a leader on 10 keeps level 1 and takes the tourists at the bottom of
    the track (2 and 4: inside level 1 under both readings), not the city on 8."""
    s = new_state(4, seed=14)
    _cultures(s, [10, 2, 4, 8])
    s._tourism()
    assert s.t_host == [0, 0, 0, 3]
    s = new_state(4, seed=14)
    _cultures(s, [8, 2, 4, 6])                      # below space 9: only the lowest city
    s._tourism()
    assert s.t_host == [0, 0, 2, 3]


def test_tourism_level_3_takes_every_other_tourist():
    """HU/IT level 3 (ref §11 ex. #13, §3.2): a leader at 24 or more takes the tourists of all other
    players (every city at or below 23)."""
    s = new_state(5, seed=15)
    _cultures(s, [24, 23, 20, 12, 0])
    s._tourism()
    assert s.t_host == [0] * 5
    s = new_state(5, seed=15)
    _cultures(s, [23, 22, 20, 12, 0])               # level 2 only: 22, 20 and 12 keep theirs
    s._tourism()
    assert s.t_host == [0, 1, 2, 3, 0]


def test_tourism_repeated_situation_keeps_tourists_on_buildings_and_won_back_tourist_returns():
    """HU/IT tourism (ref §8 Phase 3, §10.2): if the situation repeats, tourists stay where they are,
    including those parked on the leader's buildings; a city that wins its tourist back puts it
    beside its own city; a captured tourist moved to a new leader goes beside that city."""
    s = new_state(4, seed=16)
    _cultures(s, [20, 13, 7, 4])
    s._tourism()
    assert s.t_host == [0, 1, 0, 0]
    # the leader uses both captured tourists on its Hotel in the executive phase
    to_executive(s, 0, acts=1)
    hotel = slot(s, 0, 0)
    s.apply_action(act(s, "activate", hotel))
    s.apply_action(act(s, "tourist", 2))
    s.apply_action(act(s, "tourist", 3))
    assert s.t_slot[2] == s.t_slot[3] == hotel
    _cultures(s, [20, 13, 7, 4])
    s._tourism()                                    # same situation: nothing moves
    assert s.t_host == [0, 1, 0, 0] and s.t_slot[2] == s.t_slot[3] == hotel
    _cultures(s, [20, 13, 12, 4])                   # city 2 leaves the range: it wins its tourist back
    s._tourism()
    assert s.t_host == [0, 1, 2, 0]
    assert s.t_slot[2] == -1 and s.t_slot[3] == hotel
    _cultures(s, [20, 21, 12, 4])                   # a new leader: city 3's tourist moves to it
    s._tourism()
    assert s.t_host == [0, 1, 2, 1] and s.t_slot[3] == -1


# ==============================================================================================
# 7. Activation costs (HU "Lapkák aktiválása", "Turisták használata"; IT "Fase Azioni"; ref §10.1)
# ==============================================================================================
def test_activation_cost_rises_with_cubes_on_the_tile():
    """HU/IT activation examples (ref §10.1, P7): a tile with 1 printed cube costs 1 + 1 = 2; after
    that its 2 cubes stay on it, so the second activation in the era costs 1 + 2 + 1 = 4."""
    s = new_state(4, seed=17)
    p = s.order[0]
    set_tracks(s, p, CULTURE=5, CUBES=10)
    to_executive(s, p, acts=2)
    hotel = slot(s, 0, 0)
    assert C.hotel.cubes == 1
    assert s.activation_cost(p, hotel) == 2
    s.apply_action(act(s, "activate", hotel))
    assert s.step == S_PAY and s.ctx_rem == 2        # the own tourist is offered; pay with cubes
    s.apply_action(act(s, "pay_cubes"))
    assert s.cubes_on[p][hotel] == 2 and get(s, p, CUBES) == 8
    assert s.activation_cost(p, hotel) == 4
    assert s.step == S_ACTIVATE
    s.apply_action(act(s, "activate", hotel))
    assert s.ctx_rem == 4
    s.apply_action(act(s, "pay_cubes"))
    assert s.cubes_on[p][hotel] == 6 and get(s, p, CUBES) == 4


def test_cubes_stay_on_buildings_between_rounds_of_an_era():
    """HU "az energia kockákat nem kell eltávolítani a normál körök végén" (ref §10.1): cubes on a
    building stay there at the end of a normal round, so they still raise its activation cost."""
    s = new_state(4, seed=26)
    p = s.order[0]
    hotel = slot(s, 0, 0)
    s.cubes_on[p][hotel] = 2
    drive(s, lambda st: st.round == 2 and st.phase == P_POLITICS, prefer=("end_activations", "decline"))
    assert s.cubes_on[p][hotel] == 2
    assert s.activation_cost(p, hotel) == 4


def test_tourist_counts_as_cube_and_cannot_pay_for_the_tile_it_started_on():
    """HU/IT green tourist example (ref §8 Phase 4, §10.2): a tourist counts as a cube on the tile
    it sits on; it can move to pay for another tile, but a tourist sitting on a tile at the start
    of the executive phase cannot help activate that tile (not offered as a legal payment)."""
    s = new_state(4, seed=18)
    p = s.order[0]
    hotel, hall = slot(s, 0, 0), slot(s, 1, 0)
    set_tracks(s, p, CULTURE=5, CUBES=2)
    s.cubes_on[p][hotel] = 1                        # green: 1 cube and its tourist from last round
    s.t_slot[p] = hotel
    assert s.activation_cost(p, hotel) == 1 + 1 + 1 + 1
    to_executive(s, p, acts=1)
    assert act(s, "activate", hotel) not in s.legal_actions()   # 4 > 2 cubes, its tourist cannot help
    assert act(s, "activate", hall) in s.legal_actions()
    s.apply_action(act(s, "activate", hall))         # City Hall costs 2: the tourist moves and pays 1
    assert s.step == S_PAY and legal_args(s, "tourist") == [p]
    s.apply_action(act(s, "tourist", p))
    s.apply_action(act(s, "pay_cubes"))
    assert s.t_slot[p] == hall and get(s, p, CUBES) == 1 and s.cubes_on[p][hall] == 1
    assert s.activation_cost(p, hotel) == 1 + 1 + 1  # the Hotel got cheaper


def test_tourist_on_the_tile_is_not_a_legal_payment_for_it():
    """IT "un segnalino turista non può mai attivare l'edificio su cui è presente all'inizio della
    fase Azioni" (ref §10.2): with enough cubes the tile can be activated, but its own tourist is
    not among the payments offered."""
    s = new_state(4, seed=19)
    p = s.order[0]
    hotel = slot(s, 0, 0)
    set_tracks(s, p, CULTURE=5, CUBES=9)
    s.t_slot[p] = hotel
    other = next(q for q in range(4) if q != p)
    s.t_host[other] = p                             # a second, captured tourist beside the city
    to_executive(s, p, acts=1)
    s.apply_action(act(s, "activate", hotel))        # cost 1 + 1 (its tourist) + 1 = 3
    assert s.step == S_PAY and s.ctx_rem == 3
    assert legal_args(s, "tourist") == [other]
    before = s.to_dict()
    with pytest.raises(citygames.IllegalActionError, match="not on this tile"):
        s.apply_action(act(s, "tourist", p))
    assert s.to_dict() == before


def test_moving_the_tourist_makes_the_first_tile_cheaper_with_a_second_activation():
    """HU/IT green example (ref §10.1, §10.2): green's 1-cube tile (Garden Gnome Mfg: -$6 -> +2
    employment) holds 1 cube and green's tourist from last round, so re-activating it costs 4 and
    the tourist cannot pay. With the Highest Culture token's extra activation green moves the
    tourist to pay for another tile, and the first tile then costs 3."""
    s = new_state(4, seed=25)
    green = 0
    gg = put(s, green, "garden_gnome_mfg", 0, -1)
    hall = slot(s, 1, 0)
    s.cubes_on[green][gg] = 1
    s.t_slot[green] = gg
    set_tracks(s, green, CUBES=4, CULTURE=5, POP=10, EMP=0, MONEY=20)
    s.hc = green                                    # green holds the Highest Culture token
    s.phase, s.turn, s.exec_active, s.step = P_EXECUTIVE, s.order.index(green), False, S_NONE
    s.t_used = [False] * 4
    s._advance()
    assert s.player == green and s.step == S_ACTIVATE
    assert s.acts_left == C.plants[s.plant[green]].activations + 1
    assert s.activation_cost(green, gg) == 4
    s.apply_action(act(s, "activate", hall))        # City Hall: 2 = the tourist + 1 cube
    s.apply_action(act(s, "tourist", green))
    s.apply_action(act(s, "pay_cubes"))
    assert s.activation_cost(green, gg) == 3
    assert s.step == S_ACTIVATE
    s.apply_action(act(s, "activate", gg))          # no usable tourist left: 3 cubes
    assert get(s, green, CUBES) == 0
    assert get(s, green, MONEY) == 14 and get(s, green, EMP) == 1 + 2


def test_generally_electrical_paid_with_two_tourists_and_one_cube():
    """HU/IT red tourist example (ref §9.4 Generally Electrical, 2 printed cubes): red holds its own
    and black's tourist; activating the 2-cube tile costs 3, paid with both tourists and 1 cube;
    red gains $9 and the tile's own permanent effect (+$6 per adjacent activation) does not fire."""
    s = new_state(5, seed=20)
    red, black = 1, 4
    ge = put(s, red, "generally_electrical", 0, -1)
    s.t_host[black] = red                           # black's tourist was captured by red
    set_tracks(s, red, CUBES=4, MONEY=10, CULTURE=5)
    to_executive(s, red, acts=2)
    assert s.activation_cost(red, ge) == 3
    s.apply_action(act(s, "activate", ge))
    assert s.step == S_PAY and sorted(legal_args(s, "tourist")) == [red, black]
    s.apply_action(act(s, "tourist", red))
    s.apply_action(act(s, "tourist", black))
    s.apply_action(act(s, "pay_cubes"))
    assert get(s, red, MONEY) == 10 + 9
    assert get(s, red, CUBES) == 3
    assert s.cubes_on[red][ge] == 1 and s.t_slot[red] == s.t_slot[black] == ge
    assert s.activation_cost(red, ge) == 2 + 3 + 1
    # its permanent effect helps only its neighbours: the adjacent Hotel's activation gets +$6
    s.apply_action(act(s, "activate", slot(s, 0, 0)))  # both tourists used: 2 cubes at once
    assert s.cubes_on[red][slot(s, 0, 0)] == 2
    assert get(s, red, MONEY) == 19 + 7 + 6


def test_jefferson_apartments_with_adjacent_museum_of_art():
    """HU/IT Jefferson Apartments example (ref §8 Phase 4): blue moves its tourist from the
    Convention Center above onto the Jefferson Apartments and adds 1 cube (cost 2); it loses 3
    culture and gains 2 population, then the adjacent Museum of Art gives back 2 culture."""
    s = new_state(5, seed=21)
    blue = 2
    cc = put(s, blue, "convention_center", 0, -2)
    ja = put(s, blue, "jefferson_apartments", 0, -1)
    put(s, blue, "museum_of_art", -1, -1)
    s.t_slot[blue] = cc
    set_tracks(s, blue, CULTURE=10, POP=3, CUBES=4)
    to_executive(s, blue, acts=1)
    assert s.activation_cost(blue, ja) == 2
    s.apply_action(act(s, "activate", ja))
    s.apply_action(act(s, "tourist", blue))
    s.apply_action(act(s, "pay_cubes"))
    assert get(s, blue, CULTURE) == 10 - 3 + 2
    assert get(s, blue, POP) == 5
    assert get(s, blue, CUBES) == 3 and s.t_slot[blue] == ja


# ==============================================================================================
# 8. Loans (HU/IT "Extra adózás akció"; ref §8 Extra taxation, ref ex. #10)
# ==============================================================================================
def test_loan_at_1_owing_11():
    """HU/IT loan example (ref §11 ex. #10): blue at $1 owing $11 borrows $12 (4 loans, -4 prestige)
    and ends at $2; IT: owing $14, enough loans to reach at least $15 first (5 loans, ends at $2)."""
    s = new_state(4, seed=22)
    p = 2
    set_track(s, p, MONEY, 1)
    s._pay(p, 11)
    assert get(s, p, MONEY) == 2
    assert get(s, p, PRESTIGE) == -4
    assert s.score_breakdown(p)["loans"] == -4
    # IT: "se sono necessari 14 dollari, ... ottenere $15 prima di dedurre il pagamento di $14"
    set_track(s, p, MONEY, 1)
    s._pay(p, 14)
    assert get(s, p, MONEY) == 2 and s.score_breakdown(p)["loans"] == -4 - 5


def test_magnificent_arch_from_the_2_row_at_1_dollar():
    """HU/IT Magnificent Arch example: blue at $1 buys the Arch from the $2 row (1 loan: $4, pays
    $2), builds it without penalty (+3 progress, -1 public service) and its mandatory -$12 -> +9
    culture needs 4 more loans: -5 prestige in all, blue ends at $2."""
    s = new_state(5, seed=23)
    blue = 2
    set_track(s, blue, MONEY, 1)
    to_building(s, blue, ["magnificent_arch"], row=1)
    assert "pay $2; 1 loan: -1 prestige" in s.action_to_string(act(s, "take", tile("magnificent_arch")))
    s.apply_action(act(s, "take", tile("magnificent_arch")))
    assert get(s, blue, MONEY) == 2 and get(s, blue, PRESTIGE) == -1
    assert s.log[-1].data["loans"] == 1 and "(1 loan, -1 prestige)" in s.log[-1].text
    a = act(s, "place", slot(s, 0, 1))               # at a token, next to the Hotel: no penalty
    assert s.broken_rules(blue, tile("magnificent_arch"), a.arg) == (False, False)
    s.apply_action(a)
    assert get(s, blue, MONEY) == 2
    assert get(s, blue, PRESTIGE) == -5
    assert s.score_breakdown(blue)["loans"] == -5
    assert get(s, blue, CULTURE) == 9 and get(s, blue, PS) == -1
    assert s.log[-1].kind == "capitals.build" and s.log[-1].data["loans"] == 4


def test_high_finance_square_at_1_dollar_gives_no_prestige():
    """HU/IT High Finance Square note: bought from the $0 row at $1 it gives +2 progress, +6 culture,
    -1 plant cube, but its "+1 prestige per $10" gives nothing: loans cannot reach a condition."""
    s = new_state(4, seed=24)
    p = s.order[0]
    set_tracks(s, p, MONEY=1, CUBES=4)
    play_build(s, p, "high_finance_square", 0, 1)
    assert get(s, p, PRESTIGE) == 0 and get(s, p, MONEY) == 1
    assert get(s, p, CULTURE) == 6 and get(s, p, CUBES) == 3
    # at $25 the same build scores 2 prestige and costs nothing (the holding is not spent)
    s = new_state(4, seed=24)
    p = s.order[0]
    set_tracks(s, p, MONEY=25)
    play_build(s, p, "high_finance_square", 0, 1)
    assert get(s, p, PRESTIGE) == 2 and get(s, p, MONEY) == 25


# ==============================================================================================
# 9. World Expo (HU "Világkiállítási értékelés", IT "Fase di valutazione mondiale"; ref §4, §5)
# ==============================================================================================
def test_expo_employment_space_scores_its_printed_value():
    """HU/IT Expo example: a marker on the green "+3" employment space scores +3 (the space values
    come from the board data, ref §3.3)."""
    s = new_state(4, seed=30)
    p = s.order[0]
    e = C.employment_prestige.index(3)
    set_tracks(s, p, EMP=e, POP=e)
    s._expo()
    assert s.score_breakdown(p)["expo_employment"] == 3
    assert s.score_breakdown(p)["expo_unemployment"] == 0


def test_expo_unemployment_penalty_and_cap():
    """HU Expo example "népesség szintje 10, a munkásoké 8 ... -2" (IT: 8 - 6; ref §4, §11 ex. #5
    and #6): unemployment 2 costs 2 prestige; a large gap costs at most 3."""
    s = new_state(4, seed=31)
    set_tracks(s, 0, POP=10, EMP=8)
    set_tracks(s, 1, POP=8, EMP=6)
    set_tracks(s, 2, POP=20, EMP=5)
    set_tracks(s, 3, POP=4, EMP=4)
    s._expo()
    assert [s.score_breakdown(p)["expo_unemployment"] for p in range(4)] == [-2, -2, -3, 0]


def test_expo_public_service_ranking_penalty():
    """HU Expo example (ref §11 ex. #7): green on public service 6, black on 4, purple on 2: green
    loses nothing, black -2, purple -4 (-2 per city strictly higher)."""
    s = new_state(5, seed=32)
    green, red, blue, purple, black = range(5)
    for p, v in ((green, 6), (black, 4), (purple, 2), (red, -3), (blue, -3)):
        set_track(s, p, PS, v)
    set_track(s, red, MONEY, 30)                    # red and blue are below, out of the way
    s._expo()
    got = {p: s.score_breakdown(p)["expo_public_service"] for p in range(5)}
    assert (got[green], got[black], got[purple]) == (0, -2, -4)
    assert (got[red], got[blue]) == (-6, -8)


def test_expo_public_service_ties_by_money_then_initiative():
    """HU/IT Expo public service ties (IT "quella più alta sul tracciato economico ... più a sinistra
    sulla pista iniziativa", ref §10.3): a tie on public service goes to more money, then to the
    leftmost initiative marker."""
    s = new_state(3, seed=33)
    for p in range(3):
        set_track(s, p, PS, 4)
    rich_left, rich_right = sorted((0, 1), key=lambda q: s.space[q])
    set_track(s, rich_left, MONEY, 12)
    set_track(s, rich_right, MONEY, 12)
    set_track(s, 2, MONEY, 11)
    s._expo()
    got = [s.score_breakdown(p)["expo_public_service"] for p in range(3)]
    assert got[rich_left] == 0 and got[rich_right] == -2 and got[2] == -4


def test_expo_public_service_level_3_moves_progress_by_1():
    """HU/IT Expo example (ref §11 ex. #8): a city on public-service level 3 moves 1 forward on the
    progress track."""
    s = new_state(4, seed=34)
    p = s.order[0]
    set_tracks(s, p, PS=3, PROG=2)
    s._expo()
    assert get(s, p, PROG) == 3


def test_expo_clears_cubes_on_buildings_but_not_plant_cubes_or_tourists():
    """HU "Energia kockák eltávolítása" / IT "Rimuovere i cubetti di energia" (ref §5 step 5): after
    the Expo all cubes on buildings go back to the supply; cubes on the power plants stay and
    tourists stay on their buildings."""
    s = new_state(4, seed=35)
    drive(s, lambda st: st.round == 4 and st.step == S_TAKE)
    hotel, hall = slot(s, 0, 0), slot(s, 1, 0)
    for p in range(4):
        set_tracks(s, p, PS=0, PROG=0, CUBES=5 + p)  # no progress moves (and so no upgrades)
        s.cubes_on[p] = {hotel: 2, hall: 3}
    s.t_host = [0, 1, 2, 0]
    s.t_slot = [hall, hotel, -1, hotel]
    # the round-4 executive and admin phases are over: the machine runs the Expo
    s.phase, s.expo_scored, s.step = P_EXPO, False, S_NONE
    s._advance()
    assert s.round == 5 and s.phase == P_POLITICS and s.step == S_POLITICS
    assert any(e.kind == "capitals.expo" for e in s.log)
    assert s.cubes_on == [{}, {}, {}, {}]
    assert [get(s, p, CUBES) for p in range(4)] == [5, 6, 7, 8]
    assert s.t_host == [0, 1, 2, 0] and s.t_slot == [hall, hotel, -1, hotel]


# ==============================================================================================
# 10. Era refill (IT "How many tiles to draw?" example; HU "Hány lapkát kell felcsapni?")
# ==============================================================================================
def test_era_change_refill_counts_only_current_era_tiles():
    """IT refill example (ref §8 Phase 5 step 4): in a 4-player game, at the end of round 4 no Era II
    tile is in the lower rows, so 6 are drawn; at the end of round 6, with 2 Era II tiles left in
    the lower rows, only 4 are drawn. Older-era tiles do not count and stay in the area until they
    are bought or shifted out of the $4 row; the Era I deck is discarded."""
    s = new_state(4, seed=36)
    era1 = [x for x in s.decks[1][:4]]
    s.projects = [[era1[0], era1[1]], [era1[2]], [era1[3]]]
    s.round = 4
    s._admin_projects()
    assert len(s.projects[0]) == 6 and all(C.tiles[x].era == 2 for x in s.projects[0])
    assert s.projects[1] == [era1[0], era1[1]] and s.projects[2] == [era1[2]]
    assert s.decks[1] == []
    # the older tiles can still be bought in round 5
    p = s.order[0]
    to_building(s, p)
    assert {era1[0], era1[1], era1[2]} <= set(legal_args(s, "take"))
    # end of round 6: two Era II tiles in the lower rows after the shift -> 4 drawn
    e2 = s.projects[0]
    s.projects = [[e2[0]], [e2[1]], [e2[2], era1[0]]]
    s.round = 6
    s._admin_projects()
    assert s.projects[1] == [e2[0]] and s.projects[2] == [e2[1]]
    assert len(s.projects[0]) == 4 and all(C.tiles[x].era == 2 for x in s.projects[0])


# ==============================================================================================
# 11. Final scoring (HU "A játék vége", IT "Punteggio finale"; ref §8 End of game, ex. #3, #4)
# ==============================================================================================
def test_final_scoring_cubes_money_culture_progress():
    """HU/IT final scoring examples (ref §11 ex. #3, #4): 9 cubes on the plant -> 2 prestige, $14 ->
    3, culture 21 -> 10, and 1 prestige per progress space beyond the upgrade space."""
    s = new_state(4, seed=40)
    p = s.order[0]
    pay = s.final_payment(p)
    set_tracks(s, p, CUBES=9, MONEY=14 + pay, CULTURE=21, PROG=2 * C.loop + 3)
    s._finish()
    b = s.score_breakdown(p)
    assert get(s, p, MONEY) == 14
    assert (b["energy_cubes"], b["money"], b["culture"], b["progress"]) == (2, 3, 10, 3)
    assert get(s, p, PRESTIGE) == 2 + 3 + 10 + 3
    assert s.is_terminal()


def test_final_payment_on_the_0_space_and_loans():
    """HU "A végső pontozás előtt": each player pays for its initiative space once more, borrowing if
    needed (ref §8 End of game, PROJECT DEFAULT: own $ x own multiplier): the $0 space pays
    nothing; a player short of money takes loans."""
    s = new_state(5, seed=41)
    zero = s.space.index(5)
    first = s.order[0]
    set_tracks(s, zero, MONEY=14)
    set_tracks(s, first, MONEY=1)
    pay = s.final_payment(first)
    assert pay > 0
    s._finish()
    assert get(s, zero, MONEY) == 14 and s.score_breakdown(zero)["money"] == 3
    assert s.score_breakdown(zero)["loans"] == 0
    k = -s.score_breakdown(first)["loans"]          # just enough loans to pay and keep $1..$3
    assert k > 0 and get(s, first, MONEY) == 1 + 3 * k - pay and 1 <= get(s, first, MONEY) <= 3


@pytest.mark.parametrize("case", ["cubes", "money", "initiative"])
def test_final_tie_breaks(case):
    """HU/IT final tie-break (ref §10.4): equal prestige -> most cubes left on the power plant, then
    the higher economy, then the leftmost initiative marker."""
    s = new_state(4, seed=42)
    for p in range(4):                              # after the final payment: $9, 4 cubes -> 3 prestige
        set_tracks(s, p, MONEY=9 + s.final_payment(p), CUBES=4, CULTURE=0, PROG=0)
    right = s.order[3]                              # the rightmost marker on the initiative track
    if case == "cubes":
        set_track(s, right, CUBES, 7)               # 7 cubes: still 1 prestige
        winner = right
    elif case == "money":
        set_track(s, right, MONEY, 11 + s.final_payment(right))   # $11: still 2 prestige
        winner = right
    else:
        winner = s.order[0]
    s._finish()
    assert len(set(s.scores())) == 1
    assert s.ranking()[0] == winner
    assert s.returns()[winner] == 1.0 and sum(s.returns()) == 1.0


# ==============================================================================================
# 12. Employment cap, power-plant upgrades, Park (HU "Munkás sáv", "Fejlődés sáv"; ref §3.3, §3.6, §6)
# ==============================================================================================
def test_employment_never_exceeds_population():
    """HU "Soha nem lehet magasabb a foglalkoztatás a munkás sávon, mint a város népessége" (ref
    §3.3): employment gains above the population are lost."""
    s = new_state(4, seed=50)
    p = s.order[0]
    set_tracks(s, p, POP=3, EMP=1)
    play_build(s, p, "cogswell_cogs", 0, 1)          # +4 employment
    assert get(s, p, EMP) == 3 and get(s, p, POP) == 3


def test_progress_past_upgrade_space_offers_upgrade_and_best_plant_goes_first():
    """HU "Fejlődés sáv" (ref §3.6, §6.1): reaching or passing the upgrade space lets the city
    upgrade its plant by one level (optional: a legal UPGRADE / DECLINE choice); the first city to
    reach a level takes the plant with the most cubes, the next city the next best; the cubes left
    on the old plant carry over."""
    s = new_state(4, seed=51)
    p, q = s.order[0], s.order[1]
    set_tracks(s, p, PROG=C.loop - 1, CUBES=3)
    to_building(s, p, ["steam_engine_plant"])       # +2 progress
    s.apply_action(act(s, "take", tile("steam_engine_plant")))
    s.apply_action(act(s, "place", slot(s, 0, 1)))
    assert s.step == S_UPGRADE and s.player == p
    assert sorted(a.kind for a in s.legal_actions()) == ["decline", "upgrade"]
    level2 = sorted((C.plants[i].cubes for i in s.game.plant_supply[2]), reverse=True)
    s.apply_action(act(s, "upgrade"))
    assert get(s, p, LEVEL) == 2
    assert get(s, p, CUBES) == 3 + level2[0]
    # the second city to reach level 2 gets the next best plant
    set_tracks(s, q, PROG=C.loop - 1, CUBES=0)
    to_building(s, q, ["iron_foundry"])             # +2 progress
    s.apply_action(act(s, "take", tile("iron_foundry")))
    s.apply_action(act(s, "place", slot(s, 0, 1)))
    assert s.step == S_UPGRADE and s.player == q
    s.apply_action(act(s, "upgrade"))
    assert get(s, q, LEVEL) == 2 and get(s, q, CUBES) == level2[1]
    assert s.plant[q] != s.plant[p]
    # and the third city the third best
    r = s.order[2]
    set_tracks(s, r, PROG=C.loop - 1, CUBES=0)
    to_building(s, r, ["cog_factory"])              # +1 progress: reaching the space is enough
    s.apply_action(act(s, "take", tile("cog_factory")))
    s.apply_action(act(s, "place", slot(s, 0, 1)))
    assert s.step == S_UPGRADE and s.player == r
    s.apply_action(act(s, "upgrade"))
    assert get(s, r, CUBES) == level2[2] < level2[0]


def test_declined_upgrade_and_park_bonus():
    """HU "Állandó hatás" example (Park, ref §9.3): each time the owner upgrades the power plant it
    gains 2 culture; declining the (optional) upgrade gives nothing and keeps the plant."""
    s = new_state(4, seed=52)
    p = s.order[0]
    put(s, p, "park", -1, 0)
    set_tracks(s, p, PROG=C.loop - 1)
    to_building(s, p, ["steam_engine_plant"])
    s.apply_action(act(s, "take", tile("steam_engine_plant")))
    s.apply_action(act(s, "place", slot(s, 0, 1)))
    assert s.step == S_UPGRADE
    s.apply_action(act(s, "decline"))
    assert get(s, p, LEVEL) == 1 and get(s, p, CULTURE) == 0
    set_tracks(s, p, PROG=2 * C.loop - 1)
    to_building(s, p, ["iron_foundry"])              # +2 progress
    s.apply_action(act(s, "take", tile("iron_foundry")))
    s.apply_action(act(s, "place", slot(s, 1, 1)))
    assert s.step == S_UPGRADE
    s.apply_action(act(s, "upgrade"))
    assert get(s, p, LEVEL) == 2 and get(s, p, CULTURE) == 2


# ==============================================================================================
# 13. Illegal actions (DESIGN.md "apply_action checks legality and leaves the state untouched")
# ==============================================================================================
def _assert_illegal(s, action, pattern):
    before = json.dumps(s.to_dict(), sort_keys=True)
    with pytest.raises(citygames.IllegalActionError, match=pattern):
        s.apply_action(action)
    assert json.dumps(s.to_dict(), sort_keys=True) == before


def test_illegal_actions_name_the_rule_and_change_nothing():
    """HU "Politika fázis" (a free space), "Épület fázis" (a tile from the projects area, an empty
    slot), "Lapkák aktiválása" (cost in cubes): illegal actions raise IllegalActionError naming the
    rule and leave the state unchanged."""
    s = new_state(4, seed=60)
    p = s.order[0]
    outside = next(x for x in s.decks[1] if x not in s.projects[0])
    _assert_illegal(s, act(s, "take", outside), "not in the projects area")
    _assert_illegal(s, act(s, "initiative", 0), "must take a tile")
    s.apply_action(act(s, "take", s.projects[0][0]))
    _assert_illegal(s, act(s, "place", slot(s, 0, 0)), "empty slot")
    _assert_illegal(s, act(s, "place", slot(s, 5, 5)), "empty slot")
    # an activation the city cannot pay for (its own tourist beside the city pays 1)
    s2 = new_state(4, seed=60)
    q = s2.order[0]
    set_tracks(s2, q, CULTURE=5, CUBES=1)
    put(s2, q, "generally_electrical", 0, -1)        # costs 3 > 1 cube + 1 tourist
    to_executive(s2, q, acts=1)
    _assert_illegal(s2, act(s2, "activate", slot(s2, 0, -1)), "costs 3 cubes")
    _assert_illegal(s2, act(s2, "activate", slot(s2, 4, 4)), "no tile of yours")
    # a taken initiative space
    s3 = new_state(4, seed=60)
    drive_to_politics(s3, 2)
    for p in range(4):
        set_track(s3, p, MONEY, 30)
    choose_space(s3, 0)
    _assert_illegal(s3, act(s3, "initiative", 0), "already taken")


# ==============================================================================================
# 14. Construction tokens, the no-activation reward, Convention Center, the refill variant
# ==============================================================================================
def test_surrounded_construction_token_may_move_to_a_perimeter_corner():
    """HU "Építésjelzők" / IT "Segnalini costruzione": in the administration phase a token whose 4
    slots are all built may move to a corner on the city's perimeter; one with an empty slot may not."""
    from citygames.games.the_capitals.state import P_ADMIN, S_TOKEN

    s = new_state(3, seed=2)
    p = s.order[-1]
    put(s, p, "market", 0, -1)      # the token on corner (1, 0) touches (0,-1) (1,-1) (0,0) (1,0)
    put(s, p, "baker", 1, -1)
    s.phase, s.turn, s.token_k, s.step, s._legal = P_ADMIN, 0, 0, S_NONE, None
    s._advance()
    assert s.player == p and s.step == S_TOKEN and s.ctx_slot == 0   # only the surrounded token asks
    dests = {s.game.corner_xy(a.arg) for a in s.legal_actions() if a.kind == "move_token"}
    assert (1, 0) not in dests and (1, 1) not in dests               # not its own corner, not the other token
    # the city is the 2x2 block (0,-1)..(1,0): its corners that still touch an empty slot
    assert dests == {(0, -1), (1, -1), (2, -1), (0, 0), (2, 0), (0, 1), (2, 1)}
    assert {a.kind for a in s.legal_actions()} == {"move_token", "decline"}
    before = s.to_dict()
    s.apply_action(act(s, "move_token", _corner(s, 2, -1)))
    assert s.tokens[p][0] == _corner(s, 2, -1)
    assert "moves a construction token to corner (2, -1)" in [e for e in s.log if e.kind == "capitals.token"][-1].text
    assert before["tokens"][p][0] != s.tokens[p][0]


def test_a_token_may_also_stay():
    """HU: the token "may" move (áthelyezheti): declining keeps it where it is."""
    from citygames.games.the_capitals.state import P_ADMIN, S_TOKEN

    s = new_state(3, seed=2)
    p = s.order[0]
    put(s, p, "market", 0, -1)
    put(s, p, "baker", 1, -1)
    old = s.tokens[p][0]
    s.phase, s.turn, s.token_k, s.step, s._legal = P_ADMIN, 0, 0, S_NONE, None
    s._advance()
    assert s.step == S_TOKEN and s.player == p
    s.apply_action(act(s, "decline"))
    assert s.tokens[p][0] == old
    assert s.round == 2  # administration went on to the next round


def _corner(s, x: int, y: int) -> int:
    g = s.c.grid
    o = g // 2
    return (y + o) * (g + 1) + x + o


def test_no_activation_reward_only_when_passing_every_activation():
    """HU/IT Phase 4: a city that makes no activation gains 1 cube (reference §8 PROJECT DEFAULT
    for the missing icon); a city that activated gets nothing extra."""
    s = new_state(3, seed=5)
    p = s.order[0]
    to_executive(s, p, acts=2)
    cubes = get(s, p, CUBES)
    s.apply_action(act(s, "end_activations"))
    assert get(s, p, CUBES) == cubes + 1
    assert s.log[-1].kind == "capitals.no_activation"
    q = s.order[1]
    to_executive(s, q, acts=2)
    s.t_host = list(range(s.n))
    s.t_used = [True] * s.n                         # no tourist to pay with: cubes only
    set_track(s, q, CUBES, 5)
    s._legal = None
    s.apply_action(act(s, "activate", slot(s, 0, 0)))   # the Hotel: 1 printed + 1 = 2 cubes
    s.apply_action(act(s, "end_activations"))
    assert get(s, q, CUBES) == 3


def test_convention_center_activates_an_adjacent_tile_for_free():
    """IT appendix, Convention Center: "Activate to activate any adjacent card for free"; reference
    §10.8 PROJECT DEFAULT: no cubes, no activation used, permanent effects fire; the player picks."""
    s = new_state(3, seed=6)
    p = s.order[0]
    put(s, p, "convention_center", 0, 1)           # below the Hotel, diagonal to the City Hall
    to_executive(s, p, acts=1)
    s.t_used = [True] * s.n
    set_track(s, p, CUBES, 4)
    set_track(s, p, CULTURE, 3)
    money = get(s, p, MONEY)
    s._legal = None
    s.apply_action(act(s, "activate", slot(s, 0, 1)))   # 1 printed + 1 = 2 cubes
    targets = {s.game.xy(a.arg) for a in s.legal_actions() if a.kind == "free_activate"}
    assert targets == {(0, 0), (1, 0)}             # the Hotel and the City Hall
    assert "decline" in {a.kind for a in s.legal_actions()}
    s.apply_action(act(s, "free_activate", slot(s, 0, 0)))
    assert get(s, p, MONEY) == money + 7 and get(s, p, CULTURE) == 2
    assert get(s, p, CUBES) == 2                   # only the Convention Center's 2 cubes were spent
    assert s.cubes_on[p].get(slot(s, 0, 0), 0) == 0
    assert "for free" in [e for e in s.log if e.kind == "capitals.activate"][-1].text


@pytest.mark.parametrize("variant, drawn", [(False, 4), (True, 6)])
def test_refill_variant(variant, drawn):
    """HU "A játék vége", Játékvariáns: with the variant the $0 row is filled to 2 + players
    regardless of the other rows; normally current-era tiles in every row count (IT example)."""
    g = citygames.load_game("the_capitals", num_players=4, refill_variant=variant)
    s = g.new_initial_state(3)
    row0 = s.projects[0]
    s.projects = [[], row0[:2], []]                # two Era I tiles left on the $2 row
    s._refill(1)
    assert len(s.projects[0]) == drawn
