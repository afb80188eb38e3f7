"""The Capitals' fixed-size views for learning: ``observation_tensor``, its layout, ``legal_action_mask``
and ``max_game_length`` (``citygames/games/the_capitals/tensor.py``, ``TENSOR.md``).

Everything goes through the public API: states come from seeded games played with legal actions or
from the position notation (``capitals_helpers.Position``), and the tensor is read slice by slice with
``layout.view``. ``_from_observation`` encodes ``state.observation(seat)`` into the layout
independently of the engine's fast encoder, so the two must agree value for value.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import citygames
from citygames.bots import make_bot
from citygames.core import Rng
from citygames.core.tensor import seat_order
from citygames.games.the_capitals import tensor as capitals_tensor
from citygames.games.the_capitals.components import LAKE, NTYPES, components
from citygames.games.the_capitals.steps import PHASE_NAMES, STEP_NAMES

from capitals_helpers import BLUE, GREEN, PURPLE, RED, Position, tile

C = components()
CONFIGS = [(2, False), (2, True), (4, False), (4, True), (5, False), (5, True)]


def _game(n: int = 4, prosperity: bool = False):
    return citygames.load_game("the_capitals", num_players=n, prosperity=prosperity)


def _clip(x, lo, hi):
    return max(lo, min(hi, x))


def _from_observation(game, obs) -> np.ndarray:
    """The tensor built from the observation dict alone (the reference the fast encoder must match)."""
    lay = game.observation_tensor_layout()
    n = game.num_players
    v = np.zeros(lay.size, dtype=np.float32)

    def put(name, index, value):
        sl = lay[name]
        lay.view(v, name)[index] = _clip(value, sl.low, sl.high)

    seat = obs["seat"]
    order = seat_order(seat, n)
    rel = {q: i for i, q in enumerate(order)}
    put("round", obs["round"] - 1, 1)
    put("era", obs["era"] - 1, 1)
    put("phase", PHASE_NAMES.index(obs["phase"]), 1)
    put("step", STEP_NAMES.index(obs["step"]) if obs["step"] in STEP_NAMES else 0, 1)
    if seat is not None:
        put("seat", seat, 1)
    if obs["current_player"] is not None:
        put("to_move", rel[obs["current_player"]], 1)
    for pos, q in enumerate(obs["order"]):
        put("turn_order", (rel[q], pos), 1)
    pending = obs["pending"]
    for q, space in enumerate(pending.get("chosen_spaces") or []):
        if space is not None:
            put("chosen_space", (rel[q], space - 1), 1)
    first = C.prosperity_tiles[0]
    for q in order:
        i = rel[q]
        pl = obs["players"][q]
        for name in ("money", "culture", "employment", "population", "public_service", "progress",
                     "progress_total"):
            put(name, i, pl[name])
        if pl["prestige"] is not None:
            put("prestige", i, pl["prestige"])
            put("prestige_known", i, 1)
        put("plant_cubes", i, pl["plant"]["cubes"])
        put("plant_level", i, pl["plant"]["level"])
        put("plant_activations", i, pl["plant"]["activations"])
        put("plant_printed_cubes", i, pl["plant"]["printed_cubes"])
        put("upgrades_due", i, pl["pending_upgrades"])
        put("initiative", (i, pl["initiative_space"] - 1), 1)
        types = [0] * NTYPES
        for t in pl["city"]:
            x = C.tile_by_id[t["tile"]]
            types[x.type] += 1
            if x.type != LAKE:
                put("city_tile", (i, x.idx), 1)
                put("city_xy", (i, x.idx, 0), t["x"])
                put("city_xy", (i, x.idx, 1), t["y"])
                put("city_cubes", (i, x.idx), t["cubes"])
        for ty, k in enumerate(types):
            put("tiles_by_type", (i, ty), k)
        for j, (x, y) in enumerate(pl["construction_tokens"]):
            put("tokens", (i, j, 0), x)
            put("tokens", (i, j, 1), y)
        for tr in pl["tourists"]:
            ti = rel[tr["owner"]] if tr["owner"] is not None else n
            put("tourist_host", (ti, i), 1)
            if tr["on"] is not None:
                put("tourist_on_tile", ti, 1)
                put("tourist_xy", (ti, 0), tr["on"][0])
                put("tourist_xy", (ti, 1), tr["on"][1])
            if tr["used"]:
                put("tourist_used", ti, 1)
        if obs["prosperity"]:
            put("hand_size", i, pl["prosperity_hand_size"])
            for h in pl.get("prosperity_hand", ()):
                put("hand", C.tile_by_id[h["tile"]].idx - first, 1)
            for lk in pl["lakes"]:
                x = C.tile_by_id[lk["revealed"]].idx
                put("city_lake", (i, x - first), 1)
                put("city_xy", (i, x, 0), lk["x"])
                put("city_xy", (i, x, 1), lk["y"])
    for r, row in enumerate(obs["projects"]):
        for tid in row:
            put("projects", (C.tile_by_id[tid].idx, r), 1)
    for e in (1, 2, 3):
        put("deck_sizes", e - 1, obs["deck_sizes"][str(e)])
    for j, level in enumerate(range(2, C.max_plant_level + 1)):
        left = obs["plants_left"][str(level)]
        put("plants_left", j, len(left))
        put("next_plant_cubes", j, left[0] if left else 0)
    if obs["highest_culture"] is not None:
        put("highest_culture", rel[obs["highest_culture"]], 1)
    if obs["neutral"] is not None:
        put("neutral_culture", 0, obs["neutral"]["culture"])
    if "tile" in pending:
        put("pending_tile", C.tile_by_id[pending["tile"]].idx, 1)
    if "slot" in pending:
        put("pending_slot_known", 0, 1)
        put("pending_slot_xy", 0, pending["slot"][0])
        put("pending_slot_xy", 1, pending["slot"][1])
    if "token" in pending:
        put("pending_token", pending["token"], 1)
    if "effects" in pending:
        mover = obs["players"][obs["current_player"]]["city"]
        for x, y in pending["effects"]:
            tid = next(t["tile"] for t in mover if (t["x"], t["y"]) == (x, y))
            put("pending_effects", C.tile_by_id[tid].idx, 1)
    if "remaining_cost" in pending:
        put("remaining_cost", 0, pending["remaining_cost"])
    if "activations_left" in pending:
        put("activations_left", 0, pending["activations_left"])
        put("activations_made", 0, pending["activations_made"])
    return v


def _assert_matches_observation(state, seat):
    got = state.observation_tensor(seat)
    want = _from_observation(state.game, state.observation(seat))
    if not np.array_equal(got, want):
        lay = state.game.observation_tensor_layout()
        bad = [s.name for s in lay if not np.array_equal(lay.view(got, s.name), lay.view(want, s.name))]
        raise AssertionError(f"seat {seat}, round {state.round}, {state.expects()}: slices differ from the "
                             f"observation: {bad}")


def _random_states(game, seed: int, every: int = 1, bot: str = "random"):
    """Copies of the states of one seeded game (every ``every``-th step and the end), played by ``bot`` bots."""
    s = game.new_initial_state(seed)
    bots = [make_bot(bot, seed * 10 + q) for q in range(game.num_players)]
    k = 0
    while not s.is_terminal():
        if k % every == 0:
            yield s.clone()
        s.apply_action(bots[s.current_player()].step(s))
        k += 1
    yield s.clone()


# ----------------------------------------------------------------------------------------------
# the tensor holds what the observation shows
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,prosperity", CONFIGS)
def test_tensor_equals_the_observation_encoded_slice_by_slice(n, prosperity):
    """At steps all through seeded random games, for every seat and a spectator, the fast encoder
    gives exactly the vector encoded from ``observation(seat)``."""
    g = _game(n, prosperity)
    for seed in (1, 2):
        for s in _random_states(g, seed, every=3):
            for seat in [*range(n), None]:
                _assert_matches_observation(s, seat)


def test_interleaved_games_keep_their_own_values():
    """The encoder remembers recent sets of cities; states of more games than it remembers, taken in
    turn (same rounds, cities of the same sizes, different tiles), each still give their own
    observation, for the seat to move and for another seat."""
    g = _game(4)
    games = [list(_random_states(g, 40 + k, every=7)) for k in range(10)]
    for step in range(min(map(len, games))):
        for states in games + games[:3]:
            s = states[step]
            mover = s.current_player() if not s.is_terminal() else 0
            _assert_matches_observation(s, mover)
            _assert_matches_observation(s, (mover + 1) % 4)


def test_the_observers_own_values_come_first():
    """Per-seat slices start with the observer and follow seat order; a spectator sees seat 0 first."""
    pos = Position(4, seed=3).seat(GREEN, money=11).seat(RED, money=12).seat(BLUE, money=13).seat(PURPLE, money=14)
    s = pos.state()
    lay = s.game.observation_tensor_layout()
    assert list(lay.view(s.observation_tensor(BLUE), "money")) == [13, 14, 11, 12]
    assert list(lay.view(s.observation_tensor(RED), "money")) == [12, 13, 14, 11]
    assert list(lay.view(s.observation_tensor(None), "money")) == [11, 12, 13, 14]
    assert list(lay.view(s.observation_tensor(BLUE), "seat")) == [0, 0, 1, 0]
    assert list(lay.view(s.observation_tensor(None), "seat")) == [0, 0, 0, 0]


def test_a_city_is_described_per_tile_kind():
    """Red's Baker at (0, 1) with 1 cube: built flag, coordinates and cubes at the Baker's index, in
    Red's row (first for Red, second for Green); the Hotel and City Hall are at (0, 0) and (1, 0)."""
    s = (Position(4, seed=3).city(RED, "baker@0,1+1", "barrel_factory@-1,1")
         .set("red tokens", "0,1 1,2").state())
    lay = s.game.observation_tensor_layout()
    baker, hotel, hall = tile("baker"), tile("hotel"), tile("city_hall")
    for seat, row in ((RED, 0), (GREEN, 1), (PURPLE, 2)):
        v = s.observation_tensor(seat)
        built = lay.view(v, "city_tile")[row]
        assert built[baker] == built[hotel] == built[hall] == built[tile("barrel_factory")] == 1
        assert built.sum() == 4
        xy = lay.view(v, "city_xy")[row]
        assert tuple(xy[baker]) == (0, 1) and tuple(xy[hall]) == (1, 0) and tuple(xy[tile("barrel_factory")]) == (-1, 1)
        assert lay.view(v, "city_cubes")[row][baker] == 1
        assert list(lay.view(v, "tokens")[row].ravel()) == [0, 1, 1, 2]
        by_type = lay.view(v, "tiles_by_type")[row]
        assert list(by_type) == [0, 1, 1, 1, 1, 0, 0]  # industry, commerce, tourism, public
    # another seat's city is untouched
    assert lay.view(s.observation_tensor(RED), "city_tile")[1].sum() == 2


def test_the_projects_area_and_the_pending_tile():
    """Tiles of the projects area by row; the tile taken and not yet built is the pending tile."""
    s = Position(4, seed=3).projects(["library", "opera_house"], ["market"]).at("building", RED, "place baker").state()
    lay = s.game.observation_tensor_layout()
    v = s.observation_tensor(GREEN)
    rows = lay.view(v, "projects")
    assert rows[tile("library"), 0] == rows[tile("opera_house"), 0] == rows[tile("market"), 1] == 1
    assert rows.sum() == 3
    assert np.flatnonzero(lay.view(v, "pending_tile")).tolist() == [tile("baker")]
    assert lay.view(v, "step")[STEP_NAMES.index("choose where to build the tile")] == 1
    assert lay.view(v, "phase")[PHASE_NAMES.index("building")] == 1
    assert list(lay.view(v, "to_move")) == [0, 1, 0, 0]   # Red, right after the observer Green
    assert list(lay.view(s.observation_tensor(RED), "to_move")) == [1, 0, 0, 0]


def test_the_activation_being_paid_for():
    """Red activates its Baker with its own tourist in its city: the payment is a decision, and the
    tile's coordinates, the cubes still due and the activations left and made are shown."""
    s = Position(4, seed=3).city(RED, "baker@0,1").seat(RED, cubes=5).executive(RED).state()
    s.apply_action(s.game.action_space.get("activate", s.game.slot_at(0, 1)))
    assert s.expects().endswith("pay the activation")
    lay = s.game.observation_tensor_layout()
    v = s.observation_tensor(BLUE)
    assert lay.view(v, "pending_slot_known")[0] == 1
    assert tuple(lay.view(v, "pending_slot_xy")) == (0, 1)
    assert lay.view(v, "remaining_cost")[0] == 2          # 1 printed cube + 1
    assert lay.view(v, "activations_made")[0] == 1
    assert lay.view(v, "activations_left")[0] == s.observation(BLUE)["pending"]["activations_left"]
    _assert_matches_observation(s, BLUE)


# ----------------------------------------------------------------------------------------------
# what stays hidden
# ----------------------------------------------------------------------------------------------
def test_other_seats_prestige_is_hidden_until_the_end():
    """Prestige tokens lie face down: a seat's tensor shows its own prestige only, and does not
    change when another seat's prestige does; at the end every prestige is shown."""
    base = Position(4, seed=3).seat(GREEN, prestige=5).seat(RED, prestige=-7)
    s = base.state()
    other = base.copy().seat(RED, prestige=9).state()
    lay = s.game.observation_tensor_layout()
    v = s.observation_tensor(GREEN)
    assert list(lay.view(v, "prestige")) == [5, 0, 0, 0]
    assert list(lay.view(v, "prestige_known")) == [1, 0, 0, 0]
    assert np.array_equal(other.observation_tensor(GREEN), v)
    assert np.array_equal(other.observation_tensor(None), s.observation_tensor(None))
    assert not np.array_equal(other.observation_tensor(RED), s.observation_tensor(RED))
    assert list(lay.view(s.observation_tensor(RED), "prestige")) == [-7, 0, 0, 0]
    assert lay.view(s.observation_tensor(None), "prestige_known").sum() == 0
    # at the end
    end = list(_random_states(s.game, 5))[-1]
    assert end.is_terminal()
    for seat in range(4):
        w = end.observation_tensor(seat)
        assert list(lay.view(w, "prestige_known")) == [1, 1, 1, 1]
        scores = end.scores()
        assert list(lay.view(w, "prestige")) == [_clip(scores[q], -150, 150) for q in seat_order(seat, 4)]
        assert lay.view(w, "to_move").sum() == 0
        assert lay.view(w, "phase")[PHASE_NAMES.index("game over")] == 1


@pytest.mark.parametrize("n,prosperity", [(2, False), (4, True), (5, True)])
def test_resampling_what_a_seat_cannot_see_leaves_its_tensor_unchanged(n, prosperity):
    """Deck order, the tiles removed unseen (2 players) and the other hands (Prosperity) are
    redrawn by ``resample``; the seat's tensor stays the same (the hidden parts are not in it)."""
    g = _game(n, prosperity)
    rng = Rng(7)
    changed = 0
    for s in _random_states(g, 3, every=25):
        for seat in range(n):
            v = s.observation_tensor(seat)
            for _ in range(2):
                r = s.resample(seat, rng)
                changed += r.to_dict() != s.to_dict()
                assert np.array_equal(r.observation_tensor(seat), v)
    assert changed  # resampling really redrew something


def test_the_prosperity_hand_is_the_observers_alone():
    """With Prosperity a seat sees its own hand; every hand's size is public; a Lake shows the
    prosperity tile revealed for it and stands at that tile's coordinates."""
    pos = (Position(4, seed=3, prosperity=True).hand(RED, "casino", "bus_station")
           .city(BLUE, "lake(art_gallery)@-1,1"))
    s = pos.state()
    lay = s.game.observation_tensor_layout()
    first = C.prosperity_tiles[0]
    red_hand = {tile(h["tile"]) - first for h in s.observation(RED)["players"][RED]["prosperity_hand"]}
    v = s.observation_tensor(RED)
    assert set(np.flatnonzero(lay.view(v, "hand"))) == red_hand >= {tile("casino") - first, tile("bus_station") - first}
    green_hand = s.observation(GREEN)["players"][GREEN]["prosperity_hand"]
    assert lay.view(s.observation_tensor(GREEN), "hand").sum() == len(green_hand)
    assert lay.view(s.observation_tensor(None), "hand").sum() == 0
    sizes = [len(s.observation(q)["players"][q]["prosperity_hand"]) for q in range(4)]
    assert list(lay.view(v, "hand_size")) == [sizes[q] for q in seat_order(RED, 4)]
    # Blue's Lake, seen by Red (Blue is next after Red)
    lake = lay.view(v, "city_lake")[1]
    assert np.flatnonzero(lake).tolist() == [tile("art_gallery") - first]
    assert tuple(lay.view(v, "city_xy")[1][tile("art_gallery")]) == (-1, 1)
    assert lay.view(v, "city_tile")[1][tile("art_gallery")] == 0
    assert lay.view(v, "tiles_by_type")[1][LAKE] == 1


def test_the_two_player_neutral_marker_and_tourist():
    """With 2 players the neutral marker's culture has its slice, and the neutral tourist is the
    last tourist row (all 0 while it waits beside the board)."""
    s = Position(2, seed=3).set("neutral", 4).state()
    lay = s.game.observation_tensor_layout()
    v = s.observation_tensor(RED)
    assert lay.view(v, "neutral_culture")[0] == 4
    hosts = lay.view(v, "tourist_host")
    assert hosts.shape == (3, 2)
    assert hosts[2].sum() == 0 and list(hosts[0]) == [1, 0] and list(hosts[1]) == [0, 1]


# ----------------------------------------------------------------------------------------------
# layout, bounds, mask, length
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,prosperity,size", [(2, False, 1202), (2, True, 1529), (3, False, 1569),
                                               (4, False, 1947), (4, True, 2526), (5, False, 2329),
                                               (5, True, 3034)])
def test_layout_size_per_option_set(n, prosperity, size):
    """The size is fixed per option set; per-seat slices grow with the players, Prosperity adds its
    25 tile kinds and its slices, the neutral marker exists with 2 players only."""
    g = _game(n, prosperity)
    lay = g.observation_tensor_layout()
    assert lay.size == g.observation_tensor_size() == size
    k = C.n_building + (len(C.prosperity_tiles) if prosperity else 0)
    assert lay["city_tile"].shape == (n, k) and lay["city_xy"].shape == (n, k, 2)
    assert lay["tourist_host"].shape == (n + (n == 2), n)
    assert ("neutral_culture" in lay.names) == (n == 2)
    assert {"hand", "hand_size", "city_lake"} <= set(lay.names) if prosperity else "hand" not in lay.names
    state = g.new_initial_state(0)
    for seat in [*range(n), None]:
        v = state.observation_tensor(seat)
        assert v.dtype == np.float32 and v.shape == (size,)


def test_the_default_layout_is_documented_in_tensor_md():
    """TENSOR.md holds the layout table of the default options exactly as ``markdown()`` writes it."""
    doc = (Path(capitals_tensor.__file__).parent / "TENSOR.md").read_text()
    assert citygames.load_game("the_capitals").observation_tensor_layout().markdown() in doc


@pytest.mark.parametrize("n,prosperity", CONFIGS)
def test_every_value_stays_within_its_slice_bounds(n, prosperity):
    """At every step of seeded random and greedy games, for every seat and a spectator."""
    g = _game(n, prosperity)
    lay = g.observation_tensor_layout()
    lo, hi = lay.low(), lay.high()
    for seed, bot in ((21, "random"), (22, "random"), (23, "greedy")):
        for s in _random_states(g, seed, every=1 if bot == "random" else 4, bot=bot):
            for seat in [*range(n), None]:
                v = s.observation_tensor(seat)
                bad = np.flatnonzero((v < lo) | (v > hi) | ~np.isfinite(v))
                assert not len(bad), [(sl.name, float(v[i])) for i in bad[:3] for sl in lay
                                      if sl.offset <= i < sl.stop]


@pytest.mark.parametrize("n,prosperity", [(2, True), (4, False), (5, True)])
def test_legal_action_mask_marks_the_legal_actions(n, prosperity):
    g = _game(n, prosperity)
    for s in _random_states(g, 4):
        mask = s.legal_action_mask()
        assert mask.shape == (g.num_distinct_actions,)
        if s.is_terminal():
            assert not mask.any()
        else:
            assert np.flatnonzero(mask).tolist() == sorted(a.id for a in s.legal_actions())
            other = (s.current_player() + 1) % n
            assert not s.legal_action_mask(other).any()


@pytest.mark.parametrize("n,prosperity", CONFIGS)
def test_max_game_length_bounds_seeded_games_and_is_not_far_off(n, prosperity):
    """No seeded game (random or greedy bots) is longer than the bound, and the longest is at least
    a third of it: the bound is safe but not absurdly loose (measured: about half)."""
    g = _game(n, prosperity)
    bound = g.max_game_length()
    longest = 0
    for seed in range(6):
        s = list(_random_states(g, 100 + seed, every=10 ** 6, bot="greedy" if seed % 3 == 0 else "random"))[-1]
        assert len(s.history) <= bound
        longest = max(longest, len(s.history))
    assert longest * 3 >= bound, (longest, bound)


def test_max_game_length_grows_with_players_and_prosperity():
    lengths = {(n, p): _game(n, p).max_game_length() for n in (2, 3, 4, 5) for p in (False, True)}
    for n in (2, 3, 4, 5):
        assert lengths[(n, True)] > lengths[(n, False)]
        if n > 2:
            assert lengths[(n, False)] > lengths[(n - 1, False)]


def test_the_order_of_the_decks_is_not_in_the_tensor():
    """The same position with the era decks in another order (what nobody sees) gives the same
    tensor to every seat and the spectator."""
    s = list(_random_states(_game(4), 9, every=40))[1]
    lines = s.position().splitlines()
    shuffled = "\n".join(
        f"{ln.split(':')[0]}: {', '.join(reversed([w.strip() for w in ln.split(':', 1)[1].split(',')]))}"
        if ln.startswith("deck era") and "," in ln else ln for ln in lines)
    assert shuffled != "\n".join(lines)
    other = s.game.state_from_position(shuffled)
    for seat in [*range(4), None]:
        assert np.array_equal(other.observation_tensor(seat), s.observation_tensor(seat))


def test_tensors_are_fresh_arrays():
    """Each call returns a new array: changing one leaves the next call's values alone."""
    s = _game(4).new_initial_state(0)
    v = s.observation_tensor(0)
    v[:] = 99
    w = s.observation_tensor(0)
    assert not np.array_equal(v, w)
    _assert_matches_observation(s, 0)


def test_a_spectator_sees_what_every_seat_sees():
    s = list(_random_states(_game(4, True), 8, every=50))[3]
    lay = s.game.observation_tensor_layout()
    v = s.observation_tensor(None)
    assert lay.view(v, "hand").sum() == 0 and lay.view(v, "seat").sum() == 0
    assert lay.view(v, "prestige_known").sum() == 0
    rng = random.Random(3)
    seat = rng.randrange(4)
    w = s.observation_tensor(seat)
    # the city of seat 0, from the spectator (row 0) and from ``seat`` (row (0 - seat) % 4)
    row = (0 - seat) % 4
    assert np.array_equal(lay.view(v, "city_tile")[0], lay.view(w, "city_tile")[row])
