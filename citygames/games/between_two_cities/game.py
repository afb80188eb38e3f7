"""Between Two Cities (Stonemaier 2015) and its Capitals expansion (2017): the ``Game`` object — rules,
options, seats and cities, action space.

Rules: ``shared/reference/between_two_cities.md`` (cited as §N) and the Hungarian Capitals rulebook.
"""

from __future__ import annotations

from citygames.core.actions import ActionSpace
from citygames.core.events import seat_label
from citygames.core.game import Game, GameInfo, OptionSpec

from .components import DATA, MAX_CELLS, NUM_SINGLE_KINDS, Components, components
from .constants import KIND_NAMES

INFO = GameInfo(
    id="between_two_cities",
    name="Between Two Cities",
    min_players=2,
    max_players=7,
    options=(
        OptionSpec("num_players", 4, "number of players: 3-7 build one city between each two neighbours; 2 "
                   "play the two-player variant (each builds two cities alone, every round twice, §7.1)",
                   min=2, max=7),
        OptionSpec("capitals", False, "the Capitals expansion: landscape mats (5 x 5 cities, 9-tile hands), "
                   "civic buildings and districts, all three together (§8)"),
    ),
    hidden_information=True,   # the hands, the bag, the face-down discards, the choices not yet revealed
    simultaneous_moves=True,   # every seat chooses its tiles at the same time (§3)
    chance=True,               # the tiles are drawn from a shuffled supply (the seed)
    version="1",
    extra={"reveal_events": ("between_two_cities.stage", "between_two_cities.reveal",
                             "between_two_cities.reveal_duplexes")},
)

#: Seat names: the players' colours (7 seats at most).
SEAT_NAMES = ("Blue", "Red", "Green", "Yellow", "Purple", "Orange", "White")
#: sides of a seat: its left city and its right city
SIDE_NAMES = ("left", "right")


def _pairs() -> tuple[tuple[int, int], ...]:
    """Every unordered pair ``(a, b)``, ``a <= b``, of single kinds 1..30: the ``choose`` arguments."""
    return tuple((a, b) for a in range(1, NUM_SINGLE_KINDS + 1) for b in range(a, NUM_SINGLE_KINDS + 1))


#: ``choose`` argument -> the pair of kinds it takes (a <= b)
PAIRS = _pairs()
#: ``PAIR_INDEX[a * 32 + b]`` (a <= b) -> the ``choose`` argument
PAIR_INDEX = {a * 32 + b: i for i, (a, b) in enumerate(PAIRS)}


class BetweenTwoCities(Game):
    """Between Two Cities. ``load_game("between_two_cities", num_players=5, capitals=True)``.

    Seats and cities: with N >= 3 players there are N cities; city ``c`` is shared by seats ``c`` and
    ``(c + 1) % N``, so seat ``p`` works on city ``(p - 1) % N`` (its left city) and city ``p`` (its
    right city) (§3). With 2 players (§7.1) there are 4 cities: seat ``p`` builds cities ``2p`` (left)
    and ``2p + 1`` (right) alone.

    Action kinds (in encoding order):
        ``choose`` (465: an unordered pair of single kinds ``{a, b}``, ``a == b`` allowed, ``PAIRS``),
        ``discard_duplex`` (24: the duplex put away), ``place`` (30 kinds x 2 sides x 81 cells:
        ``((kind - 1) * 2 + side) * 81 + cell``), ``place_duplex`` (24 x 2 x 81: ``(duplex * 2 + side) *
        81 + cell`` where ``cell`` takes the left or top half). ``side`` 0 is the seat's left city, 1
        its right city; a cell is ``row * W + col`` of the city's grid (W = 7, Capitals 9).

    Attributes beyond ``Game``:
        components (shared), capitals (bool), width (W), size (W * W), frame (4 or 5), hand_size (7 or
        9), n_cities, left / right (per seat, its two cities), city_seats (per city, its seats),
        stages (``(round, pass)`` per stage: ``((1, 0), (2, 0), (3, 0))``, 2 players every round twice),
        singles (the supply's kinds), centre (the base game's first cell), off (action offsets).
    """

    info = INFO
    PARTS = {"state": "state:BTCState", "evaluate": "evaluation:evaluate",
             "action_json": "render:action_json", "components_json": "render:components_json",
             "describe_rules": "render:describe_rules", "render_text": "board_text:render_text",
             "facts": "facts:facts", "max_game_length": "render:max_game_length",
             "state_from_position": "position:parse", "position": "position:write",
             "tensor_layout": "tensor:layout", "observation_tensor": "tensor:observation_tensor"}

    DATA_DIR = DATA

    def __init__(self, **options):
        super().__init__(options)
        with self.data_guard():
            c: Components = components(self.data_key)
            self.components = c
            n = self.num_players
            self.capitals: bool = bool(self.options["capitals"])
            mode = c.capitals if self.capitals else c.base
            self.width = int(mode["grid"])
            self.size = self.width * self.width
            self.frame = int(mode["frame"] if self.capitals else c.base["frame"])
            self.hand_size = int(mode["hand_size"])
            self.duplexes_drawn = int(c.base["duplexes_drawn"])
            self.two_player = n == 2
            if self.two_player:
                self.n_cities = 4
                self.left = (0, 2)
                self.right = (1, 3)
                self.city_seats = ((0,), (0,), (1,), (1,))
                self.stages = ((1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1))
            else:
                self.n_cities = n
                self.left = tuple((p - 1) % n for p in range(n))
                self.right = tuple(range(n))
                self.city_seats = tuple((cc, (cc + 1) % n) for cc in range(n))
                self.stages = ((1, 0), (2, 0), (3, 0))
            from .constants import CIVIC0, NUM_CIVICS
            self.singles = c.singles + (tuple(range(CIVIC0, CIVIC0 + NUM_CIVICS)) if self.capitals else ())
            self.civic_types = tuple((cv.plus[0], cv.plus[1], cv.minus) for cv in c.civics)
            self.centre = (self.width // 2) * self.width + self.width // 2
            self.row_of = tuple(x // self.width for x in range(self.size))
            self.col_of = tuple(x % self.width for x in range(self.size))
            self.action_space = _action_space(self.width, c)
            self.off = self.action_space.offsets
            if self.size > MAX_CELLS:
                raise ValueError(f"a {self.width} x {self.width} grid is larger than the action space's {MAX_CELLS}")
            self._geo_cache: dict = {}

    def seat_name(self, seat: int) -> str:
        return SEAT_NAMES[seat]

    def geometries(self, mats: tuple) -> tuple:
        """Each city's ``Geometry``: the base layout, or with the Capitals the layout of its mat."""
        geos = self._geo_cache.get(mats)
        if geos is None:
            c = self.components
            if self.capitals:
                geos = tuple(c.mats[m].geometry for m in mats)
            else:
                geos = (c.base_geometry,) * self.n_cities
            self._geo_cache[mats] = geos
        return geos

    def city_name(self, city: int, seat: int | None = None) -> str:
        """How a seat calls a city: ``"the city with Red"`` (the other seat sharing it, seen from
        ``seat``), ``"Blue's left city"`` (2 players, or without a viewer: ``"the city of Blue and Red"``); under
        ``named_seats`` the players' names instead of the colours (issue 15, defect 4)."""
        seats = self.city_seats[city]
        if len(seats) == 1:
            side = "left" if self.left[seats[0]] == city else "right"
            return f"{seat_label(seats[0], SEAT_NAMES)}'s {side} city"
        if seat in seats:
            other = seats[1] if seats[0] == seat else seats[0]
            return f"the city with {seat_label(other, SEAT_NAMES)}"
        return f"the city of {seat_label(seats[0], SEAT_NAMES)} and {seat_label(seats[1], SEAT_NAMES)}"

    def cell_name(self, cell: int) -> str:
        """``"row 2, column 3"`` (1-based on the city's grid)."""
        return f"row {cell // self.width + 1}, column {cell % self.width + 1}"


def _action_space(width: int, c: Components) -> ActionSpace:
    def cell(x: int) -> str:
        return f"row {x // width + 1}, column {x % width + 1}" if x < width * width else f"cell {x} (off the grid)"

    def place(i: int) -> str:
        rest, x = divmod(i, MAX_CELLS)
        k, side = divmod(rest, 2)
        return f"place the {KIND_NAMES[k + 1]} in the {('left', 'right')[side]} city at {cell(x)}"

    def place_duplex(i: int) -> str:
        rest, x = divmod(i, MAX_CELLS)
        d, side = divmod(rest, 2)
        dup = c.duplexes[d]
        return f"place duplex {dup.id} ({dup.name}) in the {('left', 'right')[side]} city at {cell(x)}"

    def choose(i: int) -> str:
        a, b = PAIRS[i]
        return f"choose {KIND_NAMES[a]} + {KIND_NAMES[b]}"

    kinds = [
        ("choose", len(PAIRS), choose),
        ("discard_duplex", len(c.duplexes), lambda d: f"discard duplex {c.duplexes[d].id} ({c.duplexes[d].name})"),
        ("place", NUM_SINGLE_KINDS * 2 * MAX_CELLS, place),
        ("place_duplex", len(c.duplexes) * 2 * MAX_CELLS, place_duplex),
    ]
    return ActionSpace(kinds)


__all__ = ["BetweenTwoCities", "INFO", "SEAT_NAMES", "SIDE_NAMES", "PAIRS", "PAIR_INDEX"]
