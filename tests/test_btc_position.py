"""Between Two Cities positions as text (``citygames/games/between_two_cities/POSITION.md``): the notation
rebuilds every state of seeded random games field for field (base and Capitals, 2 to 7 players), the
documented examples are canonical, a game started from a position plays on identically and replays from
its record, what is left out is dealt from the seed, every rule the reader checks raises ``PositionError``
naming the line and the rule, and rule cases built from positions: adjacency and the frame, the lower city
at the end, a secret choice that only its seat sees."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from citygames import PositionError
from citygames.core import Rng, load_game
from citygames.core.records import replay
from citygames.games.between_two_cities import position as notation
from play_helpers import random_states  # noqa: E402

GAME = "between_two_cities"
CONFIGS = [(n, cap) for cap in (False, True) for n in (2, 3, 5, 7)]
DOC = Path(notation.__file__).parent / "POSITION.md"


def game(n=3, capitals=False):
    return load_game(GAME, num_players=n, capitals=capitals)


def same(a, b):
    """``to_dict()`` minus what a position does not carry (history, log, origin)."""
    strip = lambda d: {k: v for k, v in d.items() if k not in ("history", "log", "origin")}  # noqa: E731
    return strip(a.to_dict()) == strip(b.to_dict())


def play_random(s, rng, steps=None):
    """Random moves of a random seat among those to move (simultaneous steps in random order)."""
    k = 0
    while not s.is_terminal() and (steps is None or k < steps):
        movers = s.players_to_move()
        p = movers[rng.randbelow(len(movers))]
        legal = s.legal_actions(p)
        s.apply_action(legal[rng.randbelow(len(legal))], player=p)
        k += 1


# ==============================================================================================
# round trips
# ==============================================================================================
@pytest.mark.parametrize("n,cap", CONFIGS, ids=[f"{'capitals' if c else 'base'}-{n}p" for n, c in CONFIGS])
def test_round_trip_of_random_states(n, cap):
    """Every state of 2 random games (pending choices included): ``parse(write(s))`` is ``s`` field for field,
    writes the same text, and shows the same observations and legal actions."""
    g = game(n, cap)
    count = 0
    for seed in range(2):
        s = g.new_initial_state(seed)
        rng = Rng(seed + 40)
        while True:
            text = s.position()
            t = g.state_from_position(text)
            assert same(t, s), text
            assert t.position() == text
            assert t.origin == text and t.history == [] and t.log == []
            for seat in (0, n - 1, None):
                assert t.observation(seat) == s.observation(seat)
            for p in s.players_to_move():
                assert t.legal_actions(p) == s.legal_actions(p)
            count += 1
            if s.is_terminal():
                break
            play_random(s, rng, 1)
    assert count == 2 * (g.max_game_length() + 1)


@pytest.mark.parametrize("n,cap", [(3, False), (2, True), (5, True)])
def test_a_state_from_a_position_plays_on_identically(n, cap):
    """From positions along random games the same actions give the same states and log sentences to the end
    (the hidden parts are all in the text)."""
    g = game(n, cap)
    for s in random_states(g, [50, 51], every=11):
        t = g.state_from_position(s.position())
        u = s.clone()
        rng = Rng(len(s.history))
        while not u.is_terminal():
            p = u.players_to_move()[-1]
            legal = u.legal_actions(p)
            assert t.legal_actions(p) == legal
            a = legal[rng.randbelow(len(legal))]
            n0, m0 = len(u.log), len(t.log)
            u.apply_action(a, player=p)
            t.apply_action(a, player=p)
            assert [e.text for e in t.log[m0:]] == [e.text for e in u.log[n0:]]
        assert same(t, u) and t.returns() == u.returns()


def test_a_game_from_a_position_replays_from_its_record():
    g = game(4, True)
    s = g.new_initial_state(9)
    play_random(s, Rng(9), 23)
    t = g.state_from_position(s.position())
    play_random(t, Rng(1), 30)
    record = json.loads(json.dumps(t.record()))
    assert record["position"] == s.position()
    assert replay(record).to_dict() == t.to_dict()


def _doc_examples():
    return re.findall(r"```\n(.*?)```", DOC.read_text(), re.S)


def test_the_documented_examples_are_canonical():
    """``write(parse(text)) == text`` for the texts of POSITION.md."""
    examples = _doc_examples()
    assert len(examples) == 2
    for text in examples:
        opts = dict(x.split("=") for x in re.search(r"options: (.*)", text).group(1).split(", "))
        s = game(int(opts["num_players"]), opts["capitals"] == "True").state_from_position(text)
        assert s.position() == text


def _drop(text: str, *keys: str) -> str:
    return "".join(x + "\n" for x in text.splitlines() if not x.startswith(keys))


@pytest.mark.parametrize("n,cap", [(3, False), (2, False), (5, True), (2, True)])
def test_what_is_left_out_is_dealt_from_the_seed(n, cap):
    """Leaving out the bag, the duplex stack (and with the Capitals the mats and districts) deals them as
    ``new_initial_state(seed)`` deals them: the states of seeded games come back field for field."""
    g = game(n, cap)
    for s in random_states(g, [21], every=5):
        short = _drop(s.position(), "bag:", "duplex stack:", "mats:", "districts:", "district discard:", "#")
        assert same(g.state_from_position(short), s)


def test_a_hand_written_position_needs_no_bag():
    """A position written by hand without the hidden lines: the bag is the rest of the supply."""
    g = game(3)
    s = g.state_from_position(FRAME)
    assert len(s.bag) == 108 - 3 * 7           # one singles stage dealt
    assert s.current_player() == 0 and s.players_to_move() == (0,)


# ==============================================================================================
# rules from positions
# ==============================================================================================
#: base game, 3 players, round 1, turn 3: Blue places first; its right city (city 1) is a row of 4 shops.
FRAME = """\
stage: 1
turn: 3 of 3
decision: place
to move: Blue
Blue:
  hand: O (drawn by Green)
  to place: F, H
Red:
  hand: P (drawn by Blue)
  to place: S, P
Green:
  hand: Tb (drawn by Red)
  to place: O, O
cities:
  city 1: S S S S | at r4c1
  city 2: P P / H H | at r4c4
  city 3: O . / O O / . O | at r3c4
"""


def test_placement_is_adjacent_and_inside_the_frame():
    """§4: a tile goes next to a placed tile and the city stays within 4 x 4: beside a row of 4 shops only
    the squares above and below it are legal; in a 2 x 2 block every square around it."""
    g = game(3)
    s = g.state_from_position(FRAME)
    legal = {(a.arg // 81, a.arg % 81) for a in s.legal_actions(0)}
    kind_side = lambda k, side: (k - 1) * 2 + side          # noqa: E731
    right = {x for ks, x in legal if ks == kind_side(2, 1)}  # the factory in the right city (city 1)
    W = g.width
    assert right == {2 * W + c for c in range(4)} | {4 * W + c for c in range(4)}
    left = {x for ks, x in legal if ks == kind_side(2, 0)}   # city 3: the empty squares next to its 4 offices
    assert left == {r * W + c for r, c in ((1, 3), (2, 2), (2, 4), (3, 2), (3, 5), (4, 3), (4, 5), (5, 4))}
    # the second tile goes to the other city (§3)
    s.apply_action(next(a for a in s.legal_actions(0) if a.arg // 81 == kind_side(2, 1)))
    assert {a.arg // 81 for a in s.legal_actions(0)} == {kind_side(9, 0)}
    assert "placed: right" in s.position() and "to place: -, H" in s.position()


def _end_position() -> str:
    rows = lambda k: " / ".join([" ".join([k] * 4)] * 4)     # noqa: E731
    return f"""\
stage: 3
turn: 3 of 3
decision: end
Blue:
  discarded: F, S
  discarded duplexes: H1
Red:
  discarded: F, S
  discarded duplexes: H2
Green:
  discarded: F, S
  discarded duplexes: H3
cities:
  city 1: {rows("O")} | at r3c3
  city 2: {rows("P")} | at r4c4
  city 3: {rows("H")} | at r1c1
duplex stack: H5 H7 H8 H9 H11 H12 V1 V2 V4 V6 V7 V8 V10 V11 V12
"""


def test_the_lower_city_scores_and_breaks_ties():
    """§5: a seat scores the lower of its two cities; tie-break 1: the higher one. City 1 (Blue | Red): 16
    offices = 21 + 21 + 10; city 2 (Red | Green): one park of 16 = 12 + 13; city 3 (Green | Blue): houses
    with no other type = 0. The placed duplexes (H4 H6 H10 V3 V5 V9) are the ones named nowhere."""
    g = game(3)
    s = g.state_from_position(_end_position())
    assert s.is_terminal() and s.city_totals() == [52, 25, 0]
    assert s.scores() == [0, 25, 0]
    assert [s.lower_city(p) for p in range(3)] == [2, 1, 2]
    assert s.ranking() == [1, 0, 2] and s.winners() == [1] and s.returns() == [0.0, 1.0, 0.0]
    obs = s.observation(None)
    assert [pl["lower_city"] for pl in obs["players"]] == [2, 1, 2]
    assert s.position() == g.state_from_position(s.position()).position()


def _choosing(red_choice: str) -> str:
    text = _doc_examples()[0]
    return text.replace("  chosen: Tf + P\n", f"  chosen: {red_choice}\n")


def test_a_pending_choice_is_secret():
    """§3: a choice stays secret until the last seat has chosen: two positions that differ only in Red's
    choice show Blue, Green and a spectator the same observation; Red sees its own."""
    g = game(3)
    a, b = g.state_from_position(_choosing("Tf + P")), g.state_from_position(_choosing("O + H"))
    for seat in (0, 2, None):
        assert a.observation(seat) == b.observation(seat)
    assert a.observation(1)["pending"] != b.observation(1)["pending"]
    assert a.observation(0)["chosen"] == [1] and a.players_to_move() == (0, 2)
    # the reveal: once Blue and Green have chosen, everybody sees Red's pair
    for s in (a, b):
        for p in (0, 2):
            s.apply_action(s.legal_actions(p)[0], player=p)
    assert a.observation(0)["to_place"][1] != b.observation(0)["to_place"][1]


# ==============================================================================================
# validation
# ==============================================================================================
def edit(text: str, block: str | None, key: str, value: str | None) -> str:
    """``text`` with line ``key`` of ``block`` (``None``: a top line) set to ``value`` (added at the end of the
    block, or of the text, when missing; removed when ``value`` is None)."""
    lines = text.splitlines()
    start, end = 0, len(lines)
    if block is not None:
        start = lines.index(f"{block}:") + 1
        end = next((i for i in range(start, len(lines)) if not lines[i].startswith("  ")), len(lines))
    prefix = ("  " if block else "") + key + ":"
    for i in range(start, end):
        if lines[i].startswith(prefix):
            if value is None:
                del lines[i]
            else:
                lines[i] = f"{prefix} {value}"
            break
    else:
        assert value is not None, f"no line {key} to remove"
        lines.insert(end, f"{prefix} {value}")
    return "\n".join(lines) + "\n"


def _error(text, *words, n=3, capitals=False):
    with pytest.raises(PositionError) as err:
        game(n, capitals).state_from_position(text)
    msg = str(err.value)
    for w in words:
        assert w in msg, (w, msg)
    return msg


def test_the_bases_of_the_error_cases_are_valid():
    assert game(3).state_from_position(FRAME)
    assert game(3).state_from_position(_choosing("Tf + P"))
    assert game(3).state_from_position(_end_position())


def test_layout_lines_and_header():
    t = FRAME
    _error(t + "colour: red\n", "unknown line 'colour'")
    _error(t + "Yellow:\n", "Yellow does not play in a 3-player game")
    _error(t + "city 4: S | at r4c4\n", "block 'cities:'")
    _error(edit(t, None, "game", "quadropolis"), "this is between_two_cities")
    _error(edit(t, None, "options", "num_players=4, capitals=False"), "loaded with num_players=3")
    _error(edit(t, None, "options", "landscapes=True"), "unknown option")
    _error(edit(t, None, "seed", "x"), "(seed)", "whole number")
    _error(t.replace("Green:\n  hand: Tb (drawn by Red)\n  to place: O, O\n", ""), "missing line 'Green'")


def test_stage_turn_decision_and_seats_to_move():
    t = FRAME
    _error(edit(t, None, "stage", "4"), "(stage)", "expected one of 1, 2, 3")
    _error(edit(t, None, "stage", "1a"), "expected one of 1, 2, 3")
    _error(edit(t, None, "turn", "4 of 3"), "(turn)", "1-3")
    _error(edit(t, None, "turn", "1 of 4"), "a singles stage has 3 turns", "§3")
    _error(edit(t, None, "decision", "discard"), "(decision)", "singles stage", "§3")
    _error(edit(t, None, "decision", "fly"), "expected one of")
    _error(edit(t, None, "decision", "end"), "the game ends after the last turn of stage 3")
    _error(edit(t, None, "to move", "Purple"), "(to move)", "expected a seat")
    ch = _choosing("Tf + P")
    _error(edit(ch, None, "to move", "Blue"), "(Green)", "Green is not to move, so it has chosen")
    _error(edit(ch, None, "to move", "Blue, Red, Green"), "(Red: chosen)", "Red is still to choose")
    _error(edit(ch, None, "to move", "none"), "at least one seat is still to choose")
    _error(edit(_end_position(), None, "to move", "Blue"), "nobody moves once the game is over")


def test_hands():
    t = FRAME
    _error(edit(t, "Blue", "hand", "O (drawn by Red)"), "(Blue: hand)", "holds the hand Green drew",
           "to the left", "§3")
    _error(edit(t, "Blue", "hand", "O O (drawn by Green)"), "every hand holds 1", "§3")
    _error(edit(t, "Blue", "hand", "X (drawn by Green)"), "unknown tile 'X'")
    _error(edit(t, "Blue", "hand", "C3 (drawn by Green)"), "civic buildings come with the Capitals")
    _error(edit(t, "Blue", "hand", None), "missing line 'hand' in the Blue block")
    _error(edit(_end_position(), "Blue", "hand", "S"), "hands of single tiles are held during rounds 1 and 3")


def test_choices_and_tiles_to_place():
    ch = _choosing("Tf + P")
    _error(_choosing("S + S"), "(Red: chosen)", "the hand does not hold two of S", "§3")
    _error(_choosing("Tf P"), "expected two tiles 'S + H'")
    _error(edit(FRAME, "Blue", "chosen", "F + H"), "choices are secret only until everybody has chosen")
    _error(edit(ch, "Blue", "to place", "S, S"), "revealed tiles wait to be placed only during place")
    t = FRAME
    _error(edit(t, "Red", "to place", "-, P"), "(Red: to place)", "Red places after Blue")
    _error(edit(t, "Blue", "to place", "-, H"), "write 'placed: left' or 'right'")
    _error(edit(t, "Blue", "placed", "left"), "write 'placed: left' or 'right'")
    _error(edit(t, "Red", "placed", "left"), "(Red: placed)", "only the seat placing now")
    _error(edit(t, "Blue", "to place", "F"), "two entries")
    _error(edit(t, "Blue", "to place", None), "missing line 'to place' in the Blue block")
    _error(edit(_end_position(), "Blue", "duplexes", "H4 H5 H6"), "the duplexes drawn are held only")


def test_discards():
    t = _end_position()
    _error(edit(t, "Blue", "discarded", "F"), "(Blue: discarded)", "2 so far, got 1", "§3")
    _error(edit(t, "Blue", "discarded duplexes", "H1, H4"), "1 so far, got 2")
    _error(edit(FRAME, "Blue", "discarded", "F"), "0 so far, got 1")
    _error(edit(t, "Red", "discarded duplexes", "H1"), "duplex H1 is discarded by Red", "one place only")


def test_cities():
    t = FRAME
    _error(edit(t, "cities", "city 1", "S S S | at r4c2"), "(cities: city 1)", "holds 3 tiles' squares",
           "placed 4 single tiles", "§3")
    _error(edit(t, "cities", "city 1", "S S S S | at r5c1"), "centre of its 7 x 7 grid", "r4c4")
    _error(edit(t, "cities", "city 1", "S S S S | at r4c5"), "does not fit a 7 x 7 grid")
    _error(edit(t, "cities", "city 1", "S S S S"), "'| at rRcC'")
    _error(edit(t, "cities", "city 1", "S S S S | at r9c1"), "outside the engine's 7 x 7 grid")
    _error(edit(t, "cities", "city 1", "S S S S | at r4c5 | at r4c4"), "once")
    _error(edit(t, "cities", "city 1", "S S S ~ | at r4c1"), "terrain ('~') belongs to the landscape mats")
    _error(edit(t, "cities", "city 1", "S S Q S | at r4c1"), "unknown token 'Q'")
    _error(edit(t, "cities", "city 1", "S S / S | at r4c3"), "row 2 has 1 cells")
    _error(edit(t, "cities", "city 2", "empty"), "(cities: city 2)", "holds 0 tiles")
    _error(edit(t, "cities", "city 1", None), "missing line 'city 1' in the cities block")


def test_the_supply():
    t = FRAME
    end = _end_position()
    shops = " / ".join(["S S S S"] * 4)
    text = edit(edit(end, "cities", "city 2", f"{shops} | at r4c4"), "cities", "city 3", f"{shops} | at r1c1")
    _error(edit(text, "cities", "city 1", "O O O O / P P P P / H H H H / S S S S | at r3c3"),
           "holds 39 single S tiles", "the game has 16 (§2)")
    _error(t + "bag: S\n", "(bag)", "the bag holds the single tiles that are nowhere else")
    end = _end_position()
    _error(edit(end, None, "duplex stack", "H5 H7"), "(duplex stack)", "the placed ones")
    _error(edit(end, None, "duplex stack", "H4 H5 H7 H8 H9 H11 H12 V1 V2 V4 V6 V7 V8 V10 V11"),
           "cover", "S squares")
    # left out, the duplex stack is dealt from the seed: H1 H2 H3 are not all among its first duplexes
    _error(edit(end, None, "duplex stack", None), "not among those seed 0 deals")


def test_capitals_lines():
    _error(FRAME + "mats: river, canyon, lake\n", "(mats)", "Capitals expansion only", "§8")
    g = game(3, True)
    s = g.new_initial_state(4)
    text = s.position()
    _error(edit(text, None, "mats", "river, canyon"), "one landscape mat per city", "§8.2", capitals=True)
    _error(edit(text, None, "mats", "river, river, lake"), "given twice", capitals=True)
    _error(edit(text, None, "mats", "river, canyon, sea"), "unknown mat 'sea'", capitals=True)
    _error(edit(text, None, "districts", "house+factory, shop+office, park+tavern"), "§8.2", capitals=True)
    _error(edit(text, None, "districts", "shop+office, shop+office, park+house"), "used once each", capitals=True)
    _error(edit(text, None, "district discard", "moat"), "unknown district type", capitals=True)
    city = re.search(r"  city 1: (.*)", text).group(1)
    _error(edit(text, "cities", "city 1", city.replace("~", ".", 1)), "must be that of the city's mat",
           capitals=True)
    _error(edit(text, "cities", "city 1", "empty"), "lies on its landscape mat", capitals=True)
    mats = re.search(r"mats: (.*)", text).group(1).split(", ")
    if s.game.components.mats[[m.id for m in s.game.components.mats].index(mats[0])].bridges:
        no_bridges = re.sub(r" \| bridges [^|]*", "", city)
        _error(edit(text, "cities", "city 1", no_bridges), "bridges", capitals=True)
    _error(text + "# comment only\nlanes: 3\n", "unknown line 'lanes'", capitals=True)
