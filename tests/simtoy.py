"""A tiny game with simultaneous steps ("Sealed bids"), used to test the simultaneous-move contract in
core, the conformance kit, the CLI, the simulator and the server.

Rules:

- ``rounds`` rounds (option, default 3) for 2-4 seats (option ``num_players``, default 3). Each seat
  starts with a secret budget of 5-12 coins drawn from the seed (only that seat sees it; spent coins
  are public).
- Each round opens with a simultaneous step: every seat bids 0-3 coins in secret (at most what it has
  left). When the last bid is in, all are revealed together: the highest bid that no other seat made
  wins as many points as it bid plus 1; the coins bid are spent.
- Then the round's winner (seat 0 if nobody won) takes one turn-based decision: ``keep`` (+1 point)
  or ``tax`` (the next seat loses 1 point).
- Score: points + coins left. Ranking: score, then lower seat. The winner's return is 1.

Fixed-size views (for the adapters): ``max_game_length`` is ``rounds * (seats + 1)`` (every round: one bid
per seat, one keep-or-tax), the observation tensor (``tensor_layout``) the observation's numbers from the
observer on.

Hidden information: each seat's budget (so its coins left), and the pending bids of the seats that
have chosen. ``resample(seat, rng)`` redraws the other seats' budgets among the values consistent
with what they spent, and their pending bids among what they may bid.
"""

from __future__ import annotations

from citygames.core import ActionSpace, Game, GameInfo, OptionSpec, register_renderer
from citygames.core.flat import Frozen, List, SimultaneousFlatState, Value
from citygames.core.phases import NO_DECISION, Phase, PhaseMachine, Step

BIDS = 4          # bids 0..3
BUDGET = (5, 13)  # budgets 5..12

register_renderer("simtoy.reveal", lambda e: "Bids revealed: " + ", ".join(
    f"seat {s} bids {b}" for s, b in enumerate(e.data["bids"])) + (
    f"; seat {e.data['winner']} wins {e.data['points']} points." if e.data["winner"] is not None else "; no winner."))
register_renderer("simtoy.keep", lambda e: f"Seat {e.player} keeps a point.")
register_renderer("simtoy.tax", lambda e: f"Seat {e.player} taxes seat {e.data['target']}.")


class SealedBids(Game):
    """The toy game with simultaneous bids (see the module docstring). Actions: ``bid`` (0-3),
    ``keep``, ``tax``."""

    info = GameInfo(
        id="toy_sim", name="Sealed bids (toy)", min_players=2, max_players=4,
        options=(OptionSpec("num_players", 3, "number of seats", min=2, max=4),
                 OptionSpec("rounds", 3, "number of rounds", min=1, max=20)),
        hidden_information=True, simultaneous_moves=True, chance=True)
    action_space = ActionSpace([
        ("bid", BIDS, lambda a: f"bid {a} coin{'s' if a != 1 else ''}"),
        ("keep", 1, lambda a: "keep (+1 point)"),
        ("tax", 1, lambda a: "tax the next seat (-1 point)"),
    ])
    PARTS = {"state": "simtoy:SealedState", "tensor_layout": "simtoy:tensor_layout",
             "observation_tensor": "simtoy:observation_tensor", "max_game_length": "simtoy:max_game_length"}

    def __init__(self, **options):
        super().__init__(options)

    def evaluate(self, state, player: int) -> float:
        scores = state.scores()
        return scores[player] - max(s for p, s in enumerate(scores) if p != player)


def _legal_bid(state, seat):
    left = state.budget[seat] - state.spent[seat]
    return [state.game.action_space.get("bid", b) for b in range(min(BIDS - 1, left) + 1)]


def _resolve(state, choices):
    space = state.game.action_space
    bids = [space.table[c].arg if c >= 0 else 0 for c in choices]
    for p, b in enumerate(bids):
        state.spent[p] += b
    unique = [b for b in bids if bids.count(b) == 1 and b > 0]
    winner = bids.index(max(unique)) if unique else None
    if winner is not None:
        state.points[winner] += max(unique) + 1
    state.event("reveal", None, bids=bids, winner=winner, points=max(unique) + 1 if unique else 0)
    state.player = winner if winner is not None else 0
    state.step = 2


def _keep(state, arg):
    state.points[state.player] += 1
    state.event("keep", state.player)
    _next_round(state)


def _tax(state, arg):
    target = (state.player + 1) % state.game.num_players
    state.points[target] -= 1
    state.event("tax", state.player, target=target)
    _next_round(state)


def _next_round(state):
    state.round += 1
    state.step = NO_DECISION


def _run_round(state):
    if state.round > state.game.options["rounds"]:
        state.phase = 1
        return
    state.begin_simultaneous(1, range(state.game.num_players))


RULES = PhaseMachine(
    steps=[None,
           Step("bid", _legal_bid, {"bid": None}, key="bid", resolve=_resolve),
           Step("keep a point or tax the next seat",
                lambda s: [s.game.action_space.get("keep"), s.game.action_space.get("tax")],
                {"keep": _keep, "tax": _tax}, key="bonus")],
    phases=[Phase("round", _run_round), Phase("end", lambda s: None)],
    end_phase=1)


class SealedState(SimultaneousFlatState):
    """The state of ``SealedBids``."""

    FIELDS = {
        "step": Value("pending decision: 0 none, 1 bid (simultaneous), 2 keep or tax"),
        "phase": Value("0 playing, 1 over"),
        "round": Value("the round, from 1"),
        "budget": Frozen("per seat, its secret budget"),
        "spent": List("per seat, coins spent (public)"),
        "points": List("per seat, points"),
    }
    RULES = RULES
    EVENT_PREFIX = "simtoy."

    @classmethod
    def new(cls, game, seed):
        from citygames.core import Rng
        s = cls.blank(game, seed)
        rng = Rng(seed)
        n = game.num_players
        s.movers, s.pending = (), [-1] * n
        s.step, s.phase, s.round = NO_DECISION, 0, 1
        s.budget = tuple(BUDGET[0] + rng.randbelow(BUDGET[1] - BUDGET[0]) for _ in range(n))
        s.spent, s.points = [0] * n, [0] * n
        RULES.advance(s)
        return s

    def is_terminal(self) -> bool:
        return self.phase == 1

    def scores(self):
        return [self.points[p] + self.budget[p] - self.spent[p] for p in range(self.game.num_players)]

    def ranking(self):
        sc = self.scores()
        return sorted(range(len(sc)), key=lambda p: (-sc[p], p))

    def returns(self):
        ret = [0.0] * self.game.num_players
        if self.is_terminal():
            ret[self.ranking()[0]] = 1.0
        return ret

    def score_breakdown(self, seat):
        return {"points": self.points[seat], "coins": self.budget[seat] - self.spent[seat]}

    def observation(self, seat):
        n = self.game.num_players
        over = self.is_terminal()
        obs = {"round": self.round, "spent": list(self.spent), "points": list(self.points),
               "to_move": list(self.players_to_move()),
               "chosen": [p for p in range(n) if self.pending[p] >= 0],
               "budget": [self.budget[p] if over or p == seat else None for p in range(n)]}
        if seat is not None and self.pending[seat] >= 0:
            obs["my_bid"] = self.game.action_space.table[self.pending[seat]].arg
        return obs

    def resample(self, seat, rng):
        """A copy (built through ``to_dict`` / ``game.state_from_dict``, so no cache survives) whose
        other seats' budgets are redrawn among the values their spending allows, and their pending
        bids among what they may bid."""
        if self.is_terminal():
            return self.clone()
        d = self.to_dict()
        space = self.game.action_space
        budget, pending, history = list(self.budget), list(self.pending), list(self.history)
        for p in range(self.game.num_players):
            if p == seat:
                continue
            bid = space.table[pending[p]].arg if pending[p] >= 0 else 0
            low = max(BUDGET[0], self.spent[p] + bid)
            budget[p] = low + rng.randbelow(BUDGET[1] - low) if low < BUDGET[1] else low
            if pending[p] >= 0:
                new = space.get("bid", rng.randbelow(min(BIDS - 1, budget[p] - self.spent[p]) + 1)).id
                history = [[p, new] if e == [p, pending[p]] else e for e in history]
                pending[p] = new
        d.update(budget=budget, pending=pending, history=history)
        return self.game.state_from_dict(d)


def max_game_length(game) -> int:
    """Every round has one bid per seat and one keep-or-tax decision."""
    return game.options["rounds"] * (game.num_players + 1)


def tensor_layout(game):
    from citygames.core.tensor import TensorLayout
    n, r = game.num_players, game.options["rounds"]
    return TensorLayout([
        ("round", 1, 0, r + 1, "count", "the round (rounds + 1 once over)"),
        ("spent", n, 0, BUDGET[1] - 1, "coins", "coins spent, per seat from the observer on"),
        ("points", n, -r, r * (BIDS + 1), "points", "points, per seat from the observer on"),
        ("to_move", n, 0, 1, "flag", "seats to move, from the observer on"),
        ("chosen", n, 0, 1, "flag", "seats that have bid in the pending step, from the observer on"),
        ("budget_known", n, 0, 1, "flag", "1 where the seat's budget is shown"),
        ("budget", n, 0, BUDGET[1] - 1, "coins", "the budget where shown, else 0"),
        ("my_bid", BIDS, 0, 1, "one-hot", "the observer's own pending bid"),
        ("seat", n, 0, 1, "one-hot", "the observer's seat (all 0 for a spectator)"),
    ])


def observation_tensor(state, seat):
    """``observation(seat)`` as the flat vector ``tensor_layout`` describes."""
    import numpy as np
    from citygames.core.tensor import seat_order
    obs = state.observation(seat)
    n = state.game.num_players
    order = seat_order(seat, n)
    values = [obs["round"]]
    values += [obs["spent"][q] for q in order]
    values += [obs["points"][q] for q in order]
    values += [q in obs["to_move"] for q in order]
    values += [q in obs["chosen"] for q in order]
    values += [obs["budget"][q] is not None for q in order]
    values += [obs["budget"][q] or 0 for q in order]
    values += [obs.get("my_bid") == b for b in range(BIDS)]
    values += [q == seat for q in range(n)]
    return np.array(values, dtype=np.float32)
