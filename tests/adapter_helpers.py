"""Shared by the adapter tests: the option sets every adapter is tested on."""

from __future__ import annotations

import itertools

from citygames.core.registry import game_info

#: the real games (the toy game is tested separately where its rules make a point clearer)
REAL_GAMES = ("the_capitals", "seven_wonders_duel", "quadropolis", "between_two_cities")


def option_sets(game_id: str) -> list[dict]:
    """Every option set of ``game_id`` the issue asks for: the smallest and the largest player
    count times every combination of its boolean and choice options (other options at their
    defaults)."""
    info = game_info(game_id)
    axes = []
    for o in info.options:
        if o.name == "num_players":
            continue
        if o.choices:
            axes.append([(o.name, c) for c in o.choices])
        elif isinstance(o.default, bool):
            axes.append([(o.name, False), (o.name, True)])
    counts = sorted({info.min_players, info.max_players})
    out = []
    for n in counts:
        for combo in itertools.product(*axes):
            out.append({"num_players": n, **dict(combo)})
    return out


def all_option_sets(games=REAL_GAMES) -> list[tuple[str, dict]]:
    """``(game id, options)`` for every game and option set, for ``pytest.mark.parametrize``."""
    return [(g, o) for g in games for o in option_sets(g)]


def option_id(value) -> str:
    """A short test id for an options dict."""
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items()).replace("num_players=", "p")
    return str(value)
