"""Rule tests for the Prosperity expansion of The Capitals.

Sources: HU = shared/rulebooks/the_capitals.hu.txt ("JÓLÉT KIEGÉSZÍTŐ SZABÁLYOK", its three examples
and "Tó építése"), IT = shared/rulebooks/the_capitals.it_en.txt (the English prosperity text and
examples box — Three Pennants, Warehouse, Public Meeting Hall, "Building a Lake" — and the English
appendix "PROSPERITY TILES", which lists every tile), "ref §N" = shared/reference/the_capitals.md
(§7 when and how, §9.6 the 25 tiles, §10 clarifications, §12 project defaults).

Every test writes its position in the position notation (``Position`` in ``capitals_helpers``) in a
game with the expansion, plays public actions and asserts what the engine does. Values marked
"PROJECT DEFAULT" in the reference are asserted as the project's current choice and say so.
"""

from __future__ import annotations

import json
import random

import pytest

import citygames
from citygames.games.the_capitals.components import NTYPES, components

from capitals_helpers import (BLUE, GREEN, RED, Position, act, activate, build_lake, build_prosperity, city_cubes,
                              events, hosts, legal_args, new_state, parg, play_build, slot, tile)

C = components()
PROSPERITY_IDS = sorted(C.tiles[x].id for x in C.prosperity_tiles)
#: the first marked round of each era (PROJECT DEFAULT rounds 3, 5, 7, 9, 11: ref §7.2, §12 #10)
ERA_ROUND = {e: min(r for r in C.prosperity_rounds if C.era_of_round[r] == e) for e in (1, 2, 3)}
TRACKS = ("money", "culture", "employment", "population", "public_service", "progress", "prestige", "cubes",
          "plant_level")

# ----------------------------------------------------------------------------------------------
# scenery
# ----------------------------------------------------------------------------------------------
#: every seat starts level on every track (the starting Hotel + City Hall make the tile counts level)
BASE = dict(money=20, culture=6, employment=4, population=10, public_service=1, progress=2 * C.loop + 3, cubes=6,
            plant=2)

#: building tiles used as scenery, by what a requirement counts (ref §9.3-§9.5)
POOLS = {
    "housing": ["davinci_estate", "king_george_mansion", "downtown_abode", "west_81st_street"],   # high density
    "industry": ["cog_factory", "barrel_factory", "brick_works", "hotrock_tire_factory"],
    "commerce": ["market", "baker", "bookseller", "cobbler"],
    "tourism": ["fountain", "park", "opera_house", "dancing_horse_statue"],
    "public": ["doctor", "library", "courthouse", "school_i"],
    "museum": ["museum_of_industry", "museum_of_art", "natural_history_museum"],
    "low_medium_housing": ["dillon_residences", "tudor_townhouses", "cole_harbor", "windsor_cottages"],
    "three_progress": ["cogswell_cogs", "exxedout_oil_refinery", "magnificent_arch", "stadium"],
}


def new_pros(n: int = 3, seed: int = 0) -> Position:
    """A position of an ``n``-player game with the expansion; the seats in colour order on the
    initiative track (green leftmost)."""
    return Position(n, seed=seed, prosperity=True).order(*range(n))


def level_field(pos: Position) -> Position:
    return pos.seats(**BASE)


def add(pos: Position, who, what: str, k: int = 1) -> Position:
    """Put ``k`` scenery tiles of kind ``what`` in seat ``who``'s city, away from the building sites."""
    for _ in range(k):
        used = pos.used_tiles()
        pos.scenery(who, next(t for t in POOLS[what] if t not in used))
    return pos


def snapshot(s, p) -> dict:
    return {name: s.track(p, name) for name in TRACKS}


def pdelta(s, p, before, *names):
    return tuple(s.track(p, name) - before[name] for name in names)


def end_tiles(s, p) -> int:
    return s.score_breakdown(p)["end_game_tile_effects"]


def allowed_then_built(pos: Position, tile_id: str, allowed, refused, round: int = 3):
    """Check that the seats ``allowed`` meet ``tile_id``'s requirement in ``pos`` and ``refused`` do not,
    then the first allowed seat builds it at (0, 1): returns its track values before and the state after."""
    s = pos.state()
    for p in allowed:
        assert s.requirement_status(p, tile(tile_id))[0]
    for p in refused:
        assert not s.requirement_status(p, tile(tile_id))[0]
    return snapshot(s, allowed[0]), build_prosperity(pos, allowed[0], tile_id, 0, 1, round=round)


def hand(s, p) -> list[str]:
    """Seat ``p``'s prosperity hand as ``p`` sees it."""
    return [e["tile"] for e in s.observation(p)["players"][p]["prosperity_hand"]]


# ==============================================================================================
# 1. The rulebooks' worked examples (HU "Jólét lapka megépítése", IT English examples box)
# ==============================================================================================
def test_three_pennants_example():
    """HU Three Pennants example (ref §9.6): to build it the city must be first on the population
    track; it gives 1 prestige per 2 population plus 2 culture once ("csak 2-t, nem minden 2
    népessége után 2-2-t"). The IT English box says "1 Culture point for every 2 Population"; the
    IT appendix ("gain 1 prestige for every 2 population") and HU say prestige, and the reference's
    conflict table uses prestige — so 9 population gives +4 prestige and exactly +2 culture."""
    pos = level_field(new_pros(3, seed=1)).seat(GREEN, population=9).seat(RED, population=5).seat(BLUE, population=7)
    before, s = allowed_then_built(pos, "three_pennants", [GREEN], [RED, BLUE])
    assert pdelta(s, GREEN, before, "prestige", "culture", "population") == (4, 2, 0)
    assert s.score_breakdown(GREEN)["placement_penalties"] == 0


@pytest.mark.parametrize("era", [1, 2, 3])
def test_warehouse_example(era):
    """IT English box and HU Warehouse example (ref §9.6): the city needs the most, or a share of
    the most, industry + commerce tiles — the two types together, not each ("a két épület típusból
    összesen, nem külön-külön"); it gives 1, 3 or 6 by era — prestige per HU and the IT appendix
    (the English box says "Culture points": the reference's conflict table uses prestige); and $6
    each time an own industry tile is activated anywhere in the city (IT box "anywhere in their
    City", appendix "each time an industry tile is activated in your city")."""
    pos = level_field(new_pros(3, seed=2))
    add(pos, GREEN, "industry")
    add(pos, GREEN, "commerce")               # green: 1 + 1 = 2
    add(pos, RED, "industry", 2)              # red: more industry than green, but the same total
    s2 = add(pos.copy(), BLUE, "commerce", 3).state()   # blue: 3 > 2, so neither green nor red may build it
    assert not s2.requirement_status(GREEN, tile("warehouse"))[0]
    assert not s2.requirement_status(RED, tile("warehouse"))[0]
    before, s = allowed_then_built(pos, "warehouse", [GREEN, RED], [BLUE], round=ERA_ROUND[era])
    assert pdelta(s, GREEN, before, "prestige", "culture") == ((1, 3, 6)[era - 1], 0)
    # an industry tile away from the Warehouse (next to the Hotel alone), and the Hotel next to it
    s = (Position.of(s).city(GREEN, "steam_engine_plant@-1,-1")      # Activate: +1 employment
         .executive(GREEN, activations=2).state())
    m = s.track(GREEN, "money")
    activate(s, -1, -1)
    assert s.track(GREEN, "money") - m == 6
    m = s.track(GREEN, "money")
    activate(s, 0, 0)                                               # the Hotel (tourism): only its own $7
    assert s.track(GREEN, "money") - m == 7


def test_public_meeting_hall_example():
    """IT English box and HU Public Meeting Hall example (ref §9.6, §10 #5): the city needs the
    fewest public tiles; it gives +1 progress and +1 public service at once, and 3 employment
    "just before the World Expo scoring in Era III" (HU: "A játék végén a Világkiállítási
    értékelés előtt") — so the round-12 Expo already scores the higher employment."""
    pos = level_field(new_pros(3, seed=3))
    add(pos, RED, "public")
    add(pos, BLUE, "public")
    before, s = allowed_then_built(pos, "public_meeting_hall", [GREEN], [RED, BLUE])
    assert pdelta(s, GREEN, before, "progress", "public_service", "employment") == (1, 1, 0)
    emp = s.track(GREEN, "employment")
    s = Position.of(s).last_expo().state()
    assert s.is_terminal()
    expo = events(s, "expo", GREEN)[-1]
    assert expo.data["employment"] == emp + 3
    assert s.track(GREEN, "employment") == emp + 3


def test_lake_example():
    """IT "Building a Lake" and HU "Tó építése" (ref §7.1): a player reveals one of their
    prosperity tiles to the others and builds it Lake side up anywhere adjacent to a tile of the
    city, ignoring the placement rules, and takes 2 energy cubes at once. "For the purpose of
    constructing more Building or Prosperity Tiles later in the game, the Lake does not count as
    any building type (color), nor does it count as a Prosperity Tile.\""""
    p, q, r = GREEN, RED, BLUE
    s = level_field(new_pros(3, seed=4)).hand(p, "casino").prosperity(p).state()
    # a Lake is always possible, whatever the requirements say
    assert parg("casino") in legal_args(s, "lake")
    assert parg("casino") not in legal_args(s, "prosperity")     # nobody has a museum
    s.apply_action(act(s, "lake", parg("casino")))
    assert "casino" not in hand(s, p)
    reveal = s.log[-1]
    assert reveal.kind == "capitals.lake_reveal" and reveal.data["tile"] == "casino"
    assert all(reveal in s.log_for(seat) for seat in (None, p, q, r))      # revealed to everybody
    # any empty slot adjacent (diagonals included) to the city; nothing farther
    around = {slot(s, x, y) for x in range(-1, 3) for y in range(-1, 2)} - {slot(s, 0, 0), slot(s, 1, 0)}
    assert set(legal_args(s, "place_lake")) == around
    with pytest.raises(citygames.IllegalActionError, match="adjacent"):
        s.apply_action(act(s, "place_lake", slot(s, 3, 3)))
    before = snapshot(s, p)
    counts = s.type_count[p * NTYPES:(p + 1) * NTYPES - 1]          # every type but the Lake's
    assert s.broken_rules(p, tile("fountain"), slot(s, -1, 1))[0]   # (-1, 1) is at no token
    s.apply_action(act(s, "place_lake", slot(s, -1, 1)))
    city = {(t["x"], t["y"]): t["tile"] for t in s.observation(None)["players"][p]["city"]}
    assert city[-1, 1] == "lake"
    assert pdelta(s, p, before, "cubes", "prestige") == (2, 0)      # no placement penalty
    assert s.type_count[p * NTYPES:(p + 1) * NTYPES - 1] == counts  # no type, not a prosperity tile
    for seat in (None, p, q, r):                                    # the revealed tile stays public
        assert s.observation(seat)["players"][p]["lakes"] == [{"x": -1, "y": 1, "revealed": "casino"}]
    assert s.current_player() == q and s.expects().endswith("build a prosperity tile or a Lake")   # the next city
    # rule B: a Lake is no neighbour of the same type for a later tourism tile...
    assert s.broken_rules(p, tile("fountain"), slot(s, -2, 2)) == (True, True)
    # ... and the city's first real prosperity tile is still its first of that type (no type, not a
    # prosperity tile)
    assert s.broken_rules(p, tile("church"), slot(s, -2, 2)) == (True, False)
    # a "different type" effect does not count the Lake (Heritage Windmill: +1 culture per adjacent
    # tile of a different type; its only neighbour at (-2, 1) is the Lake)
    c0 = s.track(p, "culture")
    s = play_build(s, p, "heritage_windmill", -2, 1)
    assert s.track(p, "culture") - c0 == 2                          # its own +2 culture only


# ==============================================================================================
# 2a. Every tile's requirement: met, not met, tied (IT appendix; ref §9.6, §12 #17)
# ==============================================================================================
#: the appendix's "To Build" line of each tile: (kind, what)
REQS = {
    "art_gallery": ("most_tie", ("commerce", "tourism")),
    "bus_station": ("most_tie", ("industry", "housing")),
    "casino": ("most", "museum"),
    "church": ("lowest", "population"),
    "energy_research": ("lowest", "cubes"),
    "environmental_institute": ("highest", "cubes"),
    "financial_district": ("most_tie", ("commerce", "public")),
    "gene_research_lab": ("most_tie", ("industry", "public")),
    "international_bank": ("highest", "employment"),
    "mayors_house": ("pay", None),
    "military_base": ("lowest", "public_service"),
    "movie_studio": ("most_tie", ("industry", "tourism")),
    "multinational_corp": ("most_tie", ("housing", "tourism")),
    "public_meeting_hall": ("fewest", "public"),
    "public_works_office": ("highest", "public_service"),
    "resort": ("highest", "culture"),
    "shopping_center": ("most", "low_medium_housing"),
    "space_research_lab": ("most_tie", ("housing", "public")),
    "stock_exchange": ("highest", "money"),
    "subway": ("most_tie", ("tourism", "public")),
    "technology_park": ("lowest", "progress"),
    "theatre": ("most_tie", ("housing", "commerce")),
    "three_pennants": ("highest", "population"),
    "warehouse": ("most_tie", ("industry", "commerce")),
    "world_wonder": ("most", "three_progress"),
}


def test_requirement_table_covers_the_25_tiles():
    """IT appendix "PROSPERITY TILES" and ref §1/§9.6: 25 prosperity tiles."""
    assert len(C.prosperity_tiles) == 25
    assert sorted(REQS) == PROSPERITY_IDS


def arrange(pos: Position, tile_id: str, case: str, monkeypatch) -> tuple[int, bool]:
    """Write ``case`` ("met", "not_met", "tied") for ``tile_id``'s requirement into a 3-player
    position (green, red, blue from the left); returns the seat that asks and whether the
    requirement should hold for it."""
    level_field(pos)
    p, q, r = GREEN, RED, BLUE                # p is leftmost on the initiative track
    kind, what = REQS[tile_id]
    if kind == "most_tie":                    # "have most or tie for most X + Y tiles"
        a, b = what
        if case in ("met", "tied"):
            add(pos, p, a)
        if case in ("not_met", "tied"):
            add(pos, q, b)
        return p, case != "not_met"
    if kind == "most":                        # no tie wording: PROJECT DEFAULT strict majority
        if case in ("met", "tied"):
            add(pos, p, what)
        if case in ("not_met", "tied"):
            add(pos, q, what)
        return p, case == "met"
    if kind == "fewest":                      # "have least public tiles"
        if case == "met":
            add(pos, q, what)
            add(pos, r, what)
        elif case == "not_met":
            add(pos, p, what)
        else:                                 # p and q share the fewest, equal money: the chain
            add(pos, r, what)                 # puts the rightmost (q) lowest
        return p, case == "met"
    if kind in ("highest", "lowest"):
        sign = 1 if kind == "highest" else -1
        if what == "progress":                # plant level, then distance to the next upgrade

            def bump(who):
                pos.seat(who, plant=BASE["plant"] - 1)
        else:

            def bump(who):
                pos.seat(who, **{what: BASE[what] + 3 * sign})
        if case in ("met", "tied"):
            bump(p)
        if case in ("not_met", "tied"):
            bump(q)
        # tied with equal money: the leftmost initiative marker ranks first, so p is the highest
        # and q (to its right) the lowest
        return p, case == "met" or (case == "tied" and kind == "highest")
    assert kind == "pay"                      # Mayor's House: pay $12, 1 public service, 2 culture
    if case == "met":                         # $1 is enough: loans cover the rest (ref §12 #19)
        pos.seat(p, money=1)
        return p, True
    monkeypatch.setattr(C, "mayor_loans_allowed", False)     # the other reading of ref §10 #9
    pos.seat(p, money=12 if case == "not_met" else 13)       # $13 pays $12 and keeps $1
    return p, case == "tied"


@pytest.mark.parametrize("case", ["met", "not_met", "tied"])
@pytest.mark.parametrize("tile_id", sorted(REQS))
def test_requirement_met_not_met_tied(tile_id, case, monkeypatch):
    """IT appendix "To Build" of each tile (ref §9.6): "most or tie for most" requirements are met
    by a tie; "most" without tie wording (Casino, Shopping Center, World Wonder) needs a strict
    majority, and "highest / lowest / least" requirements order tied cities by the usual chain
    (more money, then leftmost initiative) — both PROJECT DEFAULTS (ref §9.6, §12 #17). Mayor's
    House's requirement is a payment (ref §10 #9: loans allowed by PROJECT DEFAULT; with loans
    disallowed the city must pay $12 and keep $1). The prosperity action is legal exactly when
    the requirement is met; a Lake is always legal (HU "vagy csak simán nem akar")."""
    pos = new_pros(3, seed=10)
    p, expected = arrange(pos, tile_id, case, monkeypatch)
    x = tile(tile_id)
    ok, why = pos.state().requirement_status(p, x)
    assert ok is expected, why
    s = pos.hand(p, tile_id).prosperity(p).state()
    assert (parg(tile_id) in legal_args(s, "prosperity")) is expected
    assert parg(tile_id) in legal_args(s, "lake")
    entry = next(e for e in s.observation(p)["players"][p]["prosperity_hand"] if e["tile"] == tile_id)
    assert entry["can_build"] is expected and entry["why"] == why
    if not expected:
        before = s.to_dict()
        with pytest.raises(citygames.IllegalActionError, match="cannot be built now"):
            s.apply_action(act(s, "prosperity", parg(tile_id)))
        assert s.to_dict() == before


@pytest.mark.parametrize("tile_id,kind", [("three_pennants", "highest"), ("church", "lowest"),
                                          ("public_meeting_hall", "fewest"), ("technology_park", "lowest")])
def test_requirement_ties_money_then_initiative(tile_id, kind):
    """PROJECT DEFAULT ref §9.6 / §12 #17: ties in "highest / lowest" requirements are broken with
    the game's usual chain — more money, then the leftmost initiative marker — as for the culture
    and public-service rankings (ref §8 Phase 3, §10 #3): the chain orders the tied cities, the
    first is the highest and the last the lowest, so exactly one city qualifies."""
    pos = level_field(new_pros(3, seed=11))
    left, right, other = GREEN, RED, BLUE
    x = tile(tile_id)
    if tile_id == "public_meeting_hall":
        add(pos, other, "public")
    elif tile_id == "technology_park":
        pos.seat(other, plant=3)
    else:
        pos.seat(other, population=12 if kind == "lowest" else 2,
                 employment=BASE["employment"] if kind == "lowest" else 2)   # never above the population
    # equal money: the leftmost ranks first
    s = pos.state()
    first, last = left, right
    assert s.requirement_status(first if kind == "highest" else last, x)[0]
    assert not s.requirement_status(last if kind == "highest" else first, x)[0]
    # more money beats initiative
    s = pos.seat(right, money=BASE["money"] + 1).state()
    first, last = right, left
    assert s.requirement_status(first if kind == "highest" else last, x)[0]
    assert not s.requirement_status(last if kind == "highest" else first, x)[0]
    assert sum(s.requirement_status(q, x)[0] for q in range(3)) == 1


def test_technology_park_progress_is_plant_level_then_distance_to_the_next_upgrade():
    """IT appendix, Technology Park: "be lowest player on the progress track (have lowest level
    power plant or, if tied, be farthest away from gaining next level)" (ref §9.6, §3.6)."""
    pos = level_field(new_pros(3, seed=12))
    x = tile("technology_park")
    pos.seat(GREEN, plant=2, progress=2 * C.loop + 1)       # 1 space past the upgrade: farthest from it
    pos.seat(RED, plant=2, progress=2 * C.loop + 6)
    pos.seat(BLUE, plant=3, progress=3 * C.loop + 0)
    assert pos.state().requirement_status(GREEN, x)[0]
    s = pos.seat(BLUE, plant=1, progress=4 * C.loop + 7).state()   # a lower plant wins whatever the progress
    assert s.requirement_status(BLUE, x)[0] and not s.requirement_status(GREEN, x)[0]


# ==============================================================================================
# 2b. Every tile's effect when built (IT appendix; ref §9.6)
# ==============================================================================================
#: era-dependent immediate gains "depending on the current Era I/II/III" (IT appendix)
ERA_GAINS = {
    "bus_station": {"prestige": (1, 3, 5)},
    "casino": {"prestige": (1, 3, 6)},
    "church": {"prestige": (1, 3, 6)},
    "resort": {"prestige": (1, 3, 5)},
    "shopping_center": {"prestige": (1, 3, 6)},
    "warehouse": {"prestige": (1, 3, 6)},
    "energy_research": {"public_service": (1, 1, 1), "cubes": (3, 4, 5)},
    "military_base": {"public_service": (2, 3, 4)},
    "financial_district": {"public_service": (-1, 0, 1)},
    "space_research_lab": {"progress": (2, 4, 6)},
}


@pytest.mark.parametrize("era", [1, 2, 3])
@pytest.mark.parametrize("tile_id", sorted(ERA_GAINS))
def test_era_dependent_immediate_effects(tile_id, era, monkeypatch):
    """IT appendix: Bus Station 1/3/5 prestige, Casino / Church / Shopping Center / Warehouse 1/3/6,
    Resort 1/3/5, Energy Research +1 public service and 3/4/5 cubes, Military Base 2/3/4 public
    service, Financial District -1/0/+1 public service, Space Research Lab 2/4/6 progress,
    "depending on the current Era I/II/III" (ref §9.6): the era of the round the tile is built in."""
    pos = new_pros(3, seed=20)
    p, ok = arrange(pos, tile_id, "met", monkeypatch)
    assert ok
    before = snapshot(pos.state(), p)
    s = build_prosperity(pos, p, tile_id, 0, 1, round=ERA_ROUND[era])
    for name, vals in ERA_GAINS[tile_id].items():
        assert s.track(p, name) - before[name] == vals[era - 1]
    assert s.score_breakdown(p)["placement_penalties"] == 0


def test_art_gallery():
    """IT appendix, Art Gallery: "when built, gain 1 culture for each housing tile in your city.
    Later, if a housing tile is built in your city, gain 1 culture. End of Game: gain 4 prestige"
    (ref §9.6, §10 #6)."""
    pos = add(level_field(new_pros(3, seed=21)), GREEN, "housing", 2)
    c0 = pos.state().track(GREEN, "culture")
    s = build_prosperity(pos, GREEN, "art_gallery", 0, 1)
    assert s.track(GREEN, "culture") - c0 == 2
    c0 = s.track(GREEN, "culture")
    s = play_build(s, GREEN, "victoria_terraces", -1, 1)     # housing: no culture of its own
    assert s.track(GREEN, "culture") - c0 == 1
    c0 = s.track(GREEN, "culture")
    s = play_build(s, GREEN, "library", 1, 1)                # not housing
    assert s.track(GREEN, "culture") == c0
    s = Position.of(s).final().state()
    assert end_tiles(s, GREEN) == 4


def test_bus_station_cube_per_own_housing_activation():
    """IT appendix, Bus Station: "gain 1 energy cube each time you activate a housing tile in your
    city" (ref §9.6) — anywhere in the city, only housing."""
    s = build_prosperity(level_field(new_pros(3, seed=22)), GREEN, "bus_station", 0, 1)
    pos = Position.of(s)
    xy = pos.scenery(GREEN, "davinci_estate")[0]          # housing, Activate: +2 culture (1 printed cube)
    s = pos.executive(GREEN, activations=2).state()
    cubes = s.track(GREEN, "cubes")
    activate(s, *xy)
    assert s.track(GREEN, "cubes") - cubes == -2 + 1
    cubes = s.track(GREEN, "cubes")
    activate(s, 0, 0)                                     # the Hotel: no cube back
    assert s.track(GREEN, "cubes") - cubes == -2


def test_casino_pays_2_per_tourist_after_each_tourism_phase():
    """IT appendix, Casino: "at the end of each tourism phase, gain $2 for each tourist marker in
    your city (including your own)" (ref §9.6). The leader (culture 10, attraction level 1) takes
    the lowest city's tourist: 2 tourists -> $4, again the next tourism phase."""
    pos = level_field(new_pros(3, seed=23))
    p, q, r = GREEN, RED, BLUE
    pos.scenery(p, "casino")
    pos.seat(p, culture=10).seat(q, culture=0).seat(r, culture=7)
    money = [pos.state().track(x, "money") for x in range(3)]
    s = pos.at("tourism").state()
    assert sorted(k for k, h in enumerate(hosts(s)) if h == p) == sorted([p, q])
    assert [s.track(x, "money") - money[x] for x in range(3)] == [4 if x == p else 0 for x in range(3)]
    assert events(s, "casino")[-1].data["tourists"] == 2
    s = Position.of(s).at("tourism").state()
    assert s.track(p, "money") - money[p] == 8


def test_environmental_institute_2_prestige_per_plant_level():
    """IT appendix, Environmental Institute: "gain 2 prestige for each level of your power plant"
    (ref §9.6); requirement: most energy cubes on the plant."""
    pos = level_field(new_pros(3, seed=24)).seat(RED, cubes=9, plant=3)
    before = snapshot(pos.state(), RED)
    s = build_prosperity(pos, RED, "environmental_institute", 0, 1)
    assert s.track(RED, "prestige") - before["prestige"] == 6


def test_financial_district_extra_build_from_the_projects_area():
    """IT appendix, Financial District: "build 1 additional tile from Projects Area, following all
    building rules" (ref §9.6): the city takes a tile from any row at that row's price and builds
    it with the normal placement penalties; then the next city's prosperity turn comes."""
    p, q = GREEN, RED
    pos = level_field(new_pros(3, seed=25)).projects(["inspiration_fountain"], ["osler_general"])
    s = build_prosperity(pos, p, "financial_district", 0, 1, round=ERA_ROUND[2])
    assert s.expects() == "prosperity: now Green must take a tile from the projects area"
    assert sorted(legal_args(s, "take")) == sorted([tile("inspiration_fountain"), tile("osler_general")])
    before = snapshot(s, p)
    s.apply_action(act(s, "take", tile("osler_general")))            # the $2 row
    assert s.track(p, "money") - before["money"] == -2
    assert s.expects().endswith("choose where to build the tile")
    # (-1, -1): at no construction token and next to no public tile -> both rules broken
    assert s.broken_rules(p, tile("osler_general"), slot(s, -1, -1)) == (True, True)
    s.apply_action(act(s, "place", slot(s, -1, -1)))
    assert {"x": -1, "y": -1, "tile": "osler_general", "cubes": 0} in s.observation(None)["players"][p]["city"]
    assert s.score_breakdown(p)["placement_penalties"] == -4
    assert s.observation(None)["projects"] == [["inspiration_fountain"], [], []]
    assert s.current_player() == q and s.expects().endswith("build a prosperity tile or a Lake")
    # nothing in the projects area: no extra build
    s2 = build_prosperity(level_field(new_pros(3, seed=25)).projects(), p, "financial_district", 0, 1)
    assert s2.current_player() == q and s2.expects().endswith("build a prosperity tile or a Lake")


def test_gene_research_lab_progress_now_and_before_the_last_expo():
    """IT appendix, Gene Research Lab: "for every 3 employment, gain 1 progress. End of Game:
    before the world expo scoring at the end of round 12, for every 4 employment, gain 1
    progress" (ref §9.6, §10 #5). Crossing the upgrade space then offers the upgrade before the
    Expo is scored."""
    pos = level_field(new_pros(3, seed=26)).seat(GREEN, employment=7, progress=2 * C.loop + 1)
    s = build_prosperity(pos, GREEN, "gene_research_lab", 0, 1)
    assert s.track(GREEN, "progress") == 2 * C.loop + 1 + 2                # 7 // 3
    s = (Position.of(s).seat(GREEN, employment=9, progress=2 * C.loop + C.loop - 1)   # one space before the upgrade
         .last_expo().state())
    assert s.track(GREEN, "progress") == 3 * C.loop + 1                    # 9 // 4 = +2
    assert s.expects() == "before the last world expo: now Green must upgrade the power plant?"
    assert not events(s, "expo")                                          # not scored yet
    s.apply_action(act(s, "decline"))
    assert s.is_terminal()


def test_international_bank_1_prestige_per_6_dollars_at_the_end():
    """IT appendix, International Bank: "End of Game: For every $6 you have, gain 1 prestige"
    (ref §9.6), counted after the final initiative payment (ref §8 End of game, steps 1-2)."""
    s = build_prosperity(level_field(new_pros(3, seed=27)).seat(GREEN, employment=8), GREEN,
                         "international_bank", 0, 1)
    s = Position.of(s).seat(GREEN, money=20 + s.final_payment(GREEN)).final().state()
    assert end_tiles(s, GREEN) == 3


def test_mayors_house_payment_with_loans_and_4_prestige_per_prosperity_tile():
    """IT appendix, Mayor's House: "To Build: lose $12, 1 public service, 2 culture. End of Game:
    gain 4 prestige for each prosperity tile in your city (lakes do not count)" (ref §9.6); extra
    taxation may pay the $12 (PROJECT DEFAULT ref §10 #9, §12 #19): at $5 the city borrows 3 times
    (+$9, -3 prestige) and ends at $2. The Mayor's House counts itself."""
    p = BLUE
    s = (level_field(new_pros(3, seed=28)).seat(p, money=5, public_service=1, culture=6)
         .hand(p, "mayors_house").prosperity(p).state())
    s.apply_action(act(s, "prosperity", parg("mayors_house")))
    assert (s.track(p, "money"), s.track(p, "public_service"), s.track(p, "culture")) == (2, 0, 4)
    assert s.score_breakdown(p)["loans"] == -3
    assert s.log[-1].kind == "capitals.prosperity" and s.log[-1].data["loans"] == 3
    s.apply_action(act(s, "place", slot(s, 0, 1)))
    s = build_lake(Position.of(s), p, "casino", -1, 1, round=5)     # a Lake does not count
    pos = Position.of(s)
    pos.scenery(p, "church")
    s = pos.final().state()
    assert end_tiles(s, p) == 2 * 4


def test_military_base_activation():
    """IT appendix, Military Base: "Activate to gain 1 public service"; printed cubes 1 (ref §9.6
    "cubes 1*", PROJECT DEFAULT), so the first activation costs 1 + 1 = 2 cubes."""
    s = build_prosperity(level_field(new_pros(3, seed=29)).seat(GREEN, public_service=-1), GREEN,
                         "military_base", 0, 1)
    s = Position.of(s).executive(GREEN).state()
    assert s.activation_cost(GREEN, slot(s, 0, 1)) == 2
    before = snapshot(s, GREEN)
    activate(s, 0, 1)
    assert pdelta(s, GREEN, before, "public_service", "cubes") == (1, -2)


def test_movie_studio():
    """IT appendix, Movie Studio: "gain 1 prestige for each industry tile in your city. End of
    Game: gain 2 prestige for each tourism tile in your city" (ref §9.6)."""
    pos = add(level_field(new_pros(3, seed=30)), GREEN, "industry", 2)
    before = snapshot(pos.state(), GREEN)
    s = build_prosperity(pos, GREEN, "movie_studio", 0, 1)
    assert s.track(GREEN, "prestige") - before["prestige"] == 2
    pos = add(Position.of(s), GREEN, "tourism")             # with the Hotel: 2 tourism tiles
    s = pos.final().state()
    assert end_tiles(s, GREEN) == 4


def test_multinational_corp():
    """IT appendix, Multinational Corp: "when built, gain 1 employment for each commerce tile in
    your city. Later, if a commerce tile is built in your city, gain 1 employment. End of Game:
    gain 2 prestige" (ref §9.6, §10 #6)."""
    pos = add(level_field(new_pros(3, seed=31)), GREEN, "commerce", 2)
    e0 = pos.state().track(GREEN, "employment")
    s = build_prosperity(pos, GREEN, "multinational_corp", 0, 1)
    assert s.track(GREEN, "employment") - e0 == 2
    e0 = s.track(GREEN, "employment")
    s = play_build(s, GREEN, "luxury_lanes_mall", -1, 1)     # commerce: +2 employment of its own
    assert s.track(GREEN, "employment") - e0 == 2 + 1
    s = Position.of(s).final().state()
    assert end_tiles(s, GREEN) == 2


def test_public_works_office_culture_per_2_plant_cubes_at_the_end():
    """IT appendix, Public Works Office: "End of Game: for every 2 energy cubes on your power plant,
    gain 1 culture" (ref §9.6): culture, which the final scoring then converts (1 per 2)."""
    s = build_prosperity(level_field(new_pros(3, seed=32)).seat(GREEN, public_service=4), GREEN,
                         "public_works_office", 0, 1)
    s = Position.of(s).seat(GREEN, cubes=9, culture=10).final().state()
    assert s.track(GREEN, "culture") == 14
    assert s.score_breakdown(GREEN)["culture"] == 7


def test_resort_first_activation_costs_one_cube():
    """IT appendix, Resort: "Activate: lose 2 culture to gain 3 prestige (note: as there is no
    printed energy cube on this tile, the cost for first activation in an Era is just 1 cube)"
    (ref §9.6, §10 #1)."""
    s = build_prosperity(level_field(new_pros(3, seed=33)).seat(GREEN, culture=12), GREEN, "resort", 0, 1)
    assert C.tile_by_id["resort"].cubes == 0
    s = Position.of(s).executive(GREEN, activations=2).state()
    assert s.activation_cost(GREEN, slot(s, 0, 1)) == 1
    before = snapshot(s, GREEN)
    activate(s, 0, 1)
    assert pdelta(s, GREEN, before, "culture", "prestige", "cubes") == (-2, 3, -1)
    assert s.activation_cost(GREEN, slot(s, 0, 1)) == 2


def test_shopping_center_6_dollars_per_adjacent_activation():
    """IT appendix, Shopping Center: "each time an adjacent tile is activated, gain $6" (ref §9.6)."""
    s = build_prosperity(add(level_field(new_pros(3, seed=34)), GREEN, "low_medium_housing"), GREEN,
                         "shopping_center", 0, 1)
    pos = Position.of(s)
    xy = pos.scenery(GREEN, "restaurant")[0]              # Activate: +$10, far from the Shopping Center
    s = pos.executive(GREEN, activations=2).state()
    m = s.track(GREEN, "money")
    activate(s, 0, 0)                                     # the Hotel, adjacent: $7 + $6
    assert s.track(GREEN, "money") - m == 13
    m = s.track(GREEN, "money")
    activate(s, *xy)
    assert s.track(GREEN, "money") - m == 10


def test_stock_exchange_2_prestige_per_industry_and_commerce():
    """IT appendix, Stock Exchange: "gain 2 prestige for each industry tile and each commerce tile
    in your city" (ref §9.6); requirement: highest economy."""
    pos = add(add(level_field(new_pros(3, seed=35)).seat(BLUE, money=30), BLUE, "industry", 2), BLUE, "commerce")
    before = snapshot(pos.state(), BLUE)
    s = build_prosperity(pos, BLUE, "stock_exchange", 0, 1)
    assert s.track(BLUE, "prestige") - before["prestige"] == 6


def test_subway_immunity_for_later_neighbours_not_for_itself():
    """IT appendix, Subway: "Any tile built adjacent to the subway suffers no building penalties
    (note: since a tile may not affect itself, the subway is not immune to building penalties when
    it is built)" (ref §9.6). Prosperity tiles follow the normal placement rules (IT "built
    following all rules from the Building Phase"), rule B included for the sixth type."""
    pos = level_field(new_pros(3, seed=36))
    pos.scenery(GREEN, "church")                          # the city's first prosperity tile, away from the rest
    assert pos.state().broken_rules(GREEN, tile("subway"), slot(pos.state(), -1, 1)) == (True, True)
    s = build_prosperity(pos, GREEN, "subway", -1, 1)
    assert s.score_breakdown(GREEN)["placement_penalties"] == -4
    # a tourism tile next to the Subway only: no token, no tourism neighbour, yet no penalty
    assert s.broken_rules(GREEN, tile("fountain"), slot(s, -2, 2)) == (False, False)
    assert s.broken_rules(GREEN, tile("fountain"), slot(s, -2, -1)) == (True, True)
    s = play_build(s, GREEN, "fountain", -2, 2)
    assert s.score_breakdown(GREEN)["placement_penalties"] == -4


@pytest.mark.parametrize("tile_id,prestige", [("art_gallery", 4), ("multinational_corp", 2),
                                              ("space_research_lab", 2), ("subway", 2)])
def test_flat_end_game_prestige(tile_id, prestige):
    """IT appendix "End of Game": Art Gallery 4 prestige; Multinational Corp, Space Research Lab and
    Subway 2 prestige (ref §9.6)."""
    pos = new_pros(3, seed=37)
    pos.scenery(GREEN, tile_id)
    s = pos.final().state()
    assert end_tiles(s, GREEN) == prestige


@pytest.mark.parametrize("use", [True, False])
def test_technology_park_free_activation_on_build_and_before_the_last_expo(use):
    """IT appendix, Technology Park: "Immediate: activate 1 adjacent building tile for free. End of
    Game: before the world expo scoring at the end of round 12, activate 1 adjacent building tile
    for free" (ref §9.6, §10 #5). As with the Convention Center the player picks the target or
    declines; a free activation costs no cubes and no activation (PROJECT DEFAULT ref §10 #8)."""
    p, q = GREEN, RED
    pos = level_field(new_pros(3, seed=38)).seat(p, plant=1)
    s = build_prosperity(pos, p, "technology_park", 0, 1)
    hotel, hall = slot(s, 0, 0), slot(s, 1, 0)
    assert s.expects().endswith("choose a tile to activate for free") and s.current_player() == p
    assert legal_args(s, "free_activate") == sorted([hotel, hall])
    assert act(s, "decline") in s.legal_actions()
    before = snapshot(s, p)
    s.apply_action(act(s, "free_activate", hotel) if use else act(s, "decline"))
    assert pdelta(s, p, before, "money", "culture", "cubes") == ((7, -1, 0) if use else (0, 0, 0))
    assert city_cubes(s, p) == {}
    assert s.current_player() == q and s.expects().endswith("build a prosperity tile or a Lake")
    s = Position.of(s).last_expo().state()
    assert s.expects() == "before the last world expo: now Green must choose a tile to activate for free"
    assert legal_args(s, "free_activate") == sorted([hotel, hall])
    assert not events(s, "expo")
    before = snapshot(s, p)
    s.apply_action(act(s, "free_activate", hall) if use else act(s, "decline"))
    assert pdelta(s, p, before, "culture", "employment") == ((-1, 1) if use else (0, 0))
    assert s.is_terminal()


def test_theatre():
    """IT appendix, Theatre: "Immediate: gain 2 population. End of Game: for every 4 culture, gain
    1 prestige" (ref §9.6)."""
    pos = level_field(new_pros(3, seed=39))
    p0 = pos.state().track(GREEN, "population")
    s = build_prosperity(pos, GREEN, "theatre", 0, 1)
    assert s.track(GREEN, "population") - p0 == 2
    s = Position.of(s).seat(GREEN, culture=13).final().state()
    assert end_tiles(s, GREEN) == 3


def test_world_wonder():
    """IT appendix, World Wonder: "have most tiles that provide exactly 3 progress. End of Game:
    gain 2 prestige, gain 2 more prestige for every tile in your city that provides exactly 3
    progress" (ref §9.6, §9.5 list)."""
    s = build_prosperity(add(level_field(new_pros(3, seed=40)), GREEN, "three_progress", 2), GREEN,
                         "world_wonder", 0, 1)
    s = Position.of(s).final().state()
    assert end_tiles(s, GREEN) == 2 + 2 * 2


# ==============================================================================================
# 3. Deal and flow (HU "Az előkészületek során", "Az adminisztrálás fázisban"; ref §7.1)
# ==============================================================================================
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_deal_6_each_5_with_5_players_rest_unseen(n):
    """HU/IT setup (ref §7.1): 6 face-down prosperity tiles to each player, 5 each with 5 players;
    the rest go back to the box unseen."""
    s = new_state(n, seed=50 + n, prosperity=True)
    k = 5 if n == 5 else 6
    assert [len(h) for h in s.hands] == [k] * n
    dealt = [x for h in s.hands for x in h]
    assert len(set(dealt)) == n * k
    assert sorted(dealt + s.prosperity_box) == sorted(C.prosperity_tiles)
    assert len(s.prosperity_box) == 25 - n * k


def _play(s, rng, on_decision=None):
    while not s.is_terminal():
        if on_decision:
            on_decision(s)
        s.apply_action(rng.choice(s.legal_actions()))


def _builds_by_round(s) -> dict:
    """(round, seat) -> number of prosperity tiles and Lakes built, from the public log."""
    out = {}
    rnd = 1
    for e in s.log:
        if e.kind == "capitals.round":
            rnd = e.data["round"]
        elif e.kind in ("capitals.prosperity", "capitals.lake"):
            out[rnd, e.player] = out.get((rnd, e.player), 0) + 1
    return out


@pytest.mark.parametrize("n", [3, 4, 5])
def test_prosperity_steps_end_of_admin_in_marked_rounds_in_initiative_order(n):
    """HU "Az adminisztrálás fázis végén, minden olyan játékkörben, ami egy jólét szimbólummal lett
    megjelölve ... minden játékosnak kezdeményezési sorrendben" (ref §7.1, §8 Phase 5 step 5): at
    the end of the administration phase of each marked round (board.yaml prosperity.rounds), each
    city in initiative order builds exactly one prosperity tile or Lake. With fewer than 5
    players one tile of each hand is never built (HU "Ötnél kevesebb játékos esetén ...")."""
    s = new_state(n, seed=60 + n, prosperity=True)
    seen: dict = {}

    def on_decision(st):
        if st.expects().endswith("build a prosperity tile or a Lake"):
            assert st.expects().startswith("prosperity: now")
            if st.round not in seen:
                assert st.log[-1].kind == "capitals.refill"     # the administration phase is done
                seen[st.round] = (list(st.order), [])
            seen[st.round][1].append(st.current_player())

    _play(s, random.Random(n), on_decision)
    assert sorted(seen) == sorted(C.prosperity_rounds)
    for order, players in seen.values():
        assert players == order
    builds = _builds_by_round(s)
    assert builds == {(r, p): 1 for r in C.prosperity_rounds for p in range(n)}
    assert [len(h) for h in s.hands] == [0 if n == 5 else 1] * n


# ==============================================================================================
# 4. Hidden information (HU "A lapkákat nem szabad a többi játékosnak megmutatni"; ref §7.1)
# ==============================================================================================
def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from _strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _strings(v)


def _check_observations(s):
    ids = {x: C.tiles[x].id for x in C.prosperity_tiles}
    for seat in [None, *range(s.n)]:
        obs = s.observation(seat)
        strs = set(_strings(obs))
        text = json.dumps(obs)
        hidden = [x for q in range(s.n) if q != seat for x in s.hands[q]] + s.prosperity_box
        assert not strs & {ids[x] for x in hidden}
        assert not any(C.tiles[x].name in text for x in hidden)
        for q, pl in enumerate(obs["players"]):
            assert pl["prosperity_hand_size"] == len(s.hands[q])
            if q == seat:
                assert [e["tile"] for e in pl["prosperity_hand"]] == [ids[x] for x in s.hands[q]]
            else:
                assert "prosperity_hand" not in pl


@pytest.mark.parametrize("n", [2, 3, 5])
def test_no_observation_shows_another_seats_hand(n):
    """HU "A lapkákat nem szabad a többi játékosnak megmutatni, amíg fel nem épülnek" / IT "Players
    may not reveal their Prosperity Tiles to other players until they are built" (ref §7.1): no
    seat's observation (nor a spectator's) holds another seat's hand or the unused tiles."""
    s = new_state(n, seed=70 + n, prosperity=True)
    rng = random.Random(n)
    k = 0
    while not s.is_terminal():
        if s.expects().startswith("prosperity") or k % 15 == 0:
            _check_observations(s)
        s.apply_action(rng.choice(s.legal_actions()))
        k += 1
    _check_observations(s)


def test_resample_keeps_own_hand_and_public_facts_redraws_the_others():
    """ref §7.1 (hands hidden, unused tiles unseen): ``resample(seat)`` keeps the seat's own hand
    and everything it observes, and redraws the other hands (sizes kept) from the unseen pool —
    the other hands and the box, never a built or Lake-revealed tile."""
    s = new_state(3, seed=80, prosperity=True)
    rng = random.Random(80)
    while not (s.round == 6 and not s.expects().startswith("prosperity")):
        s.apply_action(rng.choice(s.legal_actions()))
    assert any(s.lakes)                        # some tiles were revealed as Lakes
    seat = s.order[1]
    others = [q for q in range(3) if q != seat]
    pool = sorted(s.prosperity_box + [x for q in others for x in s.hands[q]])
    shown = {x for city in s.city for x in city.values()} | {x for lk in s.lakes for _, x in lk}
    variants = set()
    for k in range(12):
        r = s.resample(seat, random.Random(k))
        assert r.hands[seat] == s.hands[seat]
        assert [len(h) for h in r.hands] == [len(h) for h in s.hands]
        assert sorted(r.prosperity_box + [x for q in others for x in r.hands[q]]) == pool
        assert not shown & (set(r.prosperity_box) | {x for h in r.hands for x in h})
        assert r.observation(seat) == s.observation(seat)
        assert r.city == s.city and r.tracks == s.tracks and r.lakes == s.lakes
        variants.add(tuple(tuple(r.hands[q]) for q in others))
    assert len(variants) > 1
    _play(r, random.Random(1))                 # the redrawn state plays on to the end
    assert r.is_terminal()


def test_deal_events_visible_only_to_their_seat():
    """ref §7.1 hidden hands: the "deal" log event of each seat is visible to that seat only
    (``log_for``); builds and Lake reveals are public."""
    s = new_state(4, seed=81, prosperity=True)
    dealt = [list(h) for h in s.hands]
    for seat in range(4):
        deals = [e for e in s.log_for(seat) if e.kind == "capitals.deal"]
        assert len(deals) == 1 and deals[0].player == seat
        assert deals[0].data["tiles"] == [C.tiles[x].id for x in dealt[seat]]
    assert not [e for e in s.log_for(None) if e.kind == "capitals.deal"]
    _play(s, random.Random(81))
    public = [e for e in s.log_for(None) if e.kind in ("capitals.prosperity", "capitals.lake_reveal")]
    assert len(public) == 4 * len(C.prosperity_rounds)


# ==============================================================================================
# 5. The 2-player variant with Prosperity (HU/IT 2-player rules; ref §8 "2-player rules", §7.1)
# ==============================================================================================
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_two_player_variant_with_prosperity_plays_to_the_end(seed):
    """HU/IT 2-player rules with the Prosperity setup (ref §7.1: 6 tiles each): seeded random
    games end, each city builds 5 prosperity tiles or Lakes and keeps 1 tile unbuilt."""
    s = new_state(2, seed=seed, prosperity=True)
    assert s.neutral_culture >= 0 and [len(h) for h in s.hands] == [6, 6]
    _play(s, random.Random(seed))
    assert s.is_terminal() and len(s.scores()) == 2
    assert _builds_by_round(s) == {(r, p): 1 for r in C.prosperity_rounds for p in range(2)}
    assert [len(h) for h in s.hands] == [1, 1] and len(s.prosperity_box) == 13
