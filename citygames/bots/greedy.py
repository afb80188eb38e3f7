"""The greedy bot: one step of look-ahead scored by the game's own evaluation."""

from __future__ import annotations

from citygames.core import Action, State

from .base import Bot


class GreedyBot(Bot):
    """Tries every legal action on a copy and keeps the one ``game.evaluate`` likes best.

    For a game with hidden information the bot first redraws what its seat cannot see
    (``state.resample(player, rng)``, once per decision), so it never uses hidden information.
    Ties (within ``tolerance``) are broken uniformly by the bot's ``Rng``.

    Args:
        seed: int seeding the bot.
        tolerance: evaluations within this distance of the best count as ties (default 1e-9).
    """

    name = "greedy"

    def __init__(self, seed: int = 0, tolerance: float = 1e-9):
        super().__init__(seed)
        self.tolerance = tolerance

    def step(self, state: State, player: int | None = None) -> Action:
        """The legal action whose successor state evaluates best for ``player``.

        Returns:
            one element of ``state.legal_actions(player)``.

        Raises:
            ValueError: if ``player`` has no legal action.
            NotImplementedError: if the game does not implement ``evaluate``.
        """
        player, legal = self._legal(state, player)
        if len(legal) == 1:
            return legal[0]
        game = state.game
        base = state.resample(player, self.rng) if game.info.hidden_information else state
        best: list[Action] = []
        best_value = float("-inf")
        for action in legal:
            nxt = base.clone()
            nxt.apply_action(action, player=player)
            value = game.evaluate(nxt, player)
            if value > best_value + self.tolerance:
                best_value = value
                best = [action]
            elif value >= best_value - self.tolerance:
                best.append(action)
        return best[0] if len(best) == 1 else best[self.rng.randbelow(len(best))]
