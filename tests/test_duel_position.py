"""7 Wonders Duel positions as text (``citygames/games/seven_wonders_duel/POSITION.md``): the notation round-trips
every state of random games (same text, observations, legal actions and play), a seat's view reads back into a
state that seat cannot tell from the real one, a game started from a position replays from its record, and every
rule the parser checks raises ``PositionError`` naming the line and the rule.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from duel_helpers import board, coins, construct, game, phase, position, state

import citygames
from citygames import PositionError
from citygames.core import Rng
from citygames.games.seven_wonders_duel import position as notation
from play_helpers import random_states as _random_states  # noqa: E402

OPTION_SETS = ({}, {"first_game_wonders": True}, {"next_age_chooser": "first_print"})
PACKAGE = Path(notation.__file__).parent


def random_states(options: dict, seeds, every: int = 1):
    """States of seeded random games (each ``every``-th one, the last always), with the game's actions."""
    return _random_states(game(**options), seeds, every)


# ==============================================================================================
# round trips
# ==============================================================================================
@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "first_game", "first_print"])
def test_round_trip_of_random_states(options):
    """Every state of 12 random games (draft, every decision, the end): ``parse(write(s))`` writes the same text,
    gives the same observation to both seats and a spectator, the same legal actions, the same action texts and
    scores."""
    g = game(**options)
    n = 0
    for s in random_states(options, range(12)):
        text = s.position()
        t = g.state_from_position(text)
        assert t.position() == text
        for seat in (0, 1, None):
            assert t.observation(seat) == s.observation(seat)
        assert t.legal_actions() == s.legal_actions()
        assert [t.action_to_string(a) for a in t.legal_actions()] == [s.action_to_string(a) for a in s.legal_actions()]
        assert (t.current_player(), t.is_terminal(), t.scores(), t.returns()) == \
            (s.current_player(), s.is_terminal(), s.scores(), s.returns())
        n += 1
    assert n > 12 * 50


@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "first_game", "first_print"])
def test_a_state_from_a_position_plays_on_identically(options):
    """From positions taken along random games, the same actions give the same positions, observations and
    log sentences to the end (the hidden parts are all in the text)."""
    g = game(**options)
    for s in random_states(options, range(100, 106), every=9):
        t = g.state_from_position(s.position())
        u = s.clone()
        rng = Rng(len(s.history))
        while not u.is_terminal():
            legal = u.legal_actions()
            assert t.legal_actions() == legal
            a = legal[rng.randbelow(len(legal))]
            n, m = len(u.log), len(t.log)
            u.apply_action(a)
            t.apply_action(a)
            assert [e.text for e in t.log[m:]] == [e.text for e in u.log[n:]]
            assert t.position() == u.position()
        assert t.observation(None) == u.observation(None)


def test_a_seats_view_reads_back_into_a_state_it_cannot_tell_apart():
    """``write(s, seat)`` leaves out what the seat does not see (P24): no seed, face-down cards as ``[?]``, no
    hidden lines, another seat's Great Library draw as ``?``; parsed back, the hidden parts are dealt anew and
    the seat's observation, the legal actions of its decisions and their texts are the real ones."""
    g = game()
    library = 0
    for s in random_states({}, range(20, 30), every=3):
        for seat in (0, 1):
            view = notation.write(s, seat)
            assert "seed:" not in view and "# hidden" not in view and " deck:" not in view
            face_down = [o["slot"] for o in s.observation(seat)["structure"] if not o["face_up"]]
            assert view.count("[?") == len(face_down)
            t = g.state_from_position(view)
            assert t.observation(seat) == s.observation(seat)
            if s.current_player() == seat:
                assert t.legal_actions() == s.legal_actions()
                assert [t.action_to_string(a) for a in t.legal_actions()] == \
                    [s.action_to_string(a) for a in s.legal_actions()]
            if phase(s) == "library" and s.current_player() != seat:
                library += 1
                assert "library draw: ?, ?, ?" in view
    assert library > 0


def test_a_game_from_a_position_replays_from_its_record():
    """core contract: a state built from a position has no history and log, its record carries the text, and
    ``citygames.replay`` rebuilds the game from it."""
    text = position(age=2, city=(["Baths"], ["Quarry", "Stone Pit"]), accessible=["Aqueduct"])
    s = game().state_from_position(text)
    assert s.history == [] and s.log == []
    construct(s, "Aqueduct")      # free through the Baths' chain
    rng = Rng(3)
    for _ in range(6):
        s.apply_action(rng.choice(s.legal_actions()))
    rec = s.record()
    assert rec["position"] == text
    r = citygames.replay(rec)
    assert r.position() == s.position() and r.observation(None) == s.observation(None)
    assert r.record() == rec


def test_the_documented_examples_are_valid_positions():
    """The examples of POSITION.md and of the module docstring read, and write back as written (up to the lines
    the writer adds)."""
    md = (PACKAGE / "POSITION.md").read_text().split("```")[1]
    doc = "\n".join(ln[4:] for ln in notation.__doc__.split("::", 1)[1].split("\n\n")[1].splitlines())
    assert md.strip() == doc.strip()
    s = game().state_from_position(md)
    written = s.position()
    for ln in md.strip().splitlines():
        assert ln in written.splitlines(), ln
    assert phase(s) == "play" and s.current_player() == 0 and coins(s) == [9, 4]
    assert board(s) == ["Economy", "Law", "Strategy", "Theology", "Urbanism"]


def test_hidden_parts_left_out_are_dealt_from_the_seed():
    """A position without its hidden lines is completed from its seed line: the same seed deals the same cards,
    another seed other ones; every card of each age ends up in exactly one place."""
    text = position(age=2, city=(["Baths", "Quarry"], ["Clay Pool"]))
    a = game().state_from_position(text)
    b = game().state_from_position(text)
    c = game().state_from_position(text.replace("seed: 0", "seed: 1"))
    assert a.position() == b.position()
    assert a.position().split("# hidden")[1] != c.position().split("# hidden")[1].replace("seed: 1", "seed: 0")
    assert a.observation(0) == c.observation(0) and a.observation(1) == c.observation(1)


# ==============================================================================================
# validation: each rule broken raises PositionError naming the line and the rule
# ==============================================================================================
BASE = position(age=2, coins=(7, 7), city=(["Lumber Yard", "Baths"], ["Quarry"]), pawn=1,
                built=(["The Pyramids"], []), discard=["Tavern"], accessible=["Aqueduct"])


def line_no(text: str, start: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), start=1) if ln.strip().startswith(start))


def broken(old: str, new: str, text: str = BASE) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def check_error(text: str, *fragments: str, line: str | None = None, options: dict | None = None):
    with pytest.raises(PositionError) as e:
        game(**(options or {})).state_from_position(text)
    msg = str(e.value)
    for f in fragments:
        assert f in msg, msg
    if line is not None:
        n = line_no(text, line)
        assert msg.startswith((f"line {n} ", f"line {n}:")), msg
    return msg


def test_the_base_of_the_error_cases_is_valid():
    s = game().state_from_position(BASE)
    assert s.position()


def test_unknown_names_and_lines():
    check_error(broken("city: Lumber Yard", "city: Lumberyard"), "unknown card 'Lumberyard'", line="city: Lumberyard")
    check_error(broken("wonders: The Pyramids", "wonders: The Pyramid"), "unknown wonder", line="wonders: The Pyramid")
    check_error(broken("progress tokens on the board: Agriculture", "progress tokens on the board: Farming"),
                "unknown progress token 'Farming'", line="progress tokens on the board")
    check_error(broken("extra turn: no", "extra turns: no"), "unknown line 'extra turns'", line="extra turns")
    check_error(broken("  coins: 7", "  gold: 7"), "unknown line 'gold'", line="gold")
    check_error(broken("extra turn: no", "extra turn: no\nextra turn: no"), "given twice")
    check_error(broken("first player: North\n", ""), "missing line 'first player'")
    check_error(broken("extra turn: no", "extra turn no"), "expected 'key: value'")
    check_error(broken("first player: North", "first player: East"), "expected North or South", line="first player")


def test_game_and_options_must_be_the_loaded_games():
    check_error("game: the_capitals\n" + BASE, "this is seven_wonders_duel", line="game")
    check_error("options: next_age_chooser=first_print\n" + BASE, "next_age_chooser=first_print, but the game",
                line="options")
    check_error("options: colour=red\n" + BASE, "unknown option", line="options")
    check_error("options: num_players=2, num_players=2\n" + BASE, "option num_players is given twice", line="options")
    check_error(re.sub(r"(?m)^seed: .*$", "seed: x", BASE), "whole number (the seed)", line="seed")
    assert game(next_age_chooser="first_print").state_from_position("options: next_age_chooser=first_print\n" + BASE)


def test_a_card_in_two_places():
    msg = check_error(broken("discard pile: Tavern", "discard pile: Tavern, Baths"), "Baths is already in North's city",
                      "a card is in one place only", line="discard pile")
    assert f"(line {line_no(BASE, 'city: Lumber Yard')})" in msg
    check_error(broken("discard pile: Tavern", "discard pile: Tavern, Aqueduct"),
                "Aqueduct is already in the structure", line="discard pile")


def test_cards_of_ages_not_begun():
    check_error(broken("city: Lumber Yard", "city: Palace, Lumber Yard"), "Palace is an Age III card",
                "the ages are played in order", line="city: Palace")
    check_error(broken("discard pile: Tavern", "discard pile: Merchants Guild"), "Age III card",
                line="discard pile")
    row = next(ln for ln in BASE.splitlines() if "Aqueduct" in ln)
    check_error(broken(row, row.replace("Aqueduct", "Stable")), "Stable is an Age I card, not an Age II card")


def test_the_structure_follows_the_layout():
    """ref §5: rows and slot counts of the age's layout; a taken slot is never covered; a covered card is never
    face up unless dealt so (a covered card cannot be made accessible); between turns no uncovered card stays
    face down (P23); a row dealt face up has no face-down card."""
    rows = [ln for ln in BASE.splitlines() if ln.startswith("  row ")]
    check_error(broken(rows[4], rows[4] + ", Statue"), "row 5 of the Age II structure has 2 slots, got 3",
                line="row 5")
    check_error(broken(rows[4] + "\n", ""), "rows 1 to 5")
    # row 2 is dealt face down and still covered by row 3: a named face-up card there is a covered card shown
    covered = rows[1].replace("[?]", "Statue", 1)
    check_error(broken(rows[1], covered), "Statue is face up but still covered", "P23", line="row 2")
    check_error(broken(rows[0], rows[0].replace(rows[0].split(": ")[1].split(", ")[0], "-", 1)),
                "slot 1 is taken but a card that covers it is still there", line="row 1")
    check_error(broken(rows[0], rows[0].replace(": ", ": [", 1).replace(",", "],", 1)), "dealt face up",
                line="row 1")
    check_error(broken(rows[1], rows[1].replace("[?]", "[? guild]", 1)), "guild backs are dealt in Age III only")
    check_error(broken("structure:", "structure: full"), "indented lines")


def test_an_uncovered_face_down_card_waits_only_behind_a_pending_choice():
    """P23: after a science pair (progress token pending) a card just uncovered may still be face down; in the
    play decision it may not."""
    text = position(age=2, city=(["Scriptorium"], []), rows=["row 1: Dispensary, Caravansery, Laboratory, Rostrum, "
                                                             "Customs House, Drying Room",
                                                             "row 2: [?], [?], [?], [?], [?]",
                                                             "row 3: Walls, Statue, Temple, Sawmill",
                                                             "row 4: [?], [?], [?]", "row 5: -, -"])
    check_error(text, "face down but no card covers it any more", "P23", line="row 4")
    assert game().state_from_position(text.replace("decision: play", "decision: progress_token"))


def test_coins_pawn_and_military_tokens():
    check_error(broken("  coins: 7", "  coins: -1"), "coins cannot be negative", "P13", line="coins: -1")
    check_error(broken("  coins: 7", "  coins: many"), "expected a whole number", line="coins: many")
    check_error(broken("conflict pawn: 1 toward South", "conflict pawn: 10 toward South"),
                "the track ends at each capital", line="conflict pawn")
    check_error(broken("conflict pawn: 1 toward South", "conflict pawn: 9 toward South"),
                "the pawn is in a capital: the game is over", "P14", line="conflict pawn")
    check_error(broken("conflict pawn: 1 toward South", "conflict pawn: one step"), "expected 0 or 'N toward",
                line="conflict pawn")
    text = broken("conflict pawn: 1 toward South", "conflict pawn: 4 toward South")
    text = text.replace("South:\n  coins: 7\n", "South:\n  coins: 7\n  military tokens: 2, 5\n")
    check_error(text, "the 2-coin token cannot still be on South's side", "§4.7", line="military tokens")
    check_error(BASE.replace("North:\n  coins: 7\n", "North:\n  coins: 7\n  military tokens: 3\n"),
                "expected the coins of tokens still there", line="military tokens")


def test_wonders():
    """§6.2: 4 wonders each after the draft; P8: at most 7 built, and after the 7th the last unbuilt one is out
    of the game; a wonder is held by one seat only."""
    check_error(broken("wonders: The Pyramids (", "wonders: The Sphinx, The Pyramids ("),
                "each player holds 4 wonders", line="wonders: The Sphinx")
    south = next(ln for ln in BASE.splitlines() if ln.startswith("  wonders:") and "Pyramids" not in ln)
    north = next(ln for ln in BASE.splitlines() if ln.startswith("  wonders:") and "Pyramids" in ln)
    steal = south.split(": ")[1].split(", ")[0]
    check_error(broken(north, north.rsplit(", ", 1)[0] + ", " + steal), f"{steal} is already North's",
                "a wonder is in one place only")
    eight = position(age=3, built=(["The Pyramids", "The Sphinx", "The Colossus", "The Great Lighthouse"],
                                   ["Piraeus", "The Appian Way", "Circus Maximus"]))
    assert "The Great Library (out of the game)" in eight and game().state_from_position(eight)
    check_error(eight.replace("The Great Library (out of the game)", "The Great Library (Palisade)"),
                "8 wonders are built: only 7 can be (P8)")
    check_error(eight.replace("The Great Library (out of the game)", "The Great Library"),
                "the last unbuilt one is out of the game (P8)")
    pyramids = north.split(": ")[1].split(", ")[0]
    check_error(broken(pyramids, "The Pyramids (out of the game)"),
                "a wonder leaves the game only when the 7th is built (P8)", line="wonders: The Pyramids")
    fixed = position(age=1)
    check_error(fixed, "the rulebook's fixed split", options={"first_game_wonders": True}, line="wonders")


def test_progress_tokens():
    check_error(BASE.replace("  progress tokens: none", "  progress tokens: Agriculture", 1),
                "Agriculture is already on line", "a progress token is in one place only")
    check_error(BASE + "progress tokens in the box: Mathematics, Philosophy\n",
                "is nowhere: each of the 10 progress tokens", line="progress tokens in the box")
    check_error(broken("progress tokens on the board: Agriculture", "progress tokens on the board: Philosophy, "
                       "Strategy, Agriculture"), "the board holds 5 progress tokens at most")


def test_draft_positions():
    """§6.2: the draft pool holds the wonders the picks so far leave, each seat holds what the order F S S F,
    S F F S gave it, and the right seat picks."""
    g = game()
    s = g.new_initial_state(4)
    text = s.position()
    assert g.state_from_position(text).position() == text
    first = s.observation(None)["first_player"]
    wrong = ("North", "South")[1 - first]
    check_error(text.replace(f"to move: {('North', 'South')[first]}", f"to move: {wrong}"),
                "takes the next wonder", line="to move")
    pool = next(ln for ln in text.splitlines() if ln.startswith("draft pool:"))
    check_error(text.replace(pool, pool.rsplit(",", 1)[0]), "so the pool holds 4", line="draft pool")
    check_error(text.replace("decision: draft", "decision: draft\nage: I"), "no age has begun during the wonder draft")
    check_error(text.replace("first_game_wonders=no", "first_game_wonders=yes"), "there is no draft",
                options={"first_game_wonders": True}, line="decision")


def test_pending_decisions_need_their_conditions():
    """P16: a token on the board; P11 / P10: the Great Library or the Mausoleum built by the player to move,
    a discard pile for the Mausoleum; P12: a card of the destroy colour; P9: an extra turn waits only behind a
    pending choice; P1: the right seat chooses the next starter."""
    check_error(position(decision="progress_token", board=[]), "no progress token is left on the board", "P16")
    draw = ["Mathematics", "Philosophy", "Strategy"]
    check_error(position(decision="library", library=draw), "must have built The Great Library", "P11")
    assert state(decision="library", library=draw, built=(["The Great Library"], []))
    check_error(position(decision="mausoleum", built=(["The Mausoleum"], [])), "the discard pile is empty", "P10")
    check_error(position(decision="mausoleum", discard=["Tavern"]), "must have built The Mausoleum", "P10")
    check_error(position(decision="destroy", destroy="brown", built=(["The Statue of Zeus"], [])),
                "South has no brown card", "P12", line="destroy colour")
    check_error(position(decision="destroy", destroy="green", built=(["The Statue of Zeus"], [])),
                "expected brown or grey", line="destroy colour")
    check_error(position(decision="destroy", destroy="grey", city=([], ["Press"])),
                "must have built Circus Maximus", line="destroy colour")
    check_error(position(extra=True), "an extra turn waits only behind a pending choice", "P9", line="extra turn")
    fresh = position(age=2, rows=None, decision="choose_starter", player=0, pawn=2, spare=1,
                     accessible=[]).replace("last card taken by: South", "last card taken by: North")
    fresh = fresh.replace("row 4: -, -, -", "row 4: [?], [?], [?]")
    check_error(fresh, "South chooses who starts Age II", "P1", line="to move")
    check_error(position(decision="play", only="Palisade", age=1).replace("row 1: Palisade, -", "row 1: -, -"),
                "all 20 cards of Age I are taken")
    check_error(position(age=1) + "last card taken by: North\n", "no card has been taken yet")


def test_the_end_and_its_victory():
    """§6.7, P14, P17, P22: a finished position names its winner and victory, consistent with the board."""
    end = position(age=3, only="Palace").replace("decision: play\nto move: North\nextra turn: no\n",
                                                "decision: end\nwinner: North\nvictory: military\n")
    check_error(end, "a military victory puts the pawn in the loser's capital")
    check_error(end.replace("victory: military", "victory: science"), "0 different science symbols, 6 win")
    check_error(end.replace("victory: military", "victory: civilian"), "once its 20 cards are taken")
    check_error(end.replace("victory: military", "victory: shared"), "a shared victory has no winner")
    done = end.replace("row 1: Palace, -", "row 1: -, -").replace("victory: military", "victory: civilian")
    check_error(done, "here nobody")   # nothing built, 7 coins each: a shared victory
    shared = done.replace("winner: North", "winner: nobody").replace("victory: civilian", "victory: shared")
    s = game().state_from_position(shared)
    assert s.is_terminal() and s.returns() == [0.5, 0.5] and s.legal_actions() == []
    check_error(shared + "to move: North\n", "nobody moves once the game is over")
    six = position(age=3, city=(["Workshop", "Apothecary", "Scriptorium", "Pharmacist", "Academy", "University"],
                                []))
    check_error(six, "North has 6 different science symbols: the game is over", "P17", line="city")
