"""Between Two Cities scoring, geometry and city notation.

Sources: "§N" = shared/reference/between_two_cities.md (§5 scoring, §6 the rulebook's scored examples,
§8.3-8.5 the Capitals); RB = the English base rulebook (pages cited by the sheet); HU-CAP =
shared/rulebooks/between_two_cities_capitals.hu.txt (the Hungarian Capitals rulebook). Expected values
are written out from the sources, never read from ``data/scoring.yaml``, so a wrong data file fails here.
Cities are written in the sheet's notation (``citytext``): rows top to bottom separated by ``/``.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import replace
from functools import lru_cache

import pytest

from citygames.core.errors import PositionError
from citygames.games.between_two_cities.citytext import format_city, parse_city
from citygames.games.between_two_cities.constants import (EMPTY, FACTORY, HOUSE, PARK, SHOP, T_FACTORY, T_HOUSE,
                                                          T_OFFICE, T_PARK, T_SHOP, T_TAVERN, TAVERN_BED,
                                                          TAVERN_DRINK, TAVERN_FOOD, TAVERN_MUSIC)
from citygames.games.between_two_cities.geometry import Geometry
from citygames.games.between_two_cities.scoring import (CATEGORIES, ScoringRules, city_breakdown, civic_points,
                                                        district_points, factory_multipliers, house_points,
                                                        largest_district, load_rules, office_parts, office_points,
                                                        park_groups, park_points, rules_from_data, score_cities,
                                                        shop_points, tavern_points, type_counts)

RULES = ScoringRules()
GREEDY = replace(RULES, shop_partition="greedy")


def city(text: str, width: int | None = None, **kw):
    return parse_city(text, width, **kw)


# --- §6: the six scored example cities of RB p6 / p4 -------------------------------------------
EXAMPLES = {
    "A": ("S S S S / H H O Tm / O P O O / O P H P", dict(shops=16, factories=0, taverns=1, offices=17, parks=10,
                                                         houses=12), 56),
    "B": ("Tm F F F / P P F P / S S Tm P / H H H F", dict(shops=5, factories=20, taverns=2, offices=0, parks=16,
                                                          houses=9), 52),
    "C": ("Tm Td F F / H Tf F P / S H Tb P / H H H O", dict(shops=2, factories=9, taverns=17, offices=1, parks=8,
                                                            houses=25), 62),
    "D": ("Tm Td F F / O Tf O Tb / O O O O / S S S S", dict(shops=16, factories=4, taverns=17, offices=25, parks=0,
                                                            houses=0), 62),
    "E": ("Tm Td H H / S Tf O Tb / S O H H / S F P P", dict(shops=10, factories=2, taverns=17, offices=5, parks=8,
                                                            houses=20), 62),
    "F": ("F S F F / P F P P / F Tb H P / P P H H", dict(shops=2, factories=20, taverns=1, offices=0, parks=22,
                                                         houses=12), 57),
}


def example_cities(width: int = 7):
    """The six cities, placed in the engine's 7 x 7 base grid (the 4 x 4 frame anywhere: here at (1, 2))."""
    return {k: parse_city(text, width, origin=(1, 2)) for k, (text, _, _) in EXAMPLES.items()}


def test_six_example_cities_every_category():
    """§6 (RB p6, p4): each category column and each total of cities A-F, scored together (factory majority
    across the six)."""
    cities = example_cities()
    out = score_cities([c for c, _ in cities.values()], [g for _, g in cities.values()], RULES)
    for (name, (_, cols, total)), got in zip(EXAMPLES.items(), out):
        assert tuple(got) == CATEGORIES
        assert got == {**cols, "civics": 0, "districts": 0}, name
        assert sum(got.values()) == total, name


def test_example_offices_split_sets_and_tavern_bonus():
    """§6: A's offices are 15 + 2 next to a tavern, D's 21 + 4, E's 3 + 2; A's parks 8 + 2."""
    cities = example_cities()
    assert office_parts(*cities["A"], RULES) == (15, 2)
    assert office_parts(*cities["D"], RULES) == (21, 4)
    assert office_parts(*cities["E"], RULES) == (3, 2)
    assert sorted(park_groups(*cities["A"])) == [1, 2]
    assert sorted(park_groups(*cities["F"])) == [1, 2, 3]


def test_example_factory_ranking():
    """§6 / §5 (RB p4): factory counts A 0, B 5, C 3, D 2, E 1, F 5: B and F have the most (4 each), C the
    second most (3 each) although two cities tie for most, D and E 2 each, A none."""
    counts = [type_counts(cells)[1] for cells, _ in example_cities().values()]
    assert counts == [0, 5, 3, 2, 1, 5]
    assert factory_multipliers(counts, RULES) == [0, 4, 3, 2, 2, 4]
    assert factory_multipliers([5, 5, 3, 2, 1], RULES) == [4, 4, 3, 2, 2]       # §5's statement
    assert factory_multipliers([3, 3, 3], RULES) == [4, 4, 4]
    assert factory_multipliers([0, 0], RULES) == [0, 0]


def test_six_player_result_lower_city_wins():
    """§6 / §5 (RB p4): each player scores the LOWER of the two cities beside them. Seating clockwise:
    Anna Grace | 62 | Peter | 52 | Margaux | 62 | Emily | 62 | Matthew | 56 | Ben | 57 | (Anna Grace); the
    three 62 cities are C, D and E. Emily wins with 62; Ben 56, Matthew 56, Margaux 52, Anna Grace 57,
    Peter 52."""
    cities = example_cities()
    order = ["C", "B", "D", "E", "A", "F"]        # the city to the left of each seat's right-hand neighbour
    out = score_cities([cities[k][0] for k in order], [cities[k][1] for k in order], RULES)
    totals = [sum(b.values()) for b in out]
    assert totals == [62, 52, 62, 62, 56, 57]
    seats = ["Anna Grace", "Peter", "Margaux", "Emily", "Matthew", "Ben"]
    # seat i sits between city i-1 (on one side) and city i (on the other)
    result = {seat: min(totals[i - 1], totals[i]) for i, seat in enumerate(seats)}
    assert result == {"Ben": 56, "Matthew": 56, "Margaux": 52, "Anna Grace": 57, "Peter": 52, "Emily": 62}
    assert max(result, key=result.get) == "Emily"


def test_derived_check_factories_at_two_each():
    """§6 derived check [I-H]: with every factory at 2 points, B, C and F total 42, 59 and 47."""
    flat = replace(RULES, factory=(2, 2, 2))
    cities = example_cities()
    out = score_cities([c for c, _ in cities.values()], [g for _, g in cities.values()], flat)
    totals = dict(zip(EXAMPLES, (sum(b.values()) for b in out)))
    assert (totals["B"], totals["C"], totals["F"]) == (42, 59, 47)


def test_type_counts_second_tie_break_order():
    """§5: the second tie-break counts shops, factories, taverns, offices, parks, houses in that order."""
    cities = example_cities()
    assert type_counts(cities["A"][0]) == (4, 0, 1, 5, 3, 3)
    assert type_counts(cities["C"][0]) == (1, 3, 4, 1, 2, 5)


# --- §5 / §6: RB's partial examples ------------------------------------------------------------
def test_shop_plus_shape_23():
    """§5 / §6 (RB p4): a "+" of a row of 4 with one shop above and two below = 16 + 2 + 5 = 23."""
    cells, geo = city(". S . . / S S S S / . S . . / . S . .")
    assert shop_points(cells, geo, RULES) == 23
    assert shop_points(cells, geo, GREEDY) == 23


def test_shop_lines_1_to_4():
    """§5 (RB p4): 2 / 5 / 10 / 16 for 1 / 2 / 3 / 4 shops in a line; separate lines score separately."""
    for n, pts in ((1, 2), (2, 5), (3, 10), (4, 16)):
        cells, geo = city(" ".join(["S"] * n + ["."] * (4 - n)) + " / . . . . / . . . . / . . . .")
        assert shop_points(cells, geo, RULES) == pts
    cells, geo = city("S S . S / . . . . / S . . . / S . . .")
    assert shop_points(cells, geo, RULES) == 5 + 2 + 5


def test_shop_greedy_9_best_10():
    """§5 "Shop partition" [I-M]: shops at (r1,c2), (r2,c1), (r2,c2), (r3,c1): greedy (longest line first,
    rows before columns) = 9, best = 10."""
    cells, geo = city(". S . . / S S . . / S . . . / . . . .")
    assert shop_points(cells, geo, GREEDY) == 9
    assert shop_points(cells, geo, RULES) == 10


def test_greedy_differs_from_best_on_5807_patterns():
    """§5 "Shop partition": the greedy split differs from the best on 5,807 of the 65,536 4 x 4 shop
    patterns (the sheet's exhaustive count), and is never better."""
    geo = Geometry(4)
    differ = 0
    for mask in range(1 << 16):
        cells = [SHOP if mask >> i & 1 else EMPTY for i in range(16)]
        best, greedy = shop_points(cells, geo, RULES), shop_points(cells, geo, GREEDY)
        assert greedy <= best
        differ += greedy != best
    assert differ == 5807


def test_parks_rb_examples():
    """§5 (RB p5): groups score 2 / 8 / 12 then + 1 per park; four lone parks = 8, 3 + 1 = 14, 4 together
    = 13, 2 + 2 = 16."""
    cases = {
        "P . P . / . . . . / P . P . / . . . .": 8,
        "P P P . / . . . . / . . . P / . . . .": 14,
        "P P . . / P P . . / . . . . / . . . .": 13,
        "P P . . / . . . . / . . P . / . . P .": 16,
        "P P P P / . . . P / . . . . / . . . .": 14,      # 5 together: 12 + 1 + 1
    }
    for text, pts in cases.items():
        assert park_points(*city(text), RULES) == pts, text


def test_taverns_rb_example_13():
    """§5 (RB p5): 1 music, 2 drink, 2 food = 9 + 4 = 13; four kinds = 17; duplicates start new sets."""
    cells, _ = city("Tm Td Td Tf / Tf . . . / . . . . / . . . .")
    assert tavern_points(cells, RULES) == 13
    assert tavern_points(city("Tm Tf Td Tb")[0], RULES) == 17
    assert tavern_points(city("Tm Tm Tm .")[0], RULES) == 3
    assert tavern_points([EMPTY] * 16, RULES) == 0
    assert tavern_points([TAVERN_MUSIC, TAVERN_FOOD, TAVERN_DRINK, TAVERN_BED, TAVERN_BED], RULES) == 18


def test_offices_seven_is_22_and_tavern_bonus():
    """§5 (RB p5): 1 / 3 / 6 / 10 / 15 / 21 for 1-6 offices, a 7th starts a new set: 7 = 21 + 1 = 22; + 1 per
    office next to at least one tavern (one tavern serves several offices; at most + 1 per office)."""
    cells, geo = city("O O O O / O O O . / . . . . / . . . .")
    assert office_points(cells, geo, RULES) == 22
    cells, geo = city("O Tm O . / Tf O . . / . . . . / . . . .")
    # (1,1) is next to Tm and Tf (+1 only), (1,3) next to Tm, (2,2) next to Tf: 3 offices = 6, + 3
    assert office_parts(cells, geo, RULES) == (6, 3)


def test_houses_types_and_factory_neighbour():
    """§5 (RB p5): a house scores 1 per other base type present (all tavern kinds are one type, houses do
    not count), or 1 when next to a factory."""
    cells, geo = city("H S Tm Td / O . . . / . . . . / . . P .")
    assert house_points(cells, geo, RULES) == 4          # shop, tavern, office, park
    cells, geo = city("H . F . / H . . . / . . . . / . . . .")
    assert house_points(cells, geo, RULES) == 1 + 1      # the lone other type is factory; no house touches it
    cells, geo = city("H F S . / . . . . / . . . . / . . . .")
    assert house_points(cells, geo, RULES) == 1          # next to the factory
    cells, geo = city("H H . . / . . . . / . . . . / . . . .")
    assert house_points(cells, geo, RULES) == 0


def test_partial_city_running_score():
    """§5 on a city being built (the engine's running score): empty cells are ignored."""
    cells, geo = parse_city(". . . / . S . / . . .", 7, origin=(2, 2))
    assert city_breakdown(cells, geo, RULES, 0)["shops"] == 2
    empty = [EMPTY] * 49
    assert city_breakdown(empty, Geometry(7), RULES, 0) == dict.fromkeys(CATEGORIES, 0)
    cells, geo = parse_city("S H . . / . . . . / . . . . / . . . F", 7, origin=(0, 0))
    assert city_breakdown(cells, geo, RULES, 4) == dict(shops=2, factories=4, taverns=0, offices=0, parks=0,
                                                        houses=2, civics=0, districts=0)


def test_breakdown_agrees_with_the_category_functions():
    """``city_breakdown``'s one-pass tallies equal the per-category functions on random partial cities."""
    rng = random.Random(11)
    geo = Geometry(7)
    for _ in range(300):
        cells = [EMPTY] * 49
        for r in range(1, 5):
            for c in range(2, 6):
                if rng.random() < 0.8:
                    cells[r * 7 + c] = rng.randint(1, 9)
        b = city_breakdown(cells, geo, RULES, 3)
        assert b["shops"] == shop_points(cells, geo, RULES)
        assert b["factories"] == 3 * cells.count(FACTORY)
        assert b["taverns"] == tavern_points(cells, RULES)
        assert b["offices"] == office_points(cells, geo, RULES)
        assert b["parks"] == park_points(cells, geo, RULES)
        assert b["houses"] == house_points(cells, geo, RULES)


# --- the best shop partition against a brute force ---------------------------------------------
def brute_force_shops(cells, w: int, table=(0, 2, 5, 10, 16)) -> int:
    """Every way to cut the shops of a plain ``w x w`` grid into straight runs of consecutive shops (each
    at most ``len(table) - 1`` long): the lowest unassigned shop starts a run going right or going down
    (any cell before it in its row or column is a non-shop or already used)."""
    top = len(table) - 1

    @lru_cache(maxsize=None)
    def best(left: frozenset) -> int:
        if not left:
            return 0
        s = min(left)
        r, c = divmod(s, w)
        result = 0
        for dr, dc in ((0, 1), (1, 0)):
            run = []
            rr, cc = r, c
            while len(run) < top and rr < w and cc < w and rr * w + cc in left:
                run.append(rr * w + cc)
                result = max(result, table[len(run)] + best(left - frozenset(run)))
                rr, cc = rr + dr, cc + dc
        return result

    return best(frozenset(i for i, k in enumerate(cells) if k == SHOP))


@pytest.mark.parametrize("w", [4, 5])
def test_best_shop_partition_matches_brute_force(w):
    """§5 PROJECT DEFAULT [I-M] "the split with the most points", §8.3 (lines longer than 4 are split):
    the dynamic programme equals an exhaustive search on 300 seeded random cities, and greedy <= best."""
    rng = random.Random(2024 + w)
    geo = Geometry(w)
    for _ in range(300):
        density = rng.uniform(0.3, 0.95)
        cells = [SHOP if rng.random() < density else rng.choice((EMPTY, HOUSE, PARK)) for _ in range(w * w)]
        best = shop_points(cells, geo, RULES)
        assert best == brute_force_shops(cells, w), format_city(cells, geo)
        assert shop_points(cells, geo, GREEDY) <= best


def test_best_shops_with_other_tables():
    """The partition is exact for any shop table from the data file (here sets of up to 3)."""
    rules = replace(RULES, shop=(0, 1, 4, 9))
    rng = random.Random(5)
    geo = Geometry(5)
    for _ in range(100):
        cells = [SHOP if rng.random() < 0.7 else EMPTY for _ in range(25)]
        assert shop_points(cells, geo, rules) == brute_force_shops(cells, 5, rules.shop)


# --- §8.3-8.5: the Capitals examples of HU-CAP --------------------------------------------------
def test_five_shops_in_a_line_18():
    """§8.3 (HU-CAP "Üzletek pontozása"): five shops in a line = 16 + 2 = 18, in a row or a column; longer
    lines are split the best way (§8.3)."""
    assert shop_points(*city("S S S S S"), RULES) == 18
    assert shop_points(*city("S / S / S / S / S"), RULES) == 18
    assert shop_points(*city("S S S S S S", 6), RULES) == 16 + 5        # the best split: 4 + 2 (3 + 3 = 20)
    assert shop_points(*city("S S S S S S S", 7), RULES) == 16 + 10      # 4 + 3


def test_house_across_a_bridge_from_a_factory_scores_1():
    """§8.3 (HU-CAP "Hidak"): tiles on the two sides of a bridge are adjacent; a house across a bridge from
    a factory scores only 1. Without the bridge the house scores 3 (shop, factory, office present)."""
    cells, geo = city("H # F / S . O | bridges r1c1-r1c3")
    assert house_points(cells, geo, RULES) == 1
    cells, geo = city("H # F / S . O")
    assert house_points(cells, geo, RULES) == 3


def test_shop_line_across_a_bridge():
    """§8.3 / §10 #6 PROJECT DEFAULT [U]: a shop line continues across a one-square bridge (4 in a line =
    16); with ``lines break`` the terrain splits it (5 + 5)."""
    assert shop_points(*city("S S # S S | bridges r1c2-r1c4"), RULES) == 16
    assert shop_points(*city("S S # S S | bridges r1c2-r1c4 | lines break"), RULES) == 10
    assert shop_points(*city("S S # S S"), RULES) == 10


ELEMENTARY_SCHOOL = (T_PARK, T_HOUSE, T_TAVERN)     # HU-CAP: + park, + house, - tavern


def test_civic_elementary_school_1_3_6_1():
    """§8.4 (HU-CAP "Középület lapkák"): the Elementary School (+ park, + house, - tavern) scores 1 next to
    none of its types, 3 next to one positive type (two houses and no park: still 3), 6 next to both (two
    parks and two houses: still 6), 1 next to a tavern whatever else."""
    civics = [ELEMENTARY_SCHOOL]
    cases = {
        ". O . / S C0 F / . . .": 1,
        ". . . / H C0 H / . . .": 3,
        ". P . / H C0 H / . P .": 6,
        ". P . / H C0 Tm / . . .": 1,
    }
    for text, pts in cases.items():
        cells, geo = city(text)
        assert civic_points(cells, geo, civics, RULES) == pts, text
        assert city_breakdown(cells, geo, RULES, 0, civics)["civics"] == pts


def test_civic_not_a_type_for_houses_and_needs_its_description():
    """§8.4 (HU-CAP "Házak pontozása"): a civic building is not an extra type for houses."""
    cells, geo = city("H S C0")
    assert house_points(cells, geo, RULES) == 1
    with pytest.raises(ValueError, match="civic building 0"):
        civic_points(cells, geo, (), RULES)


# HU-CAP "Pontozási példák": four cities and three districts. District 1 = office-shop (9/3), 2 = factory-park
# (8/4), 3 = house-tavern (7/5); City One is also the rulebook's illustrated city (9-tile office-shop,
# 3-tile factory-park, 2-tile house-tavern districts).
CAPITALS = {
    "One":   "O O O S # / S O S . # / O S . F P / H Tm . P . / . . . . .",
    "Two":   "S S O O . / . . . . . / F P . H . / . . # . . / . . # . .",
    "Three": "F F F P P / P F F F . / . . S O O / H . . . . / # # . . .",
    "Four":  "H H . . . / H H . F . / . . . F P / Tb Tf . . . / H H H . .",
}
PAIRS = (((T_OFFICE, T_SHOP), 0), ((T_FACTORY, T_PARK), 1), ((T_HOUSE, T_TAVERN), 2))


def test_district_sizes_of_the_example_cities():
    """§8.5 (HU-CAP "Kerületek"): a district is a connected region of either type of the pair; only the
    largest counts. City One has the 9 / 3 / 2 districts of the rulebook's picture; City Four's top-left 4
    houses are a smaller house-tavern district than its 5-tile one."""
    sizes = {name: [largest_district(*city(text), pair) for pair, _ in PAIRS] for name, text in CAPITALS.items()}
    assert sizes == {"One": [9, 3, 2], "Two": [4, 2, 1], "Three": [3, 9, 1], "Four": [0, 3, 5]}


def test_district_scoring_examples_9_3_8_2_2_7_5():
    """§8.5 (HU-CAP "Pontozási példák"): district 1: One 9 (9 tiles), Two 3 (4 tiles); district 2: Three 8
    (9 tiles), One and Four 2 each (a tie for second, 3 tiles each); district 3: Four 7 (5 tiles), One 5
    (2 tiles)."""
    parsed = [city(text) for text in CAPITALS.values()]
    out = score_cities([c for c, _ in parsed], [g for _, g in parsed], RULES, district_pairs=PAIRS)
    assert [b["districts"] for b in out] == [9 + 2 + 5, 3, 8, 2 + 7]
    rules = load_rules()
    per_district = []
    for pair, tile in PAIRS:
        first, second = rules.districts[tile]
        per_district.append(district_points([largest_district(c, g, pair) for c, g in parsed], first, second))
    assert per_district == [[9, 3, 0, 0], [2, 0, 8, 2], [5, 0, 0, 7]]


def test_district_tie_statements():
    """§8.5 (HU-CAP "Holtverseny"): a 3-way tie for first gives 4 each (1st + 2nd split, rounding down, on
    every tile) and no second place; a two-way tie for second where second = 5 gives 2 each; one city cannot
    take both places; a city without a district gets nothing."""
    for first, second in ((9, 3), (8, 4), (7, 5)):
        assert district_points([6, 6, 6, 2], first, second) == [4, 4, 4, 0]
    assert district_points([7, 3, 3, 1], 7, 5) == [7, 2, 2, 0]
    assert district_points([5, 5], 9, 3) == [6, 6]
    assert district_points([4, 0, 0], 9, 3) == [9, 0, 0]
    assert district_points([0, 0, 0], 9, 3) == [0, 0, 0]


def test_district_connects_across_a_bridge():
    """§8.5 / §8.3: bridges connect a district."""
    assert largest_district(*city("O # S | bridges r1c1-r1c3"), (T_OFFICE, T_SHOP)) == 2
    assert largest_district(*city("O # S"), (T_OFFICE, T_SHOP)) == 1


# --- data -------------------------------------------------------------------------------------
def test_data_file_gives_the_sheets_tables():
    """§5 / §8.4 / §8.5: ``data/scoring.yaml`` holds the sheet's values; overrides replace them."""
    rules = load_rules()
    assert rules == ScoringRules(shop=(0, 2, 5, 10, 16), tavern=(0, 1, 4, 9, 17), office=(0, 1, 3, 6, 10, 15, 21),
                                 office_tavern_bonus=1, park=(0, 2, 8, 12), park_extra=1, factory=(4, 3, 2),
                                 house_next_factory=1, civic=(1, 3, 6, 1), shop_partition="best",
                                 districts=((9, 3), (8, 4), (7, 5)), shop_lines_cross_bridges=True)
    assert load_rules({"scoring.yaml:shop_partition": "greedy"}).shop_partition == "greedy"
    assert load_rules({"scoring.yaml:districts[tile2].second": 5}).districts[1] == (8, 5)


def test_rules_from_data_refuses_bad_tables():
    from citygames.core.data import load_data
    from citygames.games.between_two_cities.scoring import DATA
    data, assumptions = load_data(DATA / "scoring.yaml")
    marked = {a.path: a.status for a in assumptions}
    assert marked["shop_partition"] == "inferred"
    assert marked["districts[tile2].second"] == "inferred"
    with pytest.raises(ValueError, match="shop_partition"):
        rules_from_data({**data, "shop_partition": "random"})
    with pytest.raises(ValueError, match="factory"):
        rules_from_data({**data, "factory": [4, 3]})
    with pytest.raises(ValueError, match="park"):
        rules_from_data({**data, "park": [2, 8]})


# --- geometry ---------------------------------------------------------------------------------
def test_geometry_adjacency_and_lines_with_a_bridge():
    """§8.3: terrain is no one's neighbour; a bridge links the cells on either side of a terrain square
    (adjacency, and a line for the shops under the PROJECT DEFAULT); a diagonal bridge links the cells but
    joins no line."""
    #  0 1 2
    #  3 # 5     bridges 3-5 (across the centre) and 0-8 (diagonal)
    #  6 7 8
    geo = Geometry(3, frozenset({4}), ((5, 3), (0, 8)))
    assert geo.bridges == ((0, 8), (3, 5))
    assert geo.adj[4] == ()
    assert sorted(geo.adj[3]) == [0, 5, 6]
    assert sorted(geo.adj[0]) == [1, 3, 8]
    assert sorted(geo.adj[1]) == [0, 2]
    assert geo.row_lines == ((0, 1, 2), (3, 5), (6, 7, 8))
    assert geo.col_lines == ((0, 3, 6), (1,), (7,), (2, 5, 8))
    assert geo.lines == geo.row_lines + geo.col_lines
    assert (geo.next_h[3], geo.prev_h[5], geo.next_v[1], geo.prev_v[7]) == (5, 3, -1, -1)
    flat = Geometry(3, frozenset({4}), ((3, 5),), lines_cross_bridges=False)
    assert flat.row_lines == ((0, 1, 2), (3,), (5,), (6, 7, 8))
    assert sorted(flat.adj[3]) == [0, 5, 6]                     # still adjacent
    geo2 = Geometry(3, frozenset({4}), ((1, 7),))
    assert geo2.col_lines == ((0, 3, 6), (1, 7), (2, 5, 8))


def test_geometry_is_immutable_hashable_and_pickles():
    geo = Geometry(4, frozenset({5}), ((4, 6),))
    assert geo == Geometry(4, {5}, [(6, 4)]) and hash(geo) == hash(Geometry(4, {5}, [(6, 4)]))
    assert pickle.loads(pickle.dumps(geo)) == geo
    assert pickle.loads(pickle.dumps(geo)).adj == geo.adj
    with pytest.raises(AttributeError):
        geo.width = 5
    with pytest.raises(ValueError, match="terrain"):
        Geometry(3, {4}, [(4, 5)])
    with pytest.raises(ValueError, match="outside"):
        Geometry(3, {9})


# --- notation ---------------------------------------------------------------------------------
def test_parse_format_round_trip():
    for text, _, _ in EXAMPLES.values():
        cells, geo = parse_city(text, 7, origin=(2, 1))
        assert format_city(cells, geo) == text
        assert parse_city(format_city(cells, geo, trim=False), 7) == (cells, geo)
    text = "S S # S S / . H # F . | bridges r1c2-r1c4 r2c2-r2c4"
    cells, geo = parse_city(text, 9, origin=(2, 2))
    assert format_city(cells, geo) == text
    assert parse_city(format_city(cells, geo, trim=False), 9) == (cells, geo)
    cells, geo = parse_city(text + " | lines break")
    assert not geo.lines_cross_bridges
    assert parse_city(format_city(cells, geo)) == (cells, geo)
    cells, geo = parse_city("s tm C20\n. # h")
    assert cells[:6] == [SHOP, TAVERN_MUSIC, 30, EMPTY, 31, HOUSE]


def test_parse_errors_name_the_problem():
    with pytest.raises(PositionError, match=r"row 2, cell 3: unknown token 'X'"):
        parse_city("S S S / H H X")
    with pytest.raises(PositionError, match="row 2 has 2 cells"):
        parse_city("S S S / H H")
    with pytest.raises(PositionError, match="does not fit"):
        parse_city("S S S S", 3)
    with pytest.raises(PositionError, match="bridge end 'r5c1'"):
        parse_city("S # S | bridges r1c1-r5c1")
    with pytest.raises(PositionError, match="terrain"):
        parse_city("S # S | bridges r1c1-r1c2")
    with pytest.raises(PositionError, match="unknown clause"):
        parse_city("S # S | rivers r1c1")
    with pytest.raises(PositionError, match="no rows"):
        parse_city(" / ")
