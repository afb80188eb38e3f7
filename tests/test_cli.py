"""Tests of the ``citygames`` command (click's CliRunner) on the toy game."""

from __future__ import annotations

import csv
import json
import re

import pytest

from citygames.cli import parse_game_options
from citygames.core import load_game, load_record, replay, save_record
from citygames.core.conformance import play_random_game


# --- play ---------------------------------------------------------------------------------
def test_play_to_the_end_with_invalid_entries(run, tmp_path):
    save = tmp_path / "game.json"
    script = "abc\n999\n\n0\n-1\n" + "1\n" * 40  # invalid entries first, then always the first choice
    result = run("play", "toy", "--human", 0, "--seed", 3, "--save", save, input=script)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "abc is not a number" in out
    assert "999 is not in the menu" in out
    assert "0 is not in the menu" in out and "-1 is not in the menu" in out
    assert "Please type a number from 1 to" in out
    # the human's view: own secret bonus, not the bot's; the menu; bots' moves at the next prompt
    assert "Seat 0's secret bonus" in out and "Seat 1's secret bonus" not in out
    assert "1. take 1 counter (pile" in out
    assert "Seat 1 takes" in out
    assert "Game over" in out and "wins." in out and "Final ranking" in out
    for category in ("Score", "Counters", "Secret bonus", "Tokens", "Last counter", "Penalties"):   # in words
        assert category in out
    record = load_record(save)
    state = replay(record)
    assert state.is_terminal() and record["seed"] == 3
    # the human always took one counter
    assert all(a == 0 for a in record["actions"][0::2])


def test_play_same_seed_same_bot_moves(run, tmp_path):
    records = []
    for name in ("a.json", "b.json"):
        result = run("play", "toy", "--human", 1, "--bots", "random", "--seed", 11, "--save",
                     tmp_path / name, input="2\n" * 40)
        assert result.exit_code == 0, result.output
        records.append(load_record(tmp_path / name))
    assert records[0] == records[1]


def test_play_eof_mid_game_exits_cleanly(run, tmp_path):
    save = tmp_path / "partial.json"
    result = run("play", "toy", "--human", 0, "--seed", 5, "--save", save, input="1\n")
    assert result.exit_code == 0, result.output
    assert "You left the game" in result.output
    state = replay(load_record(save))
    assert not state.is_terminal() and state.history[0] == 0


def test_play_q_leaves(run):
    result = run("play", "toy", "--human", 0, "--seed", 5, input="q\n")
    assert result.exit_code == 0 and "You left the game after 0 actions" in result.output


def test_play_bots_only_prints_the_game(run):
    result = run("play", "toy", "--players", 3, "--bots", "random,greedy", "--seed", 2)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Seat 0 (random), Seat 1 (greedy), Seat 2 (greedy)" in out
    assert "The pile holds" in out and "takes the last counter" in out and "wins." in out
    assert "secret bonus is" not in out  # spectators do not see private events
    assert "Your choice" not in out


def test_play_hot_seat_two_humans(run):
    result = run("play", "toy", "--players", 3, "--human", 0, "--human", 2, "--bots", "random",
                 "--seed", 4, input="1\n" * 40)
    assert result.exit_code == 0, result.output
    assert "Seat 0 to move" in result.output and "Seat 2 to move" in result.output
    assert "Seat 1 to move" not in result.output


def test_play_game_options_from_extra_arguments(run):
    result = run("play", "toy", "--big-pile", "--last-bonus", "4", "--seed", 1)
    assert result.exit_code == 0, result.output
    pile = int(re.search(r"The pile holds (\d+) counters", result.output).group(1))
    assert 30 <= pile <= 40
    result = run("play", "toy", "--no-big-pile", "--last-bonus=0", "--seed", 1)
    pile = int(re.search(r"The pile holds (\d+) counters", result.output).group(1))
    assert 12 <= pile <= 20


# --- simulate -----------------------------------------------------------------------------
def test_simulate_prints_summary_and_writes_csv(run, tmp_path):
    out = tmp_path / "results.csv"
    recs = tmp_path / "recs"
    result = run("simulate", "toy", "--players", 3, "--games", 40, "--bots", "greedy,random,random",
                 "--seed", 1, "--out", out, "--workers", 1, "--save-records", recs, "--no-progress")
    assert result.exit_code == 0, result.output
    text = result.output
    assert "40 games" in text and "By seat" in text and "By bot" in text and "95% CI" in text
    assert "Game length" in text and f"Wrote 40 rows to {out}" in text
    with out.open() as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 40 and rows[0]["seat0_bot"] == "greedy" and rows[0]["seat2_bot"] == "random"
    assert len(list(recs.iterdir())) == 40


def test_simulate_one_bot_for_all_seats_with_progress(run):
    result = run("simulate", "toy", "--players", 4, "--games", 10, "--bots", "random", "--workers", 2)
    assert result.exit_code == 0, result.output
    assert "10 games" in result.output and "seat 3" in result.output


# --- replay -------------------------------------------------------------------------------
def test_replay_finished_game(run, tmp_path):
    state = play_random_game(load_game("toy", num_players=3), seed=8)
    path = tmp_path / "g.json"
    save_record(state.record(), path)
    result = run("replay", path)
    assert result.exit_code == 0, result.output
    for e in state.log:
        assert e.text in result.output
    assert "(seat 0 only) Seat 0's secret bonus" in result.output
    assert "Final ranking" in result.output
    winner = state.ranking()[0]
    assert f"Seat {winner} wins." in result.output


def test_replay_as_one_seat_and_mid_game(run, tmp_path):
    game = load_game("toy")
    state = game.new_initial_state(seed=3)
    state.apply_action(state.legal_actions()[0])
    path = tmp_path / "partial.json"
    save_record(state.record(), path)
    result = run("replay", path)
    assert result.exit_code == 0, result.output
    assert "not over after 1 action; to move: Seat 1" in result.output
    result = run("replay", path, "--seat", 1)
    assert result.exit_code == 0
    assert "Seat 1's secret bonus" in result.output and "Seat 0's secret bonus" not in result.output


# --- bench and rules ----------------------------------------------------------------------
def test_bench_prints_three_rates(run):
    result = run("bench", "toy", "--players", 3, "--seconds", 0.3, "--big-pile")
    assert result.exit_code == 0, result.output
    rates = {}
    for label in ("random-play actions/s", "clones/s", "random games/s"):
        m = re.search(re.escape(label) + r":\s+([\d,.]+)", result.output)
        assert m, label
        rates[label] = float(m.group(1).replace(",", ""))
    assert all(v > 0 for v in rates.values())
    assert "big_pile=True" in result.output


def test_rules(run):
    result = run("rules", "toy")
    assert result.exit_code == 0
    assert "takes 1, 2 or 3 counters" in result.output and "Assumptions" not in result.output
    result = run("rules", "toy", "--assumptions")
    assert result.exit_code == 0 and "Assumptions:" in result.output


@pytest.mark.parametrize("flags", [[], ["--prosperity"]])
def test_rules_of_the_capitals_list_each_prosperity_tile_once(run, flags):
    """Issue 15, defect 7: the prosperity tiles were listed under "Starting tiles" too, with their
    effects cut short ("International Bank: no effect")."""
    result = run("rules", "the_capitals", *flags)
    assert result.exit_code == 0, result.output
    out = result.output
    sections = re.split(r"\n(?=\S[^\n]*\(\d+[^\n]*\):\n)", out)
    starting = next(s for s in sections if s.startswith("Starting tiles"))
    prosperity = next(s for s in sections if s.startswith("Prosperity tiles"))
    assert "(prosperity)" not in starting and "City Hall (public)" in starting
    assert re.match(r"Starting tiles \((\d+) tiles\)", starting).group(1) == str(len(starting.splitlines()) - 1)
    assert "Prosperity tiles (25;" in prosperity and len(re.findall(r"^  \S.* — requires ", prosperity, re.M)) == 25
    for name in ("International Bank", "Mayor's House", "Subway", "Technology Park"):
        assert out.count(name) == 1, name
    assert "International Bank — requires highest employment: End: +1 prestige per 6 $" in prosperity
    assert "no effect" not in prosperity


# --- serve --------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [[], ["--workers", "2", "--db", "postgresql://nobody@127.0.0.1:1/none"]])
def test_serve_on_a_busy_port_fails_before_announcing_the_table(run, tmp_path, args):
    """Issue 15, item 10: a port another program listens on is refused with one line and exit code
    1, before the "table at" line (one worker, and the check before uvicorn's workers bind it)."""
    import socket
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = run("serve", "--host", "127.0.0.1", "--port", port, *(args or ["--db", tmp_path / "t.sqlite3"]))
    assert result.exit_code == 1, result.output
    assert result.output.splitlines() == [
        f"Error: port {port} on 127.0.0.1 is in use (address already in use: another server?): "
        f"choose another with --port"]
    assert "table at" not in result.output
    assert not (tmp_path / "t.sqlite3").exists()   # refused before the database is touched


def test_serve_on_an_address_of_another_machine_fails_with_one_line(run, tmp_path):
    result = run("serve", "--host", "192.0.2.1", "--port", 0, "--db", tmp_path / "t.sqlite3")
    assert result.exit_code == 1, result.output
    assert result.output.splitlines() == [
        "Error: cannot listen on 192.0.2.1:0: 192.0.2.1 is not an address of this machine "
        "(--host 0.0.0.0 listens on all of them)"]


def test_games_and_version(run):
    result = run("games")
    assert result.exit_code == 0 and "toy: Counters (toy game) (2-4 players)" in result.output
    assert run("--version").output.startswith("citygames, version")


# --- bad options --------------------------------------------------------------------------
def _bad_files(tmp_path):
    (tmp_path / "garbage.json").write_text("{not json")
    (tmp_path / "shape.json").write_text(json.dumps({"game": "toy"}))
    record = play_random_game(load_game("toy"), seed=1).record()
    record["actions"].append(0)
    (tmp_path / "illegal.json").write_text(json.dumps(record))
    (tmp_path / "unknown.json").write_text(json.dumps({**record, "game": "chess"}))


@pytest.mark.parametrize("args, message", [
    (["play", "chess"], "unknown game 'chess'"),
    (["play", "toy", "--players", "9"], "toy is for 2-4 players, got 9"),
    (["play", "toy", "--colour=red"], "unknown game option --colour"),
    (["play", "toy", "--no-colour"], "unknown game option --no-colour"),
    (["play", "toy", "--last-bonus"], "--last-bonus needs a value"),
    (["play", "toy", "--last-bonus=9"], "last_bonus must be between 0 and 5"),
    (["play", "toy", "--last-bonus", "many"], "last_bonus must be an integer"),
    (["play", "toy", "--big-pile=perhaps"], "big_pile must be true or false"),
    (["play", "toy", "--no-last-bonus"], "not a true/false option"),
    (["play", "toy", "stray"], "unexpected argument 'stray'"),
    (["play", "toy", "--bots", "wizard"], "unknown bot 'wizard'; known bots: easy, expert, greedy, hard, ismcts, mcts, medium, random"),
    (["play", "toy", "--bots", ","], "no bot given"),
    (["play", "toy", "--human", "0", "--bots", "random,greedy"], "2 bots given for 1 bot seat"),
    (["play", "toy", "--human", "2"], "seat 2 does not exist"),
    (["play", "toy", "--human", "0", "--human", "0"], "a seat is given twice"),
    (["play", "toy", "--seed", "x"], "'x' is not a valid integer"),
    (["simulate", "toy", "--players", "3", "--bots", "greedy,random"], "needs 3 bots"),
    (["simulate", "toy", "--bots", "wizard"], "unknown bot 'wizard'"),
    (["simulate", "toy", "--games", "0"], "--games"),
    (["simulate", "chess"], "unknown game"),
    (["simulate", "toy", "--workers", "0"], "--workers"),
    (["bench", "toy", "--seconds", "0"], "--seconds"),
    (["bench", "toy", "--wrong"], "unknown game option --wrong"),
    (["rules", "chess"], "unknown game"),
    (["replay", "{tmp}/missing.json"], "cannot read record"),
    (["replay", "{tmp}/garbage.json"], "cannot read record"),
    (["replay", "{tmp}/shape.json"], "record lacks"),
    (["replay", "{tmp}/illegal.json"], "does not replay"),
    (["replay", "{tmp}/unknown.json"], "unknown game"),
])
def test_bad_options_exit_2_with_a_message(run, tmp_path, args, message):
    _bad_files(tmp_path)
    result = run(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and message in errors[0], result.output


def test_parse_game_options():
    assert parse_game_options(["--big-pile", "--last-bonus", "3"], "toy") == {"big_pile": True, "last_bonus": "3"}
    assert parse_game_options(["--no-big-pile", "--num-players=4"], "toy") == {"big_pile": False, "num_players": "4"}
    assert parse_game_options(["--big-pile=false", "--last-bonus=-1"], "toy") == {"big_pile": "false", "last_bonus": "-1"}
    assert parse_game_options([], "toy") == {}


# --- playthrough --------------------------------------------------------------------------
def test_playthrough_prints_the_seeded_game_step_by_step(run):
    from citygames.sim.playthrough import record_playthrough
    result = run("playthrough", "toy", "--seed", 3)
    assert result.exit_code == 0, result.output
    assert result.output == record_playthrough(load_game("toy"), 3).text()
    assert "== setup\n" in result.output and "== step 1: seat 0 to move\nlegal actions (4):\n" in result.output


def test_playthrough_with_game_options_writes_a_file(run, tmp_path):
    from citygames.sim.playthrough import record_playthrough
    out = tmp_path / "toy.txt"
    result = run("playthrough", "toy", "--players", 3, "--big-pile", "--seed", 4, "--out", out)
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert re.fullmatch(rf"Wrote {re.escape(str(out))}: \d+ actions, [\d,]+ bytes\n", result.output)
    assert text == record_playthrough(load_game("toy", num_players=3, big_pile=True), 4).text()
    assert "# Regenerate: citygames playthrough toy --seed 4 --players 3 --big-pile\n" in text


@pytest.mark.parametrize("args, message", [
    (["playthrough", "chess"], "unknown game 'chess'"),
    (["playthrough", "toy", "--colour=red"], "unknown game option --colour"),
    (["playthrough", "toy", "--players", "9"], "toy is for 2-4 players, got 9"),
    (["playthrough", "toy", "--seed", "x"], "'x' is not a valid integer"),
    (["playthrough", "toy", "--last-bonus=9"], "last_bonus must be between 0 and 5"),
])
def test_playthrough_bad_options_exit_2(run, args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and message in errors[0], result.output


def test_regen_goldens_script_rewrites_exactly_the_stored_goldens(tmp_path):
    """scripts/regen_goldens.sh (reading tests/golden/INDEX through the CLI) writes what the golden
    tests compare with: regenerated into another folder, a file equals the stored one byte for byte.
    Two of the goldens (one per game) keep the test short; every entry takes the same path."""
    import subprocess
    import sys
    from pathlib import Path
    repo = Path(__file__).resolve().parent.parent
    script = str(repo / "scripts" / "regen_goldens.sh")
    env = {"PATH": "/usr/bin:/bin", "PYTHON": sys.executable}
    names = ["the_capitals_2p_seed3.txt", "seven_wonders_duel_seed7.txt"]
    done = subprocess.run(["bash", script, str(tmp_path), *names], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)
    for name in names:
        assert (tmp_path / name).read_bytes() == (repo / "tests" / "golden" / name).read_bytes(), name
    assert done.stdout.count("Wrote ") == 2
    unknown = subprocess.run(["bash", script, str(tmp_path), "nope.txt"], env=env, capture_output=True, text=True)
    assert unknown.returncode == 2 and "nope.txt is not listed in tests/golden/INDEX" in unknown.stderr
