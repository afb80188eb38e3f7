"""Rule tests for 7 Wonders Duel: the worked examples of the rulebook and the test vectors of the reference.

Sources: HU = shared/rulebooks/seven_wonders_duel.hu.txt (cited by its section title), "ref §N" / "PN" =
shared/reference/seven_wonders_duel.md (§10 #k = row k of its worked-example table), FRO = the fromi/7-wonders-duel
unit tests the reference quotes, BGA = the Board Game Arena implementation the reference quotes.

Positions are set up in a seeded game (``first_game_wonders=True`` skips the draft) by moving cards into the
structure, giving cards to the cities and setting fields, then real actions are applied and their effects asserted.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from citygames import IllegalActionError, load_game
from citygames.core.rng import Rng
from citygames.games.seven_wonders_duel.components import (AGRICULTURE, ARCHITECTURE, CLAY, COLORS, ECONOMY, GLASS,
                                                           LAW, LAW_TOKEN, MASONRY, MATHEMATICS, PAPYRUS,
                                                           PHILOSOPHY, STONE, STRATEGY, SYMBOLS, THEOLOGY, URBANISM,
                                                           WOOD, components)
from citygames.games.seven_wonders_duel.state import (CATEGORIES, PH_DESTROY, PH_DRAFT, PH_END, PH_LIBRARY,
                                                      PH_MAUSOLEUM, PH_PLAY, PH_START, PH_TOKEN)

C = components()
NCARDS = len(C.cards)
ALL_TOKENS = list(range(len(C.tokens)))
RESOURCES = ("wood", "clay", "stone", "glass", "papyrus")
#: the test copy of shared/reference/seven_wonders_duel_cards.json (see tests/test_duel_structure.py)
REF_JSON = Path(__file__).resolve().parent / "data" / "seven_wonders_duel_cards.json"


# ==============================================================================================
# helpers
# ==============================================================================================
def card(name: str) -> int:
    return C.card_by_name[name]


def wonder_id(name: str) -> int:
    return C.wonder_by_name[name]


def new_state(seed: int = 0, **options):
    opts = {"first_game_wonders": True}
    opts.update(options)
    return load_game("seven_wonders_duel", **opts).new_initial_state(seed)


def setup(age: int = 1, player: int = 0, coins=(7, 7), seed: int = 0, **options):
    """A game in the play phase of ``age`` (its real deal), ``player`` to move, with ``coins``."""
    s = new_state(seed, **options)
    if age != 1:
        s._start_age(age, player)
    s.player = player
    s.phase = PH_PLAY
    s.coins = list(coins)
    s._legal = None
    return s


def act(s, kind: str, arg: int):
    return s.game.action_space.get(kind, arg)


def legal_args(s, kind: str) -> list[int]:
    return sorted(a.arg for a in s.legal_actions() if a.kind == kind)


def give(s, p: int, *names: str) -> None:
    """Put cards into seat ``p``'s city as setup: their production, chains, symbols and colours count, but the
    coins, pawn, military tokens, phase and player are left as they were (no side effect of building them)."""
    keep = (s.coins[:], s.pawn, s.mtok[:], s.phase, s.player, s.board[:], s.toks[:])
    for n in names:
        x = card(n)
        if x in s.slot:   # keep the structure a set of distinct cards: an unused card takes its place
            s.slot[s.slot.index(x)] = _spare(s)
        s._gain_card(p, x, chained=False)
    s.coins, s.pawn, s.mtok, s.phase, s.player, s.board, s.toks = keep
    s._legal = None


def _spare(s, also=()) -> int:
    """A card in no structure slot, city or discard pile (a removed card of the current age first)."""
    used = set(s.slot) | set(s.city[0]) | set(s.city[1]) | set(s.discard) | set(also)
    pool = list(s.removed[s.age]) + [c.idx for c in C.cards]
    return next(x for x in pool if x not in used)


def set_wonders(s, p: int, *names: str) -> None:
    """Seat ``p`` holds exactly these (unbuilt) wonders; they leave the other seat's hand."""
    ws = [wonder_id(n) for n in names]
    s.wonders[p] = ws
    s.wonders[1 - p] = [w for w in s.wonders[1 - p] if w not in ws]
    s._legal = None


def built(s, p: int, *names: str) -> None:
    """Seat ``p`` has already built these wonders (a card tucked under each; one-of production applies)."""
    for n in names:
        w = wonder_id(n)
        if w not in s.wonders[p]:
            s.wonders[1 - p] = [v for v in s.wonders[1 - p] if v != w]
            s.wonders[p].append(w)
        s.wcard[w] = s.deals[3][0]
        s.nbuilt += 1
        if C.wonders[w].one_of:
            s.oneof[p].append(C.wonders[w].one_of)
    s._legal = None


def _reveal_uncovered(s) -> None:
    cov = C.structures[s.age].covered_by
    for i in range(20):
        if s.slot[i] >= 0 and all(s.slot[t] < 0 for t in cov[i]):
            s.up[i] = True


def make_accessible(s, *names: str) -> list[int]:
    """Move the named cards into accessible slots of the current structure, uncovering more slots (by taking
    away other accessible cards) if needed. A named card found elsewhere in the structure is replaced there by an
    unused card; one found among the removed cards or unused guilds swaps places with the card it displaces.
    Returns the slots of the named cards."""
    xs = [card(n) for n in names]
    acc = s.accessible_slots()
    if all(x in s.slot and s.slot.index(x) in acc for x in xs):
        return [s.slot.index(x) for x in xs]
    keep = {}
    s.removed = [r[:] for r in s.removed]
    s.gbox = s.gbox[:]
    for x in xs:
        if x in s.slot and x not in keep:
            s.slot[s.slot.index(x)] = _spare(s, xs)
    need = len(xs) - len(keep)
    while len([i for i in s.accessible_slots() if i not in keep.values()]) < need:
        i = max(i for i in s.accessible_slots() if i not in keep.values())
        s.slot[i] = -1
        s.ntaken += 1
        _reveal_uncovered(s)
    deal = s.deals[s.age]
    # slots still holding their dealt card first, so that successive calls do not undo each other
    free = sorted((i for i in s.accessible_slots() if i not in keep.values()),
                  key=lambda i: (s.slot[i] != deal[i], i))
    for x in xs:
        if x in keep:
            continue
        i = free.pop(0)
        y = s.slot[i]
        for pile in (s.removed[s.age], s.gbox):
            if x in pile:
                pile[pile.index(x)] = y
        s.slot[i] = x
        keep[x] = i
    s._legal = None
    return [keep[x] for x in xs]


def last_card(s, name: str) -> None:
    """Only ``name`` is left in the structure of the current age (19 cards taken)."""
    s.slot = [-1] * 20
    s.up = [True] * 20
    s.slot[0] = card(name)
    s.ntaken = 19
    s._legal = None


def construct(s, name: str) -> None:
    make_accessible(s, name)
    s.apply_action(act(s, "construct", card(name)))


def discard(s, name: str) -> None:
    make_accessible(s, name)
    s.apply_action(act(s, "discard", card(name)))


def build_wonder(s, wname: str, cname: str) -> None:
    make_accessible(s, cname)
    s.apply_action(act(s, "wonder", wonder_id(wname) * NCARDS + card(cname)))


def kinds(s, start: int = 0) -> list[str]:
    return [e.kind for e in s.log[start:]]


# ==============================================================================================
# 1. Trading (HU "Kereskedelem"; ref §6.5, P2, P3, P20; §10 #1-#4)
# ==============================================================================================
def test_trading_stone_at_4_when_the_opponent_produces_2():
    """HU trading example (§10 #1): Borcsa produces 2 stone with her brown cards, so each stone Miska buys costs
    2 + 2 = 4; Borcsa's third stone costs 2 because Miska produces none (P2). Borcsa = seat 1, Miska = seat 0."""
    s = setup(age=2, player=1)
    give(s, 1, "Quarry", "Stone Pit")
    assert s.unit_price(0, STONE) == 4
    assert s.unit_price(1, STONE) == 2
    # Borcsa builds the Aqueduct (3 stone) with her 2 stone: she buys the third one for 2
    assert s.card_price(1, card("Aqueduct")) == 2
    construct(s, "Aqueduct")
    assert s.coins == [7, 5]
    assert card("Aqueduct") in s.city[1]


def test_trading_fortifications_costs_5():
    """HU trading example (§10 #3, §9): Borcsa produces 2 stone and builds the Fortifications (2 stone, clay,
    papyrus); Miska produces 1 clay (§9: the text's "1 stone" is a slip, the arithmetic is 2 + 1) and no papyrus:
    3 for the clay + 2 for the papyrus = 5 coins to the bank."""
    s = setup(age=3, player=1, coins=(7, 9))
    give(s, 1, "Quarry", "Stone Pit")
    give(s, 0, "Clay Pool")
    assert s.card_price(1, card("Fortifications")) == 5
    construct(s, "Fortifications")
    assert s.coins == [7, 4]
    assert s.pawn == -2          # its 2 shields move the pawn toward seat 0's capital


def test_trading_aqueduct_costs_12():
    """HU trading example (§10 #4): Miska builds the Aqueduct (3 stone) producing no stone while Borcsa produces
    2 stone with her brown cards: 3 x (2 + 2) = 12 coins; with 11 coins he cannot construct it."""
    s = setup(age=2, player=0, coins=(11, 7))
    give(s, 1, "Quarry", "Stone Pit")
    make_accessible(s, "Aqueduct")
    assert s.card_price(0, card("Aqueduct")) == 12
    assert card("Aqueduct") not in legal_args(s, "construct")
    assert card("Aqueduct") in legal_args(s, "discard")
    s.coins[0] = 12
    s._legal = None
    construct(s, "Aqueduct")
    assert s.coins == [0, 7]


def test_trading_caravansery_costs_7():
    """HU "Érme- és erőforrásköltség" example: Borcsa builds the Caravansery (2 coins, glass, papyrus) and
    produces neither; Miska produces 1 glass: 2 (card) + 3 (glass, 2 + 1) + 2 (papyrus, 2 + 0) = 7 coins."""
    s = setup(age=2, player=1, coins=(7, 7))
    give(s, 0, "Glassworks")
    assert s.card_price(1, card("Caravansery")) == 7
    construct(s, "Caravansery")
    assert s.coins == [7, 0]


def test_resources_are_never_used_up():
    """HU "Fontos: a nyersanyagok, termékek nem használódnak el" (§6.5): production applies to each construction
    separately - the same wood and stone pay for the Rostrum and then the Horse Breeders' wood again."""
    s = setup(age=2, player=0, coins=(7, 7))
    give(s, 0, "Lumber Yard", "Quarry")
    construct(s, "Rostrum")                       # 1 stone, 1 wood: produced
    assert s.coins[0] == 7
    s.player = 0
    s._legal = None
    assert s.card_price(0, card("Horse Breeders")) == 2   # wood produced again, clay bought at 2 + 0
    construct(s, "Horse Breeders")
    assert s.coins[0] == 5


def test_yellow_cards_and_wonders_do_not_raise_the_opponents_prices():
    """P2, P20, HU "A sárga kártyák és csodák által termelt erőforrásokat nem vesszük figyelembe": the opponent's
    Forum, Caravansery, Great Lighthouse and Piraeus leave every price at 2; only brown/grey cards raise it."""
    s = setup(age=2)
    give(s, 1, "Forum", "Caravansery")
    built(s, 1, "The Great Lighthouse", "Piraeus")
    for r in (WOOD, CLAY, STONE, GLASS, PAPYRUS):
        assert s.unit_price(0, r) == 2
    give(s, 1, "Glassblower")
    assert s.unit_price(0, GLASS) == 3


def test_one_of_producers_give_one_unit_per_construction():
    """P20 (§4.2 Caravansery "one of wood/clay/stone"): a one-of producer covers a single unit of one
    construction: with only a Caravansery the Courthouse (2 wood, glass) still needs 1 wood and 1 glass bought."""
    s = setup(age=2)
    give(s, 0, "Caravansery")
    assert s.card_price(0, card("Courthouse")) == 4        # wood 2 + glass 2
    give(s, 0, "Forum")
    assert s.card_price(0, card("Courthouse")) == 2        # the Forum now makes the glass


def test_fixed_prices_of_reserves_and_customs_house():
    """P3, §10 #2, HU trading details: the Stone Reserve sets its owner's stone price to exactly 1 whatever the
    opponent produces; the Customs House does the same for glass and papyrus (not for other resources)."""
    s = setup(age=2)
    give(s, 1, "Quarry", "Stone Pit", "Shelf Quarry", "Glassworks", "Glassblower", "Press", "Drying Room",
         "Lumber Yard")
    assert s.unit_price(0, STONE) == 6 and s.unit_price(0, GLASS) == 4
    give(s, 0, "Stone Reserve")
    assert s.unit_price(0, STONE) == 1
    assert s.card_price(0, card("Aqueduct")) == 3            # 3 stone at 1
    give(s, 0, "Customs House")
    assert s.unit_price(0, GLASS) == 1 and s.unit_price(0, PAPYRUS) == 1
    assert s.unit_price(0, WOOD) == 3                          # 2 + the opponent's Lumber Yard
    assert s.unit_price(1, STONE) == 2                         # the opponent's own price is untouched


# ==============================================================================================
# 2. Discard (HU "Kártya eldobása érmékért"; P7; §10 #5)
# ==============================================================================================
def test_discard_with_tavern_and_clay_reserve_is_worth_4():
    """HU discard example (§10 #5): Borcsa discards her Aqueduct with the Tavern and the Clay Reserve in her city:
    2 + 1 per yellow card = 4 coins; the card goes onto the discard pile."""
    s = setup(age=2, player=1, coins=(7, 7))
    assert s.discard_value(1) == 2
    give(s, 1, "Tavern", "Clay Reserve")
    assert s.discard_value(1) == 4
    discard(s, "Aqueduct")
    assert s.coins == [7, 11]
    assert s.discard == [card("Aqueduct")]
    assert card("Aqueduct") not in s.city[1]


def test_discard_is_always_legal():
    """HU "A játékos a kiválasztott kártyával háromféle akciót": any accessible card can be discarded, even one
    the player cannot afford (0 coins)."""
    s = setup(age=3, coins=(0, 0))
    for x in s.accessible_cards():
        assert x in legal_args(s, "discard")


# ==============================================================================================
# 3. Chains (HU "Ingyen építési lehetőség (láncok)"; P6)
# ==============================================================================================
def test_chains_make_cards_free_coins_included():
    """HU chain examples, P6: Miska built the Baths, so he builds the Aqueduct free in Age II; Borcsa built the
    Palisade, so the Fortifications are free in Age III; the Garrison makes the Barracks' 3 coins free too."""
    s = setup(age=2, player=0, coins=(0, 7))
    give(s, 0, "Baths", "Garrison")
    give(s, 1, "Quarry", "Stone Pit")
    assert s.chained(0, card("Aqueduct"))
    assert s.card_price(0, card("Aqueduct")) == 0
    make_accessible(s, "Aqueduct", "Barracks")
    assert {card("Aqueduct"), card("Barracks")} <= set(legal_args(s, "construct"))
    construct(s, "Barracks")
    assert s.coins[0] == 0 and card("Barracks") in s.city[0]
    s.player = 0
    s._legal = None
    construct(s, "Aqueduct")
    assert s.coins[0] == 0 and card("Aqueduct") in s.city[0]

    t = setup(age=3, player=1, coins=(7, 0))
    give(t, 1, "Palisade")
    assert t.card_price(1, card("Fortifications")) == 0
    construct(t, "Fortifications")
    assert t.coins[1] == 0 and card("Fortifications") in t.city[1]


def test_horse_breeders_clay_and_wood_or_stable():
    """HU "Példa: a Lótenyésztők megépítéséhez 1 agyag és 1 fa szükséges VAGY az, hogy nálunk legyen az Istálló"."""
    s = setup(age=2)
    assert s.card_price(0, card("Horse Breeders")) == 4
    give(s, 0, "Stable")
    assert s.card_price(0, card("Horse Breeders")) == 0


# ==============================================================================================
# 4. Masonry and Architecture (P5; §10 #6, #7)
# ==============================================================================================
def test_masonry_fro_palace_2_academy_8():
    """§10 #6 (FRO): with Masonry, a Customs House and a Clay Pool against an opponent's Sawmill and Glassblower,
    the Palace costs 2 and the Academy (green, no reduction) costs 8."""
    s = setup(age=3, coins=(10, 7))
    give(s, 0, "Customs House", "Clay Pool")
    give(s, 1, "Sawmill", "Glassblower")
    s.toks[0] |= 1 << MASONRY
    assert s.card_price(0, card("Palace")) == 2
    assert s.card_price(0, card("Academy")) == 8
    construct(s, "Palace")
    assert s.coins[0] == 8


def test_masonry_p5_chooses_the_best_units_with_a_caravansery():
    """P5: Palace whose remaining units cost stone 4, wood 3, glass 2, glass 2, the builder owning Masonry and a
    Caravansery: the best choice pays 2 (the Caravansery takes the stone, Masonry the wood and a glass); applying
    Masonry first would pay 4."""
    s = setup(age=3, coins=(7, 7))
    give(s, 0, "Clay Pool", "Caravansery")
    give(s, 1, "Quarry", "Stone Pit", "Lumber Yard")
    s.toks[0] |= 1 << MASONRY
    assert [s.unit_price(0, r) for r in (STONE, WOOD, GLASS)] == [4, 3, 2]
    assert s.card_price(0, card("Palace")) == 2
    construct(s, "Palace")
    assert s.coins[0] == 5


def test_masonry_only_for_blue_cards_taken_later():
    """HU Kőművesség: every blue card built *in the future* costs 2 fewer resources: the Courthouse (2 wood,
    glass) costs 6 before the token, 2 after; the Dispensary (green) is unchanged."""
    s = setup(age=2)
    assert s.card_price(0, card("Courthouse")) == 6
    assert s.card_price(0, card("Dispensary")) == 6
    s.toks[0] |= 1 << MASONRY
    assert s.card_price(0, card("Courthouse")) == 2
    assert s.card_price(0, card("Dispensary")) == 6


def test_architecture_fro_temple_of_artemis_costs_1_then_12_coins():
    """§10 #7 (FRO): with Architecture, a Press and a Stone Reserve against an opponent's Sawmill, the Temple of
    Artemis (wood, stone, glass, papyrus) costs 1; then it gives 12 coins and another turn (HU Artemisz temploma)."""
    s = setup(age=1, coins=(7, 7))
    set_wonders(s, 0, "The Temple of Artemis", "The Pyramids")
    give(s, 0, "Press", "Stone Reserve")
    give(s, 1, "Sawmill")
    s.toks[0] |= 1 << ARCHITECTURE
    assert s.wonder_price(0, wonder_id("The Temple of Artemis")) == 1
    build_wonder(s, "The Temple of Artemis", s.c.cards[s.accessible_cards()[0]].name)
    assert s.coins[0] == 7 - 1 + 12
    assert s.player == 0 and s.phase == PH_PLAY


# ==============================================================================================
# 5. Economy (P4; §10 #8)
# ==============================================================================================
def test_economy_fro_town_hall_7_pretorium_0():
    """§10 #8 (FRO), P4, HU Gazdaság: the holder has no production; the builder owns a Press and a Stone Reserve.
    Town Hall (3 stone, 2 wood) costs 3 x 1 + 2 x 2 = 7 -> the holder gets 7; the Pretorium's 8 printed coins give
    the holder nothing."""
    s = setup(age=3, coins=(30, 7))
    give(s, 0, "Press", "Stone Reserve")
    s.toks[1] |= 1 << ECONOMY
    s.mtok = [True, True, False, False]       # no military token to loot with the Pretorium's 3 shields
    make_accessible(s, "Town Hall", "Pretorium")
    construct(s, "Town Hall")
    assert s.coins == [23, 14]
    assert "duel.economy" in kinds(s)
    s.player = 0
    s._legal = None
    construct(s, "Pretorium")
    assert s.coins == [15, 14]


def test_economy_applies_to_wonder_purchases():
    """P4 ("Applies to wonder purchases too"): the builder pays 3 x 1 (Stone Reserve) for the Pyramids' stone and
    produces the papyrus: the Economy holder receives those 3 coins."""
    s = setup(age=1, coins=(7, 7))
    set_wonders(s, 0, "The Pyramids")
    give(s, 0, "Press", "Stone Reserve")
    s.toks[1] |= 1 << ECONOMY
    assert s.wonder_price(0, wonder_id("The Pyramids")) == 3
    build_wonder(s, "The Pyramids", s.c.cards[s.accessible_cards()[0]].name)
    assert s.coins == [4, 10]


def test_economy_without_trading_gives_nothing():
    """P4: only trading coins go to the holder; a card built from own production gives nothing."""
    s = setup(age=1, coins=(7, 7))
    give(s, 0, "Quarry")
    s.toks[1] |= 1 << ECONOMY
    construct(s, "Baths")
    assert s.coins == [7, 7]


# ==============================================================================================
# 6. Urbanism (P6; §10 #9; §11.1)
# ==============================================================================================
def test_urbanism_fro_4_coins_only_for_chains():
    """§10 #9 (FRO), HU Urbanizmus: owning Baths, Garrison, Logging Camp and Press: the Barracks (chain) give +4,
    the Temple (no Altar, paid by own production) +0, the Aqueduct (chain) +4."""
    s = setup(age=2, coins=(10, 7))
    give(s, 0, "Baths", "Garrison", "Logging Camp", "Press")
    s.toks[0] |= 1 << URBANISM
    make_accessible(s, "Barracks", "Temple", "Aqueduct")
    construct(s, "Barracks")
    assert s.coins[0] == 14
    for name, coins in (("Temple", 14), ("Aqueduct", 18)):
        s.player = 0
        s._legal = None
        construct(s, name)
        assert s.coins[0] == coins, name


def test_urbanism_nothing_for_a_card_without_cost():
    """P6: "not for cards that simply have no cost" - the free Theater gives no Urbanism coins."""
    s = setup(age=1, coins=(7, 7))
    s.toks[0] |= 1 << URBANISM
    construct(s, "Theater")
    assert s.coins[0] == 7


def test_urbanism_not_for_a_chained_card_rebuilt_by_the_mausoleum():
    """§11.1 PROJECT DEFAULT (as BGA), P6: a chained card rebuilt through the Mausoleum gives no Urbanism coins;
    the default is kept in board.yaml (status "assumed")."""
    assert C.rules["urbanism_on_mausoleum_chain"] is False
    s = setup(age=2, coins=(7, 7))
    set_wonders(s, 0, "The Mausoleum")
    give(s, 0, "Baths", "Clay Pool", "Clay Pit", "Glassworks", "Glassblower", "Press")
    s.toks[0] |= 1 << URBANISM
    s.discard = [card("Aqueduct")]
    assert s.wonder_price(0, wonder_id("The Mausoleum")) == 0
    build_wonder(s, "The Mausoleum", s.c.cards[s.accessible_cards()[0]].name)
    assert s.phase == PH_MAUSOLEUM
    s.apply_action(act(s, "mausoleum", card("Aqueduct")))
    assert card("Aqueduct") in s.city[0]
    assert s.coins[0] == 7


def test_urbanism_on_mausoleum_follows_the_data_file(monkeypatch):
    """§0 / §11.1: the project default must be correctable in the data file - with the rule set to true, the
    chained Aqueduct rebuilt through the Mausoleum pays the Urbanism +4."""
    monkeypatch.setitem(C.rules, "urbanism_on_mausoleum_chain", True)
    s = setup(age=2, coins=(7, 7))
    set_wonders(s, 0, "The Mausoleum")
    give(s, 0, "Baths", "Clay Pool", "Clay Pit", "Glassworks", "Glassblower", "Press")
    s.toks[0] |= 1 << URBANISM
    s.discard = [card("Aqueduct"), card("Courthouse")]
    build_wonder(s, "The Mausoleum", s.c.cards[s.accessible_cards()[0]].name)
    s.apply_action(act(s, "mausoleum", card("Aqueduct")))
    assert s.coins[0] == 11


# ==============================================================================================
# 7. Guilds (HU "Céhkártyák"; P18; §10 #10-#12)
# ==============================================================================================
GUILD_CASES = [
    # guild, opponent's cards, builder's cards when built, coins when built, builder's cards added later, VP at end
    ("Merchants Guild", ["Stone Reserve", "Clay Reserve", "Wood Reserve", "Tavern"], ["Customs House"], 4,
     ["Forum", "Caravansery", "Brewery", "Armory"], 5),
    ("Shipowners Guild", ["Lumber Yard"], ["Quarry", "Glassworks", "Press"], 3, ["Clay Pool"], 4),
    ("Magistrates Guild", ["Theater", "Altar", "Baths"], ["Statue"], 3, ["Temple", "Aqueduct", "Rostrum"], 4),
    ("Scientists Guild", ["Workshop", "Apothecary", "Scriptorium"], ["Pharmacist"], 3,
     ["Library", "Laboratory", "Academy"], 4),
    ("Tacticians Guild", ["Guard Tower", "Stable", "Garrison"], ["Palisade"], 3,
     ["Walls", "Barracks", "Arsenal"], 4),
]


@pytest.mark.parametrize("guild,opp,mine,coins,later,vp", GUILD_CASES, ids=[g[0] for g in GUILD_CASES])
def test_guild_coins_when_built_and_vp_at_the_end_from_the_city_with_most(guild, opp, mine, coins, later, vp):
    """HU guild texts and "Részletek", P18, §10 #10 (FRO, Merchants: the opponent's 4 yellow cards pay +4) and #11
    (FRO, Shipowners: own 3 brown/grey against 1 pay +3): when built, 1 coin per card of the guild's colour(s) in
    the city with most (here the opponent's, except Shipowners); at the end 1 VP per card in the city with most,
    judged again and possibly on the other city."""
    s = setup(age=3, coins=(40, 7))
    give(s, 1, *opp)
    give(s, 0, *mine)
    price = s.card_price(0, card(guild))
    construct(s, guild)
    assert s.coins[0] == 40 - price + coins
    assert s.score_breakdown(0)["purple"] == max(len(opp), len(mine))
    give(s, 0, *later)
    assert s.score_breakdown(0)["purple"] == vp
    assert s.score_breakdown(1)["purple"] == 0       # the guild scores for its owner only


def test_shipowners_counts_brown_and_grey_in_one_city():
    """P18, HU Hajósok céhe "egy, és csak egy várost kell választania" (§9: 1 coin per brown + grey card):
    own 2 brown + 0 grey against 1 brown + 2 grey: the opponent's city (3) counts, not 2 + 2."""
    s = setup(age=3, coins=(40, 7))
    give(s, 0, "Quarry", "Stone Pit")
    give(s, 1, "Lumber Yard", "Glassworks", "Press")
    price = s.card_price(0, card("Shipowners Guild"))
    construct(s, "Shipowners Guild")
    assert s.coins[0] == 40 - price + 3
    assert s.score_breakdown(0)["purple"] == 3


def test_builders_guild_2_vp_per_wonder_in_the_city_with_most_no_coins():
    """HU Építők céhe (§9: 2 VP, not 1), P18: 2 VP per wonder built in the city with most wonders, no coins:
    1 own wonder against 3 -> 6 VP; after building 3 more -> 8 VP."""
    s = setup(age=3, coins=(40, 7))
    set_wonders(s, 0, "The Pyramids", "The Sphinx", "The Colossus", "The Great Lighthouse")
    set_wonders(s, 1, "Piraeus", "The Appian Way", "Circus Maximus", "The Mausoleum")
    built(s, 0, "The Pyramids")
    built(s, 1, "Piraeus", "The Appian Way", "Circus Maximus")
    price = s.card_price(0, card("Builders Guild"))
    construct(s, "Builders Guild")
    assert s.coins[0] == 40 - price
    assert s.score_breakdown(0)["purple"] == 6
    built(s, 0, "The Sphinx", "The Colossus", "The Great Lighthouse")
    assert s.score_breakdown(0)["purple"] == 8


def test_moneylenders_fro_6_vp_from_the_richest_city():
    """§10 #12 (FRO), HU Uzsorások céhe: 1 VP per 3 coins of the richest city, no coins when built: with 5 coins
    against 19 the guild is worth 6 VP, plus 1 VP from the owner's own coins."""
    s = setup(age=3, coins=(40, 19))
    price = s.card_price(0, card("Moneylenders Guild"))
    construct(s, "Moneylenders Guild")
    assert s.coins[0] == 40 - price
    s.coins = [5, 19]
    b = s.score_breakdown(0)
    assert b["purple"] == 6 and b["coins"] == 1


def test_guild_coins_counted_once_when_built():
    """HU "Az érméket hozó céhkártyák esetén az érméket ... egyszer, és csak egyszer, a kártya megépítésekor":
    cards gained after the guild give no more coins."""
    s = setup(age=3, coins=(40, 7))
    give(s, 0, "Theater", "Altar")
    price = s.card_price(0, card("Magistrates Guild"))
    construct(s, "Magistrates Guild")
    assert s.coins[0] == 40 - price + 2
    give(s, 0, "Baths")
    s._gain_card(0, card("Palace"), chained=False)
    assert s.coins[0] == 40 - price + 2
    assert s.score_breakdown(0)["purple"] == 4


# ==============================================================================================
# 8. Military (HU "Katonaság"; §4.7; P13, P14; §10 #13-#15)
# ==============================================================================================
def test_archery_range_loots_2_coins():
    """HU military example: Miska builds the Archery Range (2 shields), the pawn moves 2 spaces and enters a new
    zone: Borcsa loses 2 coins and the token goes back to the box."""
    s = setup(age=2, coins=(7, 7))
    give(s, 0, "Lumber Yard", "Quarry", "Press")
    s.pawn = 1
    construct(s, "Archery Range")
    assert s.pawn == 3
    assert s.coins == [7, 5]
    assert s.mtok == [True, True, False, True]


def test_loot_2_to_3_capped_and_only_once():
    """§10 #13 (FRO), P13, §4.7: pawn 2 -> 3: the player on that side loses 2 coins, capped at the coins held (1);
    a zone whose token is gone is never looted again."""
    s = setup(age=1, coins=(7, 1))
    s.pawn = 2
    construct(s, "Guard Tower")
    assert s.pawn == 3 and s.coins == [7, 0]
    s.pawn = 2
    s.coins[1] = 7
    s.player = 0
    s._legal = None
    s._military(0, 1)
    assert s.pawn == 3 and s.coins[1] == 7


def test_loot_both_tokens_in_one_move():
    """§10 #14 (FRO), P14: pawn 2 -> 7 in one move passes both tokens of that side: 2 + 5, capped at the coins held
    (4 coins: 2 then 2)."""
    s = setup(age=1, coins=(7, 20))
    s.pawn = 2
    s._military(0, 5)
    assert s.pawn == 7 and s.coins[1] == 13 and s.mtok[2:] == [False, False]
    t = setup(age=1, coins=(7, 4))
    t.pawn = 2
    t._military(0, 5)
    assert t.coins[1] == 0


def test_loot_two_zones_with_arsenal_and_strategy():
    """P14 + HU Stratégia: a real construction looting two zones: the Arsenal (3 shields) + Strategy moves 4,
    from 2 to 6: the opponent (seat 0's side here) loses 2 + 5."""
    s = setup(age=3, player=1, coins=(10, 7))
    give(s, 1, "Clay Pool", "Clay Pit", "Brickyard", "Sawmill")
    s.toks[1] |= 1 << STRATEGY
    s.pawn = -2
    construct(s, "Arsenal")
    assert s.pawn == -6
    assert s.coins[0] == 3
    assert s.mtok == [False, False, True, True]


def test_military_supremacy_7_to_9():
    """§10 #15 (FRO), HU "Katonai győzelem": pawn 7 -> 9 (Walls, 2 shields): military supremacy, the game ends at
    once; the pawn never goes past the capital (P14)."""
    s = setup(age=2, coins=(7, 7))
    give(s, 0, "Quarry", "Stone Pit")
    s.pawn = 7
    construct(s, "Walls")
    assert s.pawn == 9
    assert s.phase == PH_END and s.is_terminal()
    assert s.winner == 0 and s.returns() == [1.0, 0.0]
    assert s.observation(None)["result"]["victory"] == "military"
    t = setup(age=3, player=1, coins=(7, 30))
    t.pawn = -8
    construct(t, "Pretorium")
    assert t.pawn == -9 and t.winner == 1 and t.returns() == [0.0, 1.0]


def test_military_supremacy_from_a_wonder():
    """P14: the check runs after pawn moves from wonders: the Colossus (2 shields, HU example) from 7 wins."""
    s = setup(age=1, coins=(30, 7))
    set_wonders(s, 0, "The Colossus")
    s.pawn = 7
    build_wonder(s, "The Colossus", s.c.cards[s.accessible_cards()[0]].name)
    assert s.phase == PH_END and s.winner == 0 and s.pawn == 9


def test_military_supremacy_with_the_last_card_of_age_iii():
    """P14: the last card of Age III can give military supremacy, which takes priority over civilian scoring
    (the opponent has far more VP)."""
    s = setup(age=3, coins=(10, 7))
    give(s, 1, "Palace", "Town Hall", "Gardens")
    last_card(s, "Pretorium")
    s.pawn = 6
    construct(s, "Pretorium")
    assert s.phase == PH_END and s.winner == 0
    assert s.scores()[1] > s.scores()[0]
    assert s.observation(None)["result"]["victory"] == "military"


def test_military_vp_by_distance():
    """§4.7, §7: 2 VP at distance 1-2, 5 at 3-5, 10 at 6-8, only for the player toward whose opponent the pawn
    has moved."""
    s = setup()
    expect = {0: 0, 1: 2, 2: 2, 3: 5, 4: 5, 5: 5, 6: 10, 7: 10, 8: 10}
    for d, vp in expect.items():
        s.pawn = d
        assert (s.military_vp(0), s.military_vp(1)) == (vp, 0)
        s.pawn = -d
        assert (s.military_vp(0), s.military_vp(1)) == (0, vp)


# ==============================================================================================
# 9. Science (HU "Tudomány és fejlődés"; P16, P17)
# ==============================================================================================
def test_science_pair_takes_a_board_token():
    """HU "Valahányszor a játékos begyűjt kettő egyforma tudományos jelképet", P16: the second quill (Library after
    Scriptorium) lets the builder take one token *from the board*; a boxed token cannot be taken; then the turn
    passes."""
    s = setup(age=2, coins=(10, 7))
    s.board = [AGRICULTURE, PHILOSOPHY, STRATEGY, THEOLOGY, URBANISM]
    s.box = [ARCHITECTURE, ECONOMY, LAW_TOKEN, MASONRY, MATHEMATICS]
    give(s, 0, "Scriptorium")
    construct(s, "Library")          # chained through the book: free
    assert s.phase == PH_TOKEN and s.player == 0
    assert legal_args(s, "progress") == sorted(s.board)
    with pytest.raises(IllegalActionError, match="P16"):
        s.apply_action(act(s, "progress", MASONRY))
    s.apply_action(act(s, "progress", PHILOSOPHY))
    assert s.toks[0] == 1 << PHILOSOPHY
    assert PHILOSOPHY not in s.board and len(s.board) == 4
    assert s.phase == PH_PLAY and s.player == 1
    assert s.score_breakdown(0)["progress"] == 7


def test_science_pair_with_an_empty_board_takes_nothing():
    """P16 "if any remain": with no token left on the board the pair gives nothing and the turn passes."""
    s = setup(age=2, coins=(10, 7))
    s.board = []
    give(s, 0, "Scriptorium")
    construct(s, "Library")
    assert s.phase == PH_PLAY and s.player == 1 and s.toks[0] == 0


def test_scientific_supremacy_with_six_card_symbols():
    """HU "Tudományos győzelem", P17: 6 different symbols win at once."""
    s = setup(age=3, coins=(20, 7))
    give(s, 0, "Workshop", "Apothecary", "Scriptorium", "Pharmacist", "Academy")
    assert s.science_symbols(0) == 5
    give(s, 0, "Press", "Glassworks", "Clay Pool")
    construct(s, "University")
    assert s.phase == PH_END and s.winner == 0
    assert s.observation(None)["result"]["victory"] == "science"


def test_scientific_supremacy_counts_law():
    """HU Törvény ("Ez a korong egy tudományos jelképnek számít"), P17: Law + 5 card symbols = 6 symbols."""
    s = setup(age=3, coins=(20, 7))
    s.toks[0] |= 1 << LAW_TOKEN
    s.sci[0 * 7 + LAW] = 1
    give(s, 0, "Workshop", "Apothecary", "Scriptorium", "Pharmacist")
    assert s.science_symbols(0) == 5
    give(s, 0, "Press", "Glassworks", "Clay Pool")
    construct(s, "University")
    assert s.phase == PH_END and s.winner == 0


def test_scientific_supremacy_checked_after_the_token_choice():
    """P17 "Check again after a progress-token choice": 5 symbols, the pair (Library after Scriptorium) lets the
    player take Law from the board: the sixth symbol wins."""
    s = setup(age=2, coins=(20, 7))
    s.board = [LAW_TOKEN, AGRICULTURE, PHILOSOPHY, STRATEGY, THEOLOGY]
    s.box = [ARCHITECTURE, ECONOMY, MASONRY, MATHEMATICS, URBANISM]
    give(s, 0, "Workshop", "Apothecary", "Scriptorium", "Pharmacist")
    construct(s, "Library")
    assert s.phase == PH_TOKEN and s.science_symbols(0) == 4
    s.apply_action(act(s, "progress", LAW_TOKEN))
    assert s.science_symbols(0) == 5
    assert s.phase == PH_PLAY      # 5 symbols: no win yet
    t = setup(age=3, coins=(20, 7))
    t.board = [LAW_TOKEN, AGRICULTURE]
    give(t, 0, "Workshop", "Apothecary", "Scriptorium", "Pharmacist", "Academy")
    construct(t, "Library")
    t.apply_action(act(t, "progress", LAW_TOKEN))
    assert t.phase == PH_END and t.winner == 0 and t.science_symbols(0) == 6


def test_scientific_supremacy_through_the_great_library_law():
    """P11 [I-H] (BGA): Law drawn by the Great Library completes the 6 symbols."""
    s = setup(age=3, coins=(30, 7))
    set_wonders(s, 0, "The Great Library")
    s.box = [MASONRY, LAW_TOKEN, MATHEMATICS, ECONOMY, URBANISM]
    s.board = [AGRICULTURE, ARCHITECTURE, PHILOSOPHY, STRATEGY, THEOLOGY]
    give(s, 0, "Workshop", "Apothecary", "Scriptorium", "Pharmacist", "Academy")
    build_wonder(s, "The Great Library", s.c.cards[s.accessible_cards()[0]].name)
    assert s.phase == PH_LIBRARY
    s.apply_action(act(s, "progress", LAW_TOKEN))
    assert s.phase == PH_END and s.winner == 0


# ==============================================================================================
# 10. Extra turns (HU "Megjegyzés" under the turn; P9; §10 #16, #17)
# ==============================================================================================
EXTRA_TURN = {"The Appian Way": True, "Circus Maximus": False, "The Colossus": False, "The Great Library": False,
              "The Great Lighthouse": False, "The Hanging Gardens": True, "The Mausoleum": False, "Piraeus": True,
              "The Pyramids": False, "The Sphinx": True, "The Statue of Zeus": False, "The Temple of Artemis": True}


@pytest.mark.parametrize("wname", sorted(EXTRA_TURN))
def test_which_wonders_give_an_extra_turn(wname):
    """HU wonder list ("Egy újabb köröd kezdődik azonnal"), P9: Appian Way, Hanging Gardens, Piraeus, Sphinx and
    Temple of Artemis give another turn; the others pass the turn (opponent without brown/grey cards, empty
    discard pile)."""
    s = setup(age=1, coins=(40, 7))
    set_wonders(s, 0, wname)
    s.discard = []
    build_wonder(s, wname, s.c.cards[s.accessible_cards()[0]].name)
    if s.phase == PH_LIBRARY:
        s.apply_action(s.legal_actions()[0])
    assert s.phase == PH_PLAY
    assert s.player == (0 if EXTRA_TURN[wname] else 1)


def test_extra_turn_lost_at_the_end_of_an_age():
    """§10 #16 (HU, FRO), P9: the Sphinx built with the last card of Age I: the extra turn is lost; the pawn is on
    seat 1's side, so seat 1 chooses who starts Age II."""
    s = setup(age=1, coins=(30, 7))
    set_wonders(s, 0, "The Sphinx")
    last_card(s, "Lumber Yard")
    s.pawn = 1
    build_wonder(s, "The Sphinx", "Lumber Yard")
    assert "duel.extra_turn_lost" in kinds(s)
    assert s.age == 2 and s.phase == PH_START and s.player == 1
    assert not s.extra


def test_theology_and_sphinx_give_one_extra_turn():
    """§10 #17 (HU Teológia "egy adott csoda nem válthatja ki kétszer", FRO), P9: Theology + Sphinx = one extra
    turn, not two."""
    s = setup(age=1, coins=(30, 7))
    set_wonders(s, 0, "The Sphinx")
    s.toks[0] |= 1 << THEOLOGY
    build_wonder(s, "The Sphinx", s.c.cards[s.accessible_cards()[0]].name)
    assert s.player == 0
    discard(s, s.c.cards[s.accessible_cards()[0]].name)
    assert s.player == 1


def test_theology_gives_the_pyramids_an_extra_turn():
    """HU Teológia: every future wonder is treated as having "play again": the Pyramids (none printed) give one."""
    s = setup(age=1, coins=(30, 7))
    set_wonders(s, 0, "The Pyramids")
    s.toks[0] |= 1 << THEOLOGY
    build_wonder(s, "The Pyramids", s.c.cards[s.accessible_cards()[0]].name)
    assert s.player == 0 and s.phase == PH_PLAY
    assert "duel.extra_turn" in kinds(s)


def test_theology_extra_turn_after_a_pending_choice():
    """HU Teológia + P9/P23: the extra turn of a wonder with a choice (Statue of Zeus: destruction; Great Library:
    token) is played after the choice."""
    s = setup(age=2, coins=(30, 7))
    set_wonders(s, 0, "The Statue of Zeus", "The Great Library")
    give(s, 1, "Quarry")
    s.toks[0] |= 1 << THEOLOGY
    build_wonder(s, "The Statue of Zeus", s.c.cards[s.accessible_cards()[0]].name)
    assert s.phase == PH_DESTROY and s.player == 0
    s.apply_action(act(s, "destroy", card("Quarry")))
    assert s.phase == PH_PLAY and s.player == 0
    build_wonder(s, "The Great Library", s.c.cards[s.accessible_cards()[0]].name)
    assert s.phase == PH_LIBRARY
    s.apply_action(s.legal_actions()[0])
    assert s.phase == PH_PLAY and s.player == 0


def test_extra_turns_can_chain():
    """P9 (Cathala, BGG 2015-10-14): an extra-turn wonder built during an extra turn gives another one."""
    s = setup(age=1, coins=(60, 7))
    set_wonders(s, 0, "The Sphinx", "The Hanging Gardens")
    build_wonder(s, "The Sphinx", s.c.cards[s.accessible_cards()[0]].name)
    assert s.player == 0
    build_wonder(s, "The Hanging Gardens", s.c.cards[s.accessible_cards()[0]].name)
    assert s.player == 0
    discard(s, s.c.cards[s.accessible_cards()[0]].name)
    assert s.player == 1


# ==============================================================================================
# 11. Mausoleum (HU "A mauzóleum"; P10; §10 #18)
# ==============================================================================================
def _mausoleum_state(discard_pile, **kw):
    s = setup(age=kw.pop("age", 2), coins=(7, 7))
    set_wonders(s, 0, "The Mausoleum")
    give(s, 0, "Clay Pool", "Clay Pit", "Glassworks", "Glassblower", "Press")   # the Mausoleum is then free
    s.discard = [card(n) for n in discard_pile]
    return s


def test_mausoleum_with_an_empty_discard_pile_does_nothing():
    """§10 #18 (FRO; BGA), P10: the Mausoleum built while the discard pile is empty: nothing happens, the turn
    passes; the wonder is still built (2 VP)."""
    s = _mausoleum_state([])
    build_wonder(s, "The Mausoleum", s.c.cards[s.accessible_cards()[0]].name)
    assert s.phase == PH_PLAY and s.player == 1
    assert s.score_breakdown(0)["wonders"] == 2


def test_mausoleum_rebuilds_a_discarded_card_with_its_effects():
    """HU "Nézd meg a játék kezdete óta eldobott összes kártyát, és azonnal építsd meg ingyen az egyiket", P10:
    the Tavern is rebuilt for free and pays its 4 coins; it leaves the discard pile."""
    s = _mausoleum_state(["Tavern", "Palisade"])
    build_wonder(s, "The Mausoleum", s.c.cards[s.accessible_cards()[0]].name)
    assert s.phase == PH_MAUSOLEUM and s.player == 0
    assert legal_args(s, "mausoleum") == sorted([card("Tavern"), card("Palisade")])
    s.apply_action(act(s, "mausoleum", card("Tavern")))
    assert s.coins[0] == 11
    assert card("Tavern") in s.city[0] and s.discard == [card("Palisade")]
    assert s.phase == PH_PLAY and s.player == 1


def test_mausoleum_gains_the_chain_symbol_and_strategy_shield():
    """P10 (the chain symbol is gained), P15 [I-H] (BGA, IND: Strategy adds its shield to a rebuilt red card):
    rebuilding the Palisade gives 1 + 1 shields and then the Fortifications are free."""
    assert C.rules["strategy_on_mausoleum"] is True
    s = _mausoleum_state(["Palisade"], age=3)
    s.toks[0] |= 1 << STRATEGY
    build_wonder(s, "The Mausoleum", s.c.cards[s.accessible_cards()[0]].name)
    s.apply_action(act(s, "mausoleum", card("Palisade")))
    assert s.pawn == 2
    assert s.chained(0, card("Fortifications")) and s.card_price(0, card("Fortifications")) == 0


def test_strategy_on_mausoleum_follows_the_data_file(monkeypatch):
    """§0 / P15 [I-H]: the inferred ruling is correctable in the data file - with strategy_on_mausoleum false the
    rebuilt Palisade gives only its printed shield."""
    monkeypatch.setitem(C.rules, "strategy_on_mausoleum", False)
    s = _mausoleum_state(["Palisade"], age=3)
    s.toks[0] |= 1 << STRATEGY
    build_wonder(s, "The Mausoleum", s.c.cards[s.accessible_cards()[0]].name)
    s.apply_action(act(s, "mausoleum", card("Palisade")))
    assert s.pawn == 1

def test_mausoleum_science_pair_gives_a_token():
    """P10: "a science pair gives a progress token": rebuilding the Scriptorium next to an own Library."""
    s = _mausoleum_state(["Scriptorium"])
    give(s, 0, "Library")
    build_wonder(s, "The Mausoleum", s.c.cards[s.accessible_cards()[0]].name)
    s.apply_action(act(s, "mausoleum", card("Scriptorium")))
    assert s.phase == PH_TOKEN and s.player == 0
    s.apply_action(act(s, "progress", s.board[0]))
    assert s.phase == PH_PLAY and s.player == 1


def test_mausoleum_cannot_take_removed_or_tucked_cards():
    """HU Mauzóleum "Megjegyzés: a ... dobozba visszarakott kártyák nem számítanak az eldobott lapok közé", P10, P21:
    neither a card removed at setup nor a card tucked under a wonder can be rebuilt."""
    s = _mausoleum_state(["Tavern"])
    tucked = card("Baths")
    set_wonders(s, 1, "The Pyramids")
    s.wcard[wonder_id("The Pyramids")] = tucked
    s.nbuilt = 1
    removed = s.removed[1][0]
    build_wonder(s, "The Mausoleum", s.c.cards[s.accessible_cards()[0]].name)
    assert legal_args(s, "mausoleum") == [card("Tavern")]
    for x in (tucked, removed):
        before = s.to_dict()
        with pytest.raises(IllegalActionError, match="Mausoleum \\(P10\\)"):
            s.apply_action(act(s, "mausoleum", x))
        assert s.to_dict() == before


# ==============================================================================================
# 12. Statue of Zeus / Circus Maximus (HU; P12)
# ==============================================================================================
def test_statue_of_zeus_destroys_a_brown_card_of_choice_and_lowers_prices():
    """HU Zeusz szobra, P12: 1 shield, then the builder chooses one of the opponent's brown cards (not grey) for the
    discard pile; an Age II card that produces two units may be chosen; the builder's prices drop."""
    s = setup(age=2, coins=(30, 7))
    set_wonders(s, 0, "The Statue of Zeus")
    give(s, 1, "Quarry", "Sawmill", "Glassworks")
    assert s.unit_price(0, WOOD) == 4
    build_wonder(s, "The Statue of Zeus", s.c.cards[s.accessible_cards()[0]].name)
    assert s.pawn == 1
    assert s.phase == PH_DESTROY and s.player == 0
    assert legal_args(s, "destroy") == sorted([card("Quarry"), card("Sawmill")])
    with pytest.raises(IllegalActionError, match="P12"):
        s.apply_action(act(s, "destroy", card("Glassworks")))
    s.apply_action(act(s, "destroy", card("Sawmill")))
    assert card("Sawmill") not in s.city[1] and card("Sawmill") in s.discard
    assert s.unit_price(0, WOOD) == 2 and s.unit_price(0, STONE) == 3
    assert s.phase == PH_PLAY and s.player == 1
    assert s.score_breakdown(0)["wonders"] == 3


def test_circus_maximus_destroys_a_grey_card():
    """HU Circus Maximus, P12: one of the opponent's grey cards (not brown) to the discard pile; 1 shield."""
    s = setup(age=2, player=1, coins=(7, 30))
    set_wonders(s, 1, "Circus Maximus")
    give(s, 0, "Glassworks", "Press", "Quarry")
    build_wonder(s, "Circus Maximus", s.c.cards[s.accessible_cards()[0]].name)
    assert s.pawn == -1 and s.phase == PH_DESTROY
    assert legal_args(s, "destroy") == sorted([card("Glassworks"), card("Press")])
    s.apply_action(act(s, "destroy", card("Press")))
    assert s.unit_price(1, PAPYRUS) == 2 and s.unit_price(1, GLASS) == 3
    assert s.discard == [card("Press")]


def test_destruction_skipped_without_target_but_the_shield_counts():
    """P12 (FRO): with no valid target the destruction is skipped, but the shield and the VP still count."""
    s = setup(age=1, coins=(30, 7))
    set_wonders(s, 0, "The Statue of Zeus")
    give(s, 1, "Glassworks")
    build_wonder(s, "The Statue of Zeus", s.c.cards[s.accessible_cards()[0]].name)
    assert s.pawn == 1
    assert s.phase == PH_PLAY and s.player == 1
    assert s.score_breakdown(0)["wonders"] == 3 and s.score_breakdown(0)["military"] == 2


def test_zeus_shield_loots_and_then_destroys():
    """P12 "Looting and the destruction step must both resolve correctly when the shield loots a token"."""
    s = setup(age=2, coins=(30, 7))
    set_wonders(s, 0, "The Statue of Zeus")
    give(s, 1, "Quarry")
    s.pawn = 2
    build_wonder(s, "The Statue of Zeus", s.c.cards[s.accessible_cards()[0]].name)
    assert s.pawn == 3 and s.coins[1] == 5
    assert s.phase == PH_DESTROY
    s.apply_action(act(s, "destroy", card("Quarry")))
    assert s.city[1] == [] and s.player == 1


def test_zeus_military_win_skips_the_destruction():
    """P12 [I-H] (BGA): a Zeus shield that wins ends the game at once."""
    s = setup(age=2, coins=(30, 7))
    set_wonders(s, 0, "The Statue of Zeus")
    give(s, 1, "Quarry")
    s.pawn = 8
    build_wonder(s, "The Statue of Zeus", s.c.cards[s.accessible_cards()[0]].name)
    assert s.phase == PH_END and s.winner == 0
    assert card("Quarry") in s.city[1]


def test_destroyed_card_can_be_rebuilt_by_the_mausoleum():
    """P10, P12: cards removed by the Statue of Zeus go to the discard pile, so the Mausoleum can take them."""
    s = setup(age=2, coins=(30, 30))
    set_wonders(s, 0, "The Statue of Zeus")
    set_wonders(s, 1, "The Mausoleum")
    give(s, 1, "Sawmill")
    build_wonder(s, "The Statue of Zeus", s.c.cards[s.accessible_cards()[0]].name)
    s.apply_action(act(s, "destroy", card("Sawmill")))
    build_wonder(s, "The Mausoleum", s.c.cards[s.accessible_cards()[0]].name)
    assert legal_args(s, "mausoleum") == [card("Sawmill")]
    s.apply_action(act(s, "mausoleum", card("Sawmill")))
    assert card("Sawmill") in s.city[1] and s.unit_price(0, WOOD) == 4


# ==============================================================================================
# 13. Age III yellow cards (P19; §10 #19)
# ==============================================================================================
def test_lighthouse_counts_itself():
    """§10 #19 (BGA, IND, DFO, FRO), P19: the Lighthouse built with 4 other yellow cards gives +5 (itself
    included); with the Tavern it is free (amphora chain)."""
    s = setup(age=3, coins=(7, 7))
    give(s, 0, "Tavern", "Stone Reserve", "Forum", "Brewery")
    give(s, 1, "Clay Reserve", "Wood Reserve", "Customs House", "Caravansery", "Arena")
    construct(s, "Lighthouse")
    assert s.coins[0] == 12
    assert s.score_breakdown(0)["yellow"] == 3


@pytest.mark.parametrize("name,mine,theirs,coins", [
    ("Chamber of Commerce", ["Glassworks", "Press"], ["Glassblower", "Drying Room", "Glassworks"], 6),
    ("Port", ["Lumber Yard", "Quarry", "Clay Pool"], ["Sawmill", "Brickyard", "Shelf Quarry", "Stone Pit"], 6),
    ("Armory", ["Guard Tower", "Walls"], ["Stable", "Garrison", "Palisade"], 2),
])
def test_age_iii_yellow_cards_count_the_own_city(name, mine, theirs, coins):
    """P19 (BGA, IND, DFO, FRO): when built, Chamber of Commerce 3 per own grey card, Port 2 per own brown card,
    Armory 1 per own red card - the opponent's cards do not count; each is worth 3 VP."""
    s = setup(age=3, coins=(40, 7))
    give(s, 0, *mine)
    give(s, 1, *theirs)
    price = s.card_price(0, card(name))
    construct(s, name)
    assert s.coins[0] == 40 - price + coins
    assert s.score_breakdown(0)["yellow"] == 3


def test_arena_2_coins_per_own_built_wonder():
    """P19, §4.3 Arena: +2 coins per wonder the builder has built (the opponent's do not count); with the Brewery
    it is free (barrel chain)."""
    s = setup(age=3, coins=(7, 7))
    give(s, 0, "Brewery")
    built(s, 0, "The Pyramids", "The Great Lighthouse")
    set_wonders(s, 1, "The Colossus", "Piraeus", "The Appian Way")
    built(s, 1, "The Colossus", "Piraeus", "The Appian Way")
    construct(s, "Arena")
    assert s.coins[0] == 11


# ==============================================================================================
# 14. Seven wonders only (HU "7 csoda, eggyel sem több!"; P8)
# ==============================================================================================
def test_the_seventh_wonder_removes_the_last_unbuilt_one():
    """HU example: Miska builds the Colossus, the 7th wonder of the game (Borcsa built 4, Miska 3): Miska puts the
    Pyramids back in the box; no wonder can be built afterwards."""
    s = setup(age=3, coins=(40, 7))
    set_wonders(s, 0, "The Colossus", "The Pyramids", "The Sphinx", "The Great Lighthouse")
    set_wonders(s, 1, "Piraeus", "The Appian Way", "Circus Maximus", "The Mausoleum")
    built(s, 0, "The Sphinx", "The Great Lighthouse")
    built(s, 1, "Piraeus", "The Appian Way", "Circus Maximus", "The Mausoleum")
    assert s.nbuilt == 6
    build_wonder(s, "The Colossus", s.c.cards[s.accessible_cards()[0]].name)
    assert s.nbuilt == 7
    assert s.wcard[wonder_id("The Pyramids")] == -2
    assert "duel.wonder_removed" in kinds(s)
    s.player = 0
    s._legal = None
    assert legal_args(s, "wonder") == []
    x = s.accessible_cards()[0]
    before = s.to_dict()
    with pytest.raises(IllegalActionError, match="P8.*The Pyramids is out of the game"):
        s.apply_action(act(s, "wonder", wonder_id("The Pyramids") * NCARDS + x))
    assert s.to_dict() == before
    assert s.score_breakdown(0)["wonders"] == 3 + 6 + 4


# ==============================================================================================
# 15. Great Library (HU "A nagy könyvtár"; P11, P24)
# ==============================================================================================
def test_great_library_draws_3_from_the_box_and_keeps_1():
    """HU Nagy könyvtár, P11, P24: 3 tokens drawn from the 5 boxed at setup (never from the board), one kept, two
    returned to the box; only the builder sees the drawn tokens (observation and log); 4 VP."""
    s = setup(age=1, coins=(30, 7))
    set_wonders(s, 0, "The Great Library")
    s.board = [AGRICULTURE, ARCHITECTURE, PHILOSOPHY, STRATEGY, THEOLOGY]
    s.box = [MATHEMATICS, ECONOMY, URBANISM, MASONRY, LAW_TOKEN]
    n = len(s.log)
    build_wonder(s, "The Great Library", s.c.cards[s.accessible_cards()[0]].name)
    assert s.phase == PH_LIBRARY and s.player == 0
    drawn = sorted([MATHEMATICS, ECONOMY, URBANISM])
    assert legal_args(s, "progress") == drawn
    assert s.board == [AGRICULTURE, ARCHITECTURE, PHILOSOPHY, STRATEGY, THEOLOGY]
    assert s.observation(0)["library_draw"] == drawn
    assert s.observation(1)["library_draw"] == [] and s.observation(None)["library_draw"] == []
    mine = [e for e in s.log_for(0, n) if e.kind == "duel.library_draw"]
    assert len(mine) == 1 and mine[0].data["tokens"] == drawn
    assert not [e for e in s.log_for(1, n) if e.kind == "duel.library_draw"]
    assert not [e for e in s.log_for(None, n) if e.kind == "duel.library_draw"]
    with pytest.raises(IllegalActionError, match="P11"):
        s.apply_action(act(s, "progress", AGRICULTURE))
    s.apply_action(act(s, "progress", URBANISM))
    assert s.toks[0] == 1 << URBANISM and s.coins[0] == 30 - 10 + 6    # 5 units bought at 2, then +6
    assert sorted(s.box) == sorted([MATHEMATICS, ECONOMY, MASONRY, LAW_TOKEN])
    assert len(s.board) == 5
    assert s.phase == PH_PLAY and s.player == 1
    assert s.score_breakdown(0)["wonders"] == 4


def test_great_library_resample_hides_the_draw_from_the_opponent_only():
    """P11, P24 ("Hidden: ... the Great Library tokens not chosen"; only the builder sees the draw): resampling for
    the opponent redraws the 3 tokens among the 5 boxed ones (in the state and in the builder's private log event)
    and leaves the opponent's observation unchanged; resampling for the builder keeps the draw."""
    s = setup(age=1, coins=(30, 7))
    set_wonders(s, 0, "The Great Library")
    s.board = [AGRICULTURE, ARCHITECTURE, PHILOSOPHY, STRATEGY, THEOLOGY]
    s.box = [MATHEMATICS, ECONOMY, URBANISM, MASONRY, LAW_TOKEN]
    boxed = sorted(s.box)
    build_wonder(s, "The Great Library", s.c.cards[s.accessible_cards()[0]].name)
    drawn = sorted(s.ldraw)
    varied = 0
    for k in range(12):
        mine = s.resample(0, Rng(k))
        assert sorted(mine.ldraw) == drawn and mine.observation(0) == s.observation(0)
        r = s.resample(1, Rng(k))
        assert r.observation(1) == s.observation(1)
        assert len(r.ldraw) == 3 and sorted(r.ldraw + r.box) == boxed and r.board == s.board
        events = [e for e in r.log if e.kind == "duel.library_draw"]
        assert len(events) == 1 and events[0].data["tokens"] == sorted(r.ldraw)
        varied += sorted(r.ldraw) != drawn
    assert varied > 0
    assert [e.data["tokens"] for e in s.log if e.kind == "duel.library_draw"] == [drawn]
    # once resolved, the kept token is public; the two returned ones stay hidden from the opponent
    s.apply_action(act(s, "progress", drawn[1]))
    seen = set()
    for k in range(12):
        r = s.resample(1, Rng(k))
        (e,) = [e for e in r.log if e.kind == "duel.library_draw"]
        assert drawn[1] in e.data["tokens"] and len(e.data["tokens"]) == 3
        assert set(e.data["tokens"]) - {drawn[1]} <= set(r.box)
        assert r.observation(1) == s.observation(1)
        seen.add(tuple(e.data["tokens"]))
    assert len(seen) > 1


# ==============================================================================================
# 16. Progress tokens (HU "Fejlődéskorong"; ref §4.6, P15)
# ==============================================================================================
def _pair_then_take(token: int, coins=(7, 7)):
    s = setup(age=2, coins=coins)
    s.board = sorted({token, AGRICULTURE, PHILOSOPHY, STRATEGY, URBANISM})[:5]
    give(s, 0, "Scriptorium")
    construct(s, "Library")
    s.apply_action(act(s, "progress", token))
    return s


def test_agriculture_6_coins_and_4_vp():
    """HU Mezőgazdaság: 6 coins at once, 4 VP."""
    s = _pair_then_take(AGRICULTURE)
    assert s.coins[0] == 13
    assert s.score_breakdown(0)["progress"] == 4


def test_urbanism_6_coins_at_once():
    """HU Urbanizmus: 6 coins at once."""
    s = _pair_then_take(URBANISM)
    assert s.coins[0] == 13 and s.score_breakdown(0)["progress"] == 0


def test_philosophy_7_vp_and_mathematics_counts_itself():
    """HU Filozófia (7 VP), Matematika (3 VP per owned token, this one included)."""
    s = setup()
    s.toks[0] = 1 << MATHEMATICS
    assert s.score_breakdown(0)["progress"] == 3
    s.toks[0] |= 1 << PHILOSOPHY | 1 << LAW_TOKEN
    assert s.score_breakdown(0)["progress"] == 7 + 3 * 3
    s.toks[0] |= 1 << AGRICULTURE
    assert s.score_breakdown(0)["progress"] == 7 + 4 + 3 * 4


def test_law_is_a_science_symbol():
    """HU Törvény: the token counts as a science symbol."""
    s = setup(age=2, coins=(7, 7))
    s.board = [LAW_TOKEN, AGRICULTURE, PHILOSOPHY, STRATEGY, URBANISM]
    give(s, 0, "Scriptorium")
    construct(s, "Library")
    assert s.science_symbols(0) == 1
    s.apply_action(act(s, "progress", LAW_TOKEN))
    assert s.science_symbols(0) == 2


def test_strategy_one_more_shield_for_red_cards_only():
    """HU Stratégia (with its example: a 2-shield building moves 3), P15: +1 shield for each red card built later;
    not for wonders; not retroactive (taking it moves nothing)."""
    s = setup(age=2, coins=(30, 7))
    give(s, 0, "Guard Tower", "Walls")
    s.pawn = 0
    s.board = [STRATEGY, AGRICULTURE, PHILOSOPHY, THEOLOGY, URBANISM]
    give(s, 0, "Scriptorium", "Lumber Yard", "Quarry", "Press")
    construct(s, "Library")
    s.apply_action(act(s, "progress", STRATEGY))
    assert s.pawn == 0                              # not retroactive
    s.player = 0
    s._legal = None
    construct(s, "Archery Range")                   # 2 shields + 1
    assert s.pawn == 3
    set_wonders(s, 0, "The Colossus")
    s.player = 0
    s._legal = None
    build_wonder(s, "The Colossus", s.c.cards[s.accessible_cards()[0]].name)
    assert s.pawn == 5                              # the wonder's 2 shields only


def test_theology_taken_then_wonders_replay():
    """HU Teológia: taken on a pair, then a wonder without "play again" gives another turn."""
    s = _pair_then_take(THEOLOGY, coins=(40, 7))
    set_wonders(s, 0, "The Colossus")
    s.player = 0
    s._legal = None
    build_wonder(s, "The Colossus", s.c.cards[s.accessible_cards()[0]].name)
    assert s.player == 0


# ==============================================================================================
# 17. Wonder draft and first-game wonders (HU "A csodák kiválasztása"; §6.2)
# ==============================================================================================
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_wonder_draft_order(seed):
    """HU, §6.2: 4 wonders revealed, the first player takes 1, the second 2, the first the last; 4 more: the second
    takes 1, the first 2, the second the last (F, S, S, F then S, F, F, S); 4 wonders each, 4 unused; then the
    first player starts Age I."""
    s = load_game("seven_wonders_duel").new_initial_state(seed)
    f = s.first
    order = [f, 1 - f, 1 - f, f, 1 - f, f, f, 1 - f]
    seen = []
    for k, who in enumerate(order):
        assert s.phase == PH_DRAFT and s.player == who
        pool = legal_args(s, "draft")
        assert len(pool) == 4 - k % 4
        if k % 4 == 0:
            seen.append(set(pool))
        hidden = next(w for w in range(12) if w not in pool)
        with pytest.raises(IllegalActionError, match="§6.2"):
            s.apply_action(act(s, "draft", hidden))
        s.apply_action(act(s, "draft", pool[-1]))
    assert len(s.wonders[0]) == len(s.wonders[1]) == 4
    assert set(s.wonders[0]) | set(s.wonders[1]) == seen[0] | seen[1]
    assert len(seen[0] | seen[1]) == 8
    assert s.age == 1 and s.phase == PH_PLAY and s.player == f


def test_first_game_fixed_wonders():
    """HU "A legelső játékok során": player 1 takes the Pyramids, Great Lighthouse, Temple of Artemis, Statue of
    Zeus; player 2 Circus Maximus, Piraeus, Appian Way, Colossus; Age I starts at once."""
    for seed in (0, 1, 2):
        s = new_state(seed)
        names = [{C.wonders[w].name for w in s.wonders[p]} for p in (0, 1)]
        assert names[s.first] == {"The Pyramids", "The Great Lighthouse", "The Temple of Artemis",
                                  "The Statue of Zeus"}
        assert names[1 - s.first] == {"Circus Maximus", "Piraeus", "The Appian Way", "The Colossus"}
        assert s.age == 1 and s.phase == PH_PLAY and s.player == s.first


def test_setup_numbers():
    """HU "A játék előkészületei", §6.1/§6.3: 7 coins each, pawn on 0, 4 military tokens, 5 tokens on the board
    and 5 in the box, 3 cards removed from each age, 3 guilds in Age III."""
    s = new_state(5)
    assert s.coins == [7, 7] and s.pawn == 0 and s.mtok == [True] * 4
    assert len(s.board) == 5 and len(s.box) == 5 and sorted(s.board + s.box) == ALL_TOKENS
    assert [len(s.removed[a]) for a in (1, 2, 3)] == [3, 3, 3]
    assert sum(1 for x in s.deals[3] if C.cards[x].guild) == 3 and len(s.gbox) == 4
    for a in (1, 2, 3):
        assert len(s.deals[a]) == 20
        assert sorted(s.deals[a] + s.removed[a] + (s.gbox if a == 3 else [])) == \
            sorted(C.age_cards[a] + (C.guilds if a == 3 else ()))


# ==============================================================================================
# 18. Who starts the next age (HU; P1 erratum; option next_age_chooser)
# ==============================================================================================
def test_weaker_player_chooses_who_starts_the_next_age():
    """HU "A gyengébb katonai erővel rendelkező játékos dönti el", P1: the pawn on seat 1's side -> seat 1 chooses
    (even though seat 0 took the last card), and may let seat 0 start."""
    s = setup(age=1, coins=(7, 7))
    last_card(s, "Lumber Yard")
    s.pawn = 2
    discard(s, "Lumber Yard")
    assert s.age == 2 and s.phase == PH_START and s.player == 1
    assert [a.kind for a in s.legal_actions()] == ["start", "start"]
    s.apply_action(act(s, "start", 0))
    assert s.phase == PH_PLAY and s.player == 0
    t = setup(age=2, player=1, coins=(7, 7))
    last_card(t, "Sawmill")
    t.pawn = -3
    discard(t, "Sawmill")
    assert t.age == 3 and t.phase == PH_START and t.player == 0


def test_pawn_in_the_centre_last_taker_chooses_erratum():
    """P1 (erratum, @AntoineReposProd 2016-05-19): with the pawn at 0 the player who took the last card chooses."""
    s = setup(age=1, player=1, coins=(7, 7))
    last_card(s, "Lumber Yard")
    discard(s, "Lumber Yard")
    assert s.phase == PH_START and s.player == 1
    s.apply_action(act(s, "start", 0))
    assert s.player == 0 and s.phase == PH_PLAY and s.age == 2


def test_pawn_in_the_centre_last_taker_starts_first_print():
    """HU ("a következő kort az kezdi, aki utoljára hajtott végre akciót"), P1 first printing, option
    next_age_chooser='first_print': the last taker simply starts."""
    s = setup(age=1, player=1, coins=(7, 7), next_age_chooser="first_print")
    last_card(s, "Lumber Yard")
    discard(s, "Lumber Yard")
    assert s.age == 2 and s.phase == PH_PLAY and s.player == 1
    t = setup(age=1, player=1, coins=(7, 7), next_age_chooser="first_print")
    last_card(t, "Lumber Yard")
    t.pawn = -1
    discard(t, "Lumber Yard")
    assert t.phase == PH_START and t.player == 0


# ==============================================================================================
# 19. End of the game (HU "A játék vége és a győztes"; §6.7, §7, P22)
# ==============================================================================================
def _final_turn(city0, city1, coins=(0, 1)):
    s = setup(age=3, player=0, coins=coins)
    give(s, 0, *city0)
    give(s, 1, *city1)
    last_card(s, "Pretorium")
    return s


def test_civilian_victory_most_vp():
    """HU "Polgári győzelem": after Age III the player with most VP wins."""
    s = _final_turn(["Palace", "Academy"], ["Town Hall"])
    discard(s, "Pretorium")
    assert s.phase == PH_END and s.winner == 0 and s.returns() == [1.0, 0.0]
    assert s.scores() == [10, 7]
    assert s.observation(None)["result"]["victory"] == "civilian"


def test_civilian_tie_broken_by_blue_vp():
    """HU "Döntetlen esetén az nyeri meg a játékot, akinek a polgári épületeiből (kék kártyák) több pontja van",
    P22: 7 VP each; seat 1 has 7 blue VP against 5 and wins."""
    s = _final_turn(["Obelisk", "Library"], ["Palace"])
    discard(s, "Pretorium")
    assert s.scores() == [7, 7]
    assert s.winner == 1 and s.returns() == [0.0, 1.0] and s.ranking() == [1, 0]


def test_complete_tie_is_a_shared_victory():
    """HU "Ha továbbra is döntetlen áll fenn, a játékosok osztoznak a győzelemben", P22, §9 (not the non-starter):
    equal VP and equal blue VP -> shared victory, returns [0.5, 0.5]."""
    s = _final_turn(["Palace"], ["Town Hall"])
    discard(s, "Pretorium")
    assert s.scores() == [7, 7]
    assert s.phase == PH_END and s.winner == -1
    assert s.returns() == [0.5, 0.5]
    assert s.observation(None)["result"]["victory"] == "shared"


def test_pair_with_the_last_card_of_age_iii_token_then_civilian_end():
    """P16 + §6.7: a pair completed with the last card of Age III: the token is chosen, then the civilian scoring
    ends the game (Philosophy's 7 VP counted)."""
    s = setup(age=3, coins=(0, 0))
    s.board = [PHILOSOPHY, AGRICULTURE]
    give(s, 0, "Academy", "Lumber Yard", "Logging Camp", "Glassworks", "Press")
    last_card(s, "Study")
    construct(s, "Study")
    assert s.phase == PH_TOKEN and not s.is_terminal()
    s.apply_action(act(s, "progress", PHILOSOPHY))
    assert s.phase == PH_END and s.winner == 0 and s.victory == 0
    assert s.scores() == [3 + 3 + 7, 0]


def test_score_breakdown_categories():
    """§7, HU scoring list: military + blue + green + yellow + purple + wonders + progress + coins/3; the categories
    sum to scores()."""
    s = setup(age=3, coins=(7, 7))
    give(s, 0, "Palace", "Library", "Port", "Magistrates Guild")
    give(s, 1, "Theater", "Altar")
    built(s, 0, "The Pyramids")
    s.toks[0] = 1 << PHILOSOPHY
    s.pawn = 4
    s.coins = [10, 5]
    b = s.score_breakdown(0)
    assert tuple(b) == CATEGORIES
    assert b == {"military": 5, "blue": 7, "green": 2, "yellow": 3, "purple": 2, "wonders": 9, "progress": 7,
                 "coins": 3}
    assert s.scores()[0] == 38 == sum(b.values())
    assert s.score_breakdown(1) == {"military": 0, "blue": 6, "green": 0, "yellow": 0, "purple": 0, "wonders": 0,
                                    "progress": 0, "coins": 1}
    assert s.scores()[1] == 7


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_score_breakdown_sums_to_scores_in_random_games(seed):
    """§7: in random games the breakdown always sums to scores(), and the end has a winner by the rules."""
    s = load_game("seven_wonders_duel").new_initial_state(seed)
    rng = Rng(seed)
    while not s.is_terminal():
        for p in (0, 1):
            assert sum(s.score_breakdown(p).values()) == s.scores()[p]
        s.apply_action(rng.choice(s.legal_actions()))
    assert s.victory >= 0
    for p in (0, 1):
        assert sum(s.score_breakdown(p).values()) == s.scores()[p]


# ==============================================================================================
# 20. Illegal actions (contract: IllegalActionError, message naming the rule, state unchanged)
# ==============================================================================================
def _illegal(s, action, match):
    before = s.to_dict()
    with pytest.raises(IllegalActionError, match=match) as e:
        s.apply_action(action)
    assert s.to_dict() == before
    return e.value


def test_illegal_card_not_accessible():
    """HU "Hozzáférhető kártyának azt nevezzük, amit másik kártya nem takar el", §5: a covered card cannot be
    taken (construct, discard or wonder)."""
    s = setup(age=1)
    covered = s.slot[0]
    for kind, arg in (("construct", covered), ("discard", covered),
                      ("wonder", s.wonders[0][0] * NCARDS + covered)):
        _illegal(s, act(s, kind, arg), "not an accessible card")


def test_illegal_construct_unaffordable():
    """HU "Kereskedelem", P2: the Aqueduct at 12 coins with 11 cannot be constructed; the message gives the price."""
    s = setup(age=2, coins=(11, 7))
    give(s, 1, "Quarry", "Stone Pit")
    make_accessible(s, "Aqueduct")
    err = _illegal(s, act(s, "construct", card("Aqueduct")), "costs 12 coins")
    assert "P2" in str(err)


def test_illegal_wonder_not_owned_or_unaffordable():
    """§6.2/§6.4: only one's own wonders can be built, and only when their price can be paid (P2)."""
    s = setup(age=1, coins=(0, 7))
    set_wonders(s, 0, "The Pyramids")
    set_wonders(s, 1, "The Sphinx")
    x = s.accessible_cards()[0]
    _illegal(s, act(s, "wonder", wonder_id("The Sphinx") * NCARDS + x), "not one of North's wonders")
    _illegal(s, act(s, "wonder", wonder_id("The Pyramids") * NCARDS + x), "P2")


def test_illegal_wrong_kind_for_the_phase_and_game_over():
    """Turn structure (§6.4, P16): a card action during a token choice is illegal; nothing is legal at the end."""
    s = setup(age=2, coins=(10, 7))
    give(s, 0, "Scriptorium")
    construct(s, "Library")
    assert s.phase == PH_TOKEN
    _illegal(s, act(s, "discard", s.accessible_cards()[0]), "choose a progress token")
    _illegal(s, act(s, "start", 0), "choose a progress token")
    t = _final_turn(["Palace"], ["Town Hall"])
    discard(t, "Pretorium")
    _illegal(t, act(t, "discard", card("Palace")), "game is over")
    assert t.legal_actions() == []


def test_illegal_wonder_already_built():
    """§4.8 / P8: a built wonder cannot be built again."""
    s = setup(age=1, coins=(30, 7))
    set_wonders(s, 0, "The Pyramids", "The Sphinx")
    built(s, 0, "The Pyramids")
    x = s.accessible_cards()[0]
    _illegal(s, act(s, "wonder", wonder_id("The Pyramids") * NCARDS + x), "The Pyramids is already built")


def test_illegal_destroy_choices():
    """P12: during the destruction only an opponent's card of the wonder's colour can be chosen; no other kind of
    action (Mausoleum, start) is legal then."""
    s = setup(age=2, coins=(30, 7))
    set_wonders(s, 0, "The Statue of Zeus")
    give(s, 1, "Quarry", "Press")
    give(s, 0, "Clay Pool")
    build_wonder(s, "The Statue of Zeus", s.c.cards[s.accessible_cards()[0]].name)
    _illegal(s, act(s, "destroy", card("Press")), "P12")
    _illegal(s, act(s, "destroy", card("Clay Pool")), "P12")
    _illegal(s, act(s, "mausoleum", card("Quarry")), "destroy")
    _illegal(s, act(s, "start", 1), "destroy")


# ==============================================================================================
# 21. Card data against the reference data file, and prices against an exhaustive search (§4, P2-P5, P20)
# ==============================================================================================
def _ref():
    return json.loads(REF_JSON.read_text(encoding="utf-8"))


def test_every_card_and_wonder_matches_the_reference_data():
    """§2/§4 ("This sheet and the JSON agree"): every card's age, colour, coin cost, resources, production,
    one-of production, fixed prices, VP, shields, science symbol, coins and chain symbols, and every wonder's cost,
    VP, extra turn and effects equal seven_wonders_duel_cards.json."""
    ref = _ref()
    assert len(ref["cards"]) == NCARDS == 73
    for d in ref["cards"]:
        cd = C.cards[card(d["name"])]
        e = d["effects"]
        assert (cd.guild, cd.age) == ((d["age"] == "guild"), 3 if d["age"] == "guild" else d["age"]), cd.name
        assert COLORS[cd.color] == d["color"], cd.name
        assert cd.coins == d["cost"]["coins"], cd.name
        assert cd.cost == tuple(d["cost"]["resources"].get(r, 0) for r in RESOURCES), cd.name
        assert cd.produces == tuple((e.get("produces") or {}).get(r, 0) for r in RESOURCES), cd.name
        assert [RESOURCES[r] for r in cd.one_of] == (e.get("produces_one_of") or []), cd.name
        assert [RESOURCES[r] for r in cd.fixed_price] == (e.get("trade_price_fixed_1") or []), cd.name
        assert (cd.vp, cd.shields, cd.coins_now) == (e.get("vp", 0), e.get("shields", 0), e.get("coins", 0)), cd.name
        assert (SYMBOLS[cd.science] if cd.science >= 0 else None) == e.get("science"), cd.name
        cf = C.chain_symbols[cd.chain_from] if cd.chain_from >= 0 else None
        ct = C.chain_symbols[cd.chain_to] if cd.chain_to >= 0 else None
        assert (cf, ct) == (d["chain_from"], d["chain_to"]), cd.name
        if "coins_per_own_card" in e:
            assert cd.coins_per_own[1] == e["coins_per_own_card"]["coins"]
            assert [COLORS[k] for k in cd.coins_per_own[0]] == e["coins_per_own_card"]["colors"]
            assert cd.counts_itself == bool(e["coins_per_own_card"].get("counts_itself"))
        assert cd.coins_per_wonder == e.get("coins_per_own_built_wonder", 0), cd.name
        assert cd.guild_coins == (e.get("coins_per_card_in_city_with_most") or {}).get("coins", 0), cd.name
        gcol = (e.get("vp_per_card_in_city_with_most") or {}).get("colors", [])
        assert [COLORS[k] for k in cd.guild_colors] == gcol, cd.name
        assert cd.guild_vp == (e.get("vp_per_card_in_city_with_most") or {}).get("vp", 0), cd.name
        assert cd.guild_wonder_vp == e.get("vp_per_wonder_in_city_with_most", 0), cd.name
        assert cd.guild_coin_vp == e.get("vp_per_3_coins_in_richest_city", 0), cd.name
    for d in ref["wonders"]:
        wd = C.wonders[wonder_id(d["name"])]
        e = d["effects"]
        assert wd.cost == tuple(d["cost"]["resources"].get(r, 0) for r in RESOURCES), wd.name
        assert (wd.vp, wd.extra_turn) == (d["vp"], d["extra_turn"]), wd.name
        assert (wd.coins, wd.opponent_loses, wd.shields) == \
            (e.get("coins", 0), e.get("opponent_loses_coins", 0), e.get("shields", 0)), wd.name
        assert [RESOURCES[r] for r in wd.one_of] == (e.get("produces_one_of") or []), wd.name


def _ref_price(ref_cards, ref_wonders, mine, theirs, my_wonders, cost, reduce):
    """P2-P5 and P20 from the reference data alone, by enumerating every use of the one-of producers; the free
    reductions then take the most expensive remaining units."""
    prod = {r: 0 for r in RESOURCES}
    oprod = {r: 0 for r in RESOURCES}
    fixed = set()
    oneof = []
    for n in mine:
        e = ref_cards[n]["effects"]
        for r, k in (e.get("produces") or {}).items():
            prod[r] += k
        fixed |= set(e.get("trade_price_fixed_1") or [])
        if e.get("produces_one_of"):
            oneof.append(e["produces_one_of"])
    for n in my_wonders:
        if ref_wonders[n]["effects"].get("produces_one_of"):
            oneof.append(ref_wonders[n]["effects"]["produces_one_of"])
    for n in theirs:
        if ref_cards[n]["color"] in ("brown", "grey"):
            for r, k in (ref_cards[n]["effects"].get("produces") or {}).items():
                oprod[r] += k
    need = {r: max(0, cost.get(r, 0) - prod[r]) for r in RESOURCES}
    best = None
    for choice in itertools.product(*[opts + [None] for opts in oneof]):
        left = dict(need)
        for r in choice:
            if r is not None and left[r] > 0:
                left[r] -= 1
        units = sorted((1 if r in fixed else 2 + oprod[r] for r in RESOURCES for _ in range(left[r])), reverse=True)
        total = sum(units[reduce:])
        best = total if best is None else min(best, total)
    return best


def test_prices_equal_an_exhaustive_search():
    """P2, P3, P5 ("the engine must choose the reduction that minimises the coins paid, together with the one-of
    producers ... Enumerating all combinations also works"), P20: in 300 random positions (cards of Ages I-II in
    both cities, the Great Lighthouse/Piraeus, Masonry/Architecture) every card and wonder price equals the
    cheapest one found by enumeration from the reference data."""
    ref = _ref()
    ref_cards = {d["name"]: d for d in ref["cards"]}
    ref_wonders = {d["name"]: d for d in ref["wonders"]}
    pool = [d["name"] for d in ref["cards"] if d["age"] in (1, 2) and d["color"] in ("brown", "grey", "yellow")]
    targets = [d["name"] for d in ref["cards"]]
    rng = Rng(2024)
    for k in range(300):
        s = setup(age=3, coins=(99, 99))
        names = pool[:]
        rng.shuffle(names)
        mine, theirs = names[:rng.randbelow(7)], names[10:10 + rng.randbelow(8)]
        give(s, 0, *mine)
        give(s, 1, *theirs)
        my_wonders = [w for w in ("The Great Lighthouse", "Piraeus") if rng.randbelow(2)]
        set_wonders(s, 0, *my_wonders)
        built(s, 0, *my_wonders)
        s.toks[0] = (rng.randbelow(2) << MASONRY) | (rng.randbelow(2) << ARCHITECTURE)
        for name in targets:
            d = ref_cards[name]
            if s.chained(0, card(name)):
                continue
            reduce = 2 if d["color"] == "blue" and s.toks[0] >> MASONRY & 1 else 0
            expect = d["cost"]["coins"] + _ref_price(ref_cards, ref_wonders, mine, theirs, my_wonders,
                                                     d["cost"]["resources"], reduce)
            assert s.card_price(0, card(name)) == expect, (k, name, mine, theirs, my_wonders, s.toks[0])
        for d in ref["wonders"]:
            reduce = 2 if s.toks[0] >> ARCHITECTURE & 1 else 0
            expect = _ref_price(ref_cards, ref_wonders, mine, theirs, my_wonders, d["cost"]["resources"], reduce)
            assert s.wonder_price(0, wonder_id(d["name"])) == expect, (k, d["name"])


# ==============================================================================================
# 22. More worked examples of HU
# ==============================================================================================
def test_hu_production_example_baths_and_garrison_but_not_apothecary():
    """HU "Termelés" example: Miska produces 1 stone, 3 clay and 1 papyrus: he can build the Baths (1 stone) or
    the Garrison (1 clay) from his production, but not the Apothecary (1 glass) without trading."""
    s = setup(age=2, coins=(0, 7))
    give(s, 0, "Quarry", "Clay Pool", "Brickyard", "Press")
    assert s.prod[0:5] == [0, 3, 1, 0, 1]
    assert s.card_price(0, card("Baths")) == 0 and s.card_price(0, card("Garrison")) == 0
    assert s.card_price(0, card("Apothecary")) == 2


def test_hu_card_costs_example():
    """HU "A kártyák költségei" example: the Lumber Yard is free, the Stone Pit costs 1 coin, the Baths 1 stone,
    the Arena 1 clay, 1 stone and 1 wood; HU "Érmeköltségek": the Scriptorium costs 2 coins."""
    assert C.cards[card("Lumber Yard")].coins == 0 and sum(C.cards[card("Lumber Yard")].cost) == 0
    assert C.cards[card("Stone Pit")].coins == 1 and sum(C.cards[card("Stone Pit")].cost) == 0
    assert C.cards[card("Baths")].cost == (0, 0, 1, 0, 0)
    assert C.cards[card("Arena")].cost == (1, 1, 1, 0, 0)
    assert C.cards[card("Scriptorium")].coins == 2


def test_hu_colossus_example_pays_the_wonder_and_tucks_the_card():
    """HU "Egy csoda megépítése" example, P21: Miska takes an accessible card to build the Colossus (3 clay,
    1 glass); he pays the Colossus' cost, not the card's (even a card he could not afford), tucks the card (it
    gives nothing, is not discarded) and moves the pawn 2 spaces."""
    s = setup(age=3, coins=(8, 7))
    set_wonders(s, 0, "The Colossus")
    make_accessible(s, "Palace")
    assert s.card_price(0, card("Palace")) > 8
    assert card("Palace") not in legal_args(s, "construct")
    assert s.wonder_price(0, wonder_id("The Colossus")) == 8
    build_wonder(s, "The Colossus", "Palace")
    assert s.coins[0] == 0 and s.pawn == 2
    assert s.wcard[wonder_id("The Colossus")] == card("Palace")
    assert card("Palace") not in s.city[0] and card("Palace") not in s.discard
    assert card("Palace") not in s.slot
    assert s.score_breakdown(0)["blue"] == 0 and s.score_breakdown(0)["wonders"] == 3


def test_appian_way_and_hanging_gardens_coins():
    """HU Via Appia (+3 coins, the opponent loses 3, P13 capped at the coins held) and A függőkertek (+6)."""
    s = setup(age=1, coins=(30, 2))
    set_wonders(s, 0, "The Appian Way", "The Hanging Gardens")
    price = s.wonder_price(0, wonder_id("The Appian Way"))
    build_wonder(s, "The Appian Way", s.c.cards[s.accessible_cards()[0]].name)
    assert s.coins == [30 - price + 3, 0]
    assert s.player == 0
    c0 = s.coins[0]
    price = s.wonder_price(0, wonder_id("The Hanging Gardens"))
    build_wonder(s, "The Hanging Gardens", s.c.cards[s.accessible_cards()[0]].name)
    assert s.coins[0] == c0 - price + 6


def test_great_lighthouse_and_piraeus_produce_for_their_owner():
    """HU A nagy világítótorony / Pireusz: one of wood/clay/stone (glass/papyrus) each turn for the owner."""
    s = setup(age=2)
    assert s.card_price(0, card("Rostrum")) == 4
    built(s, 0, "The Great Lighthouse")
    assert s.card_price(0, card("Rostrum")) == 2
    assert s.card_price(0, card("Temple")) == 2
    built(s, 0, "Piraeus")
    assert s.card_price(0, card("Temple")) == 0


def test_progress_token_must_be_taken_by_default():
    """§11.2 PROJECT DEFAULT [I-H] (board.yaml progress_token_must_be_taken, status "inferred"): on a pair the
    player must take one of the board tokens; declining is illegal."""
    assert C.rules["progress_token_must_be_taken"] is True
    s = setup(age=2, coins=(10, 7))
    give(s, 0, "Scriptorium")
    construct(s, "Library")
    assert {a.kind for a in s.legal_actions()} == {"progress"}
    _illegal(s, act(s, "decline_token", 0), "§11.2")


def test_progress_token_may_be_declined_when_the_data_file_says_so(monkeypatch):
    """§11.2 (HU: the player "may" choose a token): with progress_token_must_be_taken false the pair offers the
    board tokens and a decline; declining takes nothing and the turn passes."""
    monkeypatch.setitem(C.rules, "progress_token_must_be_taken", False)
    s = setup(age=2, coins=(10, 7))
    give(s, 0, "Scriptorium")
    board = s.board[:]
    construct(s, "Library")
    assert {a.kind for a in s.legal_actions()} == {"progress", "decline_token"}
    s.apply_action(act(s, "decline_token", 0))
    assert s.toks[0] == 0 and s.board == board
    assert s.phase == PH_PLAY and s.player == 1


def test_pair_with_the_last_card_of_an_age_then_the_next_age():
    """P16 + §6.6: a pair completed with the last card of Age II: the token is chosen first, then the age ends
    (the pawn on seat 0's side: seat 0 chooses who starts Age III)."""
    s = setup(age=2, coins=(10, 7))
    give(s, 0, "Scriptorium")
    last_card(s, "Library")
    s.pawn = -1
    construct(s, "Library")
    assert s.phase == PH_TOKEN and s.age == 2
    s.apply_action(act(s, "progress", s.board[0]))
    assert s.age == 3 and s.phase == PH_START and s.player == 0
