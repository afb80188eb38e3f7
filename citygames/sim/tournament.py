"""Tournaments: a round-robin between bots, Bradley–Terry ratings with 95% intervals.

``citygames tournament GAME --bots a,b,c --games N`` plays every *group* of bots ``N`` games, the
bots rotated over the seats so that each plays every seat equally often (``schedule``):

- 2 seats: every pair of bots (in ``--bots`` order) is a group, played in both seat orders.
- P > 2 seats and at least P bots: every combination of P bots is a group, seated in its P cyclic
  rotations (``a,b,c`` -> ``a,b,c``, ``b,c,a``, ``c,a,b``).
- P > 2 seats and fewer bots: every ordered pair ``(a, b)`` is a group "a against a field of b"
  (``a,b,b,b``), seated in its P cyclic rotations.

``N`` must be a multiple of the number of rotations. The rotations of a group share their deals:
game ``k`` of every rotation starts from the same state seed (a "duplicate" design, as in duplicate
bridge), so the luck of the deal cancels between the seats. The bots are seeded per entrant, not per
seat (``runner.entrant_seeds``), so a bot playing a copy of itself does not replay a deal mirrored.

Games are played by the simulation machinery (``backends.LocalBackend`` running ``runner.run_one``),
one run per seating, and streamed to a CSV file in game order. A game is fully determined by its
state seed and its lineup (entrant per seat), so a run can be continued or extended (``--games``
raised) from its CSV: ``resume_games`` reads back the rows that are games of the new schedule and
``run_tournament`` plays only the others, writing the same file as a fresh run.

Ratings (``bradley_terry``) come from the pairwise results inside each game: for two seats held by
different bots, the better rank wins and an equal rank is a draw (half a win each). Source: Bradley &
Terry (1952); the fit is the maximum-likelihood one with one virtual draw per pair (BayesElo's
prior), on the Elo scale (400 / ln 10 points per logit). The 95% intervals are Wald intervals from
the observed information of that penalised likelihood (``rate``), or, on request, a seeded bootstrap
over games (Efron percentile intervals). The head-to-head share of wins of each pair gets a Wilson
interval (``wilson``).
"""

from __future__ import annotations

import csv
import itertools
import math
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np

from citygames.bots import split_bot_specs

from .runner import GameResult

#: points of the Elo scale per unit of Bradley–Terry log-strength
ELO_PER_LOGIT = 400.0 / math.log(10.0)


def split_bot_list(text: str) -> list[str]:
    """``--bots`` text -> bot specs, one per entrant (``"random,greedy"`` -> ``["random", "greedy"]``;
    ``"ismcts:iterations=200,c=1.4;greedy"`` -> two specs), as ``play`` and ``simulate`` split it
    (``citygames.bots.split_bot_specs``); specs are passed to ``make_bot`` unparsed."""
    return split_bot_specs(text)


def entrant_labels(specs: Sequence[str]) -> list[str]:
    """A distinct label per entrant: the spec, with ``#2``, ``#3``... added to repeats
    (``["random", "random"]`` -> ``["random", "random#2"]``), so a bot can play itself."""
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        seen[s] = seen.get(s, 0) + 1
        out.append(s if seen[s] == 1 else f"{s}#{seen[s]}")
    return out


def groups(entrants: int, seats: int) -> list[tuple[int, ...]]:
    """The groups of entrant indices that meet (see the module doc), each in seat order before rotation.

    Raises:
        ValueError: fewer than 2 entrants or 2 seats.
    """
    if entrants < 2 or seats < 2:
        raise ValueError(f"a tournament needs at least 2 bots and 2 seats, got {entrants} bots, {seats} seats")
    if entrants >= seats:
        return list(itertools.combinations(range(entrants), seats))
    return [(a,) + (b,) * (seats - 1) for a, b in itertools.permutations(range(entrants), 2)]


def rotations(group: Sequence[int]) -> list[tuple[int, ...]]:
    """The cyclic rotations of a group over its seats (as many as seats)."""
    g = tuple(group)
    return [g[r:] + g[:r] for r in range(len(g))]


@dataclass(frozen=True)
class Seating:
    """One seating of a tournament: ``games`` games with entrant ``lineup[seat]`` in each seat.

    Attributes:
        lineup: entrant index per seat.
        first_index: the tournament index of its first game (its games are consecutive).
        games: number of games.
        deal_seed: game ``k`` starts from state seed ``deal_seed + k`` (shared by the rotations of a group).
    """

    lineup: tuple[int, ...]
    first_index: int
    games: int
    deal_seed: int


def schedule(entrants: int, seats: int, games: int, seed: int = 0) -> list[Seating]:
    """Every seating of a round-robin, ``games`` games per group (module doc).

    Raises:
        ValueError: too few entrants or seats, or ``games`` not a positive multiple of ``seats``
            (the number of rotations, so every bot plays every seat equally).
    """
    gs = groups(entrants, seats)
    if games < seats or games % seats:
        raise ValueError(f"--games must be a positive multiple of {seats} (the seat rotations), got {games}")
    per = games // seats
    out: list[Seating] = []
    index = 0
    for gi, g in enumerate(gs):
        for lineup in rotations(g):
            out.append(Seating(lineup, index, per, seed + gi * per))
            index += per
    return out


# --- ratings -----------------------------------------------------------------------------------
def pairwise(results: Iterable[tuple[Sequence[int], Sequence[int]]], n: int) -> np.ndarray:
    """Pairwise scores: ``W[i, j]`` = wins of entrant ``i`` over ``j`` (draws count 1/2 each).

    Args:
        results: per game, ``(entrant per seat, rank per seat)`` (rank 1 = best; equal ranks draw).
            Seats held by the same entrant are not compared.
        n: number of entrants.

    Returns:
        float array ``(n, n)``; ``W + W.T`` is the number of comparisons per pair.
    """
    w = np.zeros((n, n))
    for who, ranks in results:
        for s, t in itertools.combinations(range(len(who)), 2):
            i, j = who[s], who[t]
            if i == j:
                continue
            if ranks[s] < ranks[t]:
                w[i, j] += 1
            elif ranks[s] > ranks[t]:
                w[j, i] += 1
            else:
                w[i, j] += 0.5
                w[j, i] += 0.5
    return w


def fit_bradley_terry(w: np.ndarray, prior: float = 1.0) -> np.ndarray:
    """Maximum-likelihood Bradley–Terry log-strengths from a pairwise win matrix.

    ``P(i beats j) = 1 / (1 + exp(theta_j - theta_i))``. ``prior`` virtual draws are added to every
    pair that met (a weak prior, as BayesElo's), so a bot that won every game gets a finite
    rating. The result is centred (mean 0).

    Args:
        w: ``(n, n)`` wins, ``pairwise``'s output.
        prior: virtual draws per pair that met (>= 0; 0 is the plain MLE, infinite for a clean sweep).

    Returns:
        ``theta``, float array ``(n,)`` in logits.
    """
    from scipy.optimize import minimize
    w = np.asarray(w, dtype=float)
    n = len(w)
    met = (w + w.T) > 0
    w = w + np.where(met, prior / 2.0, 0.0)
    np.fill_diagonal(w, 0.0)

    def nll(x):
        theta = np.concatenate(([0.0], x))
        d = theta[:, None] - theta[None, :]
        # -sum w_ij log sigmoid(d_ij); log sigmoid(d) = -logaddexp(0, -d)
        f = float(np.sum(w * np.logaddexp(0.0, -d)))
        p = 1.0 / (1.0 + np.exp(d))                  # sigmoid(-d) = 1 - P(i beats j)
        g = -np.sum(w * p, axis=1) + np.sum(w.T * p.T, axis=1)
        return f, g[1:]
    if n == 1:
        return np.zeros(1)
    res = minimize(nll, np.zeros(n - 1), jac=True, method="L-BFGS-B")
    theta = np.concatenate(([0.0], res.x))
    return theta - theta.mean()


def information(theta: np.ndarray, w: np.ndarray, prior: float = 1.0, counts: np.ndarray | None = None) -> np.ndarray:
    """Observed Fisher information of the (penalised) Bradley–Terry log-likelihood at ``theta``.

    ``H[i, i] = sum_j n_ij p_ij (1 - p_ij)``, ``H[i, j] = -n_ij p_ij (1 - p_ij)``, where ``n_ij`` counts
    the comparisons of ``i`` and ``j`` plus the ``prior`` virtual draws (as in ``fit_bradley_terry``)
    and ``p_ij = P(i beats j)``. It is the negative Hessian of the log-likelihood; its null space is
    the common shift of every ``theta`` (for a connected comparison graph).

    Args:
        theta: ``(n,)`` log-strengths (logits). w: ``(n, n)`` wins (``pairwise``). prior: virtual draws.
        counts: ``(n, n)`` comparisons per pair to count instead of ``w + w.T`` (``rate`` passes the
            games in which the pair met, so that the correlated comparisons of one game count once).

    Returns:
        ``(n, n)`` float array (per logit squared).
    """
    w = np.asarray(w, dtype=float)
    games = w + w.T if counts is None else np.asarray(counts, dtype=float)
    games = games + np.where(games > 0, prior, 0.0)
    np.fill_diagonal(games, 0.0)
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    c = games * p * (1.0 - p)
    return np.diag(c.sum(axis=1)) - c


def wilson(k, n, z: float = 1.959963984540054):
    """Wilson score interval of a proportion ``k / n`` (Wilson 1927): ``(low, high)``.

    ``k`` may be fractional (draws counted as half a win); arrays broadcast. With ``n == 0`` the
    interval is ``(0, 1)``. ``z`` is the normal quantile (1.96 for 95%).
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    safe = np.where(n > 0, n, 1.0)
    p = k / safe
    den = 1.0 + z * z / safe
    centre = (p + z * z / (2 * safe)) / den
    half = z / den * np.sqrt(p * (1 - p) / safe + z * z / (4 * safe * safe))
    return np.where(n > 0, centre - half, 0.0), np.where(n > 0, centre + half, 1.0)


@dataclass
class Ratings:
    """Bradley–Terry ratings of a tournament, in Elo points (mean 0).

    Attributes:
        bots: entrant labels.
        rating: rating per entrant, Elo points (a 400-point gap = 10:1 odds).
        low, high: 95% interval per entrant, Elo points (``method``).
        wins: ``(n, n)`` pairwise wins (draws as 1/2), ``pairwise``'s output.
        draws: ``(n, n)`` pairwise draws.
        diff_low, diff_high: ``(n, n)`` 95% interval of ``rating[i] - rating[j]``.
        games: games rated.
        method: how the intervals were made: ``"wald"`` (penalised likelihood) or ``"bootstrap"``.
        score, score_low, score_high: ``(n, n)`` share of ``i``'s comparisons with ``j`` that ``i``
            won (draws as 1/2; ``wins[i, j] / (wins[i, j] + wins[j, i])``, NaN when they never met)
            and its 95% Wilson interval (sample size: the games in which they met): the direct
            head-to-head claim "i beats j".
    """

    bots: list[str]
    rating: np.ndarray
    low: np.ndarray
    high: np.ndarray
    wins: np.ndarray
    draws: np.ndarray
    diff_low: np.ndarray
    diff_high: np.ndarray
    games: int = 0
    method: str = "wald"
    score: np.ndarray | None = None
    score_low: np.ndarray | None = None
    score_high: np.ndarray | None = None

    def order(self) -> list[int]:
        """Entrant indices, best rating first."""
        return sorted(range(len(self.bots)), key=lambda i: (-self.rating[i], i))

    def pairs(self) -> list[tuple[int, int]]:
        """The pairs of entrant indices ``(i, j)`` that met, the better-rated first, in rating order
        (the head-to-head table's rows)."""
        order = self.order()
        return [(i, j) for x, i in enumerate(order) for j in order[x + 1:]
                if self.wins[i, j] + self.wins[j, i] > 0]


def rate(results: Sequence[tuple[Sequence[int], Sequence[int]]], bots: Sequence[str], bootstrap: int = 0,
         seed: int = 0, prior: float = 1.0) -> Ratings:
    """Bradley–Terry ratings with 95% intervals (a pure function of its arguments).

    Intervals (``bootstrap == 0``, the default): Wald intervals from the observed Fisher information
    of the penalised likelihood (``information``; the ``prior`` virtual draws per pair keep it finite
    and non-zero for a clean sweep). The covariance of the centred ratings is the pseudo-inverse of
    the information (its null space is the common shift); ``rating[i] +- 1.96 sd``. Source: the
    Bradley–Terry model as a logit model fitted by maximum likelihood, with the usual asymptotic
    covariance ``I(theta)^-1`` (Agresti, *Categorical Data Analysis*, the Bradley–Terry section;
    Hunter 2004, "MM algorithms for generalized Bradley–Terry models"); the virtual draws are
    BayesElo's prior (Coulom). The prior pulls a sweep towards a tie, so near a sweep the intervals
    are conservative (a 9-0 or 10-0 result excludes a tie, 8-0 does not), never of zero width.
    With more than 2 seats a bot holding several seats (``a`` against a field of ``b``) is compared
    several times with the same bot in one game, and those comparisons go together (``a`` first beats
    every ``b``): the information then counts each pair once per game it met in (conservative, not
    the naive count, which would make the intervals too narrow); the Wilson intervals of the shares
    likewise use the games met as their sample size. With 2 seats both counts are the same.

    With ``bootstrap > 0``: seeded percentile intervals over that many resamples of the games (with
    replacement; Efron). A clean sweep then gives zero-width intervals (every resample is the sweep).

    Args:
        results: per game, ``(entrant index per seat, rank per seat)`` (``pairwise``).
        bots: entrant labels (``n``).
        bootstrap: resamples of the games for the intervals; 0 for the Wald intervals.
        seed: seed of the bootstrap (``numpy.random.default_rng``).
        prior: virtual draws per pair (``fit_bradley_terry``).

    Returns:
        ``Ratings``; its ``score``/``score_low``/``score_high`` hold each pair's head-to-head share of
        wins with a Wilson interval.
    """
    n = len(bots)
    results = [(tuple(a), tuple(b)) for a, b in results]
    per_game = [pairwise([r], n) for r in results]
    stack = np.array(per_game) if per_game else np.zeros((0, n, n))
    total = stack.sum(axis=0) if len(stack) else np.zeros((n, n))
    draws = np.zeros((n, n))
    for who, ranks in results:
        for s, t in itertools.combinations(range(len(who)), 2):
            if who[s] != who[t] and ranks[s] == ranks[t]:
                draws[who[s], who[t]] += 1
                draws[who[t], who[s]] += 1
    met_in = np.zeros((n, n))                # games in which each pair met
    for who, _ in results:
        present = sorted(set(who))
        for i, j in itertools.combinations(present, 2):
            met_in[i, j] += 1
            met_in[j, i] += 1
    logits = fit_bradley_terry(total, prior)
    theta = logits * ELO_PER_LOGIT
    if bootstrap > 0 and len(stack):
        method = "bootstrap"
        rng = np.random.default_rng(seed)
        samples = np.empty((bootstrap, n))
        for b in range(bootstrap):
            pick = rng.integers(0, len(stack), len(stack))
            samples[b] = fit_bradley_terry(stack[pick].sum(axis=0), prior) * ELO_PER_LOGIT
        low, high = np.percentile(samples, [2.5, 97.5], axis=0)
        diffs = samples[:, :, None] - samples[:, None, :]
        diff_low, diff_high = np.percentile(diffs, [2.5, 97.5], axis=0)
    else:
        method = "wald"
        z = 1.959963984540054
        cov = np.linalg.pinv(information(logits, total, prior, met_in)) * ELO_PER_LOGIT ** 2
        sd = np.sqrt(np.clip(np.diag(cov), 0.0, None))
        low, high = theta - z * sd, theta + z * sd
        var = np.diag(cov)[:, None] + np.diag(cov)[None, :] - 2 * cov
        dsd = np.sqrt(np.clip(var, 0.0, None))
        d = theta[:, None] - theta[None, :]
        diff_low, diff_high = d - z * dsd, d + z * dsd
    met = total + total.T
    with np.errstate(invalid="ignore", divide="ignore"):
        score = np.where(met > 0, total / np.where(met > 0, met, 1.0), np.nan)
    score_low, score_high = wilson(np.nan_to_num(score) * met_in, met_in)
    return Ratings(list(bots), theta, low, high, total, draws, diff_low, diff_high, len(results), method,
                   score, score_low, score_high)


SUMMARY_COLUMNS = ["a", "b", "a_rating", "a_low", "a_high", "b_rating", "b_low", "b_high", "wins", "draws",
                   "losses", "share", "share_low", "share_high", "diff", "diff_low", "diff_high", "a_ahead"]


def summary_rows(ratings: Ratings) -> list[dict]:
    """One row per pair that met, the better-rated bot as ``a`` (pairs in rating order): both ratings
    with their 95% intervals (Elo points), ``a``'s wins, draws and losses against ``b`` (pairwise
    comparisons), ``a``'s share of them (draws half) with its Wilson 95% interval, the rating
    difference ``a - b`` with its 95% interval, and ``a_ahead`` (that interval excludes a tie).
    Columns ``SUMMARY_COLUMNS``; numbers rounded (ratings to 0.1 point, shares to 0.0001)."""
    rows = []
    pts = lambda v: round(float(v), 1)      # noqa: E731
    share = lambda v: round(float(v), 4)    # noqa: E731
    for i, j in ratings.pairs():
        d = ratings.draws[i, j]
        rows.append(dict(
            a=ratings.bots[i], b=ratings.bots[j],
            a_rating=pts(ratings.rating[i]), a_low=pts(ratings.low[i]), a_high=pts(ratings.high[i]),
            b_rating=pts(ratings.rating[j]), b_low=pts(ratings.low[j]), b_high=pts(ratings.high[j]),
            wins=float(ratings.wins[i, j] - d / 2), draws=float(d), losses=float(ratings.wins[j, i] - d / 2),
            share=share(ratings.score[i, j]), share_low=share(ratings.score_low[i, j]),
            share_high=share(ratings.score_high[i, j]), diff=pts(ratings.rating[i] - ratings.rating[j]),
            diff_low=pts(ratings.diff_low[i, j]), diff_high=pts(ratings.diff_high[i, j]),
            a_ahead=bool(ratings.diff_low[i, j] > 0)))
    return rows


def write_summary(ratings: Ratings, path: str | Path) -> None:
    """Write ``summary_rows`` to the CSV file ``path`` (header ``SUMMARY_COLUMNS``).

    Raises:
        OSError: the file cannot be written.
    """
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, SUMMARY_COLUMNS)
        w.writeheader()
        w.writerows(summary_rows(ratings))


# --- running -----------------------------------------------------------------------------------
@dataclass
class TournamentResult:
    """What ``run_tournament`` played.

    Attributes:
        labels: entrant labels; specs: the bot spec of each entrant (what ``make_bot`` got).
        games: per game in index order, ``(entrant per seat, rank per seat)``.
        results: the ``GameResult`` of each game (its ``index`` is the tournament index); a game
            reused from a CSV holds only what the CSV does (``read_games``).
        seat_counts: ``(entrants, seats)`` games each entrant played in each seat.
        reused: how many of the games were reused (``run_tournament``'s ``reuse``), not played.
    """

    labels: list[str]
    specs: list[str]
    games: list = field(default_factory=list)
    results: list = field(default_factory=list)
    seat_counts: np.ndarray | None = None
    reused: int = 0


def csv_header(seats: int) -> list[str]:
    """Columns of the tournament CSV: ``game, seed, bot_<s>, score_<s>, rank_<s>`` per seat,
    ``winner`` (seat, -1 when shared) and ``winner_bot`` (empty when shared)."""
    return (["game", "seed"] + [f"bot_{s}" for s in range(seats)] + [f"score_{s}" for s in range(seats)]
            + [f"rank_{s}" for s in range(seats)] + ["winner", "winner_bot"])


def _row(r: GameResult) -> list:
    """The CSV row (``csv_header``) of a game whose ``bots`` are entrant labels."""
    return [r.index, r.seed, *r.bots, *r.scores, *r.ranks, r.winner, r.bots[r.winner] if r.winner >= 0 else ""]


def _write_rows(path: str | Path, seats: int, results: Iterable[GameResult]) -> None:
    """Write a whole tournament CSV to ``path`` through a file beside it, renamed over ``path`` at
    the end: an interruption leaves ``path`` as it was. Raises ``OSError``."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(csv_header(seats))
            w.writerows(_row(r) for r in results)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


class ResumeError(ValueError):
    """A tournament CSV cannot be continued: not a tournament CSV for this number of seats, a
    malformed row, or rows that are not games of the tournament asked for (``resume_games``)."""


def _number(text: str) -> int | float:
    """A score as written (``"12"`` -> 12, ``"12.5"`` -> 12.5); ``ValueError`` otherwise."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def read_games(path: str | Path, seats: int) -> list[GameResult]:
    """The games of a tournament CSV (``csv_header(seats)``), one per row in file order.

    Each is a ``GameResult`` with what the row holds: ``index`` (the ``game`` column), ``seed``,
    ``bots`` (entrant labels), ``scores``, ``ranks`` and ``winner``; ``returns`` is empty and
    ``actions`` 0 (the CSV does not keep them). An empty file (interrupted before its header was
    written) has no games.

    Raises:
        OSError: the file cannot be read.
        ResumeError: another header (another number of seats, or not a tournament CSV), or a
            malformed row (wrong number of fields, a number that is not one, ranks or winner out of
            range, ``winner_bot`` not the winner's label), naming its line.
    """
    header = csv_header(seats)
    with open(path, newline="") as fh:
        rows = csv.reader(fh)
        first = next(rows, None)
        if first is None:
            return []
        if first != header:
            raise ResumeError(f"{path} is not a tournament CSV for {seats} seats: its columns are "
                              f"{','.join(first)}, expected {','.join(header)}")
        out = []
        for row in rows:
            where = f"{path}, line {rows.line_num}"
            if len(row) != len(header):
                raise ResumeError(f"{where}: {len(row)} fields, expected {len(header)}")
            bots = tuple(row[2:2 + seats])
            try:
                index, seed = int(row[0]), int(row[1])
                scores = tuple(_number(x) for x in row[2 + seats:2 + 2 * seats])
                ranks = tuple(int(x) for x in row[2 + 2 * seats:2 + 3 * seats])
                winner = int(row[-2])
            except ValueError as exc:
                raise ResumeError(f"{where}: {exc}") from None
            if index < 0 or not all(1 <= x <= seats for x in ranks) or not -1 <= winner < seats:
                raise ResumeError(f"{where}: game, ranks or winner out of range")
            if row[-1] != (bots[winner] if winner >= 0 else ""):
                raise ResumeError(f"{where}: winner_bot {row[-1]!r} is not the label of seat {winner}")
            out.append(GameResult(index, seed, bots, scores, ranks, (), winner, 0))
    return out


def resume_games(path: str | Path, specs: Sequence[str], seats: int, games: int,
                 seed: int = 0) -> dict[int, GameResult]:
    """The games of the tournament ``specs``/``games``/``seed`` (``schedule``) already in its CSV
    ``path``, to pass to ``run_tournament`` as ``reuse``: a row is a scheduled game when its ``seed``
    is the game's state seed and its ``bot_<s>`` labels are the game's lineup (``entrant_labels``).

    Rows are matched whatever their ``game`` column and order, so the file of a run with fewer
    ``games`` (extended) or an interrupted one both qualify. With one group of bots (two bots in two
    seats, or as many bots as seats) every game of a run is a game of the same run with more games;
    with several groups it is not, as a group's deals start at ``seed + group x games per rotation``.
    The rows' ``game`` columns must fit one schedule of the entrants in this order: each bot is
    seeded by its place in ``specs`` (``runner.entrant_seeds``), so the same labels in another order
    play other games from the same seeds.

    Args:
        path: the CSV (``run_tournament``'s ``out``); missing: no games.
        specs, seats, games, seed: the tournament to continue (as ``run_tournament``'s).

    Returns:
        ``{tournament index: GameResult}`` (``read_games``, ``index`` set to the game's index in
        this schedule); empty when ``path`` does not exist or holds no row.

    Raises:
        OSError: the file cannot be read.
        ResumeError: ``read_games``' errors; rows that are no game of this tournament (how many and
            why: a lineup it does not seat, or deals it does not give that lineup); two rows of the
            same game; or ``game`` columns that fit no schedule of the bots in this order.
        ValueError: a bad ``games`` or too few bots or seats (``schedule``).
    """
    plan = schedule(len(specs), seats, games, seed)
    if not Path(path).exists():
        return {}
    rows = read_games(path, seats)
    labels = entrant_labels(specs)
    where: dict[tuple, tuple[int, int]] = {}           # (state seed, lineup labels) -> (index, seating)
    lineups = set()
    for q, p in enumerate(plan):
        lineup = tuple(labels[i] for i in p.lineup)
        lineups.add(lineup)
        for k in range(p.games):
            where[(p.deal_seed + k, lineup)] = (p.first_index + k, q)
    found: dict[int, GameResult] = {}
    read: dict[int, tuple[GameResult, int]] = {}        # index -> (the row as read, its seating)
    line: dict[int, int] = {}
    other_bots, other_deals = [], []
    for n, r in enumerate(rows, start=2):                # line 1 is the header
        at = where.get((r.seed, r.bots))
        if at is None:
            (other_deals if r.bots in lineups else other_bots).append((n, r))
            continue
        index, q = at
        if index in found:
            raise ResumeError(f"{path}: lines {line[index]} and {n} are the same game "
                              f"(seed {r.seed}, {' against '.join(r.bots)})")
        found[index], read[index], line[index] = replace(r, index=index), (r, q), n
    if other_bots or other_deals:
        why = []
        if other_bots:
            n, r = other_bots[0]
            why.append(f"{len(other_bots)} have a lineup that --bots {','.join(specs)} does not seat "
                       f"(e.g. line {n}: {','.join(r.bots)})")
        if other_deals:
            n, r = other_deals[0]
            hint = ("made with another --seed or --games? With several groups of bots a group's deals depend "
                    "on --games, so such a run cannot be extended" if len(plan) > seats
                    else "made with another --seed, or with more --games?")
            why.append(f"{len(other_deals)} play deals this schedule does not give their lineup (e.g. line {n}: "
                       f"seed {r.seed}): {hint}")
        bad = len(other_bots) + len(other_deals)
        raise ResumeError(f"{path}: {bad} of its {len(rows)} rows are not games of this tournament: "
                          + "; ".join(why))
    if not _one_schedule(list(read.values()), seats):
        raise ResumeError(f"{path}: the rows' game numbers fit no schedule of --bots in this order; was it "
                          f"played with the bots in another order? Each bot is seeded by its place in --bots, "
                          f"so the same bots in another order play other games from the same seeds")
    return found


def _one_schedule(rows: Sequence[tuple[GameResult, int]], seats: int) -> bool:
    """Whether rows ``(game as read, seating index in this schedule)`` fit one schedule of the same
    entrants in the same order: some ``per >= 1`` games per seating and seed ``s`` with game
    ``q x per + k`` of seating ``q`` (group ``g = q // seats``) at state seed ``s + g x per + k``,
    ``0 <= k < per``; so ``game - seed = (q - g) x per - s`` is the same for rows of the same ``q - g``."""
    offset: dict[int, int] = {}
    for r, q in rows:
        if offset.setdefault(q - q // seats, r.index - r.seed) != r.index - r.seed:
            return False
    lo, hi = 1, math.inf                      # the range of ``per`` left
    cs = sorted(offset)
    if len(cs) >= 2:
        step, gap = offset[cs[1]] - offset[cs[0]], cs[1] - cs[0]
        if step % gap:
            return False
        lo = hi = step // gap
        if any(offset[c] - offset[cs[0]] != (c - cs[0]) * lo for c in cs):
            return False
    for r, q in rows:                         # q x per <= game < (q + 1) x per
        lo = max(lo, r.index // (q + 1) + 1)
        if q:
            hi = min(hi, r.index // q)
    return 1 <= lo <= hi


def run_tournament(game_id: str, options: dict, specs: Sequence[str], games: int, seed: int = 0,
                   workers: int = 1, out: str | Path | None = None, progress: bool = False,
                   console=None, on_game: Callable[[GameResult], None] | None = None,
                   reuse: dict[int, GameResult] | None = None) -> TournamentResult:
    """Play a round-robin tournament (``schedule``) and stream one CSV row per game to ``out``.

    Args:
        game_id, options: the game (``options`` resolved, ``num_players`` included).
        specs: a bot spec per entrant, passed to ``make_bot`` (repeats allowed: ``entrant_labels``).
        games: games per group, a multiple of the number of seats.
        seed: reproducibility: the same seed gives the same file, whatever ``workers`` is. Game ``k``
            of a seating starts from state seed ``deal_seed + k`` (``schedule``) and each bot is
            seeded from that and its entrant index (``runner.entrant_seeds``), not its seat: so two
            copies of a bot differ, and a deal replayed with the seats rotated is a different game
            (with seat-based seeds, ``a`` against ``a#2`` would replay each deal mirrored).
        workers: worker processes (``backends.LocalBackend``).
        out: CSV path, or ``None``: each game's row is written and flushed as soon as it and every
            game before it finished (rows in game order).
        on_game: called with each played game's ``GameResult`` (not the reused ones), in game order,
            right after its row was written.
        progress: show a rich progress bar on ``console``.
        reuse: ``{tournament index: GameResult}`` of games not to play (``resume_games``, from
            ``out`` itself when continuing a run): their results are taken as they are, with the
            labels of their lineup. Then ``out`` is first rewritten with the reused rows (through a
            file beside it renamed over it, so an interruption never loses them), the rows of the
            games played are appended as they finish, and at the end the file is rewritten in game
            order: the same bytes as a run that played every game.

    Raises:
        ValueError: unknown bot spec, too few bots, a bad ``games``, or a ``reuse`` index outside
            the schedule.
        RuntimeError: a game failed.
        OSError: ``out`` cannot be written.
    """
    from citygames.bots import make_bot
    from citygames.core import load_game

    from .backends import LocalBackend, RunSpec, ranges
    from .runner import progress_bar
    game = load_game(game_id, **dict(options))
    seats = game.num_players
    specs = list(specs)
    for s in specs:
        make_bot(s, 0)   # ValueError on an unknown bot
    labels = entrant_labels(specs)
    plan = schedule(len(specs), seats, games, seed)
    total = sum(p.games for p in plan)
    owner = [p for p in plan for _ in range(p.games)]     # the seating of each game index
    outside = sorted(i for i in (reuse or {}) if not 0 <= i < total)
    if outside:
        raise ValueError(f"reuse holds game {outside[0]}, outside the schedule's {total} games")
    reuse = {i: replace(r, index=i, bots=tuple(labels[e] for e in owner[i].lineup))
             for i, r in (reuse or {}).items()}
    todo = [i for i in range(total) if i not in reuse]
    done = TournamentResult(labels, specs, seat_counts=np.zeros((len(specs), seats), dtype=int), reused=len(reuse))
    if out is not None and reuse:
        _write_rows(out, seats, (reuse[i] for i in sorted(reuse)))   # the reused rows, under their new index
    fh = open(out, "a" if reuse else "w", newline="") if out is not None else None
    try:
        writer = csv.writer(fh) if fh else None
        if writer and not reuse:
            writer.writerow(csv_header(seats))
        # one run over the whole tournament: every seating in the same worker pool
        seatings = tuple((p.first_index, p.games, tuple(specs[i] for i in p.lineup), p.deal_seed, tuple(p.lineup))
                         for p in plan)
        spec = RunSpec(game_id, dict(options), (), seed, seatings=seatings)
        backend = LocalBackend(max(1, min(workers, len(todo))))
        with progress_bar(f"{game_id} tournament", total, progress, console, done=len(reuse)) as advance:
            pending: dict[int, GameResult] = {}
            nxt = 0

            def in_order():
                """Hand out the games whose every predecessor is known, in game order."""
                nonlocal nxt
                while nxt in reuse or nxt in pending:
                    played = nxt in pending
                    r = pending.pop(nxt) if played else reuse[nxt]
                    p = owner[nxt]
                    nxt += 1
                    done.results.append(r)
                    done.games.append((p.lineup, r.ranks))
                    for seat, e in enumerate(p.lineup):
                        done.seat_counts[e, seat] += 1
                    if writer and not reuse:
                        writer.writerow(_row(r))
                        fh.flush()                 # on disk as soon as it is in order
                    if played and on_game:
                        on_game(r)
            in_order()
            for part in backend.run(spec, ranges(todo)):
                for r in part:
                    r = replace(r, bots=tuple(labels[i] for i in owner[r.index].lineup))
                    pending[r.index] = r
                    if writer and reuse:
                        writer.writerow(_row(r))   # resuming: on disk as soon as played, in order at the end
                if writer and reuse:
                    fh.flush()
                in_order()
                advance(len(part))
    finally:
        if fh:
            fh.close()
    if out is not None and reuse and todo:
        _write_rows(out, seats, done.results)
    return done


#: bots whose strength is set by a search budget, and the parameters that are budgets
SEARCH_BOTS = ("mcts", "ismcts")
BUDGETS = ("iterations", "seconds")


@dataclass(frozen=True)
class BudgetSeries:
    """Entrants that are one search bot differing only in budget: a line of the budget curve.

    Attributes:
        label: the bot and its other parameters (``"ismcts"``, ``"ismcts:c=0.7"``).
        budget: the parameter varied, ``"iterations"`` or ``"seconds"``.
        points: ``(budget value, entrant index)``, budget increasing.
    """

    label: str
    budget: str
    points: tuple


def budget_series(specs: Sequence[str]) -> list[BudgetSeries]:
    """The budget curves of a tournament: entrants ``mcts``/``ismcts`` grouped by kind and every
    parameter but the budget (``iterations``, or ``seconds`` when only that is given; a spec with
    neither has the default 1000 iterations). A root ``prior`` given with ``iterations`` counts as
    its share of them, rounded to a percent (the levels give ``iterations // 16``: 6 at 100, 31 at
    500, 187 at 3000 are all ``prior=6%``), so a bot whose prior grows with its budget stays one
    line. Only groups with at least two different budgets count.

    Raises:
        ValueError: a bad spec (``parse_bot_spec``).
    """
    from citygames.bots import parse_bot_spec
    lines: dict = {}
    for e, spec in enumerate(specs):
        kind, params = parse_bot_spec(spec)
        if kind not in SEARCH_BOTS:
            continue
        params = dict(params)
        if params.get("iterations") is None and params.get("seconds") is not None:
            budget, value = "seconds", float(params.pop("seconds"))
        else:
            budget, value = "iterations", float(params.pop("iterations", None) or 1000)
            if params.get("prior"):
                params["prior"] = f"{round(100 * int(params['prior']) / value)}%"
        other = ",".join(f"{k}={v}" for k, v in sorted(params.items()))
        key = (kind + (":" + other if other else ""), budget)
        lines.setdefault(key, []).append((value, e))
    out = []
    for (label, budget), pts in lines.items():
        if len({v for v, _ in pts}) >= 2:
            out.append(BudgetSeries(label, budget, tuple(sorted(pts))))
    return out


def plot_ratings(ratings: Ratings, path: str | Path, title: str = "", specs: Sequence[str] | None = None) -> None:
    """A PNG of the ratings (points) with their 95% intervals (bars), best at the top.

    Given the entrants' ``specs`` and when some are one search bot at several budgets
    (``budget_series``), a second panel plots rating (with its interval) against budget on a log
    axis, a line per series, with the ``random`` and ``greedy`` entrants as horizontal references.
    """
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    series = budget_series(specs) if specs is not None else []
    order = ratings.order()[::-1]
    y = np.arange(len(order))
    r = ratings.rating[order]
    how = "bootstrap" if ratings.method == "bootstrap" else "Wald"
    height = 1.2 + 0.45 * len(order)
    if series:
        fig, (ax, bx) = plt.subplots(2, 1, figsize=(7.2, height + 4.2),
                                     gridspec_kw={"height_ratios": [height, 4.2]})
    else:
        fig, ax = plt.subplots(figsize=(7.2, height))
    ax.errorbar(r, y, xerr=[r - ratings.low[order], ratings.high[order] - r], fmt="o", capsize=4)
    ax.axvline(0.0, color="grey", lw=0.8, ls=":")
    ax.set_yticks(y, [ratings.bots[i] for i in order])
    ax.set_xlabel(f"Bradley–Terry rating (Elo points, mean 0), 95% {how} interval")
    if title:
        ax.set_title(title, fontsize=10)
    if series:
        units = {"iterations": "iterations per move", "seconds": "seconds per move"}
        mixed = len({line.budget for line in series}) > 1
        for k, line in enumerate(series):
            # a small sideways shift per line, so that lines at the same budgets do not hide each other
            xs = np.array([v for v, _ in line.points]) * 1.04 ** (k - (len(series) - 1) / 2)
            es = [e for _, e in line.points]
            ys = ratings.rating[es]
            bx.errorbar(xs, ys, yerr=[ys - ratings.low[es], ratings.high[es] - ys], fmt="o-", capsize=4,
                        label=f"{line.label} ({units[line.budget]})" if mixed else line.label)
        for e, name in enumerate(ratings.bots):
            kind = (specs[e] if specs is not None else name).strip()
            if kind in ("random", "greedy"):
                bx.axhline(ratings.rating[e], color="grey" if kind == "random" else "black", lw=1,
                           ls=":" if kind == "random" else "--", label=name)
        from matplotlib.ticker import NullFormatter, ScalarFormatter
        ticks = sorted({v for line in series for v, _ in line.points})
        bx.set_xscale("log")
        bx.set_xlim(ticks[0] / 1.4, ticks[-1] * 1.4)
        bx.set_xticks(ticks)
        bx.xaxis.set_major_formatter(ScalarFormatter())
        bx.xaxis.set_minor_formatter(NullFormatter())
        budgets = sorted({line.budget for line in series})
        bx.set_xlabel("search budget (" + " / ".join(units[b] for b in budgets) + ", log scale)")
        bx.set_ylabel("rating (Elo points)")
        bx.set_title("Rating against search budget (95% intervals)", fontsize=10)
        bx.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=3, frameon=False)
        bx.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
