"""Quadropolis's fixed-size views for learning (``citygames/games/quadropolis/TENSOR.md``): the
observation tensor holds what ``observation(seat)`` shows, in the documented layout, from the
observer's side, within its bounds, and nothing hidden (face-down tiles, the rounds not dealt); the
bound on a game's length.

Everything goes through the public API: states of seeded random games, their observations and
``resample``. Scores are never hard-coded (``scoring.py`` is being replaced by an exact search).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from citygames import load_game
from citygames.core.rng import Rng
from citygames.core.tensor import seat_order
from citygames.games.quadropolis.components import TYPES
from citygames.games.quadropolis.constants import STEP_KEYS
from citygames.games.quadropolis.scoring import CATEGORIES
from play_helpers import explain, tensor_maxima  # noqa: E402
from play_helpers import random_states as _random_states  # noqa: E402

TENSOR_MD = Path(__file__).resolve().parents[1] / "citygames" / "games" / "quadropolis" / "TENSOR.md"
#: (mode, players, allocation): both modes, every player count, both allocations
OPTION_SETS = [("classic", 2, "auto"), ("classic", 3, "manual"), ("classic", 4, "auto"),
               ("expert", 2, "manual"), ("expert", 3, "auto"), ("expert", 4, "manual")]


def game(mode="classic", num_players=4, allocation="auto"):
    return load_game("quadropolis", mode=mode, num_players=num_players, allocation=allocation)


def option_id(o) -> str:
    return "-".join(str(x) for x in o)


def reference(s, seat) -> np.ndarray:
    """The tensor written slowly from ``observation(seat)`` alone, following the layout's docs: what the
    fast tensor must equal."""
    g = s.game
    b = g.board
    lay = g.observation_tensor_layout()
    obs = s.observation(seat)
    n = g.num_players
    v = np.zeros(lay.size, np.float32)

    def V(name):
        return lay.view(v, name)

    order = seat_order(seat, n)
    kinds = []
    for t in g.tiles:
        if t.code not in kinds:
            kinds.append(t.code)
    types = sorted({t.type for t in g.tiles})
    V("step")[STEP_KEYS.index(obs["phase"])] = 1
    if seat is not None:
        V("seat")[seat] = 1
    if obs["current_player"] is not None:
        V("to_move")[order.index(obs["current_player"])] = 1
    if obs["round"]:
        V("round")[obs["round"] - 1] = 1
    V("turn")[0] = obs["turn"]
    V("mayor")[order.index(obs["mayor"])] = 1
    V("first_player")[order.index(obs["first_player"])] = 1
    for sq in obs["site"]:
        q = sq["square"]
        if sq["tile"] is not None:
            V("site")[q, kinds.index(g.tiles[sq["tile"]].code)] = 1
        elif sq["face_down"]:
            V("site")[q, len(kinds)] = 1
        else:
            V("site")[q, len(kinds) + 1] = 1
    if obs["urbanist"] is not None:
        V("urbanist")[obs["urbanist"]] = 1
    for sl in obs["slots"]:
        i = sl["slot"]
        V("slot_blocked")[i] = sl["blocked"]
        if sl["architect"] is not None:
            V("slot_architect")[i, sl["architect"] - 1] = 1
            V("slot_seat")[i, order.index(sl["seat"])] = 1
    if obs["pool"] is not None:
        for k, left in obs["pool"].items():
            V("pool")[k - 1] = left
    else:
        for i, p in enumerate(order):
            for k in obs["players"][p]["architects"]:
                V("architects")[i, k - 1] = 1
    if obs["pending"] is not None:
        V("pending_tile")[kinds.index(g.tiles[obs["pending"]["tile"]].code)] = 1
        V("pending_architect")[obs["pending"]["architect"] - 1] = 1
        for x in obs["pending"]["spaces"]:
            V("pending_spaces")[x] = 1
    for i, p in enumerate(order):
        pl = obs["players"][p]
        for cell in pl["city"]:
            x = cell["space"]
            if cell["tile"] is not None:
                tile = g.tiles[cell["tile"]]
                assert TYPES[tile.type] == cell["type"]
                V("city_type")[i, x, types.index(tile.type)] = 1
                V("city_vp")[i, x] = tile.vp
            V("city_height")[i, x] = cell["height"]
            V("city_active")[i, x] = cell["active"]
            V("city_customers")[i, x] = cell["customers"]
        V("inhabitants")[i] = pl["inhabitants"]
        V("energy")[i] = pl["energy"]
        if g.options["allocation"] == "manual":
            V("allocated")[i] = pl["allocated"]
        V("breakdown")[i] = [pl["breakdown"].get(c, 0) for c in CATEGORIES]
        V("score")[i] = pl["score"]
        assert b.spaces == len(pl["city"])
    if obs["result"] is not None:
        for p in obs["result"]["winners"]:
            V("winners")[order.index(p)] = 1
    return v


def random_states(g, seeds, every: int = 1, rng_salt: int = 7):
    """Every ``every``-th state (and the last) of seeded random games."""
    return _random_states(g, seeds, every, rng_seed=lambda seed: seed * rng_salt + 1)


# ---------------------------------------------------------------------------------------------------
# the layout and its documentation
# ---------------------------------------------------------------------------------------------------
def test_tensor_md_holds_the_layout_table():
    """TENSOR.md carries the default options' table exactly as the layout prints it, and the sizes of
    every option set (a generic test checks the table too)."""
    text = TENSOR_MD.read_text(encoding="utf-8")
    assert game().observation_tensor_layout().markdown() in text
    for mode in ("classic", "expert"):
        for n in (2, 3, 4):
            sizes = [game(mode, n, a).observation_tensor_size() for a in ("auto", "manual")]
            bounds = [game(mode, n, a).max_game_length() for a in ("auto", "manual")]
            row = f"| {mode} | {n} | {sizes[0]:,} | {sizes[1]:,} | {bounds[0]} | {bounds[1]} |"
            assert row in text, f"TENSOR.md lacks the row {row}"


def test_layout_depends_on_the_options_as_documented():
    lay = game().observation_tensor_layout()
    assert lay["city_type"].shape == (4, 16, 6) and "pool" not in lay.names and "allocated" not in lay.names
    assert lay["architects"].shape == (4, 4) and lay["slot_architect"].shape == (20, 4)
    ex = game("expert", 2, "manual").observation_tensor_layout()
    assert ex["city_type"].shape == (2, 20, 8) and ex["pool"].shape == (5,) and "architects" not in ex.names
    assert ex["allocated"].shape == (2,) and ex["slot_architect"].shape == (20, 5)
    # one-hot over the tile kinds, then face down and empty
    kinds = {t.code for t in game().tiles}
    assert lay["site"].shape == (25, len(kinds) + 2) and lay["pending_tile"].shape == (len(kinds),)


# ---------------------------------------------------------------------------------------------------
# the tensor holds what the observation shows, and nothing hidden
# ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_tensor_equals_the_observation_written_slowly(options):
    """States of seeded random games (every third, and the last), every seat and the spectator: the
    tensor equals the one written from ``observation(seat)`` following the layout's documentation,
    twice (the second from the caches)."""
    g = game(*options)
    lay = g.observation_tensor_layout()
    n = g.num_players
    count = 0
    for s in random_states(g, range(3), every=3):
        for seat in [*range(n), None]:
            slow = reference(s, seat)
            for _ in range(2):
                fast = s.observation_tensor(seat)
                assert fast.dtype == np.float32 and fast.shape == (lay.size,)
                assert (fast == slow).all(), f"seat {seat}, step {len(s.history)}: {explain(lay, fast, slow)}"
            count += 1
    assert count > 3 * (n + 1) * 15


def test_observer_relative_order():
    """Per-seat slices start with the observer; seats named in values are relative too; a spectator sees
    seat 0 first and no seat."""
    g = game("classic", 3)
    s = next(x for x in random_states(g, [5]) if len(x.history) >= 20)
    lay = g.observation_tensor_layout()
    t = {seat: s.observation_tensor(seat) for seat in (0, 1, 2, None)}
    for seat in (0, 1, 2):
        order = seat_order(seat, 3)
        assert lay.view(t[seat], "seat").tolist() == [float(p == seat) for p in range(3)]
        for name in ("inhabitants", "energy", "score", "city_height", "city_type", "architects"):
            assert (lay.view(t[seat], name) == lay.view(t[None], name)[order]).all(), name
        assert lay.view(t[seat], "to_move")[order.index(s.current_player())] == 1
        assert lay.view(t[seat], "mayor")[order.index(s.mayor)] == 1
    assert lay.view(t[None], "seat").sum() == 0
    assert lay.view(t[1], "inhabitants")[0] == s.inhabitants[1]


def _with_face_down(g, seed):
    """A state of a random game in a round with face-down tiles on the site."""
    rng = Rng(seed)
    s = g.new_initial_state(seed)
    for _ in range(rng.randbelow(2 * g.num_players * 4) + 1):
        legal = s.legal_actions()
        s.apply_action(legal[rng.randbelow(len(legal))])
    assert any(s.face_down[q] and s.site[q] >= 0 for q in range(25))
    return s


@pytest.mark.parametrize("mode, n", [("classic", 2), ("classic", 3), ("expert", 2), ("expert", 3)])
def test_hidden_tiles_never_change_the_tensor(mode, n):
    """A face-down square shows only "face down"; resampling what a seat cannot see (the face-down
    tiles' places and the rounds not dealt) leaves every seat's and the spectator's tensor unchanged
    while the hidden tiles do change."""
    g = game(mode, n)
    lay = g.observation_tensor_layout()
    changed = 0
    for seed in range(4):
        s = _with_face_down(g, seed)
        down = [q for q in range(25) if s.face_down[q] and s.site[q] >= 0]
        for seat in [*range(n), None]:
            t = s.observation_tensor(seat)
            site = lay.view(t, "site")
            assert (site[down, -2] == 1).all() and site[down].sum() == len(down)
        for seat in range(n):
            t = s.observation_tensor(seat)
            for k in range(3):
                r = s.resample(seat, Rng(100 * seed + k))
                changed += [r.site[q] for q in down] != [s.site[q] for q in down] or r.decks != s.decks
                for who in [*range(n), None]:
                    assert (r.observation_tensor(who) == s.observation_tensor(who)).all(), \
                        explain(lay, r.observation_tensor(who), s.observation_tensor(who))
                assert (r.observation_tensor(seat) == t).all()
    assert changed


# ---------------------------------------------------------------------------------------------------
# bounds and length
# ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_bounds_hold_over_seeded_random_games(options):
    g = game(*options)
    lay = g.observation_tensor_layout()
    seen_max = tensor_maxima(lay, random_states(g, range(100, 116), every=4, rng_salt=11), (0, None))
    # the slices are used
    for name in ("site", "urbanist", "slot_architect", "slot_seat", "slot_blocked", "city_type", "city_height",
                 "city_active", "inhabitants", "energy", "winners", "pending_spaces"):
        assert lay.view(seen_max, name).max() >= 1, name


def _longest_play(s, rng):
    """Play ``s`` to the end choosing the moves that make a game long: build rather than discard,
    activate and add customers rather than finish, never ``best``."""
    while not s.is_terminal():
        legal = s.legal_actions()
        long = [a for a in legal if a.kind in ("build", "activate", "customer")]
        pool = long or [a for a in legal if a.kind != "best"] or legal
        s.apply_action(pool[rng.randbelow(len(pool))])
    return len(s.history)


def test_max_game_length():
    """The bound from the rules (rounds x 4 turns x players x 2, plus the hand allocation's longest
    sequence), and no seeded game, random or made long on purpose, exceeds it."""
    assert game("classic", 4, "auto").max_game_length() == 4 * 4 * 4 * 2
    assert game("expert", 2, "auto").max_game_length() == 5 * 4 * 2 * 2
    # manual: per seat one activate per space and one finish, plus customers up to capacity on every shop
    g = game("classic", 4, "manual")
    shops = sum(1 for t in g.tiles if TYPES[t.type] == "shop")
    assert g.max_game_length() == 128 + 4 * 17 + min(64, shops) * 4
    for options in OPTION_SETS:
        g = game(*options)
        longest = 0
        for seed in range(12):
            longest = max(longest, _longest_play(g.new_initial_state(seed), Rng(seed)))
        assert g.num_players * 4 * g.board.rounds < longest <= g.max_game_length()


def test_states_of_several_games_mixed_and_the_hand_allocation():
    """The parts kept from call to call are found again by content: states of different games asked in
    turn (and the hand allocation's states, where each seat's own allocation is shown step by step)
    give the same tensors as written from their observations."""
    g = game("classic", 3, "manual")
    lay = g.observation_tensor_layout()
    runs = []
    for seed in (1, 2):
        rng = Rng(seed)
        s = g.new_initial_state(seed)
        states = [s.clone()]
        while not s.is_terminal():
            legal = s.legal_actions()
            pool = [a for a in legal if a.kind in ("build", "activate", "customer")] or \
                [a for a in legal if a.kind == "finish"] or legal
            s.apply_action(pool[rng.randbelow(len(pool))])
            states.append(s.clone())
        runs.append(states)
    allocating = 0
    for a, b in zip(*runs):
        for s in (a, b):
            allocating += s.step == STEP_KEYS.index("allocate")
            for seat in (s.current_player() if not s.is_terminal() else None, None):
                fast, slow = s.observation_tensor(seat), reference(s, seat)
                assert (fast == slow).all(), f"step {len(s.history)}: {explain(lay, fast, slow)}"
    assert allocating > 20
