"""Helpers of the 7 Wonders Duel tests: positions written as text (``citygames/games/seven_wonders_duel/
POSITION.md``) and read back through ``game.state_from_position``, and readers of the public views
(observation, position text). Nothing here writes a state field or calls a private method of the engine.
"""

from __future__ import annotations

from citygames import load_game
from citygames.games.seven_wonders_duel.components import components

C = components()
NCARDS = len(C.cards)
SEATS = ("North", "South")
ROMAN = ("", "I", "II", "III")


def card(name: str) -> int:
    return C.card_by_name[name]


def wonder_id(name: str) -> int:
    return C.wonder_by_name[name]


def token_id(name: str) -> int:
    return C.token_by_name[name]


def game(**options):
    return load_game("seven_wonders_duel", **options)


def _names(items) -> str:
    items = list(items)
    return ", ".join(items) if items else "none"


def _accessible(present: set, up: set, covered_by) -> list[int]:
    return [i for i in sorted(present) if i in up and not any(t in present for t in covered_by[i])]


def structure_rows(age: int, accessible=(), only: str | None = None, used=(), spare: int = 1) -> list[str]:
    """The rows of an Age ``age`` structure in which the cards named in ``accessible`` are accessible (in the
    last accessible slots, after ``spare`` other accessible cards); cards are taken from the bottom rows as
    needed (uncovered cards turned up), the other face-up slots hold unused cards of the age, the face-down
    ones are left to the deal (``[?]``). ``only``: that card alone is left (19 taken). ``used``: card names
    placed elsewhere in the position."""
    st = C.structures[age]
    if only is not None:
        cells = [only] + ["-"] * 19
    else:
        named = list(accessible)
        taken_names = set(used) | set(named)
        pool = [x.name for x in C.cards if x.age == age and not x.guild and x.name not in taken_names]
        present = set(range(20))
        up = {i for i in range(20) if st.face_up[i]}
        while True:
            acc = _accessible(present, up, st.covered_by)
            if len(acc) >= len(named) + spare and len(present) - len(named) <= len(pool):
                break
            present.discard(max(acc))
            up |= {i for i in present if not any(t in present for t in st.covered_by[i])}
        acc = _accessible(present, up, st.covered_by)
        cells = ["-"] * 20
        for i, n in zip(acc[len(acc) - len(named):], named):
            cells[i] = n
        for i in sorted(present):
            if cells[i] == "-":
                cells[i] = pool.pop(0) if i in up else "[?]"
    return [f"row {r}: " + ", ".join(cells[i] for i in slots) for r, slots in enumerate(st.row_slots, start=1)]


def position(age: int = 2, player: int = 0, coins=(7, 7), city=((), ()), wonders=((), ()), built=((), ()),
             tokens=((), ()), board=None, box=None, pawn: int = 0, discard=(), accessible=(), only=None,
             decision: str = "play", last: int | None = None, extra: bool = False, military=None,
             library=None, destroy: str | None = None, first: int = 0, seed: int = 0, spare: int = 1,
             rows=None, options: dict | None = None, extra_lines=()) -> str:
    """A position as text: Age ``age``, ``player`` to move in ``decision``; per seat (tuples of two) its
    coins, city, wonders held (filled up to 4 with unused ones), wonders built (each with an unused Age I
    card tucked under it), progress tokens; the pawn (signed: + toward South); ``board`` (default: the
    first 5 tokens not owned); ``box`` (default: dealt); the structure from ``structure_rows`` (or
    ``rows``)."""
    used = set(discard)
    for p in (0, 1):
        used |= set(city[p])
    given_tuck = {}   # built entries written "Wonder (tucked card)"
    for p in (0, 1):
        for b in built[p]:
            if "(" in b:
                w, _, x = b.partition(" (")
                given_tuck[w] = x.rstrip(")")
                used.add(given_tuck[w])
    built = tuple([b.partition(" (")[0] for b in built[p]] for p in (0, 1))
    tucked = iter(x.name for x in C.cards if x.age == 1 and x.name not in used and x.name not in set(accessible)
                  and x.name != only)
    held = [list(wonders[p]) + [w for w in built[p] if w not in wonders[p]] for p in (0, 1)]
    spare_wonders = [w.name for w in C.wonders if w.name not in held[0] + held[1]]
    for p in (0, 1):
        while len(held[p]) < 4:
            held[p].append(spare_wonders.pop(0))
    n_built = len(built[0]) + len(built[1])
    wonder_text = [[], []]
    for p in (0, 1):
        for w in held[p]:
            if w in built[p]:
                x = given_tuck.get(w) or next(tucked)
                used.add(x)
                wonder_text[p].append(f"{w} ({x})")
            elif n_built >= 7:
                wonder_text[p].append(f"{w} (out of the game)")
            else:
                wonder_text[p].append(w)
    owned = set(tokens[0]) | set(tokens[1])
    if board is None:
        board = [t.name for t in C.tokens if t.name not in owned][:5]
    opts = dict(options or {})
    lines = [f"seed: {seed}", f"first player: {SEATS[first]}", f"age: {ROMAN[age]}", f"decision: {decision}",
             f"to move: {SEATS[player]}", f"extra turn: {'yes' if extra else 'no'}"]
    if opts:
        lines.insert(0, "options: " + ", ".join(f"{k}={v}" for k, v in opts.items()))
    if rows is None:
        rows = structure_rows(age, accessible, only, used, spare)
    taken = sum(cell.strip() == "-" for row in rows for cell in row.split(":", 1)[1].split(","))
    if last is None and (age >= 2 or taken):
        last = 1 - player
    if last is not None:
        lines.append(f"last card taken by: {SEATS[last]}")
    if library is not None:
        lines.append("library draw: " + _names(library))
    if destroy is not None:
        lines.append(f"destroy colour: {destroy}")
    lines.append("conflict pawn: " + (f"{abs(pawn)} toward {SEATS[1 if pawn > 0 else 0]}" if pawn else "0"))
    lines.append("progress tokens on the board: " + _names(board))
    lines.append("discard pile: " + _names(discard))
    lines.append("structure:")
    lines += ["  " + row for row in rows]
    for p in (0, 1):
        lines += [f"{SEATS[p]}:", f"  coins: {coins[p]}", "  city: " + _names(city[p]),
                  "  wonders: " + _names(wonder_text[p]), "  progress tokens: " + _names(tokens[p])]
        if military is not None:
            lines.append("  military tokens: " + _names(str(k) for k in military[p]))
    if box is not None:
        lines.append("progress tokens in the box: " + _names(box))
    lines += list(extra_lines)
    return "\n".join(lines) + "\n"


def state(options: dict | None = None, **kw):
    """The state of ``position(**kw)`` (the game loaded with ``options``)."""
    return game(**(options or {})).state_from_position(position(options=options, **kw))


# --- reading the public views ---------------------------------------------------------------------------
def obs(s, seat=None) -> dict:
    return s.observation(seat)


def coins(s) -> list[int]:
    return [pl["coins"] for pl in s.observation(None)["players"]]


def city(s, p: int) -> list[str]:
    """Seat ``p``'s cards (names, build order)."""
    return [C.cards[x].name for x in s.observation(None)["players"][p]["cards"]]


def tokens_of(s, p: int) -> list[str]:
    return [C.tokens[t].name for t in s.observation(None)["players"][p]["tokens"]]


def board(s) -> list[str]:
    return [C.tokens[t].name for t in s.observation(None)["progress_board"]]


def discard_pile(s) -> list[str]:
    return [C.cards[x].name for x in s.observation(None)["discard"]]


def pawn(s) -> int:
    return s.observation(None)["conflict"]["pawn"]


def phase(s) -> str:
    """The pending decision (``observation()["phase"]``)."""
    return s.observation(None)["phase"]


def result(s):
    return s.observation(None)["result"]


def accessible_names(s) -> list[str]:
    return [C.cards[x].name for x in s.accessible_cards()]


def spare_card(s, *exclude: str) -> str:
    """An accessible card not named in ``exclude`` (to tuck under a wonder)."""
    return next(n for n in accessible_names(s) if n not in exclude)


def lines(s) -> dict[str, str]:
    """The top-level lines of ``s.position()`` (hidden parts included), ``{key: value}``."""
    out = {}
    for ln in s.position().splitlines():
        if ln and not ln.startswith((" ", "#")):
            key, _, value = ln.partition(":")
            out[key] = value.strip()
    return out


def listed(s, key: str) -> list[str]:
    """A list line of ``s.position()`` as names (``[]`` for ``none``)."""
    value = lines(s)[key]
    return [] if value == "none" else [x.strip() for x in value.split(",")]


def slots(s) -> list[tuple[str | None, bool]]:
    """The structure read from ``s.position()``, slot by slot: ``(card name or None once taken, face up)``
    (face-down identities included: the full position is the server's view)."""
    out = []
    rows = [ln.split(":", 1)[1] for ln in s.position().splitlines() if ln.startswith("  row ")]
    for row in rows:
        for cell in row.split(","):
            cell = cell.strip()
            if cell == "-":
                out.append((None, True))
            elif cell.startswith("["):
                out.append((cell[1:-1], False))
            else:
                out.append((cell, True))
    return out


def act(s, kind: str, arg: int = 0):
    return s.game.action_space.get(kind, arg)


def legal_args(s, kind: str) -> list[int]:
    return sorted(a.arg for a in s.legal_actions() if a.kind == kind)


def construct(s, name: str) -> None:
    s.apply_action(act(s, "construct", card(name)))


def discard(s, name: str) -> None:
    s.apply_action(act(s, "discard", card(name)))


def build_wonder(s, wname: str, cname: str | None = None) -> None:
    """Build ``wname`` with ``cname`` (default: a spare accessible card)."""
    cname = cname or spare_card(s)
    s.apply_action(act(s, "wonder", wonder_id(wname) * NCARDS + card(cname)))


def kinds(s, start: int = 0) -> list[str]:
    return [e.kind for e in s.log[start:]]
