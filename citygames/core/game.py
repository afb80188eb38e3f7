"""The game contract shared by every engine (names follow OpenSpiel).

A ``Game`` holds immutable rules and options; ``game.new_initial_state(seed)`` returns a
``State`` that carries everything that changes. See ``DESIGN.md`` ("The game contract").
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from .actions import Action, ActionSpace
from .data import DATA_OVERRIDES, freeze_overrides, override_lines, resolve_overrides
from .errors import GameOptionError, IllegalActionError, PositionError

#: ``current_player()`` when the game is over (OpenSpiel's kTerminalPlayerId).
TERMINAL = -4
#: ``current_player()`` when several seats move at once (OpenSpiel's kSimultaneousPlayerId).
SIMULTANEOUS = -2


@dataclass(frozen=True)
class OptionSpec:
    """One game option.

    Attributes:
        name: option name as passed to ``load_game``.
        default: value used when the option is not given.
        doc: one-line description.
        choices: allowed values, or ``None`` when ``min``/``max`` bound an int.
        min, max: inclusive bounds for int options.
    """

    name: str
    default: Any
    doc: str
    choices: tuple | None = None
    min: int | None = None
    max: int | None = None

    def check(self, value: Any) -> Any:
        """Return ``value`` converted to the option's type; ``GameOptionError`` if not allowed."""
        if isinstance(self.default, bool):
            if isinstance(value, str):
                low = value.lower()
                if low in ("1", "true", "yes", "on"):
                    value = True
                elif low in ("0", "false", "no", "off"):
                    value = False
            if not isinstance(value, bool):
                raise GameOptionError(f"option {self.name} must be true or false, got {value!r}")
            return value
        if isinstance(self.default, int):
            try:
                value = int(value)
            except (TypeError, ValueError):
                raise GameOptionError(f"option {self.name} must be an integer, got {value!r}") from None
            if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
                raise GameOptionError(f"option {self.name} must be between {self.min} and {self.max}, got {value}")
        if self.choices is not None and value not in self.choices:
            raise GameOptionError(f"option {self.name} must be one of {list(self.choices)}, got {value!r}")
        return value


@dataclass(frozen=True)
class GameInfo:
    """What a game is: id, name, player range, options and flags.

    ``utility_sum`` is the constant sum of ``returns()`` at the end (1.0: the winner gets 1,
    everybody else 0).
    """

    id: str
    name: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = ()
    hidden_information: bool = False
    simultaneous_moves: bool = False
    chance: bool = False
    min_utility: float = 0.0
    max_utility: float = 1.0
    utility_sum: float = 1.0
    version: str = "1"
    extra: dict = field(default_factory=dict)

    @property
    def default_players(self) -> int:
        """The number of seats of a game made with the default options: the ``num_players``
        option's default, else ``min_players`` (as ``Game.num_players``)."""
        for o in self.options:
            if o.name == "num_players":
                return int(o.default)
        return self.min_players

    def resolve_options(self, given: dict) -> dict:
        """Defaults overlaid with ``given``; ``GameOptionError`` on unknown names or bad values.

        The reserved option ``data_overrides`` (not in ``options``; see ``citygames.core.data``) is
        passed through as given when it is not empty, after the other options, and dropped when it
        is (``None``, ``{}``): the game checks it against its data files (``Game.__init__``).
        """
        specs = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(specs) - {DATA_OVERRIDES})
        if unknown:
            raise GameOptionError(
                f"unknown option(s) {', '.join(unknown)} for {self.id}; known: {', '.join(specs)} "
                f"(and {DATA_OVERRIDES})")
        out = {name: spec.check(given[name]) if name in given else spec.default for name, spec in specs.items()}
        overrides = given.get(DATA_OVERRIDES)
        if overrides:
            if not hasattr(overrides, "items"):
                raise GameOptionError(f"{DATA_OVERRIDES} must be a mapping {{'FILE:PATH': value}}, got {overrides!r}")
            out[DATA_OVERRIDES] = dict(overrides)
        return out


class Game:
    """Immutable rules plus resolved options. Subclasses set ``info``, ``action_space`` and ``PARTS``,
    and ``DATA_DIR`` when they have data files.

    Attributes:
        info: the ``GameInfo``.
        options: resolved option values (dict). With data overrides, ``options["data_overrides"]``
            holds them in canonical form (``{"FILE:PATH": value}`` sorted by key, JSON-ready); the
            key is absent otherwise, so records of games without overrides do not change.
        data_key: the overrides frozen (``citygames.core.data.freeze_overrides``), ``()`` without:
            what the game passes to its ``components()`` loader, the loader's cache key.
        action_space: the ``ActionSpace`` (stable integer encoding of every action).
    """

    info: GameInfo
    action_space: ActionSpace
    #: the folder of the game's data files (``*.yaml``) that the option ``data_overrides`` may
    #: change; ``None``: the game has none, and refuses data overrides
    DATA_DIR: Path | None = None

    def __init__(self, options: dict | None = None):
        """Resolve ``options``: the game's own (``info.options``) and the reserved ``data_overrides``.

        Raises:
            GameOptionError: an unknown option or a bad value; data overrides that name no data
                value or give a value of another type (``citygames.core.data.resolve_overrides``).
        """
        self.options = self.info.resolve_options(options or {})
        self.data_key: tuple = ()
        overrides = self.options.pop(DATA_OVERRIDES, None)
        if overrides:
            canonical = resolve_overrides(self.DATA_DIR, overrides, self.info.id)
            self.options[DATA_OVERRIDES] = canonical
            self.data_key = freeze_overrides(canonical)

    @contextmanager
    def data_guard(self):
        """Context for the part of a subclass's ``__init__`` that loads and reads the (possibly
        overridden) data: with data overrides, any error the data causes there (a components
        check failing, a value the engine cannot use) becomes a ``GameOptionError`` naming the
        overrides. Without overrides errors pass unchanged (they are bugs of the data files)."""
        try:
            yield
        except GameOptionError:
            raise
        except Exception as exc:
            if not self.data_key:
                raise
            keys = ", ".join(k for k, _ in self.data_key)
            raise GameOptionError(f"{self.info.id}: the data with {DATA_OVERRIDES} ({keys}) does not load: "
                                  f"{type(exc).__name__}: {exc}") from exc

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def num_players(self) -> int:
        return int(self.options.get("num_players", self.info.min_players))

    @property
    def num_distinct_actions(self) -> int:
        """Size of the integer action space: every id is in ``[0, num_distinct_actions)``."""
        return len(self.action_space)

    def max_game_length(self) -> int:
        """An upper bound on the number of actions in one game with these options (OpenSpiel's
        ``max_game_length``): no game of these rules can be longer. Each game derives it in its
        ``"max_game_length"`` part and documents how.

        Raises:
            NotImplementedError: the game gives no bound.
        """
        fn = self.part("max_game_length")
        if fn is None:
            raise NotImplementedError(f"{self.info.id} gives no max_game_length")
        return int(fn(self))

    def observation_tensor_layout(self):
        """The named layout of ``state.observation_tensor(seat)`` for these options: a
        ``citygames.core.tensor.TensorLayout`` (slices with name, shape, bounds, unit and meaning),
        built once per game object by the game's ``"tensor_layout"`` part.

        Raises:
            NotImplementedError: the game has no observation tensor.
        """
        layout = self.__dict__.get("_tensor_layout")
        if layout is None:
            fn = self.part("tensor_layout")
            if fn is None:
                raise NotImplementedError(f"{self.info.id} has no observation tensor")
            layout = self.__dict__["_tensor_layout"] = fn(self)
        return layout

    def observation_tensor_shape(self) -> list[int]:
        """``[size]``: the tensor is flat; its structure is in ``observation_tensor_layout()``."""
        return [self.observation_tensor_layout().size]

    def observation_tensor_size(self) -> int:
        """Length of ``state.observation_tensor(seat)``."""
        return self.observation_tensor_layout().size

    def encode(self, action: Action) -> int:
        """Stable integer id of ``action``."""
        return action.id

    def decode(self, action_id: int) -> Action:
        """The ``Action`` with this id; ``ValueError`` if out of range."""
        return self.action_space.decode(action_id)

    #: Where the game's parts live, relative to its package, as ``{part: "module:name"}``; each is
    #: imported on first use. ``"state"`` (required) is the ``State`` subclass, which provides
    #: ``new(game, seed)`` and ``from_dict(game, data)``. The optional parts replace the defaults of
    #: the methods of the same name: ``"evaluate"``, ``"render_text"``, ``"action_json"``,
    #: ``"components_json"``, ``"describe_rules"``, ``"facts"``; ``"state_from_position"`` (``parse(game, text)``)
    #: and ``"position"`` (``write(state) -> str``) give the game's position notation;
    #: ``"tensor_layout"`` (``layout(game) -> TensorLayout``), ``"observation_tensor"``
    #: (``tensor(state, seat) -> float32 array``) and ``"max_game_length"`` (``bound(game) -> int``)
    #: give the fixed-size views for learning; ``"bench_extra"`` (``extra(game, seconds, seed) ->
    #: [(label, value, budget)]``) adds a game's own lines to ``citygames bench``.
    PARTS: dict[str, str] = {}

    def part(self, name: str):
        """The game's part ``name`` from ``PARTS`` (imported once), or ``None`` if it has none."""
        cls = type(self)
        key = (cls, name)
        try:
            return _PARTS_CACHE[key]
        except KeyError:
            pass
        spec = cls.PARTS.get(name)
        obj = None
        if spec is not None:
            import importlib
            module, _, attr = spec.partition(":")
            package = cls.__module__.rpartition(".")[0]
            obj = getattr(importlib.import_module(f"{package}.{module}" if package else module), attr)
        _PARTS_CACHE[key] = obj
        return obj

    def new_initial_state(self, seed: int = 0) -> "State":
        """A new game, set up from ``seed`` (all chance of the game flows from it), first decision pending."""
        return self.part("state").new(self, int(seed))

    def state_from_dict(self, data: dict) -> "State":
        """The state ``state.to_dict()`` gave (server side: it carries the hidden parts)."""
        return self.part("state").from_dict(self, data)

    def state_from_position(self, text: str) -> "State":
        """The state a position text describes, in the game's documented notation (python-chess's FEN
        is the model): every rule-relevant part of the state, validated. The state has an empty
        history (its log holds only what the game did on its own from that position on); its
        ``record()`` carries the text, so it replays.

        Raises:
            PositionError: the text is not a valid position; the message names the line and the rule.
            NotImplementedError: the game has no position notation.
        """
        fn = self.part("state_from_position")
        if fn is None:
            raise NotImplementedError(f"{self.info.id} has no position notation")
        if not isinstance(text, str):
            raise PositionError("a position is a text")
        return fn(self, text)

    def evaluate(self, state: "State", player: int) -> float:
        """Heuristic value of ``state`` for ``player`` (higher is better), used by the greedy bot.

        Raises:
            NotImplementedError: the game has no evaluation.
        """
        fn = self.part("evaluate")
        if fn is None:
            raise NotImplementedError(f"{self.info.id} has no evaluation")
        return fn(state, player)

    def render_text(self, state: "State", seat: int | None, width: int | None = None) -> str:
        """The board as text (rich markup allowed) for ``seat``; default: the observation as JSON.

        ``width``: the terminal's width in columns, for a game whose board lays itself out to fit
        (its ``render_text`` part takes ``width``); ``None``: the game's own default width.
        """
        fn = self.part("render_text")
        if fn is not None:
            if width is not None and "width" in _parameters(fn):
                return fn(state, seat, width=width)
            return fn(state, seat)
        import json
        return json.dumps(state.observation(seat), indent=1)

    def seat_name(self, seat: int) -> str:
        """How players and logs call a seat (e.g. its colour); default ``"Seat N"``."""
        return f"Seat {seat}"

    def action_json(self, state: "State", action: Action) -> dict:
        """A legal action as JSON-ready data for user interfaces.

        Always ``{"id", "kind", "arg", "text"}`` (``text`` is ``state.action_to_string``); games add
        the keys their board needs to place the action where it happens (a tile id, coordinates).
        """
        fn = self.part("action_json")
        if fn is not None:
            return fn(state, action)
        return {"id": action.id, "kind": action.kind, "arg": action.arg, "text": state.action_to_string(action)}

    def components_json(self) -> dict:
        """Static component data a user interface needs to draw the game (names, effect texts)."""
        fn = self.part("components_json")
        if fn is not None:
            return fn(self)
        return {"game": self.info.id, "name": self.info.name}

    def facts(self, state: "State") -> list[tuple]:
        """Per-component facts of a finished game, for studies (``citygames simulate --out X.parquet``).

        Returns:
            a list of ``(seat, kind, component, event, when, where)`` rows, one per thing that
            happened to a component: ``seat`` (int) the seat it concerns; ``kind`` (str) the
            component family (e.g. ``"tile"``, ``"card"``, ``"wonder"``); ``component`` (str) its
            stable id; ``event`` (str) what happened (e.g. ``"built"``, ``"discarded"``); ``when``
            (int) the round or age, 0 when not meaningful; ``where`` (str) a place in the game's
            own notation, ``""`` when none. Each game documents its own kinds and events in its
            ``facts`` module. Default: no facts (``[]``).
        """
        fn = self.part("facts")
        return [] if fn is None else fn(state)

    def reveals_hidden(self, events: Sequence) -> bool:
        """Whether these log events revealed hidden information or drew chance (undo stops there).

        Default: any event whose kind is listed in ``info.extra["reveal_events"]``.
        """
        kinds = self.info.extra.get("reveal_events", ())
        return any(e.kind in kinds for e in events)

    def describe_rules(self, assumptions: bool = False) -> str:
        """Components and options as text (``citygames rules``); default: the options.

        ``assumptions``: list every value no source confirms (games with data files).
        """
        fn = self.part("describe_rules")
        if fn is not None:
            return fn(self, assumptions)
        lines = [f"{self.info.name} ({self.info.id}), {self.info.min_players}-{self.info.max_players} players"]
        lines += [f"  {o.name} = {self.options.get(o.name)} (default {o.default}): {o.doc}" for o in self.info.options]
        assumptions = getattr(getattr(self, "components", None), "assumptions", ())
        overridden = override_lines(assumptions) or [f"  {k} = {v!r}" for k, v in
                                                     self.options.get(DATA_OVERRIDES, {}).items()]
        if overridden:
            lines += [f"Data overrides in effect ({len(overridden)}):"] + overridden
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options})"

    def __reduce__(self):
        return (_rebuild_game, (self.info.id, self.options))


_PARTS_CACHE: dict = {}


def _parameters(fn) -> tuple[str, ...]:
    """The names of ``fn``'s parameters (cached per function)."""
    names = _PARAMS_CACHE.get(fn)
    if names is None:
        import inspect
        names = _PARAMS_CACHE[fn] = tuple(inspect.signature(fn).parameters)
    return names


_PARAMS_CACHE: dict = {}


def _rebuild_game(game_id: str, options: dict) -> Game:
    from .registry import load_game
    return load_game(game_id, **options)


class State:
    """Everything that changes during one game. Subclasses implement the abstract methods.

    Common attributes: ``game``, ``seed``, ``history`` (the applied action ids, and ``[seat, id]``
    pairs for the choices of simultaneous steps) and ``log``
    (list of ``Event``).
    """

    __slots__ = ()

    game: Game
    seed: int
    history: list
    log: list

    # --- turn structure ---------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to move, ``TERMINAL`` at the end, ``SIMULTANEOUS`` if several seats move."""
        raise NotImplementedError

    def players_to_move(self) -> tuple[int, ...]:
        """Seats that must act now, ascending (empty at the end): one seat in a turn-based step,
        every seat still to choose in a simultaneous step (DESIGN.md "Simultaneous steps")."""
        p = self.current_player()
        return () if p == TERMINAL else (p,)

    def is_terminal(self) -> bool:
        raise NotImplementedError

    # --- actions ------------------------------------------------------------------------
    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Legal actions of ``player`` (default: the first of ``players_to_move()``); ``[]`` if
        that seat is not to move or the game is over. In a simultaneous step each seat to move
        has its own list."""
        raise NotImplementedError

    def apply_action(self, action: Action | int, player: int | None = None) -> None:
        """Apply a legal action of ``player`` (default: the first of ``players_to_move()``).

        In a simultaneous step the action is that seat's secret choice; the step is carried out
        when the last seat to move has chosen, whatever the order. The history keeps the action's
        id (turn-based step) or the pair ``[seat, id]`` (simultaneous step).

        Raises:
            IllegalActionError: the action is not legal for that seat now, or the seat is not to
                move; the message names the rule. The state is unchanged.
        """
        raise NotImplementedError

    def apply_legal(self, action: Action, player: int | None = None) -> None:
        """``apply_action`` for an ``action`` known to be legal (an element of this state's
        ``legal_actions(player)``, the state unchanged since), as searches apply theirs: a game may
        skip the decoding and legality checks (``FlatState`` does); the resulting state is the
        same. Anything else is undefined. Default: ``apply_action``."""
        self.apply_action(action, player)

    def apply_entry(self, entry) -> None:
        """Apply one entry of ``history`` or of a record's ``actions``: an action id, or a
        ``(seat, id)`` / ``[seat, id]`` pair for a simultaneous step's choice.

        Raises:
            IllegalActionError: as ``apply_action``, or the entry has neither shape.
        """
        if isinstance(entry, (list, tuple)):
            if len(entry) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in entry):
                raise IllegalActionError("a history entry is an action id or a [seat, action id] pair", entry)
            self.apply_action(entry[1], player=entry[0])
        else:
            self.apply_action(entry)

    def action_to_string(self, action: Action | int) -> str:
        """The action described in the current context (price, penalty, ...)."""
        return str(self._as_action(action))

    def _as_action(self, action: Action | int) -> Action:
        space = self.game.action_space
        if isinstance(action, Action):
            if 0 <= action.id < len(space.table) and space.table[action.id].kind == action.kind:
                return space.table[action.id]
            raise IllegalActionError("not an action of this game", action)
        try:
            return space.decode(action)
        except ValueError:
            raise IllegalActionError("not an action of this game", action) from None

    # --- outcome ----------------------------------------------------------------------
    def returns(self) -> list[float]:
        """Per-seat utility: at the end 1.0 for the winner and 0.0 for the others; all 0 before."""
        raise NotImplementedError

    def outcome(self) -> str | None:
        """How a finished game was decided, as a short name for statistics (e.g. ``"military"``
        in a game with several kinds of victory); ``None`` before the end or when the game does
        not distinguish them (this default)."""
        return None

    def scores(self) -> list[int]:
        """Per-seat game score (the game's victory points) as it stands."""
        raise NotImplementedError

    def ranking(self) -> list[int]:
        """Seats from first to last place, tie-breaks applied."""
        raise NotImplementedError

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """The seat's score by category; the values sum to ``scores()[seat]``."""
        raise NotImplementedError

    # --- information --------------------------------------------------------------------
    def observation(self, seat: int | None) -> dict:
        """JSON-ready view of exactly what ``seat`` may see (``None``: a spectator)."""
        raise NotImplementedError

    def observation_tensor(self, seat: int | None):
        """What ``seat`` may see (``None``: a spectator) as a flat ``float32`` NumPy vector of
        length ``game.observation_tensor_size()``, laid out as ``game.observation_tensor_layout()``
        names it. It holds nothing ``observation(seat)`` does not show, so it never changes when
        another seat's hidden parts are resampled (the conformance kit checks this).

        Raises:
            NotImplementedError: the game has no observation tensor.
        """
        fn = self.game.part("observation_tensor")
        if fn is None:
            raise NotImplementedError(f"{self.game.info.id} has no observation tensor")
        return fn(self, seat)

    def legal_action_mask(self, seat: int | None = None):
        """``int8`` NumPy vector of length ``game.num_distinct_actions``: 1 at the id of every
        legal action of ``seat`` (default: the seat to move), 0 elsewhere; all zeros for a seat
        that is not to move and at the end."""
        import numpy as np
        mask = bytearray(len(self.game.action_space))   # cheaper than indexing an array with a list
        for a in self.legal_actions(seat):
            mask[a.id] = 1
        return np.frombuffer(mask, np.int8)

    def resample(self, seat: int, rng) -> "State":
        """A copy whose hidden parts are redrawn consistently with ``seat``'s observation."""
        raise NotImplementedError

    def clone(self) -> "State":
        raise NotImplementedError

    # --- what search needs (issue 12) ---------------------------------------------------
    def search_clone(self) -> "State":
        """A copy a search owns: plays exactly as ``clone()`` (same ``history``, legal actions,
        scores and returns) but may keep no event log, which spares building and copying events
        nobody reads (``FlatState`` gives each state class a generated one with ``NULL_LOG``).
        Default: ``clone()``."""
        return self.clone()

    def drop_log(self) -> "State":
        """Make a state the caller owns (e.g. the result of ``resample``) log-less in place, as
        ``search_clone`` would have made it, and return it. Default: nothing to drop, ``self``."""
        return self

    def information_state_key(self, seat: int):
        """A compact hashable key of what ``seat`` knows now, for search trees whose nodes are
        information sets (IS-MCTS transpositions; OpenSpiel's information state, here without
        perfect recall: it follows the observation).

        Contract: two states ``seat`` cannot tell apart (``state`` and ``state.resample(seat, rng)``)
        have equal keys; equal keys mean equal ``observation(seat)``. It is much cheaper than the
        observation (no JSON, no texts): a tuple of the state's public fields and the seat's own
        secrets. Each game implements it beside its observation.

        Raises:
            NotImplementedError: the game gives no key.
        """
        raise NotImplementedError(f"{self.game.info.id} gives no information_state_key")

    def to_dict(self) -> dict:
        """The full state as JSON-ready data (server side only: it contains hidden parts)."""
        raise NotImplementedError

    def log_for(self, seat: int | None, start: int = 0) -> list:
        """Events from index ``start`` on that ``seat`` may see."""
        return [e for e in self.log[start:] if e.visible(seat)]

    # --- records ------------------------------------------------------------------------
    def record(self) -> dict:
        """The game record ``{game, version, options, seed, actions}``; replaying it rebuilds this state.

        ``actions`` holds action ids, and ``[seat, id]`` pairs for the choices of simultaneous steps.

        A game that started from a position also carries ``position`` (its text).
        """
        rec = {
            "game": self.game.info.id,
            "version": self.game.info.version,
            "options": dict(self.game.options),
            "seed": self.seed,
            "actions": [list(e) if isinstance(e, (list, tuple)) else e for e in self.history],
        }
        origin = getattr(self, "origin", None)
        if origin is not None:
            rec["position"] = origin
        return rec

    def position(self) -> str:
        """This state in the game's position notation (``game.state_from_position`` reads it back).

        Raises:
            NotImplementedError: the game has no position notation.
        """
        fn = self.game.part("position")
        if fn is None:
            raise NotImplementedError(f"{self.game.info.id} has no position notation")
        return fn(self)

    def apply_actions(self, actions: Sequence) -> None:
        """Apply history entries in order (see ``apply_entry``)."""
        for a in actions:
            self.apply_entry(a)
