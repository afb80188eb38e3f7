"""The line format the games' position notations share (DESIGN.md "Positions"): ``key: value`` lines,
``#`` starting a comment, blank lines ignored, indented lines belonging to the block opened by the
unindented line above (``structure:``, a seat's name, ``site:`` ...).

A game's position reader lists which keys may stand at the top and in each block;
``PositionLines`` checks the layout (unknown keys, keys given twice, indented lines outside a block)
and keeps every line with its number, so that a value found wrong later names its line:
``line 12 (North: coins): expected a whole number``.
"""

from __future__ import annotations

from typing import Callable, Collection, Mapping

from .errors import PositionError

__all__ = ["Line", "PositionLines"]


class Line:
    """One ``key: value`` line: its number ``no`` (1-based), ``key``, ``value`` (stripped) and the
    ``block`` it belongs to (``None`` at the top)."""

    __slots__ = ("no", "key", "value", "block", "_label")

    def __init__(self, no: int, key: str, value: str, block: str | None, label_block: bool = True):
        self.no, self.key, self.value, self.block = no, key, value, block
        self._label = f"{block}: {key}" if block and label_block else key

    def where(self) -> str:
        """``"line 12 (North: coins)"``: how error messages name the line."""
        return f"line {self.no} ({self._label})"

    def fail(self, msg: str):
        """Raise ``PositionError`` naming this line."""
        raise PositionError(f"{self.where()}: {msg}")


class PositionLines:
    """The lines of a position text, checked for layout.

    Args:
        text: the position.
        top_keys: the keys allowed at the top (block names included).
        blocks: per block name, the keys allowed in it; ``None`` for a block of repeated lines kept in
            order (``rows[block]``) whose keys must start with ``row_prefix``.
        unknown_top: ``unknown_top(no, key) -> str | None``: a game's own message for an unknown top
            key (e.g. a seat that does not play), or ``None`` for the generic one.
        outside: what the message for an indented line outside a block lists as the blocks.
        row_prefix: the key prefix of the lines of an ordered block.
        label_blocks: the blocks whose name ``Line.where`` puts before the key (default: every
            block except the ordered ones).

    Attributes:
        top: key -> ``Line``; blocks: block -> key -> ``Line``; rows: ordered block -> [``Line``].

    Raises:
        PositionError: a line without a colon, an unknown key, a key given twice, a value on a block's
            own line, an indented line outside a block.
    """

    def __init__(self, text: str, top_keys: Collection[str], blocks: Mapping[str, Collection[str] | None],
                 unknown_top: Callable[[int, str], str | None] | None = None, outside: str = "",
                 row_prefix: str = "row ", label_blocks: Collection[str] | None = None):
        self.top: dict[str, Line] = {}
        self.blocks: dict[str, dict[str, Line]] = {b: {} for b in blocks if blocks[b] is not None}
        self.rows: dict[str, list[Line]] = {b: [] for b in blocks if blocks[b] is None}
        labelled = set(self.blocks) if label_blocks is None else set(label_blocks)
        block = None
        for no, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].rstrip()
            if not line.strip():
                continue
            key, colon, value = line.strip().partition(":")
            key, value = key.strip(), value.strip()
            if not colon:
                raise PositionError(f"line {no}: expected 'key: value', got {line.strip()!r}")
            if line[0] not in " \t":
                if key not in top_keys:
                    msg = unknown_top(no, key) if unknown_top else None
                    raise PositionError(msg or f"line {no}: unknown line {key!r} (see POSITION.md)")
                if key in self.top:
                    raise PositionError(f"line {no}: {key!r} is given twice (first on line {self.top[key].no})")
                self.top[key] = Line(no, key, "" if key in blocks else value, None)
                if key in blocks:
                    if value:
                        raise PositionError(f"line {no} ({key}): the block's lines go on the indented lines below")
                    block = key
                else:
                    block = None
                continue
            if block is None:
                raise PositionError(f"line {no}: an indented line outside a block ({outside or ', '.join(blocks)})")
            ln = Line(no, key, value, block, block in labelled)
            allowed = blocks[block]
            if allowed is None:
                if not key.startswith(row_prefix):
                    raise PositionError(f"line {no} ({block}): expected '{row_prefix}N: ...', got {key!r}")
                self.rows[block].append(ln)
                continue
            if key not in allowed:
                raise PositionError(f"line {no} ({block}): unknown line {key!r} (the block has "
                                    f"{', '.join(sorted(allowed))})")
            if key in self.blocks[block]:
                raise PositionError(f"line {no} ({block}): {key!r} is given twice")
            self.blocks[block][key] = ln

    def get(self, key: str, block: str | None = None) -> Line | None:
        """The line ``key`` (at the top, or in ``block``), or ``None``."""
        return self.top.get(key) if block is None else self.blocks.get(block, {}).get(key)

    def need(self, key: str, block: str | None = None, why: str = "") -> Line:
        """The line ``key``; ``PositionError`` ("missing line ...", ``why`` appended) when absent."""
        ln = self.get(key, block)
        if ln is None:
            where = f" in the {block} block" if block else ""
            raise PositionError(f"missing line {key!r}{where}{' ' + why if why else ''}")
        return ln

    def forbid(self, key: str, why: str) -> None:
        """``PositionError`` naming the top line ``key`` with ``why`` when it is given."""
        ln = self.top.get(key)
        if ln is not None:
            ln.fail(why)

    def check_header(self, game) -> int:
        """Check the top lines every position shares against the loaded ``game`` and return the
        seed: ``game`` (its id), ``options`` (``name=value`` items, each known, given once and
        equal to the loaded game's) and ``seed`` (a whole number; 0 when the line is missing).
        DESIGN.md "Positions".

        Raises:
            PositionError: naming the line: another game, an unknown option, one given twice, a bad
                value or one other than the loaded game's, a seed that is not a whole number.
        """
        from .errors import GameOptionError
        ln = self.get("game")
        if ln is not None and ln.value != game.info.id:
            ln.fail(f"this is {game.info.id}, not {ln.value!r}")
        ln = self.get("options")
        if ln is not None:
            specs = {o.name: o for o in game.info.options}
            seen = set()
            for item in self.items(ln):
                name, eq, value = item.partition("=")
                name, value = name.strip(), value.strip()
                if not eq or name not in specs:
                    ln.fail(f"unknown option {item!r} (options: {', '.join(specs)})")
                if name in seen:
                    ln.fail(f"option {name} is given twice")
                seen.add(name)
                try:
                    v = specs[name].check(value)
                except GameOptionError as exc:
                    ln.fail(str(exc))
                if v != game.options[name]:
                    ln.fail(f"{name}={value}, but the game is loaded with {name}={game.options[name]}")
        ln = self.get("seed")
        if ln is None:
            return 0
        try:
            return int(ln.value)
        except ValueError:
            ln.fail(f"expected a whole number (the seed), got {ln.value!r}")

    @staticmethod
    def items(ln: Line | None) -> list[str]:
        """The comma-separated items of a line (``[]`` for ``none`` or no line); an empty item is refused."""
        if ln is None or ln.value.lower() == "none":
            return []
        parts = [x.strip() for x in ln.value.split(",")]
        if any(not x for x in parts):
            ln.fail("an empty item in the list")
        return parts
