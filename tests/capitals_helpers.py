"""Helpers for The Capitals rule tests (``tests/test_capitals_rules.py``).

They set up situations in a seeded game: set a track, put a tile at city coordinates, move the
phase machine to a given player's decision, find a legal action, drive the game with legal
actions. Coordinates are the engine's city coordinates: the Hotel is (0, 0), the City Hall
(1, 0), y grows downwards; the two construction tokens start on corners (1, 0) and (1, 1)
(the top-left corners of the City Hall and of the slot below it).
"""

from __future__ import annotations

import citygames
from citygames.games.the_capitals import components as _comp
from citygames.games.the_capitals.components import MONEY, NT, NTYPES, components
from citygames.games.the_capitals.state import (P_BUILDING, P_EXECUTIVE, P_POLITICS, S_ACTIVATE, S_NONE,
                                                S_POLITICS, S_TAKE, S_UPGRADE)

C = components()


def new_state(n: int = 4, seed: int = 0):
    """A fresh seeded game of ``n`` players (round 1, first player's building decision pending)."""
    return citygames.load_game("the_capitals", num_players=n).new_initial_state(seed)


def tile(tile_id: str) -> int:
    """Index of the tile with data id ``tile_id`` (``"opera_house"``)."""
    return C.tile_by_id[tile_id].idx


def slot(s, x: int, y: int) -> int:
    return s.game.slot_at(x, y)


def get(s, p: int, track: int) -> int:
    return s.t[p * NT + track]


def set_track(s, p: int, track: int, value: int) -> None:
    s.t[p * NT + track] = value
    s._legal = None


def set_tracks(s, p: int, **values) -> None:
    """``set_tracks(s, 0, CULTURE=5, MONEY=20)`` with the track index names of components.py."""
    for name, v in values.items():
        set_track(s, p, getattr(_comp, name), v)


def put(s, p: int, tile_id: str, x: int, y: int) -> int:
    """Put a tile in seat ``p``'s city at (x, y) *without* resolving anything (scenery)."""
    idx = tile(tile_id)
    _withdraw(s, idx)
    sl = slot(s, x, y)
    assert sl not in s.city[p], "slot already occupied"
    s.city[p][sl] = idx
    s.tcount[p * NTYPES + C.tiles[idx].type] += 1
    s._legal = None
    return sl


def _withdraw(s, idx: int) -> None:
    """Remove a tile from the decks and the projects area (so it exists only once)."""
    for d in s.decks:
        if idx in d:
            d.remove(idx)
    for row in s.projects:
        if idx in row:
            row.remove(idx)


def act(s, kind: str, arg: int = 0):
    """The action object of ``kind`` with argument ``arg`` (legal or not)."""
    g = s.game
    return g.action_space.table[g.off[kind] + arg]


def legal_args(s, kind: str) -> list[int]:
    return [a.arg for a in s.legal_actions() if a.kind == kind]


def to_building(s, p: int, tile_ids=(), row: int = 0) -> None:
    """Put ``tile_ids`` on projects row ``row`` and move the machine to ``p``'s take decision."""
    for tid in tile_ids:
        idx = tile(tid)
        _withdraw(s, idx)
        s.projects[row].append(idx)
    s.upg = [0] * s.n
    s.phase = P_BUILDING
    s.turn = s.order.index(p)
    s.step = S_NONE
    s.ctx_tile = -1
    s._legal = None
    s._advance()
    assert s.player == p and s.step == S_TAKE


def play_build(s, p: int, tile_id: str, x: int, y: int, row: int = 0) -> None:
    """Seat ``p`` takes ``tile_id`` from row ``row`` and builds it at (x, y), with public actions.

    A power-plant upgrade the build offers is declined, so the machine stops at the next
    player's decision.
    """
    to_building(s, p, [tile_id], row)
    s.apply_action(act(s, "take", tile(tile_id)))
    s.apply_action(act(s, "place", slot(s, x, y)))
    while s.step == S_UPGRADE and s.player == p:
        s.apply_action(act(s, "decline"))


def to_executive(s, p: int, acts: int = 1) -> None:
    """Start seat ``p``'s executive turn with ``acts`` activations (tourists all unused)."""
    s.upg = [0] * s.n
    s.phase = P_EXECUTIVE
    s.turn = s.order.index(p)
    s.player = p
    s.exec_active = True
    s.acts_left = acts
    s.acts_made = 0
    s.t_used = [False] * s.n
    s.step = S_NONE
    s._legal = None
    s._advance()
    assert s.player == p and s.step == S_ACTIVATE


def drive(s, until, limit: int = 5000, prefer: tuple = ()) -> None:
    """Apply legal actions until ``until(s)`` holds: the first legal action of a kind in
    ``prefer`` if there is one (e.g. ``("end_activations", "decline")``), else the first one."""
    for _ in range(limit):
        if until(s):
            return
        legal = s.legal_actions()
        s.apply_action(next((a for a in legal if a.kind in prefer), legal[0]))
    raise AssertionError("drive: condition not reached")


def drive_to_politics(s, rnd: int) -> None:
    """Play first legal actions until the round-``rnd`` politics phase asks its first player."""
    drive(s, lambda st: st.round == rnd and st.phase == P_POLITICS and st.step == S_POLITICS)


def choose_space(s, space: int) -> int:
    """The player to move picks initiative ``space`` (0-based); returns the $ it paid."""
    p = s.player
    before = get(s, p, MONEY)
    s.apply_action(act(s, "initiative", space))
    return before - get(s, p, MONEY)


# ----------------------------------------------------------------------------------------------
# the Prosperity expansion (tests/test_capitals_prosperity.py)
# ----------------------------------------------------------------------------------------------
def new_pros_state(n: int = 3, seed: int = 0):
    """A fresh seeded game of ``n`` players with the Prosperity expansion."""
    return citygames.load_game("the_capitals", num_players=n, prosperity=True).new_initial_state(seed)


def parg(tile_id: str) -> int:
    """Argument of the ``prosperity`` / ``lake`` actions for prosperity tile ``tile_id``."""
    return tile(tile_id) - C.prosperity_tiles[0]


def give(s, p: int, *tile_ids: str) -> None:
    """Make sure seat ``p``'s hand holds these prosperity tiles. Each one missing is swapped with a
    tile of ``p``'s hand that was not asked for (so every hand and the box keep their sizes)."""
    hand = s.hand[p]
    wanted = {tile(t) for t in tile_ids}
    for tid in tile_ids:
        x = tile(tid)
        if x in hand:
            continue
        src = next(h for h in [*s.hand, s.pbox] if x in h)
        src.remove(x)
        spare = next((y for y in hand if y not in wanted), None)
        if spare is not None:
            hand.remove(spare)
            src.append(spare)
        hand.append(x)
    for h in s.hand:
        h.sort()
    s._legal = None


def unseen(s, tile_id: str) -> None:
    """Take a prosperity tile out of every hand and the box (before putting it in a city as scenery)."""
    x = tile(tile_id)
    for h in [*s.hand, s.pbox]:
        if x in h:
            h.remove(x)
    s._legal = None


def far_slot(s, p: int) -> tuple[int, int]:
    """City coordinates of an empty slot of seat ``p`` far from the starting tiles and from every
    other slot this returned (for scenery that must not be adjacent to anything)."""
    for y in range(6, 20, 2):
        for x in range(-12, 13, 2):
            if slot(s, x, y) not in s.city[p]:
                return x, y
    raise AssertionError("no far slot left")


def to_prosperity(s, p: int, rnd: int = 3) -> None:
    """Move the machine to seat ``p``'s prosperity decision at the end of round ``rnd``'s
    administration phase (build a prosperity tile or a Lake)."""
    from citygames.games.the_capitals.state import P_PROSPERITY, S_PROSPERITY
    s.round = rnd
    s.upg = [0] * s.n
    s.phase = P_PROSPERITY
    s.turn = s.order.index(p)
    s.pstage = 0
    s.extra_pending = False
    s.step = S_NONE
    s.ctx_tile = -1
    s._legal = None
    s._advance()
    assert s.player == p and s.step == S_PROSPERITY


def build_prosperity(s, p: int, tile_id: str, x: int, y: int, rnd: int = 3) -> None:
    """Seat ``p`` builds prosperity tile ``tile_id`` at (x, y) in round ``rnd``'s prosperity step,
    with public actions (the tile is given to ``p`` first; the build must be legal)."""
    from citygames.games.the_capitals.state import S_PLACE
    give(s, p, tile_id)
    to_prosperity(s, p, rnd)
    s.apply_action(act(s, "prosperity", parg(tile_id)))
    assert s.step == S_PLACE and s.player == p
    s.apply_action(act(s, "place", slot(s, x, y)))


def build_lake(s, p: int, tile_id: str, x: int, y: int, rnd: int = 3) -> None:
    """Seat ``p`` reveals ``tile_id`` and builds it as a Lake at (x, y), with public actions."""
    from citygames.games.the_capitals.state import S_LAKE
    give(s, p, tile_id)
    to_prosperity(s, p, rnd)
    s.apply_action(act(s, "lake", parg(tile_id)))
    assert s.step == S_LAKE and s.player == p
    s.apply_action(act(s, "place_lake", slot(s, x, y)))


def activate(s, p: int, x: int, y: int) -> None:
    """Seat ``p`` (in its executive turn) activates the tile at (x, y), paying with plant cubes."""
    from citygames.games.the_capitals.state import S_PAY
    s.apply_action(act(s, "activate", slot(s, x, y)))
    if s.step == S_PAY:
        s.apply_action(act(s, "pay_cubes"))


def to_last_expo(s) -> None:
    """End round 12's executive phase: the machine runs the "before the last World Expo" effects
    (stopping at a Technology Park's free activation), then the Expo and the final scoring."""
    s.round = C.rounds
    s.upg = [0] * s.n
    s.phase = P_EXECUTIVE
    s.turn = s.n
    s.exec_active = False
    s.pstage = 0
    s.step = S_NONE
    s._legal = None
    s._advance()
