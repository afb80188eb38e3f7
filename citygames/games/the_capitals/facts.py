"""The Capitals: the per-component facts of a finished game, for studies (``game.facts(state)``).

Each fact is a row ``(seat, kind, component, event, when, where)`` (``citygames.core.game.Game.facts``);
``when`` is the round (1-12) in which it happened, ``where`` a city slot as ``"x,y"`` in the game's own
coordinates (``game.xy(slot)``: the Hotel is ``"0,0"``, the City Hall ``"1,0"``, y grows downwards),
``""`` when the fact has no place. Components are the ids of ``data/tiles.yaml`` and
``data/prosperity.yaml`` (``"city_hall"``, ``"opera_house"``, ...).

===============  ========================  ============  =====  =========  ========================================
kind             component                 event         when   where      meaning
===============  ========================  ============  =====  =========  ========================================
``tile``         building tile id          ``built``     round  ``"x,y"``  taken from the projects area and built
                                                                           in the seat's city (a Financial
                                                                           District's extra build included)
``prosperity``   prosperity tile id        ``dealt``     0      ``""``     dealt into the seat's hidden hand at
                                                                           setup (Prosperity on)
``prosperity``   prosperity tile id        ``built``     round  ``"x,y"``  built from the hand
``prosperity``   prosperity tile id        ``lake``      round  ``"x,y"``  revealed and built face down as a Lake
                                                                           (the component is the tile given up, not
                                                                           ``"lake"``)
``power_plant``  ``"level_L"`` (L = 2-6)   ``taken``     round  ``""``     an upgrade took the best plant left of
                                                                           level L
``power_plant``  ``"level_L"``             ``declined``  round  ``""``     an owed upgrade to level L was declined
``power_plant``  ``"level_L"``             ``lost``      round  ``""``     an owed upgrade to level L was lost: no
                                                                           plant of level L left
``initiative``   space, 1-based (``"2"``)  ``start``     1      ``""``     the space the setup put the seat on
                                                                           (random order; it orders round 1)
``initiative``   space, 1-based            ``chosen``    round  ``""``     the space chosen in the politics phase
                                                                           of rounds 2-12
===============  ========================  ============  =====  =========  ========================================

The starting Hotel and City Hall are not facts (every city has them from the setup), so a seat's
``tile`` + ``prosperity built`` + ``prosperity lake`` facts are exactly the tiles its city gained.
Rows come in the order things happened. The ``dealt`` facts show the hidden hands: facts are for
finished games, not for showing a seat during play.

Source: the state's log (``state.log``: ``capitals.build``, ``capitals.lake``, ``capitals.deal``,
``capitals.upgrade``, ``capitals.upgrade_declined``, ``capitals.upgrade_lost``, ``capitals.politics``,
``capitals.setup``, and ``capitals.round`` for ``when``). A state built from a position
(``game.state_from_position``) has no log of what came before it: its facts are only what happened
after the position, and ``when`` counts from the position's round.
"""

from __future__ import annotations


def facts(state) -> list[tuple]:
    """The facts of ``state`` (normally finished): a list of ``(seat, kind, component, event, when,
    where)`` tuples (int, str, str, str, int, str), in the order they happened; the table of the module
    docstring says what each kind and event means. Costs one pass over ``state.log``."""
    game = state.game
    c = state.c
    xy = game.xy
    prosperity_ids = frozenset(c.tiles[x].id for x in c.prosperity_tiles)
    first_space = c.first_setup_space + 1   # 1-based
    log = state.log
    # the round the log starts in: each capitals.round event starts the next round
    rnd = state.round - sum(1 for e in log if e.kind == "capitals.round")
    out = []
    append = out.append
    for e in log:
        kind = e.kind
        if kind == "capitals.build":
            d = e.data
            tile = d["tile"]
            append((e.player, "prosperity" if tile in prosperity_ids else "tile", tile, "built", rnd,
                    "%d,%d" % xy(d["slot"])))
        elif kind == "capitals.round":
            rnd = e.data["round"]
        elif kind == "capitals.politics":
            append((e.player, "initiative", str(e.data["space"] + 1), "chosen", rnd, ""))
        elif kind == "capitals.upgrade":
            append((e.player, "power_plant", f"level_{e.data['level']}", "taken", rnd, ""))
        elif kind == "capitals.upgrade_declined":
            append((e.player, "power_plant", f"level_{e.data['level'] + 1}", "declined", rnd, ""))
        elif kind == "capitals.upgrade_lost":
            append((e.player, "power_plant", f"level_{e.data['level'] + 1}", "lost", rnd, ""))
        elif kind == "capitals.lake":
            d = e.data
            append((e.player, "prosperity", d["tile"], "lake", rnd, "%d,%d" % xy(d["slot"])))
        elif kind == "capitals.setup":
            for i, p in enumerate(e.data["order"]):
                append((p, "initiative", str(first_space + i), "start", 1, ""))
        elif kind == "capitals.deal":
            p = e.player
            for tile in e.data["tiles"]:
                append((p, "prosperity", tile, "dealt", 0, ""))
    return out
