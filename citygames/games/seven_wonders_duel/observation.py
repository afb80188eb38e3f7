"""7 Wonders Duel: what one seat may see (P24), as JSON-ready data.

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
     (picks made in this round), "extra_turn": bool (the player to move plays again after this turn),
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

from .components import COLORS, RESOURCES, SYMBOLS
from .state import DECISIONS, NC, NR, NS, PH_DRAFT, PH_END, PH_LIBRARY, PHASE_KEYS, VICTORY_NAMES


def observation(s, seat: int | None) -> dict:
    """The observation of ``seat`` (``None``: a spectator); see the module docstring for the shape."""
    c = s.c
    cards = c.cards
    g = s.game
    structure = []
    if s.age:
        st = c.structures[s.age]
        acc = set(s.accessible_slots())
        for i in range(20):
            x = s.slot[i]
            taken = x < 0
            visible = not taken and s.up[i]
            structure.append({
                "slot": i, "row": st.rows[i], "col": st.cols[i], "card": x if visible else None,
                "face_up": bool(s.up[i]) if not taken else True,
                "guild_back": bool(not taken and not s.up[i] and cards[x].guild),
                "taken": taken, "accessible": i in acc})
    players = []
    for p in (0, 1):
        players.append({
            "seat": p, "name": g.seat_name(p), "coins": s.coins[p], "cards": s.city[p][:],
            "colors": {COLORS[k]: s.ccount[p * NC + k] for k in range(NC)},
            "wonders": [{"wonder": w, "built": s.wcard[w] >= 0, "removed": s.wcard[w] == -2,
                         "card": s.wcard[w] if s.wcard[w] >= 0 else None} for w in s.wonders[p]],
            "tokens": [t for t in range(len(c.tokens)) if s.toks[p] >> t & 1],
            "production": {RESOURCES[r]: s.prod[p * NR + r] for r in range(NR)},
            "one_of": [[RESOURCES[r] for r in f] for f in s.oneof[p]],
            "fixed_price": [RESOURCES[r] for r in range(NR) if s.fixed[p * NR + r]],
            "trade_prices": {RESOURCES[r]: s.unit_price(p, r) for r in range(NR)},
            "chains": [c.chain_symbols[k] for k in range(len(c.chain_symbols)) if s.chains[p] >> k & 1],
            "science": [SYMBOLS[k] for k in range(NS) if s.sci[p * NS + k]],
            "discard_value": s.discard_value(p),
            "vp": s.score_breakdown(p),
        })
        players[-1]["score"] = sum(players[-1]["vp"].values())
    prices = {}
    who = seat if seat is not None else s.player
    if s.age and who in (0, 1):
        wonders = [w for w in s.wonders[who] if s.wcard[w] == -1]
        wp = {str(w): s.wonder_price(who, w) for w in wonders}
        for x in s.accessible_cards():
            prices[str(x)] = {"construct": s.card_price(who, x), "chain": s.chained(who, x),
                         "discard": s.discard_value(who), "wonders": dict(wp)}
    result = None
    if s.phase == PH_END:
        result = {"winner": s.winner if s.winner >= 0 else None, "victory": VICTORY_NAMES[s.victory],
                  "scores": s.scores()}
    return {
        "game": g.info.id, "seat": seat, "phase": PHASE_KEYS[s.phase], "decision": DECISIONS[s.phase],
        "current_player": None if s.phase == PH_END else s.player, "first_player": s.first, "age": s.age,
        "structure": structure, "draft": s.dpool[:],
        "draft_round": (s.nrevealed + 3) // 4 if s.phase == PH_DRAFT else None,
        "draft_pick": s.dpick if s.phase == PH_DRAFT else None,
        "extra_turn": bool(s.extra), "players": players,
        "conflict": {"pawn": s.pawn, "tokens": [s.mtok[0:2], s.mtok[2:4]]},
        "progress_board": s.board[:],
        "library_draw": sorted(s.ldraw) if s.phase == PH_LIBRARY and seat == s.player else [],
        "discard": s.discard[:], "wonders_built": s.nbuilt,
        "destroy_color": COLORS[s.dcolor] if s.dcolor >= 0 else None,
        "prices": prices, "result": result,
    }
