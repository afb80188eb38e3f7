"""The log names players, not seats (issue 15, defect 4), in all four games.

Seeded random games of every engine are rendered twice: as the engine alone says it, and under
``named_seats`` with made-up player names. Every named sentence must be the plain sentence with each
seat name (as a word, capitalised as the engine writes seats) replaced by that seat's player name, so
no seat name is left where a player is meant and nothing else changes; the plain sentences do not
depend on whether ``named_seats`` was ever used (``named_seats(None)`` keeps them byte-identical; the
golden and playthrough tests pin them to the recorded texts).
"""

from __future__ import annotations

import re

import pytest

from citygames.core import Rng
from citygames.core.conformance import random_move
from citygames.core.errors import IllegalActionError
from citygames.core.events import named_seats
from citygames.core.registry import load_game

NAMES = ["Annabel", "Bartholomew", "Cordelia", "Desmond", "Euphemia"]

CASES = [("the_capitals", 2, 3), ("the_capitals", 4, 5), ("seven_wonders_duel", 2, 7),
         ("quadropolis", 3, 11), ("between_two_cities", 3, 13), ("between_two_cities", 2, 17)]


def _play(game_id: str, n: int, seed: int):
    game = load_game(game_id, num_players=n)
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    while not state.is_terminal():
        random_move(state, rng)
    return game, state


def _swap(text: str, seats: list[str], names: list[str]) -> str:
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, seats)) + r")\b")
    return pattern.sub(lambda m: names[seats.index(m.group(1))], text)


@pytest.mark.parametrize("game_id,n,seed", CASES)
def test_log_sentences_name_the_players(game_id, n, seed):
    game, state = _play(game_id, n, seed)
    seats = [game.seat_name(p) for p in range(n)]
    names = NAMES[:n]
    plain = [e.text for e in state.log]
    with named_seats(names):
        named = [e.text for e in state.log]
    with named_seats(None):
        assert [e.text for e in state.log] == plain
    assert [e.text for e in state.log] == plain     # the names do not leak out of the block
    seat_word = re.compile(r"\b(" + "|".join(seats) + r")\b")
    for before, after in zip(plain, named):
        assert after == _swap(before, seats, names)
        assert not seat_word.search(after), after
    joined = "\n".join(named)
    for p, name in enumerate(names):     # every player is named somewhere (the final scores at least)
        assert name in joined, (name, joined[-500:])
    # events about one seat name that seat's player
    for e, after in zip(state.log, named):
        if e.player is not None and e.player >= 0 and seats[e.player] in plain[state.log.index(e)]:
            assert names[e.player] in after


@pytest.mark.parametrize("game_id,n,seed", CASES[::2] + [CASES[-1]])
def test_refusals_and_turn_descriptions_name_the_players(game_id, n, seed):
    game = load_game(game_id, num_players=n)
    state = game.new_initial_state(seed)
    names = NAMES[:n]
    seats = [game.seat_name(p) for p in range(n)]
    rng = Rng(seed)
    checked = 0
    for _ in range(40):
        movers = state.players_to_move()
        others = [p for p in range(n) if p not in movers]
        if others:
            legal = state.legal_actions(movers[0])
            with named_seats(names):
                with pytest.raises(IllegalActionError) as exc:
                    state.apply_action(legal[0], player=others[0])
                expects = state.RULES.expects(state)
            plain_expects = state.RULES.expects(state)
            message = exc.value.rule    # the rule, without the action's own name
            assert names[others[0]] in message and not re.search(r"\b(" + "|".join(seats) + r")\b", message)
            assert expects == _swap(plain_expects, seats, names)
            assert any(names[p] in expects for p in movers), expects
            checked += 1
        random_move(state, rng)
    assert checked


def test_the_duel_choice_of_who_starts_names_the_players():
    game = load_game("seven_wonders_duel")
    state = game.new_initial_state(7)
    rng = Rng(7)
    while not any(a.kind == "start" for a in state.legal_actions()):
        random_move(state, rng)
    starts = [a for a in state.legal_actions() if a.kind == "start"]
    assert [state.action_to_string(a) for a in starts] == ["North starts the next age", "South starts the next age"]
    with named_seats(["Annabel", "Bartholomew"]):
        assert [state.action_to_string(a) for a in starts] == ["Annabel starts the next age",
                                                               "Bartholomew starts the next age"]
        assert [game.action_json(state, a)["text"] for a in starts][0] == "Annabel starts the next age"
