"""Between Two Cities rules through the public API only: seeded games driven by actions, checked through
observations, legal actions, scores and the log (``shared/reference/between_two_cities.md``, cited §N)."""

from __future__ import annotations

import pytest

from citygames.core import IllegalActionError, Rng, load_game
from citygames.core.game import SIMULTANEOUS, TERMINAL
from citygames.games.between_two_cities.constants import TERRAIN, TYPE_NAMES

GAME = "between_two_cities"


def play(game, seed: int, until=None, rng_seed: int | None = None):
    """A seeded random game, played until ``until(state)`` holds (or the end); returns the state."""
    rng = Rng(seed if rng_seed is None else rng_seed)
    s = game.new_initial_state(seed)
    while not s.is_terminal() and not (until and until(s)):
        movers = s.players_to_move()
        p = movers[rng.randbelow(len(movers))]
        legal = s.legal_actions(p)
        s.apply_action(legal[rng.randbelow(len(legal))], player=p)
    return s


def random_step(s, rng):
    movers = s.players_to_move()
    p = movers[rng.randbelow(len(movers))]
    legal = s.legal_actions(p)
    a = legal[rng.randbelow(len(legal))]
    s.apply_action(a, player=p)
    return p, a


def frame(cells: list[int], width: int) -> tuple[int, int]:
    """Height and width of the bounding box of the tiles and terrain of a city's cells."""
    xs = [x for x, k in enumerate(cells) if k]
    rows = [x // width for x in xs]
    cols = [x % width for x in xs]
    return max(rows) - min(rows) + 1, max(cols) - min(cols) + 1


# --- the draft: hand sizes, passing, discards (§3, §8.2) -------------------------------------------
@pytest.mark.parametrize("n,capitals,size", [(3, False, 7), (7, False, 7), (4, True, 9), (2, False, 7), (2, True, 9)])
def test_every_seat_draws_7_singles_or_9_with_capitals(n, capitals, size):
    g = load_game(GAME, num_players=n, capitals=capitals)
    s = g.new_initial_state(1)
    assert s.current_player() == SIMULTANEOUS and s.players_to_move() == tuple(range(n))
    for p in range(n):
        obs = s.observation(p)
        assert len(obs["hand"]) == size                       # §3 [C] / §8.2 [C]
        assert obs["hand_sizes"] == [size] * n
        assert obs["phase"] == "choose" and obs["round"] == 1
    assert s.observation(None)["hand"] is None


@pytest.mark.parametrize("n,capitals", [(3, False), (5, True), (2, False)])
def test_hands_pass_left_in_round_1_and_right_in_round_3(n, capitals):
    """§3 [C]: round 1 passes to the left: the rest of the hand goes under the city token on the seat's
    left, to the neighbour it shares its left city with; round 3 to the right; §7.1: to the opponent."""
    g = load_game(GAME, num_players=n, capitals=capitals)
    rng = Rng(5)
    s = g.new_initial_state(5)
    for rnd, d in ((1, 1), (3, -1)):
        while s.observation(None)["round"] != rnd:
            random_step(s, rng)
        before = {p: s.observation(p)["hand"] for p in range(n)}
        picks = {}
        while s.observation(None)["phase"] == "choose":
            p, a = random_step(s, rng)
            picks[p] = a
        revealed = [e for e in s.log if e.kind == "between_two_cities.reveal"][-1].data["chosen"]
        while s.observation(None)["phase"] == "place":
            random_step(s, rng)
        players = s.observation(None)["players"]
        for p in range(n):
            rest = list(before[p])
            for k in revealed[p]:
                rest.remove(k)
            if n == 2:
                q = 1 - p
            else:   # the neighbour on that side: its other side's city is p's city on this side
                mine, theirs = ("left", "right") if rnd == 1 else ("right", "left")
                q = next(x["seat"] for x in players if x[theirs] == players[p][mine])
                assert q == (p - d) % n
                assert s.observation(None)["passing"] == mine
            assert s.observation(q)["hand"] == sorted(rest)


@pytest.mark.parametrize("n,capitals", [(3, False), (7, False), (3, True), (7, True), (2, False), (2, True)])
def test_tiles_per_city_after_each_round_and_the_last_tile_discarded(n, capitals):
    """§3 [C]: 6 tiles per city after round 1 (3 from each neighbour), 4 x 4 = 16 at the end; §8.2 [C]:
    Capitals 8 after round 1 and 20 at the end; the last tile of every hand is discarded face down."""
    g = load_game(GAME, num_players=n, capitals=capitals)
    after1 = 8 if capitals else 6         # §7.1: with 2 players, 1a and 1b give each city one tile a turn
    s = play(g, 11, until=lambda s: s.observation(None)["round"] == 2)
    obs = s.observation(0)
    assert [c["tiles"] for c in obs["cities"]] == [after1] * g.n_cities
    assert obs["hand_sizes"] == [0] * n   # the hands are gone: their last tiles discarded
    discards = [e for e in s.log if e.kind == "between_two_cities.discard_last"]
    assert len(discards) == (2 if n == 2 else 1)
    # a seat knows the last tile of each hand it held (its observation lists them)
    held = min(n, g.hand_size // 2)
    assert len(obs["known_discards"]) == held * (2 if n == 2 else 1)
    s = play(g, 11)
    final = 20 if capitals else 16
    cities = s.observation(None)["cities"]
    assert [c["tiles"] for c in cities] == [final] * g.n_cities
    for c in cities:
        squares = 5 if capitals else 4
        if not any(e.data.get("fallback") for e in s.log if e.data.get("city") == c["city"]):
            assert frame(c["cells"], g.width) == (squares, squares)        # §4, §8.3: a full square
            assert sum(1 for k in c["cells"] if k) == squares * squares


def test_two_players_play_every_round_twice_and_score_the_sum():
    """§7.1 [C]: 4 cities, each built by one player alone; rounds 1a, 1b, 2a, 2b, 3a, 3b; score = sum."""
    g = load_game(GAME, num_players=2)
    assert g.n_cities == 4
    rng = Rng(3)
    s = g.new_initial_state(3)
    stages = []
    while not s.is_terminal():
        st = s.observation(None)["stage"]
        if not stages or stages[-1] != st:
            stages.append(st)
        random_step(s, rng)
    assert stages == ["1a", "1b", "2a", "2b", "3a", "3b"]
    assert len(s.history) == g.max_game_length() == 84
    totals = s.city_totals()
    assert s.scores() == [totals[0] + totals[1], totals[2] + totals[3]]
    for p in range(2):
        assert sum(s.score_breakdown(p).values()) == s.scores()[p]
    # every tile a seat placed went into its own cities
    for e in s.log:
        if e.kind in ("between_two_cities.place", "between_two_cities.place_duplex"):
            assert e.data["city"] in (2 * e.player, 2 * e.player + 1)


def test_round_2_keeps_two_of_three_duplexes_one_per_city():
    """§3 [C]: 3 duplexes drawn, 1 discarded in secret, the 2 kept revealed and placed one in each city."""
    g = load_game(GAME, num_players=4)
    s = play(g, 8, until=lambda s: s.observation(None)["phase"] == "discard")
    for p in range(4):
        obs = s.observation(p)
        assert len(obs["duplexes"]) == 3
        legal = s.legal_actions(p)
        assert legal and all(a.kind == "discard_duplex" and a.arg in obs["duplexes"] for a in legal)
    assert s.observation(None)["duplexes"] is None
    rng = Rng(2)
    while s.observation(None)["phase"] == "discard":
        random_step(s, rng)
    kept = [e for e in s.log if e.kind == "between_two_cities.reveal_duplexes"][-1].data["kept"]
    assert all(len(k) == 2 for k in kept)
    placed = []
    while s.observation(None)["phase"] == "place_duplex":
        p, a = random_step(s, rng)
        placed.append((p, a))
    for p in range(4):
        mine = [a for q, a in placed if q == p]
        assert sorted((a.arg // 81) // 2 for a in mine) == sorted(kept[p])
        assert sorted((a.arg // 81) % 2 for a in mine) == [0, 1]          # one in each city


# --- placement (§4, §8.3) -----------------------------------------------------------------------------
def _check_placements(g, s) -> int:
    """Every legal place / place_duplex action obeys §4: adjacent to a tile (or the first tile's square),
    inside the frame, duplex halves in the printed orientation. Returns how many were checked."""
    W = g.width
    obs = s.observation(None)
    p = obs["current_player"]
    me = obs["players"][p]
    checked = 0
    fb = obs["placements"]["fallback"]
    for a in s.legal_actions(p):
        rest, x = divmod(a.arg, 81)
        what, side = divmod(rest, 2)
        if ("left", "right")[side] in fb:
            continue
        city = obs["cities"][me[("left", "right")[side]]]
        cells = city["cells"]
        if a.kind == "place":
            cover = [x]
        else:
            d = g.components.duplexes[what]
            cover = [x, x + (1 if d.horizontal else W)]
            if d.horizontal:
                assert x % W < W - 1
        assert all(cells[y] == 0 for y in cover)
        if city["tiles"] == 0:
            if g.capitals:
                squares = g.components.mats[[m.id for m in g.components.mats].index(city["mat"]["id"])].squares
                assert any(y in squares for y in cover)                   # §8.3: first tile on the mat
            else:
                assert cover[0] == g.centre or cover[-1] == g.centre
        else:
            adj = g.geometries(tuple(m for m in s.mats))[city["city"]].adj
            assert any(0 < cells[z] < TERRAIN for y in cover for z in adj[y])  # §4: shares an edge
        after = list(cells)
        for y in cover:
            after[y] = 1
        h, w = frame(after, W)
        assert h <= g.frame and w <= g.frame                                   # §4: 4 x 4, §8.3: 5 x 5
        checked += 1
    return checked


@pytest.mark.parametrize("n,capitals", [(3, False), (4, True), (2, True)])
def test_every_legal_placement_is_adjacent_and_inside_the_frame(n, capitals):
    g = load_game(GAME, num_players=n, capitals=capitals)
    total = 0
    for seed in range(3):
        rng = Rng(seed)
        s = g.new_initial_state(seed)
        while not s.is_terminal():
            if s.observation(None)["phase"] in ("place", "place_duplex"):
                total += _check_placements(g, s)
            random_step(s, rng)
    assert total > 500


def test_the_second_tile_goes_to_the_other_city_and_seats_place_in_ascending_order():
    """§3 [C]: one tile in each city; §3 / §10 #8 PROJECT DEFAULT: the lower seat index places first."""
    g = load_game(GAME, num_players=4)
    rng = Rng(4)
    s = play(g, 4, until=lambda s: s.observation(None)["phase"] == "place")
    order = []
    while s.observation(None)["phase"] == "place":
        p = s.current_player()
        order.append(p)
        first = s.legal_actions(p)
        assert {(a.arg // 81) % 2 for a in first} == {0, 1}
        a = first[rng.randbelow(len(first))]
        s.apply_action(a, player=p)
        if s.observation(None)["phase"] == "place" and s.current_player() == p:
            second = s.legal_actions(p)
            assert {(b.arg // 81) % 2 for b in second} == {1 - (a.arg // 81) % 2}
            s.apply_action(second[0], player=p)
    assert order == [0, 1, 2, 3]


def test_a_placement_out_of_turn_or_not_adjacent_is_refused_and_changes_nothing():
    g = load_game(GAME, num_players=3)
    s = play(g, 2, until=lambda s: len([e for e in s.log if e.kind.endswith(".place")]) == 6
             and s.observation(None)["phase"] == "place")
    p = s.current_player()
    a = s.legal_actions(p)[0]
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply_action(a, player=(p + 1) % 3)
    far = g.action_space.get("place", (a.arg // 81) * 81 + 0)             # the grid's corner
    with pytest.raises(IllegalActionError, match="edge|frame"):
        s.apply_action(far, player=p)
    assert s.to_dict() == before


def test_base_first_tile_in_the_centre():
    g = load_game(GAME, num_players=3)
    s = play(g, 1, until=lambda s: s.observation(None)["phase"] == "place")
    cells = {(a.arg % 81) for a in s.legal_actions(0)}
    assert cells == {g.centre}


# --- the frame: a city must stay completable (§4, §8.3) -----------------------------------------------
def _play_to(game, seed: int, steps: int):
    rng = Rng(seed)
    s = game.new_initial_state(seed)
    while len(s.history) < steps:
        legal = s.legal_actions()
        s.apply_action(legal[rng.randbelow(len(legal))])
    return s


def test_a_tile_that_would_leave_no_spot_for_an_upright_duplex_is_refused():
    """§4 / §8.3 [C] "never place so that the finished city could not be a square": Blue's last tile of
    round 1b in its left city (the marsh mat) may not go above the P or the H of column 2 (cells 19,
    20): the city's 5 x 5 frame would then be fixed with no spot left for an upright duplex next to a
    tile, though the bounding box alone allows it (``rules.frame_rule: bounding_box``)."""
    g = load_game(GAME, num_players=2, capitals=True)
    loose = load_game(GAME, num_players=2, capitals=True,
                      data_overrides={"tiles.yaml:rules.frame_rule": "bounding_box"})
    s = _play_to(g, 37, 44)
    obs = s.observation(0)
    assert (obs["stage"], obs["phase"], obs["current_player"]) == ("1b", "place", 0)
    assert obs["cities"][0]["mat"]["id"] == "marsh" and obs["cities"][0]["tiles"] == 7
    strict = set(s.single_cells(0))
    box_only = set(loose.state_from_dict(s.to_dict()).single_cells(0))
    assert box_only - strict == {19, 20} and strict < box_only
    assert {a.arg % 81 for a in s.legal_actions(0) if (a.arg // 81) % 2 == 0} == strict
    k = obs["to_place"][0]["tiles"][0]
    bad = g.action_space.get("place", ((k - 1) * 2 + 0) * 81 + 19)
    with pytest.raises(IllegalActionError, match="square|frame"):
        s.apply_action(bad, player=0)
    # where the bounding box alone rules, the tile may go there, and then an upright duplex (V1) has no
    # spot by the rule while a side-by-side one (H1) still has
    from citygames.games.between_two_cities.placement import duplex_levels
    t = loose.state_from_dict(s.to_dict())
    t.apply_action(bad, player=0)
    assert duplex_levels(t, 0, 12)[0] > 1 and duplex_levels(t, 0, 0)[0] == 1


@pytest.mark.parametrize("n", [2, 3, 7])
def test_random_capitals_games_never_break_the_frame(n):
    """With the completability check no duplex ever lacks a spot: every city ends a full 5 x 5 square
    around its mat with no fallback; the bounding box alone breaks it in some of these games."""
    g = load_game(GAME, num_players=n, capitals=True)
    loose = load_game(GAME, num_players=n, capitals=True,
                      data_overrides={"tiles.yaml:rules.frame_rule": "bounding_box"})
    broken = 0
    for seed in range(10):
        s = play(g, seed)
        assert not any(e.data.get("fallback") for e in s.log)
        for c in s.observation(None)["cities"]:
            assert frame(c["cells"], g.width) == (5, 5) and sum(1 for k in c["cells"] if k) == 25
        broken += any(e.data.get("fallback") for e in play(loose, seed).log)
    assert broken > 0


# --- Capitals setup (§8.2) -----------------------------------------------------------------------------
def test_capitals_setup_mats_districts_and_the_house_factory_exception():
    """§8.2 [C]: a mat per city; 3 district pairs, the 7th card put away, never a House + Factory pair."""
    types = set()
    for seed in range(150):
        g = load_game(GAME, num_players=7 if seed % 2 else 3, capitals=True)
        obs = g.new_initial_state(seed).observation(None)
        mats = [c["mat"]["id"] for c in obs["cities"]]
        assert len(set(mats)) == len(mats) == g.n_cities
        pairs = [tuple(d["types"]) for d in obs["districts"]]
        assert len(pairs) == 3 and [d["tile"] for d in obs["districts"]] == [0, 1, 2]
        assert all(set(p) != {"house", "factory"} for p in pairs)
        used = [t for p in pairs for t in p] + [obs["district_discard"]]
        assert sorted(used) == sorted(TYPE_NAMES[t] for t in g.components.district_cards)
        types.add(obs["district_discard"])
    assert {"house", "factory"} <= types
    g = load_game(GAME, num_players=3)
    obs = g.new_initial_state(0).observation(None)
    assert obs["districts"] == [] and all(c["mat"] is None for c in obs["cities"])


def test_capitals_civics_are_in_the_supply():
    """§8.1 [C]: with the landscapes the civic buildings are always used (the option brings all three)."""
    g = load_game(GAME, num_players=7, capitals=True)
    s = play(g, 0)
    cells = [k for c in s.observation(None)["cities"] for k in c["cells"]]
    assert any(10 <= k < TERRAIN for k in cells)
    assert sum(1 for k in cells if k == TERRAIN) == 5 * 7
    assert "civics" in s.score_breakdown(0) and "districts" in s.score_breakdown(0)


# --- scores and tie-breaks (§5) --------------------------------------------------------------------------
def test_lower_city_score_ranking_and_tie_breaks():
    """§5 [C]: a seat's score is its lower city; ties: the higher city, then shops, factories, taverns,
    offices, parks, houses across both cities (more wins: inferred); full ties share the win."""
    tb1 = tb2 = 0
    for seed in range(150):
        n = 3 + seed % 5
        g = load_game(GAME, num_players=n, capitals=seed % 3 == 0)
        s = play(g, seed)
        totals = s.city_totals()
        sc = s.scores()
        for p in range(n):
            assert sc[p] == min(totals[g.left[p]], totals[g.right[p]])
            assert sum(s.score_breakdown(p).values()) == sc[p]
            assert s.lower_city(p) in (g.left[p], g.right[p]) and totals[s.lower_city(p)] == sc[p]

        def counts(p):
            from citygames.games.between_two_cities.scoring import type_counts
            a = type_counts(s.city_cells(g.left[p]))
            b = type_counts(s.city_cells(g.right[p]))
            return tuple(x + y for x, y in zip(a, b))

        def key(p):
            return (sc[p], max(totals[g.left[p]], totals[g.right[p]])) + counts(p)

        r = s.ranking()
        assert [key(p) for p in r] == sorted((key(p) for p in range(n)), reverse=True)
        for a, b in zip(r, r[1:]):
            if sc[a] == sc[b]:
                if key(a)[1] != key(b)[1]:
                    tb1 += 1
                elif key(a) != key(b):
                    tb2 += 1
        top = [p for p in range(n) if key(p) == key(r[0])]
        assert s.winners() == sorted(top)
        assert s.returns() == [1 / len(top) if p in top else 0.0 for p in range(n)]
    assert tb1 > 10 and tb2 > 0


def test_two_player_ties_use_only_the_second_tie_break():
    """§7.1 [C]: only the building counts break a tie of sums."""
    seen = 0
    for seed in range(300):
        g = load_game(GAME, num_players=2)
        s = play(g, seed)
        sc = s.scores()
        if sc[0] == sc[1]:
            seen += 1
            from citygames.games.between_two_cities.scoring import type_counts
            c = [tuple(x + y for x, y in zip(type_counts(s.city_cells(2 * p)), type_counts(s.city_cells(2 * p + 1))))
                 for p in range(2)]
            if c[0] != c[1]:
                assert s.ranking()[0] == (0 if c[0] > c[1] else 1)
    assert seen > 0


# --- hidden information (§3) -------------------------------------------------------------------------------
def test_a_pending_choice_is_secret_and_who_has_chosen_is_public():
    g = load_game(GAME, num_players=4)
    s = g.new_initial_state(9)
    views = {q: s.observation(q) for q in (1, 2, 3, None)}
    a = s.legal_actions(0)[0]
    s.apply_action(a, player=0)
    assert s.observation(0)["pending"]["id"] == a.id
    assert s.players_to_move() == (1, 2, 3)
    for q in (1, 2, 3, None):
        obs = s.observation(q)
        assert obs["pending"] is None
        assert obs["chosen"] == [0] and obs["choice_status"] == "1 of 4 have chosen"
        for key in ("chosen", "choosing", "choice_status", "to_move"):
            obs.pop(key)
            views[q].pop(key)
        assert obs == views[q]
    assert not [e for e in s.log if e.kind.endswith("reveal")]     # nothing is logged before the reveal
    s.withdraw(0)
    assert s.players_to_move() == (0, 1, 2, 3) and s.observation(0)["pending"] is None
    s.apply_action(a, player=0)
    with pytest.raises(IllegalActionError, match="chosen already"):
        s.apply_action(a, player=0)


def test_a_seat_sees_only_the_hands_it_has_held_and_resample_keeps_them():
    g = load_game(GAME, num_players=5)
    rng = Rng(1)
    s = g.new_initial_state(1)
    while s.observation(None)["turn"] < 2:
        random_step(s, rng)
    while s.observation(None)["phase"] != "choose":
        random_step(s, rng)
    random_step(s, rng)          # somebody has chosen
    for p in range(5):
        obs = s.observation(p)
        holders = {h["holder"] for h in obs["hands_known"]}
        assert holders == {p, (p - 1) % 5, (p - 2) % 5}     # §3: the hands it held, passed on to the left
        for k in range(4):
            t = s.resample(p, Rng(100 + k))
            assert t.observation(p) == obs
            assert t.legal_actions(p) == s.legal_actions(p)
    differs = False
    for k in range(10):
        t = s.resample(0, Rng(k))
        differs |= t.observation(2)["hand"] != s.observation(2)["hand"]
    assert differs                                                     # a hand seat 0 never held is redrawn


def test_the_game_ends_with_terminal_and_every_action_count_is_fixed():
    for n, cap in ((3, False), (7, True)):
        g = load_game(GAME, num_players=n, capitals=cap)
        s = play(g, 2)
        assert s.current_player() == TERMINAL and s.players_to_move() == () and s.legal_actions() == []
        assert len(s.history) == g.max_game_length()
        assert [e for e in s.log if e.kind.endswith("game_end")]


def test_the_running_score_is_the_scoring_of_the_cities_as_they_stand():
    """The running score (observation) is the scoring of the cities as they stand (§5)."""
    g = load_game(GAME, num_players=3)
    s = play(g, 6, until=lambda s: s.observation(None)["round"] == 3)
    for c in s.observation(None)["cities"]:
        assert c["score"] == sum(c["breakdown"].values()) == s.city_totals()[c["city"]]
