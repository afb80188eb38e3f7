"""Quadropolis end-of-game scoring: ``city_score`` (one allocation) and ``best_allocation`` (the best).

Sources: "§N" = shared/reference/quadropolis.md (§7 resources and activation, §8 scoring tables, §10
clarifications, §11 worked examples, §12 project defaults). Expected values are written out from the
sheet, never read from the board data, so a wrong data file fails here.

**City notation** (``city(mode, text)``): one line per row, top row first, cells separated by
spaces; missing cells and rows are empty. A cell is a type letter, an optional number, and an
optional ``-`` meaning "not activated" (every building is activated otherwise):

====  ======================================================================
``.``   empty space
``T3``  tower block of 3 floors (no number: 1 floor)
``O2``  office tower of 2 floors (Expert; no number: 1 floor)
``S4``  shop with 4 customers (no number: none)
``P1``  public service printed 1 VP (no number: 0 VP)
``H2``  harbour printed 2 VP (no number: 0 VP)
``K``   park (always active)
``F``   factory
``M``   monument (Expert; always active)
``F-``  a factory left inactive (any letter)
====  ======================================================================

Spaces are numbered row by row from 0 (``r * cols + c``). Classic is 4 x 4 with four 2 x 2
districts; Expert is 4 rows x 5 columns with four 2 x 2 corner districts and the centre column (§5).
Unless a test says otherwise the player holds exactly the inhabitants and energy the allocation
uses, so the penalties are 0.
"""

from __future__ import annotations

import itertools
import random
import time
from dataclasses import replace

import pytest

from citygames.games.quadropolis.components import (EMPTY, FACTORY, HARBOUR, MONUMENT, OFFICE, PARK, PUBLIC, SHOP,
                                                    TOWER, TYPE_LETTERS, components)
from citygames.games.quadropolis import scoring
from citygames.games.quadropolis.scoring import CATEGORIES, Allocation, best_allocation, city_score

BOARDS = components().boards
CLASSIC, EXPERT = BOARDS["classic"], BOARDS["expert"]

# §8 tables as printed on the sheet
TOWER_VP = {1: 1, 2: 3, 3: 6, 4: 10, 5: 15}
SHOP_VP = {0: 0, 1: 1, 2: 2, 3: 4, 4: 7, 5: 11}
PUBLIC_VP = {1: 2, 2: 5, 3: 9, 4: 14, 5: 20}
PARK_VP = {0: 0, 1: 2, 2: 4, 3: 7, 4: 11}
HARBOUR_VP = {1: 0, 2: 3, 3: 7, 4: 12, 5: 18}
OFFICE_VP = {1: {1: 0, 2: 1, 3: 3, 4: 6, 5: 10},
             2: {1: 1, 2: 3, 3: 6, 4: 10, 5: 15},
             3: {1: 2, 2: 5, 3: 9, 4: 14, 5: 20},
             4: {1: 3, 2: 7, 3: 12, 4: 18, 5: 25},
             5: {1: 4, 2: 9, 3: 15, 4: 22, 5: 30}}


# ----------------------------------------------------------------------------------------------
# the notation
# ----------------------------------------------------------------------------------------------

def city(mode: str, text: str):
    """``(board, types, heights, vps, active, customers)`` from the notation of the module docstring."""
    board = BOARDS[mode]
    n = board.spaces
    types, heights, vps = [EMPTY] * n, [0] * n, [0] * n
    active, customers = [False] * n, [0] * n
    lines = [ln for ln in text.strip("\n").split("\n")]
    assert len(lines) <= board.rows, text
    for r, line in enumerate(lines):
        cells = line.split()
        assert len(cells) <= board.cols, line
        for c, cell in enumerate(cells):
            s = r * board.cols + c
            if cell == ".":
                continue
            t = TYPE_LETTERS.index(cell[0])
            off = cell.endswith("-")
            num = cell[1:-1] if off else cell[1:]
            k = int(num) if num else None
            types[s] = t
            heights[s] = (k or 1) if t in (TOWER, OFFICE) else 1
            if t in (PUBLIC, HARBOUR):
                vps[s] = k or 0
            if t == SHOP:
                customers[s] = k or 0
            active[s] = not off
    return board, types, heights, vps, active, customers


def used(board, types, active, customers) -> tuple[int, int]:
    """Inhabitants and energy an allocation uses (§7 costs, written out from the sheet)."""
    cost = {TOWER: (0, 1), SHOP: (0, 1), PUBLIC: (1, 0), PARK: (0, 0), FACTORY: (1, 0), HARBOUR: (1, 0),
            OFFICE: (1, 1), MONUMENT: (0, 0), EMPTY: (0, 0)}
    i = sum(cost[t][0] for t, a in zip(types, active) if a) + sum(customers)
    e = sum(cost[t][1] for t, a in zip(types, active) if a)
    return i, e


def score(mode: str, text: str, inhabitants: int | None = None, energy: int | None = None) -> dict:
    """``city_score`` of the notation; resources default to exactly what the allocation uses."""
    board, types, heights, vps, active, customers = city(mode, text)
    i, e = used(board, types, active, customers)
    return city_score(board, types, heights, vps, active, customers,
                      i if inhabitants is None else inhabitants, e if energy is None else energy)


def best(mode: str, text: str, inhabitants: int, energy: int) -> Allocation:
    board, types, heights, vps, _, _ = city(mode, text)
    return best_allocation(board, types, heights, vps, inhabitants, energy)


def only(breakdown: dict, **expected) -> None:
    """The named categories have these values and every other category is 0."""
    assert breakdown == {k: expected.get(k, 0) for k in CATEGORIES}


# ----------------------------------------------------------------------------------------------
# the shape of the result
# ----------------------------------------------------------------------------------------------

def test_breakdown_has_every_score_pad_category_in_order():
    # §10 #17: towers, shops, public services, parks, factories, harbours, offices, monuments, penalties
    assert CATEGORIES == ("towers", "shops", "public_services", "parks", "factories", "harbours", "offices",
                          "monuments", "inhabitants", "energy")
    got = score("expert", "T1 S1 P K F\nH O1 M")
    assert tuple(got) == CATEGORIES
    assert all(type(v) is int for v in got.values())


def test_empty_city_scores_nothing():
    only(score("classic", ""))
    only(score("expert", ""))


# ----------------------------------------------------------------------------------------------
# §8 tables, cell by cell
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode,height", [("classic", h) for h in range(1, 5)] + [("expert", h) for h in range(1, 6)])
def test_tower_vp_by_height(mode, height):
    # §8 towers: 1, 3, 6, 10, 15 VP for 1-5 floors (5 in Expert only, §6 max height)
    only(score(mode, f"T{height}"), towers=TOWER_VP[height])


def test_tower_taller_than_the_board_allows_is_refused():
    # §6: Classic towers have at most 4 floors
    with pytest.raises(ValueError, match="§6"):
        score("classic", "T5")


@pytest.mark.parametrize("mode,n", [("classic", k) for k in range(5)] + [("expert", k) for k in range(6)])
def test_shop_vp_by_customers(mode, n):
    # §8 shops: 0, 1, 2, 4, 7, 11 VP for 0-5 customers (5 in Expert only, §7 capacity 4 / 5)
    only(score(mode, f"S{n}"), shops=SHOP_VP[n])


@pytest.mark.parametrize("mode,districts,text", [
    ("classic", 1, "P"),
    ("classic", 2, "P . P"),
    ("classic", 3, "P . P\n.\nP"),
    ("classic", 4, "P . P\n.\nP . P"),
    ("expert", 1, ". . P"),
    ("expert", 2, "P . P"),
    ("expert", 3, "P . P P"),
    ("expert", 4, "P . P P\n.\nP"),
    ("expert", 5, "P . P P\n.\nP . . P"),
])
def test_public_service_vp_by_districts(mode, districts, text):
    # §8 public services: 2, 5, 9, 14, 20 VP for 1-5 districts holding an activated one (§5 districts)
    only(score(mode, text), public_services=PUBLIC_VP[districts])


def test_public_services_in_one_district_count_it_once_and_add_every_printed_vp():
    # §10 #10: only distinct districts count; the printed VP of every activated public service is added
    only(score("classic", "P1 P2\nP"), public_services=PUBLIC_VP[1] + 1 + 2)
    # two districts, printed 2 + 1
    only(score("classic", "P2 . P1"), public_services=PUBLIC_VP[2] + 3)


@pytest.mark.parametrize("towers", range(5))
def test_park_vp_by_adjacent_towers(towers):
    # §8 parks: 0, 2, 4, 7, 11 VP for 0-4 orthogonally adjacent activated towers (park at r2c2)
    around = ["T" if k < towers else "." for k in range(4)]  # up, left, right, down
    text = f". {around[0]}\n{around[1]} K {around[2]}\n. {around[3]}"
    assert score("classic", text)["parks"] == PARK_VP[towers]


def test_park_counts_a_stacked_tower_once_and_ignores_diagonals():
    # §10 #5: a stack is one tower whatever its height; §6: diagonals never count
    got = score("classic", "T4 .\n. K T3")
    assert got["parks"] == PARK_VP[1]
    assert got["towers"] == TOWER_VP[4] + TOWER_VP[3]


@pytest.mark.parametrize("towers,offices", [(0, 1), (1, 1), (2, 2), (0, 4), (3, 1)])
def test_expert_park_counts_adjacent_offices(towers, offices):
    # §8 parks: in Expert adjacent office towers count too (park at r2c2)
    around = ["T"] * towers + ["O1"] * offices + ["."] * (4 - towers - offices)
    text = f". {around[0]}\n{around[1]} K {around[2]}\n. {around[3]}"
    assert score("expert", text)["parks"] == PARK_VP[towers + offices]


def test_classic_park_does_not_count_offices():
    # §8 parks: offices count "in Expert" only (the data's parks_count_offices is off in Classic)
    assert score("classic", "O1 K")["parks"] == PARK_VP[0]


@pytest.mark.parametrize("neighbour,vp", [("S", 2), ("H", 3), ("O1", 4), ("T", 0), ("P", 0), ("K", 0), ("F", 0)])
def test_factory_vp_per_adjacent_building(neighbour, vp):
    # §8 factories: +2 per adjacent shop, +3 per harbour, +4 per office (Expert); nothing for others
    assert score("expert", f"F {neighbour}")["factories"] == vp


def test_factory_adds_every_neighbour_and_counts_a_stacked_office_once():
    # §8: per adjacent activated building; §10 #16: +4 per office space, not per floor
    got = score("expert", ". S\nH F O5\n. S")
    assert got["factories"] == 2 + 3 + 4 + 2
    # two factories sharing a shop both score it
    assert score("classic", "F S F")["factories"] == 2 + 2


@pytest.mark.parametrize("mode,run", [("classic", k) for k in range(1, 5)] + [("expert", k) for k in range(1, 6)])
def test_harbour_vp_by_run_in_a_row(mode, run):
    # §8 harbours: the longest run in a row scores 0, 3, 7, 12, 18 for 1-5 (5: Expert rows only)
    only(score(mode, " ".join(["H"] * run)), harbours=HARBOUR_VP[run])


@pytest.mark.parametrize("mode,run", [(m, k) for m in ("classic", "expert") for k in range(1, 5)])
def test_harbour_vp_by_run_in_a_column(mode, run):
    # §8 harbours: the longest run in a column, 4 spaces at most in both modes
    only(score(mode, "\n".join(["H"] * run)), harbours=HARBOUR_VP[run])


def test_harbours_score_the_longest_row_and_the_longest_column_both():
    # §8 / §10 #6: row + column both scored [C]; an L of 3 in row 1 and 2 in column 1 -> 7 + 3
    only(score("classic", "H H H\nH"), harbours=HARBOUR_VP[3] + HARBOUR_VP[2])
    # a cross shares its centre: row 3 + column 3
    only(score("classic", ". H\nH H H\n. H"), harbours=HARBOUR_VP[3] + HARBOUR_VP[3])


def test_only_the_longest_run_of_each_direction_scores():
    # §10 #6: "other runs score nothing": rows with runs 2 and 3 (no two in a column touch) -> the 3
    only(score("classic", "H H\n.\nH H H"), harbours=HARBOUR_VP[3])
    # two runs of 2 in one row (broken by an empty space) are not a run of 4
    only(score("expert", "H H . H H"), harbours=HARBOUR_VP[2])


def test_harbour_printed_vp_are_added_to_the_runs():
    # §8 / §10 #6: printed harbour VP are added separately
    only(score("classic", "H2 H3"), harbours=HARBOUR_VP[2] + 5)


def test_worked_example_3_lone_harbour_scores_only_its_printed_vp():
    # §11 #3: a single activated harbour with no other harbour in its row or column: 0 VP from runs
    only(score("classic", "H . .\n. . H2"), harbours=0 + 2)
    only(score("expert", "H3"), harbours=3)


@pytest.mark.parametrize("size,height", [(g, h) for g in range(1, 6) for h in range(1, 6)])
def test_office_vp_by_group_size_and_height(size, height):
    # §8 offices: each office reads the row of its group size and the column of its own height
    cells = " ".join([f"O{height}"] * size)   # one group along row 1 (5 columns in Expert)
    only(score("expert", cells), offices=size * OFFICE_VP[size][height])


def test_worked_example_1_three_offices_of_heights_2_2_3_score_19():
    # §11 #1 (HU example): 5 + 5 + 9 = 19
    only(score("expert", "O2 O2 O3"), offices=19)
    # the same group bent around a corner is still one group of 3
    only(score("expert", "O2 O2\n. O3"), offices=19)


@pytest.mark.parametrize("size", [6, 7, 8])
def test_office_groups_of_six_or_more_use_the_size_5_row(size):
    # §8 / §10 #14 [I-M]: groups of 6+ use the size-5 row; a 2-row snake of `size` offices of height 1
    first = ["O1"] * min(size, 5)
    second = ["."] * 5
    for k in range(size - 5):
        second[4 - k] = "O1"
    only(score("expert", " ".join(first) + "\n" + " ".join(second)), offices=size * OFFICE_VP[5][1])


def test_offices_touching_diagonally_are_two_groups():
    # §6: adjacency is orthogonal only
    only(score("expert", "O3\n. O3"), offices=2 * OFFICE_VP[1][3])


@pytest.mark.parametrize("neighbour,vp", [("F", -5), ("H", -5), ("T", 0), ("O1", 0), ("M", 0), ("P", 2), ("S", 3),
                                          ("K", 5)])
def test_monument_vp_per_neighbour_type(neighbour, vp):
    # §8 monuments: factory or harbour -5, tower/office/monument 0, public +2, shop +3, park +5
    got = score("expert", f"M {neighbour}")
    expected = vp * 2 if neighbour == "M" else vp    # two monuments each see the other
    assert got["monuments"] == expected


def test_monument_adds_all_its_neighbours():
    # §8: "for each orthogonal neighbour"; a diagonal one does not count (§6)
    assert score("expert", "K P F\nS M H\nF . .")["monuments"] == 2 + 3 - 5 + 0


# ----------------------------------------------------------------------------------------------
# §7 / §10 #15: non-activated buildings are removed before scoring
# ----------------------------------------------------------------------------------------------

def test_inactive_buildings_score_nothing():
    # §7: removed before scoring
    only(score("expert", "T3- S- P2-\nF- H3- O4-"))


def test_inactive_tower_is_no_park_neighbour():
    assert score("classic", "T- K T")["parks"] == PARK_VP[1]


def test_inactive_public_service_covers_no_district():
    assert score("classic", "P . P-")["public_services"] == PUBLIC_VP[1]


def test_inactive_harbour_breaks_a_run():
    only(score("classic", "H H- H H"), harbours=HARBOUR_VP[2])


def test_inactive_office_splits_a_group():
    only(score("expert", "O2 O2- O2"), offices=2 * OFFICE_VP[1][2])


def test_inactive_neighbours_give_a_factory_nothing():
    assert score("expert", "S- F H-\n. O1-")["factories"] == 0


def test_inactive_neighbours_count_nothing_for_a_monument():
    # §10 #15 [I-H]
    assert score("expert", "F- M H-\n. S-")["monuments"] == 0


def test_parks_and_monuments_are_active_whatever_the_flag_says():
    # §7: parks and monuments need no activation (the flag is ignored)
    assert score("expert", "K- T M-")["parks"] == PARK_VP[1]
    assert score("expert", "K- M-")["monuments"] == 5


# ----------------------------------------------------------------------------------------------
# §7: activation costs and the penalties
# ----------------------------------------------------------------------------------------------

def test_activation_costs_and_nothing_left_means_no_penalty():
    # §7 costs: tower/shop 1 energy, public/factory/harbour 1 inhabitant, office 1 + 1; customers use
    # inhabitants (§10 #9); this city uses 1+1+1+1+2 = 6 inhabitants and 1+1+1 = 3 energy
    got = score("expert", "T S2 P\nF H O1", inhabitants=6, energy=3)
    assert got["inhabitants"] == 0 and got["energy"] == 0


def test_unused_inhabitants_cost_one_vp_each():
    # §7 / §12 #11: -1 VP per inhabitant used neither to activate nor as a customer
    got = score("classic", "P S2", inhabitants=7, energy=1)
    assert got["inhabitants"] == -(7 - 1 - 2)


def test_unused_energy_costs_one_vp_each_after_parks_absorb_one():
    # §7 / §10 #7: each park absorbs 1 unused energy first
    assert score("classic", "K K T", inhabitants=0, energy=6)["energy"] == -(6 - 1 - 2)
    assert score("classic", "K K K", inhabitants=0, energy=2)["energy"] == 0
    assert score("classic", "T", inhabitants=0, energy=4)["energy"] == -3


@pytest.mark.parametrize("text,inh,en,rule", [
    ("O1", 0, 1, "inhabitants"),            # an office needs 1 inhabitant and 1 energy
    ("O1", 1, 0, "energy"),
    ("T S P", 1, 1, "energy"),              # 2 energy needed
    ("S3", 2, 1, "inhabitants"),            # customers are inhabitants (§10 #9)
])
def test_using_more_than_held_is_refused(text, inh, en, rule):
    # §7: an allocation can only use what the player holds
    with pytest.raises(ValueError, match=rf"{rule}.*§7"):
        score("expert", text, inh, en)


@pytest.mark.parametrize("text,match", [
    ("S3-", "not an activated shop"),       # customers on an inactive shop
    ("T", "not an activated shop"),         # customers on a tower
    ("S6", "at most 5"),                    # Expert shops hold 5 (§7)
])
def test_customers_only_on_activated_shops_within_capacity(text, match):
    board, types, heights, vps, active, customers = city("expert", text)
    if text == "T":
        customers[0] = 1
    with pytest.raises(ValueError, match=match):
        city_score(board, types, heights, vps, active, customers, 10, 10)


def test_classic_shop_holds_four_customers():
    with pytest.raises(ValueError, match="at most 4"):
        score("classic", "S5")


def test_malformed_cities_are_refused():
    board, types, heights, vps, active, customers = city("classic", "T")
    with pytest.raises(ValueError, match="16 spaces"):
        city_score(board, types[:-1], heights, vps, active, customers, 1, 1)
    with pytest.raises(ValueError, match="type code"):
        city_score(board, [9] + types[1:], heights, vps, active, customers, 1, 1)
    with pytest.raises(ValueError, match=">= 0"):
        best_allocation(board, types, heights, vps, -1, 0)


# ----------------------------------------------------------------------------------------------
# best_allocation
# ----------------------------------------------------------------------------------------------

def brute_force(board, types, heights, vps, inhabitants, energy):
    """Every activation subset and every customer spread, scored by ``city_score``; the best by the
    documented order: total, activated buildings, customers, the ``active`` tuple, the ``customers``
    tuple (the lowest shop filled first)."""
    n = board.spaces
    choice = [s for s in range(n) if types[s] not in (EMPTY, PARK, MONUMENT)]
    top = None
    for flags in itertools.product((False, True), repeat=len(choice)):
        active = [types[s] in (PARK, MONUMENT) for s in range(n)]
        for s, f in zip(choice, flags):
            active[s] = f
        i, e = used(board, types, active, [0] * n)
        if i > inhabitants or e > energy:
            continue
        shops = [s for s in choice if active[s] and types[s] == SHOP]
        for spread in itertools.product(range(board.shop_capacity + 1), repeat=len(shops)):
            if sum(spread) > inhabitants - i:
                continue
            customers = [0] * n
            for s, c in zip(shops, spread):
                customers[s] = c
            total = sum(city_score(board, types, heights, vps, active, customers, inhabitants, energy).values())
            key = (total, sum(flags), sum(spread), tuple(active), tuple(customers))
            if top is None or key > top:
                top = key
    return top


def random_city(rng: random.Random, board, max_choices: int = 9):
    """A 3 x 3 or 4 x 4 window of the board, each space filled with probability 0.7 (Expert also
    with offices and monuments), at most ``max_choices`` buildings to activate and 3 shops."""
    n = board.spaces
    kinds = [TOWER, SHOP, PUBLIC, PARK, FACTORY, HARBOUR] + ([OFFICE, MONUMENT] if board.mode == "expert" else [])
    size = rng.choice((3, 4))
    r0, c0 = rng.randrange(board.rows - size + 1), rng.randrange(board.cols - size + 1)
    types, heights, vps = [EMPTY] * n, [0] * n, [0] * n
    choices = shops = 0
    for r in range(r0, r0 + size):
        for c in range(c0, c0 + size):
            if rng.random() > 0.7:
                continue
            t = rng.choice(kinds)
            if t not in (PARK, MONUMENT):
                if choices == max_choices or (t == SHOP and shops == 3):
                    continue
                choices += 1
                shops += t == SHOP
            s = r * board.cols + c
            types[s] = t
            heights[s] = rng.randint(1, 3) if t in (TOWER, OFFICE) else 1
            vps[s] = rng.randint(0, 3) if t in (PUBLIC, HARBOUR) else 0
    return types, heights, vps, rng.randint(0, 8), rng.randint(0, 8)


@pytest.mark.parametrize("mode,seed", [("classic", 1), ("expert", 2)])
def test_best_allocation_matches_brute_force_on_random_cities(mode, seed, monkeypatch):
    # §7: the engine searches for the score-maximising allocation; 300 seeded cities per board.
    # Same total, the same allocation (the documented tie-break), and the breakdown is city_score's;
    # also with the search's finer bound tried at every node (by default only high in the tree)
    board = BOARDS[mode]
    rng = random.Random(seed)
    for _ in range(300):
        types, heights, vps, inh, en = random_city(rng, board)
        want = brute_force(board, types, heights, vps, inh, en)
        case = (mode, types, heights, vps, inh, en)
        for tight in (scoring._TIGHT, 0):
            monkeypatch.setattr(scoring, "_TIGHT", tight)
            got = best_allocation(board, types, heights, vps, inh, en)
            assert got.total == want[0], case
            assert (got.active, got.customers) == (want[3], want[4]), case
            assert got.breakdown == city_score(board, types, heights, vps, got.active, got.customers, inh, en), case
            assert got.total == sum(got.breakdown.values())


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_cutting_branches_changes_no_result_on_full_cities(mode, monkeypatch):
    # cities too large for the brute force, dense in harbours, factories, offices and shops (what the
    # search decides one by one): the search without cutting, with its default cuts and with the
    # finer bound at every node return the same allocation
    board = BOARDS[mode]
    rng = random.Random(4)
    kinds = [TOWER] * 8 + [SHOP] * 10 + [PUBLIC] * 5 + [PARK] * 5 + [FACTORY] * 15 + [HARBOUR] * 19
    if mode == "expert":
        kinds += [OFFICE] * 17 + [MONUMENT] * 4
    prep = scoring._prep(board)
    for _ in range(40):
        types = [rng.choice(kinds) if rng.random() < 0.8 else EMPTY for _ in range(board.spaces)]
        heights = [rng.randint(1, 3) if t in (TOWER, OFFICE) else int(t != EMPTY) for t in types]
        vps = [rng.randint(0, 2) if t in (PUBLIC, HARBOUR) else 0 for t in types]
        args = (board, types, heights, vps, rng.randint(0, 15), rng.randint(0, 15))
        default = best_allocation(*args)
        monkeypatch.setattr(scoring, "_TIGHT", 0)
        fine = best_allocation(*args)
        monkeypatch.setattr(prep, "prune", False)
        exhaustive = best_allocation(*args)
        monkeypatch.undo()
        assert default == fine == exhaustive, args


def test_best_allocation_without_cutting_matches_brute_force():
    # a board whose harbour table is not monotone: the search may not cut branches (still exact)
    board = replace(EXPERT, harbour_vp=(0, 0, 3, 2, 12, 18))
    rng = random.Random(3)
    for _ in range(40):
        types, heights, vps, inh, en = random_city(rng, board, max_choices=7)
        got = best_allocation(board, types, heights, vps, inh, en)
        want = brute_force(board, types, heights, vps, inh, en)
        assert (got.total, got.active, got.customers) == (want[0], want[3], want[4])


def test_best_allocation_refuses_costs_it_cannot_search():
    board = replace(CLASSIC, cost_inh=(0, 1, 0, 1, 0, 1, 1, 1, 0))   # towers paid with inhabitants
    with pytest.raises(ValueError, match="§7"):
        best_allocation(board, *city("classic", "T")[1:4], 1, 1)


def test_monument_corner_case_leaves_a_factory_inactive():
    # §7 corner case: activating a factory next to a monument costs -5, so leaving it inactive can
    # score better, even though the inhabitant it would use is then lost (-1 against -5)
    got = best("expert", "M F", 1, 0)
    assert got.active[:2] == (True, False)
    only(got.breakdown, inhabitants=-1)
    # next to a harbour too: +3 -5 +1 saved is still worse than leaving it (and the harbour alone is 0)
    got = best("expert", "M F H", 2, 0)
    assert got.active[:3] == (True, False, True)
    assert got.total == -1


def test_monument_corner_case_activates_the_factory_when_it_pays():
    # the same factory next to an office and a harbour: +4 +3 -5 and no unused inhabitant
    got = best("expert", "M F O1\n. H", 3, 1)
    assert got.active[1] is True
    assert got.breakdown["factories"] == 7 and got.breakdown["monuments"] == -5


def test_best_allocation_prefers_a_run_over_a_lone_harbour():
    # §8 harbours: with 2 inhabitants, the two adjacent harbours (3 VP) beat the printed 1 VP
    got = best("classic", "H H . H1", 2, 0)
    assert got.active[:4] == (True, True, False, False)
    assert got.total == 3 - 0


def test_best_allocation_fills_one_shop_before_the_next():
    # §8 shop VP are convex: 4 customers on one shop (7) beat 2 + 2 (4); space order breaks the tie
    got = best("classic", "S S", 4, 2)
    assert got.customers[:2] == (4, 0)
    assert got.total == 7


def test_best_allocation_ties_activate_the_lowest_space():
    # documented tie-break: same total and count -> the lowest spaces activated
    got = best("classic", ". T2\nT2", 0, 1)
    assert got.active[1] is True and got.active[4] is False


def test_best_allocation_is_deterministic():
    board = EXPERT
    rng = random.Random(9)
    for _ in range(20):
        types, heights, vps, inh, en = random_city(rng, board)
        assert best_allocation(board, types, heights, vps, inh, en) == best_allocation(board, types, heights, vps,
                                                                                        inh, en)


def test_degenerate_inputs_are_instant():
    # empty city, no resources, huge resources
    start = time.perf_counter()
    only(best("expert", "", 0, 0).breakdown)
    assert best("classic", "", 7, 3).total == -7 - 3
    full = "O2 O2 H H F\nO2 O2 H H F\nT3 K S P M\nT3 K S P F"
    none = best("expert", full, 0, 0)
    assert none.active == tuple(types in (PARK, MONUMENT) for types in city("expert", full)[1])
    huge = best("expert", full, 10 ** 6, 10 ** 6)
    # everything but the two factories next to the monument (r2c5: +3 -5; r4c5: 0 -5; §7 corner case)
    assert [s for s in range(20) if not huge.active[s]] == [9, 19]
    # used: 4 offices, 4 harbours, 1 factory, 2 public services, 2 full shops of 5 customers
    assert huge.breakdown["inhabitants"] == -(10 ** 6 - 4 - 4 - 1 - 2 - 10)
    assert time.perf_counter() - start < 1.0


def test_best_allocation_on_a_full_expert_city_is_fast():
    # the greedy bot calls it mid-game: a typical end-game city takes milliseconds
    board = EXPERT
    rng = random.Random(11)
    kinds = [TOWER] * 26 + [SHOP] * 14 + [PUBLIC] * 17 + [PARK] * 13 + [FACTORY] * 15 + [HARBOUR] * 19 + \
        [OFFICE] * 17 + [MONUMENT] * 4
    start = time.perf_counter()
    for _ in range(50):
        types = [rng.choice(kinds) for _ in range(20)]
        heights = [rng.randint(1, 3) if t in (TOWER, OFFICE) else 1 for t in types]
        vps = [rng.randint(0, 2) if t in (PUBLIC, HARBOUR) else 0 for t in types]
        got = best_allocation(board, types, heights, vps, rng.randint(0, 15), rng.randint(0, 15))
        assert got.total == sum(got.breakdown.values())
    assert (time.perf_counter() - start) / 50 < 0.02
