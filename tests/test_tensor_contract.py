"""The fixed-size views of the contract: TensorLayout, observation_tensor, legal_action_mask,
max_game_length, each game's TENSOR.md, and ``citygames bench --adapters``."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

from adapter_helpers import REAL_GAMES
from citygames.core import TensorLayout, load_game


def test_layout_offsets_views_bounds_and_markdown():
    layout = TensorLayout([("a", 2, 0, 5, "coins", "money"), ("b", (2, 3), -1, 1, "flag", "grid")])
    assert layout.size == 8 and layout.names == ["a", "b"]
    assert (layout["b"].offset, layout["b"].stop) == (2, 8)
    v = np.arange(8, dtype=np.float32)
    assert layout.view(v, "b").tolist() == [[2, 3, 4], [5, 6, 7]]
    assert layout.low().tolist() == [0, 0] + [-1] * 6 and layout.high().tolist() == [5, 5] + [1] * 6
    assert "| 2 | `b` | 2 × 3 | -1..1 | flag | grid |" in layout.markdown()
    with pytest.raises(KeyError, match="known: a, b"):
        layout["c"]


@pytest.mark.parametrize("slices, message", [
    ([("a", 1, 0, 1, "", ""), ("a", 1, 0, 1, "", "")], "appears twice"),
    ([("a", (2, 0), 0, 1, "", "")], "every axis must be >= 1"),
    ([("a", 1, 2, 1, "", "")], "low 2.0 > high 1.0"),
])
def test_layout_refuses_bad_slices(slices, message):
    with pytest.raises(ValueError, match=message):
        TensorLayout(slices)


def test_toy_tensor_follows_the_observation(toy):
    state = toy.new_initial_state(seed=3)
    layout = toy.observation_tensor_layout()
    mine, theirs = state.observation_tensor(0), state.observation_tensor(1)
    obs = state.observation(0)
    assert layout.view(mine, "bonus_known").tolist() == [1, 0]            # my bonus only
    assert layout.view(mine, "bonus")[0] == obs["bonus"][0]
    assert layout.view(theirs, "to_move").tolist() == [0, 1]              # seat 0 moves: "the other one" for seat 1
    assert state.legal_action_mask(1).sum() == 0 and state.legal_action_mask(0).sum() == len(state.legal_actions())


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_every_game_has_the_views_and_documents_its_layout(game_id):
    game = load_game(game_id)
    layout = game.observation_tensor_layout()
    assert game.observation_tensor_shape() == [layout.size] and layout.size > 0
    assert game.max_game_length() > 0
    state = game.new_initial_state(seed=1)
    assert state.observation_tensor(None).shape == (layout.size,)
    package = Path(importlib.import_module(type(game).__module__).__file__).parent
    doc = (package / "TENSOR.md").read_text(encoding="utf-8")
    assert layout.markdown() in doc, (
        f"{package / 'TENSOR.md'} does not hold the current layout table: paste "
        f"load_game({game_id!r}).observation_tensor_layout().markdown()")


def test_bench_adapters_reports_each_adapter_against_the_engine(run):
    result = run("bench", "seven_wonders_duel", "--adapters", "--seconds", "0.05")
    assert result.exit_code == 0, result.output
    for name in ("engine", "engine+views", "pettingzoo", "gymnasium", "openspiel"):
        assert f"{name} steps/s:" in result.output
    assert result.output.count("x the engine (budget 3x)") >= 3
