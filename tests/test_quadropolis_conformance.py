"""The conformance kit on Quadropolis: 50 seeded random games at 2, 3 and 4 players in both modes
(and the hand allocation at 2 and 4 players), in chunks that pytest-xdist spreads; plus the
validation of the game's options."""

from __future__ import annotations

import pytest

from citygames.core import GameOptionError, load_game
from citygames.core.conformance import check_game

CONFIGS = {f"{mode}_{n}p": {"mode": mode, "num_players": n} for mode in ("classic", "expert") for n in (2, 3, 4)}
CONFIGS.update({"classic_4p_manual": {"num_players": 4, "allocation": "manual"},
                "expert_2p_manual": {"mode": "expert", "num_players": 2, "allocation": "manual"}})
CHUNKS = 2
GAMES_PER_CHUNK = 25


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("config", list(CONFIGS), ids=list(CONFIGS))
def test_conformance(config, chunk):
    opts = CONFIGS[config]
    game = load_game("quadropolis", **opts)
    report = check_game(game, n_games=GAMES_PER_CHUNK, seed=1000 * chunk + 11)
    assert report["games"] == GAMES_PER_CHUNK
    n = opts["num_players"]
    rounds = 5 if opts.get("mode") == "expert" else 4
    takes = rounds * 4 * n                   # every turn places one architect (§3)
    assert takes <= report["max_length"] <= 2 * takes + (200 if opts.get("allocation") == "manual" else 0)


@pytest.mark.parametrize("bad", [{"mode": "advanced"}, {"num_players": 5}, {"num_players": 1},
                                 {"allocation": "greedy"}, {"colour": "red"}])
def test_bad_options_are_refused(bad):
    with pytest.raises(GameOptionError):
        load_game("quadropolis", **bad)
