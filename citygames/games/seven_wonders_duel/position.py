"""7 Wonders Duel positions as text: ``parse(game, text)`` builds a validated state, ``write(state)``
exports one (``game.state_from_position(text)`` and ``state.position()`` call them).

The notation plays the part python-chess's FEN plays for chess, as readable ``key: value`` lines.
Cards, wonders and progress tokens are written by their English names (``data/*.yaml``), lists are
separated by commas (``none`` for an empty list), seats are ``North`` (seat 0) and ``South`` (seat 1),
ages are ``I``, ``II``, ``III``. Blank lines and ``#`` comments are ignored; indented lines belong to
the block (``structure:``, ``North:``, ``South:``) above them. Example (Age II, North to move)::

    game: seven_wonders_duel
    options: num_players=2, first_game_wonders=no, next_age_chooser=erratum
    seed: 7
    first player: South
    age: II
    decision: play
    to move: North
    extra turn: no
    last card taken by: South
    conflict pawn: 1 toward North
    progress tokens on the board: Economy, Law, Strategy, Theology, Urbanism
    discard pile: Palisade, Baths
    structure:
      row 1: Dispensary, Caravansery, Laboratory, Rostrum, Customs House, Drying Room
      row 2: [School], [Temple], [Forum], [Horse Breeders], [Aqueduct]
      row 3: Walls, Library, Statue, Sawmill
      row 4: Parade Ground, [Barracks], [Brewery]
      row 5: -, Brickyard
    North:
      coins: 9
      city: Wood Reserve, Stone Pit, Garrison
      wonders: The Pyramids (Press), The Colossus, The Hanging Gardens, Circus Maximus
      progress tokens: none
      military tokens: 2, 5
    South:
      coins: 4
      city: Glassworks, Workshop, Clay Pool
      wonders: The Great Lighthouse, The Sphinx (Clay Pit), The Statue of Zeus, The Mausoleum
      progress tokens: none
      military tokens: 2, 5
    # hidden from the players (left out: dealt from the seed)
    removed from Age I: Pharmacist, Altar, Clay Reserve
    progress tokens in the box: Architecture, Mathematics, Philosophy, Masonry, Agriculture

``write`` emits every line; ``write(state, seat)`` only what that seat sees (no seed, face-down cards
as ``[?]``, no hidden lines), which ``parse`` completes with cards it deals. ``POSITION.md`` describes
every line; ``parse`` validates everything it is given and raises ``PositionError`` naming the line
and the rule it breaks.
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION
from citygames.core.position_text import Line, PositionLines
from citygames.core.rng import Rng

from .ages import last_chooser
from .components import BROWN, COLORS, GREY, LAW, LAW_TOKEN, NC, NR, NS
from .constants import (CHOOSE_STARTER, CIVILIAN, DESTROY, DRAFT, LIBRARY, MAUSOLEUM, MILITARY, PLAY, ROMAN,
                        SCIENCE, SHARED, STEP_KEYS, TOKEN, VICTORY_NAMES)
from .game import SEAT_NAMES
from .scoring import score_breakdown
from .state import DuelState

#: decisions after which the reveal has not happened yet (P23: it waits for the pending choice)
_PENDING = (TOKEN, LIBRARY, DESTROY, MAUSOLEUM)
_TOP_KEYS = ("game", "options", "seed", "first player", "age", "decision", "to move", "extra turn",
             "last card taken by", "winner", "victory", "draft pool", "library draw", "destroy colour",
             "conflict pawn", "progress tokens on the board", "discard pile", "structure", "North", "South",
             "removed from Age I", "removed from Age II", "removed from Age III", "Age I deck", "Age II deck",
             "Age III deck", "guilds in the box", "progress tokens in the box", "wonders not revealed")
_SEAT_KEYS = ("coins", "city", "wonders", "progress tokens", "military tokens", "one-of order")
_OUT = "out of the game"


# ==============================================================================================
# write
# ==============================================================================================
def _names(items) -> str:
    items = list(items)
    return ", ".join(items) if items else "none"


def write(s, seat: int | None = None) -> str:
    """State ``s`` in the notation. ``seat=None``: everything, hidden parts included, so that
    ``parse(game, write(s))`` gives the same position (same text, observations, legal actions and
    play). ``seat=0/1``: only what that seat sees (P24) — no seed, face-down cards as ``[?]`` /
    ``[? guild]``, another seat's Great Library draw as ``?`` — for bug reports and bots."""
    c = s.c
    cards, wonders, tokens = c.cards, c.wonders, c.tokens
    full = seat is None
    opts = []
    for spec in s.game.info.options:
        v = s.game.options[spec.name]
        opts.append(f"{spec.name}={('yes' if v else 'no') if isinstance(v, bool) else v}")
    over = s.victory >= 0
    out = [f"game: {s.game.info.id}", "options: " + ", ".join(opts)]
    if full:
        out.append(f"seed: {s.seed}")
    out.append(f"first player: {SEAT_NAMES[s.first_player]}")
    if s.age:
        out.append(f"age: {ROMAN[s.age]}")
    out.append(f"decision: {STEP_KEYS[s.step]}")
    if over:
        out.append(f"winner: {SEAT_NAMES[s.winner] if s.winner >= 0 else 'nobody'}")
        out.append(f"victory: {VICTORY_NAMES[s.victory]}")
    else:
        out.append(f"to move: {SEAT_NAMES[s.player]}")
        out.append(f"extra turn: {'yes' if s.extra_turn else 'no'}")
    if s.last_taker >= 0:
        out.append(f"last card taken by: {SEAT_NAMES[s.last_taker]}")
    if s.step == DRAFT:
        out.append("draft pool: " + _names(wonders[w].name for w in s.draft_pool))
    if s.step == LIBRARY:
        mine = full or seat == s.player
        out.append("library draw: " + _names(tokens[t].name if mine else "?" for t in s.library_draw))
    if s.step == DESTROY:
        out.append(f"destroy colour: {COLORS[s.destroy_color]}")
    pawn = s.pawn
    out.append("conflict pawn: " + (f"{abs(pawn)} toward {SEAT_NAMES[1 if pawn > 0 else 0]}" if pawn else "0"))
    out.append("progress tokens on the board: " + _names(tokens[t].name for t in s.progress_board))
    out.append("discard pile: " + _names(cards[x].name for x in s.discard_pile))
    if s.age:
        out.append("structure:")
        for r, slots in enumerate(c.structures[s.age].row_slots, start=1):
            cells = []
            for i in slots:
                x = s.structure[i]
                if x < 0:
                    cells.append("-")
                elif s.face_up[i]:
                    cells.append(cards[x].name)
                elif full:
                    cells.append(f"[{cards[x].name}]")
                else:
                    cells.append("[? guild]" if cards[x].guild else "[?]")
            out.append(f"  row {r}: " + ", ".join(cells))
    for p in (0, 1):
        out.append(f"{SEAT_NAMES[p]}:")
        out.append(f"  coins: {s.coins[p]}")
        out.append("  city: " + _names(cards[x].name for x in s.city[p]))
        if s.step != DRAFT or s.wonders[p]:
            ws = []
            for w in s.wonders[p]:
                wc = s.wonder_card[w]
                ws.append(wonders[w].name + (f" ({cards[wc].name})" if wc >= 0 else f" ({_OUT})" if wc == -2 else ""))
            out.append("  wonders: " + _names(ws))
        out.append("  progress tokens: " + _names(tokens[t].name for t in range(len(tokens))
                                                 if s.progress_tokens[p] >> t & 1))
        out.append("  military tokens: " + _names(str(coins) for k, (_, coins) in enumerate(c.military_tokens)
                                                  if s.military_tokens[p * 2 + k]))
        order = _one_of_order(s, p)
        if order is not None:
            out.append("  one-of order: " + _names(order))
    if full:
        out.append("# hidden from the players (left out: dealt from the seed)")
        for a in (1, 2, 3):
            out.append(f"removed from Age {ROMAN[a]}: " + _names(cards[x].name for x in s.removed_cards[a]))
        for a in range(s.age + 1, 4):
            out.append(f"Age {ROMAN[a]} deck: " + _names(cards[x].name for x in s.age_decks[a]))
        out.append("guilds in the box: " + _names(cards[x].name for x in s.guild_box))
        out.append("progress tokens in the box: " + _names(tokens[t].name for t in s.progress_box))
        out.append("wonders not revealed: " + _names(wonders[w].name for w in s.unrevealed_wonders))
    return "\n".join(out) + "\n"


def _producers(s, p: int) -> list[tuple[str, tuple]]:
    """Seat ``p``'s one-of producers in the default order: its cards in build order, then its built
    wonders in the order held, as ``(name, choices)``."""
    c = s.c
    out = [(c.cards[x].name, c.cards[x].one_of) for x in s.city[p] if c.cards[x].one_of]
    out += [(c.wonders[w].name, c.wonders[w].one_of) for w in s.wonders[p]
            if c.wonders[w].one_of and s.wonder_card[w] >= 0]
    return out


def _one_of_order(s, p: int) -> list[str] | None:
    """The producers in an order that gives ``s.one_of[p]``, or ``None`` when the default order does."""
    prods = _producers(s, p)
    if tuple(f for _, f in prods) == s.one_of[p]:
        return None
    order = []
    for f in s.one_of[p]:
        i = next(i for i, (_, g) in enumerate(prods) if g == f)
        order.append(prods.pop(i)[0])
    return order


# ==============================================================================================
# parse
# ==============================================================================================
class _Parser(PositionLines):
    """Reads the lines of a position (``citygames.core.position_text``); ``fail`` raises
    ``PositionError`` naming a line."""

    def __init__(self, game, text: str):
        self.game = game
        self.c = game.components
        super().__init__(text, _TOP_KEYS, {"structure": None, "North": _SEAT_KEYS, "South": _SEAT_KEYS},
                         outside="structure, North, South")
        self.rows = self.rows["structure"]   # the structure's rows, in order

    @staticmethod
    def fail(ln: Line, msg: str):
        ln.fail(msg)

    # --- values ------------------------------------------------------------------------------------
    def seat(self, ln: Line, allow_nobody: bool = False) -> int:
        if ln.value in SEAT_NAMES:
            return SEAT_NAMES.index(ln.value)
        if allow_nobody and ln.value == "nobody":
            return -1
        self.fail(ln, f"expected {' or '.join(SEAT_NAMES)}{' or nobody' if allow_nobody else ''}, got {ln.value!r}")

    def integer(self, ln: Line) -> int:
        try:
            return int(ln.value)
        except ValueError:
            self.fail(ln, f"expected a whole number, got {ln.value!r}")

    def yes_no(self, ln: Line | None) -> bool:
        if ln is None:
            return False
        if ln.value not in ("yes", "no"):
            self.fail(ln, f"expected yes or no, got {ln.value!r}")
        return ln.value == "yes"

    def card(self, ln: Line, name: str) -> int:
        x = self.c.card_by_name.get(name)
        if x is None:
            self.fail(ln, f"unknown card {name!r}")
        return x

    def wonder(self, ln: Line, name: str) -> int:
        w = self.c.wonder_by_name.get(name)
        if w is None:
            self.fail(ln, f"unknown wonder {name!r}")
        return w

    def token(self, ln: Line, name: str) -> int:
        t = self.c.token_by_name.get(name)
        if t is None:
            self.fail(ln, f"unknown progress token {name!r}")
        return t


def parse(game, text: str):
    """The state ``text`` describes (see the module docstring and ``POSITION.md``), validated; its
    ``origin`` is ``text``, its history and log are empty.

    Raises:
        PositionError: the text is not a valid position; the message names the line and the rule
            (``game.state_from_position`` refuses a value that is not a text first).
    """
    return _Reader(game, text).state()


class _Reader:
    """Builds the state of a position part by part (each method reads some lines, checks them and sets
    the fields they determine), then deals the hidden parts left out."""

    def __init__(self, game, text: str):
        self.game = game
        self.r = _Parser(game, text)
        self.c = c = game.components
        s = self.s = DuelState.blank(game, origin=text)
        s.c = c
        #: where each card is: card -> (line, "in North's city", ...)
        self.where: dict[int, tuple[Line | None, str]] = {}
        #: who holds each wonder / where each token is
        self.owner: dict[int, tuple[Line, str]] = {}
        self.holder: dict[int, Line] = {}

    def state(self):
        self.header()
        self.turn()
        self.structure()
        self.cities()
        self.wonders()
        self.tokens()
        self.deal()
        self.cities_hold()
        self.conflict()
        self.decision()
        return self.s

    # --- places ---------------------------------------------------------------------------------
    def cards(self, ln: Line | None, place_name: str, max_age: int, exact_age: int | None = None) -> list[int]:
        """The cards listed on ``ln``, each put in ``place_name``: a card is in one place only, and of an age
        begun (``max_age`` at most) or exactly ``exact_age``."""
        return [self.place(ln, self.r.card(ln, n), place_name, max_age, exact_age) for n in self.r.items(ln)]

    def place(self, ln: Line, x: int, place_name: str, max_age: int, exact_age: int | None = None) -> int:
        r = self.r
        cd = self.c.cards[x]
        if x in self.where:
            other, what = self.where[x]
            r.fail(ln, f"{cd.name} is already {what} (line {other.no}): a card is in one place only")
        if exact_age is not None:
            if cd.age != exact_age:
                r.fail(ln, f"{cd.name} is an Age {ROMAN[cd.age]}{' guild' if cd.guild else ''} card, not an Age "
                           f"{ROMAN[exact_age]} card")
        elif cd.age > max_age:
            r.fail(ln, f"{cd.name} is an Age {ROMAN[cd.age]} card: it cannot be {place_name} "
                       + (f"in Age {ROMAN[max_age]}" if max_age else "during the wonder draft")
                       + " (the ages are played in order)")
        self.where[x] = (ln, place_name)
        return x

    def wonder_list(self, ln: Line | None, what: str) -> list[tuple[int, str]]:
        """The wonders listed on ``ln`` (held ``what``: a wonder is in one place only), each with the text in
        parentheses after it ("" when none)."""
        out = []
        for item in self.r.items(ln):
            name, _, rest = item.partition("(")
            w = self.r.wonder(ln, name.strip())
            if w in self.owner:
                other, o = self.owner[w]
                self.r.fail(ln, f"{self.c.wonders[w].name} is already {o} (line {other.no}): a wonder is in one "
                                "place only")
            self.owner[w] = (ln, what)
            if rest and not rest.endswith(")"):
                self.r.fail(ln, f"{item!r}: write a built wonder as 'Name (tucked card)'")
            out.append((w, rest[:-1].strip()))
        return out

    def token_list(self, ln: Line | None, unknown: bool = False) -> list[int | None]:
        """The tokens listed on ``ln`` (a token is in one place only); with ``unknown``, ``?`` gives ``None``."""
        out = []
        for n in self.r.items(ln):
            if unknown and n == "?":
                out.append(None)
                continue
            t = self.r.token(ln, n)
            if t in self.holder:
                self.r.fail(ln, f"{self.c.tokens[t].name} is already on line {self.holder[t].no}: a progress token "
                                "is in one place only")
            self.holder[t] = ln
            out.append(t)
        return out

    # --- the parts of a position ------------------------------------------------------------------------
    def header(self) -> None:
        """``game``, ``options`` (the loaded game's), ``seed``."""
        self.s.seed = self.r.check_header(self.game)
        self.rng = Rng(self.s.seed)

    def turn(self) -> None:
        """``first player``, ``decision``, ``age``, ``to move`` or the result, ``extra turn``, ``last card taken
        by``."""
        r, s = self.r, self.s
        s.first_player = r.seat(r.need("first player"))
        ln = self.decision_ln = r.need("decision")
        if ln.value not in STEP_KEYS:
            r.fail(ln, f"expected one of {', '.join(STEP_KEYS)}, got {ln.value!r}")
        s.step = step = STEP_KEYS.index(ln.value)
        self.over = step == NO_DECISION
        ln = r.get("age")
        if step == DRAFT:
            if ln is not None:
                r.fail(ln, "no age has begun during the wonder draft (§6.2)")
            if self.game.options["first_game_wonders"]:
                r.fail(self.decision_ln,
                       "with first_game_wonders there is no draft (HU \"A legelső játékok során\")")
            s.age = 0
        else:
            ln = r.need("age", why="(I, II or III; only the wonder draft has none)")
            if ln.value not in ROMAN[1:]:
                r.fail(ln, f"expected I, II or III, got {ln.value!r}")
            s.age = ROMAN.index(ln.value)
        if self.over:
            r.forbid("to move", "nobody moves once the game is over")
            s.winner = r.seat(r.need("winner", why="(the game is over)"), allow_nobody=True)
            ln = r.need("victory", why="(the game is over)")
            if ln.value not in VICTORY_NAMES:
                r.fail(ln, f"expected one of {', '.join(VICTORY_NAMES)}, got {ln.value!r}")
            s.victory = VICTORY_NAMES.index(ln.value)
            if (s.winner < 0) != (ln.value == "shared"):
                r.fail(ln, "a shared victory has no winner, every other victory has one")
            s.player = max(s.winner, 0)
        else:
            for key in ("winner", "victory"):
                r.forbid(key, "only a finished game (decision: end) has a winner")
            s.winner = s.victory = -1
            s.player = r.seat(r.need("to move"))
        ln = r.get("extra turn")
        s.extra_turn = r.yes_no(ln)
        if s.extra_turn and step not in _PENDING:
            r.fail(ln, "an extra turn waits only behind a pending choice (progress token, Great Library, destroy, "
                       "Mausoleum): it is played as soon as the action resolves (P9)")
        ln = r.get("last card taken by")
        s.last_taker = r.seat(ln) if ln is not None else -1

    def structure(self) -> None:
        """``structure:`` — the rows of the age's layout (§5): which card where, face up or down, taken, and
        what a reveal would have turned up by now (P23)."""
        r, s, c = self.r, self.s, self.c
        age = s.age
        structure = [-1] * 20
        face_up = [False] * 20
        self.unknown = []   # face-down slots to deal: (slot, guild back, line)
        s.cards_taken = 0
        if not age:
            r.forbid("structure", "there is no structure before Age I")
            s.structure, s.face_up = structure, face_up
            return
        st = c.structures[age]
        r.need("structure", why=f"(the Age {ROMAN[age]} structure, row by row)")
        if [ln.key for ln in r.rows] != [f"row {k}" for k in range(1, len(st.row_slots) + 1)]:
            r.fail(r.top["structure"], f"the Age {ROMAN[age]} structure has rows 1 to {len(st.row_slots)}, "
                                       "in that order (§5)")
        for ln, slots in zip(r.rows, st.row_slots):
            cells = [x.strip() for x in ln.value.split(",")]
            if len(cells) != len(slots):
                r.fail(ln, f"{ln.key} of the Age {ROMAN[age]} structure has {len(slots)} slots, got {len(cells)} (§5)")
            for i, cell in zip(slots, cells):
                if cell == "-":
                    continue
                down = cell.startswith("[") and cell.endswith("]")
                name = cell[1:-1].strip() if down else cell
                if down and st.face_up[i]:
                    r.fail(ln, f"{cell}: {ln.key} is dealt face up, its cards are never face down (§5)")
                face_up[i] = not down
                if name in ("?", "? guild"):
                    if name == "? guild" and age != 3:
                        r.fail(ln, "guild backs are dealt in Age III only (§6.3)")
                    self.unknown.append((i, name == "? guild", ln))
                    structure[i] = -2
                    continue
                x = r.card(ln, name)
                if c.cards[x].guild and age != 3:
                    r.fail(ln, f"{name} is a guild: guilds are dealt in Age III only (§6.3)")
                structure[i] = self.place(ln, x, "in the structure", age, exact_age=age)
        between_turns = s.step not in _PENDING and not self.over
        for ln, slots in zip(r.rows, st.row_slots):
            for k, i in enumerate(slots, start=1):
                cover = [t for t in st.covered_by[i] if structure[t] != -1]
                if structure[i] == -1:
                    if cover:
                        r.fail(ln, f"slot {k} is taken but a card that covers it is still there (only accessible "
                                   "cards are taken, §5)")
                    face_up[i] = True   # only accessible, face-up cards are taken
                    s.cards_taken += 1
                elif face_up[i] and not st.face_up[i] and cover:
                    r.fail(ln, f"{c.cards[structure[i]].name} is face up but still covered (a face-down card is "
                               "turned up only once no card covers it, P23)")
                elif not face_up[i] and not cover and between_turns:
                    r.fail(ln, f"slot {k} is face down but no card covers it any more (uncovered cards are turned "
                               "up before the next turn, P23)")
        s.structure, s.face_up = structure, face_up

    def cities(self) -> None:
        """Each seat's ``coins`` and ``city``; the ``discard pile``."""
        r, s = self.r, self.s
        s.coins = [0, 0]
        s.city = [[], []]
        for p, name in enumerate(SEAT_NAMES):
            r.need(name, why="(its coins, city, wonders, progress tokens)")
            ln = r.need("coins", name)
            s.coins[p] = r.integer(ln)
            if s.coins[p] < 0:
                r.fail(ln, "coins cannot be negative (losses are capped at the coins held, P13)")
            s.city[p] = self.cards(r.get("city", name), f"in {name}'s city", s.age)
        s.discard_pile = self.cards(r.get("discard pile"), "in the discard pile", s.age)

    def wonders(self) -> None:
        """Each seat's ``wonders`` (tucked cards, P8), the ``draft pool`` and draft order (§6.2), the ``wonders not
        revealed``."""
        r, s, c = self.r, self.s, self.c
        draft = s.step == DRAFT
        wonder_card = [-1] * len(c.wonders)
        held = [[], []]
        for p, name in enumerate(SEAT_NAMES):
            ln = r.get("wonders", name) if draft else r.need("wonders", name, why="(its 4 wonders, §6.2)")
            for w, inner in self.wonder_list(ln, f"{name}'s"):
                held[p].append(w)
                if inner == _OUT:
                    wonder_card[w] = -2
                elif inner:
                    if draft:
                        r.fail(ln, "no wonder is built during the draft")
                    wonder_card[w] = self.place(ln, r.card(ln, inner), f"tucked under {c.wonders[w].name}", s.age)
        s.wonders = (tuple(held[0]), tuple(held[1]))
        built = sum(1 for x in wonder_card if x >= 0)
        most = c.setup["max_wonders_built"]
        if built > most:
            r.fail(r.need("wonders", "South"), f"{built} wonders are built: only {most} can be (P8)")
        for p, name in enumerate(SEAT_NAMES):
            for w in held[p]:
                if built == most and wonder_card[w] == -1:
                    r.fail(r.get("wonders", name), f"{c.wonders[w].name}: seven wonders are built, the last unbuilt "
                                                   "one is out of the game (P8)")
                if built < most and wonder_card[w] == -2:
                    r.fail(r.get("wonders", name), f"{c.wonders[w].name}: a wonder leaves the game only when the 7th "
                                                   "is built (P8)")
        s.wonder_card = tuple(wonder_card)
        s.total_wonders_built = built
        ln = r.get("draft pool")
        if draft:
            ln = r.need("draft pool", why="(the revealed wonders not taken yet)")
            s.draft_pool = tuple(w for w, _ in self.wonder_list(ln, "in the draft pool"))
            self.draft_order(held, ln)
        else:
            if ln is not None:
                r.fail(ln, "the draft pool exists only during the wonder draft")
            s.draft_pool = ()
            each = sum(len(rnd) for rnd in c.draft_order) // 2
            for p, name in enumerate(SEAT_NAMES):
                if len(held[p]) != each:
                    r.fail(r.get("wonders", name), f"each player holds {each} wonders after the draft (§6.2)")
            if self.game.options["first_game_wonders"]:
                fw = c.first_game_wonders
                expect = (fw[0], fw[1]) if s.first_player == 0 else (fw[1], fw[0])
                for p, name in enumerate(SEAT_NAMES):
                    if set(held[p]) != set(expect[p]):
                        r.fail(r.get("wonders", name), "first_game_wonders: the wonders are the rulebook's fixed "
                                                       "split (HU \"A legelső játékok során\")")
        ln = r.get("wonders not revealed")
        hidden = [w for w, _ in self.wonder_list(ln, "not revealed")]
        rest = [w for w in range(len(c.wonders)) if w not in self.owner]
        if ln is not None and rest:
            r.fail(ln, f"{c.wonders[rest[0]].name} is nowhere: each of the 12 wonders is held, in the draft pool or "
                       "not revealed")
        if ln is None:
            self.rng.shuffle(rest)
            hidden = rest
        s.unrevealed_wonders = tuple(hidden)

    def draft_order(self, held, pool_ln: Line) -> None:
        """§6.2: the picks made so far leave this pool; each seat holds what the order gave it; the right seat
        picks next."""
        r, s, c = self.r, self.s, self.c
        picks = len(held[0]) + len(held[1])
        size = len(c.draft_order[0])
        if picks >= size * len(c.draft_order) or len(s.draft_pool) != size - picks % size:
            r.fail(pool_ln, f"{picks} wonders are taken, so the pool holds {size - picks % size} (§6.2)")
        got = [0, 0]
        for k in range(picks):
            got[s.first_player ^ c.draft_order[k // size][k % size]] += 1
        for p, name in enumerate(SEAT_NAMES):
            if len(held[p]) != got[p]:
                r.fail(r.get("wonders", name) or pool_ln, f"after {picks} picks {name} holds {got[p]} wonders "
                                                          "(draft order F S S F, S F F S, §6.2)")
        expect = s.first_player ^ c.draft_order[picks // size][picks % size]
        if s.player != expect:
            r.fail(r.need("to move"), f"{SEAT_NAMES[expect]} takes the next wonder (draft order, §6.2)")

    def tokens(self) -> None:
        """The ``progress tokens on the board``, each seat's, the ``library draw``, the ``progress tokens in the
        box``: the 10 tokens, each in one place."""
        r, s, c = self.r, self.s, self.c
        ln = r.need("progress tokens on the board")
        board = self.token_list(ln)
        if len(board) > c.setup["progress_tokens_on_board"]:
            r.fail(ln, f"the board holds {c.setup['progress_tokens_on_board']} progress tokens at most (§6.1)")
        s.progress_board = tuple(board)
        owned = [0, 0]
        for p, name in enumerate(SEAT_NAMES):
            for t in self.token_list(r.get("progress tokens", name)):
                owned[p] |= 1 << t
        s.progress_tokens = tuple(owned)
        ln = r.get("library draw")
        draw = []
        if s.step == LIBRARY:
            ln = r.need("library draw", why="(the tokens the Great Library drew; ? for one not seen)")
            draw = self.token_list(ln, unknown=True)
            if not 1 <= len(draw) <= 3:
                r.fail(ln, "the Great Library draws 3 tokens, fewer only from a nearly empty box (P11)")
        elif ln is not None:
            r.fail(ln, "a library draw exists only while its builder chooses (decision: library)")
        ln = r.get("progress tokens in the box")
        box = self.token_list(ln)
        rest = [t for t in range(len(c.tokens)) if t not in self.holder]
        unseen = draw.count(None)
        if ln is not None and len(rest) != unseen:
            r.fail(ln, f"{c.tokens[rest[0]].name} is nowhere: each of the 10 progress tokens is on the board, owned, "
                       "drawn by the Great Library or in the box" if rest else
                       "a ? in the library draw stands for a token of the box: leave out the box line")
        self.rng.shuffle(rest)
        if ln is None:
            box = rest[unseen:]
            rest = rest[:unseen]
        s.library_draw = tuple(t if t is not None else rest.pop() for t in draw)
        s.progress_box = tuple(box)

    def deal(self) -> None:
        """The cards dealt unseen: ``removed from Age ...``, the decks of the ages to come, ``guilds in the box``,
        checked when given (§6.3); what is left out, and the ``[?]`` slots, dealt from the seed."""
        r, s, c = self.r, self.s, self.c
        cards, age, rng = c.cards, s.age, self.rng
        n_removed, n_guilds = c.setup["cards_removed_per_age"], c.setup["guilds_in_age_3"]
        removed = [(), (), (), ()]
        given_removed = [False] * 4
        decks = [(), (), (), ()]
        for a in (1, 2, 3):
            ln = r.get(f"removed from Age {ROMAN[a]}")
            if ln is not None:
                xs = self.cards(ln, f"removed from Age {ROMAN[a]}", a, exact_age=a)
                if any(cards[x].guild for x in xs):
                    r.fail(ln, "guilds are not removed: the unused ones stay in the box (§6.3)")
                if len(xs) > n_removed:
                    r.fail(ln, f"{n_removed} cards are removed from each age (§6.3)")
                removed[a], given_removed[a] = tuple(sorted(xs)), True
            ln = r.get(f"Age {ROMAN[a]} deck")
            if ln is not None:
                if a <= age:
                    r.fail(ln, f"Age {ROMAN[a]} has begun: its cards are in the structure")
                xs = self.cards(ln, f"in the Age {ROMAN[a]} deck", a, exact_age=a)
                if len(xs) != 20 or sum(1 for x in xs if cards[x].guild) != (n_guilds if a == 3 else 0):
                    r.fail(ln, f"the Age {ROMAN[a]} deck holds the 20 cards of its structure"
                               + (f", {n_guilds} of them guilds (§6.3)" if a == 3 else " (§6.3)"))
                decks[a] = tuple(xs)
        ln = r.get("guilds in the box")
        gbox = None
        if ln is not None:
            gbox = self.cards(ln, "in the guild box", 3)
            if any(not cards[x].guild for x in gbox):
                r.fail(ln, f"{next(cards[x].name for x in gbox if not cards[x].guild)} is not a guild")
            if len(gbox) != len(c.guilds) - n_guilds:
                r.fail(ln, f"{len(c.guilds) - n_guilds} guilds stay in the box (§6.3)")
        backs = [u for u in self.unknown if u[1]]
        in_play = sum(1 for x in self.where if cards[x].guild and self.where[x][1] != "in the guild box")
        if in_play + len(backs) > n_guilds:
            r.fail(r.top.get("structure") or r.need("Age III deck"),
                   f"{in_play + len(backs)} guilds are in play: only {n_guilds} are shuffled into Age III (§6.3)")
        structure = s.structure
        for a in (1, 2, 3):
            free = [x for x in c.age_cards[a] if x not in self.where]
            rng.shuffle(free)
            if a == age:
                normal = [u for u in self.unknown if not u[1]]
                if len(normal) > len(free):
                    r.fail(normal[0][2], f"{len(normal)} face-down slots to deal but only {len(free)} Age "
                                         f"{ROMAN[a]} cards are left")
                for i, _, ln in normal:
                    structure[i] = free.pop()
                    self.where[structure[i]] = (ln, "in the structure")
            if a > age and not decks[a]:
                if not given_removed[a]:
                    removed[a] = tuple(sorted(free[:n_removed]))
                    free = free[n_removed:]
                deck = free[:20 - (n_guilds if a == 3 else 0)]
                if a == 3:
                    spare = [x for x in c.guilds if x not in self.where]
                    rng.shuffle(spare)
                    if gbox is None:
                        gbox = sorted(spare[n_guilds:])
                    deck += spare[:n_guilds]
                    for x in spare[:n_guilds]:
                        self.where[x] = (None, "in the Age III deck")
                    rng.shuffle(deck)
                decks[a] = tuple(deck)
            elif not given_removed[a]:
                removed[a] = tuple(sorted(free[:n_removed]))
        if backs:
            spare = [x for x in c.guilds if x not in self.where]
            rng.shuffle(spare)
            if len(backs) > len(spare):
                r.fail(backs[0][2], "more guild backs than guilds left")
            for i, _, ln in backs:
                structure[i] = spare.pop()
                self.where[structure[i]] = (ln, "in the structure")
        if gbox is None:
            gbox = sorted(x for x in c.guilds if x not in self.where)[:len(c.guilds) - n_guilds]
        s.removed_cards = tuple(removed)
        s.age_decks = tuple(decks)
        s.guild_box = tuple(sorted(gbox))

    def cities_hold(self) -> None:
        """What the cities hold follows from their cards, wonders and tokens: colours, production, fixed prices,
        chains, science symbols (Law's too), one-of production (``one-of order`` when given)."""
        r, s, c = self.r, self.s, self.c
        s.color_count = [0] * (2 * NC)
        s.production = [0] * (2 * NR)
        s.chains = [0, 0]
        s.science = [0] * (2 * NS)
        fixed = [False] * (2 * NR)
        one_of = [(), ()]
        for p, name in enumerate(SEAT_NAMES):
            for x in s.city[p]:
                cd = c.cards[x]
                s.color_count[p * NC + cd.color] += 1
                for k, n in enumerate(cd.produces):
                    s.production[p * NR + k] += n
                for k in cd.fixed_price:
                    fixed[p * NR + k] = True
                if cd.chain_to >= 0:
                    s.chains[p] |= 1 << cd.chain_to
                if cd.science >= 0:
                    s.science[p * NS + cd.science] += 1
            if s.progress_tokens[p] >> LAW_TOKEN & 1:
                s.science[p * NS + LAW] += 1
            producers = _producers(s, p)
            ln = r.get("one-of order", name)
            if ln is None:
                one_of[p] = tuple(f for _, f in producers)
                continue
            names = r.items(ln)
            if sorted(names) != sorted(n for n, _ in producers):
                r.fail(ln, f"list each of {name}'s one-of producers once: "
                           + (", ".join(n for n, _ in producers) or "it has none"))
            lookup = dict(producers)
            one_of[p] = tuple(lookup[n] for n in names)
        s.fixed_price = tuple(fixed)
        s.one_of = tuple(one_of)

    def conflict(self) -> None:
        """The ``conflict pawn`` (within the capitals, §4.7) and each seat's ``military tokens`` (none the pawn has
        entered the zone of)."""
        r, s, c = self.r, self.s, self.c
        ln = self.pawn_ln = r.get("conflict pawn")
        pawn = 0
        if ln is not None and ln.value != "0":
            num, _, side = ln.value.partition(" toward ")
            if side not in SEAT_NAMES or not num.strip().isdigit():
                r.fail(ln, f"expected 0 or 'N toward North|South', got {ln.value!r}")
            pawn = int(num) * (1 if side == SEAT_NAMES[1] else -1)
            if abs(pawn) > c.capital:
                r.fail(ln, f"the track ends at each capital, {c.capital} spaces from the centre (§4.7)")
        s.pawn = pawn
        values = [coins for _, coins in c.military_tokens]
        tokens = []
        for p, name in enumerate(SEAT_NAMES):
            dist = pawn if p == 1 else -pawn    # how far the pawn is into this seat's side
            ln = r.get("military tokens", name)
            if ln is None:
                tokens += [dist < at for at, _ in c.military_tokens]
                continue
            present = [False] * len(values)
            for n in r.items(ln):
                if not n.isdigit() or int(n) not in values:
                    r.fail(ln, f"expected the coins of tokens still there ({', '.join(map(str, values))}), got {n!r}")
                k = values.index(int(n))
                if present[k]:
                    r.fail(ln, f"there is one {n}-coin token on each side")
                if dist >= c.military_tokens[k][0]:
                    r.fail(ln, f"the {n}-coin token cannot still be on {name}'s side: the pawn has entered its zone "
                               "(a token is looted the first time, §4.7)")
                present[k] = True
            tokens += present
        s.military_tokens = tuple(tokens)

    def decision(self) -> None:
        """What the pending decision needs (P10, P11, P12, P16, P1), the ``destroy colour``, the last taker, and
        that the position is over exactly when a victory shows (P14, P17, §6.7, P22)."""
        r, s, c = self.r, self.s, self.c
        step, age, mover = s.step, s.age, s.player
        name = SEAT_NAMES[mover]
        decision_ln = self.decision_ln

        def built_by_mover(w: int, why: str, ln: Line = decision_ln) -> None:
            if not (w in s.wonders[mover] and s.wonder_card[w] >= 0):
                r.fail(ln, f"{name} must have built {c.wonders[w].name} to {why}")

        s.destroy_color = -1
        ln = r.get("destroy colour")
        if step == DESTROY:
            ln = r.need("destroy colour", why="(brown: Statue of Zeus, grey: Circus Maximus)")
            if ln.value not in (COLORS[BROWN], COLORS[GREY]):
                r.fail(ln, f"expected brown or grey, got {ln.value!r} (P12)")
            s.destroy_color = COLORS.index(ln.value)
            built_by_mover(next(w for w, wd in enumerate(c.wonders) if wd.destroys == s.destroy_color),
                           f"destroy a {ln.value} card", ln)
            if not any(c.cards[x].color == s.destroy_color for x in s.city[1 - mover]):
                r.fail(ln, f"{SEAT_NAMES[1 - mover]} has no {ln.value} card: the destruction is skipped (P12)")
        elif ln is not None:
            r.fail(ln, "a destroy colour exists only during the destroy decision")
        if step == LIBRARY:
            built_by_mover(next(w for w, wd in enumerate(c.wonders) if wd.library), "choose a token it drew (P11)")
        if step == MAUSOLEUM:
            built_by_mover(next(w for w, wd in enumerate(c.wonders) if wd.mausoleum),
                           "build from the discard pile (P10)")
            if not s.discard_pile:
                r.fail(decision_ln, "the discard pile is empty: the Mausoleum does nothing (P10)")
        if step == TOKEN and not s.progress_board:
            r.fail(decision_ln, "no progress token is left on the board to take (P16)")
        if step == PLAY and s.cards_taken == 20:
            r.fail(decision_ln, f"all 20 cards of Age {ROMAN[age]} are taken: the age is over")
        cards_played = age >= 2 or s.cards_taken > 0
        if cards_played and s.last_taker < 0:
            r.need("last card taken by", why="(cards have been taken)")
        if not cards_played and s.last_taker >= 0:
            r.fail(r.get("last card taken by"), "no card has been taken yet")
        if step == CHOOSE_STARTER:
            if age < 2 or s.cards_taken:
                r.fail(decision_ln, "the starter of an age is chosen when its structure is dealt, from Age II on "
                                    "(§6.6)")
            if s.pawn == 0 and self.game.options["next_age_chooser"] == "first_print":
                r.fail(decision_ln, "next_age_chooser=first_print: with the pawn in the centre the last taker "
                                    "starts, nobody chooses (P1)")
            expect = last_chooser(s)
            if mover != expect:
                r.fail(r.need("to move"), f"{SEAT_NAMES[expect]} chooses who starts Age {ROMAN[age]} (the pawn's "
                                          "side; in the centre, the last taker, P1)")
        symbols = [sum(1 for k in range(NS) if s.science[p * NS + k]) for p in (0, 1)]
        if not self.over:
            if abs(s.pawn) >= c.capital:
                r.fail(self.pawn_ln, "the pawn is in a capital: the game is over (military supremacy, P14)")
            for p in (0, 1):
                if symbols[p] >= 6:
                    r.fail(r.get("city", SEAT_NAMES[p]), f"{SEAT_NAMES[p]} has 6 different science symbols: the "
                                                          "game is over (scientific supremacy, P17)")
            return
        ln = r.get("victory")
        if s.victory == MILITARY and s.pawn != (c.capital if s.winner == 0 else -c.capital):
            r.fail(ln, "a military victory puts the pawn in the loser's capital (P14)")
        if s.victory == SCIENCE and symbols[s.winner] < 6:
            r.fail(ln, f"{SEAT_NAMES[s.winner]} has {symbols[s.winner]} different science symbols, 6 win (P17)")
        if s.victory in (CIVILIAN, SHARED):
            if age != 3 or s.cards_taken != 20:
                r.fail(ln, "a civilian victory comes at the end of Age III, once its 20 cards are taken (§6.7)")
            key = [(sum(b.values()), b["blue"]) for b in (score_breakdown(s, p) for p in (0, 1))]
            expect = -1 if key[0] == key[1] else (0 if key[0] > key[1] else 1)
            if expect != s.winner:
                r.fail(ln, "the civilian winner has the most VP, then the most blue-card VP; else the victory is "
                           f"shared (P22): here {'nobody' if expect < 0 else SEAT_NAMES[expect]}")


__all__ = ["parse", "write"]
