"""Structure tests for 7 Wonders Duel: the three card layouts, accessibility and face-up timing, hidden guild
backs and resampling.

Sources: "ref §5" = shared/reference/seven_wonders_duel.md §5 (layouts) and P23/P24 (reveal timing, hidden
information); LAYOUTS = the "layouts" section of shared/reference/seven_wonders_duel_cards.json (BGA, IND and DFO
give the identical covering graph); HU = the rulebook's turn section ("Az akció végrehajtása után az esetlegesen
hozzáférhetővé váló lefordított kártyalapokat fel kell fordítani" and the extra-turn note).

The structure is read through the observation (what a seat sees) and the full position text (``slots``: the
server's view, face-down identities included); particular situations start from positions written as text.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from duel_helpers import act, card, kinds, listed, phase, position, slots, structure_rows

from citygames import load_game
from citygames.core.rng import Rng
from citygames.games.seven_wonders_duel.components import components

C = components()
NCARDS = len(C.cards)
#: a copy of shared/reference/seven_wonders_duel_cards.json kept with the tests (CI has no shared folder);
#: test_reference_copy_is_current checks it against the original when that is present
REF = Path(__file__).resolve().parent / "data" / "seven_wonders_duel_cards.json"
#: the shared original, found in a folder above this checkout (a worktree sits deeper than the main checkout)
SHARED_REF = next((d / "shared" / "reference" / "seven_wonders_duel_cards.json"
                   for d in Path(__file__).resolve().parents if (d / "shared" / "reference").is_dir()),
                  Path("/nonexistent"))
LAYOUTS = json.loads(REF.read_text(encoding="utf-8"))["layouts"]


def ref_slots(age: int) -> list[dict]:
    return LAYOUTS[f"age_{age}"]["slots"]


def ref_covered_by(age: int) -> list[list[int]]:
    return [sorted(d["covered_by"]) for d in ref_slots(age)]


def new_state(seed: int = 0, **options):
    opts = {"first_game_wonders": True}
    opts.update(options)
    return load_game("seven_wonders_duel", **opts).new_initial_state(seed)


def rich(seed: int):
    """The seeded first-game position with 99 coins each, so that wonders can be built now and then."""
    s = new_state(seed)
    return s.game.state_from_position(s.position().replace("  coins: 7\n", "  coins: 99\n"))


def age_of(s) -> int:
    return s.observation(None)["age"]


def uncovered(present: list[bool], age: int, i: int) -> bool:
    """Per the reference layout: no card covering slot ``i`` is still present."""
    return all(not present[j] for j in ref_covered_by(age)[i])


def check_structure(s) -> None:
    """The invariants of ref §5 / P23 / P24 in the current state (during an age)."""
    age = age_of(s)
    ref = ref_slots(age)
    table = slots(s)
    present = [name is not None for name, _ in table]
    up = [u for _, u in table]
    pending = phase(s) not in ("play", "choose_starter")
    # a card is face up iff it was dealt face up or nothing covers it any more; a covered face-down card is never
    # revealed. Once the action has fully resolved (a turn or an extra turn is about to start) the equivalence
    # is exact (P23); during a pending choice of the same action a newly uncovered card may still be face down.
    for i in range(20):
        if not present[i]:
            continue
        expect_up = ref[i]["face_up"] or uncovered(present, age, i)
        if not pending:
            assert up[i] == expect_up, (age, i)
        elif up[i]:
            assert expect_up, (age, i)
    # accessible = present, face up and uncovered
    acc = [i for i in range(20) if present[i] and up[i] and uncovered(present, age, i)]
    assert s.accessible_slots() == acc
    assert s.accessible_cards() == [card(table[i][0]) for i in acc]
    if phase(s) == "play":
        assert acc, "an age in play always has an accessible card"
        taken = {a.arg % NCARDS for a in s.legal_actions() if a.kind in ("construct", "discard", "wonder")}
        assert taken == {card(table[i][0]) for i in acc}
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
            elif up[i]:
                assert o["face_up"] and o["card"] == card(table[i][0]) and not o["guild_back"]
            else:
                assert not o["face_up"] and o["card"] is None
                assert o["guild_back"] == C.cards[card(table[i][0])].guild


def pick_slot(s, policy: str, rng: Rng) -> int:
    acc = s.accessible_slots()
    if policy == "left":
        return acc[0]
    if policy == "right":
        return acc[-1]
    return rng.choice(acc)


def step(s, policy: str, rng: Rng):
    """One action: in the play decision take an accessible card (per ``policy``) and discard it or, now and then,
    build a wonder with it (when affordable: the positions of ``rich`` have coins to spare); any other decision
    at random."""
    if phase(s) != "play":
        return rng.choice(s.legal_actions())
    x = card(slots(s)[pick_slot(s, policy, rng)][0])
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

    def taken() -> int:
        return sum(1 for name, _ in slots(s) if name is None)

    while not s.is_terminal() and (age_of(s) < last_age or (age_of(s) == last_age and taken() < 20)):
        age = age_of(s)
        before = slots(s)
        deck = listed(s, f"Age {ROMAN[age + 1]} deck") if age < 3 else None
        n = len(s.log)
        a = step(s, policy, rng)
        s.apply_action(a)
        if s.is_terminal():
            break
        now = slots(s)
        if age_of(s) != age:      # the age ended: its last card was taken, no reveal was left pending
            assert age_of(s) == age + 1
            assert sorted(reveals[age]) == [i for i in range(20) if not C.structures[age].face_up[i]]
            assert [name for name, _ in now] == deck       # dealt in slot order from its deck
            assert [u for _, u in now] == list(C.structures[age_of(s)].face_up)
            assert s.accessible_slots() == LAYOUTS[f"age_{age_of(s)}"]["initially_available"]
            check_structure(s)
            continue
        new = [e.data["slot"] for e in s.log[n:] if e.kind == "duel.reveal"]
        for e in s.log[n:]:
            if e.kind == "duel.reveal":
                assert now[e.data["slot"]][0] == C.cards[e.data["card"]].name
        reveals[age] += new
        assert len(set(reveals[age])) == len(reveals[age]), "a card is revealed once"
        if phase(s) == "play":    # the action resolved: exactly the face-down cards just uncovered turned up
            assert sorted(new) == [i for i in range(20) if now[i][1] and not before[i][1]]
        check_structure(s)
    return reveals


def discard_to_age(s, age: int, rng: Rng):
    """Play on by discarding (which never ends the game early) until ``age`` has begun; other decisions at random."""
    while age_of(s) < age:
        if phase(s) == "play":
            s.apply_action(act(s, "discard", s.accessible_cards()[0]))
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    return s


ROMAN = ("", "I", "II", "III")


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
    of row 5, Ages II and III the 2 cards of the last row); the structure is the age's deck dealt in slot order;
    face-down identities are hidden in every observation."""
    for seed in (0, 1, 2):
        s = new_state(seed)
        deck = listed(s, f"Age {ROMAN[age]} deck") if age > 1 else None
        discard_to_age(s, age, Rng(seed))
        names = [name for name, _ in slots(s)]
        if deck is not None:
            assert names == deck
        assert len(set(names)) == 20 and None not in names
        up = [u for _, u in slots(s)]
        assert sum(up) == 12 and up.count(False) == 8
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
        s = discard_to_age(new_state(seed), 3, Rng(seed))
        table = slots(s)
        guilds_down = [i for i in range(20) if not table[i][1] and C.cards[card(table[i][0])].guild]
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
        s = rich(seed)
        reveals = play_through(s, age, policy, seed * 7 + age)
        if age < 3:
            assert age_of(s) == age + 1 and phase(s) == "choose_starter"
        else:
            assert phase(s) == "end" and all(name is None for name, _ in slots(s))
        assert sorted(reveals[age]) == [i for i in range(20) if not C.structures[age].face_up[i]]
        ages = [e.data["age"] for e in s.log if e.kind == "duel.age"]   # the game starts from an Age I position
        in_age = age == 1
        for e in s.log:
            if e.kind == "duel.age":
                in_age = e.data["age"] == age
            elif in_age and e.kind == "duel.extra_turn":
                extra_turns += 1
        assert ages == list(range(2, min(age + 1, 3) + 1))
    assert extra_turns > 0, "the seeds exercise the reveal before an extra turn"


def test_reveal_happens_before_an_extra_turn():
    """HU ("Ez a játékos az új körét az újonnan hozzáférhetővé váló kártyák felfedése után kezdi meg"), P9, P23:
    the Sphinx built with the card that uncovers a face-down card: the card is face up and accessible when the
    extra turn starts, and can be taken in it."""
    rows = structure_rows(1)
    rows[4] = "row 5: -" + rows[4][rows[4].index(","):]     # slot 14 taken: slot 9 is covered by slot 15 only
    for p in (0, 1):
        sphinx = (["The Sphinx"], []) if p == 0 else ([], ["The Sphinx"])
        s = load_game("seven_wonders_duel").state_from_position(
            position(age=1, player=p, coins=(30, 30), wonders=sphinx, rows=rows))
        assert not slots(s)[9][1]
        x = card(slots(s)[15][0])
        n = len(s.log)
        s.apply_action(act(s, "wonder", C.wonder_by_name["The Sphinx"] * NCARDS + x))
        assert s.current_player() == p and phase(s) == "play"
        assert slots(s)[9][1] and 9 in s.accessible_slots()
        k = kinds(s, n)
        assert k.index("duel.reveal") < k.index("duel.extra_turn")
        check_structure(s)
        s.apply_action(act(s, "discard", card(slots(s)[9][0])))
        assert slots(s)[9][0] is None and s.current_player() == 1 - p


def test_reveal_waits_for_a_pending_choice():
    """P23: "reveal newly accessible cards after the action has fully resolved (including any pending choices)":
    the Library that completes a pair uncovers a face-down card, which turns face up once the token is chosen."""
    # Age II: slot 19 already taken (slot 17, covered by 19 only, was revealed then); the Library in slot 18
    # covers the face-down slots 15 and 16 alone
    assert sorted(C.structures[2].covered_by[15]) == [18] and sorted(C.structures[2].covered_by[16]) == [18, 19]
    rows = structure_rows(2, used=["Library", "Brewery"])
    rows[3] = "row 4: [?], [?], Brewery"
    rows[4] = "row 5: Library, -"
    s = load_game("seven_wonders_duel").state_from_position(
        position(age=2, city=(["Scriptorium"], []), rows=rows))
    s.apply_action(act(s, "construct", card("Library")))
    assert phase(s) == "progress_token" and not slots(s)[15][1] and not slots(s)[16][1]
    check_structure(s)
    s.apply_action(act(s, "progress", s.observation(None)["progress_board"][0]))
    assert phase(s) == "play" and slots(s)[15][1] and slots(s)[16][1] and s.accessible_slots() == [15, 16, 17]
    check_structure(s)


# ==============================================================================================
# 3. Resampling (P24)
# ==============================================================================================
def _mid_age(age: int, seed: int, turns: int):
    s = rich(seed)
    rng = Rng(seed)
    play_through(s, age - 1, "random", seed) if age > 1 else None
    if s.is_terminal():
        return None
    while phase(s) != "play":
        s.apply_action(rng.choice(s.legal_actions()))
    for _ in range(turns):
        if s.is_terminal() or age_of(s) != age:
            return None
        s.apply_action(step(s, "random", rng))
    return s if not s.is_terminal() and age_of(s) == age else None


def hidden_pool(s, age: int) -> list[str]:
    """The cards a seat cannot locate in Age ``age``: the face-down ones, the removed ones (and the unused guilds)."""
    down = [name for name, up in slots(s) if name is not None and not up]
    return down + listed(s, f"removed from Age {ROMAN[age]}") + (listed(s, "guilds in the box") if age == 3 else [])


@pytest.mark.parametrize("age", [1, 2, 3])
def test_resample_keeps_everything_visible(age):
    """P24, ref §5: resample(seat) redraws only what the seat has not seen: every visible slot (taken or face
    up) is unchanged, face-down guild slots stay guilds and other face-down slots stay non-guilds, the seat's
    observation is identical, the face-down cards plus the removed cards (plus the unused guilds in Age III)
    are the same cards as before, and the resampled state is a valid position (its text reads back: every card
    in one place)."""
    checked = varied = 0
    for seed in range(6):
        s = _mid_age(age, seed, 3)
        if s is None:
            continue
        table = slots(s)
        for seat in (0, 1):
            obs = s.observation(seat)
            for k in range(4):
                r = s.resample(seat, Rng(1000 * seed + 10 * seat + k))
                checked += 1
                rt = slots(r)
                assert age_of(r) == age and [u for _, u in rt] == [u for _, u in table]
                for i in range(20):
                    if table[i][0] is None or table[i][1]:
                        assert rt[i] == table[i]
                    else:
                        assert C.cards[card(rt[i][0])].guild == C.cards[card(table[i][0])].guild
                assert sorted(hidden_pool(s, age)) == sorted(hidden_pool(r, age))
                removed = f"removed from Age {ROMAN[age]}"
                assert len(listed(r, removed)) == len(listed(s, removed))
                if [n for n, u in rt if not u] != [n for n, u in table if not u]:
                    varied += 1
                assert r.game.state_from_position(r.position()).position() == r.position()
                assert r.observation(seat) == obs
                check_structure(r)
    assert checked >= 24
    assert varied > 0


def test_resample_of_age_iii_keeps_guild_backs_on_guild_slots():
    """ref §5 / P24: in Age III the face-down guild slots are public, so a resample puts a guild (any of those
    not visible) on each of them and a non-guild Age III card on every other face-down slot."""
    found = 0
    for seed in range(10):
        s = discard_to_age(new_state(seed), 3, Rng(seed))
        table = slots(s)
        gslots = [i for i in range(20) if not table[i][1] and C.cards[card(table[i][0])].guild]
        if not gslots:
            continue
        found += 1
        visible_guilds = [card(n) for n, up in table if up and n is not None and C.cards[card(n)].guild]
        for k in range(5):
            r = s.resample(0, Rng(k))
            rt = slots(r)
            for i in range(20):
                if not table[i][1]:
                    assert C.cards[card(rt[i][0])].guild == (i in gslots)
                    if i not in gslots:
                        assert C.cards[card(rt[i][0])].age == 3
            in_play = [card(rt[i][0]) for i in gslots]
            assert sorted(list(map(card, listed(r, "guilds in the box"))) + in_play + visible_guilds) == \
                sorted(C.guilds)
    assert found > 0


def test_reference_copy_is_current():
    """The test copy of the reference data equals shared/reference/seven_wonders_duel_cards.json."""
    if not SHARED_REF.exists():   # pragma: no cover - CI clones the project without the shared folder
        pytest.skip("the shared reference folder is not beside this checkout")
    assert json.loads(REF.read_text(encoding="utf-8")) == json.loads(SHARED_REF.read_text(encoding="utf-8"))
