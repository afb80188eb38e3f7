"""Actions: small immutable flyweight objects with a stable integer encoding.

Every game describes its action space as an ordered list of *kinds* (``"take"``, ``"place"``,
...), each with a fixed number of arguments values. The integer id of an action is its kind's
offset plus its argument index, so ids are stable as long as kinds are only ever appended.
All ``Action`` objects are created once per game and shared: ``legal_actions`` returns
references into this table, which keeps random play and cloning cheap.
"""

from __future__ import annotations

from typing import Callable, Iterable


class Action:
    """One action of a game's action space.

    Attributes:
        id: stable integer encoding (``game.encode(action)``), in ``[0, game.num_distinct_actions)``.
        kind: the action's kind, e.g. ``"take"``.
        arg: the kind-local argument index (0 for kinds without an argument).
        text: a context-free description; ``state.action_to_string(action)`` adds the
            context (price, penalty, ...).
    """

    __slots__ = ("id", "kind", "arg", "text")

    def __init__(self, id: int, kind: str, arg: int, text: str):
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "arg", arg)
        object.__setattr__(self, "text", text)

    def __setattr__(self, name, value):
        raise AttributeError("Action objects are immutable")

    def __int__(self) -> int:
        return self.id

    __index__ = __int__

    def __eq__(self, other) -> bool:
        if isinstance(other, Action):
            return self.id == other.id
        return NotImplemented

    def __hash__(self) -> int:
        return self.id

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.id}, {self.kind!r}, {self.arg})"

    def __reduce__(self):
        return (Action, (self.id, self.kind, self.arg, self.text))


class ActionSpace:
    """An ordered set of action kinds, materialised as a table of ``Action`` objects.

    Args:
        kinds: ``(kind, size, describe)`` triples in encoding order; ``describe(arg) -> str``
            gives the context-free text of each action of that kind.

    Raises:
        ValueError: on a duplicate kind or a size below 1.
    """

    def __init__(self, kinds: Iterable[tuple[str, int, Callable[[int], str]]]):
        self.offsets: dict[str, int] = {}
        self.sizes: dict[str, int] = {}
        self.table: list[Action] = []
        for kind, size, describe in kinds:
            if kind in self.offsets:
                raise ValueError(f"duplicate action kind {kind!r}")
            if size < 1:
                raise ValueError(f"action kind {kind!r} needs size >= 1")
            self.offsets[kind] = len(self.table)
            self.sizes[kind] = size
            for arg in range(size):
                self.table.append(Action(len(self.table), kind, arg, describe(arg)))

    def __len__(self) -> int:
        return len(self.table)

    def get(self, kind: str, arg: int = 0) -> Action:
        """The action of ``kind`` with argument ``arg``; ``KeyError``/``IndexError`` if unknown."""
        if not 0 <= arg < self.sizes[kind]:
            raise IndexError(f"argument {arg} out of range for action kind {kind!r}")
        return self.table[self.offsets[kind] + arg]

    def decode(self, action_id: int) -> Action:
        """The action with integer id ``action_id``; ``ValueError`` if out of range."""
        if isinstance(action_id, bool) or not isinstance(action_id, int) or not 0 <= action_id < len(self.table):
            raise ValueError(f"no action with id {action_id!r} (ids are 0..{len(self.table) - 1})")
        return self.table[action_id]
