"""7 Wonders Duel: what one seat may see (P24), as JSON-ready data, and ``resample``, which redraws
what it may not see.

Hidden from everybody: the identity of face-down cards (a face-down guild shows its guild back),
the cards removed at setup, the wonders not yet revealed, the progress tokens in the box. Hidden
from the opponent: the 3 tokens the Great Library drew. Everything else is public, including the
discard pile (§6.4).

Shape (``observation(state, seat)``)::

    {"game": "seven_wonders_duel", "seat": 0 | 1 | None, "phase": "draft" | "play" | "progress_token" |
     "library" | "destroy" | "mausoleum" | "choose_starter" | "end",
     "decision": str, "current_player": int | None, "first_player": int, "age": 0..3,
     "structure": [{"slot", "row", "col", "card": int | None, "face_up": bool, "guild_back": bool,
                    "taken": bool, "accessible": bool}] * 20 (empty list during the draft),
     "draft": [wonder ids revealed and not yet taken], "draft_round": 1 | 2 | None, "draft_pick": 0..3 | None
     (picks made in this round), "extra_turn": bool (the player to move plays again once its pending choice
     is made: a wonder's "play again"; always false in the play decision),
     "players": [{"seat", "name", "coins", "cards": [card ids in build order], "colors": {colour: n},
                  "wonders": [{"wonder", "built": bool, "removed": bool, "card": the tucked card | None}],
                  "tokens": [token ids],
                  "production": {resource: n}, "one_of": [[resource, ...]], "fixed_price": [resource],
                  "trade_prices": {resource: coins}, "chains": [symbol], "science": [symbol],
                  "discard_value": int, "vp": {category: vp}, "score": int}] * 2,
     "conflict": {"pawn": int (-9..9, + toward seat 1's capital), "tokens": [[2-coin, 5-coin] present on
                  seat 0's side, [..] on seat 1's side]},
     "progress_board": [token ids], "library_draw": [token ids] (the builder only, else []),
     "discard": [card ids], "wonders_built": int, "destroy_color": colour | None,
     "prices": {"card id": {"construct": coins, "chain": bool, "discard": coins,
                          "wonders": {"wonder id": coins}}} for the accessible cards, priced for ``seat``
               (a spectator: for the player to move),
     "result": None | {"winner": seat | None, "victory": "civilian" | "military" | "science" | "shared",
                       "scores": [vp, vp]}}
"""

from __future__ import annotations

from citygames.core.events import Event

from .components import COLORS, NC, NR, NS, RESOURCES, SYMBOLS
from .constants import DECISIONS, DRAFT, LIBRARY, STEP_KEYS, VICTORY_NAMES
from .draft import draft_round
from .prices import card_price, chained, discard_value, unit_price, wonder_price
from .scoring import score_breakdown, scores
from .structure import accessible_cards, accessible_slots


def observation(s, seat: int | None) -> dict:
    """The observation of ``seat`` (``None``: a spectator); see the module docstring for the shape."""
    c = s.c
    cards = c.cards
    g = s.game
    structure = []
    if s.age:
        st = c.structures[s.age]
        acc = set(accessible_slots(s))
        for i in range(20):
            x = s.structure[i]
            taken = x < 0
            visible = not taken and s.face_up[i]
            structure.append({
                "slot": i, "row": st.rows[i], "col": st.cols[i], "card": x if visible else None,
                "face_up": bool(s.face_up[i]) if not taken else True,
                "guild_back": bool(not taken and not s.face_up[i] and cards[x].guild),
                "taken": taken, "accessible": i in acc})
    wc = s.wonder_card
    players = []
    for p in (0, 1):
        players.append({
            "seat": p, "name": g.seat_name(p), "coins": s.coins[p], "cards": s.city[p][:],
            "colors": {COLORS[k]: s.color_count[p * NC + k] for k in range(NC)},
            "wonders": [{"wonder": w, "built": wc[w] >= 0, "removed": wc[w] == -2,
                         "card": wc[w] if wc[w] >= 0 else None} for w in s.wonders[p]],
            "tokens": [t for t in range(len(c.tokens)) if s.progress_tokens[p] >> t & 1],
            "production": {RESOURCES[r]: s.production[p * NR + r] for r in range(NR)},
            "one_of": [[RESOURCES[r] for r in f] for f in s.one_of[p]],
            "fixed_price": [RESOURCES[r] for r in range(NR) if s.fixed_price[p * NR + r]],
            "trade_prices": {RESOURCES[r]: unit_price(s, p, r) for r in range(NR)},
            "chains": [c.chain_symbols[k] for k in range(len(c.chain_symbols)) if s.chains[p] >> k & 1],
            "science": [SYMBOLS[k] for k in range(NS) if s.science[p * NS + k]],
            "discard_value": discard_value(s, p),
            "vp": score_breakdown(s, p),
        })
        players[-1]["score"] = sum(players[-1]["vp"].values())
    prices = {}
    who = seat if seat is not None else s.player
    if s.age and who in (0, 1):
        wp = {str(w): wonder_price(s, who, w) for w in s.wonders[who] if wc[w] == -1}
        for x in accessible_cards(s):
            prices[str(x)] = {"construct": card_price(s, who, x), "chain": chained(s, who, x),
                              "discard": discard_value(s, who), "wonders": dict(wp)}
    over = s.victory >= 0
    result = None
    if over:
        result = {"winner": s.winner if s.winner >= 0 else None, "victory": VICTORY_NAMES[s.victory],
                  "scores": scores(s)}
    in_draft = s.step == DRAFT
    return {
        "game": g.info.id, "seat": seat, "phase": STEP_KEYS[s.step], "decision": DECISIONS[s.step],
        "current_player": None if over else s.player, "first_player": s.first_player, "age": s.age,
        "structure": structure, "draft": list(s.draft_pool),
        "draft_round": draft_round(s) + 1 if in_draft else None,
        "draft_pick": len(c.draft_order[0]) - len(s.draft_pool) if in_draft else None,
        "extra_turn": bool(s.extra_turn), "players": players,
        "conflict": {"pawn": s.pawn, "tokens": [list(s.military_tokens[0:2]), list(s.military_tokens[2:4])]},
        "progress_board": list(s.progress_board),
        "library_draw": sorted(s.library_draw) if s.step == LIBRARY and seat == s.player else [],
        "discard": s.discard_pile[:], "wonders_built": s.total_wonders_built,
        "destroy_color": COLORS[s.destroy_color] if s.destroy_color >= 0 else None,
        "prices": prices, "result": result,
    }


def information_state_key(s, seat: int | None) -> tuple:
    """What ``seat`` (``None``: a spectator) knows now, as a compact hashable tuple (for search
    trees keyed by information sets; the contract is ``State.information_state_key``): the seat and
    every public field the observation is built from (a face-down card of the structure as -2, a
    guild back as -3), and the Great Library's draw for its builder while it chooses. The hidden
    parts ``resample`` redraws (decks, removed cards, guild box, unrevealed wonders, the progress box,
    the opponent's Library draw) are left out, so a resample for ``seat`` has the same key."""
    cards = s.c.cards
    fu = s.face_up
    structure = tuple([x if x < 0 or fu[i] else (-3 if cards[x].guild else -2)
                       for i, x in enumerate(s.structure)])
    city = s.city
    return (seat, s.player, s.step, s.age, s.victory, s.winner, s.extra_turn, s.first_player, s.draft_pool,
            s.wonders, s.wonder_card, structure, tuple(fu), tuple(s.coins), tuple(city[0]), tuple(city[1]),
            tuple(s.production), s.one_of, s.fixed_price, tuple(s.chains), tuple(s.science), s.progress_tokens,
            s.progress_board, s.pawn, s.military_tokens, tuple(s.discard_pile), s.destroy_color, s.last_taker,
            tuple(sorted(s.library_draw)) if s.step == LIBRARY and seat == s.player else ())


def resample(s, seat: int, rng):
    """A copy of state ``s`` with everything ``seat`` has not seen redrawn consistently (P24): the
    face-down cards of the current age (a guild back stays a guild), the cards removed from each age,
    the ages still to come, the wonders not yet revealed, the order of the progress tokens in the box
    and, for the opponent of a Great Library builder, the 3 tokens drawn (in the state and in the
    builder's private log event)."""
    s = s.clone()
    c = s.c
    cards = c.cards
    decks = list(s.age_decks)
    removed = list(s.removed_cards)
    gbox = list(s.guild_box)
    structure = s.structure
    for age in (1, 2, 3):
        if age < s.age:
            continue
        if age > s.age:      # not dealt yet: redeal the whole age
            deck = list(c.age_cards[age])
            rng.shuffle(deck)
            k = len(removed[age])
            removed[age] = tuple(sorted(deck[:k]))
            deck = deck[k:]
            if age == 3:
                guilds = list(c.guilds)
                rng.shuffle(guilds)
                ng = len(c.guilds) - len(gbox)
                deck += guilds[:ng]
                gbox = sorted(guilds[ng:])
                rng.shuffle(deck)
            decks[age] = tuple(deck)
            continue
        hidden = [i for i in range(20) if structure[i] >= 0 and not s.face_up[i]]
        normal = [i for i in hidden if not cards[structure[i]].guild]
        gslots = [i for i in hidden if cards[structure[i]].guild]
        pool = [structure[i] for i in normal] + list(removed[age])
        rng.shuffle(pool)
        for i in normal:
            structure[i] = pool.pop()
        removed[age] = tuple(sorted(pool))
        if gslots:
            gpool = [structure[i] for i in gslots] + gbox
            rng.shuffle(gpool)
            for i in gslots:
                structure[i] = gpool.pop()
            gbox = sorted(gpool)
    s.age_decks, s.removed_cards, s.guild_box = tuple(decks), tuple(removed), tuple(gbox)
    if s.unrevealed_wonders:
        rest = list(s.unrevealed_wonders)
        rng.shuffle(rest)
        s.unrevealed_wonders = tuple(rest)
    if s.step == LIBRARY and s.player != seat:
        pool = list(s.library_draw + s.progress_box)
        rng.shuffle(pool)
        n = len(s.library_draw)
        s.library_draw = tuple(sorted(pool[:n]))
        s.progress_box = tuple(pool[n:])
    elif s.progress_box:
        box = list(s.progress_box)
        rng.shuffle(box)
        s.progress_box = tuple(box)
    lib = next(w for w, wd in enumerate(c.wonders) if wd.library)
    built_by_other = s.wonder_card[lib] >= 0 and lib not in s.wonders[seat]
    for i, e in enumerate(s.log if built_by_other else ()):   # the builder's private draw, redrawn too (P24)
        if e.kind == "duel.library_draw" and not e.visible(seat):
            if s.step == LIBRARY:
                drawn = list(s.library_draw)
            else:   # resolved: the kept token (public) and two of the boxed ones
                drawn = [x.data["token"] for x in s.log[i:]
                         if x.kind == "duel.progress" and x.data["source"] == "library"][:1]
                drawn += s.progress_box[:len(e.data["tokens"]) - len(drawn)]
            s.log[i] = Event(e.kind, e.player, dict(e.data, tokens=sorted(drawn)), e.visible_to)
    s._legal = None
    return s


__all__ = ["observation", "information_state_key", "resample"]
