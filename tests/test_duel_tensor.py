"""7 Wonders Duel's fixed-size views for learning (``citygames/games/seven_wonders_duel/TENSOR.md``):
the observation tensor holds what ``observation(seat)`` shows, in the documented layout, from the
observer's side, within its bounds, and nothing hidden (P24); the legal-action mask; the bound on a
game's length.

Everything goes through the public API: states from seeded games and legal actions, or from the
position notation (``POSITION.md``, via ``duel_helpers``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from duel_helpers import C, card, position, slots, state, token_id, wonder_id

from citygames import load_game
from citygames.core.rng import Rng
from citygames.core.tensor import seat_order
from citygames.games.seven_wonders_duel.components import COLORS, LAW, NS, RESOURCES, SYMBOLS
from citygames.games.seven_wonders_duel.constants import CATEGORIES, STEP_KEYS, VICTORY_NAMES
from citygames.games.seven_wonders_duel.tensor import COIN_CAP
from play_helpers import explain, tensor_maxima  # noqa: E402
from play_helpers import random_states as _random_states  # noqa: E402

OPTION_SETS = [{}, {"first_game_wonders": True}, {"next_age_chooser": "first_print"}]
TENSOR_MD = Path(__file__).resolve().parents[1] / "citygames" / "games" / "seven_wonders_duel" / "TENSOR.md"


def game(**options):
    return load_game("seven_wonders_duel", **options)


def view(s, seat, name):
    """Slice ``name`` of ``seat``'s tensor of state ``s``."""
    return s.game.observation_tensor_layout().view(s.observation_tensor(seat), name)


def reference(s, seat) -> np.ndarray:
    """The tensor written slowly from ``observation(seat)`` alone, following the layout's docs: what the
    fast tensor must equal (coins stay below the cap in the games used)."""
    g = s.game
    lay = g.observation_tensor_layout()
    obs = s.observation(seat)
    v = np.zeros(lay.size, np.float32)

    def V(name):
        return lay.view(v, name)

    order = seat_order(seat, 2)
    V("phase")[STEP_KEYS.index(obs["phase"])] = 1
    V("age")[obs["age"]] = 1
    if seat is not None:
        V("seat")[seat] = 1
    if obs["current_player"] is not None:
        V("to_move")[order.index(obs["current_player"])] = 1
    V("first_player")[order.index(obs["first_player"])] = 1
    V("extra_turn")[0] = obs["extra_turn"]
    if obs["draft_round"]:
        V("draft_round")[obs["draft_round"] - 1] = 1
    for w in obs["draft"]:
        V("draft_pool")[w] = 1
    age = obs["age"]
    age_cards = list(C.age_cards[age]) + (list(C.guilds) if age == 3 else []) if age else []
    for sl in obs["structure"]:
        i = sl["slot"]
        if sl["taken"]:
            V("structure_state")[i, 3] = 1
        elif sl["card"] is not None:
            V("structure_state")[i, 0] = 1
            V("structure_card")[i, age_cards.index(sl["card"])] = 1
        else:
            V("structure_state")[i, 2 if sl["guild_back"] else 1] = 1
        V("structure_state")[i, 4] = sl["accessible"]
    for k, p in enumerate(order):
        pl = obs["players"][p]
        assert pl["coins"] < COIN_CAP
        for x in pl["cards"]:
            V("cards")[k, x] = 1
            if C.cards[x].science >= 0:
                V("science")[k, C.cards[x].science] += 1
        V("colors")[k] = [pl["colors"][col] for col in COLORS]
        for w in pl["wonders"]:
            V("wonders")[k, w["wonder"]] = [1, w["built"], w["removed"]]
            if w["card"] is not None:
                V("tucked")[w["card"]] = 1
        for t in pl["tokens"]:
            V("tokens")[k, t] = 1
            if C.tokens[t].name == "Law":
                V("science")[k, LAW] += 1
        assert [SYMBOLS[j] for j in range(NS) if V("science")[k, j]] == pl["science"]
        V("production")[k] = [pl["production"][r] for r in RESOURCES]
        for f in pl["one_of"]:
            for r in f:
                V("one_of")[k, RESOURCES.index(r)] += 1
        V("fixed_price")[k] = [r in pl["fixed_price"] for r in RESOURCES]
        V("trade_prices")[k] = [pl["trade_prices"][r] for r in RESOURCES]
        for sym in pl["chains"]:
            V("chains")[k, C.chain_symbols.index(sym)] = 1
        V("military_tokens")[k] = obs["conflict"]["tokens"][p]
        V("coins")[k] = pl["coins"]
        V("discard_value")[k] = pl["discard_value"]
        V("vp")[k] = [pl["vp"][cat] for cat in CATEGORIES]
        V("score")[k] = pl["score"]
    V("pawn")[0] = obs["conflict"]["pawn"] * (1 if order[0] == 0 else -1)
    V("wonders_built")[0] = obs["wonders_built"]
    for t in obs["progress_board"]:
        V("progress_board")[t] = 1
    for t in obs["library_draw"]:
        V("library_draw")[t] = 1
    for x in obs["discard"]:
        V("discard")[x] = 1
    if obs["destroy_color"] is not None:
        V("destroy_color")[COLORS.index(obs["destroy_color"])] = 1
    slot_of = {sl["card"]: sl["slot"] for sl in obs["structure"] if sl["card"] is not None}
    for x, pr in obs["prices"].items():
        i = slot_of[int(x)]
        V("card_price")[i] = pr["construct"]
        V("chain")[i] = pr["chain"]
        for w, coins in pr["wonders"].items():
            V("wonder_price")[int(w)] = coins
    if obs["result"] is not None:
        if obs["result"]["winner"] is not None:
            V("winner")[order.index(obs["result"]["winner"])] = 1
        V("victory")[VICTORY_NAMES.index(obs["result"]["victory"])] = 1
    return v


def random_states(g, seeds, every: int = 1):
    """Every ``every``-th state (and the last) of seeded random games."""
    return _random_states(g, seeds, every, rng_seed=lambda seed: seed * 7 + 1)


# ---------------------------------------------------------------------------------------------------
# the layout and its documentation
# ---------------------------------------------------------------------------------------------------
def test_tensor_md_holds_the_layout_table():
    """TENSOR.md carries the table exactly as the layout prints it (a generic test checks this too)."""
    assert game().observation_tensor_layout().markdown() in TENSOR_MD.read_text()


def test_layout_is_the_same_for_every_option_set_and_compact():
    lays = [game(**o).observation_tensor_layout() for o in OPTION_SETS]
    assert all(lay.markdown() == lays[0].markdown() for lay in lays)
    assert 500 <= lays[0].size <= 2000
    assert game().observation_tensor_size() == lays[0].size


# ---------------------------------------------------------------------------------------------------
# the tensor holds what the observation shows
# ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "first_game", "first_print"])
def test_tensor_equals_the_observation_written_slowly(options):
    """Every state of seeded random games, every seat and the spectator: the tensor equals the one
    written from ``observation(seat)`` following the layout's documentation."""
    g = game(**options)
    lay = g.observation_tensor_layout()
    n = 0
    for s in random_states(g, range(12)):
        for seat in (0, 1, None):
            fast, slow = s.observation_tensor(seat), reference(s, seat)
            assert (fast == slow).all(), f"seat {seat}, step {len(s.history)}: {explain(lay, fast, slow)}"
            n += 1
    assert n > 12 * 3 * 60


def test_specific_slices_of_a_position():
    """A position in Age II: coins, cities, tokens, pawn, discard pile and prices read back from their slices."""
    s = state(age=2, player=1, coins=(3, 11), city=(["Stone Pit", "Garrison", "Tavern"], ["Press", "Workshop"]),
              tokens=(["Agriculture"], []), pawn=2, discard=["Baths"], accessible=["Sawmill", "Brickyard"])
    lay = s.game.observation_tensor_layout()
    for seat in (0, 1):
        t = s.observation_tensor(seat)
        me, op = seat, 1 - seat
        obs = s.observation(seat)
        assert lay.view(t, "coins").tolist() == [obs["players"][me]["coins"], obs["players"][op]["coins"]]
        assert lay.view(t, "age").tolist() == [0, 0, 1, 0]
        assert lay.view(t, "phase")[STEP_KEYS.index("play")] == 1 and lay.view(t, "phase").sum() == 1
        assert lay.view(t, "to_move").tolist() == ([0, 1] if seat == 0 else [1, 0])
        assert sorted(np.flatnonzero(lay.view(t, "cards")[0]).tolist()) == sorted(obs["players"][me]["cards"])
        assert lay.view(t, "tokens")[0 if seat == 0 else 1, token_id("Agriculture")] == 1
        assert lay.view(t, "discard")[card("Baths")] == 1 and lay.view(t, "discard").sum() == 1
        assert lay.view(t, "production")[0 if seat == 0 else 1].tolist() == [0, 0, 1, 0, 0]
        assert lay.view(t, "production")[1 if seat == 0 else 0].tolist() == [0, 0, 0, 0, 1]
        # the opponent's Press makes papyrus cost 3 for North; nothing raises South's prices but the Stone Pit
        assert lay.view(t, "trade_prices")[0 if seat == 0 else 1].tolist() == [2, 2, 2, 2, 3]
        assert lay.view(t, "trade_prices")[1 if seat == 0 else 0].tolist() == [2, 2, 3, 2, 2]
        assert lay.view(t, "vp")[0 if seat == 0 else 1, CATEGORIES.index("progress")] == 4
        for x, pr in obs["prices"].items():
            slot = next(sl["slot"] for sl in obs["structure"] if sl["card"] == int(x))
            assert lay.view(t, "card_price")[slot] == pr["construct"]
        assert lay.view(t, "score").tolist() == [obs["players"][me]["score"], obs["players"][op]["score"]]


def test_observer_relative_order():
    """Per-seat slices start with the observer; the pawn counts toward the observer's opponent; a spectator sees
    North first and the pawn toward South."""
    s = state(coins=(3, 11), city=(["Garrison"], ["Press", "Glassworks"]), pawn=2)
    north, south, spec = (s.observation_tensor(x) for x in (0, 1, None))
    lay = s.game.observation_tensor_layout()
    assert lay.view(north, "coins").tolist() == [3, 11]
    assert lay.view(south, "coins").tolist() == [11, 3]
    assert lay.view(spec, "coins").tolist() == [3, 11]
    assert lay.view(north, "pawn")[0] == 2 and lay.view(south, "pawn")[0] == -2 and lay.view(spec, "pawn")[0] == 2
    assert lay.view(north, "colors")[0, COLORS.index("red")] == 1 and lay.view(south, "colors")[0, 1] == 2
    assert lay.view(north, "seat").tolist() == [1, 0] and lay.view(south, "seat").tolist() == [0, 1]
    assert lay.view(spec, "seat").tolist() == [0, 0]
    # North's 2-VP military lead is "mine" for North and the opponent's for South
    mil = CATEGORIES.index("military")
    assert lay.view(north, "vp")[:, mil].tolist() == [2, 0] and lay.view(south, "vp")[:, mil].tolist() == [0, 2]
    # swapping the seats' roles gives the mirrored tensor
    for name in ("cards", "colors", "production", "trade_prices", "coins", "vp", "score", "wonders"):
        assert (lay.view(north, name)[::-1] == lay.view(south, name)).all(), name


def test_military_tokens_from_the_observers_side():
    s = state(pawn=4, military=([2, 5], [5]))
    lay = s.game.observation_tensor_layout()
    assert lay.view(s.observation_tensor(0), "military_tokens").tolist() == [[1, 1], [0, 1]]
    assert lay.view(s.observation_tensor(1), "military_tokens").tolist() == [[0, 1], [1, 1]]


def test_large_coins_and_scores_are_written_exactly():
    """Coins and scores above 127 (written apart from the bytes) hold the observation's values."""
    blue = ["Theater", "Altar", "Baths", "Courthouse", "Statue", "Temple", "Aqueduct", "Rostrum", "Palace",
            "Town Hall", "Obelisk", "Gardens", "Pantheon", "Senate"]
    s = state(age=3, coins=(140, 7), city=(blue, []), tokens=(["Philosophy", "Agriculture"], []),
              built=(["The Pyramids"], []), accessible=["Arsenal"])
    lay = s.game.observation_tensor_layout()
    obs = s.observation(None)
    assert obs["players"][0]["score"] > 127
    for seat in (0, 1, None):
        t = s.observation_tensor(seat)
        order = seat_order(seat, 2)
        assert lay.view(t, "coins").tolist() == [obs["players"][p]["coins"] for p in order]
        assert lay.view(t, "score").tolist() == [obs["players"][p]["score"] for p in order]
        assert (t == reference(s, seat)).all()


def test_coins_are_clipped_and_their_vp_too():
    s = state(coins=(400, 7))
    t = s.observation_tensor(0)
    lay = s.game.observation_tensor_layout()
    assert lay.view(t, "coins").tolist() == [COIN_CAP, 7]
    assert lay.view(t, "vp")[0, CATEGORIES.index("coins")] == COIN_CAP // 3
    assert (t >= lay.low()).all() and (t <= lay.high()).all()


# ---------------------------------------------------------------------------------------------------
# nothing hidden
# ---------------------------------------------------------------------------------------------------
def _mid_age(g, seed, age):
    """A state of a random game at the start of ``age``'s first play decision."""
    rng = Rng(seed)
    s = g.new_initial_state(seed)
    while not s.is_terminal() and not (s.observation(None)["age"] == age and s.observation(None)["phase"] == "play"):
        legal = s.legal_actions()
        discards = [a for a in legal if a.kind == "discard"]
        s.apply_action(discards[0] if discards else legal[rng.randbelow(len(legal))])
    return s


@pytest.mark.parametrize("age", [1, 2, 3])
def test_face_down_identities_never_appear(age):
    """P24: a face-down slot shows no card (its one-hot row is empty), only its back; two positions that differ
    only in a face-down card's identity give every seat the same tensor; resampling what a seat cannot see leaves
    its tensor unchanged while the face-down cards change."""
    g = game()
    lay = g.observation_tensor_layout()
    changed = 0
    for seed in range(4):
        s = _mid_age(g, seed, age)
        table = slots(s)
        down = [i for i, (name, up) in enumerate(table) if name is not None and not up]
        assert down
        for seat in (0, 1, None):
            t = s.observation_tensor(seat)
            assert lay.view(t, "structure_card")[down].sum() == 0
            assert lay.view(t, "structure_state")[down, 1:3].sum(axis=1).tolist() == [1] * len(down)
            for i in down:
                guild = C.cards[card(table[i][0])].guild
                assert lay.view(t, "structure_state")[i, 2] == guild
        for seat in (0, 1):
            t = s.observation_tensor(seat)
            for k in range(3):
                r = s.resample(seat, Rng(100 * seed + k))
                if [slots(r)[i] for i in down] != [table[i] for i in down]:
                    changed += 1
                assert (r.observation_tensor(seat) == t).all(), explain(lay, r.observation_tensor(seat), t)
    assert changed > 0


def test_two_positions_differing_only_in_a_face_down_card():
    base = position(age=2, accessible=["Sawmill"])
    row = next(ln for ln in base.splitlines() if ln.startswith("  row 2:"))
    assert "[?]" in row
    a = load_game("seven_wonders_duel").state_from_position(base.replace(row, row.replace("[?]", "[Brewery]", 1)))
    b = load_game("seven_wonders_duel").state_from_position(base.replace(row, row.replace("[?]", "[Forum]", 1)))
    assert slots(a) != slots(b)
    for seat in (0, 1, None):
        assert (a.observation_tensor(seat) == b.observation_tensor(seat)).all()


def test_library_draw_is_seen_by_its_builder_only():
    """P11: the 3 tokens the Great Library drew are in the builder's tensor while it chooses, nowhere else."""
    draw = ["Mathematics", "Philosophy", "Strategy"]
    s = state(decision="library", library=draw, built=(["The Great Library"], []), player=0)
    lay = s.game.observation_tensor_layout()
    mine = lay.view(s.observation_tensor(0), "library_draw")
    assert sorted(np.flatnonzero(mine).tolist()) == sorted(token_id(t) for t in draw)
    assert lay.view(s.observation_tensor(1), "library_draw").sum() == 0
    assert lay.view(s.observation_tensor(None), "library_draw").sum() == 0
    assert lay.view(s.observation_tensor(0), "phase")[STEP_KEYS.index("library")] == 1
    # the opponent and a spectator cannot tell two draws apart; the builder can
    board_free = state(decision="library", library=["Economy", "Masonry", "Theology"], built=(["The Great Library"], []),
                       player=0, board=["Agriculture", "Architecture", "Law", "Urbanism", "Mathematics"])
    swapped = state(decision="library", library=["Economy", "Masonry", "Philosophy"], built=(["The Great Library"], []),
                    player=0, board=["Agriculture", "Architecture", "Law", "Urbanism", "Mathematics"])
    assert (board_free.observation_tensor(1) == swapped.observation_tensor(1)).all()
    assert (board_free.observation_tensor(None) == swapped.observation_tensor(None)).all()
    assert not (board_free.observation_tensor(0) == swapped.observation_tensor(0)).all()


def test_wonders_and_tucked_cards():
    s = state(built=(["The Pyramids (Tavern)"], []), wonders=(["The Pyramids", "The Colossus"], ["The Sphinx"]))
    lay = s.game.observation_tensor_layout()
    t = s.observation_tensor(1)
    w = lay.view(t, "wonders")
    assert w[1, wonder_id("The Pyramids")].tolist() == [1, 1, 0]
    assert w[1, wonder_id("The Colossus")].tolist() == [1, 0, 0]
    assert w[0, wonder_id("The Sphinx")].tolist() == [1, 0, 0]
    assert lay.view(t, "tucked")[card("Tavern")] == 1 and lay.view(t, "tucked").sum() == 1
    assert lay.view(t, "cards")[1, card("Tavern")] == 0
    assert lay.view(t, "vp")[1, CATEGORIES.index("wonders")] == 9
    # seat 1 holds The Sphinx, unbuilt: priced for it, not for seat 0 (which sees its own wonders' prices)
    assert lay.view(t, "wonder_price")[wonder_id("The Sphinx")] == s.observation(1)["prices"][
        next(iter(s.observation(1)["prices"]))]["wonders"][str(wonder_id("The Sphinx"))]
    assert lay.view(s.observation_tensor(0), "wonder_price")[wonder_id("The Sphinx")] == 0


# ---------------------------------------------------------------------------------------------------
# bounds, mask, length
# ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "first_game", "first_print"])
def test_bounds_hold_over_seeded_random_games(options):
    g = game(**options)
    lay = g.observation_tensor_layout()
    seen_max = tensor_maxima(lay, random_states(g, range(100, 180), every=3), (0, 1, None))
    # the slices are used: every flag slice is set somewhere, and the counts go above 1
    for name in ("cards", "structure_card", "structure_state", "discard", "tucked", "coins", "vp", "card_price"):
        assert lay.view(seen_max, name).max() >= 1, name


def test_legal_action_mask_is_the_legal_actions():
    g = game()
    for s in random_states(g, range(20, 26)):
        mask = s.legal_action_mask()
        assert mask.dtype == np.int8 and mask.shape == (g.num_distinct_actions,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(a.id for a in s.legal_actions())
        other = 1 - s.current_player() if not s.is_terminal() else 0
        assert s.legal_action_mask(other).sum() == 0


def test_max_game_length():
    """79 = 8 draft picks + 60 cards + 2 starters + 5 tokens + Great Library + 2 destructions + Mausoleum;
    71 without the draft; no seeded random game is longer."""
    assert game().max_game_length() == 79
    assert game(first_game_wonders=True).max_game_length() == 71
    assert game(next_age_chooser="first_print").max_game_length() == 79
    for options in OPTION_SETS:
        g = game(**options)
        longest = 0
        for seed in range(60):
            rng = Rng(seed)
            s = g.new_initial_state(seed)
            while not s.is_terminal():
                legal = s.legal_actions()
                s.apply_action(legal[rng.randbelow(len(legal))])
            longest = max(longest, len(s.history))
        assert 60 < longest <= g.max_game_length()


@pytest.mark.parametrize("tokens, city, built", [
    (["Masonry"], ["Forum"], []),
    (["Architecture"], ["Caravansery", "Forum"], []),
    (["Masonry", "Architecture"], [], ["Piraeus", "The Great Lighthouse"]),
    ([], ["Caravansery"], ["Piraeus"]),
])
def test_prices_with_one_of_producers_and_reductions(tokens, city, built):
    """P5 (Masonry: 2 resources fewer for blue cards, Architecture: for wonders) and P20 (one-of producers):
    the price slices equal the observation's prices, for the seat that has them and for its opponent."""
    s = state(age=3, player=0, coins=(20, 20), tokens=(tokens, []), city=(city, ["Sawmill", "Glassblower"]),
              built=(built, []), accessible=["Palace", "Pantheon"])
    lay = s.game.observation_tensor_layout()
    for seat in (0, 1, None):
        obs = s.observation(seat)
        t = s.observation_tensor(seat)
        assert obs["prices"]
        for x, pr in obs["prices"].items():
            slot = next(sl["slot"] for sl in obs["structure"] if sl["card"] == int(x))
            assert lay.view(t, "card_price")[slot] == pr["construct"], C.cards[int(x)].name
            for w, coins in pr["wonders"].items():
                assert lay.view(t, "wonder_price")[int(w)] == coins, C.wonders[int(w)].name
