"""7 Wonders Duel: the state — its fields, declared once, and the dispatch of its decisions.

Rules: ``shared/rulebooks/seven_wonders_duel.hu.txt`` (HU, cited by section title) and
``shared/reference/seven_wonders_duel.md`` (cited as §N and pitfall PN). Values no source confirms
come from ``data/board.yaml`` ``rules``. Each part of the game has its module, named as in the
rulebook:

- ``setup.py`` — the setup from the seed (§6.1-§6.3);
- ``draft.py`` — the wonder draft (§6.2), the phase before Age I;
- ``structure.py`` — an age's card structure: dealing, accessibility, reveals (§5, P23);
- ``turn.py`` — a turn's three actions: construct, discard, build a wonder (§6.4);
- ``effects.py`` — what cards and wonders do, the Statue of Zeus / Circus Maximus and Mausoleum
  decisions (§4, §4.8);
- ``prices.py`` — trading, card and wonder prices, the discard value (§6.5, P2-P7, P20);
- ``military.py`` — the conflict track (§4.7, P13, P14);
- ``science.py`` — science symbols, progress tokens, the Great Library (§4.5, §4.6, P11, P16, P17);
- ``ages.py`` — the end of a turn and of an age, who starts the next one (§6.6, P1, P9, P23);
- ``scoring.py`` — victory points, the end of the game (§6.7, §7, P18, P22);
- ``observation.py`` — what a seat sees, and ``resample`` (P24);
- ``position.py`` — positions as text (``POSITION.md``).

The turn structure runs on ``citygames.core.phases``: ``RULES`` lists the decisions (steps, see
``constants.py``) with their legal actions and handlers, and the phases — the wonder draft and the
three ages (``state.phase`` is ``state.age``) — whose automatic work runs when no decision is
pending: the draft's next reveal, and in an age the end of a turn (``ages.end_of_turn``).

The state is flat: per-seat values are lists indexed ``seat * width + i``; data that changes rarely
is held in tuples (``Frozen``) that clones share and the engine replaces whole. Seats are 0 (North)
and 1 (South).
"""

from __future__ import annotations

from citygames.core.flat import Derived, FlatState, Frozen, List, Lists, Value
from citygames.core.game import TERMINAL
from citygames.core.phases import Phase, PhaseMachine, Step

from . import ages, draft, effects, prices, science, scoring, structure, turn
from .constants import CHOOSE_STARTER, DECISIONS, DESTROY, DRAFT, LIBRARY, MAUSOLEUM, PLAY, STEP_KEYS, TOKEN
from .observation import information_state_key as _information_state_key
from .observation import observation as _observation
from .observation import resample as _resample
from .render import describe_action
from .setup import set_up
from .tensor import observation_tensor as _observation_tensor


def _step(key: str, index: int, legal, handlers: dict, why=None) -> Step:
    assert STEP_KEYS[index] == key
    return Step(DECISIONS[index], legal, handlers, why, key=key)


_STEPS = [None] * len(STEP_KEYS)
_STEPS[DRAFT] = _step("draft", DRAFT, draft.legal, {"draft": draft.take}, draft.why)
_STEPS[PLAY] = _step("play", PLAY, turn.play_legal,
                     {"construct": turn.construct, "discard": turn.discard, "wonder": turn.wonder}, turn.play_why)
_STEPS[TOKEN] = _step("progress_token", TOKEN, science.token_legal,
                      {"progress": science.take_board_token, "decline_token": science.decline_token},
                      science.token_why)
_STEPS[LIBRARY] = _step("library", LIBRARY, science.library_legal, {"progress": science.keep_library_token},
                        science.library_why)
_STEPS[DESTROY] = _step("destroy", DESTROY, effects.destroy_legal, {"destroy": effects.destroy}, effects.destroy_why)
_STEPS[MAUSOLEUM] = _step("mausoleum", MAUSOLEUM, effects.mausoleum_legal, {"mausoleum": effects.mausoleum},
                          effects.mausoleum_why)
_STEPS[CHOOSE_STARTER] = _step("choose_starter", CHOOSE_STARTER, ages.starter_legal, {"start": ages.choose_starter})

#: the decisions (indexed by ``state.step``) and the phases (indexed by ``state.phase``, i.e. the age)
class _DuelRules(PhaseMachine):
    """The phase machine, whose refusal of a progress token outside a science pair names the rule
    instead of the decision expected (issue 15, "why can't I do this?")."""

    def why_illegal(self, state, action) -> str:
        """As ``PhaseMachine.why_illegal``; a progress token asked for while no pair of science
        symbols is pending (a card turn): ``science.token_not_now``."""
        if action.kind == "progress" and state.step == PLAY:
            return science.token_not_now(state, action)
        return super().why_illegal(state, action)


RULES = _DuelRules(_STEPS, [Phase("wonder draft", draft.run, key="draft"),
                              Phase("Age I", ages.end_of_turn, key="age_1"),
                              Phase("Age II", ages.end_of_turn, key="age_2"),
                              Phase("Age III", ages.end_of_turn, key="age_3")])


class DuelState(FlatState):
    """One game of 7 Wonders Duel. Create with ``game.new_initial_state(seed)`` or
    ``game.state_from_position(text)``.

    See ``citygames.core.game.State`` for the contract. Public helpers for user interfaces, bots and
    tests (each documented where it is defined, with its rule): ``accessible_slots()``,
    ``accessible_cards()``, ``unit_price(p, r)``, ``trade_cost(p, cost)``, ``chained(p, card)``,
    ``card_price(p, card)``, ``wonder_price(p, w)``, ``discard_value(p)``, ``military_vp(p)``,
    ``science_symbols(p)``, ``wonders_built(p)``, ``last_chooser()``, ``score_breakdown(p)``.
    """

    FIELDS = {
        "c": Derived(lambda game: game.components, "the compiled components (shared, immutable)"),
        "first_player": Value("the seat that drafts first and starts Age I (0 North, 1 South)"),
        "step": Value("the pending decision: an index of RULES.steps (constants DRAFT .. CHOOSE_STARTER); "
                      "NO_DECISION (0) while automatic work runs and at the end"),
        "age": Value("the current age, 1-3; 0 during the wonder draft. It is also the phase (RULES.phases: "
                     "the draft, Age I, Age II, Age III)"),
        "unrevealed_wonders": Frozen("the wonders not revealed yet, in the order the draft reveals them (4 per "
                                     "round); after the draft, the 4 unused wonders, never seen"),
        "draft_pool": Frozen("the revealed wonders not taken yet in this draft round; empty after the draft"),
        "wonders": Frozen("per seat, the wonders it holds (indices), in the order taken"),
        "wonder_card": Frozen("per wonder (index), the card tucked under it once built; -1 not built, "
                              "-2 out of the game (the 7th wonder was built, P8)"),
        "total_wonders_built": Value("wonders built by both seats together, 0-7 (P8)"),
        "age_decks": Frozen("per age (index 1-3; index 0 unused), the 20 cards its structure will be dealt, "
                            "in slot order; emptied when the age begins (its cards are then in structure)"),
        "removed_cards": Frozen("per age (index 1-3; index 0 unused), the cards removed unseen at setup "
                                "(3 in a dealt game, sorted; never part of the discard pile)"),
        "guild_box": Frozen("the guilds not shuffled into Age III (4, sorted), never seen"),
        "structure": List("the current age's structure: per slot (0-19, row by row from row 1, the row reached "
                          "last), the card there, or -1 once taken; all -1 during the draft"),
        "face_up": List("per slot, whether its card is face up (a taken slot stays face up: only accessible "
                        "cards are taken)"),
        "cards_taken": Value("cards taken from the current structure, 0-20"),
        "coins": List("per seat, its coins (>= 0)"),
        "city": Lists("per seat, the cards it has constructed, in build order (not the tucked ones)", length=2),
        "color_count": List("per seat and colour, the cards of that colour in its city: "
                            "color_count[seat * NC + colour]"),
        "production": List("per seat and resource, the units its brown and grey cards produce: "
                           "production[seat * NR + resource]"),
        "one_of": Frozen("per seat, the choices of its one-of producers in the order gained (Forum, Caravansery, "
                         "Great Lighthouse, Piraeus): tuples of resources"),
        "fixed_price": Frozen("per seat and resource, whether the seat buys it at 1 coin (Reserves, Customs "
                              "House, P3): fixed_price[seat * NR + resource]"),
        "chains": List("per seat, the chain symbols it owns: bit k = Components.chain_symbols[k]"),
        "science": List("per seat and science symbol, how many it owns: science[seat * NS + symbol] "
                        "(symbol 6: Law's scales)"),
        "progress_tokens": Frozen("per seat, the progress tokens it owns: bit t = token t"),
        "progress_board": Frozen("the progress tokens on the board (indices)"),
        "progress_box": Frozen("the progress tokens in the box, in the order the Great Library draws them"),
        "library_draw": Frozen("the tokens the Great Library drew, while its builder chooses one; else empty"),
        "pawn": Value("the conflict pawn, -9..9: positive = that many spaces toward seat 1's capital"),
        "military_tokens": Frozen("whether each military token is still on the track: seat 0's side (2-coin, "
                                  "5-coin), then seat 1's side"),
        "discard_pile": List("the discard pile, in the order the cards were put there"),
        "extra_turn": Value("whether the seat to move plays again once its pending choice is made (a wonder's "
                            "'play again', P9); never set during the play decision"),
        "last_taker": Value("the seat that took the last card taken from a structure; -1 before the first"),
        "winner": Value("the winning seat at the end; -1 before the end and for a shared victory"),
        "victory": Value("the victory type at the end (index of VICTORY_NAMES); -1 before the end"),
        "destroy_color": Value("during the destroy decision, the colour of the opponent's card to destroy "
                               "(Statue of Zeus: brown, Circus Maximus: grey); -1 otherwise"),
    }
    RULES = RULES
    EVENT_PREFIX = "duel."

    @property
    def phase(self) -> int:
        """The phase (index of ``RULES.phases``): the age, 0 for the wonder draft."""
        return self.age

    @classmethod
    def new(cls, game, seed: int) -> "DuelState":
        """A new game set up from ``seed`` (§6); the first wonder pick (or Age I) is pending."""
        s = cls.blank(game, seed)
        set_up(s, game, seed)
        RULES.advance(s)
        return s

    # --- the contract ----------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.victory >= 0 else self.player

    def is_terminal(self) -> bool:
        return self.victory >= 0

    observation = _observation
    information_state_key = _information_state_key
    resample = _resample
    # the tensor (also the game's part), bound here to spare a part lookup at every step
    observation_tensor = _observation_tensor

    def action_to_string(self, action) -> str:
        return describe_action(self, self._as_action(action))

    # --- public helpers (the functions of the rule modules, as methods) ------------------------------
    accessible_slots = structure.accessible_slots
    accessible_cards = structure.accessible_cards
    unit_price = prices.unit_price
    trade_cost = prices.trade_cost
    chained = prices.chained
    card_price = prices.card_price
    wonder_price = prices.wonder_price
    discard_value = prices.discard_value
    science_symbols = science.science_symbols
    last_chooser = ages.last_chooser
    military_vp = scoring.military_vp
    wonders_built = scoring.wonders_built
    score_breakdown = scoring.score_breakdown
    scores = scoring.scores
    ranking = scoring.ranking
    returns = scoring.returns
    outcome = scoring.outcome


__all__ = ["DuelState", "RULES"]
