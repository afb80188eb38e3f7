"""Quadropolis: the state — its fields, declared once, and the dispatch of its decisions.

Rules: ``shared/rulebooks/quadropolis.hu.txt`` (HU) and ``shared/reference/quadropolis.md`` (cited
§N). Values no source confirms come from ``data/*.yaml`` (marked with their status). Each part of
the game has its module: ``site.py`` (setup, rounds, taking a building), ``city.py`` (placing it),
``end.py`` (allocation, scores, ranking), ``scoring.py`` (the score pad, the best allocation),
``observation.py`` (what a seat sees, ``resample``).

The turn structure runs on ``citygames.core.phases``: the decisions (``constants.py``) are *take*
(an architect into a slot), *place* (the building taken into the city) and, with
``allocation="manual"``, *allocate*; the phases are the rounds, the hand allocation and the end.

The state is flat: per-seat values are lists indexed ``seat * width + i`` (a city space ``x`` of
seat ``p`` is ``p * board.spaces + x``); the construction site is 25 squares ``row * 5 + col``.
"""

from __future__ import annotations

from citygames.core.flat import Cache, FlatState, Frozen, List, Value
from citygames.core.game import TERMINAL
from citygames.core.phases import Phase, PhaseMachine, Step

from . import city, end, site
from .constants import ALLOCATE, DECISIONS, P_END, PLACE, STEP_KEYS, TAKE
from .observation import information_state_key as _information_state_key
from .observation import observation as _observation
from .observation import resample as _resample
from .render import describe_action


def _step(key: str, index: int, legal, handlers: dict, why=None) -> Step:
    assert STEP_KEYS[index] == key
    return Step(DECISIONS[index], legal, handlers, why, key=key)


_STEPS = [None] * len(STEP_KEYS)
_STEPS[TAKE] = _step("take", TAKE, site.take_legal, {"take": site.take}, site.take_why)
_STEPS[PLACE] = _step("place", PLACE, city.place_legal, {"build": city.build, "discard": city.discard},
                      city.place_why)
_STEPS[ALLOCATE] = _step("allocate", ALLOCATE, end.allocate_legal,
                         {"activate": end.activate, "customer": end.customer, "best": end.use_best,
                          "finish": end.finish_allocation}, end.allocate_why)

#: the decisions (indexed by ``state.step``) and the phases (indexed by ``state.phase``)
RULES = PhaseMachine(_STEPS, [Phase("rounds", site.run_rounds, key="rounds"),
                              Phase("allocation", end.run_allocation, key="allocation"),
                              Phase("end", end.run_end, key="end")])


class QuadropolisState(FlatState):
    """One game of Quadropolis. Create with ``game.new_initial_state(seed)``.

    See ``citygames.core.game.State`` for the contract. Public helpers for user interfaces, bots and
    tests: ``placements(p, tile, k)`` (§6), ``architect_available(p, k)`` (§4), ``best(p)`` (the best
    allocation, §7), ``score_breakdown(p)``, ``empty_spaces(p)``, ``winners()``.
    """

    FIELDS = {
        "step": Value("the pending decision: an index of RULES.steps (constants TAKE, PLACE, ALLOCATE); "
                      "NO_DECISION (0) while automatic work runs and at the end"),
        "phase": Value("the phase: P_ROUNDS (0), P_ALLOCATION (1, hand allocation), P_END (2)"),
        "round": Value("the current round, 1-4 (Classic) or 1-5 (Expert); 0 before round 1 is dealt"),
        "turn": Value("turns taken in this round, 0 .. 4 * players"),
        "first": Value("the seat that started this round (the Mayor's holder when it began)"),
        "mayor": Value("the seat holding the Mayor (first player of the next round)"),
        "decks": Frozen("per round (index 1..rounds; index 0 unused), the 25 tiles it will deal, in square "
                        "order; () once dealt. Hidden from everybody"),
        "site": List("the construction site: per square (row * 5 + col), the tile there, -1 when empty"),
        "face_down": List("per square, whether its tile is face down (marker by player count, §3)"),
        "slot_k": List("per architect slot (0-19, game.SIDES), the number of the architect in it, 0 when free"),
        "slot_seat": List("per slot, the seat whose architect is in it, -1 when free"),
        "architects": List("Classic: per seat and number, 1 while unused this round: architects[p * 4 + k - 1]; "
                           "Expert: per number, the copies left in the pool: architects[k - 1]"),
        "urbanist": Value("the square the Urbanist stands on, -1 beside the board"),
        "taken": Value("the tile taken, waiting to be placed (the place decision), else -1"),
        "taken_k": Value("the number of the architect that took it, else 0"),
        "city_tile": List("per seat and space, the top tile there, -1 empty: city_tile[p * spaces + x]"),
        "city_height": List("per seat and space, the floors of the stack there (0 empty)"),
        "inhabitants": List("per seat, the inhabitants it holds"),
        "energy": List("per seat, the energy it holds"),
        "active": List("hand allocation: per seat and space, 1 once its top tile is activated"),
        "customers": List("hand allocation: per seat and space, the customers on the shop there"),
        "allocated": List("hand allocation: per seat, whether it has finished"),
        "_best": Cache("per seat, the best allocation of the city as it stands (a dict), once computed"),
    }
    RULES = RULES
    EVENT_PREFIX = "quadropolis."

    @classmethod
    def new(cls, game, seed: int) -> "QuadropolisState":
        """A new game set up from ``seed`` (§3); the first player's first take is pending."""
        s = cls.blank(game, seed)
        site.set_up(s, game, seed)
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
    def placements(self, p: int, tile: int, k: int) -> list[int]:
        """Spaces of seat ``p``'s city where ``tile`` may go with architect #k (§6); see ``city.placements``."""
        return city.placements(self, p, tile, k)

    architect_available = site.architect_available
    best = end.best
    score_breakdown = end.score_breakdown
    scores = end.scores
    ranking = end.ranking
    returns = end.returns
    winners = end.winners
    empty_spaces = end.empty_spaces


__all__ = ["QuadropolisState", "RULES"]
