"""Between Two Cities beyond the rules: the rules text and its assumptions, records, bots, the terminal
board, facts, the greedy bot's speed."""

from __future__ import annotations

import json
import time

import pytest

from citygames.bots.greedy import GreedyBot
from citygames.core import Rng, load_game
from citygames.core.records import replay
from citygames.games.between_two_cities.board_text import render_text

GAME = "between_two_cities"


def _random_game(g, seed):
    rng = Rng(seed)
    s = g.new_initial_state(seed)
    while not s.is_terminal():
        movers = s.players_to_move()
        p = movers[rng.randbelow(len(movers))]
        legal = s.legal_actions(p)
        s.apply_action(legal[rng.randbelow(len(legal))], player=p)
    return s


def test_describe_rules_lists_every_marked_value():
    g = load_game(GAME, num_players=5, capitals=True)
    text = g.describe_rules(assumptions=True)
    for key in ("tiles.yaml:duplexes[V1].halves", "tiles.yaml:duplexes[V7].halves", "tiles.yaml:rules.placement_order",
                "tiles.yaml:rules.unplaceable_duplex", "tiles.yaml:rules.placement_fallback",
                "tiles.yaml:rules.frame_rule",
                "tiles.yaml:rules.tie_break_more_wins", "tiles.yaml:base.first_tile", "capitals.yaml:mats",
                "capitals.yaml:district_cards", "capitals.yaml:rules.two_players",
                "capitals.yaml:rules.civics_with_landscapes", "capitals.yaml:civics[civic20].plus",
                "scoring.yaml:shop_lines_cross_bridges", "scoring.yaml:districts[tile2].second"):
        assert key in text, key
    assert "Elementary School" in text and "invented placeholder" in text
    assert "civic0" not in [a.path.split("]")[0].split("[")[-1] for a in g.components.assumptions
                            if a.path.startswith("civics")]


def test_data_overrides_reach_the_engine():
    g = load_game(GAME, num_players=3, data_overrides={"tiles.yaml:rules.tie_break_more_wins": False})
    assert g.components.rules["tie_break_more_wins"] is False
    g = load_game(GAME, num_players=3, capitals=True, data_overrides={"capitals.yaml:rules.hand_size": 7})
    s = _random_game(g, 1)
    assert all(c["tiles"] == 16 for c in s.observation(None)["cities"])


@pytest.mark.parametrize("n,capitals", [(2, False), (6, True)])
def test_a_record_with_simultaneous_choices_replays(n, capitals):
    g = load_game(GAME, num_players=n, capitals=capitals)
    s = _random_game(g, 4)
    rec = json.loads(json.dumps(s.record()))
    assert any(isinstance(e, list) for e in rec["actions"])
    assert replay(rec).to_dict() == s.to_dict()


def test_greedy_beats_random_and_a_seven_player_game_takes_seconds():
    from citygames.bots.random_bot import RandomBot
    g = load_game(GAME, num_players=7, capitals=True)
    t0 = time.perf_counter()
    s = g.new_initial_state(3)
    bots = [GreedyBot(p) for p in range(7)]
    while not s.is_terminal():
        p = s.players_to_move()[0]
        s.apply_action(bots[p].step(s, p), player=p)
    assert time.perf_counter() - t0 < 10
    greedy = sum(s.city_totals()) / 7
    g4 = load_game(GAME, num_players=4)
    totals = {"greedy": 0.0, "random": 0.0}
    for kind in (GreedyBot, RandomBot):
        for seed in range(4):
            s = g4.new_initial_state(seed)
            bots = [kind(seed * 10 + p) for p in range(4)]
            while not s.is_terminal():
                p = s.players_to_move()[0]
                s.apply_action(bots[p].step(s, p), player=p)
            totals[kind.name] += sum(s.city_totals())
    assert totals["greedy"] > totals["random"] * 1.1
    assert greedy > 40


@pytest.mark.parametrize("n,capitals", [(7, True), (7, False), (2, True)])
def test_the_terminal_board_fits_120_columns_and_hides_other_hands(n, capitals):
    from rich.text import Text
    g = load_game(GAME, num_players=n, capitals=capitals)
    rng = Rng(0)
    s = g.new_initial_state(0)
    k = 0
    while not s.is_terminal():
        if k % 17 == 0:
            for seat in (0, None):
                text = render_text(s, seat)
                assert max(Text.from_markup(x).cell_len for x in text.splitlines()) <= 120
                if seat is None:
                    assert "Your hand" not in text
        movers = s.players_to_move()
        p = movers[rng.randbelow(len(movers))]
        legal = s.legal_actions(p)
        s.apply_action(legal[rng.randbelow(len(legal))], player=p)
        k += 1
    text = render_text(s, 0)
    assert "Final score sheet" in text and ("lower of its two cities" in text or "sum of its two" in text)
    assert "wins" in text or "win" in text


def test_facts_cover_every_tile_placed():
    g = load_game(GAME, num_players=4, capitals=True)
    s = _random_game(g, 2)
    facts = g.facts(s)
    placed = [f for f in facts if f[3] == "placed"]
    assert len([f for f in placed if f[1] == "tile"]) == 4 * 16        # 8 turns x 2 tiles per seat
    assert len([f for f in placed if f[1] == "duplex"]) == 8
    assert len([f for f in facts if f[1] == "tile" and f[3] == "discarded"]) == 8
    assert len([f for f in facts if f[1] == "city"]) == 4
