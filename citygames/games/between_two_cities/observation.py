"""Between Two Cities: what one seat may see, as JSON-ready data, and ``resample``, which redraws what
it may not see.

Hidden (§3): the bag of singles and the duplex stack; every hand a seat has not held this round (a seat
knows the hands it has held *as they are now*, since every pick is revealed); the tiles discarded face
down (a seat knows the last tile of each hand it held); the duplexes other seats drew and the one they
discarded; the choices of a simultaneous step until the reveal (a seat sees only its own; everybody
sees *who* has chosen). Everything else is public: the cities, their running scores, the mats, the
districts, the revealed tiles still to place, how many tiles every hand holds.

Shape (``observation(state, seat)``)::

    {"game": "between_two_cities", "seat": int | None, "capitals": bool, "num_players": int,
     "two_players": bool, "phase": "choose" | "discard" | "place" | "place_duplex" | "end",
     "decision": str, "current_player": seat | None (None: several seats choose, or the end),
     "to_move": [seats], "round": 1-3, "stage": "1" / "2" / "3" (2 players "1a" .. "3b"), "turn": int,
     "turns": int (turns in a singles round), "passing": "left" | "right" | "opponent" | None,
     "chosen": [seats that have chosen in the pending simultaneous step], "choosing": [seats still to],
     "choice_status": "N of M have chosen" | None,
     "pending": {"id", "text"} | None (the viewer's own choice, not yet revealed),
     "hand": [kinds] | None (the hand the viewer holds), "hand_sizes": [per seat, tiles in the hand it holds],
     "hands_known": [{"hand", "holder", "tiles": [kinds]}] (the hands the viewer has held this round),
     "duplexes": [duplex indices] | None (the viewer's 3 drawn duplexes, round 2 before the reveal),
     "known_discards": [{"stage", "hand", "kind"}] (face-down last tiles the viewer knows),
     "discarded_duplexes": [duplex indices] (the viewer's own),
     "to_place": [per seat, {"tiles": [kinds] | "duplexes": [indices], "side_done": None | 0 | 1}],
     "placements": None | {"seat", "left": {tile: [cells]}, "right": {...}, "fallback": {side: level}}
         (where the seat to move may place each of its tiles),
     "cities": [{"city", "seats": [seats], "name", "mat": None | {"id", "name"}, "width", "cells": [kinds],
                 "grid": [row texts of codes], "tiles": int, "frame": [min row, max row, min col, max col] | None,
                 "score": int, "breakdown": {category: points}}],
     "players": [{"seat", "name", "left", "right" (cities), "score", "lower_city"}],
     "districts": [{"types": [type, type], "tile", "first", "second"}], "district_discard": type | None,
     "bag": int, "duplex_bag": int,
     "result": None | {"winners", "ranking", "scores"}}
"""

from __future__ import annotations

from citygames.core.game import SIMULTANEOUS

from .constants import KIND_CODES, TYPE_NAMES
from .draft import direction, hand_kinds, held, holder, seen_hands, set_hand, singles_round
from .end import categories, city_scores, lower_city, ranking, scores, winners
from .placement import duplex_levels, single_cells
from .steps import DECISIONS, P_END, PLACE, PLACE_DUPLEX, STEP_KEYS


def stage_label(game, stage: int) -> str:
    """``"1"``, ``"2"``, ``"3"``; with 2 players ``"1a"`` .. ``"3b"`` (§7.1)."""
    if stage < 0:
        return ""
    rnd, half = game.stages[stage]
    return f"{rnd}{'ab'[half]}" if game.two_player else str(rnd)


def _last_turn(game) -> int:
    return game.hand_size // 2 - 1


def known_discards(s, seat: int) -> list[tuple]:
    """The face-down discards ``(stage, hand, kind)`` seat ``seat`` knows (the hands it held)."""
    g = s.game
    last = _last_turn(g)
    return [d for d in s.discards if d[1] in seen_hands(g, d[0], last, seat)]


def placements(s) -> dict | None:
    """Where the seat to move may place each of its tiles (PLACE, PLACE_DUPLEX), else ``None``."""
    g = s.game
    if s.step not in (PLACE, PLACE_DUPLEX) or s.phase == P_END:
        return None
    p = s.player
    cities = (g.left[p], g.right[p])
    side = s.side[p]
    sides = (0, 1) if side < 0 else (1 - side,)
    out = {"seat": p, "left": {}, "right": {}, "fallback": {}}
    for sd in sides:
        key = ("left", "right")[sd]
        for t in s.todo[2 * p:2 * p + 2]:
            if t < 0:
                continue
            if s.step == PLACE:
                level, cells = single_cells(s, cities[sd])
            else:
                level, cells = duplex_levels(s, cities[sd], t)
            out[key][str(t)] = list(cells)
            if level > 1:
                out["fallback"][key] = level
    return out


def observation(s, seat: int | None) -> dict:
    """The observation of ``seat`` (``None``: a spectator); see the module docstring for the shape."""
    g = s.game
    n = g.num_players
    over = s.phase == P_END
    stage = s.stage
    singles = stage >= 0 and singles_round(g, stage) and not over
    simultaneous = s.player == SIMULTANEOUS and not over
    movers = list(s.movers) if simultaneous else []
    chosen = [p for p in range(n) if simultaneous and p not in s.movers]
    pending = None
    if seat is not None and simultaneous and s.pending[seat] >= 0:
        a = g.action_space.table[s.pending[seat]]
        pending = {"id": a.id, "text": s.action_to_string(a)}
    hand = hands_known = None
    if seat is not None and singles:
        hand = hand_kinds(s, held(s, seat))
        hands_known = [{"hand": h, "holder": holder(s, h), "tiles": hand_kinds(s, h)}
                       for h in sorted(seen_hands(g, stage, s.turn, seat))]
    hand_sizes = [s.hand_n[held(s, p)] for p in range(n)] if singles else [0] * n
    duplexes = None
    k = g.duplexes_drawn
    if seat is not None and s.dhands[seat * k] >= 0:
        duplexes = list(s.dhands[seat * k:(seat + 1) * k])
    to_place = []
    for p in range(n):
        items = [t for t in s.todo[2 * p:2 * p + 2] if t >= 0]
        key = "duplexes" if stage >= 0 and not singles_round(g, stage) else "tiles"
        to_place.append({key: items, "side_done": s.side[p] if s.side[p] in (0, 1) else None})
    bds = city_scores(s)
    cats = categories(g)
    W = g.width
    cities = []
    for c in range(g.n_cities):
        cells = s.cells[c * g.size:(c + 1) * g.size]
        box = s.box[4 * c:4 * c + 4]
        mat = g.components.mats[s.mats[c]] if g.capitals else None
        bd = {cat: bds[c][cat] for cat in cats}
        cities.append({
            "city": c, "seats": list(g.city_seats[c]), "name": g.city_name(c), "width": W,
            "mat": {"id": mat.id, "name": mat.name} if mat else None, "cells": cells,
            "grid": [" ".join(KIND_CODES[x] for x in cells[r * W:(r + 1) * W]) for r in range(W)],
            "tiles": s.count[c], "frame": list(box) if box[1] >= 0 else None,
            "score": sum(bd.values()), "breakdown": bd})
    sc = scores(s)
    players = [{"seat": p, "name": g.seat_name(p), "left": g.left[p], "right": g.right[p], "score": sc[p],
                "lower_city": None if g.two_player else lower_city(s, p)} for p in range(n)]
    tiles = g.components.scoring.districts
    districts = [{"types": [TYPE_NAMES[a], TYPE_NAMES[b]], "tile": t, "first": tiles[t][0], "second": tiles[t][1]}
                 for a, b, t in s.districts]
    rnd = g.stages[stage][0] if stage >= 0 else 0
    passing = None
    if singles:
        passing = "opponent" if g.two_player else ("left" if direction(g, stage) > 0 else "right")
    return {
        "game": g.info.id, "seat": seat, "capitals": g.capitals, "num_players": n, "two_players": g.two_player,
        "phase": STEP_KEYS[s.step], "decision": DECISIONS[s.step],
        "current_player": None if over or simultaneous else s.player,
        "to_move": list(s.players_to_move()), "round": rnd, "stage": stage_label(g, stage), "turn": s.turn,
        "turns": g.hand_size // 2, "passing": passing, "chosen": chosen, "choosing": movers,
        "choice_status": f"{len(chosen)} of {n} have chosen" if simultaneous else None,
        "pending": pending, "hand": hand, "hand_sizes": hand_sizes, "hands_known": hands_known,
        "duplexes": duplexes,
        "known_discards": [] if seat is None else [{"stage": stage_label(g, st), "hand": h, "kind": kd}
                                                   for st, h, kd in known_discards(s, seat)],
        "discarded_duplexes": [] if seat is None else [d for _, q, d in s.ddiscards if q == seat],
        "to_place": to_place, "placements": placements(s), "cities": cities, "players": players,
        "districts": districts,
        "district_discard": TYPE_NAMES[s.district_discard] if s.district_discard >= 0 else None,
        "bag": len(s.bag), "duplex_bag": len(s.dbag),
        "result": {"winners": winners(s), "ranking": ranking(s), "scores": sc} if over else None,
    }


def information_state_key(s, seat: int | None) -> tuple:
    """What ``seat`` (``None``: a spectator) knows now, as a compact hashable tuple (for search
    trees keyed by information sets; the contract is ``State.information_state_key``): the seat, every
    public field the observation is built from (cities, tiles to place, hand sizes, who is still to
    choose, the bags' sizes) and the seat's own knowledge: its pending choice, the hands it has held
    this stage as they are now, its drawn duplexes, the face-down discards it knows and the duplexes
    it discarded. What ``resample`` redraws for ``seat`` (the bags, the hands it has not held, the
    other discards and duplexes, the other seats' pending choices) is left out, so a resample has the
    same key."""
    g = s.game
    over = s.phase == P_END
    stage = s.stage
    simultaneous = s.player == SIMULTANEOUS and not over
    own = ()
    if seat is not None:
        hands = ()
        if stage >= 0 and singles_round(g, stage) and not over:
            hands = (held(s, seat),) + tuple([tuple(hand_kinds(s, h))
                                              for h in sorted(seen_hands(g, stage, s.turn, seat))])
        k = g.duplexes_drawn
        own = (s.pending[seat] if simultaneous else -1, hands, tuple(s.dhands[seat * k:(seat + 1) * k]),
               tuple(known_discards(s, seat)), tuple([d for d in s.ddiscards if d[1] == seat]))
    return (seat, s.player, s.step, s.phase, stage, s.turn, s.movers if simultaneous else (), tuple(s.hand_n),
            tuple(s.todo), tuple(s.side), tuple(s.cells), tuple(s.box), tuple(s.count), s.mats, s.districts,
            s.district_discard, len(s.bag), len(s.dbag), own)


def resample(s, seat: int, rng) -> "object":
    """A copy of ``s`` whose hidden parts are redrawn consistently with what ``seat`` sees: the singles
    of the bag, of the hands it has not held this round and of the face-down discards it does not know
    are dealt again at random (every hand keeps its size); the duplexes of the stack, of the other
    seats' hands and discards likewise; then every other seat's pending choice is redrawn uniformly
    among its legal choices in the new world. ``rng``: a ``citygames.core.rng.Rng``."""
    t = s.clone()
    g = t.game
    n = g.num_players
    over = t.phase == P_END
    # singles
    pool = list(t.bag)
    unseen: list[int] = []
    if t.stage >= 0 and singles_round(g, t.stage) and not over:
        seen = seen_hands(g, t.stage, t.turn, seat)
        unseen = [h for h in range(n) if h not in seen]
        for h in unseen:
            pool += hand_kinds(t, h)
    last = _last_turn(g)
    hidden_disc = [i for i, (st, h, _) in enumerate(t.discards) if h not in seen_hands(g, st, last, seat)]
    pool += [t.discards[i][2] for i in hidden_disc]
    if len(pool) > 1:
        rng.shuffle(pool)
        for h in unseen:
            size = t.hand_n[h]
            set_hand(t, h, [pool.pop() for _ in range(size)])
        if hidden_disc:
            disc = list(t.discards)
            for i in hidden_disc:
                st, h, _ = disc[i]
                disc[i] = (st, h, pool.pop())
            t.discards = tuple(disc)
        t.bag = tuple(pool)
    # duplexes
    k = g.duplexes_drawn
    dpool = list(t.dbag)
    slots = [i for i in range(n * k) if i // k != seat and t.dhands[i] >= 0]
    dpool += [t.dhands[i] for i in slots]
    ddisc = [i for i, (_, q, _) in enumerate(t.ddiscards) if q != seat]
    dpool += [t.ddiscards[i][2] for i in ddisc]
    if len(dpool) > 1:
        rng.shuffle(dpool)
        for i in slots:
            t.dhands[i] = dpool.pop()
        if ddisc:
            dd = list(t.ddiscards)
            for i in ddisc:
                st, q, _ = dd[i]
                dd[i] = (st, q, dpool.pop())
            t.ddiscards = tuple(dd)
        t.dbag = tuple(dpool)
    t._legal = None
    # the other seats' secret choices
    if t.player == SIMULTANEOUS and not over:
        legal = t.RULES.steps[t.step].legal
        for q in range(n):
            if q != seat and t.pending[q] >= 0:
                options = legal(t, q)
                t.pending[q] = options[rng.randbelow(len(options))].id
    return t


__all__ = ["observation", "information_state_key", "resample", "stage_label", "known_discards", "placements"]
