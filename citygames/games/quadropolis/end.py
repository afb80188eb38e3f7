"""Quadropolis: the end of the game — allocating inhabitants and energy, scores, ranking (HU "Játék
vége", "Épületek aktiválása"; reference §3 "End of game", §7, §8 "Tie-break").

After the last round each player allocates what it holds (§7): the top tile of a space is activated
by its cost (towers and shops 1 energy, public services, factories and harbours 1 inhabitant,
offices 1 of each; parks and monuments need nothing), inhabitants may go onto activated shops as
customers (up to 4 or 5), non-activated buildings are removed before scoring, and every unused
inhabitant and every energy no park absorbs costs 1 VP.

With the option ``allocation="auto"`` (default) the engine gives every player its best allocation
(``scoring.best_allocation``, an exact search); with ``"manual"`` each player, clockwise from the
Mayor's holder, allocates by hand (``activate``, ``customer``, then ``finish``; ``best`` applies the
best allocation at once).

Ranking (§8 [C]): most VP; ties: most inhabitants held (§12 #9), then fewest empty spaces. Seats
still tied share the victory (``returns`` splits 1.0 among them).
"""

from __future__ import annotations

from citygames.core.events import game_seat_label
from citygames.core.game import TERMINAL
from citygames.core.phases import NO_DECISION

from .constants import ALLOCATE, P_ALLOCATION, P_END
from .scoring import CATEGORIES, Allocation, best_allocation, city_score


def city_arrays(s, p: int) -> tuple[list, list, list]:
    """Seat ``p``'s city as ``(types, heights, vps)``: per space, the type code of its top tile (0
    empty), its floors and the printed VP of its top tile (the inputs of ``scoring``)."""
    g = s.game
    n = g.board.spaces
    tiles = g.tiles
    base = p * n
    types, vps = [], []
    for t in s.city_tile[base:base + n]:
        if t < 0:
            types.append(0)
            vps.append(0)
        else:
            tile = tiles[t]
            types.append(tile.type)
            vps.append(tile.vp)
    return types, s.city_height[base:base + n], vps


def best(s, p: int) -> Allocation:
    """The best allocation of seat ``p``'s city and resources as they stand (cached until the next
    action)."""
    cache = s._best
    if cache is None:
        cache = s._best = {}
    a = cache.get(p)
    if a is None:
        types, heights, vps = city_arrays(s, p)
        a = cache[p] = best_allocation(s.game.board, types, heights, vps, s.inhabitants[p], s.energy[p])
    return a


def used(s, p: int, types: list | None = None) -> tuple[int, int]:
    """Inhabitants and energy seat ``p`` has put on its city in the hand allocation (§7); ``types``:
    its city's top-tile types when the caller has them (``city_arrays``)."""
    b = s.game.board
    if types is None:
        types, _, _ = city_arrays(s, p)
    base = p * b.spaces
    inh = en = 0
    for x in range(b.spaces):
        if s.active[base + x]:
            inh += b.cost_inh[types[x]]
            en += b.cost_energy[types[x]]
        inh += s.customers[base + x]
    return inh, en


def start_end(s) -> None:
    """The last round is over: allocate (by hand, from the Mayor's holder clockwise) or finish."""
    if s.game.options["allocation"] == "manual":
        s.phase = P_ALLOCATION
        s.player = s.mayor
        s.step = ALLOCATE
        s.event("allocation", None, first=s.mayor)
        return
    finish(s)


def finish(s) -> None:
    """The game is over (scores are computed when first asked for: the search is not free)."""
    s.phase = P_END
    s.step = NO_DECISION
    s.player = TERMINAL
    s.event("game_end", None, rounds=s.round)


def _needs_activation(b, ty: int) -> bool:
    return bool(b.cost_inh[ty] or b.cost_energy[ty])


def allocate_legal(s) -> list:
    """Legal actions of the hand allocation (§7): ``activate`` each non-activated top tile that needs
    and can afford activation, ``customer`` on each activated shop below capacity while an inhabitant
    is left, ``best``, ``finish``."""
    g = s.game
    b = g.board
    p = s.player
    table = g.action_space.table
    types, _, _ = city_arrays(s, p)
    ui, ue = used(s, p, types)
    inh, en = s.inhabitants[p] - ui, s.energy[p] - ue
    base = p * b.spaces
    out = []
    off = g.off["activate"]
    for x in range(b.spaces):
        ty = types[x]
        if ty and not s.active[base + x] and _needs_activation(b, ty) and b.cost_inh[ty] <= inh \
                and b.cost_energy[ty] <= en:
            out.append(table[off + x])
    off = g.off["customer"]
    if inh > 0:
        for x in range(b.spaces):
            if types[x] == 2 and s.active[base + x] and s.customers[base + x] < b.shop_capacity:
                out.append(table[off + x])
    out.append(table[g.off["best"]])
    out.append(table[g.off["finish"]])
    return out


def allocate_why(s, a) -> str:
    g = s.game
    b = g.board
    if a.kind not in ("activate", "customer"):
        return f"now {game_seat_label(g, s.player)} must allocate its inhabitants and energy (§7)"
    x = a.arg
    if x >= b.spaces:
        return f"the {g.mode} city has {b.spaces} spaces"
    types, _, _ = city_arrays(s, s.player)
    ty = types[x]
    active = s.active[s.player * b.spaces + x]
    if a.kind == "activate":
        if not ty:
            return "there is no building there"
        if not _needs_activation(b, ty):
            return "parks and monuments need no activation (§7)"
        if active:
            return "that building is already activated"
        return "not enough inhabitants or energy left to activate it (§7)"
    if ty != 2:
        return "customers go on shops only (§7)"
    if not active:
        return "a shop needs its energy before it takes customers (§7)"
    if s.customers[s.player * b.spaces + x] >= b.shop_capacity:
        return f"a shop holds at most {b.shop_capacity} customers (§7)"
    return "no inhabitant left (§7)"


def activate(s, x: int) -> None:
    """Hand allocation: activate the top tile on space ``x`` (§7)."""
    s.active[s.player * s.game.board.spaces + x] = 1
    s.event("activate", s.player, space=x, at=s.game.board.space_name(x))


def customer(s, x: int) -> None:
    """Hand allocation: one inhabitant onto the activated shop on space ``x`` (§7)."""
    s.customers[s.player * s.game.board.spaces + x] += 1
    s.event("customer", s.player, space=x, at=s.game.board.space_name(x))


def use_best(s, _arg: int) -> None:
    """Hand allocation: replace what was allocated by the best allocation and finish."""
    p = s.player
    b = s.game.board
    a = best(s, p)
    base = p * b.spaces
    s.active[base:base + b.spaces] = [1 if v else 0 for v in a.active]
    s.customers[base:base + b.spaces] = list(a.customers)
    s.event("best_allocation", p, total=a.total)
    finish_allocation(s, 0)


def finish_allocation(s, _arg: int) -> None:
    """Hand allocation: seat done; the next one clockwise, or the end of the game."""
    p = s.player
    s.allocated[p] = True
    s.event("allocated", p)
    n = s.game.num_players
    for i in range(1, n + 1):
        q = (p + i) % n
        if not s.allocated[q]:
            s.player = q
            s.step = ALLOCATE
            return
    finish(s)


def run_allocation(s) -> None:  # pragma: no cover - the allocation phase always has a decision pending
    raise RuntimeError("allocation phase with no decision pending")


def run_end(s) -> None:  # pragma: no cover
    raise RuntimeError("the game is over")


# --- scores -------------------------------------------------------------------------------------
def score_breakdown(s, p: int) -> dict[str, int]:
    """Seat ``p``'s score by category (``scoring.CATEGORIES``, score-pad order §10 #17; the last two
    are the penalties, <= 0): with the hand allocation (``allocation="manual"``), from the moment it
    begins, of what the seat has allocated so far (its score if it finished now); otherwise of the
    best allocation of its city and resources as they stand (final at the end)."""
    manual = s.game.options["allocation"] == "manual"
    if manual and (s.allocated[p] or s.phase == P_ALLOCATION):
        b = s.game.board
        types, heights, vps = city_arrays(s, p)
        base = p * b.spaces
        return city_score(b, types, heights, vps, s.active[base:base + b.spaces],
                          s.customers[base:base + b.spaces], s.inhabitants[p], s.energy[p])
    return dict(best(s, p).breakdown)


def scores(s) -> list[int]:
    """Each seat's VP (``score_breakdown`` summed)."""
    return [sum(score_breakdown(s, p).values()) for p in range(s.game.num_players)]


def empty_spaces(s, p: int) -> int:
    """Empty spaces of seat ``p``'s city (the second tie-break, §8)."""
    n = s.game.board.spaces
    return sum(1 for t in s.city_tile[p * n:(p + 1) * n] if t < 0)


def _key(s, p: int, sc: list) -> tuple:
    return (-sc[p], -s.inhabitants[p], empty_spaces(s, p))


def ranking(s) -> list[int]:
    """Seats from first to last: most VP, then most inhabitants held, then fewest empty spaces (§8
    "Tie-break" [C], §12 #9); seats tied on all three keep seat order."""
    sc = scores(s)
    return sorted(range(s.game.num_players), key=lambda p: _key(s, p, sc))


def winners(s) -> list[int]:
    """The seats tied for first place after the tie-breaks (usually one)."""
    sc = scores(s)
    order = sorted(range(s.game.num_players), key=lambda p: _key(s, p, sc))
    top = _key(s, order[0], sc)
    return [p for p in order if _key(s, p, sc) == top]


def returns(s) -> list[float]:
    """At the end 1.0 for the winner (shared equally by seats tied after every tie-break), 0.0 for the
    others; all 0.0 before."""
    n = s.game.num_players
    if s.phase != P_END:
        return [0.0] * n
    w = winners(s)
    return [1.0 / len(w) if p in w else 0.0 for p in range(n)]


def final_allocation(s, p: int) -> tuple[list, list]:
    """Seat ``p``'s allocation to show: ``(active, customers)`` per space — its own once it allocated by
    hand, else the best one."""
    b = s.game.board
    if s.game.options["allocation"] == "manual" and (s.allocated[p] or s.phase == P_ALLOCATION):
        base = p * b.spaces
        types, _, _ = city_arrays(s, p)
        # parks and monuments are always active (§7)
        return ([bool(s.active[base + x]) or (types[x] > 0 and not _needs_activation(b, types[x]))
                 for x in range(b.spaces)], s.customers[base:base + b.spaces])
    a = best(s, p)
    return list(a.active), list(a.customers)


__all__ = ["CATEGORIES", "city_arrays", "best", "used", "start_end", "finish", "allocate_legal", "allocate_why",
           "activate", "customer", "use_best", "finish_allocation", "run_allocation", "run_end", "score_breakdown",
           "scores", "empty_spaces", "ranking", "winners", "returns", "final_allocation"]
