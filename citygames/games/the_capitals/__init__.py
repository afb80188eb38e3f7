"""The Capitals (Thiago Boaventura, Mercury Games 2013) — rules engine.

``citygames.load_game("the_capitals", num_players=4)``. Layout: ``data/`` (component files),
``components.py`` (typed records), ``state.py`` (state and transitions), ``observation.py``,
``evaluation.py`` (greedy bot's evaluation), ``render.py`` (text: log sentences, board, rules).
"""

from citygames.core.registry import register_game

from . import render as _render  # noqa: F401 - importing it registers the log sentences
from .game import TheCapitals

register_game("the_capitals", TheCapitals)

__all__ = ["TheCapitals"]
