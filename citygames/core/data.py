"""Loading component data files and keeping track of values no source confirms.

Any scalar in a data file may be written ``{value: X, status: ..., source: ...}`` with status
``confirmed``, ``inferred`` or ``assumed``. ``load_data`` unwraps those and returns, beside the
plain data, the list of ``Assumption`` records for every value that is not confirmed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

STATUSES = ("confirmed", "inferred", "assumed")


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


def load_data(path: str | Path) -> tuple[Any, list[Assumption]]:
    """Load a YAML data file; return ``(plain data, assumptions)``."""
    path = Path(path)
    with path.open() as fh:
        raw = yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    out: list[Assumption] = []
    return _unwrap(raw, path.name, "", out), out
