"""The registry of games: ``load_game("the_capitals", num_players=4)``."""

from __future__ import annotations

import importlib
import json
from collections import OrderedDict
from typing import Callable

from .data import DATA_OVERRIDES, resolve_overrides
from .errors import GameOptionError
from .game import Game, GameInfo

_FACTORIES: dict[str, Callable[..., Game]] = {}
#: game id -> module that registers it when imported
_BUILTIN = {
    "the_capitals": "citygames.games.the_capitals",
    "seven_wonders_duel": "citygames.games.seven_wonders_duel",
    "quadropolis": "citygames.games.quadropolis",
    "between_two_cities": "citygames.games.between_two_cities",
}
_CACHE: dict[tuple, Game] = {}
#: games with data overrides, most recently used last: a sweep over many variants must not keep
#: every variant's components alive (a Capitals variant holds about 3 MB)
_VARIANTS: "OrderedDict[tuple, Game]" = OrderedDict()
MAX_VARIANTS = 32


def register_game(game_id: str, factory: Callable[..., Game]) -> None:
    """Register ``factory(**options) -> Game`` under ``game_id``."""
    _FACTORIES[game_id] = factory


def registered_games() -> list[str]:
    """Ids of every game citygames knows."""
    return sorted(set(_FACTORIES) | set(_BUILTIN))


def _factory(game_id: str) -> Callable[..., Game]:
    if game_id not in _FACTORIES and game_id in _BUILTIN:
        importlib.import_module(_BUILTIN[game_id])
    try:
        return _FACTORIES[game_id]
    except KeyError:
        raise GameOptionError(
            f"unknown game {game_id!r}; known games: {', '.join(registered_games())}") from None


def game_class(game_id: str):
    """The registered factory (usually the ``Game`` subclass) of ``game_id``."""
    return _factory(game_id)


def game_info(game_id: str) -> GameInfo:
    """The ``GameInfo`` of ``game_id``: name, player range, options with their defaults, flags.

    Read from the registered factory's ``info`` without building a game; a factory without one
    (a plain function) is called once with the default options to read it.

    Raises:
        GameOptionError: ``game_id`` is not a registered game (the message lists the known ones).
        ImportError: the game's package cannot be imported.
    """
    info = getattr(_factory(game_id), "info", None)
    return info if info is not None else load_game(game_id).info


def _overrides_key(overrides) -> str:
    try:
        return json.dumps(overrides, sort_keys=True, default=repr)
    except TypeError:   # keys of mixed types cannot be sorted
        return repr(overrides)


def load_game(game_id: str, **options) -> Game:
    """The ``Game`` ``game_id`` with ``options`` (unknown or bad options raise ``GameOptionError``).

    Games are immutable, so equal requests share one instance (of games with data overrides, the
    ``MAX_VARIANTS`` most recently used are kept). The reserved option ``data_overrides``
    (``citygames.core.data``) changes values of the game's data files for this game only.
    """
    factory = _factory(game_id)
    info = getattr(factory, "info", None)
    resolved = info.resolve_options(options) if info is not None else options  # raises on bad options
    plain = tuple(sorted((k, v) for k, v in resolved.items() if k != DATA_OVERRIDES))
    overrides = resolved.get(DATA_OVERRIDES)
    if overrides and getattr(factory, "DATA_DIR", None) is not None:
        # canonical first, so that every spelling of the same overrides shares one game
        resolved[DATA_OVERRIDES] = overrides = resolve_overrides(factory.DATA_DIR, overrides, game_id)
    key = (game_id, plain, _overrides_key(overrides) if overrides else None)
    cache = _VARIANTS if overrides else _CACHE
    game = cache.get(key)
    if game is None:
        game = factory(**resolved)
        cache[key] = game
        if overrides and len(_VARIANTS) > MAX_VARIANTS:
            _VARIANTS.popitem(last=False)
    elif overrides:
        _VARIANTS.move_to_end(key)
    return game
