"""The Capitals, phase 5: administration (HU "Adminisztálás fázis", IT "Fase Amministrativa", reference §8 Phase 5).

1. A construction token whose four slots are all built may move to any free corner on the city's
   perimeter (HU "Építésjelzők"); the player may leave it where it is.
2. The projects rows shift: $0 -> $2 -> $4 -> out of the game.
3. The $0 row is refilled from the current era's deck until the projects area holds 2 + players
   tiles of the current era; older tiles do not count (HU "Hány lapkát kell felcsapni?"). At an era
   change the old deck is discarded. Variant (option ``refill_variant``): the $0 row alone is filled.
4. Prosperity (marked rounds): each city builds a prosperity tile or a Lake (``prosperity.py``);
   World Expo rounds: the Expo (``expo.py``); otherwise the next round's politics.
With 2 players the neutral culture marker advances at the start of the phase (HU, IT).
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION

from .components import CULTURE
from .steps import P_ADMIN, P_EXPO, P_POLITICS, P_PROSPERITY, S_TOKEN


def begin(s) -> None:
    """Enter the administration phase (the 2-player neutral marker advances first)."""
    s.phase = P_ADMIN
    s.turn = 0
    s.token_index = 0
    if s.neutral_culture >= 0:
        s.neutral_culture = min(s.neutral_culture + s.c.neutral_advance, s.c.track_max[CULTURE])
        s.event("neutral", None, culture=s.neutral_culture)


def token_surrounded(s, p: int, k: int) -> bool:
    """Whether seat ``p``'s construction token ``k`` (0 or 1) has all four slots around it built."""
    city = s.city[p]
    return all(slot in city for slot in s.game.isect_slots[s.tokens[p][k]])


def token_destinations(s, p: int) -> set:
    """Free corners on seat ``p``'s city perimeter: at least one built and one empty slot around."""
    city = s.city[p]
    g = s.game
    isect = g.isect_slots
    corners = g.slot_corners
    out = set()
    for slot in city:
        for i in corners[slot]:
            if i not in out and any(q not in city for q in isect[i]):
                out.add(i)
    out.difference_update(s.tokens[p])
    return out


def legal_token(s) -> list:
    """The free perimeter corners, or leave the token."""
    g = s.game
    table = g.action_space.table
    off = g.off["move_token"]
    out = [table[off + i] for i in sorted(token_destinations(s, s.player))]
    out.append(table[g.off["decline"]])
    return out


def why_token(s, a) -> str:
    return "administration: a construction token moves only to a free corner on the city's perimeter"


def move_token(s, corner: int) -> None:
    """Step handler: the surrounded token ``s.token_index`` moves to ``corner``."""
    p = s.player
    k = s.token_index
    old = s.tokens[p][k]
    s.tokens[p][k] = corner
    s.event("token", p, frm=old, to=corner)
    s.token_index += 1
    s.step = NO_DECISION


def keep_token(s, arg: int) -> None:
    """Step handler: the token stays where it is."""
    s.token_index += 1
    s.step = NO_DECISION


def shift_projects(s) -> None:
    """Shift the rows $0 -> $2 -> $4 -> out of the game, then refill for the next round's era."""
    c = s.c
    rows = s.projects
    discarded = [c.tiles[x].id for x in rows[2]]
    s.projects = [[], rows[0], rows[1]]
    era, next_era = c.era_of_round[s.round], c.era_of_round[s.round + 1]
    if next_era != era:
        s.decks[era] = []
    s.event("admin", None, discarded=discarded)
    refill(s, next_era)


def refill(s, era: int) -> None:
    """Draw ``era`` tiles onto the $0 row until the area holds 2 + players tiles of that era
    (older-era tiles do not count, HU "Hány lapkát kell felcsapni?")."""
    c = s.c
    tiles = c.tiles
    if s.game.options.get("refill_variant"):  # the rulebook's variant: fill the $0 row alone
        have = sum(1 for x in s.projects[0] if tiles[x].era == era)
    else:
        have = sum(1 for row in s.projects for x in row if tiles[x].era == era)
    want = c.refill_base + c.refill_per_player * s.n - have
    deck = s.decks[era]
    drawn = []
    while want > 0 and deck:
        drawn.append(deck.pop())
        want -= 1
    s.projects[0].extend(drawn)
    s.event("refill", None, era=era, tiles=[tiles[x].id for x in drawn])


def next_round(s) -> None:
    """Start the next round with its politics phase."""
    s.round += 1
    s.phase = P_POLITICS
    s.turn = 0
    s.chosen_space = [-1] * s.n
    s.event("round", None, round=s.round, era=s.c.era_of_round[s.round])


def after_admin(s) -> None:
    """What follows administration (and the prosperity build): the Expo in Expo rounds, else the next round."""
    if s.round in s.c.expo_rounds:
        s.phase = P_EXPO
        s.expo_scored = False
    else:
        next_round(s)


def run(s) -> None:
    """Offer each surrounded token's move in turn order, then shift and refill the projects."""
    if s.turn < s.n:
        p = s.order[s.turn]
        while s.token_index < 2:
            if token_surrounded(s, p, s.token_index) and token_destinations(s, p):
                s.player = p
                s.step = S_TOKEN
                return
            s.token_index += 1
        s.turn += 1
        s.token_index = 0
        return
    shift_projects(s)
    if s.prosperity and s.round in s.c.prosperity_rounds:
        s.phase = P_PROSPERITY
        s.turn = 0
        s.prosperity_started = False
    else:
        after_admin(s)
