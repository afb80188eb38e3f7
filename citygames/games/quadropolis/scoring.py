# TEMPORARY stand-in until the real module lands (not committed)
from typing import NamedTuple
CATEGORIES = ("towers", "shops", "public_services", "parks", "factories", "harbours", "offices", "monuments", "inhabitants", "energy")
class Allocation(NamedTuple):
    active: tuple
    customers: tuple
    breakdown: dict
    total: int
def city_score(board, types, heights, vps, active, customers, inhabitants, energy):
    d = {k: 0 for k in CATEGORIES}
    ui = ue = 0
    for x, t in enumerate(types):
        if t and active[x]:
            ui += board.cost_inh[t]; ue += board.cost_energy[t]
            if t == 1: d["towers"] += board.tower_vp[heights[x]]
        ui += customers[x]
    d["inhabitants"] = -(inhabitants - ui)
    d["energy"] = -max(0, energy - ue - sum(1 for t in types if t == 4))
    return d
def best_allocation(board, types, heights, vps, inhabitants, energy):
    act = []; i, e = inhabitants, energy
    for x, t in enumerate(types):
        ok = t and board.cost_inh[t] <= i and board.cost_energy[t] <= e
        if ok: i -= board.cost_inh[t]; e -= board.cost_energy[t]
        act.append(bool(ok))
    cust = [0] * len(types)
    d = city_score(board, types, heights, vps, act, cust, inhabitants, energy)
    return Allocation(tuple(act), tuple(cust), d, sum(d.values()))
