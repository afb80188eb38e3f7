"""Bots: seeded, picklable policies (random, greedy; MCTS plugs into ``BOTS`` later).

``make_bot("greedy", seed=3)`` builds a bot by name; ``BOTS`` maps each name to its class.
"""

from __future__ import annotations

from .base import Bot
from .greedy import GreedyBot
from .random_bot import RandomBot

#: bot name -> class; every class takes ``seed`` as its first argument.
BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def register_bot(name: str, cls: type[Bot]) -> None:
    """Make ``cls`` available to ``make_bot`` (and the CLI) under ``name``."""
    BOTS[name] = cls


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot of kind ``name`` seeded with ``seed``.

    Raises:
        ValueError: if ``name`` is not in ``BOTS`` (the message lists the known names).
    """
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(sorted(BOTS))}") from None
    return cls(seed)


__all__ = ["Bot", "RandomBot", "GreedyBot", "BOTS", "register_bot", "make_bot"]
