"""The Capitals' evaluation (``game.evaluate``, the greedy bot's and the search cut-off's heuristic):
what it must see, written as positions."""

from __future__ import annotations

from capitals_helpers import Position, act
from citygames.bots import make_bot

GREEN, RED = 0, 1


def _politics(seed: int = 3):
    """Two players, round 3 politics: green (spaces are 1-based in the notation: green on 2, red on
    3) chooses first; both have money enough for any space without a loan."""
    return (Position(2, seed=seed).order(GREEN, RED).seat(GREEN, money=30, space=2).seat(RED, money=30, space=3)
            .at("politics", GREEN, "politics", round=3).state())


def test_an_initiative_choice_is_valued_by_the_order_it_gives():
    """HU "Politika fázis" (reference §2): the new spaces set the round's order. Spaces 3 ($2 x3) and
    4 ($2 x2) cost green the same ($2 x its space's x4), but on space 3 green stays ahead of red (the
    seat still to choose counts on the space it left: 3, and the lower seat wins the tie of the
    spaces), on space 4 it falls behind: the evaluation tells them apart, the earlier order higher."""
    s = _politics()
    game = s.game
    assert s.politics_cost(GREEN, 2) == s.politics_cost(GREEN, 3) == 8
    values = {}
    for space in (2, 3):
        nxt = s.clone()
        nxt.apply_action(act(nxt, "initiative", space))
        values[space] = game.evaluate(nxt, GREEN)
    assert values[2] > values[3] + 0.5


def test_greedy_takes_the_same_priced_space_that_keeps_it_ahead():
    """Before the evaluation read the chosen space, every same-priced space looked alike and the
    greedy bot took one at random; now it takes space 3 (0-based 2) whatever its seed."""
    for seed in range(12):
        s = _politics(seed)
        move = make_bot("greedy", seed).step(s, GREEN)
        assert move.kind == "initiative" and move.arg == 2, (seed, str(move))
