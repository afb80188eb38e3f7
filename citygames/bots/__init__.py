"""Bots: seeded, picklable policies (random, greedy, mcts, ismcts, and the difficulty levels easy,
medium, hard and expert: ``levels.py``).

``make_bot("greedy", seed=3)`` builds a bot by name, ``make_bot("ismcts:iterations=200,c=1.4", 3)``
with parameters; ``BOTS`` maps each name to its class.
"""

from __future__ import annotations

from .base import Bot
from .greedy import GreedyBot
from .levels import ABOUT as _LEVEL_ABOUT, LEVEL_BOTS, LEVEL_NAMES, LevelBot
from .mcts import ISMCTS_PARAMS as _ISMCTS_PARAMS, PARAMS as _SEARCH_PARAMS, ISMCTSBot, MCTSBot
from .random_bot import RandomBot

#: bot name -> class; every class takes ``seed`` as its first argument.
BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": MCTSBot,
    "ismcts": ISMCTSBot,
    **LEVEL_BOTS,
}

#: bot name -> one line on what it does (``citygames bots``, the lobby)
BOT_ABOUT: dict[str, str] = {
    "random": "a uniformly random legal action",
    "greedy": "the action the game's evaluation likes best, one action ahead",
    "mcts": "UCT Monte Carlo tree search on one guess of the hidden information",
    "ismcts": "information-set MCTS: searches over many guesses of the hidden information",
    **_LEVEL_ABOUT,
}

#: bot name -> {parameter: type} a spec may set (bots not listed take no parameters)
BOT_PARAMS: dict[str, dict[str, type]] = {
    "mcts": dict(_SEARCH_PARAMS),
    "ismcts": dict(_ISMCTS_PARAMS),
}


def register_bot(name: str, cls: type[Bot]) -> None:
    """Make ``cls`` available to ``make_bot`` (and the CLI) under ``name``."""
    BOTS[name] = cls


def parse_bot_spec(spec: str) -> tuple[str, dict]:
    """Split a bot spec ``"NAME"`` or ``"NAME:key=value,key=value"`` into ``(name, params)``, the
    values converted to the types in ``BOT_PARAMS``.

    Raises:
        ValueError: unknown bot, a parameter the bot does not take, a malformed ``key=value`` or a
            value of the wrong type (the message names the spec and what is allowed).
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"empty bot spec {spec!r}; known bots: {', '.join(sorted(BOTS))}")
    name, sep, rest = spec.strip().partition(":")
    name = name.strip()
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(sorted(BOTS))}")
    allowed = BOT_PARAMS.get(name, {})
    params: dict = {}
    if sep:
        if not rest.strip():
            raise ValueError(f"bot spec {spec!r}: nothing after ':' (write {name}:key=value,...)")
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            key, value = key.strip(), value.strip()
            if not eq or not key or not value:
                raise ValueError(f"bot spec {spec!r}: {item.strip()!r} is not key=value")
            if key not in allowed:
                known = ", ".join(allowed) if allowed else "none"
                raise ValueError(f"bot spec {spec!r}: {name} has no parameter {key!r} (parameters: {known})")
            if key in params:
                raise ValueError(f"bot spec {spec!r}: parameter {key!r} given twice")
            try:
                params[key] = allowed[key](value)
            except ValueError:
                raise ValueError(f"bot spec {spec!r}: {key} must be {allowed[key].__name__}, "
                                 f"got {value!r}") from None
    return name, params


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot from a spec (``parse_bot_spec``: ``"greedy"``, ``"ismcts:iterations=200,c=1.4"``)
    seeded with ``seed``.

    Raises:
        ValueError: an unknown bot (the message lists the known names), a bad parameter or value.
    """
    kind, params = parse_bot_spec(name)
    return BOTS[kind](seed, **params)


def split_bot_specs(text: str) -> list[str]:
    """A ``--bots`` text -> bot specs, one per bot, unparsed (``make_bot`` / ``parse_bot_spec`` check them).

    Bots are separated by ``;`` or ``,``; a comma-separated item of the form ``key=value`` belongs to
    the bot before it, so ``"ismcts:iterations=200,c=1.4,greedy"`` and
    ``"ismcts:iterations=200,c=1.4;greedy"`` both give ``["ismcts:iterations=200,c=1.4", "greedy"]``
    (bot names never contain ``=``). Empty items are dropped; ``""`` gives ``[]``.
    """
    specs: list[str] = []
    for group in text.split(";"):
        start = len(specs)
        for item in (b.strip() for b in group.split(",")):
            if not item:
                continue
            if "=" in item and ":" not in item and len(specs) > start:
                specs[-1] += "," + item
            else:
                specs.append(item)
    return specs


__all__ = ["LevelBot", "LEVEL_NAMES", "BOT_ABOUT", "split_bot_specs", "Bot", "RandomBot", "GreedyBot", "MCTSBot", "ISMCTSBot", "BOTS", "BOT_PARAMS", "register_bot",
           "make_bot", "parse_bot_spec"]
