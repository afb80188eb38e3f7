"""The conformance kit on 7 Wonders Duel: 360 seeded random games over the three option sets
(default, first-game wonders, first-print starter rule), in chunks that pytest-xdist spreads;
plus the validation of the game's options."""

from __future__ import annotations

import pytest

from citygames.core import GameOptionError, load_game
from citygames.core.conformance import check_game, play_random_game

OPTION_SETS = {
    "default": {},
    "first_game_wonders": {"first_game_wonders": True},
    "first_print": {"next_age_chooser": "first_print"},
}
CHUNKS = 4
GAMES_PER_CHUNK = 30


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("options", list(OPTION_SETS), ids=list(OPTION_SETS))
def test_conformance(options, chunk):
    game = load_game("seven_wonders_duel", **OPTION_SETS[options])
    report = check_game(game, n_games=GAMES_PER_CHUNK, seed=1000 * chunk + 7)
    assert report["games"] == GAMES_PER_CHUNK
    # a game is 8 draft picks (none with first-game wonders) plus 60 cards and a few decisions
    assert 20 <= report["max_length"] <= 100
    assert report["actions"] >= GAMES_PER_CHUNK * 20


def test_options_change_the_game():
    default = load_game("seven_wonders_duel")
    fixed = load_game("seven_wonders_duel", first_game_wonders=True)
    assert default.new_initial_state(3).legal_actions()[0].kind == "draft"
    s = fixed.new_initial_state(3)
    assert s.legal_actions()[0].kind in ("construct", "discard")
    c = fixed.components
    obs = s.observation(None)
    first = obs["first_player"]
    held = [[w["wonder"] for w in pl["wonders"]] for pl in obs["players"]]
    assert sorted(held[first]) == sorted(c.first_game_wonders[0])
    assert sorted(held[1 - first]) == sorted(c.first_game_wonders[1])
    # the same seed and actions replay to the same game under each option set
    for opts in OPTION_SETS.values():
        game = load_game("seven_wonders_duel", **opts)
        a = play_random_game(game, 11)
        b = play_random_game(game, 11)
        assert a.to_dict() == b.to_dict() and a.is_terminal()


@pytest.mark.parametrize("options", [
    {"first_game_wonders": "maybe"},
    {"first_game_wonders": 2},
    {"next_age_chooser": "winner"},
    {"next_age_chooser": ""},
    {"num_players": 3},
    {"num_players": 1},
    {"num_players": "two"},
    {"players": 2},
    {"prosperity": True},
])
def test_bad_options_raise(options):
    with pytest.raises(GameOptionError):
        load_game("seven_wonders_duel", **options)


@pytest.mark.parametrize("value, expected", [("true", True), ("yes", True), ("0", False), (False, False)])
def test_boolean_option_spellings(value, expected):
    assert load_game("seven_wonders_duel", first_game_wonders=value).options["first_game_wonders"] is expected


def test_option_defaults():
    assert load_game("seven_wonders_duel").options == {
        "num_players": 2, "first_game_wonders": False, "next_age_chooser": "erratum"}
