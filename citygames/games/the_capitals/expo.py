"""The Capitals: the World Expo (HU "Világkiállítási értékelés", IT "Valutazione Esposizione Mondiale",
reference §5), after the administration phase of rounds 4 and 8 and after round 12's executive phase.

Each city scores prestige for its employment space, loses prestige for unemployment (population -
employment, capped), moves on the progress track by its public-service level, and loses 2 prestige
per city strictly higher on public service (ties: more money, then the leftmost initiative marker;
HU example 6 / 4 / 2 -> 0 / -2 / -4). Then the energy cubes on the buildings go back to the supply;
tourists stay. After the last Expo the game ends (``end.py``).
"""

from __future__ import annotations

from . import administration, end
from .components import EMP, MONEY, NT, POP, PROG, PS
from .tracks import C_EXPO_EMP, C_EXPO_PS, C_EXPO_UNEMP, C_TILES, gain, prestige


def public_service_ranking(s) -> list[int]:
    """Seats from highest to lowest public service; ties: more money, then leftmost initiative."""
    t = s.tracks
    return sorted(range(s.n), key=lambda q: (-t[q * NT + PS], -t[q * NT + MONEY], s.initiative[q]))


def score(s) -> None:
    """Score the Expo for every city, in initiative order."""
    c = s.c
    t = s.tracks
    ranking = public_service_ranking(s)
    for p in s.order:
        base = p * NT
        emp, pop, ps = t[base + EMP], t[base + POP], t[base + PS]
        e_pts = c.employment_prestige[min(emp, len(c.employment_prestige) - 1)]
        unemp = max(0, pop - emp)
        u_pts = c.unemployment_penalty[min(unemp, len(c.unemployment_penalty) - 1)]
        prog = c.ps_expo_progress[ps - c.track_min[PS]]
        rank = ranking.index(p)
        ps_pts = rank * c.ps_rank_penalty
        prestige(s, p, e_pts, C_EXPO_EMP)
        prestige(s, p, u_pts, C_EXPO_UNEMP)
        if prog:
            gain(s, p, ((PROG, prog),), C_TILES, set())
        prestige(s, p, ps_pts, C_EXPO_PS)
        s.event("expo", p, era=c.era_of_round[s.round], employment=emp, employment_prestige=e_pts,
                unemployment=unemp, unemployment_prestige=u_pts, public_service=ps, progress=prog,
                public_service_rank=rank + 1, public_service_prestige=ps_pts)


def clear_cubes(s) -> None:
    """After the Expo, energy cubes on buildings go back to the supply; tourists stay (reference §5)."""
    for p in range(s.n):
        s.cubes_on[p] = {}
    s.event("clear_cubes", None)


def run(s) -> None:
    """Score the Expo (owed upgrades settle in between), clear the cubes, then the next round or the end."""
    if not s.expo_scored:
        s.expo_scored = True
        score(s)
        return
    clear_cubes(s)
    if s.round >= s.c.rounds:
        end.begin_final_scoring(s)
        return
    administration.next_round(s)
