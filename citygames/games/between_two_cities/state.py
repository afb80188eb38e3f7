"""Between Two Cities: the state — its fields, declared once, and the dispatch of its decisions.

Rules: ``shared/reference/between_two_cities.md`` (cited as §N) and the Hungarian Capitals rulebook.
Values no source confirms come from ``data/*.yaml`` (marked with their status). Each part of the game
has its module: ``draft.py`` (setup, drawing, choosing, revealing, passing), ``placement.py`` (placing
tiles and duplexes), ``end.py`` (scores, ranking), ``scoring.py`` (the city scoring),
``observation.py`` (what a seat sees, ``resample``).

The turn structure runs on ``citygames.core.phases``: the decisions (``steps.py``) are *choose* and
*discard* (simultaneous: every seat decides in secret, then all are revealed) and *place* and
*place_duplex* (one seat after the other, ascending); the phases are the draft and the end.

The state is flat: all cities' cells in one list (``cells[city * W * W + row * W + col]``), hands as
sorted slots (``hands[hand * hand_size + i]``), per-seat values in lists indexed by seat.
"""

from __future__ import annotations

from citygames.core.flat import Cache, Frozen, List, SimultaneousFlatState, Value
from citygames.core.game import TERMINAL
from citygames.core.phases import Phase, PhaseMachine, Step

from . import draft, end, placement
from .observation import information_state_key as _information_state_key
from .observation import observation as _observation
from .observation import resample as _resample
from .render import describe_action
from .steps import CHOOSE, DECISIONS, DISCARD, P_END, PLACE, PLACE_DUPLEX, STEP_KEYS


def _step(key: str, index: int, legal, handlers: dict, why=None, resolve=None) -> Step:
    assert STEP_KEYS[index] == key
    return Step(DECISIONS[index], legal, handlers, why, key=key, resolve=resolve)


_STEPS = [None] * len(STEP_KEYS)
_STEPS[CHOOSE] = _step("choose", CHOOSE, draft.choose_legal, {"choose": None}, draft.choose_why,
                       resolve=draft.resolve_choose)
_STEPS[DISCARD] = _step("discard", DISCARD, draft.discard_legal, {"discard_duplex": None}, draft.discard_why,
                        resolve=draft.resolve_discard)
_STEPS[PLACE] = _step("place", PLACE, placement.place_legal, {"place": placement.place}, placement.place_why)
_STEPS[PLACE_DUPLEX] = _step("place_duplex", PLACE_DUPLEX, placement.place_duplex_legal,
                             {"place_duplex": placement.place_duplex}, placement.place_duplex_why)

#: the decisions (indexed by ``state.step``) and the phases (indexed by ``state.phase``)
RULES = PhaseMachine(_STEPS, [Phase("draft", draft.run_draft, key="draft"), Phase("end", end.run_end, key="end")],
                     end_phase=P_END)


class BTCState(SimultaneousFlatState):
    """One game of Between Two Cities. Create with ``game.new_initial_state(seed)``.

    See ``citygames.core.game.State`` for the contract. Public helpers for user interfaces, bots and
    tests: ``city_scores()`` (every city's running score by category), ``city_cells(city)``,
    ``lower_city(p)``, ``winners()``, ``single_cells(city)`` / ``duplex_cells(city, d)`` (where a tile
    may go, §4), ``held(p)`` (the hand seat p holds).
    """

    FIELDS = {
        "step": Value("the pending decision: an index of RULES.steps (steps.CHOOSE, DISCARD, PLACE, PLACE_DUPLEX); "
                      "NO_DECISION (0) while automatic work runs and at the end"),
        "phase": Value("the phase: P_DRAFT (0), P_END (1)"),
        "stage": Value("the (half-)round: an index of game.stages ((round, pass) pairs; 2 players play each round "
                       "twice); -1 before the first"),
        "turn": Value("turns taken in this stage (hands passed so far)"),
        "bag": Frozen("the single tiles not drawn yet, as kinds, drawn from the end. Hidden from everybody"),
        "dbag": Frozen("the duplexes not drawn yet (indices of components.duplexes), drawn from the end. Hidden"),
        "hands": List("per hand (hand h: the one seat h drew this stage), its tiles ascending then zeros: "
                      "hands[h * hand_size + i]"),
        "hand_n": List("per hand, how many tiles it holds"),
        "dhands": List("round 2 until the reveal: per seat its 3 duplexes, dhands[p * 3 + i]; -1 otherwise"),
        "todo": List("per seat, the 2 tiles (kinds) or duplexes (indices) revealed and still to place: "
                     "todo[2 * p + i], -1 once placed"),
        "side": List("per seat, this turn: -1 nothing placed yet, 0 / 1 the side (left / right city) of its first "
                     "placement, 2 done"),
        "cells": List("all cities' cells: cells[city * W * W + row * W + col], kind codes (constants.py)"),
        "box": List("per city, the bounding box of its tiles (Capitals: and of its mat): box[4 * city:+4] = "
                    "min row, max row, min col, max col (W, -1, W, -1 when empty)"),
        "count": List("per city, the squares covered by tiles"),
        "discards": Frozen("the last tile of each hand, discarded face down: (stage, hand, kind) triples"),
        "ddiscards": Frozen("the duplexes discarded in round 2: (stage, seat, duplex) triples"),
        "mats": Frozen("Capitals: per city, its landscape mat (index of components.mats); () in the base game"),
        "districts": Frozen("Capitals: the three districts as (type a, type b, scoring tile) triples; ()"),
        "district_discard": Value("Capitals: the district card's type put away at setup (§8.2); -1"),
        "_scores": Cache("every city's score by category, once computed (end.city_scores)"),
        "front": Frozen("per city, the empty cells next to a placed tile (bridges included), ascending"),
    }
    RULES = RULES
    EVENT_PREFIX = "between_two_cities."

    @classmethod
    def new(cls, game, seed: int) -> "BTCState":
        """A new game set up from ``seed`` (§3, §8.2); every seat's first choice is pending."""
        s = cls.blank(game, seed)
        draft.set_up(s, game, seed)
        RULES.advance(s)
        return s

    # --- the contract ----------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == P_END else self.player

    def is_terminal(self) -> bool:
        return self.phase == P_END

    observation = _observation
    information_state_key = _information_state_key
    resample = _resample

    def action_to_string(self, action) -> str:
        return describe_action(self, self._as_action(action))

    # --- public helpers --------------------------------------------------------------------------
    def held(self, p: int) -> int:
        """The hand seat ``p`` holds now (rounds 1 and 3)."""
        return draft.held(self, p)

    def single_cells(self, city: int) -> list[int]:
        """The cells where a single tile may go in ``city`` now (§4, with the fallbacks)."""
        return placement.single_cells(self, city)[1]

    def duplex_cells(self, city: int, d: int) -> list[int]:
        """The cells where duplex ``d``'s left or top half may go in ``city`` now (§4)."""
        return placement.duplex_cells(self, city, d)

    city_cells = end.city_cells
    city_scores = end.city_scores
    city_totals = end.city_totals
    lower_city = end.lower_city
    score_breakdown = end.score_breakdown
    scores = end.scores
    ranking = end.ranking
    returns = end.returns
    winners = end.winners


__all__ = ["BTCState", "RULES"]
