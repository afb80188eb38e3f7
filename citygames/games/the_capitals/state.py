"""The Capitals: the state's fields, declared once, and the step dispatch.

Rules: ``shared/rulebooks/the_capitals.hu.txt`` (HU), ``the_capitals.it_en.txt`` (IT) and the
reference sheet ``shared/reference/the_capitals.md`` (cited as §N). Every value that no source
confirms comes from ``data/*.yaml`` (see ``components.py``).

The rules live in one module per phase, named as in the rulebook: ``setup``, ``politics``,
``building``, ``tourism``, ``executive``, ``administration``, ``prosperity`` (the expansion),
``expo`` (World Expo), ``end`` (before the last Expo, final payment, end-game effects) and
``scoring``; ``tracks`` moves the markers and ``power_plants`` settles upgrades. ``RULES`` below
maps each decision step and phase to them (``citygames.core.phases``).

The state is flat: per-seat track values live in one list (``NT`` ints per seat), a city is a dict
``slot -> tile index`` on a square grid (``slot = y * grid + x``), and the decision in progress is a
few ints (``phase``, ``step``, ``player`` and what the decision is about).
"""

from __future__ import annotations

from citygames.core.flat import Derived, FlatState, IntDicts, List, Lists, Lists2, Value
from citygames.core.game import TERMINAL
from citygames.core.phases import Phase, PhaseMachine, Step

from . import (administration, building, end, executive, expo, observation, politics, power_plants, prosperity,
               scoring, tourism)
from .components import NT, TRACK_NAMES
from .steps import (P_ADMIN, P_BUILDING, P_END, P_EXECUTIVE, P_EXPO, P_FINAL, P_POLITICS, P_PRE_EXPO,
                    P_PROSPERITY, P_TOURISM, PHASE_NAMES, S_ACTIVATE, S_EFFECT, S_FREE, S_LAKE, S_PAY,
                    S_PLACE, S_POLITICS, S_PROSPERITY, S_REWARD, S_TAKE, S_TOKEN, S_UPGRADE, STEP_KEYS,
                    STEP_NAMES)
from .render import describe_action
from .tracks import CATEGORIES, CATEGORY_KEYS, NCAT

__all__ = ["CapitalsState", "CATEGORIES", "CATEGORY_KEYS", "NCAT", "PHASE_NAMES", "STEP_NAMES"]


def _steps() -> list:
    steps: list = [None] * len(STEP_NAMES)

    def step(index, legal, handlers, why=None):
        steps[index] = Step(STEP_NAMES[index], legal, handlers, why, key=STEP_KEYS[index])

    step(S_POLITICS, politics.legal, {"initiative": politics.choose_space}, politics.why)
    step(S_TAKE, building.legal_take, {"take": building.take}, building.why_take)
    step(S_PLACE, building.legal_place, {"place": building.place}, building.why_place)
    step(S_UPGRADE, power_plants.legal, {"upgrade": power_plants.upgrade, "decline": power_plants.decline})
    step(S_ACTIVATE, executive.legal_activate,
         {"activate": executive.activate, "end_activations": executive.end_activations}, executive.why_activate)
    step(S_PAY, executive.legal_pay, {"tourist": executive.use_tourist, "pay_cubes": executive.pay_cubes},
         executive.why_pay)
    step(S_FREE, executive.legal_free, {"free_activate": executive.free_activate, "decline": executive.decline_free},
         executive.why_free)
    step(S_TOKEN, administration.legal_token,
         {"move_token": administration.move_token, "decline": administration.keep_token}, administration.why_token)
    step(S_PROSPERITY, prosperity.legal_build, {"prosperity": prosperity.build_tile, "lake": prosperity.reveal_lake},
         prosperity.why_build)
    step(S_LAKE, prosperity.legal_lake, {"place_lake": prosperity.place_lake}, prosperity.why_lake)
    step(S_REWARD, executive.legal_reward, {"no_activation_reward": executive.choose_reward})
    step(S_EFFECT, end.legal_effect, {"resolve_effect": end.choose_effect}, end.why_effect)
    return steps


def _phases() -> list:
    phases: list = [None] * len(PHASE_NAMES)
    runs = {P_POLITICS: politics.run, P_BUILDING: building.run, P_TOURISM: tourism.run, P_EXECUTIVE: executive.run,
            P_ADMIN: administration.run, P_PROSPERITY: prosperity.run, P_PRE_EXPO: end.run_before_last_expo,
            P_EXPO: expo.run, P_FINAL: end.run_final_scoring, P_END: lambda s: None}
    for index, run in runs.items():
        phases[index] = Phase(PHASE_NAMES[index], run)
    return phases


class CapitalsState(FlatState):
    """One game of The Capitals (2-5 players, the Prosperity expansion as an option). Create with
    ``game.new_initial_state(seed)`` or ``game.state_from_position(text)``.

    See ``citygames.core.game.State`` for the contract. Seats are 0..n-1 with the colours of
    ``data/board.yaml``; ``current_player()`` is the seat whose decision is pending. Fields (``FIELDS``)
    are public to read; only the rule modules change them.
    """

    FIELDS = {
        "c": Derived(lambda game: game.components, "the compiled components (shared, immutable)"),
        "n": Derived(lambda game: game.num_players, "the number of players"),
        "tracks": List("per seat, NT track values: tracks[seat * NT + k] for k in MONEY ($), CULTURE, EMP "
                       "(employment), POP (population), PS (public service), PROG (progress spaces moved in all; "
                       "the position on the loop is PROG % loop), PRESTIGE, CUBES (on the power plant), LEVEL "
                       "(plant level)"),
        "score_sheet": List("per seat, prestige by score-sheet category: score_sheet[seat * NCAT + category]"),
        "plant": List("per seat, the index of its power plant in components.plants"),
        "city": IntDicts("per seat, {slot: tile index} (slot = y * grid + x; the Hotel is at game.origin)"),
        "cubes_on": IntDicts("per seat, {slot: energy cubes on that tile} (cleared after each World Expo)"),
        "tokens": Lists("per seat, the corners of its two construction tokens ((grid + 1) x (grid + 1) corners)"),
        "type_count": List("per seat and tile type, tiles in the city: type_count[seat * NTYPES + type]"),
        "tourist_host": List("per tourist (seat colours, then the 2-player neutral tourist at index n), the seat "
                             "whose city hosts it; -1 beside the board"),
        "tourist_slot": List("per tourist, the slot it stands on in its host's city; -1 beside the city"),
        "tourist_used": List("per tourist, whether it paid an activation this executive phase"),
        "initiative": List("per seat, its initiative space (0-based, left to right)"),
        "chosen_space": List("per seat, the space chosen in this politics phase; -1 not yet"),
        "order": List("the seats in initiative order: the turn order of the round"),
        "projects": Lists("the projects area: the $0, $2 and $4 rows (tile indices)"),
        "decks": Lists("per era (index 1-3; 0 unused), its unseen draw pile, drawn from the end"),
        "removed": Lists("per era, the tiles removed unseen at setup (2-player variant)"),
        "plants_taken": List("per plant level, how many plants of that level have left the supply"),
        "highest_culture": Value("the seat holding the Highest Culture token; -1 before the first tourism phase"),
        "round": Value("the round, 1-12"),
        "phase": Value("the current phase (steps.P_*)"),
        "step": Value("the pending decision (steps.S_*); S_NONE while automatic work is pending"),
        "turn": Value("in the current phase, the index in ``order`` of the seat whose turn it is"),
        "pending_tile": Value("the tile taken and not yet built (or the prosperity tile being built or revealed "
                              "as a Lake); -1 none"),
        "pending_slot": Value("the tile being paid for (pay step) or the tile giving a free activation (free "
                              "step); -1 none"),
        "cubes_due": Value("cubes still to pay for the activation in progress; -1 none"),
        "activations_left": Value("activations the seat to move may still make this executive phase"),
        "activations_made": Value("activations the seat to move made this executive phase"),
        "executive_started": Value("whether the executive turn of the seat at ``turn`` has begun"),
        "token_index": Value("administration: the construction token (0 or 1) whose move is considered"),
        "upgrades_due": List("per seat, power-plant upgrades owed"),
        "expo_scored": Value("whether this round's World Expo has been scored"),
        "neutral_culture": Value("2-player variant: the neutral marker's culture; -1 otherwise"),
        "prosperity": Value("whether the Prosperity expansion is played"),
        "hands": Lists("per seat, its hidden prosperity tiles (sorted tile indices)"),
        "prosperity_box": List("prosperity tiles not dealt (unseen)"),
        "lakes": Lists2("per seat, [slot, prosperity tile revealed] of each Lake"),
        "prosperity_started": Value("prosperity phase: whether the build of the seat at ``turn`` has begun"),
        "extra_build_due": Value("whether a Financial District's extra build is owed"),
        "pending_effects": List("end of the game: slots of the seat's effects still to resolve this stage"),
        "effects_gathered": Value("end of the game: whether ``pending_effects`` holds the seat at ``turn``"),
    }

    RULES = PhaseMachine(_steps(), _phases(), interrupt=power_plants.settle_owed, end_phase=P_END)
    EVENT_PREFIX = "capitals."

    @classmethod
    def new(cls, game, seed: int) -> "CapitalsState":
        """A new game set up from ``seed`` (``setup.py``), its first decision pending."""
        from .setup import setup
        s = cls.blank(game, seed)
        setup(s, game, seed)
        cls.RULES.advance(s)
        return s

    # --- the contract ---------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == P_END else self.player

    def is_terminal(self) -> bool:
        return self.phase == P_END

    scores = scoring.scores
    ranking = scoring.ranking
    returns = scoring.returns
    score_breakdown = scoring.breakdown
    information_state_key = observation.information_state_key   # (before the name is rebound below)
    observation = observation.observation

    def action_to_string(self, action) -> str:
        return describe_action(self, self._as_action(action))

    def resample(self, seat: int, rng) -> "CapitalsState":
        """A copy with the unseen parts redrawn consistently with what ``seat`` saw: the order of
        every era deck and, with 2 players, which tile of each type was removed unseen from each era
        (uniform among the unseen tiles of that type), and with Prosperity the other seats' hands and
        the undealt tiles (one unseen pool, reference §7.1)."""
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
        if s.prosperity:
            pool = s.prosperity_box[:]
            for q in range(s.n):
                if q != seat:
                    pool.extend(s.hands[q])
            rng.shuffle(pool)
            for q in range(s.n):
                if q != seat:
                    k = len(s.hands[q])
                    s.hands[q] = sorted(pool[:k])
                    del pool[:k]
            s.prosperity_box = pool
        s._legal = None
        return s

    # --- what user interfaces, bots and tests ask ---------------------------------------------------
    def track(self, p: int, name: str) -> int:
        """Seat ``p``'s value on a track by name (``"money"``, ``"culture"``, ``"cubes"``, ...)."""
        return self.tracks[p * NT + TRACK_NAMES.index(name)]

    def expects(self) -> str:
        """The pending decision in words, e.g. ``"politics: now Red must choose an initiative space"``."""
        return self.RULES.expects(self)

    # the rule modules' functions, as methods (each documented where it is defined, with its rule)
    politics_cost = politics.cost
    row_of = building.row_of
    broken_rules = building.broken_rules
    activation_cost = executive.activation_cost
    free_targets = executive.free_targets
    requirement_status = prosperity.requirement_status
    culture_ranking = tourism.culture_ranking
    public_service_ranking = expo.public_service_ranking
    attraction_range = tourism.attraction_range
    tourist_color = tourism.tourist_color
    tourist_index = tourism.tourist_index
    next_plant = power_plants.next_plant
    final_payment = end.final_payment
