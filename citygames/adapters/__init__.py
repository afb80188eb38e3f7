"""Thin bridges from the game contract to the libraries researchers train with.

- ``citygames.adapters.pettingzoo``: PettingZoo AEC environments (``the_capitals_v0``,
  ``seven_wonders_duel_v0``, ...) and Parallel environments (``parallel_env()``: every agent to
  move acts in one step, as in Between Two Cities' secret choices).
- ``citygames.adapters.gym``: a single-agent Gymnasium view (one seat learns, bots play the others).
- ``citygames.adapters.openspiel``: every game registered with ``pyspiel`` as a Python game
  (``python_citygames_<game id>``).

They use only the public contract (``observation_tensor``, ``legal_action_mask``,
``max_game_length``, ``resample``, ...) and never reach inside a game. Install them with
``pip install 'citygames[adapters]'``.
"""

import io
import random


def render_ansi(game, state, seat: int | None) -> str:
    """The terminal board of ``state`` as ``seat`` sees it (``None``: a spectator), rich markup
    turned into ANSI colours: what ``render_mode="ansi"`` returns in every adapter."""
    from rich.console import Console
    out = io.StringIO()
    Console(file=out, force_terminal=True, width=120, color_system="standard", highlight=False).print(
        game.render_text(state, seat))
    return out.getvalue()


def render_spectator(env) -> str | None:
    """What a PettingZoo environment's ``render()`` returns: with ``render_mode="ansi"`` the board as a
    spectator sees it (``render_ansi``); without a render mode ``None`` and Gymnasium's warning."""
    if env.render_mode is None:
        import gymnasium
        gymnasium.logger.warn("You are calling render method without specifying any render mode.")
        return None
    return render_ansi(env.game, env.state, None)


class Deals:
    """The game seeds an environment deals, with Gymnasium's ``reset(seed=...)`` semantics:
    ``next(seed)`` is ``seed`` itself when one is given (the same deal as ``citygames play --seed``)
    and restarts the sequence from it; without one, the next seed of the sequence (a fresh random
    sequence if none was started). Seeds are ints in ``[0, 2**31)``."""

    def __init__(self):
        self._rng: random.Random | None = None

    def next(self, seed: int | None = None) -> int:
        if seed is not None:
            self._rng = random.Random(seed)
            return int(seed)
        if self._rng is None:
            self._rng = random.Random()
        return self._rng.getrandbits(31)
