"""Quadropolis positions as text: ``parse(game, text)`` builds a validated state, ``write(state)`` exports
one (``game.state_from_position(text)`` and ``state.position()`` call them).

python-chess's FEN is the model: one text holds every rule-relevant part of the state, is validated
when read, and ``write`` gives it back for any state (rule tests, bug reports, analysis). The text is
``key: value`` lines; ``#`` starts a comment, blank lines are ignored, indented lines belong to the
block above (``site:``, ``slots:``, a seat's block ``Blue:`` ...). ``POSITION.md`` documents every
line; example (Classic, 3 players, Red places the tower block it took with architect #3)::

    game: quadropolis
    options: num_players=3, mode=classic, allocation=auto
    seed: 5
    round: 2
    turns taken: 4 of 12
    first player: Green
    mayor: Green
    decision: place
    to move: Red
    taken: T2i@2b, architect 3
    urbanist: r2c3
    site:
      row 1: T1i, -, K, F1e, [T2i@2c]
      row 2: P0v, S, -, H2v, T3i
      ...
    slots:
      top: -, -, 1 Green, -, -
      ...
    Blue:
      inhabitants: 3
      energy: 1
      architects: 2, 3, 4
      row 1: T1i*@1, -, -, S@1
      ...
    round 3 tiles: K, T2i, ...     # the rounds not dealt yet, 25 tiles in square order

Tiles are named by their code (``components.Tile.code``: ``T2i``, ``S``, ``P1v``, ``H1i1e``, ``T1i*``,
``K+``); ``CODE@R`` names a tile of round R, ``CODE@Rx`` the copy x (a, b, c... in the data's order)
of that code in round R. A bare code (or ``CODE@R``) stands for the first copy not named elsewhere
in the text: ``write`` adds the round to every city tile and the copy letter only where it is needed
to name the very tile of the state, so ``parse(game, write(s))`` rebuilds ``s`` field for field.
"""

from __future__ import annotations

import re

from citygames.core.phases import NO_DECISION
from citygames.core.position_text import Line, PositionLines
from citygames.core.rng import Rng

from .components import MARKERS, SHOP, STACKING, TYPE_NAMES
from .constants import ALLOCATE, P_ALLOCATION, P_END, P_ROUNDS, PLACE, STEP_KEYS, TAKE
from .game import NSLOTS, SEAT_NAMES, SIDES, slot_name, slot_target
from .site import deal, face_down_markers
from .state import QuadropolisState

_TOP = ("game", "options", "seed", "round", "turns taken", "first player", "mayor", "decision", "to move", "taken",
        "urbanist", "pool", "site", "slots")
_SEAT_KEYS = ("inhabitants", "energy", "architects", "allocated", "active", "customers")
_REF = re.compile(r"^(?P<code>[A-Z][0-9a-z*+]*?)(?:@(?P<round>[0-9]+)(?P<copy>[a-z])?)?(?:\^(?P<h>[0-9]+))?$")
_SQUARE = re.compile(r"^r([0-9]+)c([0-9]+)$")


def _sq(q: int) -> str:
    return f"r{q // 5 + 1}c{q % 5 + 1}"


# ==============================================================================================
# tiles: codes, rounds, copies
# ==============================================================================================
class _Catalogue:
    """The mode's tiles by code: ``by_rc[(round, code)]`` the copies in data order (copy letters a, b,
    ...), ``letter[idx]`` the copy letter of a tile, ``hide`` the lowest marker left face down."""

    def __init__(self, game):
        self.game = game
        self.tiles = game.tiles
        self.by_rc: dict[tuple[int, str], list[int]] = {}
        for t in self.tiles:
            self.by_rc.setdefault((t.round, t.code), []).append(t.idx)
        self.letter = {}
        for ids in self.by_rc.values():
            for i, x in enumerate(ids):
                self.letter[x] = "abcdefghijklmnopqrstuvwxyz"[i]
        self.codes = sorted({t.code for t in self.tiles})
        self.hide = face_down_markers(game.num_players)

    def name(self, idx: int, level: int) -> str:
        """Tile ``idx`` named at ``level``: 0 the code, 1 with its round, 2 with its round and copy."""
        t = self.tiles[idx]
        if level == 0:
            return t.code
        if level == 1:
            return f"{t.code}@{t.round}"
        return f"{t.code}@{t.round}{self.letter[idx]}"


class _Ctx:
    """Where a tile is named: the rounds it may come from and whether it must be face down (True), face
    up (False, it was taken face up) or either (None)."""

    __slots__ = ("rounds", "down", "where")

    def __init__(self, rounds, down, where: str):
        self.rounds, self.down, self.where = tuple(rounds), down, where


def _fits(cat: _Catalogue, idx: int, ctx: _Ctx) -> bool:
    t = cat.tiles[idx]
    return t.round in ctx.rounds and (ctx.down is None or (t.marker >= cat.hide) == ctx.down)


def _resolve(cat: _Catalogue, code: str, rnd: int | None, copy: str | None, ctx: _Ctx, taken: set,
             reserved: set, fail) -> int:
    """The tile a reference names (see the module docstring); ``fail(msg)`` raises."""
    game = cat.game
    if code not in cat.codes:
        other = next((m for m in ("classic", "expert") if m != game.mode
                      and any(t.code == code for t in game.components.tiles[m])), None)
        if other:
            fail(f"{code} is a tile of the {other} game only")
        fail(f"unknown tile code {code!r} (the {game.mode} game has {', '.join(cat.codes)})")
    if rnd is not None:
        if (rnd, code) not in cat.by_rc:
            fail(f"round {rnd} of the {game.mode} game has no {code}")
        if rnd not in ctx.rounds:
            fail(f"{code}@{rnd}: {ctx.where} holds tiles of round "
                 + (f"{ctx.rounds[0]}" if len(ctx.rounds) == 1 else f"{ctx.rounds[0]}-{ctx.rounds[-1]}")
                 + " only")
    if copy is not None:
        ids = cat.by_rc[(rnd, code)]
        k = ord(copy) - ord("a")
        if k >= len(ids):
            fail(f"round {rnd} has {len(ids)} {code} tile{'s' if len(ids) > 1 else ''} (copies a-"
                 f"{'abcdefghijklmnopqrstuvwxyz'[len(ids) - 1]})")
        x = ids[k]
        _check_face(cat, x, ctx, f"{code}@{rnd}{copy}", fail)
        if x in taken:
            fail(f"{code}@{rnd}{copy} is named twice: a tile is in one place only")
        return x
    rounds = (rnd,) if rnd is not None else ctx.rounds
    ids = [x for r in rounds for x in cat.by_rc.get((r, code), ())]
    if not ids:
        span = f"{rounds[0]}" if len(rounds) == 1 else f"{rounds[0]}-{rounds[-1]}"
        fail(f"{ctx.where} holds tiles of round {span} only, and no {code} is among them")
    fitting = [x for x in ids if _fits(cat, x, ctx)]
    if not fitting:
        _check_face(cat, ids[0], ctx, code, fail)
    free = [x for x in fitting if x not in taken and x not in reserved]
    if not free:
        other = [x for x in ids if x not in taken and x not in reserved]
        if other:       # a copy is left, but face down where it must be face up or the other way round
            _check_face(cat, other[0], ctx, code, fail)
        fail(f"every {code} tile {ctx.where} may hold is already elsewhere ({len(fitting)} in the {game.mode} "
             "game's list): a tile is in one place only")
    return min(free)


def _check_face(cat: _Catalogue, x: int, ctx: _Ctx, name: str, fail) -> None:
    t = cat.tiles[x]
    n = cat.game.num_players
    if t.round not in ctx.rounds:
        fail(f"{name} is a tile of round {t.round}: {ctx.where} holds tiles of round "
             + ", ".join(map(str, ctx.rounds)) + " only")
    if ctx.down is None:
        return
    down = t.marker >= cat.hide
    if down and not ctx.down:
        fail(f"{name} carries the marker \"{MARKERS[t.marker]}\": at {n} players it stays face down, so it is "
             f"never taken (§3, §4 PROJECT DEFAULT){'' if 'site' not in ctx.where else '; write it [' + name + ']'}")
    if ctx.down and not down:
        fail(f"[{name}]: at {n} players only tiles marked "
             + ("\"3-4\" or \"4\"" if cat.hide == 1 else "\"4\"" if cat.hide == 2 else "(none)")
             + " stay face down (§3)")


def _names(cat: _Catalogue, refs: list) -> list[str]:
    """Names for ``refs`` (``(idx, ctx, min level)`` in reading order) that ``parse`` resolves back to
    exactly these tiles: the lowest level that does (see the module docstring)."""
    levels = []
    taken: set = set()
    reserved: set = set()
    for idx, ctx, level in refs:
        t = cat.tiles[idx]
        while level < 2:
            rounds = (t.round,) if level == 1 else ctx.rounds
            ids = [x for r in rounds for x in cat.by_rc.get((r, t.code), ())]
            free = [x for x in ids if _fits(cat, x, ctx) and x not in taken and x not in reserved]
            if free and min(free) == idx:
                break
            level += 1
        if level == 2:
            reserved.add(idx)
        taken.add(idx)
        levels.append(level)
    return [cat.name(idx, lv) for (idx, _, _), lv in zip(refs, levels)]


# ==============================================================================================
# write
# ==============================================================================================
def _option_text(game) -> str:
    out = []
    for spec in game.info.options:
        out.append(f"{spec.name}={game.options[spec.name]}")
    return ", ".join(out)


def write(s) -> str:
    """State ``s`` in the notation, hidden parts included (the face-down tiles and the rounds not dealt
    yet), so that ``parse(game, write(s))`` gives the same state field for field."""
    g = s.game
    b = g.board
    n = g.num_players
    cat = _Catalogue(g)
    r = s.round
    in_rounds = s.phase == P_ROUNDS
    manual = g.options["allocation"] == "manual" and s.phase in (P_ALLOCATION, P_END)
    # every tile reference, in the reading order of ``parse``
    refs = []
    if in_rounds:
        for q in range(25):
            if s.site[q] >= 0:
                refs.append((s.site[q], _Ctx((r,), bool(s.face_down[q]), "the site"), 0))
        if s.step == PLACE:
            refs.append((s.taken, _Ctx((r,), False, "the taken tile"), 0))
    city_ctx = _Ctx(range(1, r + 1), False, "a city")
    for p in range(n):
        for x in range(b.spaces):
            t = s.city_tile[p * b.spaces + x]
            if t >= 0:
                refs.append((t, city_ctx, 1))
    future = [k for k in range(r + 1, b.rounds + 1) if s.decks[k]]
    for k in future:
        for t in s.decks[k]:
            refs.append((t, _Ctx((k,), None, f"the round {k} tiles"), 0))
    names = iter(_names(cat, refs))

    out = [f"game: {g.info.id}", f"options: {_option_text(g)}", f"seed: {s.seed}", f"round: {r}",
           f"turns taken: {s.turn} of {n * b.turns_per_round}", f"first player: {SEAT_NAMES[s.first]}",
           f"mayor: {SEAT_NAMES[s.mayor]}", f"decision: {STEP_KEYS[s.step]}"]
    if s.phase != P_END:
        out.append(f"to move: {SEAT_NAMES[s.player]}")
    if in_rounds:
        if s.step == PLACE:
            site_names = [next(names) if s.site[q] >= 0 else None for q in range(25)]
            out.append(f"taken: {next(names)}, architect {s.taken_k}")
        else:
            site_names = [next(names) if s.site[q] >= 0 else None for q in range(25)]
        out.append(f"urbanist: {_sq(s.urbanist) if s.urbanist >= 0 else 'beside the board'}")
    if b.shared_pool:
        out.append("pool: " + ", ".join(f"{k}={s.architects[k - 1]}" for k in range(1, b.architect_numbers + 1)))
    if in_rounds:
        out.append("site:")
        for row in range(5):
            cells = []
            for q in range(row * 5, row * 5 + 5):
                nm = site_names[q]
                cells.append("-" if nm is None else f"[{nm}]" if s.face_down[q] else nm)
            out.append(f"  row {row + 1}: " + ", ".join(cells))
    out.append("slots:")
    for side in range(4):
        cells = []
        for line in range(5):
            i = side * 5 + line
            cells.append(f"{s.slot_k[i]} {SEAT_NAMES[s.slot_seat[i]]}" if s.slot_k[i] else "-")
        out.append(f"  {SIDES[side]}: " + ", ".join(cells))
    k_max = b.architect_numbers
    for p in range(n):
        base = p * b.spaces
        out.append(f"{SEAT_NAMES[p]}:")
        out.append(f"  inhabitants: {s.inhabitants[p]}")
        out.append(f"  energy: {s.energy[p]}")
        if not b.shared_pool:
            ks = [str(k) for k in range(1, k_max + 1) if s.architects[p * k_max + k - 1]]
            out.append("  architects: " + (", ".join(ks) if ks else "none"))
        for row in range(b.rows):
            cells = []
            for x in range(row * b.cols, row * b.cols + b.cols):
                t = s.city_tile[base + x]
                if t < 0:
                    cells.append("-")
                else:
                    h = s.city_height[base + x]
                    cells.append(next(names) + (f"^{h}" if h > 1 else ""))
            out.append(f"  row {row + 1}: " + ", ".join(cells))
        if manual:
            out.append(f"  allocated: {'yes' if s.allocated[p] else 'no'}")
            act = [b.space_name(x) for x in range(b.spaces) if s.active[base + x]]
            out.append("  active: " + (", ".join(act) if act else "none"))
            cus = [f"{b.space_name(x)}={s.customers[base + x]}" for x in range(b.spaces) if s.customers[base + x]]
            out.append("  customers: " + (", ".join(cus) if cus else "none"))
    if future:
        out.append("# the rounds not dealt yet (hidden from the players; left out: dealt from the seed)")
        for k in future:
            out.append(f"round {k} tiles: " + ", ".join(next(names) for _ in s.decks[k]))
    return "\n".join(out) + "\n"


# ==============================================================================================
# parse: lines
# ==============================================================================================
def _lines(game, text: str) -> PositionLines:
    """The lines of a position (``citygames.core.position_text``): the top keys, the site and slots
    blocks and one block per seat of this game."""
    n = game.num_players
    b = game.board
    seats = SEAT_NAMES[:n]
    blocks = {"site": {f"row {i}" for i in range(1, 6)}, "slots": set(SIDES)}
    for p in seats:
        blocks[p] = set(_SEAT_KEYS) | {f"row {i}" for i in range(1, b.rows + 1)}
    top_keys = set(_TOP) | set(seats) | {f"round {k} tiles" for k in range(2, b.rounds + 1)}

    def unknown_top(no: int, key: str) -> str | None:
        if key in SEAT_NAMES:
            return f"line {no}: {key} does not play in a {n}-player game (seats: {', '.join(seats)})"
        return None

    return PositionLines(text, top_keys, blocks, unknown_top, outside="site, slots or a seat")


def _fail(ln: Line, msg: str):
    ln.fail(msg)


_items = PositionLines.items


def _int(ln: Line, value: str | None = None, lo: int | None = None, hi: int | None = None, what: str = "") -> int:
    v = ln.value if value is None else value
    try:
        x = int(v)
    except ValueError:
        _fail(ln, f"expected a whole number{' (' + what + ')' if what else ''}, got {v!r}")
    if (lo is not None and x < lo) or (hi is not None and x > hi):
        _fail(ln, f"{what or 'the number'} must be {lo}-{hi}" if hi is not None else
              f"{what or 'the number'} must be at least {lo}, got {x}")
    return x


# ==============================================================================================
# parse
# ==============================================================================================
def parse(game, text: str):
    """The state ``text`` describes (see the module docstring and ``POSITION.md``), validated; its
    ``origin`` is ``text``, its history and log are empty.

    Raises:
        PositionError: the text is not a valid position; the message names the line and the rule
            (``game.state_from_position`` refuses a value that is not a text first).
    """
    return _Reader(game, text).state()


class _Reader:
    def __init__(self, game, text: str):
        self.game = game
        self.b = game.board
        self.n = game.num_players
        self.L = _lines(game, text)
        self.cat = _Catalogue(game)
        self.s = QuadropolisState.blank(game, 0, origin=text)

    def state(self):
        self.header()
        self.turn()
        self.tiles()
        self.slots()
        self.architects()
        self.seats()
        self.allocation()
        self.checks()
        return self.s

    # --- header ----------------------------------------------------------------------------------
    def header(self) -> None:
        self.s.seed = self.L.check_header(self.game)

    def seat(self, ln: Line, value: str | None = None) -> int:
        v = ln.value if value is None else value
        seats = SEAT_NAMES[:self.n]
        if v not in seats:
            _fail(ln, f"expected a seat of this {self.n}-player game ({', '.join(seats)}), got {v!r}")
        return seats.index(v)

    def turn(self) -> None:
        """``round``, ``decision`` (the step and the phase), ``turns taken``, ``first player``, ``mayor``,
        ``to move``."""
        L, s, b, n = self.L, self.s, self.b, self.n
        ln = L.need("decision", why="(take, place, allocate or end)")
        if ln.value not in STEP_KEYS:
            _fail(ln, f"expected one of take, place, allocate, end; got {ln.value!r}")
        s.step = STEP_KEYS.index(ln.value)
        self.decision_ln = ln
        manual = self.game.options["allocation"] == "manual"
        if s.step == ALLOCATE and not manual:
            _fail(ln, "players allocate by hand only with the option allocation=manual")
        s.phase = {TAKE: P_ROUNDS, PLACE: P_ROUNDS, ALLOCATE: P_ALLOCATION, NO_DECISION: P_END}[s.step]
        ln = L.need("round")
        s.round = _int(ln, lo=1, hi=b.rounds, what=f"the round of the {self.game.mode} game")
        if s.phase != P_ROUNDS and s.round != b.rounds:
            _fail(ln, f"the game ends after round {b.rounds} (§3): the {STEP_KEYS[s.step]} decision comes after it")
        total = n * b.turns_per_round
        ln = L.need("turns taken", why=f"(N of {total})")
        num, _, of = ln.value.partition(" of ")
        s.turn = _int(ln, num.strip(), what="the turns taken this round")
        if of and _int(ln, of.strip(), what="the turns of a round") != total:
            _fail(ln, f"a round has {total} turns at {n} players (4 each, §3)")
        if s.phase == P_ROUNDS and not 0 <= s.turn < total:
            _fail(ln, f"0 to {total - 1} turns are taken while the round is played (4 each at {n} players, §3)")
        if s.phase != P_ROUNDS and s.turn != total:
            _fail(ln, f"after the last round every player has taken its 4 turns: {total} of {total}")
        s.first = self.seat(L.need("first player", why="(the seat that started this round)"))
        s.mayor = self.seat(L.need("mayor", why="(the seat holding the Mayor)"))
        ln = L.get("to move")
        if s.phase == P_END:
            if ln is not None:
                _fail(ln, "nobody moves once the game is over")
            s.player = -4
        else:
            ln = L.need("to move")
            s.player = self.seat(ln)
            if s.phase == P_ROUNDS:
                expect = (s.first + s.turn) % n
                if s.player != expect:
                    _fail(ln, f"turn {s.turn + 1} of the round is {SEAT_NAMES[expect]}'s: play goes clockwise "
                              f"from {SEAT_NAMES[s.first]}, who started the round (§3)")
        if s.phase == P_ROUNDS and s.turn == 0 and s.step == TAKE and s.mayor != s.first:
            _fail(L.get("mayor"), f"the round starts with the Mayor's holder (§3): first player {SEAT_NAMES[s.first]} "
                                  f"must hold the Mayor before the first turn")

    # --- tiles -----------------------------------------------------------------------------------
    def ref(self, ln: Line, word: str, ctx: _Ctx, exact_pass: bool, stack: bool = False):
        """One tile reference; returns ``(idx or None, height)``. In the exact pass only ``CODE@Rx``
        references are resolved (they reserve their tile), the others in the second pass."""
        m = _REF.match(word)
        if not m:
            _fail(ln, f"{word!r} is not a tile (a code such as T2i, S, P1v, H1i1e, T1i*, optionally @round "
                      "and copy letter: T2i@1b" + (", and ^floors for a stack: T2i^3" if stack else "") + ")")
        h = m.group("h")
        if h is not None and not stack:
            _fail(ln, f"{word!r}: only buildings in a city stack (^floors)")
        height = int(h) if h is not None else 1
        rnd = int(m.group("round")) if m.group("round") is not None else None
        copy = m.group("copy")
        code = m.group("code")

        def fail(msg):
            _fail(ln, msg)
        if exact_pass != (copy is not None):
            return None, height
        x = _resolve(self.cat, code, rnd, copy, ctx, self.named, self.reserved, fail)
        self.named[x] = ln
        if copy is not None:
            self.reserved.add(x)
        return x, height

    def tiles(self) -> None:
        """The site, the taken tile, the cities and the rounds not dealt yet: every tile named once, the
        exact references (``CODE@Rx``) first."""
        L, s, b, n = self.L, self.s, self.b, self.n
        r = s.round
        in_rounds = s.phase == P_ROUNDS
        self.named: dict[int, Line] = {}
        self.reserved: set = set()
        refs = []   # (line, word, ctx, stack, slot) in reading order; slot: where the result goes
        site = [-1] * 25
        face_down = [False] * 25
        if in_rounds:
            L.need("site", why="(5 rows of 5 squares: a tile code, [code] face down, - empty)")
            for row in range(5):
                ln = L.need(f"row {row + 1}", "site")
                cells = [c.strip() for c in ln.value.split(",")]
                if len(cells) != 5:
                    _fail(ln, f"a row of the construction site has 5 squares, got {len(cells)} (§4)")
                for col, cell in enumerate(cells):
                    q = row * 5 + col
                    if cell == "-":
                        continue
                    down = cell.startswith("[") and cell.endswith("]")
                    word = cell[1:-1].strip() if down else cell
                    face_down[q] = down
                    refs.append((ln, word, _Ctx((r,), down, "the site"), False, ("site", q)))
        elif L.get("site") is not None:
            _fail(L.get("site"), "the site is cleared at the end of the last round (§3)")
        ln = L.get("taken")
        self.taken_ln = ln
        s.taken, s.taken_k = -1, 0
        if s.step == PLACE:
            ln = self.taken_ln = L.need("taken", why="(the tile to place and the architect's number: T2i, architect 3)")
            word, comma, arch = ln.value.partition(",")
            arch = arch.strip()
            if not comma or not arch.startswith("architect "):
                _fail(ln, f"expected 'CODE, architect K', got {ln.value!r}")
            s.taken_k = _int(ln, arch[len("architect "):].strip(), what="the architect's number")
            if not 1 <= s.taken_k <= b.architect_numbers:
                _fail(ln, f"the {self.game.mode} game has architects #1-#{b.architect_numbers} (§2)")
            refs.append((ln, word.strip(), _Ctx((r,), False, "the taken tile"), False, ("taken", 0)))
        elif ln is not None:
            _fail(ln, "a taken tile waits only during the place decision")
        city_tile = [-1] * (n * b.spaces)
        city_height = [0] * (n * b.spaces)
        city_ctx = _Ctx(range(1, r + 1), False, "a city")
        for p in range(n):
            name = SEAT_NAMES[p]
            L.need(name, why=f"(the block of {name}'s city and resources)")
            for row in range(b.rows):
                ln = L.need(f"row {row + 1}", name, why=f"({b.cols} spaces: - or a tile code, ^floors for a stack)")
                cells = [c.strip() for c in ln.value.split(",")]
                if len(cells) != b.cols:
                    _fail(ln, f"a row of the {self.game.mode} city has {b.cols} spaces, got {len(cells)} (§5)")
                for col, cell in enumerate(cells):
                    if cell != "-":
                        refs.append((ln, cell, city_ctx, True, ("city", p * b.spaces + row * b.cols + col)))
        decks = [()] * (b.rounds + 1)
        given = set()
        for k in range(2, b.rounds + 1):
            ln = L.get(f"round {k} tiles")
            if ln is None:
                continue
            if k <= r:
                _fail(ln, f"round {k} has been dealt: its tiles are on the site, in the cities or in the box")
            given.add(k)
            cells = _items(ln)
            if len(cells) != 25:
                _fail(ln, f"a round deals 25 tiles onto the 25 squares (§3), got {len(cells)}")
            for q, cell in enumerate(cells):
                refs.append((ln, cell, _Ctx((k,), None, f"the round {k} tiles"), False, ("deck", k * 25 + q)))
        results = {}
        for exact in (True, False):
            for ln, word, ctx, stack, where in refs:
                x, h = self.ref(ln, word, ctx, exact, stack)
                if x is not None:
                    results[where] = (x, h, ln)
        tiles = self.game.tiles
        deck_lists = {k: [None] * 25 for k in given}
        for (kind, i), (x, h, ln) in results.items():
            if kind == "site":
                site[i] = x
            elif kind == "taken":
                s.taken = x
            elif kind == "city":
                t = tiles[x]
                if h > 1 and t.type not in STACKING:
                    _fail(ln, f"{self.cat.name(x, 0)}^{h}: a {TYPE_NAMES[t.type]} does not stack; only tower blocks"
                              + (" and office towers" if self.game.mode == "expert" else "")
                              + " stack, on their own kind (§6)")
                if h > b.max_height:
                    _fail(ln, f"{self.cat.name(x, 0)}^{h}: a stack has at most {b.max_height} floors in the "
                              f"{self.game.mode} game (§6)")
                if h < 1:
                    _fail(ln, "a stack has at least 1 floor")
                city_tile[i], city_height[i] = x, h
            else:
                k, q = divmod(i, 25)
                deck_lists[k][q] = x
        rng = Rng(s.seed)
        rng.randbelow(n)
        dealt = deal(self.game, rng)
        for k in range(r + 1, b.rounds + 1):
            decks[k] = tuple(deck_lists[k]) if k in given else dealt[k]
        s.site, s.face_down, s.city_tile, s.city_height, s.decks = site, face_down, city_tile, city_height, tuple(decks)
        self.results = results

    # --- slots and architects --------------------------------------------------------------------
    def slots(self) -> None:
        L, s, b, n = self.L, self.s, self.b, self.n
        s.slot_k = [0] * NSLOTS
        s.slot_seat = [-1] * NSLOTS
        self.slot_ln = {}
        if L.get("slots") is None:
            L.need("slots", why="(top, bottom, left, right: 5 entries each, - or 'K Seat')")
        for side in range(4):
            ln = L.need(SIDES[side], "slots", why="(5 entries: - or 'K Seat')")
            cells = [c.strip() for c in ln.value.split(",")]
            if len(cells) != 5:
                _fail(ln, f"there is one slot at each end of each of the 5 lines (§4): 5 entries, got {len(cells)}")
            for line, cell in enumerate(cells):
                i = side * 5 + line
                if cell == "-":
                    continue
                num, _, seat = cell.partition(" ")
                k = _int(ln, num, what=f"the architect's number in the slot {slot_name(i)}")
                if not 1 <= k <= b.architect_numbers:
                    _fail(ln, f"architect #{k}: the {self.game.mode} game has architects #1-#{b.architect_numbers} "
                              f"(§2, §4)")
                p = self.seat(ln, seat.strip())
                s.slot_k[i], s.slot_seat[i] = k, p
                self.slot_ln[i] = ln
        # Classic: each seat's #k at most once; Expert: n copies of each number
        if b.shared_pool:
            for k in range(1, b.architect_numbers + 1):
                used = [i for i in range(NSLOTS) if s.slot_k[i] == k]
                if len(used) > n:
                    _fail(self.slot_ln[used[-1]], f"{len(used)} architects #{k} in slots: the pool holds {n} of each "
                                                  f"number at {n} players (§4)")
        else:
            for p in range(n):
                for k in range(1, b.architect_numbers + 1):
                    used = [i for i in range(NSLOTS) if s.slot_k[i] == k and s.slot_seat[i] == p]
                    if len(used) > 1:
                        _fail(self.slot_ln[used[1]], f"{SEAT_NAMES[p]} has one architect #{k}, used once a round "
                                                     f"(§3); it is already {slot_name(used[0])}")
        # how many turns each seat has played this round
        if s.phase == P_ROUNDS:
            turns = [sum(1 for t in range(s.turn) if (s.first + t) % n == p) for p in range(n)]
            if s.step == PLACE:
                turns[s.player] += 1
        else:
            turns = [b.turns_per_round] * n
        self.turns = turns
        any_ln = L.get("slots")
        for p in range(n):
            have = sum(1 for i in range(NSLOTS) if s.slot_seat[i] == p)
            if have != turns[p]:
                _fail(any_ln, f"{SEAT_NAMES[p]} has {have} architect{'s' if have != 1 else ''} in slots, but has "
                              f"played {turns[p]} turn{'s' if turns[p] != 1 else ''} of this round"
                              + (" (the turn in progress included)" if s.step == PLACE and p == s.player else "")
                              + ": every turn puts one architect in a slot (§3, §4)")
        s.urbanist = -1
        if s.phase != P_ROUNDS:
            if L.get("urbanist") is not None and L.get("urbanist").value != "beside the board":
                _fail(L.get("urbanist"), "the Urbanist goes beside the board at the end of each round (§3)")
            return
        # the Urbanist, the squares pointed at
        ln = self.urb_ln = L.need("urbanist", why="(a square r1c1-r5c5 or 'beside the board')")
        if ln.value == "beside the board":
            s.urbanist = -1
        else:
            m = _SQUARE.match(ln.value)
            if not m or not (1 <= int(m.group(1)) <= 5 and 1 <= int(m.group(2)) <= 5):
                _fail(ln, f"expected a square r1c1-r5c5 or 'beside the board', got {ln.value!r}")
            s.urbanist = (int(m.group(1)) - 1) * 5 + int(m.group(2)) - 1
        occupied = [i for i in range(NSLOTS) if s.slot_k[i]]
        if not occupied and s.urbanist >= 0:
            _fail(ln, "no architect has been placed this round: the Urbanist is beside the board (§3)")
        if occupied and s.urbanist < 0:
            _fail(ln, "the Urbanist moves to the square the last architect pointed at, tile taken or not (§4)")
        targets = {slot_target(i, s.slot_k[i]) for i in occupied}
        for i in occupied:
            q = slot_target(i, s.slot_k[i])
            if s.site[q] >= 0 and not s.face_down[q]:
                _fail(self.slot_ln[i], f"architect #{s.slot_k[i]} {slot_name(i)} points at {_sq(q)}, which still holds "
                                       "a face-up tile: the tile pointed at is taken (§4)")
        site_ln = L.get("site")
        for q in range(25):
            if s.site[q] < 0 and q not in targets:
                _fail(site_ln, f"{_sq(q)} is empty but no architect points at it: a square is emptied only by "
                               "taking its tile (§3, §4)")
        if occupied:
            last = s.player if s.step == PLACE else (s.first + s.turn - 1) % n
            cands = [i for i in occupied if s.slot_seat[i] == last and slot_target(i, s.slot_k[i]) == s.urbanist
                     and (s.step != PLACE or s.slot_k[i] == s.taken_k)]
            if not cands:
                what = (f"{SEAT_NAMES[last]}'s architect #{s.taken_k}, which took the tile" if s.step == PLACE else
                        f"an architect of {SEAT_NAMES[last]}, who played last")
                _fail(ln, f"the Urbanist stands on the square the last architect pointed at (§4): "
                          f"{_sq(s.urbanist)} is not pointed at by {what}")
        if s.step == PLACE and s.site[s.urbanist] >= 0:
            _fail(self.taken_ln, f"the taken tile came from {_sq(s.urbanist)}, where the Urbanist stands; that "
                                 "square still holds a tile")

    def architects(self) -> None:
        """``pool`` (Expert) or each seat's ``architects`` (Classic): what is not in a slot this round."""
        L, s, b, n = self.L, self.s, self.b, self.n
        k_max = b.architect_numbers
        if b.shared_pool:
            pool = [n - sum(1 for i in range(NSLOTS) if s.slot_k[i] == k) for k in range(1, 6)]
            ln = L.get("pool")
            if ln is not None:
                seen = {}
                for item in _items(ln):
                    num, eq, cnt = item.partition("=")
                    if not eq:
                        _fail(ln, f"expected K=copies left, got {item!r}")
                    k = _int(ln, num.strip(), what="the architect's number")
                    if not 1 <= k <= k_max:
                        _fail(ln, f"architect #{k}: the expert pool holds #1-#{k_max} (§4)")
                    c = _int(ln, cnt.strip(), lo=0, hi=n, what=f"the copies of #{k} left (N = {n} players, §4)")
                    if k in seen:
                        _fail(ln, f"#{k} is given twice")
                    seen[k] = c
                    if c != pool[k - 1]:
                        _fail(ln, f"{c} architect{'s' if c != 1 else ''} #{k} left, but {n - pool[k - 1]} of the {n} "
                                  f"are in slots: the pool holds the others (§4)")
                if len(seen) != k_max:
                    _fail(ln, f"give the copies left of each number 1-{k_max}")
            s.architects = pool
            for p in range(n):
                if L.get("architects", SEAT_NAMES[p]) is not None:
                    _fail(L.get("architects", SEAT_NAMES[p]), "in the expert game the architects are a shared pool "
                                                              "(line pool), nobody owns any (§4)")
            return
        if L.get("pool") is not None:
            _fail(L.get("pool"), "in the classic game each player owns architects #1-#4 (a seat's line "
                                 "architects), there is no pool (§2)")
        arch = []
        for p in range(n):
            mine = [0 if any(s.slot_k[i] == k and s.slot_seat[i] == p for i in range(NSLOTS)) else 1
                    for k in range(1, k_max + 1)]
            ln = L.get("architects", SEAT_NAMES[p])
            if ln is not None:
                ks = [_int(ln, w, what="an architect's number") for w in _items(ln)]
                for k in ks:
                    if not 1 <= k <= k_max:
                        _fail(ln, f"architect #{k}: the classic game has #1-#{k_max} per player (§2)")
                    if not mine[k - 1]:
                        i = next(i for i in range(NSLOTS) if s.slot_k[i] == k and s.slot_seat[i] == p)
                        _fail(ln, f"{SEAT_NAMES[p]}'s architect #{k} is in the slot {slot_name(i)} (line "
                                  f"{self.slot_ln[i].no}): it is not available again this round (§3)")
                if len(set(ks)) != len(ks):
                    _fail(ln, "an architect is listed twice")
                for k in range(1, k_max + 1):
                    if mine[k - 1] and k not in ks:
                        _fail(ln, f"{SEAT_NAMES[p]}'s architect #{k} is in no slot this round: it is still available")
            arch += mine
        s.architects = arch

    # --- seats -----------------------------------------------------------------------------------
    def seats(self) -> None:
        L, s, b, n = self.L, self.s, self.b, self.n
        s.inhabitants = [0] * n
        s.energy = [0] * n
        for p in range(n):
            name = SEAT_NAMES[p]
            s.inhabitants[p] = _int(L.need("inhabitants", name), lo=0, what="the inhabitants held")
            s.energy[p] = _int(L.need("energy", name), lo=0, what="the energy held")
            built = sum(s.city_height[p * b.spaces:(p + 1) * b.spaces])
            turns = b.turns_per_round * (s.round - 1) + self.turns[p]
            if s.step == PLACE and p == s.player:
                turns -= 1     # the turn in progress has not built yet
            if built > turns:
                _fail(L.get("row 1", name), f"{name}'s city has {built} floors, but {name} has played {turns} turns: "
                                            "a player builds at most one building a turn (§3)")

    def allocation(self) -> None:
        """The hand allocation (``allocated``, ``active``, ``customers``): option allocation=manual, during the
        allocation and at the end (§7)."""
        L, s, b, n = self.L, self.s, self.b, self.n
        s.active = [0] * (n * b.spaces)
        s.customers = [0] * (n * b.spaces)
        s.allocated = [False] * n
        manual = self.game.options["allocation"] == "manual" and s.phase != P_ROUNDS
        tiles = self.game.tiles
        for p in range(n):
            name = SEAT_NAMES[p]
            base = p * b.spaces
            for key in ("allocated", "active", "customers"):
                ln = L.get(key, name)
                if ln is not None and not manual:
                    _fail(ln, "players allocate by hand only after the last round, with allocation=manual (§7)")
            if not manual:
                continue
            ln = L.get("allocated", name)
            if ln is not None:
                if ln.value not in ("yes", "no"):
                    _fail(ln, f"expected yes or no, got {ln.value!r}")
                s.allocated[p] = ln.value == "yes"
            ln = L.get("active", name)
            if ln is not None:
                for w in _items(ln):
                    x = self.space(ln, w)
                    if s.city_tile[base + x] < 0:
                        _fail(ln, f"{w} is empty: only a building is activated (§7)")
                    if s.active[base + x]:
                        _fail(ln, f"{w} is listed twice")
                    s.active[base + x] = 1
            ln = L.get("customers", name)
            if ln is not None:
                for w in _items(ln):
                    sp, eq, cnt = w.partition("=")
                    if not eq:
                        _fail(ln, f"expected SPACE=customers, got {w!r}")
                    x = self.space(ln, sp.strip())
                    c = _int(ln, cnt.strip(), lo=1, hi=b.shop_capacity,
                             what=f"the customers on a shop (at most {b.shop_capacity}, §7)")
                    t = s.city_tile[base + x]
                    if t < 0 or tiles[t].type != SHOP:
                        _fail(ln, f"{sp.strip()}: customers go on shops only (§7)")
                    if not s.active[base + x]:
                        _fail(ln, f"{sp.strip()}: a shop needs its energy (active) before it takes customers (§7)")
                    if s.customers[base + x]:
                        _fail(ln, f"{sp.strip()} is listed twice")
                    s.customers[base + x] = c
            inh = en = 0
            for x in range(b.spaces):
                t = s.city_tile[base + x]
                if s.active[base + x]:
                    inh += b.cost_inh[tiles[t].type]
                    en += b.cost_energy[tiles[t].type]
                inh += s.customers[base + x]
            if inh > s.inhabitants[p] or en > s.energy[p]:
                _fail(L.get("active", name) or L.need("customers", name),
                      f"{name}'s allocation uses {inh} inhabitants and {en} energy, but {name} holds "
                      f"{s.inhabitants[p]} and {s.energy[p]} (§7)")
        if not manual:
            return
        if s.phase == P_END:
            for p in range(n):
                if not s.allocated[p]:
                    _fail(L.get("allocated", SEAT_NAMES[p]) or L.get(SEAT_NAMES[p]),
                          f"the game ends once every player has allocated: {SEAT_NAMES[p]} has not (allocated: no)")
            return
        order = [(s.mayor + i) % n for i in range(n)]
        done = order[:order.index(s.player)]
        for p in range(n):
            name = SEAT_NAMES[p]
            if s.allocated[p] != (p in done):
                _fail(L.get("allocated", name) or L.need("to move"),
                      f"players allocate one after the other clockwise from the Mayor's holder "
                      f"{SEAT_NAMES[s.mayor]}: with {SEAT_NAMES[s.player]} to allocate, "
                      + (", ".join(SEAT_NAMES[q] for q in done) or "nobody") + " has finished")
            if p not in done and p != s.player and (any(s.active[p * b.spaces:(p + 1) * b.spaces])):
                _fail(L.get("active", name), f"{name} has not begun to allocate: nothing of it is allocated yet")

    def space(self, ln: Line, w: str) -> int:
        b = self.b
        m = _SQUARE.match(w)
        if not m or not (1 <= int(m.group(1)) <= b.rows and 1 <= int(m.group(2)) <= b.cols):
            _fail(ln, f"expected a city space r1c1-r{b.rows}c{b.cols}, got {w!r}")
        return (int(m.group(1)) - 1) * b.cols + int(m.group(2)) - 1

    # --- what the whole position must satisfy ---------------------------------------------------
    def checks(self) -> None:
        L, s, b, n = self.L, self.s, self.b, self.n
        tiles = self.game.tiles
        r = s.round
        # stacking types: every floor is a tile of a round played
        for ty in sorted(STACKING):
            have = sum(1 for t in tiles if t.type == ty and t.round <= r)
            floors = sum(s.city_height[i] for i in range(n * b.spaces) if s.city_tile[i] >= 0
                         and tiles[s.city_tile[i]].type == ty)
            elsewhere = sum(1 for t in s.site if t >= 0 and tiles[t].type == ty) + \
                (1 if s.taken >= 0 and tiles[s.taken].type == ty else 0)
            if have and floors + elsewhere > have:
                ln = next((ln for (kind, _), (x, h, ln) in self.results.items()
                           if kind == "city" and tiles[x].type == ty and h > 1), None) or L.get(SEAT_NAMES[0])
                _fail(ln, f"the cities hold {floors} {TYPE_NAMES[ty]} floors and the site {elsewhere} more, but rounds "
                          f"1-{r} of the {self.game.mode} game have {have} {TYPE_NAMES[ty]} tiles (§9)")
        # the Mayor (§10 #11): it changes hands only when the round's mayor tower is built
        if s.phase == P_ROUNDS:
            mayors = [t.idx for t in tiles if t.mayor and t.round == r]
            waiting = [x for x in mayors if x in s.site or x == s.taken]
            for p in range(n):
                for x in s.city_tile[p * b.spaces:(p + 1) * b.spaces]:
                    if x in mayors and p != s.mayor:
                        _fail(L.need("mayor"), f"{SEAT_NAMES[p]} built this round's mayor tower, so it holds the "
                                               "Mayor (§10 #11)")
            if s.mayor != s.first and (not mayors or waiting):
                _fail(L.need("mayor"), f"{SEAT_NAMES[s.first]} started this round holding the Mayor, and the Mayor "
                                       "changes hands only when someone builds this round's mayor tower (§10 #11)"
                      + (": it has not been built" if mayors else ": this round has none"))
        # the pending decision
        if s.step == PLACE and not s.placements(s.player, s.taken, s.taken_k):
            _fail(self.taken_ln, f"{self.cat.name(s.taken, 0)} fits nowhere in {SEAT_NAMES[s.player]}'s city with "
                                 f"architect #{s.taken_k}: it goes back to the box at once (§6, §10 #12)")
        if s.step == TAKE and not s.RULES.legal(s):
            _fail(self.decision_ln, f"{SEAT_NAMES[s.player]} has no legal slot: every free slot is in the Urbanist's "
                                    "row or column, or no architect is left (§4)")


__all__ = ["parse", "write"]
