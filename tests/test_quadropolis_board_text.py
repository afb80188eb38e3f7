"""Quadropolis's terminal board (``citygames.games.quadropolis.board_text``).

Seeded random games (through the public API only) are rendered at many points for every seat and
a spectator. The plain text (markup stripped) must show: the construction site square by square
(tile codes, ``??`` for face-down tiles, ``··`` for empty squares, the Urbanist's square) with the
20 architect slots around it (the owner's initial and number, ``x`` where the Urbanist blocks, ``·``
free); for a *take*, exactly the legal slots with what each architect number would take; for a
*place*, the building and its legal spaces, marked in the mover's city; every city's stacks,
districts, Expert space numbers and resources; at the end the allocation (activated or removed)
and the score sheet by category with the winner. The board is built from the observation alone:
face-down tiles are never named, and re-dealing what a seat cannot see (``resample``) does not
change its board. Every line fits in 120 columns, 4 players included.
"""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len
from rich.text import Text

import citygames
from citygames.core import Rng
from citygames.games.quadropolis.board_text import (ACTIVE, BACK, BLOCKED, CATEGORY_LABEL, CELL, EMPTY, FREE, GAP,
                                                    LEGAL, REMOVED, SQ, URBANIST, X_GRID, X_LEFT, X_RIGHT,
                                                    render_observation, render_text)
from citygames.games.quadropolis.components import STACKING, TYPE_LETTERS
from citygames.games.quadropolis.game import slot_name, slot_target


def plain(markup: str) -> str:
    """The text with markup stripped (raises ``MarkupError`` on broken markup)."""
    return Text.from_markup(markup).plain


def load(mode: str = "classic", n: int = 4, allocation: str = "auto"):
    return citygames.load_game("quadropolis", mode=mode, num_players=n, allocation=allocation)


def play(game, seed: int, steps: int):
    """The state after ``steps`` seeded random actions (fewer if the game ends)."""
    state = game.new_initial_state(seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def play_until(state, rng, pred):
    while not state.is_terminal() and not pred(state):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


# --- readers of the plain text ---------------------------------------------------------------------
def site_lines(text: str) -> list[str]:
    """The site's lines: [col header, above, top border, row 1..5, bottom border, below], padded."""
    lines = text.split("\n")
    i = next(k for k, ln in enumerate(lines) if ln.startswith("Construction site, round "))
    return [ln.ljust(120) for ln in lines[i + 1:i + 11]]


def square_at(lines: list[str], q: int) -> str:
    r, c = divmod(q, 5)
    x = X_GRID + 1 + c * SQ
    return lines[3 + r][x:x + SQ].strip()


def slot_at(lines: list[str], slot: int) -> str:
    side, line = divmod(slot, 5)
    if side == 0:
        return lines[1][X_GRID + 1 + line * SQ:X_GRID + 1 + (line + 1) * SQ].strip()
    if side == 1:
        return lines[9][X_GRID + 1 + line * SQ:X_GRID + 1 + (line + 1) * SQ].strip()
    row = lines[3 + line]
    return (row[X_LEFT:X_LEFT + 3] if side == 2 else row[X_RIGHT:X_RIGHT + 3]).strip()


def city_cells(text: str, obs: dict, game) -> dict[int, list[str]]:
    """Per seat, the text of each city space (``row * cols + col``), read from the city blocks."""
    b = game.board
    cw = CELL[game.mode]
    bw = 2 + b.cols * cw + (b.cols - 1)
    lines = [ln.ljust(240) for ln in text.split("\n")]
    names = [pl["name"] for pl in obs["players"]]
    out: dict[int, list[str]] = {}
    i = 0
    p = 0
    while p < len(names):
        # a band's title line starts with the name of its first seat and holds the next ones at bw + GAP
        while not lines[i].startswith(names[p] + " ") and lines[i].rstrip() != names[p]:
            i += 1
        band = []
        while p + len(band) < len(names) and lines[i][len(band) * (bw + GAP):].startswith(names[p + len(band)]):
            band.append(p + len(band))
        grid = []
        for ln in lines[i + 2:i + 2 + b.rows + 3]:   # title, VP, header, the rows and a district border
            if len(grid) < b.rows and ln.startswith(f"{len(grid) + 1} "):
                grid.append(ln)
        assert len(grid) == b.rows, lines[i:i + 9]
        for k, q in enumerate(band):
            x0 = k * (bw + GAP)
            cells = []
            for r in range(b.rows):
                assert grid[r][x0:x0 + 2] == f"{r + 1} "
                for c in range(b.cols):
                    x = x0 + 2 + c * (cw + 1)
                    cells.append(grid[r][x:x + cw].strip())
            out[q] = cells
        p += len(band)
        i += 1
    return out


# --- the checks ------------------------------------------------------------------------------------
def check_site(text: str, obs: dict, game) -> None:
    if obs["phase"] not in ("take", "place"):
        assert "Construction site, round" not in text
        return
    lines = site_lines(text)
    for q, sq in enumerate(obs["site"]):
        want = BACK if sq["face_down"] else EMPTY if sq["tile"] is None else game.tiles[sq["tile"]].code
        if obs["urbanist"] == q:
            want = URBANIST + want
        assert square_at(lines, q) == want, (q, sq, lines)
    for s in obs["slots"]:
        if s["architect"] is not None:
            want = obs["players"][s["seat"]]["name"][0] + str(s["architect"])
        else:
            want = BLOCKED if s["blocked"] else FREE
        assert slot_at(lines, s["slot"]) == want, (s, lines)
    # the Urbanist's lines block exactly the free slots of its row and column
    u = obs["urbanist"]
    if u is None:
        assert "Urbanist: beside the board" in text
        assert not any(s["blocked"] for s in obs["slots"])
    else:
        assert f"Urbanist (U) on r{u // 5 + 1}c{u % 5 + 1}:" in text
        for s in obs["slots"]:
            side, line = divmod(s["slot"], 5)
            assert s["blocked"] == ((u % 5 if side < 2 else u // 5) == line)
    # hidden information: exactly the face-down squares show a back
    grid = "\n".join(lines[3:8])
    assert grid.count(BACK) == sum(1 for sq in obs["site"] if sq["face_down"])


def choice_lines(text: str) -> dict[str, str]:
    """The list of legal slots: ``{slot name: what its architects would take}`` (wrapped lines joined)."""
    lines = text.split("\n")
    i = next(k for k, ln in enumerate(lines) if ln.startswith("Where "))
    out: dict[str, str] = {}
    last = None
    for ln in lines[i + 1:]:
        if not ln.startswith("  "):
            break
        m = re.match(r"  ((?:above|below) column \d|(?:left|right) of row \d):\s+(.*)$", ln)
        if m:
            last = m.group(1)
            out[last] = m.group(2)
        else:
            out[last] += " " + ln.strip()
    return out


def check_choices(text: str, obs: dict, game, state) -> None:
    if obs["phase"] != "take":
        assert not any(ln.startswith("Where ") for ln in text.split("\n"))
        return
    got = choice_lines(text)
    legal = [a for a in state.legal_actions() if a.kind == "take"]
    by_slot: dict[int, list[int]] = {}
    for a in legal:
        slot, k = divmod(a.arg, 5)
        by_slot.setdefault(slot, []).append(k + 1)
    assert set(got) == {slot_name(s) for s in by_slot}
    for slot, ks in by_slot.items():
        parts = got[slot_name(slot)].split(", ")
        assert [int(re.match(r"#(\d) ", x).group(1)) for x in parts] == ks
        for k, part in zip(ks, parts):
            q = slot_target(slot, k)
            sq = obs["site"][q]
            where = f"r{q // 5 + 1}c{q % 5 + 1}"
            if sq["face_down"]:
                assert part == f"#{k} nothing ({where} face down)"
            elif sq["tile"] is None:
                assert part == f"#{k} nothing ({where} empty)"
            else:
                assert part.startswith(f"#{k} {game.tiles[sq['tile']].code} ") and part.endswith(f"({where})")


def check_cities(text: str, obs: dict, game) -> None:
    b = game.board
    cells = city_cells(text, obs, game)
    assert sorted(cells) == list(range(len(obs["players"])))
    pend = obs["pending"]
    end = obs["result"] is not None
    for p, pl in enumerate(obs["players"]):
        legal = set(pend["spaces"]) if pend and obs["current_player"] == p else set()
        final = end or (obs["phase"] == "allocate" and pl["allocated"])   # its allocation is made
        held = f"{pl['inhabitants']} inhabitant{'' if pl['inhabitants'] == 1 else 's'}, {pl['energy']} energy"
        assert held in text
        for x, cell in enumerate(pl["city"]):
            got = cells[p][x]
            if b.placement == "space_or_district":
                assert got.startswith(f"{cell['number']} "), (p, x, got)
                got = got[2:]
            if cell["tile"] is None:
                assert got == (LEGAL if x in legal else "·"), (p, x, got)
                continue
            tile = game.tiles[cell["tile"]]
            assert got[0] == TYPE_LETTERS[tile.type], (p, x, got)
            if tile.type in STACKING:
                assert got[1:].startswith(str(cell["height"])), (p, x, got)
            assert got.endswith(LEGAL) == (x in legal), (p, x, got)
            if final:
                assert (ACTIVE in got) != (REMOVED in got), (p, x, got)
                if tile.type in (4, 8):   # parks and monuments need no activation
                    assert ACTIVE in got
                else:
                    assert (ACTIVE in got) == cell["active"], (p, x, got)
                if tile.type == 2 and cell["active"]:
                    assert f"{cell['customers']}c" in got
            else:
                assert REMOVED not in got
                if obs["phase"] != "allocate":
                    assert ACTIVE not in got
    if pend:
        p = obs["current_player"]
        assert sum(c.endswith(LEGAL) for c in cells[p]) == len(pend["spaces"])


def check_score_sheet(text: str, obs: dict) -> None:
    if obs["result"] is None:
        assert "Final score sheet" not in text
        assert "Now: " in text
        return
    lines = text.split("\n")
    i = lines.index("Final score sheet")
    pls = obs["players"]
    assert lines[i + 1].split() == [pl["name"] for pl in pls]
    rows = {}
    for ln in lines[i + 2:]:
        m = re.match(r"(\S.*?)\s+((?:-?\d+\s+)*-?\d+)$", ln)
        if m:
            rows[m.group(1)] = [int(v) for v in m.group(2).split()]
        if ln.startswith("Result: "):
            break
    cats = [c for c in pls[0]["breakdown"] if obs["mode"] == "expert" or c not in ("offices", "monuments")]
    for cat in cats:
        assert rows[CATEGORY_LABEL[cat]] == [pl["breakdown"][cat] for pl in pls], cat
    assert rows["total"] == obs["result"]["scores"] == [sum(pl["breakdown"].values()) for pl in pls]
    assert rows["inhabitants held"] == [pl["inhabitants"] for pl in pls]
    assert rows["empty spaces"] == [pl["empty_spaces"] for pl in pls]
    w = obs["result"]["winners"]
    if len(w) == 1:
        assert f"Result: {pls[w[0]]['name']}" in text and f" wins with {obs['result']['scores'][w[0]]} VP" in text
    else:
        assert "Result: shared victory" in text


def check_board(state, seat) -> str:
    game = state.game
    obs = state.observation(seat)
    markup = render_text(state, seat)
    assert markup == render_observation(obs, game)
    text = plain(markup)
    for line in text.split("\n"):
        assert cell_len(line) <= 120, line
    assert f"Round {obs['round']}/{obs['rounds']}" in text
    mayor = obs["players"][obs["mayor"]]["name"]
    assert re.search(r"Mayor[^:]*: " + mayor, text)
    if obs["phase"] in ("take", "place"):
        assert f"turn {obs['turn'] + 1} of {obs['turns']} this round" in text
    if obs["result"] is None:
        who = obs["players"][obs["current_player"]]["name"]
        assert f"Now: {who}" in text
    check_site(text, obs, game)
    check_choices(text, obs, game, state)
    check_cities(text, obs, game)
    check_score_sheet(text, obs)
    if obs["phase"] == "place":
        tile = game.tiles[obs["pending"]["tile"]]
        assert f"took the {tile.name} [{tile.code}] with architect #{obs['pending']['architect']}" in text
    if obs["pool"] is not None and obs["phase"] in ("take", "place"):
        pool = ", ".join(f"#{k} x{v}" for k, v in sorted((int(k), v) for k, v in obs["pool"].items()))
        assert f"Architect pool (shared): {pool}" in text
    if obs["pool"] is None and obs["phase"] in ("take", "place"):
        for pl in obs["players"]:
            assert "architects: " + (" ".join(f"#{k}" for k in pl["architects"]) or "none left") in text
    return text


def play_and_check(mode: str, n: int, seed: int, every: int, allocation: str = "auto") -> set[str]:
    game = load(mode, n, allocation)
    state = game.new_initial_state(seed=seed)
    rng = Rng(seed * 7 + 3)
    phases = set()
    k = 0
    seats = [None] + list(range(n))
    while not state.is_terminal():
        ph = state.observation(None)["phase"]
        if k % every == 0 or ph == "allocate":
            check_board(state, seats[k % len(seats)])
        phases.add(ph)
        state.apply_action(rng.choice(state.legal_actions()))
        k += 1
    for seat in seats:
        text = check_board(state, seat)
        assert "Game over: " in text
    return phases


# --- the tests -------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode,n,seed", [("classic", 4, 1), ("classic", 3, 2), ("classic", 2, 3),
                                         ("expert", 4, 4), ("expert", 3, 5), ("expert", 2, 6)])
def test_board_text_through_random_games(mode, n, seed):
    assert {"take", "place"} <= play_and_check(mode, n, seed, every=5)


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_hand_allocation_is_drawn(mode):
    phases = play_and_check(mode, 2, 7, every=40, allocation="manual")
    assert "allocate" in phases


def test_face_down_tiles_are_backs_and_never_named_at_two_players():
    game = load("classic", 2)
    state = play(game, 8, 6)
    hidden = state.to_dict()   # server-side: carries what nobody sees
    down = [q for q in range(25) if hidden["face_down"][q] and hidden["site"][q] >= 0]
    assert down
    obs = state.observation(0)
    text = plain(render_text(state, 0))
    lines = site_lines(text)
    for q in down:
        assert square_at(lines, q) in (BACK, URBANIST + BACK)
    assert "\n".join(lines[3:8]).count(BACK) == len(down) == sum(sq["face_down"] for sq in obs["site"])
    # no slot of the list names what a face-down square holds
    if obs["phase"] == "take":
        for what in choice_lines(text).values():
            for q in down:
                assert f"(r{q // 5 + 1}c{q % 5 + 1})" not in what


def test_resampled_hidden_tiles_do_not_change_the_board():
    """What a seat sees depends only on its observation: re-dealing the face-down tiles and the
    rounds to come leaves its board unchanged."""
    for mode in ("classic", "expert"):
        game = load(mode, 2)
        state = game.new_initial_state(seed=9)
        rng = Rng(9)
        k = 0
        while not state.is_terminal():
            if k % 7 == 0:
                for seat in (0, 1, None):
                    other = state.resample(seat if seat is not None else 0, Rng(k))
                    assert render_text(other, seat) == render_text(state, seat)
            state.apply_action(rng.choice(state.legal_actions()))
            k += 1


def test_four_players_fit_in_120_columns():
    for mode in ("classic", "expert"):
        game = load(mode, 4)
        for seed in range(2):
            state = game.new_initial_state(seed=seed)
            rng = Rng(seed)
            k = 0
            while True:
                if k % 3 == 0 or state.is_terminal():
                    for seat in (None, k % 4):
                        for line in plain(render_text(state, seat)).split("\n"):
                            assert cell_len(line) <= 120, line
                if state.is_terminal():
                    break
                state.apply_action(rng.choice(state.legal_actions()))
                k += 1


def test_classic_four_cities_side_by_side_and_expert_in_two_bands():
    for mode, bands in (("classic", 1), ("expert", 2)):
        game = load(mode, 4)
        state = play(game, 1, 30)
        text = plain(render_text(state, None))
        titles = [ln for ln in text.split("\n") if ln.startswith("Blue") or ln.startswith("Green")]
        if bands == 1:
            assert any(all(n in ln for n in ("Blue", "Red", "Green", "Yellow")) for ln in titles)
        else:
            assert any("Blue" in ln and "Red" in ln and "Green" not in ln for ln in titles)
            assert any("Green" in ln and "Yellow" in ln for ln in titles)


def test_districts_are_drawn():
    """Classic: quadrants (a border between columns 2 and 3 and between rows 2 and 3); Expert: the
    centre column is its own district (no border across it between rows 2 and 3)."""
    classic = plain(render_text(play(load("classic", 2), 2, 4), 0))
    assert "  ───────────┼───────────" in classic
    expert = plain(render_text(play(load("expert", 2), 2, 4), 0))
    assert "  ─────────────┤      ├─────────────" in expert


def test_urbanist_and_blocked_slots_after_a_take():
    game = load("classic", 4)
    state = game.new_initial_state(seed=5)
    a = next(a for a in state.legal_actions() if a.kind == "take" and a.arg == 12 * 5 + 2)   # #3 left of row 3
    state.apply_action(a)
    obs = state.observation(None)
    assert obs["urbanist"] == 12   # r3c3
    lines = site_lines(plain(render_text(state, None)))
    assert square_at(lines, 12).startswith(URBANIST)
    seat = obs["slots"][12]["seat"]
    assert slot_at(lines, 12) == obs["players"][seat]["name"][0] + "3"
    for slot in (2, 7, 17):        # above and below column 3, right of row 3
        assert slot_at(lines, slot) == BLOCKED
    for slot in (0, 1, 3, 4, 10, 11, 13, 14):
        assert slot_at(lines, slot) == FREE


def test_stacks_show_their_height():
    for seed in range(30):
        game = load("classic", 2)
        state = game.new_initial_state(seed=seed)
        rng = Rng(seed)
        play_until(state, rng, lambda s: any(h >= 2 for h in s.to_dict()["city_height"]))
        obs = state.observation(None)
        stacks = [(p, c) for p, pl in enumerate(obs["players"]) for c in pl["city"] if c["height"] >= 2]
        if not stacks:
            continue
        cells = city_cells(plain(render_text(state, None)), obs, game)
        p, c = stacks[0]
        assert cells[p][c["space"]].startswith(f"T{c['height']}") or cells[p][c["space"]].startswith(f"O{c['height']}")
        return
    pytest.fail("no stack in 30 seeds")


def test_end_score_sheet_and_allocation():
    game = load("expert", 2)
    state = play(game, 11, 10_000)
    assert state.is_terminal()
    text = plain(render_text(state, 0))
    assert "Final score sheet" in text and "Game over: " in text
    for label in CATEGORY_LABEL.values():
        assert label in text
    obs = state.observation(0)
    assert ACTIVE in text
    assert any(c["tile"] is not None for pl in obs["players"] for c in pl["city"])
    assert "Construction site" not in text
    classic = plain(render_text(play(load("classic", 3), 12, 10_000), None))
    assert "office towers" not in classic and "monuments" not in classic
