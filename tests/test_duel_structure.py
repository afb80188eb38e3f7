"""Structure tests for 7 Wonders Duel: the three card layouts, accessibility and face-up timing, hidden guild
backs and resampling.

Sources: "ref §5" = shared/reference/seven_wonders_duel.md §5 (layouts) and P23/P24 (reveal timing, hidden
information); LAYOUTS = the "layouts" section of shared/reference/seven_wonders_duel_cards.json (BGA, IND and DFO
give the identical covering graph); HU = the rulebook's turn section ("Az akció végrehajtása után az esetlegesen
hozzáférhetővé váló lefordított kártyalapokat fel kell fordítani" and the extra-turn note).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citygames import load_game
from citygames.core.rng import Rng
from citygames.games.seven_wonders_duel.components import components
from citygames.games.seven_wonders_duel.state import PH_END, PH_PLAY, PH_START, PH_TOKEN

C = components()
NCARDS = len(C.cards)
#: a copy of shared/reference/seven_wonders_duel_cards.json kept with the tests (CI has no shared folder);
#: test_reference_copy_is_current checks it against the original when that is present
REF = Path(__file__).resolve().parent / "data" / "seven_wonders_duel_cards.json"
SHARED_REF = Path(__file__).resolve().parents[2] / "shared" / "reference" / "seven_wonders_duel_cards.json"
LAYOUTS = json.loads(REF.read_text(encoding="utf-8"))["layouts"]


def ref_slots(age: int) -> list[dict]:
    return LAYOUTS[f"age_{age}"]["slots"]


def ref_covered_by(age: int) -> list[list[int]]:
    return [sorted(d["covered_by"]) for d in ref_slots(age)]


def new_state(seed: int = 0, **options):
    opts = {"first_game_wonders": True}
    opts.update(options)
    return load_game("seven_wonders_duel", **opts).new_initial_state(seed)


def act(s, kind: str, arg: int):
    return s.game.action_space.get(kind, arg)


def uncovered(s, i: int) -> bool:
    """Per the reference layout: no card covering slot ``i`` is still present."""
    return all(s.slot[j] < 0 for j in ref_covered_by(s.age)[i])


def check_structure(s) -> None:
    """The invariants of ref §5 / P23 / P24 in the current state (during an age)."""
    age = s.age
    ref = ref_slots(age)
    present = [s.slot[i] >= 0 for i in range(20)]
    # a card is face up iff it was dealt face up or nothing covers it any more; a covered face-down card is never
    # revealed. Once the action has fully resolved (a turn or an extra turn is about to start) the equivalence
    # is exact (P23); during a pending choice of the same action a newly uncovered card may still be face down.
    for i in range(20):
        if not present[i]:
            continue
        expect_up = ref[i]["face_up"] or uncovered(s, i)
        if s.phase in (PH_PLAY, PH_START):
            assert s.up[i] == expect_up, (age, i)
        elif s.up[i]:
            assert expect_up, (age, i)
    # accessible = present, face up and uncovered
    acc = [i for i in range(20) if present[i] and s.up[i] and uncovered(s, i)]
    assert s.accessible_slots() == acc
    assert s.accessible_cards() == [s.slot[i] for i in acc]
    if s.phase == PH_PLAY:
        assert acc, "an age in play always has an accessible card"
        taken = {a.arg % NCARDS for a in s.legal_actions() if a.kind in ("construct", "discard", "wonder")}
        assert taken == {s.slot[i] for i in acc}
    assert s.ntaken == 20 - sum(present)
    # the observation (P24): face-down identities hidden, guild backs public
    for seat in (0, 1, None):
        obs = s.observation(seat)["structure"]
        assert len(obs) == 20
        for i, o in enumerate(obs):
            assert (o["slot"], o["row"], o["col"]) == (i, ref[i]["row"], ref[i]["col"])
            assert o["taken"] == (not present[i])
            assert o["accessible"] == (i in acc)
            if not present[i]:
                assert o["card"] is None and not o["guild_back"]
            elif s.up[i]:
                assert o["face_up"] and o["card"] == s.slot[i] and not o["guild_back"]
            else:
                assert not o["face_up"] and o["card"] is None
                assert o["guild_back"] == C.cards[s.slot[i]].guild


def pick_slot(s, policy: str, rng: Rng) -> int:
    acc = s.accessible_slots()
    if policy == "left":
        return acc[0]
    if policy == "right":
        return acc[-1]
    return rng.choice(acc)


def step(s, policy: str, rng: Rng):
    """One action: in the play phase take an accessible card (per ``policy``) and discard it or, now and then,
    build a wonder with it (coins are topped up so wonders are affordable); any other decision at random."""
    if s.phase != PH_PLAY:
        return rng.choice(s.legal_actions())
    s.coins[s.player] = max(s.coins[s.player], 40)
    s._legal = None
    x = s.slot[pick_slot(s, policy, rng)]
    wonders = [a for a in s.legal_actions() if a.kind == "wonder" and a.arg % NCARDS == x]
    if wonders and rng.randbelow(6) == 0:
        return rng.choice(wonders)
    return act(s, "discard", x)


def play_through(s, last_age: int, policy: str, seed: int) -> dict:
    """Play until ``last_age`` is over (or the game ends), checking the structure after every action and that
    every face-down card is revealed exactly when its last covering card is taken. Returns per age the reveal
    events seen."""
    rng = Rng(seed)
    reveals: dict[int, list[int]] = {1: [], 2: [], 3: []}
    check_structure(s)
    while not s.is_terminal() and (s.age < last_age or (s.age == last_age and s.ntaken < 20)):
        age = s.age
        before_up = s.up[:]
        n = len(s.log)
        a = step(s, policy, rng)
        s.apply_action(a)
        if s.is_terminal():
            break
        if s.age != age:          # the age ended: its last card was taken, no reveal was left pending
            assert s.age == age + 1
            assert sorted(reveals[age]) == [i for i in range(20) if not C.structures[age].face_up[i]]
            assert s.slot == s.deals[s.age] and s.up == list(C.structures[s.age].face_up)
            assert s.accessible_slots() == LAYOUTS[f"age_{s.age}"]["initially_available"]
            check_structure(s)
            continue
        new = [e.data["slot"] for e in s.log[n:] if e.kind == "duel.reveal"]
        for e in s.log[n:]:
            if e.kind == "duel.reveal":
                assert s.slot[e.data["slot"]] == e.data["card"]
        reveals[age] += new
        assert len(set(reveals[age])) == len(reveals[age]), "a card is revealed once"
        if s.phase == PH_PLAY:    # the action resolved: exactly the face-down cards just uncovered turned up
            assert sorted(new) == [i for i in range(20) if s.up[i] and not before_up[i]]
        check_structure(s)
    return reveals


# ==============================================================================================
# 1. The layouts (ref §5, LAYOUTS)
# ==============================================================================================
@pytest.mark.parametrize("age", [1, 2, 3])
def test_structures_equal_the_reference_covering_graph(age):
    """ref §5 and LAYOUTS: per slot the row, column, initial orientation, covered_by and covers of the engine's
    structure equal the reference data; the initially accessible slots too."""
    st = C.structures[age]
    ref = ref_slots(age)
    assert len(ref) == 20 and len(st.rows) == 20
    for i, d in enumerate(ref):
        assert d["slot"] == i
        assert (st.rows[i], st.cols[i]) == (d["row"], d["col"]), i
        assert st.face_up[i] == d["face_up"], i
        assert sorted(st.covered_by[i]) == sorted(d["covered_by"]), i
        assert sorted(st.covers[i]) == sorted(d["covers"]), i
    assert list(st.start) == LAYOUTS[f"age_{age}"]["initially_available"]
    sizes = [sum(1 for r in st.rows if r == k) for k in range(1, max(st.rows) + 1)]
    assert sizes == LAYOUTS[f"age_{age}"]["row_sizes"]


def test_layout_shapes_and_age_iii_middle_row():
    """ref §5: row sizes I 2-3-4-5-6, II 6-5-4-3-2, III 2-3-4-2-4-3-2; face-up rows I/II 1, 3, 5 and III 1, 3,
    5, 7; in Age III slot 9 is covered by 11 and 12 and covers 5 and 6, slot 10 is covered by 13 and 14 and
    covers 7 and 8."""
    assert LAYOUTS["age_1"]["row_sizes"] == [2, 3, 4, 5, 6]
    assert LAYOUTS["age_2"]["row_sizes"] == [6, 5, 4, 3, 2]
    assert LAYOUTS["age_3"]["row_sizes"] == [2, 3, 4, 2, 4, 3, 2]
    for age, rows in ((1, {1, 3, 5}), (2, {1, 3, 5}), (3, {1, 3, 5, 7})):
        st = C.structures[age]
        assert {r for r, u in zip(st.rows, st.face_up) if u} == rows
    st = C.structures[3]
    assert sorted(st.covered_by[9]) == [11, 12] and sorted(st.covers[9]) == [5, 6]
    assert sorted(st.covered_by[10]) == [13, 14] and sorted(st.covers[10]) == [7, 8]


@pytest.mark.parametrize("age", [1, 2, 3])
def test_deal_12_face_up_8_face_down_and_the_initial_accessible_slots(age):
    """ref §5 ("Each layout holds 20 cards: 12 face up, 8 face down"; accessible at the start: Age I the 6 cards
    of row 5, Ages II and III the 2 cards of the last row); face-down identities are hidden in every observation."""
    for seed in (0, 1, 2):
        s = new_state(seed)
        if age > 1:
            s._start_age(age, 0)
            s._legal = None
        assert sorted(s.slot) == sorted(s.deals[age]) and len(set(s.slot)) == 20
        assert sum(s.up) == 12 and s.up.count(False) == 8
        expect = [14, 15, 16, 17, 18, 19] if age == 1 else [18, 19]
        assert s.accessible_slots() == expect
        for seat in (0, 1, None):
            obs = s.observation(seat)["structure"]
            assert [o["slot"] for o in obs if o["accessible"]] == expect
            assert sum(1 for o in obs if o["card"] is None) == 8
        check_structure(s)


def test_age_iii_guild_backs_are_public():
    """ref §5 ("in Age III the positions of face-down guilds are public"), P24: a face-down guild slot shows
    guild_back true and no card to every seat; other face-down slots show guild_back false."""
    seen = 0
    for seed in range(12):
        s = new_state(seed)
        s._start_age(3, 0)
        s._legal = None
        guilds_down = [i for i in range(20) if not s.up[i] and C.cards[s.slot[i]].guild]
        seen += len(guilds_down)
        for seat in (0, 1, None):
            obs = s.observation(seat)["structure"]
            for i, o in enumerate(obs):
                assert o["guild_back"] == (i in guilds_down)
                if i in guilds_down:
                    assert o["card"] is None and not o["face_up"]
        age_event = [e for e in s.log if e.kind == "duel.age" and e.data["age"] == 3][-1]
        assert set(guilds_down) <= set(age_event.data["guild_backs"])
        assert all(age_event.data["cards"][i] == -1 for i in guilds_down)
    assert seen > 0


# ==============================================================================================
# 2. Playing through each age (ref §5, P23)
# ==============================================================================================
@pytest.mark.parametrize("policy", ["left", "right", "random"])
@pytest.mark.parametrize("age", [1, 2, 3])
def test_play_through_an_age(age, policy):
    """ref §5, P23, HU turn section: through a whole age (in several orders), after every action: accessible =
    present, face up and uncovered; a face-down card turns face up exactly when its last covering card is taken,
    before the next turn and before an extra turn; each of the 8 face-down cards is revealed once; 20 cards are
    taken, then the next age is dealt with its initial accessible slots."""
    extra_turns = 0
    for seed in range(4):
        s = new_state(seed)
        reveals = play_through(s, age, policy, seed * 7 + age)
        if age < 3:
            assert s.age == age + 1 and s.phase == PH_START
        else:
            assert s.phase == PH_END and s.ntaken == 20
        assert sorted(reveals[age]) == [i for i in range(20) if not C.structures[age].face_up[i]]
        ages = [e.data["age"] for e in s.log if e.kind == "duel.age"]
        in_age = False
        for e in s.log:
            if e.kind == "duel.age":
                in_age = e.data["age"] == age
            elif in_age and e.kind == "duel.extra_turn":
                extra_turns += 1
        assert ages == list(range(1, min(age + 1, 3) + 1))
    assert extra_turns > 0, "the seeds exercise the reveal before an extra turn"


def test_reveal_happens_before_an_extra_turn():
    """HU ("Ez a játékos az új körét az újonnan hozzáférhetővé váló kártyák felfedése után kezdi meg"), P9, P23:
    the Sphinx built with the card that uncovers a face-down card: the card is face up and accessible when the
    extra turn starts, and can be taken in it."""
    s = new_state(3)
    p = s.player
    s.wonders[p] = [C.wonder_by_name["The Sphinx"]]
    s.coins[p] = 30
    s._legal = None
    # slot 9 (face down) is covered by slots 14 and 15
    s.apply_action(act(s, "discard", s.slot[14]))
    s.player = p
    s._legal = None
    assert not s.up[9]
    x = s.slot[15]
    n = len(s.log)
    s.apply_action(act(s, "wonder", C.wonder_by_name["The Sphinx"] * NCARDS + x))
    assert s.player == p and s.phase == PH_PLAY
    assert s.up[9] and 9 in s.accessible_slots()
    kinds = [e.kind for e in s.log[n:]]
    assert kinds.index("duel.reveal") < kinds.index("duel.extra_turn")
    check_structure(s)
    s.apply_action(act(s, "discard", s.slot[9]))
    assert s.slot[9] == -1 and s.player == 1 - p


def test_reveal_waits_for_a_pending_choice():
    """P23: "reveal newly accessible cards after the action has fully resolved (including any pending choices)":
    the Library that completes a pair uncovers a face-down card, which turns face up once the token is chosen."""
    s = new_state(4)
    s._start_age(2, 0)
    p = 0
    s.player = p
    scriptorium = C.card_by_name["Scriptorium"]
    library = C.card_by_name["Library"]
    s._gain_card(p, scriptorium, chained=False)
    # put the Library in slot 18; once slot 19 is gone, the face-down slots 15 and 16 are covered by 18 only
    if library in s.slot:
        j = s.slot.index(library)
        s.slot[j], s.slot[18] = s.slot[18], library
    else:
        s.removed = [r[:] for r in s.removed]
        for pile in s.removed:
            if library in pile:
                pile[pile.index(library)] = s.slot[18]
        s.slot[18] = library
    s.up[18] = True
    s.slot[19] = -1       # slot 19 already taken: slot 17 (covered by 19 only) was revealed then
    s.up[17] = True
    s.ntaken = 1
    s._legal = None
    assert sorted(C.structures[2].covered_by[15]) == [18] and sorted(C.structures[2].covered_by[16]) == [18, 19]
    s.apply_action(act(s, "construct", library))
    assert s.phase == PH_TOKEN and not s.up[15] and not s.up[16]
    check_structure(s)
    s.apply_action(act(s, "progress", s.board[0]))
    assert s.phase == PH_PLAY and s.up[15] and s.up[16] and s.accessible_slots() == [15, 16, 17]
    check_structure(s)


# ==============================================================================================
# 3. Resampling (P24)
# ==============================================================================================
def _mid_age(age: int, seed: int, turns: int):
    s = new_state(seed)
    rng = Rng(seed)
    play_through(s, age - 1, "random", seed) if age > 1 else None
    if s.is_terminal():
        return None
    while s.phase != PH_PLAY:
        s.apply_action(rng.choice(s.legal_actions()))
    for _ in range(turns):
        if s.is_terminal() or s.age != age:
            return None
        s.apply_action(step(s, "random", rng))
    return s if not s.is_terminal() and s.age == age else None


@pytest.mark.parametrize("age", [1, 2, 3])
def test_resample_keeps_everything_visible(age):
    """P24, ref §5: resample(seat) redraws only what the seat has not seen: every visible slot (taken or face
    up) is unchanged, face-down guild slots stay guilds and other face-down slots stay non-guilds, the seat's
    observation is identical, the face-down cards plus the removed cards (plus the unused guilds in Age III)
    are the same cards as before, and the resampled deal of the age agrees with the resampled structure."""
    checked = varied = 0
    for seed in range(6):
        s = _mid_age(age, seed, 3)
        if s is None:
            continue
        for seat in (0, 1):
            obs = s.observation(seat)
            for k in range(4):
                r = s.resample(seat, Rng(1000 * seed + 10 * seat + k))
                checked += 1
                assert r.age == s.age and r.up == s.up
                for i in range(20):
                    if s.slot[i] < 0 or s.up[i]:
                        assert r.slot[i] == s.slot[i]
                    else:
                        assert C.cards[r.slot[i]].guild == C.cards[s.slot[i]].guild
                hidden_s = [s.slot[i] for i in range(20) if s.slot[i] >= 0 and not s.up[i]]
                hidden_r = [r.slot[i] for i in range(20) if r.slot[i] >= 0 and not r.up[i]]
                extra_s = s.removed[age] + (s.gbox if age == 3 else [])
                extra_r = r.removed[age] + (r.gbox if age == 3 else [])
                assert sorted(hidden_s + extra_s) == sorted(hidden_r + extra_r)
                assert len(r.removed[age]) == len(s.removed[age])
                if hidden_r != hidden_s:
                    varied += 1
                # the resampled state is consistent: the deal of the current age agrees with its structure, so
                # it does not keep the true identities of the redrawn face-down cards
                assert [r.deals[age][i] for i in range(20) if r.slot[i] >= 0] == \
                    [r.slot[i] for i in range(20) if r.slot[i] >= 0]
                assert [r.deals[age][i] for i in range(20) if r.slot[i] < 0] == \
                    [s.deals[age][i] for i in range(20) if s.slot[i] < 0]
                assert r.observation(seat) == obs
                check_structure(r)
    assert checked >= 24
    assert varied > 0


def test_resample_of_age_iii_keeps_guild_backs_on_guild_slots():
    """ref §5 / P24: in Age III the face-down guild slots are public, so a resample puts a guild (any of those
    not visible) on each of them and a non-guild Age III card on every other face-down slot."""
    found = 0
    for seed in range(10):
        s = new_state(seed)
        s._start_age(3, 0)
        s._legal = None
        gslots = [i for i in range(20) if not s.up[i] and C.cards[s.slot[i]].guild]
        if not gslots:
            continue
        found += 1
        for k in range(5):
            r = s.resample(0, Rng(k))
            for i in range(20):
                if not s.up[i]:
                    assert C.cards[r.slot[i]].guild == (i in gslots)
                    if i not in gslots:
                        assert C.cards[r.slot[i]].age == 3
            visible_guilds = [s.slot[i] for i in range(20) if s.up[i] and C.cards[s.slot[i]].guild]
            assert sorted(r.gbox + [r.slot[i] for i in gslots] + visible_guilds) == sorted(C.guilds)
    assert found > 0


def test_reference_copy_is_current():
    """The test copy of the reference data equals shared/reference/seven_wonders_duel_cards.json."""
    if not SHARED_REF.exists():   # pragma: no cover - CI clones the project without the shared folder
        pytest.skip("the shared reference folder is not beside this checkout")
    assert json.loads(REF.read_text(encoding="utf-8")) == json.loads(SHARED_REF.read_text(encoding="utf-8"))
