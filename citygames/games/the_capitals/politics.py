"""The Capitals, phase 1: politics (HU "Politika fázis", IT "Fase Politica", reference §2).

In initiative order each player moves its marker to a free space of the initiative track and pays
the top-row $ of the new space times the multiplier of the space it left (HU, IT, P3: blue on the
$3/x4 space moving to space 4 ($2) pays $8). In a 5-player game the rightmost space counts x1 in
round 2 (HU, IT). The new positions set the turn order of the round.
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION

from .steps import P_BUILDING, S_POLITICS
from .tracks import pay


def cost(s, p: int, space: int) -> int:
    """$ that seat ``p`` pays to move to initiative ``space`` (0-based) now.

    Cost = top-row $ of the new space x multiplier of the space left (HU, IT, P3); in a 5-player
    game the rightmost space's multiplier counts x1 in round 2 (HU, IT).
    """
    c = s.c
    old = s.initiative[p]
    mult = c.init_mult[old]
    if s.n == 5 and s.round == 2 and old == len(c.init_mult) - 1:
        mult = c.five_player_round2_mult
    return c.init_cost[space] * mult


def legal(s) -> list:
    """The free usable spaces (spaces above a larger player-count icon are closed)."""
    g = s.game
    table = g.action_space.table
    off = g.off["initiative"]
    taken = set(s.chosen_space)
    return [table[off + space] for space in g.politics_spaces if space not in taken]


def why(s, a) -> str:
    if a.arg not in s.game.politics_spaces:
        return (f"politics: initiative space {a.arg + 1} is not usable with {s.n} players "
                "(HU 'Politika fázis'; spaces above a larger player-count icon are closed)")
    return f"politics: initiative space {a.arg + 1} is already taken this round (HU 'Politika fázis')"


def choose_space(s, space: int) -> None:
    """Step handler: the player to move takes ``space`` and pays for it (with loans if needed)."""
    p = s.player
    price = cost(s, p, space)
    loans = pay(s, p, price)
    s.chosen_space[p] = space
    s.event("politics", p, space=space, paid=price, loans=loans)
    s.turn += 1
    s.step = NO_DECISION


def run(s) -> None:
    """Ask each player in turn order for a space; when all have chosen, the markers move and the
    new order starts the building phase."""
    if s.turn < s.n:
        s.player = s.order[s.turn]
        s.step = S_POLITICS
        return
    s.initiative = list(s.chosen_space)
    s.order = sorted(range(s.n), key=s.initiative.__getitem__)
    s.phase = P_BUILDING
    s.turn = 0
