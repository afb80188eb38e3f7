"""Between Two Cities: the setup and the draft — drawing, choosing, revealing, passing (§3, §7.1, §8.2).

- Setup (§3, §8.2): the singles (Capitals: with the 21 civic buildings) and the duplexes are shuffled
  from the seed; Capitals: a landscape mat per city (7 mats, dealt at random), and the district cards:
  3 pairs over the 3 district scoring tiles, the 7th card discarded, except that a House + Factory pair
  loses its second card to the 7th (§8.2 [C]).
- Rounds 1 and 3 (§3): every seat draws 7 singles (Capitals 9). A turn: every seat secretly chooses 2
  tiles of the hand it holds (``choose``, a simultaneous step), the choices are revealed together,
  then the seats place their two tiles in ascending seat order (``placement.py``), then every hand
  is passed: round 1 to the left, round 3 to the right, while a hand holds more than one tile; the
  last tile of each hand is discarded face down. A seat's left neighbour is the one it shares its
  left city with (``game.left``): seat p - 1; so round 1 passes seat p's hand to seat p - 1 (under the
  city token on its left, RB p3) and round 3 to seat p + 1.
- Round 2 (§3): every seat draws 3 duplexes and secretly discards one (``discard_duplex``); the 2 kept
  are revealed and placed, one in each city (no passing).
- Two players (§7.1): every round is played twice (1a, 1b, 2a, 2b, 3a, 3b), hands go to the opponent.

Hands are physical objects: hand ``h`` is the one seat ``h`` drew; at turn ``t`` of a round that
passes in direction ``d`` (+1 to the left, i.e. to seat p - 1; -1 to the right, to seat p + 1) seat
``p`` holds hand ``(p + d * t) % N`` and hand ``h`` is with seat ``(h - d * t) % N``. So what a
seat has seen this round (the hands it held, whose contents it knows as they are now, since every
pick is revealed) follows from the turn alone (``seen_hands``).
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION
from citygames.core.rng import Rng

from .components import NUM_SINGLE_KINDS
from .constants import KIND_CODES, TERRAIN
from .game import PAIR_INDEX, PAIRS
from .steps import CHOOSE, DISCARD, P_DRAFT, PLACE, PLACE_DUPLEX

#: kinds of single tiles are 1 .. NK - 1
NK = NUM_SINGLE_KINDS + 1


# --- setup --------------------------------------------------------------------------------------
def set_up(s, game, seed: int) -> None:
    """Fill the game's fields of the blank state ``s`` for a game set up from ``seed`` (§3, §8.2)."""
    c = game.components
    n = game.num_players
    rng = Rng(seed)
    singles = list(game.singles)
    rng.shuffle(singles)
    dups = list(range(len(c.duplexes)))
    rng.shuffle(dups)
    s.bag = tuple(singles)
    s.dbag = tuple(dups)
    nc = game.n_cities
    size = game.size
    cells = [0] * (nc * size)
    W = game.width
    box = [W, -1, W, -1] * nc
    if game.capitals:
        if c.capitals.get("civics_with_landscapes") != "always":
            raise ValueError("capitals.yaml rules.civics_with_landscapes: only 'always' is implemented (§8.1)")
        order = list(range(len(c.mats)))
        rng.shuffle(order)
        mats = tuple(order[:nc])
        for city, m in enumerate(mats):
            mat = c.mats[m]
            for x in mat.terrain:
                cells[city * size + x] = TERRAIN
            box[4 * city:4 * city + 4] = [mat.top, mat.top + mat.rows - 1, mat.left, mat.left + mat.cols - 1]
        cards = list(c.district_cards)
        rng.shuffle(cards)
        pairs = [[cards[0], cards[1]], [cards[2], cards[3]], [cards[4], cards[5]]]
        discarded = cards[6]
        for pair in pairs:   # §8.2 [C]: a House + Factory pair takes the 7th card in place of its second
            if frozenset(pair) == c.forbidden_pair:
                discarded, pair[1] = pair[1], cards[6]
        s.districts = tuple((a, b, tile) for tile, (a, b) in enumerate(pairs))
        s.district_discard = discarded
    else:
        mats = ()
        s.districts = ()
        s.district_discard = -1
    s.mats = mats
    s.cells = cells
    s.box = box
    s.count = [0] * nc
    s.front = ((),) * nc
    s.stage = -1
    s.turn = 0
    s.hands = [0] * (n * game.hand_size)
    s.hand_n = [0] * n
    s.dhands = [-1] * (n * game.duplexes_drawn)
    s.todo = [-1] * (2 * n)
    s.side = [-1] * n
    s.discards = ()
    s.ddiscards = ()
    s.movers = ()
    s.pending = [-1] * n
    s.phase = P_DRAFT
    s.step = NO_DECISION
    s.player = 0
    s.event("setup", None, players=n, capitals=game.capitals, mats=list(mats),
            districts=[list(d) for d in s.districts], district_discard=s.district_discard)


# --- where the hands are ---------------------------------------------------------------------------
def direction(game, stage: int) -> int:
    """The passing direction of a stage: +1 to the left (round 1: seat p passes to its left neighbour,
    seat p - 1, with whom it shares its left city) or -1 to the right (round 3: to seat p + 1) (§3)."""
    return -1 if game.stages[stage][0] == 3 else 1


def held(s, p: int) -> int:
    """The hand seat ``p`` holds now (rounds 1 and 3)."""
    return (p + direction(s.game, s.stage) * s.turn) % s.game.num_players


def holder(s, h: int) -> int:
    """The seat holding hand ``h`` now."""
    return holder_at(s.game, s.stage, s.turn, h)


def holder_at(game, stage: int, turn: int, h: int) -> int:
    """The seat holding hand ``h`` at ``turn`` of ``stage``."""
    return (h - direction(game, stage) * turn) % game.num_players


def seen_hands(game, stage: int, turn: int, p: int) -> set[int]:
    """The hands seat ``p`` has held in ``stage`` up to ``turn`` (it knows their contents, §3)."""
    n = game.num_players
    d = direction(game, stage)
    return {(p + d * t) % n for t in range(min(turn, n - 1) + 1)}


def hand_kinds(s, h: int) -> list[int]:
    """The kinds in hand ``h``, one entry per tile, ascending."""
    base = h * s.game.hand_size
    return s.hands[base:base + s.hand_n[h]]


def set_hand(s, h: int, kinds: list[int]) -> None:
    """Put ``kinds`` in hand ``h``: its slots hold them ascending, then zeros (a canonical form, so a
    hand's slots say nothing but its contents)."""
    hs = s.game.hand_size
    kinds = sorted(kinds)
    s.hands[h * hs:(h + 1) * hs] = kinds + [0] * (hs - len(kinds))
    s.hand_n[h] = len(kinds)


def singles_round(game, stage: int) -> bool:
    return game.stages[stage][0] != 2


# --- the phase: stages and turns ---------------------------------------------------------------------
def run_draft(s) -> None:
    """The draft phase's automatic work: start the first stage (the only time it has no decision)."""
    if s.stage < 0:
        start_stage(s, 0)
    else:  # pragma: no cover - every handler leaves a decision or moves on
        raise RuntimeError("draft phase with no decision pending")


def start_stage(s, stage: int) -> None:
    """Start a (half-)round: every seat draws its hand (singles) or 3 duplexes, and chooses (§3)."""
    g = s.game
    n = g.num_players
    s.stage = stage
    s.turn = 0
    rnd, half = g.stages[stage]
    if singles_round(g, stage):
        hs = g.hand_size
        bag = s.bag
        hands = []
        for p in range(n):
            hands += sorted(bag[len(bag) - (p + 1) * hs:len(bag) - p * hs])
        s.bag = bag[:len(bag) - n * hs]
        s.hands = hands
        s.hand_n = [hs] * n
        s.event("stage", None, round=rnd, half=half, two_players=g.two_player, tiles=hs,
                direction=direction(g, stage))
        s.begin_simultaneous(CHOOSE, range(n))
    else:
        k = g.duplexes_drawn
        dbag = s.dbag
        s.dhands = list(dbag[len(dbag) - n * k:])
        s.dbag = dbag[:len(dbag) - n * k]
        s.event("stage", None, round=rnd, half=half, two_players=g.two_player, tiles=k, direction=0)
        s.begin_simultaneous(DISCARD, range(n))


def choose_legal(s, p: int) -> list:
    """Seat ``p``'s ``choose`` actions: every unordered pair of tiles of the hand it holds (§3)."""
    table = s.game.action_space.table
    off = s.game.off["choose"]
    h = held(s, p)
    base = h * s.game.hand_size
    tiles = s.hands[base:base + s.hand_n[h]]   # ascending
    out = []
    prev = -1
    for i, a in enumerate(tiles):
        if a == prev:
            continue
        prev = a
        last = -1
        for b in tiles[i + 1:]:
            if b != last:
                out.append(table[off + PAIR_INDEX[a * 32 + b]])
                last = b
    return out


def choose_why(s, a) -> str:
    if a.kind != "choose":
        return f"now every seat must choose 2 tiles of its hand (§3); {a} does not answer that"
    x, y = PAIRS[a.arg]
    return (f"the hand does not hold {'two' if x == y else 'both'} of "
            f"{KIND_CODES[x]}{'' if x == y else ' and ' + KIND_CODES[y]} (§3)")


def resolve_choose(s, choices) -> None:
    """Every seat has chosen: reveal the pairs, take them out of the hands, place in seat order (§3)."""
    g = s.game
    off = g.off["choose"]
    chosen = []
    for p, aid in enumerate(choices):
        a, b = PAIRS[aid - off]
        h = held(s, p)
        rest = hand_kinds(s, h)
        rest.remove(a)
        rest.remove(b)
        set_hand(s, h, rest)
        s.todo[2 * p] = a
        s.todo[2 * p + 1] = b
        chosen.append([a, b])
    s.side = [-1] * g.num_players
    s.event("reveal", None, round=g.stages[s.stage][0], turn=s.turn, chosen=chosen)
    s.step = PLACE
    s.player = 0


def discard_legal(s, p: int) -> list:
    """Seat ``p``'s ``discard_duplex`` actions: the discards that leave two duplexes it can place one in
    each of its cities now; if none does, any of the three (§4 / §10 #7 PROJECT DEFAULT)."""
    from .placement import duplex_cells
    g = s.game
    table = g.action_space.table
    off = g.off["discard_duplex"]
    k = g.duplexes_drawn
    mine = s.dhands[p * k:(p + 1) * k]
    left, right = g.left[p], g.right[p]
    ok = {}
    for d in mine:
        ok[d] = (bool(duplex_cells(s, left, d, strict=True)), bool(duplex_cells(s, right, d, strict=True)))
    out = []
    for i, d in enumerate(mine):
        kept = [x for j, x in enumerate(mine) if j != i]
        a, b = kept
        if (ok[a][0] and ok[b][1]) or (ok[b][0] and ok[a][1]):
            out.append(table[off + d])
    if not out:
        out = [table[off + d] for d in mine]
    return sorted(out, key=lambda a: a.id)


def discard_why(s, a) -> str:
    if a.kind != "discard_duplex":
        return f"now every seat must choose a duplex to discard (§3 round 2); {a} does not answer that"
    return ("that duplex is not among the 3 drawn, or discarding it keeps a duplex that cannot be placed "
            "(§4 / §10 #7 PROJECT DEFAULT)")


def resolve_discard(s, choices) -> None:
    """Every seat has discarded: the duplexes kept are revealed and placed in seat order (§3)."""
    g = s.game
    off = g.off["discard_duplex"]
    k = g.duplexes_drawn
    kept_all = []
    discards = list(s.ddiscards)
    for p, aid in enumerate(choices):
        d = aid - off
        mine = s.dhands[p * k:(p + 1) * k]
        kept = [x for x in mine if x != d]
        s.todo[2 * p], s.todo[2 * p + 1] = kept
        discards.append((s.stage, p, d))
        kept_all.append(kept)
    s.ddiscards = tuple(discards)
    s.dhands = [-1] * len(s.dhands)
    s.side = [-1] * g.num_players
    s.event("reveal_duplexes", None, round=2, kept=kept_all)
    s.step = PLACE_DUPLEX
    s.player = 0


def end_of_turn(s) -> None:
    """Every seat has placed its tiles: pass the hands, or discard their last tiles and start the next
    stage, or end the game (§3)."""
    g = s.game
    if not singles_round(g, s.stage):
        next_stage(s)
        return
    if s.hand_n[0] > 1:
        s.turn += 1
        s.event("pass", None, direction=direction(g, s.stage), turn=s.turn, two_players=g.two_player)
        s.begin_simultaneous(CHOOSE, range(g.num_players))
        return
    n = g.num_players
    discards = list(s.discards)
    for h in range(n):
        for k in hand_kinds(s, h):
            discards.append((s.stage, h, k))
    s.discards = tuple(discards)
    s.hands = [0] * (n * g.hand_size)
    s.hand_n = [0] * n
    s.event("discard_last", None, hands=n)
    next_stage(s)


def next_stage(s) -> None:
    g = s.game
    if s.stage + 1 < len(g.stages):
        start_stage(s, s.stage + 1)
        return
    from .end import finish
    finish(s)


__all__ = ["NK", "set_up", "direction", "held", "holder", "holder_at", "seen_hands", "hand_kinds", "set_hand",
           "singles_round", "run_draft",
           "start_stage", "choose_legal", "choose_why", "resolve_choose", "discard_legal", "discard_why",
           "resolve_discard", "end_of_turn", "next_stage"]
