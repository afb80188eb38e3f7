"""The Capitals: final scoring and the winner (HU "Végső pontozás", IT "Punteggio finale", reference §8
"End of game", §10 #4).

After its end-game effects each city converts what it holds: +1 prestige per 4 energy cubes on its
power plant, and the exchanged cubes go back to the supply (IT "rimetti i cubi scambiati nella
riserva"); +1 per $4; +1 per 2 culture; +1 per progress space beyond the last upgrade space. The
most prestige wins; ties: the most energy cubes *left* (IT "il giocatore che ha più cubetti di
energia rimasti"), then the most money, then the leftmost initiative marker.

The score sheet (``score_breakdown``) books every prestige change under one of ``tracks.CATEGORIES``.
"""

from __future__ import annotations

from .components import CUBES, CULTURE, MONEY, NT, PRESTIGE, PROG
from .steps import P_END
from .tracks import C_CUBES, C_CULTURE, C_END_TILES, C_MONEY, C_PROGRESS, CATEGORY_KEYS, NCAT, prestige


def convert(s, p: int) -> None:
    """Seat ``p``'s final conversions (reference §8 "End of game" 3-6); exchanged cubes leave the plant
    when the data rule ``final_scoring.exchanged_cubes_return`` says so (IT)."""
    c = s.c
    t = s.tracks
    base = p * NT
    cubes = t[base + CUBES]
    cubes_pts = cubes // c.cubes_per_prestige
    if c.exchanged_cubes_return:
        t[base + CUBES] = cubes - cubes_pts * c.cubes_per_prestige
    money_pts = t[base + MONEY] // c.money_per_prestige
    culture_pts = t[base + CULTURE] // c.culture_per_prestige
    progress_pts = t[base + PROG] % c.loop
    prestige(s, p, cubes_pts, C_CUBES)
    prestige(s, p, money_pts, C_MONEY)
    prestige(s, p, culture_pts, C_CULTURE)
    prestige(s, p, progress_pts, C_PROGRESS)
    s.event("final_scoring", p, end_tiles=s.score_sheet[p * NCAT + C_END_TILES], cubes=cubes_pts,
            cubes_left=t[base + CUBES], money=money_pts, culture=culture_pts, progress=progress_pts,
            prestige=t[base + PRESTIGE])


def finish(s) -> None:
    """The game is over: the ranking is final."""
    from citygames.core.game import TERMINAL
    from citygames.core.phases import NO_DECISION
    s.phase = P_END
    s.step = NO_DECISION
    s.player = TERMINAL
    s.turn = 0
    s.event("game_end", None, ranking=ranking(s), scores=scores(s))


def scores(s) -> list[int]:
    """Prestige of each seat (final after the game ends)."""
    return [s.tracks[p * NT + PRESTIGE] for p in range(s.n)]


def ranking(s) -> list[int]:
    """Seats by prestige; ties: more energy cubes left on the plant, then money, then the leftmost
    initiative marker (IT "In caso di parità", reference §10 #4)."""
    t = s.tracks
    return sorted(range(s.n), key=lambda q: (-t[q * NT + PRESTIGE], -t[q * NT + CUBES], -t[q * NT + MONEY],
                                             s.initiative[q]))


def returns(s) -> list[float]:
    """1.0 for the winner after the tie-breaks, 0.0 for the others; all 0.0 before the end."""
    if s.phase != P_END:
        return [0.0] * s.n
    win = ranking(s)[0]
    return [1.0 if p == win else 0.0 for p in range(s.n)]


def breakdown(s, seat: int) -> dict[str, int]:
    """Seat ``seat``'s prestige by score-sheet category (``tracks.CATEGORIES``); sums to its score."""
    return {CATEGORY_KEYS[k]: s.score_sheet[seat * NCAT + k] for k in range(NCAT)}
