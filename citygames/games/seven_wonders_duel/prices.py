"""7 Wonders Duel: what things cost — trading with the bank, cards, wonders, the discard value.

Rules: HU "Érme- és erőforrásköltség", "Termelés", "Kereskedelem" and "Ingyen építési lehetőség
(láncok)"; ref §6.5 and pitfalls P2 (price of a unit: 2 + the opponent's brown/grey production of
it), P3 (Reserves and Customs House: 1 coin), P4 (Economy takes the trading coins), P5
(Masonry/Architecture: the 2 free resources that save most), P6 (chains make the whole cost free),
P7 (discard value) and P20 (one-of producers give one unit per construction, never raise the
opponent's prices).

Production is read from the state's flat lists: ``production[seat * NR + r]`` (brown/grey cards),
``fixed_price[seat * NR + r]``, ``one_of[seat]``. These functions are also the state's public
methods (``state.card_price(p, card)``, ...).
"""

from __future__ import annotations

from .components import ARCHITECTURE, BLUE, ECONOMY, MASONRY, NC, NR, YELLOW

#: cost vector -> its ``(resource, amount)`` pairs with amount > 0 (filled lazily; there are few distinct costs)
_NEEDED: dict = {}


def unit_price(s, p: int, r: int) -> int:
    """Coins seat ``p`` pays the bank for one unit of resource ``r``: 1 with a Reserve or the Customs
    House (P3), else 2 + the opponent's brown/grey production of it (P2)."""
    if s.fixed_price[p * NR + r]:
        return 1
    return s.c.setup["trade_base"] + s.production[(1 - p) * NR + r]


def trade_cost(s, p: int, cost: tuple, reduce: int = 0) -> int:
    """Cheapest coins seat ``p`` pays for trading to cover resource vector ``cost`` (5 ints).

    Own fixed production first; then the one-of producers (Forum, Caravansery, Great Lighthouse,
    Piraeus, P20) take the most expensive units of their family (raw / manufactured), then ``reduce``
    free units (Masonry, Architecture, P5) the most expensive remaining ones. The two families are
    disjoint, so this is the optimum (P5's method)."""
    # this is the engine's hottest function: unit_price is inlined, only needed resources are visited
    try:
        needed = _NEEDED[cost]
    except (KeyError, TypeError):   # first time for this cost, or a list
        needed = tuple((r, k) for r, k in enumerate(cost) if k > 0)
        if type(cost) is tuple:
            _NEEDED[cost] = needed
    prod = s.production
    fixed = s.fixed_price
    b = p * NR
    o = NR - b          # the opponent's offset
    base = s.c.setup["trade_base"]
    one_of = s.one_of[p]
    if not one_of and not reduce:    # every missing unit is bought: no need to sort them
        total = 0
        for r, k in needed:
            k -= prod[b + r]
            if k > 0:
                total += k if fixed[b + r] else k * (base + prod[o + r])
        return total
    raw = []
    man = []
    for r, k in needed:
        k -= prod[b + r]
        if k > 0:
            u = 1 if fixed[b + r] else base + prod[o + r]
            if r < 3:
                raw += [u] * k
            else:
                man += [u] * k
    if not raw and not man:
        return 0
    if one_of:
        kr = 0
        for f in one_of:
            if f[0] < 3:
                kr += 1
        km = len(one_of) - kr
        if kr and raw:
            raw.sort(reverse=True)
            del raw[:kr]
        if km and man:
            man.sort(reverse=True)
            del man[:km]
    units = raw + man
    if reduce and units:
        units.sort(reverse=True)
        del units[:reduce]
    return sum(units)


def chained(s, p: int, card: int) -> bool:
    """Whether seat ``p`` owns the chain symbol that makes ``card`` free (HU "Ingyen építési
    lehetőség (láncok)", P6)."""
    cf = s.c.cards[card].chain_from
    return cf >= 0 and bool(s.chains[p] >> cf & 1)


def card_price(s, p: int, card: int) -> int:
    """Total coins seat ``p`` pays to construct ``card`` now (HU "Érme- és erőforrásköltség"): 0
    through a chain (P6), else its coin cost plus trading (Masonry: 2 fewer resources for blue
    cards, P5)."""
    cd = s.c.cards[card]
    cf = cd.chain_from
    if cf >= 0 and s.chains[p] >> cf & 1:
        return 0
    reduce = 2 if cd.color == BLUE and s.progress_tokens[p] >> MASONRY & 1 else 0
    return cd.coins + trade_cost(s, p, cd.cost, reduce)


def wonder_price(s, p: int, w: int) -> int:
    """Coins seat ``p`` pays (all of it trading: wonders have no coin cost) to build wonder ``w``
    (Architecture: 2 fewer resources, P5)."""
    reduce = 2 if s.progress_tokens[p] >> ARCHITECTURE & 1 else 0
    return trade_cost(s, p, s.c.wonders[w].cost, reduce)


def discard_value(s, p: int) -> int:
    """Coins for discarding a card: 2 + the yellow cards in seat ``p``'s city (P7)."""
    return s.c.setup["discard_base"] + s.color_count[p * NC + YELLOW]


def pay(s, p: int, coins: int, trade: int) -> None:
    """Seat ``p`` pays ``coins`` (printed) plus ``trade`` (trading) to the bank; with the opponent
    holding Economy the trading coins go to the opponent instead (P4)."""
    s.coins[p] -= coins + trade
    if trade and s.progress_tokens[1 - p] >> ECONOMY & 1:
        s.coins[1 - p] += trade
        s.event("economy", 1 - p, coins=trade)


__all__ = ["unit_price", "trade_cost", "chained", "card_price", "wonder_price", "discard_value", "pay"]
