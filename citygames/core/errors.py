"""Errors raised by citygames engines and tools."""

from __future__ import annotations


class CitygamesError(Exception):
    """Base class of every error citygames raises on purpose."""


class IllegalActionError(CitygamesError, ValueError):
    """An action that the rules do not allow in the current state.

    Raised by ``State.apply_action`` *before* anything changes, so the state is left exactly as
    it was.

    Attributes:
        rule: short name of the rule that forbids the action, with its source where it has one
            (for example ``"politics: the space is taken"``).
        action: the offending action (an ``Action``, an int or whatever was passed).
    """

    def __init__(self, rule: str, action: object = None, detail: str = ""):
        self.rule = rule
        self.action = action
        self.detail = detail
        text = f"illegal action {action!s}: {rule}" if action is not None else f"illegal action: {rule}"
        if detail:
            text += f" ({detail})"
        super().__init__(text)


class GameOptionError(CitygamesError, ValueError):
    """An unknown game id, an unknown option, or an option value out of its range."""


class RecordError(CitygamesError, ValueError):
    """A game record that cannot be read or does not replay."""


class PositionError(CitygamesError, ValueError):
    """A position text that does not describe a valid position of the game.

    Raised by ``game.state_from_position``; the message names the line and what is wrong with it.
    """
