"""The bot interface: a seeded policy that picks one legal action for a state."""

from __future__ import annotations

from citygames.core import Action, Rng, State


class Bot:
    """Base class of every bot.

    A bot is a seeded, picklable policy: ``step(state)`` returns one of
    ``state.legal_actions(player)`` without changing ``state``. Bots only read what their seat
    may know; a bot that needs hidden information must resample it (``state.resample``).

    Args:
        seed: int seeding the bot's own ``Rng`` (any int; reduced modulo 2**64).

    Attributes:
        name: the registry name of the bot kind (``"random"``, ``"greedy"``, ...).
        seed: the seed it was built with.
        rng: its ``citygames.core.Rng``.
    """

    name = "bot"

    def __init__(self, seed: int = 0):
        self.seed = int(seed)
        self.rng = Rng(self.seed)

    def step(self, state: State, player: int | None = None) -> Action:
        """Choose an action for ``player`` (default: ``state.current_player()``).

        Args:
            state: a non-terminal state; it is not modified.
            player: the seat to act for; needed when several seats move at once.

        Returns:
            one element of ``state.legal_actions(player)``.

        Raises:
            ValueError: if ``player`` has no legal action (terminal state or not its turn).
        """
        raise NotImplementedError

    def _legal(self, state: State, player: int | None) -> tuple[int, list[Action]]:
        """``(player, legal actions)``; ``ValueError`` if there is nothing to choose from."""
        if player is None:
            movers = state.players_to_move()
            if not movers:
                raise ValueError(f"{self.name} bot asked to move in a finished game")
            player = movers[0]
        legal = state.legal_actions(player)
        if not legal:
            raise ValueError(f"{self.name} bot: seat {player} has no legal action")
        return player, legal

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"
