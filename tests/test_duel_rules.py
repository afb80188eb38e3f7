"""Rule tests for 7 Wonders Duel: the worked examples of the rulebook and the test vectors of the reference.

Sources: HU = shared/rulebooks/seven_wonders_duel.hu.txt (cited by its section title), "ref §N" / "PN" =
shared/reference/seven_wonders_duel.md (§10 #k = row k of its worked-example table), FRO = the fromi/7-wonders-duel
unit tests the reference quotes, BGA = the Board Game Arena implementation the reference quotes.

Each test starts from a position written in the game's notation (``POSITION.md``; ``duel_helpers.position``
writes it: the cities, wonders, tokens, pawn and the cards the test needs accessible in the structure), then
applies real actions with ``apply_action`` and asserts their effects through the observation and the public
helpers. Cards given to a city in a position are just there: their coins, shields and tokens were not paid out.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from duel_helpers import (NCARDS, act, board, build_wonder, card, city, coins, construct, discard,
                          discard_pile, game, kinds, legal_args, listed, pawn, phase, result, slots, spare_card, state,
                          token_id, tokens_of, wonder_id)

from citygames import IllegalActionError, load_game
from citygames.core.rng import Rng
from citygames.games.seven_wonders_duel.components import CLAY, COLORS, GLASS, PAPYRUS, STONE, SYMBOLS, WOOD, components
from citygames.games.seven_wonders_duel.constants import CATEGORIES

C = components()
ALL_TOKENS = list(range(len(C.tokens)))
RESOURCES = ("wood", "clay", "stone", "glass", "papyrus")
#: the test copy of shared/reference/seven_wonders_duel_cards.json (see tests/test_duel_structure.py)
REF_JSON = Path(__file__).resolve().parent / "data" / "seven_wonders_duel_cards.json"


def opponent_passes(s, *keep: str) -> None:
    """The player to move (the opponent of the seat under test) discards an accessible card other than ``keep``,
    so that the seat under test plays its next turn."""
    discard(s, spare_card(s, *keep))


def wonder_entry(s, p: int, name: str) -> dict:
    return next(w for w in s.observation(None)["players"][p]["wonders"] if w["wonder"] == wonder_id(name))


# ==============================================================================================
# 1. Trading (HU "Kereskedelem"; ref §6.5, P2, P3, P20; §10 #1-#4)
# ==============================================================================================
def test_trading_stone_at_4_when_the_opponent_produces_2():
    """HU trading example (§10 #1): Borcsa produces 2 stone with her brown cards, so each stone Miska buys costs
    2 + 2 = 4; Borcsa's third stone costs 2 because Miska produces none (P2). Borcsa = seat 1, Miska = seat 0."""
    s = state(age=2, player=1, city=([], ["Quarry", "Stone Pit"]), accessible=["Aqueduct"])
    assert s.unit_price(0, STONE) == 4
    assert s.unit_price(1, STONE) == 2
    # Borcsa builds the Aqueduct (3 stone) with her 2 stone: she buys the third one for 2
    assert s.card_price(1, card("Aqueduct")) == 2
    construct(s, "Aqueduct")
    assert coins(s) == [7, 5]
    assert "Aqueduct" in city(s, 1)


def test_trading_fortifications_costs_5():
    """HU trading example (§10 #3, §9): Borcsa produces 2 stone and builds the Fortifications (2 stone, clay,
    papyrus); Miska produces 1 clay (§9: the text's "1 stone" is a slip, the arithmetic is 2 + 1) and no papyrus:
    3 for the clay + 2 for the papyrus = 5 coins to the bank."""
    s = state(age=3, player=1, coins=(7, 9), city=(["Clay Pool"], ["Quarry", "Stone Pit"]),
              accessible=["Fortifications"])
    assert s.card_price(1, card("Fortifications")) == 5
    construct(s, "Fortifications")
    assert coins(s) == [7, 4]
    assert pawn(s) == -2          # its 2 shields move the pawn toward seat 0's capital


def test_trading_aqueduct_costs_12():
    """HU trading example (§10 #4): Miska builds the Aqueduct (3 stone) producing no stone while Borcsa produces
    2 stone with her brown cards: 3 x (2 + 2) = 12 coins; with 11 coins he cannot construct it, with 12 he can."""
    kw = dict(age=2, player=0, city=([], ["Quarry", "Stone Pit"]), accessible=["Aqueduct"])
    s = state(coins=(11, 7), **kw)
    assert s.card_price(0, card("Aqueduct")) == 12
    assert card("Aqueduct") not in legal_args(s, "construct")
    assert card("Aqueduct") in legal_args(s, "discard")
    s = state(coins=(12, 7), **kw)
    construct(s, "Aqueduct")
    assert coins(s) == [0, 7]


def test_trading_caravansery_costs_7():
    """HU "Érme- és erőforrásköltség" example: Borcsa builds the Caravansery (2 coins, glass, papyrus) and
    produces neither; Miska produces 1 glass: 2 (card) + 3 (glass, 2 + 1) + 2 (papyrus, 2 + 0) = 7 coins."""
    s = state(age=2, player=1, city=(["Glassworks"], []), accessible=["Caravansery"])
    assert s.card_price(1, card("Caravansery")) == 7
    construct(s, "Caravansery")
    assert coins(s) == [7, 0]


def test_resources_are_never_used_up():
    """HU "Fontos: a nyersanyagok, termékek nem használódnak el" (§6.5): production applies to each construction
    separately - the same wood and stone pay for the Rostrum and then the Horse Breeders' wood again."""
    s = state(age=2, city=(["Lumber Yard", "Quarry"], []), accessible=["Rostrum", "Horse Breeders"])
    construct(s, "Rostrum")                       # 1 stone, 1 wood: produced
    assert coins(s)[0] == 7
    opponent_passes(s, "Horse Breeders")
    assert s.card_price(0, card("Horse Breeders")) == 2   # wood produced again, clay bought at 2 + 0
    construct(s, "Horse Breeders")
    assert coins(s)[0] == 5


def test_yellow_cards_and_wonders_do_not_raise_the_opponents_prices():
    """P2, P20, HU "A sárga kártyák és csodák által termelt erőforrásokat nem vesszük figyelembe": the opponent's
    Forum, Caravansery, Great Lighthouse and Piraeus leave every price at 2; only brown/grey cards raise it."""
    kw = dict(age=2, built=([], ["The Great Lighthouse", "Piraeus"]))
    s = state(city=([], ["Forum", "Caravansery"]), **kw)
    for r in (WOOD, CLAY, STONE, GLASS, PAPYRUS):
        assert s.unit_price(0, r) == 2
    s = state(city=([], ["Forum", "Caravansery", "Glassblower"]), **kw)
    assert s.unit_price(0, GLASS) == 3


def test_one_of_producers_give_one_unit_per_construction():
    """P20 (§4.2 Caravansery "one of wood/clay/stone"): a one-of producer covers a single unit of one
    construction: with only a Caravansery the Courthouse (2 wood, glass) still needs 1 wood and 1 glass bought."""
    s = state(age=2, city=(["Caravansery"], []))
    assert s.card_price(0, card("Courthouse")) == 4        # wood 2 + glass 2
    s = state(age=2, city=(["Caravansery", "Forum"], []))
    assert s.card_price(0, card("Courthouse")) == 2        # the Forum now makes the glass


def test_fixed_prices_of_reserves_and_customs_house():
    """P3, §10 #2, HU trading details: the Stone Reserve sets its owner's stone price to exactly 1 whatever the
    opponent produces; the Customs House does the same for glass and papyrus (not for other resources)."""
    theirs = ["Quarry", "Stone Pit", "Shelf Quarry", "Glassworks", "Glassblower", "Press", "Drying Room", "Lumber Yard"]
    s = state(age=2, city=([], theirs))
    assert s.unit_price(0, STONE) == 6 and s.unit_price(0, GLASS) == 4
    s = state(age=2, city=(["Stone Reserve"], theirs))
    assert s.unit_price(0, STONE) == 1
    assert s.card_price(0, card("Aqueduct")) == 3            # 3 stone at 1
    s = state(age=2, city=(["Stone Reserve", "Customs House"], theirs))
    assert s.unit_price(0, GLASS) == 1 and s.unit_price(0, PAPYRUS) == 1
    assert s.unit_price(0, WOOD) == 3                          # 2 + the opponent's Lumber Yard
    assert s.unit_price(1, STONE) == 2                         # the opponent's own price is untouched


# ==============================================================================================
# 2. Discard (HU "Kártya eldobása érmékért"; P7; §10 #5)
# ==============================================================================================
def test_discard_with_tavern_and_clay_reserve_is_worth_4():
    """HU discard example (§10 #5): Borcsa discards her Aqueduct with the Tavern and the Clay Reserve in her city:
    2 + 1 per yellow card = 4 coins; the card goes onto the discard pile."""
    assert state(age=2, player=1).discard_value(1) == 2
    s = state(age=2, player=1, city=([], ["Tavern", "Clay Reserve"]), accessible=["Aqueduct"])
    assert s.discard_value(1) == 4
    discard(s, "Aqueduct")
    assert coins(s) == [7, 11]
    assert discard_pile(s) == ["Aqueduct"]
    assert "Aqueduct" not in city(s, 1)


def test_discard_is_always_legal():
    """HU "A játékos a kiválasztott kártyával háromféle akciót": any accessible card can be discarded, even one
    the player cannot afford (0 coins)."""
    s = state(age=3, coins=(0, 0), spare=4)
    assert len(s.accessible_cards()) >= 4
    for x in s.accessible_cards():
        assert x in legal_args(s, "discard")


# ==============================================================================================
# 3. Chains (HU "Ingyen építési lehetőség (láncok)"; P6)
# ==============================================================================================
def test_chains_make_cards_free_coins_included():
    """HU chain examples, P6: Miska built the Baths, so he builds the Aqueduct free in Age II; Borcsa built the
    Palisade, so the Fortifications are free in Age III; the Garrison makes the Barracks' 3 coins free too."""
    s = state(age=2, coins=(0, 7), city=(["Baths", "Garrison"], ["Quarry", "Stone Pit"]),
              accessible=["Aqueduct", "Barracks"])
    assert s.chained(0, card("Aqueduct"))
    assert s.card_price(0, card("Aqueduct")) == 0
    assert {card("Aqueduct"), card("Barracks")} <= set(legal_args(s, "construct"))
    construct(s, "Barracks")
    assert coins(s)[0] == 0 and "Barracks" in city(s, 0)
    opponent_passes(s, "Aqueduct")
    construct(s, "Aqueduct")
    assert coins(s)[0] == 0 and "Aqueduct" in city(s, 0)

    t = state(age=3, player=1, coins=(7, 0), city=([], ["Palisade"]), accessible=["Fortifications"])
    assert t.card_price(1, card("Fortifications")) == 0
    construct(t, "Fortifications")
    assert coins(t)[1] == 0 and "Fortifications" in city(t, 1)


def test_horse_breeders_clay_and_wood_or_stable():
    """HU "Példa: a Lótenyésztők megépítéséhez 1 agyag és 1 fa szükséges VAGY az, hogy nálunk legyen az Istálló"."""
    assert state(age=2).card_price(0, card("Horse Breeders")) == 4
    assert state(age=2, city=(["Stable"], [])).card_price(0, card("Horse Breeders")) == 0


# ==============================================================================================
# 4. Masonry and Architecture (P5; §10 #6, #7)
# ==============================================================================================
def test_masonry_fro_palace_2_academy_8():
    """§10 #6 (FRO): with Masonry, a Customs House and a Clay Pool against an opponent's Sawmill and Glassblower,
    the Palace costs 2 and the Academy (green, no reduction) costs 8."""
    s = state(age=3, coins=(10, 7), city=(["Customs House", "Clay Pool"], ["Sawmill", "Glassblower"]),
              tokens=(["Masonry"], []), accessible=["Palace"])
    assert s.card_price(0, card("Palace")) == 2
    assert s.card_price(0, card("Academy")) == 8
    construct(s, "Palace")
    assert coins(s)[0] == 8


def test_masonry_p5_chooses_the_best_units_with_a_caravansery():
    """P5: Palace whose remaining units cost stone 4, wood 3, glass 2, glass 2, the builder owning Masonry and a
    Caravansery: the best choice pays 2 (the Caravansery takes the stone, Masonry the wood and a glass); applying
    Masonry first would pay 4."""
    s = state(age=3, city=(["Clay Pool", "Caravansery"], ["Quarry", "Stone Pit", "Lumber Yard"]),
              tokens=(["Masonry"], []), accessible=["Palace"])
    assert [s.unit_price(0, r) for r in (STONE, WOOD, GLASS)] == [4, 3, 2]
    assert s.card_price(0, card("Palace")) == 2
    construct(s, "Palace")
    assert coins(s)[0] == 5


def test_masonry_only_for_blue_cards_taken_later():
    """HU Kőművesség: every blue card built *in the future* costs 2 fewer resources: the Courthouse (2 wood,
    glass) costs 6 before the token, 2 once it is taken on a pair; the Dispensary (green) is unchanged."""
    s = state(age=2, coins=(10, 7), city=(["Scriptorium"], []), board=["Masonry", "Agriculture"],
              accessible=["Library"])
    assert s.card_price(0, card("Courthouse")) == 6
    assert s.card_price(0, card("Dispensary")) == 6
    construct(s, "Library")
    s.apply_action(act(s, "progress", token_id("Masonry")))
    assert s.card_price(0, card("Courthouse")) == 2
    assert s.card_price(0, card("Dispensary")) == 6


def test_architecture_fro_temple_of_artemis_costs_1_then_12_coins():
    """§10 #7 (FRO): with Architecture, a Press and a Stone Reserve against an opponent's Sawmill, the Temple of
    Artemis (wood, stone, glass, papyrus) costs 1; then it gives 12 coins and another turn (HU Artemisz temploma)."""
    s = state(age=2, wonders=(["The Temple of Artemis", "The Pyramids"], []),
              city=(["Press", "Stone Reserve"], ["Sawmill"]), tokens=(["Architecture"], []))
    assert s.wonder_price(0, wonder_id("The Temple of Artemis")) == 1
    build_wonder(s, "The Temple of Artemis")
    assert coins(s)[0] == 7 - 1 + 12
    assert s.current_player() == 0 and phase(s) == "play"


# ==============================================================================================
# 5. Economy (P4; §10 #8)
# ==============================================================================================
def test_economy_fro_town_hall_7_pretorium_0():
    """§10 #8 (FRO), P4, HU Gazdaság: the holder has no production; the builder owns a Press and a Stone Reserve.
    Town Hall (3 stone, 2 wood) costs 3 x 1 + 2 x 2 = 7 -> the holder gets 7; the Pretorium's 8 printed coins give
    the holder nothing."""
    s = state(age=3, coins=(30, 7), city=(["Press", "Stone Reserve"], []), tokens=([], ["Economy"]),
              military=([2, 5], []),        # no military token to loot with the Pretorium's 3 shields
              accessible=["Town Hall", "Pretorium"])
    construct(s, "Town Hall")
    assert coins(s) == [23, 14]
    assert "duel.economy" in kinds(s)
    opponent_passes(s, "Pretorium")
    holder = coins(s)[1]
    construct(s, "Pretorium")
    assert coins(s) == [15, holder]


def test_economy_applies_to_wonder_purchases():
    """P4 ("Applies to wonder purchases too"): the builder pays 3 x 1 (Stone Reserve) for the Pyramids' stone and
    produces the papyrus: the Economy holder receives those 3 coins."""
    s = state(age=1, wonders=(["The Pyramids"], []), city=(["Press", "Stone Reserve"], []),
              tokens=([], ["Economy"]))
    assert s.wonder_price(0, wonder_id("The Pyramids")) == 3
    build_wonder(s, "The Pyramids")
    assert coins(s) == [4, 10]


def test_economy_without_trading_gives_nothing():
    """P4: only trading coins go to the holder; a card built from own production gives nothing."""
    s = state(age=1, city=(["Quarry"], []), tokens=([], ["Economy"]), accessible=["Baths"])
    construct(s, "Baths")
    assert coins(s) == [7, 7]


# ==============================================================================================
# 6. Urbanism (P6; §10 #9; §11.1)
# ==============================================================================================
def test_urbanism_fro_4_coins_only_for_chains():
    """§10 #9 (FRO), HU Urbanizmus: owning Baths, Garrison, Logging Camp and Press: the Barracks (chain) give +4,
    the Temple (no Altar, paid by own production) +0, the Aqueduct (chain) +4."""
    s = state(age=2, coins=(10, 7), city=(["Baths", "Garrison", "Logging Camp", "Press"], []),
              tokens=(["Urbanism"], []), accessible=["Barracks", "Temple", "Aqueduct"], spare=2)
    construct(s, "Barracks")
    assert coins(s)[0] == 14
    for name, expect in (("Temple", 14), ("Aqueduct", 18)):
        opponent_passes(s, "Temple", "Aqueduct")
        construct(s, name)
        assert coins(s)[0] == expect, name


def test_urbanism_nothing_for_a_card_without_cost():
    """P6: "not for cards that simply have no cost" - the free Theater gives no Urbanism coins."""
    s = state(age=1, tokens=(["Urbanism"], []), accessible=["Theater"])
    construct(s, "Theater")
    assert coins(s)[0] == 7


def _mausoleum_state(discard_pile, age=2, **kw):
    """Seat 0 holds the Mausoleum, free to build (clay 2, glass 2, papyrus from its own cards)."""
    mine = ["Clay Pool", "Clay Pit", "Glassworks", "Glassblower", "Press"] + kw.pop("more", [])
    return state(age=age, wonders=(["The Mausoleum"] + kw.pop("wonders0", []), kw.pop("wonders1", [])),
                 city=(mine, kw.pop("city1", [])), discard=discard_pile, **kw)


def test_urbanism_not_for_a_chained_card_rebuilt_by_the_mausoleum():
    """§11.1 PROJECT DEFAULT (as BGA), P6: a chained card rebuilt through the Mausoleum gives no Urbanism coins;
    the default is kept in board.yaml (status "assumed")."""
    assert C.rules["urbanism_on_mausoleum_chain"] is False
    s = _mausoleum_state(["Aqueduct"], more=["Baths"], tokens=(["Urbanism"], []))
    assert s.wonder_price(0, wonder_id("The Mausoleum")) == 0
    build_wonder(s, "The Mausoleum")
    assert phase(s) == "mausoleum"
    s.apply_action(act(s, "mausoleum", card("Aqueduct")))
    assert "Aqueduct" in city(s, 0)
    assert coins(s)[0] == 7


def test_urbanism_on_mausoleum_follows_the_data_file(monkeypatch):
    """§0 / §11.1: the project default must be correctable in the data file - with the rule set to true, the
    chained Aqueduct rebuilt through the Mausoleum pays the Urbanism +4."""
    monkeypatch.setitem(C.rules, "urbanism_on_mausoleum_chain", True)
    s = _mausoleum_state(["Aqueduct", "Courthouse"], more=["Baths"], tokens=(["Urbanism"], []))
    build_wonder(s, "The Mausoleum")
    s.apply_action(act(s, "mausoleum", card("Aqueduct")))
    assert coins(s)[0] == 11


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


@pytest.mark.parametrize("guild,opp,mine,coins_now,later,vp", GUILD_CASES, ids=[g[0] for g in GUILD_CASES])
def test_guild_coins_when_built_and_vp_at_the_end_from_the_city_with_most(guild, opp, mine, coins_now, later, vp):
    """HU guild texts and "Részletek", P18, §10 #10 (FRO, Merchants: the opponent's 4 yellow cards pay +4) and #11
    (FRO, Shipowners: own 3 brown/grey against 1 pay +3): when built, 1 coin per card of the guild's colour(s) in
    the city with most (here the opponent's, except Shipowners); at the end 1 VP per card in the city with most,
    judged again (a later position with more own cards) and possibly on the other city."""
    s = state(age=3, coins=(40, 7), city=(mine, opp), accessible=[guild])
    price = s.card_price(0, card(guild))
    construct(s, guild)
    assert coins(s)[0] == 40 - price + coins_now
    assert s.score_breakdown(0)["purple"] == max(len(opp), len(mine))
    t = state(age=3, city=(mine + [guild] + later, opp))
    assert t.score_breakdown(0)["purple"] == vp
    assert t.score_breakdown(1)["purple"] == 0       # the guild scores for its owner only


def test_shipowners_counts_brown_and_grey_in_one_city():
    """P18, HU Hajósok céhe "egy, és csak egy várost kell választania" (§9: 1 coin per brown + grey card):
    own 2 brown + 0 grey against 1 brown + 2 grey: the opponent's city (3) counts, not 2 + 2."""
    s = state(age=3, coins=(40, 7), city=(["Quarry", "Stone Pit"], ["Lumber Yard", "Glassworks", "Press"]),
              accessible=["Shipowners Guild"])
    price = s.card_price(0, card("Shipowners Guild"))
    construct(s, "Shipowners Guild")
    assert coins(s)[0] == 40 - price + 3
    assert s.score_breakdown(0)["purple"] == 3


def test_builders_guild_2_vp_per_wonder_in_the_city_with_most_no_coins():
    """HU Építők céhe (§9: 2 VP, not 1), P18: 2 VP per wonder built in the city with most wonders, no coins:
    1 own wonder against 3 -> 6 VP; with 3 more built (a later position) -> 8 VP."""
    mine = ["The Pyramids", "The Sphinx", "The Colossus", "The Great Lighthouse"]
    theirs = ["Piraeus", "The Appian Way", "Circus Maximus", "The Mausoleum"]
    s = state(age=3, coins=(40, 7), wonders=(mine, theirs), built=(mine[:1], theirs[:3]),
              accessible=["Builders Guild"])
    price = s.card_price(0, card("Builders Guild"))
    construct(s, "Builders Guild")
    assert coins(s)[0] == 40 - price
    assert s.score_breakdown(0)["purple"] == 6
    t = state(age=3, wonders=(mine, theirs), built=(mine, theirs[:3]), city=(["Builders Guild"], []))
    assert t.score_breakdown(0)["purple"] == 8


def test_moneylenders_fro_6_vp_from_the_richest_city():
    """§10 #12 (FRO), HU Uzsorások céhe: 1 VP per 3 coins of the richest city, no coins when built: with 5 coins
    against 19 the guild is worth 6 VP, plus 1 VP from the owner's own coins."""
    s = state(age=3, coins=(40, 19), accessible=["Moneylenders Guild"])
    price = s.card_price(0, card("Moneylenders Guild"))
    construct(s, "Moneylenders Guild")
    assert coins(s)[0] == 40 - price
    t = state(age=3, coins=(5, 19), city=(["Moneylenders Guild"], []))
    b = t.score_breakdown(0)
    assert b["purple"] == 6 and b["coins"] == 1


def test_guild_coins_counted_once_when_built():
    """HU "Az érméket hozó céhkártyák esetén az érméket ... egyszer, és csak egyszer, a kártya megépítésekor":
    a blue card constructed after the Magistrates Guild gives no more guild coins (it counts for the VP)."""
    s = state(age=3, coins=(40, 7), city=(["Theater", "Altar"], []), accessible=["Magistrates Guild", "Palace"])
    price = s.card_price(0, card("Magistrates Guild"))
    construct(s, "Magistrates Guild")
    assert coins(s)[0] == 40 - price + 2
    opponent_passes(s, "Palace")
    before = coins(s)[0]
    palace = s.card_price(0, card("Palace"))
    construct(s, "Palace")
    assert coins(s)[0] == before - palace
    assert s.score_breakdown(0)["purple"] == 3


# ==============================================================================================
# 8. Military (HU "Katonaság"; §4.7; P13, P14; §10 #13-#15)
# ==============================================================================================
def test_archery_range_loots_2_coins():
    """HU military example: Miska builds the Archery Range (2 shields), the pawn moves 2 spaces and enters a new
    zone: Borcsa loses 2 coins and the token goes back to the box."""
    s = state(age=2, city=(["Lumber Yard", "Quarry", "Press"], []), pawn=1, accessible=["Archery Range"])
    construct(s, "Archery Range")
    assert pawn(s) == 3
    assert coins(s) == [7, 5]
    assert s.observation(None)["conflict"]["tokens"] == [[True, True], [False, True]]


def test_loot_2_to_3_capped_and_only_once():
    """§10 #13 (FRO), P13, §4.7: pawn 2 -> 3: the player on that side loses 2 coins, capped at the coins held (1);
    a zone whose token is gone is never looted again (the pawn back on 2, the same move loots nothing)."""
    s = state(age=1, coins=(7, 1), pawn=2, accessible=["Guard Tower"])
    construct(s, "Guard Tower")
    assert pawn(s) == 3 and coins(s) == [7, 0]
    t = state(age=1, coins=(7, 7), pawn=2, military=([2, 5], [5]), accessible=["Guard Tower"])
    construct(t, "Guard Tower")
    assert pawn(t) == 3 and coins(t)[1] == 7


def test_loot_both_tokens_in_one_move():
    """§10 #14 (FRO), P14: one move passing both tokens of a side loots 2 + 5, capped at the coins held (4 coins:
    2 then 2). FRO moves the pawn 2 -> 7; the base game's largest single move is 4 (Arsenal + Strategy), so the
    pawn goes 2 -> 6 here, which enters both zones (3 and 6) as well."""
    kw = dict(age=3, coins=(10, 20), city=(["Clay Pool", "Clay Pit", "Brickyard", "Sawmill"], []),
              tokens=(["Strategy"], []), pawn=2, accessible=["Arsenal"])
    s = state(**kw)
    construct(s, "Arsenal")
    assert pawn(s) == 6 and coins(s)[1] == 13
    assert s.observation(None)["conflict"]["tokens"][1] == [False, False]
    t = state(**dict(kw, coins=(10, 4)))
    construct(t, "Arsenal")
    assert coins(t)[1] == 0


def test_loot_two_zones_with_arsenal_and_strategy():
    """P14 + HU Stratégia: a real construction looting two zones: the Arsenal (3 shields) + Strategy moves 4,
    from 2 to 6: the opponent (seat 0's side here) loses 2 + 5."""
    s = state(age=3, player=1, coins=(10, 7), city=([], ["Clay Pool", "Clay Pit", "Brickyard", "Sawmill"]),
              tokens=([], ["Strategy"]), pawn=-2, accessible=["Arsenal"])
    construct(s, "Arsenal")
    assert pawn(s) == -6
    assert coins(s)[0] == 3
    assert s.observation(None)["conflict"]["tokens"] == [[False, False], [True, True]]


def test_military_supremacy_7_to_9():
    """§10 #15 (FRO), HU "Katonai győzelem": pawn 7 -> 9 (Walls, 2 shields): military supremacy, the game ends at
    once; the pawn never goes past the capital (P14)."""
    s = state(age=2, city=(["Quarry", "Stone Pit"], []), pawn=7, accessible=["Walls"])
    construct(s, "Walls")
    assert pawn(s) == 9
    assert phase(s) == "end" and s.is_terminal()
    assert result(s)["winner"] == 0 and s.returns() == [1.0, 0.0]
    assert result(s)["victory"] == "military"
    t = state(age=3, player=1, coins=(7, 30), pawn=-8, accessible=["Pretorium"])
    construct(t, "Pretorium")
    assert pawn(t) == -9 and result(t)["winner"] == 1 and t.returns() == [0.0, 1.0]


def test_military_supremacy_from_a_wonder():
    """P14: the check runs after pawn moves from wonders: the Colossus (2 shields, HU example) from 7 wins."""
    s = state(age=1, coins=(30, 7), wonders=(["The Colossus"], []), pawn=7)
    build_wonder(s, "The Colossus")
    assert phase(s) == "end" and result(s)["winner"] == 0 and pawn(s) == 9


def test_military_supremacy_with_the_last_card_of_age_iii():
    """P14: the last card of Age III can give military supremacy, which takes priority over civilian scoring
    (the opponent has far more VP)."""
    s = state(age=3, coins=(10, 7), city=([], ["Palace", "Town Hall", "Gardens"]), only="Pretorium", pawn=6)
    construct(s, "Pretorium")
    assert phase(s) == "end" and result(s)["winner"] == 0
    assert s.scores()[1] > s.scores()[0]
    assert result(s)["victory"] == "military"


def test_military_vp_by_distance():
    """§4.7, §7: 2 VP at distance 1-2, 5 at 3-5, 10 at 6-8, only for the player toward whose opponent the pawn
    has moved."""
    expect = {0: 0, 1: 2, 2: 2, 3: 5, 4: 5, 5: 5, 6: 10, 7: 10, 8: 10}
    for d, vp in expect.items():
        s = state(pawn=d)
        assert (s.military_vp(0), s.military_vp(1)) == (vp, 0)
        s = state(pawn=-d)
        assert (s.military_vp(0), s.military_vp(1)) == (0, vp)


# ==============================================================================================
# 9. Science (HU "Tudomány és fejlődés"; P16, P17)
# ==============================================================================================
BOARD = ["Agriculture", "Philosophy", "Strategy", "Theology", "Urbanism"]
BOX = ["Architecture", "Economy", "Law", "Masonry", "Mathematics"]


def test_science_pair_takes_a_board_token():
    """HU "Valahányszor a játékos begyűjt kettő egyforma tudományos jelképet", P16: the second quill (Library after
    Scriptorium) lets the builder take one token *from the board*; a boxed token cannot be taken; then the turn
    passes."""
    s = state(age=2, coins=(10, 7), board=BOARD, box=BOX, city=(["Scriptorium"], []), accessible=["Library"])
    construct(s, "Library")          # chained through the book: free
    assert phase(s) == "progress_token" and s.current_player() == 0
    assert legal_args(s, "progress") == sorted(token_id(t) for t in BOARD)
    with pytest.raises(IllegalActionError, match="P16"):
        s.apply_action(act(s, "progress", token_id("Masonry")))
    s.apply_action(act(s, "progress", token_id("Philosophy")))
    assert tokens_of(s, 0) == ["Philosophy"]
    assert board(s) == [t for t in BOARD if t != "Philosophy"]
    assert phase(s) == "play" and s.current_player() == 1
    assert s.score_breakdown(0)["progress"] == 7


def test_science_pair_with_an_empty_board_takes_nothing():
    """P16 "if any remain": with no token left on the board the pair gives nothing and the turn passes."""
    s = state(age=2, coins=(10, 7), board=[], city=(["Scriptorium"], []), accessible=["Library"])
    construct(s, "Library")
    assert phase(s) == "play" and s.current_player() == 1 and tokens_of(s, 0) == []


def test_scientific_supremacy_with_six_card_symbols():
    """HU "Tudományos győzelem", P17: 6 different symbols win at once."""
    greens = ["Workshop", "Apothecary", "Scriptorium", "Pharmacist", "Academy"]
    assert state(age=3, city=(greens, [])).science_symbols(0) == 5
    s = state(age=3, coins=(20, 7), city=(greens + ["Press", "Glassworks", "Clay Pool"], []),
              accessible=["University"])
    construct(s, "University")
    assert phase(s) == "end" and result(s)["winner"] == 0
    assert result(s)["victory"] == "science"


def test_scientific_supremacy_counts_law():
    """HU Törvény ("Ez a korong egy tudományos jelképnek számít"), P17: Law + 5 card symbols = 6 symbols."""
    greens = ["Workshop", "Apothecary", "Scriptorium", "Pharmacist"]
    assert state(age=3, city=(greens, []), tokens=(["Law"], [])).science_symbols(0) == 5
    s = state(age=3, coins=(20, 7), city=(greens + ["Press", "Glassworks", "Clay Pool"], []),
              tokens=(["Law"], []), accessible=["University"])
    construct(s, "University")
    assert phase(s) == "end" and result(s)["winner"] == 0


def test_scientific_supremacy_checked_after_the_token_choice():
    """P17 "Check again after a progress-token choice": 4 symbols, the pair (Library after Scriptorium) lets the
    player take Law from the board: 5, no win yet; with 5 symbols, a pair (Study after Academy) and Law from the
    board make the sixth symbol, which wins."""
    s = state(age=2, coins=(20, 7), board=["Law", "Agriculture", "Philosophy", "Strategy", "Theology"],
              box=["Architecture", "Economy", "Masonry", "Mathematics", "Urbanism"],
              city=(["Workshop", "Apothecary", "Scriptorium", "Pharmacist"], []), accessible=["Library"])
    construct(s, "Library")
    assert phase(s) == "progress_token" and s.science_symbols(0) == 4
    s.apply_action(act(s, "progress", token_id("Law")))
    assert s.science_symbols(0) == 5
    assert phase(s) == "play"      # 5 symbols: no win yet
    t = state(age=3, coins=(20, 7), board=["Law", "Agriculture"],
              city=(["Workshop", "Apothecary", "Scriptorium", "Pharmacist", "Academy"], []), accessible=["Study"])
    construct(t, "Study")
    assert phase(t) == "progress_token" and t.science_symbols(0) == 5
    t.apply_action(act(t, "progress", token_id("Law")))
    assert phase(t) == "end" and result(t)["winner"] == 0 and t.science_symbols(0) == 6


def test_scientific_supremacy_through_the_great_library_law():
    """P11 [I-H] (BGA): Law drawn by the Great Library completes the 6 symbols."""
    s = state(age=3, coins=(30, 7), wonders=(["The Great Library"], []),
              box=["Masonry", "Law", "Mathematics", "Economy", "Urbanism"],
              board=["Agriculture", "Architecture", "Philosophy", "Strategy", "Theology"],
              city=(["Workshop", "Apothecary", "Scriptorium", "Pharmacist", "Academy"], []))
    build_wonder(s, "The Great Library")
    assert phase(s) == "library"
    s.apply_action(act(s, "progress", token_id("Law")))
    assert phase(s) == "end" and result(s)["winner"] == 0


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
    s = state(age=1, coins=(40, 7), wonders=([wname], []))
    build_wonder(s, wname)
    if phase(s) == "library":
        s.apply_action(s.legal_actions()[0])
    assert phase(s) == "play"
    assert s.current_player() == (0 if EXTRA_TURN[wname] else 1)


def test_extra_turn_lost_at_the_end_of_an_age():
    """§10 #16 (HU, FRO), P9: the Sphinx built with the last card of Age I: the extra turn is lost; the pawn is on
    seat 1's side, so seat 1 chooses who starts Age II."""
    s = state(age=1, coins=(30, 7), wonders=(["The Sphinx"], []), only="Lumber Yard", pawn=1)
    build_wonder(s, "The Sphinx", "Lumber Yard")
    assert "duel.extra_turn_lost" in kinds(s)
    o = s.observation(None)
    assert o["age"] == 2 and o["phase"] == "choose_starter" and o["current_player"] == 1
    assert not o["extra_turn"]


def test_theology_and_sphinx_give_one_extra_turn():
    """§10 #17 (HU Teológia "egy adott csoda nem válthatja ki kétszer", FRO), P9: Theology + Sphinx = one extra
    turn, not two."""
    s = state(age=1, coins=(30, 7), wonders=(["The Sphinx"], []), tokens=(["Theology"], []))
    build_wonder(s, "The Sphinx")
    assert s.current_player() == 0
    discard(s, spare_card(s))
    assert s.current_player() == 1


def test_theology_gives_the_pyramids_an_extra_turn():
    """HU Teológia: every future wonder is treated as having "play again": the Pyramids (none printed) give one."""
    s = state(age=1, coins=(30, 7), wonders=(["The Pyramids"], []), tokens=(["Theology"], []))
    build_wonder(s, "The Pyramids")
    assert s.current_player() == 0 and phase(s) == "play"
    assert "duel.extra_turn" in kinds(s)


def test_theology_extra_turn_after_a_pending_choice():
    """HU Teológia + P9/P23: the extra turn of a wonder with a choice (Statue of Zeus: destruction; Great Library:
    token) is played after the choice."""
    s = state(age=2, coins=(30, 7), wonders=(["The Statue of Zeus", "The Great Library"], []),
              city=([], ["Quarry"]), tokens=(["Theology"], []), spare=2)
    build_wonder(s, "The Statue of Zeus")
    assert phase(s) == "destroy" and s.current_player() == 0
    assert s.observation(None)["extra_turn"]
    s.apply_action(act(s, "destroy", card("Quarry")))
    assert phase(s) == "play" and s.current_player() == 0
    build_wonder(s, "The Great Library")
    assert phase(s) == "library"
    s.apply_action(s.legal_actions()[0])
    assert phase(s) == "play" and s.current_player() == 0


def test_extra_turns_can_chain():
    """P9 (Cathala, BGG 2015-10-14): an extra-turn wonder built during an extra turn gives another one."""
    s = state(age=1, coins=(60, 7), wonders=(["The Sphinx", "The Hanging Gardens"], []))
    build_wonder(s, "The Sphinx")
    assert s.current_player() == 0
    build_wonder(s, "The Hanging Gardens")
    assert s.current_player() == 0
    discard(s, spare_card(s))
    assert s.current_player() == 1


# ==============================================================================================
# 11. Mausoleum (HU "A mauzóleum"; P10; §10 #18)
# ==============================================================================================
def test_mausoleum_with_an_empty_discard_pile_does_nothing():
    """§10 #18 (FRO; BGA), P10: the Mausoleum built while the discard pile is empty: nothing happens, the turn
    passes; the wonder is still built (2 VP)."""
    s = _mausoleum_state([])
    build_wonder(s, "The Mausoleum")
    assert phase(s) == "play" and s.current_player() == 1
    assert s.score_breakdown(0)["wonders"] == 2


def test_mausoleum_rebuilds_a_discarded_card_with_its_effects():
    """HU "Nézd meg a játék kezdete óta eldobott összes kártyát, és azonnal építsd meg ingyen az egyiket", P10:
    the Tavern is rebuilt for free and pays its 4 coins; it leaves the discard pile."""
    s = _mausoleum_state(["Tavern", "Palisade"])
    build_wonder(s, "The Mausoleum")
    assert phase(s) == "mausoleum" and s.current_player() == 0
    assert legal_args(s, "mausoleum") == sorted([card("Tavern"), card("Palisade")])
    s.apply_action(act(s, "mausoleum", card("Tavern")))
    assert coins(s)[0] == 11
    assert "Tavern" in city(s, 0) and discard_pile(s) == ["Palisade"]
    assert phase(s) == "play" and s.current_player() == 1


def test_mausoleum_gains_the_chain_symbol_and_strategy_shield():
    """P10 (the chain symbol is gained), P15 [I-H] (BGA, IND: Strategy adds its shield to a rebuilt red card):
    rebuilding the Palisade gives 1 + 1 shields and then the Fortifications are free."""
    assert C.rules["strategy_on_mausoleum"] is True
    s = _mausoleum_state(["Palisade"], age=3, tokens=(["Strategy"], []))
    build_wonder(s, "The Mausoleum")
    s.apply_action(act(s, "mausoleum", card("Palisade")))
    assert pawn(s) == 2
    assert s.chained(0, card("Fortifications")) and s.card_price(0, card("Fortifications")) == 0


def test_strategy_on_mausoleum_follows_the_data_file(monkeypatch):
    """§0 / P15 [I-H]: the inferred ruling is correctable in the data file - with strategy_on_mausoleum false the
    rebuilt Palisade gives only its printed shield."""
    monkeypatch.setitem(C.rules, "strategy_on_mausoleum", False)
    s = _mausoleum_state(["Palisade"], age=3, tokens=(["Strategy"], []))
    build_wonder(s, "The Mausoleum")
    s.apply_action(act(s, "mausoleum", card("Palisade")))
    assert pawn(s) == 1


def test_mausoleum_science_pair_gives_a_token():
    """P10: "a science pair gives a progress token": rebuilding the Scriptorium next to an own Library."""
    s = _mausoleum_state(["Scriptorium"], more=["Library"])
    build_wonder(s, "The Mausoleum")
    s.apply_action(act(s, "mausoleum", card("Scriptorium")))
    assert phase(s) == "progress_token" and s.current_player() == 0
    s.apply_action(act(s, "progress", token_id(board(s)[0])))
    assert phase(s) == "play" and s.current_player() == 1


def test_mausoleum_cannot_take_removed_or_tucked_cards():
    """HU Mauzóleum "Megjegyzés: a ... dobozba visszarakott kártyák nem számítanak az eldobott lapok közé", P10, P21:
    neither a card removed at setup nor a card tucked under a wonder can be rebuilt."""
    s = _mausoleum_state(["Tavern"], wonders1=["The Pyramids"], built=([], ["The Pyramids (Baths)"]),
                         extra_lines=["removed from Age I: Altar, Stable, Workshop"])
    assert sorted(listed(s, "removed from Age I")) == ["Altar", "Stable", "Workshop"]
    assert wonder_entry(s, 1, "The Pyramids")["card"] == card("Baths")
    build_wonder(s, "The Mausoleum")
    assert legal_args(s, "mausoleum") == [card("Tavern")]
    for x in (card("Baths"), card("Altar")):
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
    s = state(age=2, coins=(30, 7), wonders=(["The Statue of Zeus"], []),
              city=([], ["Quarry", "Sawmill", "Glassworks"]))
    assert s.unit_price(0, WOOD) == 4
    build_wonder(s, "The Statue of Zeus")
    assert pawn(s) == 1
    assert phase(s) == "destroy" and s.current_player() == 0
    assert s.observation(None)["destroy_color"] == "brown"
    assert legal_args(s, "destroy") == sorted([card("Quarry"), card("Sawmill")])
    with pytest.raises(IllegalActionError, match="P12"):
        s.apply_action(act(s, "destroy", card("Glassworks")))
    s.apply_action(act(s, "destroy", card("Sawmill")))
    assert "Sawmill" not in city(s, 1) and "Sawmill" in discard_pile(s)
    assert s.unit_price(0, WOOD) == 2 and s.unit_price(0, STONE) == 3
    assert phase(s) == "play" and s.current_player() == 1
    assert s.score_breakdown(0)["wonders"] == 3


def test_circus_maximus_destroys_a_grey_card():
    """HU Circus Maximus, P12: one of the opponent's grey cards (not brown) to the discard pile; 1 shield."""
    s = state(age=2, player=1, coins=(7, 30), wonders=([], ["Circus Maximus"]),
              city=(["Glassworks", "Press", "Quarry"], []))
    build_wonder(s, "Circus Maximus")
    assert pawn(s) == -1 and phase(s) == "destroy"
    assert legal_args(s, "destroy") == sorted([card("Glassworks"), card("Press")])
    s.apply_action(act(s, "destroy", card("Press")))
    assert s.unit_price(1, PAPYRUS) == 2 and s.unit_price(1, GLASS) == 3
    assert discard_pile(s) == ["Press"]


def test_destruction_skipped_without_target_but_the_shield_counts():
    """P12 (FRO): with no valid target the destruction is skipped, but the shield and the VP still count."""
    s = state(age=1, coins=(30, 7), wonders=(["The Statue of Zeus"], []), city=([], ["Glassworks"]))
    build_wonder(s, "The Statue of Zeus")
    assert pawn(s) == 1
    assert phase(s) == "play" and s.current_player() == 1
    assert s.score_breakdown(0)["wonders"] == 3 and s.score_breakdown(0)["military"] == 2


def test_zeus_shield_loots_and_then_destroys():
    """P12 "Looting and the destruction step must both resolve correctly when the shield loots a token"."""
    s = state(age=2, coins=(30, 7), wonders=(["The Statue of Zeus"], []), city=([], ["Quarry"]), pawn=2)
    build_wonder(s, "The Statue of Zeus")
    assert pawn(s) == 3 and coins(s)[1] == 5
    assert phase(s) == "destroy"
    s.apply_action(act(s, "destroy", card("Quarry")))
    assert city(s, 1) == [] and s.current_player() == 1


def test_zeus_military_win_skips_the_destruction():
    """P12 [I-H] (BGA): a Zeus shield that wins ends the game at once."""
    s = state(age=2, coins=(30, 7), wonders=(["The Statue of Zeus"], []), city=([], ["Quarry"]), pawn=8)
    build_wonder(s, "The Statue of Zeus")
    assert phase(s) == "end" and result(s)["winner"] == 0
    assert "Quarry" in city(s, 1)


def test_destroyed_card_can_be_rebuilt_by_the_mausoleum():
    """P10, P12: cards removed by the Statue of Zeus go to the discard pile, so the Mausoleum can take them."""
    s = state(age=2, coins=(30, 30), wonders=(["The Statue of Zeus"], ["The Mausoleum"]), city=([], ["Sawmill"]),
              spare=2)
    build_wonder(s, "The Statue of Zeus")
    s.apply_action(act(s, "destroy", card("Sawmill")))
    build_wonder(s, "The Mausoleum")
    assert legal_args(s, "mausoleum") == [card("Sawmill")]
    s.apply_action(act(s, "mausoleum", card("Sawmill")))
    assert "Sawmill" in city(s, 1) and s.unit_price(0, WOOD) == 4


# ==============================================================================================
# 13. Age III yellow cards (P19; §10 #19)
# ==============================================================================================
def test_lighthouse_counts_itself():
    """§10 #19 (BGA, IND, DFO, FRO), P19: the Lighthouse built with 4 other yellow cards gives +5 (itself
    included); with the Tavern it is free (amphora chain)."""
    s = state(age=3, city=(["Tavern", "Stone Reserve", "Forum", "Brewery"],
                           ["Clay Reserve", "Wood Reserve", "Customs House", "Caravansery", "Arena"]),
              accessible=["Lighthouse"])
    construct(s, "Lighthouse")
    assert coins(s)[0] == 12
    assert s.score_breakdown(0)["yellow"] == 3


@pytest.mark.parametrize("name,mine,theirs,gain", [
    # 4 grey cards exist: 1 own against 3 (the old vector, 2 against 3, had a Glassworks in both cities)
    ("Chamber of Commerce", ["Press"], ["Glassworks", "Glassblower", "Drying Room"], 3),
    ("Port", ["Lumber Yard", "Quarry", "Clay Pool"], ["Sawmill", "Brickyard", "Shelf Quarry", "Stone Pit"], 6),
    ("Armory", ["Guard Tower", "Walls"], ["Stable", "Garrison", "Palisade"], 2),
])
def test_age_iii_yellow_cards_count_the_own_city(name, mine, theirs, gain):
    """P19 (BGA, IND, DFO, FRO): when built, Chamber of Commerce 3 per own grey card, Port 2 per own brown card,
    Armory 1 per own red card - the opponent's cards do not count; each is worth 3 VP."""
    s = state(age=3, coins=(40, 7), city=(mine, theirs), accessible=[name])
    price = s.card_price(0, card(name))
    construct(s, name)
    assert coins(s)[0] == 40 - price + gain
    assert s.score_breakdown(0)["yellow"] == 3


def test_arena_2_coins_per_own_built_wonder():
    """P19, §4.3 Arena: +2 coins per wonder the builder has built (the opponent's do not count); with the Brewery
    it is free (barrel chain)."""
    theirs = ["The Colossus", "Piraeus", "The Appian Way"]
    s = state(age=3, city=(["Brewery"], []), built=(["The Pyramids", "The Great Lighthouse"], theirs),
              accessible=["Arena"])
    construct(s, "Arena")
    assert coins(s)[0] == 11


# ==============================================================================================
# 14. Seven wonders only (HU "7 csoda, eggyel sem több!"; P8)
# ==============================================================================================
def test_the_seventh_wonder_removes_the_last_unbuilt_one():
    """HU example: Miska builds the Colossus, the 7th wonder of the game (Borcsa built 4, Miska 3): Miska puts the
    Pyramids back in the box; no wonder can be built afterwards."""
    mine = ["The Colossus", "The Pyramids", "The Sphinx", "The Great Lighthouse"]
    theirs = ["Piraeus", "The Appian Way", "Circus Maximus", "The Mausoleum"]
    s = state(age=3, coins=(40, 7), wonders=(mine, theirs), built=(["The Sphinx", "The Great Lighthouse"], theirs),
              spare=3)
    assert s.observation(None)["wonders_built"] == 6
    build_wonder(s, "The Colossus")
    assert s.observation(None)["wonders_built"] == 7
    assert wonder_entry(s, 0, "The Pyramids")["removed"]
    assert "duel.wonder_removed" in kinds(s)
    opponent_passes(s)
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
LIBRARY_KW = dict(age=1, coins=(30, 7), wonders=(["The Great Library"], []),
                  board=["Agriculture", "Architecture", "Philosophy", "Strategy", "Theology"],
                  box=["Mathematics", "Economy", "Urbanism", "Masonry", "Law"])


def test_great_library_draws_3_from_the_box_and_keeps_1():
    """HU Nagy könyvtár, P11, P24: 3 tokens drawn from the 5 boxed at setup (never from the board), one kept, two
    returned to the box; only the builder sees the drawn tokens (observation and log); 4 VP."""
    s = state(**LIBRARY_KW)
    build_wonder(s, "The Great Library")
    assert phase(s) == "library" and s.current_player() == 0
    drawn = sorted(token_id(t) for t in ("Mathematics", "Economy", "Urbanism"))
    assert legal_args(s, "progress") == drawn
    assert board(s) == LIBRARY_KW["board"]
    assert s.observation(0)["library_draw"] == drawn
    assert s.observation(1)["library_draw"] == [] and s.observation(None)["library_draw"] == []
    mine = [e for e in s.log_for(0) if e.kind == "duel.library_draw"]
    assert len(mine) == 1 and mine[0].data["tokens"] == drawn
    assert not [e for e in s.log_for(1) if e.kind == "duel.library_draw"]
    assert not [e for e in s.log_for(None) if e.kind == "duel.library_draw"]
    with pytest.raises(IllegalActionError, match="P11"):
        s.apply_action(act(s, "progress", token_id("Agriculture")))
    s.apply_action(act(s, "progress", token_id("Urbanism")))
    assert tokens_of(s, 0) == ["Urbanism"] and coins(s)[0] == 30 - 10 + 6    # 5 units bought at 2, then +6
    assert sorted(listed(s, "progress tokens in the box")) == ["Economy", "Law", "Masonry", "Mathematics"]
    assert len(board(s)) == 5
    assert phase(s) == "play" and s.current_player() == 1
    assert s.score_breakdown(0)["wonders"] == 4


def test_great_library_resample_hides_the_draw_from_the_opponent_only():
    """P11, P24 ("Hidden: ... the Great Library tokens not chosen"; only the builder sees the draw): resampling for
    the opponent redraws the 3 tokens among the 5 boxed ones (in the state and in the builder's private log event)
    and leaves the opponent's observation unchanged; resampling for the builder keeps the draw."""
    s = state(**LIBRARY_KW)
    boxed = sorted(LIBRARY_KW["box"])
    build_wonder(s, "The Great Library")
    drawn = sorted(listed(s, "library draw"))
    varied = 0
    for k in range(12):
        mine = s.resample(0, Rng(k))
        assert sorted(listed(mine, "library draw")) == drawn and mine.observation(0) == s.observation(0)
        r = s.resample(1, Rng(k))
        assert r.observation(1) == s.observation(1)
        r_draw = listed(r, "library draw")
        assert len(r_draw) == 3 and sorted(r_draw + listed(r, "progress tokens in the box")) == boxed
        assert board(r) == board(s)
        events = [e for e in r.log if e.kind == "duel.library_draw"]
        assert len(events) == 1 and events[0].data["tokens"] == sorted(token_id(t) for t in r_draw)
        varied += sorted(r_draw) != drawn
    assert varied > 0
    assert [e.data["tokens"] for e in s.log if e.kind == "duel.library_draw"] == [sorted(map(token_id, drawn))]
    # once resolved, the kept token is public; the two returned ones stay hidden from the opponent
    kept = token_id(drawn[1])
    s.apply_action(act(s, "progress", kept))
    seen = set()
    for k in range(12):
        r = s.resample(1, Rng(k))
        (e,) = [e for e in r.log if e.kind == "duel.library_draw"]
        assert kept in e.data["tokens"] and len(e.data["tokens"]) == 3
        assert set(e.data["tokens"]) - {kept} <= {token_id(t) for t in listed(r, "progress tokens in the box")}
        assert r.observation(1) == s.observation(1)
        seen.add(tuple(e.data["tokens"]))
    assert len(seen) > 1


# ==============================================================================================
# 16. Progress tokens (HU "Fejlődéskorong"; ref §4.6, P15)
# ==============================================================================================
def _pair_then_take(token: str, coins=(7, 7), **kw):
    """Seat 0 completes a quill pair (Library after Scriptorium) and takes ``token`` from the board."""
    s = state(age=2, coins=coins, board=sorted({token, "Agriculture", "Philosophy", "Strategy", "Urbanism"})[:5],
              city=(["Scriptorium"], []), accessible=["Library"], **kw)
    construct(s, "Library")
    s.apply_action(act(s, "progress", token_id(token)))
    return s


def test_agriculture_6_coins_and_4_vp():
    """HU Mezőgazdaság: 6 coins at once, 4 VP."""
    s = _pair_then_take("Agriculture")
    assert coins(s)[0] == 13
    assert s.score_breakdown(0)["progress"] == 4


def test_urbanism_6_coins_at_once():
    """HU Urbanizmus: 6 coins at once."""
    s = _pair_then_take("Urbanism")
    assert coins(s)[0] == 13 and s.score_breakdown(0)["progress"] == 0


def test_philosophy_7_vp_and_mathematics_counts_itself():
    """HU Filozófia (7 VP), Matematika (3 VP per owned token, this one included)."""
    assert state(tokens=(["Mathematics"], [])).score_breakdown(0)["progress"] == 3
    s = state(tokens=(["Mathematics", "Philosophy", "Law"], []))
    assert s.score_breakdown(0)["progress"] == 7 + 3 * 3
    s = state(tokens=(["Mathematics", "Philosophy", "Law", "Agriculture"], []))
    assert s.score_breakdown(0)["progress"] == 7 + 4 + 3 * 4


def test_law_is_a_science_symbol():
    """HU Törvény: the token counts as a science symbol."""
    s = state(age=2, board=["Law", "Agriculture", "Philosophy", "Strategy", "Urbanism"], city=(["Scriptorium"], []),
              accessible=["Library"])
    construct(s, "Library")
    assert s.science_symbols(0) == 1
    s.apply_action(act(s, "progress", token_id("Law")))
    assert s.science_symbols(0) == 2
    assert "law_scales" in s.observation(None)["players"][0]["science"]


def test_strategy_one_more_shield_for_red_cards_only():
    """HU Stratégia (with its example: a 2-shield building moves 3), P15: +1 shield for each red card built later;
    not for wonders; not retroactive (taking it moves nothing)."""
    s = state(age=2, coins=(30, 7), wonders=(["The Colossus"], []),
              city=(["Guard Tower", "Scriptorium", "Lumber Yard", "Quarry", "Press"], []),
              board=["Strategy", "Agriculture", "Philosophy", "Theology", "Urbanism"],
              accessible=["Library", "Archery Range"], spare=3)
    construct(s, "Library")
    s.apply_action(act(s, "progress", token_id("Strategy")))
    assert pawn(s) == 0                              # not retroactive
    opponent_passes(s, "Archery Range")
    construct(s, "Archery Range")                   # 2 shields + 1
    assert pawn(s) == 3
    opponent_passes(s)
    build_wonder(s, "The Colossus")
    assert pawn(s) == 5                              # the wonder's 2 shields only


def test_theology_taken_then_wonders_replay():
    """HU Teológia: taken on a pair, then a wonder without "play again" gives another turn."""
    s = _pair_then_take("Theology", coins=(40, 7), wonders=(["The Colossus"], []), spare=2)
    opponent_passes(s)
    build_wonder(s, "The Colossus")
    assert s.current_player() == 0


# ==============================================================================================
# 17. Wonder draft and first-game wonders (HU "A csodák kiválasztása"; §6.2)
# ==============================================================================================
def held_wonders(s, p: int) -> list[int]:
    return [w["wonder"] for w in s.observation(None)["players"][p]["wonders"]]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_wonder_draft_order(seed):
    """HU, §6.2: 4 wonders revealed, the first player takes 1, the second 2, the first the last; 4 more: the second
    takes 1, the first 2, the second the last (F, S, S, F then S, F, F, S); 4 wonders each, 4 unused; then the
    first player starts Age I."""
    s = load_game("seven_wonders_duel").new_initial_state(seed)
    f = s.observation(None)["first_player"]
    order = [f, 1 - f, 1 - f, f, 1 - f, f, f, 1 - f]
    seen = []
    for k, who in enumerate(order):
        assert phase(s) == "draft" and s.current_player() == who
        pool = legal_args(s, "draft")
        assert len(pool) == 4 - k % 4
        if k % 4 == 0:
            seen.append(set(pool))
        hidden = next(w for w in range(12) if w not in pool)
        with pytest.raises(IllegalActionError, match="§6.2"):
            s.apply_action(act(s, "draft", hidden))
        s.apply_action(act(s, "draft", pool[-1]))
    assert len(held_wonders(s, 0)) == len(held_wonders(s, 1)) == 4
    assert set(held_wonders(s, 0)) | set(held_wonders(s, 1)) == seen[0] | seen[1]
    assert len(seen[0] | seen[1]) == 8
    o = s.observation(None)
    assert o["age"] == 1 and o["phase"] == "play" and o["current_player"] == f


def test_first_game_fixed_wonders():
    """HU "A legelső játékok során": player 1 takes the Pyramids, Great Lighthouse, Temple of Artemis, Statue of
    Zeus; player 2 Circus Maximus, Piraeus, Appian Way, Colossus; Age I starts at once."""
    for seed in (0, 1, 2):
        s = game(first_game_wonders=True).new_initial_state(seed)
        first = s.observation(None)["first_player"]
        names = [{C.wonders[w].name for w in held_wonders(s, p)} for p in (0, 1)]
        assert names[first] == {"The Pyramids", "The Great Lighthouse", "The Temple of Artemis",
                                "The Statue of Zeus"}
        assert names[1 - first] == {"Circus Maximus", "Piraeus", "The Appian Way", "The Colossus"}
        o = s.observation(None)
        assert o["age"] == 1 and o["phase"] == "play" and o["current_player"] == first


def test_setup_numbers():
    """HU "A játék előkészületei", §6.1/§6.3: 7 coins each, pawn on 0, 4 military tokens, 5 tokens on the board
    and 5 in the box, 3 cards removed from each age, 3 guilds in Age III (the written position shows the hidden
    parts)."""
    s = game(first_game_wonders=True).new_initial_state(5)
    o = s.observation(None)
    assert coins(s) == [7, 7] and pawn(s) == 0 and o["conflict"]["tokens"] == [[True, True], [True, True]]
    box = listed(s, "progress tokens in the box")
    assert len(board(s)) == 5 and len(box) == 5 and sorted(map(token_id, board(s) + box)) == ALL_TOKENS
    assert [len(listed(s, f"removed from Age {r}")) for r in ("I", "II", "III")] == [3, 3, 3]
    decks = {2: listed(s, "Age II deck"), 3: listed(s, "Age III deck")}
    assert sum(1 for n in decks[3] if C.cards[card(n)].guild) == 3 and len(listed(s, "guilds in the box")) == 4
    for a, roman in ((2, "II"), (3, "III")):
        assert len(decks[a]) == 20
        pool = decks[a] + listed(s, f"removed from Age {roman}") + (listed(s, "guilds in the box") if a == 3 else [])
        assert sorted(map(card, pool)) == sorted(C.age_cards[a] + (C.guilds if a == 3 else ()))
    # Age I is on the table: its 20 cards (12 face up, 8 face down) and the 3 removed make the deck
    age1 = [n for n, _ in slots(s) if n] + listed(s, "removed from Age I")
    assert sorted(map(card, age1)) == sorted(C.age_cards[1])


# ==============================================================================================
# 18. Who starts the next age (HU; P1 erratum; option next_age_chooser)
# ==============================================================================================
def test_weaker_player_chooses_who_starts_the_next_age():
    """HU "A gyengébb katonai erővel rendelkező játékos dönti el", P1: the pawn on seat 1's side -> seat 1 chooses
    (even though seat 0 took the last card), and may let seat 0 start."""
    s = state(age=1, only="Lumber Yard", pawn=2)
    discard(s, "Lumber Yard")
    o = s.observation(None)
    assert o["age"] == 2 and o["phase"] == "choose_starter" and o["current_player"] == 1
    assert [a.kind for a in s.legal_actions()] == ["start", "start"]
    s.apply_action(act(s, "start", 0))
    assert phase(s) == "play" and s.current_player() == 0
    t = state(age=2, player=1, only="Sawmill", pawn=-3)
    discard(t, "Sawmill")
    o = t.observation(None)
    assert o["age"] == 3 and o["phase"] == "choose_starter" and o["current_player"] == 0


def test_pawn_in_the_centre_last_taker_chooses_erratum():
    """P1 (erratum, @AntoineReposProd 2016-05-19): with the pawn at 0 the player who took the last card chooses."""
    s = state(age=1, player=1, only="Lumber Yard")
    discard(s, "Lumber Yard")
    assert phase(s) == "choose_starter" and s.current_player() == 1
    s.apply_action(act(s, "start", 0))
    o = s.observation(None)
    assert o["current_player"] == 0 and o["phase"] == "play" and o["age"] == 2


def test_pawn_in_the_centre_last_taker_starts_first_print():
    """HU ("a következő kort az kezdi, aki utoljára hajtott végre akciót"), P1 first printing, option
    next_age_chooser='first_print': the last taker simply starts."""
    opts = {"next_age_chooser": "first_print"}
    s = state(options=opts, age=1, player=1, only="Lumber Yard")
    discard(s, "Lumber Yard")
    o = s.observation(None)
    assert o["age"] == 2 and o["phase"] == "play" and o["current_player"] == 1
    t = state(options=opts, age=1, player=1, only="Lumber Yard", pawn=-1)
    discard(t, "Lumber Yard")
    assert phase(t) == "choose_starter" and t.current_player() == 0


# ==============================================================================================
# 19. End of the game (HU "A játék vége és a győztes"; §6.7, §7, P22)
# ==============================================================================================
def _final_turn(city0, city1, coins=(0, 1)):
    """Seat 0 to take the last card of Age III (the Pretorium) with these cities."""
    return state(age=3, coins=coins, city=(city0, city1), only="Pretorium")


def test_civilian_victory_most_vp():
    """HU "Polgári győzelem": after Age III the player with most VP wins."""
    s = _final_turn(["Palace", "Academy"], ["Town Hall"])
    discard(s, "Pretorium")
    assert phase(s) == "end" and result(s)["winner"] == 0 and s.returns() == [1.0, 0.0]
    assert s.scores() == [10, 7]
    assert result(s)["victory"] == "civilian"


def test_civilian_tie_broken_by_blue_vp():
    """HU "Döntetlen esetén az nyeri meg a játékot, akinek a polgári épületeiből (kék kártyák) több pontja van",
    P22: 7 VP each; seat 1 has 7 blue VP against 5 and wins."""
    s = _final_turn(["Obelisk", "Library"], ["Palace"])
    discard(s, "Pretorium")
    assert s.scores() == [7, 7]
    assert result(s)["winner"] == 1 and s.returns() == [0.0, 1.0] and s.ranking() == [1, 0]


def test_complete_tie_is_a_shared_victory():
    """HU "Ha továbbra is döntetlen áll fenn, a játékosok osztoznak a győzelemben", P22, §9 (not the non-starter):
    equal VP and equal blue VP -> shared victory, returns [0.5, 0.5]."""
    s = _final_turn(["Palace"], ["Town Hall"])
    discard(s, "Pretorium")
    assert s.scores() == [7, 7]
    assert phase(s) == "end" and result(s)["winner"] is None
    assert s.returns() == [0.5, 0.5]
    assert result(s)["victory"] == "shared"


def test_pair_with_the_last_card_of_age_iii_token_then_civilian_end():
    """P16 + §6.7: a pair completed with the last card of Age III: the token is chosen, then the civilian scoring
    ends the game (Philosophy's 7 VP counted)."""
    s = state(age=3, coins=(0, 0), board=["Philosophy", "Agriculture"],
              city=(["Academy", "Lumber Yard", "Logging Camp", "Glassworks", "Press"], []), only="Study")
    construct(s, "Study")
    assert phase(s) == "progress_token" and not s.is_terminal()
    s.apply_action(act(s, "progress", token_id("Philosophy")))
    assert phase(s) == "end" and result(s)["winner"] == 0 and result(s)["victory"] == "civilian"
    assert s.scores() == [3 + 3 + 7, 0]


def test_score_breakdown_categories():
    """§7, HU scoring list: military + blue + green + yellow + purple + wonders + progress + coins/3; the categories
    sum to scores()."""
    s = state(age=3, coins=(10, 5), city=(["Palace", "Library", "Port", "Magistrates Guild"], ["Theater", "Altar"]),
              built=(["The Pyramids"], []), tokens=(["Philosophy"], []), pawn=4)
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
    assert s.outcome() in ("civilian", "military", "science", "shared")
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
    s = state(age=1)
    top = s.observation(0)["structure"][0]      # row 1: face up, covered
    assert top["face_up"] and not top["accessible"]
    covered = top["card"]
    for kind, arg in (("construct", covered), ("discard", covered),
                      ("wonder", held_wonders(s, 0)[0] * NCARDS + covered)):
        _illegal(s, act(s, kind, arg), "not an accessible card")


def test_illegal_construct_unaffordable():
    """HU "Kereskedelem", P2: the Aqueduct at 12 coins with 11 cannot be constructed; the message gives the price."""
    s = state(age=2, coins=(11, 7), city=([], ["Quarry", "Stone Pit"]), accessible=["Aqueduct"])
    err = _illegal(s, act(s, "construct", card("Aqueduct")), "costs 12 coins")
    assert "P2" in str(err)


def test_illegal_wonder_not_owned_or_unaffordable():
    """§6.2/§6.4: only one's own wonders can be built, and only when their price can be paid (P2)."""
    s = state(age=1, coins=(0, 7), wonders=(["The Pyramids"], ["The Sphinx"]))
    x = s.accessible_cards()[0]
    _illegal(s, act(s, "wonder", wonder_id("The Sphinx") * NCARDS + x), "not one of North's wonders")
    _illegal(s, act(s, "wonder", wonder_id("The Pyramids") * NCARDS + x), "P2")


def test_illegal_wrong_kind_for_the_phase_and_game_over():
    """Turn structure (§6.4, P16): a card action during a token choice is illegal (the message says what is
    expected); nothing is legal at the end."""
    s = state(age=2, coins=(10, 7), city=(["Scriptorium"], []), accessible=["Library"])
    construct(s, "Library")
    assert phase(s) == "progress_token"
    expected = "Age II: now North must take a progress token from the board"
    _illegal(s, act(s, "discard", s.accessible_cards()[0]), expected)
    _illegal(s, act(s, "start", 0), expected)
    t = _final_turn(["Palace"], ["Town Hall"])
    discard(t, "Pretorium")
    _illegal(t, act(t, "discard", card("Palace")), "game is over")
    assert t.legal_actions() == []


def test_illegal_wonder_already_built():
    """§4.8 / P8: a built wonder cannot be built again."""
    s = state(age=1, coins=(30, 7), wonders=(["The Pyramids", "The Sphinx"], []), built=(["The Pyramids"], []))
    x = s.accessible_cards()[0]
    _illegal(s, act(s, "wonder", wonder_id("The Pyramids") * NCARDS + x), "The Pyramids is already built")


def test_illegal_destroy_choices():
    """P12: during the destruction only an opponent's card of the wonder's colour can be chosen; no other kind of
    action (Mausoleum, start) is legal then."""
    s = state(age=2, coins=(30, 7), wonders=(["The Statue of Zeus"], []),
              city=(["Clay Pool"], ["Quarry", "Press"]))
    build_wonder(s, "The Statue of Zeus")
    _illegal(s, act(s, "destroy", card("Press")), "P12")
    _illegal(s, act(s, "destroy", card("Clay Pool")), "P12")
    expected = "now North must put one of the opponent's cards into the discard pile"
    _illegal(s, act(s, "mausoleum", card("Quarry")), expected)
    _illegal(s, act(s, "start", 1), expected)


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
        names = pool[:]
        rng.shuffle(names)
        mine, theirs = names[:rng.randbelow(7)], names[10:10 + rng.randbelow(8)]
        my_wonders = [w for w in ("The Great Lighthouse", "Piraeus") if rng.randbelow(2)]
        tokens = [t for t, bit in (("Masonry", rng.randbelow(2)), ("Architecture", rng.randbelow(2))) if bit]
        s = state(age=3, coins=(99, 99), city=(mine, theirs), built=(my_wonders, []), tokens=(tokens, []))
        masonry, architecture = "Masonry" in tokens, "Architecture" in tokens
        for name in targets:
            d = ref_cards[name]
            if s.chained(0, card(name)):
                continue
            reduce = 2 if d["color"] == "blue" and masonry else 0
            expect = d["cost"]["coins"] + _ref_price(ref_cards, ref_wonders, mine, theirs, my_wonders,
                                                     d["cost"]["resources"], reduce)
            assert s.card_price(0, card(name)) == expect, (k, name, mine, theirs, my_wonders, tokens)
        for d in ref["wonders"]:
            reduce = 2 if architecture else 0
            expect = _ref_price(ref_cards, ref_wonders, mine, theirs, my_wonders, d["cost"]["resources"], reduce)
            assert s.wonder_price(0, wonder_id(d["name"])) == expect, (k, d["name"])


# ==============================================================================================
# 22. More worked examples of HU
# ==============================================================================================
def test_hu_production_example_baths_and_garrison_but_not_apothecary():
    """HU "Termelés" example: Miska produces 1 stone, 3 clay and 1 papyrus: he can build the Baths (1 stone) or
    the Garrison (1 clay) from his production, but not the Apothecary (1 glass) without trading."""
    s = state(age=2, coins=(0, 7), city=(["Quarry", "Clay Pool", "Brickyard", "Press"], []))
    assert s.observation(None)["players"][0]["production"] == {"wood": 0, "clay": 3, "stone": 1, "glass": 0,
                                                                "papyrus": 1}
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
    s = state(age=3, coins=(8, 7), wonders=(["The Colossus"], []), accessible=["Palace"])
    assert s.card_price(0, card("Palace")) > 8
    assert card("Palace") not in legal_args(s, "construct")
    assert s.wonder_price(0, wonder_id("The Colossus")) == 8
    build_wonder(s, "The Colossus", "Palace")
    assert coins(s)[0] == 0 and pawn(s) == 2
    assert wonder_entry(s, 0, "The Colossus")["card"] == card("Palace")
    assert "Palace" not in city(s, 0) and "Palace" not in discard_pile(s)
    assert card("Palace") not in [x["card"] for x in s.observation(None)["structure"]]
    assert s.score_breakdown(0)["blue"] == 0 and s.score_breakdown(0)["wonders"] == 3


def test_appian_way_and_hanging_gardens_coins():
    """HU Via Appia (+3 coins, the opponent loses 3, P13 capped at the coins held) and A függőkertek (+6)."""
    s = state(age=1, coins=(30, 2), wonders=(["The Appian Way", "The Hanging Gardens"], []))
    price = s.wonder_price(0, wonder_id("The Appian Way"))
    build_wonder(s, "The Appian Way")
    assert coins(s) == [30 - price + 3, 0]
    assert s.current_player() == 0
    c0 = coins(s)[0]
    price = s.wonder_price(0, wonder_id("The Hanging Gardens"))
    build_wonder(s, "The Hanging Gardens")
    assert coins(s)[0] == c0 - price + 6


def test_great_lighthouse_and_piraeus_produce_for_their_owner():
    """HU A nagy világítótorony / Pireusz: one of wood/clay/stone (glass/papyrus) each turn for the owner."""
    assert state(age=2).card_price(0, card("Rostrum")) == 4
    s = state(age=2, built=(["The Great Lighthouse"], []))
    assert s.card_price(0, card("Rostrum")) == 2
    assert s.card_price(0, card("Temple")) == 2
    s = state(age=2, built=(["The Great Lighthouse", "Piraeus"], []))
    assert s.card_price(0, card("Temple")) == 0


def test_progress_token_must_be_taken_by_default():
    """§11.2 PROJECT DEFAULT [I-H] (board.yaml progress_token_must_be_taken, status "inferred"): on a pair the
    player must take one of the board tokens; declining is illegal."""
    assert C.rules["progress_token_must_be_taken"] is True
    s = state(age=2, coins=(10, 7), city=(["Scriptorium"], []), accessible=["Library"])
    construct(s, "Library")
    assert {a.kind for a in s.legal_actions()} == {"progress"}
    _illegal(s, act(s, "decline_token", 0), "§11.2")


def test_progress_token_may_be_declined_when_the_data_file_says_so(monkeypatch):
    """§11.2 (HU: the player "may" choose a token): with progress_token_must_be_taken false the pair offers the
    board tokens and a decline; declining takes nothing and the turn passes."""
    monkeypatch.setitem(C.rules, "progress_token_must_be_taken", False)
    s = state(age=2, coins=(10, 7), city=(["Scriptorium"], []), accessible=["Library"])
    before = board(s)
    construct(s, "Library")
    assert {a.kind for a in s.legal_actions()} == {"progress", "decline_token"}
    s.apply_action(act(s, "decline_token", 0))
    assert tokens_of(s, 0) == [] and board(s) == before
    assert phase(s) == "play" and s.current_player() == 1


def test_pair_with_the_last_card_of_an_age_then_the_next_age():
    """P16 + §6.6: a pair completed with the last card of Age II: the token is chosen first, then the age ends
    (the pawn on seat 0's side: seat 0 chooses who starts Age III)."""
    s = state(age=2, coins=(10, 7), city=(["Scriptorium"], []), only="Library", pawn=-1)
    construct(s, "Library")
    assert phase(s) == "progress_token" and s.observation(None)["age"] == 2
    s.apply_action(act(s, "progress", token_id(board(s)[0])))
    o = s.observation(None)
    assert o["age"] == 3 and o["phase"] == "choose_starter" and o["current_player"] == 0
