"""The event log: what happened, as a structured payload plus a plain sentence.

Engines append ``Event`` objects to ``state.log``. The sentence is rendered on demand by a
renderer registered for the event's kind, so logging costs almost nothing during fast play and
the log can be rebuilt from plain data (``to_dict``/``from_dict``).
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator, Sequence

_RENDERERS: dict[str, Callable[["Event"], str]] = {}

#: the players' names in force while sentences are rendered (``named_seats``); ``None``: the game's seat names
_SEAT_LABELS: ContextVar[tuple[str, ...] | None] = ContextVar("citygames_seat_labels", default=None)


@contextmanager
def named_seats(names: Sequence[str] | None) -> Iterator[None]:
    """Render event sentences with the players' ``names`` (one per seat) instead of the seat names.

    The browser table wraps its log rendering in ``with named_seats(["Ann", "Bob"]):`` so that the log
    says "Ann builds ..." where the engine alone says "Green builds ..." (issue 15, defect 4).
    ``None`` (or an empty sequence) keeps the game's own seat names. The names hold for the current
    thread or task only (a ``ContextVar``), so concurrent tables never see each other's names.
    """
    token = _SEAT_LABELS.set(tuple(names) if names else None)
    try:
        yield
    finally:
        _SEAT_LABELS.reset(token)


def seat_label(seat: int, seat_names: Sequence[str]) -> str:
    """The name a sentence uses for ``seat``: the player's name under ``named_seats``, else ``seat_names[seat]``.

    Raises ``IndexError`` for a seat outside ``seat_names`` as indexing it would.
    """
    labels = _SEAT_LABELS.get()
    if labels is not None and 0 <= seat < len(labels):
        return labels[seat]
    return seat_names[seat]


def register_renderer(kind: str, render: Callable[["Event"], str]) -> None:
    """Register the function that turns events of ``kind`` into a sentence."""
    _RENDERERS[kind] = render


class Event:
    """One logged event.

    Attributes:
        kind: namespaced kind, e.g. ``"capitals.build"``.
        player: the seat it concerns, or ``None``.
        data: JSON-ready payload (dict of plain values).
        visible_to: ``None`` if every seat and spectator may see it, else the only seat that may.
    """

    __slots__ = ("kind", "player", "data", "visible_to")

    def __init__(self, kind: str, player: int | None, data: dict, visible_to: int | None = None):
        self.kind = kind
        self.player = player
        self.data = data
        self.visible_to = visible_to

    @property
    def text(self) -> str:
        """The event as a plain sentence."""
        render = _RENDERERS.get(self.kind)
        if render is None:
            return f"{self.kind} {self.data}"
        return render(self)

    def visible(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` = spectator) may see this event."""
        return self.visible_to is None or self.visible_to == seat

    def to_dict(self) -> dict:
        d = {"kind": self.kind, "player": self.player, "data": self.data}
        if self.visible_to is not None:
            d["visible_to"] = self.visible_to
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Event":
        return cls(d["kind"], d.get("player"), d.get("data", {}), d.get("visible_to"))

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.player!r}, {self.data!r})"


def game_seat_label(game, seat: int) -> str:
    """``seat_label`` for texts that name a seat through ``game.seat_name`` (rule refusals, phase descriptions).

    Under ``named_seats`` it is the player's name, else ``game.seat_name(seat)`` (issue 15, defect 4).
    """
    labels = _SEAT_LABELS.get()
    if labels is not None and 0 <= seat < len(labels):
        return labels[seat]
    return game.seat_name(seat)
