"""Between Two Cities: scores, ranking and the end of the game (§5, §7.1, §8.5).

Every city is scored by ``scoring.score_cities`` (the factory majority across all the game's cities,
§5; with the Capitals the civic buildings and the three districts, §8.4, §8.5), at any time: during the
game this is the running score of the cities as they stand.

A seat's score (§5 [C]) is the **lower** of its two cities' scores; in the two-player variant (§7.1
[C]) the **sum** of its two cities. Ranking: highest score; tie-break 1 (§5 [C], not with 2 players):
the higher of the seat's two cities; tie-break 2 (§5 [C]): the numbers of shops, then factories,
taverns, offices, parks and houses across both of the seat's cities, compared in that order, more
winning (``tiles.yaml`` ``rules.tie_break_more_wins``, inferred: the sheet does not say which way).
Seats tied on everything share the win (``returns`` splits 1.0 among them).
"""

from __future__ import annotations

from citygames.core.game import TERMINAL
from citygames.core.phases import NO_DECISION

from .scoring import CATEGORIES, score_cities, type_counts
from .steps import P_END

#: the categories of a base game's score (the Capitals add civics and districts)
BASE_CATEGORIES = CATEGORIES[:6]


def city_cells(s, city: int) -> list[int]:
    """The cells of ``city`` (kind codes, ``row * W + col``)."""
    size = s.game.size
    return s.cells[city * size:(city + 1) * size]


def city_scores(s) -> list[dict]:
    """Every city's score by category (``scoring.CATEGORIES``), cached until the next action."""
    v = s._scores
    if v is None:
        g = s.game
        geos = g.geometries(s.mats)
        cities = [city_cells(s, c) for c in range(g.n_cities)]
        pairs = tuple(((a, b), tile) for a, b, tile in s.districts)
        v = s._scores = score_cities(cities, geos, g.components.scoring, g.civic_types, pairs)
    return v


def city_totals(s) -> list[int]:
    """Every city's score."""
    return [sum(bd.values()) for bd in city_scores(s)]


def seat_cities(s, p: int) -> tuple[int, int]:
    """Seat ``p``'s left and right cities."""
    g = s.game
    return g.left[p], g.right[p]


def lower_city(s, p: int) -> int:
    """The city whose score is seat ``p``'s (§5: the lower of its two; the left one when equal)."""
    left, right = seat_cities(s, p)
    t = city_totals(s)
    return right if t[right] < t[left] else left


def scores(s) -> list[int]:
    """Each seat's score: the lower of its two cities (§5), 2 players the sum (§7.1)."""
    g = s.game
    t = city_totals(s)
    if g.two_player:
        return [t[g.left[p]] + t[g.right[p]] for p in range(g.num_players)]
    return [min(t[g.left[p]], t[g.right[p]]) for p in range(g.num_players)]


def categories(game) -> tuple[str, ...]:
    return CATEGORIES if game.capitals else BASE_CATEGORIES


def score_breakdown(s, p: int) -> dict[str, int]:
    """Seat ``p``'s score by category (``scoring.CATEGORIES``; civics and districts with the Capitals
    only): the categories of its lower city (§5), or with 2 players the sum of its two cities' (§7.1).
    The values sum to ``scores()[p]``."""
    g = s.game
    bds = city_scores(s)
    cats = categories(g)
    if g.two_player:
        a, b = bds[g.left[p]], bds[g.right[p]]
        return {c: a[c] + b[c] for c in cats}
    bd = bds[lower_city(s, p)]
    return {c: bd[c] for c in cats}


def tie_counts(s, p: int) -> tuple[int, ...]:
    """Seat ``p``'s building counts across both its cities in the second tie-break's order (§5)."""
    left, right = seat_cities(s, p)
    a, b = type_counts(city_cells(s, left)), type_counts(city_cells(s, right))
    return tuple(x + y for x, y in zip(a, b))


def _keys(s) -> list[tuple]:
    """Per seat, its ranking key (smaller is better): score, tie-break 1, then (only for seats still tied)
    tie-break 2."""
    g = s.game
    sc = scores(s)
    if g.two_player:
        keys = [(-sc[p],) for p in range(g.num_players)]
    else:
        t = city_totals(s)
        keys = [(-sc[p], -max(t[g.left[p]], t[g.right[p]])) for p in range(g.num_players)]
    more = 1 if g.components.rules["tie_break_more_wins"] else -1
    return [k + tuple(-more * x for x in tie_counts(s, p)) if keys.count(k) > 1 else k
            for p, k in enumerate(keys)]


def ranking(s) -> list[int]:
    """Seats from first to last: score, then tie-break 1 (the higher city; not with 2 players), then
    tie-break 2 (building counts, §5); seats tied on everything keep seat order."""
    keys = _keys(s)
    return sorted(range(s.game.num_players), key=keys.__getitem__)


def winners(s) -> list[int]:
    """The seats tied for first place after every tie-break (usually one)."""
    keys = _keys(s)
    top = min(keys)
    return [p for p in range(s.game.num_players) if keys[p] == top]


def returns(s) -> list[float]:
    """At the end 1.0 for the winner (shared equally by seats tied after every tie-break), 0.0 for the
    others; all 0.0 before."""
    n = s.game.num_players
    if s.phase != P_END:
        return [0.0] * n
    w = winners(s)
    return [1.0 / len(w) if p in w else 0.0 for p in range(n)]


def finish(s) -> None:
    """The last stage is over: the game ends and the cities are scored (§3, §5)."""
    s.phase = P_END
    s.step = NO_DECISION
    s.player = TERMINAL
    s.movers = ()
    s._scores = None
    s.event("game_end", None, cities=city_totals(s), scores=scores(s), winners=winners(s))


def run_end(s) -> None:  # pragma: no cover
    raise RuntimeError("the game is over")


__all__ = ["BASE_CATEGORIES", "city_cells", "city_scores", "city_totals", "seat_cities", "lower_city", "scores",
           "categories", "score_breakdown", "tie_counts", "ranking", "winners", "returns", "finish", "run_end"]
