"""7 Wonders Duel (Antoine Bauza & Bruno Cathala, Repos Production 2015) — rules engine.

``citygames.load_game("seven_wonders_duel")``. Layout: ``data/`` (component files),
``components.py`` (typed records), ``state.py`` (state and transitions), ``observation.py``,
``evaluation.py`` (greedy bot's evaluation), ``render.py`` (log sentences, action texts, rules),
``board_text.py`` (the terminal board).
"""

from citygames.core.registry import register_game

from . import render as _render  # noqa: F401 - importing it registers the log sentences
from .game import SevenWondersDuel

register_game("seven_wonders_duel", SevenWondersDuel)

__all__ = ["SevenWondersDuel"]
