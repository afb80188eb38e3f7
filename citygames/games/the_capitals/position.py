"""The Capitals: positions from text, and any state as text (``game.state_from_position``, ``state.position()``).

python-chess's FEN is the model: one text holds every rule-relevant part of a position, is
validated when read, and ``write`` gives it back for any state (bug reports, tests). The text is
lines of ``key: value``; ``#`` starts a comment; blank lines are ignored; keys are case-insensitive.
Seats are named by colour. City coordinates put the Hotel at (0, 0) and the City Hall at (1, 0), y
grows downwards; corners (construction tokens) are numbered like the slot whose top-left corner
they are. Tiles are named by their data ids (``opera_house``). Every line but ``game`` is optional:
what a line leaves out is as the setup from ``seed`` made it (``game`` and ``seed`` alone are the new
game), less the tiles the text puts elsewhere: the decks keep their order (setup tiles of the
projects area that the text leaves out go back into their deck at places drawn from ``seed``; an
older era's deck is empty); a tile removed unseen at setup (2 players) that the text puts elsewhere
is replaced by the next tile of its type in the deck; a hand not given keeps the tiles dealt to it
at its size (as dealt, less the tiles its city built), trimmed into the box or topped up from it.

Example (a 3-player game, Red about to build a Market it took)::

    game: the_capitals players=3
    seed: 7
    round: 2
    phase: building
    to move: red
    decision: place market
    projects: $0 library, opera_house | $2 - | $4 -
    red: money 14 culture 2 employment 1 population 3 public_service 0 progress 2 prestige 0 cubes 3 plant 1 space 2
    red city: hotel@0,0 city_hall@1,0 baker@0,1+1

Lines (``<seat>`` is a colour: green, red, blue, purple, black):

=======================  =====================================================================
``game:``                ``the_capitals players=N [prosperity=yes] [refill_variant=yes]`` (required)
``seed:``                integer; deals what the text leaves out (default 0)
``round:``               1-12 (default 1)
``phase:``               politics, building, tourism, executive, administration, prosperity,
                         world expo, before the last world expo, final scoring, game over
``to move:``             ``<seat>``, the seat whose decision is pending (or whose turn comes next)
``turn:``                ``<seat>`` or ``done``: whose turn it is in the phase when that is not the
                         seat to move (an upgrade or free activation after a build); default: to move
``decision:``            none (default: the phase's automatic work runs until the next decision),
                         politics, take, ``place <tile>``, upgrade, activate, ``pay <x,y>``,
                         ``free <x,y>`` (the tile giving the free activation), ``token 0|1``,
                         prosperity, ``lake <prosperity tile>``, reward, effect
``activations:``         ``left K made M``: the seat's executive turn has begun (default with an
                         executive decision: its plant's activations + Highest Culture, none made)
``prosperity build:``    ``started``: the seat's prosperity build has begun (default with a
                         prosperity-phase decision)
``effects pending:``     ``x,y ...``: the seat's end-game effects still to resolve in this stage
``cubes due:``           cubes still to pay (``pay`` decision; default: the activation cost)
``chosen:``              ``<seat> <space> ...``: spaces already chosen this politics phase (1-based)
``highest culture:``     ``<seat>`` or ``none``
``neutral:``             the 2-player neutral marker's culture
``expo:``                ``scored`` when this round's World Expo has been scored
``extra build:``         ``due`` when a Financial District's extra build is owed
``projects:``            ``$0 tile, ... | $2 ... | $4 ...`` (``-`` for an empty row): tiles of the round's
                         era or older (of the next round's era in a World Expo or prosperity phase,
                         which follow the administration phase's refill)
``deck eraN:``           the era's unseen draw pile in drawing order (``-`` empty)
``removed eraN:``        tiles removed unseen from the era deck (2-player variant)
``box:``                 prosperity tiles not dealt (given, it holds every tile in no city or hand)
``plants taken:``        ``level:count ...``, plants gone from the supply per level, best first
                         (default: one per city holding that level or above, and at least up to
                         the plants the cities hold)
``tourists:``            ``<colour>@<host seat>[:x,y][!]`` per tourist: on a tile at x,y or beside the
                         city; ``!`` used this phase; ``neutral@-`` beside the board
``<seat>:``              ``money culture employment population public_service progress prestige
                         cubes`` then ``plant L[:C]`` (level, printed cubes), ``space S`` (1-based
                         initiative space), ``upgrades U`` (owed), each ``name value``
``<seat> city:``         ``tile@x,y[+cubes]`` ... in building order; a Lake is ``lake(<prosperity tile>)@x,y``
``<seat> tokens:``       two corners ``x,y x,y``
``<seat> hand:``         prosperity tiles (``-`` empty)
``<seat> score:``        ``category value ...`` (``tracks.CATEGORY_KEYS``; default: the whole
                         prestige under tile_effects)
=======================  =====================================================================

``parse`` raises ``PositionError`` naming the line and the rule it breaks: an unknown tile or seat,
a tile in two places, a slot used twice, a city that is not connected or lacks its Hotel or City
Hall, a track value off its track, two markers on one initiative space, a decision that cannot be
pending in the phase, ...
"""

from __future__ import annotations

import re

from citygames.core.errors import PositionError
from citygames.core.phases import NO_DECISION
from citygames.core.rng import Rng

from .components import LAKE, LEVEL, NT, NTYPES, PRESTIGE, TRACK_INDEX
from .steps import (P_ADMIN, P_BUILDING, P_END, P_EXECUTIVE, P_EXPO, P_FINAL, P_POLITICS, P_PRE_EXPO,
                    P_PROSPERITY, PHASE_NAMES, S_ACTIVATE, S_EFFECT, S_FREE, S_LAKE, S_PAY, S_PLACE,
                    S_POLITICS, S_PROSPERITY, S_REWARD, S_TAKE, S_TOKEN, S_UPGRADE, STEP_KEYS)
from .tracks import C_TILES, CATEGORY_KEYS, NCAT

_TRACKS = ("money", "culture", "employment", "population", "public_service", "progress", "prestige", "cubes")
_PHASE_BY_NAME = {name: i for i, name in enumerate(PHASE_NAMES)}
_DECISION_PHASES = {
    S_POLITICS: (P_POLITICS,), S_TAKE: (P_BUILDING, P_PROSPERITY), S_PLACE: (P_BUILDING, P_PROSPERITY),
    S_ACTIVATE: (P_EXECUTIVE,), S_PAY: (P_EXECUTIVE,), S_REWARD: (P_EXECUTIVE,), S_TOKEN: (P_ADMIN,),
    S_PROSPERITY: (P_PROSPERITY,), S_LAKE: (P_PROSPERITY,), S_EFFECT: (P_PRE_EXPO, P_FINAL),
    S_FREE: (P_BUILDING, P_EXECUTIVE, P_PRE_EXPO, P_PROSPERITY),
    S_UPGRADE: tuple(range(len(PHASE_NAMES))),
}


class _Text:
    """The parsed lines: ``{key: (line number, value)}``, each key once."""

    def __init__(self, text: str):
        self.lines: dict[str, tuple[int, str]] = {}
        for no, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            key, sep, value = line.partition(":")
            if not sep:
                raise PositionError(f"line {no}: expected 'key: value', got {raw.strip()!r}")
            key = " ".join(key.lower().split())
            if key in self.lines:
                raise PositionError(f"line {no}: {key!r} is given twice (first on line {self.lines[key][0]})")
            self.lines[key] = (no, value.strip())
        self.used: set[str] = set()

    def get(self, key: str):
        """``(line number, value)`` of ``key`` or ``None``."""
        if key in self.lines:
            self.used.add(key)
            return self.lines[key]
        return None

    def unused(self) -> list[tuple[int, str]]:
        return sorted((no, key) for key, (no, _) in self.lines.items() if key not in self.used)


def _fail(no: int, msg: str):
    raise PositionError(f"line {no}: {msg}")


def _int(no: int, word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        _fail(no, f"{what} must be an integer, got {word!r}")


def _xy(no: int, word: str) -> tuple[int, int]:
    m = re.fullmatch(r"(-?\d+),(-?\d+)", word)
    if not m:
        _fail(no, f"expected coordinates x,y, got {word!r}")
    return int(m.group(1)), int(m.group(2))


class _Reader:
    """Reads one position text into a fresh state ``s`` (set up from the text's seed first)."""

    def __init__(self, game, text: str):
        self.game = game
        self.c = game.components
        self.text = _Text(text)
        self.colors = [self.c.colors[p] for p in range(game.num_players)]
        self.placed: dict[int, str] = {}   # tile -> where (for "a tile in two places")
        self.plants_held: set[int] = set()

    # --- small helpers ---------------------------------------------------------------------------
    def seat(self, no: int, word: str) -> int:
        w = word.lower()
        if w not in self.colors:
            _fail(no, f"unknown seat {word!r}; the seats are {', '.join(self.colors)}")
        return self.colors.index(w)

    def tile(self, no: int, word: str, where: str) -> int:
        t = self.c.tile_by_id.get(word)
        if t is None or t.id == "lake":
            _fail(no, f"unknown tile {word!r}")
        if t.idx in (self.c.hotel.idx, self.c.city_hall.idx):
            _fail(no, f"{word} is a starting tile: each city has its own, only in its city line")
        if t.idx in self.placed:
            _fail(no, f"{word} is in two places: {self.placed[t.idx]} and {where}")
        self.placed[t.idx] = where
        return t.idx

    def tiles(self, no: int, value: str, where: str) -> list[int]:
        words = [w for w in re.split(r"[,\s]+", value) if w]
        if words == ["-"]:
            return []
        return [self.tile(no, w, where) for w in words]

    # --- reading ------------------------------------------------------------------------------------
    def read(self):
        from .setup import setup
        from .state import CapitalsState
        g = self.game
        n = g.num_players
        t = self.text
        self._check_game_line()
        seed_line = t.get("seed")
        seed = _int(seed_line[0], seed_line[1], "seed") if seed_line else 0
        s = CapitalsState.blank(g, seed)
        setup(s, g, seed)
        s.log = []
        # the city lines first: they place tiles; then the tile a decision is about
        for p in range(n):
            self._city(s, p)
        self.pending = self._decision_tile()
        for p in range(n):
            self._seat_line(s, p)
        self._globals(s)
        self._projects(s)
        self._hands(s)
        self._decks(s, Rng(seed ^ 0x5EED))
        self._tourists(s)
        s.log = []   # the log holds what happens from the position on (the automatic work of 'decision: none')
        self._decision(s)
        left = t.unused()
        if left:
            no, key = left[0]
            _fail(no, f"unknown line {key!r}")
        return s

    def _decision_tile(self) -> int:
        """The tile of a ``place`` or ``lake`` decision (read before the hands and decks are dealt)."""
        got = self.text.lines.get("decision")
        if got is None:
            return -1
        no, value = got
        words = value.split()
        if len(words) == 2 and words[0].lower() in ("place", "lake"):
            return self.tile(no, words[1], "the tile being built")
        return -1

    def _check_game_line(self):
        got = self.text.get("game")
        if got is None:
            raise PositionError("line 1: a position starts with 'game: the_capitals players=N'")
        no, value = got
        words = value.split()
        if not words or words[0] != "the_capitals":
            _fail(no, f"this is a position of the_capitals, not {value!r}")
        opts = {}
        for w in words[1:]:
            k, sep, v = w.partition("=")
            if not sep:
                _fail(no, f"expected option=value, got {w!r}")
            opts[{"players": "num_players"}.get(k, k)] = v
        want = {k: str(v).lower() for k, v in self.game.options.items()}
        for k, v in opts.items():
            if k not in want:
                _fail(no, f"unknown option {k!r}")
            if v.lower() not in (want[k], {"true": "yes", "false": "no"}.get(want[k], want[k])):
                _fail(no, f"option {k}={v} differs from the game's {k}={self.game.options[k]}")

    def _city(self, s, p: int):
        g = self.game
        c = self.c
        color = self.colors[p]
        got = self.text.get(f"{color} city")
        if got is None:
            self._tokens(s, p, s.city[p])
            return
        no, value = got
        city: dict[int, int] = {}
        cubes: dict[int, int] = {}
        lakes: list[list[int]] = []
        starting = {c.hotel.id: c.hotel.idx, c.city_hall.id: c.city_hall.idx}
        for word in value.split():
            m = re.fullmatch(r"([a-z_0-9()]+)@(-?\d+,-?\d+)(?:\+(\d+))?", word)
            if not m:
                _fail(no, f"expected tile@x,y or tile@x,y+cubes, got {word!r}")
            name, xy, k = m.group(1), m.group(2), m.group(3)
            x, y = _xy(no, xy)
            slot = g.slot_at(x, y)
            if not 0 <= slot < c.grid * c.grid or abs(x) > c.grid // 2 - 1 or abs(y) > c.grid // 2 - 1:
                _fail(no, f"({x}, {y}) is off the city grid")
            if slot in city:
                _fail(no, f"two tiles on ({x}, {y})")
            lm = re.fullmatch(r"lake\(([a-z_0-9]+)\)", name)
            if lm:
                x_idx = self.tile(no, lm.group(1), f"{color}'s Lake")
                if x_idx not in c.prosperity_tiles:
                    _fail(no, f"a Lake is a prosperity tile turned face down; {lm.group(1)} is not one")
                city[slot] = c.lake.idx
                lakes.append([slot, x_idx])
            elif name in starting:
                if starting[name] in city.values():
                    _fail(no, f"{color}'s city has one {name}")
                city[slot] = starting[name]
            else:
                idx = self.tile(no, name, f"{color}'s city")
                if idx in c.prosperity_tiles and not s.prosperity:
                    _fail(no, f"{name} is a Prosperity tile and this game is played without the expansion")
                city[slot] = idx
            if k:
                if not c.tiles[city[slot]].has_activation:
                    _fail(no, f"{name} has no activation, so no energy cube can be on it")
                cubes[slot] = int(k)
        for start in starting:
            if starting[start] not in city.values():
                _fail(no, f"{color}'s city lacks its {start} (every city starts with a Hotel and a City Hall)")
        # connected: every tile touches another (diagonals count), all in one group
        todo = [next(iter(city))]
        seen = set(todo)
        while todo:
            q = todo.pop()
            for r in g.neighbours[q]:
                if r in city and r not in seen:
                    seen.add(r)
                    todo.append(r)
        if len(seen) != len(city):
            x, y = g.xy(next(q for q in city if q not in seen))
            _fail(no, f"{color}'s city is not connected: the tile at ({x}, {y}) touches no other")
        s.city[p] = city
        s.cubes_on[p] = cubes
        s.lakes[p] = lakes
        for ty in range(NTYPES):
            s.type_count[p * NTYPES + ty] = 0
        for x_idx in city.values():
            s.type_count[p * NTYPES + c.tiles[x_idx].type] += 1
        self._tokens(s, p, city)

    def _tokens(self, s, p: int, city: dict):
        g = self.game
        tok = self.text.get(f"{self.colors[p]} tokens")
        if tok is not None:
            no, value = tok
            words = value.split()
            if len(words) != 2:
                _fail(no, "a city has two construction tokens: give two corners x,y x,y")
            corners = [self._corner(no, w) for w in words]
            if corners[0] == corners[1]:
                _fail(no, "the two construction tokens are on one corner")
            for k, corner in enumerate(corners):
                if not any(q in city for q in g.isect_slots[corner]):
                    _fail(no, f"construction token at {words[k]} touches no tile of the city")
            s.tokens[p] = corners

    def _corner(self, no: int, word: str) -> int:
        x, y = _xy(no, word)
        o = self.c.grid // 2
        if not (-o <= x <= self.c.grid - o and -o <= y <= self.c.grid - o):
            _fail(no, f"corner ({x}, {y}) is off the city grid")
        return self.game.corner_at(x, y)

    def _seat_line(self, s, p: int):
        c = self.c
        color = self.colors[p]
        got = self.text.get(color)
        base = p * NT
        if got is not None:
            no, value = got
            words = value.split()
            if len(words) % 2:
                _fail(no, "expected name value pairs (money 12 culture 3 ...)")
            seen = set()
            for name, v in zip(words[::2], words[1::2]):
                if name in seen:
                    _fail(no, f"{name} is given twice")
                seen.add(name)
                if name in _TRACKS:
                    val = _int(no, v, name)
                    tr = TRACK_INDEX[name]
                    if not c.track_min[tr] <= val <= c.track_max[tr] or (name == "progress" and val < 0):
                        _fail(no, f"{name} {val} is off its track ({c.track_min[tr]} to {c.track_max[tr]})")
                    s.tracks[base + tr] = val
                elif name == "plant":
                    self._plant(s, p, no, v)
                elif name == "space":
                    space = _int(no, v, "space") - 1
                    if space not in self.game.politics_spaces and space not in c.usable_spaces(s.n, politics=False):
                        _fail(no, f"initiative space {space + 1} is not used with {s.n} players")
                    s.initiative[p] = space
                elif name == "upgrades":
                    s.upgrades_due[p] = _int(no, v, "upgrades")
                    if s.upgrades_due[p] < 0:
                        _fail(no, "upgrades owed cannot be negative")
                else:
                    _fail(no, f"unknown seat value {name!r} (tracks: {', '.join(_TRACKS)}; plant, space, upgrades)")
            if s.tracks[base + TRACK_INDEX["employment"]] > s.tracks[base + TRACK_INDEX["population"]]:
                _fail(no, "employment can never exceed population (HU 'Munkás sáv')")
        score = self.text.get(f"{color} score")
        prestige = s.tracks[base + PRESTIGE]
        sheet = [0] * NCAT
        if score is not None:
            no, value = score
            words = value.split()
            if len(words) % 2:
                _fail(no, "expected category value pairs")
            for name, v in zip(words[::2], words[1::2]):
                if name not in CATEGORY_KEYS:
                    _fail(no, f"unknown score category {name!r}; categories: {', '.join(CATEGORY_KEYS)}")
                sheet[CATEGORY_KEYS.index(name)] = _int(no, v, name)
            if got is not None and "prestige" in got[1].split() and sum(sheet) != prestige:
                _fail(no, f"the score categories sum to {sum(sheet)}, the prestige is {prestige}")
            s.tracks[base + PRESTIGE] = sum(sheet)
        else:
            sheet[C_TILES] = prestige
        s.score_sheet[p * NCAT:(p + 1) * NCAT] = sheet

    def _plant(self, s, p: int, no: int, value: str):
        c = self.c
        level_s, _, printed = value.partition(":")
        level = _int(no, level_s, "plant level")
        if not 1 <= level <= c.max_plant_level:
            _fail(no, f"plant level {level} does not exist (1 to {c.max_plant_level})")
        if level == 1:
            plant = c.plants[0]
        else:
            supply = [c.plants[i] for i in self.game.plant_supply[level]]
            free = [pl for pl in supply if pl.idx not in self.plants_held]
            if printed:
                k = _int(no, printed, "printed cubes")
                free = [pl for pl in free if pl.cubes == k]
            if not free:
                _fail(no, f"no level-{level} plant{' bringing ' + printed + ' cubes' if printed else ''} is left "
                      f"for {self.colors[p]} at this player count")
            plant = free[0]
            self.plants_held.add(plant.idx)
        s.plant[p] = plant.idx
        s.tracks[p * NT + LEVEL] = level

    def _globals(self, s):
        c = self.c
        t = self.text
        got = t.get("round")
        if got:
            s.round = _int(got[0], got[1], "round")
            if not 1 <= s.round <= c.rounds:
                _fail(got[0], f"round {s.round} does not exist (1 to {c.rounds})")
        for p in range(s.n):
            for q in range(p):
                if s.initiative[p] == s.initiative[q]:
                    lines = [t.lines[self.colors[r]] for r in (q, p) if self.colors[r] in t.lines]
                    no = max(line_no for line_no, value in lines if "space" in value.split())
                    _fail(no, f"{self.colors[q]} and {self.colors[p]} are both on initiative space "
                              f"{s.initiative[p] + 1} (give each seat its own space)")
        s.order = sorted(range(s.n), key=s.initiative.__getitem__)
        got = t.get("highest culture")
        if got:
            s.highest_culture = -1 if got[1].lower() == "none" else self.seat(got[0], got[1])
        got = t.get("neutral")
        if got:
            if s.n != 2:
                _fail(got[0], "the neutral culture marker exists only in a 2-player game")
            s.neutral_culture = _int(got[0], got[1], "neutral culture")
        got = t.get("chosen")
        if got:
            no, value = got
            words = value.split()
            for color, v in zip(words[::2], words[1::2]):
                space = _int(no, v, "space") - 1
                if space not in self.game.politics_spaces:
                    _fail(no, f"initiative space {space + 1} is not usable with {s.n} players")
                if space in s.chosen_space:
                    _fail(no, f"initiative space {space + 1} is chosen twice")
                s.chosen_space[self.seat(no, color)] = space
        got = t.get("expo")
        if got:
            if got[1] != "scored":
                _fail(got[0], "expo: the only value is 'scored'")
            s.expo_scored = True
        got = t.get("extra build")
        if got:
            if got[1] != "due":
                _fail(got[0], "extra build: the only value is 'due'")
            s.extra_build_due = True
        got = t.get("plants taken")
        taken = [0] * len(s.plants_taken)
        supply = self.game.plant_supply
        held = [0] * len(s.plants_taken)   # per level, how many plants of the supply's head a held plant needs gone
        for p in range(s.n):   # default: each plant above level 1 held was taken, with those passed on the way
            level = s.tracks[p * NT + LEVEL]
            for lv in range(2, level + 1):
                taken[lv] += 1
            if level >= 2:
                held[level] = max(held[level], supply[level].index(s.plant[p]) + 1)
        taken = [max(a, b) for a, b in zip(taken, held)]
        if got:
            no, value = got
            for word in value.split():
                lv, sep, k = word.partition(":")
                level = _int(no, lv, "level")
                if not sep or not 2 <= level <= c.max_plant_level:
                    _fail(no, f"expected level:count with a level from 2 to {c.max_plant_level}, got {word!r}")
                taken[level] = _int(no, k, "count")
                if taken[level] > len(supply[level]):
                    _fail(no, f"more level-{level} plants taken ({taken[level]}) than the supply holds "
                              f"({len(supply[level])})")
                if taken[level] < held[level]:
                    _fail(no, f"a level-{level} plant held by a city is still in the supply: at least "
                              f"{held[level]} must be taken (the supply is used best first)")
        s.plants_taken = taken

    def _era_in_play(self, s) -> int:
        """The era of the tiles being drawn: the round's, or the next round's once the administration
        phase has refilled the projects area (its World Expo and prosperity build)."""
        got = self.text.lines.get("phase")
        phase = _PHASE_BY_NAME.get(" ".join(got[1].lower().split())) if got else None
        rnd = s.round
        if phase in (P_EXPO, P_PROSPERITY) and rnd < self.c.rounds:
            rnd += 1
        return self.c.era_of_round[rnd]

    def _projects(self, s):
        got = self.text.get("projects")
        if got is None:   # the projects area as set up, minus the tiles the text placed elsewhere
            s.projects = [[x for x in row if x not in self.placed] for row in s.projects]
            for row in s.projects:
                for x in row:
                    self.placed[x] = "the projects area"
            return
        no, value = got
        rows = [r.strip() for r in value.split("|")]
        if len(rows) != 3:
            _fail(no, "the projects area has three rows: $0 ... | $2 ... | $4 ...")
        out = []
        for r, row in enumerate(rows):
            label = f"${self.c.row_prices[r]}"
            if not row.startswith(label):
                _fail(no, f"row {r + 1} must start with {label}")
            tiles = self.tiles(no, row[len(label):], "the projects area")
            era = self._era_in_play(s)
            for x in tiles:
                if self.c.tiles[x].prosperity or self.c.tiles[x].era > era:
                    _fail(no, f"{self.c.tiles[x].id} cannot be in the projects area in round {s.round} "
                              f"(era {era} tiles at most)")
            out.append(tiles)
        s.projects = out

    def _hands(self, s):
        c = self.c
        given = {}
        for p in range(s.n):
            got = self.text.get(f"{self.colors[p]} hand")
            if got is None:
                continue
            if not s.prosperity:
                _fail(got[0], "prosperity hands exist only with the Prosperity expansion")
            no, value = got
            hand = self.tiles(no, value, f"{self.colors[p]}'s hand")
            for x in hand:
                if x not in c.prosperity_tiles:
                    _fail(no, f"{c.tiles[x].id} is not a prosperity tile")
            if len(hand) > c.prosperity_hand[s.n]:
                _fail(no, f"a hand holds at most {c.prosperity_hand[s.n]} tiles with {s.n} players")
            given[p] = sorted(hand)
        got = self.text.get("box")
        box = None
        if got is not None:
            box = self.tiles(got[0], got[1], "the box")
        if not s.prosperity:
            return
        # the rest: the hands not given are those of the setup without the tiles written elsewhere,
        # each at its size (as dealt, less the tiles built), trimmed into the box or topped up from it
        mover = self.text.lines.get("to move")
        builder = -1
        if mover and self.pending in c.prosperity_tiles:
            builder = self.seat(*mover)
        pool = [x for x in s.prosperity_box if x not in self.placed]
        for p in given:   # what the setup dealt a hand the text gives, and the text puts nowhere
            pool.extend(x for x in s.hands[p] if x not in self.placed)
        want = {}
        for p in range(s.n):
            if p in given:
                continue
            built = sum(1 for x in s.city[p].values() if c.tiles[x].prosperity) + len(s.lakes[p])
            if p == builder:   # the prosperity tile being built has left the hand
                built += 1
            want[p] = max(0, c.prosperity_hand[s.n] - built)
            hand = [x for x in s.hands[p] if x not in self.placed]
            while len(hand) > want[p]:
                pool.append(hand.pop())
            s.hands[p] = hand
        for p, k in want.items():
            while len(s.hands[p]) < k and pool:
                s.hands[p].append(pool.pop(0))
            s.hands[p].sort()
            for x in s.hands[p]:
                self.placed[x] = f"{self.colors[p]}'s hand"
        for p, hand in given.items():
            s.hands[p] = hand
        if box is None:
            s.prosperity_box = pool
        elif pool:
            _fail(got[0], "the box lacks prosperity tiles that are nowhere else: "
                          + ", ".join(c.tiles[x].id for x in sorted(pool)))
        else:
            s.prosperity_box = box

    def _decks(self, s, rng):
        c = self.c
        era_now = self._era_in_play(s)
        explicit = {}
        for era in (1, 2, 3):
            got = self.text.get(f"deck era{era}")
            if got is not None:
                explicit[era] = list(reversed(self.tiles(got[0], got[1], f"the era {era} deck")))
                for x in explicit[era]:
                    if c.tiles[x].era != era:
                        _fail(got[0], f"{c.tiles[x].id} is an era {c.tiles[x].era} tile")
            got = self.text.get(f"removed era{era}")
            if got is not None:
                if s.n != 2:
                    _fail(got[0], "tiles are removed unseen only in a 2-player game")
                s.removed[era] = self.tiles(got[0], got[1], f"the tiles removed from era {era}")
        for era in (1, 2, 3):
            if era in explicit:
                s.decks[era] = explicit[era]
                continue
            if era < era_now:   # an older era's deck was discarded at the era change
                s.decks[era] = []
                continue
            # as at setup, without the tiles written elsewhere; a tile removed at setup (2 players)
            # that the text puts elsewhere is replaced by the next tile of its type in the deck
            deck = [x for x in s.decks[era] if x not in self.placed]
            if s.n == 2 and f"removed era{era}" not in self.text.used:
                out = []
                for x in s.removed[era]:
                    if x in self.placed:
                        x = next((y for y in reversed(deck) if c.tiles[y].type == c.tiles[x].type), None)
                        if x is None:
                            continue
                        deck.remove(x)
                    out.append(x)
                s.removed[era] = out
            # the tiles the setup dealt to the projects area that the text leaves out go back unseen
            back = [x for x in c.era_tiles[era] if x not in self.placed and x not in s.removed[era]
                    and x not in deck and c.tile_min_players(c.tiles[x]) <= max(s.n, 3)]
            for x in back:
                deck.insert(rng.randbelow(len(deck) + 1), x)
            s.decks[era] = deck

    def _tourists(self, s):
        got = self.text.get("tourists")
        if got is None:
            return
        no, value = got
        seen = set()
        for word in value.split():
            m = re.fullmatch(r"([a-z]+)@([a-z]+|-)(?::(-?\d+,-?\d+))?(!)?", word)
            if not m:
                _fail(no, f"expected colour@host[:x,y][!], got {word!r}")
            color, host, xy, used = m.groups()
            if color == "neutral":
                if s.n != 2:
                    _fail(no, "the neutral tourist exists only in a 2-player game")
                k = s.n
            else:
                k = self.seat(no, color)
            if k in seen:
                _fail(no, f"the {color} tourist is given twice")
            seen.add(k)
            if host == "-":
                if k != s.n:
                    _fail(no, "only the neutral tourist can be beside the board")
                s.tourist_host[k], s.tourist_slot[k] = -1, -1
                continue
            h = self.seat(no, host)
            slot = -1
            if xy:
                x, y = _xy(no, xy)
                slot = self.game.slot_at(x, y)
                if slot not in s.city[h]:
                    _fail(no, f"the {color} tourist stands on ({x}, {y}), where {host}'s city has no tile")
            s.tourist_host[k], s.tourist_slot[k], s.tourist_used[k] = h, slot, bool(used)

    def _decision(self, s):
        c = self.c
        g = self.game
        t = self.text
        got = t.get("phase")
        phase = s.phase
        if got is not None:
            name = " ".join(got[1].lower().split())
            if name not in _PHASE_BY_NAME:
                _fail(got[0], f"unknown phase {got[1]!r}; phases: {', '.join(PHASE_NAMES)}")
            phase = _PHASE_BY_NAME[name]
            rnd = s.round
            if phase in (P_PRE_EXPO, P_FINAL) and rnd != c.rounds:
                _fail(got[0], f"{PHASE_NAMES[phase]} happens only in round {c.rounds}")
            if phase == P_EXPO and rnd not in c.expo_rounds:
                _fail(got[0], f"there is no World Expo in round {rnd}")
            if phase == P_PROSPERITY and not (s.prosperity and rnd in c.prosperity_rounds):
                _fail(got[0], f"no prosperity build in round {rnd} of this game")
            if phase == P_ADMIN and rnd == c.rounds:
                _fail(got[0], f"round {c.rounds} has no administration phase")
        s.phase = phase
        mover = t.get("to move")
        p = self.seat(mover[0], mover[1]) if mover else s.order[0]
        s.player = p
        s.turn = s.order.index(p)
        turn = t.get("turn")
        if turn is not None:
            s.turn = s.n if turn[1].lower() == "done" else s.order.index(self.seat(turn[0], turn[1]))
        got = t.get("decision")
        no, value = got if got else (mover[0] if mover else 0, "none")
        words = value.split()
        key = words[0].lower() if words else "none"
        if key not in STEP_KEYS:
            _fail(no, f"unknown decision {key!r}; decisions: {', '.join(STEP_KEYS)}")
        step = STEP_KEYS.index(key)
        args = words[1:]
        if phase == P_END:
            if step != NO_DECISION:
                _fail(no, "the game is over: no decision is pending")
            from .scoring import finish
            finish(s)
            return
        if step != NO_DECISION and phase not in _DECISION_PHASES[step]:
            _fail(no, f"a {key} decision cannot be pending in the {PHASE_NAMES[phase]} phase")
        if step != NO_DECISION and not mover:
            _fail(no, "a pending decision needs 'to move: <seat>'")
        self._turn_flags(s, phase, step, p)
        due = t.get("cubes due")
        if step in (S_PLACE, S_LAKE):
            if len(args) != 1:
                _fail(no, f"'decision: {key} <tile>' names the tile")
            x = self.pending
            if step == S_LAKE and x not in c.prosperity_tiles:
                _fail(no, f"a Lake is a prosperity tile turned face down; {args[0]} is not one")
            if step == S_PLACE and phase == P_BUILDING and c.tiles[x].prosperity:
                _fail(no, "a prosperity tile is built in the prosperity phase")
            s.pending_tile = x
        elif step in (S_PAY, S_FREE):
            if len(args) != 1:
                _fail(no, f"'decision: {key} <x,y>' names the tile's slot")
            x, y = _xy(no, args[0])
            slot = g.slot_at(x, y)
            tile = c.tiles[s.city[p][slot]] if slot in s.city[p] else None
            if tile is None:
                _fail(no, f"{self.colors[p]}'s city has no tile at ({x}, {y})")
            s.pending_slot = slot
            if step == S_PAY:
                if not tile.has_activation:
                    _fail(no, f"{tile.name} has no activation to pay for")
                s.cubes_due = _int(due[0], due[1], "cubes due") if due else s.activation_cost(p, slot)
                if s.cubes_due < 1:
                    _fail(due[0] if due else no, "at least one cube must be due")
            elif not (tile.act_free_adjacent or tile.imm_free_adjacent or tile.before_expo_free):
                _fail(no, f"{tile.name} gives no free activation")
        elif step == S_TOKEN:
            if len(args) != 1 or args[0] not in ("0", "1"):
                _fail(no, "'decision: token 0' or 'token 1' names the construction token")
            s.token_index = int(args[0])
            from .administration import token_destinations, token_surrounded
            if not token_surrounded(s, p, s.token_index) or not token_destinations(s, p):
                _fail(no, f"{self.colors[p]}'s construction token {args[0]} is not surrounded on all four sides")
        elif step == S_EFFECT:
            if len(s.pending_effects) < 2:
                _fail(no, "an effect decision orders at least two effects ('effects pending: x,y x,y')")
        elif step == S_UPGRADE:
            if not s.upgrades_due[p]:
                _fail(no, f"{self.colors[p]} owes no upgrade ('{self.colors[p]}: ... upgrades 1')")
            from .power_plants import possible
            if not possible(s, p):
                _fail(no, "no plant of the next level is left to upgrade to")
        elif step == S_REWARD:
            if s.activations_made:
                _fail(no, "the no-activation reward needs a turn without activation")
        elif args:
            _fail(no, f"'decision: {key}' takes no argument")
        if due and step != S_PAY:
            _fail(due[0], "cubes are due only while paying an activation")
        s.step = step
        s._legal = None
        if step == NO_DECISION:
            s.RULES.advance(s)
        elif not s.RULES.legal(s):
            _fail(no, f"{self.colors[p]} has no legal action in this decision")

    def _turn_flags(self, s, phase: int, step: int, p: int):
        """The flags saying how far the seat's turn in the phase has gone (activations, prosperity
        build, end-game effects), from their lines or from the decision."""
        c = self.c
        t = self.text
        acts = t.get("activations")
        if acts or (phase == P_EXECUTIVE and step in (S_ACTIVATE, S_PAY, S_REWARD, S_FREE)):
            if phase != P_EXECUTIVE:
                _fail(acts[0], "activations are counted only in the executive phase")
            s.executive_started = True
            s.activations_left = c.plants[s.plant[p]].activations + (c.hc_extra if p == s.highest_culture else 0)
            s.activations_made = 0
            if acts:
                w = acts[1].split()
                if len(w) != 4 or w[0] != "left" or w[2] != "made":
                    _fail(acts[0], "expected 'activations: left K made M'")
                s.activations_left = _int(acts[0], w[1], "activations left")
                s.activations_made = _int(acts[0], w[3], "activations made")
        started = t.get("prosperity build")
        if started or (phase == P_PROSPERITY and step in (S_PROSPERITY, S_LAKE, S_PLACE, S_TAKE)):
            if phase != P_PROSPERITY or (started and started[1] != "started"):
                _fail(started[0], "prosperity build: 'started', in the prosperity phase only")
            s.prosperity_started = True
        effects = t.get("effects pending")
        if effects:
            if phase not in (P_PRE_EXPO, P_FINAL):
                _fail(effects[0], "end-game effects are pending only before the last Expo or in the final scoring")
            from .end import BEFORE_EXPO, END_OF_GAME, has_effect
            stage = END_OF_GAME if phase == P_FINAL else BEFORE_EXPO
            slots = []
            for w in effects[1].split():
                x, y = _xy(effects[0], w)
                slot = self.game.slot_at(x, y)
                if slot not in s.city[p] or not has_effect(c.tiles[s.city[p][slot]], stage):
                    _fail(effects[0], f"no {PHASE_NAMES[phase]} effect of {self.colors[p]} at ({x}, {y})")
                slots.append(slot)
            s.pending_effects = sorted(slots)
            s.effects_gathered = True


def parse(game, text: str):
    """The ``CapitalsState`` the position ``text`` describes (see the module docstring).

    The state has an empty history and ``origin == text``; when the decision is ``none``, the phase's
    automatic work runs from the given seat's turn to the next decision and its events are the log.

    Raises:
        PositionError: the text is not a valid position; the message names the line and the rule.
    """
    s = _Reader(game, text).read()
    s.history = []
    s.origin = text
    return s


# --- writing ------------------------------------------------------------------------------------
def _tiles_text(c, tiles) -> str:
    return ", ".join(c.tiles[x].id for x in tiles) if tiles else "-"


def write(s) -> str:
    """Seat by seat and part by part, every rule-relevant field of ``s`` in the notation above; ``parse``
    of the result gives a state with the same position text, observations and legal actions."""
    g = s.game
    c = s.c
    colors = [c.colors[p] for p in range(s.n)]
    opts = [f"players={s.n}"]
    for name in ("prosperity", "refill_variant"):
        if g.options.get(name):
            opts.append(f"{name}=yes")
    lines = [f"game: the_capitals {' '.join(opts)}", f"seed: {s.seed}", f"round: {s.round}",
             f"phase: {PHASE_NAMES[s.phase]}"]
    if s.phase != P_END:
        turn = colors[s.order[s.turn]] if s.turn < s.n else "done"
        if s.step == NO_DECISION:
            lines.append(f"turn: {turn}")
        else:
            lines.append(f"to move: {colors[s.player]}")
            if turn != colors[s.player]:
                lines.append(f"turn: {turn}")
        lines.append("decision: " + _decision_text(s))
    if s.phase == P_EXECUTIVE and s.executive_started:
        lines.append(f"activations: left {s.activations_left} made {s.activations_made}")
    if s.phase == P_PROSPERITY and s.prosperity_started:
        lines.append("prosperity build: started")
    if s.effects_gathered:
        lines.append("effects pending: " + " ".join("{},{}".format(*g.xy(q)) for q in s.pending_effects))
    if s.step == S_PAY:
        lines.append(f"cubes due: {s.cubes_due}")
    chosen = [f"{colors[p]} {s.chosen_space[p] + 1}" for p in range(s.n) if s.chosen_space[p] >= 0]
    if chosen:
        lines.append("chosen: " + " ".join(chosen))
    lines.append("highest culture: " + (colors[s.highest_culture] if s.highest_culture >= 0 else "none"))
    if s.neutral_culture >= 0:
        lines.append(f"neutral: {s.neutral_culture}")
    if s.expo_scored:
        lines.append("expo: scored")
    if s.extra_build_due:
        lines.append("extra build: due")
    rows = [f"${c.row_prices[r]} {_tiles_text(c, row)}" for r, row in enumerate(s.projects)]
    lines.append("projects: " + " | ".join(rows))
    for era in (1, 2, 3):
        lines.append(f"deck era{era}: {_tiles_text(c, list(reversed(s.decks[era])))}")
        if s.n == 2:
            lines.append(f"removed era{era}: {_tiles_text(c, s.removed[era])}")
    if s.prosperity:
        lines.append(f"box: {_tiles_text(c, s.prosperity_box)}")
    lines.append("plants taken: " + " ".join(f"{lv}:{s.plants_taken[lv]}" for lv in range(2, c.max_plant_level + 1)))
    tourists = []
    for k in range(len(s.tourist_host)):
        name = "neutral" if k == s.n else colors[k]
        host = s.tourist_host[k]
        if host < 0:
            tourists.append(f"{name}@-")
            continue
        where = ""
        if s.tourist_slot[k] >= 0:
            x, y = g.xy(s.tourist_slot[k])
            where = f":{x},{y}"
        tourists.append(f"{name}@{colors[host]}{where}{'!' if s.tourist_used[k] else ''}")
    lines.append("tourists: " + " ".join(tourists))
    for p in range(s.n):
        base = p * NT
        vals = " ".join(f"{name} {s.tracks[base + TRACK_INDEX[name]]}" for name in _TRACKS)
        plant = c.plants[s.plant[p]]
        lines.append(f"{colors[p]}: {vals} plant {plant.level}:{plant.cubes} space {s.initiative[p] + 1}"
                     + (f" upgrades {s.upgrades_due[p]}" if s.upgrades_due[p] else ""))
        cells = []
        lakes = {slot: x for slot, x in s.lakes[p]}
        for slot, x in s.city[p].items():   # in building order
            xx, yy = g.xy(slot)
            name = f"lake({c.tiles[lakes[slot]].id})" if c.tiles[x].type == LAKE else c.tiles[x].id
            k = s.cubes_on[p].get(slot, 0)
            cells.append(f"{name}@{xx},{yy}" + (f"+{k}" if k else ""))
        lines.append(f"{colors[p]} city: " + " ".join(cells))
        lines.append(f"{colors[p]} tokens: " + " ".join("{},{}".format(*g.corner_xy(i)) for i in s.tokens[p]))
        sheet = s.score_sheet[p * NCAT:(p + 1) * NCAT]
        lines.append(f"{colors[p]} score: " + " ".join(f"{CATEGORY_KEYS[k]} {v}" for k, v in enumerate(sheet) if v)
                     if any(sheet) else f"{colors[p]} score: tile_effects 0")
        if s.prosperity:
            lines.append(f"{colors[p]} hand: {_tiles_text(c, s.hands[p])}")
    return "\n".join(lines) + "\n"


def _decision_text(s) -> str:
    g = s.game
    step = s.step
    key = STEP_KEYS[step]
    if step in (S_PLACE, S_LAKE):
        return f"{key} {s.c.tiles[s.pending_tile].id}"
    if step in (S_PAY, S_FREE):
        return "{} {},{}".format(key, *g.xy(s.pending_slot))
    if step == S_TOKEN:
        return f"token {s.token_index}"
    return key


__all__ = ["parse", "write"]
