"""7 Wonders Duel: the end of a turn and of an age — reveal, extra turns, the next age and who starts it.

Rules: HU "Egy játékos köre" (reveal after the action; the extra turn starts after the reveal and is
lost at the end of an age) and the end of an age (all 20 cards taken: the next structure is dealt;
the player on whose side the pawn stands chooses who starts; with the pawn in the centre, the player
who took the last card); ref §6.6 and pitfalls P1 (the 2016 erratum: that player *chooses*; the
option ``next_age_chooser='first_print'`` plays the first printing, where that player starts), P9
(extra turns) and P23 (reveal timing). After Age III the game ends (``scoring.finish_civilian``).

``end_of_turn`` is the automatic work of each age's phase; this module also holds the decision
``choose_starter``.
"""

from __future__ import annotations

from .constants import CHOOSE_STARTER, PLAY
from .scoring import finish_civilian
from .structure import reveal, start_age


def end_of_turn(s) -> None:
    """The action has fully resolved (P23): reveal; at the end of an age lose a pending extra turn (P9)
    and start the next age (or end the game after Age III); else the same seat plays again (extra
    turn) or the other seat plays."""
    reveal(s)
    if s.cards_taken == 20:
        if s.extra_turn:
            s.event("extra_turn_lost", s.player)   # P9
        s.extra_turn = False
        if s.age == 3:
            finish_civilian(s)
            return
        next_age(s)
        return
    s.step = PLAY
    if s.extra_turn:
        s.extra_turn = False
        s.event("extra_turn", s.player)
    else:
        s.player = 1 - s.player


def last_chooser(s) -> int:
    """Who chooses the starter of the next age: the seat on whose side the pawn stands; with the pawn in
    the centre, the seat that took the last card (P1, the 2016 erratum)."""
    if s.pawn > 0:
        return 1
    if s.pawn < 0:
        return 0
    return s.last_taker


def next_age(s) -> None:
    """Deal the next age; its starter is chosen (P1), or with the first printing's rule and the pawn in
    the centre, the last taker simply starts."""
    chooser = last_chooser(s)
    start_age(s, s.age + 1, chooser)
    if s.pawn == 0 and s.game.options["next_age_chooser"] == "first_print":
        s.event("starter", chooser, starter=chooser, age=s.age)   # HU first printing: that seat starts
        return
    s.step = CHOOSE_STARTER


# --- the decision "choose_starter" ------------------------------------------------------------------
def starter_legal(s) -> list:
    g = s.game
    base = g.off["start"]
    table = g.action_space.table
    return [table[base], table[base + 1]]


def choose_starter(s, seat: int) -> None:
    s.player = seat
    s.step = PLAY
    s.event("starter", last_chooser(s), starter=seat, age=s.age)


__all__ = ["end_of_turn", "last_chooser", "next_age", "starter_legal", "choose_starter"]
