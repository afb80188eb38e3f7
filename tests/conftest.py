"""Shared test setup: registers the toy game under id ``"toy"`` and the toy game with simultaneous
steps under ``"toy_sim"``; the ``run`` fixture invokes the CLI."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from citygames.core import load_game, register_game

from simtoy import SealedBids
from toygame import ToyGame

register_game("toy", ToyGame)
register_game("toy_sim", SealedBids)


@pytest.fixture
def toy():
    """The two-player toy game with default options."""
    return load_game("toy")


@pytest.fixture
def run():
    """``run(*args, input=None)``: the ``citygames`` command invoked in-process (arguments turned into
    strings, 120 columns wide); returns click's ``Result``."""
    from citygames.cli import main
    runner = CliRunner(env={"COLUMNS": "120"})

    def invoke(*args, input=None):
        return runner.invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)
    return invoke
