"""Deliberately broken variants of the toy game (tests/toygame.py) for the conformance kit's tests.

Each variant breaks one promise of the hidden-information contract (DESIGN.md "Tests"): its
resample redraws nothing or forgets a part, or something a seat is shown (an observation, a log
event's data or text, an action's text or JSON, the legal actions themselves) tells it what it
may not see. Every variant is registered under its own game id, so records replay with the same
variant. ``VARIANTS`` maps each id to the ``CHECK_*`` name of the check that must catch it.
"""

from __future__ import annotations

from dataclasses import replace

from toygame import BONUS_MAX, GRAB, ToyGame, ToyState

from citygames.core import Event, IllegalActionError, register_game, register_renderer
from citygames.core import conformance as kit
from citygames.core.tensor import seat_order


class StaleResampleState(ToyState):
    """``resample`` returns an unchanged copy: the other seats' bonuses and the chance stay as they are."""

    __slots__ = ()

    def resample(self, seat, rng):
        return self.clone()


class PartialResampleState(ToyState):
    """``resample`` redraws only the *next* seat's bonus (and the chance): with three seats or more,
    the bonus of a seat further round the table is never redrawn although it is hidden."""

    __slots__ = ()

    def resample(self, seat, rng):
        s = self.clone()
        if s.last_taker is None:
            nxt = (seat + 1) % self.game.num_players
            s.bonus[nxt] = rng.randbelow(BONUS_MAX + 1)
            s.log = [Event(e.kind, e.player, {"bonus": s.bonus[nxt]}, e.visible_to)
                     if e.kind == "toy.bonus" and e.player == nxt else e for e in s.log]
            s.rng = rng.spawn()
        return s


class LeakyLogDataState(ToyState):
    """Every public ``toy.take`` event carries all the secret bonuses in its data (its text does not
    show them): whoever reads the event data, as the browser does, sees them."""

    __slots__ = ()

    def apply_action(self, action, player=None):
        start = len(self.log)
        super().apply_action(action, player)
        self.log[start] = Event(self.log[start].kind, self.log[start].player,
                                dict(self.log[start].data, bonuses=list(self.bonus)))


class _ForecastEvent(Event):
    """An event whose *text* names the seat the next bonus token goes to; its data does not."""

    __slots__ = ("forecast",)

    def __init__(self, player, forecast):
        super().__init__("toy.forecast", player, {})
        self.forecast = forecast

    @property
    def text(self):
        return f"The next bonus token will go to seat {self.forecast}."


class LeakyLogTextState(ToyState):
    """After each take a public event's text announces where the next bonus token goes (the upcoming
    chance, hidden from everybody); its data stays empty."""

    __slots__ = ()

    def apply_action(self, action, player=None):
        super().apply_action(action, player)
        if self.last_taker is None:
            self.log.append(_ForecastEvent(self.current, self.rng.clone().randbelow(self.game.num_players)))


class LeakyActionTextState(ToyState):
    """Action texts name the next seat's secret bonus."""

    __slots__ = ()

    def action_to_string(self, action):
        nxt = (self.current + 1) % self.game.num_players
        return f"{super().action_to_string(action)} [seat {nxt} has a bonus of {self.bonus[nxt]}]"


class LeakyLegalActionsState(ToyState):
    """Grabbing is forbidden while the next seat's secret bonus is 3: the mover's legal actions tell
    it that bonus."""

    __slots__ = ()

    def legal_actions(self, player=None):
        acts = super().legal_actions(player)
        if self.bonus[(self.current + 1) % self.game.num_players] == BONUS_MAX:
            acts = [a for a in acts if a != GRAB]
        return acts

    def apply_action(self, action, player=None):
        a = self._as_action(action)
        if self.last_taker is None and a not in self.legal_actions():
            raise IllegalActionError("grabbing is forbidden now", a)
        super().apply_action(a, player)


class LeakyObservationState(ToyState):
    """Each seat's observation shows every secret bonus."""

    __slots__ = ()

    def observation(self, seat):
        obs = super().observation(seat)
        if seat is not None:
            obs["bonus"] = list(self.bonus)
        return obs


class LeakySpectatorState(ToyState):
    """The seats' observations are right, but a spectator's shows every secret bonus."""

    __slots__ = ()

    def observation(self, seat):
        obs = super().observation(seat)
        if seat is None:
            obs["bonus"] = list(self.bonus)
        return obs


class BadPositionState(ToyState):
    """The position text forgets the bonus tokens: a state rebuilt from it has none."""

    __slots__ = ()

    def position(self):
        fields = super().position().split()
        fields[4] = ",".join("0" for _ in self.tokens)
        return " ".join(fields)


class LeakyTensorState(ToyState):
    """The observation is right, but the tensor's ``bonus`` slice shows every seat's secret bonus."""

    __slots__ = ()

    def observation_tensor(self, seat):
        t = super().observation_tensor(seat)
        view = self.game.observation_tensor_layout().view(t, "bonus")
        view[:] = [self.bonus[q] for q in seat_order(seat, self.game.num_players)]
        return t


class OutOfBoundsTensorState(ToyState):
    """The tensor writes the pile as a negative number: outside the layout's bounds."""

    __slots__ = ()

    def observation_tensor(self, seat):
        t = super().observation_tensor(seat)
        t[0] = -self.pile
        return t


class WrongMaskState(ToyState):
    """``legal_action_mask`` always allows grabbing, even when fewer than 4 counters are left."""

    __slots__ = ()

    def legal_action_mask(self, seat=None):
        mask = super().legal_action_mask(seat)
        mask[GRAB.id] = 1
        return mask


def _variant(game_id: str, state_class: type, hidden_information: bool = True, json_leak: bool = False) -> type:
    """A ``ToyGame`` subclass registered as ``game_id`` whose states are ``state_class``."""

    class Variant(ToyGame):
        info = replace(ToyGame.info, id=game_id, name=f"Counters ({game_id})", hidden_information=hidden_information)

        @property
        def state_class(self) -> type:
            return state_class

        if json_leak:
            def action_json(self, state, action):
                """The default JSON plus, wrongly, the next seat's secret bonus."""
                nxt = (state.current + 1) % self.num_players
                return dict(super().action_json(state, action), next_bonus=state.bonus[nxt])

    Variant.__name__ = Variant.__qualname__ = "".join(w.capitalize() for w in game_id.split("_"))
    register_game(game_id, Variant)
    return Variant


register_renderer("toy.forecast", lambda e: "A forecast.")

#: game id -> (game class, the ``CHECK_*`` name that must catch it, options to load it with)
VARIANTS = {
    "toy_stale_resample": (_variant("toy_stale_resample", StaleResampleState), kit.CHECK_STALE, {}),
    "toy_partial_resample": (_variant("toy_partial_resample", PartialResampleState), kit.CHECK_PARTIAL,
                             {"num_players": 3}),
    "toy_leaky_log_data": (_variant("toy_leaky_log_data", LeakyLogDataState), kit.CHECK_LOG, {}),
    "toy_leaky_log_text": (_variant("toy_leaky_log_text", LeakyLogTextState), kit.CHECK_LOG, {}),
    "toy_leaky_action_text": (_variant("toy_leaky_action_text", LeakyActionTextState), kit.CHECK_TEXT, {}),
    "toy_leaky_action_json": (_variant("toy_leaky_action_json", ToyState, json_leak=True), kit.CHECK_ACTION_JSON, {}),
    "toy_leaky_legal_actions": (_variant("toy_leaky_legal_actions", LeakyLegalActionsState), kit.CHECK_LEGAL_LEAK,
                                {}),
    "toy_leaky_observation": (_variant("toy_leaky_observation", LeakyObservationState), kit.CHECK_OBSERVATION, {}),
    "toy_leaky_spectator": (_variant("toy_leaky_spectator", LeakySpectatorState), kit.CHECK_SPECTATOR, {}),
    "toy_bad_position": (_variant("toy_bad_position", BadPositionState), kit.CHECK_POSITION, {}),
    "toy_leaky_tensor": (_variant("toy_leaky_tensor", LeakyTensorState), kit.CHECK_TENSOR_LEAK, {}),
    "toy_tensor_bounds": (_variant("toy_tensor_bounds", OutOfBoundsTensorState), kit.CHECK_TENSOR, {}),
    "toy_wrong_mask": (_variant("toy_wrong_mask", WrongMaskState), kit.CHECK_MASK, {}),
}

#: A toy game that resamples nothing but does not claim hidden information either (its bonuses are
#: still masked): the kit cannot ask it to redraw, and must not fail it for that.
UndeclaredStaleGame = _variant("toy_stale_undeclared", StaleResampleState, hidden_information=False)
