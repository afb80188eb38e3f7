"""Between Two Cities components: the single tiles, the duplexes, the Capitals' civic buildings,
landscape mats and district cards, the scoring tables and the project's rule choices.

Everything comes from ``data/tiles.yaml``, ``data/capitals.yaml`` and ``data/scoring.yaml`` (written
from ``shared/reference/between_two_cities.md``, cited as §N); this module turns it into flat tuples
of ints (the kind codes of ``constants.py``) so the engine never looks at strings while playing.

A city lives on a ``W x W`` grid (``Geometry``): W = 7 in the base game, the first tile in the centre
cell; W = 9 with the Capitals, the landscape mat in the centre. A cell is ``row * W + col``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from citygames.core.data import Assumption, load_data, variant_loader

from .constants import (BASE_TYPES, CIVIC0, KIND_NAMES, NUM_CIVICS, T_CIVIC, T_FACTORY, T_HOUSE, T_OFFICE, T_PARK,
                        T_SHOP, T_TAVERN, TERRAIN, TYPE_NAMES)
from .geometry import Geometry

DATA = Path(__file__).parent / "data"

#: the data files' words for the nine base kinds, in kind-code order (1..9)
KIND_WORDS = ("shop", "factory", "tavern_music", "tavern_food", "tavern_drink", "tavern_bed", "office", "park",
              "house")
#: the data files' words for the scoring types
TYPE_WORDS = {"shop": T_SHOP, "factory": T_FACTORY, "tavern": T_TAVERN, "office": T_OFFICE, "park": T_PARK,
              "house": T_HOUSE, "civic": T_CIVIC}
#: the number of single kinds (1..30: the nine base kinds and the 21 civic buildings)
NUM_SINGLE_KINDS = 9 + NUM_CIVICS
#: the largest grid (the Capitals'), which sizes the action space of both modes
MAX_CELLS = 81


def _kind(word: str) -> int:
    try:
        return KIND_WORDS.index(word) + 1
    except ValueError:
        raise ValueError(f"unknown building kind {word!r} (kinds: {', '.join(KIND_WORDS)})") from None


def _type(word: str) -> int:
    try:
        return TYPE_WORDS[word]
    except KeyError:
        raise ValueError(f"unknown building type {word!r} (types: {', '.join(TYPE_WORDS)})") from None


@dataclass(frozen=True)
class Duplex:
    """One duplex tile (§2): ``idx`` 0-23, ``id`` as printed in the reference (``H1``..``V12``),
    ``horizontal`` (halves left | right) or vertical (top / bottom), ``halves`` the two kinds (first:
    the left or top half)."""

    idx: int
    id: str
    horizontal: bool
    halves: tuple[int, int]

    @property
    def name(self) -> str:
        """``"shop | house"`` (horizontal) or ``"shop / house"`` (vertical)."""
        sep = " | " if self.horizontal else " / "
        return sep.join(KIND_NAMES[k] for k in self.halves)

    @property
    def code(self) -> str:
        from .constants import KIND_CODES
        sep = "|" if self.horizontal else "/"
        return sep.join(KIND_CODES[k] for k in self.halves)


@dataclass(frozen=True)
class Civic:
    """One civic building of the Capitals (§8.4): ``k`` 0-20 (kind ``CIVIC0 + k``), its name, its two
    positive types and its negative type (``constants`` type codes)."""

    k: int
    id: str
    name: str
    plus: tuple[int, int]
    minus: int

    @property
    def effect(self) -> str:
        return (f"+{TYPE_NAMES[self.plus[0]]} +{TYPE_NAMES[self.plus[1]]} -{TYPE_NAMES[self.minus]}")


@dataclass(frozen=True)
class Mat:
    """One landscape mat of the Capitals (§8.3), placed in the centre of the 9 x 9 grid.

    Attributes:
        idx, id, name: its index, id and name (the data's mats are invented placeholders).
        rows, cols: its size; ``top``, ``left``: its top-left cell's row and column on the grid.
        terrain: the grid cells of its terrain squares. squares: the grid cells of its buildable
            squares (where a city's first tile may go, §8.3). bridges: pairs of grid cells.
        geometry: the city layout with this mat (``Geometry``).
        picture: its rows as text (``#`` terrain, ``.`` buildable).
    """

    idx: int
    id: str
    name: str
    rows: int
    cols: int
    top: int
    left: int
    terrain: tuple
    squares: tuple
    bridges: tuple
    geometry: Geometry
    picture: tuple


class Components:
    """The compiled data of the game (shared by every game with the same data overrides).

    Attributes:
        singles: the base game's 108 single tiles, as kind codes. civics: the 21 ``Civic``.
        duplexes: the 24 ``Duplex``. mats: the 7 ``Mat``.
        district_cards: the 7 district cards' type codes; forbidden_pair: the type pair a district may
            not be (§8.2). district_tiles: per district scoring tile, ``(first, second)`` points.
        base, capitals: the rule values of each mode (hand size, frame, grid, ...).
        rules: the rule choices (``tiles.yaml`` ``rules``). scoring: the ``scoring.ScoringRules``.
        base_geometry: the base game's city layout (a 7 x 7 grid, no terrain).
        assumptions: every value of the data files no source confirms (and every overridden value).
    """

    def __init__(self, overrides: dict | None = None):
        from .scoring import rules_from_data
        self.overrides = dict(overrides or {})
        tiles, a1 = load_data(DATA / "tiles.yaml", overrides)
        cap, a2 = load_data(DATA / "capitals.yaml", overrides)
        sc, a3 = load_data(DATA / "scoring.yaml", overrides)
        self.assumptions: list[Assumption] = a1 + a2 + a3
        self.scoring = rules_from_data(sc)
        self.scoring_data = sc
        self.singles = tuple(_kind(w) for w, n in tiles["singles"].items() for _ in range(int(n)))
        self.duplexes = tuple(Duplex(i, str(d["id"]), d["orientation"] == "horizontal",
                                     (_kind(d["halves"][0]), _kind(d["halves"][1])))
                              for i, d in enumerate(tiles["duplexes"]))
        self.base = dict(tiles["base"])
        self.rules = dict(tiles["rules"])
        self.capitals = dict(cap["rules"])
        self.civics = tuple(Civic(k, str(c["id"]), str(c["name"]), (_type(c["plus"][0]), _type(c["plus"][1])),
                                  _type(c["minus"])) for k, c in enumerate(cap["civics"]))
        self.district_cards = tuple(_type(w) for w in cap["district_cards"])
        self.forbidden_pair = frozenset(_type(w) for w in cap["district_forbidden_pair"])
        self.district_tiles = tuple((int(d["first"]), int(d["second"])) for d in sc["districts"])
        self.tie_break_types = tuple(_type(w) for w in self.rules["tie_break_types"])
        cross = bool(sc.get("shop_lines_cross_bridges", True))
        self.base_geometry = Geometry(int(self.base["grid"]), lines_cross_bridges=cross)
        grid = int(self.capitals["grid"])
        self.mats = tuple(_mat(i, m, grid, cross) for i, m in enumerate(cap["mats"]))
        self._check()

    def _check(self) -> None:
        if len(self.duplexes) != 24 or len({d.id for d in self.duplexes}) != 24:
            raise ValueError("tiles.yaml duplexes: 24 duplexes with distinct ids expected")
        if len(self.civics) != NUM_CIVICS:
            raise ValueError(f"capitals.yaml civics: {NUM_CIVICS} civic buildings expected, got {len(self.civics)}")
        combos = {(frozenset(c.plus), c.minus) for c in self.civics}
        if len(combos) != NUM_CIVICS:
            raise ValueError("capitals.yaml civics: every civic building needs its own combination (§8.4)")
        for c in self.civics:
            if c.plus[0] == c.plus[1] or c.minus in c.plus:
                raise ValueError(f"capitals.yaml civics {c.id}: two different positive types and another negative")
        if len(self.district_cards) != 7 or len(set(self.district_cards)) != 7:
            raise ValueError("capitals.yaml district_cards: 7 different types expected")
        if len(self.district_tiles) != 3:
            raise ValueError("scoring.yaml districts: 3 district scoring tiles expected")
        if len(self.mats) != 7:
            raise ValueError("capitals.yaml mats: 7 landscape mats expected (one per city at 7 players)")
        for key, value in (("placement_order", "lower_seat_first"), ("unplaceable_duplex", "restrict_choice")):
            if self.rules[key] != value:
                raise ValueError(f"tiles.yaml rules.{key}: only {value!r} is implemented")
        if self.base["first_tile"] != "centre":
            raise ValueError("tiles.yaml base.first_tile: only 'centre' is implemented")
        frame, grid = int(self.base["frame"]), int(self.base["grid"])
        if grid < 2 * frame - 1:
            raise ValueError(f"tiles.yaml base.grid must be at least {2 * frame - 1} for a {frame} x {frame} frame")
        for mode, hand, box in (("base", int(self.base["hand_size"]), len(self.singles)),
                                ("capitals", int(self.capitals["hand_size"]), len(self.singles) + NUM_CIVICS)):
            if box < 7 * 2 * hand:   # 7 players draw a hand in rounds 1 and 3 (§2, §8.2)
                raise ValueError(f"{mode}: {box} singles are too few for 7 players ({7 * 2 * hand} needed)")


def _mat(idx: int, m: dict, grid: int, cross: bool) -> Mat:
    """A landscape mat from its data, placed in the centre of the ``grid x grid`` grid, with the checks
    of §8.3: exactly 5 terrain squares, at least one buildable square, bridges between buildable
    squares, and every 5 x 5 frame around it fillable (its buildable cells connected)."""
    rows = [str(r) for r in m["rows"]]
    h, w = len(rows), len(rows[0]) if rows else 0
    where = f"capitals.yaml mats[{m.get('id', idx)}]"
    if not h or any(len(r) != w for r in rows) or any(ch not in "#." for r in rows for ch in r):
        raise ValueError(f"{where}: rows must be equal-length texts of '#' (terrain) and '.' (buildable)")
    if h > 5 or w > 5:
        raise ValueError(f"{where}: a mat must fit in the 5 x 5 city (§8.3)")
    top, left = (grid - h) // 2, (grid - w) // 2
    terrain = tuple((top + r) * grid + left + c for r in range(h) for c in range(w) if rows[r][c] == "#")
    squares = tuple((top + r) * grid + left + c for r in range(h) for c in range(w) if rows[r][c] == ".")
    if len(terrain) != 5:
        raise ValueError(f"{where}: a mat has exactly 5 terrain squares (§8.3), got {len(terrain)}")
    if not squares:
        raise ValueError(f"{where}: a mat needs an empty square for the first building (§8.3)")
    bridges = []
    for (r1, c1), (r2, c2) in m.get("bridges") or ():
        a, b = (top + r1) * grid + left + c1, (top + r2) * grid + left + c2
        if a not in squares or b not in squares:
            raise ValueError(f"{where}: bridge {[r1, c1]}-{[r2, c2]} must link two buildable squares of the mat")
        bridges.append((a, b))
    geo = Geometry(grid, frozenset(terrain), tuple(bridges), lines_cross_bridges=cross)
    _check_fillable(where, geo, top, left, h, w)
    return Mat(idx, str(m["id"]), str(m["name"]), h, w, top, left, terrain, squares, tuple(bridges), geo,
               tuple(rows))


def _check_fillable(where: str, geo: Geometry, top: int, left: int, h: int, w: int, frame: int = 5) -> None:
    """Every ``frame x frame`` window containing the mat lies on the grid and its buildable cells are
    connected (bridges included), so a city can always be completed by adjacent placements."""
    W = geo.width
    for r0 in range(top + h - frame, top + 1):
        for c0 in range(left + w - frame, left + 1):
            if r0 < 0 or c0 < 0 or r0 + frame > W or c0 + frame > W:
                raise ValueError(f"{where}: a {frame} x {frame} frame around the mat leaves the grid")
            cells = {(r0 + r) * W + c0 + c for r in range(frame) for c in range(frame)} - geo.terrain
            start = next(iter(cells))
            seen, todo = {start}, [start]
            while todo:
                x = todo.pop()
                for y in geo.adj[x]:
                    if y in cells and y not in seen:
                        seen.add(y)
                        todo.append(y)
            if seen != cells:
                raise ValueError(f"{where}: in the frame at row {r0}, column {c0} some buildable squares cannot be "
                                 "reached from the others (add a bridge)")


components = variant_loader(Components, doc="""\
The shared, immutable ``Components`` of every game with the same data overrides.

Args:
    overrides: the frozen canonical overrides (``game.data_key``); ``()``: the data files as they are.
""")

__all__ = ["DATA", "KIND_WORDS", "TYPE_WORDS", "NUM_SINGLE_KINDS", "MAX_CELLS", "Duplex", "Civic", "Mat",
           "Components", "components", "CIVIC0", "TERRAIN", "BASE_TYPES"]
