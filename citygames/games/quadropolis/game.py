"""Quadropolis (Gandon, Days of Wonder 2016): the ``Game`` object — rules, options, action space.

Classic and Expert modes for 2-4 players (HU rulebook; ``shared/reference/quadropolis.md``).
"""

from __future__ import annotations

from citygames.core.actions import ActionSpace
from citygames.core.game import Game, GameInfo, OptionSpec

from .components import DATA, Board, Components, components

INFO = GameInfo(
    id="quadropolis",
    name="Quadropolis",
    min_players=2,
    max_players=4,
    options=(
        OptionSpec("num_players", 4, "number of players", min=2, max=4),
        OptionSpec("mode", "classic", "'classic' (4 rounds, 4 x 4 cities, architects #1-#4 each) or 'expert' "
                   "(5 rounds, 4 x 5 cities with numbered districts, a shared pool of #1-#5, office towers and "
                   "monuments)", choices=("classic", "expert")),
        OptionSpec("allocation", "auto", "the end-of-game allocation of inhabitants and energy: 'auto' (the engine "
                   "finds each player's best allocation) or 'manual' (each player allocates by hand, as actions)",
                   choices=("auto", "manual")),
    ),
    hidden_information=True,   # face-down tiles at 2-3 players, the layout of the rounds to come
    simultaneous_moves=False,
    chance=True,               # every round's layout is dealt at setup from the seed
    version="1",
    extra={"reveal_events": ("quadropolis.round",)},
)

#: Seat names: the players' colours.
SEAT_NAMES = ("Blue", "Red", "Green", "Yellow")
#: the 20 architect slots of the construction site: per slot, (side, line): slots 0-4 above columns
#: 1-5 (pointing down), 5-9 below them (pointing up), 10-14 left of rows 1-5 (pointing right),
#: 15-19 right of them (pointing left) (§4: one slot at each end of each row and column)
SIDES = ("top", "bottom", "left", "right")
NSLOTS = 20
#: the largest city (Expert, 4 x 5) and architect number (Expert #5): the action space fits both modes
MAX_SPACES = 20
MAX_K = 5


class Quadropolis(Game):
    """Quadropolis. ``load_game("quadropolis", mode="expert", num_players=2)``.

    Action kinds (in encoding order):
        ``take`` (20 slots x 5 numbers: ``slot * 5 + k - 1``: put architect #k in the slot, take the
        k-th square from that edge), ``build`` (20: the city space for the taken tile, ``row * cols +
        col``), ``discard`` (1: put the taken tile back in the box), then the hand allocation at the
        end (option ``allocation="manual"``): ``activate`` (20: put the activation cost on the top tile
        of a space), ``customer`` (20: one inhabitant onto an activated shop), ``best`` (1: apply the
        best allocation and finish), ``finish`` (1: done, the rest stays unallocated).

    Attributes beyond ``Game``:
        components: compiled data of both modes (shared). board: this mode's ``Board``.
        tiles: this mode's tiles (tuple of ``Tile``). off: action-kind offsets.
    """

    info = INFO
    PARTS = {"state": "state:QuadropolisState", "evaluate": "evaluation:evaluate",
             "action_json": "render:action_json", "components_json": "render:components_json",
             "describe_rules": "render:describe_rules", "bench_extra": "bench:extra",
             "state_from_position": "position:parse", "position": "position:write",
             "render_text": "board_text:render_text",
             "facts": "facts:facts", "tensor_layout": "tensor:layout",
             "observation_tensor": "tensor:observation_tensor", "max_game_length": "tensor:max_game_length"}

    DATA_DIR = DATA

    def __init__(self, **options):
        super().__init__(options)
        with self.data_guard():
            self.components: Components = components(self.data_key)
            self.mode: str = self.options["mode"]
            self.board: Board = self.components.boards[self.mode]
            self.tiles = self.components.tiles[self.mode]
            self.action_space = _action_space(self.board)
            self.off = self.action_space.offsets

    def seat_name(self, seat: int) -> str:
        return SEAT_NAMES[seat]


def slot_name(slot: int) -> str:
    """``"left of row 3"``, ``"above column 2"``: where an architect slot is (§4)."""
    side, line = divmod(slot, 5)
    return (f"above column {line + 1}", f"below column {line + 1}", f"left of row {line + 1}",
            f"right of row {line + 1}")[side]


def slot_target(slot: int, k: int) -> int:
    """The construction-site square (``row * 5 + col``) that architect #k in ``slot`` points at: the
    k-th square from that edge (§4 [C])."""
    side, line = divmod(slot, 5)
    if side == 0:
        return (k - 1) * 5 + line
    if side == 1:
        return (5 - k) * 5 + line
    if side == 2:
        return line * 5 + k - 1
    return line * 5 + 5 - k


def slot_blocked(slot: int, urbanist: int) -> bool:
    """Whether the Urbanist (a square, -1 beside the board) blocks ``slot``: no architect may be put in
    the row or column the Urbanist stands in, whatever its number (§4, §10 #1 [C])."""
    if urbanist < 0:
        return False
    side, line = divmod(slot, 5)
    return (urbanist % 5 if side < 2 else urbanist // 5) == line


def _action_space(b: Board) -> ActionSpace:
    def sp(x):
        return f"r{x // b.cols + 1}c{x % b.cols + 1}" if x < b.spaces else f"space {x}"
    kinds = [
        ("take", NSLOTS * MAX_K, lambda i: f"architect #{i % MAX_K + 1} {slot_name(i // MAX_K)}"),
        ("build", MAX_SPACES, lambda x: f"build on {sp(x)}"),
        ("discard", 1, lambda _: "put the tile back in the box"),
        ("activate", MAX_SPACES, lambda x: f"activate the building on {sp(x)}"),
        ("customer", MAX_SPACES, lambda x: f"one customer onto the shop on {sp(x)}"),
        ("best", 1, lambda _: "use the best allocation"),
        ("finish", 1, lambda _: "finish the allocation"),
    ]
    return ActionSpace(kinds)


__all__ = ["Quadropolis", "INFO", "SEAT_NAMES", "SIDES", "NSLOTS", "MAX_SPACES", "MAX_K", "slot_name", "slot_target",
           "slot_blocked"]
