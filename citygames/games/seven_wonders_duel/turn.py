"""7 Wonders Duel: a player's turn — take an accessible card and construct it, discard it for coins,
or build a wonder with it.

Rules: HU "Egy játékos köre" (the three actions) with "1. Egy épület megépítése", "2. Kártya
eldobása érmékért cserébe" and "3. Egy csoda megépítése"; ref §6.4 and pitfalls P2 (a card is
constructed only if its price can be paid), P7 (discard value), P8 (at most 7 wonders), P21 (any
accessible card may be tucked under a wonder, even one the player could not afford).

This is the decision ``play``; the effects of what is built are in ``effects.py``, the end of the
turn in ``ages.py``.
"""

from __future__ import annotations

from citygames.core.events import game_seat_label
from citygames.core.phases import NO_DECISION

from .components import BLUE, MASONRY
from .effects import build_wonder, gain_card
from .prices import card_price, discard_value, pay, trade_cost, wonder_price
from .structure import accessible_cards, accessible_slots, take


def play_legal(s) -> list:
    """For each accessible card (slot order): construct it if its price can be paid, discard it, and
    build each of the player's unbuilt wonders it can pay for with it (none once 7 are built, P8)."""
    g = s.game
    table = g.action_space.table
    off = g.off
    c = s.c
    p = s.player
    ncards = len(c.cards)
    coins = s.coins[p]
    oc, od = off["construct"], off["discard"]
    wonder_ok = ()   # action-id bases (wonder * n) of the wonders seat p can afford
    if s.total_wonders_built < c.setup["max_wonders_built"]:
        wonder_card = s.wonder_card
        ow = off["wonder"]
        wonder_ok = [ow + w * ncards for w in s.wonders[p]
                     if wonder_card[w] == -1 and wonder_price(s, p, w) <= coins]
    out = []
    append = out.append
    structure = s.structure
    for i in accessible_slots(s):
        x = structure[i]
        if card_price(s, p, x) <= coins:
            append(table[oc + x])
        append(table[od + x])
        for base in wonder_ok:
            append(table[base + x])
    return out


def construct(s, card: int) -> None:
    """Take ``card`` and construct it: free through a chain (P6), else its coins plus trading (P2-P5)."""
    take(s, card)
    s.step = NO_DECISION
    p = s.player
    cd = s.c.cards[card]
    cf = cd.chain_from
    if cf >= 0 and s.chains[p] >> cf & 1:
        s.event("construct", p, card=card, price=0, trade=0, chain=True)
        gain_card(s, p, card, chained=True)
        return
    reduce = 2 if cd.color == BLUE and s.progress_tokens[p] >> MASONRY & 1 else 0
    trade = trade_cost(s, p, cd.cost, reduce)
    s.event("construct", p, card=card, price=cd.coins + trade, trade=trade, chain=False)
    pay(s, p, cd.coins, trade)
    gain_card(s, p, card, chained=False)


def discard(s, card: int) -> None:
    """Take ``card`` and put it onto the discard pile for 2 coins + 1 per own yellow card (P7)."""
    take(s, card)
    s.step = NO_DECISION
    p = s.player
    v = discard_value(s, p)
    s.coins[p] += v
    s.discard_pile.append(card)
    s.event("discard", p, card=card, coins=v)


def wonder(s, arg: int) -> None:
    """``arg`` = wonder * (number of cards) + card: take the card and build the wonder with it (P21)."""
    w, card = divmod(arg, len(s.c.cards))
    take(s, card)
    s.step = NO_DECISION
    build_wonder(s, s.player, w, card)


def play_why(s, a) -> str:
    """The rule an illegal construct / discard / wonder action breaks."""
    c = s.c
    n = len(c.cards)
    p = s.player
    who = game_seat_label(s.game, p)
    x = a.arg % n
    if x not in accessible_cards(s):
        return (f"turn (§6.4): {c.cards[x].name} is not an accessible card of the structure "
                "(it must be face up and covered by no card)")
    if a.kind == "construct":
        return (f"construct (§6.4, P2): {c.cards[x].name} costs {card_price(s, p, x)} coins "
                f"for {who}, who has {s.coins[p]}")
    w = a.arg // n
    if w not in s.wonders[p]:
        return f"build a wonder: {c.wonders[w].name} is not one of {who}'s wonders"
    if s.wonder_card[w] >= 0:
        return f"build a wonder: {c.wonders[w].name} is already built"
    if s.total_wonders_built >= c.setup["max_wonders_built"]:
        return f"build a wonder (P8): only seven wonders can be built, {c.wonders[w].name} is out of the game"
    return (f"build a wonder (P2): {c.wonders[w].name} costs {wonder_price(s, p, w)} coins "
            f"for {who}, who has {s.coins[p]}")


__all__ = ["play_legal", "construct", "discard", "wonder", "play_why"]
