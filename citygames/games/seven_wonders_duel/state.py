"""7 Wonders Duel: the state and its transitions.

Rules: ``shared/rulebooks/seven_wonders_duel.hu.txt`` (HU) and ``shared/reference/seven_wonders_duel.md``
(cited as §N and pitfall PN). Values no source confirms come from ``data/board.yaml`` ``rules``.

The state is flat: coins, colour counts, production and science counts are lists of ints indexed
``seat * width + i``; the structure of the current age is two lists of 20 (card index or -1 once
taken; face up or not). Every card of the game is dealt at setup from the seed (lazy dealing would be
statistically the same, §5), so the only randomness is in ``new_initial_state`` and ``resample``.

Seats are 0 and 1; ``first`` is the seat that drafts first and starts Age I. The conflict pawn is an
int in ``-9..9``: positive means it moved toward seat 1's capital (seat 0 is ahead).
"""

from __future__ import annotations

from citygames.core.events import Event
from citygames.core.flat import Derived, FlatState, List, Lists, Shared, TupleLists, Value
from citygames.core.game import TERMINAL

from .components import (AGRICULTURE, ARCHITECTURE, BLUE, BROWN, COLORS, ECONOMY, GREEN, GREY, LAW, LAW_TOKEN,
                         MASONRY, MATHEMATICS, PHILOSOPHY, PURPLE, RED, STRATEGY, THEOLOGY, URBANISM, YELLOW,
                         Components)

# --- phases -----------------------------------------------------------------------------------
PH_DRAFT, PH_PLAY, PH_TOKEN, PH_LIBRARY, PH_DESTROY, PH_MAUSOLEUM, PH_START, PH_END = range(8)
PHASE_NAMES = ("wonder draft", "play", "choose a progress token", "Great Library", "destroy a card",
               "Mausoleum", "choose who starts the age", "game over")
PHASE_KEYS = ("draft", "play", "progress_token", "library", "destroy", "mausoleum", "choose_starter", "end")
DECISIONS = ("take one of the revealed wonders", "take an accessible card: construct it, discard it or build a wonder",
             "take a progress token from the board (science pair)",
             "keep one of the 3 progress tokens drawn by the Great Library",
             "put one of the opponent's cards into the discard pile",
             "build a card from the discard pile for free (Mausoleum)",
             "choose who starts the next age", "")

NC = len(COLORS)
NR = 5
NS = 7

# victory types
VICTORY_NAMES = ("civilian", "military", "science", "shared")
CIVILIAN, MILITARY, SCIENCE, SHARED = range(4)

CATEGORIES = ("military", "blue", "green", "yellow", "purple", "wonders", "progress", "coins")


class DuelState(FlatState):
    """One game of 7 Wonders Duel. Create with ``game.new_initial_state(seed)``.

    See ``citygames.core.game.State`` for the contract. Public helpers for user interfaces and
    bots: ``accessible()``, ``card_price(p, card)``, ``wonder_price(p, w)``, ``discard_value(p)``,
    ``military_vp(p)``, ``science_symbols(p)``, ``score_breakdown(p)``.
    """

    FIELDS = {
        "c": Derived(lambda game: game.components, "the compiled components (shared, immutable)"),
        "first": Value("the seat that drafts first and starts Age I"),
        "phase": Value("the pending decision (PH_*)"),
        "age": Value("the current age, 1-3 (0 during the draft)"),
        "worder": Shared("the order in which the 12 wonders are revealed (wonder indices)", List()),
        "nrevealed": Value("how many wonders of worder have been revealed"),
        "dpool": List("the revealed wonders still to draft this round"),
        "dpick": Value("picks made in this draft round (0-4)"),
        "wonders": Lists("per seat, its wonders (indices)", length=2),
        "wcard": List("per wonder, the card tucked under it: -1 unbuilt, -2 out of the game"),
        "nbuilt": Value("wonders built by both seats"),
        "deals": Shared("per age (index 1-3), the 20 cards dealt into the structure's slots"),
        "removed": Shared("per age, the cards removed unseen at setup"),
        "gbox": Shared("the guilds left in the box", List()),
        "slot": List("the current structure: per slot, the card there or -1 once taken"),
        "up": List("per slot, whether its card is face up"),
        "ntaken": Value("cards taken from the current structure"),
        "coins": List("per seat, coins"),
        "city": Lists("per seat, the cards built (indices)", length=2),
        "ccount": List("per seat and colour, cards built: ccount[seat * NC + colour]"),
        "prod": List("per seat and resource, fixed production: prod[seat * NR + resource]"),
        "oneof": TupleLists("per seat, the one-of production choices (tuples of resources)", length=2),
        "fixed": List("per seat and resource, whether the trading price is fixed at 1"),
        "chains": List("per seat, the chain symbols owned (bit mask)"),
        "sci": List("per seat and science symbol, count: sci[seat * NS + symbol]"),
        "toks": List("per seat, the progress tokens owned (bit mask)"),
        "board": List("the progress tokens on the board"),
        "box": List("the progress tokens in the box, in drawing order"),
        "ldraw": List("the 3 tokens drawn by the Great Library, while its choice is pending"),
        "pawn": Value("the conflict pawn, -9..9: positive toward seat 1's capital"),
        "mtok": List("military tokens still on the track: seat 0's side (2, 5 coins), then seat 1's"),
        "discard": List("the discard pile (card indices)"),
        "extra": Value("whether the seat to move plays again after this turn"),
        "last": Value("the seat that took the last card"),
        "winner": Value("the winning seat at the end, -1 for none or a shared victory"),
        "victory": Value("the victory type at the end (index of VICTORY_NAMES), -1 before"),
        "dcolor": Value("the colour an opponent's card must have to be destroyed (Zeus, Circus)"),
    }

    @classmethod
    def new(cls, game, seed: int) -> "DuelState":
        """A new game set up from ``seed`` (§6); the first wonder pick (or Age I) is pending."""
        s = object.__new__(cls)
        s._setup(game, seed)
        return s

    # ------------------------------------------------------------------------------------------
    # setup (§6, HU "Előkészületek")
    # ------------------------------------------------------------------------------------------
    def _setup(self, game, seed: int) -> None:
        from citygames.core.rng import Rng

        c: Components = game.components
        self.game, self.c, self.seed = game, c, seed
        self.history, self.log = [], []
        self.origin = None
        rng = Rng(seed)
        self.first = rng.randbelow(2)
        # wonders: a random order; the draft reveals 4, then 4 more (§6.2)
        self.worder = list(range(len(c.wonders)))
        rng.shuffle(self.worder)
        # progress tokens: 5 on the board, 5 in the box (the Great Library draws from the front)
        toks = list(range(len(c.tokens)))
        rng.shuffle(toks)
        k = c.setup["progress_tokens_on_board"]
        self.board = sorted(toks[:k])
        self.box = toks[k:]
        self.ldraw = []
        # the three ages, dealt now: 3 random cards removed unseen, 3 random guilds into Age III (§6.3)
        nrem = c.setup["cards_removed_per_age"]
        self.deals = [[]]
        self.removed = [[]]
        self.gbox = []
        for age in (1, 2, 3):
            deck = list(c.age_cards[age])
            rng.shuffle(deck)
            self.removed.append(sorted(deck[:nrem]))
            deck = deck[nrem:]
            if age == 3:
                guilds = list(c.guilds)
                rng.shuffle(guilds)
                ng = c.setup["guilds_in_age_3"]
                deck += guilds[:ng]
                self.gbox = sorted(guilds[ng:])
                rng.shuffle(deck)
            self.deals.append(deck)
        self.coins = [c.setup["starting_coins"]] * 2
        self.city = [[], []]
        self.ccount = [0] * (2 * NC)
        self.prod = [0] * (2 * NR)
        self.oneof = [[], []]
        self.fixed = [False] * (2 * NR)
        self.chains = [0, 0]
        self.sci = [0] * (2 * NS)
        self.toks = [0, 0]
        self.pawn = 0
        self.mtok = [True] * 4      # seat 0's side: 2-coin, 5-coin; then seat 1's side
        self.discard = []
        self.wonders = [[], []]
        self.wcard = [-1] * len(c.wonders)   # -1 unbuilt, -2 back in the box (P8), else the tucked card
        self.nbuilt = 0
        self.extra = False
        self.last = self.first
        self.winner = -1
        self.victory = -1
        self.dcolor = -1
        self.age = 0
        self.slot = [-1] * 20
        self.up = [False] * 20
        self.ntaken = 0
        self.nrevealed = 0
        self.dpool = []
        self.dpick = 0
        self._legal = None
        if game.options["first_game_wonders"]:
            fw = c.first_game_wonders
            self.wonders[self.first] = list(fw[0])
            self.wonders[1 - self.first] = list(fw[1])
            self.nrevealed = len(c.wonders)
            self._event("fixed_wonders", None, first=self.first, wonders=[list(w) for w in self.wonders])
            self._start_age(1, self.first)
        else:
            self.phase = PH_DRAFT
            self._draft_reveal()

    def _draft_reveal(self) -> None:
        self.dpool = sorted(self.worder[self.nrevealed:self.nrevealed + 4])
        self.nrevealed += 4
        self.dpick = 0
        rnd = self.nrevealed // 4 - 1
        self.player = self.first ^ self.c.draft_order[rnd][0]
        self._event("draft_reveal", None, round=rnd + 1, wonders=self.dpool[:])

    def _start_age(self, age: int, starter: int) -> None:
        st = self.c.structures[age]
        self.age = age
        self.slot = self.deals[age][:]
        self.up = list(st.face_up)
        self.ntaken = 0
        self.phase = PH_PLAY
        self.player = starter
        self.extra = False
        self._event("age", None, age=age, cards=[x if u else -1 for x, u in zip(self.slot, self.up)],
                    guild_backs=[i for i, x in enumerate(self.slot) if self.c.cards[x].guild])

    # ------------------------------------------------------------------------------------------
    # the contract
    # ------------------------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == PH_END else self.player

    def is_terminal(self) -> bool:
        return self.phase == PH_END

    def _apply(self, a) -> None:
        """The transition of legal action ``a`` (checked by ``FlatState.apply_action``), then the end
        of the turn once no choice of the same action is pending (P23)."""
        kind = a.kind
        arg = a.arg
        if kind == "construct":
            self._take(arg)
            self._construct(self.player, arg)
        elif kind == "discard":
            self._take(arg)
            self._discard(self.player, arg)
        elif kind == "wonder":
            n = len(self.c.cards)
            self._take(arg % n)
            self._build_wonder(self.player, arg // n, arg % n)
        elif kind == "progress":
            self._choose_token(arg)
        elif kind == "destroy":
            self._destroy(arg)
        elif kind == "mausoleum":
            self.phase = PH_PLAY
            self._event("mausoleum", self.player, card=arg)
            self.discard.remove(arg)
            self._gain_card(self.player, arg, chained=self.chained(self.player, arg), mausoleum=True)
        elif kind == "decline_token":
            self.phase = PH_PLAY
            self._event("decline_token", self.player)
        elif kind == "draft":
            self._draft(arg)
            return
        elif kind == "start":
            self.player = arg
            self.phase = PH_PLAY
            self._event("starter", self.last_chooser(), starter=arg, age=self.age)
            return
        else:  # pragma: no cover - every legal kind is handled above
            raise AssertionError(kind)
        if self.phase == PH_PLAY:
            self._end_turn()

    # ------------------------------------------------------------------------------------------
    # legal actions
    # ------------------------------------------------------------------------------------------
    def _compute_legal(self) -> list:
        g = self.game
        table = g.action_space.table
        off = g.off
        ph = self.phase
        p = self.player
        if ph == PH_PLAY:
            c = self.c
            ncards = len(c.cards)
            coins = self.coins[p]
            oc, od, ow = off["construct"], off["discard"], off["wonder"]
            wonder_ok = ()   # action-id bases (wonder * n) of the wonders seat p can afford
            if self.nbuilt < c.setup["max_wonders_built"]:
                wcard = self.wcard
                wonder_ok = [ow + w * ncards for w in self.wonders[p]
                             if wcard[w] == -1 and self.wonder_price(p, w) <= coins]
            out = []
            append = out.append
            slot = self.slot
            card_price = self.card_price
            for s in self.accessible_slots():
                x = slot[s]
                if card_price(p, x) <= coins:
                    append(table[oc + x])
                append(table[od + x])
                for base in wonder_ok:
                    append(table[base + x])
            return out
        if ph == PH_TOKEN:
            out = [table[off["progress"] + t] for t in self.board]
            if not self.c.rules["progress_token_must_be_taken"]:   # §11.2 (HU: "may")
                out.append(table[off["decline_token"]])
            return out
        if ph == PH_LIBRARY:
            return [table[off["progress"] + t] for t in sorted(self.ldraw)]
        if ph == PH_DESTROY:
            q = 1 - p
            cards = self.c.cards
            return [table[off["destroy"] + x] for x in sorted(self.city[q]) if cards[x].color == self.dcolor]
        if ph == PH_MAUSOLEUM:
            return [table[off["mausoleum"] + x] for x in sorted(set(self.discard))]
        if ph == PH_DRAFT:
            return [table[off["draft"] + w] for w in self.dpool]
        if ph == PH_START:
            return [table[off["start"]], table[off["start"] + 1]]
        return []  # pragma: no cover

    def _why_illegal(self, a) -> str:
        ph = self.phase
        expected = {PH_DRAFT: ("draft",), PH_PLAY: ("construct", "discard", "wonder"),
                    PH_TOKEN: ("progress", "decline_token"), PH_LIBRARY: ("progress",), PH_DESTROY: ("destroy",),
                    PH_MAUSOLEUM: ("mausoleum",), PH_START: ("start",)}[ph]
        who = self.game.seat_name(self.player)
        if a.kind not in expected:
            return f"{PHASE_NAMES[ph]}: now {who} must {DECISIONS[ph]}"
        c = self.c
        n = len(c.cards)
        if a.kind == "draft":
            return f"wonder draft (§6.2): {c.wonders[a.arg].name} is not among the revealed wonders"
        if a.kind in ("construct", "discard", "wonder"):
            x = a.arg % n
            if x not in self.accessible_cards():
                return (f"turn (§6.4): {c.cards[x].name} is not an accessible card of the structure "
                        "(it must be face up and covered by no card)")
            if a.kind == "construct":
                return (f"construct (§6.4, P2): {c.cards[x].name} costs {self.card_price(self.player, x)} coins "
                        f"for {who}, who has {self.coins[self.player]}")
            w = a.arg // n
            if w not in self.wonders[self.player]:
                return f"build a wonder: {c.wonders[w].name} is not one of {who}'s wonders"
            if self.wcard[w] >= 0:
                return f"build a wonder: {c.wonders[w].name} is already built"
            if self.nbuilt >= c.setup["max_wonders_built"]:
                return f"build a wonder (P8): only seven wonders can be built, {c.wonders[w].name} is out of the game"
            return (f"build a wonder (P2): {c.wonders[w].name} costs {self.wonder_price(self.player, w)} coins "
                    f"for {who}, who has {self.coins[self.player]}")
        if a.kind == "decline_token":
            return "science pair (§11.2, data rule progress_token_must_be_taken): a progress token must be taken"
        if a.kind == "progress":
            if ph == PH_LIBRARY:
                return f"Great Library (P11): {c.tokens[a.arg].name} is not among the 3 tokens drawn"
            return f"science pair (P16): {c.tokens[a.arg].name} is not on the board"
        if a.kind == "destroy":
            return (f"{PHASE_NAMES[ph]} (P12): {c.cards[a.arg].name} is not a {COLORS[self.dcolor]} card "
                    "of the opponent's city")
        if a.kind == "mausoleum":
            return f"Mausoleum (P10): {c.cards[a.arg].name} is not in the discard pile"
        if a.kind == "start":
            return "choose who starts: seat 0 or 1"  # pragma: no cover - both are always legal
        return PHASE_NAMES[ph]  # pragma: no cover

    # ------------------------------------------------------------------------------------------
    # the structure (§5)
    # ------------------------------------------------------------------------------------------
    def accessible_slots(self) -> list[int]:
        """Slots of the current age's structure whose card is present, face up and covered by no card
        (a card just uncovered is turned face up only once the action has resolved, P23)."""
        if self.age == 0:
            return []
        slot, up = self.slot, self.up
        out = []
        for s, cov in enumerate(self.c.structures[self.age].covered_by):
            if slot[s] >= 0 and up[s]:
                for t in cov:
                    if slot[t] >= 0:
                        break
                else:
                    out.append(s)
        return out

    def accessible_cards(self) -> list[int]:
        """Card indices that can be taken now (accessible cards are always face up, §5)."""
        slot = self.slot
        return [slot[s] for s in self.accessible_slots()]

    def _take(self, card: int) -> None:
        s = self.slot.index(card)
        self.slot[s] = -1
        self.ntaken += 1
        self.last = self.player

    def _reveal(self) -> None:
        """Turn face up every face-down card nothing covers any more (P23)."""
        slot, up = self.slot, self.up
        for s, cov in enumerate(self.c.structures[self.age].covered_by):
            if not up[s] and slot[s] >= 0:
                for t in cov:
                    if slot[t] >= 0:
                        break
                else:
                    up[s] = True
                    self._event("reveal", None, slot=s, card=slot[s])

    # ------------------------------------------------------------------------------------------
    # prices (§6.5, P2-P5, P20)
    # ------------------------------------------------------------------------------------------
    def unit_price(self, p: int, r: int) -> int:
        """Coins seat ``p`` pays the bank for one unit of resource ``r``: 1 with a Reserve or the
        Customs House (P3), else 2 + the opponent's brown/grey production of it (P2)."""
        if self.fixed[p * NR + r]:
            return 1
        return self.c.setup["trade_base"] + self.prod[(1 - p) * NR + r]

    #: cost vector -> its ``(resource, amount)`` pairs with amount > 0 (filled lazily; there are few distinct costs)
    _NEEDED: dict = {}

    def trade_cost(self, p: int, cost: tuple, reduce: int = 0) -> int:
        """Cheapest coins seat ``p`` pays for trading to cover resource vector ``cost`` (5 ints).

        Own fixed production first; then the one-of producers (Forum, Caravansery, Great Lighthouse,
        Piraeus, P20) take the most expensive units of their family (raw / manufactured), then
        ``reduce`` free units (Masonry, Architecture, P5) the most expensive remaining ones. The two
        families are disjoint, so this is the optimum (P5's method)."""
        # this is the engine's hottest function: unit_price is inlined, only needed resources are visited
        try:
            needed = self._NEEDED[cost]
        except (KeyError, TypeError):   # first time for this cost, or a list
            needed = tuple((r, k) for r, k in enumerate(cost) if k > 0)
            if type(cost) is tuple:
                self._NEEDED[cost] = needed
        prod = self.prod
        fixed = self.fixed
        b = p * NR
        o = NR - b          # the opponent's offset
        base = self.c.setup["trade_base"]
        oneof = self.oneof[p]
        if not oneof and not reduce:    # every missing unit is bought: no need to sort them
            total = 0
            for r, k in needed:
                k -= prod[b + r]
                if k > 0:
                    total += k if fixed[b + r] else k * (base + prod[o + r])
            return total
        raw = []
        man = []
        for r, k in needed:
            k -= prod[b + r]
            if k > 0:
                u = 1 if fixed[b + r] else base + prod[o + r]
                if r < 3:
                    raw += [u] * k
                else:
                    man += [u] * k
        if not raw and not man:
            return 0
        if oneof:
            kr = 0
            for f in oneof:
                if f[0] < 3:
                    kr += 1
            km = len(oneof) - kr
            if kr and raw:
                raw.sort(reverse=True)
                del raw[:kr]
            if km and man:
                man.sort(reverse=True)
                del man[:km]
        units = raw + man
        if reduce and units:
            units.sort(reverse=True)
            del units[:reduce]
        return sum(units)

    def chained(self, p: int, card: int) -> bool:
        """Whether seat ``p`` owns the chain symbol that makes ``card`` free (P6)."""
        cf = self.c.cards[card].chain_from
        return cf >= 0 and bool(self.chains[p] >> cf & 1)

    def card_price(self, p: int, card: int) -> int:
        """Total coins seat ``p`` pays to construct ``card`` now: 0 through a chain, else its coin
        cost plus trading (Masonry: 2 fewer resources for blue cards)."""
        if self.chained(p, card):
            return 0
        cd = self.c.cards[card]
        reduce = 2 if cd.color == BLUE and self.toks[p] >> MASONRY & 1 else 0
        return cd.coins + self.trade_cost(p, cd.cost, reduce)

    def wonder_price(self, p: int, w: int) -> int:
        """Coins seat ``p`` pays (all of it trading) to build wonder ``w`` (Architecture: 2 fewer resources)."""
        reduce = 2 if self.toks[p] >> ARCHITECTURE & 1 else 0
        return self.trade_cost(p, self.c.wonders[w].cost, reduce)

    def discard_value(self, p: int) -> int:
        """Coins for discarding a card: 2 + yellow cards in seat ``p``'s city (P7)."""
        return self.c.setup["discard_base"] + self.ccount[p * NC + YELLOW]

    def _pay_trade(self, p: int, coins: int, trade: int) -> None:
        self.coins[p] -= coins + trade
        if trade and self.toks[1 - p] >> ECONOMY & 1:  # P4: Economy takes the trading coins
            self.coins[1 - p] += trade
            self._event("economy", 1 - p, coins=trade)

    # ------------------------------------------------------------------------------------------
    # the three actions of a turn (§6.4)
    # ------------------------------------------------------------------------------------------
    def _construct(self, p: int, card: int) -> None:
        cd = self.c.cards[card]
        if self.chained(p, card):
            self._event("construct", p, card=card, price=0, trade=0, chain=True)
            self._gain_card(p, card, chained=True)
            return
        reduce = 2 if cd.color == BLUE and self.toks[p] >> MASONRY & 1 else 0
        trade = self.trade_cost(p, cd.cost, reduce)
        self._event("construct", p, card=card, price=cd.coins + trade, trade=trade, chain=False)
        self._pay_trade(p, cd.coins, trade)
        self._gain_card(p, card, chained=False)

    def _discard(self, p: int, card: int) -> None:
        v = self.discard_value(p)
        self.coins[p] += v
        self.discard.append(card)
        self._event("discard", p, card=card, coins=v)

    def _gain_card(self, p: int, card: int, chained: bool, mausoleum: bool = False) -> None:
        """Put ``card`` into seat ``p``'s city and apply its effects (§4, P6, P10, P15, P18, P19)."""
        c = self.c
        cd = c.cards[card]
        rules = c.rules
        self.city[p].append(card)
        cc = self.ccount
        cc[p * NC + cd.color] += 1
        b = p * NR
        for r in range(NR):
            if cd.produces[r]:
                self.prod[b + r] += cd.produces[r]
        if cd.one_of:
            self.oneof[p].append(cd.one_of)
        for r in cd.fixed_price:
            self.fixed[b + r] = True
        if cd.chain_to >= 0:
            self.chains[p] |= 1 << cd.chain_to
        gain = cd.coins_now
        if chained and self.toks[p] >> URBANISM & 1 and (not mausoleum or rules["urbanism_on_mausoleum_chain"]):
            gain += 4
        if cd.coins_per_own:
            colors, k = cd.coins_per_own
            n = sum(cc[p * NC + col] for col in colors)
            if not cd.counts_itself and cd.color in colors:
                n -= 1
            gain += k * n
        if cd.coins_per_wonder:
            gain += cd.coins_per_wonder * self.wonders_built(p)
        if cd.guild_coins:
            gain += cd.guild_coins * max(self._count_colors(q, cd.guild_colors) for q in (0, 1))
        if gain:
            self.coins[p] += gain
            self._event("coins", p, card=card, coins=gain)
        if cd.shields:
            sh = cd.shields
            if cd.color == RED and self.toks[p] >> STRATEGY & 1 and (not mausoleum or rules["strategy_on_mausoleum"]):
                sh += 1
            self._military(p, sh)
            if self.phase == PH_END:
                return
        if cd.science >= 0:
            si = p * NS + cd.science
            self.sci[si] += 1
            if self._science_supremacy(p):
                return
            if self.sci[si] == 2 and self.board:   # P16: a pair takes a token from the board
                self.phase = PH_TOKEN

    def _count_colors(self, q: int, colors) -> int:
        return sum(self.ccount[q * NC + col] for col in colors)

    def wonders_built(self, p: int) -> int:
        """How many wonders seat ``p`` has built."""
        return sum(1 for w in self.wonders[p] if self.wcard[w] >= 0)

    def _build_wonder(self, p: int, w: int, card: int) -> None:
        c = self.c
        wd = c.wonders[w]
        trade = self.wonder_price(p, w)
        self.wcard[w] = card
        self.nbuilt += 1
        self._event("wonder", p, wonder=w, card=card, price=trade)
        self._pay_trade(p, 0, trade)
        if self.nbuilt == c.setup["max_wonders_built"]:   # P8: the last unbuilt wonder leaves the game
            for q in (0, 1):
                for v in self.wonders[q]:
                    if self.wcard[v] == -1:
                        self.wcard[v] = -2
                        self._event("wonder_removed", q, wonder=v)
        if wd.extra_turn or self.toks[p] >> THEOLOGY & 1:   # P9: never doubled
            self.extra = True
        if wd.coins:
            self.coins[p] += wd.coins
            self._event("coins", p, wonder=w, coins=wd.coins)
        if wd.opponent_loses:
            q = 1 - p
            lost = min(wd.opponent_loses, self.coins[q])   # P13
            self.coins[q] -= lost
            self._event("lose_coins", q, wonder=w, coins=lost)
        if wd.one_of:
            self.oneof[p].append(wd.one_of)
        if wd.shields:
            self._military(p, wd.shields)   # Strategy counts red cards only (P15)
            if self.phase == PH_END:
                return
        if wd.destroys >= 0:
            q = 1 - p
            if any(c.cards[x].color == wd.destroys for x in self.city[q]):
                self.dcolor = wd.destroys
                self.phase = PH_DESTROY
            else:
                self._event("no_target", p, wonder=w)
        elif wd.library:
            self.ldraw = self.box[:3]
            del self.box[:3]
            if self.ldraw:
                self.phase = PH_LIBRARY
                self._event("library_draw", p, visible_to=p, tokens=sorted(self.ldraw))
        elif wd.mausoleum:
            if self.discard:
                self.phase = PH_MAUSOLEUM
            else:
                self._event("no_target", p, wonder=w)   # P10: an empty discard pile does nothing

    def _destroy(self, card: int) -> None:
        p = self.player
        q = 1 - p
        cd = self.c.cards[card]
        self.city[q].remove(card)
        self.ccount[q * NC + cd.color] -= 1
        b = q * NR
        for r in range(NR):
            self.prod[b + r] -= cd.produces[r]
        self.discard.append(card)
        self.phase = PH_PLAY
        self.dcolor = -1
        self._event("destroy", p, card=card, owner=q)

    def _choose_token(self, t: int) -> None:
        p = self.player
        if self.phase == PH_LIBRARY:
            self.ldraw.remove(t)
            self.box.extend(self.ldraw)   # P11: the other two go back to the box for good
            self.ldraw = []
            src = "library"
        else:
            self.board.remove(t)
            src = "board"
        self.phase = PH_PLAY
        self.toks[p] |= 1 << t
        self._event("progress", p, token=t, source=src)
        tk = self.c.tokens[t]
        if tk.coins:
            self.coins[p] += tk.coins
        if t == LAW_TOKEN:
            self.sci[p * NS + LAW] += 1
            self._science_supremacy(p)

    # ------------------------------------------------------------------------------------------
    # military (§4.7, P13, P14) and science (P16, P17)
    # ------------------------------------------------------------------------------------------
    def _military(self, p: int, shields: int) -> None:
        cap = self.c.capital
        d = 1 if p == 0 else -1
        old = self.pawn
        new = max(-cap, min(cap, old + d * shields))
        self.pawn = new
        q = 1 - p
        dist = new * d      # distance into q's side
        looted = []
        for k, (at, loot) in enumerate(self.c.military_tokens):
            i = q * 2 + k
            if dist >= at and self.mtok[i]:
                self.mtok[i] = False
                lost = min(loot, self.coins[q])
                self.coins[q] -= lost
                looted.append(lost)
        self._event("military", p, shields=shields, pawn=new, before=old, looted=looted)
        if dist >= cap:
            self._finish(p, MILITARY)

    def science_symbols(self, p: int) -> int:
        """Number of different science symbols seat ``p`` owns (Law's scales count, P17)."""
        b = p * NS
        return sum(1 for k in range(NS) if self.sci[b + k])

    def _science_supremacy(self, p: int) -> bool:
        if self.science_symbols(p) >= 6:
            self._finish(p, SCIENCE)
            return True
        return False

    # ------------------------------------------------------------------------------------------
    # end of a turn, of an age, of the game
    # ------------------------------------------------------------------------------------------
    def _end_turn(self) -> None:
        if self.phase != PH_PLAY:
            return
        self._reveal()
        if self.ntaken == 20:
            if self.extra:
                self._event("extra_turn_lost", self.player)   # P9
            self.extra = False
            if self.age == 3:
                self._finish_civilian()
                return
            self._next_age()
            return
        if self.extra:
            self.extra = False
            self._event("extra_turn", self.player)
        else:
            self.player = 1 - self.player

    def last_chooser(self) -> int:
        """Who chooses the starter of the next age: the seat on whose side the pawn stands; with the
        pawn in the centre, the seat that took the last card (P1, the 2016 erratum)."""
        if self.pawn > 0:
            return 1
        if self.pawn < 0:
            return 0
        return self.last

    def _next_age(self) -> None:
        chooser = self.last_chooser()
        self._start_age(self.age + 1, chooser)
        if self.pawn == 0 and self.game.options["next_age_chooser"] == "first_print":
            self._event("starter", chooser, starter=chooser, age=self.age)   # HU first printing: that seat starts
            return
        self.phase = PH_START
        self.player = chooser

    def _finish(self, winner: int, how: int) -> None:
        self.winner = winner
        self.victory = how
        self.phase = PH_END
        self.extra = False
        self._event("game_end", winner, victory=VICTORY_NAMES[how], scores=self.scores())

    def _finish_civilian(self) -> None:
        """End of Age III (§6.7): most VP; tie: most blue VP; still tied: a shared victory (P22)."""
        bd = [self.score_breakdown(p) for p in (0, 1)]
        s = [sum(b.values()) for b in bd]
        blue = [b["blue"] for b in bd]
        if s[0] != s[1]:
            self._finish(0 if s[0] > s[1] else 1, CIVILIAN)
        elif blue[0] != blue[1]:
            self._finish(0 if blue[0] > blue[1] else 1, CIVILIAN)
        else:
            self._finish(-1, SHARED)

    # ------------------------------------------------------------------------------------------
    # draft and starter decisions
    # ------------------------------------------------------------------------------------------
    def _draft(self, w: int) -> None:
        p = self.player
        self.dpool.remove(w)
        self.wonders[p].append(w)
        self._event("draft", p, wonder=w)
        self.dpick += 1
        rnd = self.nrevealed // 4 - 1
        if self.dpick < 4:
            self.player = self.first ^ self.c.draft_order[rnd][self.dpick]
            return
        if self.nrevealed < 8:
            self._draft_reveal()
            return
        self.dpool = []
        self._start_age(1, self.first)

    # ------------------------------------------------------------------------------------------
    # scoring (§7, P18, P25: computed from scratch)
    # ------------------------------------------------------------------------------------------
    def military_vp(self, p: int) -> int:
        """VP from the conflict track for seat ``p`` (§4.7)."""
        dist = self.pawn if p == 0 else -self.pawn
        if dist <= 0 or dist >= self.c.capital:
            return 0
        return self.c.conflict_vp[dist]

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """VP by category (``CATEGORIES``); the values sum to ``scores()[seat]``."""
        c = self.c
        cards = c.cards
        p = seat
        q = 1 - p
        blue = green = yellow = purple = 0
        for x in self.city[p]:
            cd = cards[x]
            col = cd.color
            if col == BLUE:
                blue += cd.vp
            elif col == GREEN:
                green += cd.vp
            elif col == YELLOW:
                yellow += cd.vp
            elif col == PURPLE:
                if cd.guild_vp:
                    purple += cd.guild_vp * max(self._count_colors(r, cd.guild_colors) for r in (p, q))
                elif cd.guild_wonder_vp:
                    purple += cd.guild_wonder_vp * max(self.wonders_built(p), self.wonders_built(q))
                elif cd.guild_coin_vp:
                    purple += cd.guild_coin_vp * (max(self.coins[p], self.coins[q]) // 3)
        wonders = sum(c.wonders[w].vp for w in self.wonders[p] if self.wcard[w] >= 0)
        tk = self.toks[p]
        progress = 0
        if tk >> AGRICULTURE & 1:
            progress += c.tokens[AGRICULTURE].vp
        if tk >> PHILOSOPHY & 1:
            progress += c.tokens[PHILOSOPHY].vp
        if tk >> MATHEMATICS & 1:
            progress += 3 * bin(tk).count("1")
        return {"military": self.military_vp(p), "blue": blue, "green": green, "yellow": yellow, "purple": purple,
                "wonders": wonders, "progress": progress, "coins": self.coins[p] // c.setup["coins_per_vp"]}

    def scores(self) -> list[int]:
        """Victory points of each seat as they stand (final at the end)."""
        return [sum(self.score_breakdown(p).values()) for p in (0, 1)]

    def ranking(self) -> list[int]:
        """The winner first; with a shared victory, seat order."""
        if self.winner == 1:
            return [1, 0]
        if self.winner == 0:
            return [0, 1]
        s = self.scores()
        return [1, 0] if s[1] > s[0] else [0, 1]

    def returns(self) -> list[float]:
        """1 for the winner, 0 for the loser, 0.5 each for a shared victory; all 0 before the end."""
        if self.phase != PH_END:
            return [0.0, 0.0]
        if self.winner < 0:
            return [0.5, 0.5]
        return [1.0 if p == self.winner else 0.0 for p in (0, 1)]

    def outcome(self) -> str | None:
        """The victory type at the end (``VICTORY_NAMES``: civilian, military, science, shared); ``None`` before."""
        return VICTORY_NAMES[self.victory] if self.phase == PH_END else None

    # ------------------------------------------------------------------------------------------
    # information (P24)
    # ------------------------------------------------------------------------------------------
    def resample(self, seat: int, rng) -> "DuelState":
        """A copy with everything ``seat`` has not seen redrawn consistently (P24): the face-down
        cards of the current age (guild backs stay guilds), the cards removed from each age, the
        ages still to come, the wonders not yet revealed, the progress tokens in the box and, for the
        opponent of a Great Library builder, the 3 tokens drawn."""
        s = self.clone()
        c = self.c
        cards = c.cards
        deals = [d[:] for d in s.deals]
        removed = [r[:] for r in s.removed]
        gbox = s.gbox[:]
        for age in (1, 2, 3):
            if age < s.age:
                continue
            if age > s.age:      # not dealt yet: redeal the whole age
                deck = list(c.age_cards[age])
                rng.shuffle(deck)
                k = len(removed[age])
                removed[age] = sorted(deck[:k])
                deck = deck[k:]
                if age == 3:
                    guilds = list(c.guilds)
                    rng.shuffle(guilds)
                    ng = len(c.guilds) - len(gbox)
                    deck += guilds[:ng]
                    gbox = sorted(guilds[ng:])
                    rng.shuffle(deck)
                deals[age] = deck
                continue
            hidden = [i for i in range(20) if s.slot[i] >= 0 and not s.up[i]]
            normal = [i for i in hidden if not cards[s.slot[i]].guild]
            gslots = [i for i in hidden if cards[s.slot[i]].guild]
            pool = [s.slot[i] for i in normal] + removed[age]
            rng.shuffle(pool)
            for i in normal:
                s.slot[i] = pool.pop()
            removed[age] = sorted(pool)
            if gslots:
                gpool = [s.slot[i] for i in gslots] + gbox
                rng.shuffle(gpool)
                for i in gslots:
                    s.slot[i] = gpool.pop()
                gbox = sorted(gpool)
            # the deal of the current age: taken slots are history, present slots hold the redrawn cards
            deals[age] = [d if x < 0 else x for x, d in zip(s.slot, deals[age])]
        s.deals, s.removed, s.gbox = deals, removed, gbox
        if s.nrevealed < len(s.worder):
            rest = s.worder[s.nrevealed:]
            rng.shuffle(rest)
            s.worder = s.worder[:s.nrevealed] + rest
        if s.phase == PH_LIBRARY and s.player != seat:
            pool = s.ldraw + s.box
            rng.shuffle(pool)
            s.ldraw = sorted(pool[:len(s.ldraw)])
            s.box = pool[len(s.ldraw):]
        elif s.box:
            rng.shuffle(s.box)
        lib = next(w for w, wd in enumerate(c.wonders) if wd.library)
        built_by_other = s.wcard[lib] >= 0 and lib not in s.wonders[seat]
        for i, e in enumerate(s.log if built_by_other else ()):   # the builder's private draw, redrawn too (P24)
            if e.kind == "duel.library_draw" and not e.visible(seat):
                if s.phase == PH_LIBRARY:
                    drawn = s.ldraw[:]
                else:   # resolved: the kept token (public) and two of the boxed ones
                    drawn = [x.data["token"] for x in s.log[i:]
                             if x.kind == "duel.progress" and x.data["source"] == "library"][:1]
                    drawn += s.box[:len(e.data["tokens"]) - len(drawn)]
                s.log[i] = Event(e.kind, e.player, dict(e.data, tokens=sorted(drawn)), e.visible_to)
        s._legal = None
        return s

    def observation(self, seat: int | None) -> dict:
        from .observation import observation
        return observation(self, seat)

    def action_to_string(self, action) -> str:
        from .render import describe_action
        return describe_action(self, self._as_action(action))

    def _event(self, kind: str, player, visible_to=None, **data) -> None:
        self.log.append(Event("duel." + kind, player, data, visible_to))


__all__ = ["DuelState", "PH_DRAFT", "PH_PLAY", "PH_TOKEN", "PH_LIBRARY", "PH_DESTROY", "PH_MAUSOLEUM", "PH_START",
           "PH_END", "CATEGORIES", "VICTORY_NAMES", "BROWN", "GREY"]
