"""The Capitals (Boaventura, Mercury Games 2013): the ``Game`` object — rules, options, action space.

Base game for 2-5 players (2 plays the 2-player variant) and the Prosperity expansion (HU, IT rulebooks;
``shared/reference/the_capitals.md``).
"""

from __future__ import annotations

from citygames.core.actions import ActionSpace
from citygames.core.game import Game, GameInfo, OptionSpec

from .components import DATA, Components, components

INFO = GameInfo(
    id="the_capitals",
    name="The Capitals",
    min_players=2,
    max_players=5,
    options=(
        OptionSpec("num_players", 4, "number of players (2-5; 2 plays the 2-player variant)", min=2, max=5),
        OptionSpec("prosperity", False, "the Prosperity expansion: hidden prosperity tiles built in marked rounds"),
        OptionSpec("refill_variant", False,
                   "end-of-game variant of the rulebook: refill the $0 row to 2 + players tiles, ignoring the other rows"),
    ),
    hidden_information=True,   # the order of the era decks
    simultaneous_moves=False,
    chance=True,               # initiative order and deck order at setup
    version="1",
    extra={"reveal_events": ("capitals.refill",)},  # new tiles turned face up
)


def _xy(c: Components, slot: int) -> tuple[int, int]:
    g = c.grid
    o = g // 2
    return slot % g - o, slot // g - o


def _corner_xy(c: Components, isect: int) -> tuple[int, int]:
    g = c.grid + 1
    o = c.grid // 2
    return isect % g - o, isect // g - o


class TheCapitals(Game):
    """The Capitals. ``load_game("the_capitals", num_players=4)``.

    Action kinds (in encoding order): ``initiative`` (a space), ``take`` (a building tile), ``place``
    (a slot), ``activate`` (a slot), ``tourist`` (a colour), ``pay_cubes``, ``end_activations``,
    ``upgrade``, ``decline``, ``free_activate`` (a slot), ``move_token`` (a corner), ``prosperity`` and
    ``lake`` (a prosperity tile), ``place_lake`` (a slot), ``no_activation_reward`` (a reward of the
    data), ``resolve_effect`` (the slot of an end-game effect to resolve next).

    Attributes beyond ``Game``:
        components: compiled component data (shared).
        origin: grid slot of each city's Hotel (the City Hall is at ``origin + 1``).
        neighbours: per slot, the frozenset of its 8 surrounding slots.
        isect_slots: per construction-token corner, the 4 slots around it.
        slot_corners: per slot, its 4 corners.
        plant_supply: per level, the indices of the plants used at this player count, best first.
        politics_spaces: initiative spaces (0-based) usable in the politics phase.
        off: action-kind offsets into ``action_space.table``.
    """

    info = INFO
    PARTS = {"state": "state:CapitalsState", "evaluate": "evaluation:evaluate", "render_text": "render:render_text",
             "action_json": "render:action_json", "components_json": "render:components_json",
             "describe_rules": "render:describe_rules", "state_from_position": "position:parse",
             "position": "position:write", "facts": "facts:facts", "tensor_layout": "tensor:layout",
             "observation_tensor": "tensor:observation_tensor", "max_game_length": "tensor:max_game_length"}

    DATA_DIR = DATA

    def __init__(self, **options):
        super().__init__(options)
        with self.data_guard():
            c = self.components = components(self.data_key)
            n = self.num_players
            g = c.grid
            self.origin = (g // 2) * g + g // 2
            self.neighbours, self.isect_slots, self.slot_corners = _GEOMETRY_CACHE.get(g) or _geometry(g)
            supply: list[tuple] = [()] * (c.max_plant_level + 2)
            for level in range(2, c.max_plant_level + 1):
                supply[level] = tuple(p.idx for p in c.plants if p.level == level and p.players <= max(n, 3))
            self.plant_supply = tuple(supply)
            self.politics_spaces = c.usable_spaces(n, politics=True)
            self.action_space = _action_space(c)
            self.off = self.action_space.offsets

    def seat_name(self, seat: int) -> str:
        """The seat's colour (green, red, blue, purple, black), capitalised."""
        return self.components.colors[seat].capitalize()

    def xy(self, slot: int) -> tuple[int, int]:
        """City coordinates of a slot: the Hotel is (0, 0), the City Hall (1, 0); y grows downwards."""
        return _xy(self.components, slot)

    def corner_xy(self, isect: int) -> tuple[int, int]:
        """Coordinates of a corner: corner (0, 0) is the Hotel's top-left corner."""
        return _corner_xy(self.components, isect)

    def corner_at(self, x: int, y: int) -> int:
        """Corner id of corner coordinates ``(x, y)`` (inverse of ``corner_xy``)."""
        g = self.components.grid
        o = g // 2
        return (y + o) * (g + 1) + x + o

    def slot_at(self, x: int, y: int) -> int:
        """Slot id of city coordinates ``(x, y)``."""
        g = self.components.grid
        o = g // 2
        return (y + o) * g + x + o


_GEOMETRY_CACHE: dict = {}


def _geometry(g: int):
    nb = []
    for s in range(g * g):
        x, y = s % g, s // g
        out = []
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if (dx or dy) and 0 <= x + dx < g and 0 <= y + dy < g:
                    out.append((y + dy) * g + x + dx)
        nb.append(frozenset(out))
    gi = g + 1
    isect = []
    for i in range(gi * gi):
        ix, iy = i % gi, i // gi
        sl = []
        for sx, sy in ((ix - 1, iy - 1), (ix, iy - 1), (ix - 1, iy), (ix, iy)):
            if 0 <= sx < g and 0 <= sy < g:
                sl.append(sy * g + sx)
        isect.append(tuple(sl))
    corners = []
    for s in range(g * g):
        x, y = s % g, s // g
        corners.append((y * gi + x, y * gi + x + 1, (y + 1) * gi + x, (y + 1) * gi + x + 1))
    res = (tuple(nb), tuple(isect), tuple(corners))
    _GEOMETRY_CACHE[g] = res
    return res


def _gains_words(gains) -> str:
    from .render import gains_text
    return gains_text(gains)


def _action_space(c: Components) -> ActionSpace:
    """The action space of components ``c``, built once per ``Components`` (kept on it: a cache keyed by
    ``id(c)`` could hand a freed variant's space to a new one)."""
    space = getattr(c, "_action_space", None)
    if space is not None:
        return space
    g = c.grid
    tiles = c.tiles

    def slot_text(verb):
        return lambda s: f"{verb} ({_xy(c, s)[0]}, {_xy(c, s)[1]})"

    kinds = [
        ("initiative", len(c.init_cost), lambda k: f"initiative space {k + 1}"),
        ("take", c.n_building, lambda i: f"take {tiles[i].name}"),
        ("place", g * g, slot_text("build at")),
        ("activate", g * g, slot_text("activate the tile at")),
        ("tourist", len(c.colors), lambda k: f"use the {c.colors[k]} tourist"),
        ("pay_cubes", 1, lambda _: "pay the rest with energy cubes"),
        ("end_activations", 1, lambda _: "end activations"),
        ("upgrade", 1, lambda _: "upgrade the power plant"),
        ("decline", 1, lambda _: "decline"),
        ("free_activate", g * g, slot_text("activate for free the tile at")),
        ("move_token", (g + 1) * (g + 1),
         lambda i: f"move the construction token to corner ({_corner_xy(c, i)[0]}, {_corner_xy(c, i)[1]})"),
        # the Prosperity expansion
        ("prosperity", len(c.prosperity_tiles), lambda i: f"build {tiles[c.prosperity_tiles[i]].name}"),
        ("lake", len(c.prosperity_tiles), lambda i: f"build a Lake with {tiles[c.prosperity_tiles[i]].name}"),
        ("place_lake", g * g, slot_text("build the Lake at")),
        # appended later (ids above stay stable)
        ("no_activation_reward", len(c.no_activation_rewards),
         lambda k: f"take the no-activation reward: {_gains_words(c.no_activation_rewards[k])}"),
        ("resolve_effect", g * g, slot_text("resolve the end-game effect of the tile at")),
    ]
    space = ActionSpace(kinds)
    c._action_space = space
    return space
