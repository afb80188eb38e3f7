"""The Capitals: the phases of a round and the decisions a player can be asked for, by number.

``state.phase`` and ``state.step`` hold these indices; ``state.RULES`` (a ``core.phases.PhaseMachine``)
maps them to the rule modules. Phases follow the rulebook (HU "A forduló menete", reference §8):
politics, building, tourism, executive, administration, World Expo; the Prosperity expansion adds
its build at the end of marked administration phases, and the game ends with the effects resolved
before the last World Expo and the final scoring.
"""

from __future__ import annotations

# --- phases (indices kept stable: observations and positions name them) -----------------------
(P_POLITICS, P_BUILDING, P_EXECUTIVE, P_ADMIN, P_EXPO, P_END, P_PROSPERITY, P_PRE_EXPO, P_TOURISM,
 P_FINAL) = range(10)
PHASE_NAMES = ("politics", "building", "executive", "administration", "world expo", "game over", "prosperity",
               "before the last world expo", "tourism", "final scoring")

# --- decision steps (0: no decision pending) ----------------------------------------------------
(S_NONE, S_POLITICS, S_TAKE, S_PLACE, S_UPGRADE, S_ACTIVATE, S_PAY, S_FREE, S_TOKEN, S_PROSPERITY,
 S_LAKE, S_REWARD, S_EFFECT) = range(13)
STEP_NAMES = ("none", "choose an initiative space", "take a tile from the projects area",
              "choose where to build the tile", "upgrade the power plant?", "activate a tile or end activations",
              "pay the activation", "choose a tile to activate for free", "move the construction token?",
              "build a prosperity tile or a Lake", "choose where to build the Lake",
              "choose the reward for making no activation", "choose which end-game effect to resolve next")
#: short keys of the steps (position notation)
STEP_KEYS = ("none", "politics", "take", "place", "upgrade", "activate", "pay", "free", "token", "prosperity",
             "lake", "reward", "effect")
