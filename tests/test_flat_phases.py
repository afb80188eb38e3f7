"""core.flat (fields declared once) and core.phases (phases and decision steps), tested on a tiny
engine of their own ("Race to N") and on the declarations of the two real games."""

from __future__ import annotations

import json

import pytest

import citygames
from citygames.core import ActionSpace, Game, GameInfo, IllegalActionError, OptionSpec
from citygames.core.flat import FlatState, Frozen, IntDicts, List, Lists, Lists2, Value
from citygames.core.game import TERMINAL
from citygames.core.phases import NO_DECISION, Phase, PhaseMachine, Step

# --- the tiny engine ------------------------------------------------------------------------------
# Two seats add 1 or 2 to a shared counter in turns; whoever reaches 5 wins. Each time the counter
# passes an even number the mover owes a "bonus" decision (take or skip), settled by the machine's
# interrupt before play goes on.
SPACE = ActionSpace([("add", 2, lambda a: f"add {a + 1}"), ("bonus", 2, lambda a: ("skip", "take")[a] + " the bonus")])
S_ADD, S_BONUS = 1, 2
P_PLAY, P_END = 0, 1


def _legal_add(s):
    return [SPACE.table[0], SPACE.table[1]]


def _add(s, arg):
    before = s.counter
    s.counter += arg + 1
    s.marks[s.player].append(s.counter)
    s.seen[s.player][s.counter] = len(s.history)
    if s.counter // 2 > before // 2:
        s.bonus_due = True
    s.step = NO_DECISION


def _bonus(s, arg):
    s.bonus_due = False
    s.bonuses = s.bonuses + ((s.player, arg),)
    s.step = NO_DECISION
    s.player = 1 - s.player


def _interrupt(s):
    if s.bonus_due and s.step == NO_DECISION:
        s.step = S_BONUS
        return True
    return False


def _run_play(s):
    if s.counter >= 5:
        s.phase = P_END
        return
    if s.history and not s.bonus_due and s.last_mover == s.player:
        s.player = 1 - s.player
    s.last_mover = s.player
    s.step = S_ADD


MACHINE = PhaseMachine(
    [None, Step("add to the counter", _legal_add, {"add": _add}, key="add"),
     Step("take or skip the bonus", lambda s: [SPACE.table[2], SPACE.table[3]], {"bonus": _bonus},
          why=lambda s, a: "bonus: never happens", key="bonus")],
    [Phase("play", _run_play), Phase("game over", lambda s: None)],
    interrupt=_interrupt, end_phase=P_END)


class RaceState(FlatState):
    FIELDS = {
        "counter": Value("the shared counter"),
        "step": Value("the pending decision"),
        "phase": Value("the phase"),
        "last_mover": Value("the seat that moved last"),
        "bonus_due": Value("whether the mover owes a bonus decision"),
        "marks": Lists("per seat, the counter values it reached"),
        "seen": IntDicts("per seat, {counter value: step reached}"),
        "nested": Lists2("per seat, lists of pairs (never changed: checks Lists2 copying)"),
        "bonuses": Frozen("(seat, took) pairs, a tuple replaced whole"),
        "scratch": List("a flat list"),
    }
    RULES = MACHINE

    @classmethod
    def new(cls, game, seed):
        s = cls.blank(game, seed)
        s.counter, s.step, s.phase, s.last_mover, s.bonus_due = 0, NO_DECISION, P_PLAY, -1, False
        s.marks, s.seen, s.nested, s.bonuses, s.scratch = [[], []], [{}, {}], [[[1, 2]], [[3, 4]]], (), [0]
        MACHINE.advance(s)
        return s

    def is_terminal(self):
        return self.phase == P_END

    def current_player(self):
        return TERMINAL if self.is_terminal() else self.player


class Race(Game):
    info = GameInfo(id="race_test", name="Race to 5", min_players=2, max_players=2,
                    options=(OptionSpec("num_players", 2, "seats", min=2, max=2),))
    action_space = SPACE

    def __init__(self, **options):
        super().__init__(options)

    def new_initial_state(self, seed=0):
        return RaceState.new(self, seed)

    def state_from_dict(self, data):
        return RaceState.from_dict(self, data)


# --- core.flat --------------------------------------------------------------------------------------
def test_declared_fields_give_slots_and_a_table_with_descriptions():
    s = Race().new_initial_state()
    assert not hasattr(s, "__dict__")
    with pytest.raises(AttributeError):
        s.undeclared = 1
    names = [name for name, _, _ in RaceState.describe_fields()]
    assert names[:7] == ["game", "seed", "history", "log", "player", "origin", "_legal"]
    assert names[7:] == list(RaceState.FIELDS)
    assert ("bonuses", "Frozen", "(seat, took) pairs, a tuple replaced whole") in RaceState.describe_fields()


@pytest.mark.parametrize("game_id", ["the_capitals", "seven_wonders_duel"])
def test_every_field_of_the_real_games_is_described(game_id):
    cls = type(citygames.load_game(game_id).new_initial_state(0))
    undocumented = [name for name, _, doc in cls.describe_fields() if not doc.strip()]
    assert undocumented == []


def test_generated_clone_copies_every_mutable_kind_and_shares_the_immutable_ones():
    s = Race().new_initial_state()
    s.apply_action(1)
    c = s.clone()
    assert c.to_dict() == s.to_dict()
    assert c.game is s.game and c.bonuses is s.bonuses
    for name in ("marks", "seen", "nested", "scratch", "history", "log"):
        assert getattr(c, name) == getattr(s, name) and getattr(c, name) is not getattr(s, name), name
    assert c.marks[0] is not s.marks[0] and c.seen[0] is not s.seen[0] and c.nested[0][0] is not s.nested[0][0]
    c.apply_action(c.legal_actions()[0])
    c.marks[1].append(99)
    c.nested[1][0].append(9)
    assert s.marks[1] == [] and s.nested[1][0] == [3, 4]


def test_to_dict_round_trips_through_json_and_plays_on_identically():
    s = Race().new_initial_state(3)
    s.apply_action(0)
    d = s.to_dict()
    assert "_legal" not in d and d["game"] == "race_test" and d["seen"] == [[[1, 1]], []]
    back = Race().state_from_dict(json.loads(json.dumps(d)))
    assert back.to_dict() == d and back.bonuses == s.bonuses and isinstance(back.bonuses, tuple)
    for state in (s, back):
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[-1])
    assert back.to_dict() == s.to_dict()


def test_a_subclass_may_not_redeclare_an_inherited_field():
    with pytest.raises(TypeError, match="redeclares inherited field"):
        type("Bad", (RaceState,), {"FIELDS": {"counter": Value("again")}})


# --- core.phases ------------------------------------------------------------------------------------
def test_the_machine_runs_phases_and_interrupts_until_a_decision():
    s = Race().new_initial_state()
    assert (s.step, s.player) == (S_ADD, 0)
    s.apply_action(1)                       # counter 0 -> 2 passes an even number: the bonus is owed first
    assert s.step == S_BONUS and s.player == 0
    assert s.RULES.expects(s) == "play: now Seat 0 must take or skip the bonus"
    s.apply_action(3)
    assert s.bonuses == ((0, 1),) and (s.step, s.player) == (S_ADD, 1)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    assert s.counter >= 5 and s.legal_actions() == [] and s.current_player() == TERMINAL


def test_illegal_actions_name_the_expected_decision_and_change_nothing():
    s = Race().new_initial_state()
    before = s.to_dict()
    with pytest.raises(IllegalActionError, match="play: now Seat 0 must add to the counter"):
        s.apply_action(2)
    assert s.to_dict() == before
    s.apply_action(1)
    with pytest.raises(IllegalActionError, match="play: now Seat 0 must take or skip the bonus"):
        s.apply_action(0)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="the game is over"):
        s.apply_action(0)


def test_step_zero_must_be_no_decision():
    with pytest.raises(ValueError, match="NO_DECISION"):
        PhaseMachine([Step("x", _legal_add, {})], [Phase("play", _run_play)])
