"""Between Two Cities's fixed-size views for learning (``citygames/games/between_two_cities/TENSOR.md``): the
observation tensor holds what ``observation(seat)`` shows, in the documented layout, from the observer's
side, within its bounds, and nothing hidden (the hands not held, the bag, the duplex stack, the other
seats' secret choices); the length of a game.

Everything goes through the public API: states of seeded random games (simultaneous steps in random
order), their observations, positions and ``resample``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from citygames import load_game
from citygames.core.rng import Rng
from citygames.core.tensor import seat_order
from citygames.games.between_two_cities.constants import KIND_CODES, TYPE_NAMES
from citygames.games.between_two_cities.game import PAIRS
from citygames.games.between_two_cities.steps import STEP_KEYS
from citygames.games.between_two_cities.scoring import CATEGORIES

from play_helpers import explain, tensor_maxima
from play_helpers import random_states as _random_states

TENSOR_MD = Path(__file__).resolve().parents[1] / "citygames" / "games" / "between_two_cities" / "TENSOR.md"
OPTION_SETS = [(2, False), (3, False), (7, False), (2, True), (4, True), (7, True)]
GAME = "between_two_cities"


def game(n=4, capitals=False):
    return load_game(GAME, num_players=n, capitals=capitals)


def option_id(o) -> str:
    return f"{o[0]}p-{'capitals' if o[1] else 'base'}"


def random_states(g, seeds, every: int = 1):
    """Every ``every``-th state (and the last) of seeded random games."""
    return _random_states(g, seeds, every, rng_seed=lambda seed: seed * 7 + 1)


def cities_seen_by(g, seat):
    p = 0 if seat is None else seat
    n = g.num_players
    if n == 2:
        q = 1 - p
        return [2 * p, 2 * p + 1, 2 * q, 2 * q + 1]
    return [(p - 1 + k) % n for k in range(n)]


def reference(s, seat) -> np.ndarray:
    """The tensor written slowly from ``observation(seat)`` alone, following the layout's docs: what the fast
    tensor must equal."""
    g = s.game
    lay = g.observation_tensor_layout()
    obs = s.observation(seat)
    n = g.num_players
    v = np.zeros(lay.size, np.float32)

    def V(name):
        return lay.view(v, name)

    order = seat_order(seat, n)
    kinds = sorted(set(g.singles))
    col = {k: i for i, k in enumerate(kinds)}
    V("step")[STEP_KEYS.index(obs["phase"])] = 1
    if seat is not None:
        V("seat")[seat] = 1
    labels = [f"{r}{'ab'[h]}" if g.two_player else str(r) for r, h in g.stages]
    V("stage")[labels.index(obs["stage"])] = 1
    V("turn")[0] = obs["turn"]
    for p in obs["to_move"]:
        V("to_move")[order.index(p)] = 1
    for p in obs["chosen"]:
        V("chosen")[order.index(p)] = 1
    if obs["pending"] is not None:
        a = g.decode(obs["pending"]["id"])
        if a.kind == "choose":
            for k in PAIRS[a.arg]:
                V("my_choice_tiles")[col[k]] += 1
        else:
            V("my_choice_duplex")[a.arg] = 1
    for p in range(n):
        V("hand_sizes")[order.index(p)] = obs["hand_sizes"][p]
    for hk in obs["hands_known"] or []:
        r = order.index(hk["holder"])
        V("known_hand")[r] = 1
        for k in hk["tiles"]:
            V("known_hands")[r, col[k]] += 1
    if obs["hand"] is not None:
        assert sorted(obs["hand"]) == sorted(k for k in kinds for _ in range(int(V("known_hands")[0, col[k]])))
    for d in obs["duplexes"] or []:
        V("my_duplexes")[d] = 1
    for kd in obs["known_discards"]:
        V("known_discards")[col[kd["kind"]]] += 1
    for d in obs["discarded_duplexes"]:
        V("my_discarded_duplexes")[d] = 1
    for p, tp in enumerate(obs["to_place"]):
        r = order.index(p)
        for k in tp.get("tiles", []):
            V("to_place_tiles")[r, col[k]] += 1
        for d in tp.get("duplexes", []):
            V("to_place_duplexes")[r, d] = 1
        if tp["side_done"] is not None:
            V("side_done")[r, tp["side_done"]] = 1
    cats = CATEGORIES if g.capitals else CATEGORIES[:6]
    mats = [m.id for m in g.components.mats]
    for i, c in enumerate(cities_seen_by(g, seat)):
        city = obs["cities"][c]
        assert city["city"] == c
        for x, k in enumerate(city["cells"]):
            if KIND_CODES[k] == "#":
                V("cities")[i, x, len(kinds)] = 1
            elif k:
                V("cities")[i, x, col[k]] = 1
        V("city_breakdown")[i] = [city["breakdown"][cat] for cat in cats]
        V("city_score")[i] = city["score"]
        if g.capitals:
            V("mats")[i, mats.index(city["mat"]["id"])] = 1
    for p, pl in enumerate(obs["players"]):
        r = order.index(p)
        V("score")[r] = pl["score"]
        if pl["lower_city"] is not None:
            V("lower_city")[r, 0 if pl["lower_city"] == pl["left"] else 1] = 1
    if g.capitals:
        types = [TYPE_NAMES[t] for t in g.components.district_cards]
        for dist in obs["districts"]:
            for t in dist["types"]:
                V("districts")[dist["tile"], types.index(t)] = 1
        V("district_discard")[types.index(obs["district_discard"])] = 1
    V("bag")[0] = obs["bag"]
    V("duplex_bag")[0] = obs["duplex_bag"]
    if obs["result"] is not None:
        for p in obs["result"]["winners"]:
            V("winners")[order.index(p)] = 1
    return v


# ---------------------------------------------------------------------------------------------------
# the layout and its documentation
# ---------------------------------------------------------------------------------------------------
def test_tensor_md_holds_the_layout_table_and_the_sizes():
    text = TENSOR_MD.read_text(encoding="utf-8")
    assert game().observation_tensor_layout().markdown() in text
    for n in range(2, 8):
        sizes = [game(n, cap).observation_tensor_size() for cap in (False, True)]
        bounds = [game(n, cap).max_game_length() for cap in (False, True)]
        row = f"| {n} | {sizes[0]:,} | {sizes[1]:,} | {bounds[0]} | {bounds[1]} |"
        assert row in text, f"TENSOR.md lacks the row {row}"


def test_layout_depends_on_the_options_as_documented():
    lay = game(4).observation_tensor_layout()
    assert lay["cities"].shape == (4, 49, 10) and lay["known_hands"].shape == (4, 9)
    assert lay["city_breakdown"].shape == (4, 6) and "mats" not in lay.names
    two = game(2, True).observation_tensor_layout()
    assert two["cities"].shape == (4, 81, 31) and two["known_hands"].shape == (2, 30)
    assert two["city_breakdown"].shape == (4, 8) and two["mats"].shape == (4, 7)
    assert two["districts"].shape == (3, 7) and two["my_duplexes"].shape == (24,)


# ---------------------------------------------------------------------------------------------------
# the tensor holds what the observation shows, and nothing hidden
# ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_tensor_equals_the_observation_written_slowly(options):
    """States of seeded random games (every 5th, and the last), every seat and the spectator: the tensor
    equals the one written from ``observation(seat)`` following the layout's documentation."""
    g = game(*options)
    lay = g.observation_tensor_layout()
    n = g.num_players
    count = 0
    for s in random_states(g, range(2), every=5):
        for seat in [*range(n), None]:
            fast, slow = s.observation_tensor(seat), reference(s, seat)
            assert fast.dtype == np.float32 and fast.shape == (lay.size,)
            assert (fast == slow).all(), f"seat {seat}, step {len(s.history)}: {explain(lay, fast, slow)}"
            count += 1
    assert count >= 2 * (n + 1) * (g.max_game_length() // 5)


def test_observer_relative_order():
    """Per-seat slices start with the observer, cities with its left and right cities; a spectator sees
    seat 0's order and no seat."""
    g = game(3)
    s = next(x for x in random_states(g, [5]) if len(x.history) >= 20)
    lay = g.observation_tensor_layout()
    t = {seat: s.observation_tensor(seat) for seat in (0, 1, 2, None)}
    for seat in (0, 1, 2):
        order = seat_order(seat, 3)
        assert lay.view(t[seat], "seat").tolist() == [float(p == seat) for p in range(3)]
        spectator = seat_order(None, 3)
        for name in ("score", "hand_sizes", "lower_city", "to_place_tiles"):
            mine, theirs = lay.view(t[seat], name), lay.view(t[None], name)
            for i, p in enumerate(order):
                assert (mine[i] == theirs[spectator.index(p)]).all(), name
        cities, all_cities = lay.view(t[seat], "cities"), lay.view(t[None], "cities")
        assert (cities[0] == all_cities[cities_seen_by(g, None).index(g.left[seat])]).all()
        assert (cities[1] == all_cities[cities_seen_by(g, None).index(g.right[seat])]).all()
        assert lay.view(t[seat], "score")[0] == s.scores()[seat]
    assert lay.view(t[None], "seat").sum() == 0


@pytest.mark.parametrize("options", [(3, False), (2, True), (5, True)], ids=option_id)
def test_hidden_parts_never_change_the_tensor(options):
    """Resampling what a seat cannot see (the hands it has not held, the bag, the duplex stack, the face-down
    discards of other hands, the other seats' secret choices) leaves its tensor unchanged while the state
    does change; an other seat's secret choice changes nobody's tensor but its own."""
    g = game(*options)
    n = g.num_players
    lay = g.observation_tensor_layout()
    changed = 0
    for s in random_states(g, [3, 4], every=9):
        for seat in range(n):
            t = s.observation_tensor(seat)
            for k in range(2):
                r = s.resample(seat, Rng(100 * len(s.history) + 10 * seat + k))
                changed += r.to_dict()["bag"] != s.to_dict()["bag"]
                u = r.observation_tensor(seat)
                assert (u == t).all(), explain(lay, t, u)
        movers = s.players_to_move()
        if len(movers) > 1 and len(s.legal_actions(movers[0])) > 1:
            q = movers[0]
            one, two = s.clone(), s.clone()
            one.apply_action(s.legal_actions(q)[0], player=q)
            two.apply_action(s.legal_actions(q)[1], player=q)
            for seat in [p for p in range(n) if p != q] + [None]:
                assert (one.observation_tensor(seat) == two.observation_tensor(seat)).all()
            assert (one.observation_tensor(q) != two.observation_tensor(q)).any()
    assert changed


# ---------------------------------------------------------------------------------------------------
# bounds and length
# ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_bounds_hold_over_seeded_random_games(options):
    g = game(*options)
    lay = g.observation_tensor_layout()
    seen_max = tensor_maxima(lay, random_states(g, range(100, 104)), [*range(g.num_players), None])
    for name in ("to_move", "chosen", "my_choice_tiles", "my_choice_duplex", "known_hands", "known_hand",
                 "my_duplexes", "known_discards", "my_discarded_duplexes", "to_place_tiles", "to_place_duplexes",
                 "side_done", "cities", "city_score", "winners", "bag", "duplex_bag"):
        assert lay.view(seen_max, name).max() >= 1, name


def test_max_game_length_is_every_games_length():
    """Every game has exactly ``max_game_length()`` actions: per singles stage hand_size // 2 turns of N
    choices and 2N placements, per duplex stage N discards and 2N placements."""
    assert game(4).max_game_length() == 2 * 3 * 12 + 12
    assert game(2).max_game_length() == 4 * 3 * 6 + 2 * 6
    assert game(5, True).max_game_length() == 2 * 4 * 15 + 15
    for options in OPTION_SETS:
        g = game(*options)
        for s in random_states(g, [7], every=10_000):
            if s.is_terminal():
                assert len(s.history) == g.max_game_length()
