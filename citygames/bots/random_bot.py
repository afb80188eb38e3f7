"""The random bot: uniform over the legal actions."""

from __future__ import annotations

from citygames.core import Action, State

from .base import Bot


class RandomBot(Bot):
    """Plays a uniformly random legal action, drawn from its own seeded ``Rng``.

    Args:
        seed: int seeding the bot.
    """

    name = "random"

    def step(self, state: State, player: int | None = None) -> Action:
        """A uniformly random element of ``state.legal_actions(player)``.

        Raises:
            ValueError: if ``player`` has no legal action.
        """
        _, legal = self._legal(state, player)
        return legal[self.rng.randbelow(len(legal))]
