"""Tests of ``citygames.sim.playthrough``: the flattened observation lines, the step-by-step text
(on the toy game and a tiny simultaneous-move game), the report of the first difference, and that
a changed action text or observation is caught at the step where it changes."""

from __future__ import annotations

import re

import pytest

from citygames.core import (SIMULTANEOUS, TERMINAL, Action, ActionSpace, Event, Game, GameInfo, State,
                            load_game, register_renderer)
from citygames.sim.playthrough import (REMOVED, changed_lines, command_line, first_difference, flatten,
                                       record_playthrough)

from golden_helpers import GOLDEN, golden_names, golden_specs, record


# --- flattening ---------------------------------------------------------------------------
def test_flatten_paths_values_and_order():
    obs = {"b": 1, "a": {"z": None, "y": [1, 2]}, "players": [{"money": 3, "city": []}, {"money": 4.5}],
           "odd key": "é", "3": True, "grid": [[1, 0], [0, 1]], "none": {}}
    assert list(flatten(obs).items()) == [
        ("3", "true"), ("a.y", "[1, 2]"), ("a.z", "null"), ("b", "1"), ("grid", "[[1, 0], [0, 1]]"),
        ("none", "{}"), ('"odd key"', '"é"'), ("players[0].city", "[]"), ("players[0].money", "3"),
        ("players[1].money", "4.5")]


def test_flatten_accepts_tuples_and_int_keys_like_json():
    assert flatten({"t": (1, 2), "d": {1: "x"}, "l": ({"a": 1},)}) == {"d.1": '"x"', "l[0].a": "1", "t": "[1, 2]"}


@pytest.mark.parametrize("bad, where", [
    ({"a": {"b": {1, 2}}}, "a.b"),
    ({"a": [{"b": object()}]}, "a[0].b"),
    ({"a": {(1, 2): 3}}, "a: key (1, 2)"),
    ({"a": {1: 1, "1": 2}}, "read the same"),
])
def test_flatten_names_the_path_of_a_value_json_cannot_hold(bad, where):
    with pytest.raises(TypeError, match=re.escape(where)):
        flatten(bad)


def test_changed_lines_marks_removed_keys():
    old = flatten({"a": 1, "b": {"c": 2, "d": 3}})
    new = flatten({"a": 1, "b": {"c": 5}, "e": [1]})
    assert changed_lines(old, new) == ["b.c: 5", "e: [1]", f"b.d: {REMOVED}"]
    assert changed_lines(None, new) == ["a: 1", "b.c: 5", "e: [1]"]
    assert changed_lines(new, new) == []


# --- the text on the toy game -------------------------------------------------------------
def _blocks(text):
    return {b.splitlines()[0]: b for b in re.split(r"(?m)^(?===)", text) if b.startswith("==")}


def test_toy_playthrough_layout():
    game = load_game("toy", num_players=3, last_bonus=4)
    recorded = record_playthrough(game, 5)
    text = recorded.text()
    assert text == record_playthrough(game, 5).text()  # deterministic
    header = text.split("\n== ", 1)[0]
    assert "# Regenerate: citygames playthrough toy --seed 5 --players 3 --last-bonus=4" in header
    assert 'options: {"big_pile": false, "last_bonus": 4, "num_players": 3}' in header
    assert "num_distinct_actions: 4" in header
    blocks = _blocks(text)
    setup = blocks["== setup"]
    # the setup: events with their visibility, each viewer's observation in full, the shared part once
    assert re.search(r"(?m)^  public: The pile holds \d+ counters\.$", setup)
    for seat in range(3):
        assert re.search(rf"(?m)^  only seat {seat}: Seat {seat}'s secret bonus is \d\.$", setup)
    assert "observation, every viewer:\n  current: 0\n" in setup
    own = setup.split("observation, seat 1:\n", 1)[1].split("observation, seat 2:", 1)[0]
    assert re.search(r"(?m)^  bonus: \[null, \d, null\]$", own)  # only its own bonus
    spectator = setup.split("observation, spectator:\n", 1)[1]
    assert "  bonus: [null, null, null]" in spectator
    # a step: mover, legal ids with texts, the action, events, what changed
    step1 = blocks["== step 1: seat 0 to move"]
    legal = [f"  {a.id}: {s}" for a, s in
             ((a, game.new_initial_state(5).action_to_string(a)) for a in game.new_initial_state(5).legal_actions())]
    assert step1.split("legal actions (4):\n", 1)[1].startswith("\n".join(legal) + "\napplied: ")
    assert re.search(r"(?m)^applied: [0-3]: (take|grab) ", step1)
    assert re.search(r"(?m)^    toy.take player=0 \{\"n\": \d, \"penalty\": \d, \"pile\": \d+\}$", step1)
    assert "observation, every viewer:\n  current: 1\n" in step1
    # each seat's log holds its own secret: the new event sits at another index for the spectator
    assert "observation, seat 0:\n  log[2].data.n: " in step1 and "observation, spectator:\n  log[1].data.n: " in step1
    # the end: results and breakdowns
    end = blocks[f"== end after {len(recorded.steps) - 1} actions"]
    state = game.new_initial_state(5)
    state.apply_actions([s.applied[1] for s in recorded.steps[1:]])
    assert state.is_terminal()
    assert f"ranking: {state.ranking()}" in end and f"scores: {state.scores()}" in end
    assert "score breakdown, seat 2:\n  counters: " in end and '"secret bonus": ' in end
    assert recorded.events()[-1].kind == "toy.end"


def test_legal_actions_and_applied_action_are_the_seeded_draws():
    from citygames.core import Rng
    game = load_game("toy")
    recorded = record_playthrough(game, 9)
    state, rng = game.new_initial_state(9), Rng(9)
    for step in recorded.steps[1:]:
        legal = state.legal_actions()
        assert step.movers == (state.current_player(),)
        assert step.legal == ((state.current_player(), tuple((a.id, state.action_to_string(a)) for a in legal)),)
        action = legal[rng.randbelow(len(legal))]
        assert step.applied == (state.current_player(), action.id, state.action_to_string(action))
        state.apply_action(action)
    assert state.is_terminal()


# --- simultaneous moves -------------------------------------------------------------------
register_renderer("pick.pick", lambda e: f"Seat {e.player} picks {e.data['n']}.")
register_renderer("pick.reveal", lambda e: f"Picks revealed: {e.data['picks']}.")
PICKS = ActionSpace([("pick", 2, lambda arg: f"pick {arg}")])


class PickGame(Game):
    """Two seats secretly pick 0 or 1 at once, twice; a seat scores when the picks are equal."""

    info = GameInfo(id="pick", name="Pick", min_players=2, max_players=2, simultaneous_moves=True)
    action_space = PICKS

    def new_initial_state(self, seed: int = 0) -> "PickState":
        return PickState(self, seed)


class PickState(State):
    def __init__(self, game, seed):
        self.game, self.seed, self.history, self.log = game, seed, [], []
        self.round, self.picks, self.points = 1, {}, [0, 0]

    def players_to_move(self):
        return () if self.is_terminal() else tuple(s for s in (0, 1) if s not in self.picks)

    def current_player(self):
        return TERMINAL if self.is_terminal() else SIMULTANEOUS

    def is_terminal(self):
        return self.round > 2

    def legal_actions(self, player=None):
        return [] if player in self.picks or self.is_terminal() else list(PICKS.table)

    def apply_action(self, action: Action, player=None):
        self.picks[player] = action.arg
        self.history.append((player, action.id))
        self.log.append(Event("pick.pick", player, {"n": action.arg}, visible_to=player))
        if len(self.picks) == 2:
            same = self.picks[0] == self.picks[1]
            self.points[0 if same else 1] += 1
            self.log.append(Event("pick.reveal", None, {"picks": [self.picks[0], self.picks[1]]}))
            self.round, self.picks = self.round + 1, {}

    def observation(self, seat):
        return {"round": self.round, "points": self.points, "waiting_for": list(self.players_to_move()),
                "my_pick": self.picks.get(seat)}

    def scores(self):
        return list(self.points)

    def ranking(self):
        return sorted((0, 1), key=lambda s: -self.points[s])

    def returns(self):
        return [1.0 if s == self.ranking()[0] else 0.0 for s in (0, 1)] if self.is_terminal() else [0.0, 0.0]

    def score_breakdown(self, seat):
        return {"rounds": self.points[seat]}


def test_simultaneous_steps_list_every_movers_actions_and_the_first_mover_acts():
    text = record_playthrough(PickGame(), 1).text()
    step1 = _blocks(text)["== step 1: seat 0 and seat 1 to move"]
    assert "legal actions of seat 0 (2):\n  0: pick 0\n  1: pick 1\nlegal actions of seat 1 (2):\n" in step1
    assert re.search(r"(?m)^applied by seat 0: [01]: pick [01]$", step1)
    assert re.search(r"(?m)^  only seat 0: Seat 0 picks [01]\.$", step1)
    assert re.search(r"(?m)^observation, seat 0:\n  my_pick: [01]$", step1)  # hidden from the others
    assert "observation, seat 1:" not in step1 and "observation, spectator:" not in step1
    assert "== step 2: seat 1 to move" in text and "== end after 4 actions" in text


def test_a_line_break_in_a_text_stays_on_its_line():
    class Multiline(PickState):
        def action_to_string(self, action):
            return f"pick\n== {action.arg}"

    class MultilineGame(PickGame):
        def new_initial_state(self, seed=0):
            return Multiline(self, seed)

    text = record_playthrough(MultilineGame(), 1).text()
    assert "\n  0: pick\\n== 0\n" in text and "\n== 0" not in text


# --- comparing ------------------------------------------------------------------------------
def _stored(name):
    return (GOLDEN / name).read_text(encoding="utf-8")


def test_equal_texts_have_no_difference():
    text = _stored("seven_wonders_duel_seed7.txt")
    assert first_difference(text, text) is None


def test_a_changed_action_text_in_a_copy_is_reported_at_its_step():
    stored = _stored("the_capitals_2p_seed3.txt")
    blocks = stored.split("\n== ")
    # the first step after step 30 with at least three legal actions
    block = next(b for b in blocks[1:] if b.startswith("step ") and int(b.split(":")[0][5:]) > 30
                 and int(b.split("legal actions (")[1].split(")")[0]) >= 3)
    header, count = block.splitlines()[0], block.split("legal actions (")[1].split(")")[0]
    line = block.split("legal actions (")[1].splitlines()[3]  # the third legal action
    changed = stored.replace(block, block.replace(line, line + " (changed)", 1), 1)
    report = first_difference(stored, changed)
    assert report.startswith(f"first difference: {header}, under 'legal actions ({count}):'\n")
    assert f"  stored:    {line}\n  generated: {line} (changed)\n" in report  # lines as written (indented)
    actions = stored.count("\napplied: ")
    assert f"1 of {len(blocks)} blocks differ (stored: {actions} actions, generated: {actions})" in report
    assert f"-{line}\n+{line} (changed)" in report


def test_a_changed_observation_in_a_copy_is_reported_with_its_viewer():
    stored = _stored("seven_wonders_duel_seed24.txt")
    block = stored.split("\n== step 49: ", 1)[1].split("\n== ", 1)[0]
    assert "  library_draw: [0, 1, 6]" in block
    changed = stored.replace(block, block.replace("  library_draw: [0, 1, 6]", "  library_draw: [0, 1, 7]"), 1)
    report = first_difference(stored, changed)
    assert report.splitlines()[:3] == [
        "first difference: step 49: South (seat 1) to move, under 'observation, seat 1:'",
        "  stored:      library_draw: [0, 1, 6]",
        "  generated:   library_draw: [0, 1, 7]"]


def test_a_shorter_game_and_a_changed_header_are_reported():
    stored = _stored("seven_wonders_duel_seed7.txt")
    shorter = stored.split("\n== step 71: ", 1)[0] + "\n"
    report = first_difference(stored, shorter)
    assert report.startswith("first difference: step 71: ")
    assert "  generated: (nothing: the generated block ends here)" in report
    assert "(stored: 71 actions, generated: 70)" in report
    assert first_difference(stored, stored.replace("seed: 7", "seed: 8", 1)).startswith(
        "first difference: the header\n  stored:    seed: 7\n  generated: seed: 8")


def test_a_long_block_diff_is_cut():
    stored = _stored("the_capitals_2p_seed3.txt")
    setup = stored.split("\n== step 1: ", 1)[0].split("\n== setup\n", 1)[1]
    report = first_difference(stored, stored.replace(setup, setup.replace('"', "'")), max_diff_lines=10)
    assert report.startswith("first difference: setup, under 'events:'")
    assert re.search(r"\n\.\.\. \(\d+ more diff lines\)$", report)
    assert len(report.splitlines()) == 4 + 10 + 1


# --- a change in the engine is caught at its step (against the stored goldens) -------------
def test_a_changed_observation_is_caught_at_the_step_for_that_seat(monkeypatch):
    stored = _stored("the_capitals_2p_seed3.txt")
    state_class = type(load_game("the_capitals", num_players=2).new_initial_state(3))
    original = state_class.observation

    def observation(self, seat):
        obs = original(self, seat)
        if seat == 1 and len(self.history) >= 57:  # from step 57 on, seat 1 is shown one key more
            obs["players"][1]["tampered"] = True
        return obs

    monkeypatch.setattr(state_class, "observation", observation)
    report = first_difference(stored, record("the_capitals_2p_seed3.txt").text())
    assert re.match(r"first difference: step 57: \w+ \(seat \d\) to move, under 'observation, seat 1:'\n", report), report
    assert re.search(r"(?m)^\+  players\[1\]\.tampered: true$", report)  # the diff of that step shows it


def test_a_changed_action_text_is_caught_at_the_first_step_offering_it(monkeypatch):
    stored = _stored("seven_wonders_duel_seed7.txt")
    state_class = type(load_game("seven_wonders_duel").new_initial_state(7))
    original = state_class.action_to_string
    changed_id = 110  # an action first legal some way into the game

    def action_to_string(self, action):
        text = original(self, action)
        return text + " [changed]" if int(action) == changed_id else text

    first_step = next(n for n, block in enumerate(stored.split("\n== step ")[1:], start=1)
                      if f"\n  {changed_id}: " in block.split("\napplied")[0])
    monkeypatch.setattr(state_class, "action_to_string", action_to_string)
    report = first_difference(stored, record("seven_wonders_duel_seed7.txt").text())
    assert report.startswith(f"first difference: step {first_step}: "), report
    assert re.search(rf"(?m)^  generated:   {changed_id}: .* \[changed\]$", report)
    assert "under 'legal actions (" in report.splitlines()[0]


# --- the list of goldens --------------------------------------------------------------------
def test_index_and_golden_folder_agree():
    listed = set(golden_specs())
    stored = {p.name for p in GOLDEN.iterdir() if p.name != "INDEX"}
    assert listed == stored, "every golden file is listed in tests/golden/INDEX and vice versa"


def test_every_indexed_game_has_a_golden_test():
    tested = {"the_capitals", "seven_wonders_duel", "quadropolis", "between_two_cities"}  # tests/test_<game>_golden.py run golden_names(game)
    games = {args[0] for args in golden_specs().values()}
    assert games <= tested, "add a golden test module for " + ", ".join(sorted(games - tested))
    assert all(golden_names(g) for g in tested)


def test_each_golden_says_how_to_regenerate_it():
    for name, args in golden_specs().items():
        head = _stored(name).split("\n== ", 1)[0]
        regen = re.search(r"(?m)^# Regenerate: citygames playthrough (.*)$", head).group(1).split()
        assert sorted(regen) == sorted(args), name


def test_command_line_round_trips_options():
    game = load_game("the_capitals", num_players=3, prosperity=True)
    assert command_line(game, 4) == "citygames playthrough the_capitals --seed 4 --players 3 --prosperity"
