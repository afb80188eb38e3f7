"""Quadropolis's per-component facts (``game.facts(state)``, ``citygames/games/quadropolis/facts.py``):
rows ``(seat, kind, component, event, when, where)`` checked against what the finished game shows
(its observation: cities, allocation, Mayor) and, for a short scripted opening, by hand. Scores are
never looked at (``scoring.py`` is being replaced by an exact search).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

import pytest

import citygames
from citygames.bots import make_bot
from citygames.core.rng import Rng
from citygames.games.quadropolis.facts import slot_code
from citygames.games.quadropolis.game import MAX_K, slot_target
from citygames.sim import bot_seeds, play_game

TYPES = (int, str, str, str, int, str)
GAMES = [
    ({"num_players": 4}, 1, "random"),
    ({"num_players": 2}, 2, "greedy"),
    ({"num_players": 3, "mode": "expert"}, 3, "random"),
    ({"num_players": 2, "mode": "expert", "allocation": "manual"}, 4, "random"),
    ({"num_players": 4, "allocation": "manual"}, 5, "greedy"),
]
EVENTS = {"tile": {"built", "discarded", "discarded_forced", "activated", "removed", "customer"},
          "architect": {"took", "empty", "face_down"}, "mayor": {"start", "taken"}}
SPACE = re.compile(r"^r[1-4]c[1-5]$")
SLOT = re.compile(r"^(top|bottom|left|right)[1-5]$")


def finished(options: dict, seed: int, bot: str):
    game = citygames.load_game("quadropolis", **options)
    bots = [make_bot(bot, s) for s in bot_seeds(seed, game.num_players)]
    return game, play_game(game, bots, seed)


@pytest.mark.parametrize("options,seed,bot", GAMES)
def test_facts_match_the_finished_game(options, seed, bot):
    check_facts(*finished(options, seed, bot))


def check_facts(game, s) -> None:
    """The facts of the finished game ``s``: well formed, and what its final observation shows."""
    n = game.num_players
    b = game.board
    rows = game.facts(s)
    assert rows == game.facts(s)                                      # no side effect
    assert game.facts(game.state_from_dict(s.to_dict())) == rows      # the log travels with the state
    codes = {t.code for t in game.tiles}
    for row in rows:
        assert len(row) == 6 and all(isinstance(v, t) for v, t in zip(row, TYPES)), row
        seat, kind, comp, event, when, where = row
        assert 0 <= seat < n and event in EVENTS[kind], row
        assert 1 <= when <= b.rounds, row
        if kind == "tile":
            assert comp in codes and (SPACE.match(where) if event not in ("discarded", "discarded_forced")
                                      else where == ""), row
        elif kind == "architect":
            assert 1 <= int(comp) <= b.architect_numbers and SLOT.match(where), row
        else:
            assert comp == "mayor" and where == "", row
    final = s.observation(None)
    by = defaultdict(list)
    for r in rows:
        by[r[0], r[1], r[3]].append(r)
    for p in range(n):
        city = {b.space_name(c["space"]): c for c in final["players"][p]["city"]}
        built = by[p, "tile", "built"]
        # every floor built is one built fact; the last one on a space is the tile on top
        heights = Counter(r[5] for r in built)
        tops = {r[5]: r[2] for r in built}
        occupied = {sp: c for sp, c in city.items() if c["tile"] is not None}
        assert heights == Counter({sp: c["height"] for sp, c in occupied.items()})
        assert tops == {sp: game.tiles[c["tile"]].code for sp, c in occupied.items()}
        # every tile taken was built or discarded; every architect used is one fact
        taken = by[p, "architect", "took"]
        assert len(taken) == len(built) + len(by[p, "tile", "discarded"]) + len(by[p, "tile", "discarded_forced"])
        used = len(taken) + len(by[p, "architect", "empty"]) + len(by[p, "architect", "face_down"])
        assert used == b.rounds * b.turns_per_round
        if n == 4:
            assert not by[p, "architect", "face_down"]
        # the final allocation: one activated-or-removed fact per occupied space, customers per shop
        end = {r[5]: r[3] for r in by[p, "tile", "activated"] + by[p, "tile", "removed"]}
        assert set(end) == set(occupied)
        for sp, c in occupied.items():
            ty = game.tiles[c["tile"]].type
            free = not (b.cost_inh[ty] or b.cost_energy[ty])
            assert end[sp] == ("activated" if c["active"] or free else "removed"), sp
        assert Counter(r[5] for r in by[p, "tile", "customer"]) == Counter(
            {sp: c["customers"] for sp, c in occupied.items() if c["customers"]})
        assert all(r[4] == b.rounds for r in by[p, "tile", "activated"] + by[p, "tile", "removed"])
    # the Mayor: one start, then each change; the last one holds it at the end
    mayors = [r for r in rows if r[1] == "mayor"]
    assert mayors[0][3] == "start" and [r[3] for r in mayors[1:]] == ["taken"] * (len(mayors) - 1)
    assert mayors[-1][0] == final["mayor"]
    assert all(a[0] != c[0] for a, c in zip(mayors, mayors[1:]))
    # rounds are non-decreasing in the order facts happened
    whens = [r[4] for r in rows if r[1] != "mayor" or r[3] != "start"]
    assert whens == sorted(whens)


def _crowded_game(options: dict, seed: int):
    """A game played at random but always with the lowest architect number, always building, and
    activating and adding customers by hand until nothing is left (never ``best``): cities crowd their
    first row and column, so late tiles fit nowhere, and shops get customers."""
    game = citygames.load_game("quadropolis", **options)
    s = game.new_initial_state(seed)
    rng = Rng(seed)
    while not s.is_terminal():
        legal = s.legal_actions()
        if legal[0].kind == "take":
            k = min(a.arg % MAX_K for a in legal)
            pool = [a for a in legal if a.arg % MAX_K == k]
        else:
            pool = ([a for a in legal if a.kind in ("build", "activate", "customer")]
                    or [a for a in legal if a.kind == "finish"] or legal)
        s.apply_action(pool[rng.randbelow(len(pool))])
    return game, s


def test_facts_cover_every_event():
    seen = set()
    for options, seed, bot in GAMES:
        game, s = finished(options, seed, bot)
        seen |= {(r[1], r[3]) for r in game.facts(s)}
    game, s = _crowded_game({"num_players": 4, "allocation": "manual"}, 3)
    check_facts(game, s)
    rows = game.facts(s)
    seen |= {(r[1], r[3]) for r in rows}
    assert seen == {(k, e) for k, events in EVENTS.items() for e in events}
    # the customers are the hand allocation's, one row each
    final = s.observation(None)
    assert sum(1 for r in rows if r[3] == "customer") == sum(c["customers"] for pl in final["players"]
                                                             for c in pl["city"])


def test_facts_of_a_short_opening_by_hand():
    """The first turns of a game, written out: the Mayor's holder starts, each architect is a fact at its
    slot, each tile built or discarded a fact at its space; nothing of the end before the end."""
    game = citygames.load_game("quadropolis", num_players=4)
    s = game.new_initial_state(9)
    first = s.mayor
    expected = [(first, "mayor", "mayor", "start", 1, "")]
    rng = Rng(4)
    for turn in range(6):
        p = s.current_player()
        a = s.legal_actions()[rng.randbelow(len(s.legal_actions()))]
        slot, k = divmod(a.arg, MAX_K)
        tile = s.site[slot_target(slot, k + 1)]
        s.apply_action(a)
        event = "took" if tile >= 0 else "empty"
        expected.append((p, "architect", str(k + 1), event, 1, slot_code(slot)))
        if s.step == 2:   # the place decision
            if turn % 3 == 2:
                s.apply_action(game.off["discard"])
                expected.append((p, "tile", game.tiles[tile].code, "discarded", 1, ""))
            else:
                x = s.legal_actions()[0].arg
                s.apply_action(game.off["build"] + x)
                expected.append((p, "tile", game.tiles[tile].code, "built", 1, game.board.space_name(x)))
                if game.tiles[tile].mayor and p != first:
                    expected.append((p, "mayor", "mayor", "taken", 1, ""))
    assert game.facts(s) == expected


def test_slot_codes():
    assert [slot_code(i) for i in (0, 4, 5, 10, 19)] == ["top1", "top5", "bottom1", "left1", "right5"]
