"""Playthroughs: one seeded game written down step by step as reviewable, deterministic text.

A playthrough is the golden record of a game's behaviour (DESIGN.md "Tests", after OpenSpiel's
``integration_tests/playthroughs``): for every step the seat(s) to move, each legal action's
integer id with its text, the action applied, the new log events with their visibility, and what
every seat and the spectator observe. A change in rules, action ids, action texts, log events or
observations shows up as a diff of the text; :func:`first_difference` names the first step that
differs and what in it (which seat's observation, which legal action).

The text, format 1::

    # comment lines: what this is and how to regenerate it
    game: <id> (<name>), rules version <v>
    ...                                 (options, seed, seats, size of the action space)
    == setup                            events and observations before the first action
    == step <k>: <seat> to move         then, per step:
    legal actions (<count>):              "  <id>: <action_to_string>" (before the action)
    applied: <id>: <text>                 the action drawn
    events:                               "  public: <text>" or "  only seat <s>: <text>",
                                          each followed by "    <kind> player=<p> <data JSON>"
    observation, every viewer:            changed observation lines shared by all viewers
    observation, seat <s>: / spectator:   the viewer's other changed lines
    == end after <n> actions            returns, scores, ranking, outcome, score breakdowns

Observations are flattened to ``path: value`` lines: dict keys sorted (``players[1].money: 7``),
list items by index; a list holding no dict is one value (``order: [1, 2, 0, 3]``); values are
JSON. At setup every viewer's observation is written in full; afterwards only the lines that
changed since that viewer's previous observation, a key that disappeared as ``path: <removed>``.
A viewer with no change is left out.

Actions are drawn as the golden tests always did: ``Rng(seed)`` picks
``legal[rng.randbelow(len(legal))]`` from the mover's legal actions, so a playthrough is a pure
function of the game, its options and the seed. When several seats move at once (simultaneous
steps), every mover's legal actions are listed and the first mover acts
(``apply_action(action, player=seat)``, as DESIGN.md's contract for simultaneous steps says).
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from typing import Any

from citygames.core import SIMULTANEOUS, Game, Rng, State

#: written in every playthrough; bump when the layout changes
FORMAT_VERSION = 1
#: the value of an observation line whose key disappeared since the viewer's previous observation
REMOVED = "<removed>"
#: heading of the observation lines that changed identically for every viewer
EVERY_VIEWER = "every viewer"

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_encode_str = json.encoder.encode_basestring  # JSON string, non-ASCII kept (as ensure_ascii=False)
_STEP_PREFIX = "== "


# --- flattening --------------------------------------------------------------------------
def _json(value: Any) -> str:
    """One deterministic JSON text: sorted keys, ``", "``/``": "`` separators, non-ASCII kept."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


_KEYS: dict[str, str] = {}


def _key(key: str) -> str:
    written = _KEYS.get(key)
    if written is None:
        written = _KEYS[key] = key if _BARE_KEY.match(key) else _json(key)
    return written


def _scalar(value: Any) -> str:
    """``value`` as JSON, with a fast path for the common scalars."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return str(value)
    if type(value) is str:
        return _encode_str(value)
    return _json(value)


def _holds_dict(value: list) -> bool:
    return any(isinstance(v, dict) or (isinstance(v, (list, tuple)) and _holds_dict(v)) for v in value)


def flatten(value: Any, path: str = "") -> dict[str, str]:
    """A JSON-ready value as ``{path: value as JSON}``, in a fixed order.

    Dicts are descended with their keys sorted (``a.b``; a key that is not made of letters,
    digits, ``_`` and ``-`` is written as a JSON string: ``a."x y"``); a list holding a dict is
    descended by index (``a[0].b``); any other list, a scalar, an empty dict and an empty list
    are one value, written as JSON (``[1, 2]``, ``"text"``, ``null``, ``{}``).

    Args:
        value: dicts with string (or int) keys, lists, tuples, str, int, float, bool, None.
        path: the prefix of every path (the root's own path).

    Returns:
        An insertion-ordered dict: dict keys sorted, list items by index.

    Raises:
        TypeError: a value that JSON cannot hold (a set, an object, a key that is not a string
            or an int, two keys that read the same), naming its path.
    """
    out: dict[str, str] = {}
    _flatten_into(value, path, out)
    return out


def _flatten_into(value: Any, path: str, out: dict[str, str]) -> None:
    if isinstance(value, dict) and value:
        keys = {}
        for k in value:
            if not isinstance(k, (str, int)) or isinstance(k, bool):
                raise TypeError(f"{path or '(root)'}: key {k!r} is not a string")
            if str(k) in keys:
                raise TypeError(f"{path or '(root)'}: keys {keys[str(k)]!r} and {k!r} read the same")
            keys[str(k)] = k
        for name in sorted(keys):
            sub = _key(name)
            _flatten_into(value[keys[name]], f"{path}.{sub}" if path else sub, out)
    elif isinstance(value, (list, tuple)) and value and _holds_dict(value):
        for i, item in enumerate(value):
            _flatten_into(item, f"{path}[{i}]", out)
    else:
        try:
            out[path] = _scalar(value)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{path or '(root)'}: {exc}") from None


def changed_lines(old: dict[str, str] | None, new: dict[str, str]) -> list[str]:
    """The ``path: value`` lines of ``new`` that differ from ``old``, then ``path: <removed>``
    for each path of ``old`` missing from ``new``.

    Args:
        old: a previous :func:`flatten` result, or ``None`` (then every line of ``new``).
        new: the current :func:`flatten` result.

    Returns:
        The lines in ``new``'s order, the removals after them in ``old``'s order.
    """
    if old is None:
        return [f"{p}: {v}" for p, v in new.items()]
    lines = [f"{p}: {v}" for p, v in new.items() if old.get(p) != v]
    lines.extend(f"{p}: {REMOVED}" for p in old if p not in new)
    return lines


# --- recording ---------------------------------------------------------------------------
@dataclass(frozen=True)
class LoggedEvent:
    """One log event as a playthrough shows it.

    Attributes:
        text: the event's sentence.
        kind: its kind, e.g. ``"capitals.build"``.
        player: the seat it concerns, or ``None``.
        data: its payload as deterministic JSON text.
        visible_to: ``None`` if public, else the only seat that may see it.
    """

    text: str
    kind: str
    player: int | None
    data: str
    visible_to: int | None


@dataclass(frozen=True)
class Step:
    """One step of a playthrough; step 0 is the setup (no action, observations in full).

    Attributes:
        number: 0 for the setup, then 1, 2, ... (one per applied action).
        movers: the seats to move before the action (``()`` at the setup).
        legal: per mover, ``(seat, ((action id, action_to_string), ...))`` before the action.
        applied: ``(seat, action id, text)`` of the action applied, ``None`` at the setup.
        events: the events the step added to the log, in order.
        observations: ``(heading, lines)`` pairs: first :data:`EVERY_VIEWER` (the changed lines
            all viewers share), then ``"seat <s>"`` per seat and ``"spectator"``, each with its
            other changed lines; headings without lines are left out.
    """

    number: int
    movers: tuple[int, ...]
    legal: tuple[tuple[int, tuple[tuple[int, str], ...]], ...]
    applied: tuple[int, int, str] | None
    events: tuple[LoggedEvent, ...]
    observations: tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True)
class Playthrough:
    """A whole seeded game as recorded by :func:`record_playthrough`; ``text()`` writes it.

    Attributes:
        game: the game played (its options included).
        seed: the game's seed, also the seed of the generator that draws the actions.
        steps: the setup, then one :class:`Step` per action.
        returns, scores, ranking: the state's values at the end.
        outcome: ``state.outcome()`` at the end.
        breakdowns: each seat's ``score_breakdown`` at the end, by seat.
    """

    game: Game
    seed: int
    steps: tuple[Step, ...]
    returns: tuple[float, ...]
    scores: tuple[int, ...]
    ranking: tuple[int, ...]
    outcome: str | None
    breakdowns: tuple[dict, ...]

    def events(self) -> list[LoggedEvent]:
        """Every logged event of the game, setup included, in order."""
        return [e for step in self.steps for e in step.events]

    def text(self) -> str:
        """The playthrough in the text format described in this module's docstring."""
        return format_playthrough(self)


def _viewer_heading(viewer: int | None) -> str:
    return "spectator" if viewer is None else f"seat {viewer}"


def _events(state: State, start: int) -> tuple[LoggedEvent, ...]:
    return tuple(LoggedEvent(e.text, e.kind, e.player, _json(e.data), e.visible_to) for e in state.log[start:])


def _observations(state: State, previous: dict) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each viewer's changed lines since ``previous`` (updated in place), the shared ones first."""
    per_viewer = []
    for viewer in list(range(state.game.num_players)) + [None]:
        try:
            flat = flatten(state.observation(viewer))
        except TypeError as exc:
            raise TypeError(f"the observation of {_viewer_heading(viewer)} is not JSON-ready: {exc}") from None
        per_viewer.append((viewer, changed_lines(previous.get(viewer), flat)))
        previous[viewer] = flat
    others = [set(lines) for _, lines in per_viewer[1:]]
    shared = [line for line in per_viewer[0][1] if all(line in s for s in others)]
    shared_set = set(shared)
    sections = [(EVERY_VIEWER, tuple(shared))] if shared else []
    for viewer, lines in per_viewer:
        own = tuple(line for line in lines if line not in shared_set)
        if own:
            sections.append((_viewer_heading(viewer), own))
    return tuple(sections)


def record_playthrough(game: Game, seed: int, max_steps: int = 100_000) -> Playthrough:
    """Play ``game`` from ``seed`` to the end with actions drawn from ``Rng(seed)``; record it.

    Args:
        game: a loaded game (``citygames.load_game(id, **options)``).
        seed: the game's seed and the action generator's seed.
        max_steps: a guard against a game that never ends.

    Returns:
        The :class:`Playthrough`: the setup step, one step per action, the final results.

    Raises:
        RuntimeError: the game is not over after ``max_steps`` actions, or a seat to move has
            no legal action.
        TypeError: an observation is not JSON-ready (the message names the viewer and path).
    """
    state = game.new_initial_state(seed=seed)
    rng = Rng(seed)
    previous: dict = {}
    steps = [Step(0, (), (), None, _events(state, 0), _observations(state, previous))]
    while not state.is_terminal():
        if len(steps) > max_steps:
            raise RuntimeError(f"{game.id} seed {seed} is not over after {max_steps} actions")
        movers = tuple(state.players_to_move())
        legal = {seat: state.legal_actions(seat) for seat in movers}
        seat = movers[0]
        if not legal[seat]:
            raise RuntimeError(f"{game.id} seed {seed}: seat {seat} is to move but has no legal action")
        listed = tuple((s, tuple((game.encode(a), state.action_to_string(a)) for a in legal[s])) for s in movers)
        action = legal[seat][rng.randbelow(len(legal[seat]))]
        applied = (seat, game.encode(action), state.action_to_string(action))
        shown = len(state.log)
        if len(movers) > 1 or state.current_player() == SIMULTANEOUS:
            state.apply_action(action, player=seat)
        else:
            state.apply_action(action)
        steps.append(Step(len(steps), movers, listed, applied, _events(state, shown),
                          _observations(state, previous)))
    n = game.num_players
    return Playthrough(game, seed, tuple(steps), tuple(state.returns()), tuple(state.scores()),
                       tuple(state.ranking()), state.outcome(),
                       tuple(dict(state.score_breakdown(s)) for s in range(n)))


# --- text --------------------------------------------------------------------------------
def command_line(game: Game, seed: int) -> str:
    """The ``citygames playthrough`` command that writes this game's playthrough.

    ``num_players`` is given (as ``--players``) whenever the game allows several player
    counts, other options only when not at their default.
    """
    parts = ["citygames", "playthrough", game.id, "--seed", str(seed)]
    for spec in game.info.options:
        value = game.options.get(spec.name, spec.default)
        if spec.name == "num_players":
            if game.info.min_players != game.info.max_players:
                parts += ["--players", str(value)]
        elif value != spec.default:
            flag = "--" + spec.name.replace("_", "-")
            if isinstance(value, bool):
                parts.append(flag if value else "--no-" + flag[2:])
            else:
                parts.append(f"{flag}={value}")
    return " ".join(parts)


def _seat(game: Game, seat: int) -> str:
    name = game.seat_name(seat)
    return f"seat {seat}" if name == f"Seat {seat}" else f"{name} (seat {seat})"


def _step_title(game: Game, step: Step) -> str:
    if step.number == 0:
        return f"{_STEP_PREFIX}setup"
    movers = " and ".join(_seat(game, s) for s in step.movers)
    return f"{_STEP_PREFIX}step {step.number}: {movers} to move"


def _one_line(text: str) -> str:
    """A sentence kept on its line: a line break would start a line of the format."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


def _step_lines(game: Game, step: Step) -> list[str]:
    lines = [_step_title(game, step)]
    for seat, actions in step.legal:
        who = f" of seat {seat}" if len(step.legal) > 1 else ""
        lines.append(f"legal actions{who} ({len(actions)}):")
        lines.extend(f"  {aid}: {_one_line(text)}" for aid, text in actions)
    if step.applied is not None:
        seat, aid, text = step.applied
        who = f" by seat {seat}" if len(step.movers) > 1 else ""
        lines.append(f"applied{who}: {aid}: {_one_line(text)}")
    if step.events:
        lines.append("events:")
        for e in step.events:
            seen = "public" if e.visible_to is None else f"only seat {e.visible_to}"
            lines.append(f"  {seen}: {_one_line(e.text)}")
            lines.append(f"    {e.kind} player={_json(e.player)} {e.data}")
    for heading, obs in step.observations:
        lines.append(f"observation, {heading}:")
        lines.extend(f"  {line}" for line in obs)
    return lines


def format_playthrough(pt: Playthrough) -> str:
    """The text of a playthrough (format :data:`FORMAT_VERSION`); ends with a newline."""
    game = pt.game
    n = game.num_players
    lines = [
        f"# citygames playthrough, format {FORMAT_VERSION}: a seeded game step by step; actions drawn by",
        "# Rng(seed): legal[randbelow(len(legal))]. Observations: in full at setup, then the lines that",
        "# changed for each viewer ('<removed>': key gone). Layout: citygames/sim/playthrough.py.",
        f"# Regenerate: {command_line(game, pt.seed)}",
        f"game: {game.id} ({game.info.name}), rules version {game.info.version}",
        f"options: {_json(dict(game.options))}",
        f"seed: {pt.seed}",
        "seats: " + ", ".join(_seat(game, s) for s in range(n)),
        f"num_distinct_actions: {game.num_distinct_actions}",
    ]
    for step in pt.steps:
        lines.extend(_step_lines(game, step))
    lines.append(f"{_STEP_PREFIX}end after {len(pt.steps) - 1} actions")
    lines.append(f"returns: {_json(list(pt.returns))}")
    lines.append(f"scores: {_json(list(pt.scores))}")
    lines.append(f"ranking: {_json(list(pt.ranking))}")
    lines.append(f"outcome: {_json(pt.outcome)}")
    for seat, breakdown in enumerate(pt.breakdowns):
        lines.append(f"score breakdown, {_seat(game, seat)}:")
        lines.extend(f"  {line}" for line in changed_lines(None, flatten(breakdown)))
    return "\n".join(lines) + "\n"


# --- comparing ---------------------------------------------------------------------------
def _blocks(text: str) -> list[list[str]]:
    """The header, then one list of lines per ``== `` block (setup, steps, end)."""
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.startswith(_STEP_PREFIX):
            blocks.append([])
        blocks[-1].append(line)
    return blocks


def _count_steps(blocks: list[list[str]]) -> int:
    return sum(1 for b in blocks if b and b[0].startswith(_STEP_PREFIX + "step "))


def _section(block: list[str], index: int) -> str:
    """The heading (an unindented line) the line at ``index`` of ``block`` belongs to."""
    for line in reversed(block[:index + 1]):
        if not line.startswith(" "):
            return line
    return block[0]


def first_difference(expected: str, actual: str, max_diff_lines: int = 60) -> str | None:
    """Where two playthrough texts first differ, as a report for a failing test.

    Args:
        expected: the stored playthrough.
        actual: the one generated now.
        max_diff_lines: at most this many lines of the differing step's unified diff are shown.

    Returns:
        ``None`` if the texts are equal line by line; else a few lines: the first differing
        block (the header, ``== setup``, ``== step k: ...`` or ``== end``), the section in it
        (``legal actions (8):``, ``observation, seat 2:`` ...) with the stored and the generated
        line, how many blocks differ in all, and a unified diff of that block.
    """
    old, new = _blocks(expected), _blocks(actual)
    differing = [i for i in range(max(len(old), len(new)))
                 if (old[i] if i < len(old) else None) != (new[i] if i < len(new) else None)]
    if not differing:
        return None
    i = differing[0]
    was = old[i] if i < len(old) else []
    now = new[i] if i < len(new) else []
    j = next((k for k in range(max(len(was), len(now)))
              if (was[k] if k < len(was) else None) != (now[k] if k < len(now) else None)))
    first = (was or now)[0]
    if first.startswith(_STEP_PREFIX):
        where = first[len(_STEP_PREFIX):]
        section = _section(was if j < len(was) else now, j)  # one of them has a line j
        where += f", under {section!r}" if section != first else ""
    else:
        where = "the header"
    report = [f"first difference: {where}",
              f"  stored:    {was[j] if j < len(was) else '(nothing: the stored block ends here)'}",
              f"  generated: {now[j] if j < len(now) else '(nothing: the generated block ends here)'}",
              f"{len(differing)} of {max(len(old), len(new))} blocks differ (stored: {_count_steps(old)} "
              f"actions, generated: {_count_steps(new)}); this block, stored -> generated:"]
    diff = list(difflib.unified_diff(was, now, "stored", "generated", lineterm="", n=2))
    report.extend(diff[:max_diff_lines])
    if len(diff) > max_diff_lines:
        report.append(f"... ({len(diff) - max_diff_lines} more diff lines)")
    return "\n".join(report)
