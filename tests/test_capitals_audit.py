"""The Capitals: the rules an audit against the rulebooks found wrong (issue 9, part 1), one test each.

Every position is built from text (``game.state_from_position``, notation in
``citygames/games/the_capitals/position.py``) and played on with legal actions only.
Sources: HU = shared/rulebooks/the_capitals.hu.txt, IT = shared/rulebooks/the_capitals.it_en.txt,
"ref §N" = shared/reference/the_capitals.md.
"""

from __future__ import annotations

import pytest

import citygames
from citygames.games.the_capitals.components import PS, components

C = components()


def game(players: int = 3, prosperity: bool = False):
    return citygames.load_game("the_capitals", num_players=players, prosperity=prosperity)


def position(text: str, players: int = 3, prosperity: bool = False):
    header = f"game: the_capitals players={players}" + (" prosperity=yes" if prosperity else "")
    return game(players, prosperity).state_from_position(header + "\n" + text)


def act(s, kind: str, arg: int = 0):
    return s.game.action_space.get(kind, arg)


def slot(s, x: int, y: int) -> int:
    return s.game.slot_at(x, y)


def kinds(s) -> list[str]:
    return [a.kind for a in s.legal_actions()]


# ----------------------------------------------------------------------------------------------
# Final tie-break: the cubes left after the exchange (IT "Punteggio finale")
# ----------------------------------------------------------------------------------------------
FINAL = """seed: 1
round: 12
phase: final scoring
green: prestige 0 cubes 8 money 1 culture 0 progress 0 space 2
red: prestige 2 cubes 3 money 1 culture 0 progress 0 space 3
blue: prestige -9 cubes 0 money 1 culture 0 progress 0 space 4
"""


def test_final_tie_broken_by_cubes_left_after_the_exchange():
    """IT "1 per ogni 4 [cubi] presenti sulle proprie centrali elettriche, rimetti i cubi scambiati nella
    riserva" and "In caso di parità, il giocatore che ha più cubetti di energia rimasti è il vincitore":
    8 cubes give 2 prestige and leave 0, 3 cubes give 0 and stay; at 2 prestige each, the 3 cubes left win."""
    s = position(FINAL)
    assert s.is_terminal()
    green, red = 0, 1
    assert s.scores()[:2] == [2, 2]
    assert s.track(green, "cubes") == 0 and s.track(red, "cubes") == 3   # exchanged cubes went back
    assert s.ranking()[:2] == [red, green]
    assert s.returns() == [0.0, 1.0, 0.0]
    assert s.score_breakdown(green)["energy_cubes"] == 2
    text = [e.text for e in s.log_for(None) if e.kind == "capitals.final_scoring"]
    assert any(t.startswith("Final scoring, Green:") and "cubes +2 (0 left)" in t for t in text)
    assert s.observation(None)["players"][green]["plant"]["cubes"] == 0


# ----------------------------------------------------------------------------------------------
# Technology Park may activate the Convention Center (IT appendix, Technology Park)
# ----------------------------------------------------------------------------------------------
TECH_PARK = """seed: 2
round: 11
phase: prosperity
to move: red
decision: place technology_park
red: money 10 culture 4 population 4 employment 2
red city: hotel@0,0 city_hall@1,0 convention_center@0,1 park@-1,1
"""


def test_technology_park_may_activate_an_adjacent_convention_center():
    """IT appendix, Technology Park: "activate 1 adjacent building tile for free" — the Convention
    Center is a building tile with an activation, so it is a target; its own free activation follows
    (ref §10 #8 PROJECT DEFAULT: a free activation pays the target's effect)."""
    s = position(TECH_PARK, prosperity=True)
    red = 1
    tp, cc = slot(s, 1, 1), slot(s, 0, 1)
    assert act(s, "place", tp) in s.legal_actions()
    s.apply_action(act(s, "place", tp))
    assert s.expects() == "prosperity: now Red must choose a tile to activate for free"
    targets = [a.arg for a in s.legal_actions() if a.kind == "free_activate"]
    assert cc in targets
    assert cc in s.free_targets(red, tp)
    s.apply_action(act(s, "free_activate", cc))
    # the Convention Center's free activation of one of its own neighbours is offered next
    assert s.expects() == "prosperity: now Red must choose a tile to activate for free"
    assert s.observation(red)["pending"]["slot"] == [0, 1]
    assert set(a.arg for a in s.legal_actions() if a.kind == "free_activate") <= set(s.game.neighbours[cc])
    log = [e.text for e in s.log_for(red)]
    assert any("Convention Center" in t and "for free" in t for t in log), log[-3:]


def test_technology_park_may_not_activate_the_convention_center_under_the_earlier_reading(monkeypatch):
    """The earlier reading is kept as data (``technology_park_may_activate_convention_center: false``)."""
    monkeypatch.setattr(C, "tech_park_may_activate_cc", False)
    s = position(TECH_PARK, prosperity=True)
    tp, cc = slot(s, 1, 1), slot(s, 0, 1)
    s.apply_action(act(s, "place", tp))
    assert cc not in s.free_targets(1, tp)


# ----------------------------------------------------------------------------------------------
# Order of gains in one build: population before employment (HU "tetszőleges sorrendben")
# ----------------------------------------------------------------------------------------------
def test_barrel_factory_next_to_cog_factory_gains_population_before_employment():
    """HU p. 7 "A játékos tetszőleges sorrendben mozgathatja a megadott sávokon a jelölőit" (IT "in
    quale ordine desidera"): with population = employment = 2, a Barrel Factory (+1 population, +3
    employment; +1 population per adjacent industry) next to a Cog Factory gives 4 / 4, not 4 / 3."""
    s = position("""seed: 3
round: 2
phase: building
to move: red
decision: place barrel_factory
red: money 10 population 2 employment 2
red city: hotel@0,0 city_hall@1,0 cog_factory@0,1
""")
    red = 1
    s.apply_action(act(s, "place", slot(s, 1, 1)))
    assert (s.track(red, "population"), s.track(red, "employment")) == (4, 4)
    build = next(e for e in s.log_for(None) if e.kind == "capitals.build")
    assert build.data["changes"]["employment"] == 2 and build.data["changes"]["population"] == 2


# ----------------------------------------------------------------------------------------------
# "Lose X to gain Y" needs X (ref §3; data engine_rules.activation_cost_needs_holding)
# ----------------------------------------------------------------------------------------------
HOTEL_AT = """seed: 4
round: 2
phase: executive
to move: red
decision: activate
red: money 3 culture {culture} cubes 4
"""


def test_hotel_cannot_be_activated_at_culture_zero():
    """The Hotel's activation "lose 1 culture to gain $7": at culture 0 there is no culture to lose,
    so the activation is not offered and is refused naming the rule; at culture 1 it is legal."""
    s = position(HOTEL_AT.format(culture=0))
    hotel = slot(s, 0, 0)
    assert act(s, "activate", hotel) not in s.legal_actions()
    before = s.to_dict()
    with pytest.raises(citygames.IllegalActionError, match="lose what you do not have"):
        s.apply_action(act(s, "activate", hotel))
    assert s.to_dict() == before
    s1 = position(HOTEL_AT.format(culture=1))
    assert act(s1, "activate", hotel) in s1.legal_actions()
    s1.apply_action(act(s1, "activate", hotel))
    if s1.expects().endswith("pay the activation"):
        s1.apply_action(act(s1, "pay_cubes"))
    assert (s1.track(1, "culture"), s1.track(1, "money")) == (0, 10)


def test_hotel_at_culture_zero_under_the_earlier_reading_is_free_money(monkeypatch):
    """The earlier reading stays available as data (``activation_cost_needs_holding: false``): the
    marker stops on the first space, so the Hotel pays $7 for nothing."""
    monkeypatch.setattr(C, "act_cost_needs_holding", False)
    s = position(HOTEL_AT.format(culture=0))
    hotel = slot(s, 0, 0)
    assert act(s, "activate", hotel) in s.legal_actions()


def test_mayors_house_needs_the_public_service_and_culture_it_gives_up():
    """Mayor's House: "pay $12, 1 public service, 2 culture" (IT appendix): the $ may be borrowed (ref
    §12 #19), the public service and culture must be held (data activation_cost_needs_holding)."""
    text = """seed: 5
round: 3
phase: prosperity
to move: red
decision: prosperity
red: money 2 culture {culture} public_service {ps}
red hand: mayors_house
"""
    mayor = C.tile_by_id["mayors_house"].idx
    ok, why = position(text.format(culture=1, ps=0), prosperity=True).requirement_status(1, mayor)
    assert not ok and "2 culture" in why
    ok, why = position(text.format(culture=2, ps=C.track_min[PS]), prosperity=True).requirement_status(1, mayor)
    assert not ok and "1 public service" in why     # public service already at the bottom of its track
    s = position(text.format(culture=2, ps=0), prosperity=True)
    ok, why = s.requirement_status(1, mayor)
    assert ok, why
    s.apply_action(act(s, "prosperity", C.prosperity_tiles.index(mayor)))   # $2 - $12: 4 loans, culture 0, PS -1
    assert (s.track(1, "culture"), s.track(1, "public_service"), s.track(1, "money")) == (0, -1, 2)
    assert s.score_breakdown(1)["loans"] == -4


# ----------------------------------------------------------------------------------------------
# The no-activation reward is the player's choice (HU p. 11 "1 [icon] vagy 1 [icon]")
# ----------------------------------------------------------------------------------------------
def test_no_activation_reward_is_a_choice_of_the_two_rewards():
    """HU "Az a város, aki a körében lemond minden aktiválási lehetőségéről, cserébe kap 1 [icon] vagy 1
    [icon]": ending the turn without activating asks which reward; +1 energy cube (the project default)
    stays one of them."""
    s = position("""seed: 6
round: 2
phase: executive
to move: red
decision: activate
red: money 5 culture 2 cubes 3
""")
    red = 1
    assert "then choose +1 energy cube or +$1" in s.action_to_string(act(s, "end_activations"))
    s.apply_action(act(s, "end_activations"))
    assert s.expects() == "executive: now Red must choose the reward for making no activation"
    assert [s.action_to_string(a) for a in s.legal_actions()] == [
        "no activation this phase: take +1 energy cube", "no activation this phase: take +$1"]
    s.apply_action(act(s, "no_activation_reward", 1))
    assert (s.track(red, "money"), s.track(red, "cubes")) == (6, 3)
    assert any(e.text == "Red makes no activation and gains +$1." for e in s.log_for(None))
    s2 = position("""seed: 6
round: 2
phase: executive
to move: red
decision: reward
red: money 5 culture 2 cubes 3
""")
    s2.apply_action(act(s2, "no_activation_reward", 0))
    assert (s2.track(red, "money"), s2.track(red, "cubes")) == (5, 4)


def test_no_activation_reward_is_asked_when_nothing_can_be_activated():
    """A city with nothing it can activate (no cubes) still chooses its reward before the turn passes."""
    s = position("""seed: 6
round: 2
phase: executive
turn: red
red: money 5 culture 0 cubes 0
""")
    assert s.current_player() == 1
    assert kinds(s) == ["no_activation_reward", "no_activation_reward"]


# ----------------------------------------------------------------------------------------------
# End-game effects in the owner's order (HU/IT: the tracks may be updated in any order)
# ----------------------------------------------------------------------------------------------
def test_before_the_last_expo_the_owner_orders_public_meeting_hall_and_gene_research_lab():
    """Ref §10 #5: Gene Research Lab ("+1 progress per 4 employment") and Public Meeting Hall ("+3
    employment") resolve before the last Expo. Resolved in the owner's order, the Hall's employment
    can count for the Lab: from employment 2, Hall first gives 5 employment and +1 progress."""
    text = """seed: 7
round: 12
phase: before the last world expo
turn: {first}
red: population 9 employment 2 progress 3 space 2
green: space 3
blue: space 4
red city: hotel@0,0 city_hall@1,0 public_meeting_hall@0,1 gene_research_lab@1,1
"""
    s = position(text.format(first="red"), prosperity=True)
    red = 1
    assert s.expects() == "before the last world expo: now Red must choose which end-game effect to resolve next"
    hall, lab = slot(s, 0, 1), slot(s, 1, 1)
    assert sorted(a.arg for a in s.legal_actions()) == sorted([hall, lab])
    lab_first = s.clone()
    s.apply_action(act(s, "resolve_effect", hall))
    assert s.track(red, "employment") == 5 and s.track(red, "progress") == 4
    lab_first.apply_action(act(lab_first, "resolve_effect", lab))
    assert lab_first.track(red, "employment") == 5 and lab_first.track(red, "progress") == 3


def test_end_of_game_effects_the_owner_orders_public_works_office_before_theatre():
    """End of game: Public Works Office (+1 culture per 2 plant cubes) and Theatre (+1 prestige per 4
    culture) interact; the owner chooses, and effects that do not interact resolve by themselves."""
    s = position("""seed: 8
round: 12
phase: final scoring
turn: red
red: culture 3 cubes 2 prestige 0 money 1 progress 0 space 2
green: space 3
blue: space 4
red city: hotel@0,0 city_hall@1,0 public_works_office@0,1 theatre@1,1 subway@2,1
""", prosperity=True)
    red = 1
    office, theatre = slot(s, 0, 1), slot(s, 1, 1)
    assert s.expects() == "final scoring: now Red must choose which end-game effect to resolve next"
    assert sorted(a.arg for a in s.legal_actions()) == sorted([office, theatre])   # the Subway is not asked
    s.apply_action(act(s, "resolve_effect", office))
    assert s.score_breakdown(red)["end_game_tile_effects"] == 1 + 2   # Theatre at culture 4, Subway +2
    texts = [e.text for e in s.log_for(None)]
    assert "End of the game, Red's Theatre: +1 prestige." in texts


# ----------------------------------------------------------------------------------------------
# A Lake is not a tile for "any adjacent tile" effects (data engine_rules.lake_is_a_tile)
# ----------------------------------------------------------------------------------------------
def test_police_station_does_not_count_an_adjacent_lake():
    """Police Station: "+1 energy cube per adjacent tile" (IT appendix); a Lake "does not count as any
    building type" (IT, HU "Tó építése"), read as not a tile (data lake_is_a_tile: false, inferred)."""
    s = position("""seed: 9
round: 6
phase: building
to move: red
decision: place police_station
red: cubes 0
red city: hotel@0,0 city_hall@1,0 lake(theatre)@0,1
""", prosperity=True)
    red = 1
    s.apply_action(act(s, "place", slot(s, 1, 1)))   # next to the Hotel, the City Hall and the Lake
    assert s.track(red, "cubes") == 2
    rules = s.game.describe_rules(assumptions=True)
    assert "engine_rules.lake_is_a_tile = False [inferred]" in rules


# ----------------------------------------------------------------------------------------------
# A game started from a position keeps it in its record
# ----------------------------------------------------------------------------------------------
def test_a_record_started_from_a_position_replays():
    s = position(HOTEL_AT.format(culture=1))
    for _ in range(6):
        s.apply_action(s.legal_actions()[-1])
    record = s.record()
    assert record["position"].startswith("game: the_capitals players=3")
    assert citygames.replay(record).to_dict() == s.to_dict()
