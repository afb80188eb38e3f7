"""OpenSpiel games for every citygames game (``pyspiel`` Python games).

Importing this module registers every game of ``citygames.core.registered_games()`` with
``pyspiel`` under the short name ``python_citygames_<game id>``; load one as any OpenSpiel game::

    import pyspiel
    import citygames.adapters.openspiel  # registers the games
    game = pyspiel.load_game("python_citygames_the_capitals", {"players": 2, "prosperity": True})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)

(``serialize=True`` needs ``Game::GetRNGState``, which OpenSpiel 2.0 lets no Python game with sampled
chance provide; ``serialize_game_and_state`` below writes the same format.)

Parameters (``pyspiel`` game parameters): ``players`` (the number of seats, OpenSpiel's usual name
for the game's ``num_players``), every other option of the game with its default (bool, int or
str; ``citygames rules GAME`` lists them) and ``rng_seed`` (int, default 0): the k-th initial state
a game object deals (k = 0, 1, ...) is citygames game ``rng_seed + k``, the same deal as
``citygames play GAME --seed rng_seed+k``. A negative ``rng_seed`` starts from a random seed. The
game's data overrides (``--set``) have no OpenSpiel parameter: ``game_parameters`` refuses them.

``GameType``: dynamics ``SEQUENTIAL`` (``SIMULTANEOUS`` for a game with simultaneous steps);
chance ``SAMPLED_STOCHASTIC`` (all chance flows from the setup seed, so there are no chance nodes:
``max_chance_outcomes`` is 0); ``IMPERFECT_INFORMATION``; utility ``CONSTANT_SUM`` with the game's
``utility_sum`` (returns are 1 for the winner and 0 for the others, 0.5 each on a shared 7 Wonders
Duel victory; ``ZERO_SUM`` when the sum is 0, ``GENERAL_SUM`` when the game sets none); reward
model ``TERMINAL``; ``max_game_length`` is the game's own bound. Observation strings and tensors
and information-state strings are provided; information-state tensors are not.

Games with simultaneous steps (``GameInfo.simultaneous_moves``: Between Two Cities, whose seats choose
their tiles in secret) are OpenSpiel ``SIMULTANEOUS`` games with both kinds of nodes: at a secret
choice ``current_player()`` is ``pyspiel.PlayerId.SIMULTANEOUS`` (-2), ``legal_actions(p)`` is each
seat's own list and ``apply_actions([a_0, ..., a_{n-1}])`` applies one action per seat (the engine
records each as that seat's hidden choice and reveals them together); at a turn-based node (placing
the revealed tiles) ``current_player()`` is the seat and ``apply_action`` works as in a sequential
game, and ``apply_actions`` there applies the mover's entry and ignores the others (what OpenSpiel's
``rl_environment`` sends at every node of a simultaneous game). ``history()`` then holds every
seat's entry of a joint action in seat order (OpenSpiel's convention), where the engine's history
holds ``[seat, id]`` pairs. A seat with nothing to choose at a simultaneous node has no legal actions
and its entry is ignored (``evaluate_bots`` passes ``pyspiel.INVALID_ACTION`` for it; through this
adapter every seat chooses at every simultaneous node of Between Two Cities). Flat joint actions
(``legal_actions()`` without a seat at a simultaneous node, ``apply_action`` there) are not offered:
there are too many (up to 45 pairs per seat, so billions of joint actions at 7 seats) and
``apply_actions`` says the same; those calls raise ``ValueError``. OpenSpiel's ISMCTS bots search sequential games only.

A state wraps a citygames state (``engine_state(state)`` returns it):

- ``legal_actions()``: the ids (``game.encode``) of the legal actions, sorted; action strings are
  the engine's ``action_to_string`` (the action with its price or penalty in context);
- ``observation_tensor(player)``: the engine's ``observation_tensor(player)``, a float32 NumPy
  vector (OpenSpiel's C++ games give a list) of length ``game.observation_tensor_size()``, laid
  out as the game package's ``TENSOR.md`` says; the observer of ``make_py_observer`` also gives
  each named slice of the layout in ``dict``;
- ``observation_string(player)``: the seat's observation (``state.observation(player)``, what the
  browser and the bots read) as compact JSON with sorted keys;
- ``information_state_string(player)``: ``"seat P"``, then every log event the seat may see (its
  own private events included) as JSON, one per line, then the observation string. The visible
  log is the game's account of everything the seat has seen happen, so two states give the same
  string exactly when the seat cannot tell them apart; action ids are left out, since an id could
  name a choice another seat may not see;
- ``str(state)``: the spectator's terminal board (``game.render_text(state, None)``, rich markup
  removed): no hidden information;
- ``resample_from_infostate(player, sampler)``: the engine's ``resample(player, rng)`` with a
  ``citygames.core.Rng`` seeded from one draw of ``sampler``;
- ``state_from_record`` (``game.new_initial_state(record)``) groups a record's ``[seat, id]`` entries
  into joint actions (a simultaneous step left unfinished at the record's end is applied to the
  engine only: those choices are made, the others pending);
- cloning (``state.clone()``, and OpenSpiel's C++ ``Clone``) uses the engine's hand-written
  ``clone()``; serialization (``state.serialize()`` / ``game.deserialize_state``) carries the game
  record (``{game, version, options, seed, actions}``; a resampled state carries its full
  ``to_dict()`` instead, since its hidden parts no longer follow from the seed);
  ``serialize_game_and_state`` / ``deserialize_game_and_state`` add the game and where its
  sequence of deals stands, in the text format of ``pyspiel.serialize_game_and_state``; games
  and states pickle through them.

``CitygamesBot`` wraps a citygames bot (``random``, ``greedy``, ...) as a ``pyspiel.Bot`` (give it its
``player_id`` for a game with simultaneous steps), and
``ismcts_bot`` builds OpenSpiel's own ``ISMCTSBot`` (Python, ``open_spiel.python.algorithms``)
with a random-rollout evaluator, so both play through ``evaluate_bots``.

OpenSpiel's C++ ``pyspiel.ISMCTSBot`` cannot search these games: OpenSpiel's C++ side does not
call a Python game's ``resample_from_infostate``; use ``ismcts_bot`` (the Python ``ISMCTSBot``).
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable

import numpy as np
import pyspiel

from citygames.core import (
    DATA_OVERRIDES,
    SIMULTANEOUS,
    Game,
    GameOptionError,
    RecordError,
    Rng,
    State,
    load_game,
    registered_games,
    replay,
)
from citygames.core.records import check_record
from citygames.core.registry import game_info

__all__ = [
    "PREFIX", "short_name", "game_type", "game_parameters", "register", "register_all", "load",
    "CitygamesGame", "CitygamesState", "CitygamesObserver", "CitygamesBot", "engine_state", "ismcts_bot",
    "serialize_game_and_state", "deserialize_game_and_state",
]

#: the prefix of every citygames game's OpenSpiel short name
PREFIX = "python_citygames_"
#: the parameter seeding the sequence of initial states
SEED_PARAM = "rng_seed"
#: OpenSpiel's name of the number of players
PLAYERS_PARAM = "players"

_REGISTERED: dict[str, pyspiel.GameType] = {}
_CLASSES: dict[str, type] = {}


def short_name(game_id: str) -> str:
    """The OpenSpiel short name of a citygames game: ``"python_citygames_<game id>"``."""
    return PREFIX + game_id


def _game_options(info) -> list:
    """The game's options other than the number of players (OpenSpiel's ``players``)."""
    return [o for o in info.options if o.name != "num_players"]


def game_type(game_id: str) -> pyspiel.GameType:
    """The ``pyspiel.GameType`` of ``game_id`` (see the module docstring for each value).

    Its ``parameter_specification`` holds ``players`` (default: the game's default number of
    seats), every other option with its default, and ``rng_seed`` (0).

    Raises:
        GameOptionError: ``game_id`` is not a registered citygames game.
    """
    info = game_info(game_id)
    default_players = next((o.default for o in info.options if o.name == "num_players"), info.min_players)
    params: dict[str, Any] = {PLAYERS_PARAM: int(default_players)}
    for o in _game_options(info):
        params[o.name] = o.default
    params[SEED_PARAM] = 0
    if info.utility_sum is None:
        utility = pyspiel.GameType.Utility.GENERAL_SUM
    elif info.utility_sum == 0:
        utility = pyspiel.GameType.Utility.ZERO_SUM
    else:
        utility = pyspiel.GameType.Utility.CONSTANT_SUM
    dynamics = (pyspiel.GameType.Dynamics.SIMULTANEOUS if info.simultaneous_moves
                else pyspiel.GameType.Dynamics.SEQUENTIAL)
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"citygames {info.name}",
        dynamics=dynamics,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def game_parameters(game: Game) -> dict[str, Any]:
    """The OpenSpiel parameters of a citygames ``Game`` (without ``rng_seed``):
    ``{"players": n, option: value, ...}``, for ``pyspiel.load_game(short_name(id), params)``.

    Raises:
        ValueError: the game has data overrides, which OpenSpiel parameters cannot carry.
    """
    if DATA_OVERRIDES in game.options:
        raise ValueError(f"{game.info.id}: the OpenSpiel adapter takes no {DATA_OVERRIDES} "
                         f"(a game string cannot carry them); load the game without --set")
    params: dict[str, Any] = {PLAYERS_PARAM: game.num_players}
    for o in _game_options(game.info):
        params[o.name] = game.options[o.name]
    return params


def register(game_id: str) -> pyspiel.GameType:
    """Register ``game_id`` with ``pyspiel`` as ``python_citygames_<game id>`` (once; later calls
    return the same ``GameType``).

    Raises:
        GameOptionError: ``game_id`` is not a registered citygames game.
    """
    gtype = _REGISTERED.get(game_id)
    if gtype is None:
        gtype = game_type(game_id)
        # a class per game, not a closure: OpenSpiel keeps the factory in a C++ registry that is
        # destroyed after Python's finalization, and a class (unlike a function) is not freed then
        cls = type(f"CitygamesGame_{game_id}", (CitygamesGame,), {
            "game_id": game_id,
            "__doc__": f"``{short_name(game_id)}``: see ``CitygamesGame``.",
            "__init__": lambda self, params=None: CitygamesGame.__init__(self, type(self).game_id, params),
        })
        pyspiel.register_game(gtype, cls)
        _CLASSES[game_id] = cls
        _REGISTERED[game_id] = gtype
    return gtype


def register_all() -> list[str]:
    """Register every game of ``registered_games()`` (those already registered are skipped);
    return their OpenSpiel short names."""
    return [register(g).short_name for g in registered_games()]


def load(game_id: str, rng_seed: int = 0, **options) -> "CitygamesGame":
    """The OpenSpiel game of ``game_id`` with citygames options (``num_players=4``,
    ``prosperity=True``, ...), registering it first if needed; ``pyspiel.load_game`` with
    ``game_parameters``.

    Raises:
        GameOptionError: unknown options or bad values; ValueError: data overrides.
    """
    register(game_id)
    params = game_parameters(load_game(game_id, **options))
    params[SEED_PARAM] = int(rng_seed)
    return pyspiel.load_game(short_name(game_id), params)


class CitygamesGame(pyspiel.Game):
    """A citygames game as a ``pyspiel.Game`` (built by ``pyspiel.load_game``).

    Args:
        game_id: the citygames game id.
        params: the OpenSpiel parameters (``players``, the options, ``rng_seed``); missing ones
            take their defaults.

    Attributes:
        citygames_game: the citygames ``Game`` (rules and options).
        rng_seed: the seed of the first initial state; ``next_seed``: the seed the next new
            initial state will deal.

    Raises:
        GameOptionError: unknown options or bad values (e.g. ``players`` out of range).
        NotImplementedError: the game has no ``max_game_length`` or no observation tensor.
    """

    def __init__(self, game_id: str, params: dict | None = None):
        gtype = register(game_id)
        spec = gtype.parameter_specification
        given = dict(params or {})
        unknown = sorted(set(given) - set(spec))
        if unknown:
            raise GameOptionError(f"unknown parameter(s) {', '.join(unknown)} for {short_name(game_id)}; "
                                  f"known: {', '.join(spec)}")
        values = {k: given.get(k, v) for k, v in spec.items()}
        options = {o.name: values[o.name] for o in _game_options(game_info(game_id))}
        self.citygames_game = cg = load_game(game_id, num_players=int(values[PLAYERS_PARAM]), **options)
        seed = int(values[SEED_PARAM])
        self.rng_seed = seed
        self.next_seed = seed if seed >= 0 else random.SystemRandom().getrandbits(31)
        self._peeked: tuple[int, State] | None = None
        cg.observation_tensor_layout()  # fail here, not in the middle of OpenSpiel, without a tensor
        info = cg.info
        ginfo = pyspiel.GameInfo(
            num_distinct_actions=cg.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=cg.num_players,
            min_utility=float(info.min_utility),
            max_utility=float(info.max_utility),
            utility_sum=None if info.utility_sum is None else float(info.utility_sum),
            max_game_length=cg.max_game_length(),
        )
        super().__init__(gtype, ginfo, values)

    def deal(self, seed: int | None = None) -> State:
        """The citygames state of the next deal (setup seed ``next_seed``, which then advances),
        or of ``seed`` (advancing ``next_seed`` past it when it is the next one)."""
        if seed is None:
            seed = self.next_seed
        if seed == self.next_seed:
            self.next_seed += 1
        peeked = self._peeked
        if peeked is not None and peeked[0] == seed:
            self._peeked = None
            return peeked[1]
        return self.citygames_game.new_initial_state(seed)

    def peek(self) -> State:
        """The citygames state the next deal will be, without dealing it (kept until dealt; do
        not change it)."""
        peeked = self._peeked
        if peeked is None or peeked[0] != self.next_seed:
            peeked = self._peeked = (self.next_seed, self.citygames_game.new_initial_state(self.next_seed))
        return peeked[1]

    def new_initial_state(self, record=None) -> "CitygamesState":
        """A new game: the next deal of the sequence ``rng_seed``, ``rng_seed + 1``, ...

        The deal is drawn when the state is first used, so the states OpenSpiel builds internally
        (``clone``, deserialization) do not use up seeds. With ``record`` (a game record, as a
        dict or JSON text): the state that record describes instead (``state_from_record``).
        """
        if record is not None:
            return self.state_from_record(record)
        return CitygamesState(self)

    def state_from_record(self, record: dict | str) -> "CitygamesState":
        """The state a citygames game record describes (``{game, version, options, seed,
        actions}``, a dict or JSON text), its actions applied through OpenSpiel (so
        ``history()`` holds them).

        Raises:
            RecordError: the record is not one of this game with these options, or does not replay.
        """
        if isinstance(record, str):
            record = json.loads(record)
        check_record(record)
        cg = self.citygames_game
        if record["game"] != cg.info.id or load_game(record["game"], **record["options"]) is not cg:
            raise RecordError(f"the record is for {record['game']} {record['options']}, "
                              f"this game is {cg.info.id} {cg.options}")
        start = dict(record, actions=[])
        state = CitygamesState(self)
        engine = replay(start)
        state._h = _Engine(engine)
        n = cg.num_players
        joint: dict[int, int] = {}
        for entry in record["actions"]:
            if isinstance(entry, list):   # a choice of a simultaneous step: [seat, id]
                joint[entry[0]] = entry[1]
                if set(joint) >= set(engine.players_to_move()):
                    state.apply_actions([joint.get(p, pyspiel.INVALID_ACTION) for p in range(n)])
                    joint = {}
                continue
            if joint:
                raise RecordError(f"the record's choices {sorted(joint.items())} leave a simultaneous step "
                                  "unfinished before a turn-based action")
            state.apply_action(int(entry))
        for p, a in joint.items():   # an unfinished simultaneous step: those choices are made, secretly
            engine.apply_action(a, player=p)
        if joint:
            state._h.cache = {}
        return state

    def wrap(self, engine: State, exact: bool = False) -> "CitygamesState":
        """An OpenSpiel state around the citygames state ``engine`` of this game, with an empty
        OpenSpiel ``history()`` (``state_from_record`` rebuilds one with its history).
        ``exact``: ``engine.record()`` replays it (it is not a resampled state)."""
        state = CitygamesState(self)
        state._h = _Engine(engine, exact)
        return state

    def __reduce__(self):
        """Pickle as the game string and where the deals stand (OpenSpiel's own pickling needs
        ``Game::GetRNGState``, which a Python game cannot provide)."""
        return _game_from_string, (str(self), self.next_seed)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "CitygamesObserver":
        """The observer of ``iig_obs_type`` (OpenSpiel's ``make_observation``): see ``CitygamesObserver``."""
        if isinstance(iig_obs_type, dict):  # OpenSpiel's C++ side passes only params when no type is given
            iig_obs_type, params = None, iig_obs_type
        return CitygamesObserver(self, iig_obs_type, params)


_META = "# Automatically generated by OpenSpiel SerializeGameAndState\n[Meta]\nVersion: 1\n\n"


def serialize_game_and_state(game: CitygamesGame, state: "CitygamesState") -> str:
    """``game`` and ``state`` as text in the format of ``pyspiel.serialize_game_and_state``
    (sections ``[Meta]``, ``[Game]`` with ``[GameRNGState]``, ``[State]``), which OpenSpiel 2.0
    cannot write for a Python game with sampled chance (it needs ``Game::GetRNGState``, which a
    Python game cannot override). The game RNG state is ``next_seed``; the state is
    ``state.serialize()`` (OpenSpiel's history and move number, and the pickled ``_Engine``:
    the game record, or ``to_dict()`` for a resampled state). Read it back with
    ``deserialize_game_and_state``."""
    return (f"{_META}[Game]\n{game}\n[GameRNGState]\n{game.next_seed}\n"
            f"[State]\n{state.serialize()}\n")


def deserialize_game_and_state(text: str) -> tuple[CitygamesGame, "CitygamesState"]:
    """``(game, state)`` from the text of ``serialize_game_and_state``: the game loaded from its
    game string with its sequence of deals where it was, the state playing on identically.

    Raises:
        ValueError: the text lacks a section; pyspiel.SpielError or GameOptionError: the game
            string does not load.
    """
    sections: dict[str, list[str]] = {}
    current = None
    for line in text.split("\n"):
        if line in ("[Meta]", "[Game]", "[GameRNGState]", "[State]"):
            current = sections.setdefault(line, [])
        elif current is not None and line and not line.startswith("#"):
            current.append(line)
    missing = [h for h in ("[Game]", "[State]") if h not in sections]
    if missing:
        raise ValueError(f"not a serialized game and state: no {', '.join(missing)} section")
    game = pyspiel.load_game("\n".join(sections["[Game]"]))
    rng = sections.get("[GameRNGState]")
    if rng and isinstance(game, CitygamesGame):
        game.next_seed = int(rng[0])
    return game, game.deserialize_state("\n".join(sections["[State]"]))


def _game_from_string(text: str, next_seed: int) -> CitygamesGame:
    game = pyspiel.load_game(text)
    game.next_seed = next_seed
    return game


def _state_from_text(text: str) -> "CitygamesState":
    return deserialize_game_and_state(text)[1]


def engine_state(state: "CitygamesState") -> State:
    """The citygames state inside an OpenSpiel state of this adapter (not a copy: do not change it)."""
    return state._engine()


class _Engine:
    """Holds a citygames state for a ``CitygamesState`` (its only Python attribute, ``_h``).

    OpenSpiel's C++ ``Clone`` deep-copies a Python state's attributes and ``Serialize`` pickles
    them: this holder answers ``copy.deepcopy`` with the engine's own ``clone()`` and pickles as
    the game record (or, for a resampled state, its ``to_dict()``).

    A fresh initial state holds only its ``CitygamesGame`` (``pending``) and is dealt when first
    used: OpenSpiel builds states through ``new_initial_state()`` for its own purposes (a clone or
    a deserialized state, whose attributes it then overwrites; a throw-away state to measure the
    tensor shape at every C++ ``ObservationTensor`` call), and these must not use up deals. So
    the observer's ``set_from``, the one call that state gets, reads a pending state without
    dealing it: it shows the next deal (``peek``) and pins that seed, so the state gets that deal
    when used. Every other method deals a pending state.

    Attributes:
        state: the citygames state, ``None`` while pending.
        pending: the ``CitygamesGame`` to deal from, ``None`` once dealt.
        pinned: the seed a pending state was shown with (``None``: not shown yet).
        exact: whether ``state.record()`` rebuilds the state (false after a resample).
        cache: strings computed for the current state (``("obs", p)``, ``("info", p)``), cleared
            at every action.
        seen: per seat, ``(log events read, lines, lines used)``: the seat's visible log events
            as JSON lines, kept across actions (a game's log only grows) and shared with clones:
            a holder extends the list in place while it owns its end, and copies its part
            before writing after another holder did.
    """

    __slots__ = ("state", "pending", "pinned", "exact", "cache", "seen")

    def __init__(self, state: State | None, exact: bool = True, pending: CitygamesGame | None = None):
        self.state = state
        self.pending = pending
        self.pinned: int | None = None
        self.exact = exact
        self.cache: dict = {}
        self.seen: dict = {}

    def visible_log(self, seat: int) -> list[str]:
        """The JSON line of every log event ``seat`` may see, oldest first (do not change it)."""
        s = self.state if self.state is not None else self.materialize()
        log = s.log
        read, lines, used = self.seen.get(seat) or (0, [], 0)
        if read > len(log):  # not a continuation of what was read: start again
            read, lines, used = 0, [], 0
        if read < len(log):
            if len(lines) != used:  # a clone wrote past our end: copy before writing
                lines = lines[:used]
            lines.extend(_json(e.to_dict()) for e in log[read:] if e.visible(seat))
            read, used = len(log), len(lines)
            self.seen[seat] = (read, lines, used)
        return lines if len(lines) == used else lines[:used]

    def materialize(self) -> State:
        """Deal the pending game (its pinned seed, else the next seed of its ``CitygamesGame``)."""
        if self.state is None:
            self.state = self.pending.deal(self.pinned)
            self.pending = None
        return self.state

    def view(self) -> State:
        """The state to read without dealing it: the state, or for a pending one the next deal
        (``CitygamesGame.peek``; its seed is pinned)."""
        if self.state is not None:
            return self.state
        game = self.pending
        if self.pinned is None:
            self.pinned = game.next_seed
        if self.pinned == game.next_seed:
            return game.peek()
        return self.materialize()  # another state took the next deal meanwhile: deal the pinned one

    def __deepcopy__(self, memo) -> "_Engine":
        s = self.state if self.state is not None else self.materialize()
        out = _Engine(s.clone(), self.exact)
        if self.cache:
            out.cache = self.cache.copy()
        if self.seen:
            out.seen = self.seen.copy()
        return out

    def __reduce__(self):
        s = self.state if self.state is not None else self.materialize()
        if self.exact:
            return _engine_from_record, (s.record(),)
        return _engine_from_dict, (s.game.info.id, dict(s.game.options), s.to_dict())


def _engine_from_record(record: dict) -> _Engine:
    return _Engine(replay(record))


def _engine_from_dict(game_id: str, options: dict, data: dict) -> _Engine:
    return _Engine(load_game(game_id, **options).state_from_dict(data), exact=False)


#: boards (``str(state)``) of states that their record rebuilds, by (game, seed, position,
#: actions): OpenSpiel's tests print a state and its clone after every action, and a board
#: takes milliseconds to draw
_BOARDS: dict = {}
_BOARDS_SIZE = 64


def _tag_text(match) -> str:
    full, escapes, _ = match.groups()
    backslashes, escaped = divmod(len(escapes), 2)
    return "\\" * backslashes + (full[len(escapes):] if escaped else "")


def _plain(markup: str) -> str:
    """``markup`` with rich's console markup tags removed and its escapes undone: the text of
    ``rich.text.Text.from_markup(markup, emoji=False).plain``, at a tenth of its cost."""
    from rich.markup import RE_TAGS
    return RE_TAGS.sub(_tag_text if "\\" in markup else "", markup)


def _json(data) -> str:
    try:
        return json.dumps(data, sort_keys=True, separators=(",", ":"))
    except TypeError:  # keys of mixed types cannot be sorted
        return json.dumps(data, separators=(",", ":"))


class CitygamesState(pyspiel.State):
    """An OpenSpiel state around a citygames state (see the module docstring for each method).

    Built by ``CitygamesGame.new_initial_state`` (never directly). Its only Python attribute is
    ``_h`` (an ``_Engine``); ``engine_state(state)`` gives the citygames state.
    """

    def __init__(self, game: CitygamesGame):
        super().__init__(game)
        self._h = _Engine(None, True, game)

    def __reduce__(self):
        """Pickle as ``serialize_game_and_state`` (OpenSpiel's own pickling needs
        ``Game::GetRNGState``); the unpickled state comes with its own copy of the game."""
        return _state_from_text, (serialize_game_and_state(self.get_game(), self),)

    def _engine(self) -> State:
        h = self._h
        s = h.state
        return s if s is not None else h.materialize()

    # --- turn structure ---------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to move; ``pyspiel.PlayerId.TERMINAL`` (-4) at the end,
        ``SIMULTANEOUS`` (-2) when several seats move at once."""
        h = self._h
        s = h.state if h.state is not None else h.materialize()
        return s.current_player()

    def is_terminal(self) -> bool:
        h = self._h
        s = h.state if h.state is not None else h.materialize()
        return s.is_terminal()

    def _legal_actions(self, player: int) -> list[int]:
        """The sorted ids of ``player``'s legal actions (``[]`` for a seat not to move)."""
        h = self._h
        s = h.state if h.state is not None else h.materialize()
        return sorted([a.id for a in s.legal_actions(player)])

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The sorted legal action ids of ``player`` (default: the seat to move); ``[]`` at the
        end and for a seat not to move. (Answered in Python; OpenSpiel's C++ side calls
        ``_legal_actions``.)"""
        h = self._h
        s = h.state if h.state is not None else h.materialize()
        if player is None:
            player = s.current_player()
            if player == SIMULTANEOUS:
                raise ValueError("several seats move at once: ask each seat (legal_actions(player)) and apply "
                                 "one action per seat with apply_actions (flat joint actions are not offered)")
            if player < 0:
                return []
        return sorted([a.id for a in s.legal_actions(player)])

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """1 at each legal action id of ``player`` (default: the seat to move), 0 elsewhere:
        ``num_distinct_actions`` ints (the engine's ``legal_action_mask``)."""
        h = self._h
        s = h.state if h.state is not None else h.materialize()
        if player is None:
            player = s.current_player()
            if player == SIMULTANEOUS:
                raise ValueError("several seats move at once: give the seat (legal_actions_mask(player))")
        return s.legal_action_mask(player).tolist()

    def _apply_action(self, action: int) -> None:
        """Apply the action with id ``action``; the engine's ``IllegalActionError`` (state
        unchanged) if it is not legal, ``ValueError`` at a simultaneous node (flat joint actions
        are not offered: use ``apply_actions``)."""
        h = self._h
        s = h.state if h.state is not None else h.materialize()
        if s.current_player() == SIMULTANEOUS:
            raise ValueError("several seats move at once: apply one action per seat with apply_actions "
                             "(flat joint actions are not offered)")
        s.apply_action(int(action))
        if h.cache:
            h.cache = {}

    def _apply_actions(self, actions: list[int]) -> None:
        """A joint action: ``actions[p]`` for each seat ``p`` to move, the other entries ignored (a
        seat with no legal action may pass ``pyspiel.INVALID_ACTION``, as ``evaluate_bots`` does).
        At a simultaneous node every seat still to choose chooses (the choices are revealed when the
        last is in); at a turn-based node (OpenSpiel's ``rl_environment`` passes a joint action at
        every node of a simultaneous game) the seat to move acts. All or nothing: an illegal entry
        raises the engine's ``IllegalActionError`` before any is applied.

        Raises:
            ValueError: fewer entries than seats.
            IllegalActionError: an entry of a seat to move is not legal for it (state unchanged).
        """
        h = self._h
        s = h.state if h.state is not None else h.materialize()
        movers = s.players_to_move()
        if len(actions) < s.game.num_players:
            raise ValueError(f"apply_actions needs one entry per seat ({s.game.num_players}), got {len(actions)}")
        for p in movers:
            a = int(actions[p])
            if not any(x.id == a for x in s.legal_actions(p)):
                s.apply_action(a, player=p)   # raises IllegalActionError naming the rule, state unchanged
        for p in movers:
            s.apply_action(int(actions[p]), player=p)
        if h.cache:
            h.cache = {}

    def _action_to_string(self, player: int, action: int) -> str:
        """The engine's ``action_to_string`` (price or penalty in the current context); the
        action's plain text when it does not apply here."""
        s = self._engine()
        try:
            return s.action_to_string(int(action))
        except Exception:
            return str(s.game.decode(int(action)))

    # --- outcome ----------------------------------------------------------------------
    def returns(self) -> list[float]:
        """Per seat: 0 before the end; then 1 for the winner and 0 for the others (0.5 each on a
        shared 7 Wonders Duel victory)."""
        return [float(r) for r in self._engine().returns()]

    # --- information --------------------------------------------------------------------
    def observation_json(self, player: int | None) -> str:
        """What ``player`` sees (``None``: a spectator) as compact JSON with sorted keys: the
        observation string."""
        h = self._h
        key = ("obs", player)
        text = h.cache.get(key)
        if text is None:
            text = h.cache[key] = _json(self._engine().observation(player))
        return text

    def information_state(self, player: int) -> str:
        """``"seat P"``, every log event ``player`` may see as JSON (one per line), then the
        observation string: the information-state string."""
        h = self._h
        key = ("info", player)
        text = h.cache.get(key)
        if text is None:
            text = h.cache[key] = "\n".join((f"seat {player}", *h.visible_log(player),
                                             self.observation_json(player)))
        return text

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> "CitygamesState":
        """A state of ``player_id``'s information set: the engine's ``resample(player_id, rng)``
        (hidden parts redrawn consistently with that seat's observation) with a ``Rng`` seeded
        from one draw of ``probability_sampler`` (a callable returning a float in [0, 1), e.g.
        ``pyspiel.UniformProbabilitySampler``). The new state keeps this one's ``history()``."""
        seed = int(float(probability_sampler()) * (1 << 53))
        player_id = int(player_id)
        h = self._h
        new = self.clone()
        new._h = nh = _Engine(self._engine().resample(player_id, Rng(seed)), exact=False)
        # what the seat sees is the same in every world of its information set
        for key in (("obs", player_id), ("info", player_id)):
            if key in h.cache:
                nh.cache[key] = h.cache[key]
        if player_id in h.seen:
            nh.seen[player_id] = h.seen[player_id]
        return new

    def __str__(self) -> str:
        """The spectator's board as plain text (``game.render_text(state, None)`` without markup)."""
        h = self._h
        s = self._engine()
        key = (s.game, s.seed, getattr(s, "origin", None),
               tuple(tuple(e) if isinstance(e, list) else e for e in s.history)) if h.exact else None
        text = _BOARDS.get(key) if key is not None else None
        if text is None:
            text = _plain(s.game.render_text(s, None))
            if key is not None:
                _BOARDS[key] = text
                if len(_BOARDS) > _BOARDS_SIZE:
                    _BOARDS.pop(next(iter(_BOARDS)))
        return text

    # The three views below answer Python callers directly; OpenSpiel's C++ side reaches the same
    # methods through the observers of ``make_py_observer``.
    def _seat(self, player) -> int:
        if player is None:
            player = self.current_player()
        player = int(player)
        if not 0 <= player < self.num_players():
            raise ValueError(f"player {player} is not a seat (0..{self.num_players() - 1})")
        return player

    def observation_tensor(self, player: int | None = None) -> np.ndarray:
        """The engine's ``observation_tensor(player)``: a new float32 NumPy vector of length
        ``game.observation_tensor_size()``; ``player`` defaults to the seat to move. (OpenSpiel's
        C++ games return a list of floats; a list of a few thousand floats costs more than the
        tensor itself, and every learning library takes the array.)

        Raises:
            ValueError: ``player`` is not a seat (e.g. the default at the end of the game).
        """
        return self._engine().observation_tensor(self._seat(player))

    def observation_string(self, player: int | None = None) -> str:
        """The observation string of ``player`` (default: the seat to move); see ``observation_json``."""
        return self.observation_json(self._seat(player))

    def information_state_string(self, player: int | None = None) -> str:
        """The information-state string of ``player`` (default: the seat to move); see
        ``information_state``."""
        return self.information_state(self._seat(player))


class CitygamesObserver:
    """OpenSpiel's Python observer (``make_py_observer``) of a citygames game.

    Observation types (``pyspiel.IIGObservationType``):

    - the default (``perfect_recall=False``, public and the seat's private information): ``tensor``
      is the engine's ``observation_tensor(player)`` (float32, shape ``[size]``), ``dict`` maps
      each slice name of ``game.observation_tensor_layout()`` to its view of ``tensor`` (shaped as
      the slice); ``string_from`` is the observation string;
    - ``perfect_recall=True`` (information state): no tensor (``tensor`` is ``None``);
      ``string_from`` is the information-state string;
    - ``private_info=NONE`` (public information only): the spectator's tensor and string,
      whichever ``player`` asks.

    Raises:
        ValueError: observation parameters (none are supported), ``private_info=ALL_PLAYERS``
            (the adapters never show hidden information) or private information without public.
    """

    def __init__(self, game: CitygamesGame, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER
        perfect_recall = False
        if iig_obs_type is not None:
            private = iig_obs_type.private_info
            perfect_recall = iig_obs_type.perfect_recall
            if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError("citygames observations never show other seats' hidden information "
                                 "(private_info=ALL_PLAYERS is not supported)")
            if not iig_obs_type.public_info:
                raise ValueError("citygames observations always include public information "
                                 "(public_info=False is not supported)")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = perfect_recall and not self.public_only
        self.layout = game.citygames_game.observation_tensor_layout()
        self.dict: dict[str, np.ndarray] = {}
        if self.perfect_recall:
            self.tensor = None
        else:
            self.tensor = np.zeros(self.layout.size, np.float32)
            for s in self.layout:
                self.dict[s.name] = self.tensor[s.offset:s.stop].reshape(s.shape)

    def set_from(self, state: CitygamesState, player: int) -> None:
        """Write ``state`` as ``player`` sees it into ``tensor`` (nothing without a tensor)."""
        if self.tensor is not None:
            self.tensor[:] = state._h.view().observation_tensor(None if self.public_only else player)

    def string_from(self, state: CitygamesState, player: int) -> str:
        """The observation string (or information-state string) of ``state`` for ``player``."""
        if self.public_only:
            return state.observation_json(None)
        if self.perfect_recall:
            return state.information_state(player)
        return state.observation_json(player)


class CitygamesBot(pyspiel.Bot):
    """A citygames bot (``citygames.bots``) as a ``pyspiel.Bot``, for ``evaluate_bots``.

    Args:
        bot: a bot name (``"random"``, ``"greedy"``, ...; ``citygames.bots.make_bot``) or a
            ``citygames.bots.Bot``.
        seed: the bot's seed when ``bot`` is a name.
        player_id: the seat it plays, needed only at simultaneous steps (else the seat to move).

    ``step(state)`` returns the id of the bot's action for the seat to move. The bot reads the
    wrapped citygames state as in any citygames game (bots only use what their seat may know).
    """

    def __init__(self, bot="random", seed: int = 0, player_id: int | None = None):
        pyspiel.Bot.__init__(self)
        if isinstance(bot, str):
            from citygames.bots import make_bot
            bot = make_bot(bot, seed)
        self.bot = bot
        self.player_id = player_id

    def step(self, state: CitygamesState) -> int:
        """The id of the bot's chosen action (``ValueError`` if its seat has nothing to do)."""
        player = state.current_player()
        if player == SIMULTANEOUS:
            player = self.player_id
            if player is None:
                raise ValueError("several seats move at once: build the bot with its player_id to play a game with "
                                 "simultaneous steps")
        return int(self.bot.step(engine_state(state), player).id)

    def restart_at(self, state) -> None:
        """Nothing to do: the bot keeps no memory of the game."""

    def inform_action(self, state, player_id, action) -> None:
        """Nothing to do: the bot reads each state afresh."""

    def provides_policy(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"CitygamesBot({self.bot!r})"


_ISMCTS_CLASS: list = []


def _ismcts_class() -> type:
    """OpenSpiel's Python ``ISMCTSBot`` with the two methods of the bot protocol it lacks in
    OpenSpiel 2.0 (``evaluate_bots`` calls ``restart_at`` first, which the base class refuses)."""
    if not _ISMCTS_CLASS:
        from open_spiel.python.algorithms import ismcts

        class ISMCTSBot(ismcts.ISMCTSBot):
            """``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (unchanged search); ``restart_at``
            clears the tree (each search builds its own anyway) and ``inform_action`` does nothing."""

            def restart_at(self, state) -> None:
                self.reset()

            def inform_action(self, state, player_id, action) -> None:
                pass

        _ISMCTS_CLASS.append(ISMCTSBot)
    return _ISMCTS_CLASS[0]


def ismcts_bot(game: CitygamesGame, max_simulations: int = 100, seed: int = 0, uct_c: float = 2.0,
               n_rollouts: int = 1, max_world_samples: int = -1):
    """OpenSpiel's Python ``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``: information-set
    MCTS, Cowling, Powley & Whitehouse 2012) for ``game``, with a ``RandomRolloutEvaluator`` of
    ``n_rollouts`` random play-outs to the end of the game. It searches from the mover's information set through
    ``resample_from_infostate`` (the engine's ``resample``) and keys its tree by
    ``information_state_string``.

    Args:
        game: a game of this adapter (sequential).
        max_simulations: simulations per move (each: one resampled world, a tree walk, then the
            play-outs); a move costs about ``max_simulations * n_rollouts`` random games' worth of
            steps, less as the game nears its end.
        seed: int seed of the search and the play-outs.
        uct_c: the UCT exploration constant (returns are in [0, 1]).
        n_rollouts: random play-outs per evaluated leaf.
        max_world_samples: -1 draws a new world at every simulation; ``k > 0`` reuses ``k`` of them.

    The tree search, the play-outs and the worlds (``resample_from_infostate`` through the bot's
    ``set_resampler``) draw from NumPy ``RandomState``s seeded from ``seed``, so a game between
    seeded bots replays exactly.

    Returns:
        a ``pyspiel.Bot`` (a subclass of OpenSpiel's ``ISMCTSBot`` adding ``restart_at`` and
        ``inform_action``, which ``evaluate_bots`` calls).
    """
    from open_spiel.python.algorithms import mcts
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=n_rollouts, random_state=np.random.RandomState(seed + 1))
    bot = _ismcts_class()(game=game, evaluator=evaluator, uct_c=uct_c, max_simulations=max_simulations,
                          max_world_samples=max_world_samples, random_state=np.random.RandomState(seed))
    # OpenSpiel's default resampler draws from a new randomly seeded UniformProbabilitySampler at
    # every simulation; a seeded one makes the bot's games reproducible
    worlds = np.random.RandomState(seed + 2)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, worlds.random_sample))
    return bot


register_all()
