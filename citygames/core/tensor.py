"""Fixed-size views of a state for learning: the observation tensor's named layout.

A game's observation tensor (``state.observation_tensor(seat)``) is a flat ``float32`` vector of a
fixed length per game and option set, built from exactly what ``state.observation(seat)`` shows.
Its layout is a sequence of named slices, each with a shape, the bounds of its values and a
unit (``"coins"``, ``"cubes"``, ``"VP"``, ``"one-hot"``, ``"flag"``, ...), in the order they appear
in the vector. ``TensorLayout`` computes the offsets, gives each slice's view of a vector and
writes the layout as a Markdown table (each game keeps that table in its package docs, and a test
checks it is current).

The convention follows OpenSpiel's ``observation_tensor_shape()`` / ``observation_tensor_size()``
(a flat vector here, with the structure in the layout) and Gymnasium's ``Box`` spaces, whose
``low``/``high`` come from the slices' bounds (``TensorLayout.low()`` / ``.high()``).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Iterable, Sequence


@dataclass(frozen=True)
class TensorSlice:
    """One named part of an observation tensor.

    Attributes:
        name: a short stable name (``"money"``, ``"city"``), unique in the layout.
        shape: the slice's shape (a tuple of positive ints; ``(n,)`` for a vector); the values are
            stored flat in C order.
        low, high: bounds of every value in the slice (floats, ``low <= high``).
        unit: what one value means: ``"coins"``, ``"cubes"``, ``"VP"``, ``"count"``, ``"flag"``
            (0 or 1), ``"one-hot"`` (exactly one 1 along the last axis, or none where documented), ...
        doc: one sentence on what the slice holds, with its axes.
        offset: the index of the slice's first value in the vector (set by ``TensorLayout``).
    """

    name: str
    shape: tuple
    low: float
    high: float
    unit: str
    doc: str
    offset: int = 0

    @property
    def size(self) -> int:
        """Number of values (the product of ``shape``)."""
        return prod(self.shape)

    @property
    def stop(self) -> int:
        """The index one past the slice's last value."""
        return self.offset + self.size


class TensorLayout:
    """The named layout of a game's observation tensor.

    ``TensorLayout([("money", (5,), 0, 100, "coins", "money of each seat, from the observer on"), ...])``
    takes ``TensorSlice`` objects or tuples ``(name, shape, low, high, unit, doc)``; an int shape
    means ``(n,)``.

    Raises:
        ValueError: a duplicate name, an empty or non-positive shape, ``low > high``.
    """

    def __init__(self, slices: Iterable):
        out = []
        offset = 0
        names = set()
        for s in slices:
            if not isinstance(s, TensorSlice):
                name, shape, low, high, unit, doc = s
                shape = (shape,) if isinstance(shape, int) else tuple(shape)
                s = TensorSlice(name, shape, float(low), float(high), unit, doc)
            if s.name in names:
                raise ValueError(f"tensor layout: slice {s.name!r} appears twice")
            if not s.shape or any(int(d) <= 0 for d in s.shape):
                raise ValueError(f"tensor layout: slice {s.name!r} has shape {s.shape}; every axis must be >= 1")
            if s.low > s.high:
                raise ValueError(f"tensor layout: slice {s.name!r} has low {s.low} > high {s.high}")
            names.add(s.name)
            s = TensorSlice(s.name, tuple(int(d) for d in s.shape), s.low, s.high, s.unit, s.doc, offset)
            offset += s.size
            out.append(s)
        self.slices: tuple[TensorSlice, ...] = tuple(out)
        self.size: int = offset
        self._by_name = {s.name: s for s in out}
        self._cache: dict = {}

    def __len__(self) -> int:
        return len(self.slices)

    def __iter__(self):
        return iter(self.slices)

    def __getitem__(self, name: str) -> TensorSlice:
        """The slice called ``name``; ``KeyError`` naming the known slices otherwise."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no tensor slice {name!r}; known: {', '.join(self._by_name)}") from None

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.slices]

    def view(self, vector, name: str):
        """The values of slice ``name`` in ``vector`` (a NumPy array of length ``size``), shaped as the slice."""
        s = self[name]
        return vector[s.offset:s.stop].reshape(s.shape)

    def low(self):
        """Read-only ``float32`` array of every value's lower bound (length ``size``), e.g. for a
        Gymnasium ``Box`` (computed once)."""
        return self._bounds("low")

    def high(self):
        """Read-only ``float32`` array of every value's upper bound (length ``size``)."""
        return self._bounds("high")

    def _bounds(self, which: str):
        out = self._cache.get(which)
        if out is None:
            import numpy as np
            out = np.empty(self.size, dtype=np.float32)
            for s in self.slices:
                out[s.offset:s.stop] = getattr(s, which)
            out.flags.writeable = False
            self._cache[which] = out
        return out

    def markdown(self, title: str = "") -> str:
        """The layout as a Markdown table: offset, name, shape, range, unit, meaning."""
        lines = []
        if title:
            lines += [title, ""]
        lines += [f"Length: {self.size} float32 values.", "",
                  "| offset | name | shape | range | unit | what it holds |",
                  "|---:|---|---|---|---|---|"]
        for s in self.slices:
            shape = " × ".join(str(d) for d in s.shape)
            rng = f"{_num(s.low)}..{_num(s.high)}"
            lines.append(f"| {s.offset} | `{s.name}` | {shape} | {rng} | {s.unit} | {s.doc} |")
        return "\n".join(lines) + "\n"

    def __repr__(self) -> str:
        return f"TensorLayout({self.size} values: {', '.join(self.names)})"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def seat_order(seat: int | None, n: int) -> Sequence[int]:
    """Seats as the observer sees them: ``seat`` first, then the next seats in turn order
    (``0..n-1`` for a spectator), so that slice ``[0]`` of a per-seat axis is always "me"."""
    first = 0 if seat is None else seat
    return [(first + k) % n for k in range(n)]


def seat_orders(n: int) -> tuple[dict, dict]:
    """Every observer's ``seat_order`` at once, for tensors that precompute them: ``(orders, rel)``,
    both keyed by the observer's seat (``None`` for a spectator): ``orders[key]`` is
    ``seat_order(key, n)`` and ``rel[key][p]`` the index of seat ``p`` in it."""
    orders, rel = {}, {}
    for key in list(range(n)) + [None]:
        order = list(seat_order(key, n))
        r = [0] * n
        for i, q in enumerate(order):
            r[q] = i
        orders[key], rel[key] = order, r
    return orders, rel


__all__ = ["TensorLayout", "TensorSlice", "seat_order", "seat_orders"]
