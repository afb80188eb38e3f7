"""The Capitals, phase 3: tourism (HU "Turizmus fázis", IT "Fase Turismo", reference §3.2, §8 Phase 3).

The city highest on culture takes the Highest Culture token (one extra activation) and attracts
the tourist of the single lowest-culture city and the tourists of every city within its attraction
range (the culture level the leader has reached). Ties: more money, then the leftmost initiative
marker (IT "Breaking ties" box). Tourists whose host does not change stay where they are. With 2
players the neutral culture marker loses every tie; when it is the lowest no city loses its
tourist for being lowest, and the neutral tourist always goes to the leader (HU, IT 2-player
rules). Prosperity: a Casino pays $2 per tourist in its city at the end of each tourism phase.
"""

from __future__ import annotations

from .components import CULTURE, MONEY, NT
from .steps import P_EXECUTIVE
from .tracks import C_TILES, gain


def culture_ranking(s) -> list[int]:
    """Seats from highest to lowest culture; ties: more money, then leftmost initiative (IT box)."""
    t = s.tracks
    return sorted(range(s.n), key=lambda q: (-t[q * NT + CULTURE], -t[q * NT + MONEY], s.initiative[q]))


def attraction_range(s, culture: int) -> int:
    """Culture at or below which the leader takes other cities' tourists; -1 below level 1 (reference §3.2)."""
    reach = -1
    for at, takes in s.c.attraction:
        if culture >= at:
            reach = takes
    return reach


def tourist_color(s, k: int) -> int:
    """Colour index of tourist ``k`` (seat ``k``'s own tourist, or the neutral one at index n)."""
    return k if k < s.n else s.c.neutral_color


def tourist_index(s, color: int) -> int:
    """The tourist of colour ``color`` (inverse of ``tourist_color``)."""
    return color if color < s.n else s.n


def run(s) -> None:
    """The tourism phase, automatic; then the executive phase starts with every tourist unused."""
    t = s.tracks
    c = s.c
    n = s.n
    ranking = culture_ranking(s)
    leader, lowest = ranking[0], ranking[-1]
    s.highest_culture = leader
    reach = attraction_range(s, t[leader * NT + CULTURE])
    captured = set()
    neutral_lowest = False
    if s.neutral_culture >= 0:
        low = t[lowest * NT + CULTURE]
        neutral_lowest = s.neutral_culture < low or (s.neutral_culture == low and c.neutral_loses_ties)
    if not neutral_lowest:
        captured.add(lowest)
    for q in range(n):
        if q != leader and t[q * NT + CULTURE] <= reach:
            captured.add(q)
    moved = []
    for k in range(len(s.tourist_host)):
        host = (leader if k in captured else k) if k < n else leader
        if host != s.tourist_host[k]:
            s.tourist_host[k] = host
            s.tourist_slot[k] = -1
            moved.append([tourist_color(s, k), host])
    s.event("tourism", leader, lowest=-1 if neutral_lowest else lowest, captured=sorted(captured), moved=moved,
            level=sum(1 for at, _ in c.attraction if t[leader * NT + CULTURE] >= at))
    if s.prosperity:  # Casino: at the end of each tourism phase, $2 per tourist in the city (§9.6)
        tiles = c.tiles
        for p in range(n):
            for x in s.city[p].values():
                if tiles[x].perm_tourism:
                    k = sum(1 for h in s.tourist_host if h == p)
                    if k:
                        gain(s, p, [(tr, amt * k) for tr, amt in tiles[x].perm_tourism], C_TILES, set())
                        s.event("casino", p, tourists=k)
    s.phase = P_EXECUTIVE
    s.turn = 0
    s.executive_started = False
    for k in range(len(s.tourist_used)):
        s.tourist_used[k] = False
