"""The event log: what happened, as a structured payload plus a plain sentence.

Engines append ``Event`` objects to ``state.log``. The sentence is rendered on demand by a
renderer registered for the event's kind, so logging costs almost nothing during fast play and
the log can be rebuilt from plain data (``to_dict``/``from_dict``).
"""

from __future__ import annotations

from typing import Callable

_RENDERERS: dict[str, Callable[["Event"], str]] = {}


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
