"""7 Wonders Duel components: cards, wonders, progress tokens and the three age structures.

Everything comes from ``data/*.yaml`` (written from ``shared/reference/seven_wonders_duel.md``);
this module turns it into flat tuples of ints so the engine never looks at strings while playing.
Resources are indexed ``WOOD, CLAY, STONE, GLASS, PAPYRUS``; colours ``BROWN .. PURPLE``; science
symbols ``0..6`` (6 = the Law token's scales).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from citygames.core.data import Assumption, load_data, variant_loader

DATA = Path(__file__).parent / "data"

RESOURCES = ("wood", "clay", "stone", "glass", "papyrus")
WOOD, CLAY, STONE, GLASS, PAPYRUS = range(5)
RAW = (WOOD, CLAY, STONE)
MANUFACTURED = (GLASS, PAPYRUS)
COLORS = ("brown", "grey", "red", "green", "blue", "yellow", "purple")
BROWN, GREY, RED, GREEN, BLUE, YELLOW, PURPLE = range(7)
SYMBOLS = ("armillary_sphere", "wheel", "sundial", "mortar_pestle", "plumb_bob", "quill", "law_scales")
LAW = 6
#: widths of the per-seat flat lists of the state: colours, resources, science symbols
NC, NR, NS = len(COLORS), len(RESOURCES), len(SYMBOLS)

# progress tokens, by their index in data/wonders_tokens.yaml
(AGRICULTURE, ARCHITECTURE, ECONOMY, LAW_TOKEN, MASONRY, MATHEMATICS, PHILOSOPHY, STRATEGY, THEOLOGY,
 URBANISM) = range(10)


@dataclass(frozen=True)
class Card:
    """One building card (§4). Resource tuples have 5 ints in ``RESOURCES`` order.

    Attributes:
        idx: index in ``Components.cards`` (0..72; Age I 0-22, Age II 23-45, Age III 46-65, guilds 66-72).
        age: 1, 2 or 3 (guilds: 3, with ``guild`` True).
        color: colour index (``BROWN`` .. ``PURPLE``).
        coins: printed coin cost. cost: resources needed.
        produces: fixed production (brown/grey; counts for the opponent's trading price, P2).
        one_of: resources of which it produces one unit per construction (Forum, Caravansery), else ``()``.
        fixed_price: resources its owner buys at 1 coin (Reserves, Customs House, P3).
        vp: printed victory points. shields: printed shields. science: symbol index or -1.
        coins_now: coins when built (Tavern, Brewery).
        coins_per_own: ``(colours, coins)`` paid when built per own card of those colours (P19), or ``None``.
        counts_itself: the Lighthouse counts itself (P19).
        coins_per_wonder: coins per own built wonder when built (Arena).
        guild_colors: colours the guild counts in the city with most (``()`` for Builders/Moneylenders).
        guild_coins, guild_vp: coins when built / VP at the end per counted card (P18).
        guild_wonder_vp: Builders Guild VP per wonder. guild_coin_vp: Moneylenders (1 VP per 3 coins).
        chain_from, chain_to: chain symbol accepted / given (index in ``Components.chain_symbols``), or -1.
    """

    idx: int
    name: str
    name_hu: str
    age: int
    guild: bool
    color: int
    coins: int
    cost: tuple
    produces: tuple
    one_of: tuple
    fixed_price: tuple
    vp: int
    shields: int
    science: int
    coins_now: int
    coins_per_own: tuple | None
    counts_itself: bool
    coins_per_wonder: int
    guild_colors: tuple
    guild_coins: int
    guild_vp: int
    guild_wonder_vp: int
    guild_coin_vp: int
    chain_from: int
    chain_to: int
    raw: dict


@dataclass(frozen=True)
class Wonder:
    """One wonder (§4.8): resource cost, VP, "play again", coins, opponent's coin loss, shields,
    the opponent's card colour it destroys (-1: none), one-of production, Great Library / Mausoleum."""

    idx: int
    name: str
    name_hu: str
    cost: tuple
    vp: int
    extra_turn: bool
    coins: int
    opponent_loses: int
    shields: int
    destroys: int
    one_of: tuple
    library: bool
    mausoleum: bool
    raw: dict


@dataclass(frozen=True)
class Token:
    """One progress token (§4.6); the engine keys its effects on ``idx`` (``AGRICULTURE`` ..)."""

    idx: int
    name: str
    name_hu: str
    coins: int
    vp: int
    raw: dict


@dataclass(frozen=True)
class Structure:
    """One age's card structure (§5). Slots are numbered row by row from row 1 (reached last).

    Attributes:
        rows, cols: per slot its row (1 = reached last) and column (half-card units).
        face_up: per slot, whether it is dealt face up.
        covered_by: per slot, the slots that cover it (it is accessible once they are all taken).
        covers: per slot, the slots it covers.
        start: slots accessible at the start of the age.
        face_down: the slots dealt face down (the only ones a reveal can turn up).
        row_slots: per row (row 1 first), its slots from left to right.
    """

    age: int
    rows: tuple
    cols: tuple
    face_up: tuple
    covered_by: tuple
    covers: tuple
    start: tuple
    face_down: tuple
    row_slots: tuple


def _vec(d: dict | None) -> tuple:
    d = d or {}
    return tuple(int(d.get(r, 0)) for r in RESOURCES)


def _structure(age: int, spec: dict) -> Structure:
    rows, cols = [], []
    for r, row in enumerate(spec["rows"], start=1):
        for c in row:
            rows.append(r)
            cols.append(c)
    pos = {(r, c): i for i, (r, c) in enumerate(zip(rows, cols))}
    covered_by = tuple(tuple(pos[(r + 1, c + d)] for d in (-1, 1) if (r + 1, c + d) in pos)
                       for r, c in zip(rows, cols))
    covers = tuple(tuple(i for i in range(len(rows)) if s in covered_by[i]) for s in range(len(rows)))
    up = set(spec["face_up_rows"])
    return Structure(age, tuple(rows), tuple(cols), tuple(r in up for r in rows), covered_by, covers,
                     tuple(i for i in range(len(rows)) if not covered_by[i]),
                     tuple(i for i, r in enumerate(rows) if r not in up),
                     tuple(tuple(i for i, x in enumerate(rows) if x == r) for r in range(1, max(rows) + 1)))


class Components:
    """All component data of 7 Wonders Duel, compiled once (``components()``).

    Attributes:
        cards, wonders, tokens: tuples of ``Card``, ``Wonder``, ``Token``.
        age_cards: ``{1: (...), 2: (...), 3: (...)}`` card indices of each age deck (guilds excluded).
        guilds: the 7 guild indices.
        structures: ``{age: Structure}``.
        chain_symbols: names of the chain symbols (index = ``Card.chain_from``/``chain_to``).
        conflict_vp: VP by pawn distance 0..8; capital: 9; military_tokens: ``((at, coins), ...)``.
        setup, rules: plain dicts from ``board.yaml``.
        assumptions: every value of the data files no source confirms (and every value
            ``overrides`` replaced, with status ``overridden``).
        overrides: the data overrides applied (``{"FILE:PATH": value}``, canonical; ``{}``: none).
    """

    def __init__(self, overrides: dict | None = None):
        """Compile the data files, with ``overrides`` (canonical, ``citygames.core.data``) applied.

        Raises:
            ValueError, KeyError, TypeError: data the engine cannot use (``Game.data_guard`` turns
                them into ``GameOptionError`` when overrides caused them).
        """
        self.overrides = dict(overrides or {})
        cards_raw, a1 = load_data(DATA / "cards.yaml", overrides)
        wt_raw, a2 = load_data(DATA / "wonders_tokens.yaml", overrides)
        board, a3 = load_data(DATA / "board.yaml", overrides)
        self.assumptions: list[Assumption] = a1 + a2 + a3
        self.setup = board["setup"]
        self.rules = board["rules"]
        chain_names: list[str] = []

        def chain(name):
            if not name:
                return -1
            if name not in chain_names:
                chain_names.append(name)
            return chain_names.index(name)

        cards = []
        for i, c in enumerate(cards_raw["cards"]):
            guild = c["age"] == "guild"
            cost = dict(c.get("cost") or {})
            cpo = c.get("coins_per_own_card")
            gmost = c.get("coins_per_card_in_city_with_most") or {}
            gvp = c.get("vp_per_card_in_city_with_most") or {}
            gcolors = tuple(COLORS.index(x) for x in (gvp.get("colors") or gmost.get("colors") or ()))
            cards.append(Card(
                idx=i, name=c["name"], name_hu=c.get("hu", ""), age=3 if guild else int(c["age"]), guild=guild,
                color=COLORS.index(c["color"]), coins=int(cost.pop("coins", 0)), cost=_vec(cost),
                produces=_vec(c.get("produces")),
                one_of=tuple(RESOURCES.index(r) for r in c.get("produces_one_of") or ()),
                fixed_price=tuple(RESOURCES.index(r) for r in c.get("trade_price_fixed_1") or ()),
                vp=int(c.get("vp", 0)), shields=int(c.get("shields", 0)),
                science=SYMBOLS.index(c["science"]) if c.get("science") else -1,
                coins_now=int(c.get("coins", 0)),
                coins_per_own=(tuple(COLORS.index(x) for x in cpo["colors"]), int(cpo["coins"])) if cpo else None,
                counts_itself=bool(cpo and cpo.get("counts_itself")),
                coins_per_wonder=int(c.get("coins_per_own_built_wonder", 0)),
                guild_colors=gcolors, guild_coins=int(gmost.get("coins", 0)), guild_vp=int(gvp.get("vp", 0)),
                guild_wonder_vp=int(c.get("vp_per_wonder_in_city_with_most", 0)),
                guild_coin_vp=int(c.get("vp_per_3_coins_in_richest_city", 0)),
                chain_from=chain(c.get("chain_from")), chain_to=chain(c.get("chain_to")), raw=c))
        self.cards: tuple[Card, ...] = tuple(cards)
        self.chain_symbols = tuple(chain_names)
        self.age_cards = {a: tuple(c.idx for c in cards if c.age == a and not c.guild) for a in (1, 2, 3)}
        self.guilds = tuple(c.idx for c in cards if c.guild)
        wonders = []
        for i, w in enumerate(wt_raw["wonders"]):
            d = w.get("destroy_opponent_card")
            wonders.append(Wonder(
                idx=i, name=w["name"], name_hu=w.get("hu", ""), cost=_vec(w.get("cost")), vp=int(w.get("vp", 0)),
                extra_turn=bool(w.get("extra_turn")), coins=int(w.get("coins", 0)),
                opponent_loses=int(w.get("opponent_loses_coins", 0)), shields=int(w.get("shields", 0)),
                destroys=COLORS.index(d) if d else -1,
                one_of=tuple(RESOURCES.index(r) for r in w.get("produces_one_of") or ()),
                library=bool(w.get("progress_token_from_box")), mausoleum=bool(w.get("build_from_discard_free")),
                raw=w))
        self.wonders: tuple[Wonder, ...] = tuple(wonders)
        names = ("Agriculture", "Architecture", "Economy", "Law", "Masonry", "Mathematics", "Philosophy",
                 "Strategy", "Theology", "Urbanism")
        tokens = []
        for i, t in enumerate(wt_raw["progress_tokens"]):
            if t["name"] != names[i]:
                raise ValueError(f"wonders_tokens.yaml: progress token {i} must be {names[i]}, got {t['name']}")
            tokens.append(Token(i, t["name"], t.get("hu", ""), int(t.get("coins", 0)), int(t.get("vp", 0)), t))
        self.tokens: tuple[Token, ...] = tuple(tokens)
        conflict = board["conflict"]
        self.capital = int(conflict["capital"])
        self.conflict_vp = tuple(conflict["vp_by_distance"])
        self.military_tokens = tuple((int(t["at"]), int(t["coins"])) for t in conflict["tokens"])
        self.structures = {int(a): _structure(int(a), s) for a, s in board["structures"].items()}
        self.card_by_name = {c.name: c.idx for c in cards}
        self.wonder_by_name = {w.name: w.idx for w in wonders}
        self.token_by_name = {t.name: t.idx for t in tokens}
        fg = self.setup["first_game_wonders"]
        self.first_game_wonders = (tuple(self.wonder_by_name[n] for n in fg["first"]),
                                   tuple(self.wonder_by_name[n] for n in fg["second"]))
        self.draft_order = tuple(tuple(0 if x == "F" else 1 for x in rnd) for rnd in self.setup["draft_order"])
        self._check()

    def _check(self) -> None:
        counts = {a: len(v) for a, v in self.age_cards.items()}
        if counts != {1: 23, 2: 23, 3: 20} or len(self.guilds) != 7 or len(self.wonders) != 12:
            raise ValueError(f"7 Wonders Duel data: expected 23/23/20 cards, 7 guilds, 12 wonders, got {counts}, "
                             f"{len(self.guilds)} guilds, {len(self.wonders)} wonders")
        if not self.rules["unlimited_bank"]:
            raise ValueError("board.yaml rules.unlimited_bank: a limited bank (31 coins) is not implemented")
        for a, s in self.structures.items():
            if len(s.rows) != 20:
                raise ValueError(f"board.yaml: the Age {a} structure must have 20 slots")


components = variant_loader(Components, doc="""\
The shared, immutable ``Components`` of every game with the same data overrides.

Args:
    overrides: the frozen canonical overrides (``game.data_key``,
        ``citygames.core.data.freeze_overrides``); ``()``: the data files as they are.

The plain data is loaded once per process; up to 32 overridden variants are kept.
""")
