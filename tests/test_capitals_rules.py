"""Rule tests for The Capitals: one test per worked example of the rulebooks and the reference.

Sources: HU = shared/rulebooks/the_capitals.hu.txt, IT = shared/rulebooks/the_capitals.it_en.txt,
"ref §N" = shared/reference/the_capitals.md (§11 lists the worked examples, "ref ex. #k").
Every test writes the position it needs in the position notation (``Position`` in
``capitals_helpers``; the spec is ``citygames/games/the_capitals/position.py``), plays public actions
and reads the result through the state's public methods.
"""

from __future__ import annotations

import json

import pytest

import citygames
from citygames.games.the_capitals.components import MONEY, PS, components

from capitals_helpers import (BLACK, BLUE, GREEN, PURPLE, RED, Position, act, build, choose_space, city_cubes, drive,
                              drive_to_politics, events, hosts, legal_args, new_state, pending, play_build, slot, tile,
                              tourists, tracks)

C = components()


# ==============================================================================================
# 1. Politics payment (HU "Politika fázis", IT "Fase Politica"; ref §2, ref ex. #2)
# ==============================================================================================
def test_politics_blue_from_3x4_to_space_4_pays_8():
    """HU/IT politics example (ref §2.1, ref §11 ex. #2): blue, leftmost on the $3/×4 space,
    moves to the 4th space ($2/×2) and pays $2 × 4 = $8."""
    s = (Position(4, seed=3).order(BLUE, GREEN, RED, PURPLE).seat(BLUE, money=20)
         .at("politics", BLUE, "politics", round=2).state())
    assert s.observation(None)["players"][BLUE]["initiative_space"] == 2   # the leftmost marker of round 1
    assert (C.init_cost[1], C.init_mult[1]) == (3, 4)
    assert (C.init_cost[3], C.init_mult[3]) == (2, 2)
    assert s.politics_cost(BLUE, 3) == 8
    assert "pay $8" in s.action_to_string(act(s, "initiative", 3))
    assert choose_space(s, 3) == 8
    assert s.track(BLUE, "money") == 12
    assert s.log[-1].kind == "capitals.politics" and s.log[-1].text.endswith("pays $8.")
    assert s.score_breakdown(BLUE)["loans"] == 0  # no loan needed


def test_politics_five_players_round_2_rightmost_space_counts_x1():
    """HU/IT "FONTOS: 5 játékos esetén a 2. forduló..." (ref §2.1 5-player exception): in round 2
    the rightmost space ($0, ×2) counts ×1; from round 3 on it is ×2 again."""
    s = (Position(5, seed=4).order(GREEN, RED, BLUE, PURPLE, BLACK).seats(money=40)
         .at("politics", GREEN, "politics", round=2).state())
    last = BLACK
    assert s.initiative[last] == 5 and C.init_mult[5] == 2
    # the first four choose spaces 1, 2, 5 and 6; the fourth one takes the rightmost space
    for space in (0, 1, 4):
        choose_space(s, space)
    rightmost_r2 = s.current_player()
    choose_space(s, 5)
    assert s.current_player() == last
    assert s.politics_cost(last, 2) == 2          # $2 × 1, not $2 × 2
    assert choose_space(s, 2) == 2
    # round 3: whoever sits on the rightmost space pays ×2 again
    drive_to_politics(s, 3)
    assert s.initiative[rightmost_r2] == 5
    s = Position.of(s).seats(money=40).state()
    while s.current_player() != rightmost_r2:
        choose_space(s, next(a for a in (0, 1, 4, 5) if a in legal_args(s, "initiative")))
    assert 2 in legal_args(s, "initiative")
    assert choose_space(s, 2) == 4                # $2 × 2


def test_politics_usable_spaces_by_player_count():
    """HU politics "Megjegyzés"/"Fontos" (ref §2.1, §2.4): with 4 players the last space ($0, ×2,
    above the "5") cannot be chosen; with 3 players the space above the "4" can be chosen in the
    politics phase but not at setup."""
    s4 = new_state(4, seed=5)
    assert sorted(s4.initiative) == [1, 2, 3, 4]
    drive_to_politics(s4, 2)
    assert 5 not in legal_args(s4, "initiative")
    before = s4.to_dict()
    with pytest.raises(citygames.IllegalActionError, match="not usable with 4 players"):
        s4.apply_action(act(s4, "initiative", 5))
    assert s4.to_dict() == before

    s3 = new_state(3, seed=5)
    assert sorted(s3.initiative) == [1, 2, 3]     # setup never uses space 5 with 3 players
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
        on_2x3 = s.initiative.index(2)
        assert (C.init_cost[2], C.init_mult[2]) == (2, 3)
        assert s.track(on_2x3, "money") == start - 2
        first = s.order[0]
        assert s.track(first, "money") == start - 3      # the $3/×4 space: $3, not $12
        for p in range(n):
            assert s.track(p, "money") == start - C.init_cost[s.initiative[p]]
            assert s.track(p, "prestige") == 0


def test_setup_initiative_and_projects_area():
    """HU setup: the first player goes on the second space from the left and the others fill the
    spaces to the right; 2 + players Era I tiles go next to the $0 row ("4 játékos esetén
    2+4=6 lapkát"), the $2 and $4 rows start empty."""
    for n in (3, 4, 5):
        s = new_state(n, seed=10 + n)
        assert [s.initiative[p] for p in s.order] == list(range(1, n + 1))
        assert s.current_player() == s.order[0] and s.expects().endswith("take a tile from the projects area")
        projects = s.observation(None)["projects"]
        assert len(projects[0]) == 2 + n
        assert all(C.tile_by_id[x].era == 1 for x in projects[0])
        assert projects[1] == [] and projects[2] == []
        assert len(legal_args(s, "take")) == 2 + n


# ==============================================================================================
# 3. Placement penalties (HU "Építési büntetés" example, IT "Regole di piazzamento" example)
# ==============================================================================================
def test_placement_penalties_market_science_center_magnificent_arch():
    """HU/IT placement example (ref §8 Phase 2): the Market, the city's first commerce tile, at a
    construction token: no penalty; the Science Center at a token but not next to a public tile
    (the city has one, the Train Station): -2; the Magnificent Arch neither at a token nor next to
    the city's other tourism tile (the Hotel): -4. Breaking a rule is a legal choice."""
    pos = (Position(4, seed=1).order(GREEN, RED, BLUE, PURPLE).seat(GREEN, money=40)
           .city(GREEN, "train_station@1,1")
           .set("green tokens", "0,0 1,1"))                # a token on the Hotel's top-left corner
    s = pos.state()
    g = s.game
    token_slots = {q for corner in ((0, 0), (1, 1)) for q in g.isect_slots[g.corner_at(*corner)]}

    def build_one(s, tile_id, x, y, penalty, rules):
        s = Position.of(s).building(GREEN, tile_id).state()
        s.apply_action(act(s, "take", tile(tile_id)))
        assert s.expects().endswith("choose where to build the tile")
        a = act(s, "place", slot(s, x, y))
        assert a in s.legal_actions()
        assert s.broken_rules(GREEN, tile(tile_id), slot(s, x, y)) == rules
        text = s.action_to_string(a)
        assert (f"{penalty} prestige" in text) if penalty else ("prestige" not in text)
        before = s.track(GREEN, "prestige")
        s.apply_action(a)
        assert s.track(GREEN, "prestige") - before == penalty
        return s

    assert slot(s, -1, -1) in token_slots
    s = build_one(s, "market", -1, -1, 0, (False, False))
    assert slot(s, -1, 0) in token_slots
    s = build_one(s, "science_center", -1, 0, -2, (False, True))
    assert slot(s, 2, 0) not in token_slots
    s = build_one(s, "magnificent_arch", 2, 0, -4, (True, True))
    assert s.score_breakdown(GREEN)["placement_penalties"] == -6


# ==============================================================================================
# Immediate and conditional effects (HU "Azonnali hatások" examples, IT "Effetto immediato")
# ==============================================================================================
def test_immediate_effect_example():
    """HU/IT immediate-effect example: the tile shown (+3 progress, +2 employment, -2 public
    service: Exxedout Oil Refinery in the IT appendix) moves the markers at once by those amounts."""
    s = (Position(4, seed=27).seat(GREEN, population=5, employment=1, public_service=2, progress=1)
         .building(GREEN, "exxedout_oil_refinery").state())
    build(s, "exxedout_oil_refinery", 0, 1)
    assert tracks(s, GREEN, "progress", "employment", "public_service") == (4, 3, 0)


def test_conditional_effect_counts_holding_without_spending_it():
    """HU/IT conditional-effect examples (ref §8 Phase 2): "for every 3 employment, +1 culture" at
    12 employment gives +4 culture and employment stays 12 (University); "for every 3 population,
    +2 culture" (Modern Dance Tribute) at 7 population gives +4 culture."""
    s = Position(4, seed=28).seat(GREEN, population=12, employment=12).building(GREEN, "university").state()
    build(s, "university", 0, 1)
    assert tracks(s, GREEN, "culture", "employment") == (4, 12)
    s = Position(4, seed=28).seat(GREEN, population=7).building(GREEN, "modern_dance_tribute").state()
    build(s, "modern_dance_tribute", 0, 1)
    assert tracks(s, GREEN, "culture", "population") == (4, 7)


# ==============================================================================================
# 4. Public-service overflow (HU/IT hospital example; ref §3 overflow rule, ref ex. #9)
# ==============================================================================================
def test_public_service_overflow_gives_3_cubes_once_per_build():
    """HU/IT hospital example (ref §3.5, §11 ex. #9): red on public service 6 builds a +2 public
    service tile: +3 energy cubes at once, the marker stays on 6. The reward comes once per tile
    built however far the move would go (ref §3), and again on the next build."""
    assert C.track_max[PS] == 6
    s = Position(4, seed=2).seat(RED, public_service=6).building(RED, "courthouse").state()
    cubes = s.track(RED, "cubes")
    build(s, "courthouse", 0, 1)                       # Courthouse: +2 public service
    assert s.track(RED, "public_service") == 6
    assert s.track(RED, "cubes") == cubes + 3
    # the Doctor (+1 PS, +1 PS per adjacent housing, here 2) overflows three times in one build
    s = (Position.of(s).city(RED, "dillon_residences@-1,2", "the_villa@1,2")
         .building(RED, "doctor").state())
    build(s, "doctor", 0, 2)
    assert s.track(RED, "public_service") == 6
    assert s.track(RED, "cubes") == cubes + 6


# ==============================================================================================
# 5. Construction effects (HU/IT "Építési hatás" examples; ref §8 Phase 2, §10.6)
# ==============================================================================================
def test_opera_house_counts_high_density_housing_in_the_city():
    """HU/IT construction-effect example (Opera House, ref §9.3, §10.6): +3 culture per
    high-density housing already in the city, and +3 again whenever a high-density housing is
    built later anywhere in the city; other densities do not count."""
    s = (Position(4, seed=6)
         .city(GREEN, "king_george_mansion@-1,-1", "davinci_estate@2,1",
               "tudor_townhouses@-1,1")                 # medium density: not counted
         .building(GREEN, "opera_house").state())
    build(s, "opera_house", 0, 1)
    assert s.track(GREEN, "culture") == 2 + 2 * 3      # printed +2, then 2 high-density housing
    s = play_build(s, GREEN, "victoria_terraces", 3, 1)   # high density, not adjacent to the Opera House
    assert s.track(GREEN, "culture") == 8 + 3
    s = play_build(s, GREEN, "dillon_residences", 1, 2)   # medium density
    assert s.track(GREEN, "culture") == 11


def test_doctor_counts_adjacent_housing_now_and_later():
    """HU/IT adjacency construction effect (Doctor, IT appendix; HU "keretén nyilakkal"): +1 public
    service per adjacent housing when built; a later adjacent housing adds 1 more, a housing
    built elsewhere adds nothing."""
    s = (Position(4, seed=7)
         .city(GREEN, "dillon_residences@-1,-1", "the_villa@1,-1")   # housing without public-service effects
         .building(GREEN, "doctor").state())
    build(s, "doctor", 0, -1)
    assert s.track(GREEN, "public_service") == 1 + 2
    s = play_build(s, GREEN, "harwood_heights", 0, -2)    # adjacent to the Doctor
    assert s.track(GREEN, "public_service") == 4
    s = play_build(s, GREEN, "legacy_park_homes", 2, 1)   # not adjacent
    assert s.track(GREEN, "public_service") == 4


def test_heritage_windmill_and_brick_works_count_distinct_other_types():
    """IT appendix (Heritage Windmill, Brick Works: "each different type (color) of tile that is
    adjacent (do not count color of this tile)"; ref §9.3): each other type among the neighbours
    counts once; later a new type adjacent adds 1, a type already adjacent adds nothing."""
    # neighbours of (0, -1): Hotel (tourism, same type), City Hall (public), housing, 2 industry
    s = (Position(4, seed=8).seat(GREEN, population=20)     # employment is capped by population
         .city(GREEN, "tudor_townhouses@-1,-1", "cog_factory@1,-1", "barrel_factory@-1,0")
         .building(GREEN, "heritage_windmill").state())
    build(s, "heritage_windmill", 0, -1)
    assert s.track(GREEN, "culture") == 2 + 3            # public, housing, industry
    s = play_build(s, GREEN, "market", 0, -2)             # commerce: a new type next to it
    assert s.track(GREEN, "culture") == 6
    s = play_build(s, GREEN, "iron_foundry", 1, -2)       # industry: already next to it
    assert s.track(GREEN, "culture") == 6

    s = (Position(4, seed=8).seat(GREEN, population=20)
         .city(GREEN, "cog_factory@1,-1",                   # same type as the Brick Works: not counted
               "market@-1,-1")
         .building(GREEN, "brick_works").state())
    emp = s.track(GREEN, "employment")
    build(s, "brick_works", 0, -1)                        # next to Hotel, City Hall, Cog Factory, Market
    assert s.track(GREEN, "employment") - emp == 1 + 3    # printed +1; tourism, public, commerce


def test_botanical_gardens_counts_tiles_giving_exactly_3_progress_not_itself():
    """IT appendix Botanical Gardens (ref §9.5 list of exactly-3-progress tiles, §10.6 "counts
    the matching tiles already there"): +3 culture per other tile giving exactly 3 progress; the
    Gardens (itself a 3-progress tile) never count themselves; later 3-progress builds add 3."""
    s = (Position(4, seed=9)
         .city(GREEN, "cogswell_cogs@-1,-1", "windsor_cottages@2,1",   # 3 progress each
               "cole_harbor@-1,1")                                    # 2 progress: not counted
         .building(GREEN, "botanical_gardens").state())
    build(s, "botanical_gardens", 0, 1)
    assert s.track(GREEN, "culture") == 2 * 3
    s = play_build(s, GREEN, "harwood_heights", 3, 1)     # 3 progress, anywhere in the city
    assert s.track(GREEN, "culture") == 9
    s = play_build(s, GREEN, "the_villa", 1, 2)           # 2 progress
    assert s.track(GREEN, "culture") == 9


# ==============================================================================================
# 6. Tourism (HU "Turizmus fázis", IT "Fase Turismo" example; ref §3.2, §8 Phase 3)
# ==============================================================================================
def _tourism(pos, cultures, **money):
    """The state after the tourism phase of ``pos`` with these cultures (one per seat) and money
    (``red=9``): the machine runs the phase and stops at the executive phase's first decision."""
    for p, v in enumerate(cultures):
        pos.seat(p, culture=v)
    for name, v in money.items():
        pos.seat(name, money=v)
    return pos.at("tourism").state()


def test_tourism_leader_past_14_takes_tourists_in_range_not_above():
    """IT tourism example (ref §11 ex. #12, §3.2): purple, past space 14 (attraction level 2), holds
    the Highest Culture token and takes the tourists of red, black and blue; green, above the range,
    keeps its tourist; red has reached level 1 itself, which does not help it. Built so that it does
    not depend on the <=9 / <=10 boundary: red 9, black 7, blue 4, green 13."""
    s = _tourism(Position(5, seed=12), [13, 9, 4, 15, 7])
    assert s.highest_culture == PURPLE
    assert hosts(s) == [GREEN, PURPLE, PURPLE, PURPLE, PURPLE]
    assert all(on is None for _, on, _ in tourists(s).values())   # newly captured tourists sit beside the city


def test_tourism_lowest_city_always_loses_its_tourist_ties_by_money_then_initiative():
    """HU/IT tourism basic rule (ref §8 Phase 3) and the "Breaking Ties" box (IT, ref §10.3): below
    attraction level 1 only the single lowest-culture city loses its tourist to the leader; culture
    ties go to more money, then to the leftmost initiative marker."""
    def pos():
        return Position(4, seed=13).order(GREEN, RED, BLUE, PURPLE)

    s = _tourism(pos(), [5, 3, 3, 1])
    assert s.highest_culture == GREEN and hosts(s) == [0, 1, 2, 0]
    # lowest tie: the poorer city is lower
    s = _tourism(pos(), [5, 3, 1, 1], blue=9, purple=8)
    assert hosts(s) == [0, 1, 2, 0]
    s = _tourism(pos(), [5, 3, 1, 1], blue=8, purple=9)
    assert hosts(s) == [0, 1, 0, 3]
    # lowest tie with equal money: the marker further right on the initiative track is lower
    s = _tourism(pos(), [5, 3, 1, 1], blue=8, purple=8)
    assert [q for q in range(4) if hosts(s)[q] != q] == [PURPLE]
    s = _tourism(pos().order(GREEN, RED, PURPLE, BLUE), [5, 3, 1, 1], blue=8, purple=8)
    assert [q for q in range(4) if hosts(s)[q] != q] == [BLUE]
    # leader tie: the richer city holds the Highest Culture token and takes the tourist
    s = _tourism(pos(), [6, 6, 3, 1], green=5, red=9)
    assert s.highest_culture == RED and hosts(s) == [0, 1, 2, 1]


def test_tourism_leader_on_10_is_still_level_1():
    """HU "ha egy játékos jelölője a kultúra sáv 10. mezőjén van, az ugyan úgy 1-es szintű vonzerőnek
    számít" (ref §11 ex. #11): a leader on 10 keeps level 1 and takes the tourists at the bottom of
    the track (2 and 4: inside level 1 under both readings), not the city on 8."""
    s = _tourism(Position(4, seed=14), [10, 2, 4, 8])
    assert hosts(s) == [0, 0, 0, 3]
    s = _tourism(Position(4, seed=14), [8, 2, 4, 6])      # below space 9: only the lowest city
    assert hosts(s) == [0, 0, 2, 3]


def test_tourism_level_3_takes_every_other_tourist():
    """HU/IT level 3 (ref §11 ex. #13, §3.2): a leader at 24 or more takes the tourists of all other
    players (every city at or below 23)."""
    s = _tourism(Position(5, seed=15), [24, 23, 20, 12, 0])
    assert hosts(s) == [0] * 5
    s = _tourism(Position(5, seed=15), [23, 22, 20, 12, 0])    # level 2 only: 22, 20 and 12 keep theirs
    assert hosts(s) == [0, 1, 2, 3, 0]


def test_tourism_repeated_situation_keeps_tourists_on_buildings_and_won_back_tourist_returns():
    """HU/IT tourism (ref §8 Phase 3, §10.2): if the situation repeats, tourists stay where they are,
    including those parked on the leader's buildings; a city that wins its tourist back puts it
    beside its own city; a captured tourist moved to a new leader goes beside that city."""
    s = _tourism(Position(4, seed=16).order(GREEN, RED, BLUE, PURPLE), [20, 13, 7, 4])
    assert hosts(s) == [0, 1, 0, 0]
    # the leader uses both captured tourists on its Hotel in its executive turn, which comes first
    assert s.current_player() == GREEN and s.expects().endswith("activate a tile or end activations")
    s.apply_action(act(s, "activate", slot(s, 0, 0)))
    s.apply_action(act(s, "tourist", BLUE))
    s.apply_action(act(s, "tourist", PURPLE))
    where = tourists(s)
    assert where["blue"][1] == where["purple"][1] == (0, 0)
    s = _tourism(Position.of(s), [20, 13, 7, 4])          # same situation: nothing moves
    where = tourists(s)
    assert hosts(s) == [0, 1, 0, 0] and where["blue"][1] == where["purple"][1] == (0, 0)
    s = _tourism(Position.of(s), [20, 13, 12, 4])         # blue leaves the range: it wins its tourist back
    where = tourists(s)
    assert hosts(s) == [0, 1, 2, 0]
    assert where["blue"][1] is None and where["purple"][1] == (0, 0)
    s = _tourism(Position.of(s), [20, 21, 12, 4])         # a new leader: purple's tourist moves to it
    assert hosts(s) == [0, 1, 2, 1] and tourists(s)["purple"][1] is None


# ==============================================================================================
# 7. Activation costs (HU "Lapkák aktiválása", "Turisták használata"; IT "Fase Azioni"; ref §10.1)
# ==============================================================================================
def test_activation_cost_rises_with_cubes_on_the_tile():
    """HU/IT activation examples (ref §10.1, P7): a tile with 1 printed cube costs 1 + 1 = 2; after
    that its 2 cubes stay on it, so the second activation in the era costs 1 + 2 + 1 = 4."""
    s = Position(4, seed=17).seat(GREEN, culture=5, cubes=10).executive(GREEN, activations=2).state()
    hotel = slot(s, 0, 0)
    assert C.hotel.cubes == 1
    assert s.activation_cost(GREEN, hotel) == 2
    s.apply_action(act(s, "activate", hotel))
    assert pending(s)["remaining_cost"] == 2          # the own tourist is offered; pay with cubes
    s.apply_action(act(s, "pay_cubes"))
    assert city_cubes(s, GREEN) == {(0, 0): 2} and s.track(GREEN, "cubes") == 8
    assert s.activation_cost(GREEN, hotel) == 4
    assert s.expects().endswith("activate a tile or end activations")
    s.apply_action(act(s, "activate", hotel))
    assert pending(s)["remaining_cost"] == 4
    s.apply_action(act(s, "pay_cubes"))
    assert city_cubes(s, GREEN) == {(0, 0): 6} and s.track(GREEN, "cubes") == 4


def test_cubes_stay_on_buildings_between_rounds_of_an_era():
    """HU "az energia kockákat nem kell eltávolítani a normál körök végén" (ref §10.1): cubes on a
    building stay there at the end of a normal round, so they still raise its activation cost."""
    s = Position(4, seed=26).set("green city", "hotel@0,0+2 city_hall@1,0").state()
    drive(s, lambda st: st.round == 2 and st.expects().startswith("politics"),
          prefer=("end_activations", "decline"))
    assert city_cubes(s, GREEN)[0, 0] == 2
    assert s.activation_cost(GREEN, slot(s, 0, 0)) == 4


def test_tourist_counts_as_cube_and_cannot_pay_for_the_tile_it_started_on():
    """HU/IT green tourist example (ref §8 Phase 4, §10.2): a tourist counts as a cube on the tile
    it sits on; it can move to pay for another tile, but a tourist sitting on a tile at the start
    of the executive phase cannot help activate that tile (not offered as a legal payment)."""
    pos = (Position(4, seed=18).seat(GREEN, culture=5, cubes=2)
           .set("green city", "hotel@0,0+1 city_hall@1,0")   # 1 cube and its tourist from last round
           .set("tourists", "green@green:0,0"))
    s = pos.state()
    hotel, hall = slot(s, 0, 0), slot(s, 1, 0)
    assert s.activation_cost(GREEN, hotel) == 1 + 1 + 1 + 1
    s = pos.executive(GREEN, activations=1).state()
    assert act(s, "activate", hotel) not in s.legal_actions()   # 4 > 2 cubes, its tourist cannot help
    assert act(s, "activate", hall) in s.legal_actions()
    s.apply_action(act(s, "activate", hall))            # City Hall costs 2: the tourist moves and pays 1
    assert s.expects().endswith("pay the activation") and legal_args(s, "tourist") == [GREEN]
    s.apply_action(act(s, "tourist", GREEN))
    s.apply_action(act(s, "pay_cubes"))
    assert tourists(s)["green"][1] == (1, 0) and s.track(GREEN, "cubes") == 1
    assert city_cubes(s, GREEN)[1, 0] == 1
    assert s.activation_cost(GREEN, hotel) == 1 + 1 + 1  # the Hotel got cheaper


def test_tourist_on_the_tile_is_not_a_legal_payment_for_it():
    """IT "un segnalino turista non può mai attivare l'edificio su cui è presente all'inizio della
    fase Azioni" (ref §10.2): with enough cubes the tile can be activated, but its own tourist is
    not among the payments offered."""
    s = (Position(4, seed=19).seat(GREEN, culture=5, cubes=9)
         .set("tourists", "green@green:0,0 red@green")      # a second, captured tourist beside the city
         .executive(GREEN, activations=1).state())
    s.apply_action(act(s, "activate", slot(s, 0, 0)))     # cost 1 + 1 (its tourist) + 1 = 3
    assert s.expects().endswith("pay the activation") and pending(s)["remaining_cost"] == 3
    assert legal_args(s, "tourist") == [RED]
    before = s.to_dict()
    with pytest.raises(citygames.IllegalActionError, match="not on this tile"):
        s.apply_action(act(s, "tourist", GREEN))
    assert s.to_dict() == before


def test_moving_the_tourist_makes_the_first_tile_cheaper_with_a_second_activation():
    """HU/IT green example (ref §10.1, §10.2): green's 1-cube tile (Garden Gnome Mfg: -$6 -> +2
    employment) holds 1 cube and green's tourist from last round, so re-activating it costs 4 and
    the tourist cannot pay. With the Highest Culture token's extra activation green moves the
    tourist to pay for another tile, and the first tile then costs 3."""
    s = (Position(4, seed=25).seat(GREEN, cubes=4, culture=5, population=10, employment=0, money=20)
         .city(GREEN, "garden_gnome_mfg@0,-1+1")
         .set("tourists", "green@green:0,-1")
         .set("highest culture", "green")                 # green holds the Highest Culture token
         .executive(GREEN).state())
    gg, hall = slot(s, 0, -1), slot(s, 1, 0)
    assert pending(s)["activations_left"] == s.observation(None)["players"][GREEN]["plant"]["activations"] + 1
    assert s.activation_cost(GREEN, gg) == 4
    s.apply_action(act(s, "activate", hall))            # City Hall: 2 = the tourist + 1 cube
    s.apply_action(act(s, "tourist", GREEN))
    s.apply_action(act(s, "pay_cubes"))
    assert s.activation_cost(GREEN, gg) == 3
    assert s.expects().endswith("activate a tile or end activations")
    s.apply_action(act(s, "activate", gg))              # no usable tourist left: 3 cubes
    assert s.track(GREEN, "cubes") == 0
    assert tracks(s, GREEN, "money", "employment") == (14, 1 + 2)


def test_generally_electrical_paid_with_two_tourists_and_one_cube():
    """HU/IT red tourist example (ref §9.4 Generally Electrical, 2 printed cubes): red holds its own
    and black's tourist; activating the 2-cube tile costs 3, paid with both tourists and 1 cube;
    red gains $9 and the tile's own permanent effect (+$6 per adjacent activation) does not fire."""
    s = (Position(5, seed=20).seat(RED, cubes=4, money=10, culture=5)
         .city(RED, "generally_electrical@0,-1")
         .set("tourists", "black@red")                       # black's tourist was captured by red
         .executive(RED, activations=2).state())
    ge = slot(s, 0, -1)
    assert s.activation_cost(RED, ge) == 3
    s.apply_action(act(s, "activate", ge))
    assert s.expects().endswith("pay the activation") and sorted(legal_args(s, "tourist")) == [RED, BLACK]
    s.apply_action(act(s, "tourist", RED))
    s.apply_action(act(s, "tourist", BLACK))
    s.apply_action(act(s, "pay_cubes"))
    assert s.track(RED, "money") == 10 + 9
    assert s.track(RED, "cubes") == 3
    where = tourists(s)
    assert city_cubes(s, RED)[0, -1] == 1 and where["red"][1] == where["black"][1] == (0, -1)
    assert s.activation_cost(RED, ge) == 2 + 3 + 1
    # its permanent effect helps only its neighbours: the adjacent Hotel's activation gets +$6
    s.apply_action(act(s, "activate", slot(s, 0, 0)))   # both tourists used: 2 cubes at once
    assert city_cubes(s, RED)[0, 0] == 2
    assert s.track(RED, "money") == 19 + 7 + 6


def test_jefferson_apartments_with_adjacent_museum_of_art():
    """HU/IT Jefferson Apartments example (ref §8 Phase 4): blue moves its tourist from the
    Convention Center above onto the Jefferson Apartments and adds 1 cube (cost 2); it loses 3
    culture and gains 2 population, then the adjacent Museum of Art gives back 2 culture."""
    s = (Position(5, seed=21).seat(BLUE, culture=10, population=3, cubes=4)
         .city(BLUE, "jefferson_apartments@0,-1", "convention_center@0,-2", "museum_of_art@-1,-1")
         .set("tourists", "blue@blue:0,-2")
         .executive(BLUE, activations=1).state())
    ja = slot(s, 0, -1)
    assert s.activation_cost(BLUE, ja) == 2
    s.apply_action(act(s, "activate", ja))
    s.apply_action(act(s, "tourist", BLUE))
    s.apply_action(act(s, "pay_cubes"))
    assert s.track(BLUE, "culture") == 10 - 3 + 2
    assert s.track(BLUE, "population") == 5
    assert s.track(BLUE, "cubes") == 3 and tourists(s)["blue"][1] == (0, -1)


# ==============================================================================================
# 8. Loans (HU/IT "Extra adózás akció"; ref §8 Extra taxation, ref ex. #10)
# ==============================================================================================
def test_loan_at_1_owing_11():
    """HU/IT loan example (ref §11 ex. #10): blue at $1 owing $11 borrows $12 (4 loans, -4 prestige)
    and ends at $2; IT: owing $14, enough loans to reach at least $15 first (5 loans, ends at $2).
    No single payment of the game is $11 or $14, so the same shortfalls are made with initiative
    payments from $2 (a city must keep $1): $12 (the $3 space from a ×4 space) is short by $11, $15
    (the $3 space from the ×5 space) by $14."""
    s = (Position(4, seed=22).order(BLUE, GREEN, RED, PURPLE).seat(BLUE, money=2)
         .at("politics", BLUE, "politics", round=2).state())
    assert s.politics_cost(BLUE, 1) == 12
    choose_space(s, 1)
    assert s.track(BLUE, "money") == 2
    assert s.track(BLUE, "prestige") == -4
    assert s.score_breakdown(BLUE)["loans"] == -4
    assert s.log[-1].data["loans"] == 4
    # IT: "se sono necessari 14 dollari, ... ottenere $15 prima di dedurre il pagamento di $14"
    s = (Position(4, seed=22).order(GREEN, RED, PURPLE).seat(BLUE, money=2, space=1)
         .at("politics", BLUE, "politics", round=2).state())
    assert s.politics_cost(BLUE, 1) == 15
    choose_space(s, 1)
    assert s.track(BLUE, "money") == 2 and s.score_breakdown(BLUE)["loans"] == -5


def test_magnificent_arch_from_the_2_row_at_1_dollar():
    """HU/IT Magnificent Arch example: blue at $1 buys the Arch from the $2 row (1 loan: $4, pays
    $2), builds it without penalty (+3 progress, -1 public service) and its mandatory -$12 -> +9
    culture needs 4 more loans: -5 prestige in all, blue ends at $2."""
    s = Position(5, seed=23).seat(BLUE, money=1).building(BLUE, "magnificent_arch", row=1).state()
    assert "pay $2; 1 loan: -1 prestige" in s.action_to_string(act(s, "take", tile("magnificent_arch")))
    s.apply_action(act(s, "take", tile("magnificent_arch")))
    assert tracks(s, BLUE, "money", "prestige") == (2, -1)
    assert s.log[-1].data["loans"] == 1 and "(1 loan, -1 prestige)" in s.log[-1].text
    a = act(s, "place", slot(s, 0, 1))               # at a token, next to the Hotel: no penalty
    assert s.broken_rules(BLUE, tile("magnificent_arch"), a.arg) == (False, False)
    s.apply_action(a)
    assert s.track(BLUE, "money") == 2
    assert s.track(BLUE, "prestige") == -5
    assert s.score_breakdown(BLUE)["loans"] == -5
    assert tracks(s, BLUE, "culture", "public_service") == (9, -1)
    assert s.log[-1].kind == "capitals.build" and s.log[-1].data["loans"] == 4


def test_high_finance_square_at_1_dollar_gives_no_prestige():
    """HU/IT High Finance Square note: bought from the $0 row at $1 it gives +2 progress, +6 culture,
    -1 plant cube, but its "+1 prestige per $10" gives nothing: loans cannot reach a condition."""
    s = Position(4, seed=24).seat(GREEN, money=1, cubes=4).building(GREEN, "high_finance_square").state()
    build(s, "high_finance_square", 0, 1)
    assert tracks(s, GREEN, "prestige", "money") == (0, 1)
    assert tracks(s, GREEN, "culture", "cubes") == (6, 3)
    # at $25 the same build scores 2 prestige and costs nothing (the holding is not spent)
    s = Position(4, seed=24).seat(GREEN, money=25).building(GREEN, "high_finance_square").state()
    build(s, "high_finance_square", 0, 1)
    assert tracks(s, GREEN, "prestige", "money") == (2, 25)


# ==============================================================================================
# 9. World Expo (HU "Világkiállítási értékelés", IT "Fase di valutazione mondiale"; ref §4, §5)
# ==============================================================================================
def _expo(pos):
    """The state after the round-4 World Expo of ``pos`` (the administration phase is over): the
    machine scores it and stops at round 5's politics."""
    s = pos.at("world expo", round=4).state()
    assert s.round == 5 and s.expects().startswith("politics")
    return s


def test_expo_employment_space_scores_its_printed_value():
    """HU/IT Expo example: a marker on the green "+3" employment space scores +3 (the space values
    come from the board data, ref §3.3)."""
    e = C.employment_prestige.index(3)
    s = _expo(Position(4, seed=30).seat(GREEN, employment=e, population=e))
    assert s.score_breakdown(GREEN)["expo_employment"] == 3
    assert s.score_breakdown(GREEN)["expo_unemployment"] == 0


def test_expo_unemployment_penalty_and_cap():
    """HU Expo example "népesség szintje 10, a munkásoké 8 ... -2" (IT: 8 - 6; ref §4, §11 ex. #5
    and #6): unemployment 2 costs 2 prestige; a large gap costs at most 3."""
    s = _expo(Position(4, seed=31).seat(GREEN, population=10, employment=8).seat(RED, population=8, employment=6)
              .seat(BLUE, population=20, employment=5).seat(PURPLE, population=4, employment=4))
    assert [s.score_breakdown(p)["expo_unemployment"] for p in range(4)] == [-2, -2, -3, 0]


def test_expo_public_service_ranking_penalty():
    """HU Expo example (ref §11 ex. #7): green on public service 6, black on 4, purple on 2: green
    loses nothing, black -2, purple -4 (-2 per city strictly higher)."""
    pos = Position(5, seed=32)
    for p, v in ((GREEN, 6), (BLACK, 4), (PURPLE, 2), (RED, -3), (BLUE, -3)):
        pos.seat(p, public_service=v)
    s = _expo(pos.seat(RED, money=30))                 # red and blue are below, out of the way
    got = {p: s.score_breakdown(p)["expo_public_service"] for p in range(5)}
    assert (got[GREEN], got[BLACK], got[PURPLE]) == (0, -2, -4)
    assert (got[RED], got[BLUE]) == (-6, -8)


def test_expo_public_service_ties_by_money_then_initiative():
    """HU/IT Expo public service ties (IT "quella più alta sul tracciato economico ... più a sinistra
    sulla pista iniziativa", ref §10.3): a tie on public service goes to more money, then to the
    leftmost initiative marker."""
    s = _expo(Position(3, seed=33).order(GREEN, RED, BLUE).seats(public_service=4)
              .seat(GREEN, money=12).seat(RED, money=12).seat(BLUE, money=11))
    got = [s.score_breakdown(p)["expo_public_service"] for p in range(3)]
    assert got[GREEN] == 0 and got[RED] == -2 and got[BLUE] == -4


def test_expo_public_service_level_3_moves_progress_by_1():
    """HU/IT Expo example (ref §11 ex. #8): a city on public-service level 3 moves 1 forward on the
    progress track."""
    s = _expo(Position(4, seed=34).seat(GREEN, public_service=3, progress=2))
    assert s.track(GREEN, "progress") == 3


def test_expo_clears_cubes_on_buildings_but_not_plant_cubes_or_tourists():
    """HU "Energia kockák eltávolítása" / IT "Rimuovere i cubetti di energia" (ref §5 step 5): after
    the Expo all cubes on buildings go back to the supply; cubes on the power plants stay and
    tourists stay on their buildings."""
    pos = Position(4, seed=35).set("tourists", "green@green:1,0 red@red:0,0 blue@blue purple@green:0,0")
    for p in range(4):
        pos.seat(p, public_service=0, progress=0, cubes=5 + p)   # no progress moves (and so no upgrades)
        pos.set(f"{C.colors[p]} city", "hotel@0,0+2 city_hall@1,0+3")
    before = tourists(pos.state())
    s = _expo(pos)
    assert events(s, "expo")
    assert all(city_cubes(s, p) == {} for p in range(4))
    assert [s.track(p, "cubes") for p in range(4)] == [5, 6, 7, 8]
    assert tourists(s) == before
    assert before["purple"] == ("green", (0, 0), False) and before["blue"] == ("blue", None, False)


# ==============================================================================================
# 10. Era refill (IT "How many tiles to draw?" example; HU "Hány lapkát kell felcsapni?")
# ==============================================================================================
def test_era_change_refill_counts_only_current_era_tiles():
    """IT refill example (ref §8 Phase 5 step 4): in a 4-player game, at the end of round 4 no Era II
    tile is in the lower rows, so 6 are drawn; at the end of round 6, with 2 Era II tiles left in
    the lower rows, only 4 are drawn. Older-era tiles do not count and stay in the area until they
    are bought or shifted out of the $4 row; the Era I deck is discarded."""
    era1 = ["market", "baker", "library", "park"]
    s = (Position(4, seed=36).projects(era1[:2], era1[2:3], era1[3:])
         .at("administration", turn="done", round=4).state())   # the tokens are done: the rows shift
    obs = s.observation(None)
    assert s.round == 5 and obs["phase"] == "politics"
    assert len(obs["projects"][0]) == 6 and all(C.tile_by_id[x].era == 2 for x in obs["projects"][0])
    assert obs["projects"][1] == era1[:2] and obs["projects"][2] == era1[2:3]
    assert obs["deck_sizes"]["1"] == 0
    # the older tiles can still be bought in round 5
    drive(s, lambda st: st.expects().startswith("building"))
    assert {tile(t) for t in era1[:3]} <= set(legal_args(s, "take"))
    # end of round 6: two Era II tiles in the lower rows after the shift -> 4 drawn
    e2 = obs["projects"][0]
    s = (Position.of(s).projects(e2[:1], e2[1:2], [e2[2], era1[0]])
         .at("administration", turn="done", round=6).state())
    projects = s.observation(None)["projects"]
    assert projects[1] == e2[:1] and projects[2] == e2[1:2]
    assert len(projects[0]) == 4 and all(C.tile_by_id[x].era == 2 for x in projects[0])


# ==============================================================================================
# 11. Final scoring (HU "A játék vége", IT "Punteggio finale"; ref §8 End of game, ex. #3, #4)
# ==============================================================================================
def _final(pos):
    """The state after the final scoring of ``pos``: round 12's last World Expo is scored, so the
    machine pays the initiative spaces, resolves the end-game effects and converts, to the end."""
    return pos.final().state()


def test_final_scoring_cubes_money_culture_progress():
    """HU/IT final scoring examples (ref §11 ex. #3, #4): 9 cubes on the plant -> 2 prestige, $14 ->
    3, culture 21 -> 10, and 1 prestige per progress space beyond the upgrade space."""
    pos = Position(4, seed=40).order(GREEN, RED, BLUE, PURPLE)
    pay = pos.state().final_payment(GREEN)
    s = _final(pos.seat(GREEN, cubes=9, money=14 + pay, culture=21, progress=2 * C.loop + 3))
    b = s.score_breakdown(GREEN)
    assert s.track(GREEN, "money") == 14
    assert (b["energy_cubes"], b["money"], b["culture"], b["progress"]) == (2, 3, 10, 3)
    assert s.track(GREEN, "prestige") == 2 + 3 + 10 + 3
    assert s.is_terminal()


def test_final_payment_on_the_0_space_and_loans():
    """HU "A végső pontozás előtt": each player pays for its initiative space once more, borrowing if
    needed (ref §8 End of game, PROJECT DEFAULT: own $ x own multiplier): the $0 space pays
    nothing; a player short of money takes loans."""
    pos = Position(5, seed=41).order(GREEN, RED, BLUE, PURPLE, BLACK)   # black on the $0 space
    zero, first = BLACK, GREEN
    pay = pos.state().final_payment(first)
    assert pay > 0
    s = _final(pos.seat(zero, money=14).seat(first, money=1))
    assert s.track(zero, "money") == 14 and s.score_breakdown(zero)["money"] == 3
    assert s.score_breakdown(zero)["loans"] == 0
    k = -s.score_breakdown(first)["loans"]          # just enough loans to pay and keep $1..$3
    assert k > 0 and s.track(first, "money") == 1 + 3 * k - pay and 1 <= s.track(first, "money") <= 3


@pytest.mark.parametrize("case", ["cubes", "money", "initiative"])
def test_final_tie_breaks(case):
    """HU/IT final tie-break (ref §10.4): equal prestige -> most energy cubes left on the power
    plant (after the final conversion, whose exchanged cubes go back to the supply: IT "rimetti i
    cubi scambiati nella riserva", "più cubetti di energia rimasti"), then the higher economy, then
    the leftmost initiative marker."""
    order = (GREEN, RED, BLUE, PURPLE)
    pos = Position(4, seed=42).order(*order)
    pays = pos.state()
    for p in range(4):                              # after the final payment: $9, 4 cubes -> 3 prestige
        pos.seat(p, money=9 + pays.final_payment(p), cubes=4, culture=0, progress=0)
    right = order[3]                                # the rightmost marker on the initiative track
    if case == "cubes":
        pos.seat(right, cubes=7)                    # 7 cubes: still 1 prestige, 3 left (the others: 0)
        winner = right
    elif case == "money":
        pos.seat(right, money=11 + pays.final_payment(right))   # $11: still 2 prestige
        winner = right
    else:
        winner = order[0]
    s = _final(pos)
    assert len(set(s.scores())) == 1
    assert s.ranking()[0] == winner
    assert s.returns()[winner] == 1.0 and sum(s.returns()) == 1.0


# ==============================================================================================
# 12. Employment cap, power-plant upgrades, Park (HU "Munkás sáv", "Fejlődés sáv"; ref §3.3, §3.6, §6)
# ==============================================================================================
def test_employment_never_exceeds_population():
    """HU "Soha nem lehet magasabb a foglalkoztatás a munkás sávon, mint a város népessége" (ref
    §3.3): employment gains above the population are lost."""
    s = Position(4, seed=50).seat(GREEN, population=3, employment=1).building(GREEN, "cogswell_cogs").state()
    build(s, "cogswell_cogs", 0, 1)                  # +4 employment
    assert tracks(s, GREEN, "employment", "population") == (3, 3)


def _build_to_upgrade(s, who, tile_id, x, y):
    """``who`` takes ``tile_id`` and builds it at (x, y); the upgrade it earns is offered."""
    s.apply_action(act(s, "take", tile(tile_id)))
    s.apply_action(act(s, "place", slot(s, x, y)))
    assert s.expects().endswith("upgrade the power plant?") and s.current_player() == who


def test_progress_past_upgrade_space_offers_upgrade_and_best_plant_goes_first():
    """HU "Fejlődés sáv" (ref §3.6, §6.1): reaching or passing the upgrade space lets the city
    upgrade its plant by one level (optional: a legal UPGRADE / DECLINE choice); the first city to
    reach a level takes the plant with the most cubes, the next city the next best; the cubes left
    on the old plant carry over."""
    p, q, r = GREEN, RED, BLUE
    s = (Position(4, seed=51).order(p, q, r, PURPLE).seat(p, progress=C.loop - 1, cubes=3)
         .building(p, "steam_engine_plant").state())      # +2 progress
    _build_to_upgrade(s, p, "steam_engine_plant", 0, 1)
    assert sorted(a.kind for a in s.legal_actions()) == ["decline", "upgrade"]
    level2 = sorted((C.plants[i].cubes for i in s.game.plant_supply[2]), reverse=True)
    s.apply_action(act(s, "upgrade"))
    assert tracks(s, p, "plant_level", "cubes") == (2, 3 + level2[0])
    # the second city to reach level 2 gets the next best plant
    s = Position.of(s).seat(q, progress=C.loop - 1, cubes=0).building(q, "iron_foundry").state()   # +2 progress
    _build_to_upgrade(s, q, "iron_foundry", 0, 1)
    s.apply_action(act(s, "upgrade"))
    assert tracks(s, q, "plant_level", "cubes") == (2, level2[1])
    assert s.plant[q] != s.plant[p]
    # and the third city the third best
    s = Position.of(s).seat(r, progress=C.loop - 1, cubes=0).building(r, "cog_factory").state()
    _build_to_upgrade(s, r, "cog_factory", 0, 1)      # +1 progress: reaching the space is enough
    s.apply_action(act(s, "upgrade"))
    assert s.track(r, "cubes") == level2[2] < level2[0]


def test_declined_upgrade_and_park_bonus():
    """HU "Állandó hatás" example (Park, ref §9.3): each time the owner upgrades the power plant it
    gains 2 culture; declining the (optional) upgrade gives nothing and keeps the plant."""
    s = (Position(4, seed=52).city(GREEN, "park@-1,0").seat(GREEN, progress=C.loop - 1)
         .building(GREEN, "steam_engine_plant").state())
    _build_to_upgrade(s, GREEN, "steam_engine_plant", 0, 1)
    s.apply_action(act(s, "decline"))
    assert tracks(s, GREEN, "plant_level", "culture") == (1, 0)
    s = Position.of(s).seat(GREEN, progress=2 * C.loop - 1).building(GREEN, "iron_foundry").state()   # +2 progress
    _build_to_upgrade(s, GREEN, "iron_foundry", 1, 1)
    s.apply_action(act(s, "upgrade"))
    assert tracks(s, GREEN, "plant_level", "culture") == (2, 2)


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
    shown = {x for row in s.observation(None)["projects"] for x in row}
    outside = next(t.idx for t in C.tiles if t.era == 1 and t.id not in shown)
    _assert_illegal(s, act(s, "take", outside), "not in the projects area")
    _assert_illegal(s, act(s, "initiative", 0), "must take a tile")
    s.apply_action(act(s, "take", tile(sorted(shown)[0])))
    _assert_illegal(s, act(s, "place", slot(s, 0, 0)), "empty slot")
    _assert_illegal(s, act(s, "place", slot(s, 5, 5)), "empty slot")
    # an activation the city cannot pay for (its own tourist beside the city pays 1)
    s2 = (Position(4, seed=60).seat(GREEN, culture=5, cubes=1)
          .city(GREEN, "generally_electrical@0,-1")           # costs 3 > 1 cube + 1 tourist
          .executive(GREEN, activations=1).state())
    _assert_illegal(s2, act(s2, "activate", slot(s2, 0, -1)), "costs 3 cubes")
    _assert_illegal(s2, act(s2, "activate", slot(s2, 4, 4)), "no tile of yours")
    # a taken initiative space
    s3 = new_state(4, seed=60)
    drive_to_politics(s3, 2)
    s3 = Position.of(s3).seats(money=30).state()
    choose_space(s3, 0)
    _assert_illegal(s3, act(s3, "initiative", 0), "already taken")


# ==============================================================================================
# 14. Construction tokens, the no-activation reward, Convention Center, the refill variant
# ==============================================================================================
def _token_decision(who):
    """Blue's city is the 2x2 block (0,-1)..(1,0), so its token on corner (1, 0) is surrounded; the
    administration phase of round 1 starts."""
    return (Position(3, seed=2).order(GREEN, RED, BLUE)
            .city(who, "market@0,-1", "baker@1,-1")     # the token on corner (1, 0) touches (0,-1) (1,-1) (0,0) (1,0)
            .at("administration", turn=GREEN).state())


def test_surrounded_construction_token_may_move_to_a_perimeter_corner():
    """HU "Építésjelzők" / IT "Segnalini costruzione": in the administration phase a token whose 4
    slots are all built may move to a corner on the city's perimeter; one with an empty slot may not."""
    s = _token_decision(BLUE)
    g = s.game
    assert s.current_player() == BLUE and s.expects().endswith("move the construction token?")
    assert pending(s)["token"] == 0                                   # only the surrounded token asks
    dests = {g.corner_xy(a.arg) for a in s.legal_actions() if a.kind == "move_token"}
    assert (1, 0) not in dests and (1, 1) not in dests               # not its own corner, not the other token
    # the city is the 2x2 block (0,-1)..(1,0): its corners that still touch an empty slot
    assert dests == {(0, -1), (1, -1), (2, -1), (0, 0), (2, 0), (0, 1), (2, 1)}
    assert {a.kind for a in s.legal_actions()} == {"move_token", "decline"}
    before = s.to_dict()
    s.apply_action(act(s, "move_token", g.corner_at(2, -1)))
    assert s.observation(None)["players"][BLUE]["construction_tokens"] == [[2, -1], [1, 1]]
    assert "moves a construction token to corner (2, -1)" in events(s, "token")[-1].text
    assert before["tokens"][BLUE][0] != s.tokens[BLUE][0]


def test_a_token_may_also_stay():
    """HU: the token "may" move (áthelyezheti): declining keeps it where it is."""
    s = _token_decision(GREEN)
    assert s.expects().endswith("move the construction token?") and s.current_player() == GREEN
    s.apply_action(act(s, "decline"))
    assert s.observation(None)["players"][GREEN]["construction_tokens"] == [[1, 0], [1, 1]]
    assert s.round == 2  # administration went on to the next round


def test_no_activation_reward_only_when_passing_every_activation():
    """HU/IT Phase 4: a city that makes no activation gains "1 [icon] or 1 [icon]" (the icons are
    lost; reference §8 PROJECT DEFAULT: +1 energy cube, data ``executive.no_activation_rewards``:
    +1 cube or +$1); the player chooses (step ``reward``). A city that activated gets nothing extra.
    A tile whose activation makes it lose culture needs that culture (data
    ``engine_rules.activation_cost_needs_holding``): red holds 1 for its Hotel."""
    s = (Position(3, seed=5).order(GREEN, RED, BLUE).seat(RED, cubes=5, culture=1)
         .set("tourists", "green@green! red@red! blue@blue!")   # no tourist to pay with: cubes only
         .executive(GREEN, activations=2).state())
    cubes, money = tracks(s, GREEN, "cubes", "money")
    s.apply_action(act(s, "end_activations"))
    assert s.current_player() == GREEN and s.expects().endswith("choose the reward for making no activation")
    assert [a.kind for a in s.legal_actions()] == ["no_activation_reward"] * 2
    s.apply_action(act(s, "no_activation_reward", 0))
    assert tracks(s, GREEN, "cubes", "money") == (cubes + 1, money)
    assert s.log[-1].kind == "capitals.no_activation"
    assert s.current_player() == RED
    s.apply_action(act(s, "activate", slot(s, 0, 0)))     # the Hotel: 1 printed + 1 = 2 cubes
    assert s.current_player() == BLUE                     # red's only activation is made: its turn ends
    assert s.track(RED, "cubes") == 3
    assert not events(s, "no_activation", RED) and events(s, "end_activations", RED)


def test_convention_center_activates_an_adjacent_tile_for_free():
    """IT appendix, Convention Center: "Activate to activate any adjacent card for free"; reference
    §10.8 PROJECT DEFAULT: no cubes, no activation used, permanent effects fire; the player picks."""
    s = (Position(3, seed=6).seat(GREEN, cubes=4, culture=3)
         .city(GREEN, "convention_center@0,1")             # below the Hotel, diagonal to the City Hall
         .set("tourists", "green@green! red@red! blue@blue!")
         .executive(GREEN, activations=1).state())
    money = s.track(GREEN, "money")
    s.apply_action(act(s, "activate", slot(s, 0, 1)))   # 1 printed + 1 = 2 cubes
    targets = {s.game.xy(a.arg) for a in s.legal_actions() if a.kind == "free_activate"}
    assert targets == {(0, 0), (1, 0)}             # the Hotel and the City Hall
    assert "decline" in {a.kind for a in s.legal_actions()}
    s.apply_action(act(s, "free_activate", slot(s, 0, 0)))
    assert tracks(s, GREEN, "money", "culture") == (money + 7, 2)
    assert s.track(GREEN, "cubes") == 2            # only the Convention Center's 2 cubes were spent
    assert (0, 0) not in city_cubes(s, GREEN)
    assert "for free" in events(s, "activate")[-1].text


@pytest.mark.parametrize("variant, drawn", [(False, 4), (True, 6)])
def test_refill_variant(variant, drawn):
    """HU "A játék vége", Játékvariáns: with the variant the $0 row is filled to 2 + players
    regardless of the other rows; normally current-era tiles in every row count (IT example)."""
    row0 = new_state(4, seed=3).observation(None)["projects"][0]
    s = (Position(4, seed=3, refill_variant=variant).projects(row0[:2])   # shifted to the $2 row
         .at("administration", turn="done").state())
    projects = s.observation(None)["projects"]
    assert projects[1] == row0[:2]
    assert len(projects[0]) == drawn
