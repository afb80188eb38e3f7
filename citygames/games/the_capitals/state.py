"""The Capitals: the state and its transitions, phase by phase.

Rules: ``shared/rulebooks/the_capitals.hu.txt`` (HU), ``the_capitals.it_en.txt`` (IT) and the
reference sheet ``shared/reference/the_capitals.md`` (cited as §N). Every value that no source
confirms comes from ``data/*.yaml`` (see ``components.py``).

The state is flat: per-player track values live in one list ``t`` (``NT`` ints per seat), a city
is a dict ``slot -> tile index`` on a square grid (``slot = y * grid + x``), and the decision in
progress is a small set of ints (``phase``, ``step``, ``player`` and a context). Decisions are
split into small steps (take a tile, then choose its slot; choose a tile to activate, then the
tourists that pay for it) so every step has a short list of legal actions.
"""

from __future__ import annotations

from citygames.core.events import Event
from citygames.core.flat import Derived, FlatState, IntDicts, List, Lists, Lists2, Value
from citygames.core.game import TERMINAL

from .components import (APPLY_ORDER, CUBES, CULTURE, EMP, LAKE, LEVEL, MONEY, NT, NTYPES, POP, PRESTIGE, PROG,
                         PS, TRACK_INDEX, TRACK_NAMES, TYPE_NAMES, Components)

# --- phases and steps -------------------------------------------------------------------------
P_POLITICS, P_BUILDING, P_EXECUTIVE, P_ADMIN, P_EXPO, P_END, P_PROSPERITY, P_PRE_EXPO = range(8)
PHASE_NAMES = ("politics", "building", "executive", "administration", "world expo", "game over", "prosperity",
               "before the last world expo")
(S_NONE, S_POLITICS, S_TAKE, S_PLACE, S_UPGRADE, S_ACTIVATE, S_PAY, S_FREE, S_TOKEN, S_PROSPERITY,
 S_LAKE) = range(11)
STEP_NAMES = ("none", "choose an initiative space", "take a tile from the projects area",
              "choose where to build the tile", "upgrade the power plant?", "activate a tile or end activations",
              "pay the activation", "choose a tile to activate for free", "move the construction token?",
              "build a prosperity tile or a Lake", "choose where to build the Lake")

# --- prestige categories of the score sheet ---------------------------------------------------
CATEGORIES = ("placement penalties", "loans", "tile effects", "expo employment", "expo unemployment",
              "expo public service", "end-game tile effects", "energy cubes", "money", "culture", "progress")
(C_PLACEMENT, C_LOANS, C_TILES, C_EXPO_EMP, C_EXPO_UNEMP, C_EXPO_PS, C_END_TILES, C_CUBES, C_MONEY, C_CULTURE,
 C_PROGRESS) = range(11)
NCAT = len(CATEGORIES)
CATEGORY_KEYS = tuple(c.replace(" ", "_").replace("-", "_") for c in CATEGORIES)

_ORDER_KEY = {tr: i for i, tr in enumerate(APPLY_ORDER)}


def _sort_gains(gains):
    return sorted(gains, key=lambda g: _ORDER_KEY[g[0]])


class CapitalsState(FlatState):
    """One game of The Capitals (3-5 players). Create with ``game.new_initial_state(seed)``.

    See ``citygames.core.game.State`` for the contract. Seats are 0..n-1 with the colours of
    ``data/board.yaml``; ``current_player()`` is the seat whose decision is pending.
    """

    FIELDS = {
        "c": Derived(lambda game: game.components, "components"),
        "n": Derived(lambda game: game.num_players, "players"),
        "t": List("tracks"), "pb": List("prestige by category"), "plant": List("plant per seat"),
        "city": IntDicts("cities"), "cubes_on": IntDicts("cubes on tiles"), "tokens": Lists("tokens"),
        "tcount": List("type counts"), "t_host": List("tourist hosts"), "t_slot": List("tourist slots"),
        "t_used": List("tourists used"), "space": List("initiative"), "new_space": List("chosen"),
        "order": List("order"), "projects": Lists("projects"), "decks": Lists("decks"),
        "plant_ptr": List("plants taken"), "hc": Value("hc"), "round": Value("round"), "phase": Value("phase"),
        "step": Value("step"), "turn": Value("turn"), "ctx_tile": Value(""), "ctx_slot": Value(""),
        "ctx_rem": Value(""), "acts_left": Value(""), "acts_made": Value(""), "exec_active": Value(""),
        "token_k": Value(""), "upg": List(""), "expo_scored": Value(""), "neutral": Value(""),
        "removed": Lists(""), "pros": Value(""), "hand": Lists(""), "pbox": List(""), "lakes": Lists2(""),
        "pstage": Value(""), "extra_pending": Value(""), "_loans": Derived(lambda g: 0, ""),
    }

    @classmethod
    def new(cls, game, seed: int) -> "CapitalsState":
        s = object.__new__(cls)
        s._setup(game, seed)
        return s

    # ------------------------------------------------------------------------------------------
    # setup (HU "Alapjáték előkészületek", §2.1, §1)
    # ------------------------------------------------------------------------------------------
    def _setup(self, game, seed: int) -> None:
        from citygames.core.rng import Rng

        c: Components = game.components
        n = game.num_players
        self.game, self.c, self.n, self.seed = game, c, n, seed
        self.history, self.log = [], []
        self.origin = None
        rng = Rng(seed)
        self.t = []
        for _ in range(n):
            block = list(c.track_start)
            block[PROG] = c.progress_start
            block[CUBES] = c.plants[0].cubes
            block[LEVEL] = c.plants[0].level
            self.t.extend(block)
        self.pb = [0] * (n * NCAT)
        self.plant = [0] * n
        g = c.grid
        origin = game.origin
        self.city = [{origin: c.hotel.idx, origin + 1: c.city_hall.idx} for _ in range(n)]
        self.cubes_on = [{} for _ in range(n)]
        ox, oy = origin % g, origin // g
        gi = g + 1
        self.tokens = [[oy * gi + ox + 1, (oy + 1) * gi + ox + 1] for _ in range(n)]
        self.tcount = [0] * (n * NTYPES)
        for p in range(n):
            self.tcount[p * NTYPES + c.hotel.type] += 1
            self.tcount[p * NTYPES + c.city_hall.type] += 1
        # tourists: one per seat, plus the neutral one in a 2-player game (index n; starts beside the board)
        two = n == 2
        self.t_host = list(range(n)) + ([-1] if two else [])
        self.t_slot = [-1] * len(self.t_host)
        self.t_used = [False] * len(self.t_host)
        # 2-player variant: the neutral culture marker on the culture start space (HU, IT)
        self.neutral = c.track_start[CULTURE] if two else -1
        # random initiative: first player on space 2, the others to its right (HU, §2.1)
        seats = list(range(n))
        rng.shuffle(seats)
        self.space = [0] * n
        for i, p in enumerate(seats):
            self.space[p] = c.first_setup_space + i
        self.order = seats
        self.new_space = [-1] * n
        # era decks (tiles with a 4/5-player marker above n are left in the box); with 2 players one
        # random tile of each type leaves each era deck unseen (HU, IT 2-player rules)
        self.decks = [[]]
        self.removed = [[]]
        for era in (1, 2, 3):
            deck = [i for i in c.era_tiles[era] if c.tile_min_players(c.tiles[i]) <= max(n, 3)]
            rng.shuffle(deck)
            out = []
            if two:
                for typ in c.two_player_removed_types:
                    pick = next((i for i in deck if c.tiles[i].type == typ), None)
                    if pick is not None:
                        deck.remove(pick)
                        out.append(pick)
            self.decks.append(deck)
            self.removed.append(out)
        # Prosperity: deal 6 hidden prosperity tiles each (5 with 5 players); the rest stay unseen (§7.1)
        self.pros = bool(game.options.get("prosperity"))
        self.hand = [[] for _ in range(n)]
        self.pbox = []
        self.lakes = [[] for _ in range(n)]
        self.pstage = 0
        self.extra_pending = False
        if self.pros:
            pile = list(c.prosperity_tiles)
            rng.shuffle(pile)
            k = c.prosperity_hand[n]
            for p in range(n):
                self.hand[p] = sorted(pile[p * k:(p + 1) * k])
            self.pbox = pile[n * k:]
            for p in range(n):
                self._event("deal", p, visible_to=p, tiles=[c.tiles[x].id for x in self.hand[p]])
        self.plant_ptr = [0] * (c.max_plant_level + 2)
        self.hc = -1
        self.round = 1
        self.phase = P_BUILDING
        self.step = S_NONE
        self.turn = 0
        self.player = -1
        self.ctx_tile = self.ctx_slot = self.ctx_rem = -1
        self.acts_left = self.acts_made = 0
        self.exec_active = False
        self.token_k = 0
        self.upg = [0] * n
        self.expo_scored = False
        self._legal = None
        self._loans = 0
        # setup deduction: each player loses the $ above their marker, no multiplier (§2.1, IT)
        for p in seats:
            cost = c.init_cost[self.space[p]]
            self.t[p * NT + MONEY] -= cost
        self._event("setup", None, order=list(seats),
                    paid=[c.init_cost[self.space[p]] for p in range(n)])
        # projects area: 2 + players Era I tiles on the $0 row (HU p. 3)
        self.projects = [[], [], []]
        self._refill(1)
        self._advance()

    # ------------------------------------------------------------------------------------------
    # the contract
    # ------------------------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == P_END else self.player

    def is_terminal(self) -> bool:
        return self.phase == P_END

    def _apply(self, a) -> None:
        """The transition of legal action ``a`` (checked by ``FlatState.apply_action``), then the
        automatic steps up to the next decision."""
        kind = a.kind
        if kind == "place":
            self._do_place(a.arg)
        elif kind == "take":
            self._do_take(a.arg)
        elif kind == "activate":
            self._do_activate(a.arg)
        elif kind == "tourist":
            self._do_tourist(self.tourist_index(a.arg))
        elif kind == "pay_cubes":
            self._finish_payment(self.ctx_rem)
        elif kind == "end_activations":
            self._end_executive_turn()
        elif kind == "initiative":
            self._do_initiative(a.arg)
        elif kind == "upgrade":
            self._do_upgrade(self.player)
        elif kind == "decline":
            self._do_decline()
        elif kind == "free_activate":
            self.step = S_NONE
            self._activate_effect(self.player, a.arg, free=True)
        elif kind == "move_token":
            self._do_move_token(a.arg)
        elif kind == "prosperity":
            self._do_prosperity(self.c.prosperity_tiles[a.arg])
        elif kind == "lake":
            self._do_lake(self.c.prosperity_tiles[a.arg])
        elif kind == "place_lake":
            self._do_place_lake(a.arg)
        else:  # pragma: no cover - every legal kind is handled above
            raise AssertionError(kind)
        self._advance()

    # ------------------------------------------------------------------------------------------
    # legal actions
    # ------------------------------------------------------------------------------------------
    def _compute_legal(self) -> list:
        g = self.game
        table = g.action_space.table
        step = self.step
        p = self.player
        if step == S_PLACE:
            off = g.off["place"]
            return [table[off + s] for s in sorted(self._frontier(p))]
        if step == S_ACTIVATE:
            off = g.off["activate"]
            out = [table[off + s] for s in sorted(self.city[p]) if self._can_activate(p, s)]
            out.append(table[g.off["end_activations"]])
            return out
        if step == S_TAKE:
            off = g.off["take"]
            return [table[off + t] for row in self.projects for t in row]
        if step == S_POLITICS:
            off = g.off["initiative"]
            taken = set(self.new_space)
            return [table[off + s] for s in g.politics_spaces if s not in taken]
        if step == S_PAY:
            out = [table[g.off["tourist"] + self.tourist_color(k)] for k in self._usable_tourists(p, self.ctx_slot)]
            if self.t[p * NT + CUBES] >= self.ctx_rem:
                out.append(table[g.off["pay_cubes"]])
            return out
        if step == S_UPGRADE:
            return [table[g.off["upgrade"]], table[g.off["decline"]]]
        if step == S_FREE:
            off = g.off["free_activate"]
            out = [table[off + s] for s in self._free_targets(p, self.ctx_slot)]
            out.append(table[g.off["decline"]])
            return out
        if step == S_TOKEN:
            off = g.off["move_token"]
            out = [table[off + i] for i in sorted(self._token_destinations(p))]
            out.append(table[g.off["decline"]])
            return out
        if step == S_PROSPERITY:
            first = self.c.prosperity_tiles[0]
            out = [table[g.off["prosperity"] + x - first] for x in self.hand[p] if self.requirement_status(p, x)[0]]
            out.extend(table[g.off["lake"] + x - first] for x in self.hand[p])
            return out
        if step == S_LAKE:  # anywhere next to another building tile (HU, IT "Tó építése")
            off = g.off["place_lake"]
            city = self.city[p]
            lake = self.c.lake.idx
            nb = g.neighbours
            return [table[off + s] for s in sorted(self._frontier(p))
                    if any(city.get(q, lake) != lake for q in nb[s])]
        return []  # pragma: no cover

    def _why_illegal(self, a) -> str:
        step = self.step
        expected = {
            S_POLITICS: ("initiative",), S_TAKE: ("take",), S_PLACE: ("place",), S_UPGRADE: ("upgrade", "decline"),
            S_ACTIVATE: ("activate", "end_activations"), S_PAY: ("tourist", "pay_cubes"),
            S_FREE: ("free_activate", "decline"), S_TOKEN: ("move_token", "decline"),
            S_PROSPERITY: ("prosperity", "lake"), S_LAKE: ("place_lake",),
        }[step]
        phase = PHASE_NAMES[self.phase]
        if a.kind not in expected:
            return f"{phase} phase: now {self._color(self.player)} must {STEP_NAMES[step]}"
        c = self.c
        p = self.player
        if a.kind == "initiative":
            if a.arg not in self.game.politics_spaces:
                return (f"politics: initiative space {a.arg + 1} is not usable with {self.n} players "
                        "(HU 'Politika fázis'; spaces above a larger player-count icon are closed)")
            return f"politics: initiative space {a.arg + 1} is already taken this round (HU 'Politika fázis')"
        if a.kind == "take":
            return f"building: {c.tiles[a.arg].name} is not in the projects area"
        if a.kind == "place":
            return ("building: a tile must go on an empty slot next to the city "
                    "(occupied or detached slots are not allowed)")
        if a.kind == "activate":
            s = a.arg
            if s not in self.city[p]:
                return "executive: there is no tile of yours on that slot"
            tile = c.tiles[self.city[p][s]]
            if not tile.has_activation:
                return f"executive: {tile.name} has no activation effect"
            if self.acts_left <= 0:
                return "executive: no activations left this phase (power plant + highest culture token)"
            if not self._holds_activation_cost(p, tile):
                return f"executive: {tile.name}'s activation needs what it makes you lose"
            return (f"executive: activating {tile.name} costs {self.activation_cost(p, s)} cubes "
                    "(printed + cubes and tourists on it + 1), more than the plant's cubes and usable tourists")
        if a.kind == "tourist":
            return "executive: that tourist is not usable (it must be in your city, unused this phase, and not on this tile)"
        if a.kind == "pay_cubes":
            return "executive: not enough energy cubes on the power plant"
        if a.kind == "free_activate":
            return "executive: the free activation must target an adjacent tile with an activation effect"
        if a.kind == "move_token":
            return "administration: a construction token moves only to a free corner on the city's perimeter"
        if a.kind in ("prosperity", "lake"):
            x = c.prosperity_tiles[a.arg]
            if x not in self.hand[p]:
                return f"prosperity: {c.tiles[x].name} is not in your hand"
            return f"prosperity: {c.tiles[x].name} cannot be built now: {self.requirement_status(p, x)[1]}"
        if a.kind == "place_lake":
            return "prosperity: a Lake must go on an empty slot adjacent to a tile of the city (HU 'Tó építése')"
        return f"{phase}: not allowed now"  # pragma: no cover

    # ------------------------------------------------------------------------------------------
    # the phase machine
    # ------------------------------------------------------------------------------------------
    def _advance(self) -> None:
        """Run automatic steps until a decision is pending or the game is over."""
        n = self.n
        while True:
            if self.step != S_NONE:
                return
            # pending power-plant upgrades come first, in initiative order (§3.6, §5 step 3)
            if any(self.upg):
                for p in self.order:
                    if self.upg[p]:
                        break
                if self._upgrade_possible(p):
                    self.player = p
                    self.step = S_UPGRADE
                    return
                self.upg[p] -= 1
                self._event("upgrade_lost", p, level=self.t[p * NT + LEVEL])
                continue
            ph = self.phase
            if ph == P_BUILDING:
                if self.turn < n:
                    self.player = self.order[self.turn]
                    self.step = S_TAKE
                    return
                self._tourism()
                self.phase = P_EXECUTIVE
                self.turn = 0
                self.exec_active = False
                for i in range(len(self.t_used)):
                    self.t_used[i] = False
            elif ph == P_EXECUTIVE:
                if self.exec_active:
                    p = self.player
                    if self.acts_left > 0 and self._any_activatable(p):
                        self.step = S_ACTIVATE
                        return
                    self._end_executive_turn()
                    continue
                if self.turn < n:
                    p = self.order[self.turn]
                    self.player = p
                    self.exec_active = True
                    self.acts_made = 0
                    self.acts_left = self.c.plants[self.plant[p]].activations + (self.c.hc_extra if p == self.hc else 0)
                    continue
                if self.round >= self.c.rounds:
                    self.phase = P_PRE_EXPO
                    self.turn = 0
                    self.pstage = 0
                else:
                    self.phase = P_ADMIN
                    self.turn = 0
                    self.token_k = 0
                    if self.neutral >= 0:  # 2 players: the neutral marker advances first (HU, IT)
                        self.neutral = min(self.neutral + self.c.neutral_advance, self.c.track_max[CULTURE])
                        self._event("neutral", None, culture=self.neutral)
            elif ph == P_ADMIN:
                # 1. construction tokens surrounded on all 4 sides may move (HU "Építésjelzők")
                if self.turn < n:
                    p = self.order[self.turn]
                    while self.token_k < 2:
                        k = self.token_k
                        if self._token_surrounded(p, k) and self._token_destinations(p):
                            self.player = p
                            self.ctx_slot = k
                            self.step = S_TOKEN
                            return
                        self.token_k += 1
                    self.turn += 1
                    self.token_k = 0
                    continue
                self._admin_projects()
                if self.pros and self.round in self.c.prosperity_rounds:
                    self.phase = P_PROSPERITY
                    self.turn = 0
                    self.pstage = 0
                elif self.round in self.c.expo_rounds:
                    self.phase = P_EXPO
                    self.expo_scored = False
                else:
                    self._next_round()
            elif ph == P_PROSPERITY:
                # at the end of the administration phase of a marked round, in initiative order, each
                # city builds a prosperity tile or a Lake (HU "Jólét", IT "Prosperità", §7.1)
                if self.extra_pending:  # Financial District: one more tile from the projects area
                    self.extra_pending = False
                    if any(self.projects):
                        self.step = S_TAKE
                        return
                if self.pstage:
                    self.pstage = 0
                    self.turn += 1
                    continue
                if self.turn < n:
                    self.player = self.order[self.turn]
                    self.pstage = 1
                    self.step = S_PROSPERITY
                    return
                if self.round in self.c.expo_rounds:
                    self.phase = P_EXPO
                    self.expo_scored = False
                else:
                    self._next_round()
            elif ph == P_PRE_EXPO:
                # end-game effects resolved just before the last World Expo (§10.5)
                if self.turn < n:
                    p = self.order[self.turn]
                    self.player = p
                    if self.pstage == 0:
                        self.pstage = 1
                        self._before_last_expo(p)
                    while self.pstage - 1 < len(self._tech_parks(p)):
                        slot = self._tech_parks(p)[self.pstage - 1]
                        self.pstage += 1
                        if self._free_targets(p, slot):
                            self.ctx_slot = slot
                            self.step = S_FREE
                            return
                    self.pstage = 0
                    self.turn += 1
                    continue
                self.phase = P_EXPO
                self.expo_scored = False
            elif ph == P_EXPO:
                if not self.expo_scored:
                    self.expo_scored = True
                    self._expo()
                    continue
                self._clear_cubes()
                if self.round >= self.c.rounds:
                    self._finish()
                    return
                self._next_round()
            elif ph == P_POLITICS:
                if self.turn < n:
                    self.player = self.order[self.turn]
                    self.step = S_POLITICS
                    return
                self._end_politics()
            else:  # P_END
                return

    def _next_round(self) -> None:
        self.round += 1
        self.phase = P_POLITICS
        self.turn = 0
        self.new_space = [-1] * self.n
        self._event("round", None, round=self.round, era=self.c.era_of_round[self.round])

    # ------------------------------------------------------------------------------------------
    # phase 1: politics (HU "Politika fázis", §2.1)
    # ------------------------------------------------------------------------------------------
    def politics_cost(self, p: int, space: int) -> int:
        """$ that seat ``p`` pays to move to initiative ``space`` (0-based) now.

        Cost = top-row $ of the new space x multiplier of the space left (HU, IT, P3); in a
        5-player game the rightmost space's multiplier counts x1 in round 2 (HU, IT).
        """
        c = self.c
        old = self.space[p]
        mult = c.init_mult[old]
        if self.n == 5 and self.round == 2 and old == len(c.init_mult) - 1:
            mult = c.five_player_round2_mult
        return c.init_cost[space] * mult

    def _do_initiative(self, space: int) -> None:
        p = self.player
        cost = self.politics_cost(p, space)
        self._loans = 0
        self._pay(p, cost)
        self.new_space[p] = space
        self._event("politics", p, space=space, paid=cost, loans=self._loans)
        self.turn += 1
        self.step = S_NONE

    def _end_politics(self) -> None:
        self.space = list(self.new_space)
        self.order = sorted(range(self.n), key=self.space.__getitem__)
        self.phase = P_BUILDING
        self.turn = 0

    # ------------------------------------------------------------------------------------------
    # phase 2: building (HU "Épület fázis", §8 Phase 2)
    # ------------------------------------------------------------------------------------------
    def row_of(self, tile_idx: int) -> int:
        """Projects-area row (0, 1, 2 for the $0, $2, $4 rows) holding ``tile_idx``; -1 if none."""
        for r, row in enumerate(self.projects):
            if tile_idx in row:
                return r
        return -1

    def _do_take(self, tile_idx: int) -> None:
        p = self.player
        r = self.row_of(tile_idx)
        self.projects[r].remove(tile_idx)
        price = self.c.row_prices[r]
        self._loans = 0
        if price:
            self._pay(p, price)
        self._event("take", p, tile=self.c.tiles[tile_idx].id, price=price, loans=self._loans)
        self.ctx_tile = tile_idx
        self.step = S_PLACE

    def _frontier(self, p: int) -> set:
        """Empty slots adjacent (diagonals included) to a tile of seat ``p``'s city."""
        city = self.city[p]
        nb = self.game.neighbours
        out = set()
        for s in city:
            for q in nb[s]:
                if q not in city:
                    out.add(q)
        return out

    def broken_rules(self, p: int, tile_idx: int, slot: int) -> tuple[bool, bool]:
        """Which placement rules building ``tile_idx`` on ``slot`` breaks: ``(rule A, rule B)``.

        A: the slot must be at a corner of one of the city's construction tokens.
        B: the tile must be adjacent (diagonals included) to a tile of its type, unless it is the
        city's first tile of that type. Each broken rule costs -2 prestige (HU "Építési büntetés").
        A tile built adjacent to a Subway breaks neither (Prosperity, §9.6).
        """
        g = self.game
        tile = self.c.tiles[tile_idx]
        isl = g.isect_slots
        city = self.city[p]
        tiles = self.c.tiles
        if self.pros and any(q in city and tiles[city[q]].penalty_immunity for q in g.neighbours[slot]):
            return False, False  # Subway: tiles built adjacent to it suffer no placement penalty (§9.6)
        a = not any(slot in isl[tok] for tok in self.tokens[p])
        b = False
        if self.tcount[p * NTYPES + tile.type]:
            b = True
            for q in g.neighbours[slot]:
                x = city.get(q)
                if x is not None and tiles[x].type == tile.type:
                    b = False
                    break
        return a, b

    def _do_place(self, slot: int) -> None:
        p = self.player
        tile_idx = self.ctx_tile
        self.ctx_tile = -1
        self.step = S_NONE
        self._build(p, tile_idx, slot)
        if self.phase == P_BUILDING:
            self.turn += 1

    def _build(self, p: int, tile_idx: int, slot: int) -> None:
        """Place a tile and resolve its effects (§8 Phase 2, HU p. 6-8)."""
        c = self.c
        tile = c.tiles[tile_idx]
        t = self.t
        base = p * NT
        before = t[base:base + NT]
        a, b = self.broken_rules(p, tile_idx, slot)
        broken = int(a) + int(b)
        self._loans = 0
        if broken:
            self._prestige(p, broken * c.placement_penalty, C_PLACEMENT)
        # conditional effects count the holdings at the moment of building (HU p. 7)
        cond = self._conditional_gains(p, tile.cond) if c.cond_before_own else ()
        city = self.city[p]
        city[slot] = tile_idx
        self.tcount[p * NTYPES + tile.type] += 1
        fired = set()
        imm = tile.imm_for(c.era_of_round[self.round]) if tile.imm_era else tile.imm
        if imm:
            self._gain(p, imm, C_TILES, fired)
        if not c.cond_before_own:
            cond = self._conditional_gains(p, tile.cond, exclude=slot)
        if cond:
            self._gain(p, cond, C_TILES, fired)
        # construction effects: the new tile's own (counting what is already there), then those
        # of the tiles already in the city that the new tile triggers (§8, §10.6)
        acc = []
        tiles = c.tiles
        nb = self.game.neighbours[slot]
        for eff in tile.construction:
            k = self._count_area(p, slot, tile, eff.adjacent, eff.match)
            if k:
                acc.extend((tr, amt * k) for tr, amt in eff.gains)
        for s, x in city.items():
            xt = tiles[x]
            if not xt.construction or s == slot:
                continue
            for eff in xt.construction:
                if eff.adjacent:
                    if s not in nb:
                        continue
                    m = eff.match
                    if m.distinct_other_types:
                        if tile.type == xt.type:
                            continue
                        # a new type among the neighbours of s (the new tile excluded)
                        if any(q != slot and q in city and tiles[city[q]].type == tile.type
                               for q in self.game.neighbours[s]):
                            continue
                    elif not m(tile):
                        continue
                elif eff.match.distinct_other_types or not eff.match(tile):
                    continue
                acc.extend(eff.gains)
        if acc:
            self._gain(p, _sort_gains(acc), C_TILES, fired)
        self._event("build", p, tile=tile.id, slot=slot, rule_a=a, rule_b=b, loans=self._loans,
                    changes=self._diff(before, t[base:base + NT]))
        if tile.extra_build:  # Financial District: build 1 more tile from the projects area (§9.6)
            self.extra_pending = True
        if tile.imm_free_adjacent and self._free_targets(p, slot):  # Technology Park (§9.6)
            self.ctx_slot = slot
            self.step = S_FREE

    def _count_area(self, p: int, slot: int, tile, adjacent: bool, match) -> int:
        """How many tiles an area effect of ``tile`` on ``slot`` counts (never the tile itself)."""
        city = self.city[p]
        tiles = self.c.tiles
        if adjacent:
            others = [tiles[city[q]] for q in self.game.neighbours[slot] if q in city]
        else:
            others = [tiles[x] for s, x in city.items() if s != slot]
        if match.distinct_other_types:
            # a Lake "does not count as any building type (color)" (IT "Building a Lake", HU "Tó
            # építése"), so it is not a different type either
            return len({o.type for o in others if o.type != tile.type and o.type != LAKE})
        return sum(1 for o in others if match(o))

    def _conditional_gains(self, p: int, conds, exclude: int = -1) -> list:
        """Gains of "for every N of X" effects given seat ``p``'s holdings now (§8, HU p. 7)."""
        if not conds:
            return []
        t = self.t
        base = p * NT
        out = []
        for cd in conds:
            per = cd.per
            if per == "tiles":
                tiles = self.c.tiles
                v = sum(1 for s, x in self.city[p].items() if s != exclude and cd.match(tiles[x]))
            elif per == "public_service_above_zero":
                v = max(0, t[base + PS])
            elif per == "players_ahead_culture":
                mine = t[base + CULTURE]
                v = sum(1 for q in range(self.n) if t[q * NT + CULTURE] > mine)
                if self.neutral > mine and self.c.neutral_counts_ahead:
                    v += 1
            elif per == "plant_level":
                v = t[base + LEVEL]
            elif per == "plant_cubes":
                v = t[base + CUBES]
            else:
                v = t[base + {"money": MONEY, "culture": CULTURE, "employment": EMP, "population": POP}[per]]
            k = v // cd.n
            if k > 0:
                out.extend((tr, amt * k) for tr, amt in cd.gains)
        return _sort_gains(out)

    # ------------------------------------------------------------------------------------------
    # track movement, payments, prestige (§3, §8 "Extra taxation")
    # ------------------------------------------------------------------------------------------
    def _prestige(self, p: int, amount: int, cat: int) -> None:
        self.t[p * NT + PRESTIGE] += amount
        self.pb[p * NCAT + cat] += amount

    def _pay(self, p: int, amount: int) -> None:
        """Pay ``amount`` $, borrowing +$3 for -1 prestige as often as needed to end at >= $1."""
        if amount <= 0:
            return
        c = self.c
        i = p * NT + MONEY
        m = self.t[i]
        need = amount + c.min_money - m
        if need > 0:
            k = -(-need // c.loan_money)
            m += k * c.loan_money
            self._prestige(p, k * c.loan_prestige, C_LOANS)
            self._loans += k
        self.t[i] = m - amount

    def _gain(self, p: int, gains, cat: int, fired: set) -> None:
        """Move seat ``p``'s markers by ``gains`` (``(track, amount)`` pairs).

        Track ends: the marker stops on the last space and the red-arrow reward or penalty is
        applied once per build or activation (``fired`` remembers which ends fired, §3).
        Employment never exceeds population (HU "Munkás sáv"); a negative money amount is a
        payment with extra taxation; progress past the upgrade space queues an upgrade (§3.6).
        """
        t = self.t
        c = self.c
        base = p * NT
        for tr, amt in gains:
            if tr == PRESTIGE:
                t[base + PRESTIGE] += amt
                self.pb[p * NCAT + cat] += amt
            elif tr == PROG:
                old = t[base + PROG]
                new = old + amt
                t[base + PROG] = new
                if amt > 0:
                    k = new // c.loop - old // c.loop
                    if k > 0:
                        self.upg[p] += k
            elif tr == CUBES:
                v = t[base + CUBES] + amt
                t[base + CUBES] = v if v > 0 else 0
            elif tr == MONEY and amt < 0:
                self._pay(p, -amt)
            else:
                v = t[base + tr] + amt
                if tr == EMP and amt > 0:
                    pop = t[base + POP]
                    if v > pop:
                        v = pop if pop > t[base + EMP] else t[base + EMP]
                hi = c.track_max[tr]
                lo = c.track_min[tr]
                if v > hi:
                    v = hi
                    key = tr * 2 + 1
                    if key not in fired:
                        fired.add(key)
                        t[base + tr] = v
                        if c.overflow_high[tr]:
                            self._gain(p, c.overflow_high[tr], cat, fired)
                elif v < lo:
                    v = lo
                    key = tr * 2
                    if key not in fired:
                        fired.add(key)
                        t[base + tr] = v
                        if c.overflow_low[tr]:
                            self._gain(p, c.overflow_low[tr], cat, fired)
                t[base + tr] = v
                if tr == POP and amt < 0 and c.pop_loss_caps_emp and t[base + EMP] > v:
                    t[base + EMP] = v

    @staticmethod
    def _diff(before: list, after: list) -> dict:
        return {TRACK_NAMES[i]: after[i] - before[i] for i in range(NT) if after[i] != before[i]}

    # ------------------------------------------------------------------------------------------
    # power-plant upgrades (§3.6, §6)
    # ------------------------------------------------------------------------------------------
    def _upgrade_possible(self, p: int) -> bool:
        level = self.t[p * NT + LEVEL]
        if level >= self.c.max_plant_level:
            return False
        return self.plant_ptr[level + 1] < len(self.game.plant_supply[level + 1])

    def next_plant(self, p: int):
        """The plant seat ``p`` would take on an upgrade now (best left of the next level), or None."""
        if not self._upgrade_possible(p):
            return None
        level = self.t[p * NT + LEVEL] + 1
        return self.c.plants[self.game.plant_supply[level][self.plant_ptr[level]]]

    def _do_upgrade(self, p: int) -> None:
        """Take the best plant left of the next level; its cubes join those already on the plant."""
        plant = self.next_plant(p)
        self.plant_ptr[plant.level] += 1
        base = p * NT
        before = self.t[base:base + NT]
        self.t[base + LEVEL] = plant.level
        self.t[base + CUBES] += plant.cubes
        self.plant[p] = plant.idx
        self.upg[p] -= 1
        fired = set()
        tiles = self.c.tiles
        for x in self.city[p].values():
            if tiles[x].perm_upgrade:
                self._gain(p, tiles[x].perm_upgrade, C_TILES, fired)
        self.step = S_NONE
        self._event("upgrade", p, level=plant.level, plant_cubes=plant.cubes,
                    changes=self._diff(before, self.t[base:base + NT]))

    def _do_decline(self) -> None:
        p = self.player
        step = self.step
        self.step = S_NONE
        if step == S_UPGRADE:
            self.upg[p] -= 1
            self._event("upgrade_declined", p, level=self.t[p * NT + LEVEL])
        elif step == S_TOKEN:
            self.token_k += 1
        # S_FREE: the free activation is not used

    # ------------------------------------------------------------------------------------------
    # phase 3: tourism (HU "Turizmus fázis", §8 Phase 3)
    # ------------------------------------------------------------------------------------------
    def culture_ranking(self) -> list[int]:
        """Seats from highest to lowest culture; ties: more money, then leftmost initiative (IT box)."""
        t = self.t
        return sorted(range(self.n), key=lambda q: (-t[q * NT + CULTURE], -t[q * NT + MONEY], self.space[q]))

    def attraction_range(self, culture: int) -> int:
        """Culture at or below which the leader takes other cities' tourists; -1 below level 1 (§3.2)."""
        rng = -1
        for at, takes in self.c.attraction:
            if culture >= at:
                rng = takes
        return rng

    def _tourism(self) -> None:
        """The leader takes the Highest Culture token, the lowest city's tourist and the tourists of
        the cities in its attraction range; tourists whose host does not change stay where they are.

        2 players: the neutral marker is on the culture track and loses every tie; when it is the
        lowest, no city loses its tourist for being lowest; the neutral tourist always goes to the
        leader (HU, IT 2-player rules; the neutral never leads, ``neutral_can_lead``).
        """
        t = self.t
        c = self.c
        n = self.n
        ranking = self.culture_ranking()
        leader, lowest = ranking[0], ranking[-1]
        self.hc = leader
        reach = self.attraction_range(t[leader * NT + CULTURE])
        captured = set()
        neutral_lowest = False
        if self.neutral >= 0:
            low_cul = t[lowest * NT + CULTURE]
            neutral_lowest = self.neutral < low_cul or (self.neutral == low_cul and c.neutral_loses_ties)
        if not neutral_lowest:
            captured.add(lowest)
        for q in range(n):
            if q != leader and t[q * NT + CULTURE] <= reach:
                captured.add(q)
        moved = []
        for k in range(len(self.t_host)):
            host = (leader if k in captured else k) if k < n else leader
            if host != self.t_host[k]:
                self.t_host[k] = host
                self.t_slot[k] = -1
                moved.append([self.tourist_color(k), host])
        self._event("tourism", leader, lowest=-1 if neutral_lowest else lowest, captured=sorted(captured),
                    moved=moved, level=sum(1 for at, _ in c.attraction if t[leader * NT + CULTURE] >= at))
        if self.pros:  # Casino: at the end of each tourism phase, $2 per tourist in the city (§9.6)
            tiles = c.tiles
            for p in range(n):
                for x in self.city[p].values():
                    if tiles[x].perm_tourism:
                        k = sum(1 for h in self.t_host if h == p)
                        if k:
                            self._gain(p, [(tr, amt * k) for tr, amt in tiles[x].perm_tourism], C_TILES, set())
                            self._event("casino", p, tourists=k)

    def tourist_color(self, k: int) -> int:
        """Colour index of tourist ``k`` (seat ``k``'s own tourist, or the neutral one at index n)."""
        return k if k < self.n else self.c.neutral_color

    def tourist_index(self, color: int) -> int:
        """Inverse of ``tourist_color``."""
        return color if color < self.n else self.n

    # ------------------------------------------------------------------------------------------
    # phase 4: executive (HU "Végrehajtás fázis", §8 Phase 4)
    # ------------------------------------------------------------------------------------------
    def activation_cost(self, p: int, slot: int) -> int:
        """Cubes to activate the tile on ``slot``: printed + cubes and tourists on it + 1 (HU, P7)."""
        tile = self.c.tiles[self.city[p][slot]]
        on = self.cubes_on[p].get(slot, 0)
        for k in range(len(self.t_host)):
            if self.t_host[k] == p and self.t_slot[k] == slot:
                on += 1
        return tile.cubes + on + 1

    def _usable_tourists(self, p: int, slot: int) -> list[int]:
        """Tourists seat ``p`` may move onto ``slot`` now: in the city, unused this phase, and not
        already on ``slot`` (a tourist must move to be used, HU p. 11)."""
        return [k for k in range(len(self.t_host))
                if self.t_host[k] == p and not self.t_used[k] and self.t_slot[k] != slot]

    def _holds_activation_cost(self, p: int, tile) -> bool:
        if not self.c.act_cost_needs_holding:
            return True
        t = self.t
        base = p * NT
        lo = self.c.track_min
        for tr, amt in tile.act_cost:
            if tr != MONEY and t[base + tr] - amt < lo[tr]:
                return False
        return True

    def _can_activate(self, p: int, slot: int) -> bool:
        tile = self.c.tiles[self.city[p][slot]]
        if tile.cubes < 0 or self.acts_left <= 0 or not self._holds_activation_cost(p, tile):
            return False
        cost = self.activation_cost(p, slot)
        have = self.t[p * NT + CUBES]
        if have >= cost:
            return True
        return have + len(self._usable_tourists(p, slot)) >= cost

    def _any_activatable(self, p: int) -> bool:
        return any(self._can_activate(p, s) for s in self.city[p])

    def _do_activate(self, slot: int) -> None:
        p = self.player
        cost = self.activation_cost(p, slot)
        self.acts_left -= 1
        self.acts_made += 1
        self.ctx_slot = slot
        self.ctx_rem = cost
        if self._usable_tourists(p, slot):
            self.step = S_PAY
        else:
            self._finish_payment(cost)

    def _do_tourist(self, col: int) -> None:
        self.t_slot[col] = self.ctx_slot
        self.t_used[col] = True
        self.ctx_rem -= 1
        if self.ctx_rem == 0:
            self._finish_payment(0)

    def _finish_payment(self, cubes: int) -> None:
        p = self.player
        slot = self.ctx_slot
        if cubes:
            self.t[p * NT + CUBES] -= cubes
            co = self.cubes_on[p]
            co[slot] = co.get(slot, 0) + cubes
        self.step = S_NONE
        self.ctx_rem = -1
        self._activate_effect(p, slot, free=False, paid_cubes=cubes)

    def _activate_effect(self, p: int, slot: int, free: bool, paid_cubes: int = 0) -> None:
        """Resolve the activation effect of the tile on ``slot``, then the permanent effects of
        the other tiles it triggers (HU p. 11: a tile never triggers its own permanent effect)."""
        c = self.c
        tiles = c.tiles
        tile = tiles[self.city[p][slot]]
        base = p * NT
        before = self.t[base:base + NT]
        fired = set()
        self._loans = 0
        if tile.act_cost:
            self._gain(p, [(tr, -amt) for tr, amt in tile.act_cost], C_TILES, fired)
        cond = self._conditional_gains(p, tile.act_cond)
        if tile.act_gain:
            self._gain(p, tile.act_gain, C_TILES, fired)
        if cond:
            self._gain(p, cond, C_TILES, fired)
        if not free or c.free_act_triggers_permanents:
            city = self.city[p]
            acc = []
            for q in self.game.neighbours[slot]:
                x = city.get(q)
                if x is None:
                    continue
                for m, gains in tiles[x].perm_adjacent:
                    if m is None or m(tile):
                        acc.extend(gains)
            if self.pros:  # Warehouse, Bus Station: each own activation of a type (§9.6)
                for x in city.values():
                    for m, gains in tiles[x].perm_own:
                        if m is None or m(tile):
                            acc.extend(gains)
            if acc:
                self._gain(p, _sort_gains(acc), C_TILES, fired)
        self._event("activate", p, tile=tile.id, slot=slot, free=free, cubes=paid_cubes, loans=self._loans,
                    changes=self._diff(before, self.t[base:base + NT]))
        if tile.act_free_adjacent and self._free_targets(p, slot):
            self.ctx_slot = slot
            self.step = S_FREE

    def _free_targets(self, p: int, slot: int) -> list[int]:
        """Adjacent tiles the Convention Center may activate for free (reference §10.8)."""
        city = self.city[p]
        tiles = self.c.tiles
        out = []
        for q in sorted(self.game.neighbours[slot]):
            x = city.get(q)
            if x is not None and tiles[x].has_activation and not tiles[x].act_free_adjacent \
                    and self._holds_activation_cost(p, tiles[x]):
                out.append(q)
        return out

    def _end_executive_turn(self) -> None:
        p = self.player
        if self.acts_made == 0 and self.c.no_activation_reward:
            self._gain(p, self.c.no_activation_reward, C_TILES, set())
            self._event("no_activation", p, reward=dict(self._named(self.c.no_activation_reward)))
        else:
            self._event("end_activations", p, made=self.acts_made)
        self.exec_active = False
        self.acts_left = 0
        self.turn += 1
        self.step = S_NONE

    @staticmethod
    def _named(gains):
        return [(TRACK_NAMES[tr], amt) for tr, amt in gains]

    # ------------------------------------------------------------------------------------------
    # phase 5: administration (HU "Adminisztálás fázis", §8 Phase 5)
    # ------------------------------------------------------------------------------------------
    def _token_surrounded(self, p: int, k: int) -> bool:
        city = self.city[p]
        return all(s in city for s in self.game.isect_slots[self.tokens[p][k]])

    def _token_destinations(self, p: int) -> set:
        """Free corners on the city's perimeter: at least one filled and one empty slot around."""
        city = self.city[p]
        g = self.game
        isl = g.isect_slots
        corners = g.slot_corners
        out = set()
        for s in city:
            for i in corners[s]:
                if i in out:
                    continue
                if any(q not in city for q in isl[i]):
                    out.add(i)
        out.difference_update(self.tokens[p])
        return out

    def _do_move_token(self, isect: int) -> None:
        p = self.player
        k = self.ctx_slot
        old = self.tokens[p][k]
        self.tokens[p][k] = isect
        self._event("token", p, frm=old, to=isect)
        self.token_k += 1
        self.step = S_NONE

    def _admin_projects(self) -> None:
        """Shift the rows $0 -> $2 -> $4 -> box, then refill (HU "Adminisztálás fázis")."""
        pr = self.projects
        discarded = [self.c.tiles[x].id for x in pr[2]]
        self.projects = [[], pr[0], pr[1]]
        next_era = self.c.era_of_round[self.round + 1]
        if next_era != self.c.era_of_round[self.round]:
            old = self.c.era_of_round[self.round]
            self.decks[old] = []
        self._event("admin", None, discarded=discarded)
        self._refill(next_era)

    def _refill(self, era: int) -> None:
        """Draw current-era tiles onto the $0 row until the area holds 2 + players tiles of that era
        (older-era tiles do not count, HU "Hány lapkát kell felcsapni?")."""
        c = self.c
        tiles = c.tiles
        if self.game.options.get("refill_variant"):  # rulebook variant: fill the $0 row alone
            have = sum(1 for x in self.projects[0] if tiles[x].era == era)
        else:
            have = sum(1 for row in self.projects for x in row if tiles[x].era == era)
        want = c.refill_base + c.refill_per_player * self.n - have
        deck = self.decks[era]
        drawn = []
        while want > 0 and deck:
            drawn.append(deck.pop())
            want -= 1
        self.projects[0].extend(drawn)
        self._event("refill", None, era=era, tiles=[tiles[x].id for x in drawn])

    # ------------------------------------------------------------------------------------------
    # World Expo (HU "Világkiállítási értékelés", §5)
    # ------------------------------------------------------------------------------------------
    def public_service_ranking(self) -> list[int]:
        """Seats from highest to lowest public service; ties: more money, then leftmost initiative."""
        t = self.t
        return sorted(range(self.n), key=lambda q: (-t[q * NT + PS], -t[q * NT + MONEY], self.space[q]))

    def _expo(self) -> None:
        c = self.c
        t = self.t
        ps_rank = self.public_service_ranking()
        for p in self.order:
            base = p * NT
            emp, pop, ps = t[base + EMP], t[base + POP], t[base + PS]
            e_pts = c.employment_prestige[min(emp, len(c.employment_prestige) - 1)]
            unemp = max(0, pop - emp)
            u_pts = c.unemployment_penalty[min(unemp, len(c.unemployment_penalty) - 1)]
            prog = c.ps_expo_progress[ps - c.track_min[PS]]
            r = ps_rank.index(p)
            ps_pts = r * c.ps_rank_penalty
            self._prestige(p, e_pts, C_EXPO_EMP)
            self._prestige(p, u_pts, C_EXPO_UNEMP)
            if prog:
                self._gain(p, ((PROG, prog),), C_TILES, set())
            self._prestige(p, ps_pts, C_EXPO_PS)
            self._event("expo", p, era=c.era_of_round[self.round], employment=emp, employment_prestige=e_pts,
                        unemployment=unemp, unemployment_prestige=u_pts, public_service=ps, progress=prog,
                        public_service_rank=r + 1, public_service_prestige=ps_pts)

    def _clear_cubes(self) -> None:
        """After the Expo, energy cubes on buildings go back to the supply; tourists stay (§5)."""
        for p in range(self.n):
            self.cubes_on[p] = {}
        self._event("clear_cubes", None)

    # ------------------------------------------------------------------------------------------
    # end of the game (HU "A játék vége", §8 End of game)
    # ------------------------------------------------------------------------------------------
    def _before_last_expo(self, p: int) -> None:
        """Seat ``p``'s end-game effects resolved just before the round-12 Expo: Gene Research Lab
        and Public Meeting Hall (Technology Park's free activation is a decision, see ``_advance``)."""
        tiles = self.c.tiles
        fired = set()
        base = p * NT
        before = self.t[base:base + NT]
        for x in self.city[p].values():
            tile = tiles[x]
            if tile.before_expo_flat:
                self._gain(p, tile.before_expo_flat, C_END_TILES, fired)
            if tile.before_expo_cond:
                self._gain(p, self._conditional_gains(p, tile.before_expo_cond), C_END_TILES, fired)
        changes = self._diff(before, self.t[base:base + NT])
        if changes:
            self._event("before_expo", p, changes=changes)

    def _tech_parks(self, p: int) -> list[int]:
        tiles = self.c.tiles
        return sorted(s for s, x in self.city[p].items() if tiles[x].before_expo_free)

    # ------------------------------------------------------------------------------------------
    # the Prosperity expansion (HU "Jólét kiegészítő szabályok", IT, reference §7, §9.6)
    # ------------------------------------------------------------------------------------------
    def _count_types(self, q: int, types) -> int:
        return sum(self.tcount[q * NTYPES + ty] for ty in types)

    def _req_value(self, q: int, req):
        t = self.t
        if req.kind in ("most", "fewest"):
            return self._count_types(q, req.types)
        if req.kind == "most_tiles":
            tiles = self.c.tiles
            return sum(1 for x in self.city[q].values() if req.match(tiles[x]))
        if req.track == "progress":  # plant level, then nearness to the next upgrade (Technology Park)
            return (t[q * NT + LEVEL], t[q * NT + PROG] % self.c.loop)
        if req.track == "plant_cubes":
            return t[q * NT + CUBES]
        return t[q * NT + TRACK_INDEX[req.track]]

    def requirement_status(self, p: int, tile_idx: int) -> tuple[bool, str]:
        """Whether seat ``p`` may build prosperity tile ``tile_idx`` now, and why (or why not).

        "most" needs a strict majority unless the tile allows a tie; "highest"/"lowest"/"fewest"
        use the game's tie-break chain (more money, then leftmost initiative) to order equal
        cities (reference §9.6 and the §12 #17 project default).
        """
        tile = self.c.tiles[tile_idx]
        req = tile.requirement
        n = self.n
        if req.kind == "pay":
            # Mayor's House: extra taxation may cover the $ part unless the data says otherwise
            # (reference §10 #9, §12 #19 PROJECT DEFAULT: board.yaml prosperity.mayors_house_loans_allowed)
            cost = dict(req.cost).get(MONEY, 0)
            have = self.t[p * NT + MONEY]
            if cost and not self.c.mayor_loans_allowed and have - cost < self.c.min_money:
                return False, f"needs ${cost} without loans and ${self.c.min_money} left: you have ${have}"
            return True, "pays " + ", ".join(f"{amt} {TRACK_NAMES[tr].replace('_', ' ')}" for tr, amt in req.cost)
        mine = self._req_value(p, req)
        others = [self._req_value(q, req) for q in range(n) if q != p]
        if req.kind in ("most", "most_tiles"):
            what = (" + ".join(TYPE_NAMES[ty] for ty in sorted(req.types)) if req.kind == "most"
                    else req.match.describe() + "s")
            best = max(others) if others else -1
            if mine > best or (req.ties_ok and mine == best):
                return True, f"you have the most {what} ({mine})"
            if mine == best:
                return False, f"tied for most {what} ({mine}); this tile needs the most outright"
            return False, f"needs the most {what}: you have {mine}, another city has {best}"
        t = self.t
        key_tb = lambda q: (-t[q * NT + MONEY], self.space[q])  # noqa: E731 - tie-break: higher = first
        vals = {q: self._req_value(q, req) for q in range(n)}
        label = {"fewest": "fewest " + " + ".join(TYPE_NAMES[ty] for ty in sorted(req.types)) + " tiles"}.get(
            req.kind, f"{req.kind} {req.track.replace('_', ' ')}")
        order = sorted(range(n), key=lambda q: (_neg(vals[q]),) + key_tb(q))  # highest first
        ok = order[0] == p if req.kind == "highest" else order[-1] == p        # lowest / fewest: last
        tied = sum(1 for q in range(n) if vals[q] == mine) > 1
        if ok:
            return True, f"you have the {label}" + (" (after the tie-break)" if tied else "")
        if tied and (vals[order[0]] == mine if req.kind == "highest" else vals[order[-1]] == mine):
            return False, f"tied for the {label}; the tie-break (money, then initiative) favours another city"
        return False, f"needs the {label}"

    def _do_prosperity(self, x: int) -> None:
        p = self.player
        tile = self.c.tiles[x]
        self.hand[p].remove(x)
        self._loans = 0
        if tile.requirement.kind == "pay":  # Mayor's House: pay $12, 1 public service, 2 culture
            self._gain(p, [(tr, -amt) for tr, amt in tile.requirement.cost], C_TILES, set())
        self._event("prosperity", p, tile=tile.id, loans=self._loans)
        self.ctx_tile = x
        self.step = S_PLACE

    def _do_lake(self, x: int) -> None:
        p = self.player
        self.hand[p].remove(x)
        self.ctx_tile = x
        self._event("lake_reveal", p, tile=self.c.tiles[x].id)
        self.step = S_LAKE

    def _do_place_lake(self, slot: int) -> None:
        """A Lake goes on any empty slot adjacent to the city, ignoring the placement rules, and
        brings +2 energy cubes; it has no type and is not a prosperity tile (HU, IT "Tó építése")."""
        p = self.player
        c = self.c
        self.city[p][slot] = c.lake.idx
        self.tcount[p * NTYPES + c.lake.type] += 1
        self.lakes[p].append([slot, self.ctx_tile])
        base = p * NT
        before = self.t[base:base + NT]
        self._gain(p, c.lake_gains, C_TILES, set())
        self._event("lake", p, tile=c.tiles[self.ctx_tile].id, slot=slot,
                    changes=self._diff(before, self.t[base:base + NT]))
        self.ctx_tile = -1
        self.step = S_NONE

    def final_payment(self, p: int) -> int:
        """$ seat ``p`` pays for its initiative space before final scoring (data: ``final_payment``)."""
        c = self.c
        s = self.space[p]
        if c.final_payment == "own_cost":
            return c.init_cost[s]
        return c.init_cost[s] * c.init_mult[s]

    def _finish(self) -> None:
        c = self.c
        t = self.t
        for p in self.order:
            amount = self.final_payment(p)
            self._loans = 0
            self._pay(p, amount)
            self._event("final_payment", p, paid=amount, loans=self._loans)
        tiles = c.tiles
        for p in self.order:
            city = self.city[p]
            base = p * NT
            before = t[base + PRESTIGE]
            acc = []
            for s, x in city.items():
                tile = tiles[x]
                for eff in tile.end_game:
                    k = self._count_area(p, s, tile, eff.adjacent, eff.match)
                    acc.extend((tr, amt * k) for tr, amt in eff.gains if k)
                acc.extend(tile.end_flat)
                if tile.end_cond:
                    acc.extend(self._conditional_gains(p, tile.end_cond))
            if acc:
                self._gain(p, _sort_gains(acc), C_END_TILES, set())
            total = t[base + PRESTIGE] - before
            cubes_pts = t[base + CUBES] // c.cubes_per_prestige
            money_pts = t[base + MONEY] // c.money_per_prestige
            cul_pts = t[base + CULTURE] // c.culture_per_prestige
            prog_pts = t[base + PROG] % c.loop
            self._prestige(p, cubes_pts, C_CUBES)
            self._prestige(p, money_pts, C_MONEY)
            self._prestige(p, cul_pts, C_CULTURE)
            self._prestige(p, prog_pts, C_PROGRESS)
            self._event("final_scoring", p, end_tiles=total, cubes=cubes_pts, money=money_pts, culture=cul_pts,
                        progress=prog_pts, prestige=t[base + PRESTIGE])
        self.phase = P_END
        self.step = S_NONE
        self.player = TERMINAL
        self._event("game_end", None, ranking=self.ranking(), scores=self.scores())

    # ------------------------------------------------------------------------------------------
    # outcome
    # ------------------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        """Prestige of each seat (final after the game ends)."""
        return [self.t[p * NT + PRESTIGE] for p in range(self.n)]

    def ranking(self) -> list[int]:
        """Seats by prestige; ties: more cubes on the plant, then money, then leftmost initiative (§8)."""
        t = self.t
        return sorted(range(self.n), key=lambda q: (-t[q * NT + PRESTIGE], -t[q * NT + CUBES],
                                                    -t[q * NT + MONEY], self.space[q]))

    def returns(self) -> list[float]:
        if self.phase != P_END:
            return [0.0] * self.n
        win = self.ranking()[0]
        return [1.0 if p == win else 0.0 for p in range(self.n)]

    def score_breakdown(self, seat: int) -> dict[str, int]:
        return {CATEGORY_KEYS[k]: self.pb[seat * NCAT + k] for k in range(NCAT)}

    # ------------------------------------------------------------------------------------------
    # copies and serialisation
    # ------------------------------------------------------------------------------------------
    # ------------------------------------------------------------------------------------------
    # information
    # ------------------------------------------------------------------------------------------
    def resample(self, seat: int, rng) -> "CapitalsState":
        """A copy with the unseen parts redrawn consistently with what ``seat`` saw: the order of
        every era deck and, with 2 players, which tile of each type was removed unseen from each
        era (uniform among the unseen tiles of that type: every revealed tile was not removed)."""
        s = self.clone()
        tiles = self.c.tiles
        for era in range(1, len(s.decks)):
            pool = s.decks[era] + s.removed[era]
            rng.shuffle(pool)
            out = []
            for typ in (tiles[x].type for x in s.removed[era]):
                pick = next(i for i in pool if tiles[i].type == typ)
                pool.remove(pick)
                out.append(pick)
            s.decks[era] = pool
            s.removed[era] = out
        if s.pros:  # the other seats' hands and the unused tiles are one unseen pool (§7.1)
            pool = s.pbox[:]
            for q in range(s.n):
                if q != seat:
                    pool.extend(s.hand[q])
            rng.shuffle(pool)
            for q in range(s.n):
                if q != seat:
                    k = len(s.hand[q])
                    s.hand[q] = sorted(pool[:k])
                    del pool[:k]
            s.pbox = pool
        s._legal = None
        return s

    def observation(self, seat: int | None) -> dict:
        from .observation import observation
        return observation(self, seat)

    def action_to_string(self, action) -> str:
        from .render import describe_action
        return describe_action(self, self._as_action(action))

    # ------------------------------------------------------------------------------------------
    # helpers
    # ------------------------------------------------------------------------------------------
    def _color(self, p: int) -> str:
        return self.c.colors[p].capitalize() if p is not None and p >= 0 else "nobody"

    def _event(self, kind: str, player, visible_to=None, **data) -> None:
        self.log.append(Event("capitals." + kind, player, data, visible_to))

    def track(self, p: int, name: str) -> int:
        """Seat ``p``'s value on a track by name (``"money"``, ``"culture"``, ...)."""
        return self.t[p * NT + TRACK_NAMES.index(name)]


def _neg(v):
    """Sort key putting larger values (ints or tuples of ints) first."""
    return tuple(-x for x in v) if isinstance(v, tuple) else -v

