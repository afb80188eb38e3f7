"""Thin bridges from the game contract to the libraries researchers train with.

- ``citygames.adapters.pettingzoo``: PettingZoo AEC environments (``the_capitals_v0``,
  ``seven_wonders_duel_v0``, ...).
- ``citygames.adapters.gym``: a single-agent Gymnasium view (one seat learns, bots play the others).
- ``citygames.adapters.openspiel``: every game registered with ``pyspiel`` as a Python game
  (``python_citygames_<game id>``).

They use only the public contract (``observation_tensor``, ``legal_action_mask``,
``max_game_length``, ``resample``, ...) and never reach inside a game. Install them with
``pip install 'citygames[adapters]'``.
"""

import io


def render_ansi(game, state, seat: int | None) -> str:
    """The terminal board of ``state`` as ``seat`` sees it (``None``: a spectator), rich markup
    turned into ANSI colours: what ``render_mode="ansi"`` returns in every adapter."""
    from rich.console import Console
    out = io.StringIO()
    Console(file=out, force_terminal=True, width=120, color_system="standard", highlight=False).print(
        game.render_text(state, seat))
    return out.getvalue()
