"""7 Wonders Duel: the card structure of an age — dealing it, which cards are accessible, taking a
card and turning uncovered cards face up.

Rules: HU "Az elrendezés kialakítása" and "Egy játékos köre" (a card is accessible when no other
card covers it, even partly; after the action, newly accessible face-down cards are turned up);
ref §5 (the three layouts, 12 cards face up and 8 face down) and P23 (the reveal comes after the
action has fully resolved, pending choices included, and before the next turn or extra turn).

The structure is ``state.structure`` (per slot the card, or -1 once taken) and ``state.face_up``;
``Components.structures[age]`` gives the layout (which slots cover which).
"""

from __future__ import annotations

from .constants import PLAY


def start_age(s, age: int, starter: int) -> None:
    """Deal ``age``'s structure from its deck (ref §5) and let ``starter`` play first."""
    st = s.c.structures[age]
    decks = s.age_decks
    s.age = age
    s.structure = list(decks[age])
    s.age_decks = decks[:age] + ((),) + decks[age + 1:]   # the deck is on the table now
    s.face_up = list(st.face_up)
    s.cards_taken = 0
    s.step = PLAY
    s.player = starter
    s.extra_turn = False
    cards = s.c.cards
    s.event("age", None, age=age, cards=[x if u else -1 for x, u in zip(s.structure, s.face_up)],
             guild_backs=[i for i, x in enumerate(s.structure) if cards[x].guild])


def accessible_slots(s) -> list[int]:
    """Slots of the current age's structure whose card is present, face up and covered by no card
    (HU "Hozzáférhető kártyának azt nevezzük, amit másik kártya nem takar el"; a card just uncovered is
    turned face up only once the action has resolved, P23). Ascending; ``[]`` during the draft."""
    if not s.age:
        return []
    structure = s.structure
    up = s.face_up
    out = []
    for i, cov in enumerate(s.c.structures[s.age].covered_by):
        if structure[i] >= 0 and up[i]:
            for t in cov:
                if structure[t] >= 0:
                    break
            else:
                out.append(i)
    return out


def accessible_cards(s) -> list[int]:
    """The cards that can be taken now, in slot order (an accessible card is always face up, ref §5)."""
    structure = s.structure
    return [structure[i] for i in accessible_slots(s)]


def take(s, card: int) -> None:
    """Take ``card`` (accessible, checked by the caller) out of the structure for the player to move."""
    structure = s.structure
    structure[structure.index(card)] = -1
    s.cards_taken += 1
    s.last_taker = s.player


def reveal(s) -> None:
    """Turn face up every face-down card no card covers any more (HU turn section, P23)."""
    structure = s.structure
    up = s.face_up
    covered_by = s.c.structures[s.age].covered_by
    for i in s.c.structures[s.age].face_down:
        if not up[i] and structure[i] >= 0:
            for t in covered_by[i]:
                if structure[t] >= 0:
                    break
            else:
                up[i] = True
                s.event("reveal", None, slot=i, card=structure[i])


__all__ = ["start_age", "accessible_slots", "accessible_cards", "take", "reveal"]
