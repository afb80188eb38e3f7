"""Golden playthroughs (DESIGN.md "Tests"): seeded games recorded step by step by
``citygames.sim.playthrough`` (seat to move, legal action ids and texts, the action applied, log
events with their visibility, every seat's and the spectator's observation, the final scores) and
compared with the stored texts in ``tests/golden``.

The one list of goldens is ``tests/golden/INDEX``: each line names a file and the arguments of
``citygames playthrough`` that write it. ``bash scripts/regen_goldens.sh`` rewrites them all on
purpose (or ``CITYGAMES_REGEN_GOLDEN=1 pytest tests/test_<game>_golden.py`` those of one test
file); review the diff before committing it.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest

from citygames.cli import load_cli_game
from citygames.cli import playthrough as playthrough_command
from citygames.sim.playthrough import Playthrough, first_difference, record_playthrough

GOLDEN = Path(__file__).parent / "golden"
INDEX = GOLDEN / "INDEX"


def golden_specs() -> dict[str, list[str]]:
    """``{file name: arguments of citygames playthrough}`` from ``tests/golden/INDEX``, in order.

    Raises:
        ValueError: a line without arguments or a file named twice.
    """
    specs: dict[str, list[str]] = {}
    for n, line in enumerate(INDEX.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, *args = shlex.split(line)
        if not args or name in specs:
            raise ValueError(f"{INDEX}:{n}: {'no arguments' if not args else 'named twice'}: {line!r}")
        specs[name] = args
    return specs


def golden_names(game_id: str) -> list[str]:
    """The INDEX's file names whose game is ``game_id``, in INDEX order."""
    return [name for name, args in golden_specs().items() if args[0] == game_id]


def record(name: str) -> Playthrough:
    """Record the playthrough that INDEX entry ``name`` describes, parsing its arguments exactly
    as ``citygames playthrough`` does (``click`` errors on a bad line)."""
    ctx = playthrough_command.make_context("playthrough", list(golden_specs()[name]))
    game = load_cli_game(ctx.params["game_id"], ctx.params["players"], ctx.args)
    return record_playthrough(game, ctx.params["seed"])


def check_text(name: str, text: str) -> None:
    """Fail (at the first differing step, with its context) unless ``text`` equals the stored
    ``tests/golden/<name>``; with ``CITYGAMES_REGEN_GOLDEN`` set, write ``text`` there instead."""
    path = GOLDEN / name
    if os.environ.get("CITYGAMES_REGEN_GOLDEN"):
        path.write_text(text, encoding="utf-8", newline="\n")
    if not path.exists():
        pytest.fail(f"{path} is missing; write it with: bash scripts/regen_goldens.sh", pytrace=False)
    report = first_difference(path.read_text(encoding="utf-8"), text)
    if report is not None:
        pytest.fail(f"tests/golden/{name} differs from the playthrough generated now.\n{report}\n"
                    "If the change is intended: bash scripts/regen_goldens.sh, then review git diff.",
                    pytrace=False)


def check(name: str) -> Playthrough:
    """Record INDEX entry ``name`` and :func:`check_text` it; returns the playthrough."""
    recorded = record(name)
    check_text(name, recorded.text())
    return recorded


def event_texts(recorded: Playthrough) -> str:
    """Every event sentence of the game, one a line (for asserting which events occur)."""
    return "\n".join(e.text for e in recorded.events())
