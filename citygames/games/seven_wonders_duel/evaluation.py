"""7 Wonders Duel: the greedy bot's evaluation of a state for one seat.

``evaluate(s, p)`` estimates how good state ``s`` is for seat ``p`` in "victory points of margin"
(own minus opponent's), so that one step of look-ahead (the greedy bot tries every legal action
and keeps the best successor) plays sensibly. A finished game is worth +-1000 (a shared victory
0). Otherwise the value is the sum of, each as ``mine - the opponent's``:

- **points**: the victory points as they stand (``score_breakdown``) without the coins category,
  which is valued by the next term;
- **coins**: each coin is worth more than its final 1/3 VP while there are cards left to buy
  (``_coin_weight``: 0.75 at the start, 0.40 at the end);
- **prices**: the cost of buying a typical basket of resources (``BASKET``) through
  ``trade_cost`` - own production, one-of producers (Forum, Caravansery, wonders), Reserves and
  the opponent's production all show up in it, so brown/grey cards are worth what they save and
  what they make the opponent pay. Weighted by the share of the game still to play
  (``PRICE_WEIGHT``: the strongest single term in self-play tuning - cheap resources decide
  most games);
- **military**: beyond the conflict VP, a convex bonus for the pawn's distance toward the
  opponent's capital (``MILITARY``): every step closer to military supremacy (P14) is worth more,
  and the same penalty when the opponent approaches ours;
- **science**: a convex value of the number of different symbols (``SCIENCE``), for both sides,
  so the bot collects new symbols and fears an opponent with 4-5 (scientific supremacy, P17);
  a pair's progress token is counted when it is to be chosen (below);
- **chains**: chain symbols whose free card is still to come (and Urbanism's 4 coins);
- **progress tokens**: the lasting effects of the tokens owned (Economy, Masonry, Strategy,
  Theology, Architecture, Urbanism), their VP and coins being counted above;
- **wonders**: part (``WONDER_OPTION``) of the worth of each own wonder still to build, shrinking
  as the game advances (an unbuilt wonder is worth nothing at the end);
- **pending decisions**: a progress token to choose (science pair, Great Library), a card to
  destroy or to take from the discard pile (Mausoleum), or who starts the next age, counted for
  the seat that will decide as the best it can take. When the bot makes such a decision itself,
  it compares the states each choice leads to with this same evaluation (the token's VP, coins
  and lasting effect; the production a destroyed card takes from the opponent; the card taken
  from the discard pile; starting an age gives the first pick of the accessible cards);
- **the next turn**: the best card (or military wonder) the seat to move next can take from the
  accessible cards - a bonus when it is ``p`` (extra turns, starting an age), a penalty when it
  is the opponent; a card that would win the game outright (military or scientific supremacy)
  counts as almost a lost (won) game. This makes the bot deny the opponent what it needs, avoid
  uncovering good cards for it and react to threats.

It is called once per legal action, so it is kept to plain arithmetic over the state's flat
fields (about 15-20 microseconds); everything that depends only on the components is computed
once. The weights were tuned by self-play against earlier versions; the result beats the random
bot in about 999 games of 1000.
"""

from __future__ import annotations

from .components import (AGRICULTURE, ARCHITECTURE, BROWN, ECONOMY, GREY, LAW, LAW_TOKEN, MASONRY, MATHEMATICS, NC,
                         NS, PHILOSOPHY, RED, STRATEGY, THEOLOGY, URBANISM)
from .constants import CHOOSE_STARTER, DESTROY, DRAFT, LIBRARY, MAUSOLEUM, PLAY, TOKEN

WIN = 1000.0
#: an outright win the next mover can take at once (not 1000: the mover may still miss it)
THREAT = 400.0
#: the resources of a typical purchase (wood, clay, stone, glass, papyrus): about one Age II/III card
BASKET = (2, 2, 2, 1, 1)
#: value of one coin saved on the basket (own price) or added to it (opponent's), times the share of the game left
PRICE_WEIGHT = 3.0
#: bonus by pawn distance toward the opponent's capital (0..8), on top of the conflict VP
MILITARY = (0.0, 0.6, 1.3, 2.2, 3.2, 4.5, 6.5, 9.5, 14.0)
#: value by number of different science symbols (0..5); 6 wins
SCIENCE = (0.0, 1.0, 2.2, 3.8, 6.5, 12.0)
#: share of an unbuilt wonder's worth counted while it waits
WONDER_OPTION = 0.4
#: share of the next mover's best option counted (it is one move away)
NEXT_MOVE = 0.5

class _Static:
    """What the evaluation needs from the components, computed once per ``Components``."""

    def __init__(self, c):
        self.capital = c.capital
        self.conflict_vp = c.conflict_vp
        self.coins_per_vp = c.setup["coins_per_vp"]
        self.max_wonders = c.setup["max_wonders_built"]
        # chain symbol -> the age of the card it makes free (0: none)
        target_age = [0] * len(c.chain_symbols)
        target_card = [-1] * len(c.chain_symbols)
        for cd in c.cards:
            if cd.chain_from >= 0:
                target_age[cd.chain_from] = cd.age
                target_card[cd.chain_from] = cd.idx
        self.chain_target_age = tuple(target_age)
        self.chain_target_card = tuple(target_card)
        # a wonder's worth once built, apart from its VP-independent context (coins at 0.5)
        worth = []
        for w in c.wonders:
            v = w.vp + 0.5 * w.coins + 0.4 * w.opponent_loses + 2.0 * w.shields
            if w.extra_turn:
                v += 2.5
            if w.destroys >= 0:
                v += 1.5
            if w.library:
                v += 4.0
            if w.mausoleum:
                v += 3.0
            if w.one_of:
                v += 3.0
            worth.append(v)
        self.wonder_worth = tuple(worth)
        self.wonder_extra = tuple(w.extra_turn for w in c.wonders)


def _static(c) -> _Static:
    """The ``_Static`` of components ``c``, computed once and kept on ``c`` (one per data variant)."""
    try:
        return c._eval_static
    except AttributeError:
        st = c._eval_static = _Static(c)
        return st


def _progress(s) -> float:
    """Share of the game played, 0 (draft) .. 1 (last card of Age III)."""
    if s.age == 0:
        return 0.0
    return ((s.age - 1) * 20 + s.cards_taken) / 60.0


def _coin_weight(t: float) -> float:
    """Value of one coin: it buys cards and resources early, it is 1/3 VP at the end."""
    return 0.75 - 0.35 * t


def _military_bonus(d: int) -> float:
    """Supremacy bonus for a pawn ``d`` steps toward the opponent's capital (negative: toward ours)."""
    if d >= 0:
        return MILITARY[min(d, 8)]
    return -MILITARY[min(-d, 8)]


def _distance(s, p: int) -> int:
    return s.pawn if p == 0 else -s.pawn


def _symbols(s, p: int) -> int:
    b = p * NS
    sci = s.science
    return sum(1 for k in range(NS) if sci[b + k])


def _token_potential(s, p: int, t: int, left: float, st: _Static) -> float:
    """The lasting value of progress token ``t`` for seat ``p`` beyond its VP and coins."""
    if t == ECONOMY:
        return 4.0 * left
    if t == MASONRY:
        return 3.0 * left
    if t == STRATEGY:
        return 3.5 * left
    if t == URBANISM:
        return 2.5 * left
    if t in (ARCHITECTURE, THEOLOGY):
        if s.total_wonders_built >= st.max_wonders:
            return 0.0
        wonder_card = s.wonder_card
        n = 0
        for w in s.wonders[p]:
            if wonder_card[w] == -1 and (t == ARCHITECTURE or not st.wonder_extra[w]):
                n += 1
        return (1.5 if t == ARCHITECTURE else 2.0) * n
    if t == MATHEMATICS:
        return 1.0 * left   # tokens still to come count 3 more each
    return 0.0


def _token_gain(s, p: int, t: int, left: float, cw: float, st: _Static) -> float:
    """What taking progress token ``t`` now is worth to seat ``p`` (VP, coins, symbol, lasting effect)."""
    c = s.c
    g = _token_potential(s, p, t, left, st) + cw * c.tokens[t].coins
    tk = s.progress_tokens[p]
    if t == AGRICULTURE:
        g += c.tokens[AGRICULTURE].vp
    elif t == PHILOSOPHY:
        g += c.tokens[PHILOSOPHY].vp
    elif t == MATHEMATICS:
        g += 3 * (bin(tk).count("1") + 1)
    elif t == LAW_TOKEN and not s.science[p * NS + LAW]:
        k = _symbols(s, p) + 1
        if k >= 6:
            return THREAT
        g += SCIENCE[k] - SCIENCE[k - 1]
    if tk >> MATHEMATICS & 1:
        g += 3
    return g


def _card_gain(s, m: int, x: int, price: int, left: float, cw: float, st: _Static) -> float:
    """A rough value of seat ``m`` constructing card ``x`` for ``price`` coins now (``THREAT`` if it
    wins the game on the spot)."""
    cd = s.c.cards[x]
    g = cd.vp - cw * price
    if cd.shields:
        sh = cd.shields
        if cd.color == RED and s.progress_tokens[m] >> STRATEGY & 1:
            sh += 1
        d = _distance(s, m)
        nd = d + sh
        if nd >= st.capital:
            return THREAT
        cvp = st.conflict_vp
        g += (_military_bonus(nd) - _military_bonus(d) + cvp[max(0, min(nd, 8))] - cvp[max(0, min(d, 8))]
              + cvp[max(0, min(-d, 8))] - cvp[max(0, min(-nd, 8))])
    if cd.science >= 0:
        b = m * NS
        have = s.science[b + cd.science]
        if not have:
            k = _symbols(s, m) + 1
            if k >= 6:
                return THREAT
            g += SCIENCE[k] - SCIENCE[k - 1]
        elif have == 1 and s.progress_board:
            g += 4.0
    if cd.color == BROWN or cd.color == GREY:   # production: see the prices term
        g += 1.2 * sum(cd.produces) * left
    coins = cd.coins_now
    cc = s.color_count
    if cd.coins_per_own:
        colors, k = cd.coins_per_own
        coins += k * (sum(cc[m * NC + col] for col in colors) + (1 if cd.counts_itself else 0))
    if cd.guild:
        if cd.guild_colors:
            n = max(sum(cc[r * NC + col] for col in cd.guild_colors) for r in (0, 1))
            g += cd.guild_vp * n
            coins += cd.guild_coins * n
        elif cd.guild_wonder_vp:
            g += cd.guild_wonder_vp * max(s.wonders_built(0), s.wonders_built(1))
        elif cd.guild_coin_vp:
            g += cd.guild_coin_vp * (max(s.coins) // st.coins_per_vp)
    if coins:
        g += cw * coins
    return g


def _next_mover_value(s, m: int, p: int, left: float, cw: float, st: _Static) -> float:
    """The best seat ``m``, who plays the next turn, can do with the accessible cards, signed for ``p``."""
    accessible = s.accessible_cards()
    if not accessible:   # the age is over
        return 0.0
    coins = s.coins[m]
    best = cw * s.discard_value(m)   # discarding is always possible
    card_price = s.card_price
    for x in accessible:
        price = card_price(m, x)
        if price <= coins:
            g = _card_gain(s, m, x, price, left, cw, st)
            if g > best:
                best = g
                if g >= THREAT:
                    break
    if best < THREAT and s.total_wonders_built < st.max_wonders:
        # a wonder with shields can also end the game
        d = _distance(s, m)
        wonders = s.c.wonders
        for w in s.wonders[m]:
            sh = wonders[w].shields
            if sh and s.wonder_card[w] == -1 and d + sh >= st.capital and s.wonder_price(m, w) <= coins:
                best = THREAT
                break
    return NEXT_MOVE * best if m == p else -NEXT_MOVE * best


def _side(s, p: int, left: float, cw: float, st: _Static) -> float:
    """Everything of the value that belongs to one seat (points, coins, prices aside)."""
    bd = s.score_breakdown(p)
    v = float(sum(bd.values()) - bd["coins"]) + cw * s.coins[p]
    # science
    v += SCIENCE[min(_symbols(s, p), 5)]
    # chains still to be used
    ch = s.chains[p]
    if ch and left > 0:
        k = 0
        age = s.age
        sym = 0
        while ch:
            if ch & 1:
                ta = st.chain_target_age[sym]
                if ta > age:
                    k += 1
                elif ta == age and st.chain_target_card[sym] in s.structure:
                    k += 1
            ch >>= 1
            sym += 1
        if k:
            v += k * (1.5 + (2.0 if s.progress_tokens[p] >> URBANISM & 1 else 0.0))
    # progress tokens' lasting effects
    tk = s.progress_tokens[p]
    if tk:
        for tok in (ARCHITECTURE, ECONOMY, MASONRY, MATHEMATICS, STRATEGY, THEOLOGY, URBANISM):
            if tk >> tok & 1:
                v += _token_potential(s, p, tok, left, st)
    # wonders still to build
    if s.total_wonders_built < st.max_wonders:
        wonder_card = s.wonder_card
        worth = st.wonder_worth
        for w in s.wonders[p]:
            if wonder_card[w] == -1:
                v += WONDER_OPTION * left * worth[w]
    return v


def evaluate(s, p: int) -> float:
    """Heuristic value of state ``s`` for seat ``p`` (higher is better): see the module docstring."""
    if s.victory >= 0:
        if s.winner < 0:
            return 0.0
        return WIN if s.winner == p else -WIN
    st = _static(s.c)
    q = 1 - p
    t = _progress(s)
    left = 1.0 - t
    cw = _coin_weight(t)
    v = _side(s, p, left, cw, st) - _side(s, q, left, cw, st)
    # prices: what a typical purchase costs each side
    if left > 0:
        v += PRICE_WEIGHT * left * (s.trade_cost(q, BASKET) - s.trade_cost(p, BASKET))
    # military supremacy threat
    v += _military_bonus(_distance(s, p))
    # the next turn, after the pending decision if there is one
    ph = s.step
    if ph == PLAY:
        return v + _next_mover_value(s, s.player, p, left, cw, st)
    if ph == CHOOSE_STARTER:
        return v + (0.5 if s.player == p else -0.5)
    if ph == DRAFT:
        return v   # the wonders owned are counted above
    chooser = s.player
    if ph == TOKEN or ph == LIBRARY:
        options = s.progress_board if ph == TOKEN else s.library_draw
        g = max(_token_gain(s, chooser, tok, left, cw, st) for tok in options) if options else 0.0
    elif ph == MAUSOLEUM:
        g = max((_card_gain(s, chooser, x, 0, left, cw, st) for x in set(s.discard_pile)), default=0.0)
    elif ph == DESTROY:
        g = 2.0   # about what a brown/grey card is worth to its owner
    else:
        g = 0.0
    v += g if chooser == p else -g
    return v + _next_mover_value(s, chooser if s.extra_turn else 1 - chooser, p, left, cw, st)


__all__ = ["evaluate"]
