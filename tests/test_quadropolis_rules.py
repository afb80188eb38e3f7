"""Quadropolis rules from positions: each test builds a position in the game's notation
(``citygames/games/quadropolis/POSITION.md``) and checks the rule through the public API only
(``legal_actions``, ``apply_action``, ``observation``, ``IllegalActionError`` naming the rule with the
state unchanged). Sources: ``shared/reference/quadropolis.md`` (§N) and the Hungarian rulebook (HU).

Scoring tables other than the towers' and the best-allocation search are tested with ``scoring.py``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from citygames.core import load_game
from citygames.core.errors import IllegalActionError
from citygames.core.rng import Rng
from citygames.games.quadropolis.components import MARKERS, TYPES
from citygames.games.quadropolis.game import SEAT_NAMES, SIDES, slot_target
from citygames.games.quadropolis.site import face_down_markers

SIDE_INDEX = {name: i for i, name in enumerate(SIDES)}


# ==============================================================================================
# building positions
# ==============================================================================================
def game(mode="classic", n=4, allocation="auto"):
    return load_game("quadropolis", mode=mode, num_players=n, allocation=allocation)


def sq(name: str) -> int:
    """``"r2c3"`` -> construction-site square ``row * 5 + col``."""
    return (int(name[1]) - 1) * 5 + int(name[3]) - 1


def space(g, name: str) -> int:
    """``"r2c3"`` -> city space of ``g``'s board."""
    return (int(name[1]) - 1) * g.board.cols + int(name[3]) - 1


def site_rows(g, rnd: int, placed: dict) -> list[str]:
    """The 5 site rows of round ``rnd``: ``placed`` puts a code, ``[code]`` (face down) or ``-`` on squares
    (``{"r1c3": "S"}``); the other squares get the round's other tiles in data order (face down by marker)."""
    hide = face_down_markers(g.num_players)
    pool = [(t.code, t.marker >= hide) for t in g.tiles if t.round == rnd]
    cells = [None] * 25
    for name, cell in placed.items():
        q = sq(name)
        cells[q] = cell
        if cell != "-":
            down = cell.startswith("[")
            code = cell.strip("[]")
            pool.remove((code.split("@")[0], down))
    for q in range(25):
        if cells[q] is None:
            code, down = pool.pop(0)
            cells[q] = f"[{code}]" if down else code
    return [", ".join(cells[r * 5:r * 5 + 5]) for r in range(5)]


def pos(mode="classic", n=4, rnd=2, turns=0, first="Blue", mayor=None, decision="take", to_move=None, taken=None,
        urbanist="beside the board", site=None, slots=(), cities=None, res=None, allocation="auto",
        alloc=None, seed=0) -> str:
    """A position text. ``slots``: ``[(side, line 1-5, k, seat)]``; ``cities``: ``{seat: [row, ...]}`` (rows as
    written, default empty); ``res``: ``{seat: (inhabitants, energy)}``; ``alloc``: ``{seat: [lines]}`` for the
    hand allocation; ``site``: ``{square: cell}`` (see ``site_rows``) or ``None`` (no site line, after the
    last round)."""
    g = game(mode, n, allocation)
    b = g.board
    seats = SEAT_NAMES[:n]
    total = n * b.turns_per_round
    if to_move is None and decision in ("take", "place"):
        to_move = seats[(seats.index(first) + turns) % n]
    lines = [f"seed: {seed}", f"round: {rnd}", f"turns taken: {turns} of {total}", f"first player: {first}",
             f"mayor: {mayor or first}", f"decision: {decision}"]
    if to_move:
        lines.append(f"to move: {to_move}")
    if taken:
        lines.append(f"taken: {taken}")
    if decision in ("take", "place"):
        lines.append(f"urbanist: {urbanist}")
        lines.append("site:")
        lines += [f"  row {i + 1}: {row}" for i, row in enumerate(site_rows(g, rnd, site or {}))]
    cells = [["-"] * 5 for _ in range(4)]
    for side, line, k, seat in slots:
        cells[SIDE_INDEX[side]][line - 1] = f"{k} {seat}"
    lines.append("slots:")
    lines += [f"  {SIDES[i]}: " + ", ".join(cells[i]) for i in range(4)]
    for seat in seats:
        inh, en = (res or {}).get(seat, (0, 0))
        lines += [f"{seat}:", f"  inhabitants: {inh}", f"  energy: {en}"]
        rows = (cities or {}).get(seat) or [", ".join(["-"] * b.cols)] * b.rows
        lines += [f"  row {i + 1}: {row}" for i, row in enumerate(rows)]
        lines += [f"  {x}" for x in (alloc or {}).get(seat, ())]
    return "\n".join(lines) + "\n"


def state(text: str, mode="classic", n=4, allocation="auto"):
    return game(mode, n, allocation).state_from_position(text)


def take_id(g, side: str, line: int, k: int) -> int:
    return g.off["take"] + (SIDE_INDEX[side] * 5 + line - 1) * 5 + k - 1


def build_id(g, name: str) -> int:
    return g.off["build"] + space(g, name)


def legal_slots(s) -> set:
    """``{(side, line, k)}`` of the legal take actions."""
    out = set()
    for a in s.legal_actions():
        if a.kind == "take":
            slot, k = divmod(a.arg, 5)
            out.add((SIDES[slot // 5], slot % 5 + 1, k + 1))
    return out


def build_spaces(s) -> set:
    b = s.game.board
    return {b.space_name(a.arg) for a in s.legal_actions() if a.kind == "build"}


def illegal(s, action, *words):
    """``action`` raises ``IllegalActionError`` whose message holds every one of ``words``, and ``s`` is unchanged."""
    before = s.to_dict()
    with pytest.raises(IllegalActionError) as err:
        s.apply_action(action)
    for w in words:
        assert w in str(err.value), (w, str(err.value))
    assert s.to_dict() == before
    return str(err.value)


def rows_of(g, cells: dict) -> list[str]:
    """City rows from ``{space name: cell}``."""
    b = g.board
    grid = [["-"] * b.cols for _ in range(b.rows)]
    for name, cell in cells.items():
        grid[int(name[1]) - 1][int(name[3]) - 1] = cell
    return [", ".join(r) for r in grid]


def place_position(mode="classic", n=4, tile="S", k=3, city=None, rnd=3, res=None):
    """Blue, first to play in round ``rnd``, has just taken ``tile`` with architect #k from the left of row 1
    (Expert #5: from the right of row 1); its city holds ``city`` (``{space: cell}``)."""
    g = game(mode, n)
    side = "left"
    target = slot_target(SIDE_INDEX[side] * 5, k)
    text = pos(mode, n, rnd=rnd, site={_name(target): tile}, cities={"Blue": rows_of(g, city or {})}, res=res)
    s = g.state_from_position(text)
    s.apply_action(take_id(g, side, 1, k))
    assert s.observation(None)["phase"] == "place"
    return s


def _name(q: int) -> str:
    return f"r{q // 5 + 1}c{q % 5 + 1}"


# ==============================================================================================
# placement (§6, HU "Épület lehelyezése a városodban")
# ==============================================================================================
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_classic_architect_k_places_in_row_k_or_column_k(k):
    """§6 [C] / HU: any empty space of the row numbered k or the column numbered k."""
    s = place_position(k=k, city={"r1c1": "K@1", "r2c2": "P0v@1"})
    g = s.game
    expect = {f"r{r}c{c}" for r in range(1, 5) for c in range(1, 5) if (r == k or c == k)} - {"r1c1", "r2c2"}
    assert build_spaces(s) == expect
    assert {g.board.space_name(x) for x in s.observation(0)["pending"]["spaces"]} == expect
    off = next(f"r{r}c{c}" for r in range(1, 5) for c in range(1, 5) if r != k and c != k and r != c)
    illegal(s, build_id(g, off), f"row or column {k}", "§6")


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_expert_architect_k_places_on_a_space_or_in_a_district_numbered_k(k):
    """§5.2, §6 [C] / HU Expert: an empty space whose own number is k, or any empty space of the district
    numbered k (numbers from data/board.yaml, PROJECT DEFAULT §12 #1)."""
    s = place_position("expert", n=2, k=k, tile="S")
    b = s.game.board
    expect = {b.space_name(x) for x in range(b.spaces)
              if b.space_number[x] == k or b.district_number[b.district[x]] == k}
    assert len(expect) == 8    # the data's hypothesis: 4 spaces numbered k + a district of 4 other spaces
    assert build_spaces(s) == expect
    off = next(b.space_name(x) for x in range(b.spaces) if b.space_name(x) not in expect)
    illegal(s, build_id(s.game, off), f"space number or district number {k}", "§6")


def test_expert_numbering_example_architect_3():
    """With the data's numbering, #3 reaches the centre column (district 3) and the spaces numbered 3."""
    s = place_position("expert", n=2, k=3, tile="S")
    assert build_spaces(s) == {"r1c3", "r2c3", "r3c3", "r4c3", "r1c2", "r1c5", "r4c1", "r4c4"}


def test_rulebook_example_architect_3_adds_a_third_floor_anywhere():
    """§11 #2, §6 [C] / HU ("a 3-as számú építészével ... egy meglévő toronyház harmadik szintjeként, még akkor
    is, ha az nem a 3. sorban vagy oszlopban van"): a 2-floor tower outside row 3 and column 3 takes a 3rd floor
    from #3, a 1-floor tower there does not take a 2nd one."""
    s = place_position(k=3, tile="T2i", city={"r1c1": "T1i@1^2", "r2c2": "T1i@2"})
    spaces = build_spaces(s)
    assert "r1c1" in spaces and "r2c2" not in spaces
    g = s.game
    illegal(s, build_id(g, "r2c2"), "height after placing equals the architect's number 3", "§6")
    s.apply_action(build_id(g, "r1c1"))
    city = s.observation(None)["players"][0]["city"]
    assert city[space(g, "r1c1")]["height"] == 3 and city[space(g, "r1c1")]["type"] == "tower"


def test_stacking_only_on_the_same_kind():
    """§6 [C]: only tower blocks (and offices in Expert) stack, and only on their own kind."""
    s = place_position(k=3, tile="T2i", city={"r3c1": "S@1", "r3c2": "T1i@2^2", "r3c4": "T1i@1"})
    spaces = build_spaces(s)
    assert "r3c1" not in spaces         # a tower onto a shop, in row 3
    assert "r3c2" in spaces             # a tower onto a tower in row 3
    assert "r3c4" in spaces             # in row 3 a 2nd floor is allowed with #3 (the normal rule, §6 (a))
    illegal(s, build_id(s.game, "r3c1"), "only tower blocks", "own kind", "§6")
    s = place_position(k=3, tile="S", city={"r3c1": "S@1", "r1c1": "T1i@1^2"})
    assert "r3c1" not in build_spaces(s) and "r1c1" not in build_spaces(s)
    illegal(s, build_id(s.game, "r3c1"), "only tower blocks", "§6")


def test_offices_stack_in_expert():
    """§6 [C] / HU Expert ("Egymásra építhető 5 magasságig"): office towers stack on offices."""
    s = place_position("expert", n=4, k=2, tile="O", city={"r1c1": "O@1^1", "r3c3": "O@2"})
    spaces = build_spaces(s)
    assert "r1c1" in spaces              # height after = 2 = k
    assert "r3c3" in spaces
    s.apply_action(build_id(s.game, "r3c3"))
    assert s.observation(None)["players"][0]["city"][space(s.game, "r3c3")]["height"] == 2


def test_maximum_height_classic_4_expert_5():
    """§6 [C]: towers stack up to 4 floors (Classic), 5 (Expert)."""
    s = place_position(k=3, tile="T2i", city={"r3c1": "T1i@1^4"})
    assert "r3c1" not in build_spaces(s)
    illegal(s, build_id(s.game, "r3c1"), "at most 4 floors", "§6")
    s = place_position("expert", n=4, k=5, tile="T2i", city={"r1c1": "T1i@1^4"})
    assert "r1c1" in build_spaces(s)     # 5th floor with #5
    s = place_position("expert", n=4, k=4, tile="T2i", city={"r3c3": "T1i@1^5"})
    assert "r3c3" not in build_spaces(s)
    illegal(s, build_id(s.game, "r3c3"), "at most 5 floors", "§6")


def test_a_tile_that_fits_nowhere_goes_back_to_the_box_without_resources():
    """§6 [C], §10 #12 / HU ("tedd vissza az épületet a dobozba ... nem jár erőforrás"): no placement, no
    resources; the Urbanist has moved and the turn is over."""
    full = {"r1c1": "K@1", "r1c2": "K@1", "r1c3": "K@1", "r1c4": "K@2", "r2c1": "K@2", "r3c1": "K@2",
            "r4c1": "P0v@1"}       # row 1 and column 1 full
    g = game()
    text = pos(rnd=3, site={"r1c1": "H1i1e"}, cities={"Blue": rows_of(g, full)}, res={"Blue": (2, 1)})
    s = g.state_from_position(text)
    s.apply_action(take_id(g, "left", 1, 1))
    o = s.observation(None)
    assert o["phase"] == "take" and o["current_player"] == 1 and o["urbanist"] == 0
    assert (o["players"][0]["inhabitants"], o["players"][0]["energy"]) == (2, 1)
    assert o["site"][0]["tile"] is None
    assert [e.data.get("forced") for e in s.log if e.kind == "quadropolis.discard"] == [True]


def test_a_placeable_tile_may_be_put_back():
    """§12 #6 PROJECT DEFAULT [I-M]: discarding a placeable tile is allowed; it gives nothing."""
    s = place_position(k=2, tile="H1i1e", res={"Blue": (0, 0)})
    legal = s.legal_actions()
    assert legal[-1].kind == "discard" and any(a.kind == "build" for a in legal)   # placements listed first
    s.apply_action(s.game.off["discard"])
    p = s.observation(None)["players"][0]
    assert (p["inhabitants"], p["energy"], p["empty_spaces"]) == (0, 0, 16)


@pytest.mark.parametrize("tile,gain", [("H1i1e", (1, 1)), ("F3e", (0, 3)), ("T3i", (3, 0)), ("S", (0, 0))])
def test_resources_are_taken_when_the_tile_is_placed(tile, gain):
    """§7 [C] / HU step 4: the resources shown on the tile, when it is placed."""
    s = place_position(k=2, tile=tile, res={"Blue": (1, 1)})
    p = s.observation(None)["players"][0]
    assert (p["inhabitants"], p["energy"]) == (1, 1)      # nothing on taking
    s.apply_action(build_id(s.game, "r2c2"))
    p = s.observation(None)["players"][0]
    assert (p["inhabitants"], p["energy"]) == (1 + gain[0], 1 + gain[1])


# ==============================================================================================
# the construction site, architects and the Urbanist (§4, HU "Épület elvétele")
# ==============================================================================================
@pytest.mark.parametrize("side", SIDES)
def test_architect_k_takes_the_kth_square_from_its_edge(side):
    """§4 [C] / HU ("ha egy hármas számú építészt helyezel a negyedik sorba, akkor az adott sor 3. mezőjén
    lévő épületet fogod megkapni"): from each of the 4 sides, #k takes the k-th square counted from that edge."""
    g = game("expert", 4)
    for line in range(1, 6):
        for k in range(1, 6):
            if side in ("top", "bottom"):
                row = k if side == "top" else 6 - k
                name = f"r{row}c{line}"
            else:
                col = k if side == "left" else 6 - k
                name = f"r{line}c{col}"
            s = g.state_from_position(pos("expert", 4, rnd=1, site={name: "T3i"}))
            a = take_id(g, side, line, k)
            assert g.action_json(s, s.game.decode(a))["square"] == sq(name)
            s.apply_action(a)
            o = s.observation(None)
            assert o["pending"]["tile"] is not None and g.tiles[o["pending"]["tile"]].code == "T3i"
            assert o["urbanist"] == sq(name)


def test_classic_architects_1_to_4_cannot_reach_the_far_square_from_one_side():
    """§4 [C]: Classic #1-#4 never reach the 5th square from their edge, but reach it from the other side."""
    s = state(pos())
    targets = {slot_target(a.arg // 5, a.arg % 5 + 1) for a in s.legal_actions()}
    assert targets == set(range(25))
    assert all(a.arg % 5 + 1 <= 4 for a in s.legal_actions())


def _after_first_take(mode="classic", n=4, side="left", line=2, k=3):
    g = game(mode, n)
    s = g.state_from_position(pos(mode, n, rnd=1))
    s.apply_action(take_id(g, side, line, k))
    s.apply_action(g.off["discard"])
    return s


def test_the_urbanist_blocks_its_whole_row_and_column_for_every_number():
    """§4 [C], §10 #1 / HU ("az építészed az urbanistafigurára mutatna"): after #3 left of row 2 took r2c3, no
    architect of any number may go in a slot of row 2 or column 3."""
    s = _after_first_take()
    assert s.observation(None)["urbanist"] == sq("r2c3")
    slots = legal_slots(s)
    assert not {x for x in slots if x[:2] in (("left", 2), ("right", 2), ("top", 3), ("bottom", 3))}
    assert {x[2] for x in slots} == {1, 2, 3, 4}
    assert len(slots) == (20 - 1 - 3) * 4          # the slot used and the 3 other blocked slots are out
    blocked = [o for o in s.observation(None)["slots"] if o["blocked"]]
    assert len(blocked) == 4
    for k in (1, 4):
        illegal(s, take_id(s.game, "right", 2, k), "row or column of the Urbanist", "§4")
        illegal(s, take_id(s.game, "bottom", 3, k), "row or column of the Urbanist", "§4")


def test_classic_has_no_architect_5():
    """§2, §4 [C]: Classic architects are #1-#4; #5 comes with the Expert game."""
    s = state(pos())
    assert all(a.arg % 5 + 1 <= 4 for a in s.legal_actions() if a.kind == "take")
    illegal(s, take_id(s.game, "left", 1, 5), "architects #1-#4 only", "§2")


def test_an_occupied_slot_cannot_be_used():
    """§4 [C] / HU ("már van ott egy építész"): a slot holding an architect this round."""
    g = game()
    text = pos(rnd=2, turns=2, urbanist="r4c3", site={"r2c3": "-", "r4c3": "-"},
               slots=[("left", 2, 3, "Blue"), ("top", 3, 4, "Red")])
    s = g.state_from_position(text)
    assert s.observation(None)["current_player"] == 2
    illegal(s, take_id(g, "left", 2, 1), "already holds an architect", "§4")


def test_both_ends_of_a_line_may_be_used():
    """§10 #3 [C] / GIOP: the opposite end of a line is another slot, usable while the Urbanist is not in that
    line."""
    g = game()
    text = pos(rnd=2, turns=2, urbanist="r4c3", site={"r2c3": "-", "r4c3": "-"},
               slots=[("left", 2, 3, "Blue"), ("top", 3, 4, "Red")])
    s = g.state_from_position(text)
    assert ("right", 2, 2) in legal_slots(s)
    s.apply_action(take_id(g, "right", 2, 2))      # the 2nd square from the right of row 2: r2c4
    assert s.observation(None)["urbanist"] == sq("r2c4")


def test_the_urbanist_moves_to_an_empty_square_and_nothing_is_taken():
    """§4 [C], §10 #2 / HU ("Ha nem vettél el épületlapkát a körben, akkor is tedd arra helyre"): pointing at a
    square emptied earlier this round takes nothing, moves the Urbanist there and ends the turn."""
    g = game()
    text = pos(rnd=2, turns=2, urbanist="r4c3", site={"r2c3": "-", "r4c3": "-"},
               slots=[("left", 2, 3, "Blue"), ("top", 3, 4, "Red")], res={"Green": (1, 1)})
    s = g.state_from_position(text)
    s.apply_action(take_id(g, "right", 2, 3))      # r2c3: empty
    o = s.observation(None)
    assert o["urbanist"] == sq("r2c3") and o["phase"] == "take" and o["current_player"] == 3
    assert o["players"][2]["empty_spaces"] == 16 and o["players"][2]["inhabitants"] == 1


def test_the_urbanist_moves_to_a_face_down_tile_which_stays():
    """§4, §10 #2, §12 #5 PROJECT DEFAULT [U]: a face-down tile (2 players: markers "3-4" and "4") cannot be
    taken; the Urbanist still moves there."""
    g = game("classic", 2)
    s = g.state_from_position(pos("classic", 2, rnd=1, site={"r1c2": "[T2i]"}))
    assert s.observation(0)["site"][1]["face_down"]
    s.apply_action(take_id(g, "top", 2, 1))
    o = s.observation(None)
    assert o["urbanist"] == 1 and o["site"][1]["face_down"] and o["phase"] == "take" and o["current_player"] == 1
    assert s.position().count("[T2i") >= 1


def test_classic_each_architect_once_a_round_per_player():
    """§2, §3 [C] / HU: each player owns #1-#4 and uses each once a round."""
    s = _after_first_take()             # Blue used #3; Red to move
    assert {x[2] for x in legal_slots(s)} == {1, 2, 3, 4}
    s.apply_action(take_id(s.game, "top", 1, 3))
    if s.observation(None)["phase"] == "place":
        s.apply_action(s.game.off["discard"])
    for _ in range(2):                  # Green, Yellow
        a = next(a for a in s.legal_actions() if a.kind == "take")
        s.apply_action(a)
        if s.observation(None)["phase"] == "place":
            s.apply_action(s.game.off["discard"])
    assert s.observation(None)["current_player"] == 0
    assert {x[2] for x in legal_slots(s)} == {1, 2, 4}
    assert s.observation(0)["players"][0]["architects"] == [1, 2, 4]
    free = next(x for x in legal_slots(s))
    illegal(s, take_id(s.game, free[0], free[1], 3), "already used its architect #3", "§3")


def test_expert_shared_pool_of_n_copies():
    """§4 [C] / HU Expert ("Minden egyes számból annyi építésznek kell lennie, ahányan játszunk"): at 2 players
    two #5s; once both are used, nobody has a #5 this round, and a player may use the same number twice."""
    g = game("expert", 2)
    s = g.state_from_position(pos("expert", 2, rnd=1))
    assert s.observation(None)["pool"] == {1: 2, 2: 2, 3: 2, 4: 2, 5: 2}
    seq = [("left", 1, 5), ("left", 2, 5)]
    for side, line, k in seq:
        s.apply_action(take_id(g, side, line, k))
        if s.observation(None)["phase"] == "place":
            s.apply_action(g.off["discard"])
    assert s.observation(None)["pool"][5] == 0
    assert 5 not in {x[2] for x in legal_slots(s)}
    illegal(s, take_id(g, "left", 4, 5), "no architect #5 is left in the pool", "§4")
    # Blue uses #1 twice in the round (Red uses a #2 in between)
    for side, line, k in (("left", 4, 1), ("top", 3, 2), ("left", 5, 1)):
        s.apply_action(take_id(g, side, line, k))
        if s.observation(None)["phase"] == "place":
            s.apply_action(g.off["discard"])
    assert s.observation(None)["pool"][1] == 0


# ==============================================================================================
# rounds, turn order and the Mayor (§3, §10 #11)
# ==============================================================================================
def _play_round_out(s, seen=None):
    """Plays the first legal action (discarding every tile) until the round changes; ``seen`` collects the
    players to move at each take."""
    r = s.observation(None)["round"]
    while s.observation(None)["round"] == r and not s.is_terminal():
        o = s.observation(None)
        if o["phase"] == "take" and seen is not None:
            seen.append(o["current_player"])
        legal = s.legal_actions()
        a = next((a for a in legal if a.kind == "discard"), legal[0])
        s.apply_action(a)


def test_turn_order_clockwise_from_the_mayor_and_4_turns_each():
    """§3 [C] / HU: clockwise from the first player (the Mayor's holder), every player takes 4 turns."""
    s = state(pos(rnd=2, first="Green"))
    seen = []
    _play_round_out(s, seen)
    assert seen == [2, 3, 0, 1] * 4


def test_the_builder_of_the_mayor_tower_takes_the_mayor_and_starts_the_next_round():
    """§10 #11 [C] / HU ("Amikor valaki ezt megépíti, azonnal megkapja a polgármester-figurát"; "Az lesz a
    kezdőjátékos, akinél a polgármester-figura van"): the Mayor moves at once; the round's order does not
    change; the builder starts the next round."""
    g = game()
    s = g.state_from_position(pos(rnd=2, site={"r1c3": "T1i*"}, first="Blue"))
    s.apply_action(take_id(g, "left", 1, 1))        # Blue takes something at r1c1
    if s.observation(None)["phase"] == "place":
        s.apply_action(g.off["discard"])
    s.apply_action(take_id(g, "top", 3, 1))         # Red takes the mayor tower at r1c3
    assert g.tiles[s.observation(None)["pending"]["tile"]].mayor
    s.apply_action(s.legal_actions()[0])            # builds it
    o = s.observation(None)
    assert o["mayor"] == 1 and o["first_player"] == 0 and o["current_player"] == 2
    seen = []
    _play_round_out(s, seen)
    assert seen[:2] == [2, 3]                       # the order of this round did not change
    o = s.observation(None)
    assert o["round"] == 3 and o["first_player"] == 1 and o["current_player"] == 1 and o["mayor"] == 1


def test_a_discarded_mayor_tower_leaves_the_mayor_where_it_is():
    """§12 #7 [I-M] / HU ("Ha ezt a toronyház lapkát senki nem építi fel, a polgármester-figura nem cserél
    gazdát")."""
    g = game()
    s = g.state_from_position(pos(rnd=2, site={"r1c1": "T1i*"}, first="Blue"))
    s.apply_action(take_id(g, "left", 1, 1))
    s.apply_action(g.off["discard"])
    assert s.observation(None)["mayor"] == 0
    s2 = g.state_from_position(pos(rnd=2, site={"r1c1": "T1i*"}, first="Red"))
    s2.apply_action(take_id(g, "left", 1, 1))       # Red takes the mayor tower and puts it back
    s2.apply_action(g.off["discard"])
    assert s2.observation(None)["mayor"] == 1
    _play_round_out(s2)
    assert s2.observation(None)["first_player"] == 1


def test_end_of_round_discards_the_leftovers_and_returns_the_architects():
    """§3 [C] / HU "Forduló vége": the tiles left go back to the box, the architects return, the Urbanist goes
    beside the board; the next round deals its 25 tiles."""
    for mode in ("classic", "expert"):
        g = game(mode, 3)
        s = g.state_from_position(pos(mode, 3, rnd=2))
        _play_round_out(s)
        o = s.observation(None)
        assert o["round"] == 3 and o["turn"] == 0 and o["urbanist"] is None
        assert all(x["architect"] is None for x in o["slots"])
        if mode == "classic":
            assert all(p["architects"] == [1, 2, 3, 4] for p in o["players"])
        else:
            assert o["pool"] == {k: 3 for k in range(1, 6)}
        ends = [e for e in s.log if e.kind == "quadropolis.round_end"]
        assert len(ends) == 1 and ends[0].data["discarded"] >= 25 - 12      # 12 turns took at most 12 tiles
        round3 = Counter(t.idx for t in g.tiles if t.round == 3)
        full = s.to_dict()["site"]
        assert Counter(full) == round3


def test_the_game_ends_after_the_last_round():
    """§3 [C]: after round 4 (Classic) or 5 (Expert)."""
    for mode, rounds in (("classic", 4), ("expert", 5)):
        g = game(mode, 2)
        s = g.state_from_position(pos(mode, 2, rnd=rounds))
        _play_round_out(s)
        assert s.is_terminal() and s.observation(None)["round"] == rounds


# ==============================================================================================
# §11 worked examples
# ==============================================================================================
def test_16th_turn_has_a_legal_slot_over_many_seeded_games():
    """§11 #4 (arithmetic): with 4 players, on the 16th turn of a round 15 slots are used and the Urbanist
    blocks at most 4 of the 5 free ones. In fact at least 2 stay legal: the slot that moved the Urbanist is
    itself in its row or column, so at most 3 of the free slots are blocked."""
    for mode in ("classic", "expert"):
        g = game(mode, 4)
        for seed in range(25):
            s = g.new_initial_state(seed)
            rng = Rng(seed)
            while not s.is_terminal():
                o = s.observation(None)
                if o["phase"] == "take" and o["turn"] == 15:
                    slots = {a.arg // 5 for a in s.legal_actions()}
                    assert len(slots) >= 2, (mode, seed, o["round"])
                legal = s.legal_actions()
                s.apply_action(legal[rng.randbelow(len(legal))])


def test_16th_turn_worst_case_position():
    """§11 #4, constructed worst case: 15 slots used, the Urbanist at r1c1 so that 3 of the 5 free slots are in
    its row or column (the 4th is the slot of the architect that moved it there): Yellow's last architect #4
    has exactly the 2 other free slots."""
    g = game()
    free = {("top", 1), ("bottom", 1), ("right", 1), ("top", 5), ("bottom", 5)}
    occupied = [(side, line) for side in SIDES for line in range(1, 6) if (side, line) not in free]
    occupied.remove(("left", 1))
    numbers = [("Blue", k) for k in (1, 2, 3, 4)] + [("Red", k) for k in (1, 2, 3, 4)] + \
        [("Green", k) for k in (2, 3, 4)] + [("Yellow", k) for k in (1, 2, 3)]
    slots = [(side, line, k, seat) for (side, line), (seat, k) in zip(occupied, numbers)] + [("left", 1, 1, "Green")]
    assert len(slots) == 15
    targets = {slot_target(SIDE_INDEX[side] * 5 + line - 1, k) for side, line, k, _ in slots}
    site = {_name(q): "-" for q in targets}
    s = g.state_from_position(pos(rnd=1, turns=15, urbanist="r1c1", site=site, slots=slots))
    assert s.observation(None)["current_player"] == 3
    assert legal_slots(s) == {("top", 5, 4), ("bottom", 5, 4)}


@pytest.mark.parametrize("mode", ["classic", "expert"])
def test_face_up_tiles_per_round_by_player_count(mode):
    """§11 #5 (FCG counts) / HU setup: 25, 20, 16 face-up tiles at 4, 3, 2 players, every round (Expert markers:
    PROJECT DEFAULT §12 #2)."""
    for n, up in ((4, 25), (3, 20), (2, 16)):
        g = game(mode, n)
        s = g.new_initial_state(3)
        seen = set()
        while not s.is_terminal():
            o = s.observation(None)
            if o["turn"] == 0 and o["phase"] == "take" and o["round"] not in seen:
                seen.add(o["round"])
                assert sum(1 for x in o["site"] if x["tile"] is not None) == up, (n, o["round"])
                assert sum(1 for x in o["site"] if x["face_down"]) == 25 - up
            legal = s.legal_actions()
            s.apply_action(legal[0])
        assert seen == set(range(1, g.board.rounds + 1))


def test_box_totals_and_type_counts():
    """§11 #6, §9.1 [C]: 142 = 100 + 125 - 83 and the per-type counts of the box and of each mode."""
    g = game()
    c = g.components
    classic = Counter(TYPES[t.type] for t in c.tiles["classic"])
    expert = Counter(TYPES[t.type] for t in c.tiles["expert"])
    assert sum(classic.values()) == 100 and sum(expert.values()) == 125
    assert c.box["tiles"] == 142 and c.box["shared_between_modes"] == 83
    assert sum(classic.values()) + sum(expert.values()) - c.box["shared_between_modes"] == c.box["tiles"]
    assert dict(classic) == {"tower": 26, "shop": 12, "public": 16, "park": 13, "factory": 15, "harbour": 18}
    assert dict(expert) == {"tower": 26, "shop": 14, "public": 17, "park": 13, "factory": 15, "harbour": 19,
                            "office": 17, "monument": 4}
    box = c.box["by_type"]
    assert box == {"tower": 32, "shop": 15, "public": 19, "park": 15, "factory": 19, "harbour": 21, "office": 17,
                   "monument": 4}
    assert sum(box.values()) == 142
    shared = {t: classic[t] + expert[t] - box[t] for t in box}
    assert shared == {"tower": 20, "shop": 11, "public": 14, "park": 11, "factory": 11, "harbour": 16, "office": 0,
                      "monument": 0}
    assert sum(shared.values()) == 83
    # 25 tiles a round (§3 [I-H]), one mayor tower in every round but the last (§9, HU)
    for mode in ("classic", "expert"):
        rounds = Counter(t.round for t in c.tiles[mode])
        assert set(rounds.values()) == {25}
        mayors = Counter(t.round for t in c.tiles[mode] if t.mayor)
        last = c.boards[mode].rounds
        assert mayors == {r: 1 for r in range(1, last)}
    # Expert monuments by marker (§9.3 [C], HU): none in R1, R2 and R3 unmarked, R4 "3-4", R5 "4"
    mons = {t.round: MARKERS[t.marker] for t in c.tiles["expert"] if TYPES[t.type] == "monument"}
    assert mons == {2: "all", 3: "all", 4: "3-4", 5: "4"}


# ==============================================================================================
# the end: hand allocation, towers, tie-break (§7, §8)
# ==============================================================================================
def _end_slots(n):
    """Every seat's 4 architects in slots (the last round's, still there at the end)."""
    out = []
    slots = [(side, line) for side in SIDES for line in range(1, 6)]
    i = 0
    for seat in SEAT_NAMES[:n]:
        for k in range(1, 5):
            out.append((*slots[i], k, seat))
            i += 1
    return out


def end_pos(cities, res, decision="allocate", to_move="Blue", mayor="Blue", alloc=None, n=2, mode="classic",
            allocation="manual"):
    g = game(mode, n, allocation)
    rounds = g.board.rounds
    rows = {seat: rows_of(g, c) for seat, c in cities.items()}
    text = pos(mode, n, rnd=rounds, turns=4 * n, first=mayor, mayor=mayor, decision=decision,
               to_move=to_move if decision != "end" else None, slots=_end_slots(n), cities=rows, res=res,
               allocation=allocation, alloc=alloc)
    return g.state_from_position(text)


def test_hand_allocation_activation_costs_and_customers():
    """§7 [C] / HU "Épületek aktiválása": a tower or a shop costs 1 energy; customers go only on activated
    shops, up to 4 (Classic); what is held bounds what is allocated."""
    s = end_pos({"Blue": {"r1c1": "T1i@1^3", "r1c2": "S@1", "r2c2": "S@2"}}, {"Blue": (5, 1)})
    g = s.game
    kinds = {(a.kind, g.board.space_name(a.arg) if a.kind in ("activate", "customer") else None)
             for a in s.legal_actions()}
    assert kinds == {("activate", "r1c1"), ("activate", "r1c2"), ("activate", "r2c2"), ("best", None),
                     ("finish", None)}
    illegal(s, g.off["customer"] + space(g, "r1c2"), "a shop needs its energy", "§7")
    s.apply_action(g.off["activate"] + space(g, "r1c2"))        # the only energy goes on the shop
    legal = {(a.kind, a.arg) for a in s.legal_actions()}
    assert ("activate", space(g, "r1c1")) not in legal
    illegal(s, g.off["activate"] + space(g, "r1c1"), "not enough inhabitants or energy", "§7")
    for _ in range(4):
        s.apply_action(g.off["customer"] + space(g, "r1c2"))
    illegal(s, g.off["customer"] + space(g, "r1c2"), "at most 4 customers", "§7")
    illegal(s, g.off["customer"] + space(g, "r2c2"), "a shop needs its energy", "§7")
    p = s.observation(0)["players"][0]
    assert p["city"][space(g, "r1c2")]["customers"] == 4 and p["city"][space(g, "r1c2")]["active"]
    s.apply_action(g.off["finish"])
    o = s.observation(None)
    assert o["current_player"] == 1 and o["players"][0]["allocated"]
    # the tower was not activated: removed before scoring, it scores nothing; 1 inhabitant is left unused
    assert s.score_breakdown(0)["towers"] == 0
    assert s.score_breakdown(0)["inhabitants"] == -1


def test_hand_allocation_tower_scores_from_the_players_choice():
    """§7, §8 [C]: an activated tower of 3 floors scores 6 (towers table 1/3/6/10), a non-activated one 0;
    scores follow the hand allocation, ``best`` applies the best allocation and finishes."""
    cities = {"Blue": {"r1c1": "T1i@1^3"}, "Red": {"r4c4": "T1i@2^4"}}
    s = end_pos(cities, {"Blue": (0, 1), "Red": (0, 1)})
    g = s.game
    s.apply_action(g.off["activate"] + space(g, "r1c1"))
    s.apply_action(g.off["finish"])
    assert s.score_breakdown(0)["towers"] == 6
    s.apply_action(g.off["best"])
    assert s.is_terminal()
    assert s.score_breakdown(1)["towers"] == 10
    assert s.observation(None)["players"][1]["allocated"]
    assert s.winners() == [1] and s.returns() == [0.0, 1.0]


def test_hand_allocation_goes_clockwise_from_the_mayor():
    """end.py / §7: with allocation=manual each player allocates in turn, from the Mayor's holder."""
    s = end_pos({}, {}, n=3, to_move="Red", mayor="Red")
    order = []
    while not s.is_terminal():
        order.append(s.current_player())
        s.apply_action(s.game.off["finish"])
    assert order == [1, 2, 0]


def test_tie_break_most_inhabitants():
    """§8 Tie-break [C] / HU ("Döntetlen esetén a legtöbb lakossal rendelkező játékos a győztes"): equal VP, the
    player holding more inhabitants wins (§12 #9: held)."""
    cities = {"Blue": {"r1c1": "T1i@1"}, "Red": {}}
    alloc = {"Blue": ["allocated: yes", "active: r1c1", "customers: none"],
             "Red": ["allocated: yes", "active: none", "customers: none"]}
    s = end_pos(cities, {"Blue": (1, 1), "Red": (0, 0)}, decision="end", alloc=alloc)
    assert s.scores() == [0, 0]                    # 1 (tower) - 1 (unused inhabitant) = 0
    assert s.winners() == [0] and s.ranking() == [0, 1] and s.returns() == [1.0, 0.0]


def test_tie_break_fewest_empty_spaces():
    """§8 Tie-break [C] / HU ("akinek kevesebb üres helye maradt városában"): equal VP and inhabitants, the city
    with fewer empty spaces wins (a non-activated building still fills its space)."""
    cities = {"Blue": {"r1c1": "T1i@1"}, "Red": {"r1c1": "T1i@2", "r4c4": "T2i@1"}}
    alloc = {"Blue": ["allocated: yes", "active: r1c1", "customers: none"],
             "Red": ["allocated: yes", "active: r1c1", "customers: none"]}
    s = end_pos(cities, {"Blue": (0, 1), "Red": (0, 1)}, decision="end", alloc=alloc)
    assert s.scores() == [1, 1]
    assert [s.empty_spaces(p) for p in (0, 1)] == [15, 14]
    assert s.winners() == [1] and s.ranking() == [1, 0] and s.returns() == [0.0, 1.0]


def test_full_tie_shares_the_victory():
    """§8: seats tied on VP, inhabitants and empty spaces share the win (``returns`` splits 1.0)."""
    cities = {"Blue": {"r1c1": "T1i@1"}, "Red": {"r2c2": "T1i@2"}, "Green": {}}
    active = {"Blue": "r1c1", "Red": "r2c2", "Green": "none"}
    alloc = {seat: ["allocated: yes", f"active: {a}", "customers: none"] for seat, a in active.items()}
    s = end_pos(cities, {"Blue": (0, 1), "Red": (0, 1)}, decision="end", alloc=alloc, n=3)
    assert s.scores() == [1, 1, 0]
    assert sorted(s.winners()) == [0, 1]
    assert s.returns() == [0.5, 0.5, 0.0]
    assert s.observation(None)["result"]["winners"] == s.winners()
