"""Quadropolis end-of-game scoring: one city's score under a given resource allocation
(``city_score``) and the allocation that maximises it (``best_allocation``).

Sources are cited as §N of ``shared/reference/quadropolis.md``: §7 resources and activation, §8 the
scoring tables, §10 the clarifications, §12 the project defaults. Every table and cost is read from
the ``Board`` (``components().boards[mode]``), never written here.

A city is given as three sequences of length ``board.spaces`` (space ``row * cols + col``):

* ``types``: the type code of the space's top tile (``EMPTY`` = 0 .. ``MONUMENT`` = 8);
* ``heights``: the stack's floors (towers and offices: 1 .. ``board.max_height``; other buildings:
  ignored; 0 for an empty space);
* ``vps``: the VP printed on the top tile (read for public services and harbours only).

An *allocation* says, per space, whether the top tile is activated (parks and monuments always
are, §7) and how many inhabitants sit on it as shop customers (§10 #9).
"""

from __future__ import annotations

from itertools import product
from typing import NamedTuple, Sequence

from .components import EMPTY, FACTORY, HARBOUR, MONUMENT, OFFICE, PARK, PUBLIC, SHOP, STACKING, TOWER, Board

#: the score-pad order (§10 #17); the last two are the end-game penalties (always <= 0)
CATEGORIES = ("towers", "shops", "public_services", "parks", "factories", "harbours", "offices", "monuments",
              "inhabitants", "energy")

_ALWAYS_ACTIVE = (PARK, MONUMENT)   # §7: parks need no activation, monuments need none
_NEG = float("-inf")                # "impossible" in the search tables (never added to a chosen value)
_TIGHT = 10                          # undecided buildings from which the search also tries its finer bound
                                    # (measured: lower in the tree it costs more than it saves)


class Allocation(NamedTuple):
    """The result of ``best_allocation``.

    Attributes:
        active: per space, whether its top tile is activated (parks and monuments: True; empty: False).
        customers: per space, inhabitants placed on it as shop customers (0 except on activated shops).
        breakdown: ``city_score`` of this allocation, one int per ``CATEGORIES`` key.
        total: ``sum(breakdown.values())``, the VP of the city.
    """

    active: tuple[bool, ...]
    customers: tuple[int, ...]
    breakdown: dict[str, int]
    total: int


# ----------------------------------------------------------------------------------------------
# input checks
# ----------------------------------------------------------------------------------------------

def _check_city(board: Board, types: Sequence[int], heights: Sequence[int], vps: Sequence[int]) -> int:
    n = board.spaces
    for name, seq in (("types", types), ("heights", heights), ("vps", vps)):
        if len(seq) != n:
            raise ValueError(f"{name}: {len(seq)} values for the {n} spaces of the {board.mode} board")
    for s in range(n):
        t = types[s]
        if not EMPTY <= t <= MONUMENT:
            raise ValueError(f"{board.space_name(s)}: unknown building type code {t!r} (0-8)")
        if t in STACKING and not 1 <= heights[s] <= board.max_height:
            raise ValueError(f"{board.space_name(s)}: a stack of {heights[s]} floors; towers and offices have "
                             f"1-{board.max_height} on the {board.mode} board (§6)")
    return n


def _check_resources(inhabitants: int, energy: int) -> tuple[int, int]:
    if inhabitants < 0 or energy < 0:
        raise ValueError(f"resources must be >= 0, got {inhabitants} inhabitants and {energy} energy")
    return int(inhabitants), int(energy)


# ----------------------------------------------------------------------------------------------
# scoring one allocation
# ----------------------------------------------------------------------------------------------

def _longest_run(lines, on: Sequence[bool]) -> int:
    best = 0
    for line in lines:
        run = 0
        for s in line:
            if on[s]:
                run += 1
                if run > best:
                    best = run
            else:
                run = 0
    return best


def city_score(board: Board, types: Sequence[int], heights: Sequence[int], vps: Sequence[int],
               active: Sequence[bool], customers: Sequence[int], inhabitants: int, energy: int) -> dict[str, int]:
    """Score one city under one resource allocation.

    Args:
        board: ``components().boards["classic" | "expert"]``; every table and cost is read from it.
        types, heights, vps: the city, each of length ``board.spaces`` (see the module docstring).
        active: per space, whether the top tile is activated; ignored for empty spaces and for parks
            and monuments, which are always active (§7).
        customers: per space, inhabitants placed on it as customers (§10 #9); 0 except on activated shops.
        inhabitants, energy: what the player holds at the end of the game (§7: freely rearranged).

    Returns:
        ``{category: VP}`` for every key of ``CATEGORIES`` (ints; the two penalties are <= 0):

        * activation (§7): a building costs ``board.cost_inh`` / ``board.cost_energy`` of its type
          (top tile only, whatever the height); a non-activated building is removed before scoring:
          it scores nothing and counts for no adjacency, line, district or group (§7, §10 #15);
        * towers: ``tower_vp[height]`` each (§8);
        * shops: ``shop_vp[customers]`` each (§8);
        * public services: ``public_vp[districts holding >= 1 activated one]`` plus the printed VP of
          every activated one (§8, §10 #10);
        * parks: each ``park_vp[orthogonally adjacent activated towers]``, a stack counting once, plus
          adjacent activated offices when ``board.parks_count_offices`` (Expert) (§8, §10 #5);
        * factories: per activated factory, ``factory_vp[type]`` per orthogonally adjacent activated
          building (shop 2, harbour 3, office 4 — per space, not per floor) (§8, §10 #16);
        * harbours: ``harbour_vp[longest run of activated harbours in any one row]`` plus
          ``harbour_vp[longest run in any one column]`` plus the printed VP of every activated
          harbour; a lone harbour is a run of 1 and scores 0 (§8, §10 #6, §11 #3);
        * offices: each activated office scores ``office_vp[min(group, office_group_cap) - 1][its
          height]``, group = its orthogonally connected group of activated offices (§8, §10 #14);
        * monuments: per monument, ``monument_vp[type]`` per orthogonally adjacent activated building
          (§8, §10 #15);
        * inhabitants: ``-penalty`` per inhabitant used neither to activate nor as a customer (§7, §12 #11);
        * energy: ``-penalty`` per unused energy left after each park absorbs ``park_absorbs`` (§7, §10 #7).

    Raises:
        ValueError: sequences of the wrong length, unknown type codes or stack heights outside
            1..``max_height`` (§6); negative resources; an infeasible allocation: customers on a space
            that is not an activated shop, more customers than ``shop_capacity`` (§7), or more
            inhabitants or energy used than held (§7).
    """
    n = _check_city(board, types, heights, vps)
    inhabitants, energy = _check_resources(inhabitants, energy)
    if len(active) != n or len(customers) != n:
        raise ValueError(f"active and customers need one value per space ({n}), got {len(active)} and {len(customers)}")
    ci, ce = board.cost_inh, board.cost_energy
    on = [False] * n
    used_i = used_e = 0
    for s in range(n):
        t = types[s]
        if t == EMPTY:
            continue
        if t in _ALWAYS_ACTIVE:
            on[s] = True
        elif active[s]:
            on[s] = True
            used_i += ci[t]
            used_e += ce[t]
    activation_i = used_i
    for s in range(n):
        c = customers[s]
        if not c:
            continue
        if c < 0:
            raise ValueError(f"{board.space_name(s)}: {c} customers (must be >= 0)")
        if types[s] != SHOP or not on[s]:
            raise ValueError(f"{board.space_name(s)}: {c} customers on a space that is not an activated shop "
                             f"(§7, §10 #9: customers are inhabitants placed on an activated shop)")
        if c > board.shop_capacity:
            raise ValueError(f"{board.space_name(s)}: {c} customers; a shop holds at most {board.shop_capacity} "
                             f"on the {board.mode} board (§7)")
        used_i += c
    if used_i > inhabitants:
        raise ValueError(f"the allocation uses {used_i} inhabitants ({activation_i} to activate, "
                         f"{used_i - activation_i} as customers) but the player holds {inhabitants} (§7)")
    if used_e > energy:
        raise ValueError(f"the allocation uses {used_e} energy to activate but the player holds {energy} (§7)")

    nb = board.neighbours
    fvp, mvp = board.factory_vp, board.monument_vp
    towers = shops = public = parks = factories = offices = monuments = 0
    harbour_printed = 0
    districts = set()
    harbour_on = [False] * n
    n_parks = 0
    office_seen = [False] * n
    count_offices = board.parks_count_offices
    for s in range(n):
        if not on[s]:
            continue
        t = types[s]
        if t == TOWER:
            towers += board.tower_vp[heights[s]]
        elif t == SHOP:
            shops += board.shop_vp[customers[s]]
        elif t == PUBLIC:
            districts.add(board.district[s])
            public += vps[s]
        elif t == PARK:
            n_parks += 1
            k = sum(1 for x in nb[s] if on[x] and (types[x] == TOWER or (types[x] == OFFICE and count_offices)))
            parks += board.park_vp[k]
        elif t == FACTORY:
            factories += sum(fvp[types[x]] for x in nb[s] if on[x])
        elif t == HARBOUR:
            harbour_on[s] = True
            harbour_printed += vps[s]
        elif t == MONUMENT:
            monuments += sum(mvp[types[x]] for x in nb[s] if on[x])
        elif t == OFFICE and not office_seen[s]:
            group, stack = [], [s]
            office_seen[s] = True
            while stack:
                x = stack.pop()
                group.append(x)
                for y in nb[x]:
                    if on[y] and types[y] == OFFICE and not office_seen[y]:
                        office_seen[y] = True
                        stack.append(y)
            row = board.office_vp[min(len(group), board.office_group_cap) - 1]
            offices += sum(row[heights[x]] for x in group)
    if districts:
        public += board.public_vp[len(districts)]
    harbours = (board.harbour_vp[_longest_run(board.row_lines, harbour_on)]
                + board.harbour_vp[_longest_run(board.col_lines, harbour_on)] + harbour_printed)
    unused_e = max(0, energy - used_e - n_parks * board.park_absorbs)
    return {"towers": towers, "shops": shops, "public_services": public, "parks": parks, "factories": factories,
            "harbours": harbours, "offices": offices, "monuments": monuments,
            "inhabitants": -board.penalty * (inhabitants - used_i), "energy": -board.penalty * unused_e}


# ----------------------------------------------------------------------------------------------
# the best allocation
# ----------------------------------------------------------------------------------------------

class _BoardPrep:
    """What ``best_allocation`` derives from one board alone (kept per board object)."""

    def __init__(self, b: Board):
        ci, ce, fvp = b.cost_inh, b.cost_energy, b.factory_vp
        if ci[TOWER] or ci[SHOP] or ce[PUBLIC] or fvp[TOWER] or fvp[PUBLIC] or fvp[PARK] or fvp[MONUMENT]:
            raise ValueError("best_allocation needs towers and shops to cost no inhabitants, public services no "
                             "energy, and factories to score only next to shops, factories, harbours and offices "
                             "(§7, §8); the board's data breaks that")
        n = b.spaces
        self.K3 = 1 << n                                          # one customer
        self.K2 = self.K3 << (b.shop_capacity * n).bit_length()   # one activated building
        self.K1 = self.K2 << n.bit_length()                       # one VP
        self.bit = tuple(1 << (n - 1 - s) for s in range(n))      # the space in the activation pattern
        inc = lambda seq: all(x <= y for x, y in zip(seq, seq[1:]))
        # the search's bound needs every category but monuments to be monotone in the activated set (§8)
        self.prune = (b.penalty >= 0 and inc(b.harbour_vp) and inc(b.park_vp) and min(fvp) >= 0
                      and all(min(row) >= 0 for row in b.office_vp)
                      and all(inc(col) for col in zip(*b.office_vp)))
        self.cap = b.shop_capacity
        self.shop_vp = b.shop_vp[:b.shop_capacity + 1]
        self._cust = [[0]]

    def cust(self, m: int) -> list:
        """``cust(m)[y]``: the most shop VP ``m`` activated shops make with exactly ``y`` customers (§8)."""
        rows, cap, sv = self._cust, self.cap, self.shop_vp
        while len(rows) <= m:
            prev = rows[-1]
            row = []
            for y in range(len(prev) + cap):
                row.append(max(prev[y - x] + sv[x] for x in range(max(0, y - len(prev) + 1), min(cap, y) + 1)))
            rows.append(row)
        return rows[m]


_PREP: dict[int, tuple] = {}


def _prep(board: Board) -> _BoardPrep:
    got = _PREP.get(id(board))
    if got is None or got[0] is not board:
        got = (board, _BoardPrep(board))
        _PREP[id(board)] = got
    return got[1]


def _spread(prep: _BoardPrep, m: int, y: int) -> list:
    """The customers of ``m`` shops holding ``y`` in all, best for shop VP (§8); among the best
    spreads, the first shop gets as many as possible, then the second, and so on."""
    out = []
    left = y
    for k in range(m, 0, -1):
        need = prep.cust(k)[left]
        rest = prep.cust(k - 1)
        for x in range(min(prep.cap, left), -1, -1):
            if left - x < len(rest) and prep.shop_vp[x] + rest[left - x] == need:
                out.append(x)
                left -= x
                break
    return out


def _range_max(row: list, step: int):
    """``query(lo, hi)``: the largest of ``row[lo..hi]`` (0 <= lo <= hi), ``row`` continued past its
    end by losing ``step`` (>= 0) per index (a table whose resources beyond its end only cost the
    penalty). A sparse table: O(1) a query."""
    top = len(row) - 1
    levels = [row]
    w = 1
    while 2 * w <= len(row):
        prev = levels[-1]
        levels.append([prev[x] if prev[x] > prev[x + w] else prev[x + w] for x in range(len(prev) - w)])
        w *= 2

    def query(lo: int, hi: int):
        if lo > top:
            return row[top] - step * (lo - top)
        if hi > top:
            hi = top
        j = (hi - lo + 1).bit_length() - 1
        lv = levels[j]
        a, b = lv[lo], lv[hi - (1 << j) + 1]
        return a if a > b else b
    return query


def _at(row: list, i: int, step: int):
    """``row[i]``, the row continued past its end by losing ``step`` per index."""
    top = len(row) - 1
    return row[i] if i <= top else row[top] - step * (i - top)


def _inhabitant_table(stages: list, n_d: int, public_vp: Sequence[int], K1: int):
    """Public services and lone buildings: per number ``x`` of inhabitants used, the best composite.

    ``stages``: ``(cost per building, [composite, ...] best first, is a district)``; a stage takes
    its ``k`` best buildings; a district stage also covers its district when k > 0 (§8, §10 #10).
    Returns ``(best, districts, backs)``: ``best[x]`` (``_NEG``: impossible), the districts covered
    at that best, and per stage ``{(d, x): (k, d before, x before)}`` to rebuild the choice.
    """
    x_max = sum(c * len(vals) for c, vals, _ in stages)
    dp = [[_NEG] * (x_max + 1) for _ in range(n_d + 1)]
    dp[0][0] = 0
    backs = []
    for c, vals, is_d in stages:
        pre = [0]
        for v in vals:
            pre.append(pre[-1] + v)
        new = [[_NEG] * (x_max + 1) for _ in range(n_d + 1)]
        back = {}
        for d in range(n_d + 1):
            row = dp[d]
            for x in range(x_max + 1):
                v0 = row[x]
                if v0 == _NEG:
                    continue
                for k in range(len(pre)):
                    d2 = d + 1 if is_d and k else d
                    v = v0 + pre[k]
                    if v > new[d2][x + k * c]:
                        new[d2][x + k * c] = v
                        back[d2, x + k * c] = (k, d, x)
        dp = new
        backs.append(back)
    best = [_NEG] * (x_max + 1)
    dist = [0] * (x_max + 1)
    for d in range(n_d + 1):
        for x in range(x_max + 1):
            if dp[d][x] != _NEG and dp[d][x] + public_vp[d] * K1 > best[x]:
                best[x] = dp[d][x] + public_vp[d] * K1
                dist[x] = d
    return best, dist, backs


def best_allocation(board: Board, types: Sequence[int], heights: Sequence[int], vps: Sequence[int],
                    inhabitants: int, energy: int) -> Allocation:
    """The allocation of the player's inhabitants and energy that scores the most (§7: "the engine
    should search for the score-maximising allocation").

    Args:
        board, types, heights, vps, inhabitants, energy: as for ``city_score``.

    Returns:
        ``Allocation(active, customers, breakdown, total)`` where ``breakdown == city_score(board,
        types, heights, vps, active, customers, inhabitants, energy)`` and ``total`` is the most any
        feasible allocation scores (exact, not a heuristic). ``active`` is True for parks and
        monuments and False for empty spaces.

        **Ties** (same total) are broken, in this order, by (1) the most activated buildings, (2)
        the most customers, (3) the lowest spaces activated: the greatest ``active`` tuple compared
        from space 0 (True before False). The customers of the chosen activation go to its
        activated shops in space order, each taking as many as the best shop VP allows (with the §8
        table, which is convex: fill one shop up to ``shop_capacity``, then the next). The same
        input always gives the same allocation.

    Raises:
        ValueError: the city is malformed (see ``city_score``), or the board's data breaks what the
            search relies on (towers and shops cost only energy, public services only inhabitants,
            factories score only next to shops, factories, harbours and offices: §7, §8).

    How (all exact): parks and monuments are always active (§7); a monument's VP is a fixed amount
    per neighbour, so it is part of each neighbour's own value. Public services (which interact only
    through their districts, §10 #10) and the factories and harbours whose score depends on no other
    activation make one table: the best use of ``x`` inhabitants; combined with the shop customers
    (best spread per number of customers) it gives, per number of activated shops, the best use of
    ``i`` inhabitants. Towers interact only with parks: one table per set of activated offices next
    to parks gives the best use of ``e`` energy. Factories next to harbours and offices only are,
    once those are decided, buildings of fixed value: the best ``j`` of them are taken. What is left
    (harbours, offices, factories next to shops) is searched depth first, in space order, activating
    first, with branch and bound: a branch is cut when an upper bound on its best leaf cannot beat
    the best leaf found, comparing the total and then the tie-break parts. The bounds use that every
    category but monuments is monotone in the activated set (§8) and that whatever resources the
    undecided buildings leave go to the rest of the city or to the penalty; a finer bound also counts
    how many undecided buildings the inhabitants left can pay for. When the board's tables are not
    monotone the search runs without cutting (still exact, slower).
    """
    n = _check_city(board, types, heights, vps)
    I, E = _check_resources(inhabitants, energy)
    P = _prep(board)
    K1, K2, K3, bit = P.K1, P.K2, P.K3, P.bit
    nb = board.neighbours
    ci, ce = board.cost_inh, board.cost_energy
    fvp, mvp = board.factory_vp, board.monument_vp
    penK = board.penalty * K1
    cap = board.shop_capacity
    ce_shop, ce_tower, ci_fac = ce[SHOP], ce[TOWER], ci[FACTORY]

    # --- monuments: a fixed VP per activated neighbour, so part of each neighbour's own value (§8)
    mon = [0] * n
    for s in range(n):
        if types[s] == MONUMENT:
            for x in nb[s]:
                if types[x] != EMPTY:
                    mon[x] += mvp[types[x]]

    # --- who goes where --------------------------------------------------------------------------
    const = 0        # plain VP no choice changes: monuments next to parks and monuments
    towers, shops, publics, parks, unary, searched, free = [], [], [], [], [], [], []
    hv0 = board.harbour_vp[1] == board.harbour_vp[0]   # a run of 1 is worth no run (§8: both 0)
    for s in range(n):
        t = types[s]
        if t == EMPTY:
            continue
        if t in _ALWAYS_ACTIVE:
            const += mon[s]
            if t == PARK:
                parks.append(s)
        elif t == TOWER:
            towers.append(s)
        elif t == SHOP:
            shops.append(s)
        elif t == PUBLIC:
            publics.append(s)
        elif t == FACTORY:
            partners = [types[x] for x in nb[s] if types[x] not in (EMPTY, PARK, MONUMENT) and fvp[types[x]]]
            if ce[t]:
                searched.append(s)
            elif not partners:
                unary.append(s)
            elif all(x in (HARBOUR, OFFICE) for x in partners):
                free.append(s)
            else:
                searched.append(s)
        elif t == HARBOUR:
            alone = hv0 and not any(types[x] == HARBOUR or (types[x] == FACTORY and fvp[HARBOUR]) for x in nb[s])
            (unary if alone and ce[t] == 0 else searched).append(s)
        else:  # OFFICE
            searched.append(s)
    n_shops = len(shops)
    absorb = len(parks) * board.park_absorbs

    def own(s: int) -> int:
        """Plain VP a building brings by itself: printed VP (public services, harbours) and monuments."""
        return mon[s] + (vps[s] if types[s] in (PUBLIC, HARBOUR) else 0)

    # --- inhabitants: public services and lone buildings, then customers (§8, §10 #9-#10) ------
    stages, stage_lists = [], []
    by_d: dict[int, list] = {}
    for p in publics:
        by_d.setdefault(board.district[p], []).append(p)
    by_c: dict[int, list] = {}
    for u in unary:
        by_c.setdefault(ci[types[u]], []).append(u)
    for cost, group, is_d in ([(ci[PUBLIC], by_d[d], True) for d in sorted(by_d)]
                              + [(c, by_c[c], False) for c in sorted(by_c)]):
        vals = sorted(((own(s) * K1 + K2 + bit[s], s) for s in group), reverse=True)
        stages.append((cost, [v for v, _ in vals], is_d))
        stage_lists.append([s for _, s in vals])
    pub, pub_d, backs = _inhabitant_table(stages, len(by_d), board.public_vp, K1)
    pub_x = [(x, v) for x, v in enumerate(pub) if v != _NEG]
    x_max = len(pub) - 1

    leaf_rows = []   # per number m of activated shops: (best per inhabitants i, argmax z, argmax x per z)
    for m in range(n_shops + 1):
        h = P.cust(m)
        z_max = x_max + len(h) - 1
        q = [_NEG] * (z_max + 1)
        qx = [0] * (z_max + 1)
        for x, v0 in pub_x:
            for y, hy in enumerate(h):
                v = v0 + hy * K1 + y * K3
                if v > q[x + y]:
                    q[x + y] = v
                    qx[x + y] = x
        top = min(I, z_max)
        row = [0] * (top + 1)
        arg = [0] * (top + 1)
        cur, cz = _NEG, 0
        for i in range(top + 1):
            cur -= penK           # one more inhabitant left unused (§7)
            if q[i] > cur:
                cur, cz = q[i], i
            row[i] = cur
            arg[i] = cz
        leaf_rows.append((row, arg, qx))

    # --- energy: towers and parks (§8, §10 #5, #7) ---------------------------------------------
    park_idx = {p: k for k, p in enumerate(parks)}
    by_sig: dict[tuple, list] = {}
    lone_towers = []
    for t in towers:
        sig = tuple(park_idx[x] for x in nb[t] if x in park_idx)
        (by_sig.setdefault(sig, []) if sig else lone_towers).append(t)
    tv = {t: (board.tower_vp[heights[t]] + mon[t]) * K1 + K2 + bit[t] for t in towers}
    groups = []      # towers next to the same parks: only how many of them matters, best first
    for sig in sorted(by_sig):
        g = sorted(by_sig[sig], key=tv.__getitem__, reverse=True)
        pre = [0]
        for t in g:
            pre.append(pre[-1] + tv[t])
        groups.append((sig, g, pre))
    lone_towers.sort(key=tv.__getitem__, reverse=True)
    pre_lone = [0]
    for t in lone_towers:
        pre_lone.append(pre_lone[-1] + tv[t])
    combos = []      # (towers next to parks, composite of those towers, towers per park, count per group)
    for ks in product(*(range(len(g) + 1) for _, g, _ in groups)):
        cnt = [0] * len(parks)
        val = 0
        for (sig, _, pre), k in zip(groups, ks):
            val += pre[k]
            for p in sig:
                cnt[p] += k
        combos.append((sum(ks), val, cnt, ks))
    n_towers = len(towers)
    e_top = min(E, n_towers * ce_tower + absorb)   # beyond e_top, energy only costs the penalty
    pkv = board.park_vp
    sidx = {s: k for k, s in enumerate(searched)}
    park_off = [0] * len(parks)   # per park, its searched office neighbours (they count in Expert, §8)
    if board.parks_count_offices:
        for k, p in enumerate(parks):
            for x in nb[p]:
                if types[x] == OFFICE:
                    park_off[k] |= 1 << sidx[x]
    opk_all = 0
    for o in park_off:
        opk_all |= o
    te_cache: dict[int, tuple] = {}

    def te_row(okey: int):
        """With the searched offices ``okey`` activated: per energy e = 0 .. e_top left for towers,
        the best composite of towers, parks and the energy penalty; the argmax tower count; per
        count, which towers."""
        got = te_cache.get(okey)
        if got is not None:
            return got
        off = [(okey & pm).bit_count() for pm in park_off]
        best_a = [_NEG] * (n_towers + 1)
        arg_a = [None] * (n_towers + 1)
        for j, val, cnt, ks in combos:
            v = val + sum(pkv[o + c] for o, c in zip(off, cnt)) * K1
            if v > best_a[j]:
                best_a[j] = v
                arg_a[j] = ks
        exact = [_NEG] * (n_towers + 1)
        arg_e = [None] * (n_towers + 1)
        for a, va in enumerate(best_a):
            if va != _NEG:
                for b, vb in enumerate(pre_lone):
                    if va + vb > exact[a + b]:
                        exact[a + b] = va + vb
                        arg_e[a + b] = (arg_a[a], b)
        row = [0] * (e_top + 1)
        arg = [0] * (e_top + 1)
        for e in range(e_top + 1):
            bv, bj = _NEG, 0
            for j in range(n_towers + 1):
                left = e - j * ce_tower
                if left < 0:
                    break
                v = exact[j] - penK * max(0, left - absorb)   # parks absorb first (§7, §10 #7)
                if v > bv:
                    bv, bj = v, j
            row[e] = bv
            arg[e] = bj
        got = te_cache[okey] = (row, arg, arg_e)
        return got

    # --- shops: with the searched factories activated, the m best (§8) ---------------------------
    shop_f = [0] * n_shops
    for k, s in enumerate(shops):
        for x in nb[s]:
            if types[x] == FACTORY and x in sidx:
                shop_f[k] |= 1 << sidx[x]
    fsh_all = 0
    for f in shop_f:
        fsh_all |= f
    f_shop = fvp[SHOP]
    shop_cache: dict[int, tuple] = {}

    def shop_row(fkey: int):
        got = shop_cache.get(fkey)
        if got is None:
            us = sorted((((mon[s] + f_shop * (fkey & shop_f[k]).bit_count()) * K1 + K2 + bit[s], s)
                         for k, s in enumerate(shops)), reverse=True)
            pre = [0]
            for u, _ in us:
                pre.append(pre[-1] + u)
            got = shop_cache[fkey] = (pre, [s for _, s in us])
        return got

    # --- free factories: next to searched harbours and offices only (§8) -----------------------
    free_pairs = [[(1 << sidx[x], fvp[types[x]]) for x in nb[f] if x in sidx and fvp[types[x]]] for f in free]
    ffk_all = 0
    for lst in free_pairs:
        for xb, _ in lst:
            ffk_all |= xb
    ff_cache: dict[int, tuple] = {}

    def ff_row(key: int):
        got = ff_cache.get(key)
        if got is None:
            vals = sorted((((mon[f] + sum(vp for xb, vp in lst if key & xb)) * K1 + K2 + bit[f], f)
                           for f, lst in zip(free, free_pairs)), reverse=True)
            pre = [0]
            for v, _ in vals:
                pre.append(pre[-1] + v)
            got = ff_cache[key] = (pre, [f for _, f in vals])
        return got

    def inner(i: int, e: int, mask: int):
        """Best composite of everything but the searched buildings, given their activated set
        ``mask`` and the inhabitants ``i`` and energy ``e`` they leave; and the shops and free
        factories it activates."""
        pre = shop_row(mask & fsh_all)[0]
        te = te_row(mask & opk_all)[0]
        ff = ff_row(mask & ffk_all)[0]
        best, bm, bj = _NEG, 0, 0
        m_top = n_shops if ce_shop == 0 else min(n_shops, e // ce_shop)
        for m in range(m_top + 1):
            row = leaf_rows[m][0]
            base = pre[m] + _at(te, e - m * ce_shop, penK)
            for j, fv in enumerate(ff):
                ii = i - j * ci_fac
                if ii < 0:
                    break
                v = base + fv + _at(row, ii, penK)
                if v > best:
                    best, bm, bj = v, m, j
        return best, bm, bj

    # --- the searched buildings ----------------------------------------------------------------
    nc = len(searched)
    c_ci = [ci[types[s]] for s in searched]
    c_ce = [ce[types[s]] for s in searched]
    c_own = [own(s) for s in searched]
    c_bits = [K2 + bit[s] for s in searched]
    h_mask = o_mask = 0
    for k, s in enumerate(searched):
        if types[s] == HARBOUR:
            h_mask |= 1 << k
        elif types[s] == OFFICE:
            o_mask |= 1 << k
    # harbour lines: searched harbours by index, -1 elsewhere; with hv0 a line needs 2 to matter
    h_lines = []
    for lines in (board.row_lines, board.col_lines):
        ls = [[sidx[s] if types[s] == HARBOUR and s in sidx else -1 for s in line] for line in lines]
        h_lines.append([ln for ln in ls if not hv0 or sum(k >= 0 for k in ln) > 1])
    hvp = board.harbour_vp
    h_cache: dict[int, int] = {}

    def harbour_runs(mask: int) -> int:
        got = h_cache.get(mask)
        if got is None:
            got = 0
            for lines in h_lines:
                best = 0
                for ln in lines:
                    run = 0
                    for k in ln:
                        if k >= 0 and mask >> k & 1:
                            run += 1
                            if run > best:
                                best = run
                        else:
                            run = 0
                got += hvp[best]
            h_cache[mask] = got
        return got

    o_adj = [0] * nc   # per searched office, its searched office neighbours
    for k, s in enumerate(searched):
        if types[s] == OFFICE:
            for x in nb[s]:
                if types[x] == OFFICE:
                    o_adj[k] |= 1 << sidx[x]
    o_h = [heights[s] for s in searched]
    ovp, ocap = board.office_vp, board.office_group_cap

    def office_components(mask: int) -> list:
        out = []
        left = mask
        while left:
            x = (left & -left).bit_length() - 1
            comp = 1 << x
            frontier = comp
            while frontier:
                grow = 0
                while frontier:
                    y = (frontier & -frontier).bit_length() - 1
                    frontier &= frontier - 1
                    grow |= o_adj[y]
                frontier = grow & mask & ~comp
                comp |= frontier
            out.append(comp)
            left &= ~comp
        return out

    o_cache: dict[int, int] = {}

    def office_groups(mask: int) -> int:
        got = o_cache.get(mask)
        if got is None:
            got = 0
            for comp in office_components(mask):
                row = ovp[min(comp.bit_count(), ocap) - 1]
                while comp:
                    y = (comp & -comp).bit_length() - 1
                    comp &= comp - 1
                    got += row[o_h[y]]
            o_cache[mask] = got
        return got

    f_pairs = []     # (searched factory bit, [(searched neighbour bit, VP)])
    pair_w = [[] for _ in range(nc)]   # per searched building: (neighbour bit, VP of their pair)
    for k, s in enumerate(searched):
        if types[s] == FACTORY:
            lst = [(1 << sidx[x], fvp[types[x]]) for x in nb[s] if x in sidx and fvp[types[x]]]
            if lst:
                f_pairs.append((1 << k, lst))
                for xb, vp in lst:
                    pair_w[k].append((xb, vp))
                    pair_w[xb.bit_length() - 1].append((1 << k, vp))

    def pairs(mask: int) -> int:
        v = 0
        for fb, lst in f_pairs:
            if mask & fb:
                for xb, vp in lst:
                    if mask & xb:
                        v += vp
        return v

    def mono(mask: int) -> int:
        """Plain VP of harbour runs, office groups and factory pairs among the searched ``mask``."""
        return harbour_runs(mask & h_mask) + office_groups(mask & o_mask) + pairs(mask)

    best = [_NEG, 0, 0, 0]   # composite, searched mask, shops activated, free factories activated
    prune = P.prune and nc > 0
    if prune:
        suffix = [0] * (nc + 1)
        pos_suffix = [0] * (nc + 1)
        cu_i = [0] * (nc + 1)
        cu_e = [0] * (nc + 1)
        suffix_bits = [0] * (nc + 1)
        for k in range(nc - 1, -1, -1):
            suffix[k] = suffix[k + 1] | 1 << k
            pos_suffix[k] = pos_suffix[k + 1] + max(0, c_own[k])
            cu_i[k] = cu_i[k + 1] + c_ci[k]
            cu_e[k] = cu_e[k + 1] + c_ce[k]
            suffix_bits[k] = suffix_bits[k + 1] + bit[searched[k]]
        # the rest of the city at its most optimistic: every searched factory and office activated
        # (more of them never lowers shops, parks or free factories, §8); per number of shops, a
        # range maximum over the inhabitants it gets (free factories + the inhabitant table)
        pre_all = shop_row(fsh_all)[0]
        te_q = _range_max(te_row(opk_all)[0], penK)
        ff_all = ff_row(ffk_all)[0]
        g_q = []
        for m in range(n_shops + 1):
            row = leaf_rows[m][0]
            top = min(I, len(row) - 1 + len(free) * ci_fac)
            g = []
            for i in range(top + 1):
                bv = _NEG
                for j, fv in enumerate(ff_all):
                    if i - j * ci_fac < 0:
                        break
                    v = fv + _at(row, i - j * ci_fac, penK)
                    if v > bv:
                        bv = v
                g.append(bv)
            g_q.append(_range_max(g, penK))

        rest_cache: dict[tuple, int] = {}

        def rest(i_lo: int, i_hi: int, e_lo: int, e_hi: int) -> int:
            """Most plain VP the rest of the city makes with i' in [i_lo, i_hi] inhabitants and e'
            in [e_lo, e_hi] energy (the undecided buildings take anything from none to all)."""
            key = (i_lo, i_hi, e_lo, e_hi)
            got = rest_cache.get(key)
            if got is not None:
                return got
            bv = _NEG
            m_top = n_shops if ce_shop == 0 else min(n_shops, e_hi // ce_shop)
            for m in range(m_top + 1):
                el = m * ce_shop
                v = pre_all[m] + g_q[m](i_lo, i_hi) + te_q(max(0, e_lo - el), e_hi - el)
                if v > bv:
                    bv = v
            got = rest_cache[key] = bv // K1
            return got

        inner_bits = sum(bit[s] for s in towers + shops + publics + unary + free)
        # for the activated-count bound: split the buildings into a group paid with inhabitants and a
        # group paid with energy (each building costs at least its group's cheapest); the searched
        # buildings that cost both (offices) go in either group: the bound is the smaller count
        e_items = [k for k in range(nc) if c_ce[k] > 0]
        ue_suffix = [sum(1 for j in e_items if j >= k) for k in range(nc + 1)]
        n_a_inner = len(publics) + len(unary) + len(free)
        n_b_inner = len(towers) + len(shops)
        a_costs = ([c_ci[k] for k in range(nc) if c_ce[k] == 0] + [ci[PUBLIC]] * bool(publics)
                   + [ci[types[u]] for u in unary] + [ci_fac] * bool(free))
        m_a = min(a_costs, default=0)
        m_b = min([ce_tower] * bool(towers) + [ce_shop] * bool(shops) + [c_ce[k] for k in e_items], default=0)
        m_a2 = min(a_costs + [c_ci[k] for k in e_items], default=0)
        m_b2 = min([ce_tower] * bool(towers) + [ce_shop] * bool(shops), default=0)

        def at_most(count: int, left: int, cost: int) -> int:
            return min(count, left // cost) if cost else count

        min_ci = min(c_ci)
        min_ce = min((c for c in c_ce if c > 0), default=0)
        max_ci, max_ce = max(c_ci), max(c_ce)
        o_ce = ce[OFFICE] > 0

        def beaten(ub: int, k: int, inh: int, en: int, bits: int) -> bool:
            """Whether no leaf below, whose total is at most ``ub``, can beat the best leaf found:
            compares the total, then bounds on the activated count, the customers, the pattern."""
            target = best[0] // K1
            if ub != target:
                return ub < target
            i_left, e_left = I - inh, E - en
            u_e = ue_suffix[k]
            count_ub = bits // K2 + min(
                at_most(n_a_inner + nc - k - u_e, i_left, m_a) + at_most(n_b_inner + u_e, e_left, m_b),
                at_most(n_a_inner + nc - k, i_left, m_a2) + at_most(n_b_inner, e_left, m_b2))
            cust_ub = min(n_shops * cap, i_left)
            pattern_ub = bits % K2 + inner_bits + suffix_bits[k]
            return ub * K1 + count_ub * K2 + cust_ub * K3 + pattern_ub < best[0]

        def tight_bound(k: int, mask: int, inh: int, en: int, lin: int) -> int:
            """For c = 0 .. the undecided buildings the inhabitants left pay for: the activated part
            exactly; harbour runs and office groups grown by at most c; the c best undecided
            buildings, each with its own VP, half of each pair with another undecided building and
            the whole of each pair with an activated one, and its office at the largest group it
            could join; the rest of the city with what is left."""
            du = mask | suffix[k]
            r_e = nc if min_ce == 0 else (E - en) // min_ce      # undecided that cost energy it pays for
            r_i = nc if min_ci == 0 else (I - inh) // min_ci     # undecided the inhabitants pay for
            u_off = (suffix[k] & o_mask).bit_count()
            add_off = min(u_off, r_i, r_e if o_ce else u_off)    # offices that can still be added
            size = {}     # undecided office -> the largest group it can end in
            d_offices = []
            for comp in office_components(du & o_mask):
                g = comp.bit_count()
                dc = (comp & mask).bit_count()
                while comp:
                    y = (comp & -comp).bit_length() - 1
                    comp &= comp - 1
                    if mask >> y & 1:
                        d_offices.append((g, dc, o_h[y]))
                    else:
                        size[y] = min(g, dc + add_off)
            sc2 = []    # (2 x score, costs energy)
            for j in range(k, nc):
                v = 2 * c_own[j]
                for xb, vp in pair_w[j]:
                    if mask & xb:
                        v += 2 * vp
                    elif du & xb:
                        v += vp
                if j in size:
                    v += 2 * ovp[min(size[j], ocap) - 1][o_h[j]]
                sc2.append((v, c_ce[j] > 0))
            sc2.sort(reverse=True)
            # the best c of them, at most r_e of those that cost energy (greedy is exact for this)
            tops = [0]
            n_e = 0
            for v, uses_e in sc2:
                if uses_e:
                    if n_e == r_e:
                        continue
                    n_e += 1
                tops.append(tops[-1] + v)
            r = min(len(tops) - 1, r_i)
            segs = []
            for lines in h_lines:
                out = []
                for ln in lines:
                    run = d = 0
                    for x in ln + [-1]:
                        if x >= 0 and du >> x & 1:
                            run += 1
                            d += mask >> x & 1
                        else:
                            if run > 1 or (run and not hv0):
                                out.append((run, d))
                            run = d = 0
                segs.append(out)
            base = lin - pos_suffix[k] + pairs(mask) + const
            i_now, e_now = I - inh, E - en
            best_ub = _NEG
            for c in range(r + 1):
                v = base + tops[c] // 2
                for out in segs:
                    v += hvp[max((min(L, d + c) for L, d in out), default=0)]
                c_o = c if not o_ce else min(c, r_e)
                for g, dc, h in d_offices:
                    v += ovp[min(g, dc + c_o, ocap) - 1][h]
                # c buildings use between c x the cheapest and c x the dearest of each resource
                i_hi = i_now - c * min_ci
                v += rest(max(0, i_now - min(cu_i[k], c * max_ci)), i_hi, e_now - min(cu_e[k], c * max_ce), e_now)
                if v > best_ub:
                    best_ub = v
            return best_ub

    const_k = const * K1

    def dfs(k: int, mask: int, inh: int, en: int, ub_mono: int, lin: int, bits: int) -> None:
        # ub_mono: mono(activated | undecided) (only kept when pruning); lin: own VP of the
        # activated plus the positive own VP of the undecided
        if prune and k < nc and best[0] != _NEG:     # (a leaf costs about what its bound does)
            i_left, e_left = I - inh, E - en
            if beaten(ub_mono + lin + const + rest(max(0, i_left - cu_i[k]), i_left, e_left - cu_e[k], e_left),
                      k, inh, en, bits):
                return
            if nc - k >= _TIGHT and beaten(tight_bound(k, mask, inh, en, lin), k, inh, en, bits):
                return
        if k == nc:
            v, m, j = inner(I - inh, E - en, mask)
            v += ((ub_mono if prune else mono(mask)) + lin) * K1 + const_k + bits
            if v > best[0]:
                best[:] = [v, mask, m, j]
            return
        own_k = c_own[k]
        if inh + c_ci[k] <= I and en + c_ce[k] <= E:
            dfs(k + 1, mask | 1 << k, inh + c_ci[k], en + c_ce[k], ub_mono, lin + own_k - max(0, own_k),
                bits + c_bits[k])
        dfs(k + 1, mask, inh, en, mono(mask | suffix[k + 1]) if prune else 0, lin - max(0, own_k), bits)

    dfs(0, 0, 0, 0, mono((1 << nc) - 1) if prune else 0, sum(max(0, v) for v in c_own), 0)

    # --- rebuild the allocation from the best leaf -------------------------------------------------
    _, mask, m, j = best
    on = [types[s] in _ALWAYS_ACTIVE for s in range(n)]
    i_left, e_left = I, E
    for k, s in enumerate(searched):
        if mask >> k & 1:
            on[s] = True
            i_left -= c_ci[k]
            e_left -= c_ce[k]
    for f in ff_row(mask & ffk_all)[1][:j]:
        on[f] = True
    i_left -= j * ci_fac
    chosen_shops = shop_row(mask & fsh_all)[1][:m]
    for s in chosen_shops:
        on[s] = True
    te, te_arg, te_split = te_row(mask & opk_all)
    ks, n_lone = te_split[te_arg[min(e_left - m * ce_shop, e_top)]]
    for (_, g, _), kk in zip(groups, ks):
        for t in g[:kk]:
            on[t] = True
    for t in lone_towers[:n_lone]:
        on[t] = True
    row, arg, qx = leaf_rows[m]
    z = arg[min(i_left, len(row) - 1)]
    x = qx[z]
    d = pub_d[x]
    for st in range(len(stages) - 1, -1, -1):
        kk, d, x = backs[st][d, x]
        for s in stage_lists[st][:kk]:
            on[s] = True
    customers = [0] * n
    for s, c in zip(sorted(chosen_shops), _spread(P, m, z - qx[z])):
        customers[s] = c
    breakdown = city_score(board, types, heights, vps, on, customers, I, E)
    total = sum(breakdown.values())
    if total != best[0] // K1:   # the search and city_score disagree: a bug, never a bad input
        raise AssertionError(f"best_allocation: the rebuilt allocation scores {total}, the search {best[0] // K1}")
    return Allocation(tuple(on), tuple(customers), breakdown, total)


__all__ = ["CATEGORIES", "Allocation", "city_score", "best_allocation"]
