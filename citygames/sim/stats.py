"""Statistics over simulation results: win rates with Wilson intervals, scores, game lengths and
how the games were decided (``GameResult.outcome``)."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .runner import GameResult

#: two-sided 95% normal quantile
Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    Args:
        successes: number of successes, ``0 <= successes <= trials``.
        trials: number of trials; with 0 trials the interval is ``(0.0, 1.0)``.
        z: normal quantile (default: 95% two-sided).

    Returns:
        ``(low, high)``, both in ``[0, 1]``.

    Raises:
        ValueError: if the counts are negative or ``successes > trials``.
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes}/{trials}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class GroupStats:
    """Statistics of one seat or one bot name.

    Attributes:
        label: ``"seat 0"`` or the bot name.
        games: number of appearances (games x seats occupied).
        wins: number of those appearances that won (a shared victory is no win).
        win_rate: ``wins / games`` (0.0 when ``games`` is 0).
        win_low, win_high: 95% Wilson score interval of the win rate.
        score_mean, score_sd: mean and sample standard deviation of the score (sd 0 below 2 games).
        rank_mean: mean place (1 = first).
        draws: number of appearances that shared the victory (``GameResult.winner`` -1).
    """

    label: str
    games: int
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    score_mean: float
    score_sd: float
    rank_mean: float
    draws: int = 0


@dataclass(frozen=True)
class OutcomeStats:
    """How often one outcome (``GameResult.outcome``, e.g. a victory type) happened.

    Attributes:
        label: the outcome.
        games: number of games that ended that way.
        share: ``games`` / all games.
        by_bot: ``(bot name, games its seat won that way)`` for every bot name, in
            ``SimStats.bots`` order (a shared victory is won by nobody).
    """

    label: str
    games: int
    share: float
    by_bot: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class SimStats:
    """Everything ``summary_text`` shows.

    Attributes:
        games: number of games.
        seats: one ``GroupStats`` per seat, in seat order.
        bots: one ``GroupStats`` per bot name, in order of first appearance.
        length_mean, length_sd, length_min, length_max: game length in actions.
        outcomes: one ``OutcomeStats`` per outcome, most frequent first (empty when the game
            reports none).
        seat_bots: per seat, the bot names that played it (comma-separated, sorted).
    """

    games: int
    seats: tuple[GroupStats, ...]
    bots: tuple[GroupStats, ...]
    length_mean: float
    length_sd: float
    length_min: int
    length_max: int
    outcomes: tuple[OutcomeStats, ...] = ()
    seat_bots: tuple[str, ...] = ()


class _Moments:
    """Count, sum and sum of squares of a stream of numbers (mean and sample sd without keeping them)."""

    __slots__ = ("n", "total", "squares", "low", "high")

    def __init__(self):
        self.n = 0
        self.total = 0.0
        self.squares = 0.0
        self.low = None
        self.high = None

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x
        self.low = x if self.low is None or x < self.low else self.low
        self.high = x if self.high is None or x > self.high else self.high

    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    def sd(self) -> float:
        if self.n < 2:
            return 0.0
        var = (self.squares - self.total * self.total / self.n) / (self.n - 1)
        return math.sqrt(max(0.0, var))


class _Group:
    __slots__ = ("wins", "draws", "score", "rank")

    def __init__(self):
        self.wins = 0
        self.draws = 0
        self.score = _Moments()
        self.rank = _Moments()

    def add(self, won: bool, shared: bool, score: float, rank: float) -> None:
        self.wins += won
        self.draws += shared
        self.score.add(score)
        self.rank.add(rank)

    def stats(self, label: str) -> GroupStats:
        n = self.score.n
        lo, hi = wilson_interval(self.wins, n)
        return GroupStats(label=label, games=n, wins=self.wins, win_rate=self.wins / n if n else 0.0,
                          win_low=lo, win_high=hi, score_mean=self.score.mean(), score_sd=self.score.sd(),
                          rank_mean=self.rank.mean(), draws=self.draws)


class StatsAccumulator:
    """Builds a ``SimStats`` from games added one by one, in constant memory (what ``simulate
    --out`` uses for runs too big to hold). ``add(result)`` then ``stats()``; ``seat_bots`` gives
    the bot names seen in each seat.

    Raises (``add``):
        ValueError: a game with another number of seats than the first.
    """

    def __init__(self):
        self.n = None
        self.games = 0
        self.seats: list[_Group] = []
        self.bots: dict[str, _Group] = {}
        self.lengths = _Moments()
        self.outcomes: dict[str, int] = {}
        self.won_by: dict[tuple[str, str], int] = {}
        self.seat_bots: list[set] = []

    def add(self, r: GameResult) -> None:
        """Count one game."""
        if self.n is None:
            self.n = r.num_players
            self.seats = [_Group() for _ in range(self.n)]
            self.seat_bots = [set() for _ in range(self.n)]
        elif r.num_players != self.n:
            raise ValueError(f"results mix different numbers of seats: {sorted({self.n, r.num_players})}")
        self.games += 1
        for s, name in enumerate(r.bots):
            won, shared = r.winner == s, _shares(r, s)
            self.seats[s].add(won, shared, r.scores[s], r.ranks[s])
            self.bots.setdefault(name, _Group()).add(won, shared, r.scores[s], r.ranks[s])
            self.seat_bots[s].add(name)
        self.lengths.add(r.actions)
        if r.outcome is not None:
            self.outcomes[r.outcome] = self.outcomes.get(r.outcome, 0) + 1
            if r.winner >= 0:
                key = (r.outcome, r.bots[r.winner])
                self.won_by[key] = self.won_by.get(key, 0) + 1

    def stats(self) -> SimStats:
        """The statistics of the games added so far."""
        outcomes = tuple(
            OutcomeStats(label=label, games=k, share=k / self.games,
                         by_bot=tuple((b, self.won_by.get((label, b), 0)) for b in self.bots))
            for label, k in sorted(self.outcomes.items(), key=lambda item: (-item[1], item[0])))
        ln = self.lengths
        return SimStats(
            games=self.games, seats=tuple(g.stats(f"seat {s}") for s, g in enumerate(self.seats)),
            bots=tuple(g.stats(name) for name, g in self.bots.items()),
            length_mean=ln.mean(), length_sd=ln.sd(), length_min=int(ln.low or 0), length_max=int(ln.high or 0),
            outcomes=outcomes, seat_bots=tuple(",".join(sorted(b)) for b in self.seat_bots))


def _shares(r: GameResult, seat: int) -> bool:
    """Whether ``seat`` shared the victory of game ``r``."""
    return r.winner < 0 and r.returns[seat] == max(r.returns)


def compute_stats(results: Sequence[GameResult]) -> SimStats:
    """Aggregate ``results`` (all with the same number of seats) into a ``SimStats``.

    Raises:
        ValueError: if the results have different numbers of seats.
    """
    acc = StatsAccumulator()
    for r in results:
        acc.add(r)
    return acc.stats()


def _num_seats(results: list) -> int:
    """The common number of seats of ``results`` (0 if empty); ``ValueError`` if they differ."""
    seats = {r.num_players for r in results}
    if len(seats) > 1:
        raise ValueError(f"results mix different numbers of seats: {sorted(seats)}")
    return seats.pop() if seats else 0


def _table(title: str, first: str, groups: Sequence[GroupStats], bots_by_seat: dict | None = None):
    from rich.table import Table
    table = Table(title=title, title_justify="left")
    table.add_column(first)
    if bots_by_seat is not None:
        table.add_column("bot")
    draws = any(g.draws for g in groups)
    cols = ("games", "wins") + (("shared",) if draws else ()) + ("win rate", "95% CI", "score mean", "score sd",
                                                                 "mean place")
    for col in cols:
        table.add_column(col, justify="right")
    for g in groups:
        row = [g.label]
        if bots_by_seat is not None:
            row.append(bots_by_seat.get(g.label, ""))
        row += [str(g.games), str(g.wins)] + ([str(g.draws)] if draws else [])
        row += [f"{g.win_rate:.1%}", f"{g.win_low:.1%}-{g.win_high:.1%}",
                f"{g.score_mean:.2f}", f"{g.score_sd:.2f}", f"{g.rank_mean:.2f}"]
        table.add_row(*row)
    return table


def _outcome_table(stats: SimStats):
    """Outcomes: games and share of each, and (with several bots) how many each bot won that way."""
    from rich.table import Table
    table = Table(title="Outcomes", title_justify="left")
    table.add_column("outcome")
    table.add_column("games", justify="right")
    table.add_column("share", justify="right")
    bots = [b.label for b in stats.bots] if len(stats.bots) > 1 else []
    for b in bots:
        table.add_column(f"won by {b}", justify="right")
    for o in stats.outcomes:
        table.add_row(o.label, str(o.games), f"{o.share:.1%}", *[str(k) for _, k in o.by_bot if bots])
    return table


def summary_text(results: Sequence[GameResult] | SimStats, title: str = "", width: int = 110) -> str:
    """A readable plain-text report of ``results``: win rates (95% Wilson), scores, outcomes (when
    the game reports them) and lengths.

    Args:
        results: the games (as returned by ``simulate``), or their ``SimStats``.
        title: first line (e.g. game and options), optional.
        width: text width in characters.

    Returns:
        the report as a string (no markup, ends with a newline).
    """
    from rich.console import Console
    stats = results if isinstance(results, SimStats) else compute_stats(results)
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=False, color_system=None, highlight=False)
    if title:
        console.print(title, markup=False, soft_wrap=True)
    console.print(f"{stats.games} games")
    if stats.games:
        bots_by_seat = {f"seat {s}": names for s, names in enumerate(stats.seat_bots)}
        console.print(_table("By seat", "seat", stats.seats, bots_by_seat))
        console.print(_table("By bot", "bot", stats.bots))
        if stats.outcomes:
            console.print(_outcome_table(stats))
        console.print(f"Game length (actions): mean {stats.length_mean:.1f}, sd {stats.length_sd:.1f}, "
                      f"min {stats.length_min}, max {stats.length_max}")
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines()) + "\n"


def csv_header(num_players: int, outcome: bool = False) -> list[str]:
    """CSV column names: game columns (with ``outcome`` when asked), then
    ``seat<i>_bot/score/rank/return`` for each seat."""
    cols = ["game", "seed", "actions", "winner", "winner_bot"] + (["outcome"] if outcome else [])
    for s in range(num_players):
        cols += [f"seat{s}_bot", f"seat{s}_score", f"seat{s}_rank", f"seat{s}_return"]
    return cols


def write_csv(results: Sequence[GameResult], path: str | Path) -> None:
    """Write one row per game to ``path`` (columns: ``csv_header``); parent folders are created.

    The ``outcome`` column is written when the game reports outcomes. A shared victory has
    winner -1 and an empty ``winner_bot``.

    Raises:
        OSError: if the file cannot be written.
        ValueError: if the results have different numbers of seats.
    """
    results = list(results)
    n = _num_seats(results)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    outcome = any(r.outcome is not None for r in results)
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(csv_header(n, outcome))
        for r in results:
            row = [r.index, r.seed, r.actions, r.winner, r.bots[r.winner] if r.winner >= 0 else ""]
            if outcome:
                row.append(r.outcome or "")
            for s in range(n):
                row += [r.bots[s], r.scores[s], r.ranks[s], r.returns[s]]
            writer.writerow(row)
