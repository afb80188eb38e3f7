"""7 Wonders Duel as text: effect descriptions, action texts with prices, log sentences, rules.

The log sentences are registered with ``citygames.core.events.register_renderer`` when this
module is imported (the package ``__init__`` does it).
"""

from __future__ import annotations

from citygames.core.data import assumption_lines, override_lines
from citygames.core.events import register_renderer, seat_label

from .components import COLORS, RESOURCES, SYMBOLS, Components, components
from .game import SEAT_NAMES

_C: Components | None = None
ROMAN = ("", "I", "II", "III")


def _c() -> Components:
    global _C
    if _C is None:
        _C = components()
    return _C


def cost_text(coins: int, cost: tuple) -> str:
    """A cost as text, e.g. ``"2 coins, 1 glass, 1 papyrus"`` (``"free"`` when empty)."""
    parts = [f"{coins} coin{'s' if coins != 1 else ''}"] if coins else []
    parts += [f"{k} {RESOURCES[r]}" for r, k in enumerate(cost) if k]
    return ", ".join(parts) or "free"


def card_effect_text(idx: int, c: Components | None = None) -> str:
    """The effect of card ``idx`` as one line (§4); ``c``: the game's components (default: the data
    files as they are)."""
    c = c or _c()
    cd = c.cards[idx]
    out = []
    if any(cd.produces):
        out.append("produces " + ", ".join(f"{k} {RESOURCES[r]}" for r, k in enumerate(cd.produces) if k))
    if cd.one_of:
        out.append("one of " + "/".join(RESOURCES[r] for r in cd.one_of) + " per construction")
    if cd.fixed_price:
        out.append("buy " + "/".join(RESOURCES[r] for r in cd.fixed_price) + " at 1 coin")
    if cd.shields:
        out.append(f"{cd.shields} shield{'s' if cd.shields > 1 else ''}")
    if cd.science >= 0:
        out.append("science: " + SYMBOLS[cd.science].replace("_", " "))
    if cd.coins_now:
        out.append(f"+{_coins(cd.coins_now)}")
    if cd.coins_per_own:
        cols, k = cd.coins_per_own
        out.append(f"+{k} coin{'s' if k > 1 else ''} per own {'/'.join(COLORS[x] for x in cols)} card"
                   + (" (itself included)" if cd.counts_itself else ""))
    if cd.coins_per_wonder:
        out.append(f"+{cd.coins_per_wonder} coins per own built wonder")
    if cd.guild_colors:
        what = "+".join(COLORS[x] for x in cd.guild_colors)
        out.append(f"{cd.guild_coins} coin now and {cd.guild_vp} VP at the end per {what} card in the city with most")
    if cd.guild_wonder_vp:
        out.append(f"{cd.guild_wonder_vp} VP per built wonder in the city with most")
    if cd.guild_coin_vp:
        out.append("1 VP per 3 coins of the richest city")
    if cd.vp:
        out.append(f"{cd.vp} VP")
    if cd.chain_to >= 0:
        out.append(f"chain: gives {c.chain_symbols[cd.chain_to].replace('_', ' ')}")
    if cd.chain_from >= 0:
        out.append(f"free with {c.chain_symbols[cd.chain_from].replace('_', ' ')}")
    return "; ".join(out)


def wonder_effect_text(w: int, c: Components | None = None) -> str:
    """The effect of wonder ``w`` as one line (§4.8); ``c``: the game's components (default: the data
    files as they are)."""
    wd = (c or _c()).wonders[w]
    out = [f"{wd.vp} VP"] if wd.vp else []
    if wd.coins:
        out.append(f"+{_coins(wd.coins)}")
    if wd.opponent_loses:
        out.append(f"opponent loses {_coins(wd.opponent_loses)}")
    if wd.shields:
        out.append(f"{wd.shields} shield{'s' if wd.shields > 1 else ''}")
    if wd.destroys >= 0:
        out.append(f"discard one {COLORS[wd.destroys]} card of the opponent")
    if wd.one_of:
        out.append("one of " + "/".join(RESOURCES[r] for r in wd.one_of) + " per construction")
    if wd.library:
        out.append("draw 3 boxed progress tokens, keep 1")
    if wd.mausoleum:
        out.append("build a discarded card for free")
    if wd.extra_turn:
        out.append("play again")
    return "; ".join(out)


_TOKEN_TEXT = (
    "+6 coins; 4 VP", "future wonders cost 2 fewer resources", "the opponent's trading coins go to you",
    "a science symbol (scales)", "future blue cards cost 2 fewer resources", "3 VP per progress token you own",
    "7 VP", "+1 shield for every future red card", "future wonders have 'play again'",
    "+6 coins; +4 coins for every card built through a chain")


def token_effect_text(t: int) -> str:
    """The effect of progress token ``t`` (§4.6)."""
    return _TOKEN_TEXT[t]


# --- actions ------------------------------------------------------------------------------------
def describe_action(s, a) -> str:
    """``a`` described for the player to move, with its price now (e.g. ``"construct Baths for 4
    coins (trading 4)"``)."""
    c = s.c
    n = len(c.cards)
    p = s.player
    k = a.kind
    if k == "construct":
        if s.chained(p, a.arg):
            return f"construct {c.cards[a.arg].name} for free (chain)"
        price = s.card_price(p, a.arg)
        cd = c.cards[a.arg]
        trade = price - cd.coins
        extra = f" (trading {trade})" if trade else ""
        return f"construct {cd.name} for {price} coin{'s' if price != 1 else ''}{extra}"
    if k == "discard":
        return f"discard {c.cards[a.arg].name} to gain {_coins(s.discard_value(p))}"
    if k == "wonder":
        w, x = divmod(a.arg, n)
        price = s.wonder_price(p, w)
        return f"build {c.wonders[w].name} with {c.cards[x].name} for {price} coin{'s' if price != 1 else ''}"
    if k == "progress":
        return f"take {c.tokens[a.arg].name} ({token_effect_text(a.arg)})"
    if k == "draft":
        w = c.wonders[a.arg]
        return f"take {w.name} (cost {cost_text(0, w.cost)}; {wonder_effect_text(a.arg, c)})"
    if k == "start":    # the player's name under named_seats (issue 15, defect 4)
        return f"{seat_label(a.arg, SEAT_NAMES)} starts the next age"
    return a.text


def action_json(s, a) -> dict:
    """The action for a user interface: ``id, kind, arg, text`` plus ``card`` / ``wonder`` /
    ``token`` / ``seat`` ids and ``price`` (coins) where they apply."""
    c = s.c
    n = len(c.cards)
    out = {"id": a.id, "kind": a.kind, "arg": a.arg, "text": describe_action(s, a)}
    k = a.kind
    if k in ("construct", "discard", "destroy", "mausoleum"):
        out["card"] = a.arg
    if k == "construct":
        out["price"] = s.card_price(s.player, a.arg)
    elif k == "discard":
        out["price"] = -s.discard_value(s.player)
    elif k == "wonder":
        out["wonder"], out["card"] = divmod(a.arg, n)
        out["price"] = s.wonder_price(s.player, out["wonder"])
    elif k == "draft":
        out["wonder"] = a.arg
    elif k == "progress":
        out["token"] = a.arg
    elif k == "start":
        out["seat"] = a.arg
    return out


def components_json(game) -> dict:
    """Static data for user interfaces: cards, wonders, tokens (names, colours, costs, effect texts),
    the three structures and the conflict track."""
    c = game.components
    return {
        "game": game.info.id, "name": game.info.name, "seats": list(SEAT_NAMES),
        "resources": list(RESOURCES), "colors": list(COLORS), "symbols": list(SYMBOLS),
        "chain_symbols": list(c.chain_symbols),
        "cards": [{"id": cd.idx, "name": cd.name, "name_hu": cd.name_hu, "age": cd.age, "guild": cd.guild,
                   "color": COLORS[cd.color], "coins": cd.coins,
                   "cost": {RESOURCES[r]: k for r, k in enumerate(cd.cost) if k},
                   "vp": cd.vp, "shields": cd.shields,
                   "science": SYMBOLS[cd.science] if cd.science >= 0 else None,
                   "produces": {RESOURCES[r]: k for r, k in enumerate(cd.produces) if k},
                   "one_of": [RESOURCES[r] for r in cd.one_of],
                   "chain_from": c.chain_symbols[cd.chain_from] if cd.chain_from >= 0 else None,
                   "chain_to": c.chain_symbols[cd.chain_to] if cd.chain_to >= 0 else None,
                   "cost_text": cost_text(cd.coins, cd.cost), "effect": card_effect_text(cd.idx, c)}
                  for cd in c.cards],
        "wonders": [{"id": w.idx, "name": w.name, "name_hu": w.name_hu,
                     "cost": {RESOURCES[r]: k for r, k in enumerate(w.cost) if k}, "vp": w.vp,
                     "extra_turn": w.extra_turn, "shields": w.shields,
                     "cost_text": cost_text(0, w.cost), "effect": wonder_effect_text(w.idx, c)} for w in c.wonders],
        "tokens": [{"id": t.idx, "name": t.name, "name_hu": t.name_hu, "effect": token_effect_text(t.idx)}
                   for t in c.tokens],
        "structures": {str(a): {"rows": list(st.rows), "cols": list(st.cols), "face_up": list(st.face_up),
                                "covered_by": [list(x) for x in st.covered_by]}
                       for a, st in c.structures.items()},
        "conflict": {"capital": c.capital, "vp_by_distance": list(c.conflict_vp),
                     "tokens": [{"at": at, "coins": k} for at, k in c.military_tokens]},
    }


def describe_rules(game, assumptions: bool = False) -> str:
    """Components, options and (with ``assumptions``) every value no source confirms, as text."""
    c = game.components
    lines = [f"{game.info.name} ({game.info.id}), 2 players",
             f"  {len(c.cards)} cards (Age I {len(c.age_cards[1])}, Age II {len(c.age_cards[2])}, "
             f"Age III {len(c.age_cards[3])}, {len(c.guilds)} guilds), {len(c.wonders)} wonders, "
             f"{len(c.tokens)} progress tokens", "Options:"]
    lines += [f"  {o.name} = {game.options.get(o.name)} (default {o.default}): {o.doc}" for o in game.info.options]
    overridden = override_lines(c.assumptions)
    if overridden:
        lines += [f"Data overrides in effect ({len(overridden)}), for this game only:"] + overridden
    lines.append("Rule choices (data/board.yaml rules):")
    lines += [f"  {k} = {v}" for k, v in c.rules.items()]
    if assumptions:
        lines += assumption_lines(c.assumptions)
    return "\n".join(lines)


# --- log sentences --------------------------------------------------------------------------------
def _who(e) -> str:
    return seat_label(e.player, SEAT_NAMES) if e.player is not None and e.player >= 0 else "Nobody"


def _card(i) -> str:
    return _c().cards[i].name


def _wonder(i) -> str:
    return _c().wonders[i].name


def _token(i) -> str:
    return _c().tokens[i].name


def _coins(k: int) -> str:
    return f"{k} coin{'s' if k != 1 else ''}"


def _construct(e) -> str:
    d = e.data
    if d["chain"]:
        return f"{_who(e)} constructs {_card(d['card'])} for free through a chain."
    trade = f" ({_coins(d['trade'])} for trading)" if d["trade"] else ""
    return f"{_who(e)} constructs {_card(d['card'])} for {_coins(d['price'])}{trade}."


def _pawn_place(v: int) -> str:
    """Where the conflict pawn stands, in words (``+`` is toward the second seat's capital)."""
    if v == 0:
        return "the centre"
    side = seat_label(1, SEAT_NAMES) if v > 0 else seat_label(0, SEAT_NAMES)
    if abs(v) >= _c().capital:
        return f"{side}'s capital"
    return f"{abs(v)} space{'s' if abs(v) != 1 else ''} toward {side}'s capital"


def _military(e) -> str:
    d = e.data
    opp = seat_label(1 - e.player, SEAT_NAMES) if e.player in (0, 1) else "The opponent"
    loot = "".join(f" {opp} loses {_coins(k)} to a military token." if k else
                   f" A military token is discarded ({opp} has no coins to lose)." for k in d["looted"])
    return (f"{_who(e)} gains {d['shields']} shield{'s' if d['shields'] > 1 else ''}: the conflict pawn moves "
            f"from {_pawn_place(d['before'])} to {_pawn_place(d['pawn'])}.{loot}")


def _game_end(e) -> str:
    d = e.data
    sc = d["scores"]
    if d["victory"] == "shared":
        return f"The game ends in a shared victory ({sc[0]} - {sc[1]} VP)."
    return f"{_who(e)} wins by {d['victory']} victory ({seat_label(0, SEAT_NAMES)} {sc[0]} VP, {seat_label(1, SEAT_NAMES)} {sc[1]} VP)."


_SENTENCES = {
    "fixed_wonders": lambda e: (f"First game: {seat_label(e.data['first'], SEAT_NAMES)} plays first; wonders are fixed."),
    "draft_reveal": lambda e: f"Wonder draft, round {e.data['round']}: revealed "
                              + ", ".join(_wonder(w) for w in e.data["wonders"]) + ".",
    "draft": lambda e: f"{_who(e)} takes {_wonder(e.data['wonder'])}.",
    "age": lambda e: f"Age {ROMAN[e.data['age']]} begins.",
    "construct": _construct,
    "discard": lambda e: f"{_who(e)} discards {_card(e.data['card'])} and gains {_coins(e.data['coins'])}.",
    "wonder": lambda e: f"{_who(e)} builds {_wonder(e.data['wonder'])} for {_coins(e.data['price'])}"
                        + (f", tucking {_card(e.data['card'])} under it." if "card" in e.data else "."),
    "wonder_removed": lambda e: f"Seven wonders are built: {_wonder(e.data['wonder'])} ({_who(e)}'s, unbuilt) "
                                 "leaves the game.",
    "reveal": lambda e: f"{_card(e.data['card'])} is turned face up.",
    "coins": lambda e: f"{_who(e)} gains {_coins(e.data['coins'])}"
                       + (f" from {_card(e.data['card'])}." if "card" in e.data else
                          f" from {_wonder(e.data['wonder'])}."),
    "lose_coins": lambda e: f"{_who(e)} loses {_coins(e.data['coins'])} ({_wonder(e.data['wonder'])}).",
    "economy": lambda e: f"{_who(e)} receives the {_coins(e.data['coins'])} paid for trading (Economy).",
    "military": _military,
    "progress": lambda e: f"{_who(e)} takes the {_token(e.data['token'])} progress token"
                          + (" (Great Library)." if e.data["source"] == "library" else "."),
    "library_draw": lambda e: f"{_who(e)} draws " + ", ".join(_token(t) for t in e.data["tokens"])
                              + " (Great Library).",
    "destroy": lambda e: f"{_who(e)} puts {seat_label(e.data['owner'], SEAT_NAMES)}'s {_card(e.data['card'])} "
                         "into the discard pile.",
    "mausoleum": lambda e: f"{_who(e)} takes {_card(e.data['card'])} from the discard pile (Mausoleum).",
    "no_target": lambda e: f"{_wonder(e.data['wonder'])} has nothing to take.",
    "decline_token": lambda e: f"{_who(e)} takes no progress token.",
    "extra_turn": lambda e: f"{_who(e)} plays again.",
    "extra_turn_lost": lambda e: f"The age is over: {_who(e)}'s extra turn is lost.",
    "starter": lambda e: f"{_who(e)} chooses: {seat_label(e.data['starter'], SEAT_NAMES)} starts Age {ROMAN[e.data['age']]}.",
    "game_end": _game_end,
}

for _kind, _fn in _SENTENCES.items():
    register_renderer("duel." + _kind, _fn)
