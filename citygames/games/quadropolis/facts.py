"""Quadropolis: the per-component facts of a finished game, for studies (``game.facts(state)``).

Each fact is a row ``(seat, kind, component, event, when, where)`` (``citygames.core.game.Game.facts``);
``when`` is the round (1-4 Classic, 1-5 Expert) in which it happened; the end-of-game facts (the
final allocation) carry the last round. ``where`` is a city space as ``"rRcC"`` (row R, column C,
1-based: ``board.space_name``), an architect slot as its side and line (``"top3"``: above column 3,
``"bottom3"`` below it, ``"left2"``: left of row 2, ``"right2"``), or ``""``. A tile is named by its
code (``components.Tile.code``: type letter ``T S P K F H O M``, then its gains and printed VP, ``*``
for the mayor tower, ``+`` for a playground park: ``"T2i"``, ``"H1i1e"``, ``"P2v"``, ``"T1i*"``), so
tiles alike for the rules share a component.

=============  ==========  ===================  =====  ===========  =========================================
kind           component   event                when   where        meaning
=============  ==========  ===================  =====  ===========  =========================================
``tile``       tile code   ``built``            round  space        taken and placed in the seat's city (on
                                                                    top of a stack for a tower or office
                                                                    floor)
``tile``       tile code   ``discarded``        round  ``""``       taken and put back in the box by choice
                                                                    although it could be placed (§6)
``tile``       tile code   ``discarded_forced`` round  ``""``       taken but fitting nowhere in the city:
                                                                    back in the box (§6)
``tile``       tile code   ``activated``        last   space        the top tile of that space is activated
                                                                    by the final allocation (parks and
                                                                    monuments, which need no activation,
                                                                    always; §7)
``tile``       tile code   ``removed``          last   space        the top tile of that space is not
                                                                    activated: the building is removed
                                                                    before scoring (§7)
``tile``       tile code   ``customer``         last   space        one customer on that shop in the final
                                                                    allocation (one row per customer)
``architect``  ``"1"``-     ``took``            round  slot         architect #k put in that slot took a tile
               ``"5"``
``architect``  number      ``empty``            round  slot         it pointed at an empty square: nothing
                                                                    taken
``architect``  number      ``face_down``        round  slot         it pointed at a face-down tile (2-3
                                                                    players): nothing taken
``mayor``      ``"mayor"`` ``start``            1      ``""``       the seat holding the Mayor at setup (it
                                                                    starts round 1)
``mayor``      ``"mayor"`` ``taken``            round  ``""``       the seat built the mayor tower and took
                                                                    the Mayor from another seat (§10 #11)
=============  ==========  ===================  =====  ===========  =========================================

So a seat's city at the end is its ``built`` tiles (a stack shows only its top tile's
``activated``/``removed`` fact: one per occupied space), every ``built`` or ``discarded*`` fact follows
an architect's ``took`` fact, and a seat's Mayor turns are its ``start`` and ``taken`` facts. Rows come
in the order things happened; the end-of-game facts come last, seat by seat. They come from the final
allocation the observation shows (the best one with ``allocation="auto"``, the seat's own with
``"manual"``), and only once the game is over.

Source: the state's log (``state.log``: ``quadropolis.setup``, ``quadropolis.take``,
``quadropolis.build``, ``quadropolis.discard``, ``quadropolis.mayor``, and ``quadropolis.round`` for
``when``) and, at the end, ``end.final_allocation``.
"""

from __future__ import annotations

from .end import final_allocation
from .game import SIDES


def slot_code(slot: int) -> str:
    """An architect slot as its side and line: ``"top3"`` (above column 3), ``"left2"`` (left of row 2)."""
    side, line = divmod(slot, 5)
    return f"{SIDES[side]}{line + 1}"


def facts(state) -> list[tuple]:
    """The facts of ``state`` (normally finished): a list of ``(seat, kind, component, event, when,
    where)`` tuples (int, str, str, str, int, str), in the order they happened; the table of the module
    docstring says what each kind and event means. Costs one pass over ``state.log`` (and, at the end,
    each seat's final allocation)."""
    game = state.game
    b = game.board
    tiles = game.tiles
    log = state.log
    # the round the log starts in: each quadropolis.round event starts the next round
    rnd = state.round - sum(1 for e in log if e.kind == "quadropolis.round")
    out = []
    append = out.append
    for e in log:
        kind = e.kind
        if kind == "quadropolis.take":
            d = e.data
            event = "took" if d["tile"] is not None else ("empty" if d.get("why") == "empty" else "face_down")
            append((e.player, "architect", str(d["k"]), event, rnd, slot_code(d["slot"])))
        elif kind == "quadropolis.build":
            d = e.data
            append((e.player, "tile", tiles[d["tile"]].code, "built", rnd, b.space_name(d["space"])))
        elif kind == "quadropolis.discard":
            d = e.data
            append((e.player, "tile", tiles[d["tile"]].code, "discarded_forced" if d["forced"] else "discarded",
                    rnd, ""))
        elif kind == "quadropolis.round":
            rnd = e.data["round"]
        elif kind == "quadropolis.mayor":
            append((e.player, "mayor", "mayor", "taken", rnd, ""))
        elif kind == "quadropolis.setup":
            append((e.data["mayor"], "mayor", "mayor", "start", 1, ""))
    if state.is_terminal():
        for p in range(game.num_players):
            active, customers = final_allocation(state, p)
            base = p * b.spaces
            for x in range(b.spaces):
                t = state.city_tile[base + x]
                if t < 0:
                    continue
                tile = tiles[t]
                free = not (b.cost_inh[tile.type] or b.cost_energy[tile.type])
                where = b.space_name(x)
                append((p, "tile", tile.code, "activated" if active[x] or free else "removed", rnd, where))
                for _ in range(customers[x]):
                    append((p, "tile", tile.code, "customer", rnd, where))
    return out


__all__ = ["facts", "slot_code"]
