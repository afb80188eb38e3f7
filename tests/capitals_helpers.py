"""Helpers for The Capitals' rule tests: positions written as text, games driven with legal actions.

A test writes the position it needs in the notation of ``citygames/games/the_capitals/position.py``
(the spec: ``game.state_from_position(text)``, ``state.position()``) with the small builder
``Position``, gets the state from it, then plays public actions (``act``, ``build``, ``activate``)
and reads the result through the state's public methods (``track``, ``score_breakdown``,
``observation``, ...). Nothing here writes a state field or calls a private method, so a refactor
that keeps the rules keeps these tests green.

Coordinates are city coordinates: the Hotel is (0, 0), the City Hall (1, 0), y grows downwards;
the two construction tokens start on corners (1, 0) and (1, 1) (the top-left corners of the City
Hall and of the slot below it). Seats are numbered as in the engine; ``GREEN`` ... ``BLACK`` name
them by colour.
"""

from __future__ import annotations

import re

import citygames
from citygames.games.the_capitals.components import components

C = components()
COLORS = tuple(C.colors)
GREEN, RED, BLUE, PURPLE, BLACK = range(5)

#: the scenery spine: slots going up and right from the City Hall, each touching only the one
#: before it (the first one touches the City Hall). Tiles put there keep the city connected (a
#: position requires it) without being next to the slots the tests build on or activate.
SPINE = tuple((2 + k, -1 - k) for k in range(14))

#: the lines about the phase in progress: whose decision is pending, how far the turn and the phase
#: have gone (``Position.at`` replaces them)
FLOW = ("to move", "turn", "decision", "activations", "prosperity build", "effects pending", "cubes due",
        "chosen", "expo", "extra build")

#: lines holding lists of tiles that are not in a city: a tile put elsewhere leaves them
_TILE_LISTS = re.compile(r"^(projects|deck era\d|removed era\d|box|\w+ hand)$")


def new_state(n: int = 4, seed: int = 0, **options):
    """A fresh seeded game of ``n`` players (round 1, the first player's building decision pending)."""
    return citygames.load_game("the_capitals", num_players=n, **options).new_initial_state(seed)


def tile(tile_id: str) -> int:
    """Index of the tile with data id ``tile_id`` (``"opera_house"``)."""
    return C.tile_by_id[tile_id].idx


def parg(tile_id: str) -> int:
    """Argument of the ``prosperity`` / ``lake`` actions for prosperity tile ``tile_id``."""
    return tile(tile_id) - C.prosperity_tiles[0]


def color(seat) -> str:
    """The colour of a seat given as an index or a colour."""
    return seat if isinstance(seat, str) else COLORS[seat]


def slot(s, x: int, y: int) -> int:
    return s.game.slot_at(x, y)


def act(s, kind: str, arg: int = 0):
    """The action object of ``kind`` with argument ``arg`` (legal or not)."""
    return s.game.action_space.get(kind, arg)


def legal_args(s, kind: str) -> list[int]:
    return [a.arg for a in s.legal_actions() if a.kind == kind]


def tracks(s, p: int, *names: str) -> tuple:
    """Seat ``p``'s values on the named tracks (``tracks(s, RED, "money", "culture")``)."""
    return tuple(s.track(p, name) for name in names)


def tourists(s) -> dict:
    """Per tourist colour, ``(host colour, (x, y) or None, used)`` read from the spectator's view."""
    out = {}
    for pl in s.observation(None)["players"]:
        for tr in pl["tourists"]:
            out[tr["color"]] = (pl["color"], tuple(tr["on"]) if tr["on"] else None, tr["used"])
    return out


def hosts(s) -> list:
    """The seat hosting each seat's own tourist, by seat (the neutral tourist left out)."""
    where = tourists(s)
    return [COLORS.index(where[COLORS[p]][0]) for p in range(s.n)]


def city_cubes(s, p: int) -> dict:
    """Seat ``p``'s energy cubes on its tiles, ``{(x, y): cubes}`` for tiles holding some."""
    return {(t["x"], t["y"]): t["cubes"] for t in s.observation(None)["players"][p]["city"] if t["cubes"]}


def pending(s) -> dict:
    """What the pending decision is about (the observation's ``pending``)."""
    return s.observation(None)["pending"]


def events(s, kind: str, seat=None) -> list:
    """The log events ``capitals.<kind>`` (of one seat if given)."""
    return [e for e in s.log if e.kind == "capitals." + kind and (seat is None or e.player == seat)]


# ----------------------------------------------------------------------------------------------
# writing positions
# ----------------------------------------------------------------------------------------------
class Position:
    """A position text being written, line by line (``key: value``, see position.py).

    ``Position(players=4, seed=0)`` starts from the ``game`` and ``seed`` lines alone (everything
    else as at setup, dealt from the seed); ``Position.of(state)`` starts from a state's whole
    position. The methods set lines and return the builder; ``text()`` is the position,
    ``state()`` reads it with ``game.state_from_position``. A tile put in a city, the projects area
    or a hand leaves every other tile list (projects, decks, box, hands), so it is never in two places.
    """

    def __init__(self, players: int = 4, seed: int = 0, text: str | None = None, **options):
        if text is None:
            opts = [f"players={players}"] + [f"{k}=yes" for k, v in options.items() if v]
            text = f"game: the_capitals {' '.join(opts)}\nseed: {seed}\n"
        self.lines: dict[str, str] = {}
        for raw in text.splitlines():
            key, sep, value = raw.partition(":")
            if sep:
                self.lines[key.strip()] = value.strip()
        self.n = int(re.search(r"players=(\d)", self.lines["game"]).group(1))
        self.options = dict(re.findall(r"(\w+)=(\w+)", self.lines["game"]))

    @classmethod
    def of(cls, state) -> "Position":
        """The builder holding ``state.position()``."""
        return cls(text=state.position())

    def copy(self) -> "Position":
        return Position(text=self.text())

    # --- output -------------------------------------------------------------------------------
    def text(self) -> str:
        return "".join(f"{k}: {v}\n" for k, v in self.lines.items())

    def state(self):
        """The state the text describes (``game.state_from_position``)."""
        g = citygames.load_game("the_capitals", num_players=self.n,
                                **{k: v == "yes" for k, v in self.options.items() if k != "players"})
        return g.state_from_position(self.text())

    # --- lines --------------------------------------------------------------------------------
    def set(self, key: str, value) -> "Position":
        """Set (or replace) the line ``key``."""
        self.lines[key] = str(value)
        return self

    def drop(self, *keys: str) -> "Position":
        for k in keys:
            self.lines.pop(k, None)
        return self

    def seat(self, who, **values) -> "Position":
        """Set values of a seat's line: tracks (``money=3``), ``plant=2`` or ``"2:6"``, ``space=2``
        (1-based), ``upgrades=1``. A prestige change with a score line keeps the categories and books
        the difference under tile_effects."""
        key = color(who)
        pairs = _pairs(self.lines.get(key, ""))
        if "prestige" in values and f"{key} score" in self.lines:
            sheet = _pairs(self.lines[f"{key} score"])
            old = sum(int(v) for v in sheet.values())
            sheet["tile_effects"] = str(int(sheet.get("tile_effects", 0)) + int(values["prestige"]) - old)
            self.lines[f"{key} score"] = " ".join(f"{k} {v}" for k, v in sheet.items())
        for name, v in values.items():
            pairs[name] = str(v)
        self.lines[key] = " ".join(f"{k} {v}" for k, v in pairs.items())
        return self

    def seats(self, **values) -> "Position":
        """The same values for every seat."""
        for p in range(self.n):
            self.seat(p, **values)
        return self

    def order(self, *who) -> "Position":
        """The initiative order: the seats on spaces 2, 3, ... from the left, as at setup."""
        for k, w in enumerate(who):
            self.seat(w, space=C.first_setup_space + 1 + k)
        return self

    def city(self, who, *cells: str) -> "Position":
        """Add tiles to a seat's city: ``"market@0,1"``, ``"generally_electrical@0,-1+2"`` (cubes on it),
        ``"lake(casino)@-1,1"``; the city starts with its Hotel and City Hall."""
        key = f"{color(who)} city"
        line = self.lines.get(key, "hotel@0,0 city_hall@1,0")
        for cell in cells:
            name = re.match(r"(?:lake\()?([a-z_0-9]+)", cell).group(1)
            self.withdraw(name)
            line += " " + cell
        self.lines[key] = line
        return self

    def scenery(self, who, *tile_ids: str) -> list[tuple[int, int]]:
        """Put tiles in a seat's city along ``SPINE``, away from where the tests build; returns their
        coordinates (a Lake is ``"lake(<prosperity tile>)"``)."""
        out = []
        for tid in tile_ids:
            taken = set(re.findall(r"@(-?\d+),(-?\d+)", self.lines.get(f"{color(who)} city", "")))
            x, y = next((x, y) for x, y in SPINE if (str(x), str(y)) not in taken)
            self.city(who, f"{tid}@{x},{y}")
            out.append((x, y))
        return out

    def used_tiles(self) -> set[str]:
        """The tiles in the cities written so far."""
        return {m for k, v in self.lines.items() if k.endswith(" city")
                for m in re.findall(r"(?:lake\()?([a-z_0-9]+)\)?@", v)}

    def projects(self, row0=(), row2=(), row4=()) -> "Position":
        """The projects area: the $0, $2 and $4 rows (tile ids)."""
        rows = [list(row0), list(row2), list(row4)]
        for row in rows:
            for tid in row:
                self.withdraw(tid)
        self.lines["projects"] = " | ".join(f"${price} {', '.join(row) if row else '-'}"
                                            for price, row in zip(C.row_prices, rows))
        return self

    def hand(self, who, *tile_ids: str) -> "Position":
        """Make sure a seat's prosperity hand holds these tiles: each one missing comes from where it
        is (another hand or the box), which gets a tile of this hand not asked for in exchange, so
        hand sizes stay as they were (a hand not written yet starts empty)."""
        key = f"{color(who)} hand"
        hand = _tile_list(self.lines.get(key, "-"))
        for tid in tile_ids:
            if tid in hand:
                continue
            source = next((k for k, v in self.lines.items()
                           if k != key and _TILE_LISTS.match(k) and tid in _tile_list(v)), None)
            spare = next((x for x in hand if x not in tile_ids), None)
            if source is not None:
                values = _tile_list(self.lines[source])
                values.remove(tid)
                if spare is not None and (source == "box" or source.endswith(" hand")):
                    hand.remove(spare)
                    values.append(spare)
                self.lines[source] = ", ".join(values) if values else "-"
            hand.append(tid)
        self.lines[key] = ", ".join(hand) if hand else "-"
        return self

    def at(self, phase: str, to_move=None, decision: str = "none", turn=None, round: int | None = None,
           **flow) -> "Position":
        """The phase and the decision pending (``decision="none"``: the machine runs the phase's
        automatic work to the next decision from ``turn``'s turn). The old flow lines go; ``flow``
        adds others by name with ``_`` for spaces (``activations="left 2 made 0"``)."""
        self.drop(*FLOW)
        if round is not None:
            self.lines["round"] = str(round)
        self.lines["phase"] = phase
        if to_move is not None:
            self.lines["to move"] = color(to_move)
        if turn is not None:
            self.lines["turn"] = turn if turn == "done" else color(turn)
        self.lines["decision"] = decision
        for k, v in flow.items():
            self.lines[k.replace("_", " ")] = str(v)
        return self

    def building(self, who, *tile_ids: str, row: int = 0) -> "Position":
        """``who`` is to take a tile in the building phase; ``tile_ids`` alone are on projects row
        ``row``. The round moves on to the first round of the latest tile's era when needed (the
        projects area never holds a tile of a later era)."""
        rows = [(), (), ()]
        rows[row] = tile_ids
        era = max([C.tile_by_id[t].era for t in tile_ids] + [1])
        rnd = int(self.lines.get("round", 1))
        if C.era_of_round[rnd] < era:
            rnd = C.era_of_round.index(era)
        return self.projects(*rows).at("building", who, "take", round=rnd)

    def executive(self, who, activations: int | None = None) -> "Position":
        """``who``'s executive turn has begun with ``activations`` left (default: its plant's and the
        Highest Culture token's), none made."""
        flow = {"activations": f"left {activations} made 0"} if activations is not None else {}
        return self.at("executive", who, "activate", **flow)

    def last_expo(self) -> "Position":
        """Round 12's executive phase is over: the machine resolves the effects "before the last World
        Expo" in initiative order (stopping at a decision they ask), then the Expo and the final scoring."""
        return self.at("before the last world expo", round=C.rounds)

    def final(self) -> "Position":
        """Round 12's World Expo is scored: the machine has each city pay for its initiative space, then
        resolve its end-game effects and convert (stopping at a decision they ask), to the end."""
        return self.at("world expo", round=C.rounds, expo="scored")

    def prosperity(self, who, round: int = 3) -> "Position":
        """``who`` is to build a prosperity tile or a Lake at the end of round ``round``'s administration."""
        return self.at("prosperity", who, "prosperity", round=round)

    def withdraw(self, tid: str) -> None:
        """Take tile ``tid`` out of every tile list written (projects, decks, box, hands)."""
        for k, v in list(self.lines.items()):
            if _TILE_LISTS.match(k):
                if k == "projects":
                    rows = [r.strip() for r in v.split("|")]
                    out = []
                    for r in rows:
                        price, _, rest = r.partition(" ")
                        left = [x for x in _tile_list(rest) if x != tid]
                        out.append(f"{price} {', '.join(left) if left else '-'}")
                    self.lines[k] = " | ".join(out)
                elif tid in _tile_list(v):
                    left = [x for x in _tile_list(v) if x != tid]
                    self.lines[k] = ", ".join(left) if left else "-"


def _pairs(value: str) -> dict:
    words = value.split()
    return dict(zip(words[::2], words[1::2]))


def _tile_list(value: str) -> list[str]:
    words = [w for w in re.split(r"[,\s]+", value) if w]
    return [] if words == ["-"] else words


# ----------------------------------------------------------------------------------------------
# playing
# ----------------------------------------------------------------------------------------------
def build(s, tile_id: str, x: int, y: int) -> None:
    """The seat to move takes ``tile_id`` from the projects area and builds it at (x, y); the power-plant
    upgrades the build offers it are declined, so the machine stops at the next decision."""
    p = s.current_player()
    s.apply_action(act(s, "take", tile(tile_id)))
    s.apply_action(act(s, "place", slot(s, x, y)))
    while s.expects().endswith("upgrade the power plant?") and s.current_player() == p:
        s.apply_action(act(s, "decline"))


def play_build(s, who, tile_id: str, x: int, y: int, row: int = 0):
    """The state after ``who`` builds ``tile_id`` at (x, y) next: ``s``'s position with ``who`` to
    take ``tile_id`` (alone on row ``row``) in the building phase, then ``build``. Returns the new state."""
    s2 = Position.of(s).building(who, tile_id, row=row).state()
    build(s2, tile_id, x, y)
    return s2


def activate(s, x: int, y: int) -> None:
    """The seat to move (in its executive turn) activates the tile at (x, y), paying with plant cubes."""
    s.apply_action(act(s, "activate", slot(s, x, y)))
    if s.expects().endswith("pay the activation"):
        s.apply_action(act(s, "pay_cubes"))


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
    drive(s, lambda st: st.round == rnd and st.expects().startswith("politics: now"))


def choose_space(s, space: int) -> int:
    """The player to move picks initiative ``space`` (0-based); returns the $ it paid."""
    p = s.current_player()
    before = s.track(p, "money")
    s.apply_action(act(s, "initiative", space))
    return before - s.track(p, "money")


# ----------------------------------------------------------------------------------------------
# the Prosperity expansion (tests/test_capitals_prosperity.py)
# ----------------------------------------------------------------------------------------------
def build_prosperity(pos: Position, who, tile_id: str, x: int, y: int, round: int = 3):
    """The state after ``who`` builds prosperity tile ``tile_id`` at (x, y) in round ``round``'s
    prosperity build: ``pos`` with the tile in ``who``'s hand and ``who`` to build, then the public
    actions (the build must be legal)."""
    s = pos.hand(who, tile_id).prosperity(who, round).state()
    s.apply_action(act(s, "prosperity", parg(tile_id)))
    assert s.expects().endswith("choose where to build the tile") and s.current_player() == who
    s.apply_action(act(s, "place", slot(s, x, y)))
    return s


def build_lake(pos: Position, who, tile_id: str, x: int, y: int, round: int = 3):
    """The state after ``who`` reveals ``tile_id`` and builds it as a Lake at (x, y)."""
    s = pos.hand(who, tile_id).prosperity(who, round).state()
    s.apply_action(act(s, "lake", parg(tile_id)))
    assert s.expects().endswith("choose where to build the Lake") and s.current_player() == who
    s.apply_action(act(s, "place_lake", slot(s, x, y)))
    return s
