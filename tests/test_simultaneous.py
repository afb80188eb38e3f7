"""Simultaneous steps in the contract (DESIGN.md "Simultaneous steps"), on the toy game ``toy_sim``
(tests/simtoy.py): several seats to move, each acting with ``apply_action(action, player=seat)``,
choices hidden until the last is in, records of ``[seat, id]`` pairs, ``withdraw``, and the
conformance kit's simultaneous checks catching broken games."""

from __future__ import annotations

import json

import pytest

from citygames.core import SIMULTANEOUS, IllegalActionError, RecordError, load_game
from citygames.core.conformance import CHECK_OBSERVATION, CHECK_SIMULTANEOUS, ConformanceError, check_game
from citygames.core.records import replay

from simtoy import SealedBids, SealedState


def bid(state, seat, coins):
    state.apply_action(state.game.action_space.get("bid", coins), player=seat)


def test_every_seat_moves_at_once_and_the_step_resolves_after_the_last():
    state = load_game("toy_sim").new_initial_state(seed=3)
    assert state.players_to_move() == (0, 1, 2)
    assert state.current_player() == SIMULTANEOUS
    bid(state, 2, 3)
    assert state.players_to_move() == (0, 1)
    assert state.legal_actions(2) == []
    assert [a.arg for a in state.legal_actions(1)] == [0, 1, 2, 3]
    bid(state, 0, 1)
    assert state.log == []                      # nothing revealed yet
    bid(state, 1, 1)
    assert "seat 2 bids 3; seat 2 wins 4 points" in state.log[-1].text
    assert state.players_to_move() == (2,)      # the winner's turn-based decision
    assert state.history == [[2, 3], [0, 1], [1, 1]]


def test_a_pending_choice_is_hidden_from_the_others_and_shown_to_its_seat():
    state = load_game("toy_sim").new_initial_state(seed=3)
    before = {s: state.observation(s) for s in (0, 2, None)}
    bid(state, 1, 2)
    assert state.observation(1)["my_bid"] == 2
    for s in (0, 2, None):
        obs = state.observation(s)
        assert obs["chosen"] == [1] and "my_bid" not in obs
        assert {k: v for k, v in obs.items() if k not in ("chosen", "to_move")} == \
            {k: v for k, v in before[s].items() if k not in ("chosen", "to_move")}


def test_a_seat_that_has_chosen_or_is_not_to_move_is_refused_without_change():
    state = load_game("toy_sim").new_initial_state(seed=3)
    bid(state, 1, 2)
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="has chosen already"):
        bid(state, 1, 1)
    with pytest.raises(IllegalActionError, match="not to move"):
        bid(state, 7, 1)
    assert state.to_dict() == before
    bid(state, 0, 0)
    bid(state, 2, 1)                           # seat 2 wins (1 is its unique bid... 2 is higher: seat 1)
    mover = state.players_to_move()[0]
    other = (mover + 1) % 3
    before = state.to_dict()
    with pytest.raises(IllegalActionError, match="turn"):
        state.apply_action(state.game.action_space.get("keep"), player=other)
    assert state.to_dict() == before


def test_withdraw_takes_a_choice_back_exactly():
    state = load_game("toy_sim").new_initial_state(seed=3)
    bid(state, 0, 1)
    before = state.to_dict()
    bid(state, 1, 2)
    state.withdraw(1)
    assert state.to_dict() == before
    assert state.players_to_move() == (1, 2)
    with pytest.raises(IllegalActionError, match="no choice to take back"):
        state.withdraw(2)
    bid(state, 1, 3)                           # a new choice after withdrawing
    assert state.observation(1)["my_bid"] == 3


def test_the_result_does_not_depend_on_the_order_of_the_choices():
    game = load_game("toy_sim", num_players=4)
    outcomes = []
    for order in ((0, 1, 2, 3), (3, 1, 0, 2), (2, 3, 1, 0)):
        state = game.new_initial_state(seed=9)
        for seat in order:
            bid(state, seat, [1, 3, 2, 3][seat])
        outcomes.append((state.points, state.spent, state.log[-1].text, state.players_to_move()))
    assert outcomes[0] == outcomes[1] == outcomes[2]
    assert outcomes[0][0] == [0, 0, 3, 0]      # 2 is the highest unique bid (the two 3s cancel)


def test_the_record_keeps_seat_and_action_and_replays():
    game = load_game("toy_sim")
    state = game.new_initial_state(seed=4)
    bid(state, 2, 1)
    bid(state, 0, 2)
    rec = json.loads(json.dumps(state.record()))
    assert rec["actions"] == [[2, 1], [0, 2]]
    again = replay(rec)
    assert again.to_dict() == state.to_dict()
    assert again.players_to_move() == (1,)


@pytest.mark.parametrize("actions", [[[0]], [[0, 1, 2]], [["a", 1]], [[True, 1]], [1.5]])
def test_a_record_with_malformed_entries_is_refused(actions):
    rec = {"game": "toy_sim", "version": "1", "options": {}, "seed": 1, "actions": actions}
    with pytest.raises(RecordError, match="pairs"):
        replay(rec)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_conformance_kit_passes_the_toy_game(players):
    report = check_game(load_game("toy_sim", num_players=players), n_games=40, seed=1)
    assert report["games"] == 40 and report["redrawn"] > 0


class _ShowsPendingState(SealedState):
    """Breaks the secrecy of pending choices: every seat sees every seat's bid."""

    __slots__ = ()

    def observation(self, seat):
        obs = super().observation(seat)
        obs["bids"] = list(self.pending)
        return obs


class _OrderDependentState(SealedState):
    """Breaks order independence: the first seat to choose gets a point at the reveal."""

    __slots__ = ()

    def apply_action(self, action, player=None):
        first = self.player == SIMULTANEOUS and all(p < 0 for p in self.pending)
        seat = player if player is not None else (self.players_to_move() or (0,))[0]
        super().apply_action(action, player)
        if first:
            self.points[seat] += 1


class _ShowsPending(SealedBids):
    PARTS = {"state": "test_simultaneous:_ShowsPendingState"}


class _OrderDependent(SealedBids):
    PARTS = {"state": "test_simultaneous:_OrderDependentState"}


@pytest.mark.parametrize("cls, checks", [
    (_ShowsPending, {CHECK_SIMULTANEOUS, CHECK_OBSERVATION}),   # the resample check may see it first
    (_OrderDependent, {CHECK_SIMULTANEOUS}),
])
def test_the_kit_catches_a_broken_simultaneous_step(cls, checks):
    with pytest.raises(ConformanceError) as err:
        check_game(cls(), n_games=10, seed=1)
    assert err.value.check in checks


def test_bots_play_a_simultaneous_game_through_the_cli(run):
    result = run("play", "toy_sim", "--bots", "greedy,random", "--seed", "5")
    assert result.exit_code == 0, result.output
    assert "Bids revealed" in result.output and "wins" in result.output


def test_a_human_chooses_in_a_simultaneous_step_at_the_terminal(run):
    result = run("play", "toy_sim", "--human", "1", "--bots", "random", "--seed", "5", input="1\n" * 40)
    assert result.exit_code == 0, result.output
    assert "bid 0 coins" in result.output


def test_simulate_runs_a_simultaneous_game(run, tmp_path):
    result = run("simulate", "toy_sim", "--games", "20", "--bots", "greedy,random,random", "--seed", "2")
    assert result.exit_code == 0, result.output
