"""Quadropolis components: the building tiles of each round, the two player boards, the scoring tables
and the project's rule choices, for the Classic and the Expert mode.

Everything comes from ``data/tiles.yaml`` and ``data/board.yaml`` (written from
``shared/reference/quadropolis.md``, cited as §N); this module turns it into flat tuples of ints so
the engine never looks at strings while playing. Building types are ints (``TOWER`` .. ``MONUMENT``,
0 = ``EMPTY``); a city space is ``row * cols + col`` (row 1 at the top, column 1 at the left, §5.1:
any consistent labelling works).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from citygames.core.data import Assumption, load_data, variant_loader

DATA = Path(__file__).parent / "data"

#: building types, indexed by their code (0: no building)
TYPES = ("empty", "tower", "shop", "public", "park", "factory", "harbour", "office", "monument")
EMPTY, TOWER, SHOP, PUBLIC, PARK, FACTORY, HARBOUR, OFFICE, MONUMENT = range(9)
#: the rulebook's names of the types (§7)
TYPE_NAMES = ("", "tower block", "shop", "public service", "park", "factory", "harbour", "office tower", "monument")
#: one letter per type, for positions and the terminal board
TYPE_LETTERS = ".TSPKFHOM"
#: the types that stack on their own kind (§6 [C])
STACKING = frozenset((TOWER, OFFICE))
#: player-count markers: index = Tile.marker
MARKERS = ("all", "3-4", "4")
MODES = ("classic", "expert")


@dataclass(frozen=True)
class Tile:
    """One physical building tile of one mode (§9).

    Attributes:
        idx: index in ``Components.tiles[mode]`` (tiles are numbered round by round).
        round: the round on its back, 1-4 (Classic) or 1-5 (Expert).
        type: building type code (``TOWER`` .. ``MONUMENT``).
        inhabitants, energy: resources its builder takes when it is placed (§7).
        vp: VP printed on it (public services, harbours), counted only if it is activated.
        mayor: the mayor tower: whoever builds it takes the Mayor (§10 #11).
        playground: an Expert "playground" park (§10 #8; no difference by PROJECT DEFAULT).
        marker: player-count marker, index of ``MARKERS``: 0 none, 1 "3-4", 2 "4".
    """

    idx: int
    round: int
    type: int
    inhabitants: int
    energy: int
    vp: int
    mayor: bool
    playground: bool
    marker: int

    @property
    def name(self) -> str:
        """How the log and the boards call the tile: "tower block (+2 inhabitants)", "harbour (2 VP)"."""
        gains = []
        if self.inhabitants:
            gains.append(f"+{self.inhabitants} inhabitant{'s' if self.inhabitants > 1 else ''}")
        if self.energy:
            gains.append(f"+{self.energy} energy")
        if self.type in (PUBLIC, HARBOUR) and (self.vp or self.type == PUBLIC):
            gains.append(f"{self.vp} VP")
        base = "mayor tower" if self.mayor else ("playground park" if self.playground else TYPE_NAMES[self.type])
        return f"{base} ({', '.join(gains)})" if gains else base

    @property
    def code(self) -> str:
        """A short code: the type letter, then ``i``/``e``/``v`` counts: ``T2i``, ``H1i1e``, ``P2v``,
        ``T1i*`` for the mayor tower, ``K+`` for a playground park."""
        out = TYPE_LETTERS[self.type]
        if self.inhabitants:
            out += f"{self.inhabitants}i"
        if self.energy:
            out += f"{self.energy}e"
        if self.vp or self.type == PUBLIC:
            out += f"{self.vp}v"
        if self.mayor:
            out += "*"
        if self.playground:
            out += "+"
        return out


@dataclass(frozen=True)
class Board:
    """One mode's player board, placement rule, architects and scoring tables (§5-§8).

    Attributes:
        mode: ``"classic"`` or ``"expert"``.
        rounds, turns_per_round: 4/5 rounds, 4 turns per player per round.
        rows, cols: the city grid (4 x 4 or 4 x 5); ``spaces = rows * cols``; space ``r * cols + c``.
        district: per space, its district (0-based); ``districts``: how many (4 or 5).
        district_number: per district, its printed number (Expert; Classic: 1..4, unused).
        space_number: per space, its printed number (Expert; Classic: 0).
        neighbours: per space, the orthogonally adjacent spaces (§6: diagonals never count).
        row_lines, col_lines: the spaces of each row / column, in order.
        placement: ``"row_or_column"`` (Classic) or ``"space_or_district"`` (Expert).
        normal: ``normal[k]`` (k = 1..architect_numbers) the spaces where architect #k may place a
            building by the normal rule (§6: row k or column k; Expert: space numbered k or a space of
            the district numbered k); ``normal[0] = ()``.
        architect_numbers: 4 (Classic, #1-#4 per player) or 5 (Expert, a shared pool).
        shared_pool: Expert: the architects are a pool of N copies of each number (§4).
        max_height: 4 or 5 floors. shop_capacity: 4 or 5 customers.
        tower_vp, shop_vp, public_vp, park_vp, harbour_vp: the §8 tables, index = floors / customers /
            districts / adjacent towers / run length.
        office_vp: ``office_vp[group size - 1][height]``; office_group_cap: the largest size row.
        factory_vp: per type code, VP a factory scores per adjacent activated building of that type.
        monument_vp: per type code, VP a monument scores per adjacent activated building of that type.
        parks_count_offices: whether adjacent offices count for parks (Expert).
        cost_inh, cost_energy: per type code, what activating a top tile costs (§7).
        penalty: VP lost per inhabitant or energy left unallocated (§7, §12 #11).
        park_absorbs: energy each park absorbs at the end before the penalty (§7, §10 #7-#8).
    """

    mode: str
    rounds: int
    turns_per_round: int
    rows: int
    cols: int
    spaces: int
    district: tuple
    districts: int
    district_number: tuple
    space_number: tuple
    neighbours: tuple
    row_lines: tuple
    col_lines: tuple
    placement: str
    normal: tuple
    architect_numbers: int
    shared_pool: bool
    max_height: int
    shop_capacity: int
    tower_vp: tuple
    shop_vp: tuple
    public_vp: tuple
    park_vp: tuple
    harbour_vp: tuple
    office_vp: tuple
    office_group_cap: int
    factory_vp: tuple
    monument_vp: tuple
    parks_count_offices: bool
    cost_inh: tuple
    cost_energy: tuple
    penalty: int
    park_absorbs: int

    def space_name(self, space: int) -> str:
        """``"r2c3"``: row 2, column 3 (1-based), the name positions and the log use."""
        return f"r{space // self.cols + 1}c{space % self.cols + 1}"


def _by_type(table: dict, default: int = 0) -> tuple:
    return tuple(int(table.get(t, default)) for t in TYPES)


def _board(mode: str, m: dict, board: dict) -> Board:
    rows, cols = int(m["rows"]), int(m["cols"])
    grid = [x for row in m["districts"] for x in row]
    if len(m["districts"]) != rows or len(grid) != rows * cols:
        raise ValueError(f"board.yaml modes.{mode}.districts must be {rows} rows of {cols}")
    n_d = max(grid) + 1
    spaces = rows * cols
    nbrs = []
    for s in range(spaces):
        r, c = divmod(s, cols)
        nbrs.append(tuple(r2 * cols + c2 for r2, c2 in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
                          if 0 <= r2 < rows and 0 <= c2 < cols))
    row_lines = tuple(tuple(r * cols + c for c in range(cols)) for r in range(rows))
    col_lines = tuple(tuple(r * cols + c for r in range(rows)) for c in range(cols))
    k_max = int(m["architect_numbers"])
    placement = m["placement"]
    if placement == "row_or_column":
        d_num = tuple(range(1, n_d + 1))
        s_num = (0,) * spaces
        normal = [()] + [tuple(s for s in range(spaces) if s // cols == k - 1 or s % cols == k - 1)
                         for k in range(1, k_max + 1)]
    elif placement == "space_or_district":
        d_num = tuple(int(x) for x in m["district_numbers"])
        s_num = tuple(int(x) for row in m["space_numbers"] for x in row)
        if len(d_num) != n_d or len(s_num) != spaces:
            raise ValueError(f"board.yaml modes.{mode}: {n_d} district numbers and {spaces} space numbers needed")
        normal = [()] + [tuple(s for s in range(spaces) if s_num[s] == k or d_num[grid[s]] == k)
                         for k in range(1, k_max + 1)]
    else:
        raise ValueError(f"board.yaml modes.{mode}.placement: unknown rule {placement!r}")
    sc = board["scoring"]
    act = board["activation"]
    return Board(
        mode=mode, rounds=int(m["rounds"]), turns_per_round=int(m["turns_per_round"]), rows=rows, cols=cols,
        spaces=spaces, district=tuple(grid), districts=n_d, district_number=d_num, space_number=s_num,
        neighbours=tuple(nbrs), row_lines=row_lines, col_lines=col_lines, placement=placement,
        normal=tuple(normal), architect_numbers=k_max, shared_pool=m["architects"] == "shared_pool",
        max_height=int(m["max_height"]), shop_capacity=int(m["shop_capacity"]),
        tower_vp=tuple(sc["tower_by_height"]), shop_vp=tuple(sc["shop_by_customers"]),
        public_vp=tuple(sc["public_by_districts"]), park_vp=tuple(sc["park_by_towers"]),
        harbour_vp=tuple(sc["harbour_by_run"]),
        office_vp=tuple(tuple(r) for r in sc["office_by_group_and_height"]),
        office_group_cap=int(sc["office_group_cap"]), factory_vp=_by_type(sc["factory_neighbour"]),
        monument_vp=_by_type(sc["monument_neighbour"]),
        parks_count_offices=bool(sc["parks_count_offices"]) and mode == "expert",
        cost_inh=tuple(int(act.get(t, {}).get("inhabitants", 0)) for t in TYPES),
        cost_energy=tuple(int(act.get(t, {}).get("energy", 0)) for t in TYPES),
        penalty=int(board["rules"]["unallocated_penalty"]), park_absorbs=int(board["rules"]["park_absorbs_energy"]))


def _tiles(rows: list) -> tuple[Tile, ...]:
    tiles = []
    for e in sorted(rows, key=lambda e: e["round"]):
        for marker, key in enumerate(("all", "m34", "m4")):
            for _ in range(int(e.get(key, 0))):
                tiles.append(Tile(
                    idx=len(tiles), round=int(e["round"]), type=TYPES.index(e["type"]),
                    inhabitants=int(e.get("inhabitants", 0)), energy=int(e.get("energy", 0)),
                    vp=int(e.get("vp", 0)), mayor=bool(e.get("mayor", False)),
                    playground=bool(e.get("playground", False)), marker=marker))
    return tuple(tiles)


class Components:
    """The compiled data of both modes (shared by every game with the same data overrides).

    Attributes:
        tiles: ``{mode: (Tile, ...)}``, numbered round by round.
        round_tiles: ``{mode: {round: (tile idx, ...)}}``.
        boards: ``{mode: Board}``.
        site: 5 (the construction site is 5 x 5). rules, box: plain dicts from ``board.yaml``.
        assumptions: every value of the data files no source confirms (and every overridden value).
        overrides: the data overrides applied (canonical; ``{}``: none).
    """

    def __init__(self, overrides: dict | None = None):
        """Compile the data files with ``overrides`` applied.

        Raises:
            ValueError, KeyError, TypeError: data the engine cannot use (``Game.data_guard`` turns
                them into ``GameOptionError`` when overrides caused them).
        """
        self.overrides = dict(overrides or {})
        tiles_raw, a1 = load_data(DATA / "tiles.yaml", overrides)
        board, a2 = load_data(DATA / "board.yaml", overrides)
        self.assumptions: list[Assumption] = a1 + a2
        self.rules = board["rules"]
        self.box = board["box"]
        self.site = int(board["site"]["size"])
        self.boards = {mode: _board(mode, board["modes"][mode], board) for mode in MODES}
        self.tiles = {mode: _tiles(tiles_raw[mode]) for mode in MODES}
        self.round_tiles = {mode: {r: tuple(t.idx for t in self.tiles[mode] if t.round == r)
                                   for r in range(1, self.boards[mode].rounds + 1)} for mode in MODES}
        self._check()

    def _check(self) -> None:
        per_round = int(self.rules["tiles_per_round"])
        if self.site != 5:
            raise ValueError("board.yaml site.size: only the 5 x 5 construction site is implemented")
        for mode in MODES:
            for r, ids in self.round_tiles[mode].items():
                if len(ids) != per_round:
                    raise ValueError(f"tiles.yaml {mode} round {r}: {len(ids)} tiles, expected {per_round}")
        implemented = {"face_down_target": "nothing_taken", "factory_counts_office_spaces": True,
                       "tie_break_inhabitants": "held", "resource_supply": "unlimited"}
        for key, value in implemented.items():
            if self.rules[key] != value:
                raise ValueError(f"board.yaml rules.{key}: only {value!r} is implemented")


components = variant_loader(Components, doc="""\
The shared, immutable ``Components`` of every game with the same data overrides.

Args:
    overrides: the frozen canonical overrides (``game.data_key``); ``()``: the data files as they are.
""")

__all__ = ["TYPES", "TYPE_NAMES", "TYPE_LETTERS", "MARKERS", "MODES", "STACKING", "EMPTY", "TOWER", "SHOP", "PUBLIC",
           "PARK", "FACTORY", "HARBOUR", "OFFICE", "MONUMENT", "Tile", "Board", "Components", "components", "DATA"]
