"""Quadropolis: what one seat may see, as JSON-ready data, and ``resample``, which redraws what it may
not see.

Hidden from everybody (§3): the identity of face-down tiles on the site (at 2 and 3 players) and the
layout of the rounds not dealt yet. Everything else is public, including every city and what each
player holds (§7: resources lie beside the boards).

Shape (``observation(state, seat)``)::

    {"game": "quadropolis", "seat": int | None, "mode": "classic" | "expert",
     "phase": "take" | "place" | "allocate" | "end", "decision": str, "current_player": int | None,
     "round": int, "rounds": int, "turn": int (turns taken this round), "turns": int (per round, all
     players), "mayor": seat, "first_player": seat (who started this round),
     "site": [{"square", "row", "col", "tile": id | None, "face_down": bool}] * 25,
     "urbanist": square | None,
     "slots": [{"slot", "side": "top" | "bottom" | "left" | "right", "line": 0-4, "architect": k | None,
                "seat": seat | None, "blocked": bool (the Urbanist's row or column)}] * 20,
     "pool": {k: copies left} (Expert) | None,
     "pending": {"tile": id, "architect": k, "spaces": [legal spaces]} | None,
     "players": [{"seat", "name", "inhabitants", "energy", "architects": [k unused this round] (Classic;
                  Expert: []), "empty_spaces": int, "score": int, "breakdown": {category: VP},
                  "allocated": bool,
                  "city": [{"space", "row", "col", "district", "number" (Expert, else 0), "tile": id | None,
                            "type": str | None, "height": int, "active": bool, "customers": int}]}] * n,
     "result": None | {"winners": [seats], "ranking": [seats], "scores": [VP]}}

``active``/``customers`` show the allocation the score is computed from: the best one (during the game
and with ``allocation="auto"``) or the player's own (hand allocation).
"""

from __future__ import annotations

from .components import TYPES
from .constants import DECISIONS, P_END, PLACE, STEP_KEYS
from .end import empty_spaces, final_allocation, ranking, score_breakdown, winners
from .game import NSLOTS, SIDES, slot_blocked


def observation(s, seat: int | None) -> dict:
    """The observation of ``seat`` (``None``: a spectator); see the module docstring for the shape."""
    g = s.game
    b = g.board
    n = g.num_players
    tiles = g.tiles
    over = s.phase == P_END
    site = [{"square": q, "row": q // 5, "col": q % 5,
             "tile": s.site[q] if s.site[q] >= 0 and not s.face_down[q] else None,
             "face_down": bool(s.site[q] >= 0 and s.face_down[q])} for q in range(25)]
    slots = [{"slot": i, "side": SIDES[i // 5], "line": i % 5, "architect": s.slot_k[i] or None,
              "seat": s.slot_seat[i] if s.slot_seat[i] >= 0 else None,
              "blocked": slot_blocked(i, s.urbanist)} for i in range(NSLOTS)]
    players = []
    scores = []
    for p in range(n):
        base = p * b.spaces
        active, customers = final_allocation(s, p)
        cells = []
        for x in range(b.spaces):
            t = s.city_tile[base + x]
            cells.append({"space": x, "row": x // b.cols, "col": x % b.cols, "district": b.district[x],
                          "number": b.space_number[x], "tile": t if t >= 0 else None,
                          "type": TYPES[tiles[t].type] if t >= 0 else None, "height": s.city_height[base + x],
                          "active": bool(active[x]) if t >= 0 else False, "customers": customers[x]})
        bd = score_breakdown(s, p)
        scores.append(sum(bd.values()))
        k = b.architect_numbers
        players.append({
            "seat": p, "name": g.seat_name(p), "inhabitants": s.inhabitants[p], "energy": s.energy[p],
            "architects": [] if b.shared_pool else [j + 1 for j in range(k) if s.architects[p * k + j]],
            "empty_spaces": empty_spaces(s, p), "score": scores[-1], "breakdown": bd,
            "allocated": bool(s.allocated[p]), "city": cells})
    pending = None
    if s.step == PLACE:
        pending = {"tile": s.taken, "architect": s.taken_k,
                   "spaces": s.placements(s.player, s.taken, s.taken_k)}
    return {
        "game": g.info.id, "seat": seat, "mode": g.mode, "phase": STEP_KEYS[s.step],
        "decision": DECISIONS[s.step], "current_player": None if over else s.player,
        "round": s.round, "rounds": b.rounds, "turn": s.turn, "turns": n * b.turns_per_round,
        "mayor": s.mayor, "first_player": s.first, "site": site,
        "urbanist": s.urbanist if s.urbanist >= 0 else None, "slots": slots,
        "pool": {k + 1: s.architects[k] for k in range(5)} if b.shared_pool else None,
        "pending": pending, "players": players,
        "result": {"winners": winners(s), "ranking": ranking(s), "scores": scores} if over else None,
    }


def information_state_key(s, seat: int | None) -> tuple:
    """What ``seat`` (``None``: a spectator) knows now, as a compact hashable tuple (for search
    trees keyed by information sets; the contract is ``State.information_state_key``): the seat and
    every public field the observation is built from, a face-down tile of the site as -2. The
    layouts of the rounds not dealt yet (``decks``) are left out, so a resample has the same key."""
    fd = s.face_down
    site = tuple([-2 if x >= 0 and fd[q] else x for q, x in enumerate(s.site)])
    return (seat, s.player, s.step, s.phase, s.round, s.turn, s.first, s.mayor, site, tuple(fd), tuple(s.slot_k),
            tuple(s.slot_seat), tuple(s.architects), s.urbanist, s.taken, s.taken_k, tuple(s.city_tile),
            tuple(s.city_height), tuple(s.inhabitants), tuple(s.energy), tuple(s.active), tuple(s.customers),
            tuple(s.allocated))


def resample(s, seat: int, rng) -> "object":
    """A copy of ``s`` whose hidden parts are redrawn consistently with what ``seat`` sees: the
    face-down tiles change squares among the face-down squares (their multiset is known: exactly the
    round's tiles marked for more players, §3), and every round not dealt yet gets a new random layout.
    ``rng``: a ``citygames.core.rng.Rng``."""
    t = s.clone()
    down = [q for q in range(25) if t.site[q] >= 0 and t.face_down[q]]
    if len(down) > 1:
        ids = [t.site[q] for q in down]
        rng.shuffle(ids)
        for q, x in zip(down, ids):
            t.site[q] = x
    decks = []
    for d in t.decks:
        d = list(d)
        rng.shuffle(d)
        decks.append(tuple(d))
    t.decks = tuple(decks)
    t._best = None
    return t


__all__ = ["observation", "information_state_key", "resample"]
