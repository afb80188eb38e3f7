"""The conformance kit: checks every engine must pass, whatever the game.

``check_game(game, n_games, seed)`` plays ``n_games`` seeded random games to the end and, at a
sample of steps in each, checks the contract of ``DESIGN.md``:

- legal actions are never empty before the end and are all ``Action`` objects of the game that
  encode/decode to themselves;
- ``apply_action`` of an illegal action raises ``IllegalActionError`` and changes nothing;
- ``clone()`` is independent of the original (in both directions);
- ``to_dict`` / ``game.state_from_dict`` round-trips, and the rebuilt state plays on identically;
- pickling round-trips;
- the record replays to the same state; the same seed and actions give the same game;
- observations are JSON-ready and do not change when another seat's hidden information is
  resampled for the observing seat (no leaks);
- at the end ``returns()`` sums to ``info.utility_sum``, ``ranking()`` is a permutation and each
  ``score_breakdown`` sums to the score.

Each failure raises ``AssertionError`` naming the game, seed, step and check.
"""

from __future__ import annotations

import json
import pickle

from .errors import IllegalActionError
from .game import TERMINAL, Game, State
from .records import replay
from .rng import Rng


class ConformanceError(AssertionError):
    pass


def _fail(ctx: str, msg: str):
    raise ConformanceError(f"{ctx}: {msg}")


def _check_legal(state: State, ctx: str) -> list:
    game = state.game
    player = state.current_player()
    legal = state.legal_actions()
    if not legal:
        _fail(ctx, f"no legal actions for player {player} before the end")
    ids = [a.id for a in legal]
    if len(set(ids)) != len(ids):
        _fail(ctx, "duplicate legal actions")
    for a in legal:
        if game.decode(game.encode(a)) is not a and game.decode(game.encode(a)) != a:
            _fail(ctx, f"encode/decode does not round-trip for {a!r}")
        if not str(a) or not state.action_to_string(a):
            _fail(ctx, f"action {a!r} has no text")
    if player >= 0 and state.legal_actions(player) != legal:
        _fail(ctx, "legal_actions(current_player) differs from legal_actions()")
    return legal


def _check_illegal(state: State, legal: list, rng: Rng, ctx: str) -> None:
    game = state.game
    legal_ids = {a.id for a in legal}
    before = state.to_dict()
    for _ in range(3):
        candidate = rng.randbelow(game.num_distinct_actions)
        if candidate in legal_ids:
            continue
        try:
            state.apply_action(candidate)
        except IllegalActionError:
            pass
        else:
            _fail(ctx, f"illegal action {candidate} ({game.decode(candidate)}) was accepted")
        if state.to_dict() != before:
            _fail(ctx, f"rejected action {candidate} changed the state")
    for bad in (-1, game.num_distinct_actions, "x"):
        try:
            state.apply_action(bad)
        except IllegalActionError:
            pass
        else:
            _fail(ctx, f"garbage action {bad!r} was accepted")
    if state.to_dict() != before:
        _fail(ctx, "a rejected garbage action changed the state")


def _check_copies(state: State, legal: list, rng: Rng, ctx: str) -> None:
    game = state.game
    before = state.to_dict()
    json.dumps(before)  # must be JSON-ready
    clone = state.clone()
    if clone.to_dict() != before:
        _fail(ctx, "clone differs from the original")
    a = legal[rng.randbelow(len(legal))]
    clone.apply_action(a)
    if state.to_dict() != before:
        _fail(ctx, "applying an action to a clone changed the original")
    rebuilt = game.state_from_dict(json.loads(json.dumps(before)))
    if rebuilt.to_dict() != before:
        _fail(ctx, "to_dict/state_from_dict does not round-trip")
    rebuilt.apply_action(a)
    if rebuilt.to_dict() != clone.to_dict():
        _fail(ctx, "a state rebuilt from to_dict plays on differently")
    pickled = pickle.loads(pickle.dumps(state))
    if pickled.to_dict() != before:
        _fail(ctx, "pickle does not round-trip")
    # the original still works after its clone moved on
    if state.legal_actions() != legal:
        _fail(ctx, "legal actions of the original changed after cloning")


def _check_observations(state: State, rng: Rng, ctx: str) -> None:
    n = state.game.num_players
    for seat in list(range(n)) + [None]:
        obs = state.observation(seat)
        try:
            json.dumps(obs)
        except (TypeError, ValueError) as exc:
            _fail(ctx, f"observation({seat}) is not JSON-ready: {exc}")
    for seat in range(n):
        obs = state.observation(seat)
        sample = state.resample(seat, rng.spawn())
        if sample.observation(seat) != obs:
            _fail(ctx, f"observation({seat}) changed after resampling for seat {seat}: hidden information leaks")
        if state.observation(seat) != obs:
            _fail(ctx, "resample changed the original state")
        if sample.legal_actions(seat) != state.legal_actions(seat) and seat == state.current_player():
            _fail(ctx, f"resampling for seat {seat} changed its legal actions")


def _check_terminal(state: State, ctx: str) -> None:
    info = state.game.info
    n = state.game.num_players
    if state.current_player() != TERMINAL or state.players_to_move() != ():
        _fail(ctx, "terminal state still has a player to move")
    if state.legal_actions() != []:
        _fail(ctx, "terminal state has legal actions")
    ret = state.returns()
    if len(ret) != n or abs(sum(ret) - info.utility_sum) > 1e-9:
        _fail(ctx, f"returns {ret} do not sum to {info.utility_sum}")
    if any(r < info.min_utility - 1e-9 or r > info.max_utility + 1e-9 for r in ret):
        _fail(ctx, f"returns {ret} out of [{info.min_utility}, {info.max_utility}]")
    ranking = state.ranking()
    if sorted(ranking) != list(range(n)):
        _fail(ctx, f"ranking {ranking} is not a permutation of the seats")
    if ret[ranking[0]] != max(ret):
        _fail(ctx, "the first of the ranking does not have the best return")
    scores = state.scores()
    for seat in range(n):
        bd = state.score_breakdown(seat)
        if sum(bd.values()) != scores[seat]:
            _fail(ctx, f"score_breakdown({seat}) sums to {sum(bd.values())}, score is {scores[seat]}")


def play_random_game(game: Game, seed: int, action_seed: int | None = None, max_steps: int = 100_000) -> State:
    """Play one game with uniformly random legal actions; return the final state."""
    rng = Rng(seed if action_seed is None else action_seed)
    state = game.new_initial_state(seed=seed)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randbelow(len(legal))])
        steps += 1
        if steps > max_steps:
            raise ConformanceError(f"{game.info.id} seed {seed}: no end after {max_steps} actions")
    return state


def check_game(game: Game, n_games: int = 10, seed: int = 0, deep_checks_per_game: int = 6) -> dict:
    """Run the whole kit on ``game``; return a small report ``{games, actions, max_length}``.

    Raises:
        ConformanceError: on the first broken check, naming game, seed and step.
    """
    total = 0
    longest = 0
    for g in range(n_games):
        game_seed = seed + g
        rng = Rng(game_seed * 7919 + 1)
        state = game.new_initial_state(seed=game_seed)
        # pick the steps that get the expensive checks: spread over the game
        deep_rng = Rng(game_seed + 17)
        step = 0
        deep_at = set()
        while not state.is_terminal():
            ctx = f"{game.info.id} {game.options} seed {game_seed} step {step}"
            legal = _check_legal(state, ctx)
            if step < 3 or deep_rng.randbelow(60) == 0 and len(deep_at) < deep_checks_per_game:
                deep_at.add(step)
                _check_illegal(state, legal, rng, ctx)
                _check_copies(state, legal, rng, ctx)
                _check_observations(state, rng, ctx)
            state.apply_action(legal[rng.randbelow(len(legal))])
            step += 1
            if step > 100_000:
                _fail(ctx, "the game does not end")
        ctx = f"{game.info.id} {game.options} seed {game_seed} end"
        _check_terminal(state, ctx)
        _check_observations(state, rng, ctx)
        record = json.loads(json.dumps(state.record()))
        again = replay(record)
        if again.to_dict() != state.to_dict():
            _fail(ctx, "the record does not replay to the same state")
        # same seed + same actions -> same game, move by move
        fresh = game.new_initial_state(seed=game_seed)
        for a in record["actions"][: min(50, len(record["actions"]))]:
            fresh.apply_action(a)
        if fresh.to_dict() != replay(record, upto=min(50, len(record["actions"]))).to_dict():
            _fail(ctx, "the same seed and actions gave different games")
        total += step
        longest = max(longest, step)
    return {"games": n_games, "actions": total, "max_length": longest}
