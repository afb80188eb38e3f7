"""The Capitals: an executive turn that passes by itself says why in the log (issue 15, defect 6).
Positions are written as text."""

from __future__ import annotations

import json

import citygames
from citygames.core.events import Event

GAME = citygames.load_game("the_capitals", num_players=3)


def _state(red_tracks: str, city: str = "hotel@0,0 city_hall@1,0", extra: str = ""):
    """Red's executive turn at round 2, its automatic work run (``decision: none``)."""
    return GAME.state_from_position(f"""game: the_capitals players=3
seed: 7
round: 2
phase: executive
to move: red
decision: none
red: {red_tracks} plant 1 space 2
red city: {city}
{extra}""")


def _red_lines(state) -> list[str]:
    return [e.text for e in state.log if e.player == 1 and "activat" in e.text]


def test_no_cubes_names_the_cheapest_activation_and_the_plant():
    s = _state("money 10 culture 3 employment 0 population 0 public_service 0 progress 0 prestige 0 cubes 0")
    lines = _red_lines(s)
    assert "Red cannot activate anything (nothing affordable: Hotel needs 2 energy cubes, the plant holds 0, with 1 usable tourist)." in lines, lines
    # the reward is then chosen by Red
    assert {a.kind for a in s.legal_actions()} == {"no_activation_reward"}
    s.apply_action(s.legal_actions()[0])
    red = _red_lines(s)
    assert red[-1].startswith("Red makes no activation and gains ") and red[-1].count("(") == 0, red  # said once


def test_a_cost_the_city_cannot_lose_is_named():
    s = _state("money 10 culture 0 employment 0 population 0 public_service 0 progress 0 prestige 0 cubes 5")
    assert ("Red cannot activate anything (nothing affordable: Hotel costs 1 culture (the city has 0); "
            "City Hall costs 1 culture (the city has 0)).") in _red_lines(s)


def _after_the_last_activation():
    """Red with one activation left activates City Hall (paying its cubes): its turn then ends by itself."""
    s = _state("money 10 culture 3 employment 0 population 2 public_service 0 progress 0 prestige 0 cubes 9",
               extra="activations: left 1 made 0")
    a = next(a for a in s.legal_actions() if a.kind == "activate" and "City Hall" in s.action_to_string(a))
    s.apply_action(a)
    pay = [b for b in s.legal_actions() if b.kind == "pay_cubes"]
    if pay:
        s.apply_action(pay[0])
    return s


def test_no_activation_left_after_the_last_one():
    s = _after_the_last_activation()
    assert "Red ends the executive phase after 1 activation (no activation left)." in _red_lines(s)


def test_a_turn_ended_by_choice_gives_no_reason():
    s = _state("money 10 culture 3 employment 0 population 2 public_service 0 progress 0 prestige 0 cubes 9")
    end = next(a for a in s.legal_actions() if a.kind == "end_activations")
    s.apply_action(end)
    if s.legal_actions() and s.legal_actions()[0].kind == "no_activation_reward":
        s.apply_action(s.legal_actions()[0])
    lines = _red_lines(s)
    assert lines and all("(" not in t for t in lines), lines


def test_a_financial_district_build_with_no_project_left_is_said():
    game = citygames.load_game("the_capitals", num_players=3, prosperity=True)
    s = game.state_from_position("""game: the_capitals players=3 prosperity=yes
seed: 7
round: 3
phase: prosperity
to move: red
decision: none
prosperity build: started
extra build: due
projects: $0 - | $2 - | $4 -
""")
    assert any(e.text == "Red's Financial District owes one more build, but the projects area is empty."
               for e in s.log), [e.text for e in s.log]


# --- the reason is logged as plain data and worded on demand (the event log's design) --------------
def _red_events(state, kind: str) -> list:
    return [e for e in state.log if e.player == 1 and e.kind == "capitals." + kind]


def test_the_reason_is_plain_json_data_and_its_sentence_is_made_from_it():
    s = _state("money 10 culture 1 employment 0 population 0 public_service 0 progress 0 prestige 0 cubes 0",
               city="hotel@0,0 city_hall@1,0 dillon_residences@2,0")
    (e,) = _red_events(s, "cannot_activate")
    assert json.loads(json.dumps(e.data)) == {
        "why": "unaffordable", "lacking": [["dillon_residences", [["culture", 2, 1]]]], "more": 0,
        "cheapest": ["hotel", 2, 0, 1]}
    assert e.text == ("Red cannot activate anything (nothing affordable: Dillon Residences costs 2 culture "
                      "(the city has 1); Hotel needs 2 energy cubes, the plant holds 0, with 1 usable tourist).")
    # rebuilt from its plain data (a stored log), the event says the same
    assert Event.from_dict(json.loads(json.dumps(e.to_dict()))).text == e.text


def test_more_than_two_lacking_tiles_are_counted():
    s = _state("money 10 culture 0 employment 0 population 0 public_service 0 progress 0 prestige 0 cubes 0",
               city="hotel@0,0 city_hall@1,0 dillon_residences@2,0 iron_foundry@0,1")
    (e,) = _red_events(s, "cannot_activate")
    assert e.data["more"] == 2 and e.data["cheapest"] is None and len(e.data["lacking"]) == 2
    assert e.text.endswith("City Hall costs 1 culture (the city has 0); 2 more).")


def test_the_ordinary_end_keeps_its_code_which_is_its_words():
    s = _after_the_last_activation()
    (e,) = _red_events(s, "end_activations")
    assert e.data == {"made": 1, "why": "no activation left"}     # the browser's turn card tests this string


def test_a_log_written_with_the_words_and_the_no_effect_code_still_read():
    old = Event("capitals.cannot_activate", 1, {"why": "nothing affordable: Hotel costs 1 culture (the city has 0)"})
    assert old.text == "Red cannot activate anything (nothing affordable: Hotel costs 1 culture (the city has 0))."
    assert (Event("capitals.no_activation", 1, {"reward": {"money": 1}, "why": "no_effect"}).text
            == "Red makes no activation (no tile with an activation effect) and gains +$1.")


def test_the_activate_choices_follow_the_rule_per_tile_over_random_games():
    """``legal_activate`` finds the activatable tiles in one pass; it must agree with ``can_activate``."""
    import random

    from citygames.games.the_capitals import executive

    game = citygames.load_game("the_capitals", num_players=4)
    seen = 0
    for seed in range(8):
        s = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            if legal[-1].kind == "end_activations":
                mine = [a.arg for a in legal if a.kind == "activate"]
                assert mine == [x for x in sorted(s.city[s.player]) if executive.can_activate(s, s.player, x)]
                seen += 1
            s.apply_action(legal[rng.randrange(len(legal))])
    assert seen > 50
