"""Shared test setup: registers the toy game under id ``"toy"`` and the toy game with simultaneous
steps under ``"toy_sim"``; the ``run`` fixture invokes the CLI; a failed test that talked to a
``citygames serve`` of the browser tests gets the end of that server's log in its report."""

from __future__ import annotations

import sys

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


SERVER_LOG_LINES = 80


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test whose ``server`` fixture is a ``citygames serve`` run by
    ``test_browser_e2e.serving``: the last ``SERVER_LOG_LINES`` lines of its log join the report
    (a bot that failed, a refused action), so a failure on CI explains itself."""
    outcome = yield
    rep = outcome.get_result()
    if not rep.failed or rep.when == "teardown":
        return
    e2e = sys.modules.get("test_browser_e2e")
    url = getattr(item, "funcargs", {}).get("server")
    path = e2e.SERVER_LOGS.get(url) if e2e is not None and isinstance(url, str) else None
    if path is not None and path.exists():
        tail = path.read_text(errors="replace").splitlines()[-SERVER_LOG_LINES:]
        rep.sections.append((f"citygames serve log ({path}, last {SERVER_LOG_LINES} lines)", "\n".join(tail)))
