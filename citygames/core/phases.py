"""Phases and decision steps: the machinery every engine uses to run its rules (DESIGN.md "The game contract").

A game's turn structure is two tables:

- **steps** (``Step``): the decisions a player can be asked for ("choose an initiative space",
  "take a tile from the projects area"). Each step lists its legal actions and, per action kind that
  answers it, the handler that carries the answer out. ``state.step`` is the index of the pending
  decision; index 0 (``NO_DECISION``) means that automatic work is pending.
- **phases** (``Phase``): the parts of a round as the rulebook names them (politics, building, ...).
  Each has a ``run(state)`` that does the automatic work of the phase until it sets a decision,
  moves to another phase or ends the game. ``state.phase`` is the index of the current phase.

``PhaseMachine.apply`` runs a legal action's handler, then ``advance``: while no decision is
pending and the game is not over, an optional ``interrupt`` (work that comes before any phase,
such as a power-plant upgrade owed) and then the current phase's ``run`` are called. The state
must have integer fields ``step`` and ``phase`` and ``player`` (the seat to move).
"""

from __future__ import annotations

from typing import Callable, Sequence

from .events import game_seat_label

__all__ = ["NO_DECISION", "Step", "Phase", "PhaseMachine"]

#: ``state.step`` when no decision is pending (automatic work, or the end of the game).
NO_DECISION = 0

Handler = Callable[[object, int], None]


class Step:
    """One kind of decision.

    Args:
        name: what the player must do, as a phrase completing "now Red must ..." (e.g. "choose an
            initiative space").
        legal: ``legal(state) -> list[Action]``, the legal actions of the player to move.
        handlers: ``{action kind: handler(state, arg)}``; the handler carries out a legal action of
            that kind (``arg`` is the action's argument) and leaves the next decision, or
            ``NO_DECISION``, in ``state.step``.
        why: ``why(state, action) -> str``, the rule an action of one of these kinds breaks when
            it is not legal now (default: a generic message).
        key: a short identifier of the step (``"take"``), used in observations and positions.
        resolve: given for a *simultaneous* step (DESIGN.md "Simultaneous steps"; the state is a
            ``citygames.core.flat.SimultaneousFlatState``): several seats choose at once, each in
            secret. Then ``legal(state, seat)`` gives one seat's legal actions, ``handlers`` only
            names the action kinds that answer the step (``{kind: None}``), and
            ``resolve(state, choices)`` is called once every seat has chosen, with ``choices`` the
            chosen action ids per seat (-1 for a seat that was not in the step): it carries all
            of them out together (the reveal) and leaves the next decision in ``state.step``.
    """

    __slots__ = ("name", "legal", "handlers", "why", "key", "resolve")

    def __init__(self, name: str, legal: Callable, handlers: dict[str, Handler], why: Callable | None = None,
                 key: str = "", resolve: Callable | None = None):
        self.name = name
        self.legal = legal
        self.handlers = handlers
        self.why = why
        self.key = key or name
        self.resolve = resolve

    def __repr__(self) -> str:
        return f"Step({self.key!r})"


class Phase:
    """One part of the round, named as in the rulebook.

    Args:
        name: the rulebook's name ("politics", "executive", ...).
        run: ``run(state)``: the phase's automatic work; it must change something (set a decision,
            the phase, or end the game) or ``PhaseMachine.advance`` would loop.
        key: a short identifier (default: ``name``).
    """

    __slots__ = ("name", "run", "key")

    def __init__(self, name: str, run: Callable[[object], None], key: str = ""):
        self.name = name
        self.run = run
        self.key = key or name

    def __repr__(self) -> str:
        return f"Phase({self.key!r})"


class PhaseMachine:
    """Steps and phases of one game.

    Args:
        steps: indexed by ``state.step``; entry ``NO_DECISION`` is ``None``.
        phases: indexed by ``state.phase``.
        interrupt: optional ``interrupt(state) -> bool`` run before the phase at each automatic
            step; it returns True when it did something (set a decision or changed the state), and
            the machine then looks again.
        end_phase: the phase index that means the game is over, if there is one (faster than asking
            ``state.is_terminal()`` at each automatic step).

    Raises:
        ValueError: entry ``NO_DECISION`` of ``steps`` is not ``None``.
    """

    def __init__(self, steps: Sequence[Step | None], phases: Sequence[Phase], interrupt: Callable | None = None,
                 end_phase: int | None = None):
        if steps[NO_DECISION] is not None:
            raise ValueError("step 0 is NO_DECISION and must be None")
        self.steps = tuple(steps)
        self.phases = tuple(phases)
        self.interrupt = interrupt
        self.end_phase = end_phase

    def legal(self, state) -> list:
        """The pending decision's legal actions (``[]`` when none is pending)."""
        step = self.steps[state.step]
        return step.legal(state) if step is not None else []

    def apply(self, state, action) -> None:
        """Carry out a legal ``action`` (checked by the caller), then ``advance``."""
        self.steps[state.step].handlers[action.kind](state, action.arg)
        self.advance(state)

    def advance(self, state) -> None:
        """Run automatic work until a decision is pending or the game is over."""
        phases = self.phases
        interrupt = self.interrupt
        end = self.end_phase
        while state.step == NO_DECISION:
            if state.phase == end if end is not None else state.is_terminal():
                return
            if interrupt is not None and interrupt(state):
                continue
            phases[state.phase].run(state)

    def expects(self, state) -> str:
        """What the player to move must do now, e.g. ``"politics: now Red must choose an initiative space"``."""
        phase = self.phases[state.phase].name
        step = self.steps[state.step]
        if step is None:
            return f"{phase}: no decision is pending"
        if step.resolve is not None:
            names = [game_seat_label(state.game, p) for p in state.players_to_move()]
            who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            return f"{phase}: now {who} must each {step.name}"
        return f"{phase}: now {game_seat_label(state.game, state.player)} must {step.name}"

    def why_illegal(self, state, action) -> str:
        """The rule an illegal ``action`` breaks: the decision expected when its kind does not answer
        the pending step, else the step's own explanation."""
        step = self.steps[state.step]
        if step is None or action.kind not in step.handlers:
            return self.expects(state)
        if step.why is not None:
            return step.why(state, action)
        return f"{self.phases[state.phase].name}: {action} is not allowed now"
