"""Game records: ``{game, version, options, seed, actions}`` as JSON files.

A record is enough to rebuild a game exactly: load the game with its options, start from the
seed and apply the actions: integer ids, and ``[seat, id]`` pairs for the choices made in a
simultaneous step (DESIGN.md "Simultaneous steps"), so those replay exactly. Records are how games
are saved, shared, replayed and turned into datasets. A game that started from a position (``game.state_from_position``) carries
that position's text under ``position``, as a PGN carries a FEN tag; replay starts from it.
"""

from __future__ import annotations

import json
from pathlib import Path

from .errors import CitygamesError, RecordError
from .registry import load_game

RECORD_KEYS = ("game", "version", "options", "seed", "actions")


def save_record(record: dict, path: str | Path) -> None:
    """Write ``record`` as JSON to ``path`` (parent folders are created)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, separators=(",", ":")) + "\n")


def load_record(path: str | Path) -> dict:
    """Read and check a record; ``RecordError`` if the file is not a valid record."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise RecordError(f"cannot read record {path}: {exc}") from None
    return check_record(data)


def check_record(data) -> dict:
    """Return ``data`` if it has the shape of a record, else raise ``RecordError``."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    missing = [k for k in RECORD_KEYS if k not in data]
    if missing:
        raise RecordError(f"record lacks {', '.join(missing)}")
    if not isinstance(data["actions"], list) or not all(_is_entry(a) for a in data["actions"]):
        raise RecordError("record actions must be a list of action ids (integers) and [seat, action id] pairs")
    if not isinstance(data["options"], dict):
        raise RecordError("record options must be an object")
    if data.get("position") is not None and not isinstance(data["position"], str):
        raise RecordError("record position must be a text")
    return data


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_entry(a) -> bool:
    """An action id, or a ``[seat, id]`` pair (a simultaneous step's choice)."""
    return _is_int(a) or (isinstance(a, list) and len(a) == 2 and _is_int(a[0]) and _is_int(a[1]))


def replay(record: dict, upto: int | None = None):
    """Rebuild the state a record describes (after its first ``upto`` actions if given).

    Raises:
        RecordError: the game is unknown, the version differs, or an action is illegal.
    """
    check_record(record)
    try:
        game = load_game(record["game"], **record["options"])
    except CitygamesError as exc:
        raise RecordError(str(exc)) from None
    if str(record["version"]) != str(game.info.version):
        raise RecordError(f"record is for {record['game']} version {record['version']}, "
                          f"this engine is version {game.info.version}")
    if record.get("position") is not None:
        try:
            state = game.state_from_position(record["position"])
        except CitygamesError as exc:
            raise RecordError(f"record position does not load: {exc}") from None
    else:
        state = game.new_initial_state(seed=record["seed"])
    actions = record["actions"] if upto is None else record["actions"][:upto]
    for i, a in enumerate(actions):
        try:
            state.apply_entry(a)
        except CitygamesError as exc:
            raise RecordError(f"action {i} ({a}) does not replay: {exc}") from None
    return state
