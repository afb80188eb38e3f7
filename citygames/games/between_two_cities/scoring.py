"""Between Two Cities scoring, base game and Capitals, as pure functions (``shared/reference/between_two_cities.md``,
cited as §N; RB = the English base rulebook, HU-CAP = the Hungarian Capitals rulebook).

A city is given as ``cells``: a sequence of kind codes (``constants``: ``EMPTY``, ``SHOP`` .. ``HOUSE``,
``CIVIC0 + k``, ``TERRAIN``) of length ``geo.size``, indexed like its ``Geometry`` (``row * W + col``). Every
function works on partial cities too (the engine shows a running score, the greedy bot scores candidate
placements), so they are plain loops over ints, and the shop partition is cached per layout
(``Geometry.memo``).

Per city (§5): shops (sets along straight lines), factories (points per factory from the majority across
all the game's cities), taverns (sets of different kinds), offices (sets of up to 6, + 1 per office next
to a tavern), parks (connected groups), houses (1 per other base type present, 1 next to a factory);
Capitals: civic buildings (§8.4) and districts (§8.5, compared across cities). The tables come from
``data/scoring.yaml`` as a ``ScoringRules``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from citygames.core.data import load_data

from .constants import (CIVIC0, EMPTY, FACTORY, HOUSE, NUM_CIVICS, OFFICE, PARK, SHOP, T_FACTORY, T_OFFICE, T_PARK,
                        T_SHOP, T_TAVERN, TAVERN_BED, TAVERN_MUSIC, TYPE_OF)
from .geometry import Geometry

DATA = Path(__file__).parent / "data"
PARTITIONS = ("best", "greedy")
#: the categories of a city's score, in the reference card's scoring order (§5), then the Capitals' (§8.4, §8.5)
CATEGORIES = ("shops", "factories", "taverns", "offices", "parks", "houses", "civics", "districts")

_CIVIC_END = CIVIC0 + NUM_CIVICS


@dataclass(frozen=True)
class ScoringRules:
    """The scoring tables of one game (``data/scoring.yaml``; the defaults are the sheet's values).

    Attributes:
        shop: points of one shop set, index = shops in the set (§5: 2 / 5 / 10 / 16 for 1-4); the largest
            index is the largest set, a longer straight run is split (§8.3, HU-CAP: 5 in a line = 16 + 2).
        tavern: points of one set of different tavern kinds, index = kinds in the set (§5: 1 / 4 / 9 / 17).
        office: points of one office set, index = offices (§5: 1 / 3 / 6 / 10 / 15 / 21); the largest
            index is a full set, the next office starts a new set.
        office_tavern_bonus: points per office next to at least one tavern (§5: 1).
        park: points of one connected park group, index = parks (§5: 2 / 8 / 12).
        park_extra: points per park of a group beyond the table's largest index (§5: 1; 4 parks = 13).
        factory: points per factory for the city (or cities) with the most factories, the second most, and
            every other city with factories (§5: 4 / 3 / 2).
        house_next_factory: what a house next to a factory scores instead (§5: 1).
        civic: a civic building's points when next to none of its types, to exactly one of its positive
            types, to both, to its negative type whatever else (§8.4: 1 / 3 / 6 / 1).
        shop_partition: how crossing shop lines are split into sets: ``"best"`` (the most points, §5 /
            §10 #5 PROJECT DEFAULT [I-M]) or ``"greedy"`` (longest line first, rows before columns).
        districts: per district scoring tile, ``(1st place, 2nd place)`` points (§8.5 [I]: 9/3, 8/4, 7/5).
        shop_lines_cross_bridges: whether a shop line continues across a one-square bridge (§8.3 / §10 #6
            PROJECT DEFAULT [U]); the engine builds its ``Geometry`` with it (``lines_cross_bridges``).
    """

    shop: tuple[int, ...] = (0, 2, 5, 10, 16)
    tavern: tuple[int, ...] = (0, 1, 4, 9, 17)
    office: tuple[int, ...] = (0, 1, 3, 6, 10, 15, 21)
    office_tavern_bonus: int = 1
    park: tuple[int, ...] = (0, 2, 8, 12)
    park_extra: int = 1
    factory: tuple[int, ...] = (4, 3, 2)
    house_next_factory: int = 1
    civic: tuple[int, int, int, int] = (1, 3, 6, 1)
    shop_partition: str = "best"
    districts: tuple[tuple[int, int], ...] = ((9, 3), (8, 4), (7, 5))
    shop_lines_cross_bridges: bool = True


def _int_table(d: Mapping[str, Any], key: str, min_len: int, exact: int | None = None) -> tuple[int, ...]:
    value = d[key]
    if not isinstance(value, (list, tuple)) or not all(isinstance(x, int) and not isinstance(x, bool) for x in value):
        raise ValueError(f"scoring.yaml {key}: a list of integers expected, got {value!r}")
    if len(value) < min_len or (exact is not None and len(value) != exact):
        need = f"exactly {exact}" if exact is not None else f"at least {min_len}"
        raise ValueError(f"scoring.yaml {key}: {need} values expected, got {len(value)}")
    return tuple(value)


def _int(d: Mapping[str, Any], key: str) -> int:
    value = d[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"scoring.yaml {key}: an integer expected, got {value!r}")
    return value


def rules_from_data(d: Mapping[str, Any]) -> ScoringRules:
    """A ``ScoringRules`` from the plain (unwrapped) data of ``scoring.yaml``, as ``load_data`` returns it.

    Raises:
        KeyError: a table is missing.
        ValueError: a table of the wrong shape (shop, tavern, office and park tables start with 0 for an
            empty set and need at least the 1-item entry; factory needs 3 values, civic 4), an unknown
            ``shop_partition``, or a district tile without integer ``first`` and ``second``.
    """
    tables = {key: _int_table(d, key, 2) for key in ("shop", "tavern", "office", "park")}
    for key, table in tables.items():
        if table[0] != 0:
            raise ValueError(f"scoring.yaml {key}: the first value (an empty set) must be 0, got {table[0]}")
    partition = d["shop_partition"]
    if partition not in PARTITIONS:
        raise ValueError(f"scoring.yaml shop_partition: one of {PARTITIONS} expected, got {partition!r}")
    crosses = d.get("shop_lines_cross_bridges", True)
    if not isinstance(crosses, bool):
        raise ValueError(f"scoring.yaml shop_lines_cross_bridges: true or false expected, got {crosses!r}")
    districts = []
    for i, tile in enumerate(d["districts"]):
        if not isinstance(tile, Mapping) or not all(isinstance(tile.get(k), int) and not isinstance(tile.get(k), bool)
                                                    for k in ("first", "second")):
            raise ValueError(f"scoring.yaml districts[{i}]: integer 'first' and 'second' expected, got {tile!r}")
        districts.append((tile["first"], tile["second"]))
    return ScoringRules(shop=tables["shop"], tavern=tables["tavern"], office=tables["office"],
                        office_tavern_bonus=_int(d, "office_tavern_bonus"), park=tables["park"],
                        park_extra=_int(d, "park_extra"), factory=_int_table(d, "factory", 3, exact=3),
                        house_next_factory=_int(d, "house_next_factory"),
                        civic=_int_table(d, "civic", 4, exact=4), shop_partition=partition,
                        districts=tuple(districts), shop_lines_cross_bridges=crosses)


def load_rules(overrides: Mapping[str, Any] | Iterable[tuple[str, Any]] = ()) -> ScoringRules:
    """The ``ScoringRules`` of ``data/scoring.yaml`` with data ``overrides`` applied.

    Args:
        overrides: canonical data overrides ``{"scoring.yaml:PATH": value}`` (or its items), as
            ``core.data.load_data`` takes them; keys of other files are ignored.

    Raises:
        ValueError: a bad override path or a table ``rules_from_data`` refuses.
    """
    data, _ = load_data(DATA / "scoring.yaml", overrides)
    return rules_from_data(data)


# --- shops (§5, §8.3) ---------------------------------------------------------------------------
@lru_cache(maxsize=64)
def run_values(shop: tuple[int, ...], n: int) -> tuple[int, ...]:
    """``f[k]`` for ``k = 0 .. n``: the points of a straight run of ``k`` shops split into sets the best way
    (§8.3, HU-CAP: 5 in a line = 16 + 2 = 18), for the shop table ``shop``."""
    top = len(shop) - 1
    f = [0] * (n + 1)
    for k in range(1, n + 1):
        f[k] = max(shop[j] + f[k - j] for j in range(1, min(k, top) + 1))
    return tuple(f)


def shop_cells(cells: Sequence[int]) -> list[int]:
    """The cells holding a shop, in increasing order."""
    return [i for i, k in enumerate(cells) if k == SHOP]


def shop_points(cells: Sequence[int], geo: Geometry, rules: ScoringRules) -> int:
    """The points of a city's shops (§5): shops in one straight line (``geo.lines``) form a set worth
    ``rules.shop[size]``; where lines cross each shop belongs to one set; a run longer than the largest
    set is split the best way (§8.3).

    ``rules.shop_partition == "best"``: the split of all the city's shops into straight consecutive
    segments with the most points (exact: a dynamic programme over the cells, see ``_best_shops``);
    ``"greedy"``: repeatedly take the longest run of consecutive unassigned shops in a line, rows before
    columns, then top to bottom / left to right (``_greedy_shops``). The sheet's example: shops at
    (r1,c2), (r2,c1), (r2,c2), (r3,c1) score 9 greedy, 10 best.

    Args:
        cells: kind codes, length ``geo.size``.
    Returns:
        points (0 for no shops). Cached per layout in ``geo.memo`` by the set of shop cells.
    """
    mask = 0
    for i, k in enumerate(cells):
        if k == SHOP:
            mask |= 1 << i
    return _shops_of_mask(mask, geo, rules)


def _shops_of_mask(mask: int, geo: Geometry, rules: ScoringRules) -> int:
    """``shop_points`` of the shops at the bits of ``mask`` (bit ``i`` = cell ``i``), cached in ``geo.memo``."""
    if not mask:
        return 0
    key = (rules.shop, rules.shop_partition)
    cache = geo.memo.get(key)
    if cache is None:
        cache = geo.memo[key] = {}
    pts = cache.get(mask)
    if pts is None:
        shops = [i for i in range(geo.size) if mask >> i & 1]
        f = run_values(rules.shop, geo.width)
        pts = _greedy_shops(shops, geo, f) if rules.shop_partition == "greedy" else _best_shops(shops, geo, f)
        if len(cache) >= 200_000:
            cache.clear()
        cache[mask] = pts
    return pts


def _greedy_shops(shops: list[int], geo: Geometry, f: tuple[int, ...]) -> int:
    """Greedy partition (§5 "Shop partition"): the longest run of consecutive unassigned shops along a line
    (rows first, top to bottom, then columns, left to right; the first found wins a tie) becomes a set
    (a run longer than the largest set split the best way), until every shop is in a set."""
    left = set(shops)
    total = 0
    while left:
        best: list[int] = []
        for line in geo.lines:
            run: list[int] = []
            for c in line:
                if c in left:
                    run.append(c)
                    continue
                if len(run) > len(best):
                    best = run
                run = []
            if len(run) > len(best):
                best = run
        if len(best) == 1:          # only lone shops remain
            return total + f[1] * len(left)
        total += f[len(best)]
        left.difference_update(best)
    return total


def _best_shops(shops: list[int], geo: Geometry, f: tuple[int, ...]) -> int:
    """The best partition of ``shops`` (increasing cells) into straight consecutive segments.

    Every shop goes either *across* (into a set along its row line) or *down* (its column line); the
    shops put across in one row line form runs of consecutive shops, each scored ``f[len]`` (its best
    split), and likewise down. A shop with shop line-neighbours in one direction only is put that way,
    which never loses points (``f`` is superadditive: ``f[a + 1 + b] >= f[a] + f[1] + f[b]``). The
    remaining choices go through a dynamic programme over the shops in cell order whose state is the
    length of the open run in each column and in the current row (a run is kept open only while the
    next cell of its line is a shop), adding ``f[k] - f[k - 1]`` when a run grows to ``k``."""
    isshop = set(shops)
    nh, ph, nv, pv = geo.next_h, geo.prev_h, geo.next_v, geo.prev_v
    across = {}
    both = False
    for s in shops:
        h = nh[s] in isshop or ph[s] in isshop
        v = nv[s] in isshop or pv[s] in isshop
        if h and v:
            both = True
        across[s] = h or not v
    if not both:                                   # no crossing: score the runs directly
        total = 0
        for s in shops:
            if across[s]:
                if not (ph[s] in isshop):
                    n, c = 1, nh[s]
                    while c in isshop:
                        n, c = n + 1, nh[c]
                    total += f[n]
            elif not (pv[s] in isshop):
                n, c = 1, nv[s]
                while c in isshop:
                    n, c = n + 1, nv[c]
                total += f[n]
        return total
    w = geo.width
    states = {(0,) * (w + 1): 0}                   # (open down-run per column ..., open across-run) -> best
    for s in shops:
        col = s % w
        cont_h = nh[s] in isshop
        cont_v = nv[s] in isshop
        choose_h = nh[s] in isshop or ph[s] in isshop
        choose_v = cont_v or pv[s] in isshop
        if not choose_h and not choose_v:
            choose_h = True                        # a lone shop: one set of 1 either way
        new: dict[tuple[int, ...], int] = {}
        for st, val in states.items():
            if choose_h:
                k = st[w] + 1
                nxt = st[:col] + (0,) + st[col + 1:w] + ((k if cont_h else 0),)
                v2 = val + f[k] - f[k - 1]
                if new.get(nxt, -1) < v2:
                    new[nxt] = v2
            if choose_v:
                k = st[col] + 1
                nxt = st[:col] + ((k if cont_v else 0),) + st[col + 1:w] + (0,)
                v2 = val + f[k] - f[k - 1]
                if new.get(nxt, -1) < v2:
                    new[nxt] = v2
        states = new
    return max(states.values())


# --- factories (§5) -----------------------------------------------------------------------------
def factory_multipliers(counts: Sequence[int], rules: ScoringRules) -> list[int]:
    """Points per factory of each city, from the factory counts of ALL the game's cities (§5, RB p4).

    The city or cities with the most factories score ``rules.factory[0]`` per factory, those with the
    second most ``rules.factory[1]``, every other city with factories ``rules.factory[2]``, a city with
    none 0. A tie for most does not use up second place: counts 5, 5, 3, 2, 1 give 4, 4, 3, 2, 2.

    Args:
        counts: factories per city (any order; the result follows it).
    Returns:
        a list of the same length.
    """
    ranks = sorted({c for c in counts if c > 0}, reverse=True)
    table = rules.factory
    last = len(table) - 1
    return [0 if c <= 0 else table[min(ranks.index(c), last)] for c in counts]


# --- taverns, offices, parks, houses (§5) -------------------------------------------------------
def tavern_points(cells: Sequence[int], rules: ScoringRules) -> int:
    """The points of a city's taverns (§5, RB p5): each set of *different* kinds scores ``rules.tavern[kinds]``;
    a duplicate starts a new set (1 music, 2 drink, 2 food = 9 + 4 = 13). Sets are built as large as
    possible, which is best since the table's increments rise."""
    counts = [0, 0, 0, 0]
    for k in cells:
        if TAVERN_MUSIC <= k <= TAVERN_BED:
            counts[k - TAVERN_MUSIC] += 1
    return _tavern_sets(counts, rules.tavern)


def _tavern_sets(counts: list[int], table: tuple[int, ...]) -> int:
    total = 0
    for j in range(max(counts)):
        total += table[(counts[0] > j) + (counts[1] > j) + (counts[2] > j) + (counts[3] > j)]
    return total


def _office_sets(n: int, table: tuple[int, ...]) -> int:
    full = len(table) - 1
    return (n // full) * table[full] + table[n % full]


def office_parts(cells: Sequence[int], geo: Geometry, rules: ScoringRules) -> tuple[int, int]:
    """``(set points, tavern bonus)`` of a city's offices (§5, RB p5): sets of up to 6 offices anywhere
    (``rules.office``; a 7th starts a new set: 7 offices = 21 + 1), and ``rules.office_tavern_bonus`` per
    office adjacent (``geo.adj``, bridges included) to at least one tavern of any kind."""
    n = bonus = 0
    adj = geo.adj
    for i, k in enumerate(cells):
        if k == OFFICE:
            n += 1
            for j in adj[i]:
                if TAVERN_MUSIC <= cells[j] <= TAVERN_BED:
                    bonus += 1
                    break
    return _office_sets(n, rules.office), bonus * rules.office_tavern_bonus


def office_points(cells: Sequence[int], geo: Geometry, rules: ScoringRules) -> int:
    """The points of a city's offices, sets plus tavern bonus (§5; ``office_parts`` gives the two apart)."""
    sets, bonus = office_parts(cells, geo, rules)
    return sets + bonus


def _park_group(n: int, rules: ScoringRules) -> int:
    table = rules.park
    top = len(table) - 1
    return table[n] if n <= top else table[top] + rules.park_extra * (n - top)


def park_groups(cells: Sequence[int], geo: Geometry) -> list[int]:
    """The sizes of the city's connected park groups (via ``geo.adj``: orthogonal, bridges connect), in the
    order of their first cell."""
    return _group_sizes({i for i, k in enumerate(cells) if k == PARK}, geo.adj)


def park_points(cells: Sequence[int], geo: Geometry, rules: ScoringRules) -> int:
    """The points of a city's parks (§5, RB p5): each connected group scores ``rules.park[size]``, then
    ``rules.park_extra`` per park beyond the table (2 / 8 / 12 / 13 / 14 ...); groups score separately
    (four lone parks = 8; 3 + 1 = 14; 4 together = 13; 2 + 2 = 16)."""
    return _parks_of({i for i, k in enumerate(cells) if k == PARK}, geo, rules)


def _parks_of(left: set[int], geo: Geometry, rules: ScoringRules) -> int:
    """``park_points`` of the parks at the cells ``left`` (emptied on the way)."""
    return sum(_park_group(n, rules) for n in _group_sizes(left, geo.adj))


def _group_sizes(left: set[int], adj) -> list[int]:
    """The sizes of the connected groups (via ``adj``) of the cells ``left``, in the order of their
    smallest cell; ``left`` is emptied on the way."""
    sizes = []
    for i in sorted(left):
        if i not in left:
            continue
        left.remove(i)
        stack, n = [i], 0
        while stack:
            c = stack.pop()
            n += 1
            for j in adj[c]:
                if j in left:
                    left.remove(j)
                    stack.append(j)
        sizes.append(n)
    return sizes


def _other_types(present: set[int]) -> int:
    return (T_SHOP in present) + (T_FACTORY in present) + (T_TAVERN in present) + (T_OFFICE in present) \
        + (T_PARK in present)


def house_points(cells: Sequence[int], geo: Geometry, rules: ScoringRules) -> int:
    """The points of a city's houses (§5, RB p5): each house scores 1 per *other* base type present in the
    city (shop, factory, tavern of any kind, office, park: at most 5; civic buildings do not count, §8.4
    HU-CAP), or ``rules.house_next_factory`` if it is adjacent (``geo.adj``, bridges included, §8.3) to a
    factory."""
    present = {TYPE_OF[k] for k in cells}
    other = _other_types(present)
    adj = geo.adj
    total = 0
    for i, k in enumerate(cells):
        if k == HOUSE:
            total += rules.house_next_factory if any(cells[j] == FACTORY for j in adj[i]) else other
    return total


# --- Capitals: civic buildings (§8.4) and districts (§8.5) --------------------------------------
def civic_points(cells: Sequence[int], geo: Geometry, civics: Sequence[tuple[int, int, int]],
                 rules: ScoringRules) -> int:
    """The points of a city's civic buildings (§8.4, HU-CAP), each scored alone from the types of its
    neighbours (``geo.adj``, bridges included; how many of a type does not matter): ``rules.civic[3]`` (1)
    if next to its negative type whatever else, else ``rules.civic[n]`` for ``n`` = how many of its two
    positive types are next to it (1 / 3 / 6). Elementary School (+ park, + house, - tavern): 1 / 3 / 6 / 1.

    Args:
        civics: ``civics[k] = (plus_a, plus_b, minus)``, scoring types (``T_*``) of civic building ``k``.
    Raises:
        ValueError: the city holds civic building ``k`` and ``civics`` does not describe it.
    """
    adj = geo.adj
    total = 0
    for i, k in enumerate(cells):
        if CIVIC0 <= k < _CIVIC_END:
            c = k - CIVIC0
            if c >= len(civics):
                raise ValueError(f"civic building {c} is in the city but civics describes only {len(civics)}")
            plus_a, plus_b, minus = civics[c]
            near = {TYPE_OF[cells[j]] for j in adj[i]}
            if minus in near:
                total += rules.civic[3]
            else:
                total += rules.civic[(plus_a in near) + (plus_b in near)]
    return total


def largest_district(cells: Sequence[int], geo: Geometry, pair: tuple[int, int]) -> int:
    """The size in tiles of the city's largest district of ``pair`` (§8.5, HU-CAP): a connected region
    (``geo.adj``: orthogonal, bridges connect) of cells whose scoring type is one of the pair's two types
    (``T_*``); it need not hold both. 0 when the city has none."""
    a, b = pair
    types = TYPE_OF
    left = {i for i, k in enumerate(cells) if k and (types[k] == a or types[k] == b)}
    return max(_group_sizes(left, geo.adj), default=0)


def district_points(sizes: Sequence[int], first: int, second: int) -> list[int]:
    """Each city's points for one district pair (§8.5, HU-CAP), from every city's largest district size.

    The largest district gets ``first``, the second largest (of another city) ``second``; a tie for first
    shares ``first + second`` evenly rounding down and gives no second place (3-way tie on 9/3: 4 each); a
    tie for second shares ``second`` evenly rounding down (two-way on 5: 2 each). A city without a
    district (size 0) gets nothing.

    Returns:
        a list like ``sizes``.
    """
    out = [0] * len(sizes)
    best = max(sizes, default=0)
    if best <= 0:
        return out
    top = [i for i, s in enumerate(sizes) if s == best]
    if len(top) > 1:
        share = (first + second) // len(top)
        for i in top:
            out[i] = share
        return out
    out[top[0]] = first
    runner = max((s for s in sizes if s < best), default=0)
    if runner > 0:
        seconds = [i for i, s in enumerate(sizes) if s == runner]
        for i in seconds:
            out[i] = second // len(seconds)
    return out


# --- one city, all cities -----------------------------------------------------------------------
def type_counts(cells: Sequence[int]) -> tuple[int, int, int, int, int, int]:
    """How many shops, factories, taverns (all kinds), offices, parks and houses the city holds: the second
    tie-break's order (§5)."""
    n = [0] * 10
    for k in cells:
        if k <= HOUSE:
            n[k] += 1
    return (n[SHOP], n[FACTORY], n[3] + n[4] + n[5] + n[6], n[OFFICE], n[PARK], n[HOUSE])


def city_breakdown(cells: Sequence[int], geo: Geometry, rules: ScoringRules, factory_per: int,
                   civics: Sequence[tuple[int, int, int]] = (), district_pts: int = 0) -> dict[str, int]:
    """One city's points per category (``CATEGORIES``); the values sum to the city's score.

    Args:
        cells: kind codes, length ``geo.size``.
        factory_per: points per factory, from ``factory_multipliers`` over all the game's cities (§5).
        civics: the civic buildings' types (``civic_points``); needed only if the city holds one.
        district_pts: the city's district points (``district_points``, §8.5), already summed over pairs.
    Raises:
        ValueError: ``cells`` is not ``geo.size`` long; a civic building ``civics`` does not describe.
    """
    if len(cells) != geo.size:
        raise ValueError(f"a city of this layout has {geo.size} cells, got {len(cells)}")
    adj = geo.adj
    n_fac = n_off = off_bonus = shops = 0
    taverns = [0, 0, 0, 0]
    houses: list[int] = []
    parks: set[int] = set()
    has_civic = False
    present = 0                                    # bit per base type present
    for i, k in enumerate(cells):
        if k == EMPTY or k > HOUSE:
            has_civic = has_civic or CIVIC0 <= k < _CIVIC_END
            continue
        if k == FACTORY:
            n_fac += 1
            present |= 2
        elif k == OFFICE:
            n_off += 1
            present |= 8
            for j in adj[i]:
                if TAVERN_MUSIC <= cells[j] <= TAVERN_BED:
                    off_bonus += 1
                    break
        elif k == HOUSE:
            houses.append(i)
        elif k == SHOP:
            shops |= 1 << i
            present |= 1
        elif k == PARK:
            parks.add(i)
            present |= 16
        else:
            taverns[k - TAVERN_MUSIC] += 1
            present |= 4
    other = (present & 1) + (present >> 1 & 1) + (present >> 2 & 1) + (present >> 3 & 1) + (present >> 4 & 1)
    house = 0
    for i in houses:
        for j in adj[i]:
            if cells[j] == FACTORY:
                house += rules.house_next_factory
                break
        else:
            house += other
    return {
        "shops": _shops_of_mask(shops, geo, rules),
        "factories": n_fac * factory_per,
        "taverns": _tavern_sets(taverns, rules.tavern) if present & 4 else 0,
        "offices": _office_sets(n_off, rules.office) + off_bonus * rules.office_tavern_bonus,
        "parks": _parks_of(parks, geo, rules),
        "houses": house,
        "civics": civic_points(cells, geo, civics, rules) if has_civic else 0,
        "districts": district_pts,
    }


def score_cities(cities: Sequence[Sequence[int]], geos: Sequence[Geometry], rules: ScoringRules,
                 civics: Sequence[tuple[int, int, int]] = (),
                 district_pairs: Sequence[tuple[tuple[int, int], int]] = ()) -> list[dict[str, int]]:
    """Every city's ``city_breakdown`` for a whole game: the factory majority over all the given cities
    (§5; in the 2-player variant over all 4, §7.1) and, with ``district_pairs``, the district scoring
    across cities (§8.5).

    Args:
        cities: each city's cells; ``geos[i]`` is city ``i``'s layout.
        civics: the civic buildings' types (``civic_points``).
        district_pairs: ``((type_a, type_b), tile_index)`` per district in play: the pair's scoring types
            and the index of its scoring tile in ``rules.districts``.
    Returns:
        one ``{category: points}`` per city, in order.
    Raises:
        ValueError: ``cities`` and ``geos`` differ in length; as ``city_breakdown``.
        IndexError: a district tile index outside ``rules.districts``.
    """
    if len(cities) != len(geos):
        raise ValueError(f"{len(cities)} cities but {len(geos)} layouts")
    # what one city contributes, kept by its cells in its layout's memo (an action changes one city, so
    # the others are found again): [its factories, {pair: largest district}, {(points per factory,
    # district points): breakdown}] (a city's breakdown depends on the others only through those two)
    civics = tuple(civics)
    records = []
    for c, g in zip(cities, geos):
        c = tuple(c)
        memo = _memo(g, ("city", rules, civics))
        rec = memo.get(c)
        if rec is None:
            rec = memo[c] = [c.count(FACTORY), {}, {}, c]
        records.append(rec)
    per = factory_multipliers([rec[0] for rec in records], rules)
    districts = [0] * len(cities)
    for pair, tile in district_pairs:
        first, second = rules.districts[tile]
        sizes = []
        for rec, g in zip(records, geos):
            size = rec[1].get(pair)
            if size is None:
                size = rec[1][pair] = largest_district(rec[3], g, pair)
            sizes.append(size)
        for i, pts in enumerate(district_points(sizes, first, second)):
            districts[i] += pts
    out = []
    for i, (rec, g) in enumerate(zip(records, geos)):
        key = (per[i], districts[i])
        bd = rec[2].get(key)
        if bd is None:
            bd = rec[2][key] = city_breakdown(rec[3], g, rules, per[i], civics, districts[i])
        out.append(dict(bd))
    return out


#: most cities kept by ``score_cities`` per layout (emptied when full): about 1 KB each (a city's cells and
#: its breakdowns); only the cities of the games being played are looked up again
MEMO_SIZE = 10_000


def _memo(geo: Geometry, key) -> dict:
    """The cache ``key`` of ``geo.memo`` (a dict, emptied when it holds ``MEMO_SIZE`` entries)."""
    memo = geo.memo.get(key)
    if memo is None or len(memo) >= MEMO_SIZE:
        memo = geo.memo[key] = {}
    return memo


__all__ = ["CATEGORIES", "PARTITIONS", "ScoringRules", "rules_from_data", "load_rules", "run_values", "shop_cells",
           "shop_points", "factory_multipliers", "tavern_points", "office_parts", "office_points", "park_groups",
           "park_points", "house_points", "civic_points", "largest_district", "district_points", "type_counts",
           "city_breakdown", "score_cities"]
