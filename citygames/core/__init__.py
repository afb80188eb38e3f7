"""citygames.core: the game-agnostic contract and machinery (see DESIGN.md)."""

from .actions import Action, ActionSpace
from .data import DATA_OVERRIDES, Assumption, list_data_keys, load_data, parse_overrides
from .errors import CitygamesError, GameOptionError, IllegalActionError, PositionError, RecordError
from .events import Event, register_renderer
from .game import SIMULTANEOUS, TERMINAL, Game, GameInfo, OptionSpec, State
from .records import load_record, replay, save_record
from .registry import game_class, load_game, register_game, registered_games
from .rng import Rng
from .tensor import TensorLayout, TensorSlice

__all__ = [
    "Action", "ActionSpace", "Assumption", "DATA_OVERRIDES", "list_data_keys", "load_data", "parse_overrides",
    "CitygamesError", "GameOptionError",
    "IllegalActionError", "PositionError", "RecordError", "Event", "register_renderer", "SIMULTANEOUS", "TERMINAL",
    "Game", "GameInfo", "OptionSpec", "State", "load_record", "replay", "save_record", "game_class",
    "load_game", "register_game", "registered_games", "Rng", "TensorLayout", "TensorSlice",
]
