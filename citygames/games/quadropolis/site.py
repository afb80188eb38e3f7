"""Quadropolis: the construction site, the architects and the Urbanist — setup, rounds and taking a
building (HU "A játék előkészületei", "A játék egy köre" 1-2, "Forduló vége"; reference §3, §4).

- Setup (§3): every round's 25 tiles are drawn at random onto the 5 x 5 site; all rounds are dealt
  here from the seed (drawing each round when it begins would be statistically the same), so the
  only chance is in the setup (and in ``resample``). At 3 players the tiles marked "4" stay face
  down, at 2 players those marked "4" or "3-4". A random player starts and holds the Mayor (HU:
  "chosen freely").
- A turn (§3, §4): put an architect in one of the 20 slots — not one already used this round, not
  one in the Urbanist's row or column — take the k-th square from that edge (nothing when it is
  empty or face down: PROJECT DEFAULT §4), move the Urbanist there, then place the building
  (``city.py``).
- A round (§3): every player takes 4 turns, clockwise from the Mayor's holder; then the tiles left
  on the site are discarded, the architects return and the Urbanist goes beside the board.
"""

from __future__ import annotations

from citygames.core.events import game_seat_label
from citygames.core.phases import NO_DECISION
from citygames.core.rng import Rng

from .constants import TAKE
from .game import MAX_K, NSLOTS, slot_blocked, slot_target


def face_down_markers(n: int) -> int:
    """The lowest player-count marker (index of ``MARKERS``) whose tiles stay face down with ``n``
    players: 1 ("3-4") at 2 players, 2 ("4") at 3, none (3) at 4 (§3 [C])."""
    return {2: 1, 3: 2}.get(n, 3)


def deal(game, rng: Rng) -> tuple:
    """Every round's layout: per round (index 1..rounds; index 0 unused ``()``), the 25 tile indices
    in square order (``row * 5 + col``), shuffled by ``rng`` (§3)."""
    c = game.components
    decks = [()]
    for r in range(1, game.board.rounds + 1):
        tiles = list(c.round_tiles[game.mode][r])
        rng.shuffle(tiles)
        decks.append(tuple(tiles))
    return tuple(decks)


def set_up(s, game, seed: int) -> None:
    """Fill the game's fields of the blank state ``s`` for a game set up from ``seed`` (§3); round 1
    is dealt by ``start_round``."""
    b = game.board
    n = game.num_players
    rng = Rng(seed)
    s.mayor = rng.randbelow(n)
    s.decks = deal(game, rng)
    s.round = 0
    s.turn = 0
    s.first = s.mayor
    s.site = [-1] * 25
    s.face_down = [False] * 25
    s.slot_k = [0] * NSLOTS
    s.slot_seat = [-1] * NSLOTS
    s.architects = [0] * (5 if b.shared_pool else n * b.architect_numbers)
    s.urbanist = -1
    s.taken = -1
    s.taken_k = 0
    spaces = b.spaces
    s.city_tile = [-1] * (n * spaces)
    s.city_height = [0] * (n * spaces)
    s.inhabitants = [0] * n
    s.energy = [0] * n
    s.active = [0] * (n * spaces)
    s.customers = [0] * (n * spaces)
    s.allocated = [False] * n
    s.phase = 0
    s.step = NO_DECISION
    s.player = s.mayor
    s.event("setup", None, mayor=s.mayor, mode=game.mode)


def start_round(s) -> None:
    """Deal the next round onto the site, turn the tiles face up by player count, return the
    architects and start with the Mayor's holder (§3)."""
    g = s.game
    b = g.board
    s.round += 1
    deck = s.decks[s.round]
    s.site = list(deck)
    hide = face_down_markers(g.num_players)
    tiles = g.tiles
    s.face_down = [tiles[t].marker >= hide for t in deck]
    s.decks = s.decks[:s.round] + ((),) + s.decks[s.round + 1:]
    n = g.num_players
    s.architects = [n] * 5 if b.shared_pool else [1] * (n * b.architect_numbers)
    s.slot_k = [0] * NSLOTS
    s.slot_seat = [-1] * NSLOTS
    s.urbanist = -1
    s.turn = 0
    s.first = s.mayor
    s.player = s.mayor
    s.step = TAKE
    s.event("round", None, round=s.round, first=s.mayor,
            site=[None if s.face_down[q] else s.site[q] for q in range(25)])


def end_of_turn(s) -> None:
    """After a turn: the next player, or the end of the round (§3: discard what is left, return the
    architects, the Urbanist beside the board), or the end of the game."""
    g = s.game
    n = g.num_players
    s.turn += 1
    if s.turn < n * g.board.turns_per_round:
        s.player = (s.first + s.turn) % n
        s.step = TAKE
        return
    left = sum(1 for t in s.site if t >= 0)
    s.event("round_end", None, round=s.round, discarded=left)
    s.site = [-1] * 25
    s.face_down = [False] * 25
    s.urbanist = -1
    if s.round < g.board.rounds:
        start_round(s)
        return
    from .end import start_end
    start_end(s)


def run_rounds(s) -> None:
    """The rounds phase's automatic work: deal round 1 (the only time no decision is pending in it)."""
    if s.round == 0:
        start_round(s)
    else:  # pragma: no cover - every handler leaves a decision or moves on
        raise RuntimeError("rounds phase with no decision pending")


def architect_available(s, p: int, k: int) -> bool:
    """Whether seat ``p`` may use architect #k now: Classic, its own #k not used this round; Expert,
    a #k left in the shared pool (§4 [C])."""
    b = s.game.board
    if k < 1 or k > b.architect_numbers:
        return False
    if b.shared_pool:
        return s.architects[k - 1] > 0
    return bool(s.architects[p * b.architect_numbers + k - 1])


def take_legal(s) -> list:
    """Legal ``take`` actions of the player to move: every free slot outside the Urbanist's lines,
    with every architect number the player may use (§4)."""
    table = s.game.action_space.table
    off = s.game.off["take"]
    ks = [k for k in range(1, s.game.board.architect_numbers + 1) if architect_available(s, s.player, k)]
    out = []
    u = s.urbanist
    for slot in range(NSLOTS):
        if s.slot_k[slot] or slot_blocked(slot, u):
            continue
        base = off + slot * MAX_K - 1
        for k in ks:
            out.append(table[base + k])
    return out


def take_why(s, a) -> str:
    if a.kind != "take":
        return f"now {game_seat_label(s.game, s.player)} must take a building with an architect (§3 step 1)"
    slot, k = divmod(a.arg, MAX_K)
    k += 1
    if s.slot_k[slot]:
        return "that slot already holds an architect this round (§4)"
    if slot_blocked(slot, s.urbanist):
        return "no architect may be put in the row or column of the Urbanist (§4, §10 #1)"
    if k > s.game.board.architect_numbers:
        return f"the {s.game.mode} game has architects #1-#{s.game.board.architect_numbers} only (§2)"
    if s.game.board.shared_pool:
        return f"no architect #{k} is left in the pool this round (§4)"
    return f"{game_seat_label(s.game, s.player)} has already used its architect #{k} this round (§3)"


def take(s, arg: int) -> None:
    """Put architect #k in the slot, move the Urbanist to the square it points at and take the tile
    there if it is face up (§4; face-down: PROJECT DEFAULT, nothing taken)."""
    g = s.game
    b = g.board
    slot, k = divmod(arg, MAX_K)
    k += 1
    p = s.player
    s.slot_k[slot] = k
    s.slot_seat[slot] = p
    if b.shared_pool:
        s.architects[k - 1] -= 1
    else:
        s.architects[p * b.architect_numbers + k - 1] = 0
    q = slot_target(slot, k)
    s.urbanist = q
    t = s.site[q]
    if t < 0 or s.face_down[q]:
        s.event("take", p, slot=slot, k=k, square=q, tile=None, why="face_down" if t >= 0 else "empty")
        end_of_turn(s)
        return
    s.site[q] = -1
    s.event("take", p, slot=slot, k=k, square=q, tile=t, mode=g.mode)
    from .city import after_take
    after_take(s, t, k)


__all__ = ["face_down_markers", "deal", "set_up", "start_round", "end_of_turn", "run_rounds", "architect_available",
           "take_legal", "take_why", "take"]
