"""7 Wonders Duel: what a card or a wonder does once built, and the two decisions wonders open —
the Statue of Zeus / Circus Maximus destruction and the Mausoleum.

Rules: the card and wonder texts of HU ("Céhkártyák", the wonder list, "7 csoda, eggyel sem több!")
and ref §4 (card data), §4.8 (wonders); pitfalls P6 (Urbanism's +4 for a chain), P8 (the 7th wonder
sends the last unbuilt one back to the box), P9 (extra turns; Theology never doubles one), P10 (the
Mausoleum: any discarded card, built free with its effects), P12 (destroy a brown/grey card of the
opponent's; skipped without a target), P13 (coin losses capped), P15 (Strategy: +1 shield per red
card), P18 (guilds count the city with most), P19 (Age III yellow cards count the own city) and
§11.1 (the project default for Urbanism on a Mausoleum rebuild, a data rule).
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION

from .components import COLORS, GREY, NC, NR, RED, STRATEGY, THEOLOGY, URBANISM
from .constants import DESTROY, MAUSOLEUM
from .military import move_pawn
from .prices import chained, pay, wonder_price
from .science import gain_symbol, library_draw
from .scoring import count_colors, wonders_built


def gain_card(s, p: int, card: int, chained: bool, mausoleum: bool = False) -> None:
    """Put ``card`` into seat ``p``'s city and apply its effects (ref §4): production, one-of
    production, fixed prices, the chain symbol, coins when built (Urbanism for a chain P6, own cards
    P19, own wonders, guilds P18), shields (Strategy P15) and the science symbol (P16, P17).
    ``mausoleum``: rebuilt through the Mausoleum (P10; data rules for Urbanism §11.1 and Strategy P15)."""
    c = s.c
    cd = c.cards[card]
    rules = c.rules
    s.city[p].append(card)
    cc = s.color_count
    cc[p * NC + cd.color] += 1
    b = p * NR
    if cd.color <= GREY:   # only brown and grey cards produce (ref §4)
        prod = s.production
        for r, k in enumerate(cd.produces):
            if k:
                prod[b + r] += k
    if cd.one_of:
        one_of = s.one_of
        s.one_of = (one_of[0] + (cd.one_of,), one_of[1]) if p == 0 else (one_of[0], one_of[1] + (cd.one_of,))
    if cd.fixed_price:
        fixed = list(s.fixed_price)
        for r in cd.fixed_price:
            fixed[b + r] = True
        s.fixed_price = tuple(fixed)
    if cd.chain_to >= 0:
        s.chains[p] |= 1 << cd.chain_to
    gain = cd.coins_now
    tokens = s.progress_tokens[p]
    if chained and tokens >> URBANISM & 1 and (not mausoleum or rules["urbanism_on_mausoleum_chain"]):
        gain += 4
    if cd.coins_per_own:
        colors, k = cd.coins_per_own
        n = count_colors(s, p, colors)
        if not cd.counts_itself and cd.color in colors:
            n -= 1
        gain += k * n
    if cd.coins_per_wonder:
        gain += cd.coins_per_wonder * wonders_built(s, p)
    if cd.guild_coins:
        gain += cd.guild_coins * max(count_colors(s, q, cd.guild_colors) for q in (0, 1))
    if gain:
        s.coins[p] += gain
        s.event("coins", p, card=card, coins=gain)
    if cd.shields:
        sh = cd.shields
        if cd.color == RED and tokens >> STRATEGY & 1 and (not mausoleum or rules["strategy_on_mausoleum"]):
            sh += 1
        move_pawn(s, p, sh)
        if s.victory >= 0:
            return
    if cd.science >= 0:
        gain_symbol(s, p, cd.science)


def build_wonder(s, p: int, w: int, card: int) -> None:
    """Seat ``p`` builds wonder ``w``, tucking ``card`` under it (HU "Egy csoda megépítése", P21), and
    applies its effects (ref §4.8): P8 when it is the 7th, "play again" (P9, Theology), coins, the
    opponent's loss (P13), one-of production (P20), shields (not Strategy, P15), then the Statue of
    Zeus / Circus Maximus destruction (P12), the Great Library's draw (P11) or the Mausoleum (P10)."""
    c = s.c
    wd = c.wonders[w]
    trade = wonder_price(s, p, w)
    wc = list(s.wonder_card)
    wc[w] = card
    s.total_wonders_built += 1
    s.event("wonder", p, wonder=w, card=card, price=trade)
    pay(s, p, 0, trade)
    if s.total_wonders_built == c.setup["max_wonders_built"]:   # P8: the last unbuilt wonder leaves the game
        for q in (0, 1):
            for v in s.wonders[q]:
                if wc[v] == -1:
                    wc[v] = -2
                    s.event("wonder_removed", q, wonder=v)
    s.wonder_card = tuple(wc)
    if wd.extra_turn or s.progress_tokens[p] >> THEOLOGY & 1:   # P9: never doubled
        s.extra_turn = True
    if wd.coins:
        s.coins[p] += wd.coins
        s.event("coins", p, wonder=w, coins=wd.coins)
    if wd.opponent_loses:
        q = 1 - p
        lost = min(wd.opponent_loses, s.coins[q])   # P13
        s.coins[q] -= lost
        s.event("lose_coins", q, wonder=w, coins=lost)
    if wd.one_of:
        one_of = s.one_of
        s.one_of = (one_of[0] + (wd.one_of,), one_of[1]) if p == 0 else (one_of[0], one_of[1] + (wd.one_of,))
    if wd.shields:
        move_pawn(s, p, wd.shields)   # Strategy counts red cards only (P15)
        if s.victory >= 0:
            return
    if wd.destroys >= 0:
        q = 1 - p
        cards = c.cards
        if any(cards[x].color == wd.destroys for x in s.city[q]):
            s.destroy_color = wd.destroys
            s.step = DESTROY
        else:
            s.event("no_target", p, wonder=w)
    elif wd.library:
        library_draw(s, p)
    elif wd.mausoleum:
        if s.discard_pile:
            s.step = MAUSOLEUM
        else:
            s.event("no_target", p, wonder=w)   # P10: an empty discard pile does nothing


# --- the decision "destroy": Statue of Zeus (brown) / Circus Maximus (grey), P12 ---------------------
def destroy_legal(s) -> list:
    g = s.game
    table = g.action_space.table
    base = g.off["destroy"]
    cards = s.c.cards
    color = s.destroy_color
    return [table[base + x] for x in sorted(s.city[1 - s.player]) if cards[x].color == color]


def destroy(s, card: int) -> None:
    """Put the opponent's ``card`` onto the discard pile; its production goes with it (P12, P25)."""
    p = s.player
    q = 1 - p
    cd = s.c.cards[card]
    s.city[q].remove(card)
    s.color_count[q * NC + cd.color] -= 1
    b = q * NR
    prod = s.production
    for r in range(NR):
        prod[b + r] -= cd.produces[r]
    s.discard_pile.append(card)
    s.step = NO_DECISION
    s.destroy_color = -1
    s.event("destroy", p, card=card, owner=q)


def destroy_why(s, a) -> str:
    return (f"destroy a card (P12): {s.c.cards[a.arg].name} is not a {COLORS[s.destroy_color]} card "
            "of the opponent's city")


# --- the decision "mausoleum": build a discarded card for free, P10 ----------------------------------
def mausoleum_legal(s) -> list:
    g = s.game
    table = g.action_space.table
    base = g.off["mausoleum"]
    return [table[base + x] for x in sorted(set(s.discard_pile))]


def mausoleum(s, card: int) -> None:
    p = s.player
    s.step = NO_DECISION
    s.event("mausoleum", p, card=card)
    s.discard_pile.remove(card)
    gain_card(s, p, card, chained=chained(s, p, card), mausoleum=True)


def mausoleum_why(s, a) -> str:
    return f"Mausoleum (P10): {s.c.cards[a.arg].name} is not in the discard pile"


__all__ = ["gain_card", "build_wonder", "destroy_legal", "destroy", "destroy_why",
           "mausoleum_legal", "mausoleum", "mausoleum_why"]
