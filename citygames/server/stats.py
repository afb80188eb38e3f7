"""End-of-game statistics of a finished table (issue 15, "End of game"): ``GET /api/tables/{id}/stats``.

``game_stats(record)`` replays a finished game's record once and returns, per seat, the points of
each score-sheet category over time (``state.score_breakdown(seat)`` at the start, at each round /
age boundary and at the end) and counts of what each seat took (tiles built, cards constructed,
wonders, ...), counted from the game's events. It is pure CPU work: the server runs it in a worker
thread and keeps the answer in a ``StatsCache`` (a finished table never changes).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass

from citygames.core.records import check_record, replay

__all__ = ["BOUNDARIES", "TAKEN", "game_stats", "StatsCache"]


@dataclass(frozen=True)
class Boundary:
    """A game's round structure as its log shows it: the event ``kind`` that starts a round (age,
    era) carries its number under ``key``; when round ``k > 1`` starts, round ``k - 1`` is over.
    ``unit`` names a round (``"Round"``, ``"Age"``); ``roman``: numbered I, II, III."""
    kind: str
    key: str
    unit: str
    short: str
    roman: bool = False


#: per game, the event that starts a new round (age): a point of the chart is taken when it is logged
BOUNDARIES: dict[str, Boundary] = {
    "the_capitals": Boundary("capitals.round", "round", "Round", "R"),
    "quadropolis": Boundary("quadropolis.round", "round", "Round", "R"),
    "between_two_cities": Boundary("between_two_cities.stage", "round", "Round", "R"),
    "seven_wonders_duel": Boundary("duel.age", "age", "Age", "Age ", roman=True),
}

#: per game, what each seat took: ``(key, label, event kinds)``; an event counts for its ``player``
TAKEN: dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]] = {
    "the_capitals": (
        ("taken", "Projects taken", ("capitals.take",)),
        ("built", "Tiles built", ("capitals.build",)),
        ("activations", "Activations", ("capitals.activate",)),
        ("no_activation", "Turns without activation", ("capitals.no_activation",)),
        ("upgrades", "Power-plant upgrades", ("capitals.upgrade",)),
    ),
    "quadropolis": (
        ("built", "Buildings built", ("quadropolis.build",)),
        ("discarded", "Put back in the box", ("quadropolis.discard",)),
        ("mayor", "Took the Mayor", ("quadropolis.mayor",)),
    ),
    "between_two_cities": (
        ("tiles", "Tiles placed", ("between_two_cities.place",)),
        ("duplexes", "Duplexes placed", ("between_two_cities.place_duplex",)),
    ),
    "seven_wonders_duel": (
        ("constructed", "Cards constructed", ("duel.construct",)),
        ("discarded", "Cards discarded for coins", ("duel.discard",)),
        ("wonders", "Wonders built", ("duel.wonder",)),
        ("progress", "Progress tokens", ("duel.progress",)),
        ("destroyed", "Opponent's cards destroyed", ("duel.destroy",)),
    ),
}

ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")


def _number(n: int, roman: bool) -> str:
    return ROMAN[n] if roman and 0 < n < len(ROMAN) else str(n)


def _point(state, n: int, step: int, label: str, short: str) -> dict:
    """One point of the chart: every seat's breakdown and score at ``step`` actions (a game with no
    score sheet: its scores, no categories)."""
    try:
        breakdown = [dict(state.score_breakdown(p)) for p in range(n)]
        scores = [sum(b.values()) for b in breakdown]
    except NotImplementedError:
        breakdown = [{} for _ in range(n)]
        scores = list(state.scores())
    return {"step": step, "label": label, "short": short, "scores": scores, "breakdown": breakdown}


def game_stats(record: dict) -> dict:
    """The statistics of the finished game ``record`` (``{game, version, options, seed, actions}``).

    Returns ``{"game", "num_players", "steps", "categories": [category], "unit": "Round"|"Age",
    "points": [{"step", "label", "short", "scores": [per seat], "breakdown": [per seat {category:
    points}]}], "taken": [{"key", "label", "counts": [per seat]}], "final": {"scores", "breakdown"}}``.
    ``points`` starts with ``"Start"`` (no action applied), has one point at the end of each round
    (age, era) and ends with ``"End"`` (the final state, equal to ``final``); points are victory
    points (the game's own score, prestige in The Capitals) and each breakdown sums to its score.
    A game with no known round structure or taken counts gets only the start and the end and no counts.
    A record with ``"resigned": [seat]`` (a game ended by a resignation) ends at the resignation: its
    last point is labelled ``"Resigned"`` and ``"resigned"`` lists the seats (empty otherwise).

    Raises:
        RecordError: the record does not replay (unknown game, other version, illegal action).
        ValueError: the record's game is not finished (and nobody resigned).
    """
    check_record(record)
    state = replay(record, upto=0)
    game = state.game
    gid = game.info.id
    n = game.num_players
    bound = BOUNDARIES.get(gid)
    taken_spec = TAKEN.get(gid, ())
    kinds = {k: i for i, (_, _, ks) in enumerate(taken_spec) for k in ks}
    counts = [[0] * n for _ in taken_spec]
    points = [_point(state, n, 0, "Start", "Start")]
    seen = 0

    def scan(step: int) -> None:
        nonlocal seen
        boundary = None
        for e in state.log[seen:]:
            i = kinds.get(e.kind)
            if i is not None and isinstance(e.player, int) and 0 <= e.player < n:
                counts[i][e.player] += 1
            if bound is not None and e.kind == bound.kind and isinstance(e.data, dict):
                k = e.data.get(bound.key)
                if isinstance(k, int) and k > 1:
                    boundary = k - 1
        seen = len(state.log)
        if boundary is not None and step < len(record["actions"]):
            num = _number(boundary, bound.roman)
            points.append(_point(state, n, step, f"End of {bound.unit.lower()} {num}", f"{bound.short}{num}"))

    scan(0)
    for step, entry in enumerate(record["actions"], 1):
        state.apply_entry(entry)
        scan(step)
    resigned = [int(p) for p in record.get("resigned") or ()]
    if not state.is_terminal() and not resigned:
        raise ValueError("the game is not finished")
    # a game ended by a resignation (issue 15, lifecycle.py) stops where it was: its last point is the
    # position at the resignation (the engine's scores then; the ranking puts the resigner last)
    points.append(_point(state, n, len(record["actions"]), "End of the game" if not resigned else "Resigned",
                         "End"))
    final = points[-1]
    categories: list[str] = []
    for b in final["breakdown"]:
        categories += [c for c in b if c not in categories]
    return {"game": gid, "num_players": n, "steps": len(record["actions"]), "categories": categories,
            "unit": bound.unit if bound else None, "points": points,
            "taken": [{"key": key, "label": label, "counts": counts[i]}
                      for i, (key, label, _) in enumerate(taken_spec)],
            "final": {"scores": final["scores"], "breakdown": final["breakdown"]}, "resigned": resigned}


class StatsCache:
    """The statistics of finished tables, computed once each in a worker thread (never on the event
    loop) and kept for the ``size`` tables asked last (a finished table never changes).
    Concurrent requests for the same table wait for the same computation."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._tasks: OrderedDict[str, asyncio.Future] = OrderedDict()

    async def get(self, table_id: str, record: dict) -> dict:
        """``game_stats(record)`` of table ``table_id``, from the cache when known.

        Raises:
            RecordError, ValueError: as ``game_stats`` (a failure is not cached).
        """
        fut = self._tasks.get(table_id)
        if fut is None:
            fut = asyncio.ensure_future(asyncio.to_thread(game_stats, record))
            self._tasks[table_id] = fut
            while len(self._tasks) > self.size:
                self._tasks.popitem(last=False)
        else:
            self._tasks.move_to_end(table_id)
        try:
            return await asyncio.shield(fut)
        except Exception:
            if self._tasks.get(table_id) is fut:
                del self._tasks[table_id]
            raise
