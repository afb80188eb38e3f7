"""The Capitals: a gain that will be cut is shown as it will apply, before the click (issue 15, defect 5).

Positions are written as text (``game.state_from_position``); the checks read the action text
(``state.action_to_string``) and ``game.action_json`` of the legal actions, then play the action
and compare with what the tracks really did.
"""

from __future__ import annotations

import citygames
from citygames.games.the_capitals.components import TRACK_NAMES

GAME = citygames.load_game("the_capitals", num_players=3)


def _state(red_tracks: str, city: str, decision: str = "activate", phase: str = "executive", extra: str = ""):
    text = f"""game: the_capitals players=3
seed: 7
round: 2
phase: {phase}
to move: red
decision: {decision}
red: {red_tracks} plant 1 space 2
red city: {city}
{extra}"""
    return GAME.state_from_position(text)


def _menu(state, kind: str, what: str):
    """The legal action of ``kind`` whose text mentions ``what``, with its text and action_json."""
    for a in state.legal_actions():
        text = state.action_to_string(a)
        if a.kind == kind and what in text:
            return a, text, GAME.action_json(state, a)
    raise AssertionError(f"no {kind} action mentioning {what!r} in {[state.action_to_string(a) for a in state.legal_actions()]}")


def _track(state, seat: int, name: str) -> int:
    return state.observation(seat)["players"][seat][name]


def test_city_hall_with_no_population_says_the_employment_is_lost_and_it_is():
    s = _state("money 10 culture 3 employment 0 population 0 public_service 0 progress 0 prestige 0 cubes 3",
               "hotel@0,0 city_hall@1,0")
    a, text, j = _menu(s, "activate", "City Hall")
    assert text.endswith("-1 culture → +1 employment (+0 employment: capped by population)"), text
    assert j["text"] == text
    assert j["capped"] == [{"track": "employment", "wanted": 1, "applied": 0, "why": "population"}]
    s.apply_action(a)
    pay = [b for b in s.legal_actions() if b.kind == "pay_cubes"]
    if pay:     # the plant's cubes pay (rather than the tourist)
        s.apply_action(pay[0])
    done = next(e.text for e in s.log if "Red activates City Hall" in e.text)
    assert done.endswith(": -1 culture."), done   # no employment gained
    assert _track(s, 1, "employment") == 0 and _track(s, 1, "culture") == 2


def test_the_same_activation_with_room_under_population_shows_no_warning():
    s = _state("money 10 culture 3 employment 0 population 2 public_service 0 progress 0 prestige 0 cubes 3",
               "hotel@0,0 city_hall@1,0")
    a, text, j = _menu(s, "activate", "City Hall")
    assert "capped" not in text and "capped" not in j
    assert text.endswith("-1 culture → +1 employment")


def test_a_partly_capped_gain_says_how_much_applies():
    # Office Furniture Mfg: +2 employment; population 1 over employment 0 leaves room for 1
    s = _state("money 10 culture 3 employment 0 population 1 public_service 0 progress 0 prestige 0 cubes 3",
               "hotel@0,0 city_hall@1,0 office_furniture_mfg@1,1")
    a, text, j = _menu(s, "activate", "Office Furniture")
    assert "(+1 employment of +2 employment: capped by population)" in text, text
    assert j["capped"] == [{"track": "employment", "wanted": 2, "applied": 1, "why": "population"}]


def test_a_track_end_caps_a_gain():
    top = GAME.components.track_max[TRACK_NAMES.index("culture")]
    s = _state(f"money 10 culture {top - 1} employment 0 population 0 public_service 0 progress 0 prestige 0 cubes 3",
               "hotel@0,0 city_hall@1,0 davinci_estate@1,1")
    a, text, j = _menu(s, "activate", "DaVinci")
    assert "(+1 culture of +2 culture: capped at the track's end)" in text, text
    assert j["capped"] == [{"track": "culture", "wanted": 2, "applied": 1, "why": "track end"}]


def test_building_a_tile_warns_of_its_capped_employment():
    # the Iron Foundry's build effect: +1 employment, with population 0
    s = _state("money 10 culture 3 employment 0 population 0 public_service 0 progress 0 prestige 0 cubes 3",
               "hotel@0,0 city_hall@1,0", decision="place iron_foundry", phase="building")
    a, text, j = _menu(s, "place", "(1, 1)")
    assert "(+0 employment: capped by population)" in text, text
    assert j["capped"][0]["track"] == "employment"


def test_public_service_at_its_end_names_the_overflow_that_applies_instead():
    top = GAME.components.track_max[TRACK_NAMES.index("public_service")]
    s = _state(f"money 10 culture 3 employment 0 population 0 public_service {top} progress 0 prestige 0 cubes 3",
               "hotel@0,0 city_hall@1,0 penfield_health@1,1")
    a, text, j = _menu(s, "activate", "Penfield")
    assert text.endswith("(+0 public service: capped at the track's end, overflow +3 energy cubes)"), text
    assert j["capped"] == [{"track": "public_service", "wanted": 2, "applied": 0, "why": "track end",
                            "overflow": "+3 energy cubes"}]
