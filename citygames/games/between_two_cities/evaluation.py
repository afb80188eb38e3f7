"""Between Two Cities: the greedy bot's evaluation (``game.evaluate(state, seat)``).

The greedy bot (``citygames.bots.greedy``) applies each legal action to a copy of the state (drawn by
``resample`` for its seat) and keeps the action whose result this function values most. A seat's value
is ``f(L, R)`` of its two cities' scores: ``min(L, R) + SUM_WEIGHT * (L + R)`` (its score is the lower
city, §5; the sum term makes it still care for the higher one), or ``L + R`` with 2 players (§7.1).

What the seat has chosen but not placed yet counts as placed where it gains most: a pending ``choose``
(the pair it picked, still secret), a pending ``discard_duplex`` (the two duplexes it keeps), and the
tiles or duplexes revealed and waiting for its placement. Each is tried in each of the seat's cities on
every square the placement rule allows, one tile per city, and the best assignment counts. So choosing
values a pair by its best placements across both cities, and placing values a square by the city it
makes plus the best square left for the other tile.

City scores here are approximations for speed: the factory majority (compared across all cities, §5)
is taken as 3 points per factory, and the districts (Capitals, §8.5) are left out. The bot does not
weigh what passing leaves its neighbours. At the end the value is the seat's real score.
"""

from __future__ import annotations

from citygames.core.game import SIMULTANEOUS

from .scoring import city_breakdown
from .steps import CHOOSE, DISCARD, P_END, PLACE, PLACE_DUPLEX

#: weight of the sum of the two cities beside the lower one
SUM_WEIGHT = 0.25
#: points per factory assumed while playing (the middle of the majority table 4 / 3 / 2)
FACTORY_GUESS = 3
_MEMO: dict = {}


def city_value(game, geo, cells) -> int:
    """The approximate score of a city (``FACTORY_GUESS`` per factory, no districts), memoised."""
    key = (geo, tuple(cells))
    v = _MEMO.get(key)
    if v is None:
        if len(_MEMO) > 200_000:
            _MEMO.clear()
        v = _MEMO[key] = sum(city_breakdown(cells, geo, game.components.scoring, FACTORY_GUESS,
                                            game.civic_types).values())
    return v


def _best_single(s, city: int, kind: int, now: int) -> int:
    """The most ``city``'s value can grow by one ``kind`` tile on a legal square."""
    from .placement import single_cells
    g = s.game
    geo = g.geometries(s.mats)[city]
    cells = s.cells[city * g.size:(city + 1) * g.size]
    best = None
    for x in single_cells(s, city)[1]:
        cells[x] = kind
        v = city_value(g, geo, cells)
        cells[x] = 0
        if best is None or v > best:
            best = v
    return 0 if best is None else best - now


def _best_duplex(s, city: int, d: int, now: int) -> int:
    """The most ``city``'s value can grow by duplex ``d`` on a legal spot."""
    from .placement import duplex_cells
    g = s.game
    geo = g.geometries(s.mats)[city]
    cells = s.cells[city * g.size:(city + 1) * g.size]
    dup = g.components.duplexes[d]
    step = 1 if dup.horizontal else g.width
    best = None
    for x in duplex_cells(s, city, d):
        cells[x], cells[x + step] = dup.halves
        v = city_value(g, geo, cells)
        cells[x] = cells[x + step] = 0
        if best is None or v > best:
            best = v
    return 0 if best is None else best - now


def _waiting(s, p: int) -> tuple[list[int], bool]:
    """What seat ``p`` has chosen and not placed: ``(items, duplexes?)``."""
    g = s.game
    if s.player == SIMULTANEOUS and s.pending[p] >= 0:
        a = g.action_space.table[s.pending[p]]
        if s.step == CHOOSE:
            from .game import PAIRS
            return list(PAIRS[a.arg]), False
        if s.step == DISCARD:
            k = g.duplexes_drawn
            return [d for d in s.dhands[p * k:(p + 1) * k] if d != a.arg], True
    if s.step in (PLACE, PLACE_DUPLEX):
        items = [t for t in s.todo[2 * p:2 * p + 2] if t >= 0]
        return items, s.step == PLACE_DUPLEX
    return [], False


def seat_value(s, p: int) -> float:
    """Seat ``p``'s value (module docstring)."""
    g = s.game
    if s.phase == P_END:
        return float(s.scores()[p])
    geos = g.geometries(s.mats)
    size = g.size
    cities = (g.left[p], g.right[p])
    now = [city_value(g, geos[c], s.cells[c * size:(c + 1) * size]) for c in cities]
    items, duplexes = _waiting(s, p)
    best = (now[0], now[1])
    if items:
        gain = _best_duplex if duplexes else _best_single
        side = s.side[p] if s.step in (PLACE, PLACE_DUPLEX) else -1
        sides = (0, 1) if side < 0 else (1 - side,)
        g_ = {(i, sd): gain(s, cities[sd], t, now[sd]) for i, t in enumerate(items) for sd in sides}
        options = []
        if len(items) == 2:
            options = [(now[0] + g_[(0, 0)], now[1] + g_[(1, 1)]), (now[0] + g_[(1, 0)], now[1] + g_[(0, 1)])]
        else:
            for sd in sides:
                v = [now[0], now[1]]
                v[sd] += g_[(0, sd)]
                options.append((v[0], v[1]))
        best = max(options, key=lambda lr: _f(g, *lr))
    return _f(g, *best)


def _f(g, left: float, right: float) -> float:
    if g.two_player:
        return float(left + right)
    return min(left, right) + SUM_WEIGHT * (left + right)


def evaluate(s, p: int) -> float:
    """Heuristic value of ``s`` for seat ``p`` (higher is better): ``seat_value``."""
    return seat_value(s, p)


__all__ = ["evaluate", "seat_value", "city_value", "SUM_WEIGHT", "FACTORY_GUESS"]
