"""Data overrides (the reserved game option ``data_overrides``, ``citygames.core.data``) through the
public API: a changed data value changes the engine's behaviour for that game only, is recorded in
the game's options (records, replay, pickling), and bad keys or values are refused with a
suggestion. Positions are written as text (tests/duel_helpers.py, tests/capitals_helpers.py).
"""

from __future__ import annotations

import json
import pickle
import random

import pytest

import citygames
from citygames.core import GameOptionError, list_data_keys, parse_overrides, replay
from citygames.core.data import OVERRIDDEN

from capitals_helpers import GREEN, RED, BLUE, PURPLE, Position, act, slot
from duel_helpers import position as duel_position

PALISADE = "cards.yaml:cards[11].cost.coins"   # Age I, printed cost 2 coins (reference §4)


def duel(**overrides):
    return citygames.load_game("seven_wonders_duel", data_overrides=overrides)


def capitals(n: int = 4, **overrides):
    return citygames.load_game("the_capitals", num_players=n, data_overrides=overrides)


def construct_texts(s, name: str) -> list[str]:
    """The texts of the legal construct actions of card ``name``."""
    return [s.action_to_string(a) for a in s.legal_actions()
            if a.kind == "construct" and s.game.components.cards[a.arg].name == name]


# --- the engine plays with the overridden values, for that game only --------------------------------
def test_a_card_coin_cost_changes_the_price_shown_and_what_is_legal():
    text = duel_position(age=1, coins=(7, 7), accessible=["Palisade"])
    plain = citygames.load_game("seven_wonders_duel").state_from_position(text)
    assert construct_texts(plain, "Palisade") == ["construct Palisade for 2 coins"]
    dear = duel(**{"cards:cards[Palisade].cost.coins": 5}).state_from_position(text)
    assert construct_texts(dear, "Palisade") == ["construct Palisade for 5 coins"]
    poor = duel_position(age=1, coins=(4, 7), accessible=["Palisade"])
    assert construct_texts(duel(**{"cards:cards[Palisade].cost.coins": 5}).state_from_position(poor),
                           "Palisade") == []
    # the plain game loaded afterwards, in the same process, still reads the data files
    again = citygames.load_game("seven_wonders_duel").state_from_position(poor)
    assert construct_texts(again, "Palisade") == ["construct Palisade for 2 coins"]
    assert citygames.load_game("seven_wonders_duel").components.cards[11].coins == 2


def test_a_whole_mapping_can_be_replaced_with_a_yaml_flow_value():
    """Lumber Yard costs nothing (``cost: {}``): there is no ``cost.coins`` to set, but the whole
    cost can be given as a YAML flow mapping."""
    with pytest.raises(GameOptionError, match="no key 'coins'"):
        duel(**{"cards:cards[Lumber Yard].cost.coins": 1})
    g = duel(**{"cards:cards[Lumber Yard].cost": "{coins: 1}"})
    assert g.options["data_overrides"] == {"cards.yaml:cards[0].cost": {"coins": 1}}
    s = g.state_from_position(duel_position(age=1, accessible=["Lumber Yard"]))
    assert construct_texts(s, "Lumber Yard") == ["construct Lumber Yard for 1 coin"]


def test_a_tile_printed_cubes_change_its_activation_cost():
    """HU/IT activation example (ref §10.1): a tile with 1 printed cube costs 1 + 1 = 2 to activate;
    printed with 3 cubes it costs 3 + 1."""
    pos = Position(4, seed=17).seat(GREEN, culture=5, cubes=10).executive(GREEN, activations=2)
    plain = citygames.load_game("the_capitals", num_players=4).state_from_position(pos.text())
    three = capitals(**{"tiles:[Hotel].cubes": 3}).state_from_position(pos.text())
    assert plain.activation_cost(GREEN, slot(plain, 0, 0)) == 2
    assert three.activation_cost(GREEN, slot(three, 0, 0)) == 4
    three.apply_action(act(three, "activate", slot(three, 0, 0)))
    three.apply_action(act(three, "pay_cubes"))
    assert three.track(GREEN, "cubes") == 10 - 4


def test_cubes_per_prestige_changes_the_final_scoring():
    """HU/IT final scoring example (ref §11 ex. #3): 9 cubes on the plant give 2 prestige at 4 cubes
    per prestige, 3 at 3 cubes per prestige."""
    pos = Position(4, seed=40).order(GREEN, RED, BLUE, PURPLE).seat(GREEN, cubes=9).final()
    plain = citygames.load_game("the_capitals", num_players=4).state_from_position(pos.text())
    three = capitals(**{"board:final_scoring.cubes_per_prestige": "3"}).state_from_position(pos.text())
    assert plain.is_terminal() and three.is_terminal()
    assert plain.score_breakdown(GREEN)["energy_cubes"] == 2
    assert three.score_breakdown(GREEN)["energy_cubes"] == 3
    assert three.scores()[GREEN] == plain.scores()[GREEN] + 1


# --- keys: one canonical form ------------------------------------------------------------------
@pytest.mark.parametrize("key", [
    "cards.yaml:cards[11].cost.coins", "cards:cards[11].cost.coins", "cards:cards[Palisade].cost.coins",
    "CARDS.yaml:cards[palisade].cost.coins", " cards : Cards[ palisade ].Cost.coins ",
])
def test_every_spelling_of_a_key_gives_the_canonical_key_and_the_same_game(key):
    g = duel(**{key: 4})
    assert g.options["data_overrides"] == {PALISADE: 4}
    assert g is duel(**{PALISADE: 4})


def test_keys_by_id_name_or_index_and_the_options_sorted_by_key():
    g = capitals(**{"tiles:[Royal Cinema].cubes": 2, "power_plants:levels[0].activations": "2",
                    "board:final_scoring.exchanged_cubes_return": "false",
                    "tiles.yaml:[prescott_pharmaceuticals].cubes": 3})
    assert list(g.options) == ["num_players", "prosperity", "refill_variant", "data_overrides"]
    assert g.options["data_overrides"] == {
        "board.yaml:final_scoring.exchanged_cubes_return": False,
        "power_plants.yaml:levels[0].activations": 2,
        "tiles.yaml:[prescott_pharmaceuticals].cubes": 3,
        "tiles.yaml:[royal_cinema].cubes": 2,
    }
    assert list(g.options["data_overrides"]) == sorted(g.options["data_overrides"])
    c = g.components
    assert c.tile_by_id["royal_cinema"].cubes == 2 and c.tile_by_id["prescott_pharmaceuticals"].cubes == 3
    assert [p.activations for p in c.plants if p.level == 2] == [2] * 5
    assert c.exchanged_cubes_return is False
    keys = list_data_keys("the_capitals")
    assert set(g.options["data_overrides"]) <= set(keys)
    assert "board.yaml:final_scoring.cubes_per_prestige" in keys and PALISADE in list_data_keys("seven_wonders_duel")


def test_a_text_value_stays_a_text_and_no_overrides_change_nothing():
    g = capitals(**{"board:initiative.final_payment": "own_cost"})
    assert g.components.final_payment == "own_cost"
    plain = citygames.load_game("the_capitals", num_players=4)
    assert capitals() is plain and citygames.load_game("the_capitals", data_overrides=None) is plain
    assert "data_overrides" not in plain.options and plain.data_key == ()


# --- records, replay, pickling -----------------------------------------------------------------
def _random_state(game, seed: int, steps: int):
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply_action(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("game_id, overrides", [
    ("the_capitals", {"tiles:[hotel].cubes": 3, "board:final_scoring.cubes_per_prestige": 3}),
    ("seven_wonders_duel", {"cards:cards[Palisade].cost.coins": 0, "wonders_tokens:wonders[The Pyramids].vp": 12}),
])
def test_the_record_carries_the_overrides_and_replays(game_id, overrides):
    g = citygames.load_game(game_id, data_overrides=overrides)
    s = _random_state(g, seed=5, steps=400)
    record = json.loads(json.dumps(s.record()))
    assert record["options"]["data_overrides"] == g.options["data_overrides"]
    again = replay(record)
    assert again.game is g
    assert again.observation(None) == s.observation(None) and again.scores() == s.scores()
    plain_record = _random_state(citygames.load_game(game_id), seed=5, steps=10).record()
    assert "data_overrides" not in plain_record["options"]
    copy = pickle.loads(pickle.dumps(s))
    assert copy.game is g and copy.observation(None) == s.observation(None)


# --- bad keys and values -----------------------------------------------------------------------
@pytest.mark.parametrize("overrides, message", [
    ({"tiles:[hotell].cubes": 3}, r"no item 'hotell'.*did you mean tiles.yaml:\[hotel\].cubes\?"),
    ({"tiles:[hotel].cubs": 3}, r"no key 'cubs'.*did you mean tiles.yaml:\[hotel\].cubes\?"),
    ({"tile:[hotel].cubes": 3}, r"no data file 'tile'.*did you mean tiles.yaml:\[hotel\].cubes\?"),
    ({"final_scoring.cubes_per_prestige": 3}, r"FILE:PATH.*did you mean board.yaml:final_scoring.cubes_per_prestige\?"),
    ({"board:final_scoring.cubes_per_prestig": 3}, r"did you mean board.yaml:final_scoring.cubes_per_prestige "),
    ({"power_plants:levels[9].activations": 1}, r"power_plants.yaml:levels has no item '9'"),
    ({"board:final_scoring.cubes_per_prestige.x": 1}, r"is a single value"),
    ({"board:final_scoring.cubes_per_prestige": "three"}, r"has an integer \(4\), got a text \('three'\)"),
    ({"board:final_scoring.cubes_per_prestige": True}, r"has an integer \(4\), got a true/false value"),
    ({"board:final_scoring.exchanged_cubes_return": 1}, r"has a true/false value \(True\), got an integer"),
    ({"board:initiative.final_payment": 3}, r"has a text .* got an integer"),
    ({"board:era_of_round": "{a: 1}"}, r"has a list .* got a mapping"),
    ({"board:initiative.final_payment": "own"}, r"does not load: ValueError: unknown final_payment rule 'own'"),
    ({"board:final_scoring": "{}", "board:final_scoring.cubes_per_prestige": 3}, r"overlap"),
    ({"board:final_scoring.cubes_per_prestige": 3, "board.yaml:Final_Scoring.cubes_per_prestige": 4},
     r"both name board.yaml:final_scoring.cubes_per_prestige"),
    ({"board:final_scoring.cubes_per_prestige": "[1"}, r"is not a YAML value"),
])
def test_bad_keys_and_values_raise_game_option_error(overrides, message):
    with pytest.raises(GameOptionError, match=message):
        capitals(**overrides)


def test_data_overrides_must_be_a_mapping_and_other_options_stay_checked():
    with pytest.raises(GameOptionError, match="must be a mapping"):
        citygames.load_game("the_capitals", data_overrides=["tiles:[hotel].cubes=3"])
    with pytest.raises(GameOptionError, match="unknown option"):
        citygames.load_game("the_capitals", colour="red", data_overrides={"tiles:[hotel].cubes": 3})


def test_a_failed_override_leaves_later_games_intact():
    with pytest.raises(GameOptionError):
        capitals(**{"board:initiative.final_payment": "own"})
    assert citygames.load_game("the_capitals", num_players=4).components.final_payment == \
        "own_cost_times_own_multiplier"


# --- the assumptions and the rules summary ------------------------------------------------------
def test_an_overridden_assumed_value_is_listed_as_overridden():
    plain = citygames.load_game("the_capitals", num_players=4).components.assumptions
    hotel = [a for a in plain if a.file == "tiles.yaml" and a.path == "[hotel].cubes"]
    assert [a.status for a in hotel] == ["assumed"]
    g = capitals(**{"tiles:[hotel].cubes": 3, "board:final_scoring.cubes_per_prestige": 3})
    got = {(a.file, a.path): a for a in g.components.assumptions}
    assert got["tiles.yaml", "[hotel].cubes"].status == OVERRIDDEN
    assert got["tiles.yaml", "[hotel].cubes"].value == 3
    assert "file value 1, assumed" in got["tiles.yaml", "[hotel].cubes"].source
    assert got["board.yaml", "final_scoring.cubes_per_prestige"].status == OVERRIDDEN   # was confirmed
    assert len(g.components.assumptions) == len(plain) + 1
    # a replaced list drops the marks inside it
    g2 = capitals(**{"board:initiative.cost": "[4, 3, 2, 2, 1, 0]"})
    paths = [a.path for a in g2.components.assumptions if a.file == "board.yaml"]
    assert "initiative.cost" in paths and not any(p.startswith("initiative.cost[") for p in paths)
    rules = g.describe_rules()
    assert "Data overrides in effect (2)" in rules
    assert "tiles.yaml:[hotel].cubes = 3 (file value 1, assumed" in rules
    assert "Data overrides" not in citygames.load_game("the_capitals").describe_rules()
    duel_rules = duel(**{"cards:cards[Palisade].cost.coins": 5}).describe_rules(assumptions=True)
    assert f"{PALISADE} = 5 (file value 2, confirmed)" in duel_rules
    assert f"{PALISADE} = 5 [overridden]" in duel_rules


def test_the_board_text_shows_the_overridden_cost():
    text = duel_position(age=1, coins=(7, 7), accessible=["Palisade"])
    s = duel(**{"cards:cards[Palisade].cost.coins": 5}).state_from_position(text)
    board = s.game.render_text(s, 0)
    assert "construct for 5 coins" in board and "$5" in board


# --- the command line ---------------------------------------------------------------------------
def test_parse_overrides():
    assert parse_overrides(["tiles.yaml:[hotel].cubes=3", "cards:cards[0].cost = {coins: 1}"]) == {
        "tiles.yaml:[hotel].cubes": "3", "cards:cards[0].cost": "{coins: 1}"}
    assert parse_overrides(["board:a.b=x=y"]) == {"board:a.b": "x=y"}
    with pytest.raises(ValueError, match="not KEY=VALUE"):
        parse_overrides(["tiles.yaml:[hotel].cubes"])
    with pytest.raises(ValueError, match="key before '=' is empty"):
        parse_overrides(["=3"])
    with pytest.raises(ValueError, match="given twice"):
        parse_overrides(["a:b=1", "a:b=2"])


def test_cli_rules_with_set(run):
    result = run("rules", "the_capitals", "--assumptions", "--set", "tiles:[hotel].cubes=3",
                 "--set", "prosperity=true")
    assert result.exit_code == 0, result.output
    assert "prosperity = True" in result.output
    assert "Data overrides in effect (1)" in result.output
    assert "tiles.yaml:[hotel].cubes = 3 [overridden] file value 1, assumed" in result.output


@pytest.mark.parametrize("args, message", [
    (["rules", "the_capitals", "--set", "tiles:[hotle].cubes=3"], "did you mean tiles.yaml:[hotel].cubes?"),
    (["rules", "the_capitals", "--set", "tiles:[hotel].cubes"], "is not KEY=VALUE"),
    (["rules", "the_capitals", "--set", "board:final_scoring.cubes_per_prestige=x"], "got a text ('x')"),
    (["rules", "the_capitals", "--set", "board:initiative.final_payment=own"], "unknown final_payment rule"),
    (["rules", "the_capitals", "--prosperity", "--set", "prosperity=false"], "disagree"),
    (["bench", "seven_wonders_duel", "--seconds", "0.1", "--set", "cards:cards[Palisad].cost.coins=3"],
     "did you mean cards.yaml:cards[11].cost.coins (Palisade)"),
])
def test_cli_bad_set_exits_2_with_one_line(run, args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and message in errors[0], result.output


def test_cli_bench_with_set(run):
    result = run("bench", "seven_wonders_duel", "--seconds", "0.3", "--set", "cards:cards[Palisade].cost.coins=3")
    assert result.exit_code == 0, result.output
    assert "data_overrides={'cards.yaml:cards[11].cost.coins': 3}" in result.output


def test_only_the_most_recent_variants_are_kept():
    """A sweep over many variants in one process does not keep every variant's game alive."""
    from citygames.core import registry
    first = capitals(**{"board:final_scoring.money_per_prestige": 1})
    for v in range(2, registry.MAX_VARIANTS + 3):
        capitals(**{"board:final_scoring.money_per_prestige": v})
    again = capitals(**{"board:final_scoring.money_per_prestige": 1})
    assert again is not first and again.options == first.options
    assert again.components.money_per_prestige == 1
    assert citygames.load_game("the_capitals", num_players=4).components.money_per_prestige != 1
