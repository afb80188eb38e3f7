"""Between Two Cities positions as text: ``parse(game, text)`` builds a validated state, ``write(state)``
exports one (``game.state_from_position(text)`` and ``state.position()`` call them).

python-chess's FEN is the model: one text holds every rule-relevant part of the state, hidden parts
included (the bag, the duplex stack, every hand, the secret choices not revealed yet, the face-down
discards), is validated when read, and ``write`` gives it back for any state, so that
``parse(game, write(s))`` rebuilds ``s`` field for field. The text is ``key: value`` lines
(``citygames.core.position_text``): ``#`` starts a comment, blank lines are ignored, indented lines
belong to the block above (a seat's block ``Blue:`` ..., ``cities:``). ``POSITION.md`` beside this
module documents every line; an example (3 players, round 1, turn 2: Red has chosen in secret, Blue
and Green are still choosing)::

    game: between_two_cities
    options: num_players=3, capitals=False
    seed: 3
    stage: 1
    turn: 2 of 3
    decision: choose
    to move: Blue, Green
    Blue:
      hand: S F Tb O P (drawn by Green)
    Red:
      hand: F F O H H (drawn by Blue)
      chosen: F + H
    Green:
      hand: S Tm O O P (drawn by Red)
    cities:
      city 1: S . / O H | at r4c4
      ...
    bag: H S O ...            # hidden: in the order the tiles are dealt
    duplex stack: H4 V9 ...   # hidden: in the order they are dealt

Tiles are written with the reference sheet's codes (``constants.KIND_CODES``: ``S F Tm Tf Td Tb O P H``,
``C0`` .. ``C20`` the civic buildings), duplexes by their printed id (``H1`` .. ``H12``, ``V1`` .. ``V12``),
cities in the notation of ``citytext.py`` (rows separated by ``/``), cropped to their tiles (and mat),
with ``| at rRcC`` giving the grid square of the text's top-left cell.
"""

from __future__ import annotations

from collections import Counter

from citygames.core.errors import PositionError
from citygames.core.game import SIMULTANEOUS, TERMINAL
from citygames.core.phases import NO_DECISION
from citygames.core.position_text import Line, PositionLines
from citygames.core.rng import Rng

from .citytext import format_city, parse_city
from .constants import EMPTY, KIND_CODES, TERRAIN, TYPE_NAMES
from .draft import direction, held, singles_round
from .game import PAIR_INDEX, PAIRS, SEAT_NAMES
from .state import BTCState
from .steps import CHOOSE, DISCARD, P_DRAFT, P_END, PLACE, PLACE_DUPLEX, STEP_KEYS

_TOP = ("game", "options", "seed", "stage", "turn", "decision", "to move", "cities", "mats", "districts",
        "district discard", "bag", "duplex stack")
_SEAT_KEYS = ("hand", "chosen", "duplexes", "to place", "placed", "discarded", "discarded duplexes")
_SINGLE_CODES = {code.upper(): k for k, code in enumerate(KIND_CODES) if 0 < k < TERRAIN}
#: the decisions of a singles stage and of a duplex stage
_SINGLES_STEPS = (CHOOSE, PLACE)
#: how a position writes a terrain square: ``#`` (the city notation's) starts a comment in a position
TERRAIN_TOKEN = "~"
_DUPLEX_STEPS = (DISCARD, PLACE_DUPLEX)


def _stage_label(game, stage: int) -> str:
    rnd, half = game.stages[stage]
    return f"{rnd}{'ab'[half]}" if game.two_player else str(rnd)


def _turns(game, stage: int) -> int:
    """Turns in a stage: ``hand_size // 2`` in a singles stage, 1 in a duplex stage."""
    return game.hand_size // 2 if singles_round(game, stage) else 1


def _option_text(game) -> str:
    return ", ".join(f"{o.name}={game.options[o.name]}" for o in game.info.options)


def _cell_name(game, x: int) -> str:
    return f"r{x // game.width + 1}c{x % game.width + 1}"


# ==============================================================================================
# the order things are dealt in
# ==============================================================================================
def _deal_order(bag: tuple, block: int, reverse_blocks: bool) -> list:
    """``bag`` (drawn from its end, ``block`` items per stage) in the order its items are dealt: the
    last block first, then the one before it, ...; within a block in the order the seats get them
    (seat 0 first). Singles (``reverse_blocks``): seat 0 gets the block's last tiles, so a block is
    reversed; duplexes: seat 0 gets the block's first ones."""
    out: list = []
    end = len(bag)
    while end > 0:
        start = max(0, end - block)
        part = list(bag[start:end])
        out += part[::-1] if reverse_blocks else part
        end = start
    return out


def _bag_from_order(order: list, block: int, reverse_blocks: bool) -> tuple:
    """The inverse of ``_deal_order``."""
    blocks = [order[i:i + block] for i in range(0, len(order), block)]
    out: list = []
    for part in reversed(blocks):
        out += part[::-1] if reverse_blocks else part
    return tuple(out)


# ==============================================================================================
# write
# ==============================================================================================
def _city_text(s, city: int) -> str:
    g = s.game
    size = g.size
    cells = s.cells[city * size:(city + 1) * size]
    geo = g.geometries(s.mats)[city]
    used = [i for i, k in enumerate(cells) if k != EMPTY] + [c for pair in geo.bridges for c in pair]
    if not used:
        return "empty"
    r0 = min(i // g.width for i in used)
    c0 = min(i % g.width for i in used)
    text = " ".join(TERRAIN_TOKEN if w == "#" else w for w in format_city(cells, geo).split(" "))
    return f"{text} | at r{r0 + 1}c{c0 + 1}"


def _duplex_id(game, d: int) -> str:
    return game.components.duplexes[d].id


def write(s) -> str:
    """State ``s`` in the notation, hidden parts included (the bag, the duplex stack, every hand and
    secret choice, the face-down discards), so that ``parse(game, write(s))`` gives the same state
    field for field."""
    g = s.game
    n = g.num_players
    over = s.phase == P_END
    stage = s.stage
    singles = singles_round(g, stage)
    out = [f"game: {g.info.id}", f"options: {_option_text(g)}", f"seed: {s.seed}",
           f"stage: {_stage_label(g, stage)}", f"turn: {s.turn + 1} of {_turns(g, stage)}",
           f"decision: {STEP_KEYS[s.step]}"]
    if s.player == SIMULTANEOUS:
        out.append("to move: " + ", ".join(SEAT_NAMES[p] for p in s.movers))
    elif not over:
        out.append(f"to move: {SEAT_NAMES[s.player]}")
    k = g.duplexes_drawn
    for p in range(n):
        lines = []
        if singles and not over:
            h = held(s, p)
            base = h * g.hand_size
            tiles = s.hands[base:base + s.hand_n[h]]
            lines.append(f"hand: {' '.join(KIND_CODES[t] for t in tiles)} (drawn by {SEAT_NAMES[h]})")
        if s.player == SIMULTANEOUS and s.pending[p] >= 0:
            a = g.action_space.table[s.pending[p]]
            if a.kind == "choose":
                x, y = PAIRS[a.arg]
                lines.append(f"chosen: {KIND_CODES[x]} + {KIND_CODES[y]}")
            else:
                lines.append(f"chosen: {_duplex_id(g, a.arg)}")
        if s.dhands[p * k] >= 0:
            lines.append("duplexes: " + " ".join(_duplex_id(g, d) for d in s.dhands[p * k:(p + 1) * k]))
        todo = s.todo[2 * p:2 * p + 2]
        if any(t >= 0 for t in todo):
            name = (lambda t: KIND_CODES[t]) if singles else (lambda t: _duplex_id(g, t))
            lines.append("to place: " + ", ".join("-" if t < 0 else name(t) for t in todo))
        if s.side[p] in (0, 1):
            lines.append(f"placed: {('left', 'right')[s.side[p]]}")
        mine = [KIND_CODES[kd] for st, h, kd in s.discards if h == p]
        if mine:
            lines.append("discarded: " + ", ".join(mine))
        dmine = [_duplex_id(g, d) for st, q, d in s.ddiscards if q == p]
        if dmine:
            lines.append("discarded duplexes: " + ", ".join(dmine))
        out.append(f"{SEAT_NAMES[p]}:")
        out += ["  " + x for x in lines]
    out.append("cities:")
    for c in range(g.n_cities):
        out.append(f"  city {c + 1}: {_city_text(s, c)}")
    if g.capitals:
        c = g.components
        out.append("mats: " + ", ".join(c.mats[m].id for m in s.mats))
        out.append("districts: " + ", ".join(f"{TYPE_NAMES[a]}+{TYPE_NAMES[b]}" for a, b, _ in s.districts))
        out.append(f"district discard: {TYPE_NAMES[s.district_discard]}")
    out.append("# hidden from the players, in the order they are dealt (left out: dealt from the seed)")
    out.append("bag: " + (" ".join(KIND_CODES[t] for t in _deal_order(s.bag, n * g.hand_size, True)) or "none"))
    out.append("duplex stack: " + (" ".join(_duplex_id(g, d) for d in _deal_order(s.dbag, n * k, False))
                                   or "none"))
    return "\n".join(out) + "\n"


# ==============================================================================================
# parse
# ==============================================================================================
def _lines(game, text: str) -> PositionLines:
    n = game.num_players
    seats = SEAT_NAMES[:n]
    blocks = {p: set(_SEAT_KEYS) for p in seats}
    blocks["cities"] = {f"city {c}" for c in range(1, game.n_cities + 1)}
    top = set(_TOP) | set(seats)

    def unknown_top(no: int, key: str) -> str | None:
        if key in SEAT_NAMES:
            return f"line {no}: {key} does not play in a {n}-player game (seats: {', '.join(seats)})"
        if key.startswith("city "):
            return f"line {no}: the cities go in the block 'cities:' (indented lines 'city 1: ...')"
        return None

    return PositionLines(text, top, blocks, unknown_top, outside="a seat's block or cities")


def parse(game, text: str):
    """The state ``text`` describes (see the module docstring and ``POSITION.md``), validated; its
    ``origin`` is ``text``, its history and log are empty.

    Raises:
        PositionError: the text is not a valid position; the message names the line and the rule
            (§N of ``shared/reference/between_two_cities.md``).
    """
    return _Reader(game, text).state()


def _fail(ln: Line, msg: str):
    ln.fail(msg)


class _Reader:
    def __init__(self, game, text: str):
        self.game = game
        self.n = game.num_players
        self.L = _lines(game, text)
        self.s = BTCState.blank(game, 0, origin=text)
        self.c = game.components
        self.dup_of = {d.id.upper(): d.idx for d in self.c.duplexes}

    def state(self):
        self.header()
        self.timing()
        self.capitals()
        self.seats()
        self.cities()
        self.supply()
        self.checks()
        return self.s

    # --- small readers -----------------------------------------------------------------------
    def seat(self, ln: Line, word: str) -> int:
        seats = SEAT_NAMES[:self.n]
        if word not in seats:
            _fail(ln, f"expected a seat of this {self.n}-player game ({', '.join(seats)}), got {word!r}")
        return seats.index(word)

    def single(self, ln: Line, word: str) -> int:
        k = _SINGLE_CODES.get(word.upper())
        if k is None:
            _fail(ln, f"unknown tile {word!r} (a single tile is one of {' '.join(KIND_CODES[1:TERRAIN])})")
        if k >= 10 and not self.game.capitals:
            _fail(ln, f"{word}: civic buildings come with the Capitals expansion only (§8.4)")
        return k

    def duplex(self, ln: Line, word: str) -> int:
        d = self.dup_of.get(word.upper())
        if d is None:
            _fail(ln, f"unknown duplex {word!r} (duplexes are H1-H12 and V1-V12, §2)")
        return d

    def singles_list(self, ln: Line, value: str | None = None) -> list[int]:
        v = ln.value if value is None else value
        if v.strip().lower() == "none":
            return []
        return [self.single(ln, w) for w in v.replace(",", " ").split()]

    def duplex_list(self, ln: Line, value: str | None = None) -> list[int]:
        v = ln.value if value is None else value
        if v.strip().lower() == "none":
            return []
        return [self.duplex(ln, w) for w in v.replace(",", " ").split()]

    # --- header --------------------------------------------------------------------------------
    def header(self) -> None:
        self.s.seed = self.L.check_header(self.game)

    # --- stage, turn, decision, seats to move ----------------------------------------------------
    def timing(self) -> None:
        L, s, g, n = self.L, self.s, self.game, self.n
        ln = L.need("stage", why="(1, 2 or 3; with 2 players 1a, 1b, 2a, 2b, 3a or 3b)")
        labels = [_stage_label(g, i) for i in range(len(g.stages))]
        if ln.value not in labels:
            _fail(ln, f"expected one of {', '.join(labels)}, got {ln.value!r}"
                  + (" (2 players play every round twice: 1a, 1b, ... §7.1)" if g.two_player else ""))
        s.stage = labels.index(ln.value)
        self.stage_ln = ln
        singles = singles_round(g, s.stage)
        turns = _turns(g, s.stage)
        ln = L.need("turn", why=f"(the turn of the stage, 'T of {turns}')")
        num, of, total = ln.value.partition(" of ")
        try:
            t = int(num)
            total_n = int(total) if of else turns
        except ValueError:
            _fail(ln, f"expected 'T of {turns}', got {ln.value!r}")
        if total_n != turns:
            _fail(ln, f"a {'singles' if singles else 'duplex'} stage has {turns} turn{'s' if turns > 1 else ''} "
                      + (f"(hands of {g.hand_size} tiles, 2 chosen a turn, the last one discarded, §3)" if singles
                         else "(3 duplexes drawn, 1 discarded, 2 placed, §3)"))
        if not 1 <= t <= turns:
            _fail(ln, f"the turn must be 1-{turns}")
        s.turn = t - 1
        self.turn_ln = ln
        ln = L.need("decision", why="(choose, discard, place, place_duplex or end)")
        if ln.value not in STEP_KEYS:
            _fail(ln, f"expected one of choose, discard, place, place_duplex, end; got {ln.value!r}")
        s.step = STEP_KEYS.index(ln.value)
        self.decision_ln = ln
        if s.step == NO_DECISION:
            s.phase = P_END
            if s.stage != len(g.stages) - 1 or s.turn != turns - 1:
                _fail(ln, f"the game ends after the last turn of stage {labels[-1]} (§3): write stage "
                          f"{labels[-1]}, turn {_turns(g, len(g.stages) - 1)} of {_turns(g, len(g.stages) - 1)}")
        else:
            s.phase = P_DRAFT
            if s.step not in (_SINGLES_STEPS if singles else _DUPLEX_STEPS):
                _fail(ln, f"stage {labels[s.stage]} is a "
                          + ("singles stage: its decisions are choose and place (§3)" if singles else
                             "duplex stage (round 2): its decisions are discard and place_duplex (§3)"))
        ln = L.get("to move")
        s.movers = ()
        s.pending = [-1] * n
        if s.phase == P_END:
            if ln is not None:
                _fail(ln, "nobody moves once the game is over")
            s.player = TERMINAL
        elif s.step in (CHOOSE, DISCARD):
            ln = L.need("to move", why="(the seats still to choose)")
            movers = [self.seat(ln, w) for w in PositionLines.items(ln)]
            if not movers:
                _fail(ln, "at least one seat is still to choose: the choices are revealed as soon as the last "
                          "seat has chosen (§3)")
            if len(set(movers)) != len(movers):
                _fail(ln, "a seat is named twice")
            s.player = SIMULTANEOUS
            s.movers = tuple(sorted(movers))
        else:
            ln = L.need("to move", why="(the seat placing)")
            s.player = self.seat(ln, ln.value)
        self.to_move_ln = ln

    # --- the Capitals' mats and districts -------------------------------------------------------
    def capitals(self) -> None:
        L, s, g = self.L, self.s, self.game
        c = self.c
        names = ("mats", "districts", "district discard")
        if not g.capitals:
            for key in names:
                ln = L.get(key)
                if ln is not None:
                    _fail(ln, "landscape mats and districts come with the Capitals expansion only (§8)")
            s.mats, s.districts, s.district_discard = (), (), -1
            return
        seeded = BTCState.new(g, s.seed) if any(L.get(k) is None for k in names) else None
        ln = L.get("mats")
        if ln is None:
            s.mats = seeded.mats
        else:
            ids = {m.id: m.idx for m in c.mats}
            words = PositionLines.items(ln)
            if len(words) != g.n_cities:
                _fail(ln, f"one landscape mat per city (§8.2): {g.n_cities} expected, got {len(words)}")
            mats = []
            for w in words:
                if w not in ids:
                    _fail(ln, f"unknown mat {w!r} (mats: {', '.join(ids)})")
                if ids[w] in mats:
                    _fail(ln, f"mat {w} is given twice: each city has its own mat (§8.2)")
                mats.append(ids[w])
            s.mats = tuple(mats)
        ln = L.get("districts")
        if ln is None:
            s.districts = seeded.districts
        else:
            pairs = []
            for item in PositionLines.items(ln):
                a, plus, b = item.partition("+")
                if not plus:
                    _fail(ln, f"expected TYPE+TYPE (e.g. shop+office), got {item!r}")
                pairs.append((self.dtype(ln, a.strip()), self.dtype(ln, b.strip())))
            if len(pairs) != 3:
                _fail(ln, f"three districts, one per district scoring tile (§8.2), got {len(pairs)}")
            s.districts = tuple((a, b, i) for i, (a, b) in enumerate(pairs))
            for a, b in pairs:
                if frozenset((a, b)) == c.forbidden_pair:
                    _fail(ln, f"a district may not pair {TYPE_NAMES[a]} and {TYPE_NAMES[b]}: its second card is "
                              "replaced by the 7th card (§8.2)")
        self.districts_ln = ln
        ln = L.get("district discard")
        if ln is None:
            s.district_discard = seeded.district_discard
        else:
            s.district_discard = self.dtype(ln, ln.value)
        cards = [x for a, b, _ in s.districts for x in (a, b)] + [s.district_discard]
        if sorted(cards) != sorted(c.district_cards):
            where = L.get("districts") or L.get("district discard") or L.get("mats")
            have = Counter(cards)
            twice = [TYPE_NAMES[t] for t, k in have.items() if k > 1]
            _fail(where, "the 7 district cards are used once each, 6 in the pairs and 1 put away (§8.2)"
                  + (f": {', '.join(twice)} appears twice" if twice else ""))

    def dtype(self, ln: Line, word: str) -> int:
        names = [TYPE_NAMES[t] for t in self.c.district_cards]
        if word not in names:
            _fail(ln, f"unknown district type {word!r} (the district cards: {', '.join(names)})")
        return TYPE_NAMES.index(word)

    # --- the seats' blocks -------------------------------------------------------------------
    def seats(self) -> None:
        L, s, g, n = self.L, self.s, self.game, self.n
        k = g.duplexes_drawn
        hs = g.hand_size
        over = s.phase == P_END
        singles = singles_round(g, s.stage)
        s.hands = [0] * (n * hs)
        s.hand_n = [0] * n
        s.dhands = [-1] * (n * k)
        s.todo = [-1] * (2 * n)
        s.side = [-1] * n
        if over or s.step in (CHOOSE, DISCARD):
            s.side = [-1] * n if (s.stage, s.turn) == (0, 0) and not over else [2] * n
        discards = []
        ddiscards = []
        singles_done = [i for i in range(len(g.stages)) if singles_round(g, i) and (i < s.stage or over)]
        # a duplex is discarded face down when the choices are revealed, before the placements (§3)
        duplex_done = [i for i in range(len(g.stages)) if not singles_round(g, i)
                       and (i < s.stage or over or (i == s.stage and s.step == PLACE_DUPLEX))]
        placing = s.step in (PLACE, PLACE_DUPLEX)
        # expected hand size: every turn takes 2 tiles from each hand (§3)
        size = hs - 2 * s.turn - (2 if s.step == PLACE else 0)
        d = direction(g, s.stage)
        for p in range(n):
            name = SEAT_NAMES[p]
            L.need(name, why=f"(the block of {name}: its hand, its choice, the tiles it has to place)")
            # the hand it holds
            ln = L.get("hand", name)
            if singles and not over:
                ln = L.need("hand", name, why=f"(the hand {name} holds: {size} tiles, and '(drawn by SEAT)')")
                value, drawer = ln.value, None
                if value.endswith(")") and "(drawn by " in value:
                    value, _, rest = value.rpartition("(drawn by ")
                    drawer = self.seat(ln, rest[:-1].strip())
                h = (p + d * s.turn) % n   # draft.held
                if drawer is not None and drawer != h:
                    way = ("to the opponent" if g.two_player else "to the left" if d > 0 else "to the right")
                    _fail(ln, f"at turn {s.turn + 1} of stage {_stage_label(g, s.stage)} {name} holds the hand "
                              f"{SEAT_NAMES[h]} drew, not {SEAT_NAMES[drawer]}'s (hands pass {way}, §3)")
                tiles = self.singles_list(ln, value)
                if len(tiles) != size:
                    _fail(ln, f"{name}'s hand holds {len(tiles)} tiles; at turn {s.turn + 1}"
                              + (" after the reveal" if s.step == PLACE else "")
                              + f" every hand holds {size} ({hs} drawn, 2 taken a turn, §3)")
                s.hands[h * hs:(h + 1) * hs] = sorted(tiles) + [0] * (hs - len(tiles))
                s.hand_n[h] = len(tiles)
            elif ln is not None:
                _fail(ln, "hands of single tiles are held during rounds 1 and 3 only, until their last tile is "
                          "discarded (§3)")
            # the duplexes drawn, in round 2 before the reveal
            ln = L.get("duplexes", name)
            if s.step == DISCARD:
                ln = L.need("duplexes", name, why=f"(the {k} duplexes {name} drew, §3)")
                mine = self.duplex_list(ln)
                if len(mine) != k or len(set(mine)) != k:
                    _fail(ln, f"every seat draws {k} different duplexes in round 2 (§3)")
                s.dhands[p * k:(p + 1) * k] = mine
            elif ln is not None:
                _fail(ln, "the duplexes drawn are held only until the seats have discarded one (round 2, §3)")
            # the tiles revealed and still to place
            ln = L.get("to place", name)
            pl = L.get("placed", name)
            want = 0
            if placing:
                want = 0 if p < s.player else 2 if p > s.player else None
            if pl is not None and not (placing and p == s.player):
                _fail(pl, f"only the seat placing now ({SEAT_NAMES[s.player] if placing else 'nobody'}) has "
                          "placed one of its two tiles this turn; the others have placed both or none (§3)")
            if pl is not None and pl.value not in ("left", "right"):
                _fail(pl, f"expected left or right (the city of its first placement this turn), got {pl.value!r}")
            if ln is None:
                if placing and want != 0:
                    ln = L.need("to place", name, why=f"({name} places after the seats before it, §3)")
            if ln is not None:
                if not placing:
                    _fail(ln, "revealed tiles wait to be placed only during place and place_duplex (§3)")
                if want == 0:
                    _fail(ln, f"the seats place in seat order (§3 PROJECT DEFAULT): {name} has placed both its "
                              f"tiles before {SEAT_NAMES[s.player]}")
                items = [w.strip() for w in ln.value.split(",")]
                if len(items) != 2:
                    _fail(ln, "two entries: the two tiles revealed, '-' for one already placed")
                slots = [-1 if w == "-" else (self.single(ln, w) if singles else self.duplex(ln, w)) for w in items]
                gone = slots.count(-1)
                if gone == 2:
                    _fail(ln, f"{name} has no tile left to place: leave the line out")
                if p != s.player and gone:
                    _fail(ln, f"{name} places after {SEAT_NAMES[s.player]} (seat order, §3): both its tiles wait")
                if p == s.player and gone != (pl is not None):
                    _fail(pl or ln, "write 'placed: left' or 'right' when one of the two tiles is placed (and '-' "
                                    "in its slot), neither when both wait")
                if singles and not gone:
                    slots.sort()
                s.todo[2 * p:2 * p + 2] = slots
                if placing:
                    s.side[p] = -1 if pl is None else ("left", "right").index(pl.value)
            if placing and p < s.player:
                s.side[p] = 2
            # the secret choice
            ln = L.get("chosen", name)
            if ln is not None:
                if s.step not in (CHOOSE, DISCARD):
                    _fail(ln, "choices are secret only until everybody has chosen; then they are revealed "
                              "(to place, §3)")
                if p in s.movers:
                    _fail(ln, f"{name} is still to choose (to move), so it has no choice yet")
                if s.step == CHOOSE:
                    a, plus, b = ln.value.partition("+")
                    if not plus:
                        _fail(ln, f"expected two tiles 'S + H', got {ln.value!r}")
                    x, y = sorted((self.single(ln, a.strip()), self.single(ln, b.strip())))
                    s.pending[p] = g.off["choose"] + PAIR_INDEX[x * 32 + y]
                else:
                    s.pending[p] = g.off["discard_duplex"] + self.duplex(ln, ln.value)
            elif s.step in (CHOOSE, DISCARD) and p not in s.movers:
                _fail(L.get(name), f"{name} is not to move, so it has chosen: give its secret choice "
                                   "('chosen: ...')")
            # the face-down discards
            ln = L.get("discarded", name)
            mine = self.singles_list(ln) if ln is not None else []
            if len(mine) != len(singles_done):
                _fail(ln or L.get(name), f"the last tile of the hand {name} drew is discarded face down at the end "
                                         f"of each singles stage (§3): {len(singles_done)} so far, got {len(mine)}")
            discards += [(st, p, kd) for st, kd in zip(singles_done, mine)]
            ln = L.get("discarded duplexes", name)
            dmine = self.duplex_list(ln) if ln is not None else []
            if len(dmine) != len(duplex_done):
                _fail(ln or L.get(name), f"every seat discards one of its 3 duplexes in each duplex stage (§3): "
                                         f"{len(duplex_done)} so far, got {len(dmine)}")
            ddiscards += [(st, p, x) for st, x in zip(duplex_done, dmine)]
        s.discards = tuple(sorted(discards))
        s.ddiscards = tuple(sorted(ddiscards))

    # --- cities ----------------------------------------------------------------------------------
    def cities(self) -> None:
        L, s, g = self.L, self.s, self.game
        W = g.width
        size = g.size
        nc = g.n_cities
        L.need("cities", why="(the block of the cities: 'city 1: ...')")
        geos = g.geometries(s.mats)
        s.cells = [EMPTY] * (nc * size)
        s.box = [W, -1, W, -1] * nc
        s.count = [0] * nc
        fronts = []
        self.city_ln = {}
        for c in range(nc):
            seats = " and ".join(SEAT_NAMES[p] for p in g.city_seats[c])
            ln = L.need(f"city {c + 1}", "cities", why=f"(the city of {seats}: its rows, '| at rRcC')")
            self.city_ln[c] = ln
            geo = geos[c]
            cells = self.city(ln, c, geo)
            base = c * size
            s.cells[base:base + size] = cells
            placed = [x for x in range(size) if cells[x] not in (EMPTY, TERRAIN)]
            s.count[c] = len(placed)
            box = [W, -1, W, -1]
            if g.capitals:
                mat = self.c.mats[s.mats[c]]
                box = [mat.top, mat.top + mat.rows - 1, mat.left, mat.left + mat.cols - 1]
            for x in placed:
                r, col = divmod(x, W)
                box = [min(box[0], r), max(box[1], r), min(box[2], col), max(box[3], col)]
            s.box[4 * c:4 * c + 4] = box
            front = sorted({y for x in placed for y in geo.adj[x] if cells[y] == EMPTY})
            fronts.append(tuple(front))
            # the first tile (§4, §8.3): the engine's centre cell, or a square of the mat
            if placed:
                if g.capitals:
                    squares = self.c.mats[s.mats[c]].squares
                    if not any(cells[x] not in (EMPTY, TERRAIN) for x in squares):
                        _fail(ln, "a city's first building goes on an empty square of its landscape mat (§8.3), "
                                  "and no square of the mat holds a building")
                elif cells[g.centre] == EMPTY:
                    _fail(ln, f"the engine puts a city's first tile on the centre of its {W} x {W} grid, "
                              f"{_cell_name(g, g.centre)} (§4: any position is the same up to translation), and "
                              "the centre is empty")
        s.front = tuple(fronts)

    def city(self, ln: Line, c: int, geo) -> list[int]:
        """One city's cells from its line: rows, bridges, ``| at rRcC``; the terrain and bridges must be
        its mat's."""
        g, s = self.game, self.s
        W = g.width
        value = ln.value
        if value.strip().lower() == "empty":
            if g.capitals:
                _fail(ln, "a city of the Capitals lies on its landscape mat: write the mat's squares ('~' terrain, "
                          "'.' empty) and '| at rRcC'")
            return [EMPTY] * g.size
        parts = [x.strip() for x in value.split("|")]
        at = [x for x in parts[1:] if x.lower().startswith("at ")]
        if len(at) != 1:
            _fail(ln, "give the grid square of the text's top-left cell once: '| at rRcC' (e.g. at r4c4)")
        where = at[0][3:].strip().lower()
        r, sep, col = where[1:].partition("c")
        if not where.startswith("r") or not sep or not r.isdigit() or not col.isdigit():
            _fail(ln, f"expected 'at rRcC' (1-based row and column of the {W} x {W} grid), got {at[0]!r}")
        origin = (int(r) - 1, int(col) - 1)
        if not (0 <= origin[0] < W and 0 <= origin[1] < W):
            _fail(ln, f"{at[0]!r} lies outside the engine's {W} x {W} grid")
        grid = " ".join("#" if w == TERRAIN_TOKEN else w for w in parts[0].split())
        rest = " | ".join([grid] + [x for x in parts[1:] if not x.lower().startswith("at ")])
        try:
            cells, geo_text = parse_city(rest, W, origin=origin,
                                         lines_cross_bridges=geo.lines_cross_bridges)
        except PositionError as exc:
            _fail(ln, str(exc))
        terrain = {x for x in range(g.size) if cells[x] == TERRAIN}
        if terrain != set(geo.terrain):
            if not g.capitals:
                _fail(ln, f"terrain ('{TERRAIN_TOKEN}') belongs to the landscape mats of the Capitals expansion "
                          "(§8.3)")
            mat = self.c.mats[s.mats[c]]
            _fail(ln, f"the terrain ('{TERRAIN_TOKEN}') must be that of the city's mat {mat.id} ({mat.name}), at "
                      + ", ".join(_cell_name(g, x) for x in sorted(geo.terrain))
                      + " (the mat lies in the centre of the grid, §8.3)")
        if set(geo_text.bridges) != set(geo.bridges) or (geo.bridges and
                                                          geo_text.lines_cross_bridges != geo.lines_cross_bridges):
            _fail(ln, "the bridges (and '| lines break') must be those of the city's mat (§8.3)"
                  + ("" if geo.bridges else ": it has none"))
        return cells

    # --- the supply: every tile and duplex once ---------------------------------------------------
    def units(self) -> list[tuple[int, int]]:
        """Per city, ``(single tiles, duplexes)`` placed in it so far, from the stage, the turn and who
        has placed this turn (§3: every seat places one tile, or in round 2 one duplex, in each of its
        two cities per turn)."""
        s, g = self.s, self.game
        over = s.phase == P_END
        out = [[0, 0] for _ in range(g.n_cities)]
        for p in range(self.n):
            for side, city in enumerate((g.left[p], g.right[p])):
                for st in range(len(g.stages)):
                    if st < s.stage or over:
                        done = _turns(g, st)
                    elif st == s.stage:
                        done = s.turn + (1 if s.side[p] == 2 or s.side[p] == side else 0) \
                            if s.step in (PLACE, PLACE_DUPLEX) else s.turn
                    else:
                        done = 0
                    out[city][0 if singles_round(g, st) else 1] += done
        return [tuple(x) for x in out]

    def supply(self) -> None:
        L, s, g, n = self.L, self.s, self.game, self.n
        c = self.c
        over = s.phase == P_END
        singles = singles_round(g, s.stage)
        units = self.units()
        for city, (one, two) in enumerate(units):
            if s.count[city] != one + 2 * two:
                _fail(self.city_ln[city], f"the city holds {s.count[city]} tiles' squares, but by now its seats have "
                                          f"placed {one} single tiles and {two} duplexes in it ({one + 2 * two} "
                                          "squares): every seat places one tile (round 2: one duplex) in each of "
                                          "its two cities per turn (§3)")
        # duplexes: the stack, the hands of round 2, the discards, the ones to place, the placed ones
        k = g.duplexes_drawn
        named: dict[int, str] = {}

        def name_duplex(d: int, where: str, ln) -> None:
            if d in named:
                _fail(ln, f"duplex {c.duplexes[d].id} is {where}, and also {named[d]}: each duplex is in one "
                          "place only (§2)")
            named[d] = where
        for p in range(n):
            nm = SEAT_NAMES[p]
            for d in s.dhands[p * k:(p + 1) * k]:
                if d >= 0:
                    name_duplex(d, f"drawn by {nm}", L.get("duplexes", nm))
            if not singles:
                for d in s.todo[2 * p:2 * p + 2]:
                    if d >= 0:
                        name_duplex(d, f"{nm}'s to place", L.get("to place", nm))
        for _, q, d in s.ddiscards:
            name_duplex(d, f"discarded by {SEAT_NAMES[q]}", L.get("discarded duplexes", SEAT_NAMES[q]))
        placed_count = sum(two for _, two in units)
        ln = L.get("duplex stack")
        if ln is not None:
            order = self.duplex_list(ln)
            for d in order:
                name_duplex(d, "in the duplex stack", ln)
            placed = [d for d in range(len(c.duplexes)) if d not in named]
            if len(placed) != placed_count:
                _fail(ln, f"the duplexes named nowhere are the placed ones: {len(placed)} here, but the cities hold "
                          f"{placed_count} (§3)")
            s.dbag = _bag_from_order(order, n * k, False)
        else:
            shuffled = self.seed_shuffles()[1]
            started = sum(1 for st in range(len(g.stages)) if not singles_round(g, st) and (st <= s.stage or over))
            dealt = shuffled[len(shuffled) - started * n * k:] if started else []
            for d, where in named.items():
                if d not in dealt:
                    _fail(self.decision_ln, f"duplex {c.duplexes[d].id} ({where}) is not among those seed {s.seed} "
                                            "deals: give the line 'duplex stack' (the duplexes not dealt)")
            placed = [d for d in dealt if d not in named]
            s.dbag = tuple(shuffled[:len(shuffled) - len(dealt)])
            if len(placed) != placed_count:   # pragma: no cover - the counts above agree by construction
                _fail(self.decision_ln, "the duplexes dealt by the seed do not match the cities")
        # single tiles: the bag, the hands, the ones to place, the discards, the cities (minus the duplexes)
        halves = Counter(h for d in placed for h in c.duplexes[d].halves)
        city_kinds = Counter(x for x in s.cells if x not in (EMPTY, TERRAIN))
        for kind, m in halves.items():
            if city_kinds[kind] < m:
                where = next((self.city_ln[ci] for ci in range(g.n_cities)), None)
                _fail(where, f"the placed duplexes ({', '.join(c.duplexes[d].id for d in sorted(placed))}) cover "
                             f"{m} {KIND_CODES[kind]} squares, but the cities hold {city_kinds[kind]} "
                             "(give the line 'duplex stack' if the duplexes named nowhere are not those)")
        elsewhere = Counter(x for x in s.hands if x > 0)
        if singles and not over:
            elsewhere.update(x for x in s.todo if x > 0)
        elsewhere.update(kd for _, _, kd in s.discards)
        elsewhere.update(city_kinds)
        elsewhere.subtract(halves)
        supply = Counter(g.singles)
        for kind in sorted(elsewhere):
            if elsewhere[kind] > supply[kind]:
                what = KIND_CODES[kind]
                _fail(self.decision_ln if not L.get("cities") else L.get("cities"),
                      f"the position holds {elsewhere[kind]} single {what} tiles (hands, to place, discarded, "
                      f"cities without the duplexes' halves), but the game has {supply[kind]} (§2"
                      + (", §8.4" if kind >= 10 else "") + ")")
        rest = supply - elsewhere
        ln = L.get("bag")
        if ln is not None:
            order = self.singles_list(ln)
            have = Counter(order)
            if have != rest:
                diff = [(KIND_CODES[kd], have[kd], rest[kd]) for kd in sorted(set(have) | set(rest))
                        if have[kd] != rest[kd]]
                _fail(ln, "the bag holds the single tiles that are nowhere else (§2): "
                          + ", ".join(f"{a} x{x} where {b} are left" for a, x, b in diff[:4]))
            s.bag = _bag_from_order(order, n * g.hand_size, True)
        else:
            shuffled = list(self.seed_shuffles()[0])
            take = Counter(elsewhere)
            bag = []
            for kd in reversed(shuffled):   # the tiles elsewhere are the last copies of each kind dealt
                if take[kd] > 0:
                    take[kd] -= 1
                else:
                    bag.append(kd)
            s.bag = tuple(reversed(bag))
        drawn_stages = sum(1 for st in range(len(g.stages)) if singles_round(g, st) and (st <= s.stage or over))
        left = len(g.singles) - drawn_stages * n * g.hand_size
        if len(s.bag) != left:
            _fail(ln or self.stage_ln, f"{len(s.bag)} single tiles in the bag, but after {drawn_stages} singles "
                                       f"stage{'s' if drawn_stages != 1 else ''} dealt ({n} hands of "
                                       f"{g.hand_size}) {left} are left (§3)")

    def seed_shuffles(self) -> tuple[list, list]:
        """The singles and the duplexes as ``new_initial_state(seed)`` shuffles them."""
        g = self.game
        rng = Rng(self.s.seed)
        singles = list(g.singles)
        rng.shuffle(singles)
        dups = list(range(len(self.c.duplexes)))
        rng.shuffle(dups)
        return singles, dups

    # --- what the whole position must satisfy ------------------------------------------------
    def checks(self) -> None:
        s, g = self.s, self.game
        s._legal = None
        step = s.RULES.steps[s.step] if s.step != NO_DECISION else None
        if s.step in (CHOOSE, DISCARD):
            for p in range(self.n):
                if s.pending[p] < 0:
                    continue
                legal = {a.id for a in step.legal(s, p)}
                if s.pending[p] not in legal:
                    ln = self.L.get("chosen", SEAT_NAMES[p])
                    _fail(ln, s.RULES.why_illegal(s, g.action_space.table[s.pending[p]]))
        elif s.step in (PLACE, PLACE_DUPLEX):
            if not step.legal(s):
                _fail(self.to_move_ln, f"{SEAT_NAMES[s.player]} has nowhere to place its tile (§4)")
        s._legal = None


__all__ = ["parse", "write", "TERRAIN_TOKEN"]
