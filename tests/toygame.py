"""A tiny game implementing the whole citygames contract, used to test core, bots, sim and CLI.

Rules ("Counters"):

- Setup (chance, from the seed): a pile of 12-20 counters (30-40 with ``big_pile``); each seat
  draws a secret bonus of 0-3 points that only that seat sees until the end.
- Seats take turns from seat 0. On a turn a seat takes 1, 2 or 3 counters from the pile, or
  *grabs* 4 counters at a penalty of 2 points (a rule broken at a cost is a legal action
  carrying its cost). Grabbing needs at least 4 counters in the pile.
- Whenever the pile crosses a multiple of 5, a public bonus token (1 point) goes to a random
  seat (chance during play, drawn from the state's ``Rng``).
- The seat that takes the last counter scores ``last_bonus`` points (option, default 2) and the
  game ends.
- Score: counters taken + secret bonus + tokens + last-counter bonus - penalties. Ranking: higher
  score, then fewer penalties, then lower seat number. The winner's return is 1, the others' 0.

Action space: kind ``take`` (3 actions: 1, 2 or 3 counters, ids 0-2) and kind ``grab`` (1 action,
id 3).

Hidden information: each seat's secret bonus is hidden from the other seats (and spectators) until
the end, and the chance still to come (which seat the next bonus tokens go to: the state's ``Rng``)
is hidden from everybody. ``resample(seat, rng)`` redraws both.

Position notation (``game.state_from_position`` / ``state.position()``), one line of eight fields
separated by spaces::

    <pile> <current seat> <taken> <bonuses> <tokens> <penalties> <last taker or -> <chance>

where ``taken``, ``bonuses``, ``tokens`` and ``penalties`` are comma-separated per seat and
``chance`` is the state of the chance generator (an integer), e.g. ``13 1 2,0 1,3 0,0 0,0 - 77``.
"""

from __future__ import annotations

import numpy as np

from citygames.core import (
    TERMINAL,
    Action,
    ActionSpace,
    Event,
    Game,
    GameInfo,
    IllegalActionError,
    OptionSpec,
    PositionError,
    Rng,
    State,
    TensorLayout,
    register_renderer,
)
from citygames.core.tensor import seat_order

GRAB_SIZE = 4
GRAB_PENALTY = 2
BONUS_MAX = 3  # secret bonus is drawn uniformly from 0..BONUS_MAX


def _take_text(arg: int) -> str:
    n = arg + 1
    return f"take {n} counter{'s' if n > 1 else ''}"


ACTION_SPACE = ActionSpace([
    ("take", 3, _take_text),
    ("grab", 1, lambda arg: f"grab {GRAB_SIZE} counters (-{GRAB_PENALTY} points)"),
])
TAKE = [ACTION_SPACE.get("take", i) for i in range(3)]
GRAB = ACTION_SPACE.get("grab")

register_renderer("toy.setup", lambda e: f"The pile holds {e.data['pile']} counters.")
register_renderer("toy.bonus", lambda e: f"Seat {e.player}'s secret bonus is {e.data['bonus']}.")
register_renderer("toy.take", lambda e: (
    f"Seat {e.player} takes {e.data['n']} counter{'s' if e.data['n'] > 1 else ''}"
    + (f" paying {e.data['penalty']} points" if e.data.get("penalty") else "")
    + f"; {e.data['pile']} left."))
register_renderer("toy.token", lambda e: f"Seat {e.player} receives a bonus token.")
register_renderer("toy.end", lambda e: f"Seat {e.player} takes the last counter; the game ends. "
                                       f"Secret bonuses were {e.data['bonuses']}.")


class ToyGame(Game):
    """The toy game's immutable rules and options.

    Options:
        num_players: 2-4 (default 2).
        big_pile: bool, start from 30-40 counters instead of 12-20 (default False).
        last_bonus: int 0-5, points for taking the last counter (default 2).

    Raises:
        GameOptionError: on unknown options or bad values.
    """

    info = GameInfo(
        id="toy",
        name="Counters (toy game)",
        min_players=2,
        max_players=4,
        options=(
            OptionSpec("num_players", 2, "number of seats", min=2, max=4),
            OptionSpec("big_pile", False, "start from 30-40 counters instead of 12-20"),
            OptionSpec("last_bonus", 2, "points for taking the last counter", min=0, max=5),
        ),
        hidden_information=True,
        chance=True,
    )
    action_space = ACTION_SPACE

    def __init__(self, **options):
        super().__init__(options)

    @property
    def state_class(self) -> type:
        """The class of this game's states (variants of the toy game override it)."""
        return ToyState

    def new_initial_state(self, seed: int = 0) -> ToyState:
        """A new game; the pile size, secret bonuses and tokens all follow from ``seed``."""
        return self.state_class.new(self, seed)

    def state_from_dict(self, data: dict) -> ToyState:
        """Rebuild a state from ``ToyState.to_dict()`` output."""
        s = self.state_class.__new__(self.state_class)
        s.game = self
        s.origin = data.get("origin")
        s.seed = data["seed"]
        s.pile = data["pile"]
        s.taken = list(data["taken"])
        s.bonus = list(data["bonus"])
        s.tokens = list(data["tokens"])
        s.penalties = list(data["penalties"])
        s.last_taker = data["last_taker"]
        s.current = data["current"]
        s.rng = Rng(0)
        s.rng.state = data["rng"]
        s.history = list(data["history"])
        s.log = [Event.from_dict(e) for e in data["log"]]
        return s

    def state_from_position(self, text: str) -> ToyState:
        """The state the position ``text`` describes (notation: module docstring); empty history and log.

        Raises:
            PositionError: the text is not a valid position; the message names the field.
        """
        n = self.num_players
        fields = text.split()
        names = ("pile", "current seat", "taken", "bonuses", "tokens", "penalties", "last taker", "chance")
        if len(fields) != len(names):
            raise PositionError(f"a position has {len(names)} fields ({', '.join(names)}), got {len(fields)}")

        def number(name: str, word: str, low: int, high: int | None = None) -> int:
            if not word.isdigit() or int(word) < low or (high is not None and int(word) > high):
                bound = f"{low}..{high}" if high is not None else f">= {low}"
                raise PositionError(f"{name}: {word!r} is not an integer {bound}")
            return int(word)

        def per_seat(name: str, word: str, high: int | None = None) -> list[int]:
            parts = word.split(",")
            if len(parts) != n:
                raise PositionError(f"{name}: {n} comma-separated values expected (one per seat), got {word!r}")
            return [number(name, x, 0, high) for x in parts]

        s = self.state_class.__new__(self.state_class)
        s.game = self
        s.seed = 0
        s.pile = number("pile", fields[0], 0)
        s.current = number("current seat", fields[1], 0, n - 1)
        s.taken = per_seat("taken", fields[2])
        s.bonus = per_seat("bonuses", fields[3], BONUS_MAX)
        s.tokens = per_seat("tokens", fields[4])
        s.penalties = per_seat("penalties", fields[5])
        s.last_taker = None if fields[6] == "-" else number("last taker", fields[6], 0, n - 1)
        if (s.pile == 0) != (s.last_taker is not None):
            raise PositionError("last taker: the game is over (a last taker is named) exactly when the pile is empty")
        s.rng = Rng(number("chance", fields[7], 0, (1 << 64) - 1))
        s.history = []
        s.log = []
        s.origin = text
        return s

    def evaluate(self, state: ToyState, player: int) -> float:
        """Own score minus the best other score (uses the secret bonuses present in ``state``)."""
        scores = state.scores()
        return scores[player] - max(s for i, s in enumerate(scores) if i != player)

    def render_text(self, state: ToyState, seat: int | None) -> str:
        """The table as seen by ``seat`` (``None``: spectator), with rich markup."""
        obs = state.observation(seat)
        lines = [f"[bold]Pile:[/bold] {obs['pile']} counters"]
        for i in range(self.num_players):
            bonus = obs["bonus"][i]
            bonus_text = "?" if bonus is None else str(bonus)
            marker = " [green]<- to move[/green]" if obs["current"] == i else ""
            lines.append(f"  Seat {i}: {obs['taken'][i]} counters, bonus {bonus_text}, "
                         f"tokens {obs['tokens'][i]}, penalties {obs['penalties'][i]}{marker}")
        return "\n".join(lines)

    def max_game_length(self) -> int:
        """Every action takes at least one counter from a pile of at most 20 (40 with ``big_pile``)."""
        return 40 if self.options["big_pile"] else 20

    def observation_tensor_layout(self) -> TensorLayout:
        """pile, then per seat from the observer on: counters taken, tokens, penalties, bonus
        (known flag and value), then the observer's seat and the seat to move, one-hot."""
        n = self.num_players
        return TensorLayout([
            ("pile", 1, 0, 40, "counters", "counters left in the pile"),
            ("taken", n, 0, 40, "counters", "counters taken, per seat from the observer on"),
            ("tokens", n, 0, 8, "VP", "bonus tokens, per seat from the observer on"),
            ("penalties", n, 0, 20, "VP", "grab penalties, per seat from the observer on"),
            ("bonus_known", n, 0, 1, "flag", "1 where the seat's secret bonus is shown"),
            ("bonus", n, 0, BONUS_MAX, "VP", "the secret bonus where shown, else 0"),
            ("seat", n, 0, 1, "one-hot", "the observer's seat (all 0 for a spectator)"),
            ("to_move", n, 0, 1, "one-hot", "the seat to move, from the observer on (all 0 at the end)"),
        ])

    def describe_rules(self, assumptions: bool = False) -> str:
        """The rules as plain text; with ``assumptions`` also the values no source confirms."""
        text = __doc__.split("Rules (\"Counters\"):", 1)[1].split("Action space:", 1)[0].strip()
        text = "Counters (toy game)\n\n" + text
        if assumptions:
            text += "\n\nAssumptions:\n- pile size range 12-20: assumed (toy game default)"
        return text


class ToyState(State):
    """A toy game in progress. Plain attributes, hand-written ``clone``."""

    __slots__ = (
        "bonus",
        "current",
        "game",
        "history",
        "last_taker",
        "log",
        "origin",
        "penalties",
        "pile",
        "rng",
        "seed",
        "taken",
        "tokens",
    )

    @classmethod
    def new(cls, game: ToyGame, seed: int) -> ToyState:
        s = cls.__new__(cls)
        n = game.num_players
        s.game = game
        s.seed = seed
        s.origin = None
        s.rng = Rng(seed)
        if game.options["big_pile"]:
            s.pile = 30 + s.rng.randbelow(11)
        else:
            s.pile = 12 + s.rng.randbelow(9)
        s.bonus = [s.rng.randbelow(BONUS_MAX + 1) for _ in range(n)]
        s.taken = [0] * n
        s.tokens = [0] * n
        s.penalties = [0] * n
        s.last_taker = None
        s.current = 0
        s.history = []
        s.log = [Event("toy.setup", None, {"pile": s.pile})]
        s.log += [Event("toy.bonus", i, {"bonus": s.bonus[i]}, visible_to=i) for i in range(n)]
        return s

    # turn structure
    def current_player(self) -> int:
        return TERMINAL if self.last_taker is not None else self.current

    def is_terminal(self) -> bool:
        return self.last_taker is not None

    # actions
    def legal_actions(self, player: int | None = None) -> list[Action]:
        if self.last_taker is not None or (player is not None and player != self.current):
            return []
        acts = TAKE[: min(3, self.pile)]
        if self.pile >= GRAB_SIZE:
            acts = acts + [GRAB]
        return acts

    def apply_action(self, action, player=None) -> None:
        a = self._as_action(action)
        if self.last_taker is not None:
            raise IllegalActionError("the game is over", a)
        if player is not None and player != self.current:
            raise IllegalActionError(f"it is seat {self.current}'s turn, not seat {player}'s", a)
        n = a.arg + 1 if a.kind == "take" else GRAB_SIZE
        if n > self.pile:
            raise IllegalActionError("not enough counters in the pile", a, f"{self.pile} left")
        p = self.current
        before = self.pile
        self.pile -= n
        self.taken[p] += n
        penalty = GRAB_PENALTY if a.kind == "grab" else 0
        self.penalties[p] += penalty
        self.history.append(a.id)
        self.log.append(Event("toy.take", p, {"n": n, "pile": self.pile, "penalty": penalty}))
        if before // 5 != self.pile // 5 and self.pile > 0:
            winner = self.rng.randbelow(self.game.num_players)
            self.tokens[winner] += 1
            self.log.append(Event("toy.token", winner, {}))
        if self.pile == 0:
            self.last_taker = p
            self.log.append(Event("toy.end", p, {"bonuses": list(self.bonus)}))
        else:
            self.current = (p + 1) % self.game.num_players

    def action_to_string(self, action) -> str:
        a = self._as_action(action)
        n = a.arg + 1 if a.kind == "take" else GRAB_SIZE
        return f"{a.text} (pile {self.pile} -> {self.pile - n})"

    # outcome
    def score_breakdown(self, seat: int) -> dict[str, int]:
        return {
            "counters": self.taken[seat],
            "secret bonus": self.bonus[seat],
            "tokens": self.tokens[seat],
            "last counter": self.game.options["last_bonus"] if self.last_taker == seat else 0,
            "penalties": -self.penalties[seat],
        }

    def scores(self) -> list[int]:
        last = self.game.options["last_bonus"]
        return [self.taken[i] + self.bonus[i] + self.tokens[i] - self.penalties[i]
                + (last if self.last_taker == i else 0) for i in range(self.game.num_players)]

    def ranking(self) -> list[int]:
        scores = self.scores()
        return sorted(range(self.game.num_players), key=lambda i: (-scores[i], self.penalties[i], i))

    def returns(self) -> list[float]:
        n = self.game.num_players
        if self.last_taker is None:
            return [0.0] * n
        ret = [0.0] * n
        ret[self.ranking()[0]] = 1.0
        return ret

    # information
    def observation(self, seat: int | None) -> dict:
        done = self.last_taker is not None
        return {
            "pile": self.pile,
            "current": self.current_player(),
            "taken": list(self.taken),
            "tokens": list(self.tokens),
            "penalties": list(self.penalties),
            "bonus": [b if done or i == seat else None for i, b in enumerate(self.bonus)],
            "log": [e.to_dict() for e in self.log_for(seat)],
        }

    def observation_tensor(self, seat: int | None):
        """``observation(seat)`` as the flat vector ``game.observation_tensor_layout()`` describes."""
        obs = self.observation(seat)
        n = self.game.num_players
        order = seat_order(seat, n)
        values = [obs["pile"]]
        for key in ("taken", "tokens", "penalties"):
            values += [obs[key][q] for q in order]
        values += [obs["bonus"][q] is not None for q in order]
        values += [obs["bonus"][q] or 0 for q in order]
        values += [q == seat for q in range(n)]
        values += [q == obs["current"] for q in order]
        return np.array(values, dtype=np.float32)

    def position(self) -> str:
        """This state in the toy game's position notation (see the module docstring)."""
        def per_seat(values):
            return ",".join(map(str, values))
        last = "-" if self.last_taker is None else str(self.last_taker)
        return (f"{self.pile} {self.current} {per_seat(self.taken)} {per_seat(self.bonus)} {per_seat(self.tokens)} "
                f"{per_seat(self.penalties)} {last} {self.rng.state}")

    def resample(self, seat: int, rng: Rng) -> ToyState:
        """A copy with the other seats' secret bonuses and the chance still to come redrawn (before the
        end; at the end everything is revealed and nothing is left to draw)."""
        s = self.clone()
        if s.last_taker is None:
            for i in range(len(s.bonus)):
                if i != seat:
                    s.bonus[i] = rng.randbelow(BONUS_MAX + 1)
            # private events of other seats are hidden too: redraw them consistently
            s.log = [Event(e.kind, e.player, {"bonus": s.bonus[e.player]}, e.visible_to)
                     if e.kind == "toy.bonus" and e.player != seat else e for e in s.log]
            # nobody knows where the next bonus tokens go: the chance to come is redrawn as well
            s.rng = rng.spawn()
        return s

    def clone(self) -> ToyState:
        s = type(self).__new__(type(self))
        s.game = self.game
        s.seed = self.seed
        s.origin = self.origin
        s.pile = self.pile
        s.taken = self.taken[:]
        s.bonus = self.bonus[:]
        s.tokens = self.tokens[:]
        s.penalties = self.penalties[:]
        s.last_taker = self.last_taker
        s.current = self.current
        s.rng = self.rng.clone()
        s.history = self.history[:]
        s.log = self.log[:]  # events are never mutated once logged
        return s

    def to_dict(self) -> dict:
        return {
            "seed": self.seed,
            "pile": self.pile,
            "taken": list(self.taken),
            "bonus": list(self.bonus),
            "tokens": list(self.tokens),
            "penalties": list(self.penalties),
            "last_taker": self.last_taker,
            "current": self.current,
            "rng": self.rng.state,
            "history": list(self.history),
            "log": [e.to_dict() for e in self.log],
            "origin": self.origin,
        }

    def __getstate__(self):
        return self.to_dict(), self.game

    def __setstate__(self, st):
        data, game = st
        other = game.state_from_dict(data)
        for name in ToyState.__slots__:
            setattr(self, name, getattr(other, name))

