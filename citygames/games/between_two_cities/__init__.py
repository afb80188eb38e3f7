"""Between Two Cities (Ben Rosset & Matthew O'Malley, Stonemaier Games 2015) with the Capitals
expansion (2017) — rules engine.

``citygames.load_game("between_two_cities", num_players=2..7, capitals=False | True)``. Layout:
``data/`` (component files), ``components.py`` (typed records: tiles, duplexes, civic buildings, mats),
``constants.py`` (kind and type codes), ``game.py`` (options, seats and cities, action space),
``steps.py`` (decisions and phases), ``state.py`` (the fields, declared once, and the dispatch of the
decisions), ``draft.py`` (setup, drawing, choosing, revealing, passing), ``placement.py`` (placing
tiles and duplexes), ``geometry.py`` and ``scoring.py`` (the city layouts and their scoring),
``end.py`` (scores, ranking), ``observation.py`` (what a seat sees; ``resample``), ``render.py`` (log
sentences, action texts, rules), ``board_text.py`` (the terminal board), ``evaluation.py`` (the greedy
bot's evaluation), ``facts.py`` (per-component facts for studies), ``citytext.py`` (a city as text).

Rules: ``shared/reference/between_two_cities.md`` (cited §N) and
``shared/rulebooks/between_two_cities_capitals.hu.txt`` (HU-CAP).
"""

from citygames.core.registry import register_game

from . import render as _render  # noqa: F401 - importing it registers the log sentences
from .game import BetweenTwoCities

register_game("between_two_cities", BetweenTwoCities)

__all__ = ["BetweenTwoCities"]
