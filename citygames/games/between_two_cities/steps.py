"""Between Two Cities: the names every rule module shares — the decisions a player can be asked for
and the phases.

A decision is a *step* of ``citygames.core.phases``: ``state.step`` holds the index of the pending one
(``NO_DECISION`` = 0 while automatic work is pending and at the end). CHOOSE and DISCARD are
simultaneous steps (every seat decides secretly, then the choices are revealed, §3); PLACE and
PLACE_DUPLEX are sequential (seats in ascending order, §3 PROJECT DEFAULT). Its key is what
``observation()["phase"]`` calls it; its text completes "now Blue must ...".
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION

#: the pending decision, ``state.step``
CHOOSE, DISCARD, PLACE, PLACE_DUPLEX = range(1, 5)
STEP_KEYS = ("end", "choose", "discard", "place", "place_duplex")
DECISIONS = ("", "choose 2 tiles of the hand (secretly; revealed when everybody has chosen)",
             "choose which of the 3 duplexes to discard (secretly; the 2 kept are revealed)",
             "place a chosen tile in one of its two cities",
             "place a kept duplex in one of its two cities")

#: phases (``state.phase``): the draft rounds, then the end
P_DRAFT, P_END = range(2)

__all__ = ["NO_DECISION", "CHOOSE", "DISCARD", "PLACE", "PLACE_DUPLEX", "STEP_KEYS", "DECISIONS", "P_DRAFT",
           "P_END"]
