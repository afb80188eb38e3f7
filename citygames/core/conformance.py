"""The conformance kit: checks every engine must pass, whatever the game.

``check_game(game, n_games, seed)`` plays ``n_games`` seeded random games to the end. At every
step it checks the legal actions; at a sample of *deep* steps (the first three and a few random
ones) and at the end it checks the rest of the contract of ``DESIGN.md`` ("The game contract",
"Tests"):

- legal actions are never empty before the end and are all ``Action`` objects of the game that
  encode/decode to themselves;
- ``apply_action`` of an illegal action raises ``IllegalActionError`` and changes nothing;
- ``clone()`` is independent of the original (in both directions); ``to_dict`` /
  ``game.state_from_dict`` and pickling round-trip, and the rebuilt state plays on identically;
- the record replays to the same state; the same seed and actions give the same game;
- no hidden information leaks and ``resample`` really redraws it (below);
- positions, when the game has a notation, describe the state completely (below);
- ``legal_action_mask()`` marks exactly the legal actions (every step); every seat's and the
  spectator's ``observation_tensor`` is a float32 vector of the layout's length within each slice's
  bounds, the game is no longer than ``max_game_length()``, and a seat's tensor is unchanged by
  the resamples drawn for that seat (deep steps, with the hidden-information checks below);
- random play lets a random seat among ``players_to_move()`` act, so the seats of a simultaneous step
  choose in random order; at deep steps where several seats choose at once (``CHECK_SIMULTANEOUS``):
  the same choices in three orders give the same state (history order aside), observations and
  logs; one seat's pending choice changes nothing another seat or a spectator is shown
  (observation, visible log, legal actions with their texts); ``withdraw`` gives back the state
  before the choice; a seat not to move is refused without change;
- at the end ``returns()`` sums to ``info.utility_sum``, ``ranking()`` is a permutation and each
  ``score_breakdown`` sums to the score.

Every failure raises ``ConformanceError`` naming the game, options, seed, step, seat (where one
is concerned) and the check (``error.check``, one of the ``CHECK_*`` names of this module), with the
first differing key, event or text.

Hidden information
------------------
A seat's *view* is everything the seat is shown: ``observation(seat)``, the log events it may see
(``state.log_for(seat)``: their data *and* their text) and, for its legal actions, their texts
(``state.action_to_string``) and ``game.action_json``. The contract: every view is identical in
two states that differ only in what that seat cannot see. ``state.resample(seat, rng)`` produces
exactly such states (it redraws what ``seat`` cannot see), so at each deep step (but steps 1 and
2, which the worlds followed from step 0 go through) and at the end, for every seat, the kit draws
``resamples`` of them (several, so that worlds differing in different hidden parts turn up) and
checks:

1. *At the same step* (``CHECK_OBSERVATION``, ``CHECK_LOG``, ``CHECK_LEGAL_LEAK``, ``CHECK_TEXT``,
   ``CHECK_ACTION_JSON``, ``CHECK_SPECTATOR``): the seat's whole view is unchanged by each
   resample, and so is the spectator's observation (a spectator sees only what every seat sees;
   checked on one resample per step, for each seat in turn). The original state is unchanged
   too (``CHECK_ORIGINAL``).

2. *Going forward* (same checks): a resample copies the log, so a leak in an event already
   written is invisible at the same step. The kit therefore continues both worlds with the same
   random actions (up to ``line_length`` of them, while the action is legal in both) and compares
   what the seat is shown after each: the events it may see that the step added (data and text),
   its legal actions and, in the first changed world of each seat, their texts and their JSON
   (the costliest part; every world compares them at the same step). A difference is a leak unless the hidden
   information was legitimately revealed, i.e. the seat's observation differed at that step or an
   earlier one of the line; then the line just ends (counted as ``"reveals"`` in the report). So a
   log event or action text that says something the observation does not fails. Observations
   are computed lazily, only when something else differs, which keeps the lines cheap. An
   observation may embed the log (the toy game does; the kit finds out once per run): then, when
   the events differ, the kit recomputes the resampled world's observation with the original
   world's log in place of its own; if that equals the original's, only the log differed, and it
   leaks.

3. *Resample must redraw* (``CHECK_STALE``): a game whose ``GameInfo`` declares
   ``hidden_information`` must have at least one resample that changes the state (``to_dict()``
   without the log) in each game. Per step this cannot be demanded blindly: at the end of 7
   Wonders Duel nothing may be left to redraw, and in The Capitals the era decks are hidden only
   until they run out. So the stronger per-step check (``CHECK_PARTIAL``) works from evidence: two
   resamples drawn *for another seat* q that differ in some part yet both give this seat exactly
   the view of the original (observation and visible log) prove that this seat cannot see that
   part, so this seat's own resamples must be able to vary it too. Resamples are compared with
   each other, not with the original: a resample may store a part in a canonical form (7 Wonders
   Duel's resample sorts the Great Library's draw, which the original keeps in draw order) that
   differs from the original without any difference in the game. Parts are ``to_dict()`` paths
   cut at depth two (``bonus[1]``, ``decks[3]``, ``slot[7]``), which names per-seat and per-deck
   pieces without depending on single list positions. When the evidence names a part the seat's
   resamples did not vary, the kit draws up to ``REDRAW_BUDGET`` more before failing; with
   redraws that are uniform among the consistent possibilities each draw differs in such a part
   with probability at least one half, so an honest game fails this with probability below 2**-40.
   This also catches a resample that redraws some hidden parts but forgets others (a deck, the
   chance generator, one seat's hand); it needs ``resamples >= 2``. To bound the cost, at most
   ``EVIDENCE_VIEWS`` pairs are looked at per seat and step, and a part that alone made a view differ
   (typically the seat's own hand, which the other seats' resamples redraw) is remembered as
   visible to that seat for the rest of the run.

What the kit cannot see: a leak of information that no resample ever redraws (if ``resample``
keeps the order of a deck, a log event listing that deck's next card looks honest), and a leak
already written before the first deep step and never repeated (the setup log).

Positions
---------
If the game has a position notation (``game.state_from_position`` / ``state.position()``; games
without one raise ``NotImplementedError`` and the check is skipped), at each deep step
(``CHECK_POSITION``): the state rebuilt from its position text writes the same text, shows every
seat and the spectator the same observation (computed with the original log, since a state built
from a position starts with an empty one), has the same legal actions, stays at the same position
as the original over a few actions, and its ``record()`` (which carries ``"position"``) replays to
the same ``to_dict()``.

Cost: the hidden-information checks run only at deep steps; a resample equal to the original is
not followed (both worlds would be the same); the original's continuation and views are computed
once per deep step and shared by every resample; going forward, observations are computed only
when something else differs. On the suite's conformance tests (The Capitals and 7 Wonders Duel)
the kit costs about 40% more CPU time than the kit that compared observations only.
"""

from __future__ import annotations

import json
import pickle

from .errors import IllegalActionError
from .game import SIMULTANEOUS, TERMINAL, Game, State
from .records import replay
from .rng import Rng

CHECK_LEGAL = "legal actions"
CHECK_ILLEGAL = "illegal actions"
CHECK_COPIES = "copies"
CHECK_OBSERVATION_JSON = "observation JSON"
CHECK_OBSERVATION = "observation leak"
CHECK_SPECTATOR = "spectator leak"
CHECK_LOG = "log leak"
CHECK_LEGAL_LEAK = "legal actions leak"
CHECK_TEXT = "action text leak"
CHECK_ACTION_JSON = "action_json leak"
CHECK_ORIGINAL = "resample changes the original"
CHECK_STALE = "resample redraws nothing"
CHECK_PARTIAL = "resample misses a hidden part"
CHECK_POSITION = "position"
CHECK_END = "end of game"
CHECK_RECORD = "record replay"
CHECK_LENGTH = "game length"
CHECK_MASK = "legal action mask"
CHECK_TENSOR = "observation tensor"
CHECK_TENSOR_LEAK = "observation tensor leak"
CHECK_SIMULTANEOUS = "simultaneous step"

#: Extra resamples drawn for a seat before ``CHECK_PARTIAL`` fails (see the module docstring).
REDRAW_BUDGET = 40
#: Depth at which ``to_dict()`` paths are cut to name the parts a resample changes.
PART_DEPTH = 2
#: Views computed per seat and deep step to look for evidence of hidden parts.
EVIDENCE_VIEWS = 2
#: Actions applied to a state rebuilt from its position and to the original.
POSITION_ACTIONS = 4

_ANY_SEAT = object()


class ConformanceError(AssertionError):
    """A broken contract found by the kit.

    Attributes:
        check: the name of the failed check (one of this module's ``CHECK_*`` values), or ``None``.
    """

    def __init__(self, message: str, check: str | None = None):
        super().__init__(message)
        self.check = check


def _seat_text(seat) -> str:
    return "spectator" if seat is None else f"seat {seat}"


def _fail(ctx: str, check: str, msg: str, seat=_ANY_SEAT):
    where = ctx if seat is _ANY_SEAT else f"{ctx} {_seat_text(seat)}"
    raise ConformanceError(f"{where}: [{check}] {msg}", check)


def _short(value, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --- structural differences -----------------------------------------------------------------
def _diff_paths(a, b, depth: int | None = None, limit: int | None = None) -> list[tuple]:
    """Paths (tuples of keys and indexes) where the JSON-like values ``a`` and ``b`` differ.

    A path stops where the shapes differ (other keys, other lengths, other types), at ``depth``
    if given, and the list at ``limit`` paths if given. ``[]`` when ``a == b``.
    """
    out: list[tuple] = []

    def walk(x, y, path):
        if (limit is not None and len(out) >= limit) or x == y:
            return
        if depth is None or len(path) < depth:
            if isinstance(x, dict) and isinstance(y, dict) and x.keys() == y.keys():
                for k in x:
                    walk(x[k], y[k], path + (k,))
                return
            if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)) and len(x) == len(y):
                for i, (u, v) in enumerate(zip(x, y)):
                    walk(u, v, path + (i,))
                return
        out.append(path)

    walk(a, b, ())
    return out


def _path_text(path: tuple) -> str:
    text = ""
    for k in path:
        text += f"[{k}]" if isinstance(k, int) else (f".{k}" if text else str(k))
    return text or "(the whole value)"


def _get(value, path: tuple):
    for k in path:
        value = value[k]
    return value


def _describe_diff(a, b, limit: int = 3) -> str:
    """The first differing paths of ``a`` and ``b`` with both values, for messages."""
    parts = [f"{_path_text(p)}: {_short(_get(a, p), 80)} vs {_short(_get(b, p), 80)}"
             for p in _diff_paths(a, b, limit=limit)]
    return "; ".join(parts)


def _covered(path: tuple, paths) -> bool:
    """Whether a change at ``path`` is among ``paths`` (a path inside it or containing it counts)."""
    n = len(path)
    return any(p[:n] == path or path[: len(p)] == p for p in paths)


def hidden_dict(state: State) -> dict:
    """``state.to_dict()`` without the log: the state's rule-relevant parts, hidden ones included.

    The log (``state.log``, part of the contract) is swapped out while dumping, so its length does
    not cost anything; ``state`` is left as it was.
    """
    log = state.log
    state.log = []
    try:
        d = state.to_dict()
    finally:
        state.log = log
    d.pop("log", None)
    return d


# --- checks on every step and at deep steps ---------------------------------------------------
def _check_legal(state: State, ctx: str) -> list:
    game = state.game
    player = state.current_player()
    legal = state.legal_actions()
    if not legal:
        _fail(ctx, CHECK_LEGAL, f"no legal actions for player {player} before the end")
    movers = state.players_to_move()
    if not movers or list(movers) != sorted(set(movers)):
        _fail(ctx, CHECK_LEGAL, f"players_to_move() is {movers!r}: before the end it must name the seats to move, "
                                "ascending")
    if len(movers) > 1 or player == SIMULTANEOUS:
        if state.legal_actions(movers[0]) != legal:
            _fail(ctx, CHECK_LEGAL, "legal_actions() differs from legal_actions(players_to_move()[0])")
        for p in movers[1:]:
            if not state.legal_actions(p):
                _fail(ctx, CHECK_LEGAL, f"seat {p} is to move but has no legal actions", p)
    ids = [a.id for a in legal]
    if len(set(ids)) != len(ids):
        _fail(ctx, CHECK_LEGAL, "duplicate legal actions")
    for a in legal:
        if game.decode(game.encode(a)) is not a and game.decode(game.encode(a)) != a:
            _fail(ctx, CHECK_LEGAL, f"encode/decode does not round-trip for {a!r}")
        if not str(a) or not state.action_to_string(a):
            _fail(ctx, CHECK_LEGAL, f"action {a!r} has no text")
    if player >= 0 and state.legal_actions(player) != legal:
        _fail(ctx, CHECK_LEGAL, "legal_actions(current_player) differs from legal_actions()")
    mask = state.legal_action_mask()
    if mask.shape != (game.num_distinct_actions,) or mask.nonzero()[0].tolist() != sorted(ids):
        _fail(ctx, CHECK_MASK, f"legal_action_mask() (shape {mask.shape}, ones at "
                               f"{_short(mask.nonzero()[0].tolist())}) is not the legal actions {_short(sorted(ids))}")
    return legal


def _tensors(state: State, ctx: str) -> dict | None:
    """Every seat's and the spectator's observation tensor, checked against the layout
    (``CHECK_TENSOR``: float32, the layout's length, finite, within each slice's bounds) and the
    game's ``max_game_length`` against the moves made; ``None`` for a game without tensors."""
    game = state.game
    try:
        layout = game.observation_tensor_layout()
    except NotImplementedError:
        return None
    import numpy as np
    if len(state.history) > game.max_game_length():
        _fail(ctx, CHECK_LENGTH, f"{len(state.history)} actions made, more than max_game_length() = "
                                 f"{game.max_game_length()}")
    low, high = layout.low(), layout.high()
    out = {}
    for seat in list(range(game.num_players)) + [None]:
        t = state.observation_tensor(seat)
        if not isinstance(t, np.ndarray) or t.dtype != np.float32 or t.shape != (layout.size,):
            _fail(ctx, CHECK_TENSOR, f"observation_tensor({seat}) must be a float32 array of shape ({layout.size},), "
                                     f"got {type(t).__name__} {getattr(t, 'dtype', '')} {getattr(t, 'shape', '')}", seat)
        bad = np.flatnonzero(~np.isfinite(t) | (t < low) | (t > high))
        if bad.size:
            i = int(bad[0])
            sl = next(x for x in layout if x.offset <= i < x.stop)
            _fail(ctx, CHECK_TENSOR, f"observation_tensor({seat})[{i}] = {t[i]} is outside slice {sl.name!r} "
                                     f"(index {i - sl.offset}, range {sl.low}..{sl.high})", seat)
        out[seat] = t
    return out


def _check_tensor_same(ctx: str, layout, seat, mine, theirs) -> None:
    """``CHECK_TENSOR_LEAK``: a resample for ``seat`` gave ``seat`` another tensor."""
    if (mine != theirs).any():
        import numpy as np
        i = int(np.flatnonzero(mine != theirs)[0])
        sl = next(x for x in layout if x.offset <= i < x.stop)
        _fail(ctx, CHECK_TENSOR_LEAK, f"observation_tensor({seat}) changed when what seat {seat} cannot see was "
                                      f"resampled: slice {sl.name!r} index {i - sl.offset}: {mine[i]} -> {theirs[i]}",
              seat)


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
            _fail(ctx, CHECK_ILLEGAL, f"illegal action {candidate} ({game.decode(candidate)}) was accepted")
        if state.to_dict() != before:
            _fail(ctx, CHECK_ILLEGAL, f"rejected action {candidate} changed the state")
    for bad in (-1, game.num_distinct_actions, "x"):
        try:
            state.apply_action(bad)
        except IllegalActionError:
            pass
        else:
            _fail(ctx, CHECK_ILLEGAL, f"garbage action {bad!r} was accepted")
    if state.to_dict() != before:
        _fail(ctx, CHECK_ILLEGAL, "a rejected garbage action changed the state")


def _check_copies(state: State, legal: list, rng: Rng, ctx: str) -> None:
    game = state.game
    before = state.to_dict()
    json.dumps(before)  # must be JSON-ready
    clone = state.clone()
    if clone.to_dict() != before:
        _fail(ctx, CHECK_COPIES, "clone differs from the original")
    a = legal[rng.randbelow(len(legal))]
    clone.apply_action(a)
    if state.to_dict() != before:
        _fail(ctx, CHECK_COPIES, "applying an action to a clone changed the original")
    rebuilt = game.state_from_dict(json.loads(json.dumps(before)))
    if rebuilt.to_dict() != before:
        _fail(ctx, CHECK_COPIES, "to_dict/state_from_dict does not round-trip")
    rebuilt.apply_action(a)
    if rebuilt.to_dict() != clone.to_dict():
        _fail(ctx, CHECK_COPIES, "a state rebuilt from to_dict plays on differently")
    pickled = pickle.loads(pickle.dumps(state))
    if pickled.to_dict() != before:
        _fail(ctx, CHECK_COPIES, "pickle does not round-trip")
    # the original still works after its clone moved on
    if state.legal_actions() != legal:
        _fail(ctx, CHECK_COPIES, "legal actions of the original changed after cloning")


# --- what a seat is shown -----------------------------------------------------------------------
def _event_view(e) -> tuple:
    return e.to_dict(), e.text


def _actions_view(state: State, seat: int) -> list[tuple]:
    """``[(id, action_to_string, action_json)]`` for ``seat``'s legal actions."""
    game = state.game
    return [(a.id, state.action_to_string(a), game.action_json(state, a)) for a in state.legal_actions(seat)]


def _events_difference(mine: list, theirs: list, label: str = "visible event {i}") -> str | None:
    """Why two lists of visible events differ (by data or text), or ``None`` if they do not.

    ``mine`` and ``theirs`` hold ``Event`` objects or ``(to_dict, text)`` pairs; identical objects
    are not compared. ``label`` names an event in the message (``{i}``: its index in the lists).
    """
    if len(mine) != len(theirs):
        extra = mine[len(theirs):] or theirs[len(mine):]
        first = extra[0] if isinstance(extra[0], tuple) else _event_view(extra[0])
        return (f"the seat sees {len(mine)} events in the original and {len(theirs)} in the resampled world "
                f"(first extra: {first[0].get('kind')}: {_short(first[1])})")
    for i, (a, b) in enumerate(zip(mine, theirs)):
        if a is b:
            continue
        va = a if isinstance(a, tuple) else _event_view(a)
        vb = b if isinstance(b, tuple) else _event_view(b)
        if va != vb:
            what = "data" if va[0] != vb[0] else "text"
            detail = _describe_diff(va[0], vb[0]) if what == "data" else f"{_short(va[1])!s} vs {_short(vb[1])!s}"
            return (f"{label.format(i=i)} ({va[0].get('kind')}) differs in its {what}: {detail}; "
                    f"texts: {va[1]!r} vs {vb[1]!r}")
    return None


def _actions_difference(mine: list, theirs: list) -> tuple[str, str] | None:
    """``(check, why)`` if two ``_actions_view`` lists differ, else ``None``."""
    ids_a = [x[0] for x in mine]
    ids_b = [x[0] for x in theirs]
    if ids_a != ids_b:
        return CHECK_LEGAL_LEAK, f"legal action ids differ: {_short(ids_a)} vs {_short(ids_b)}"
    for (aid, ta, ja), (_, tb, jb) in zip(mine, theirs):
        if ta != tb:
            return CHECK_TEXT, f"action_to_string({aid}) differs: {ta!r} vs {tb!r}"
        if ja != jb:
            return CHECK_ACTION_JSON, f"game.action_json(state, {aid}) differs: {_describe_diff(ja, jb)}"
    return None


class _Run:
    """What one ``check_game`` call carries from step to step.

    Attributes:
        stats: the counters of the report (``resamples``, ``redrawn``, ``reveals``).
        seen: per seat, the parts found visible to it (see ``_check_redraws``).
        log_in_obs: whether the game's observation changes with the log (found out once, when needed).
        checks: how many steps got the hidden-information checks (picks whose resample is shown
            to the spectator, in turn).
    """

    def __init__(self):
        self.stats = {"resamples": 0, "redrawn": 0, "reveals": 0}
        self.seen: dict = {}
        self.log_in_obs: bool | None = None
        self.checks = 0

    def observation_embeds_log(self, state: State, seat) -> bool:
        """Whether observations depend on the log, tried once on ``state`` (which has a log)."""
        if self.log_in_obs is None:
            self.log_in_obs = _observation_with_log(state, seat, []) != state.observation(seat)
        return self.log_in_obs


class _Line:
    """The original state and its continuation by random actions, with what each seat is shown at
    each step of it, computed on demand and shared by every resample of one deep step.

    Step 0 is the state itself (never mutated); step ``j`` is the state after ``actions[:j]``.
    """

    def __init__(self, state: State, rng: Rng, length: int):
        self.states = [state]
        self.actions: list = []
        self.length = length
        self._rng = rng
        self._obs: dict = {}
        self._events: dict = {}
        self._acts: dict = {}

    def action(self, j: int):
        """The action leading from step ``j`` to ``j + 1``, or ``None`` (line over: end of game)."""
        while len(self.actions) <= j:
            last = self.states[-1]
            if last.is_terminal() or len(self.actions) >= self.length:
                return None
            legal = last.legal_actions()
            a = legal[self._rng.randbelow(len(legal))]
            nxt = last.clone()
            nxt.apply_action(a)
            self.actions.append(a)
            self.states.append(nxt)
        return self.actions[j]

    def obs(self, j: int, seat):
        key = (j, seat)
        if key not in self._obs:
            self._obs[key] = self.states[j].observation(seat)
        return self._obs[key]

    def new_events(self, j: int, seat) -> list[tuple]:
        """The events step ``j`` (>= 1) added that ``seat`` may see, as ``(to_dict, text)``."""
        key = (j, seat)
        if key not in self._events:
            start = len(self.states[j - 1].log)
            self._events[key] = [_event_view(e) for e in self.states[j].log_for(seat, start)]
        return self._events[key]

    def actions_view(self, j: int, seat: int) -> list[tuple]:
        key = (j, seat)
        if key not in self._acts:
            self._acts[key] = _actions_view(self.states[j], seat)
        return self._acts[key]

    def played(self, j: int) -> str:
        """The first ``j`` actions of the line, as texts, for messages."""
        return "; ".join(str(a) for a in self.actions[:j])


def _observation_with_log(state: State, seat, log: list):
    """``state.observation(seat)`` computed as if the log were ``log`` (a clone is changed, not ``state``)."""
    other = state.clone()
    other.log = log
    return other.observation(seat)


def _compare_same_step(ctx: str, state: State, line: _Line, seat: int, sample: State, spectator: bool) -> None:
    """A resample for ``seat`` must show ``seat`` (and the spectator) exactly what ``state`` shows."""
    obs = sample.observation(seat)
    if obs != line.obs(0, seat):
        _fail(ctx, CHECK_OBSERVATION,
              f"observation({seat}) changed after resample({seat}): {_describe_diff(line.obs(0, seat), obs)} "
              "(the observation shows a part resample redraws: it leaks hidden information, or resample "
              "redraws something the seat sees)", seat)
    why = _events_difference(state.log_for(seat), sample.log_for(seat))
    if why:
        _fail(ctx, CHECK_LOG, f"after resample({seat}), {why} (resample rewrote an event the seat saw, "
                              "or the event shows what resample redraws)", seat)
    diff = _actions_difference(line.actions_view(0, seat), _actions_view(sample, seat))
    if diff:
        _fail(ctx, diff[0], f"after resample({seat}), {diff[1]}", seat)
    if spectator:
        obs = sample.observation(None)
        if obs != line.obs(0, None):
            _fail(ctx, CHECK_SPECTATOR,
                  f"the spectator's observation changed after resample({seat}): "
                  f"{_describe_diff(line.obs(0, None), obs)}", None)


def _follow(ctx: str, line: _Line, seat: int, sample: State, run: _Run, actions: bool) -> None:
    """Play the line's actions on ``sample`` (a resample for ``seat``) and compare what ``seat`` is
    shown after each with the original world; raise on a difference the observation does not explain.
    The legal actions' texts and JSON are compared only if ``actions`` (they cost the most).
    """
    worlds = [sample]
    world = sample
    for j in range(1, line.length + 1):
        a = line.action(j - 1)
        if a is None or world.is_terminal() or a not in world.legal_actions():
            return
        start = len(world.log)
        world = world.clone()
        world.apply_action(a)
        worlds.append(world)
        events = [_event_view(e) for e in world.log_for(seat, start)]
        problem = None
        why = _events_difference(line.new_events(j, seat), events, "visible event {i} of the last action")
        if why:
            problem = (CHECK_LOG, why)
        elif actions:
            problem = _actions_difference(line.actions_view(j, seat), _actions_view(world, seat))
        else:
            problem = _actions_difference([(x.id, "", None) for x in line.states[j].legal_actions(seat)],
                                          [(x.id, "", None) for x in world.legal_actions(seat)])
        if problem is None:
            continue
        # legitimate only if the hidden information was revealed: the observation differed by now
        for i in range(1, j + 1):
            obs = line.obs(i, seat)
            if worlds[i].observation(seat) == obs:
                continue
            if (i == j and problem[0] == CHECK_LOG and run.observation_embeds_log(line.states[j], seat)
                    and _observation_with_log(world, seat, line.states[j].log) == obs):
                break  # only the log differs: an embedded log, not a revealed part of the state
            run.stats["reveals"] += 1
            return
        _fail(ctx, problem[0],
              f"after {j} action(s) applied to the original and to a resample for seat {seat} "
              f"({line.played(j)}), the seat's observation is the same in both worlds but {problem[1]}: "
              "it tells the seat something the observation does not", seat)


def _view_equal(state: State, line: _Line, seat: int, sample: State) -> bool:
    """Whether ``seat``'s observation and visible log are the same in ``sample`` as in ``state``."""
    return (sample.observation(seat) == line.obs(0, seat)
            and _events_difference(state.log_for(seat), sample.log_for(seat)) is None)


def _check_redraws(ctx: str, state: State, line: _Line, samples: dict, rng: Rng, seen: dict) -> None:
    """Every part in which two resamples for another seat differ, both showing ``seat`` exactly
    what ``state`` shows, must also vary between resamples for ``seat`` (``CHECK_PARTIAL``; see the
    module docstring).

    ``samples`` maps each seat to ``[(resample, parts changed, hidden_dict)]``. Resamples are
    compared with each other, not with ``state``: a resample may store a part in a canonical form
    (a set as a sorted list) that differs from the original without any difference in the game.

    ``seen`` maps a seat to the parts found visible to it (the only part missing from the seat's
    own resamples, and the seat's view differed); it persists over the games of one ``check_game``
    so that those parts, typically the seat's own hand, are not looked at again. At most
    ``EVIDENCE_VIEWS`` pairs are looked at per seat and step.
    """
    n = len(samples)
    for seat in range(n):
        own = [d for _, _, d in samples[seat]]
        varied = set()
        for d in own[1:]:
            varied.update(_diff_paths(own[0], d, depth=PART_DEPTH))
        known = seen.setdefault(seat, set())
        looked = 0
        for other in range(n):
            theirs = samples[other]
            if other == seat or len(theirs) < 2 or looked >= EVIDENCE_VIEWS:
                continue
            (first, _, d1), (second, _, d2) = theirs[0], theirs[1]
            missing = [p for p in _diff_paths(d1, d2, depth=PART_DEPTH) if not _covered(p, varied) and p not in known]
            if not missing:
                continue
            looked += 1
            if not (_view_equal(state, line, seat, first) and _view_equal(state, line, seat, second)):
                if len(missing) == 1:
                    known.add(missing[0])
                continue
            tries = 0
            while missing and tries < REDRAW_BUDGET:
                extra = hidden_dict(state.resample(seat, rng.spawn()))
                varied.update(_diff_paths(own[0], extra, depth=PART_DEPTH))
                missing = [p for p in missing if not _covered(p, varied)]
                tries += 1
            if missing:
                p = missing[0]
                _fail(ctx, CHECK_PARTIAL,
                      f"{REDRAW_BUDGET + len(own)} resamples for seat {seat} all have the same {_path_text(p)} "
                      f"({_short(_get(own[0], p), 80)}), although two resamples for seat {other} that show seat "
                      f"{seat} exactly what this state shows have {_short(_get(d1, p), 80)} and "
                      f"{_short(_get(d2, p), 80)} there: resample({seat}) does not redraw that hidden part "
                      f"(or resample({other}) builds states seat {seat} could not be in)", seat)


def _check_hidden(state: State, line: _Line, rng: Rng, ctx: str, run: _Run, resamples: int) -> bool:
    """The hidden-information checks of one step (see the module docstring); return whether some
    resample changed the state. ``line`` is the continuation of ``state`` the resamples follow.

    Raises:
        ConformanceError: ``CHECK_OBSERVATION_JSON``, ``CHECK_OBSERVATION``, ``CHECK_SPECTATOR``,
            ``CHECK_LOG``, ``CHECK_LEGAL_LEAK``, ``CHECK_TEXT``, ``CHECK_ACTION_JSON``,
            ``CHECK_ORIGINAL``, ``CHECK_PARTIAL``, ``CHECK_TENSOR`` or ``CHECK_TENSOR_LEAK``.
    """
    n = state.game.num_players
    run.checks += 1
    for seat in list(range(n)) + [None]:
        try:
            json.dumps(line.obs(0, seat))
        except (TypeError, ValueError) as exc:
            _fail(ctx, CHECK_OBSERVATION_JSON, f"observation({seat}) is not JSON-ready: {exc}", seat)
    base = hidden_dict(state)
    log = state.log[:]
    tensors = _tensors(state, ctx)
    samples: dict[int, list] = {}
    for seat in range(n):
        samples[seat] = []
        for k in range(resamples):
            sample = state.resample(seat, rng.spawn())
            spectator = k == 0 and seat == run.checks % n
            _compare_same_step(ctx, state, line, seat, sample, spectator=spectator)
            if tensors is not None:
                layout = state.game.observation_tensor_layout()
                for who in (seat, None) if spectator else (seat,):
                    _check_tensor_same(ctx, layout, who, tensors[who], sample.observation_tensor(who))
            d = hidden_dict(sample)
            samples[seat].append((sample, _diff_paths(base, d, depth=PART_DEPTH), d))
    after = hidden_dict(state)
    if after != base or len(state.log) != len(log) or any(a is not b for a, b in zip(state.log, log)):
        _fail(ctx, CHECK_ORIGINAL, f"resample changed the original state: {_describe_diff(base, after) or 'its log'}")
    _check_redraws(ctx, state, line, samples, rng, run.seen)
    changed = False
    for seat in range(n):
        texts = True
        for sample, parts, _ in samples[seat]:
            run.stats["resamples"] += 1
            if parts:  # an unchanged resample is the same world: nothing to follow
                changed = True
                run.stats["redrawn"] += 1
                _follow(ctx, line, seat, sample, run, actions=texts)
                texts = False
    return changed


# --- positions ------------------------------------------------------------------------------
def _check_position(state: State, line: _Line, rng: Rng, ctx: str) -> None:
    """``game.state_from_position(state.position())`` is the same position (``CHECK_POSITION``);
    skipped when the game has no position notation. ``line`` caches the state's observations."""
    game = state.game
    try:
        text = state.position()
    except NotImplementedError:
        return
    try:
        rebuilt = game.state_from_position(text)
    except Exception as exc:  # noqa: BLE001 - any error is a failure of the check, reported with its text
        _fail(ctx, CHECK_POSITION, f"state_from_position(position()) raises {type(exc).__name__}: {exc} "
                                   f"(position {text!r})")
    if rebuilt.position() != text:
        _fail(ctx, CHECK_POSITION, f"the position of the rebuilt state is {rebuilt.position()!r}, not {text!r}")
    for seat in list(range(game.num_players)) + [None]:
        mine = line.obs(0, seat)
        theirs = _observation_with_log(rebuilt, seat, state.log)
        if theirs != mine:
            _fail(ctx, CHECK_POSITION, f"the state rebuilt from {text!r} shows another observation: "
                                       f"{_describe_diff(mine, theirs)}", seat)
        if seat is not None and rebuilt.legal_actions(seat) != state.legal_actions(seat):
            _fail(ctx, CHECK_POSITION, f"the state rebuilt from {text!r} has other legal actions", seat)
    if rebuilt.legal_actions() != state.legal_actions():
        _fail(ctx, CHECK_POSITION, f"the state rebuilt from {text!r} has other legal actions")
    original = state.clone()
    for i in range(POSITION_ACTIONS):
        if original.is_terminal():
            break
        legal = original.legal_actions()
        a = legal[rng.randbelow(len(legal))]
        original.apply_action(a)
        rebuilt.apply_action(a)
        if rebuilt.position() != original.position():
            _fail(ctx, CHECK_POSITION, f"after {i + 1} action(s) from {text!r} the rebuilt state is at "
                                       f"{rebuilt.position()!r}, the original at {original.position()!r}")
    record = json.loads(json.dumps(rebuilt.record()))
    if record.get("position") != text:
        _fail(ctx, CHECK_POSITION, f"the record of a state built from a position carries "
                                   f"{record.get('position')!r}, not {text!r}")
    if replay(record).to_dict() != rebuilt.to_dict():
        _fail(ctx, CHECK_POSITION, f"the record of the game started from {text!r} does not replay to the same state")


def _check_terminal(state: State, ctx: str) -> None:
    info = state.game.info
    n = state.game.num_players
    if state.current_player() != TERMINAL or state.players_to_move() != ():
        _fail(ctx, CHECK_END, "terminal state still has a player to move")
    if state.legal_actions() != []:
        _fail(ctx, CHECK_END, "terminal state has legal actions")
    ret = state.returns()
    if len(ret) != n or abs(sum(ret) - info.utility_sum) > 1e-9:
        _fail(ctx, CHECK_END, f"returns {ret} do not sum to {info.utility_sum}")
    if any(r < info.min_utility - 1e-9 or r > info.max_utility + 1e-9 for r in ret):
        _fail(ctx, CHECK_END, f"returns {ret} out of [{info.min_utility}, {info.max_utility}]")
    ranking = state.ranking()
    if sorted(ranking) != list(range(n)):
        _fail(ctx, CHECK_END, f"ranking {ranking} is not a permutation of the seats")
    if ret[ranking[0]] != max(ret):
        _fail(ctx, CHECK_END, "the first of the ranking does not have the best return")
    scores = state.scores()
    for seat in range(n):
        bd = state.score_breakdown(seat)
        if sum(bd.values()) != scores[seat]:
            _fail(ctx, CHECK_END, f"score_breakdown({seat}) sums to {sum(bd.values())}, score is {scores[seat]}")


def random_move(state: State, rng: Rng, legal: list | None = None) -> tuple[int, object]:
    """Apply a uniformly random legal action of a random seat among ``players_to_move()`` (so the
    seats of a simultaneous step choose in random order); return ``(seat, action)``. ``legal``: the
    first mover's legal actions, if already known."""
    movers = state.players_to_move()
    seat = movers[rng.randbelow(len(movers))] if len(movers) > 1 else movers[0]
    if legal is None or seat != movers[0]:
        legal = state.legal_actions(seat)
    a = legal[rng.randbelow(len(legal))]
    state.apply_action(a, player=seat)
    return seat, a


def _order_free(state: State) -> dict:
    """``to_dict()`` without the log, with the history sorted within each run of simultaneous choices
    (their order is the only thing allowed to differ between two orders of the same choices)."""
    d = hidden_dict(state)
    out, run = [], []
    for e in d.get("history", ()):
        if isinstance(e, list):
            run.append(e)
            continue
        out.extend(sorted(run))
        run = []
        out.append(e)
    d["history"] = out + sorted(run)
    return d


def _check_simultaneous(state: State, rng: Rng, ctx: str) -> None:
    """``CHECK_SIMULTANEOUS``, at a step where several seats choose at once: the result does not depend
    on the order of their choices; a seat's pending choice changes nothing any other seat (or a
    spectator) is shown; ``withdraw`` undoes a choice exactly; a seat not to move is refused."""
    movers = state.players_to_move()
    n = state.game.num_players
    before = state.to_dict()
    outsider = next((p for p in range(n) if p not in movers), None)
    if outsider is not None:
        a = state.legal_actions(movers[0])[0]
        try:
            state.apply_action(a, player=outsider)
        except IllegalActionError:
            pass
        else:
            _fail(ctx, CHECK_SIMULTANEOUS, f"seat {outsider}, not to move, could act", outsider)
        if state.to_dict() != before:
            _fail(ctx, CHECK_SIMULTANEOUS, "a refused action of a seat not to move changed the state", outsider)
    choice = {p: state.legal_actions(p)[rng.randbelow(len(state.legal_actions(p)))] for p in movers}
    worlds = []
    shuffled = list(movers)
    rng.shuffle(shuffled)
    for order in (list(movers), list(reversed(movers)), shuffled):
        w = state.clone()
        for p in order:
            w.apply_action(choice[p], player=p)
        worlds.append((order, w))
    (o0, w0) = worlds[0]
    for order, w in worlds[1:]:
        if _order_free(w) != _order_free(w0):
            _fail(ctx, CHECK_SIMULTANEOUS, f"the same choices in the orders {o0} and {order} give different states: "
                                           f"{_describe_diff(_order_free(w0), _order_free(w))}")
        for seat in list(range(n)) + [None]:
            if w.observation(seat) != w0.observation(seat) or \
                    [_event_view(e) for e in w.log_for(seat)] != [_event_view(e) for e in w0.log_for(seat)]:
                _fail(ctx, CHECK_SIMULTANEOUS, f"the same choices in the orders {o0} and {order} show seat {seat} "
                                               "a different observation or log", seat)
    # a pending choice is secret
    q = next((p for p in movers if len(state.legal_actions(p)) > 1), None)
    if q is None:
        return
    legal_q = state.legal_actions(q)
    i = rng.randbelow(len(legal_q))
    j = (i + 1 + rng.randbelow(len(legal_q) - 1)) % len(legal_q)
    one, two = state.clone(), state.clone()
    one.apply_action(legal_q[i], player=q)
    two.apply_action(legal_q[j], player=q)
    for seat in [p for p in range(n) if p != q] + [None]:
        if one.observation(seat) != two.observation(seat):
            _fail(ctx, CHECK_SIMULTANEOUS, f"seat {q}'s pending choice ({legal_q[i]} or {legal_q[j]}) shows in the "
                                           f"observation of seat {seat}: "
                                           f"{_describe_diff(one.observation(seat), two.observation(seat))}", seat)
        why = _events_difference([_event_view(e) for e in one.log_for(seat)],
                                 [_event_view(e) for e in two.log_for(seat)])
        if why:
            _fail(ctx, CHECK_SIMULTANEOUS, f"seat {q}'s pending choice shows in the log of seat {seat}: {why}", seat)
        if seat is not None:
            diff = _actions_difference(_actions_view(one, seat), _actions_view(two, seat))
            if diff:
                _fail(ctx, CHECK_SIMULTANEOUS, f"seat {q}'s pending choice shows in seat {seat}'s legal actions: "
                                               f"{diff[1]}", seat)
    withdraw = getattr(one, "withdraw", None)
    if withdraw is not None:
        withdraw(q)
        if one.to_dict() != before:
            _fail(ctx, CHECK_SIMULTANEOUS, f"withdraw({q}) after a choice does not give back the state before it: "
                                           f"{_describe_diff(before, one.to_dict())}", q)


def play_random_game(game: Game, seed: int, action_seed: int | None = None, max_steps: int = 100_000) -> State:
    """Play one game with uniformly random legal actions; return the final state.

    Raises:
        ConformanceError: the game does not end within ``max_steps`` actions.
    """
    rng = Rng(seed if action_seed is None else action_seed)
    state = game.new_initial_state(seed=seed)
    steps = 0
    while not state.is_terminal():
        random_move(state, rng)
        steps += 1
        if steps > max_steps:
            raise ConformanceError(f"{game.info.id} seed {seed}: no end after {max_steps} actions", CHECK_LENGTH)
    return state


def check_game(game: Game, n_games: int = 10, seed: int = 0, deep_checks_per_game: int = 6,
               resamples: int = 2, line_length: int = 5) -> dict:
    """Run the whole kit on ``game`` (see the module docstring for every check).

    Args:
        game: the game with its options.
        n_games: how many seeded random games to play (seeds ``seed``, ``seed + 1``, ...).
        seed: the first game's seed.
        deep_checks_per_game: at most this many deep steps per game besides the first three.
        resamples: resamples per seat at each deep step.
        line_length: how many actions each resampled world is followed for.

    Returns:
        ``{"games", "actions", "max_length", "resamples", "redrawn", "reveals"}``: games played,
        actions applied in them, the longest game, resamples drawn at deep steps, how many of them
        changed the state, and how many followed resamples ended in a legitimate reveal.

    Raises:
        ConformanceError: on the first broken check, naming game, options, seed, step, seat and
            the check (``error.check``).
    """
    total = 0
    longest = 0
    run = _Run()
    for g in range(n_games):
        game_seed = seed + g
        rng = Rng(game_seed * 7919 + 1)
        hidden_rng = Rng(game_seed * 104_729 + 3)
        state = game.new_initial_state(seed=game_seed)
        # pick the steps that get the expensive checks: spread over the game
        deep_rng = Rng(game_seed + 17)
        step = 0
        deep_at = set()
        redrawn = False
        checked = 1  # the end
        while not state.is_terminal():
            ctx = f"{game.info.id} {game.options} seed {game_seed} step {step}"
            legal = _check_legal(state, ctx)
            if step < 3 or deep_rng.randbelow(60) == 0 and len(deep_at) < deep_checks_per_game:
                deep_at.add(step)
                _check_illegal(state, legal, rng, ctx)
                _check_copies(state, legal, rng, ctx)
                if step not in (1, 2):  # the lines followed from step 0 go through steps 1 and 2
                    checked += 1
                    line = _Line(state, hidden_rng.spawn(), line_length)
                    redrawn |= _check_hidden(state, line, hidden_rng, ctx, run, resamples)
                    _check_position(state, line, hidden_rng, ctx)
                if len(state.players_to_move()) > 1:
                    _check_simultaneous(state, rng, ctx)
            random_move(state, rng, legal)
            step += 1
            if step > 100_000:
                _fail(ctx, CHECK_LENGTH, "the game does not end")
        ctx = f"{game.info.id} {game.options} seed {game_seed} end"
        _check_terminal(state, ctx)
        line = _Line(state, hidden_rng.spawn(), line_length)
        redrawn |= _check_hidden(state, line, hidden_rng, ctx, run, resamples)
        _check_position(state, line, hidden_rng, ctx)
        if game.info.hidden_information and not redrawn:
            _fail(ctx, CHECK_STALE,
                  f"GameInfo declares hidden information, but resample(seat, rng) returned a state equal to the "
                  f"original (to_dict() without the log) for every seat at all {checked} checked steps "
                  f"({resamples} resamples each): resample must redraw the hidden parts")
        record = json.loads(json.dumps(state.record()))
        again = replay(record)
        if again.to_dict() != state.to_dict():
            _fail(ctx, CHECK_RECORD, "the record does not replay to the same state")
        # same seed + same actions -> same game, move by move
        fresh = game.new_initial_state(seed=game_seed)
        for a in record["actions"][: min(50, len(record["actions"]))]:
            fresh.apply_entry(a)
        if fresh.to_dict() != replay(record, upto=min(50, len(record["actions"]))).to_dict():
            _fail(ctx, CHECK_RECORD, "the same seed and actions gave different games")
        total += step
        longest = max(longest, step)
    return {"games": n_games, "actions": total, "max_length": longest, **run.stats}
