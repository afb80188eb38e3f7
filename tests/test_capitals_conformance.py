"""The conformance kit (citygames.core.conformance) on The Capitals at 2, 3, 4 and 5 players, each
with and without the Prosperity expansion.

DESIGN.md "Tests": seeded random games to the end, legal actions never empty, clone
independence, to_dict round trip, record replay, determinism, no leaks, illegal actions.
"""

import pytest

import citygames
from citygames.core.conformance import check_game


@pytest.mark.parametrize("prosperity", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("block", range(5))
def test_conformance(players, block, prosperity):
    game = citygames.load_game("the_capitals", num_players=players, prosperity=prosperity)
    report = check_game(game, n_games=10, seed=1000 * players + 10 * block + 7 * prosperity, deep_checks_per_game=10)
    assert report["games"] == 10
    assert report["actions"] > 10 * 100  # whole games were played


def test_game_info_and_options():
    game = citygames.load_game("the_capitals")
    assert game.num_players == 4
    assert game.info.min_players == 2 and game.info.max_players == 5
    with pytest.raises(citygames.GameOptionError):
        citygames.load_game("the_capitals", num_players=6)
    with pytest.raises(citygames.GameOptionError):
        citygames.load_game("the_capitals", colour="red")
