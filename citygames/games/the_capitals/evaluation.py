"""The Capitals: a heuristic evaluation of a state for one seat (used by the greedy bot).

The value estimates the seat's final prestige: prestige already held, the final conversions of
what it holds now (HU "Végső pontozás"), the World Expos still to come scored with today's
tracks (employment, unemployment, public-service rank and progress, §5), an income estimate from
the tiles it can activate in the rounds left, the place in the turn order (during politics, the
space just chosen, §2) and the immediate effects of a tile it has taken but not yet placed. Only
what the seat can see is read (tracks, cities, its own pending tile).
"""

from __future__ import annotations

from .components import CUBES, CULTURE, EMP, LEVEL, MONEY, NT, POP, PRESTIGE, PROG, PS
from .steps import P_END, P_EXECUTIVE, P_EXPO, P_POLITICS, S_EFFECT, S_FREE, S_LAKE, S_PAY, S_PLACE, S_REWARD, S_UPGRADE

#: rough prestige value of one unit on each track during the game (beyond the final conversion);
#: culture at 1.0 and ``ACTIVATION_WEIGHT`` at 1.5 were tuned together (they were 0.35 and 0.5): the
#: greedy bot with them won 59%, 62% and 61% of 400 games each (2 players, three sets of deals)
#: against the greedy bot without, and 32.5% of 400 four-player games against three (par 25%)
_W = {MONEY: 0.2, CULTURE: 1.0, EMP: 0.0, POP: 0.0, PS: 0.3, PROG: 0.45, PRESTIGE: 1.0, CUBES: 0.35, LEVEL: 0.0}
#: weight of a pending tile's activation (its gain less its cost, valued with ``_GAIN_W``)
ACTIVATION_WEIGHT = 1.5
#: value of one unit gained by an activation or immediate effect, used for income estimates
_GAIN_W = {MONEY: 0.3, CULTURE: 0.6, EMP: 0.9, POP: 0.5, PS: 0.7, PROG: 0.6, PRESTIGE: 1.0, CUBES: 0.4, LEVEL: 0.0}


#: prestige per seat ahead in the turn order, and per initiative space from the left (see
#: ``initiative_penalty``; before it, 0.25 a seat by ``state.order`` alone). Chosen on a screen of
#: 200 two-player games each against that older greedy bot, of a one-step look-ahead on this
#: evaluation (own minus the opponent's): 0.25 a seat won 59%, 1.0 62%, 1.0 and 0.1 a space 67.5%
#: (0.3 or 0.6 a space: the same); the greedy bot with 1.0 and 0.1 won 62.5% of 200 against it.
ORDER_WEIGHT = 1.0
SPACE_WEIGHT = 0.1


def _expos_left(state) -> int:
    c = state.c
    r = state.round
    left = sum(1 for e in c.expo_rounds if e > r)
    if r in c.expo_rounds and not (state.phase == P_EXPO and state.expo_scored):  # this round's Expo still to come
        left += 1
    return left


def _gains_value(gains) -> float:
    return sum(_GAIN_W[tr] * amt for tr, amt in gains)


def evaluate(state, player: int, _depth: int = 0) -> float:
    """Estimated final prestige of ``player`` (higher is better).

    A decision of ``player`` left half-way (paying an activation, a pending upgrade, a free
    activation's target) is first completed: payments with tourists before cubes, the other
    choices by the better of their outcomes, so that the first step of a multi-step decision is
    valued by its result.

    Args:
        state: a ``CapitalsState``.
        player: the seat to evaluate for.

    Returns:
        A float on the prestige scale; at the end of the game, the final prestige plus a small
        bonus for winning so that the greedy bot prefers winning moves.
    """
    if state.player == player and state.step in (S_UPGRADE, S_PAY, S_FREE, S_REWARD, S_EFFECT) and _depth < 4:
        return _complete(state, player, _depth)
    c = state.c
    t = state.tracks
    n = state.n
    base = player * NT
    block = t[base:base + NT]
    if state.phase == P_END:
        return block[PRESTIGE] + (5.0 if state.ranking()[0] == player else 0.0)
    # a tile taken but not yet built: count its immediate gains now
    if state.pending_tile >= 0 and state.player == player and state.step == S_PLACE:
        tile = c.tiles[state.pending_tile]
        for tr, amt in tile.imm_for(c.era_of_round[state.round]):
            if tr == MONEY and amt < 0:
                block[MONEY] += amt  # payment (loans handled by the clamp below)
            else:
                block[tr] += amt
        block[POP] = min(block[POP], c.track_max[POP])
        block[EMP] = min(block[EMP], block[POP], c.track_max[EMP])
        block[PS] = max(min(block[PS], c.track_max[PS]), c.track_min[PS])
        bonus = 0.0
        if tile.has_activation:
            bonus += ACTIVATION_WEIGHT * max(0.0, _gains_value(tile.act_gain) - _gains_value(tile.act_cost))
        bonus += sum(_gains_value(eff.gains) for eff in tile.construction) * 0.8
        bonus += sum(_gains_value(g) for _, g in tile.perm_adjacent) * 0.6
        for cd in tile.cond:
            bonus += _gains_value(cd.gains) * 1.5
        bonus += _gains_value(tile.end_flat) + sum(_gains_value(cd.gains) * 2 for cd in tile.end_cond)
        if block[MONEY] < 1:  # loans: -1 prestige per $3 missing
            block[PRESTIGE] -= -(-(1 - block[MONEY]) // 3)
            block[MONEY] = 1
    elif state.step == S_LAKE and state.player == player:  # a Lake about to be placed: +2 cubes
        bonus = sum(_gains_value(((tr, amt),)) for tr, amt in c.lake_gains) + 0.5
    else:
        bonus = 0.0
    value = float(block[PRESTIGE]) + bonus
    # final conversions of today's holdings
    value += block[CUBES] / c.cubes_per_prestige + block[MONEY] / c.money_per_prestige
    value += block[CULTURE] / c.culture_per_prestige + (block[PROG] % c.loop)
    value += sum(_W[i] * block[i] for i in (MONEY, CULTURE, PS, PROG, CUBES))
    # World Expos still to come, scored with today's tracks (§5)
    expos = _expos_left(state)
    if expos:
        emp = min(block[EMP], len(c.employment_prestige) - 1)
        unemp = min(max(0, block[POP] - block[EMP]), len(c.unemployment_penalty) - 1)
        ps = block[PS]
        ahead = sum(1 for q in range(n) if q != player and t[q * NT + PS] > ps)
        per_expo = (c.employment_prestige[emp] + c.unemployment_penalty[unemp] + ahead * c.ps_rank_penalty
                    + 0.6 * c.ps_expo_progress[ps - c.track_min[PS]])
        value += expos * per_expo
    # income from activations in the rounds left
    rounds_left = c.rounds - state.round + (0 if state.phase >= P_EXECUTIVE else 1)
    if rounds_left > 0:
        tiles = c.tiles
        vals = sorted((_gains_value(tiles[x].act_gain) - _gains_value(tiles[x].act_cost)
                       - 0.3 * (tiles[x].cubes + 1)
                       for x in state.city[player].values() if tiles[x].has_activation), reverse=True)
        acts = c.plants[state.plant[player]].activations
        value += 0.5 * rounds_left * sum(v for v in vals[:acts] if v > 0)
        value += 0.8 * block[LEVEL] * rounds_left / c.rounds
        # population is room for future employment (employment never exceeds it, HU "Népesség sáv")
        value += 0.6 * min(block[POP], block[EMP] + 4) * rounds_left / c.rounds
    # earlier initiative is worth something (the first pick of the projects, and the leftmost marker
    # wins the ties of tourism and the public-service rank), little at the end
    value -= initiative_penalty(state, player, rounds_left)
    return value


def initiative_penalty(state, player: int, rounds_left: int) -> float:
    """Prestige lost to a later initiative: ``ORDER_WEIGHT`` per seat ahead in the turn order and
    ``SPACE_WEIGHT`` per space from the left of the initiative track, both fading over the last
    four rounds.

    During the politics phase the space a seat has just chosen counts as its place, and a seat still
    to choose keeps the space it left: the new spaces set the round's order (HU "Politika fázis",
    reference §2), so a choice is valued by the order it gives, not only by its price. Without this
    every space of the same price looked alike (a greedy bot took $2 x3 or $2 x2 at random).
    """
    if state.phase != P_POLITICS:      # the order is settled (sorted by initiative): the cheap path
        ahead, mine = state.order.index(player), state.initiative[player]
    else:
        chosen = state.chosen_space
        spaces = [chosen[q] if chosen[q] >= 0 else state.initiative[q] for q in range(state.n)]
        mine = spaces[player]
        ahead = sum(1 for q in range(state.n) if q != player and (spaces[q], q) < (mine, player))
    return (ORDER_WEIGHT * ahead + SPACE_WEIGHT * mine) * min(rounds_left, 4) / 4


def _complete(state, player: int, depth: int) -> float:
    """Value of the best completion of ``player``'s half-done decision (see ``evaluate``)."""
    legal = state.legal_actions()
    if state.step == S_PAY:  # paying an activation: tourists first (they are free), then cubes
        tourists = [a for a in legal if a.kind == "tourist"]
        choice = tourists[0] if tourists else legal[-1]
        nxt = state.clone()
        nxt.apply_action(choice)
        return evaluate(nxt, player, depth + 1)
    best = float("-inf")
    for a in legal:
        nxt = state.clone()
        nxt.apply_action(a)
        best = max(best, evaluate(nxt, player, depth + 1))
    return best
