"""Loading component data files, keeping track of values no source confirms, and overriding
values for one game (what-if studies).

Any scalar in a data file may be written ``{value: X, status: ..., source: ...}`` with status
``confirmed``, ``inferred`` or ``assumed``. ``load_data`` unwraps those and returns, beside the
plain data, the list of ``Assumption`` records for every value that is not confirmed.

**Data keys** name one value of a game's data files: ``FILE:PATH``, the form the assumptions are
listed in (``citygames rules the_capitals --assumptions``). ``PATH`` is dict keys joined by dots
and list items in brackets, an item labelled by its ``id`` when it has one, else by its index:
``board.yaml:final_scoring.cubes_per_prestige``, ``tiles.yaml:[hotel].cubes``,
``power_plants.yaml:levels[0].activations``, ``cards.yaml:cards[11].cost.coins``. That is the
*canonical* form. Keys given by users may drop ``.yaml``, name a list item by its ``id``, its
``name`` (case-insensitive, spaces or underscores) or its index, and write dict keys in any case
(``tiles:[Royal Cinema].cubes``, ``cards:cards[Palisade].cost.coins``); ``resolve_overrides``
turns them into the canonical form.

**Data overrides**: the reserved game option ``data_overrides`` (``DATA_OVERRIDES``), accepted by
every game with data files (``Game.DATA_DIR``), maps data keys to new values for that game only:
``load_game("the_capitals", data_overrides={"board:final_scoring.cubes_per_prestige": 3})``. The
game's components are loaded from the data with those values replaced (``load_data(path,
overrides)``); an overridden value is listed among the assumptions with status ``overridden``.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import yaml

from .errors import GameOptionError

STATUSES = ("confirmed", "inferred", "assumed")
#: status of a value replaced by ``data_overrides`` (never written in a data file)
OVERRIDDEN = "overridden"
#: the reserved game option every game with data files accepts (see the module docstring)
DATA_OVERRIDES = "data_overrides"


@dataclass(frozen=True)
class Assumption:
    """One uncertain value: where it is, what it is, how sure we are and why."""

    file: str
    path: str
    value: Any
    status: str
    source: str


def _is_marked(node) -> bool:
    return isinstance(node, dict) and "value" in node and "status" in node and set(node) <= {"value", "status", "source", "note"}


def _unwrap(node, file: str, path: str, out: list[Assumption]):
    if _is_marked(node):
        status = node["status"]
        if status not in STATUSES:
            raise ValueError(f"{file}:{path}: status must be one of {STATUSES}, got {status!r}")
        value = _unwrap(node["value"], file, path, out)
        if status != "confirmed":
            out.append(Assumption(file, path, value, status, str(node.get("source", ""))))
        return value
    if isinstance(node, dict):
        return {k: _unwrap(v, file, f"{path}.{k}" if path else str(k), out) for k, v in node.items()}
    if isinstance(node, list):
        res = []
        for i, v in enumerate(node):
            label = v.get("id") if isinstance(v, dict) and "id" in v else i
            res.append(_unwrap(v, file, f"{path}[{label}]", out))
        return res
    return node


def _read(path: Path) -> tuple[Any, list[Assumption]]:
    with path.open() as fh:
        raw = yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    out: list[Assumption] = []
    return _unwrap(raw, path.name, "", out), out


def load_data(path: str | Path, overrides: Mapping[str, Any] | Iterable[tuple[str, Any]] | None = None
              ) -> tuple[Any, list[Assumption]]:
    """Load a YAML data file; return ``(plain data, assumptions)``.

    Args:
        path: the file.
        overrides: data overrides as ``{"FILE:PATH": value}`` (or its ``items()``), in the canonical
            form ``resolve_overrides`` returns; those of other files are ignored. Each value replaces
            the one at its path (a copy of it, so the data never shares objects with the caller; dict
            keys that JSON turned into texts become the file's integer keys again), and
            the assumptions list it with status ``OVERRIDDEN`` (in place of the file's own mark, if
            any; marks inside a replaced dict or list are dropped).

    Raises:
        ValueError: a bad status mark in the file, or an override whose path is not in it.
    """
    path = Path(path)
    data, assumptions = _read(path)
    items = overrides.items() if isinstance(overrides, Mapping) else (overrides or ())
    for key, value in items:
        file, _, raw_path = key.partition(":")
        if file != path.name:
            continue
        try:
            canon, parent, slot, old = _locate(data, _parse_path(raw_path), file)
        except _PathError as exc:
            raise ValueError(f"data override {key!r}: {exc.detail}") from None
        parent[slot] = _jsonable(value, old, key)   # a copy, with dict keys of the file's types again
        assumptions = _override_assumptions(assumptions, file, canon, old, parent[slot])
    return data, assumptions


def _override_assumptions(assumptions: list[Assumption], file: str, path: str, old, new) -> list[Assumption]:
    """The assumptions after the value at ``path`` went from ``old`` to ``new``."""
    prev = next((a for a in assumptions if a.path == path), None)
    was = f"file value {_short(old, 80)}, {prev.status if prev else 'confirmed'}"
    if prev is not None and prev.source:
        was += f": {prev.source}"
    mark = Assumption(file, path, new, OVERRIDDEN, was)
    out = []
    for a in assumptions:
        if a is prev:
            out.append(mark)
        elif not (a.path.startswith(path + ".") or a.path.startswith(path + "[")):
            out.append(a)
    if prev is None:
        out.append(mark)
    return out


def override_lines(assumptions: Iterable[Assumption], indent: str = "  ") -> list[str]:
    """One line per overridden value, ``tiles.yaml:[hotel].cubes = 3 (file value 1, assumed: ...)``,
    for the rules summaries (``describe_rules``)."""
    return [f"{indent}{a.file}:{a.path} = {a.value!r} ({a.source})" for a in assumptions if a.status == OVERRIDDEN]


def assumption_lines(assumptions: Sequence[Assumption], indent: str = "  ") -> list[str]:
    """The list ``citygames rules GAME --assumptions`` prints: a heading with the count, then one line
    per value no source confirms, ``tiles.yaml:[hotel].cubes = 1 [assumed] <source>`` (a list longer
    than 100 characters is shown by its size)."""
    def short(value) -> str:
        text = repr(value)
        return f"<a list of {len(value)} entries>" if isinstance(value, list) and len(text) > 100 else text
    return ([f"Values no source confirms ({len(assumptions)}), with their status and source:"]
            + [f"{indent}{a.file}:{a.path} = {short(a.value)} [{a.status}] {a.source}" for a in assumptions])


# --- data keys and overrides ------------------------------------------------------------------
class _PathError(Exception):
    """A path that does not name a value: ``detail`` says why, ``near`` holds ``(canonical path, name)``
    of close keys at the depth that failed, ``rest`` the labels after it."""

    def __init__(self, detail: str, near: list[tuple[str, str]] | None = None):
        super().__init__(detail)
        self.detail = detail
        self.near = near or []
        self.rest: list[str] = []


def _norm(text) -> str:
    return str(text).strip().lower().replace(" ", "_").replace("-", "_")


def _parse_path(path: str) -> list[str]:
    """``"levels[0].activations"`` -> ``["levels", "0", "activations"]`` (raises ``_PathError``)."""
    path = path.strip()
    if not path:
        raise _PathError("the path is empty")
    segs: list[str] = []
    i, n = 0, len(path)
    expect_key = True   # at the start or after a dot: a key (or a bracket)
    while i < n:
        ch = path[i]
        if ch == "[":
            j = path.find("]", i)
            if j < 0:
                raise _PathError(f"unclosed '[' in {path!r}")
            label = path[i + 1:j].strip()
            if not label:
                raise _PathError(f"empty brackets in {path!r}")
            segs.append(label)
            i = j + 1
            expect_key = False
        elif ch == ".":
            if expect_key:
                raise _PathError(f"empty key in {path!r}")
            i += 1
            expect_key = True
            if i == n:
                raise _PathError(f"{path!r} ends with a dot")
        else:
            if not expect_key:
                raise _PathError(f"a dot or a bracket is missing before {path[i:]!r} in {path!r}")
            j = i
            while j < n and path[j] not in ".[]":
                j += 1
            if j < n and path[j] == "]":
                raise _PathError(f"stray ']' in {path!r}")
            segs.append(path[i:j].strip())
            i = j
            expect_key = False
    return segs


def _item_label(item, index: int) -> str:
    return str(item["id"]) if isinstance(item, dict) and "id" in item else str(index)


def _child_path(prefix: str, node, label: str) -> str:
    if isinstance(node, list):
        return f"{prefix}[{label}]"
    return f"{prefix}.{label}" if prefix else label


def _find_in_list(node: list, label: str) -> int | None:
    for how in ("id", "norm_id", "name", "index"):
        hits = []
        for i, item in enumerate(node):
            d = item if isinstance(item, dict) else {}
            if how == "id" and "id" in d and str(d["id"]) == label:
                hits.append(i)
            elif how == "norm_id" and "id" in d and _norm(d["id"]) == _norm(label):
                hits.append(i)
            elif how == "name" and isinstance(d.get("name"), str) and _norm(d["name"]) == _norm(label):
                hits.append(i)
        if how == "index" and label.isdigit() and int(label) < len(node):
            hits.append(int(label))
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise _PathError(f"{label!r} names {len(hits)} items; use their index")
    return None


def _find_in_dict(node: dict, label: str):
    for k in node:
        if str(k) == label:
            return k
    hits = [k for k in node if _norm(k) == _norm(label)]
    return hits[0] if len(hits) == 1 else None


def _close(label: str, candidates: list[str]) -> list[str]:
    by_norm = {_norm(c): c for c in candidates}
    return [by_norm[m] for m in difflib.get_close_matches(_norm(label), list(by_norm), n=3, cutoff=0.6)]


def _list_guesses(node: list, label: str, prefix: str) -> list[tuple[str, str]]:
    """``(canonical path, name)`` of the items of ``node`` whose id, name or index is close to
    ``label`` (``name``: the item's name when its path holds its index, else ``""``)."""
    names = [_item_label(it, k) for k, it in enumerate(node)]
    names += [it["name"] for it in node if isinstance(it, dict) and isinstance(it.get("name"), str)]
    out = []
    for m in _close(label, names):
        try:
            i = _find_in_list(node, m)
        except _PathError:
            continue
        if i is not None:
            item = node[i]
            name = item.get("name") if isinstance(item, dict) and "id" not in item else None
            out.append((_child_path(prefix, node, _item_label(item, i)), name if isinstance(name, str) else ""))
    return list(dict.fromkeys(out))


def _locate(data, segs: list[str], file: str):
    """Follow ``segs`` from ``data``: ``(canonical path, parent, key or index, value)``.

    Raises ``_PathError`` whose ``near`` holds canonical paths close to the first label that fails,
    and ``rest`` the labels after it.
    """
    node, parent, slot, prefix = data, None, None, ""
    for depth, label in enumerate(segs):
        where = f"{file}:{prefix}" if prefix else file
        try:
            if isinstance(node, list):
                i = _find_in_list(node, label)
                if i is None:
                    raise _PathError(f"{where} has no item {label!r} (an item is named by its id, its name or "
                                     f"its index 0-{len(node) - 1})", _list_guesses(node, label, prefix))
                parent, slot, prefix = node, i, _child_path(prefix, node, _item_label(node[i], i))
                node = node[i]
            elif isinstance(node, dict):
                k = _find_in_dict(node, label)
                if k is None:
                    keys = [str(x) for x in node]
                    raise _PathError(f"{where} has no key {label!r} (keys: {', '.join(keys) or 'none'})",
                                     [(_child_path(prefix, node, m), "") for m in _close(label, keys)])
                parent, slot, prefix = node, k, _child_path(prefix, node, str(k))
                node = node[k]
            else:
                raise _PathError(f"{where} is a single value ({node!r}); it has no {label!r}")
        except _PathError as exc:
            exc.rest = segs[depth + 1:]
            raise
    return prefix, parent, slot, node


def _data_files(data_dir) -> dict[str, Path]:
    """``{file name: path}`` of the ``*.yaml`` files in ``data_dir`` (read only: never change it)."""
    return {} if data_dir is None else _data_files_in(str(data_dir))


@lru_cache(maxsize=None)
def _data_files_in(data_dir: str) -> dict[str, Path]:
    return {p.name: p for p in sorted(Path(data_dir).glob("*.yaml"))}


@lru_cache(maxsize=None)
def _plain(path: str):
    """The plain data of a file, loaded once per process (read only: never change it)."""
    return _read(Path(path))[0]


def _walk_keys(node, prefix: str, out: list[str]) -> None:
    if isinstance(node, list):
        items = [(_item_label(v, i), v) for i, v in enumerate(node)]
    elif isinstance(node, dict):
        items = [(str(k), v) for k, v in node.items()]
    else:
        return
    for label, v in items:
        path = _child_path(prefix, node, label)
        out.append(path)
        _walk_keys(v, path, out)


def data_keys(data_dir) -> list[str]:
    """Every data key of the files in ``data_dir``, canonical, in file order then document order
    (dicts and lists included: a whole list or dict may be overridden too)."""
    out: list[str] = []
    for name, path in _data_files(data_dir).items():
        paths: list[str] = []
        _walk_keys(_plain(str(path)), "", paths)
        out += [f"{name}:{p}" for p in paths]
    return out


def list_data_keys(game_id: str) -> list[str]:
    """Every data key of game ``game_id`` in canonical form (``["board.yaml:colors", ...]``), the keys
    ``data_overrides`` and ``--set`` accept; ``[]`` for a game without data files.

    Raises:
        GameOptionError: ``game_id`` is not a registered game.
    """
    from .registry import game_class
    return data_keys(getattr(game_class(game_id), "DATA_DIR", None))


def _resolve_key(files: dict[str, Path], key: str, game_id: str):
    """``(canonical key, current value)`` of a user's data key; ``GameOptionError`` if it names none."""
    what = f"unknown data key {key!r}" + (f" for {game_id}" if game_id else "")
    file, sep, path = key.strip().partition(":")
    if not sep:
        guesses = []
        for name, p in files.items():
            try:
                canon = _locate(_plain(str(p)), _parse_path(key), name)[0]
                guesses.append(f"{name}:{canon}")
            except _PathError:
                pass
        hint = f"; did you mean {' or '.join(guesses)}?" if guesses else ""
        raise GameOptionError(f"{what}: a data key is FILE:PATH, e.g. {next(iter(files), 'board.yaml')}:"
                              f"some.value{hint}")
    name = file.strip()
    if not name.lower().endswith(".yaml"):
        name += ".yaml"
    match = [n for n in files if n.lower() == name.lower()]
    if not match:
        near = []
        try:
            segs = _parse_path(path)
        except _PathError:
            segs = []
        for other, p in files.items():   # the files where the path exists
            try:
                near.append(f"{other}:{_locate(_plain(str(p)), segs, other)[0]}" if segs else "")
            except _PathError:
                pass
        near = [x for x in near if x] or difflib.get_close_matches(name, list(files), n=2, cutoff=0.5)
        hint = f"; did you mean {' or '.join(near)}?" if near else ""
        raise GameOptionError(f"{what}: no data file {file.strip()!r} (files: {', '.join(files) or 'none'}){hint}")
    name = match[0]
    data = _plain(str(files[name]))
    try:
        segs = _parse_path(path)
        canon, _, _, value = _locate(data, segs, name)
    except _PathError as exc:
        near = []
        for guess, item_name in exc.near:   # a guess completed with the rest of the key, when that exists too
            try:
                guess = _locate(data, _parse_path(guess) + exc.rest, name)[0]
            except _PathError:
                pass
            near.append(f"{name}:{guess}" + (f" ({item_name})" if item_name else ""))
        if not near:
            near = difflib.get_close_matches(f"{name}:{path.strip()}", data_keys(files[name].parent), n=3,
                                             cutoff=0.75)
        hint = f"; did you mean {' or '.join(near)}?" if near else ""
        raise GameOptionError(f"{what}: {exc.detail}{hint}") from None
    return f"{name}:{canon}", value


_SCALARS = (str, int, float, bool, type(None))


def _kind(v) -> str:
    """``v``'s type in words, with its article (``"an integer"``)."""
    if isinstance(v, bool):
        return "a true/false value"
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, float):
        return "a number"
    if isinstance(v, str):
        return "a text"
    if isinstance(v, (list, tuple)):
        return "a list"
    if isinstance(v, dict):
        return "a mapping"
    return "null" if v is None else f"a {type(v).__name__}"


def _short(v, limit: int = 60) -> str:
    text = repr(v)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _jsonable(v, old, key: str):
    """``v`` as plain JSON-ready data shaped like ``old`` (dict keys of ``old``'s types, tuples as lists)."""
    if isinstance(v, (list, tuple)):
        olds = old if isinstance(old, list) else []
        return [_jsonable(x, olds[i] if i < len(olds) else None, key) for i, x in enumerate(v)]
    if isinstance(v, dict):
        oldd = old if isinstance(old, dict) else {}
        int_keys = bool(oldd) and all(isinstance(k, int) and not isinstance(k, bool) for k in oldd)
        out = {}
        for k, x in v.items():
            kk = next((o for o in oldd if str(o) == str(k)), k)
            if kk is k and int_keys and isinstance(k, str) and k.lstrip("-").isdigit():
                kk = int(k)
            if not isinstance(kk, (str, int)) or isinstance(kk, bool):
                raise GameOptionError(f"data_overrides {key}: mapping keys must be texts or integers, got {k!r}")
            out[kk] = _jsonable(x, oldd.get(kk), key)
        return out
    if isinstance(v, float) and v != v:
        raise GameOptionError(f"data_overrides {key}: NaN is not a value")
    if not isinstance(v, _SCALARS):
        raise GameOptionError(f"data_overrides {key}: {v!r} is not plain data (a YAML scalar, list or mapping)")
    return v


def _coerce(value, old, key: str):
    """The override value for a key whose file value is ``old`` (same type), JSON-ready."""
    if isinstance(value, str) and not isinstance(old, str):
        try:
            value = yaml.safe_load(value)
        except yaml.YAMLError as exc:
            first = str(exc).strip().splitlines()[0]
            raise GameOptionError(f"data_overrides {key}: {value!r} is not a YAML value ({first})") from None
    elif isinstance(value, str):   # a text stays the text given unless YAML reads it as a text too
        try:
            parsed = yaml.safe_load(value)
        except yaml.YAMLError:
            parsed = None
        if isinstance(parsed, str):
            value = parsed
    if old is not None:
        same = (type(value) is type(old) or (isinstance(old, float) and type(value) is int)
                or (isinstance(old, list) and isinstance(value, tuple)))
        if not same:
            raise GameOptionError(f"data_overrides {key}: the data file has {_kind(old)} ({_short(old)}), "
                                  f"got {_kind(value)} ({_short(value)})")
        if isinstance(old, float):
            value = float(value)
    return _jsonable(value, old, key)


def resolve_overrides(data_dir, overrides: Mapping[str, Any], game_id: str = "") -> dict[str, Any]:
    """Check data overrides against the data files in ``data_dir`` and put them in canonical form.

    Args:
        data_dir: the folder of the game's ``*.yaml`` data files (``Game.DATA_DIR``), or ``None``.
        overrides: ``{data key: value}`` (module docstring for the key syntax). A value given as a
            text is read as YAML (``"3"``, ``"true"``, ``"tie_break_chain"``, ``"{coins: 2}"``),
            except that a text replacing a text stays as given when YAML reads something else.
        game_id: named in the error messages.

    Returns:
        ``{canonical key: value}`` sorted by key, values JSON-ready and of the file value's type
        (an int may replace a float, and is stored as a float).

    Raises:
        GameOptionError: ``overrides`` is not a mapping; a key names no file or no value (the
            message suggests close keys); two keys name the same value, or one lies inside the
            other; a value is not plain data or not of the file value's type.
    """
    if not isinstance(overrides, Mapping):
        raise GameOptionError(f"{DATA_OVERRIDES} must be a mapping {{'FILE:PATH': value}}, got {overrides!r}")
    files = _data_files(data_dir)
    if overrides and not files:
        raise GameOptionError(f"{game_id or 'this game'} has no data files to override")
    out: dict[str, Any] = {}
    given: dict[str, str] = {}
    for key, value in overrides.items():
        if not isinstance(key, str):
            raise GameOptionError(f"a data key must be a text FILE:PATH, got {key!r}")
        canon, old = _resolve_key(files, key, game_id)
        if canon in out:
            raise GameOptionError(f"data keys {given[canon]!r} and {key!r} both name {canon}")
        out[canon] = _coerce(value, old, canon)
        given[canon] = key
    keys = sorted(out)
    for a in keys:
        for b in keys:
            if b.startswith(a + ".") or b.startswith(a + "["):
                raise GameOptionError(f"data keys {a} and {b} overlap: set one or the other")
    return {k: out[k] for k in keys}


def freeze_overrides(overrides: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """Canonical overrides as a hashable tuple ``((key, value as JSON text), ...)`` sorted by key: the
    cache key of a game's components (``()`` when there are none)."""
    return tuple((k, json.dumps(overrides[k], sort_keys=True, separators=(",", ":"))) for k in sorted(overrides))


def thaw_overrides(frozen: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The inverse of ``freeze_overrides``: ``{key: value}``."""
    return {k: json.loads(text) for k, text in frozen}


def parse_overrides(items: Iterable[str]) -> dict[str, str]:
    """Command-line ``KEY=VALUE`` texts (``--set``) as ``{KEY: VALUE}``, values still texts.

    The split is at the first ``=``; key and value are stripped. The values are read as YAML and
    checked when the game loads (``data_overrides``), so ``parse_overrides`` does not need the game.

    Args:
        items: e.g. ``["tiles.yaml:[hotel].cubes=3", "board:final_scoring.cubes_per_prestige=3"]``.

    Returns:
        ``{"tiles.yaml:[hotel].cubes": "3", "board:final_scoring.cubes_per_prestige": "3"}``.

    Raises:
        ValueError: an item without ``=`` or with an empty key, or one key given twice with
            different values.
    """
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep:
            raise ValueError(f"{item!r} is not KEY=VALUE (e.g. board.yaml:final_scoring.cubes_per_prestige=3)")
        if not key:
            raise ValueError(f"{item!r}: the key before '=' is empty")
        if key in out and out[key] != value:
            raise ValueError(f"{key} is given twice ({out[key]!r} and {value!r})")
        out[key] = value
    return out


def variant_loader(build: Callable[..., Any], keep: int = 32, doc: str = "") -> Callable[[tuple], Any]:
    """A cached loader of a game's compiled components: ``load(overrides=())`` returns
    ``build()`` for the data files as they are (built once per process) and
    ``build(thaw_overrides(overrides))`` for frozen canonical overrides (``Game.data_key``), keeping
    the ``keep`` most recently used variants. ``doc`` becomes the loader's docstring."""
    plain = lru_cache(maxsize=1)(lambda: build())
    overridden = lru_cache(maxsize=keep)(lambda key: build(thaw_overrides(key)))

    def load(overrides: tuple = ()):
        return overridden(overrides) if overrides else plain()
    load.__doc__ = doc or variant_loader.__doc__
    return load
