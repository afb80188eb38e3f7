"""citygames: rules engines, bots, simulation and a browser table for city-building board games."""

from .core import (Action, GameOptionError, IllegalActionError, PositionError, load_game, load_record,
                   registered_games, replay, save_record)

__version__ = "0.1.0"
__all__ = ["Action", "GameOptionError", "IllegalActionError", "PositionError", "load_game", "load_record",
           "registered_games", "replay", "save_record", "__version__"]
