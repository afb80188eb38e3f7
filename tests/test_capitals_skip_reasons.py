"""The Capitals: an executive turn that passes by itself says why in the log (issue 15, defect 6).
Positions are written as text."""

from __future__ import annotations

import citygames

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


def test_no_activation_left_after_the_last_one():
    s = _state("money 10 culture 3 employment 0 population 2 public_service 0 progress 0 prestige 0 cubes 9",
               extra="activations: left 1 made 0")
    a = next(a for a in s.legal_actions() if a.kind == "activate" and "City Hall" in s.action_to_string(a))
    s.apply_action(a)
    pay = [b for b in s.legal_actions() if b.kind == "pay_cubes"]
    if pay:
        s.apply_action(pay[0])
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
