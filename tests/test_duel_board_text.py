"""7 Wonders Duel's terminal board (``citygames.games.seven_wonders_duel.board_text``).

Seeded random games are rendered at many points for both seats and a spectator. The plain text
(markup stripped) must draw the structure in its real shape (face-up cards by short name on their
column, face-down backs ``[?]`` / ``[G?]``, taken slots blank, accessible cards marked), the
conflict pawn on its space with the military tokens still present, every city card, the prices of
the accessible cards and, at the end, the score sheet. The board is built from the observation
alone: no face-down, removed or future card is ever named, the Great Library draw is shown to its
builder only, and re-dealing the hidden cards (``resample``) does not change what a seat sees.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from duel_helpers import card as card_id
from duel_helpers import construct, phase, slots
from duel_helpers import state as position_state

import citygames
from citygames.core import Rng
from citygames.games.seven_wonders_duel.board_text import (ACCESS, BACK, CATEGORY_LABEL, CELL, GUILD_BACK, HALF, LABEL,
                                                           NAME, PAWN, SPACE_W, TRACK_X0, render_observation,
                                                           render_text, short_name)
from citygames.games.seven_wonders_duel.components import COLORS, components

ROMAN = {1: "I", 2: "II", 3: "III"}


def plain(markup: str) -> str:
    """The text with markup stripped (raises ``MarkupError`` on broken markup)."""
    return Text.from_markup(markup).plain


def game():
    return citygames.load_game("seven_wonders_duel")


# --- readers of the plain text ---------------------------------------------------------------------
def structure_rows(text: str, obs: dict) -> dict[int, list[str]]:
    """The lines of each structure row: ``{row: [line1, line2, line3]}`` (one line for an empty row)."""
    lines = text.split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"Age {ROMAN[obs['age']]} structure ("))
    rows: dict[int, list[str]] = {}
    i = start + 1
    while not lines[i].startswith("  costs:"):
        m = re.match(r"row (\d+)", lines[i])
        assert m, lines[i]
        r = int(m.group(1))
        empty = all(s["taken"] for s in obs["structure"] if s["row"] == r)
        n = 1 if empty else 3
        rows[r] = [ln.ljust(120) for ln in lines[i:i + n]]
        i += n
    return rows


def check_structure(text: str, obs: dict) -> None:
    c = components()
    slots = obs["structure"]
    if all(s["taken"] for s in slots):
        assert f"Age {ROMAN[obs['age']]} structure: all 20 cards have been taken" in text
        return
    rows = structure_rows(text, obs)
    assert sorted(rows) == list(range(1, max(s["row"] for s in slots) + 1))
    minc = min(s["col"] for s in slots)
    for r, lines in rows.items():
        covered = [False] * 120
        for s in (s for s in slots if s["row"] == r):
            x = LABEL + (s["col"] - minc) * HALF
            for k in range(x, x + CELL):
                covered[k] = True
            cell = [ln[x:x + CELL] for ln in lines]
            if s["taken"]:
                assert all(not part.strip() for part in cell), (r, s, cell)
            elif s["card"] is None:
                assert cell[0].strip() == (GUILD_BACK if s["guild_back"] else BACK), (r, s, cell)
                assert not s["accessible"]
            else:
                cd = c.cards[s["card"]]
                assert cell[0][0] == (ACCESS if s["accessible"] else " "), (r, s, cell)
                assert cell[0][1:].rstrip() == short_name(cd.idx), (r, s, cell)
                assert cell[1][1:].startswith(COLORS[cd.color]), (r, s, cell)
        # nothing is drawn outside the cards but the row label
        for ln in lines:
            rest = "".join(ch for k, ch in enumerate(ln[LABEL:], start=LABEL) if not covered[k])
            assert not rest.strip(), (r, ln)
        assert lines[0][:LABEL].strip() == f"row {r}"


def check_conflict(text: str, obs: dict) -> None:
    lines = text.split("\n")
    pawn_line = next(ln for ln in lines if ln.startswith("pawn "))
    assert pawn_line.count(PAWN) == 1
    v = obs["conflict"]["pawn"]
    assert pawn_line.index(PAWN) == TRACK_X0 + (v + 9) * SPACE_W + SPACE_W // 2
    tok_line = next(ln for ln in lines if ln.startswith("tokens"))
    present = [(p, k) for p in (0, 1) for k in (0, 1) if obs["conflict"]["tokens"][p][k]]
    assert tok_line.count("[") == len(present)
    for p, k in present:
        assert f"-{(2, 5)[k]} {obs['players'][p]['name']}" in tok_line
    if v:
        lead = 0 if v > 0 else 1
        assert f"{obs['players'][lead]['name']} is ahead ({obs['players'][lead]['vp']['military']} military VP)" in text
    else:
        assert "the pawn is in the centre" in text


def check_prices(text: str, obs: dict) -> None:
    c = components()
    if obs["phase"] != "play" or obs["result"] is not None:
        assert "Accessible cards —" not in text
        return
    lines = text.split("\n")
    p = obs["current_player"]
    coins = obs["players"][p]["coins"]
    assert f"Accessible cards — prices for {obs['players'][p]['name']}" in text
    assert set(obs["prices"]) == {str(s["card"]) for s in obs["structure"] if s["accessible"]}
    for key, pr in obs["prices"].items():
        cd = c.cards[int(key)]
        i = next(i for i, ln in enumerate(lines) if ln.startswith(f"  {ACCESS} {cd.name} ({COLORS[cd.color]}) — "))
        j = i + 1
        while not lines[j].startswith(("      construct", "      cannot")):   # the card line was wrapped
            j += 1
        choices = lines[j]
        while lines[j + 1].startswith("      "):   # the choices were wrapped
            j += 1
            choices += " " + lines[j].strip()
        if pr["chain"]:
            assert "construct for free (chain)" in choices
        elif pr["construct"] > coins:
            assert f"cannot construct (costs {pr['construct']} coin" in choices
        elif pr["construct"] == 0:
            assert "construct for free" in choices
        else:
            assert f"construct for {pr['construct']} coin" in choices
        assert f"discard for +{pr['discard']} coin" in choices
        for w, price in pr["wonders"].items():
            name = c.wonders[int(w)].name.removeprefix("The ")
            if price <= coins:
                assert f"{name} for {price}" in choices
            else:
                assert f"{name} {price} coin" in text.split("cannot afford now:")[1]


def check_cities(text: str, obs: dict) -> None:
    c = components()
    for pl in obs["players"]:
        assert f"{pl['name']}'s city" in text
        assert f"{pl['coins']} coin" in text
        for x in pl["cards"]:
            assert c.cards[x].name in text
        for wd in pl["wonders"]:
            assert c.wonders[wd["wonder"]].name in text
        for t in pl["tokens"]:
            assert c.tokens[t].name in text


def check_score_sheet(text: str, obs: dict) -> None:
    if obs["result"] is None:
        assert "Final score sheet" not in text
        return
    lines = text.split("\n")
    i = lines.index("Final score sheet")
    head = lines[i + 1].split()
    assert head == [pl["name"] for pl in obs["players"]]
    rows = {}
    for ln in lines[i + 2:]:
        m = re.match(r"(\S.*?)\s+(\d+)\s+(\d+)$", ln)
        if m:
            rows[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        if ln.startswith("total"):
            break
    cats = list(obs["players"][0]["vp"])
    assert len(rows) == len(cats) + 1
    for cat in cats:
        assert rows[CATEGORY_LABEL[cat]] == (obs["players"][0]["vp"][cat], obs["players"][1]["vp"][cat])
    assert rows["total"] == tuple(obs["result"]["scores"])
    res = obs["result"]
    if res["winner"] is None:
        assert "Result: shared victory" in text
    else:
        assert f"Result: {obs['players'][res['winner']]['name']} wins by" in text


# --- hidden information ----------------------------------------------------------------------------
def _word(name: str) -> re.Pattern:
    return re.compile(r"(?<![A-Za-z])" + re.escape(name) + r"(?![A-Za-z])")


CARD_WORDS = None


def card_words():
    """One pattern matching any card name or short name (longest first, so ``Siege Workshop`` is not
    read as ``Workshop``) and the cards of each name."""
    global CARD_WORDS
    if CARD_WORDS is None:
        c = components()
        by_name: dict[str, set[int]] = {}
        for x in c.cards:
            for n in (x.name, short_name(x.idx)):
                by_name.setdefault(n, set()).add(x.idx)
        names = sorted(by_name, key=len, reverse=True)
        CARD_WORDS = (re.compile(r"(?<![A-Za-z])(" + "|".join(map(re.escape, names)) + r")(?![A-Za-z])"), by_name)
    return CARD_WORDS


def visible_cards(obs: dict) -> set[int]:
    seen = set(obs["discard"])
    for pl in obs["players"]:
        seen.update(pl["cards"])
    seen.update(s["card"] for s in obs["structure"] if s["card"] is not None)
    return seen


def named_cards(text: str) -> set[int]:
    """Cards whose name (or short name) the text contains, wonder names blanked out first (``Library``
    is in ``The Great Library``, ``Statue`` in ``The Statue of Zeus``...)."""
    c = components()
    wonders = {w.name for w in c.wonders} | {w.name.removeprefix("The ") for w in c.wonders}
    for w in sorted(wonders, key=len, reverse=True):
        text = text.replace(w, "#")
    pattern, by_name = card_words()
    return {x for m in pattern.finditer(text) for x in by_name[m.group(1)]}


def check_no_leak(state, seat, text: str) -> None:
    obs = state.observation(seat)
    seen = visible_cards(obs)
    hidden = set(range(len(state.c.cards))) - seen
    leaked = named_cards(text) & hidden
    assert not leaked, [state.c.cards[x].name for x in leaked]
    # the Great Library's draw: its builder only
    if phase(state) == "library" and seat != state.current_player():
        assert "drawn by the Great Library; only you see them" not in text
        public = set(obs["progress_board"]) | {t for pl in obs["players"] for t in pl["tokens"]}
        for t in state.observation(state.current_player())["library_draw"]:
            if t not in public:
                assert not _word(state.c.tokens[t].name).search(text), state.c.tokens[t].name


# --- the checks together ---------------------------------------------------------------------------
def check_board(state, seat) -> str:
    obs = state.observation(seat)
    markup = render_text(state, seat)
    assert markup == render_observation(obs)
    text = plain(markup)
    for line in text.split("\n"):
        assert cell_len(line) <= 120, line
    if obs["age"]:
        assert f"Age {ROMAN[obs['age']]} of III" in text
        check_structure(text, obs)
    else:
        assert "Wonder draft" in text
        for w in obs["draft"]:
            assert components().wonders[w].name in text
    check_conflict(text, obs)
    check_prices(text, obs)
    check_cities(text, obs)
    check_score_sheet(text, obs)
    for t in obs["progress_board"]:
        assert f"  {components().tokens[t].name} — " in text
    check_no_leak(state, seat, text)
    return text


def play_and_check(seed: int, every: int, **options) -> set[str]:
    g = citygames.load_game("seven_wonders_duel", **options)
    state = g.new_initial_state(seed=seed)
    rng = Rng(seed * 13 + 1)
    phases = set()
    k = 0
    while not state.is_terminal():
        ph = state.observation(None)["phase"]
        if k % every == 0 or ph not in ("play", "draft"):
            for seat in (None, 0, 1):
                check_board(state, seat)
        phases.add(ph)
        state.apply_action(rng.choice(state.legal_actions()))
        k += 1
    for seat in (None, 0, 1):
        text = check_board(state, seat)
        assert "Game over: " in text
    return phases


@pytest.mark.parametrize("seed", range(8))
def test_board_text_through_random_games(seed):
    phases = play_and_check(seed, every=5)
    assert {"draft", "play", "choose_starter"} <= phases


def test_board_text_first_game_wonders():
    phases = play_and_check(3, every=7, first_game_wonders=True)
    assert "draft" not in phases


def test_every_phase_is_drawn():
    """Random games until every phase has been seen (and checked) at least once."""
    seen: set[str] = set()
    for seed in range(100, 160):
        seen |= play_and_check(seed, every=1000)
        if {"progress_token", "library", "destroy", "mausoleum"} <= seen:
            break
    assert {"draft", "play", "progress_token", "library", "destroy", "mausoleum", "choose_starter"} <= seen


def test_resampled_hidden_cards_do_not_change_the_board():
    """What a seat sees depends only on its observation: re-dealing everything it cannot see
    (face-down and removed cards, future ages, boxed tokens) leaves its board unchanged."""
    g = game()
    for seed in (1, 4):
        state = g.new_initial_state(seed=seed)
        rng = Rng(seed)
        k = 0
        while not state.is_terminal():
            if k % 6 == 0:
                for seat in (0, 1):
                    other = state.resample(seat, Rng(k + 100 * seat))
                    assert render_text(other, seat) == render_text(state, seat)
            state.apply_action(rng.choice(state.legal_actions()))
            k += 1


# --- particular positions --------------------------------------------------------------------------
def age(s) -> int:
    return s.observation(None)["age"]


def play_until(state, rng, pred):
    while not state.is_terminal() and not pred(state):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_age_one_shape_and_backs():
    g = game()
    state = g.new_initial_state(seed=2)
    rng = Rng(2)
    play_until(state, rng, lambda s: age(s) == 1)
    text = plain(render_text(state, 0))
    rows = structure_rows(text, state.observation(0))
    assert sorted(rows) == [1, 2, 3, 4, 5]
    # pyramid: 2-3-4-5-6 cards, rows 2 and 4 face down, row 5 (6 cards) accessible
    assert [rows[r][0].count(BACK) for r in (1, 2, 3, 4, 5)] == [0, 3, 0, 5, 0]
    assert rows[5][0].count(ACCESS) == 6
    assert ACCESS not in "".join(rows[r][0] for r in (1, 2, 3, 4))
    # real shape: row 1's first card (col 5) is right above row 5's third card (col 5), row 2's first
    # card (col 4) half a card to the left of them, and row 5's cards one card apart
    obs = state.observation(0)
    by_row = {r: [short_name(s["card"]) for s in obs["structure"] if s["row"] == r] for r in (1, 5)}
    x1 = rows[1][0].index(by_row[1][0])
    x5 = [rows[5][0].index(n) for n in by_row[5]]
    assert x1 == x5[2]
    assert rows[2][0].index(BACK) == x1 - HALF
    assert all(b - a == 2 * HALF for a, b in zip(x5, x5[1:]))
    assert GUILD_BACK not in text


def test_age_three_guild_backs_and_shape():
    g = game()
    for seed in range(20):
        state = g.new_initial_state(seed=seed)
        rng = Rng(seed)
        play_until(state, rng, lambda s: age(s) == 3)
        if state.is_terminal():
            continue
        table = slots(state)   # the full position: face-down identities included
        face_down = [i for i in range(20) if table[i][0] is not None and not table[i][1]]
        hidden_guilds = [i for i in face_down if state.c.cards[card_id(table[i][0])].guild]
        if not hidden_guilds:
            continue
        obs = state.observation(1)
        text = plain(render_text(state, 1))
        rows = structure_rows(text, obs)
        assert sorted(rows) == list(range(1, 8))
        backs = "".join(ln for r in rows.values() for ln in r[:1])
        assert backs.count(GUILD_BACK) == len(hidden_guilds)
        assert backs.count(BACK) == len(face_down) - len(hidden_guilds)
        assert not named_cards(text) & {card_id(table[i][0]) for i in hidden_guilds}   # the guilds stay hidden
        return
    pytest.fail("no Age III with a face-down guild in 20 seeds")


def test_prices_for_the_player_to_move_and_chain():
    """A player with no coins: the prices of the accessible cards, the Aqueduct free through the Baths' chain."""
    state = position_state(age=2, player=1, coins=(7, 0), city=([], ["Baths", "Lumber Yard"]),
                           accessible=["Aqueduct", "Horse Breeders"], spare=2)
    c = state.c
    p = state.current_player()
    name = state.game.seat_name(p)
    target = card_id("Aqueduct")
    text = plain(render_text(state, None))
    check_prices(text, state.observation(None))
    assert f"prices for {name}, who has 0 coins" in text
    assert c.chain_symbols[c.cards[target].chain_from].replace("_", " ") in text.split(f"{name}'s city")[1]
    lines = text.split("\n")
    for x in state.accessible_cards():
        i = next(i for i, ln in enumerate(lines) if ln.startswith(f"  {ACCESS} {c.cards[x].name} ("))
        nxt = lines[i + 1] if lines[i + 1].startswith("      c") else lines[i + 2]
        price = state.card_price(p, x)
        if x == target:
            assert "construct for free (chain)" in nxt
        elif price == 0:
            assert "construct for free" in nxt
        else:
            assert f"cannot construct (costs {price} coin" in nxt


def test_conflict_track_and_tokens():
    # North's 4 shields took the pawn into South's 3-5 zone: South's 2-coin token is gone
    state = position_state(age=1, pawn=4)
    text = plain(render_text(state, 1))
    check_conflict(text, state.observation(1))
    assert "the pawn is 4 spaces toward South's capital: North is ahead (5 military VP)" in text
    assert "South's side 5 coins" in text and "North's side 2 coins and 5 coins" in text
    tok_line = next(ln for ln in text.split("\n") if ln.startswith("tokens"))
    assert "-2 South" not in tok_line and "-5 South" in tok_line


def test_score_sheet_at_the_end():
    g = game()
    state = g.new_initial_state(seed=0)
    rng = Rng(0)
    play_until(state, rng, lambda s: False)
    for seat in (None, 0, 1):
        text = check_board(state, seat)
        assert "Final score sheet" in text
        for label in ("military", "blue cards", "green cards", "yellow cards", "guilds (purple)", "wonders",
                      "progress tokens", "coins (1 VP per 3)", "total"):
            assert "\n" + label in text
        obs = state.observation(seat)
        assert f"by {obs['result']['victory']}" in text or obs["result"]["victory"] == "shared"


def test_library_draw_only_for_its_builder():
    g = game()
    for seed in range(60):
        state = g.new_initial_state(seed=seed)
        rng = Rng(seed)
        play_until(state, rng, lambda s: phase(s) == "library")
        if state.is_terminal():
            continue
        builder = state.current_player()
        names = [state.c.tokens[t].name for t in state.observation(builder)["library_draw"]]
        mine = plain(render_text(state, builder))
        assert "drawn by the Great Library; only you see them" in mine
        for n in names:
            assert f"  {n} — " in mine
        for seat in (1 - builder, None):
            text = check_board(state, seat)
            assert "is choosing one of the 3 progress tokens the Great Library drew" in text
            for n in names:
                assert not _word(n).search(text)
        return
    pytest.fail("no Great Library in 60 seeds")


def test_short_names_are_distinct_and_fit():
    c = components()
    names = [short_name(x.idx) for x in c.cards]
    assert len(set(names)) == len(names)
    assert all(0 < len(n) <= NAME for n in names)


def test_console_print_matches_plain_text():
    g = game()
    state = g.new_initial_state(seed=9)
    rng = Rng(9)
    play_until(state, rng, lambda s: age(s) == 2 and phase(s) == "play")
    text = check_board(state, 0)
    buf = io.StringIO()
    Console(file=buf, width=120, color_system=None).print(g.render_text(state, 0))
    assert buf.getvalue().rstrip("\n").split("\n") == [ln.rstrip() for ln in text.split("\n")]


def test_science_supremacy_result():
    g = game()
    greens = ["Workshop", "Apothecary", "Scriptorium", "Pharmacist", "Academy"]
    state = position_state(age=3, player=1, coins=(7, 20), city=([], greens + ["Press", "Glassworks", "Clay Pool"]),
                           accessible=["University"])
    p = 1
    construct(state, "University")     # the sixth different symbol
    assert state.is_terminal()
    for seat in (None, 0, 1):
        text = check_board(state, seat)
        assert f"{g.seat_name(p)} wins by scientific supremacy (6 different science symbols" in text
        assert "do not decide: a supremacy wins at once" in text


def test_leak_check_catches_a_shown_face_down_card():
    """The leak check itself: a board that drew a face-down card face up would fail it."""
    g = game()
    state = g.new_initial_state(seed=3)
    play_until(state, Rng(3), lambda s: age(s) == 1)
    i, (name, _) = next((i, x) for i, x in enumerate(slots(state)) if not x[1])
    obs = state.observation(0)
    obs["structure"][i]["card"] = card_id(name)   # what a leaking board would draw
    text = plain(render_observation(obs))
    assert card_id(name) in named_cards(text)
    with pytest.raises(AssertionError):
        check_no_leak(state, 0, text)
