"""Flat engine states whose fields are declared once (DESIGN.md "Performance").

A game's state class lists its fields in one mapping, ``FIELDS``: each name with its *kind* (how it
is copied and serialised) and a one-line description. From that single declaration ``FlatState``
derives

- ``__slots__`` (so a state is a compact object with no ``__dict__``);
- ``clone()``, generated as straight-line Python when the class is created, so it is as fast as a
  hand-written copy (one assignment or slice per field, immutable data shared);
- ``search_clone()``, the same without the event log: the copy gets ``NULL_LOG``, which drops every
  event appended to it (a search's simulations never show their events to anybody);
- ``to_dict()`` / ``from_dict()`` (the full state as JSON-ready data, for the server only);
- ``describe_fields()``, the table of fields for documentation.

Example::

    class MyState(FlatState):
        FIELDS = {
            "round": Value("the round, 1-12"),
            "tracks": List("per seat, its track values: tracks[seat * NT + k]"),
            "city": IntDicts("per seat, {slot: tile index}"),
            "c": Derived(lambda game: game.components, "the components (shared, immutable)"),
        }

Every state has the base fields of ``BASE_FIELDS`` (``game``, ``seed``, ``history``, ``log``,
``player`` and the legal-action cache ``_legal``) in front of its own.
"""

from __future__ import annotations

from typing import Any, Callable

from .errors import IllegalActionError
from .events import Event, game_seat_label
from .game import SIMULTANEOUS, TERMINAL, Game, State

__all__ = ["FieldKind", "Value", "List", "Lists", "Lists2", "IntDicts", "Frozen", "Derived", "Cache", "Log",
           "FlatState", "SimultaneousFlatState", "BASE_FIELDS", "NullLog", "NULL_LOG"]


class FieldKind:
    """How one field is copied by ``clone`` and carried by ``to_dict``/``from_dict``.

    Subclasses give ``clone_expr(src)`` (Python source of an expression copying ``src``; by default
    the value is shared), ``dump(value)`` (JSON-ready data) and ``load(data, game)`` (the value back).

    Attributes:
        doc: one line saying what the field holds (shapes, units, sentinel values).
        serialised: whether ``to_dict`` carries the field.
    """

    serialised = True

    def __init__(self, doc: str = ""):
        self.doc = doc

    def clone_expr(self, src: str) -> str:
        return src

    def dump(self, value):
        return value

    def load(self, data, game):
        return data

    @property
    def kind(self) -> str:
        return type(self).__name__


class Value(FieldKind):
    """An immutable value (int, bool, str, ``None``): shared by clones."""


class List(FieldKind):
    """A flat list of immutable values: clones get a slice."""

    def clone_expr(self, src: str) -> str:
        return f"{src}[:]"

    def dump(self, value):
        return list(value)

    def load(self, data, game):
        return list(data)


class Lists(FieldKind):
    """A list of flat lists: clones copy each inner list.

    Args:
        length: the outer list's length when it never changes (e.g. 2 for a per-seat list of a
            2-player game): the generated ``clone`` then copies each item by index, which is faster.
    """

    def __init__(self, doc: str = "", length: int | None = None):
        super().__init__(doc)
        self.length = length

    def clone_expr(self, src: str) -> str:
        if self.length is not None:
            return "[" + ", ".join(f"{src}[{i}][:]" for i in range(self.length)) + "]"
        return f"list(map(list.copy, {src}))"

    def dump(self, value):
        return [list(x) for x in value]

    def load(self, data, game):
        return [list(x) for x in data]


class Lists2(FieldKind):
    """A list of lists of flat lists (e.g. per seat, a list of ``[slot, tile]`` pairs)."""

    def clone_expr(self, src: str) -> str:
        return f"[list(map(list.copy, _x)) for _x in {src}]"

    def dump(self, value):
        return [[list(y) for y in x] for x in value]

    def load(self, data, game):
        return [[list(y) for y in x] for x in data]


class IntDicts(FieldKind):
    """A list of ``{int: int}`` dicts; serialised as sorted ``[key, value]`` pairs."""

    def clone_expr(self, src: str) -> str:
        return f"list(map(dict.copy, {src}))"

    def dump(self, value):
        return [sorted([k, v] for k, v in d.items()) for d in value]

    def load(self, data, game):
        return [{int(k): int(v) for k, v in d} for d in data]


def _as_lists(value):
    return [_as_lists(x) for x in value] if isinstance(value, (tuple, list)) else value


def _as_tuples(data):
    return tuple(_as_tuples(x) for x in data) if isinstance(data, (tuple, list)) else data


class Frozen(FieldKind):
    """Immutable data, a tuple (possibly of tuples): clones share it and the engine replaces it whole
    (``state.x = state.x + (v,)``); ``to_dict`` carries it as (nested) lists. Cheapest for data that
    changes rarely compared with how often states are cloned."""

    def dump(self, value):
        return _as_lists(value)

    def load(self, data, game):
        return _as_tuples(data)


class Derived(FieldKind):
    """Computed from the ``Game`` (components, player count): shared by clones, not serialised.

    Args:
        compute: ``compute(game) -> value``, used by ``from_dict``.
    """

    serialised = False

    def __init__(self, compute: Callable[[Game], Any], doc: str = ""):
        super().__init__(doc)
        self.compute = compute

    def load(self, data, game):
        return self.compute(game)


class Cache(FieldKind):
    """A cache of immutable data valid until the next action: shared by clones, ``None`` after ``from_dict``,
    after ``FlatState.blank`` and after every action (``FlatState.apply_action`` clears every cache field;
    a game that changes its state outside an action, as ``resample`` does, clears them itself)."""

    serialised = False

    def load(self, data, game):
        return None


class NullLog:
    """The event log of a state a search owns (``FlatState.search_clone``, ``drop_log``): it keeps
    nothing. ``append`` and ``extend`` drop their events, it reads as an empty list (length 0, no
    items, every slice is the null log itself) and copying it gives itself, so the clones of a
    log-less state stay log-less at no cost. One shared instance, ``NULL_LOG``; it pickles as itself.

    The rules never read the log (tests/test_search_contract.py plays every game with and without
    it and compares histories, legal actions, scores and returns), so a log-less state plays exactly
    as the state it was cloned from; only what the log would have shown (``log_for``, the renderers'
    sentences, ``game.facts``) is missing.
    """

    __slots__ = ()

    def append(self, event) -> None:
        """Drop ``event``."""

    def extend(self, events) -> None:
        """Drop ``events``."""

    def copy(self) -> "NullLog":
        return self

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self
        raise IndexError("the null log of a search state holds no events")

    def __len__(self) -> int:
        return 0

    def __iter__(self):
        return iter(())

    def __repr__(self) -> str:
        return "NULL_LOG"

    def __reduce__(self):
        return "NULL_LOG"


#: the one ``NullLog``: the ``log`` of every log-less state
NULL_LOG = NullLog()


class Log(List):
    """The event log: clones copy the list (events are never changed in place); search clones get
    ``NULL_LOG`` (and a ``NULL_LOG`` copies as itself: its slice is itself)."""

    def search_expr(self, src: str) -> str:
        return "_NULL_LOG"

    def dump(self, value):
        return [e.to_dict() for e in value]

    def load(self, data, game):
        from .events import Event
        return [Event.from_dict(e) for e in data]


#: The fields of every flat state, in front of the game's own.
BASE_FIELDS: dict[str, FieldKind] = {
    "game": Derived(lambda game: game, "the Game (immutable rules and options), shared"),
    "seed": Value("the seed all chance of the game comes from"),
    "history": List("the actions applied so far: ids, and ``[seat, id]`` pairs for simultaneous steps' choices"),
    "log": Log("the event log (``Event`` objects; some visible to one seat only)"),
    "player": Value("the seat whose decision is pending (``current_player()`` gives ``TERMINAL`` at the end)"),
    "origin": Value("the position text the game started from (``game.state_from_position``), or None "
                    "for a game set up from its seed"),
    "_legal": Cache("the legal actions of the pending decision, once computed"),
}


def _generate_clone(cls, fields: dict[str, FieldKind], search: bool = False):
    """``clone`` for ``cls`` as straight-line code: one assignment per field. ``search``: the
    ``search_clone`` instead, whose ``Log`` fields get ``NULL_LOG`` rather than a copy."""
    fname = "search_clone" if search else "clone"
    lines = [f"def {fname}(self):", "    s = _new(_cls)"]
    for name, kind in fields.items():
        expr = kind.search_expr("self." + name) if search and isinstance(kind, Log) else kind.clone_expr("self." + name)
        lines.append(f"    s.{name} = {expr}")
    lines.append("    return s")
    namespace = {"_new": object.__new__, "_cls": cls, "_NULL_LOG": NULL_LOG}
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from the class's own declaration
    clone = namespace[fname]
    if search:
        clone.__doc__ = (f"A copy of this {cls.__name__} for a search to own: as ``clone()`` but without the "
                         "event log (``NULL_LOG``: events are dropped), generated from ``FIELDS``. It plays "
                         "exactly as the original; its ``history`` is copied and stays correct.")
    else:
        clone.__doc__ = (f"An independent copy of this {cls.__name__} (generated from ``FIELDS``: immutable data is "
                         "shared, every mutable field copied).")
    clone.__qualname__ = f"{cls.__name__}.{fname}"
    clone._generated = True
    return clone


def _search_clone_via_clone(self):
    """A copy for a search to own, without the event log: ``clone()`` then ``drop_log()`` (for a
    state class that writes its ``clone`` by hand)."""
    return self.clone().drop_log()


class _FlatStateMeta(type):
    """Derives ``__slots__``, ``clone`` and the field table from a class's ``FIELDS``."""

    def __new__(mcls, name, bases, ns):
        own = ns.get("FIELDS")
        if own is not None:
            inherited = {}
            for base in bases:
                inherited.update(getattr(base, "ALL_FIELDS", {}))
            clash = sorted(set(own) & set(inherited))
            if clash:
                raise TypeError(f"{name}.FIELDS redeclares inherited field(s) {', '.join(clash)}")
            ns["__slots__"] = tuple(own)
            ns["ALL_FIELDS"] = {**inherited, **own}
            # the game's own caches (besides the legal actions): valid until the next action
            ns["CACHES"] = tuple(k for k, kind in ns["ALL_FIELDS"].items() if isinstance(kind, Cache) and k != "_legal")
        cls = super().__new__(mcls, name, bases, ns)
        # a subclass without FIELDS of its own gets its own clone too (else its clones would be of the base
        # class), unless a base wrote its clone by hand
        if "clone" not in ns and hasattr(cls, "ALL_FIELDS") and (
                own is not None or getattr(cls.clone, "_generated", False)):
            cls.clone = _generate_clone(cls, cls.ALL_FIELDS)
            if "search_clone" not in ns:
                cls.search_clone = _generate_clone(cls, cls.ALL_FIELDS, search=True)
        elif "clone" in ns and "search_clone" not in ns:
            # a hand-written clone: the search clone goes through it (an inherited generated one
            # would build the base class)
            cls.search_clone = _search_clone_via_clone
        return cls


def _rebuild_state(d: dict) -> State:
    from .registry import load_game
    return load_game(d["game"], **d["options"]).state_from_dict(d)


class FlatState(State, metaclass=_FlatStateMeta):
    """The shared mechanics of an engine whose state is flat fields declared once in ``FIELDS``.

    A subclass declares ``FIELDS`` (its own fields; ``BASE_FIELDS`` come first) and ``RULES`` (a
    ``citygames.core.phases.PhaseMachine`` giving legal actions, transitions and the messages of
    illegal actions step by step; the state has fields ``step`` and ``phase``). It implements
    ``is_terminal()`` and the rest of the ``State`` contract (observation, scores, resample, ...).

    ``legal_actions`` caches its list until the next action; ``apply_action`` checks legality and
    leaves the state untouched when it raises. Pickling goes through ``to_dict``.
    """

    FIELDS: dict[str, FieldKind] = BASE_FIELDS
    #: the game's phase machine (``citygames.core.phases.PhaseMachine``)
    RULES = None
    #: what the kinds of the game's log events start with (e.g. ``"capitals."``)
    EVENT_PREFIX = ""

    def event(self, kind: str, player, visible_to=None, **data) -> None:
        """Append the event ``EVENT_PREFIX + kind`` to the log (for the game's rule modules): ``player``
        the seat it concerns (or ``None``), ``visible_to`` the only seat that sees it (``None``:
        everybody), ``data`` its JSON-ready details (the game's render module words it). A log-less
        state (``search_clone``, ``drop_log``) builds no event at all."""
        log = self.log
        if log is not NULL_LOG:
            log.append(Event(self.EVENT_PREFIX + kind, player, data, visible_to))

    def search_clone(self) -> "FlatState":
        """A copy for a search to own, without the event log (``NULL_LOG``: events are dropped,
        building them is skipped); ``history`` is copied and every rule plays as on ``clone()``.
        Generated from ``FIELDS`` for every subclass (straight-line, as ``clone``); a subclass
        that writes ``clone`` by hand gets ``clone().drop_log()``."""
        return self.clone().drop_log()

    def drop_log(self) -> "FlatState":
        """Make this state log-less in place (its ``log`` becomes ``NULL_LOG``: later events are
        dropped, the earlier ones forgotten) and return it. For a state the caller owns, such as the
        result of ``resample``: cheaper than another copy. ``history`` is kept."""
        self.log = NULL_LOG
        return self

    @classmethod
    def blank(cls, game, seed: int = 0, origin: str | None = None):
        """A new state whose base fields (``BASE_FIELDS``) are set: ``game``, ``seed``, an empty
        history and log, seat 0 to move, ``origin`` (the position text, or ``None``) and no cached
        legal actions. The game's setup or position reader fills its own fields, then lets the phase
        machine find the first decision."""
        s = object.__new__(cls)
        s.game, s.seed, s.history, s.log, s.player, s.origin, s._legal = game, seed, [], [], 0, origin, None
        for name in cls.CACHES:
            setattr(s, name, None)
        return s

    def legal_actions(self, player: int | None = None) -> list:
        """Legal actions of ``player`` (default: the player to move); ``[]`` if it is not to move or the game is over.

        The list is shared with later calls until the next action: do not change it.
        """
        legal = self._legal
        if legal is None:   # (a cached list exists only before the end)
            if self.is_terminal():
                return []
            legal = self._legal = self.RULES.legal(self)
        if player is not None and player != self.player:
            return []
        return legal

    def apply_action(self, action, player: int | None = None) -> None:
        """Apply ``action`` (an ``Action`` or its integer id) of ``player`` (default: the seat to move).

        Raises:
            IllegalActionError: the action is not legal now, or ``player`` is not the seat to move;
                the message names the rule. The state is unchanged.
        """
        a = self._as_action(action)
        legal = self._legal
        if legal is None:
            if self.is_terminal():
                raise IllegalActionError("the game is over", a)
            legal = self.legal_actions()
        if player is not None and player != self.player:
            raise IllegalActionError(f"it is not {game_seat_label(self.game, player)}'s turn: "
                                     f"{self.RULES.expects(self)}", a)
        if a not in legal:
            raise IllegalActionError(self.RULES.why_illegal(self, a), a)
        self._legal = None
        for name in self.CACHES:
            setattr(self, name, None)
        self.history.append(a.id)
        self.RULES.apply(self, a)

    def apply_legal(self, action, player: int | None = None) -> None:
        """``apply_action`` for an ``action`` known to be legal: an element of this state's
        ``legal_actions(player)`` list, the state unchanged since (a search's case). It skips the
        decoding and the legality checks (the same state results); anything else is undefined."""
        self._legal = None
        for name in self.CACHES:
            setattr(self, name, None)
        self.history.append(action.id)
        self.RULES.apply(self, action)

    @classmethod
    def describe_fields(cls) -> list[tuple[str, str, str]]:
        """``(name, kind, description)`` of every field, base fields first (for documentation)."""
        return [(name, kind.kind, kind.doc) for name, kind in cls.ALL_FIELDS.items()]

    def to_dict(self) -> dict:
        """``{game, options}`` and every serialised field (contains hidden parts: server side only)."""
        d = {"game": self.game.info.id, "options": dict(self.game.options)}
        for name, kind in self.ALL_FIELDS.items():
            if kind.serialised:
                d[name] = kind.dump(getattr(self, name))
        return d

    @classmethod
    def from_dict(cls, game: Game, d: dict) -> "FlatState":
        """The state ``to_dict`` gave; ``game`` must have the same options.

        Raises:
            KeyError: a serialised field is missing from ``d``.
        """
        s = object.__new__(cls)
        for name, kind in cls.ALL_FIELDS.items():
            setattr(s, name, kind.load(d[name] if kind.serialised else None, game))
        return s

    def __reduce__(self):
        return (_rebuild_state, (self.to_dict(),))


class SimultaneousFlatState(FlatState):
    """A ``FlatState`` whose game has simultaneous steps (DESIGN.md "Simultaneous steps"), such as
    Between Two Cities' draft, where every seat picks its tiles in secret and all are revealed
    together.

    A simultaneous step is a ``citygames.core.phases.Step`` with a ``resolve``. A phase opens it
    with ``begin_simultaneous(step, seats)``; then ``player`` is ``SIMULTANEOUS``,
    ``players_to_move()`` the seats still to choose, and each of them acts with
    ``apply_action(action, player=seat)``. A choice is only recorded (``pending``, hidden from the
    other seats by the game's observation; ``history`` gets ``[seat, id]``); when the last seat has
    chosen, the step's ``resolve(state, choices)`` carries them all out, so the result never depends
    on the order in which the seats chose. Until then a seat may take its choice back
    (``withdraw``). Turn-based steps work as in ``FlatState``.

    Subclasses declare their own ``FIELDS`` (added to these) and implement ``is_terminal`` and the
    rest of the contract; their ``current_player()`` should return ``player`` (``SIMULTANEOUS``
    during a simultaneous step) or ``TERMINAL`` at the end, as this class's does.
    """

    FIELDS = {
        "movers": Frozen("the seats still to choose in the pending simultaneous step, ascending; () otherwise"),
        "pending": List("per seat, the id of the action it chose in the pending simultaneous step, -1 if none "
                        "(secret: only that seat may see it)"),
    }

    def begin_simultaneous(self, step: int, seats) -> None:
        """Open the simultaneous decision ``step`` (an index of ``RULES.steps``) for ``seats``."""
        self.step = step
        self.player = SIMULTANEOUS
        self.movers = tuple(sorted(seats))
        self.pending = [-1] * self.game.num_players
        self._legal = None

    def current_player(self) -> int:
        """The seat to move, ``SIMULTANEOUS`` while several seats choose, ``TERMINAL`` at the end."""
        return TERMINAL if self.is_terminal() else self.player

    def players_to_move(self) -> tuple[int, ...]:
        """The seats that must act now, ascending: those still to choose in a simultaneous step."""
        if self.player == SIMULTANEOUS:
            return self.movers
        return () if self.is_terminal() else (self.player,)

    def pending_choice(self, seat: int):
        """The ``Action`` ``seat`` has chosen in the pending simultaneous step, or ``None``.
        Only that seat may be shown it."""
        if self.player != SIMULTANEOUS or self.pending[seat] < 0:
            return None
        return self.game.action_space.table[self.pending[seat]]

    def legal_actions(self, player: int | None = None) -> list:
        """Legal actions of ``player`` (default: the first seat to move); ``[]`` if that seat is not
        to move (in a simultaneous step: it has chosen already) or the game is over.

        The list is shared with later calls until the next action: do not change it.
        """
        if self.player != SIMULTANEOUS:
            return FlatState.legal_actions(self, player)
        movers = self.movers
        if player is None:
            player = movers[0]
        elif player not in movers:
            return []
        cache = self._legal
        if cache is None:
            cache = self._legal = {}   # per seat; shared with clones, which stay at this position until they move
        legal = cache.get(player)
        if legal is None:
            legal = cache[player] = self.RULES.steps[self.step].legal(self, player)
        return legal

    def apply_action(self, action, player: int | None = None) -> None:
        """Apply ``action`` of ``player``; in a simultaneous step record it as that seat's secret
        choice (default seat: the first still to choose) and carry out the step once every seat has
        chosen.

        Raises:
            IllegalActionError: the action is not legal for that seat now, the seat is not to move
                or has chosen already (``withdraw`` takes a choice back); the state is unchanged.
        """
        if self.player != SIMULTANEOUS:
            return FlatState.apply_action(self, action, player)
        a = self._as_action(action)
        movers = self.movers
        seat = movers[0] if player is None else player
        if seat not in movers:
            if isinstance(seat, int) and 0 <= seat < self.game.num_players and self.pending[seat] >= 0:
                raise IllegalActionError(f"{game_seat_label(self.game, seat)} has chosen already in this step "
                                         f"({self.RULES.expects(self)})", a)
            raise IllegalActionError(f"seat {seat} is not to move: {self.RULES.expects(self)}", a)
        if a not in self.legal_actions(seat):
            raise IllegalActionError(self.RULES.why_illegal(self, a), a)
        self._choose(a, seat, movers)

    def apply_legal(self, action, player: int | None = None) -> None:
        """``apply_action`` for an ``action`` known to be legal: an element of this state's
        ``legal_actions(player)`` list, the state unchanged since (a search's case). It skips the
        decoding and the legality checks (the same state results); anything else is undefined."""
        if self.player != SIMULTANEOUS:
            return FlatState.apply_legal(self, action, player)
        movers = self.movers
        self._choose(action, movers[0] if player is None else player, movers)

    def _choose(self, a, seat: int, movers: tuple) -> None:
        """Record ``seat``'s legal choice ``a`` in the pending simultaneous step (``movers``: the
        seats still to choose, ``seat`` among them); carry the step out after the last choice."""
        self.pending[seat] = a.id
        self.history.append([seat, a.id])
        self.movers = tuple(p for p in movers if p != seat)
        if self.movers:
            cache = self._legal
            if cache is not None:   # the other seats' lists stay valid; the new dict is not shared with clones
                self._legal = {p: v for p, v in cache.items() if p != seat}
            return
        choices = tuple(self.pending)
        self.pending = [-1] * self.game.num_players
        self._legal = None
        for name in self.CACHES:    # a choice alone changes nothing they hold; the reveal does
            setattr(self, name, None)
        rules = self.RULES
        rules.steps[self.step].resolve(self, choices)
        rules.advance(self)

    def withdraw(self, seat: int) -> None:
        """Take back ``seat``'s choice in the pending simultaneous step (the table's "change my
        choice"): the seat is to move again and its history entry is removed.

        Raises:
            IllegalActionError: no simultaneous step is pending or ``seat`` has not chosen in it.
        """
        if self.player != SIMULTANEOUS or not (0 <= seat < self.game.num_players) or self.pending[seat] < 0:
            raise IllegalActionError(f"{game_seat_label(self.game, seat) if 0 <= seat < self.game.num_players else seat} "
                                     "has no choice to take back: only a choice in a pending simultaneous step "
                                     "can be changed")
        entry = [seat, self.pending[seat]]
        history = self.history
        for i in range(len(history) - 1, -1, -1):
            if history[i] == entry:
                del history[i]
                break
        self.pending[seat] = -1
        self.movers = tuple(sorted(self.movers + (seat,)))
        self._legal = None
