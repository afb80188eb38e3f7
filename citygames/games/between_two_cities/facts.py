"""Between Two Cities: the per-component facts of a finished game, for studies (``game.facts(state)``).

Each fact is a row ``(seat, kind, component, event, when, where)`` (``citygames.core.game.Game.facts``);
``when`` is the round (1-3; the two-player variant's 1a and 1b are both round 1). ``where`` is a square
as ``"c3r2c4"`` (city 3, row 2, column 4 of its grid, all 1-based), or ``""``. A single tile is named by
its kind code (``S F Tm Tf Td Tb O P H``, ``C0``-``C20`` for the Capitals' civic buildings), a duplex by
its id (``H1``-``H12``, ``V1``-``V12``).

==========  =========  ==================  =====  =======  =============================================
kind        component  event               when   where    meaning
==========  =========  ==================  =====  =======  =============================================
``tile``    kind code  ``chosen``          round  ``""``   the seat chose it from the hand it held (one
                                                           row per tile of the revealed pair)
``tile``    kind code  ``placed``          round  square   the seat placed it in one of its cities
``tile``    kind code  ``discarded``       round  ``""``   the last tile of a hand, discarded face down;
                                                           the seat is the one that held the hand last
``duplex``  id         ``kept``            2      ``""``   the seat kept it (revealed)
``duplex``  id         ``discarded``       2      ``""``   the seat discarded it face down (known only at
                                                           the end)
``duplex``  id         ``placed``          2      square   the seat placed it; the square is its left or
                                                           top half's
``city``    city id    ``lower``           3      ``""``   the seat's score came from this city (§5; not
                                                           with 2 players); ``"c3"``-style id
==========  =========  ==================  =====  =======  =============================================

Source: the state's log (``between_two_cities.stage``, ``.reveal``, ``.reveal_duplexes``, ``.place``,
``.place_duplex``) and, at the end, ``state.discards``, ``state.ddiscards`` and ``state.lower_city``.
"""

from __future__ import annotations

from .constants import KIND_CODES


def _square(city: int, cell: int, width: int) -> str:
    return f"c{city + 1}r{cell // width + 1}c{cell % width + 1}"


def facts(state) -> list[tuple]:
    """The facts of ``state`` (normally finished), in the order they happened; the end-of-game facts
    (discards, lower cities) come last."""
    g = state.game
    dups = g.components.duplexes
    W = g.width
    out = []
    append = out.append
    rnd = 0
    for e in state.log:
        kind = e.kind
        d = e.data
        if kind == "between_two_cities.stage":
            rnd = d["round"]
        elif kind == "between_two_cities.reveal":
            for p, pair in enumerate(d["chosen"]):
                for k in pair:
                    append((p, "tile", KIND_CODES[k], "chosen", rnd, ""))
        elif kind == "between_two_cities.reveal_duplexes":
            for p, kept in enumerate(d["kept"]):
                for x in kept:
                    append((p, "duplex", dups[x].id, "kept", 2, ""))
        elif kind == "between_two_cities.place":
            append((e.player, "tile", KIND_CODES[d["tile"]], "placed", rnd, _square(d["city"], d["cell"], W)))
        elif kind == "between_two_cities.place_duplex":
            append((e.player, "duplex", dups[d["duplex"]].id, "placed", 2, _square(d["city"], d["cell"], W)))
    if state.is_terminal():
        n = g.num_players
        last = g.hand_size // 2 - 1
        from .draft import holder_at
        for stage, h, k in state.discards:
            seat = holder_at(g, stage, last, h)
            append((seat, "tile", KIND_CODES[k], "discarded", g.stages[stage][0], ""))
        for _, p, x in state.ddiscards:
            append((p, "duplex", dups[x].id, "discarded", 2, ""))
        if not g.two_player:
            for p in range(n):
                append((p, "city", f"c{state.lower_city(p) + 1}", "lower", 3, ""))
    return out


__all__ = ["facts"]
