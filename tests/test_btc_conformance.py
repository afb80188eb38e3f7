"""The conformance kit on Between Two Cities: 50 seeded random games at 2, 3, 5 and 7 players, base game
and Capitals (the kit drives the simultaneous choices in random order), in chunks that pytest-xdist
spreads; plus the validation of the game's options."""

from __future__ import annotations

import pytest

from citygames.core import GameOptionError, load_game
from citygames.core.conformance import check_game

CONFIGS = {f"{'capitals' if cap else 'base'}_{n}p": {"num_players": n, "capitals": cap}
           for cap in (False, True) for n in (2, 3, 5, 7)}
CHUNKS = 2
GAMES_PER_CHUNK = 25


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("config", list(CONFIGS), ids=list(CONFIGS))
def test_conformance(config, chunk):
    opts = CONFIGS[config]
    game = load_game("between_two_cities", **opts)
    report = check_game(game, n_games=GAMES_PER_CHUNK, seed=1000 * chunk + 7)
    assert report["games"] == GAMES_PER_CHUNK
    # every game has the same length: N choices and 2N placements per turn (§3)
    assert report["max_length"] == game.max_game_length()
    assert report["actions"] == GAMES_PER_CHUNK * game.max_game_length()
    assert report["redrawn"] > 0


@pytest.mark.parametrize("bad", [{"num_players": 1}, {"num_players": 8}, {"capitals": "maybe"},
                                 {"landscapes": True}])
def test_bad_options_are_refused(bad):
    with pytest.raises(GameOptionError):
        load_game("between_two_cities", **bad)
