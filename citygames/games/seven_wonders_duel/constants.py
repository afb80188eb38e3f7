"""7 Wonders Duel: the names every rule module shares — the decisions a player can be asked for,
the victory types and the score categories.

A decision is a *step* of ``citygames.core.phases``: ``state.step`` holds the index of the pending
one (``NO_DECISION`` = 0 while automatic work is pending and at the end of the game). Its key is
what ``observation()["phase"]`` and the position notation call it; its text completes "now North
must ...".
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION

# --- decisions (steps) ---------------------------------------------------------------------------
#: the pending decision, ``state.step``
DRAFT, PLAY, TOKEN, LIBRARY, DESTROY, MAUSOLEUM, CHOOSE_STARTER = range(1, 8)
#: per step index, its key (index 0: ``"end"``, the only way no decision is pending between actions)
STEP_KEYS = ("end", "draft", "play", "progress_token", "library", "destroy", "mausoleum", "choose_starter")
#: per step index, what the player to move must do
DECISIONS = ("", "take one of the revealed wonders",
             "take an accessible card: construct it, discard it or build a wonder",
             "take a progress token from the board (science pair)",
             "keep one of the 3 progress tokens drawn by the Great Library",
             "put one of the opponent's cards into the discard pile",
             "build a card from the discard pile for free (Mausoleum)",
             "choose who starts the next age")

# --- the end of the game (HU "A játék vége és a győztes", ref §6.7) ---------------------------------
VICTORY_NAMES = ("civilian", "military", "science", "shared")
CIVILIAN, MILITARY, SCIENCE, SHARED = range(4)

#: the categories of ``score_breakdown`` (ref §7), in score-sheet order
CATEGORIES = ("military", "blue", "green", "yellow", "purple", "wonders", "progress", "coins")

#: ages in the rulebook's numerals (index 0: the wonder draft, before Age I)
ROMAN = ("", "I", "II", "III")

__all__ = ["NO_DECISION", "DRAFT", "PLAY", "TOKEN", "LIBRARY", "DESTROY", "MAUSOLEUM", "CHOOSE_STARTER", "STEP_KEYS",
           "DECISIONS", "VICTORY_NAMES", "CIVILIAN", "MILITARY", "SCIENCE", "SHARED", "CATEGORIES", "ROMAN"]
