"""Shared test setup: registers the toy game under id ``"toy"``."""

from __future__ import annotations

import pytest

from citygames.core import load_game, register_game

from toygame import ToyGame

register_game("toy", ToyGame)


@pytest.fixture
def toy():
    """The two-player toy game with default options."""
    return load_game("toy")
