"""7 Wonders Duel: the per-component facts of a finished game, for studies (``game.facts(state)``).

Each fact is a row ``(seat, kind, component, event, when, where)`` (``citygames.core.game.Game.facts``);
``when`` is the age (1-3) in which it happened, 0 for the wonder draft. Components are named by
``component_id``: the English name of ``data/*.yaml`` in lower case, each run of other characters
than letters and digits made one ``_`` (``"Lumber Yard"`` -> ``"lumber_yard"``, ``"The Statue of
Zeus"`` -> ``"the_statue_of_zeus"``).

==================  =========  =============  ====  =============  ==========================================
kind                component  event          when  where          meaning
==================  =========  =============  ====  =============  ==========================================
``card``            card id    ``built``      age   ``""``         taken from the structure and constructed
                                                                   (paid or chained)
``card``            card id    ``built``      age   ``"discard"``  built free from the discard pile with the
                                                                   Mausoleum
``card``            card id    ``discarded``  age   ``""``         taken from the structure and discarded for
                                                                   coins
``card``            card id    ``tucked``     age   wonder id      taken from the structure and tucked under
                                                                   that wonder to build it
``card``            card id    ``destroyed``  age   ``""``         put into the discard pile by the
                                                                   opponent's Statue of Zeus or Circus
                                                                   Maximus; ``seat`` is the owner who lost it
``wonder``          wonder id  ``drafted``    0     ``""``         taken in the wonder draft
``wonder``          wonder id  ``given``      0     ``""``         dealt by the rulebook's first-game set-up
                                                                   (option ``first_game_wonders``)
``wonder``          wonder id  ``built``      age   ``""``         built
``wonder``          wonder id  ``removed``    age   ``""``         left unbuilt when the 7th wonder was built
                                                                   (out of the game)
``progress_token``  token id   ``taken``      age   ``"board"``    taken from the board (a science pair)
``progress_token``  token id   ``taken``      age   ``"library"``  taken from the box (the Great Library)
==================  =========  =============  ====  =============  ==========================================

Every wonder a seat holds has one ``drafted`` (or ``given``) fact; those built have a ``built``
fact as well, so "drafted but not built" is ``drafted`` without ``built``. A card destroyed keeps
its ``built`` fact; so a seat's city at the end is its ``built`` cards less its ``destroyed`` ones,
and the discard pile is the ``discarded`` and ``destroyed`` cards less those the Mausoleum rebuilt.
Rows come in the order things happened.

Source: the state's log (``state.log``: ``duel.construct``, ``duel.discard``, ``duel.wonder``,
``duel.destroy``, ``duel.mausoleum``, ``duel.draft``, ``duel.fixed_wonders``, ``duel.wonder_removed``,
``duel.progress``, and ``duel.age`` for ``when``). A state built from a position
(``game.state_from_position``) has no log of what came before it: its facts are only what happened
after the position.
"""

from __future__ import annotations

import re

_IDS: dict = {}


def component_id(name: str) -> str:
    """The stable id of a card, wonder or progress token from its English name (``"Lumber Yard"`` ->
    ``"lumber_yard"``): lower case, each run of characters other than a-z and 0-9 made one ``_``."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def component_ids(c) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """``(cards, wonders, tokens)``: the ids (``component_id``) of the ``Components`` ``c``, by index."""
    ids = _IDS.get(id(c))
    if ids is None:
        ids = tuple(tuple(component_id(x.name) for x in group) for group in (c.cards, c.wonders, c.tokens))
        _IDS[id(c)] = ids
    return ids


def facts(state) -> list[tuple]:
    """The facts of ``state`` (normally finished): a list of ``(seat, kind, component, event, when,
    where)`` tuples (int, str, str, str, int, str), in the order they happened; the table of the module
    docstring says what each kind and event means. Costs one pass over ``state.log``."""
    cards, wonders, tokens = component_ids(state.c)
    log = state.log
    # the age the log starts in: each duel.age event starts the next age
    age = state.age - sum(1 for e in log if e.kind == "duel.age")
    out = []
    append = out.append
    for e in log:
        kind = e.kind
        if kind == "duel.construct":
            append((e.player, "card", cards[e.data["card"]], "built", age, ""))
        elif kind == "duel.discard":
            append((e.player, "card", cards[e.data["card"]], "discarded", age, ""))
        elif kind == "duel.wonder":
            d = e.data
            w = wonders[d["wonder"]]
            append((e.player, "card", cards[d["card"]], "tucked", age, w))
            append((e.player, "wonder", w, "built", age, ""))
        elif kind == "duel.age":
            age = e.data["age"]
        elif kind == "duel.progress":
            append((e.player, "progress_token", tokens[e.data["token"]], "taken", age, e.data["source"]))
        elif kind == "duel.destroy":
            append((e.data["owner"], "card", cards[e.data["card"]], "destroyed", age, ""))
        elif kind == "duel.mausoleum":
            append((e.player, "card", cards[e.data["card"]], "built", age, "discard"))
        elif kind == "duel.draft":
            append((e.player, "wonder", wonders[e.data["wonder"]], "drafted", age, ""))
        elif kind == "duel.wonder_removed":
            append((e.player, "wonder", wonders[e.data["wonder"]], "removed", age, ""))
        elif kind == "duel.fixed_wonders":
            for p, held in enumerate(e.data["wonders"]):
                for w in held:
                    append((p, "wonder", wonders[w], "given", age, ""))
    return out
