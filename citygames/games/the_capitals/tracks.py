"""The Capitals: moving markers on the tracks, paying with extra taxation, scoring prestige.

Rules: HU "Szimbólumok a játéktábla sávjain" (track ends and their red arrows), "Munkás sáv"
(employment never exceeds population), "Extra adóztatás" (loans: +$3 for -1 prestige, end with at
least $1); reference §3 (tracks) and §8 "Extra taxation". Values come from ``data/board.yaml``.

Every function takes the state ``s`` (a ``CapitalsState``) and a seat ``p``; track values live in
``s.tracks[p * NT + track]`` (track indices in ``components``).
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from .components import APPLY_ORDER, CUBES, EMP, MONEY, NT, POP, PRESTIGE, PROG, TRACK_NAMES

#: categories of the score sheet (``score_breakdown``), in order
CATEGORIES = ("placement penalties", "loans", "tile effects", "expo employment", "expo unemployment",
              "expo public service", "end-game tile effects", "energy cubes", "money", "culture", "progress")
(C_PLACEMENT, C_LOANS, C_TILES, C_EXPO_EMP, C_EXPO_UNEMP, C_EXPO_PS, C_END_TILES, C_CUBES, C_MONEY, C_CULTURE,
 C_PROGRESS) = range(11)
NCAT = len(CATEGORIES)
CATEGORY_KEYS = tuple(c.replace(" ", "_").replace("-", "_") for c in CATEGORIES)

_ORDER_KEY = {tr: i for i, tr in enumerate(APPLY_ORDER)}

#: while ``recording_caps`` runs: the list that ``gain`` reports its capped gains to (else ``None``)
_CAP_LOG: ContextVar[list | None] = ContextVar("capitals_cap_log", default=None)

#: why a gain was cut, as ``recording_caps`` reports it
CAP_POPULATION = "population"
CAP_TRACK_END = "track end"


@contextmanager
def recording_caps() -> Iterator[list]:
    """Collect the gains that ``gain`` cuts while the block runs (issue 15, defect 5).

    Yields a list that fills with ``(phase, seat, track, wanted, applied, why)`` tuples, one per
    positive gain that did not apply in full: ``wanted`` the amount moved for, ``applied`` how far the
    marker actually moved (0 or more), ``why`` ``CAP_POPULATION`` (employment never exceeds
    population, HU "Munkás sáv") or ``CAP_TRACK_END`` (the marker stops on the last space; the
    red-arrow overflow applies instead, reference §3). Used on a clone to tell a player before the
    click what an action's gains will really do; outside the block ``gain`` records nothing.
    """
    log: list = []
    token = _CAP_LOG.set(log)
    try:
        yield log
    finally:
        _CAP_LOG.reset(token)


def best_order(gains) -> list:
    """``gains`` (``(track, amount)`` pairs) in the order best for the player: population before
    employment, so the employment cap never loses what updating the tracks "in any order" (HU
    "tetszőleges sorrendben", IT "in quale ordine desidera") lets a player keep."""
    return sorted(gains, key=lambda g: _ORDER_KEY[g[0]])


def prestige(s, p: int, amount: int, category: int) -> None:
    """Seat ``p`` gains ``amount`` prestige (negative: loses), booked under score-sheet ``category``."""
    s.tracks[p * NT + PRESTIGE] += amount
    s.score_sheet[p * NCAT + category] += amount


def pay(s, p: int, amount: int) -> int:
    """Seat ``p`` pays ``amount`` $, borrowing +$3 for -1 prestige as often as needed to end with at
    least $1 (HU "Extra adóztatás", reference §8 "Extra taxation": at $1 owing $11, 4 loans, $2 left).

    Returns:
        The number of loans taken (0 if none).
    """
    if amount <= 0:
        return 0
    loans = loans_needed(s, p, amount)
    if loans:
        s.tracks[p * NT + MONEY] += loans * s.c.loan_money
        prestige(s, p, loans * s.c.loan_prestige, C_LOANS)
    s.tracks[p * NT + MONEY] -= amount
    return loans


def loans_needed(s, p: int, amount: int) -> int:
    """How many loans paying ``amount`` $ would take seat ``p`` now (0 if it has enough)."""
    c = s.c
    need = amount + c.min_money - s.tracks[p * NT + MONEY]
    return -(-need // c.loan_money) if amount > 0 and need > 0 else 0


def gain(s, p: int, gains, category: int, fired: set) -> int:
    """Move seat ``p``'s markers by ``gains`` (``(track, amount)`` pairs, applied in the given order).

    - Track ends: the marker stops on the last space and the red-arrow reward or penalty of that
      end applies once per build or activation (``fired`` remembers which ends fired; HU track
      symbols, reference §3, §10 #7).
    - Employment never exceeds population (HU "Munkás sáv"); a population loss pulls employment
      down with it when the data rule ``population_loss_caps_employment`` says so.
    - A negative money amount is a payment with extra taxation (``pay``).
    - Progress past the upgrade space owes a power-plant upgrade (reference §3.6).

    Returns:
        The number of loans taken by the payments among ``gains``.
    """
    t = s.tracks
    c = s.c
    base = p * NT
    loans = 0
    for tr, amt in gains:
        if tr == PRESTIGE:
            t[base + PRESTIGE] += amt
            s.score_sheet[p * NCAT + category] += amt
        elif tr == PROG:
            old = t[base + PROG]
            new = old + amt
            t[base + PROG] = new
            if amt > 0:
                k = new // c.loop - old // c.loop
                if k > 0:
                    s.upgrades_due[p] += k
        elif tr == CUBES:
            v = t[base + CUBES] + amt
            t[base + CUBES] = v if v > 0 else 0
        elif tr == MONEY and amt < 0:
            loans += pay(s, p, -amt)
        else:
            v = t[base + tr] + amt
            if tr == EMP and amt > 0:
                pop = t[base + POP]
                if v > pop:
                    v = pop if pop > t[base + EMP] else t[base + EMP]
                    log = _CAP_LOG.get()
                    if log is not None:
                        log.append((s.phase, p, tr, amt, v - t[base + tr], CAP_POPULATION))
            hi = c.track_max[tr]
            lo = c.track_min[tr]
            if v > hi:
                v = hi
                log = _CAP_LOG.get()
                if log is not None and amt > 0:
                    entry = (s.phase, p, tr, amt, v - t[base + tr], CAP_TRACK_END)
                    if log and log[-1][:4] == entry[:4]:     # the same gain, cut by population first
                        log[-1] = entry
                    else:
                        log.append(entry)
                key = tr * 2 + 1
                if key not in fired:
                    fired.add(key)
                    t[base + tr] = v
                    if c.overflow_high[tr]:
                        loans += gain(s, p, c.overflow_high[tr], category, fired)
            elif v < lo:
                v = lo
                key = tr * 2
                if key not in fired:
                    fired.add(key)
                    t[base + tr] = v
                    if c.overflow_low[tr]:
                        loans += gain(s, p, c.overflow_low[tr], category, fired)
            t[base + tr] = v
            if tr == POP and amt < 0 and c.pop_loss_caps_emp and t[base + EMP] > v:
                t[base + EMP] = v
    return loans


def can_lose(s, p: int, costs) -> bool:
    """Whether seat ``p`` holds the non-money part of ``costs`` (``(track, amount)`` to lose) in full.

    Under the data rule ``activation_cost_needs_holding`` (default true) "lose X to gain Y" is legal
    only when X can be paid without running a track past its start; money may always be borrowed.
    With the rule off (the earlier reading) every cost is payable and the marker stops at the start.
    """
    if not s.c.act_cost_needs_holding:
        return True
    t = s.tracks
    base = p * NT
    lo = s.c.track_min
    for tr, amt in costs:
        if tr != MONEY and t[base + tr] - amt < lo[tr]:
            return False
    return True


def snapshot(s, p: int) -> list:
    """Seat ``p``'s track values now (a copy, for ``changes``)."""
    base = p * NT
    return s.tracks[base:base + NT]


def changes(s, p: int, before: list) -> dict:
    """``{track name: change}`` of seat ``p``'s tracks since ``before`` (a ``snapshot``), non-zero only."""
    base = p * NT
    now = s.tracks
    return {TRACK_NAMES[i]: now[base + i] - before[i] for i in range(NT) if now[base + i] != before[i]}
