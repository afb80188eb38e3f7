"""A study's results as columnar data: a folder of Parquet part files, written as games finish.

``citygames simulate GAME --out study.parquet`` writes a *results folder* (the Spark/Hive habit
of a dataset that is a directory; ``pyarrow.dataset``, pandas, Polars and DuckDB read each table
directly, e.g. ``pandas.read_parquet("study.parquet/seats")``)::

    study.parquet/
      meta.json            what was run: game, options, data overrides, bots, seed, games, backend
      games/part-NNNNN.parquet        one row per game
      seats/part-NNNNN.parquet        one row per game and seat
      components/part-NNNNN.parquet   one row per component fact (``Game.facts``)

Tables (every row carries ``game``, the game's index in the run, so the tables join on it):

``games``
    ``game`` int64, ``seed`` int64 (the state seed, run seed + game), ``num_players`` int8,
    ``bots`` string (bot names in seat order, comma-separated), ``actions`` int32 (game length),
    ``winner`` int8 (seat; -1 when several seats share the victory), ``winner_bot`` string (null
    when shared), ``outcome`` string (how it was decided, null for games that do not say), one
    ``opt_<name>`` column per game option (bool, int64 or string) and ``overrides`` string (the
    run's data overrides as JSON, ``"{}"`` when none).
``seats``
    ``game``, ``seed``, ``seat`` int8, ``bot`` string, ``score`` int32 (victory points),
    ``rank`` int8 (1 = first, shared victories all 1), ``return`` float64 (``state.returns()``),
    ``won`` bool (sole winner), ``shared`` bool (shared the victory), one ``cat_<category>`` int32
    column per ``score_breakdown`` category (victory points; they sum to ``score``), and the game
    columns ``num_players``, ``actions``, ``outcome``, ``opt_*`` and ``overrides`` repeated, so that
    one table answers most questions.
``components``
    ``game``, ``seat`` int8, ``bot`` string, ``won`` bool (that seat won the game), ``kind``,
    ``component``, ``event`` strings, ``when`` int16 (round or age), ``where`` string: the rows of
    ``Game.facts(state)``; each game's ``facts`` module documents its kinds and events.

Crash safety: a part is written to a temporary name and renamed, the ``games`` part last, so a
part of ``games`` means its ``seats`` and ``components`` parts are complete; ``open_results``
removes parts left without their ``games`` part by an interrupted run. ``--resume`` then runs
exactly the games whose index is in no ``games`` part.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from .runner import GameResult

#: the ``format`` value of ``meta.json``
FORMAT = "citygames-study/1"
TABLES = ("games", "seats", "components")
_PART = re.compile(r"^part-(\d{5,})\.parquet$")


class ResultsError(ValueError):
    """A results folder that cannot be read or does not fit the run (message says why)."""


def column_name(prefix: str, name: str) -> str:
    """A column name from a category or option name: ``prefix`` + lower-case letters, digits and
    ``_`` (``"Public service"`` -> ``cat_public_service``)."""
    return prefix + (re.sub(r"[^0-9a-z]+", "_", str(name).lower()).strip("_") or "x")


def _option_columns(options: dict) -> dict:
    """``{opt_<name>: value}`` for the options a row records (``data_overrides`` has its own column)."""
    return {column_name("opt_", k): v for k, v in sorted(options.items()) if k != "data_overrides"}


def _schemas(meta: dict):
    import pyarrow as pa
    opt_fields = []
    for col, v in _option_columns(meta["options"]).items():
        typ = pa.bool_() if isinstance(v, bool) else pa.int64() if isinstance(v, int) else pa.string()
        opt_fields.append(pa.field(col, typ))
    common = [pa.field("num_players", pa.int8()), pa.field("actions", pa.int32()),
              pa.field("outcome", pa.string())] + opt_fields + [pa.field("overrides", pa.string())]
    games = pa.schema([pa.field("game", pa.int64()), pa.field("seed", pa.int64()), pa.field("bots", pa.string()),
                       pa.field("winner", pa.int8()), pa.field("winner_bot", pa.string())] + common)
    cats = [pa.field(column_name("cat_", c), pa.int32()) for c in meta.get("categories", [])]
    seats = pa.schema([pa.field("game", pa.int64()), pa.field("seed", pa.int64()), pa.field("seat", pa.int8()),
                       pa.field("bot", pa.string()), pa.field("score", pa.int32()), pa.field("rank", pa.int8()),
                       pa.field("return", pa.float64()), pa.field("won", pa.bool_()),
                       pa.field("shared", pa.bool_())] + cats + common)
    comps = pa.schema([pa.field("game", pa.int64()), pa.field("seat", pa.int8()), pa.field("bot", pa.string()),
                       pa.field("won", pa.bool_()), pa.field("kind", pa.string()),
                       pa.field("component", pa.string()), pa.field("event", pa.string()),
                       pa.field("when", pa.int16()), pa.field("where", pa.string())])
    return {"games": games, "seats": seats, "components": comps}


def _columns(results: Sequence[GameResult], meta: dict) -> dict[str, dict[str, list]]:
    """The three tables of ``results`` as ``{table: {column: values}}``."""
    opts = _option_columns(meta["options"])
    overrides = json.dumps(meta.get("overrides") or {}, sort_keys=True)
    cat_cols = [(c, column_name("cat_", c)) for c in meta.get("categories", [])]
    g: dict[str, list] = {k: [] for k in ("game", "seed", "bots", "winner", "winner_bot", "num_players",
                                           "actions", "outcome", *opts, "overrides")}
    s: dict[str, list] = {k: [] for k in ("game", "seed", "seat", "bot", "score", "rank", "return", "won", "shared",
                                           *(c for _, c in cat_cols), "num_players", "actions", "outcome",
                                           *opts, "overrides")}
    c: dict[str, list] = {k: [] for k in ("game", "seat", "bot", "won", "kind", "component", "event", "when",
                                           "where")}
    for r in results:
        n = r.num_players
        common = {"num_players": n, "actions": r.actions, "outcome": r.outcome, **opts, "overrides": overrides}
        row = {"game": r.index, "seed": r.seed, "bots": ",".join(r.bots), "winner": r.winner,
               "winner_bot": r.bots[r.winner] if r.winner >= 0 else None, **common}
        for k, v in row.items():
            g[k].append(v)
        best = max(r.returns) if r.returns else 0.0
        for seat in range(n):
            bd = r.breakdowns[seat] if r.breakdowns else {}
            row = {"game": r.index, "seed": r.seed, "seat": seat, "bot": r.bots[seat], "score": r.scores[seat],
                   "rank": r.ranks[seat], "return": r.returns[seat], "won": r.winner == seat,
                   "shared": r.winner < 0 and r.returns[seat] == best,
                   **{col: int(bd.get(cat, 0)) for cat, col in cat_cols}, **common}
            for k, v in row.items():
                s[k].append(v)
        for seat, kind, comp, event, when, where in r.facts:
            for k, v in (("game", r.index), ("seat", seat), ("bot", r.bots[seat]), ("won", r.winner == seat),
                         ("kind", kind), ("component", comp), ("event", event), ("when", when),
                         ("where", where)):
                c[k].append(v)
    return {"games": g, "seats": s, "components": c}


def chunk_tables(results: Sequence[GameResult], meta: dict) -> dict:
    """The rows of ``results`` (with their details) as ``{"games"|"seats"|"components": pyarrow.Table}``
    in the schema of a results folder with this ``meta`` (only ``options``, ``overrides`` and
    ``categories`` are read)."""
    import pyarrow as pa
    cols = _columns(results, meta)
    schemas = _schemas(meta)
    return {t: pa.table(cols[t], schema=schemas[t]) for t in TABLES}


def _atomic_write_table(table, path: Path) -> None:
    import pyarrow.parquet as pq
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, path)


@dataclass
class ResultsWriter:
    """Appends finished games to a results folder, a part per ``flush`` (see the module doc).

    Use ``open_results(path, meta, resume)`` to make one. ``add(results)`` buffers games;
    ``flush()`` writes the buffer as one part of each table (called by ``add`` every
    ``flush_games`` games and by ``close``), so at most ``flush_games`` games are held in memory.

    Attributes:
        path: the results folder.
        meta: the run's ``meta.json`` contents.
        flush_games: games buffered before a part is written.
    """

    path: Path
    meta: dict
    flush_games: int = 2000
    _buffer: list = field(default_factory=list)
    _buffered: int = 0
    _next_part: int = 0

    def add(self, results: Iterable[GameResult]) -> None:
        """Buffer finished games; write a part once ``flush_games`` are buffered. ``results`` may
        carry their rows already built (a ``backends.Chunk`` with ``tables``), else the rows are
        built from the results' details here. (The caller hands each index out once; nothing
        is kept per game, so memory stays flat however long the run.)"""
        tables = getattr(results, "tables", None)
        results = list(results)
        if tables is None:
            tables = chunk_tables(results, self.meta)
        self._buffer.append(tables)
        self._buffered += len(results)
        if self._buffered >= self.flush_games:
            self.flush()

    def flush(self) -> None:
        """Write the buffered games as ``part-NNNNN`` of each table (the ``games`` part last), rows
        sorted by game (and seat; a seat's facts keep the order they happened in)."""
        if not self._buffer:
            return
        import pyarrow as pa
        name = f"part-{self._next_part:05d}.parquet"
        keys = {"games": [("game", "ascending")], "seats": [("game", "ascending"), ("seat", "ascending")],
                "components": [("game", "ascending")]}
        for table in ("components", "seats", "games"):
            merged = pa.concat_tables(b[table] for b in self._buffer)
            _atomic_write_table(merged.sort_by(keys[table]), self.path / table / name)
        self._next_part += 1
        self._buffer.clear()
        self._buffered = 0

    def close(self) -> None:
        """Write what is buffered."""
        self.flush()


def _parts(path: Path, table: str) -> list[Path]:
    d = path / table
    if not d.is_dir():
        return []
    return sorted(p for p in d.iterdir() if _PART.match(p.name))


def read_meta(path: str | Path) -> dict:
    """The ``meta.json`` of a results folder.

    Raises:
        ResultsError: not a results folder (no readable ``meta.json`` of this format).
    """
    path = Path(path)
    try:
        meta = json.loads((path / "meta.json").read_text())
    except (OSError, ValueError) as exc:
        raise ResultsError(f"{path} is not a citygames results folder (meta.json: {exc})") from None
    if meta.get("format") != FORMAT:
        raise ResultsError(f"{path}: unknown results format {meta.get('format')!r} (expected {FORMAT})")
    return meta


def done_indices(path: str | Path) -> set[int]:
    """Indices of the games a results folder holds (read from the ``game`` column only)."""
    import pyarrow.parquet as pq
    out: set[int] = set()
    for p in _parts(Path(path), "games"):
        out.update(pq.read_table(p, columns=["game"]).column("game").to_pylist())
    return out


#: the meta keys that must agree for ``--resume`` to continue a run
RUN_KEYS = ("game", "options", "overrides", "bots", "seed")


def open_results(path: str | Path, meta: dict, resume: bool = False, flush_games: int = 2000) -> ResultsWriter:
    """Create a results folder (or reopen one with ``resume``) and return its writer.

    Args:
        path: the folder (created with ``games``, ``seats``, ``components`` and ``meta.json``).
        meta: what is run: ``game``, ``options`` (resolved, JSON-ready), ``overrides``, ``bots``,
            ``seed``, ``games`` (the total asked), ``categories`` (score categories) and anything
            else worth keeping (``backend``, ``citygames_version``); ``format`` is added.
        resume: continue a folder made by the same run (the keys ``RUN_KEYS`` must agree); parts
            left incomplete by an interruption are removed. ``meta["games"]`` may grow.
        flush_games: games per part.

    Raises:
        ResultsError: the folder exists and ``resume`` is false; or ``resume`` with a folder that is
            missing, of another format, or of another run (the message names the differing key).
    """
    path = Path(path)
    meta = {"format": FORMAT, **meta}
    if resume:
        old = read_meta(path)
        for key in RUN_KEYS:
            if json.dumps(old.get(key), sort_keys=True) != json.dumps(meta.get(key), sort_keys=True):
                raise ResultsError(f"{path} holds another run: {key} was {old.get(key)!r}, now {meta.get(key)!r}")
        meta["categories"] = old.get("categories", meta.get("categories", []))
        meta["games"] = max(int(old.get("games", 0)), int(meta.get("games", 0)))
        games_parts = {p.name for p in _parts(path, "games")}
        for table in ("seats", "components"):
            for p in _parts(path, table):
                if p.name not in games_parts:
                    p.unlink()   # written by a run interrupted before its games part
        for table in TABLES:
            for p in (path / table).glob("*.tmp"):
                p.unlink()
    elif path.exists():
        raise ResultsError(f"{path} exists; add --resume to complete that run, or choose another --out")
    for table in TABLES:
        (path / table).mkdir(parents=True, exist_ok=True)
    tmp = path / "meta.json.tmp"
    tmp.write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, path / "meta.json")
    existing = _parts(path, "games")
    nxt = max((int(_PART.match(p.name).group(1)) for p in existing), default=-1) + 1
    return ResultsWriter(path=path, meta=meta, flush_games=flush_games, _next_part=nxt)


def iter_results(path: str | Path) -> Iterator[GameResult]:
    """The games of a results folder as ``GameResult`` (one part in memory at a time, parts in order;
    ``breakdowns`` filled from the ``cat_`` columns, ``facts`` left empty)."""
    import pyarrow.parquet as pq
    path = Path(path)
    meta = read_meta(path)
    cats = [(c, column_name("cat_", c)) for c in meta.get("categories", [])]
    for part in _parts(path, "games"):
        seats = pq.read_table(path / "seats" / part.name).to_pydict()
        by_game: dict[int, list[int]] = {}
        for i, g in enumerate(seats["game"]):
            by_game.setdefault(g, []).append(i)
        games = pq.read_table(part).to_pydict()
        for k, g in enumerate(games["game"]):
            rows = sorted(by_game[g], key=lambda i: seats["seat"][i])
            yield GameResult(
                index=g, seed=games["seed"][k], bots=tuple(seats["bot"][i] for i in rows),
                scores=tuple(seats["score"][i] for i in rows), ranks=tuple(seats["rank"][i] for i in rows),
                returns=tuple(seats["return"][i] for i in rows), winner=games["winner"][k],
                actions=games["actions"][k], outcome=games["outcome"][k],
                breakdowns=tuple({c: seats[col][i] for c, col in cats} for i in rows))


def read_table(path: str | Path, table: str, columns: Sequence[str] | None = None):
    """One table of a results folder as a ``pyarrow.Table`` (all parts; ``columns`` to read fewer).

    Raises:
        ResultsError: not a results folder, or an unknown table name.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq
    if table not in TABLES:
        raise ResultsError(f"unknown table {table!r}; the tables are {', '.join(TABLES)}")
    path = Path(path)
    meta = read_meta(path)
    parts = _parts(path, table)
    if not parts:
        cols = _schemas(meta)[table]
        return cols.empty_table() if columns is None else cols.empty_table().select(list(columns))
    return pa.concat_tables(pq.read_table(p, columns=columns) for p in parts)


def iter_table_parts(path: str | Path, table: str, columns: Sequence[str] | None = None,
                     read_dictionary: Sequence[str] | None = None):
    """One table of a results folder part by part, as ``pyarrow.Table``s (``columns`` to read fewer;
    ``read_dictionary``: string columns to read dictionary-encoded): for aggregations that need not
    hold a whole big table (a game's rows are all in one part).

    Raises:
        ResultsError: not a results folder, or an unknown table name.
    """
    import pyarrow.parquet as pq
    if table not in TABLES:
        raise ResultsError(f"unknown table {table!r}; the tables are {', '.join(TABLES)}")
    path = Path(path)
    read_meta(path)
    for p in _parts(path, table):
        yield pq.read_table(p, columns=columns, read_dictionary=read_dictionary)
