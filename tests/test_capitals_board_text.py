"""The Capitals' terminal board (``citygames.games.the_capitals.board_text``).

Seeded random games of 3, 4 and 5 players are rendered at many points for every seat and for a
spectator; the plain text (markup stripped) must show the round, every colour, the projects
tiles, every city tile on its coordinates, the construction tokens on their corners, and prestige
only where the observation gives it. The board is built from the observation alone, so changing
hidden state (another seat's prestige) must not change it.
"""

from __future__ import annotations

import io

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

import citygames
from citygames.core import Rng
from citygames.games.the_capitals.board_text import (CELL, LABEL, TOKEN, TOURIST_INITIAL, board_text,
                                                     render_observation, short_name)
from citygames.games.the_capitals.components import components

from capitals_helpers import Position


def plain(markup: str) -> str:
    """The text with markup stripped (raises ``MarkupError`` on broken markup)."""
    return Text.from_markup(markup).plain


def city_section(text: str, color: str) -> list[str]:
    """Lines of one city: from its title line to the next blank line."""
    lines = text.split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"{color.capitalize()} city"))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def parse_grid(section: list[str]) -> tuple[dict, set]:
    """Read a city grid back: ``{(x, y): (line1, line2)}`` of non-empty cells, and the corners
    drawn as construction tokens (``◆`` on the grid line intersections)."""
    pitch = CELL + 1
    cells: dict = {}
    tokens: set = set()
    xs: list[int] = []
    pending = None  # the last border line, not yet given its y
    prev_y = None

    def corners(border: str, y: int) -> None:
        for k in range(len(xs) + 1):
            if border[LABEL + k * pitch] == TOKEN:
                tokens.add((xs[k] if k < len(xs) else xs[-1] + 1, y))

    i = 1
    while i < len(section):
        ln = section[i]
        if ln.startswith(" " * LABEL + "┌") or (ln.startswith(" " * LABEL + TOKEN) and "┬" in ln):
            if pending is not None:  # the bottom border of the previous band
                corners(pending, prev_y + 1)
            hdr = section[i - 1]
            xs = [int(hdr[LABEL + k * pitch:LABEL + (k + 1) * pitch]) for k in range(ln.count("┬") + 1)]
            pending = ln
            i += 1
            continue
        if len(ln) > LABEL and ln.startswith(" " * LABEL) and ln[LABEL] in "├└" + TOKEN:
            pending = ln
            i += 1
            continue
        label = ln[:LABEL].strip()
        if label and label.lstrip("-").isdigit():
            y = prev_y = int(label)
            corners(pending, y)
            pending = None
            nxt = section[i + 1] if i + 1 < len(section) else ""
            two = nxt.startswith(" " * LABEL + "│")
            for k, x in enumerate(xs):
                a = LABEL + 1 + k * pitch
                c1 = ln[a:a + CELL].rstrip()
                if c1:
                    cells[(x, y)] = (c1, nxt[a:a + CELL].rstrip() if two else "")
            i += 2 if two else 1
            continue
        i += 1
    if pending is not None:
        corners(pending, prev_y + 1)
    return cells, tokens


def prestige_cell(text: str, color: str, you: bool) -> str:
    lines = text.split("\n")
    header = next(ln for ln in lines if ln.startswith("Player") and "Prestige" in ln)
    i = header.index("Prestige")
    label = color.capitalize() + (" (you)" if you else "")
    row = next(ln for ln in lines if ln.startswith(label + " ") and ln[len(label) + 1:].lstrip()[:1] in "★0123456789")
    return row[i - 1:i + len("Prestige")].strip()


def check_board(state, seat) -> str:
    obs = state.observation(seat)
    markup = board_text(state, seat)
    assert markup == render_observation(obs)
    text = plain(markup)
    c = components()
    assert f"Round {obs['round']}/" in text
    for pl in obs["players"]:
        assert pl["color"].capitalize() in text
    for row in obs["projects"]:
        for tid in row:
            assert c.tile_by_id[tid].name in text
    for line in text.split("\n"):
        assert cell_len(line) <= 120, line
    for pl in obs["players"]:
        p = pl["seat"]
        cells, tokens = parse_grid(city_section(text, pl["color"]))
        assert len(cells) == len(pl["city"])
        for t in pl["city"]:
            name = short_name(t["tile"])
            assert name in text
            assert cells[(t["x"], t["y"])][0] == name, (pl["color"], t)
            if t["cubes"]:
                assert f"■{t['cubes']}" in cells[(t["x"], t["y"])][1]
        assert tokens == {tuple(k) for k in pl["construction_tokens"]}, (pl["color"], tokens)
        for tr in pl["tourists"]:
            if tr["on"] is not None:
                cell = cells[tuple(tr["on"])][1]
                on_it = sum(1 for q in pl["tourists"] if q["on"] == tr["on"])
                if on_it <= 3:
                    assert TOURIST_INITIAL[tr["color"]] in cell.upper(), (cell, tr)
        shown = prestige_cell(text, pl["color"], p == seat)
        if obs["terminal"] or p == seat:
            assert shown == str(state.track(p, "prestige"))
        else:
            assert shown == "hidden"
    return text


def play_and_check(num_players: int, seed: int, every: int) -> None:
    game = citygames.load_game("the_capitals", num_players=num_players)
    state = game.new_initial_state(seed=seed)
    rng = Rng(seed * 7 + num_players)
    k = 0
    seen_steps = set()
    while not state.is_terminal():
        if k % every == 0 or state.observation(None)["step"] not in seen_steps:
            seen_steps.add(state.observation(None)["step"])
            for seat in [None, *range(num_players)]:
                check_board(state, seat)
        state.apply_action(rng.choice(state.legal_actions()))
        k += 1
    winner = components().colors[state.ranking()[0]].capitalize()
    for seat in [None, *range(num_players)]:
        text = check_board(state, seat)
        assert f"Game over — {winner} wins" in text
    assert {"choose an initiative space", "take a tile from the projects area", "choose where to build the tile",
            "activate a tile or end activations"} <= seen_steps


@pytest.mark.parametrize("num_players", [3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_board_text_through_random_games(num_players, seed):
    play_and_check(num_players, seed, every=9)


def test_short_names_are_distinct_and_fit():
    c = components()
    names = [short_name(t) for t in c.tiles]
    assert len(set(names)) == len(names)
    assert all(0 < len(n) <= CELL for n in names)
    assert short_name("school_i") != short_name("school_ii")


def test_other_seats_prestige_does_not_leak():
    game = citygames.load_game("the_capitals", num_players=4)
    state = game.new_initial_state(seed=3)
    rng = Rng(3)
    for _ in range(120):
        state.apply_action(rng.choice(state.legal_actions()))
    for seat in (None, 0, 1, 2, 3):
        before = board_text(state, seat)
        other = Position.of(state)              # the same position with more prestige for the others
        for p in range(4):
            if p != seat:
                other.seat(p, prestige=state.track(p, "prestige") + 17)
        assert board_text(other.state(), seat) == before
        if seat is not None:
            own = Position.of(state).seat(seat, prestige=state.track(seat, "prestige") + 17).state()
            assert own.track(seat, "prestige") == state.track(seat, "prestige") + 17
            after = plain(board_text(own, seat))
            assert prestige_cell(after, components().colors[seat], True) == str(own.track(seat, "prestige"))


def test_initial_board_and_console_print(monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")  # render_text lays the board out for the terminal's width
    game = citygames.load_game("the_capitals", num_players=4)
    state = game.new_initial_state(seed=0)
    text = check_board(state, 0)
    assert "Round 1/12" in text and "Era I " in text
    assert "World Expo after rounds 4, 8, 12" in text
    assert "closed" in text  # space 6 is not used with 4 players
    # every city starts with the Hotel at (0, 0) and the City Hall at (1, 0), tokens on (1, 0) and (1, 1)
    for color in components().colors[:4]:
        cells, tokens = parse_grid(city_section(text, color))
        assert cells[(0, 0)][0] == "Hotel" and cells[(1, 0)][0] == "City Hall"
        assert tokens == {(1, 0), (1, 1)}
    # the terminal player prints it with rich; the game's render_text is the same board
    buf = io.StringIO()
    Console(file=buf, width=120, color_system=None).print(game.render_text(state, 0))
    printed = buf.getvalue()
    assert printed.rstrip("\n").split("\n") == [ln.rstrip() for ln in text.split("\n")]


def test_wide_city_is_split_into_bands():
    # a city stretched along a row still fits 120 columns: its grid is split into bands of columns
    game = citygames.load_game("the_capitals", num_players=3)
    state = game.new_initial_state(seed=5)
    obs = state.observation(None)
    c = components()
    row = [t.id for t in c.tiles if t.era == 1][:12]
    obs["players"][0]["city"] += [{"x": 2 + i, "y": 0, "tile": tid, "cubes": 0} for i, tid in enumerate(row)]
    obs["players"][0]["construction_tokens"] = [[9, 1], [14, 0]]
    text = plain(render_observation(obs))
    for line in text.split("\n"):
        assert cell_len(line) <= 120
    cells, tokens = parse_grid(city_section(text, "green"))
    assert {xy: v[0] for xy, v in cells.items()} == {
        (0, 0): "Hotel", (1, 0): "City Hall", **{(2 + i, 0): short_name(t) for i, t in enumerate(row)}}
    assert tokens == {(9, 1), (14, 0)}
    # a narrower terminal gets narrower bands; the grid still reads back the same
    narrow = plain(render_observation(obs, width=80))
    section = city_section(narrow, "green")
    assert all(cell_len(line) <= 80 for line in section)
    assert parse_grid(section) == (cells, tokens)


def test_prosperity_hand_and_neutral_marker_on_the_board(monkeypatch):
    """Issue 4: a player sees their own prosperity hand, what may be built now and why not; others see
    only hand sizes; a 2-player board shows the neutral culture marker and its tourist."""
    from rich.text import Text

    monkeypatch.setenv("COLUMNS", "120")
    game = citygames.load_game("the_capitals", num_players=2, prosperity=True)
    state = game.new_initial_state(seed=4)
    plain = {seat: Text.from_markup(game.render_text(state, seat)).plain for seat in (0, 1, None)}
    c = components()
    for seat in (0, 1):
        for x in state.hands[seat]:
            name = c.tiles[x].name
            assert f"    {name} — requires" in plain[seat]
            assert f"    {name} — requires" not in plain[1 - seat] or x in state.hands[1 - seat]
            assert f"    {name} — requires" not in plain[None]
        assert ("can build" in plain[seat]) or ("not now" in plain[seat])
    assert "Neutral marker (black): culture 0" in plain[None]
    assert "tiles in hand: Green 6, Red 6" in plain[None]
