"""7 Wonders Duel: setting up a game from its seed.

Rules: HU "A játék előkészületei" and "Koronként egy pakli kártya"; ref §6.1-§6.3: pawn in the centre,
4 military tokens, 5 of the 10 progress tokens on the board and 5 in the box, 7 coins each, a first
player; 3 cards removed unseen from each age deck and 3 random guilds shuffled into Age III. Values
from ``board.yaml`` ``setup``.

Every card of the game is dealt here from the seed (dealing each age when it begins would be
statistically the same, ref §5), so the only chance is in the setup (and in ``resample``).
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION
from citygames.core.rng import Rng

from .components import NC, NR, NS, Components


def deal_age(c: Components, age: int, rng: Rng) -> tuple[tuple, tuple, tuple]:
    """``(deck, removed, guild_box)`` of ``age``: the 20 cards of its structure in slot order, the 3
    removed unseen (sorted) and, for Age III, the guilds left in the box (sorted; else ``()``)."""
    deck = list(c.age_cards[age])
    rng.shuffle(deck)
    k = c.setup["cards_removed_per_age"]
    removed = tuple(sorted(deck[:k]))
    deck = deck[k:]
    box = ()
    if age == 3:
        guilds = list(c.guilds)
        rng.shuffle(guilds)
        ng = c.setup["guilds_in_age_3"]
        deck += guilds[:ng]
        box = tuple(sorted(guilds[ng:]))
        rng.shuffle(deck)
    return tuple(deck), removed, box


def set_up(s, game, seed: int) -> None:
    """Fill the game's own fields of the new state ``s`` (``DuelState.blank``) for a game set up from
    ``seed`` (no decision pending yet: the draft's ``run`` reveals the first wonders, or with
    first-game wonders starts Age I)."""
    c: Components = game.components
    s.c = c
    rng = Rng(seed)
    s.first_player = first = rng.randbelow(2)
    order = list(range(len(c.wonders)))
    rng.shuffle(order)
    tokens = list(range(len(c.tokens)))
    rng.shuffle(tokens)
    k = c.setup["progress_tokens_on_board"]
    s.progress_board = tuple(sorted(tokens[:k]))
    s.progress_box = tuple(tokens[k:])
    s.library_draw = ()
    decks, removed = [()], [()]
    for age in (1, 2, 3):
        deck, out, box = deal_age(c, age, rng)
        decks.append(deck)
        removed.append(out)
    s.age_decks, s.removed_cards, s.guild_box = tuple(decks), tuple(removed), box
    s.coins = [c.setup["starting_coins"]] * 2
    s.city = [[], []]
    s.color_count = [0] * (2 * NC)
    s.production = [0] * (2 * NR)
    s.one_of = ((), ())
    s.fixed_price = (False,) * (2 * NR)
    s.chains = [0, 0]
    s.science = [0] * (2 * NS)
    s.progress_tokens = (0, 0)
    s.pawn = 0
    s.military_tokens = (True,) * 4
    s.discard_pile = []
    s.wonder_card = (-1,) * len(c.wonders)
    s.total_wonders_built = 0
    s.extra_turn = False
    s.last_taker = -1
    s.winner = -1
    s.victory = -1
    s.destroy_color = -1
    s.age = 0
    s.structure = [-1] * 20
    s.face_up = [False] * 20
    s.cards_taken = 0
    s.draft_pool = ()
    s.step = NO_DECISION
    s.player = first
    if game.options["first_game_wonders"]:
        fw = c.first_game_wonders
        s.wonders = (fw[0], fw[1]) if first == 0 else (fw[1], fw[0])
        s.unrevealed_wonders = tuple(w for w in order if w not in fw[0] + fw[1])
        s.event("fixed_wonders", None, first=first, wonders=[list(w) for w in s.wonders])
    else:
        s.wonders = ((), ())
        s.unrevealed_wonders = tuple(order)


__all__ = ["deal_age", "set_up"]
