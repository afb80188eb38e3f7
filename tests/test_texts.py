"""The wording of the games' texts (issue 15, item 8), read through the public API: seeded random
games, the text of every legal action at every step, every log sentence and the terminal board of
7 Wonders Duel. No count of 1 with a plural noun ("1 cubes", "+1 coins"), no sentence that starts in
lower case after a full stop, and the 7 Wonders Duel discard reads as a gain, not as a price."""
from __future__ import annotations

import re

import pytest
from rich.text import Text

from citygames.core.registry import load_game
from citygames.core.rng import Rng

#: "1" (or "+1", "-1", "$1") followed by a word ending in s, perhaps after a participle or one of a few
#: adjectives ("1 revealed wonders"); a digit, letter or dot before the 1 (12, r1c1, 0.1) makes it
#: another number
ONE_PLURAL = re.compile(r"(?<![\w.,])1 (?:[a-z]+ed |more |other |free |empty |energy )?([a-z]+s)\b")
#: words ending in s that are no plurals: "row 1 is", "Round 1 begins", resources and tracks
NOT_PLURALS = {"is", "begins", "glass", "papyrus", "progress"}
#: a full stop, a space, then a lower-case letter ("Technotech Inc." is a tile's name)
LOWER_START = re.compile(r"(?<!Inc)\. [a-z]")

GAMES = [
    ("the_capitals", {"num_players": 4}, 7),
    ("the_capitals", {"num_players": 5, "prosperity": True}, 3),
    ("seven_wonders_duel", {}, 7),
    ("seven_wonders_duel", {}, 24),
    ("quadropolis", {"num_players": 4}, 7),
    ("between_two_cities", {"num_players": 5, "capitals": True}, 8),
]


def _defects(text: str) -> list[str]:
    """The wording defects of ``text``, each with a little of its context."""
    out = [f"count 1 with a plural: {text[max(0, m.start() - 30):m.end() + 10]!r}"
           for m in ONE_PLURAL.finditer(text) if m.group(1) not in NOT_PLURALS]
    out += [f"lower case after a full stop: {text[max(0, m.start() - 30):m.end() + 10]!r}"
            for m in LOWER_START.finditer(text)]
    return out


def _play(game_id: str, options: dict, seed: int, board_every_step: bool = False):
    """Play a seeded random game; return (the game, its final state, every legal action text met,
    the plain terminal boards rendered for seat 0 if ``board_every_step``)."""
    game = load_game(game_id, **options)
    state, rng = game.new_initial_state(seed), Rng(seed)
    texts, boards = [], []
    while not state.is_terminal():
        for p in state.players_to_move():
            texts += [state.action_to_string(a) for a in state.legal_actions(p)]
        if board_every_step:
            boards.append(Text.from_markup(game.render_text(state, 0)).plain)
        p = state.players_to_move()[0]
        legal = state.legal_actions(p)
        state.apply_action(legal[rng.randbelow(len(legal))], player=p)
    return game, state, texts, boards


@pytest.mark.parametrize(("game_id", "options", "seed"), GAMES, ids=lambda v: str(v))
def test_action_texts_and_log_have_no_wording_defects(game_id, options, seed):
    _, state, texts, _ = _play(game_id, options, seed)
    log = [e.text for e in state.log_for(None)]
    assert texts and log
    bad = sorted({d for t in texts + log for d in _defects(t)})
    assert not bad, "\n".join(bad[:20])


def test_the_defect_patterns_catch_the_old_wording():
    """The checks above can fail: the sentences of the issue are caught, their fixes are not."""
    for old in ("next level-2 plant brings 1 cubes", "one of the 1 revealed wonders", "gains +1 coins",
                "Green has the lowest. the green tourist goes to Red."):
        assert _defects(old), old
    for new in ("next level-2 plant brings 1 cube", "row 1 is reached", "Round 1 begins", "1 papyrus, 1 glass",
                "activate Technotech Inc. at (0, 1)", "Green has the lowest. The green tourist goes to Red."):
        assert not _defects(new), new


def test_duel_discard_reads_as_a_gain_and_the_last_wonder_of_a_draft_is_named_so():
    _, state, texts, boards = _play("seven_wonders_duel", {}, 7, board_every_step=True)
    discards = [t for t in texts if t.startswith("discard ")]
    assert discards and all(re.fullmatch(r"discard .+ to gain \d+ coins?", t) for t in discards), discards[:3]
    logged = [e.text for e in state.log_for(None) if e.kind.endswith(".discard")]
    assert logged and all(re.fullmatch(r"\w+ discards .+ and gains \d+ coins?\.", t) for t in logged), logged[:3]
    assert any("must take the last revealed wonder" in b for b in boards)
    assert not any(d for b in boards for d in _defects(b) if d.startswith("count 1"))


def test_capitals_tourism_sentence_starts_with_a_capital():
    _, state, _, _ = _play("the_capitals", {"num_players": 4}, 7)
    moved = [e.text for e in state.log_for(None) if e.kind == "capitals.tourism" and "tourist goes" in e.text]
    assert moved and all(re.search(r"\. The \w+ tourist goes to", t) for t in moved), moved[:2]


def test_capitals_board_names_every_shortened_tile_in_full():
    """A city cell holds 12 characters: the board names in full every tile whose cell shortens it."""
    game, state, _, _ = _play("the_capitals", {"num_players": 5, "prosperity": True}, 3)
    board = Text.from_markup(game.render_text(state, 0)).plain
    cities = state.observation(0)["players"]
    comps = game.components
    shortened = {comps.tile_by_id[t["tile"]] for pl in cities for t in pl["city"]}
    shortened = {t for t in shortened if len(t.name) > 12}
    assert shortened
    legend = " ".join(ln.strip() for ln in board.splitlines())
    for tile in shortened:
        assert f"= {tile.name}" in legend, tile.name
