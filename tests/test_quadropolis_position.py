"""Quadropolis positions as text (``citygames/games/quadropolis/POSITION.md``): the notation rebuilds every
state of seeded random games field for field (both modes, 2-4 players, both allocations), canonical texts
write back unchanged, a game started from a position plays on and replays from its record, the rounds left
out are dealt from the seed, and every rule the reader checks raises ``PositionError`` naming the line and
the rule."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_quadropolis_rules import pos

from citygames import PositionError
from citygames.core import load_game
from citygames.core.records import replay
from citygames.core.rng import Rng
from citygames.games.quadropolis import position as notation
from play_helpers import random_states  # noqa: E402

CONFIGS = [(mode, n, alloc) for mode in ("classic", "expert") for n in (2, 3, 4) for alloc in ("auto", "manual")]
DOC = Path(notation.__file__).parent / "POSITION.md"


def game(mode="classic", n=4, allocation="auto"):
    return load_game("quadropolis", mode=mode, num_players=n, allocation=allocation)


def same(a, b):
    """``to_dict()`` minus what a position does not carry (history, log, origin)."""
    strip = lambda d: {k: v for k, v in d.items() if k not in ("history", "log", "origin")}  # noqa: E731
    return strip(a.to_dict()) == strip(b.to_dict())




# ==============================================================================================
# round trips
# ==============================================================================================
@pytest.mark.parametrize("mode,n,alloc", CONFIGS, ids=[f"{m}-{n}p-{a}" for m, n, a in CONFIGS])
def test_round_trip_of_random_states(mode, n, alloc):
    """Every state of 4 random games: ``parse(write(s))`` is ``s`` field for field, writes the same text, and
    shows the same observations and legal actions."""
    g = game(mode, n, alloc)
    count = 0
    for s in random_states(g, range(4)):
        text = s.position()
        t = g.state_from_position(text)
        assert same(t, s), text
        assert t.position() == text
        assert t.origin == text and t.history == []
        assert t.legal_actions() == s.legal_actions()
        for seat in (0, n - 1, None):
            assert t.observation(seat) == s.observation(seat)
        count += 1
    assert count > 4 * g.board.rounds * 4 * n


@pytest.mark.parametrize("mode,n", [("classic", 4), ("expert", 3), ("classic", 2)])
def test_a_state_from_a_position_plays_on_identically(mode, n):
    """From positions along random games the same actions give the same states and log sentences to the end
    (the hidden parts are all in the text)."""
    g = game(mode, n, "manual")
    for s in random_states(g, range(50, 53), every=7):
        t = g.state_from_position(s.position())
        u = s.clone()
        rng = Rng(len(s.history))
        while not u.is_terminal():
            legal = u.legal_actions()
            assert t.legal_actions() == legal
            a = legal[rng.randbelow(len(legal))]
            n0, m0 = len(u.log), len(t.log)
            u.apply_action(a)
            t.apply_action(a)
            assert [e.text for e in t.log[m0:]] == [e.text for e in u.log[n0:]]
        assert same(t, u) and t.returns() == u.returns()


def test_a_game_from_a_position_replays_from_its_record():
    g = game("expert", 3)
    s = next(x for i, x in enumerate(random_states(g, [9])) if i == 40)
    t = g.state_from_position(s.position())
    rng = Rng(1)
    for _ in range(10):
        legal = t.legal_actions()
        t.apply_action(legal[rng.randbelow(len(legal))])
    record = json.loads(json.dumps(t.record()))
    assert record["position"] == s.position()
    assert replay(record).to_dict() == t.to_dict()


def _doc_examples():
    return re.findall(r"```\n(.*?)```", DOC.read_text(), re.S)


def test_the_documented_examples_are_canonical():
    """``write(parse(text)) == text`` for the texts of POSITION.md (and the module's example is one of them)."""
    examples = _doc_examples()
    assert len(examples) == 2
    for text in examples:
        opts = dict(x.split("=") for x in re.search(r"options: (.*)", text).group(1).split(", "))
        s = game(opts["mode"], int(opts["num_players"]), opts["allocation"]).state_from_position(text)
        assert s.position() == text


def test_canonical_texts_of_constructed_positions_write_back_unchanged():
    """``write`` is canonical: what it writes reads back into the same state and the same text."""
    cases = [(pos(), "classic", 4), (pos("expert", 2, rnd=3), "expert", 2), (base(), "classic", 4),
             (pos("classic", 3, rnd=4, cities={"Red": ["T1i@1^3, -, -, -", "-, S@2, -, -", "-, -, -, -",
                                                        "-, -, -, -"]}), "classic", 3)]
    for text, mode, n in cases:
        s = game(mode, n).state_from_position(text)
        canonical = s.position()
        t = game(mode, n).state_from_position(canonical)
        assert t.position() == canonical and same(t, s)


def test_the_rounds_left_out_are_dealt_from_the_seed():
    """Leaving out the ``round R tiles`` lines deals those rounds as ``new_initial_state(seed)`` deals them."""
    for mode, n in (("classic", 4), ("expert", 2)):
        g = game(mode, n)
        for s in random_states(g, [21], every=11):
            text = s.position()
            short = "\n".join(x for x in text.splitlines() if not x.startswith(("round ", "#"))
                              or x.startswith("round: ")) + "\n"
            assert same(g.state_from_position(short), s)


def test_bare_codes_name_the_first_free_copy():
    """A bare code (or CODE@R) is the first copy, in data order, that fits its place and that the text does not
    name elsewhere (exact names CODE@Rx are set aside first); ``write`` gives every city tile its round, so the
    canonical text names the very same tiles."""
    g = game("classic", 4)
    rows = ["T2i, T2i@1, T2i, -", "T2i@1c, -, -, -", "-, -, -, -", "-, -, -, -"]
    s = g.state_from_position(pos(rnd=3, cities={"Blue": rows}))
    r1 = [t.idx for t in g.tiles if t.round == 1 and t.code == "T2i"]
    r2 = [t.idx for t in g.tiles if t.round == 2 and t.code == "T2i"]
    city = s.to_dict()["city_tile"][:16]
    # the site (read first) holds every round-3 T2i; T2i@1c is set aside for row 2
    assert city[:3] == [r1[0], r1[1], r2[0]] and city[4] == r1[2]
    out = s.position()
    assert "  row 1: T2i@1, T2i@1, T2i@2, -\n  row 2: T2i@1, -, -, -\n" in out
    assert same(g.state_from_position(out), s)


def test_a_face_down_tile_is_written_by_what_it_is():
    """A position is the whole state: a face-down tile is written in brackets with its code."""
    g = game("classic", 2)
    s = g.new_initial_state(4)
    text = s.position()
    site = text.split("site:")[1].split("slots:")[0]
    assert site.count("[") == 9           # 5 "4" + 4 "3-4" tiles at 2 players (§3)
    assert "[?" not in site


# ==============================================================================================
# validation
# ==============================================================================================
def base(**kw):
    """Classic, 4 players, round 3: Blue put #3 left of row 2 (r2c3), Red #4 above column 3 (r4c3); Green to
    move; Blue's city holds a few tiles."""
    args = dict(rnd=3, turns=2, urbanist="r4c3", site={"r2c3": "-", "r4c3": "-"},
                slots=[("left", 2, 3, "Blue"), ("top", 3, 4, "Red")],
                cities={"Blue": ["T1i@1^2, S@1, -, -", "-, -, -, -", "-, -, -, -", "-, -, -, -"]},
                res={"Blue": (3, 1)})
    args.update(kw)
    return pos(**args)


def edit(text: str, block: str | None, key: str, value: str) -> str:
    """``text`` with line ``key`` of ``block`` (``None``: a top line) set to ``value`` (added at the end of the
    block, or of the text, when missing)."""
    lines = text.splitlines()
    start, end = 0, len(lines)
    if block is not None:
        start = lines.index(f"{block}:") + 1
        end = next((i for i in range(start, len(lines)) if not lines[i].startswith("  ")), len(lines))
    prefix = ("  " if block else "") + key + ":"
    for i in range(start, end):
        if lines[i].startswith(prefix):
            lines[i] = f"{prefix} {value}"
            break
    else:
        lines.insert(end, f"{prefix} {value}")
    return "\n".join(lines) + "\n"


def test_the_base_of_the_error_cases_is_valid():
    s = game().state_from_position(base())
    assert s.current_player() == 2 and s.position() == game().state_from_position(s.position()).position()


def _error(text, *words, mode="classic", n=4, allocation="auto"):
    with pytest.raises(PositionError) as err:
        game(mode, n, allocation).state_from_position(text)
    msg = str(err.value)
    for w in words:
        assert w in msg, (w, msg)
    return msg


def _site_row(text, i):
    lines = text.splitlines()
    at = lines.index("site:")
    return lines[at + i].split(": ", 1)[1]


def test_unknown_codes_and_tiles_of_the_other_mode():
    t = base()
    row = _site_row(t, 1).split(", ")
    _error(edit(t, "site", "row 1", ", ".join(["X9"] + row[1:])), "line", "unknown tile code 'X9'")
    _error(edit(t, "site", "row 1", ", ".join(["O"] + row[1:])), "line", "tile of the expert game only")
    _error(edit(t, "Blue", "row 3", "T2i@7, -, -, -"), "round 7 of the classic game has no T2i")
    _error(edit(t, "Blue", "row 3", "T3i@1z, -, -, -"), "round 1 has 1 T3i tile")
    _error(edit(t, "Blue", "row 3", "T3i@4, -, -, -"), "round 1-3 only")    # a round not begun


def test_a_tile_used_twice_beyond_its_copies():
    t = base()
    _error(edit(t, "Blue", "row 3", "T3i@1, T3i@1, -, -"), "line", "(Blue: row 3)", "every T3i tile",
           "one place only")
    _error(edit(t, "Blue", "row 3", "S@1a, S@1a, -, -"), "S@1a is named twice")
    # round 3's tiles are all on the site: none is left for a city
    _error(edit(t, "Blue", "row 3", "T3i@3, -, -, -"), "every T3i tile")


def test_stacks():
    t = base()
    _error(edit(t, "Blue", "row 3", "S@1^2, -, -, -"), "(Blue: row 3)", "a shop does not stack", "§6")
    _error(edit(t, "Blue", "row 3", "T2i@1^5, -, -, -"), "at most 4 floors", "§6")
    e = game("expert", 4)
    ok = edit(pos("expert", 4, rnd=3), "Blue", "row 1", "O@1^3, T2i@2^2, -, -, -")
    assert e.state_from_position(ok)
    _error(edit(pos("expert", 4, rnd=3), "Blue", "row 1", "O@1^6, -, -, -, -"), "at most 5 floors", mode="expert")
    # more tower floors than rounds 1-2 hold (2 * 8 towers at 4 players is not the limit: the list is)
    rows = ["T1i@1^4, T1i@1^4, T2i@1^4, T2i@1^4", "-, -, -, -", "-, -, -, -", "-, -, -, -"]
    big = pos(rnd=2, turns=0, cities={"Blue": rows})
    _error(big, "floors")


def test_more_floors_than_turns():
    t = base(cities={"Red": ["T1i@1^4, T1i@1^4, T2i@1^2, -", "-, -, -, -", "-, -, -, -", "-, -, -, -"]})
    _error(t, "(Red: row 1)", "Red has played 9 turns", "one building a turn", "§3")


def test_face_down_markers():
    t = pos("classic", 3, rnd=2)
    rows = [_site_row(t, i).split(", ") for i in range(1, 6)]
    i, j = next((i, j) for i in range(5) for j in range(5) if not rows[i][j].startswith("["))
    row = rows[i][:]
    row[j] = f"[{row[j]}]"
    _error(edit(t, "site", f"row {i + 1}", ", ".join(row)), "only tiles marked", "§3", n=3)
    i, j = next((i, j) for i in range(5) for j in range(5) if rows[i][j].startswith("["))
    row = rows[i][:]
    row[j] = row[j].strip("[]")
    _error(edit(t, "site", f"row {i + 1}", ", ".join(row)), "stays face down", n=3)
    # a "4" tile in a city at 3 players: it was never face up, so never taken
    _error(edit(t, "Blue", "row 1", "H1v@1, -, -, -"), "stays face down", "never taken", n=3)


def test_architects_and_slots():
    t = base()
    _error(edit(t, "slots", "bottom", "5 Green, -, -, -, -"), "(slots: bottom)", "architects #1-#4")
    _error(edit(t, "slots", "bottom", "3 Blue, -, -, -, -"), "Blue has one architect #3")
    _error(edit(t, "Blue", "architects", "1, 2, 3, 4"), "(Blue: architects)", "is in the slot left of row 2",
           "not available")
    _error(edit(t, "Blue", "architects", "1, 2"), "#4 is in no slot")
    _error(edit(t, "slots", "right", "1 Yellow, -, -, -, -"), "Yellow has 1 architect in slots",
           "every turn puts one architect in a slot")
    _error(edit(t, "slots", "right", "1 Purple, -, -, -, -"), "expected a seat")
    _error(edit(t, None, "pool", "1=4"), "there is no pool")
    e = pos("expert", 2, rnd=1, turns=1, urbanist="r1c5", site={"r1c5": "-"}, slots=[("left", 1, 5, "Blue")])
    assert game("expert", 2).state_from_position(e)
    _error(edit(e, None, "pool", "1=2, 2=2, 3=2, 4=2, 5=2"), "(pool)", "#5 left", mode="expert", n=2)
    _error(edit(e, "slots", "right", "5 Red, 5 Red, 5 Blue, -, -"), "4 architects #5 in slots", mode="expert", n=2)


def test_the_site_the_urbanist_and_the_squares_pointed_at():
    t = base()
    _error(edit(t, "site", "row 5", "T1i, K, S"), "(site: row 5)", "5 squares")
    row = _site_row(t, 1).split(", ")
    _error(edit(t, "site", "row 1", ", ".join(["-"] + row[1:])), "r1c1 is empty but no architect points at it")
    _error(edit(t, None, "urbanist", "r2c3"), "(urbanist)", "the last architect pointed at")
    _error(edit(t, None, "urbanist", "beside the board"), "tile taken or not")
    _error(edit(t, None, "urbanist", "r9c9"), "expected a square")
    refill = base(site={"r4c3": "-"})
    _error(refill, "(slots: left)", "points at r2c3, which still holds a face-up tile")
    _error(pos(urbanist="r1c1"), "beside the board")


def test_turns_seats_and_the_mayor():
    t = base()
    _error(edit(t, None, "to move", "Blue"), "(to move)", "Green's", "clockwise", "§3")
    _error(edit(t, None, "turns taken", "2 of 15"), "a round has 16 turns")
    _error(edit(t, None, "turns taken", "16 of 16"), "0 to 15 turns")
    _error(edit(t, None, "round", "5"), "(round)", "1-4")
    _error(edit(t, None, "decision", "allocate"), "allocation=manual")
    _error(edit(t, None, "decision", "fly"), "expected one of")
    _error(edit(pos(), None, "mayor", "Red"), "(mayor)", "the round starts with the Mayor's holder")
    _error(edit(t, None, "mayor", "Red"), "§10 #11")                    # this round's mayor tower is on the site
    _error(edit(t, None, "game", "the_capitals"), "this is quadropolis")
    _error(edit(t, None, "options", "num_players=3, mode=classic, allocation=auto"), "loaded with num_players=4")
    _error(edit(t, None, "options", "mode=classic, mode=classic"), "option mode is given twice")
    _error(t + "Yellow:\n", "'Yellow' is given twice")
    _error(t + "colour: red\n", "unknown line 'colour'")
    _error(pos("classic", 2, rnd=1) + "Green:\n", "Green does not play in a 2-player game", n=2)
    _error(t.replace("  energy: 0\n", "  energy: -1\n", 1), "at least 0")


def test_the_place_decision():
    g = game()
    s = g.state_from_position(base())
    place = base()
    # a valid place position written by the engine, then broken
    s.apply_action(g.off["take"] + (0 * 5 + 0) * 5 + 0)         # Green: #1 above column 1 -> r1c1
    text = s.position()
    assert "decision: place" in text
    _error(edit(text, None, "taken", "S, architect 9"), "(taken)", "architects #1-#4")
    _error(edit(text, None, "taken", "S"), "expected 'CODE, architect K'")
    _error(edit(text, None, "taken", re.search(r"^taken: (.*?),", text, re.M).group(1) + ", architect 2"),
           "not pointed at by Green's architect #2")
    _error(edit(place, None, "taken", "S, architect 3"), "a taken tile waits only during the place decision")
    # a tile that fits nowhere: Green's row 1 and column 1 full, #1 and a shop
    full = ["K@1, K@1, K@1, K@2", "K@2, -, -, -", "K@2, -, -, -", "P0v@1, -, -, -"]
    nowhere = edit(text, "Green", "row 1", full[0])
    for i in (2, 3, 4):
        nowhere = edit(nowhere, "Green", f"row {i}", full[i - 1])
    _error(nowhere, "fits nowhere", "§6")


def test_rounds_not_dealt_yet():
    g = game()
    text = g.new_initial_state(1).position()
    line = next(x for x in text.splitlines() if x.startswith("round 2 tiles"))
    _error(text.replace(line, line.rsplit(",", 1)[0]), "(round 2 tiles)", "25 tiles")
    _error(text.replace(line, line.replace("round 2 tiles", "round 1 tiles")), "unknown line 'round 1 tiles'")
    t3 = base()
    _error(t3 + "round 2 tiles: " + line.split(": ")[1] + "\n", "round 2 has been dealt")
    cells = line.split(": ")[1].split(", ")
    cells[0] = "O"
    _error(text.replace(line, "round 2 tiles: " + ", ".join(cells)), "tile of the expert game only")


def test_the_hand_allocation():
    def end(alloc, decision="allocate", to_move="Blue", n=2):
        return pos("classic", n, rnd=4, turns=4 * n, decision=decision, to_move=to_move if decision != "end" else None,
                   slots=[(side, line, k, seat) for (side, line), (seat, k) in
                          zip([(s, i) for s in ("top", "bottom", "left", "right") for i in range(1, 6)],
                              [(seat, k) for seat in ("Blue", "Red", "Green")[:n] for k in (1, 2, 3, 4)])],
                   cities={"Blue": ["T1i@1^2, S@1, K@1, -", "-, -, -, -", "-, -, -, -", "-, -, -, -"]},
                   res={"Blue": (3, 1)}, allocation="manual", alloc=alloc)
    ok = end({"Blue": ["allocated: no", "active: r1c2", "customers: r1c2=3"]})
    assert game("classic", 2, "manual").state_from_position(ok)
    manual = dict(n=2, allocation="manual")
    _error(end({"Blue": ["active: r1c2, r1c1"]}), "uses 0 inhabitants and 2 energy", "§7", **manual)
    _error(end({"Blue": ["active: r2c2"]}), "r2c2 is empty", **manual)
    _error(end({"Blue": ["customers: r1c2=1"]}), "a shop needs its energy", **manual)
    _error(end({"Blue": ["customers: r1c1=1"]}), "customers go on shops only", **manual)
    _error(end({"Blue": ["active: r1c2", "customers: r1c2=5"]}), "at most 4", **manual)
    _error(end({"Blue": ["allocated: yes"]}), "clockwise from the Mayor's holder", **manual)
    _error(end({"Red": ["active: r1c1"]}), "r1c1 is empty", **manual)
    _error(end({}, decision="end"), "the game ends once every player has allocated", **manual)
    _error(end({"Blue": ["active: r1c2"]}), "allocate by hand only", n=2)          # allocation=auto
    _error(base().replace("  energy: 1\n", "  energy: 1\n  allocated: no\n", 1), "allocate by hand only")
