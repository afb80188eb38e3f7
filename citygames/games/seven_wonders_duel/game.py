"""7 Wonders Duel (Bauza & Cathala, Repos Production 2015): the ``Game`` object — rules, options,
action space.

Base game for 2 players (HU rulebook; ``shared/reference/seven_wonders_duel.md``).
"""

from __future__ import annotations

from citygames.core.actions import ActionSpace
from citygames.core.game import Game, GameInfo, OptionSpec

from .components import DATA, Components, components

INFO = GameInfo(
    id="seven_wonders_duel",
    name="7 Wonders Duel",
    min_players=2,
    max_players=2,
    options=(
        OptionSpec("num_players", 2, "number of players (always 2)", min=2, max=2),
        OptionSpec("first_game_wonders", False,
                   "skip the wonder draft and use the rulebook's fixed wonders for a first game"),
        OptionSpec("next_age_chooser", "erratum",
                   "pawn in the centre at the end of an age: 'erratum' (2016) - the player who took the last card "
                   "chooses who starts; 'first_print' - that player starts",
                   choices=("erratum", "first_print")),
    ),
    hidden_information=True,   # face-down cards, removed cards, boxed progress tokens
    simultaneous_moves=False,
    chance=True,               # all dealing happens at setup from the seed
    version="1",
    extra={"reveal_events": ("duel.draft_reveal", "duel.age", "duel.reveal", "duel.library_draw")},
)

#: Seat names: the first seat and the second seat (the seed decides who drafts and starts first).
SEAT_NAMES = ("North", "South")


class SevenWondersDuel(Game):
    """7 Wonders Duel. ``load_game("seven_wonders_duel")``.

    Action kinds (in encoding order; ``n`` = 73 cards):
        ``draft`` (12, a wonder), ``construct`` (n, a card), ``discard`` (n), ``wonder`` (12 * n:
        ``wonder * n + card``, the card is tucked under the wonder), ``progress`` (10, a token),
        ``destroy`` (n, an opponent's card: Statue of Zeus / Circus Maximus), ``mausoleum`` (n, a
        card of the discard pile), ``start`` (2, the seat that starts the next age),
        ``decline_token`` (1, only if the data rule ``progress_token_must_be_taken`` is false).

    Attributes beyond ``Game``:
        components: compiled component data (shared). off: action-kind offsets.
    """

    info = INFO
    PARTS = {"state": "state:DuelState", "evaluate": "evaluation:evaluate", "render_text": "board_text:render_text",
             "action_json": "render:action_json", "components_json": "render:components_json",
             "describe_rules": "render:describe_rules", "state_from_position": "position:parse",
             "position": "position:write", "facts": "facts:facts", "tensor_layout": "tensor:layout",
             "observation_tensor": "tensor:observation_tensor", "max_game_length": "tensor:max_game_length"}

    DATA_DIR = DATA

    def __init__(self, **options):
        super().__init__(options)
        with self.data_guard():
            self.components: Components = components(self.data_key)
            self.action_space = _action_space(self.components)
            self.off = self.action_space.offsets

    def seat_name(self, seat: int) -> str:
        return SEAT_NAMES[seat]


def _action_space(c: Components) -> ActionSpace:
    """The action space of components ``c``, built once per ``Components`` (kept on it: a cache keyed by
    ``id(c)`` could hand a freed variant's space to a new one)."""
    space = getattr(c, "_action_space", None)
    if space is not None:
        return space
    cards, wonders, tokens = c.cards, c.wonders, c.tokens
    n = len(cards)
    kinds = [
        ("draft", len(wonders), lambda w: f"take {wonders[w].name}"),
        ("construct", n, lambda x: f"construct {cards[x].name}"),
        ("discard", n, lambda x: f"discard {cards[x].name}"),
        ("wonder", len(wonders) * n, lambda i: f"build {wonders[i // n].name} with {cards[i % n].name}"),
        ("progress", len(tokens), lambda t: f"take the {tokens[t].name} progress token"),
        ("destroy", n, lambda x: f"put the opponent's {cards[x].name} into the discard pile"),
        ("mausoleum", n, lambda x: f"build {cards[x].name} from the discard pile"),
        ("start", 2, lambda p: f"{SEAT_NAMES[p]} starts the next age"),
        ("decline_token", 1, lambda _: "take no progress token"),
    ]
    space = ActionSpace(kinds)
    c._action_space = space
    return space
