"""Tests of citygames.bots on the toy game."""

from __future__ import annotations

import pickle

import pytest

from citygames.bots import BOTS, Bot, GreedyBot, RandomBot, make_bot, register_bot
from citygames.core import Rng, load_game
from citygames.core.conformance import play_random_game
from citygames.sim import simulate


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_bots_play_legal_moves_to_the_end(kind, num_players):
    game = load_game("toy", num_players=num_players, big_pile=True)
    for seed in range(10):
        bots = [make_bot(kind, seed * 10 + s) for s in range(num_players)]
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            player = state.current_player()
            before = state.to_dict()
            action = bots[player].step(state)
            assert state.to_dict() == before  # choosing does not change the state
            assert action in state.legal_actions()
            state.apply_action(action)
        assert sum(state.returns()) == 1.0


def test_random_bot_covers_all_legal_actions():
    game = load_game("toy")
    state = game.new_initial_state(seed=0)
    bot = RandomBot(3)
    assert {bot.step(state).id for _ in range(200)} == {a.id for a in state.legal_actions()}


def test_bots_are_deterministic_for_a_seed():
    game = load_game("toy", num_players=3, big_pile=True)

    def play(kind, seed):
        bots = [make_bot(kind, seed + s) for s in range(3)]
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        return state.history

    for kind in ("random", "greedy"):
        assert play(kind, 4) == play(kind, 4)


def test_greedy_beats_random_clearly():
    # 200 two-player games, greedy in seat 0 for half and seat 1 for the other half
    first = simulate("toy", {"num_players": 2}, ["greedy", "random"], 100, seed=0, workers=1)
    second = simulate("toy", {"num_players": 2}, ["random", "greedy"], 100, seed=1000, workers=1)
    wins = sum(r.winner == 0 for r in first) + sum(r.winner == 1 for r in second)
    assert wins / 200 > 0.65


def test_greedy_takes_the_best_immediate_move():
    game = load_game("toy", last_bonus=5)
    # find a state where the pile can be emptied at once: taking the last counters wins 5 points
    for seed in range(200):
        state = game.new_initial_state(seed=seed)
        rng = Rng(seed)
        while not state.is_terminal() and state.pile > 3:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randbelow(len(legal))])
        if not state.is_terminal():
            break
    action = GreedyBot(0).step(state)
    assert action.kind == "take" and action.arg + 1 == state.pile


def test_greedy_does_not_use_hidden_information():
    game = load_game("toy", num_players=3)
    for seed in range(30):
        state = game.new_initial_state(seed=seed)
        rng = Rng(seed)
        for _ in range(rng.randbelow(4)):
            legal = state.legal_actions()
            state.apply_action(legal[rng.randbelow(len(legal))])
        if state.is_terminal():
            continue
        me = state.current_player()
        other = state.clone()
        for seat in range(3):
            if seat != me:
                other.bonus[seat] = (other.bonus[seat] + 1 + seat) % 4
        assert other.observation(me) == state.observation(me)
        for bot_seed in range(5):
            assert GreedyBot(bot_seed).step(state) == GreedyBot(bot_seed).step(other)


def test_greedy_breaks_ties_with_its_rng(monkeypatch):
    game = load_game("toy", num_players=2)
    state = game.new_initial_state(seed=0)
    monkeypatch.setattr(type(game), "evaluate", lambda self, s, p: 0.0)  # every action ties
    picks = {GreedyBot(seed).step(state).id for seed in range(60)}
    assert picks == {a.id for a in state.legal_actions()}


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_bots_pickle_with_their_rng_state(kind):
    game = load_game("toy", big_pile=True)
    state = game.new_initial_state(seed=9)
    bot = make_bot(kind, 5)
    bot.step(state)
    copy = pickle.loads(pickle.dumps(bot))
    assert type(copy) is type(bot) and copy.name == kind and copy.seed == 5
    assert copy.rng.state == bot.rng.state
    assert [copy.step(state) for _ in range(10)] == [bot.step(state) for _ in range(10)]


def test_make_bot_and_registry():
    assert BOTS["random"] is RandomBot and BOTS["greedy"] is GreedyBot
    bot = make_bot("greedy", 12)
    assert isinstance(bot, GreedyBot) and bot.seed == 12 and repr(bot) == "GreedyBot(seed=12)"
    with pytest.raises(ValueError, match="unknown bot 'wizard'.*greedy, hard, ismcts, mcts, medium, random"):
        make_bot("wizard", 0)


def test_register_bot_plugs_in():
    class FirstBot(Bot):
        name = "first"

        def step(self, state, player=None):
            return self._legal(state, player)[1][0]

    register_bot("first", FirstBot)
    try:
        bot = make_bot("first", 1)
        state = load_game("toy").new_initial_state(seed=0)
        assert bot.step(state) == state.legal_actions()[0]
    finally:
        del BOTS["first"]


def test_bots_refuse_finished_games_and_wrong_seats():
    game = load_game("toy")
    final = play_random_game(game, seed=1)
    for kind in ("random", "greedy"):
        with pytest.raises(ValueError, match="finished"):
            make_bot(kind, 0).step(final)
    state = game.new_initial_state(seed=1)
    with pytest.raises(ValueError, match="no legal action"):
        make_bot("random", 0).step(state, player=1)
