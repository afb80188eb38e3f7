"""Between Two Cities: the greedy bot's evaluation (``game.evaluate(state, seat)``).

The greedy bot (``citygames.bots.greedy``) applies each legal action to a copy of the state (drawn by
``resample`` for its seat) and keeps the action whose result this function values most. The issue
asks for "the draft: the pair that gains most across both cities, counting what passing feeds the
neighbours; placement: the squares that score most".

**A seat's value** is ``f(L, R)`` of its two cities' scores: ``min(L, R) + SUM_WEIGHT * (L + R)`` (its
score is the lower city, §5; the sum term makes it still care for the higher one), or ``L + R`` with
2 players (§7.1). At the end it is the seat's real score.

**City scores** are the scores of the cities as they stand, with the two parts that are compared
across cities taken from the current standings rather than guessed: factories at the multiplier
their city's count earns now against every other city (4 / 3 / 2, §5), and, with the Capitals, the
district points the city's largest districts earn now against the other cities' (§8.5). A city's
parts (its other points, its factory count, its largest district per pair) are memoised by its cells.

**What is chosen but not placed** counts as placed where it gains most: a pending ``choose`` (the
pair, still secret), a pending ``discard_duplex`` (the two duplexes kept), and the tiles or duplexes
revealed and waiting. Each is tried in each of the seat's cities on every square the placement rule
allows, one per city, and the best assignment counts. So the draft values a pair by its best squares
across both cities, and a placement values a square by the city it makes plus the best square left
for the other tile.

**Passing** (rounds 1 and 3, while the hand keeps more than one tile after the pick): the rest of the
hand goes to a neighbour ``q`` (round 1 to the left, round 3 to the right; 2 players: the opponent),
who will choose two of those tiles next turn and place one in each of its cities. The seat cannot
see what ``q`` will do, so it assumes ``q`` plays as this bot does: ``q`` takes the pair and the
assignment that maximise ``q``'s own ``f`` from each tile's best gain in each of ``q``'s cities now
(``dS`` in the city it shares with the seat, ``dO`` in its other one). The term is the seat's gain
from that pick in a race against ``N - 1`` opponents, each opponent's gain worth ``1 / (N - 1)`` of
one's own: ``dS`` raises the seat's value by ``dS`` times the weight of that city in its ``f`` (``w =
1 + SUM_WEIGHT`` for its lower city, ``SUM_WEIGHT`` for its higher one, half-way when equal) and
``q``'s by ``dS`` times its own weight; ``dO`` raises ``q``'s and the other neighbour's of that city:

    3+ players: (w_seat(S) - w_q(S) / (N - 1)) * dS - (w_q(O) + w_r(O)) / (N - 1) * dO
    2 players:  -(dS + dO)   (both cities are the opponent's: the points the passed hand gives it)

scaled by ``PASS_WEIGHT_OPPONENT`` (2 players) or ``PASS_WEIGHT_NEIGHBOUR`` (3+). It is only computed
for the choice of a pair (a placement does not change the passed hand); the hand the seat receives
from its other neighbour does not depend on its choice and is not valued. Measured (greedy with the
term against greedy without, same seeds): with 2 players the term wins about 4 points of win share
more (base and Capitals); with 3 or more players every weight tried (0.15, 0.5, 1, 1.5) did no
better than none at 3 players and worse at 5 and 7 (the guess of the neighbour's pick, a turn ahead,
seems to add more noise than it removes), so ``PASS_WEIGHT_NEIGHBOUR`` is 0 until a better model of
the neighbour's pick earns its place. The bot does not model the duplex round or later hands.

``STYLE``: ``"full"`` (the above) or ``"basic"`` (the first version: factories at a flat
``FACTORY_GUESS`` points, no districts, no passing term), kept to measure one against the other.
"""

from __future__ import annotations

from citygames.core.game import SIMULTANEOUS

from .constants import FACTORY
from .scoring import city_breakdown, district_points, factory_multipliers, largest_district
from .steps import CHOOSE, DISCARD, P_END, PLACE, PLACE_DUPLEX

#: weight of the sum of the two cities beside the lower one
SUM_WEIGHT = 0.25
#: weight of the passing term with 2 players (the opponent gets the hand) and with 3 or more (a
#: neighbour does); module docstring
PASS_WEIGHT_OPPONENT = 0.5
PASS_WEIGHT_NEIGHBOUR = 0.0
#: points per factory of the "basic" style (the middle of the majority table 4 / 3 / 2)
FACTORY_GUESS = 3
#: "full" or "basic" (module docstring)
STYLE = "full"
_MEMO: dict = {}


def _parts(game, geo, cells: tuple, pairs: tuple) -> tuple:
    """A city's ``(points but factories and districts, factories, largest district per pair)``, memoised."""
    key = (geo, cells, pairs)
    v = _MEMO.get(key)
    if v is None:
        if len(_MEMO) > 300_000:
            _MEMO.clear()
        bd = city_breakdown(cells, geo, game.components.scoring, 0, game.civic_types)
        v = _MEMO[key] = (sum(bd.values()), cells.count(FACTORY),
                          tuple(largest_district(cells, geo, pair) for pair in pairs))
    return v


def city_value(game, geo, cells) -> int:
    """The "basic" approximate score of a city (``FACTORY_GUESS`` per factory, no districts), memoised."""
    key = ("basic", geo, tuple(cells))
    v = _MEMO.get(key)
    if v is None:
        if len(_MEMO) > 300_000:
            _MEMO.clear()
        v = _MEMO[key] = sum(city_breakdown(cells, geo, game.components.scoring, FACTORY_GUESS,
                                            game.civic_types).values())
    return v


class _View:
    """The cities of a state as the evaluation sees them: each city's parts, and for a city, what a
    changed version of it would total against the other cities as they stand."""

    __slots__ = ("s", "g", "geos", "basic", "pairs", "tiles", "parts", "_rates")

    def __init__(self, s, basic: bool):
        g = s.game
        self.s, self.g, self.basic = s, g, basic
        self.geos = g.geometries(s.mats)
        size = g.size
        self.pairs = tuple((a, b) for a, b, _ in s.districts)
        dist = g.components.scoring.districts
        self.tiles = tuple(dist[t] for _, _, t in s.districts)
        cells = s.cells
        if basic:
            self.parts = None
        else:
            self.parts = [_parts(g, self.geos[c], tuple(cells[c * size:(c + 1) * size]), self.pairs)
                          for c in range(g.n_cities)]
        self._rates: dict = {}

    def total(self, city: int, cells) -> float:
        """The score of ``city`` if its cells were ``cells`` (a list or tuple), the others as they stand."""
        g = self.g
        if self.basic:
            return city_value(g, self.geos[city], cells)
        part = _parts(g, self.geos[city], tuple(cells), self.pairs)
        return self.score(city, part)

    def now(self, city: int) -> float:
        if self.basic:
            size = self.g.size
            return city_value(self.g, self.geos[city], self.s.cells[city * size:(city + 1) * size])
        return self.score(city, self.parts[city])

    def score(self, city: int, part: tuple) -> float:
        """A city's points from its parts: factories at the multiplier its count earns against the
        other cities' counts now (§5), districts at the points its sizes earn against theirs (§8.5)."""
        rates = self._rates.get(city)
        if rates is None:
            rates = self._rates[city] = ({}, [{} for _ in self.pairs])
        other, nf, sizes = part
        fac, dis = rates
        per = fac.get(nf)
        if per is None:
            counts = [p[1] for p in self.parts]
            counts[city] = nf
            per = fac[nf] = factory_multipliers(counts, self.g.components.scoring)[city]
        total = other + nf * per
        for i, size in enumerate(sizes):
            pts = dis[i].get(size)
            if pts is None:
                all_sizes = [p[2][i] for p in self.parts]
                all_sizes[city] = size
                first, second = self.tiles[i]
                pts = dis[i][size] = district_points(all_sizes, first, second)[city]
            total += pts
        return total


def _best_single(view: _View, city: int, kind: int, now: float) -> float:
    """The most ``city``'s score can grow by one ``kind`` tile on a legal square."""
    from .placement import single_cells
    s, g = view.s, view.g
    cells = s.cells[city * g.size:(city + 1) * g.size]
    best = None
    for x in single_cells(s, city)[1]:
        cells[x] = kind
        v = view.total(city, cells)
        cells[x] = 0
        if best is None or v > best:
            best = v
    return 0 if best is None else best - now


def _best_duplex(view: _View, city: int, d: int, now: float) -> float:
    """The most ``city``'s score can grow by duplex ``d`` on a legal spot."""
    from .placement import duplex_cells
    s, g = view.s, view.g
    cells = s.cells[city * g.size:(city + 1) * g.size]
    dup = g.components.duplexes[d]
    step = 1 if dup.horizontal else g.width
    best = None
    for x in duplex_cells(s, city, d):
        cells[x], cells[x + step] = dup.halves
        v = view.total(city, cells)
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


def _f(g, left: float, right: float) -> float:
    if g.two_player:
        return float(left + right)
    return min(left, right) + SUM_WEIGHT * (left + right)


def _passed_hand(s, p: int, items: list[int]) -> list[int] | None:
    """The tiles seat ``p`` will pass on after its pick (``items``), when it is choosing a pair now and
    more than one tile will be left; else None."""
    from .draft import hand_kinds, held, singles_round
    if s.stage < 0 or not singles_round(s.game, s.stage):
        return None
    if s.player == SIMULTANEOUS and s.step == CHOOSE and s.pending[p] >= 0:
        rest = hand_kinds(s, held(s, p))
        for k in items:
            rest.remove(k)
    elif s.step == PLACE and s.side[p] == -1 and len(items) == 2:   # its pick completed the reveal
        rest = hand_kinds(s, held(s, p))
    else:
        return None
    return rest if len(rest) > 1 else None


def _passing(view: _View, p: int, rest: list[int], mine: tuple[float, float]) -> float:
    """The passing term (module docstring) for the tiles ``rest`` seat ``p`` leaves; ``mine``: its two
    cities' values (with its own pick placed at best)."""
    from .draft import direction
    s, g = view.s, view.g
    n = g.num_players
    if g.two_player:
        q = 1 - p
    else:
        q = (p - direction(g, s.stage)) % n        # +1: to the left neighbour, seat p - 1
    qc = (g.left[q], g.right[q])
    now = [view.now(c) for c in qc]
    kinds = sorted(set(rest))
    gains = [{k: _best_single(view, c, k, now[i]) for k in kinds} for i, c in enumerate(qc)]
    best, pick = None, (0.0, 0.0)
    for i, a in enumerate(rest):
        for b in rest[i + 1:]:
            for x, y in ((a, b), (b, a)):
                dl, dr = gains[0][x], gains[1][y]
                v = _f(g, now[0] + dl, now[1] + dr)
                if best is None or v > best:
                    best, pick = v, (dl, dr)
    if g.two_player:
        return -PASS_WEIGHT_OPPONENT * (pick[0] + pick[1])
    shared = 0 if qc[0] in (g.left[p], g.right[p]) else 1     # q's city it shares with p
    ds, do = pick[shared], pick[1 - shared]
    side = 0 if qc[shared] == g.left[p] else 1
    mine_s = _weight(mine[side], mine[1 - side])
    q_s = _weight(now[shared], now[1 - shared])
    q_o = _weight(now[1 - shared], now[shared])
    o = qc[1 - shared]                                          # q's other city, shared with seat r
    r = g.city_seats[o][0] if g.city_seats[o][1] == q else g.city_seats[o][1]
    r_o = _weight(view.now(g.left[r] if g.left[r] == o else g.right[r]),
                  view.now(g.right[r] if g.left[r] == o else g.left[r]))
    return PASS_WEIGHT_NEIGHBOUR * ((mine_s - q_s / (n - 1)) * ds - (q_o + r_o) / (n - 1) * do)


def _weight(city: float, other: float) -> float:
    """How much a seat's value ``f`` grows per point of its city scoring ``city`` (its other: ``other``)."""
    return SUM_WEIGHT + (1.0 if city < other else 0.5 if city == other else 0.0)


def seat_value(s, p: int, style: str | None = None) -> float:
    """Seat ``p``'s value (module docstring); ``style``: ``"full"`` or ``"basic"`` (default ``STYLE``)."""
    g = s.game
    if s.phase == P_END:
        return float(s.scores()[p])
    basic = (style or STYLE) == "basic"
    view = _View(s, basic)
    cities = (g.left[p], g.right[p])
    now = [view.now(c) for c in cities]
    items, duplexes = _waiting(s, p)
    best = (now[0], now[1])
    if items:
        gain = _best_duplex if duplexes else _best_single
        side = s.side[p] if s.step in (PLACE, PLACE_DUPLEX) else -1
        sides = (0, 1) if side < 0 else (1 - side,)
        g_ = {(i, sd): gain(view, cities[sd], t, now[sd]) for i, t in enumerate(items) for sd in sides}
        options = []
        if len(items) == 2:
            options = [(now[0] + g_[(0, 0)], now[1] + g_[(1, 1)]), (now[0] + g_[(1, 0)], now[1] + g_[(0, 1)])]
        else:
            for sd in sides:
                v = [now[0], now[1]]
                v[sd] += g_[(0, sd)]
                options.append((v[0], v[1]))
        best = max(options, key=lambda lr: _f(g, *lr))
    value = _f(g, *best)
    if not basic and items and not duplexes and (PASS_WEIGHT_OPPONENT if g.two_player else PASS_WEIGHT_NEIGHBOUR):
        rest = _passed_hand(s, p, items)
        if rest:
            value += _passing(view, p, rest, best)
    return value


def evaluate(s, p: int) -> float:
    """Heuristic value of ``s`` for seat ``p`` (higher is better): ``seat_value``."""
    return seat_value(s, p)


__all__ = ["evaluate", "seat_value", "city_value", "SUM_WEIGHT", "PASS_WEIGHT_OPPONENT", "PASS_WEIGHT_NEIGHBOUR",
           "FACTORY_GUESS", "STYLE"]
