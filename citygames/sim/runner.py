"""Batch simulation: many seeded bot-vs-bot games, in worker processes.

Game ``i`` of a run with seed ``S`` starts from state seed ``S + i``; the bots of that game are
seeded from it (``bot_seeds``), so a run is reproducible game by game whatever the number of
workers.
"""

from __future__ import annotations

import os
import pickle
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from citygames.bots import BOTS, make_bot
from citygames.core import Game, Rng, State, load_game, save_record
from citygames.core.registry import register_game

#: safety net: a game that has not ended after this many actions is reported as an error
MAX_ACTIONS = 1_000_000


@dataclass(frozen=True)
class GameResult:
    """The outcome of one simulated game.

    Attributes:
        index: position of the game in the run (0-based).
        seed: the state seed (run seed + index).
        bots: bot name per seat.
        scores: game score (victory points) per seat.
        ranks: place per seat, 1 = winner (the game's tie-breaks applied; every seat sharing a
            victory is placed 1).
        returns: ``state.returns()`` per seat.
        winner: seat of the winner (``ranking()[0]``), or -1 when several seats share the best
            return (a shared victory: nobody counts as the winner).
        actions: number of actions applied in the game.
        outcome: how the game was decided (``state.outcome()``, e.g. ``"military"``), or ``None``
            for games that do not say.
        breakdowns: per seat, ``state.score_breakdown(seat)`` (victory points by category); empty
            unless the run asked for details.
        facts: ``game.facts(state)`` rows ``(seat, kind, component, event, when, where)``; empty
            unless the run asked for details.
    """

    index: int
    seed: int
    bots: tuple[str, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    returns: tuple[float, ...]
    winner: int
    actions: int
    outcome: str | None = None
    breakdowns: tuple = ()
    facts: tuple = ()

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self.bots)


def bot_seeds(game_seed: int, num_players: int) -> list[int]:
    """The seed of each seat's bot in the game with state seed ``game_seed`` (list of ints < 2**64)."""
    rng = Rng(game_seed ^ 0xB075_5EED_0000_0000)
    rng.next64()
    return [rng.next64() for _ in range(num_players)]


def entrant_seeds(game_seed: int, entrants: Sequence[int]) -> list[int]:
    """The seed of each seat's bot when the bots are *entrants* of a tournament (opt-in to ``run_one``):
    seat ``s`` gets a seed that depends only on ``game_seed`` and ``entrants[s]`` (the entrant's index
    in the tournament), not on the seat, so an entrant keeps its seed when the seats are rotated and
    two copies of a bot never share one (``bot_seeds`` would give a rotated lineup the same seeds
    seat by seat, and a self-play deal would replay mirrored). List of ints < 2**64.
    """
    out = []
    for e in entrants:
        rng = Rng(game_seed ^ 0xE47_5EED_0000_0000 ^ ((int(e) + 1) * 0x9E37_79B9_7F4A_7C15))
        rng.next64()
        out.append(rng.next64())
    return out


def play_game(game: Game, bots: Sequence, seed: int, on_action: Callable[[State], None] | None = None) -> State:
    """Play one game to the end with one bot per seat; return the final state.

    Args:
        game: the ``Game``.
        bots: one ``Bot`` per seat, in seat order.
        seed: the state seed.
        on_action: called with the state after every action (for printing), optional.

    Raises:
        ValueError: if ``len(bots)`` is not the number of seats.
        RuntimeError: if the game does not end within ``MAX_ACTIONS`` actions.
    """
    if len(bots) != game.num_players:
        raise ValueError(f"{game.info.id} needs {game.num_players} bots, got {len(bots)}")
    state = game.new_initial_state(seed=seed)
    steps = 0
    while not state.is_terminal():
        player = state.players_to_move()[0]
        state.apply_action(bots[player].step(state, player), player=player)
        steps += 1
        if on_action is not None:
            on_action(state)
        if steps > MAX_ACTIONS:
            raise RuntimeError(f"{game.info.id} seed {seed}: no end after {MAX_ACTIONS} actions")
    return state


def result_of(state: State, index: int, bots: Sequence[str], details: bool = False) -> GameResult:
    """The ``GameResult`` of a finished ``state`` (game ``index`` of a run, played by ``bots``);
    ``details`` adds each seat's score breakdown and the game's facts (``Game.facts``)."""
    ranking = state.ranking()
    returns = tuple(float(r) for r in state.returns())
    ranks = [0] * len(ranking)
    for place, seat in enumerate(ranking, start=1):
        ranks[seat] = place
    winner = ranking[0]
    best = max(returns)
    sharing = [seat for seat, r in enumerate(returns) if r == best]
    if len(sharing) > 1:   # a shared victory
        winner = -1
        for seat in sharing:
            ranks[seat] = 1
    return GameResult(
        index=index,
        seed=state.seed,
        bots=tuple(bots),
        scores=tuple(state.scores()),
        ranks=tuple(ranks),
        returns=returns,
        winner=winner,
        actions=len(state.history),
        outcome=state.outcome(),
        breakdowns=tuple(dict(state.score_breakdown(s)) for s in range(len(ranks))) if details else (),
        facts=tuple(tuple(f) for f in state.game.facts(state)) if details else (),
    )


def record_path(directory: str | Path, game_id: str, index: int) -> Path:
    """Where ``simulate`` writes the record of game ``index``: ``DIR/<game>-<index:06d>.json``."""
    return Path(directory) / f"{game_id}-{index:06d}.json"


def run_one(game_id: str, options: dict, bots: Sequence[str], index: int, seed: int,
            save_records: str | Path | None = None, details: bool = False,
            entrants: Sequence[int] | None = None) -> GameResult:
    """Play game ``index`` of a run (state seed ``seed + index``) and return its result.

    Writes the record to ``record_path(save_records, game_id, index)`` when ``save_records`` is set;
    ``details`` adds score breakdowns and facts to the result (``result_of``). The bots are seeded by
    seat (``bot_seeds``), or, given ``entrants`` (a tournament entrant index per seat), by entrant
    (``entrant_seeds``).

    Raises:
        citygames.core.GameOptionError: unknown game or bad options.
        ValueError: unknown bot name.
        RuntimeError: the game failed (an engine or bot error, chained), naming game index and seed.
    """
    game = load_game(game_id, **options)
    game_seed = seed + index
    seeds = bot_seeds(game_seed, len(bots)) if entrants is None else entrant_seeds(game_seed, entrants)
    if len(seeds) != len(bots):
        raise ValueError(f"{len(bots)} bots but {len(seeds)} entrants")
    players = [make_bot(name, s) for name, s in zip(bots, seeds)]
    try:
        state = play_game(game, players, game_seed)
    except Exception as exc:
        raise RuntimeError(f"{game_id} game {index} (seed {game_seed}, bots {','.join(bots)}) "
                           f"failed: {exc!r}") from exc
    if save_records is not None:
        save_record(state.record(), record_path(save_records, game_id, index))
    return result_of(state, index, bots, details)


def _init_worker(games: dict, bots: dict) -> None:
    """Worker initializer: make games and bots registered in the parent known in the worker too, and
    freeze the objects inherited from the parent (``gc.freeze``): the garbage collector then never
    walks them again, nor copies their pages by touching them."""
    import gc
    gc.freeze()
    for game_id, factory in games.items():
        register_game(game_id, factory)
    BOTS.update(bots)


def _picklable(obj) -> bool:
    try:
        pickle.dumps(obj)
    except Exception:
        return False
    return True


def simulate(game_id: str, options: dict | None, bots: Sequence[str], games: int, seed: int = 0,
             workers: int | None = None, save_records: str | Path | None = None,
             progress: bool = False, console=None) -> list[GameResult]:
    """Play ``games`` seeded games between ``bots`` and return their results.

    Args:
        game_id: a registered game id.
        options: game options (``num_players`` included), or ``None`` for the defaults.
        bots: bot names, one per seat in seat order (a single name is used for every seat).
        games: number of games (>= 0).
        seed: game ``i`` uses state seed ``seed + i`` and bot seeds ``bot_seeds(seed + i, n)``.
        workers: worker processes (default ``os.cpu_count()``); 1 runs in this process.
        save_records: folder to write every game's record to (``<game>-<index>.json``), or ``None``.
        progress: show a rich progress bar.
        console: the ``rich.console.Console`` for the progress bar (default: a new one).

    Returns:
        one ``GameResult`` per game, ordered by index; identical for a given seed whatever
        ``workers`` is.

    Raises:
        citygames.core.GameOptionError: unknown game or bad options.
        ValueError: unknown bot name, wrong number of bots, ``games < 0`` or ``workers < 1``.
    """
    options = dict(options or {})
    game = load_game(game_id, **options)
    n = game.num_players
    bots = list(bots)
    if len(bots) == 1:
        bots = bots * n
    if len(bots) != n:
        raise ValueError(f"{game_id} with {n} players needs {n} bots (one per seat) or one for all, "
                         f"got {len(bots)}: {','.join(bots)}")
    for name in bots:
        make_bot(name, 0)  # raises ValueError on an unknown name
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    if workers is None:
        workers = os.cpu_count() or 1
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    workers = min(workers, max(1, games))
    if save_records is not None:
        Path(save_records).mkdir(parents=True, exist_ok=True)

    from .backends import LocalBackend, RunSpec
    backend = LocalBackend(workers)
    spec = RunSpec(game_id, options, tuple(bots), seed, None if save_records is None else str(save_records))
    results: list[GameResult] = []
    with progress_bar(game_id, games, progress, console) as advance:
        for part in backend.run(spec, [range(games)]):
            results.extend(part)
            advance(len(part))
    results.sort(key=lambda r: r.index)
    return results


@contextmanager
def progress_bar(label: str, total: int, show: bool = True, console=None, done: int = 0):
    """A rich progress bar (games done of ``total``, elapsed, time left) as a context manager that
    yields ``advance(n)``; with ``show`` false, ``advance`` does nothing."""
    if not show:
        yield lambda n: None
        return
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)
    bar = Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                   MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(), console=console)
    task = bar.add_task(label, total=total, completed=done)
    bar.start()
    try:
        yield lambda n: bar.advance(task, n)
    finally:
        bar.stop()
