"""The Capitals: typed, compiled component records loaded from ``data/*.yaml``.

Everything here is immutable and shared by every state of every game in a process. Effects are
compiled into tuples of ``(track, amount)`` so the engine's hot paths never touch dicts or
strings. Sources of each value are in the data files (``status``/``source`` marks).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from citygames.core.data import Assumption, load_data, variant_loader
from citygames.core.markup import plural

DATA = Path(__file__).parent / "data"

# --- per-player track indices (a flat block of NT ints per player) --------------------------
MONEY, CULTURE, EMP, POP, PS, PROG, PRESTIGE, CUBES, LEVEL = range(9)
NT = 9
TRACK_NAMES = ("money", "culture", "employment", "population", "public_service", "progress",
               "prestige", "cubes", "plant_level")
TRACK_INDEX = {name: i for i, name in enumerate(TRACK_NAMES)}
#: order in which one effect's gains are applied: population before employment, so the cap of
#: employment by population never loses what "any order" (HU p. 7) would let a player keep
APPLY_ORDER = (POP, EMP, MONEY, CULTURE, PS, CUBES, PRESTIGE, PROG)

# --- tile types -----------------------------------------------------------------------------
HOUSING, INDUSTRY, COMMERCE, TOURISM, PUBLIC, PROSPERITY, LAKE = range(7)
#: prosperity is a sixth type (IT "un sesto tipo (colore) di edificio"); a Lake has no type (HU, IT)
TYPE_NAMES = ("housing", "industry", "commerce", "tourism", "public", "prosperity", "lake")
TYPE_INDEX = {n: i for i, n in enumerate(TYPE_NAMES)}
NTYPES = 7
DENSITY_INDEX = {None: 0, "low": 1, "medium": 2, "high": 3}
DENSITY_NAMES = (None, "low", "medium", "high")

# --- what a conditional effect counts --------------------------------------------------------
PER_KINDS = ("money", "culture", "employment", "population", "public_service_above_zero",
             "players_ahead_culture", "plant_level", "plant_cubes", "tiles", "tourists_in_city")
#: the track each count reads ("tiles" and "tourists_in_city" read none)
PER_TRACK = {"money": MONEY, "culture": CULTURE, "employment": EMP, "population": POP,
             "public_service_above_zero": PS, "players_ahead_culture": CULTURE, "plant_level": LEVEL,
             "plant_cubes": CUBES}

Gains = tuple  # tuple[tuple[int, int], ...]


def compile_gains(d: dict | None) -> Gains:
    """``{"population": 1, "employment": 3}`` -> ``((POP, 1), (EMP, 3))`` in ``APPLY_ORDER``."""
    if not d:
        return ()
    for k in d:
        if k not in TRACK_INDEX or k == "plant_level":
            raise ValueError(f"unknown track {k!r} in effect {d}")
    items = [(TRACK_INDEX[k], int(v)) for k, v in d.items() if v]
    items.sort(key=lambda kv: APPLY_ORDER.index(kv[0]))
    return tuple(items)


@dataclass(frozen=True)
class Match:
    """Which tiles an effect counts (``data/SCHEMA.md``, ``match``)."""

    types: frozenset | None = None
    densities: frozenset | None = None
    any: bool = False
    distinct_other_types: bool = False
    gives_3_progress: bool = False
    name_contains: str | None = None
    lake: bool = False   # a Lake matches (only "any tile" matches, under the data rule lake_is_a_tile)

    def __call__(self, tile: "Tile") -> bool:
        if tile.type == LAKE:  # a Lake has no type (HU, IT "Tó építése")
            return self.lake
        if self.types is not None and tile.type not in self.types:
            return False
        if self.densities is not None and tile.density not in self.densities:
            return False
        if self.gives_3_progress and not tile.gives_3_progress:
            return False
        if self.name_contains is not None and self.name_contains not in tile.name.lower():
            return False
        return True

    def describe(self) -> str:
        if self.distinct_other_types:
            return "different type"
        parts = []
        if self.densities is not None:
            parts.append("/".join(DENSITY_NAMES[d] for d in sorted(self.densities)) + "-density")
        if self.types is not None:
            parts.append(" or ".join(TYPE_NAMES[t] for t in sorted(self.types)))
        if self.gives_3_progress:
            parts.append("exactly-3-progress")
        if self.name_contains:
            parts.append(f'"{self.name_contains}"')
        return " ".join(parts) + " tile" if parts else "tile"


def compile_match(d: dict | None, lake_is_a_tile: bool = False) -> Match | None:
    """A ``Match`` from its data (``data/SCHEMA.md``); ``lake_is_a_tile``: an ``any`` match counts Lakes."""
    if d is None:
        return None
    known = {"type", "types", "density", "densities", "any", "distinct_other_types", "gives_3_progress",
             "name_contains"}
    if set(d) - known:
        raise ValueError(f"unknown match keys {set(d) - known}")
    types = None
    if "type" in d:
        types = frozenset([TYPE_INDEX[d["type"]]])
    if "types" in d:
        types = frozenset(TYPE_INDEX[t] for t in d["types"])
    dens = None
    if "density" in d:
        dens = frozenset([DENSITY_INDEX[d["density"]]])
    if "densities" in d:
        dens = frozenset(DENSITY_INDEX[x] for x in d["densities"])
    return Match(types=types, densities=dens, any=bool(d.get("any")),
                 distinct_other_types=bool(d.get("distinct_other_types")),
                 gives_3_progress=bool(d.get("gives_3_progress")), name_contains=d.get("name_contains"),
                 lake=bool(d.get("any")) and lake_is_a_tile)


@dataclass(frozen=True)
class Conditional:
    """"For every ``n`` of ``per`` gain ``gains``" (reference §8 Phase 2, conditional effects)."""

    per: str
    n: int
    gains: Gains
    match: Match | None = None


def compile_conditionals(items, lake_is_a_tile: bool = False) -> tuple:
    """``Conditional`` records from their data (``data/SCHEMA.md``, ``conditional``)."""
    out = []
    for c in items or ():
        if c["per"] not in PER_KINDS:
            raise ValueError(f"unknown conditional count {c['per']!r}")
        out.append(Conditional(c["per"], int(c.get("n", 1)), compile_gains(c["gain"]),
                               compile_match(c.get("match"), lake_is_a_tile)))
    return tuple(out)


@dataclass(frozen=True)
class AreaEffect:
    """A construction or end-game effect: per matching tile in ``scope`` gain ``gains``."""

    adjacent: bool
    match: Match
    gains: Gains


@dataclass(frozen=True)
class Tile:
    """One building tile (``data/tiles.yaml``).

    Attributes:
        idx: index in ``Components.tiles`` (also the argument of the ``take`` action).
        cubes: printed energy cubes (part of the activation cost), -1 if the tile has no activation.
        imm: unconditional immediate gains; a negative ``MONEY`` is a mandatory payment.
        cond: immediate conditional effects, counted at the build moment.
        act_cost / act_gain / act_cond / act_free_adjacent: the activation effect.
        construction: construction effects (fire for the tile's own build and every later one).
        perm_adjacent: ``(match or None, gains)`` fired when an adjacent tile is activated.
        perm_upgrade: gains fired each time the owner upgrades the power plant.
        end_game: end-of-game effects.
    """

    idx: int
    id: str
    name: str
    era: int
    type: int
    density: int
    cubes: int
    imm: Gains
    cond: tuple
    act_cost: Gains
    act_gain: Gains
    act_cond: tuple
    act_free_adjacent: bool
    construction: tuple
    perm_adjacent: tuple
    perm_upgrade: Gains
    end_game: tuple
    gives_3_progress: bool
    source: str
    # --- prosperity tiles only (data/prosperity.yaml) ---
    prosperity: bool = False
    imm_era: tuple = ()          # immediate gains for eras I, II, III when they depend on the era
    requirement: "Requirement | None" = None
    perm_own: tuple = ()         # (match or None, gains) on each own activation anywhere in the city
    perm_tourism: Gains = ()     # gains per tourist in the city at the end of each tourism phase
    end_flat: Gains = ()
    end_cond: tuple = ()         # end-game conditionals ("for every N ...")
    before_expo_flat: Gains = ()
    before_expo_cond: tuple = ()
    before_expo_free: bool = False
    imm_free_adjacent: bool = False
    extra_build: bool = False
    penalty_immunity: bool = False

    def imm_for(self, era: int) -> Gains:
        """Immediate gains when built in ``era`` (1-3)."""
        return self.imm_era[era - 1] if self.imm_era else self.imm

    @property
    def has_activation(self) -> bool:
        return self.cubes >= 0

    @property
    def type_name(self) -> str:
        return TYPE_NAMES[self.type]

    @property
    def density_name(self) -> str | None:
        return DENSITY_NAMES[self.density]


@dataclass(frozen=True)
class Requirement:
    """A prosperity tile's construction requirement (``data/prosperity.yaml``, reference §9.6).

    kind: ``most`` (tiles of ``types`` combined), ``most_tiles`` (tiles matching ``match``),
    ``fewest`` (tiles of ``types``), ``highest`` / ``lowest`` (``track``: a track name,
    ``plant_cubes`` or ``progress`` = plant level then distance to the next upgrade), ``pay``
    (``cost`` gains to lose). ``ties_ok``: a tie for most satisfies it; otherwise the game's
    tie-break chain (money, then leftmost initiative) decides (reference §12 #17 default).
    """

    kind: str
    types: frozenset = frozenset()
    match: Match | None = None
    track: str = ""
    ties_ok: bool = False
    cost: Gains = ()


def compile_requirement(d: dict) -> Requirement:
    if "most" in d:
        return Requirement("most", types=frozenset(TYPE_INDEX[t] for t in d["most"]), ties_ok=bool(d.get("ties_ok")))
    if "most_tiles" in d:
        return Requirement("most_tiles", match=compile_match(d["most_tiles"]), ties_ok=bool(d.get("ties_ok")))
    if "fewest" in d:
        return Requirement("fewest", types=frozenset(TYPE_INDEX[t] for t in d["fewest"]))
    if "highest" in d:
        return Requirement("highest", track=d["highest"])
    if "lowest" in d:
        return Requirement("lowest", track=d["lowest"])
    if "pay" in d:
        return Requirement("pay", cost=compile_gains(d["pay"]))
    raise ValueError(f"unknown requirement {d}")


def _by_era(d: dict | None, era: int) -> dict:
    return {k: (v["by_era"][era - 1] if isinstance(v, dict) else v) for k, v in (d or {}).items()}


def _prosperity_from(idx: int, d: dict, lake_is_a_tile: bool = False) -> Tile:
    dd = dict(d)
    dd["era"] = 0
    dd["type"] = "prosperity"
    imm = d.get("immediate") or {}
    by_era = any(isinstance(v, dict) for v in imm.values())
    dd["immediate"] = _by_era(imm, 1)
    end = d.get("end_game") or ()
    dd["end_game"] = [e for e in end if "scope" in e]
    perm = [e for e in d.get("permanent") or () if e["on"] in ("adjacent_activation", "own_upgrade")]
    dd["permanent"] = perm
    base = _tile_from(idx, dd, lake_is_a_tile)
    perm_own = tuple((compile_match(e.get("match")), compile_gains(e["gain"]))
                     for e in d.get("permanent") or () if e["on"] == "own_activation")
    perm_tourism: Gains = ()
    for e in d.get("permanent") or ():
        if e["on"] == "end_of_tourism":
            if e.get("per") != "tourists_in_city":
                raise ValueError(f"{d['id']}: end_of_tourism needs per: tourists_in_city")
            perm_tourism = compile_gains(e["gain"])
    before = d.get("end_game_before_expo") or ()
    from dataclasses import replace
    return replace(
        base, prosperity=True,
        imm_era=tuple(compile_gains(_by_era(imm, e)) for e in (1, 2, 3)) if by_era else (),
        requirement=compile_requirement(d["requirement"]),
        perm_own=perm_own, perm_tourism=perm_tourism,
        end_flat=sum((compile_gains(e["gain"]) for e in end if "scope" not in e and "per" not in e), ()),
        end_cond=compile_conditionals([e for e in end if "per" in e], lake_is_a_tile),
        before_expo_flat=sum((compile_gains(e["gain"]) for e in before if "gain" in e and "per" not in e), ()),
        before_expo_cond=compile_conditionals([e for e in before if "per" in e], lake_is_a_tile),
        before_expo_free=any(e.get("free_adjacent") for e in before),
        imm_free_adjacent=bool(d.get("immediate_free_adjacent")),
        extra_build=bool(d.get("extra_build")),
        penalty_immunity=bool(d.get("penalty_immunity_adjacent")),
        gives_3_progress=False)


@dataclass(frozen=True)
class Plant:
    """A power plant: level, activations per executive phase, cubes it brings, player marker."""

    idx: int
    level: int
    activations: int
    cubes: int
    players: int

    @property
    def name(self) -> str:
        return f"Level {self.level} plant ({plural(self.cubes, 'cube')})"


def _tile_from(idx: int, d: dict, lake_is_a_tile: bool = False) -> Tile:
    act = d.get("activation")
    imm = d.get("immediate") or {}
    construction = tuple(AreaEffect(e["scope"] == "adjacent", compile_match(e["match"], lake_is_a_tile),
                                    compile_gains(e["gain"]))
                         for e in d.get("construction") or ())
    perm_adj = []
    perm_up: Gains = ()
    for e in d.get("permanent") or ():
        on = e["on"]
        if on == "adjacent_activation":
            perm_adj.append((compile_match(e.get("match")), compile_gains(e["gain"])))
        elif on == "own_upgrade":
            perm_up = perm_up + compile_gains(e["gain"])
        else:
            raise ValueError(f"{d['id']}: unknown permanent trigger {on!r}")
    end = tuple(AreaEffect(e["scope"] == "adjacent", compile_match(e["match"], lake_is_a_tile),
                           compile_gains(e["gain"]))
                for e in d.get("end_game") or ())
    if act is not None and "cubes" not in d:
        raise ValueError(f"{d['id']}: a tile with an activation needs printed cubes")
    return Tile(
        idx=idx, id=d["id"], name=d["name"], era=int(d["era"]), type=TYPE_INDEX[d["type"]],
        density=DENSITY_INDEX[d.get("density")],
        cubes=int(d["cubes"]) if act is not None else -1,
        imm=compile_gains(imm), cond=compile_conditionals(d.get("conditional"), lake_is_a_tile),
        act_cost=compile_gains((act or {}).get("cost")), act_gain=compile_gains((act or {}).get("gain")),
        act_cond=compile_conditionals((act or {}).get("conditional"), lake_is_a_tile),
        act_free_adjacent=bool((act or {}).get("free_adjacent")),
        construction=construction, perm_adjacent=tuple(perm_adj), perm_upgrade=perm_up, end_game=end,
        gives_3_progress=imm.get("progress") == 3, source=d.get("source", ""))


class Components:
    """All component data of The Capitals, compiled. Load with ``components()``.

    Attributes:
        tiles: every building tile (starting tiles first), ``tile_by_id`` maps ids to them.
        plants: every power plant (index 0 is the starting plant).
        board: the plain board data (``data/board.yaml``).
        assumptions: every value of the data files that no source confirms (and every value
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
        board, a1 = load_data(DATA / "board.yaml", overrides)
        tiles, a2 = load_data(DATA / "tiles.yaml", overrides)
        plants, a3 = load_data(DATA / "power_plants.yaml", overrides)
        self.board = board
        self.assumptions: list[Assumption] = a1 + a2 + a3
        pros, a4 = load_data(DATA / "prosperity.yaml", overrides)
        self.assumptions += a4
        lake_is_a_tile = bool(board["engine_rules"]["lake_is_a_tile"])
        building = [_tile_from(i, d, lake_is_a_tile) for i, d in enumerate(tiles)]
        #: building tiles (``take`` actions index these), then prosperity tiles, then the Lake
        self.n_building = len(building)
        prosperity = [_prosperity_from(len(building) + i, d, lake_is_a_tile) for i, d in enumerate(pros)]
        self.prosperity_tiles = tuple(t.idx for t in prosperity)
        lake = Tile(idx=len(building) + len(prosperity), id="lake", name="Lake", era=0, type=LAKE, density=0,
                    cubes=-1, imm=(), cond=(), act_cost=(), act_gain=(), act_cond=(), act_free_adjacent=False,
                    construction=(), perm_adjacent=(), perm_upgrade=(), end_game=(), gives_3_progress=False,
                    source="HU/IT 'Tó építése': a prosperity tile built face down; no type")
        self.lake = lake
        self.tiles: tuple[Tile, ...] = tuple(building + prosperity + [lake])
        self.tile_by_id = {t.id: t for t in self.tiles}
        if len(self.tile_by_id) != len(self.tiles):
            raise ValueError("duplicate tile ids in tiles.yaml")
        self.hotel = self.tile_by_id["hotel"]
        self.city_hall = self.tile_by_id["city_hall"]
        self.era_tiles = {e: tuple(t.idx for t in self.tiles if t.era == e) for e in (1, 2, 3)}
        self.tile_markers: dict[str, int] = dict(board.get("tile_player_markers") or {})
        start = plants["starting"]
        pl = [Plant(0, int(start["level"]), int(start["activations"]), int(start["cubes"]), 0)]
        for lv in plants["levels"]:
            for p in lv["plants"]:
                pl.append(Plant(len(pl), int(lv["level"]), int(lv["activations"]), int(p["cubes"]), int(p["players"])))
        self.plants: tuple[Plant, ...] = tuple(pl)
        self.max_plant_level = max(p.level for p in pl)

        b = board
        ini = b["initiative"]
        self.init_cost = tuple(int(x) for x in ini["cost"])
        self.init_mult = tuple(int(x) for x in ini["multiplier"])
        self.init_icon = tuple(int(x) for x in ini["player_icon"])
        self.first_setup_space = int(ini["first_setup_space"]) - 1
        self.three_player_space_above_4 = bool(ini["three_player_may_use_space_above_4"])
        self.five_player_round2_mult = int(ini["five_player_round2_last_space_multiplier"])
        self.final_payment = ini["final_payment"]
        if self.final_payment not in ("own_cost_times_own_multiplier", "own_cost"):
            raise ValueError(f"unknown final_payment rule {self.final_payment!r}")
        self.rounds = int(b["rounds"])
        self.era_of_round = (0,) + tuple(int(x) for x in b["era_of_round"])
        self.expo_rounds = frozenset(int(x) for x in b["expo_rounds"])
        self.row_prices = tuple(int(x) for x in b["projects"]["row_prices"])
        self.refill_base = int(b["projects"]["tiles_base"])
        self.refill_per_player = int(b["projects"]["tiles_per_player"])
        # track bounds per track index (money, culture, employment, population, public_service)
        lo = [0] * NT
        hi = [10 ** 9] * NT
        start_v = [0] * NT
        for name, spec in b["tracks"].items():
            i = TRACK_INDEX[name]
            lo[i], hi[i], start_v[i] = int(spec["min"]), int(spec["max"]), int(spec["start"])
        lo[PROG], hi[PROG] = -10 ** 9, 10 ** 9
        lo[PRESTIGE], hi[PRESTIGE] = -10 ** 9, 10 ** 9
        lo[CUBES], hi[CUBES] = 0, 10 ** 9
        self.track_min = tuple(lo)
        self.track_max = tuple(hi)
        self.track_start = tuple(start_v)
        ovl = [()] * NT
        ovh = [()] * NT
        for name, spec in b["overflow"].items():
            i = TRACK_INDEX[name]
            ovl[i] = compile_gains(spec.get("low"))
            ovh[i] = compile_gains(spec.get("high"))
        self.overflow_low = tuple(ovl)
        self.overflow_high = tuple(ovh)
        self.employment_prestige = tuple(int(x) for x in b["employment_expo_prestige"])
        self.unemployment_penalty = tuple(int(x) for x in b["unemployment_penalty"])
        self.ps_expo_progress = tuple(int(x) for x in b["public_service_expo_progress"])
        if len(self.ps_expo_progress) != self.track_max[PS] - self.track_min[PS] + 1:
            raise ValueError("public_service_expo_progress needs one value per public-service level")
        self.ps_rank_penalty = int(b["public_service_rank_penalty"])
        self.attraction = tuple((int(a["at"]), int(a["takes_at_most"])) for a in b["attraction_levels"])
        self.loop = int(b["progress"]["loop_length"])
        self.progress_start = int(b["progress"]["start"])
        ex = b["executive"]
        self.hc_extra = int(ex["highest_culture_extra_activations"])
        self.no_activation_rewards = tuple(compile_gains(r) for r in ex["no_activation_rewards"])
        self.loan_money = int(b["loans"]["money"])
        self.loan_prestige = int(b["loans"]["prestige"])
        self.min_money = int(b["loans"]["min_money_after_payment"])
        self.placement_penalty = int(b["placement"]["penalty_per_broken_rule"])
        fs = b["final_scoring"]
        self.cubes_per_prestige = int(fs["cubes_per_prestige"])
        self.money_per_prestige = int(fs["money_per_prestige"])
        self.culture_per_prestige = int(fs["culture_per_prestige"])
        self.exchanged_cubes_return = bool(fs["exchanged_cubes_return"])
        er = b["engine_rules"]
        self.pop_loss_caps_emp = bool(er["population_loss_caps_employment"])
        self.act_cost_needs_holding = bool(er["activation_cost_needs_holding"])
        self.cond_before_own = bool(er["conditional_counts_before_own_effects"])
        self.upgrade_lost_when_none = bool(er["upgrade_lost_when_no_plant_left"])
        fa = er["free_activation"]
        self.free_act_costs_cubes = bool(fa["costs_cubes"])
        self.free_act_uses_activation = bool(fa["uses_activation"])
        self.free_act_triggers_permanents = bool(fa["triggers_permanents"])
        self.tech_park_may_activate_cc = bool(er["technology_park_may_activate_convention_center"])
        self.colors = tuple(b["colors"])
        self.grid = int(b["city"]["grid_size"])
        tp = b["two_player"]
        self.two_player_spaces = int(tp["initiative_spaces"])
        self.neutral_color = self.colors.index(tp["neutral_color"])
        self.two_player_removed_types = tuple(TYPE_INDEX[x] for x in tp["remove_one_of_each_type"])
        self.neutral_advance = int(tp["neutral_culture_advance"])
        self.neutral_loses_ties = bool(tp["neutral_loses_ties"])
        self.neutral_can_lead = bool(tp["neutral_can_lead"])
        self.neutral_counts_ahead = bool(tp["neutral_counts_as_marker_ahead"])
        pr = b["prosperity"]
        self.prosperity_rounds = frozenset(int(x) for x in pr["rounds"])
        self.prosperity_hand = {int(k): int(v) for k, v in pr["hand_size"].items()}
        self.lake_gains = compile_gains(pr["lake"])
        self.mayor_loans_allowed = bool(pr["mayors_house_loans_allowed"])

    def tile_min_players(self, tile: Tile) -> int:
        """Smallest player count that uses ``tile`` (its 4/5-player marker; 0 = every count)."""
        return int(self.tile_markers.get(tile.id, 0))

    def usable_spaces(self, num_players: int, politics: bool) -> tuple[int, ...]:
        """Initiative spaces (0-based) usable with ``num_players`` (reference §2.1).

        With 2 players only the first 4 spaces are used. Otherwise a space is usable when its player-count icon is at most ``num_players``; with 3 players
        the space above the "4" is usable in the politics phase (HU only), not at setup.
        """
        if num_players == 2:  # the first 4 spaces only (HU, IT 2-player rules)
            return tuple(range(self.two_player_spaces))
        out = []
        for i, icon in enumerate(self.init_icon):
            if icon <= num_players or (politics and num_players == 3 and icon == 4
                                       and self.three_player_space_above_4):
                out.append(i)
        return tuple(out)


components = variant_loader(Components, doc="""\
The compiled components, shared by every game with the same data overrides.

Args:
    overrides: the frozen canonical overrides (``game.data_key``,
        ``citygames.core.data.freeze_overrides``); ``()``: the data files as they are.

The plain data is loaded once per process; up to 32 overridden variants are kept.
""")
