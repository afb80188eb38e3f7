"""The Capitals: setting up a game from its seed (HU "Alapjáték előkészületek", IT "Preparazione",
reference §2.1, §1).

Each city starts with a Hotel and a City Hall side by side, its two construction tokens between and
below them, the starting power plant with its cubes and the track markers on their start spaces.
The initiative order is random: the first player goes on the second space from the left and the
others fill the spaces to its right; each player loses the $ above its marker (no multiplier at
setup, IT example). The era decks are shuffled (tiles whose 4/5-player marker exceeds the player
count stay in the box) and 2 + players Era I tiles go on the $0 row. With 2 players a neutral
culture marker and tourist join, and one random tile of each type leaves each era deck unseen (HU,
IT 2-player rules). Prosperity: each player is dealt 6 hidden prosperity tiles (5 with 5 players).
"""

from __future__ import annotations

from citygames.core.rng import Rng

from . import administration
from .components import CUBES, CULTURE, LEVEL, MONEY, NT, NTYPES, PROG
from .steps import P_BUILDING, S_NONE
from .tracks import NCAT


def setup(s, game, seed: int) -> None:
    """Fill the game's own fields of the new state ``s`` (``CapitalsState.blank``) for ``game`` from
    ``seed``; the first decision is then found by the phase machine."""
    c = game.components
    n = game.num_players
    s.c, s.n = c, n
    rng = Rng(seed)
    s.tracks = []
    for _ in range(n):
        block = list(c.track_start)
        block[PROG] = c.progress_start
        block[CUBES] = c.plants[0].cubes
        block[LEVEL] = c.plants[0].level
        s.tracks.extend(block)
    s.score_sheet = [0] * (n * NCAT)
    s.plant = [0] * n
    g = c.grid
    origin = game.origin
    s.city = [{origin: c.hotel.idx, origin + 1: c.city_hall.idx} for _ in range(n)]
    s.cubes_on = [{} for _ in range(n)]
    ox, oy = origin % g, origin // g
    gi = g + 1
    s.tokens = [[oy * gi + ox + 1, (oy + 1) * gi + ox + 1] for _ in range(n)]
    s.type_count = [0] * (n * NTYPES)
    for p in range(n):
        s.type_count[p * NTYPES + c.hotel.type] += 1
        s.type_count[p * NTYPES + c.city_hall.type] += 1
    two = n == 2
    s.tourist_host = list(range(n)) + ([-1] if two else [])   # the neutral tourist starts beside the board
    s.tourist_slot = [-1] * len(s.tourist_host)
    s.tourist_used = [False] * len(s.tourist_host)
    s.neutral_culture = c.track_start[CULTURE] if two else -1
    seats = list(range(n))
    rng.shuffle(seats)
    s.initiative = [0] * n
    for i, p in enumerate(seats):
        s.initiative[p] = c.first_setup_space + i
    s.order = seats
    s.chosen_space = [-1] * n
    s.decks = [[]]
    s.removed = [[]]
    for era in (1, 2, 3):
        deck = [i for i in c.era_tiles[era] if c.tile_min_players(c.tiles[i]) <= max(n, 3)]
        rng.shuffle(deck)
        out = []
        if two:
            for typ in c.two_player_removed_types:
                pick = next((i for i in deck if c.tiles[i].type == typ), None)
                if pick is not None:
                    deck.remove(pick)
                    out.append(pick)
        s.decks.append(deck)
        s.removed.append(out)
    s.prosperity = bool(game.options.get("prosperity"))
    s.hands = [[] for _ in range(n)]
    s.prosperity_box = []
    s.lakes = [[] for _ in range(n)]
    s.prosperity_started = False
    s.extra_build_due = False
    if s.prosperity:
        pile = list(c.prosperity_tiles)
        rng.shuffle(pile)
        k = c.prosperity_hand[n]
        for p in range(n):
            s.hands[p] = sorted(pile[p * k:(p + 1) * k])
        s.prosperity_box = pile[n * k:]
        for p in range(n):
            s.event("deal", p, visible_to=p, tiles=[c.tiles[x].id for x in s.hands[p]])
    s.plants_taken = [0] * (c.max_plant_level + 2)
    s.highest_culture = -1
    s.round = 1
    s.phase = P_BUILDING
    s.step = S_NONE
    s.turn = 0
    s.player = -1
    s.pending_tile = s.pending_slot = s.cubes_due = -1
    s.activations_left = s.activations_made = 0
    s.executive_started = False
    s.token_index = 0
    s.upgrades_due = [0] * n
    s.expo_scored = False
    s.pending_effects = []
    s.effects_gathered = False
    for p in seats:   # the setup deduction: the $ above the marker, no multiplier (reference §2.1, IT)
        s.tracks[p * NT + MONEY] -= c.init_cost[s.initiative[p]]
    s.event("setup", None, order=list(seats), paid=[c.init_cost[s.initiative[p]] for p in range(n)])
    s.projects = [[], [], []]
    administration.refill(s, 1)
