"""Quadropolis (François Gandon, Days of Wonder 2016), Classic and Expert — rules engine.

``citygames.load_game("quadropolis", mode="classic" | "expert", num_players=2..4)``. Layout: ``data/``
(component files), ``components.py`` (typed records: tiles, boards, scoring tables), ``game.py``
(options, action space), ``state.py`` (the fields, declared once, and the dispatch of the decisions),
``site.py`` (the construction site, architects and the Urbanist: setup, rounds, taking a tile),
``city.py`` (placing a tile in a city, stacking, resources, the Mayor), ``scoring.py`` (the score pad
and the best allocation of resources), ``end.py`` (the end of the game: allocation, scores,
ranking), ``observation.py`` (what a seat sees; ``resample``), ``render.py`` (log sentences, action
texts, rules), ``board_text.py`` (the terminal board), ``evaluation.py`` (the greedy bot's
evaluation).

Rules: ``shared/rulebooks/quadropolis.hu.txt`` (HU) and ``shared/reference/quadropolis.md`` (cited §N).
"""

from citygames.core.registry import register_game

from . import render as _render  # noqa: F401 - importing it registers the log sentences
from .game import Quadropolis

register_game("quadropolis", Quadropolis)

__all__ = ["Quadropolis"]
