"""``citygames play`` in a small terminal (issue 15, defect 9): a compact frame that fits 80 x 24, the
full board on request (``b``), ``q`` asks before quitting, and a game saved after every move that
``--resume`` continues. Driven through click's CliRunner with COLUMNS=80 LINES=24."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from citygames.cli import main
from citygames.core import load_record, replay

GAMES = [("the_capitals", 3), ("the_capitals", 5), ("seven_wonders_duel", 2), ("quadropolis", 2),
         ("between_two_cities", 3), ("between_two_cities", 7)]
RULE = re.compile(r"^─+ .* to move.* ─+$")


def _run(*args, input=None, columns=80, lines=24):
    runner = CliRunner(env={"COLUMNS": str(columns), "LINES": str(lines)})
    return runner.invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)


def _frames(output: str) -> list[list[str]]:
    """Each frame's lines: from its rule line to its first prompt line (included)."""
    frames, cur = [], None
    for line in output.splitlines():
        if RULE.match(line) or ("─" in line and " to move" in line and line.startswith("Your choice")):
            cur = [line[line.index("─"):]]
            frames.append(cur)
            continue
        if cur is not None and not (cur and cur[-1].startswith("Your choice")):
            cur.append(line)
    return frames


@pytest.mark.parametrize("game_id,n", GAMES)
def test_every_frame_fits_80_by_24(game_id, n, tmp_path):
    save = tmp_path / "g.json"
    # six moves, always the first choice; then "n" (next menu page, if any) and an EOF
    result = _run("play", game_id, "-p", n, "--human", 0, "--bots", "random", "--seed", 5, "--save", save,
                  input="1\n" * 6)
    assert result.exit_code == 0, result.output
    frames = _frames(result.output)
    assert len(frames) >= 6
    for frame in frames:
        assert frame[-1].startswith("Your choice (")
        assert len(frame) <= 24, "\n".join(frame)
        assert all(len(line) <= 80 for line in frame[:-1]), "\n".join(frame)
        assert any(line.startswith(">*") or line.startswith(" *") for line in frame), "\n".join(frame)
        assert re.search(r"^\s+1\. ", "\n".join(frame), re.M)      # the menu is on screen
    assert "The game is saved in" in result.output and f"citygames play --resume {save}" in result.output
    record = load_record(save)
    assert record["terminal"] == {"humans": [0], "bots": "random"}
    assert len([1 for a in record["actions"]]) >= 6


def test_b_shows_the_full_board_and_full_layout_shows_it_every_turn():
    small = _run("play", "the_capitals", "-p", 3, "--human", 0, "--bots", "random", "--seed", 5, input="")
    board = _run("play", "the_capitals", "-p", 3, "--human", 0, "--bots", "random", "--seed", 5, input="b\n")
    full = _run("play", "the_capitals", "-p", 3, "--human", 0, "--bots", "random", "--seed", 5,
                "--layout", "full", input="")
    assert len(board.output.splitlines()) > len(small.output.splitlines()) + 20
    assert len(full.output.splitlines()) > len(small.output.splitlines()) + 20
    # the full board's first line of Green's city view is in both
    extra = set(board.output.splitlines()) - set(small.output.splitlines())
    assert extra and all(line in full.output for line in list(extra)[:5] if "Your choice" not in line)


def test_auto_layout_is_full_on_a_big_terminal():
    big = _run("play", "quadropolis", "-p", 2, "--human", 0, "--bots", "random", "--seed", 5, input="",
               columns=160, lines=80)
    small = _run("play", "quadropolis", "-p", 2, "--human", 0, "--bots", "random", "--seed", 5, input="")
    assert not any(line.startswith(">*") for line in big.output.splitlines())
    assert any(line.startswith(">*") for line in small.output.splitlines())


def test_q_asks_before_quitting():
    stay = _run("play", "seven_wonders_duel", "--human", 0, "--bots", "random", "--seed", 5, input="q\nn\n1\n")
    assert "Quit? [y/N]" in stay.output
    assert len(_frames(stay.output)) >= 2       # "n" kept playing: the move was made, the next turn shown
    leave = _run("play", "seven_wonders_duel", "--human", 0, "--bots", "random", "--seed", 5, input="q\ny\n")
    assert leave.exit_code == 0 and "You left the game after 0 actions" in leave.output


def test_a_saved_game_resumes_with_its_seats_and_moves(tmp_path):
    save = tmp_path / "duel.json"
    first = _run("play", "seven_wonders_duel", "--human", 1, "--bots", "random", "--seed", 9, "--save", save,
                 input="1\n1\n")
    assert first.exit_code == 0, first.output
    before = load_record(save)
    assert len(before["actions"]) >= 2 and before["terminal"]["humans"] == [1]
    again = _run("play", "--resume", save, input="1\n")
    assert again.exit_code == 0, again.output
    assert f"Resumed from {save} after {len(before['actions'])} actions" in again.output
    assert "Seat 1 North" not in again.output and "Seat 1 South (you)" in again.output
    after = load_record(save)
    assert after["actions"][:len(before["actions"])] == before["actions"]
    assert len(after["actions"]) > len(before["actions"])
    assert replay(after).history[:len(before["actions"])] == replay(before).history


@pytest.mark.parametrize("content,message", [
    (None, "cannot be resumed"),
    ("not json", "cannot be resumed"),
    ('{"game": "the_capitals"}', "cannot be resumed: record lacks"),
])
def test_a_bad_resume_file_exits_2_with_a_clear_message(tmp_path, content, message):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    result = _run("play", "--resume", path)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_resume_refuses_a_finished_game_and_another_game(tmp_path):
    save = tmp_path / "toy.json"
    done = _run("play", "toy", "--bots", "random", "--seed", 3, "--save", save)
    assert done.exit_code == 0
    over = _run("play", "--resume", save)
    assert over.exit_code == 2 and "is over" in over.output
    record = json.loads(save.read_text())
    record["actions"] = record["actions"][:1]
    save.write_text(json.dumps(record))
    other = _run("play", "quadropolis", "--resume", save)
    assert other.exit_code == 2 and "not quadropolis" in other.output


def test_play_without_a_game_or_resume_is_a_usage_error():
    result = _run("play")
    assert result.exit_code == 2 and "--resume" in result.output


def test_resume_takes_the_options_from_the_record(tmp_path):
    save = tmp_path / "q.json"
    _run("play", "quadropolis", "-p", 2, "--human", 0, "--bots", "random", "--seed", 2, "--save", save, input="1\n")
    result = _run("play", "--resume", save, "-p", 3)
    assert result.exit_code == 2 and "options from the record" in result.output
