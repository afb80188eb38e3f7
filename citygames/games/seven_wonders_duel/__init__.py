"""7 Wonders Duel (Antoine Bauza & Bruno Cathala, Repos Production 2015) — rules engine.

``citygames.load_game("seven_wonders_duel")``. Layout: ``data/`` (component files),
``components.py`` (typed records), ``game.py`` (options, action space), ``state.py`` (the fields,
declared once, and the dispatch of the decisions), then one module per part of the game as the
rulebook names it — ``setup.py``, ``draft.py`` (the wonder draft), ``structure.py`` (an age's cards),
``turn.py`` (construct, discard, build a wonder), ``effects.py`` (what cards and wonders do),
``prices.py`` (trading), ``military.py``, ``science.py``, ``ages.py`` (end of a turn and an age),
``scoring.py`` — and ``constants.py`` (the decisions' names), ``observation.py`` (what a seat sees;
``resample``), ``position.py`` (positions as text, ``POSITION.md``), ``evaluation.py`` (the greedy
bot's evaluation), ``render.py`` (log sentences, action texts, rules), ``board_text.py`` (the
terminal board).
"""

from citygames.core.registry import register_game

from . import render as _render  # noqa: F401 - importing it registers the log sentences
from .game import SevenWondersDuel

register_game("seven_wonders_duel", SevenWondersDuel)

__all__ = ["SevenWondersDuel"]
