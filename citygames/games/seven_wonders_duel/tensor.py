"""7 Wonders Duel: the fixed-size views for learning — the observation tensor's layout, the tensor of
one seat's observation, and the bound on a game's length.

The tensor (``state.observation_tensor(seat)``) is a flat ``float32`` vector holding exactly what
``state.observation(seat)`` shows (``observation.py``, P24), never what it hides: the identity of a
face-down card (a face-down guild shows only its guild back), the cards removed at setup, the
wonders not revealed, the progress tokens in the box, and the Great Library's draw for anybody but
its builder. Per-seat slices run from the observer on (``citygames.core.tensor.seat_order``: "me",
then the opponent; a spectator sees seat 0 first) and the conflict pawn is signed toward the
observer's opponent, so one policy can play either seat. ``TENSOR.md`` documents every slice (the
table is ``game.observation_tensor_layout().markdown()``).

Speed: the tensor is built every step by learning adapters, so it never calls ``observation()``. It
reads the state's incremental fields (colour counts, production, chains, science, ...) and index
tables built once per game object (``_tables``), writes small integers into a ``bytearray`` (C-speed
slice writes; one Python store per set flag) and converts it once with NumPy, reading the bytes as
signed (the pawn is negative on the observer's side); the rare coins and scores above 127 are written
after.
"""

from __future__ import annotations

import numpy as np

from citygames.core.tensor import TensorLayout

from .components import (AGRICULTURE, ARCHITECTURE, BROWN, COLORS, GREY, LAW, MASONRY, MATHEMATICS, NC, NR, NS,
                         PHILOSOPHY, PURPLE, RESOURCES, SYMBOLS, YELLOW)
from .constants import CATEGORIES, DRAFT, LIBRARY, STEP_KEYS, VICTORY_NAMES
from .draft import draft_round

#: coins above this are written as this many (the rules set no limit: the bank is unlimited, §11.3);
#: random and greedy play stay below 100 (TENSOR.md)
COIN_CAP = 150
#: per-slot states of the structure (the first four are one-hot; the fifth is a separate flag)
SLOT_STATES = ("face up", "face down (age back)", "face down (guild back)", "taken", "accessible")
#: per wonder, per seat: the seat holds it, it is built, it is out of the game (P8)
WONDER_STATES = ("held", "built", "out of the game")
#: Mathematics scores this many VP per progress token owned (HU token text; ``scoring.score_breakdown``)
MATHEMATICS_VP = 3


class _Tables:
    """Everything ``observation_tensor`` needs that depends only on the game: the layout, the
    slices' offsets (attributes named after the slices) and the index and value tables."""

    def __init__(self, game):
        c = game.components
        setup = c.setup
        n, nw, nt, nk = len(c.cards), len(c.wonders), len(c.tokens), len(c.chain_symbols)
        self.n, self.nw, self.nt, self.nk = n, nw, nt, nk
        cards = c.cards
        # an age's cards, as the structure's one-hot indexes them (Age III: its cards, then the guilds)
        age_list = {a: tuple(c.age_cards[a]) + (tuple(c.guilds) if a == 3 else ()) for a in (1, 2, 3)}
        self.width = width = max(len(v) for v in age_list.values())
        self.local = {a: [-1] * n for a in age_list}
        for a, v in age_list.items():
            for k, x in enumerate(v):
                self.local[a][x] = k
        self.age_list = age_list
        self.is_guild = [cd.guild for cd in cards]
        self.covered_by = {a: st.covered_by for a, st in c.structures.items()}

        # bounds, from the data (each documented in its slice)
        color_high = max(sum(1 for cd in cards if cd.color == k) for k in range(NC))
        prod_high = max(sum(cd.produces[r] for cd in cards if cd.color in (BROWN, GREY)) for r in range(NR))
        base = setup["trade_base"]
        unit_high = base + prod_high
        unit_low = min(1, base)
        one_of_high = max(sum(1 for x in cards if r in x.one_of) + sum(1 for w in c.wonders if r in w.one_of)
                          for r in range(NR))
        sci_high = max(sum(1 for cd in cards if cd.science == k) + (k == LAW) for k in range(NS))
        n_yellow = sum(1 for cd in cards if cd.color == YELLOW)
        discard_high = setup["discard_base"] + n_yellow
        card_price_high = max(cd.coins + sum(cd.cost) * unit_high for cd in cards)
        wonder_price_high = max(sum(w.cost) * unit_high for w in c.wonders)
        # wonders one seat holds: its picks in the draft (draft_order: 0 the first player, 1 the second)
        per_seat = max([sum(rnd.count(k) for rnd in c.draft_order) for k in (0, 1)]
                       + [len(x) for x in c.first_game_wonders])
        n_libraries = sum(1 for w in c.wonders if w.library)
        tokens_high = min(nt, setup["progress_tokens_on_board"] + n_libraries)
        coins_vp = COIN_CAP // setup["coins_per_vp"]

        def guild_high(cd) -> int:
            if cd.guild_vp:
                return cd.guild_vp * sum(1 for x in cards if x.color in cd.guild_colors)
            if cd.guild_wonder_vp:
                return cd.guild_wonder_vp * per_seat
            return cd.guild_coin_vp * coins_vp

        vp_high = {
            "military": max(c.conflict_vp),
            "blue": sum(cd.vp for cd in cards if cd.color == COLORS.index("blue")),
            "green": sum(cd.vp for cd in cards if cd.color == COLORS.index("green")),
            "yellow": sum(cd.vp for cd in cards if cd.color == YELLOW),
            "purple": sum(sorted((guild_high(cards[x]) for x in c.guilds), reverse=True)[:setup["guilds_in_age_3"]]),
            "wonders": sum(sorted((w.vp for w in c.wonders), reverse=True)[:per_seat]),
            "progress": (c.tokens[AGRICULTURE].vp + c.tokens[PHILOSOPHY].vp + MATHEMATICS_VP * tokens_high),
            "coins": coins_vp,
        }
        assert tuple(vp_high) == CATEGORIES
        self.vp_high = vp_high
        score_high = sum(vp_high.values())
        self.capital = cap = c.capital
        ngs = len(c.draft_order)
        if all(v == tuple(range(v[0], v[0] + len(v))) for v in age_list.values()):
            ages_text = ("index = card id - the age's first id; Age I: cards "
                         + ", Age II: ".join(f"{v[0]}-{v[-1]}" for v in (age_list[1], age_list[2]))
                         + f", Age III: {age_list[3][0]}-{age_list[3][-1]}, the guilds last")
        else:
            ages_text = "the order of `Components.age_cards`, the guilds last in Age III"
        seats = "per seat from the observer on"
        cat_text = ", ".join(CATEGORIES)
        decisions = ", ".join(STEP_KEYS)
        slices = [
            ("phase", len(STEP_KEYS), 0, 1, "one-hot", f"the pending decision ({decisions}); `end` once the game "
             "is over"),
            ("age", 4, 0, 1, "one-hot", "the age: 0 during the wonder draft, then I, II, III"),
            ("seat", 2, 0, 1, "one-hot", "the observer's seat (North, South); all 0 for a spectator"),
            ("to_move", 2, 0, 1, "flag", f"{seats}: 1 for the seat to move (all 0 at the end)"),
            ("first_player", 2, 0, 1, "one-hot", f"{seats}: the seat that drafted first and started Age I"),
            ("extra_turn", 1, 0, 1, "flag", "the seat to move plays again once its pending choice is made (P9)"),
            ("draft_round", ngs, 0, 1, "one-hot", "the wonder draft's round (all 0 outside the draft)"),
            ("draft_pool", nw, 0, 1, "flag", "per wonder: revealed in the draft and not taken yet"),
            ("structure_card", (20, width), 0, 1, "one-hot",
             f"per slot of the current age's structure (0-19, row by row from row 1, the row reached last), the "
             f"face-up card's index among the age's cards ({ages_text}); all 0 for a face-down or taken slot and "
             "during the draft"),
            ("structure_state", (20, len(SLOT_STATES)), 0, 1, "flag",
             "per slot: " + ", ".join(SLOT_STATES) + " (the first four one-hot; all 0 during the draft)"),
            ("cards", (2, n), 0, 1, "flag", f"{seats}: per card, in its city (constructed, not tucked)"),
            ("wonders", (2, nw, len(WONDER_STATES)), 0, 1, "flag",
             f"{seats}: per wonder, " + ", ".join(WONDER_STATES) + " (P8)"),
            ("tokens", (2, nt), 0, 1, "flag", f"{seats}: per progress token, owned"),
            ("chains", (2, nk), 0, 1, "flag", f"{seats}: per chain symbol ({', '.join(c.chain_symbols)}), owned"),
            ("one_of", (2, NR), 0, one_of_high, "count",
             f"{seats}: per resource, the one-of producers (Forum, Caravansery, Great Lighthouse, Piraeus) that "
             "can give it (P20)"),
            ("colors", (2, NC), 0, color_high, "count", f"{seats}: cards per colour ({', '.join(COLORS)})"),
            ("production", (2, NR), 0, prod_high, "count",
             f"{seats}: units of each resource ({', '.join(RESOURCES)}) its brown and grey cards produce"),
            ("science", (2, NS), 0, sci_high, "count",
             f"{seats}: per science symbol ({', '.join(SYMBOLS)}), how many it owns (Law counts, P17)"),
            ("fixed_price", (2, NR), 0, 1, "flag", f"{seats}: per resource, bought at 1 coin (Reserves, Customs "
             "House, P3)"),
            ("military_tokens", (2, 2), 0, 1, "flag",
             f"{seats}: the 2-coin and 5-coin military tokens still on its side of the track"),
            ("trade_prices", (2, NR), unit_low, unit_high, "coins",
             f"{seats}: the price of one unit of each resource from the bank (P2, P3)"),
            ("coins", 2, 0, COIN_CAP, "coins", f"{seats}: coins (clipped at {COIN_CAP})"),
            ("discard_value", 2, setup["discard_base"], discard_high, "coins", f"{seats}: coins for discarding a card (2 + yellow "
             "cards, P7)"),
            ("vp", (2, len(CATEGORIES)), 0, max(vp_high.values()), "VP",
             f"{seats}: VP by category ({cat_text}), as they stand (guilds final at the end, P18); coins "
             f"and the Moneylenders Guild count coins clipped at {COIN_CAP}"),
            ("score", 2, 0, score_high, "VP", f"{seats}: total VP (the sum of `vp`)"),
            ("pawn", 1, -cap, cap, "spaces", "the conflict pawn: spaces from the centre toward the opponent's "
             "capital (negative: toward the observer's; a spectator: toward South's)"),
            ("wonders_built", 1, 0, setup["max_wonders_built"], "count", "wonders built by both seats (P8)"),
            ("progress_board", nt, 0, 1, "flag", "per progress token, on the board"),
            ("library_draw", nt, 0, 1, "flag", "per progress token, drawn by the Great Library: shown only to "
             "its builder while it chooses (P11), else all 0"),
            ("discard", n, 0, 1, "flag", "per card, in the discard pile (public, §6.4)"),
            ("tucked", n, 0, 1, "flag", "per card, tucked under a built wonder (either seat's)"),
            ("destroy_color", NC, 0, 1, "one-hot", "during the destroy decision, the colour of the opponent's "
             "card to destroy (Statue of Zeus: brown, Circus Maximus: grey); else all 0"),
            ("card_price", 20, 0, card_price_high, "coins",
             "per structure slot with an accessible card, what constructing it costs the observer (a spectator: "
             "the seat to move), 0 through a chain; 0 for the other slots"),
            ("chain", 20, 0, 1, "flag", "per structure slot with an accessible card, the observer (a spectator: "
             "the seat to move) constructs it free through a chain (P6)"),
            ("wonder_price", nw, 0, wonder_price_high, "coins",
             "per wonder the observer (a spectator: the seat to move) holds and has not built, what building it "
             "costs while an accessible card can be tucked; else 0"),
            ("winner", 2, 0, 1, "flag", f"{seats}: the winner (all 0 before the end and for a shared victory)"),
            ("victory", len(VICTORY_NAMES), 0, 1, "one-hot",
             f"how the game ended ({', '.join(VICTORY_NAMES)}); all 0 before the end"),
        ]
        self.layout = lay = TensorLayout(slices)
        self.size = lay.size
        too_big = [sl.name for sl in lay if sl.name not in ("score", "coins") and (sl.low < -128 or sl.high > 127)]
        if too_big or COIN_CAP > 255:   # only data overrides far from the game can do this
            raise NotImplementedError(f"seven_wonders_duel: the observation tensor writes {', '.join(too_big)} as "
                                      "signed bytes (-128..127), and these data allow values outside that range")
        for sl in lay:
            setattr(self, "o_" + sl.name, sl.offset)
        assert lay["phase"].offset == 0 and lay["pawn"].offset == lay["score"].offset + 2
        # per age, per structure slot: (slot, the slots covering it, base index of its card one-hot, of its states)
        self.slots = {a: [(i, cov, lay["structure_card"].offset + width * i,
                           lay["structure_state"].offset + len(SLOT_STATES) * i) for i, cov in enumerate(covered)]
                      for a, covered in self.covered_by.items()}
        # the progress tokens' bit mask as one byte per token
        self.token_bytes = [bytes((m >> t) & 1 for t in range(nt)) for m in range(1 << nt)]
        # production -> the unit price it gives the opponent (P2), for bytes.translate
        self.add_trade_base = bytes(min(255, v + base) for v in range(256))
        # what a card / wonder needs: ((resource, units), ...) for the units > 0 (prices.trade_cost)
        self.needed = [tuple((r, k) for r, k in enumerate(cd.cost) if k) for cd in cards]
        self.wonder_needed = [tuple((r, k) for r, k in enumerate(w.cost) if k) for w in c.wonders]
        self.card_coins = [cd.coins for cd in cards]
        self.chain_from = [cd.chain_from for cd in cards]
        self.is_blue = [cd.color == COLORS.index("blue") for cd in cards]
        # card VP of the plain categories packed into one int (blue, green, yellow: 16 bits each)
        blue, green = COLORS.index("blue"), COLORS.index("green")
        self.vp_pack = [cd.vp if cd.color == blue else cd.vp << 16 if cd.color == green
                        else cd.vp << 32 if cd.color == YELLOW else 0 for cd in cards]
        self.guild = [(cd.guild_vp, cd.guild_colors, cd.guild_wonder_vp, cd.guild_coin_vp) if cd.color == PURPLE
                      else None for cd in cards]
        self.wonder_vp = [w.vp for w in c.wonders]
        # military VP by the pawn's distance toward the opponent's capital + capital (P14: 0 on the own side)
        self.military_vp = [c.conflict_vp[d] if 0 < d < cap else 0 for d in range(-cap, cap + 1)]
        self.progress_vp = (c.tokens[AGRICULTURE].vp, c.tokens[PHILOSOPHY].vp)
        self.coins_per_vp = setup["coins_per_vp"]
        self.trade_base = base
        self.discard_base = setup["discard_base"]
        # _fixed's results by (fixed prices, seat): at most 2 ** 10 * 2 keys, a few dozen in practice
        self.memo = {}
        self.no_fixed = bytes(2 * NR)


def _tables(game) -> _Tables:
    """The tables of ``game``, built on first use and kept on the game object (a game is immutable)."""
    t = game.__dict__.get("_duel_tensor_tables")
    if t is None:
        t = game.__dict__["_duel_tensor_tables"] = _Tables(game)
    return t


def layout(game) -> TensorLayout:
    """The named layout of 7 Wonders Duel's observation tensor (the ``"tensor_layout"`` part).

    Args:
        game: a ``SevenWondersDuel``; the layout depends on its components only (1,272 values for the
            data as shipped, the same for every option set).

    Returns:
        a ``TensorLayout`` whose slices are listed, with their bounds and units, in ``TENSOR.md``.
        Bounds come from the data (e.g. production: the most units of one resource all brown and grey
        cards give; prices: a card's coins plus its resources at the highest unit price), except coins,
        which the rules leave unbounded and the tensor clips at ``COIN_CAP``.
    """
    return _tables(game).layout


def observation_tensor(s, seat: int | None) -> np.ndarray:
    """What ``seat`` sees of state ``s`` (``None``: a spectator) as the flat vector ``layout(game)``
    describes (the ``"observation_tensor"`` part).

    Returns:
        a new ``float32`` array of shape ``(layout.size,)``: flags and one-hots 0/1, counts, coins and
        VP as plain numbers (coins clipped at ``COIN_CAP``), per-seat slices from ``seat`` on. It holds
        only what ``observation(seat)`` shows (P24), so resampling the hidden parts for ``seat`` leaves
        it unchanged.
    """
    g = s.game
    T = g.__dict__.get("_duel_tensor_tables") or _tables(g)
    b = bytearray(T.size)
    step = s.step
    age = s.age
    over = s.victory >= 0
    b[step] = 1                                  # phase (offset 0)
    b[T.o_age + age] = 1
    if seat is None:
        me = 0
    else:
        me = seat
        b[T.o_seat + seat] = 1
    op = 1 - me
    player = s.player
    if not over:
        b[T.o_to_move + (player != me)] = 1
    b[T.o_first_player + (s.first_player != me)] = 1
    if s.extra_turn:
        b[T.o_extra_turn] = 1
    o = T.o_draft_pool
    for w in s.draft_pool:
        b[o + w] = 1
    if step == DRAFT:
        b[T.o_draft_round + draft_round(s)] = 1

    # the structure: face-up identities, states, accessibility (structure.accessible_slots)
    acc = []
    structure = s.structure
    if age:
        loc = T.local[age]
        is_guild = T.is_guild
        up = s.face_up
        for i, cov, cb, sb in T.slots[age]:
            x = structure[i]
            if x < 0:
                b[sb + 3] = 1
            elif up[i]:
                b[sb] = 1
                b[cb + loc[x]] = 1
                for j in cov:
                    if structure[j] >= 0:
                        break
                else:
                    b[sb + 4] = 1
                    acc.append(i)
            elif is_guild[x]:
                b[sb + 2] = 1
            else:
                b[sb + 1] = 1

    # the two cities
    city = s.city
    city_me, city_op = city[me], city[op]
    o = T.o_cards
    for x in city_me:
        b[o + x] = 1
    o += T.n
    for x in city_op:
        b[o + x] = 1
    wc = s.wonder_card
    wonders = s.wonders
    wonder_vp = T.wonder_vp
    o_t = T.o_tucked
    built = [0, 0]   # wonders built and their VP, the observer's then the opponent's
    wvp = [0, 0]
    for k, q in enumerate((me, op)):
        base = T.o_wonders + 3 * T.nw * k
        for w in wonders[q]:
            j = base + 3 * w
            b[j] = 1
            x = wc[w]
            if x >= 0:
                b[j + 1] = 1
                b[o_t + x] = 1
                built[k] += 1
                wvp[k] += wonder_vp[w]
            elif x == -2:
                b[j + 2] = 1
    built_me, built_op = built
    wvp_me, wvp_op = wvp
    tokens = s.progress_tokens
    tk_me, tk_op = tokens[me], tokens[op]
    tb = T.token_bytes
    o = T.o_tokens
    nt = T.nt
    b[o:o + nt] = tb[tk_me]
    b[o + nt:o + 2 * nt] = tb[tk_op]

    one_of = s.one_of
    chains = s.chains
    for k, q in enumerate((me, op)):
        o = T.o_one_of + NR * k
        for f in one_of[q]:
            for r in f:
                b[o + r] += 1
        o = T.o_chains + T.nk * k
        m = chains[q]
        while m:
            low = m & -m
            b[o + low.bit_length() - 1] = 1
            m ^= low

    # the counts, from colors to trade_prices: one block from the state's flat lists (seat * width + i), the
    # observer's half first; the fixed prices (a tuple the engine replaces whole) through a memo
    cc = s.color_count
    prod = s.production
    fixed = s.fixed_price
    sci = s.science
    mil = s.military_tokens
    if me == 0:
        block = bytes(cc + prod + sci)
        mil = bytes(mil)
    else:
        block = bytes(cc[NC:] + cc[:NC] + prod[NR:] + prod[:NR] + sci[NS:] + sci[:NS])
        mil = bytes(mil[2:] + mil[:2])
    own = block[2 * NC:2 * NC + 2 * NR]         # production from the observer on
    # a unit costs 2 + the opponent's production of it (P2), or 1 with a fixed price (P3)
    trade = (own[NR:] + own[:NR]).translate(T.add_trade_base)
    if True in fixed:
        key = (fixed, me)
        try:
            fixed_b, keep, ones = T.memo[key]
        except KeyError:
            fixed_b, keep, ones = T.memo[key] = _fixed(key)
        trade = ((int.from_bytes(trade, "little") & keep) | ones).to_bytes(2 * NR, "little")
    else:
        fixed_b = T.no_fixed
    b[T.o_colors:T.o_coins] = block + fixed_b + mil + trade

    # coins, discard values, VP by category (scoring.score_breakdown, with coins clipped)
    coins = s.coins
    cm, co = coins[me], coins[op]
    if cm > COIN_CAP:
        cm = COIN_CAP
    if co > COIN_CAP:
        co = COIN_CAP
    pawn = s.pawn if me == 0 else -s.pawn
    military = T.military_vp
    cap = T.capital
    cpv = T.coins_per_vp
    vp_pack = T.vp_pack
    packed = sum(map(vp_pack.__getitem__, city_me))
    packed_op = sum(map(vp_pack.__getitem__, city_op))
    b_me, b_op = me * NC, op * NC
    db = T.discard_base
    vals = [cm, co, db + cc[b_me + YELLOW], db + cc[b_op + YELLOW],
            military[cap + pawn], packed & 0xFFFF, (packed >> 16) & 0xFFFF, packed >> 32,
            _purple(T, city_me, cc, b_me, built_me, built_op, cm, co) if cc[b_me + PURPLE] else 0, wvp_me,
            _progress(T, tk_me) if tk_me else 0, cm // cpv,
            military[cap - pawn], packed_op & 0xFFFF, (packed_op >> 16) & 0xFFFF, packed_op >> 32,
            _purple(T, city_op, cc, b_op, built_me, built_op, cm, co) if cc[b_op + PURPLE] else 0, wvp_op,
            _progress(T, tk_op) if tk_op else 0, co // cpv]
    b[T.o_coins:T.o_score] = vals
    b[T.o_wonders_built] = s.total_wonders_built

    # public piles, the board, the Great Library's draw for its builder
    o = T.o_progress_board
    for t in s.progress_board:
        b[o + t] = 1
    if step == LIBRARY and seat == player:
        o = T.o_library_draw
        for t in s.library_draw:
            b[o + t] = 1
    o = T.o_discard
    for x in s.discard_pile:
        b[o + x] = 1
    if s.destroy_color >= 0:
        b[T.o_destroy_color + s.destroy_color] = 1

    # prices for the observer (a spectator: the seat to move), as observation()["prices"]
    who = me if seat is not None else player
    if acc and who in (0, 1):
        k = 0 if who == me else NR
        tk = tk_me if who == me else tk_op
        unit = trade[k:k + NR]
        own = own[k:k + NR]
        masonry = tk >> MASONRY & 1
        architecture = tk >> ARCHITECTURE & 1
        chained = chains[who]
        chain_from = T.chain_from
        o = T.o_card_price
        oc = T.o_chain
        n = T.n
        ow = T.o_wonder_price
        if not one_of[who] and not masonry and not architecture:
            # every missing unit is bought at its unit price (prices.trade_cost without one-of producers)
            needed = T.needed
            card_coins = T.card_coins
            for i in acc:
                x = structure[i]
                cf = chain_from[x]
                if cf >= 0 and chained >> cf & 1:
                    b[oc + i] = 1
                else:
                    price = card_coins[x]
                    for r, m in needed[x]:
                        m -= own[r]
                        if m > 0:
                            price += m * unit[r]
                    b[o + i] = price
            needed = T.wonder_needed
            for w in wonders[who]:
                if wc[w] == -1:
                    price = 0
                    for r, m in needed[w]:
                        m -= own[r]
                        if m > 0:
                            price += m * unit[r]
                    b[ow + w] = price
        else:
            # one-of producers or a 2-resource reduction (P5, P20): prices.trade_cost's method, inlined
            raw = man = 0
            for f in one_of[who]:
                if f[0] < 3:
                    raw += 1
                else:
                    man += 1
            needed = T.needed
            card_coins = T.card_coins
            is_blue = T.is_blue
            for i in acc:
                x = structure[i]
                cf = chain_from[x]
                if cf >= 0 and chained >> cf & 1:
                    b[oc + i] = 1
                else:
                    b[o + i] = card_coins[x] + _trade(needed[x], own, unit, raw, man,
                                                      2 if masonry and is_blue[x] else 0)
            needed = T.wonder_needed
            for w in wonders[who]:
                if wc[w] == -1:
                    b[ow + w] = _trade(needed[w], own, unit, raw, man, 2 if architecture else 0)
    if over:
        if s.winner >= 0:
            b[T.o_winner + (s.winner != me)] = 1
        b[T.o_victory + s.victory] = 1

    # the bytes are read as signed: the pawn as it is, coins and scores above 127 (rare) are written after
    o = T.o_score
    b[o + 2] = pawn & 255
    sm, so = sum(vals[4:12]), sum(vals[12:20])
    if sm < 128 and so < 128:
        b[o] = sm
        b[o + 1] = so
        if cm < 128 and co < 128:
            return np.frombuffer(b, np.int8).astype(np.float32)
    out = np.frombuffer(b, np.int8).astype(np.float32)
    out[o] = sm
    out[o + 1] = so
    out[T.o_coins] = cm
    out[T.o_coins + 1] = co
    return out


def _trade(needed: tuple, own, unit, raw: int, man: int, reduce: int) -> int:
    """Coins to buy the ``needed`` resources (``((resource, units), ...)``) with ``own`` production and
    ``unit`` prices, ``raw`` / ``man`` one-of producers of raw / manufactured resources and ``reduce`` free
    units: ``prices.trade_cost``'s method (P5, P20) on the observer's values."""
    r_units = []
    m_units = []
    for r, k in needed:
        k -= own[r]
        if k > 0:
            if r < 3:
                r_units += [unit[r]] * k
            else:
                m_units += [unit[r]] * k
    if raw and r_units:
        r_units.sort(reverse=True)
        del r_units[:raw]
    if man and m_units:
        m_units.sort(reverse=True)
        del m_units[:man]
    units = r_units + m_units
    if reduce and units:
        units.sort(reverse=True)
        del units[:reduce]
    return sum(units)


def _fixed(key: tuple) -> tuple:
    """For ``key`` = (``state.fixed_price``, the observer's seat): the bytes of the slice ``fixed_price`` from
    the observer on, and the masks that set the trade price of a fixed-price resource to 1 in the bytes of
    ``trade_prices`` (``(price & keep) | ones``, as little-endian ints)."""
    fixed, me = key
    if me:
        fixed = fixed[NR:] + fixed[:NR]
    keep = int.from_bytes(bytes(0 if f else 255 for f in fixed), "little")
    ones = int.from_bytes(bytes(fixed), "little")
    return bytes(fixed), keep, ones


def _purple(T, city, cc, k, built_me, built_op, cm, co) -> int:
    """Guild VP of the seat whose city is ``city`` and whose colour counts start at ``cc[k]`` (``cc``:
    ``state.color_count``, the other seat's at ``cc[NC - k]``), counting the city with most (P18);
    ``built_*``: the wonders built, ``cm``, ``co``: the coins (clipped) of the observer and the opponent."""
    guild = T.guild
    q = NC - k
    purple = 0
    for x in city:
        gd = guild[x]
        if gd is not None:
            gvp, colors, gw, gc = gd
            if gvp:
                a = sum(cc[k + col] for col in colors)
                d = sum(cc[q + col] for col in colors)
                purple += gvp * (a if a > d else d)
            elif gw:
                purple += gw * (built_me if built_me > built_op else built_op)
            elif gc:
                purple += gc * ((cm if cm > co else co) // T.coins_per_vp)
    return purple


def _progress(T, tk: int) -> int:
    """VP of the progress tokens in bit mask ``tk``: Agriculture, Philosophy, Mathematics (3 per token)."""
    progress = 0
    if tk >> AGRICULTURE & 1:
        progress += T.progress_vp[0]
    if tk >> PHILOSOPHY & 1:
        progress += T.progress_vp[1]
    if tk >> MATHEMATICS & 1:
        progress += MATHEMATICS_VP * bin(tk).count("1")
    return progress


def max_game_length(game) -> int:
    """An upper bound on the actions of one game with ``game``'s options (the ``"max_game_length"`` part).

    Every action is one decision (``constants.DECISIONS``); each kind is bounded by the rules:

    - the wonder draft: one pick per wonder revealed, ``sum(len(round) for round in draft_order)`` = 8
      (§6.2); none with ``first_game_wonders``;
    - ``play``: every turn takes one card of the structure, so 20 per age, 60 in all (§5, §6.4). A
      wonder's "play again" (P9) is one of these turns, not an extra action;
    - ``choose_starter``: at most once per new age, so 2 (Ages II and III, P1; fewer with
      ``first_print`` and the pawn in the centre);
    - ``progress_token``: one per science pair (P16). A seat pairs a symbol when its count reaches 2,
      and green cards never leave a city (only brown and grey cards are destroyed, P12), so each
      seat pairs each symbol at most once: at most ``min(2, cards with the symbol // 2)`` pairs per
      symbol (6 with the data as shipped). While a token must be taken (§11.2) each pair takes one
      of the ``progress_tokens_on_board`` (5) tokens, so at most that many;
    - ``library``, ``destroy``, ``mausoleum``: once per wonder that opens it (the Great Library; the
      Statue of Zeus and Circus Maximus; the Mausoleum), since a wonder is built at most once.

    With the data as shipped: 8 + 60 + 2 + 5 + 1 + 2 + 1 = 79 (71 with first-game wonders). The longest
    of 6,000 seeded random and greedy games per option set had 77 actions (67 with first-game wonders):
    TENSOR.md.
    """
    c = game.components
    draft = 0 if game.options["first_game_wonders"] else sum(len(r) for r in c.draft_order)
    turns = sum(len(st.rows) for st in c.structures.values())
    starters = len(c.structures) - 1
    pairs = sum(min(2, sum(1 for cd in c.cards if cd.science == k) // 2) for k in range(NS))
    if c.rules["progress_token_must_be_taken"]:
        pairs = min(pairs, c.setup["progress_tokens_on_board"])
    wonders = sum(1 for w in c.wonders if w.library or w.mausoleum or w.destroys >= 0)
    return draft + turns + starters + pairs + wonders


__all__ = ["COIN_CAP", "layout", "observation_tensor", "max_game_length"]
