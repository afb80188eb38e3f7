"""Reports of simulation studies: ``citygames report RESULTS [RESULTS_B] --out DIR``.

``build_report(results, out)`` reads one results folder (``citygames.sim.results``) and writes
``out/index.html``, a static page (inline CSS, no JavaScript; it opens from disk) with PNG plots
beside it (for papers) and ``components.csv``, the full per-component table. Its sections:

``run``         what was run (meta.json): game, options, data overrides, bots, seed, games, backend;
``win-rates``   win rate by seat (and by bot) with 95% Wilson intervals, against the fair share 1/n;
``scores``      score distributions (victory points) by seat and by bot;
``categories``  score categories: mean victory points per seat-game, share of points gained and lost,
                winners against the others;
``length``      game length (actions) and outcomes;
``components``  the balance table: per (kind, component, event), how often it happened and the win
                rate of the seat-games where it did against those where it did not.

``build_comparison(a, b, out)`` compares two runs of the same game (B - A): metadata side by side,
win rates (Newcombe's hybrid score interval, built from Wilson intervals), mean scores and categories
(Welch's t interval), game length and outcomes, and the win rate when a component happened.

Definitions used throughout:

- a *seat-game* is one (game, seat) pair of the ``seats`` table;
- a seat-game is *won* when that seat is the sole winner: a shared victory counts as not won;
- all intervals are 95%. Seat-games of one game are not independent (one seat wins each game), so
  intervals that treat them as independent trials are approximate; they are narrow enough to rank
  components, not a substitute for a designed experiment;
- per-component statistics are associations: a component that strong players take looks strong.

Everything is computed with vectorised pyarrow/pandas operations: the components table (up to
millions of rows) is read part by part and only its needed columns, and reduced to one row per
seat-game and component before anything else.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from .results import ResultsError, column_name, iter_table_parts, read_meta, read_table
from .stats import Z95

#: how many components each end of a ranked list shows (strongest and weakest)
TOP = 15
#: a component is ranked only with at least this many seat-games where it happened and where it did not
MIN_COUNT = 20

COMPONENT_KEYS = ["kind", "component", "event"]


# --- statistics -----------------------------------------------------------------------------------
def wilson(successes, trials, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score intervals of binomial proportions, vectorised (``stats.wilson_interval`` for arrays).

    Args:
        successes, trials: counts (arrays or scalars); 0 trials give ``(0, 1)``.
        z: normal quantile (default 95% two-sided).

    Returns:
        ``(low, high)`` arrays of proportions in ``[0, 1]``.
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(n > 0, k / n, 0.0)
        z2 = z * z
        denom = 1 + z2 / n
        centre = (p + z2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
        low = np.where(n > 0, np.maximum(0.0, centre - half), 0.0)
        high = np.where(n > 0, np.minimum(1.0, centre + half), 1.0)
    return low, high


def newcombe_difference(k1, n1, k2, n2, z: float = Z95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Difference of two independent proportions ``k1/n1 - k2/n2`` with Newcombe's hybrid score
    interval (method 10 of Newcombe 1998: the two Wilson intervals combined), vectorised.

    Returns:
        ``(difference, low, high)`` arrays; NaN where either group is empty.
    """
    k1, n1, k2, n2 = (np.asarray(x, dtype=float) for x in (k1, n1, k2, n2))
    with np.errstate(divide="ignore", invalid="ignore"):
        p1 = np.where(n1 > 0, k1 / n1, np.nan)
        p2 = np.where(n2 > 0, k2 / n2, np.nan)
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    low = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, low, high


def t_quantile(p, df):
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (scipy's ``t.ppf``; scalars
    or arrays; ``df`` infinite gives the normal quantile).

    Raises:
        ValueError: ``p`` outside (0, 1).
    """
    from scipy.stats import t
    p_arr = np.asarray(p, dtype=float)
    if np.any((p_arr <= 0.0) | (p_arr >= 1.0)):
        raise ValueError(f"p must be in (0, 1), got {p}")
    q = t.ppf(p_arr, df)
    return float(q) if np.ndim(q) == 0 else q


def welch_difference(mean_a, var_a, n_a, mean_b, var_b, n_b, level: float = 0.95):
    """Difference of two means ``mean_b - mean_a`` with Welch's t interval (unequal variances,
    Welch-Satterthwaite degrees of freedom), for scalars or arrays.

    Args:
        mean_a, var_a, n_a: mean, sample variance (ddof 1) and size of sample A; likewise B.
        level: confidence level.

    Returns:
        ``(difference, low, high)`` arrays in the samples' unit; NaN bounds when a sample has fewer
        than 2 values. Two constant samples give a zero-width interval.
    """
    ma, va, na, mb, vb, nb = (np.atleast_1d(np.asarray(x, dtype=float)) for x in
                              (mean_a, var_a, n_a, mean_b, var_b, n_b))
    d = mb - ma
    with np.errstate(divide="ignore", invalid="ignore"):
        sa, sb = va / na, vb / nb
        se = np.sqrt(sa + sb)
        df = (sa + sb) ** 2 / (sa * sa / (na - 1) + sb * sb / (nb - 1))
    low = np.full_like(d, np.nan)
    high = np.full_like(d, np.nan)
    for i in range(len(d)):   # one quantile per compared quantity (a handful), not per row of data
        if na[i] < 2 or nb[i] < 2 or not np.isfinite(se[i]):
            continue
        q = t_quantile(0.5 + level / 2, df[i]) if se[i] > 0 else 0.0
        low[i], high[i] = d[i] - q * se[i], d[i] + q * se[i]
    return d, low, high


# --- reading a run --------------------------------------------------------------------------------
@dataclass
class Run:
    """One results folder, reduced to what the report needs.

    Attributes:
        path: the folder.
        meta: its ``meta.json``.
        seats: the ``seats`` table (``game``, ``seat``, ``bot``, ``score``, ``won``, ``shared`` and
            the ``cat_`` columns) as a DataFrame, one row per seat-game.
        games: the ``games`` table (``game``, ``num_players``, ``actions``, ``winner``,
            ``winner_bot``, ``outcome``) as a DataFrame.
        categories: ``(category name, column)`` of each score category.
        components: ``component_stats`` of the folder.
    """

    path: Path
    meta: dict
    seats: "object"
    games: "object"
    categories: list = field(default_factory=list)
    components: "object" = None

    @property
    def num_players(self) -> int:
        """Seats per game (the largest seen)."""
        return int(self.games["num_players"].max())

    @property
    def several_bots(self) -> bool:
        """Whether more than one bot name played."""
        return self.seats["bot"].nunique() > 1

    @property
    def label(self) -> str:
        """The folder's name."""
        return self.path.name


def load_run(path: str | Path) -> Run:
    """Read a results folder (only the columns the report uses).

    Raises:
        ResultsError: not a results folder, or a folder without any game.
    """
    path = Path(path)
    meta = read_meta(path)
    cats = [(c, column_name("cat_", c)) for c in meta.get("categories", [])]
    seat_cols = ["game", "seat", "bot", "score", "won", "shared"] + [col for _, col in cats]
    seats = read_table(path, "seats", seat_cols).to_pandas()
    games = read_table(path, "games", ["game", "num_players", "actions", "winner", "winner_bot",
                                       "outcome"]).to_pandas()
    if games.empty or seats.empty:
        raise ResultsError(f"{path} holds no finished game yet")
    seats["seat"] = seats["seat"].astype(int)
    run = Run(path=path, meta=meta, seats=seats, games=games, categories=cats)
    run.components = component_stats(path, len(seats), int(seats["won"].sum()))
    return run


def _part_component_counts(part):
    """One part of the components table reduced to ``kind, component, event, with_n, with_wins,
    when_sum``: each (game, seat, kind, component, event) counted once (``won`` of that seat-game,
    ``when`` the first time), then summed per component. Vectorised on integer codes: the string
    columns are read dictionary-encoded and their codes combined into one integer key."""
    import pandas as pd
    import pyarrow.compute as pc
    if part.num_rows == 0:
        return pd.DataFrame()
    part = part.unify_dictionaries().combine_chunks()
    codes, names = [], []
    for k in COMPONENT_KEYS:
        col = part.column(k).chunk(0)
        codes.append(col.indices.to_numpy(zero_copy_only=False).astype(np.int64))
        names.append(np.asarray(col.dictionary.to_pylist(), dtype=object))
    c_n, e_n = len(names[1]), len(names[2])
    combos, combo = np.unique((codes[0] * c_n + codes[1]) * e_n + codes[2], return_inverse=True)
    seat_game = (part.column("game").to_numpy().astype(np.int64) * 256
                 + part.column("seat").to_numpy().astype(np.int64))
    key = seat_game * len(combos) + combo.ravel()
    order = np.argsort(key, kind="stable")
    key = key[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])     # first row of each seat-game x component
    won = np.maximum.reduceat(part.column("won").to_numpy(zero_copy_only=False).astype(np.int64)[order], starts)
    when_col = pc.fill_null(part.column("when"), 0)   # 0: "not meaningful", as Game.facts says
    when = np.minimum.reduceat(when_col.to_numpy().astype(np.int64)[order], starts)
    which = key[starts] % len(combos)
    m = len(combos)
    return pd.DataFrame({
        "kind": names[0][combos // (c_n * e_n)], "component": names[1][(combos // e_n) % c_n],
        "event": names[2][combos % e_n], "with_n": np.bincount(which, minlength=m),
        "with_wins": np.bincount(which, weights=won, minlength=m).astype(np.int64),
        "when_sum": np.bincount(which, weights=when, minlength=m)})


def component_stats(path: str | Path, seat_games: int, wins: int):
    """The balance table of a results folder: one row per (kind, component, event).

    A seat-game counts once for a component even when the component appears several times for
    that seat in that game. With ``N`` seat-games of which ``W`` were won:

    - ``with_n``: seat-games in which it happened at least once; ``share = with_n / N``
      (``share_low``/``share_high``: Wilson 95%);
    - ``with_wins``, ``with_rate``: how many of those the seat won, and the rate (Wilson 95%
      ``with_low``/``with_high``);
    - ``without_n = N - with_n``, ``without_wins = W - with_wins``, ``without_rate`` (Wilson 95%);
    - ``difference = with_rate - without_rate`` with Newcombe's hybrid score interval
      (``diff_low``/``diff_high``), treating the two groups as independent;
    - ``when_mean``: mean round or age (the ``when`` column) of the first time it happened.

    The components table is read part by part (a game's rows are all in one part) and only the
    columns ``game, seat, won, kind, component, event, when``.

    Returns:
        a DataFrame sorted by ``difference`` (largest first); empty, with these columns, when the
        folder has no component facts.
    """
    import pandas as pd
    per_part = [_part_component_counts(part) for part in
                iter_table_parts(path, "components", ["game", "seat", *COMPONENT_KEYS, "won", "when"],
                                 read_dictionary=COMPONENT_KEYS)]
    per_part = [p for p in per_part if len(p)]
    cols = ["kind", "component", "event", "with_n", "share", "share_low", "share_high", "with_wins",
            "with_rate", "with_low", "with_high", "without_n", "without_wins", "without_rate", "without_low",
            "without_high", "difference", "diff_low", "diff_high", "when_mean"]
    if not per_part:
        return pd.DataFrame({c: pd.Series(dtype=object if c in COMPONENT_KEYS else float) for c in cols})
    df = pd.concat(per_part, ignore_index=True).groupby(COMPONENT_KEYS, as_index=False, sort=False).sum()
    n = df["with_n"].to_numpy(dtype=float)
    k = df["with_wins"].to_numpy(dtype=float)
    df["when_mean"] = df["when_sum"] / df["with_n"]
    df["share"] = n / seat_games
    df["share_low"], df["share_high"] = wilson(n, seat_games)
    df["with_rate"] = k / n
    df["with_low"], df["with_high"] = wilson(k, n)
    df["without_n"] = seat_games - df["with_n"]
    df["without_wins"] = wins - df["with_wins"]
    nn = df["without_n"].to_numpy(dtype=float)
    kk = df["without_wins"].to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        df["without_rate"] = np.where(nn > 0, kk / np.where(nn > 0, nn, 1), np.nan)
    df["without_low"], df["without_high"] = wilson(kk, nn)
    df["difference"], df["diff_low"], df["diff_high"] = newcombe_difference(k, n, kk, nn)
    df = df[cols].sort_values(["difference", "with_n"], ascending=[False, False], kind="stable")
    return df.reset_index(drop=True)


def ranked(components, min_count: int = MIN_COUNT, top: int = TOP, n_col="with_n", m_col="without_n",
           by: str = "difference"):
    """The strongest and weakest rows of a component table: those with at least ``min_count``
    seat-games on both sides (``n_col`` and ``m_col``), sorted by ``by`` (largest first); all of
    them when there are at most ``2 * top``, else the ``top`` first and ``top`` last.

    Returns:
        ``(rows, eligible)``: the DataFrame to show and the number of rows that qualified.
    """
    ok = components[(components[n_col] >= min_count) & (components[m_col] >= min_count)]
    ok = ok.sort_values(by, ascending=False, kind="stable")
    if len(ok) <= 2 * top:
        return ok, len(ok)
    return ok.iloc[list(range(top)) + list(range(len(ok) - top, len(ok)))], len(ok)


# --- tables of one run ---------------------------------------------------------------------------
def _seat_bots(seats):
    """Per seat, the bot names that played it (comma-separated, sorted)."""
    pairs = seats[["seat", "bot"]].drop_duplicates().sort_values(["seat", "bot"])
    return pairs.groupby("seat")["bot"].agg(",".join)


def win_rates(seats, by: str = "seat"):
    """Win rate of each seat (``by="seat"``) or bot name (``by="bot"``).

    Columns: ``games`` (seat-games), ``wins`` (sole victories), ``shared`` (shared victories, not
    counted as wins), ``rate = wins / games`` and its Wilson 95% interval ``low``/``high``.
    """
    g = seats.groupby(by, sort=True)
    t = g.agg(games=("won", "size"), wins=("won", "sum"), shared=("shared", "sum"))
    t["rate"] = t["wins"] / t["games"]
    t["low"], t["high"] = wilson(t["wins"].to_numpy(), t["games"].to_numpy())
    return t


def score_summary(seats, by: str = "seat", column: str = "score"):
    """Distribution of ``column`` (victory points) per seat or bot: ``n``, ``mean``, ``sd`` (ddof 1),
    the mean's 95% t interval ``mean_low``/``mean_high``, ``min``, quartiles ``q1``/``median``/``q3``
    and ``max``."""
    g = seats.groupby(by, sort=True)[column]
    t = g.agg(n="size", mean="mean", sd="std", min="min", max="max")
    q = g.quantile([0.25, 0.5, 0.75]).unstack()
    t["q1"], t["median"], t["q3"] = q[0.25], q[0.5], q[0.75]
    half = np.array([t_quantile(0.975, n - 1) if n > 1 else np.nan for n in t["n"]]) * t["sd"] / np.sqrt(t["n"])
    t["mean_low"], t["mean_high"] = t["mean"] - half, t["mean"] + half
    return t


def category_table(run: Run):
    """Score categories (victory points per seat-game), one row per category.

    Columns: ``mean`` over every seat-game; ``seat <i>`` the mean for each seat; ``winners`` and
    ``others`` the means over won seat-games and the rest (shared victories among the others);
    ``gain_share``: the category's positive points as a share of all positive category points of the
    run; ``loss_share``: likewise for negative points (penalties).
    """
    import pandas as pd
    cols = [col for _, col in run.categories]
    names = [name for name, _ in run.categories]
    s = run.seats
    t = pd.DataFrame(index=pd.Index(names, name="category"))
    t["mean"] = s[cols].mean().to_numpy()
    for seat, means in s.groupby("seat")[cols].mean().iterrows():
        t[f"seat {seat}"] = means.to_numpy()
    won = s["won"].to_numpy(dtype=bool)
    t["winners"] = s.loc[won, cols].mean().to_numpy() if won.any() else np.nan
    t["others"] = s.loc[~won, cols].mean().to_numpy() if (~won).any() else np.nan
    values = s[cols].to_numpy(dtype=float)
    gains = np.clip(values, 0, None).sum(axis=0)
    losses = np.clip(values, None, 0).sum(axis=0)
    t["gain_share"] = gains / gains.sum() + 0.0 if gains.sum() > 0 else 0.0   # + 0.0: no "-0.0%"
    t["loss_share"] = losses / losses.sum() + 0.0 if losses.sum() < 0 else 0.0
    return t


def length_summary(games):
    """Game length in actions: ``n``, ``mean``, ``sd``, ``min``, quartiles, ``max`` (a dict)."""
    a = games["actions"]
    return {"n": len(a), "mean": a.mean(), "sd": a.std() if len(a) > 1 else 0.0, "min": a.min(),
            "q1": a.quantile(0.25), "median": a.median(), "q3": a.quantile(0.75), "max": a.max()}


def outcome_table(games):
    """How the games were decided: per outcome, ``games``, ``share`` of all games (Wilson 95%
    ``low``/``high``) and, per bot name, how many games its seat won that way (``won by <bot>``).
    Empty when the game reports no outcomes."""
    import pandas as pd
    o = games["outcome"].dropna()
    if o.empty:
        return pd.DataFrame(columns=["games", "share", "low", "high"])
    t = o.value_counts().to_frame("games")
    t.index.name = "outcome"
    t["share"] = t["games"] / len(games)
    t["low"], t["high"] = wilson(t["games"].to_numpy(), len(games))
    by_bot = pd.crosstab(games["outcome"], games["winner_bot"])
    for bot in by_bot.columns:
        t[f"won by {bot}"] = by_bot[bot].reindex(t.index).fillna(0).astype(int)
    return t


# --- formatting -----------------------------------------------------------------------------------
def _esc(x) -> str:
    return html.escape(str(x), quote=True)


def _pct(x, digits: int = 1) -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.{digits}f}%"


def _ci(lo, hi, scale: float = 100.0, digits: int = 1, unit: str = "%", signed: bool | None = None) -> str:
    """An interval as ``"23.6 to 32.3%"`` (signed bounds for differences: ``"-1.8 to +5.6 pp"``)."""
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return ""
    sign = "+" if (unit == " pp" if signed is None else signed) else ""
    return f"{scale * lo:{sign}.{digits}f} to {scale * hi:{sign}.{digits}f}{unit}"


def _pp(x, digits: int = 1) -> str:
    """A difference of proportions in percentage points, signed."""
    return "" if x is None or math.isnan(x) else f"{100 * x:+.{digits}f} pp"


def _num(x, digits: int = 2, sign: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    if isinstance(x, (int, np.integer)):
        return f"{x:+,d}" if sign else f"{x:,d}"
    return f"{x:+,.{digits}f}" if sign else f"{x:,.{digits}f}"


def _table(headers: Sequence[str], rows: Sequence[Sequence], numeric: Sequence[bool] | None = None,
           row_classes: Sequence[str] | None = None) -> str:
    """An HTML table; cells are escaped; ``numeric`` right-aligns columns."""
    numeric = list(numeric) if numeric is not None else [False] + [True] * (len(headers) - 1)
    out = ["<table>", "<thead><tr>"]
    out += [f'<th class="{"num" if numeric[i] else ""}">{_esc(h)}</th>' for i, h in enumerate(headers)]
    out.append("</tr></thead><tbody>")
    for r, row in enumerate(rows):
        cls = f' class="{row_classes[r]}"' if row_classes and row_classes[r] else ""
        out.append(f"<tr{cls}>" + "".join(f'<td class="{"num" if numeric[i] else ""}">{_esc(v)}</td>'
                                          for i, v in enumerate(row)) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _clip_label(text: str, width: int = 48) -> str:
    text = str(text)
    return text if len(text) <= width else text[: width - 1] + "…"


def component_labels(rows, width: int = 40) -> list[str]:
    """Plot labels of component rows: ``"component (event)"``, prefixed by ``"kind: "`` when the rows
    are of several kinds; a long component name is shortened (never the event)."""
    kinds = rows["kind"].nunique() > 1
    return [(f"{r['kind']}: " if kinds else "") + f"{_clip_label(r['component'], width)} ({r['event']})"
            for _, r in rows.iterrows()]


CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto; max-width: 1100px;
       padding: 1rem 2rem 4rem; color: #222; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #ccc; }
h3 { margin-bottom: .3rem; }
p.how { color: #444; max-width: 60rem; } p.note { color: #666; font-size: .9rem; }
nav a { margin-right: 1rem; }
img { max-width: 100%; height: auto; display: block; margin: .6rem 0; }
table { border-collapse: collapse; margin: .6rem 0 1rem; font-size: .88rem; }
td.num { white-space: nowrap; }
th, td { padding: .18rem .6rem; border-bottom: 1px solid #e3e3e3; text-align: left; vertical-align: top; }
th { background: #f4f4f4; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.differs td { background: #fff3c4; font-weight: 600; }
tr.gap td { background: #fafafa; color: #888; text-align: center; }
code { background: #f4f4f4; padding: 0 .2rem; }
"""


def _page(title: str, subtitle: str, sections: Sequence[tuple[str, str, str]]) -> str:
    """The HTML page: ``sections`` are ``(id, heading, body html)``."""
    nav = " ".join(f'<a href="#{sid}">{_esc(head)}</a>' for sid, head, _ in sections)
    body = "\n".join(f'<section id="{sid}">\n<h2>{_esc(head)}</h2>\n{content}\n</section>'
                     for sid, head, content in sections)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{_esc(title)}</title>\n'
            f"<style>{CSS}</style>\n</head>\n<body>\n<h1>{_esc(title)}</h1>\n<p class=\"note\">{_esc(subtitle)}</p>\n"
            f"<nav>{nav}</nav>\n{body}\n</body>\n</html>\n")


def _how(text: str) -> str:
    return f'<p class="how">{_esc(text)}</p>'


def _img(name: str, alt: str) -> str:
    return f'<img src="{_esc(name)}" alt="{_esc(alt)}">'


# --- plots ----------------------------------------------------------------------------------------
COLORS = ["#3b6ea5", "#d9822b", "#4a9a5b", "#b8474b", "#7d5ba6", "#8c6d46", "#c76fa8", "#6b6b6b"]


def _figure(width: float, height: float, ncols: int = 1, nrows: int = 1, **kw):
    from matplotlib.figure import Figure
    fig = Figure(figsize=(width, height), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, **kw)
    return fig, axes.ravel()


def _save(fig, out: Path, name: str) -> str:
    fig.savefig(out / name, dpi=130)
    return name


def _yerr(est, low, high):
    """Error-bar lengths below and above ``est`` (never negative: rounding can put a bound a hair inside)."""
    est, low, high = (np.asarray(v, dtype=float) for v in (est, low, high))
    return [np.clip(est - low, 0, None), np.clip(high - est, 0, None)]


def _rate_axis(ax, labels, rate, low, high, fair=None, title=""):
    x = np.arange(len(labels))
    ax.bar(x, rate, color=COLORS[0], alpha=.75, width=.6)
    ax.errorbar(x, rate, yerr=_yerr(rate, low, high), fmt="none", ecolor="#222", capsize=4, lw=1.2)
    if fair is not None:
        ax.axhline(fair, color="#b8474b", ls="--", lw=1.2, label=f"fair share 1/{round(1 / fair)} = {fair:.1%}")
        ax.legend(loc="upper right", fontsize=8, frameon=False)
    ax.set_xticks(x, labels, fontsize=8)
    ax.set_ylim(0, min(1.0, max(float(np.nanmax(high)) * 1.25, (fair or 0) * 1.6, 0.05)))
    ax.yaxis.set_major_formatter(_percent_formatter())
    ax.set_ylabel("win rate (sole victories)")
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=.3)


def _percent_formatter(points: bool = False):
    """Tick labels of proportions: ``"25%"``, ``"2.5%"``; with ``points``, differences ``"+2.5 pp"``."""
    from matplotlib.ticker import FuncFormatter

    def pct(v: float) -> str:
        return f"{round(100 * v, 6):g}"
    if points:
        return FuncFormatter(lambda v, _: ("+" if v > 0 else "") + pct(v) + " pp" if abs(v) > 1e-12 else "0")
    return FuncFormatter(lambda v, _: pct(v) + "%")


def _forest(ax, labels, est, low, high, title="", xlabel="", percent_points=False, colors=None, split=None):
    """A forest plot: one row per label (top to bottom), point and interval, a line at 0.
    ``split``: draw a separator after that many rows (between strongest and weakest)."""
    y = np.arange(len(labels))[::-1]
    est, low, high = (np.asarray(v, dtype=float) for v in (est, low, high))
    cols = colors if colors is not None else [COLORS[0] if e >= 0 else COLORS[3] for e in est]
    for yi, e, lo, hi, c in zip(y, est, low, high, cols):
        ax.plot([lo, hi], [yi, yi], color=c, lw=1.6)
        ax.plot([e], [yi], "o", color=c, ms=4.5)
    ax.axvline(0, color="#444", lw=.9)
    ax.set_yticks(y, [_clip_label(lb, 60) for lb in labels], fontsize=8)
    ax.set_ylim(-0.7, len(labels) - 0.3)
    if split is not None and 0 < split < len(labels):
        ax.axhline(len(labels) - split - 0.5, color="#999", lw=.8, ls=":")
    if percent_points:
        ax.xaxis.set_major_formatter(_percent_formatter(points=True))
    ax.set_xlabel(xlabel, fontsize=9)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=.3)


def _box_axis(ax, groups: dict, title: str, ylabel: str = "score (victory points)"):
    labels = list(groups)
    data = [np.asarray(v, dtype=float) for v in groups.values()]
    ax.boxplot(data, tick_labels=labels, showfliers=False, showmeans=True, whis=(5, 95),
               meanprops={"marker": "D", "markerfacecolor": "white", "markeredgecolor": "#222", "markersize": 5},
               medianprops={"color": COLORS[1], "lw": 1.6}, patch_artist=True,
               boxprops={"facecolor": "#dce6f2", "edgecolor": "#3b6ea5"})
    ax.tick_params(axis="x", labelsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=.3)


def _seat_labels(run: Run, seats) -> list[str]:
    bots = _seat_bots(run.seats)
    return [f"seat {s}\n{_clip_label(bots.get(s, ''), 18)}" if run.several_bots else f"seat {s}" for s in seats]


def plot_win_rates(run: Run, out: Path) -> str:
    """``win_rates.png``: win rate by seat (and by bot) with Wilson 95% error bars and 1/n."""
    by_seat = win_rates(run.seats, "seat")
    several = run.several_bots
    fig, axes = _figure(10 if several else 6.5, 3.6, ncols=2 if several else 1)
    _rate_axis(axes[0], _seat_labels(run, by_seat.index), by_seat["rate"].to_numpy(), by_seat["low"].to_numpy(),
               by_seat["high"].to_numpy(), fair=1 / run.num_players, title="by seat")
    if several:
        by_bot = win_rates(run.seats, "bot")
        _rate_axis(axes[1], [_clip_label(b, 18) for b in by_bot.index], by_bot["rate"].to_numpy(),
                   by_bot["low"].to_numpy(), by_bot["high"].to_numpy(), fair=1 / run.num_players, title="by bot")
    return _save(fig, out, "win_rates.png")


def plot_scores(run: Run, out: Path) -> str:
    """``scores.png``: box plots of the score per seat (and per bot)."""
    several = run.several_bots
    fig, axes = _figure(10 if several else 6.5, 3.8, ncols=2 if several else 1, sharey=True)
    seats = sorted(run.seats["seat"].unique())
    labels = _seat_labels(run, seats)
    by_seat = {lab: grp["score"].to_numpy() for lab, (_, grp) in zip(labels, run.seats.groupby("seat", sort=True))}
    _box_axis(axes[0], by_seat, "by seat")
    if several:
        by_bot = {_clip_label(b, 18): grp["score"].to_numpy() for b, grp in run.seats.groupby("bot", sort=True)}
        _box_axis(axes[1], by_bot, "by bot", ylabel="")
    return _save(fig, out, "scores.png")


def plot_categories(run: Run, table, out: Path) -> str:
    """``categories.png``: mean victory points per category, per seat (diverging bars around 0), and
    winners against the others."""
    names = [_clip_label(n, 28) for n in table.index]
    k = len(names)
    y = np.arange(k)[::-1]
    fig, axes = _figure(11, max(2.6, 0.42 * k + 1.2), ncols=2, sharey=True)
    seat_cols = [c for c in table.columns if c.startswith("seat ")]
    h = 0.8 / max(1, len(seat_cols))
    for i, c in enumerate(seat_cols):
        axes[0].barh(y + 0.4 - h * (i + 0.5), table[c], height=h, color=COLORS[i % len(COLORS)], label=c)
    axes[0].set_title("mean per seat-game, by seat", fontsize=10)
    for i, (c, color) in enumerate((("winners", COLORS[2]), ("others", COLORS[7]))):
        axes[1].barh(y + 0.2 - 0.4 * i, table[c], height=0.4, color=color, label=c)
    axes[1].set_title("mean per seat-game, winners vs. others", fontsize=10)
    for ax in axes:
        ax.axvline(0, color="#222", lw=.9)
        ax.set_xlabel("victory points")
        ax.grid(axis="x", alpha=.3)
        ax.legend(fontsize=8, frameon=False, loc="best")
    axes[0].set_yticks(y, names, fontsize=8)
    return _save(fig, out, "categories.png")


def plot_length(run: Run, outcomes, out: Path) -> str:
    """``length.png``: histogram of game length (actions), and outcome shares when reported."""
    has_outcomes = not outcomes.empty
    fig, axes = _figure(10 if has_outcomes else 6.5, 3.4, ncols=2 if has_outcomes else 1)
    a = run.games["actions"].to_numpy()
    lo, hi = int(a.min()), int(a.max())
    bins = np.arange(lo, hi + 2) - 0.5 if hi - lo <= 80 else 60
    axes[0].hist(a, bins=bins, color=COLORS[0], alpha=.8)
    axes[0].axvline(a.mean(), color=COLORS[3], ls="--", lw=1.2, label=f"mean {a.mean():.1f}")
    axes[0].legend(fontsize=8, frameon=False)
    axes[0].set_xlabel("game length (actions)")
    axes[0].set_ylabel("games")
    axes[0].set_title("game length", fontsize=10)
    axes[0].grid(axis="y", alpha=.3)
    if has_outcomes:
        labels = [_clip_label(o, 20) for o in outcomes.index]
        x = np.arange(len(labels))
        share = outcomes["share"].to_numpy()
        axes[1].bar(x, share, color=COLORS[1], alpha=.8, width=.6)
        axes[1].errorbar(x, share, yerr=_yerr(share, outcomes["low"], outcomes["high"]),
                         fmt="none", ecolor="#222", capsize=4)
        axes[1].set_xticks(x, labels, fontsize=8)
        axes[1].yaxis.set_major_formatter(_percent_formatter())
        axes[1].set_ylabel("share of games")
        axes[1].set_title("outcomes", fontsize=10)
        axes[1].grid(axis="y", alpha=.3)
    return _save(fig, out, "length.png")


def plot_components(rows, split, out: Path, name: str = "components.png", title: str = "",
                    est="difference", low="diff_low", high="diff_high",
                    xlabel="win rate when it happened − when it did not") -> str:
    """A forest plot of ranked component rows (``ranked``): the difference and its 95% interval."""
    labels = component_labels(rows)
    kinds = rows["kind"].unique()
    title = title + (f" (all of kind {kinds[0]})" if len(kinds) == 1 else "")
    fig, axes = _figure(9, max(2.2, 0.24 * len(labels) + 1.1))
    _forest(axes[0], labels, rows[est], rows[low], rows[high], title=title, xlabel=xlabel,
            percent_points=True, split=split)
    return _save(fig, out, name)


def plot_component_overview(comps, out: Path, min_count: int) -> str:
    """``components_all.png``: every component as a point, share of seat-games in which it happened
    against the win-rate difference (the ranked ones filled)."""
    fig, axes = _figure(9, 3.8)
    ax = axes[0]
    ok = (comps["with_n"] >= min_count) & (comps["without_n"] >= min_count)
    if (~ok).any():
        ax.scatter(comps.loc[~ok, "share"], comps.loc[~ok, "difference"], s=10, facecolors="none",
                   edgecolors="#999", lw=.7, label=f"fewer than {min_count} seat-games on a side")
    ax.scatter(comps.loc[ok, "share"], comps.loc[ok, "difference"], s=12, color=COLORS[0], alpha=.7,
               label="ranked")
    ax.axhline(0, color="#444", lw=.9)
    share = comps["share"][comps["share"] > 0]
    log = len(share) and share.max() / share.min() > 20
    if log:
        from matplotlib.ticker import NullFormatter
        ax.set_xscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())
    ax.xaxis.set_major_formatter(_percent_formatter())
    ax.yaxis.set_major_formatter(_percent_formatter(points=True))
    ax.set_xlabel("share of seat-games in which it happened" + (" (log scale)" if log else ""))
    ax.set_ylabel("win-rate difference")
    ax.set_title(f"all {len(comps)} (kind, component, event) rows", fontsize=10)
    ax.grid(alpha=.3)
    ax.legend(fontsize=8, frameon=False)
    return _save(fig, out, "components_all.png")


# --- the report of one run ------------------------------------------------------------------------
def _fmt_value(v) -> str:
    return v if isinstance(v, str) else json.dumps(v, sort_keys=True)


def _meta_rows(run: Run) -> list[tuple[str, str]]:
    """``(field, value)`` rows describing a run (what the Run section shows)."""
    m = run.meta
    rows = [("game", m.get("game", "")), ("folder", str(run.path))]
    for k, v in sorted((m.get("options") or {}).items()):
        rows.append((f"option {k}", _fmt_value(v)))
    overrides = m.get("overrides") or {}
    rows.append(("data overrides", f"{len(overrides)}: {', '.join(sorted(overrides))}" if overrides else "none"))
    for k, v in sorted(overrides.items()):
        rows.append((f"override {k}", _fmt_value(v)))
    rows += [("bots (seat order)", ", ".join(m.get("bots", []))), ("seed", str(m.get("seed", ""))),
             ("games asked", f"{m['games']:,}" if isinstance(m.get("games"), int) else str(m.get("games", ""))),
             ("games in the folder", f"{len(run.games):,}"),
             ("backend", str(m.get("backend", ""))), ("citygames version", str(m.get("citygames_version", "")))]
    return [(k, v if v != "" else "—") for k, v in rows]


def _section_run(run: Run) -> str:
    rows = _meta_rows(run)
    return (_how("What was simulated, from the folder's meta.json. Game i used seed SEED+i, so any game can be "
                 "replayed alone.") + _table(["field", "value"], rows, numeric=[False, False]))


def _section_win_rates(run: Run, out: Path) -> str:
    n = run.num_players
    png = plot_win_rates(run, out)
    by_seat = win_rates(run.seats, "seat")
    bots = _seat_bots(run.seats)
    rows = [(f"seat {s}", bots.get(s, ""), f"{int(r.games):,}", f"{int(r.wins):,}", f"{int(r.shared):,}", _pct(r.rate),
             _ci(r.low, r.high), _pp(r.rate - 1 / n)) for s, r in by_seat.iterrows()]
    body = (_how(f"Share of games each seat won alone (bars) with its 95% Wilson interval (whiskers). With {n} "
                 f"seats a balanced game gives each about 1/{n} = {1 / n:.1%} (dashed line, a little less when "
                 f"victories are shared); seat 0 far above it means a first-player advantage.")
            + _img(png, "win rate by seat") +
            _table(["seat", "bot", "games", "wins", "shared", "win rate", "95% CI", "vs. 1/n"], rows,
                   numeric=[False, False] + [True] * 6))
    if run.several_bots:
        by_bot = win_rates(run.seats, "bot")
        rows = [(b, f"{int(r.games):,}", f"{int(r.wins):,}", f"{int(r.shared):,}", _pct(r.rate), _ci(r.low, r.high))
                for b, r in by_bot.iterrows()]
        body += "<h3>By bot</h3>" + _table(["bot", "seat-games", "wins", "shared", "win rate", "95% CI"], rows)
    return body


def _score_rows(t) -> list:
    return [(str(k), f"{int(r.n):,}", _num(r["mean"]), _ci(r.mean_low, r.mean_high, 1, 2, ""), _num(r.sd),
             _num(r["min"], 0), _num(r.q1, 1), _num(r["median"], 1), _num(r.q3, 1), _num(r["max"], 0))
            for k, r in t.iterrows()]


def _section_scores(run: Run, out: Path) -> str:
    png = plot_scores(run, out)
    heads = ["n", "mean", "95% CI of mean", "sd", "min", "q1", "median", "q3", "max"]
    t = score_summary(run.seats, "seat")
    t.index = [f"seat {s}" for s in t.index]
    body = (_how("Final scores in victory points. Boxes span the middle half of the seat-games (quartiles), the "
                 "orange line is the median, the diamond the mean, whiskers reach the 5th and 95th percentiles.")
            + _img(png, "score distributions") + _table(["seat"] + heads, _score_rows(t)))
    if run.several_bots:
        body += "<h3>By bot</h3>" + _table(["bot"] + heads, _score_rows(score_summary(run.seats, "bot")))
    return body


def _section_categories(run: Run, out: Path) -> str:
    if not run.categories:
        return _how("This game reports no score categories (its score_breakdown is empty).")
    t = category_table(run)
    png = plot_categories(run, t, out)
    seat_cols = [c for c in t.columns if c.startswith("seat ")]
    rows = [(name, _num(r["mean"], sign=True), *(_num(r[c], sign=True) for c in seat_cols),
             _num(r.winners, sign=True), _num(r.others, sign=True), _num(r.winners - r.others, sign=True),
             _pct(r.gain_share), _pct(r.loss_share)) for name, r in t.iterrows()]
    heads = ["category", "mean", *seat_cols, "winners", "others", "winners − others", "share of gains",
             "share of losses"]
    return (_how("Where the points come from: the mean victory points each category gives a seat in a game "
                 "(negative for penalties; bars left of 0 lose points). Share of gains is the category's part of "
                 "all positive points scored, share of losses its part of all points lost. Winners against "
                 "others shows which categories the winners did better in.")
            + _img(png, "score categories") + _table(heads, rows))


def _section_length(run: Run, out: Path) -> str:
    outcomes = outcome_table(run.games)
    png = plot_length(run, outcomes, out)
    s = length_summary(run.games)
    body = (_how("How long games last, in actions (every decision of every seat counts one); and, for games "
                 "that say how they were decided, the share of each outcome with its 95% Wilson interval.")
            + _img(png, "game length and outcomes")
            + _table(["games", "mean", "sd", "min", "q1", "median", "q3", "max"],
                     [(f"{s['n']:,}", _num(s["mean"], 1), _num(s["sd"], 1), _num(int(s["min"])), _num(s["q1"], 1),
                       _num(s["median"], 1), _num(s["q3"], 1), _num(int(s["max"])))], numeric=[True] * 8))
    if outcomes.empty:
        body += '<p class="note">This game reports no outcomes.</p>'
    else:
        extra = [c for c in outcomes.columns if c.startswith("won by ")]
        rows = [(o, f"{int(r.games):,}", _pct(r.share), _ci(r.low, r.high), *(f"{int(r[c]):,}" for c in extra))
                for o, r in outcomes.iterrows()]
        body += "<h3>Outcomes</h3>" + _table(["outcome", "games", "share", "95% CI", *extra], rows)
    return body


def _component_rows(rows) -> tuple[list, list]:
    out = []
    for _, r in rows.iterrows():
        out.append((r["kind"], r["component"], r["event"], f"{int(r.with_n):,}", _pct(r.share),
                    _pct(r.with_rate), _ci(r.with_low, r.with_high), _pct(r.without_rate),
                    _ci(r.without_low, r.without_high), _pp(r.difference), _ci(r.diff_low, r.diff_high, unit=" pp"),
                    _num(r.when_mean, 1)))
    return out


COMPONENT_HEADS = ["kind", "component", "event", "seat-games", "share", "win rate with", "95% CI",
                   "win rate without", "95% CI", "difference", "95% CI", "mean when"]


def _ranked_table(rows, heads, row_fn, top: int) -> str:
    """A table of ``ranked`` rows with a separator row between the strongest and the weakest."""
    cells = row_fn(rows)
    heads = list(heads)
    if rows["kind"].nunique() == 1:   # one kind (named in the plot's title): no column for it
        heads, cells = heads[1:], [c[1:] for c in cells]
    classes = [""] * len(cells)
    if len(cells) == 2 * top and top > 0:
        gap = tuple(["…"] + [""] * (len(heads) - 1))
        cells = cells[:top] + [gap] + cells[top:]
        classes = classes[:top] + ["gap"] + classes[top:]
    text = len(heads) - sum(1 for h in heads if h not in ("kind", "component", "event"))
    return _table(heads, cells, numeric=[False] * text + [True] * (len(heads) - text), row_classes=classes)


def _section_components(run: Run, out: Path, top: int, min_count: int) -> str:
    comps = run.components
    comps.to_csv(out / "components.csv", index=False, float_format="%.6g")
    how = _how("The designer's balance table. For each component and event (e.g. a tile built), the share of "
               "seat-games in which it happened at least once, and the win rate of those seat-games against "
               "the win rate of the seat-games where it did not happen, with 95% Wilson intervals; the "
               "difference (percentage points, Newcombe's interval) ranks components: a strong component "
               "sits at the top, a weak one at the bottom. This is association, not cause: what good play "
               "picks looks strong. Among hundreds of components about 1 in 20 intervals miss 0 by chance "
               "alone, so weigh the size of a difference, not only its sign. Mean when is the mean round or "
               "age it first happened.")
    link = '<p class="note">Every row: <a href="components.csv">components.csv</a>.</p>'
    if comps.empty:
        return how + ('<p class="note">No component facts in this folder: the game\'s <code>facts</code> '
                      "reports none (or the run predates them), so there is nothing to rank.</p>") + link
    rows, eligible = ranked(comps, min_count=min_count, top=top)
    body = how
    if len(rows):
        split = top if len(rows) == 2 * top else None
        what = (f"the {top} strongest and {top} weakest of {eligible}" if split else f"all {eligible}")
        png = plot_components(rows, split, out, title=f"{what} ranked rows")
        body += _img(png, "win-rate difference per component") + _ranked_table(rows, COMPONENT_HEADS,
                                                                               _component_rows, top)
        body += (f'<p class="note">Showing {what} rows with at least {min_count} seat-games with and without '
                 f"(of {len(comps)} rows in all).</p>")
    else:
        body += (f'<p class="note">No row has {min_count} seat-games both with and without it; simulate more '
                 "games (all rows are in components.csv).</p>")
    body += _img(plot_component_overview(comps, out, min_count), "all components: share against difference")
    return body + link


def _title(meta: dict) -> str:
    opts = ", ".join(f"{k}={v}" for k, v in sorted((meta.get("options") or {}).items()))
    return f"{meta.get('game', '?')} [{opts}]"


def build_report(results: str | Path, out: str | Path, top: int = TOP, min_count: int = MIN_COUNT) -> Path:
    """Write the report of one results folder to ``out`` (created if missing).

    Writes ``index.html`` (sections ``run``, ``win-rates``, ``scores``, ``categories``, ``length``,
    ``components``), the PNGs it shows and ``components.csv`` (``component_stats``, every row).

    Args:
        results: the results folder.
        out: the report folder.
        top: components shown at each end of the ranking.
        min_count: seat-games needed on both sides (with and without) for a component to be ranked.

    Returns:
        the path of ``index.html``.

    Raises:
        ResultsError: not a results folder, or one without games.
    """
    run = load_run(results)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    sections = [
        ("run", "Run", _section_run(run)),
        ("win-rates", "Win rates", _section_win_rates(run, out)),
        ("scores", "Scores", _section_scores(run, out)),
        ("categories", "Score categories", _section_categories(run, out)),
        ("length", "Game length and outcomes", _section_length(run, out)),
        ("components", "Components", _section_components(run, out, top, min_count)),
    ]
    page = _page(f"Study report: {_title(run.meta)}",
                 f"{len(run.games):,} games, bots {', '.join(run.meta.get('bots', []))}; from {run.path}", sections)
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


# --- the comparison of two runs -------------------------------------------------------------------
def _meta_compare_rows(a: Run, b: Run) -> tuple[list, list]:
    """Rows ``(field, A, B)`` of both runs' metadata and whether each differs."""
    ra, rb = dict(_meta_rows(a)), dict(_meta_rows(b))
    keys = list(ra)
    previous = None
    for k in rb:   # a field of B only goes right after the field it follows in B
        if k not in keys:
            keys.insert(keys.index(previous) + 1 if previous in keys else len(keys), k)
        previous = k
    rows, classes = [], []
    for k in keys:
        va, vb = ra.get(k, "—"), rb.get(k, "—")
        rows.append((k, va, vb))
        classes.append("differs" if va != vb and k != "folder" else "")
    return rows, classes


def compare_win_rates(a: Run, b: Run, by: str = "seat"):
    """Win rate of each seat or bot present in both runs, and ``difference`` = B − A with
    Newcombe's hybrid score 95% interval (``low``/``high``), from the two runs' independent counts."""
    wa, wb = win_rates(a.seats, by), win_rates(b.seats, by)
    t = wa[["games", "wins", "rate"]].merge(wb[["games", "wins", "rate"]], how="inner", left_index=True,
                                            right_index=True, suffixes=("_a", "_b"))
    t["difference"], t["low"], t["high"] = newcombe_difference(t["wins_b"], t["games_b"], t["wins_a"], t["games_a"])
    return t


def compare_means(a_values, b_values):
    """Mean of each column of two DataFrames (A, B) and ``difference`` = B − A with Welch's 95% t
    interval (``low``/``high``); a DataFrame indexed by column."""
    import pandas as pd
    cols = [c for c in a_values.columns if c in b_values.columns]
    ma, va, na = a_values[cols].mean(), a_values[cols].var(), len(a_values)
    mb, vb, nb = b_values[cols].mean(), b_values[cols].var(), len(b_values)
    d, lo, hi = welch_difference(ma.to_numpy(), va.to_numpy(), [na] * len(cols), mb.to_numpy(), vb.to_numpy(),
                                 [nb] * len(cols))
    return pd.DataFrame({"mean_a": ma.to_numpy(), "mean_b": mb.to_numpy(), "difference": d, "low": lo,
                         "high": hi}, index=cols)


def compare_seat_scores(a: Run, b: Run):
    """Mean score (victory points) per seat in both runs, ``difference`` = B − A, Welch 95% interval."""
    import pandas as pd
    ga, gb = a.seats.groupby("seat")["score"], b.seats.groupby("seat")["score"]
    t = pd.DataFrame({"n_a": ga.size(), "mean_a": ga.mean(), "var_a": ga.var()}).join(
        pd.DataFrame({"n_b": gb.size(), "mean_b": gb.mean(), "var_b": gb.var()}), how="inner")
    t["difference"], t["low"], t["high"] = welch_difference(t.mean_a, t.var_a, t.n_a, t.mean_b, t.var_b, t.n_b)
    return t


def compare_components(a: Run, b: Run):
    """Components present in both runs: win rate when it happened in A and in B, ``difference`` =
    B − A with Newcombe's 95% interval (``low``/``high``), and the share of seat-games in each run."""
    keep = COMPONENT_KEYS + ["with_n", "with_wins", "with_rate", "share", "difference"]
    t = a.components[keep].merge(b.components[keep], on=COMPONENT_KEYS, suffixes=("_a", "_b"))
    t = t.rename(columns={"difference_a": "effect_a", "difference_b": "effect_b"})
    t["difference"], t["low"], t["high"] = newcombe_difference(t["with_wins_b"], t["with_n_b"], t["with_wins_a"],
                                                               t["with_n_a"])
    return t.sort_values("difference", ascending=False, kind="stable").reset_index(drop=True)


def _diff_rows(t, label_fn, pct: bool) -> list:
    rows = []
    for k, r in t.iterrows():
        if pct:
            rows.append((label_fn(k), f"{int(r.games_a):,}", _pct(r.rate_a), f"{int(r.games_b):,}", _pct(r.rate_b),
                         _pp(r.difference), _ci(r.low, r.high, unit=" pp")))
        else:
            rows.append((label_fn(k), _num(r.mean_a), _num(r.mean_b), _num(r.difference, sign=True),
                         _ci(r.low, r.high, 1, 2, "", signed=True)))
    return rows


def _cmp_section_win_rates(a: Run, b: Run, out: Path) -> str:
    import pandas as pd
    seats = compare_win_rates(a, b, "seat")
    bots = compare_win_rates(a, b, "bot")
    show_bots = (a.several_bots or b.several_bots) and len(bots) > 0
    labels = [f"seat {s}" for s in seats.index] + ([f"bot {x}" for x in bots.index] if show_bots else [])
    both = pd.concat([seats, bots]) if show_bots else seats
    fig, axes = _figure(8, max(2.0, 0.32 * len(labels) + 1.1))
    _forest(axes[0], labels, both["difference"], both["low"], both["high"], xlabel="win rate B − A",
            percent_points=True, split=len(seats) if show_bots else None)
    png = _save(fig, out, "win_rate_diff.png")
    heads = ["", "games A", "win rate A", "games B", "win rate B", "B − A", "95% CI"]
    body = (_how("Change in each seat's win rate from run A to run B (points right of 0: B wins more often), "
                 "with Newcombe's 95% interval for a difference of proportions (built from the two Wilson "
                 "intervals). An interval that crosses 0 shows no clear change.")
            + _img(png, "win-rate difference B - A") + _table(heads, _diff_rows(seats, lambda s: f"seat {s}", True)))
    if show_bots:
        body += "<h3>By bot</h3>" + _table(heads, _diff_rows(bots, str, True))
    only = sorted(set(a.seats["bot"]) ^ set(b.seats["bot"]))
    if only:
        body += f'<p class="note">Bots in one run only (not compared): {_esc(", ".join(only))}.</p>'
    return body


def _cmp_section_scores(a: Run, b: Run, out: Path) -> str:
    import pandas as pd
    seats = compare_seat_scores(a, b)
    cats_a = [col for _, col in a.categories]
    names = {col: name for name, col in a.categories + b.categories}
    cats = compare_means(a.seats[[c for c in cats_a]], b.seats[[c for _, c in b.categories]]) if cats_a else None
    n_rows = len(seats) + (len(cats) if cats is not None else 0)
    fig, axes = _figure(8, max(2.2, 0.3 * n_rows + 1.3))
    labels = [f"score, seat {s}" for s in seats.index]
    both = seats[["difference", "low", "high"]]
    if cats is not None and len(cats):
        labels += [names.get(c, c) for c in cats.index]
        both = pd.concat([both, cats[["difference", "low", "high"]]])
    _forest(axes[0], labels, both["difference"], both["low"], both["high"], xlabel="victory points, B − A",
            split=len(seats) if cats is not None and len(cats) else None)
    png = _save(fig, out, "score_diff.png")
    heads = ["", "mean A", "mean B", "B − A", "95% CI"]
    body = (_how("Change in mean score (victory points per seat-game) from A to B, per seat and per score "
                 "category, with Welch's 95% t interval (unequal variances).")
            + _img(png, "score differences B - A") + _table(heads, _diff_rows(seats, lambda s: f"seat {s}", False)))
    if cats is not None and len(cats):
        body += "<h3>Score categories</h3>" + _table(["category"] + heads[1:],
                                                     _diff_rows(cats, lambda c: names.get(c, c), False))
    missing = sorted(set(cats_a) ^ {c for _, c in b.categories})
    if missing:
        body += f'<p class="note">Categories in one run only: {_esc(", ".join(names.get(c, c) for c in missing))}.</p>'
    return body


def _cmp_section_length(a: Run, b: Run, out: Path) -> str:
    import pandas as pd
    la, lb = a.games["actions"].to_numpy(dtype=float), b.games["actions"].to_numpy(dtype=float)
    fig, axes = _figure(8, 3.2)
    ax = axes[0]
    lo, hi = int(min(la.min(), lb.min())), int(max(la.max(), lb.max()))
    bins = np.arange(lo, hi + 2) - 0.5 if hi - lo <= 80 else np.linspace(lo, hi + 1, 61)
    ax.hist(la, bins=bins, density=True, histtype="step", lw=1.6, color=COLORS[0], label=f"A: {a.label}")
    ax.hist(lb, bins=bins, density=True, histtype="step", lw=1.6, color=COLORS[1], label=f"B: {b.label}")
    ax.set_xlabel("game length (actions)")
    ax.set_ylabel("share of games")
    ax.legend(fontsize=8, frameon=False)
    ax.grid(alpha=.3)
    png = _save(fig, out, "length_diff.png")
    d, lo_, hi_ = welch_difference(la.mean(), la.var(ddof=1) if len(la) > 1 else np.nan, len(la), lb.mean(),
                                   lb.var(ddof=1) if len(lb) > 1 else np.nan, len(lb))
    body = (_how("Game length in actions in both runs (outlines of the two histograms, each scaled to its number "
                 "of games), the change in the mean (Welch 95% interval) and, when the game reports them, the "
                 "change in each outcome's share (Newcombe 95% interval).")
            + _img(png, "game length A and B")
            + _table(["", "mean A", "mean B", "B − A", "95% CI"],
                     [("actions", _num(la.mean(), 1), _num(lb.mean(), 1), _num(d[0], 1, sign=True),
                       _ci(lo_[0], hi_[0], 1, 1, "", signed=True))]))
    oa, ob = a.games["outcome"].dropna().value_counts(), b.games["outcome"].dropna().value_counts()
    if len(oa) or len(ob):
        t = pd.DataFrame({"a": oa, "b": ob}).fillna(0)
        d, lo2, hi2 = newcombe_difference(t["b"], len(b.games), t["a"], len(a.games))
        rows = [(o, _pct(r.a / len(a.games)), _pct(r.b / len(b.games)), _pp(d[i]), _ci(lo2[i], hi2[i], unit=" pp"))
                for i, (o, r) in enumerate(t.iterrows())]
        body += "<h3>Outcomes</h3>" + _table(["outcome", "share A", "share B", "B − A", "95% CI"], rows)
    return body


def _cmp_component_rows(rows) -> list:
    return [(r["kind"], r["component"], r["event"], f"{int(r.with_n_a):,}", _pct(r.with_rate_a),
             f"{int(r.with_n_b):,}", _pct(r.with_rate_b), _pp(r.difference), _ci(r.low, r.high, unit=" pp"))
            for _, r in rows.iterrows()]


def _cmp_section_components(a: Run, b: Run, out: Path, top: int, min_count: int) -> str:
    how = _how("For components present in both runs: the win rate of the seat-games in which the component "
               "happened, in A and in B, and its change B − A (Newcombe 95% interval), ranked: components that "
               "became stronger at the top, weaker at the bottom.")
    if a.components.empty or b.components.empty:
        return how + '<p class="note">No component facts in ' + (
            "either run" if a.components.empty and b.components.empty else
            ("run A" if a.components.empty else "run B")) + ", so there is nothing to compare.</p>"
    t = compare_components(a, b)
    t.to_csv(out / "components.csv", index=False, float_format="%.6g")
    if t.empty:
        return how + '<p class="note">No component appears in both runs.</p>'
    rows, eligible = ranked(t, min_count=min_count, top=top, n_col="with_n_a", m_col="with_n_b")
    if rows.empty:
        return how + (f'<p class="note">No component happened in {min_count} seat-games in both runs; simulate '
                      'more games (all rows are in <a href="components.csv">components.csv</a>).</p>')
    split = top if len(rows) == 2 * top else None
    what = f"the {top} most raised and {top} most lowered of {eligible}" if split else f"all {eligible}"
    png = plot_components(rows, split, out, name="components_diff.png", title=f"{what} components",
                          low="low", high="high", xlabel="win rate when it happened, B − A")
    heads = ["kind", "component", "event", "seat-games A", "win rate A", "seat-games B", "win rate B", "B − A",
             "95% CI"]
    return (how + _img(png, "win rate when the component happened, B - A")
            + _ranked_table(rows, heads, _cmp_component_rows, top)
            + f'<p class="note">Showing {what} components that happened in at least {min_count} seat-games in '
              f'each run. Every row: <a href="components.csv">components.csv</a>.</p>')


def build_comparison(results_a: str | Path, results_b: str | Path, out: str | Path, top: int = TOP,
                     min_count: int = MIN_COUNT) -> Path:
    """Write the comparison of two runs of the same game to ``out`` (created if missing): B − A.

    Writes ``index.html`` (sections ``runs``, ``win-rates``, ``scores``, ``length``, ``components``),
    its PNGs and, when both runs have component facts, ``components.csv`` (``compare_components``).

    Intervals: win rates and shares, Newcombe's hybrid score interval for a difference of two
    independent proportions (from Wilson intervals); means (scores, categories, game length),
    Welch's t interval. All 95%.

    Returns:
        the path of ``index.html``.

    Raises:
        ResultsError: a path is not a results folder, holds no games, or the runs are of different games.
    """
    meta_a, meta_b = read_meta(results_a), read_meta(results_b)
    if meta_a.get("game") != meta_b.get("game"):
        raise ResultsError(f"cannot compare runs of different games: {meta_a.get('game')} ({results_a}) and "
                           f"{meta_b.get('game')} ({results_b})")
    a, b = load_run(results_a), load_run(results_b)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows, classes = _meta_compare_rows(a, b)
    differs = [r[0] for r, c in zip(rows, classes) if c]
    runs = (_how("Both runs side by side; highlighted rows differ (what the comparison is about: options, data "
                 "overrides, bots; also seed or number of games).")
            + _table(["field", f"A: {a.label}", f"B: {b.label}"], rows, numeric=[False] * 3, row_classes=classes))
    sections = [
        ("runs", "Runs", runs),
        ("win-rates", "Win rates, B − A", _cmp_section_win_rates(a, b, out)),
        ("scores", "Scores, B − A", _cmp_section_scores(a, b, out)),
        ("length", "Game length and outcomes, B − A", _cmp_section_length(a, b, out)),
        ("components", "Components, B − A", _cmp_section_components(a, b, out, top, min_count)),
    ]
    sub = (f"A: {a.path} ({len(a.games):,} games); B: {b.path} ({len(b.games):,} games). "
           + (f"Differences: {', '.join(differs)}." if differs else "The runs' settings are the same."))
    page = _page(f"Comparison: {meta_a.get('game')}", sub, sections)
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    return index
