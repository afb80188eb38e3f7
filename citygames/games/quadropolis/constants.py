"""Quadropolis: the names every rule module shares — the decisions a player can be asked for.

A decision is a *step* of ``citygames.core.phases``: ``state.step`` holds the index of the pending one
(``NO_DECISION`` = 0 while automatic work is pending and at the end). Its key is what
``observation()["phase"]`` calls it; its text completes "now Blue must ...".
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION

#: the pending decision, ``state.step``
TAKE, PLACE, ALLOCATE = range(1, 4)
STEP_KEYS = ("end", "take", "place", "allocate")
DECISIONS = ("", "put an architect in a free slot of the construction site and take the building it points at",
             "place the building taken in the city (or put it back in the box)",
             "allocate inhabitants and energy: activate buildings and put customers on shops")

#: phases (``state.phase``): the rounds, then the end-of-game allocation (option allocation="manual"),
#: then the end
P_ROUNDS, P_ALLOCATION, P_END = range(3)

__all__ = ["NO_DECISION", "TAKE", "PLACE", "ALLOCATE", "STEP_KEYS", "DECISIONS", "P_ROUNDS", "P_ALLOCATION", "P_END"]
