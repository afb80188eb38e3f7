"""7 Wonders Duel: science and progress — symbols, pairs that take a progress token from the board,
the Great Library's draw from the box, and scientific supremacy.

Rules: HU "Tudomány és fejlődés" (two identical symbols: take a token from the board) and
"Tudományos győzelem" (6 different symbols win at once), the progress-token texts ("Fejlődéskorong",
ref §4.6) and the Great Library ("A nagy könyvtár"); ref pitfalls P11 (3 tokens drawn from the box,
one kept, two returned for good; only the builder sees them), P16 (one token per pair, from the
board, if any remain), P17 (Law counts; checked again after a token choice) and §11.2 (the project
default: a pair's token must be taken).

This module holds two decisions: ``progress_token`` (a pair) and ``library`` (the Great Library).
"""

from __future__ import annotations

from citygames.core.phases import NO_DECISION

from .components import LAW, LAW_TOKEN, NS
from .constants import LIBRARY, SCIENCE, TOKEN
from .scoring import finish


def science_symbols(s, p: int) -> int:
    """Number of different science symbols seat ``p`` owns, Law's scales included (P17)."""
    b = p * NS
    sci = s.science
    return sum(1 for k in range(NS) if sci[b + k])


def _supremacy(s, p: int) -> bool:
    """Scientific supremacy (HU "Tudományos győzelem", P17): 6 different symbols end the game."""
    if science_symbols(s, p) >= 6:
        finish(s, p, SCIENCE)
        return True
    return False


def gain_symbol(s, p: int, symbol: int) -> None:
    """Seat ``p`` gains a green card's ``symbol``: supremacy, or on a pair a token from the board if
    any remain (P16) — the decision ``progress_token`` is then pending."""
    i = p * NS + symbol
    s.science[i] += 1
    if _supremacy(s, p):
        return
    if s.science[i] == 2 and s.progress_board:
        s.step = TOKEN


def _gain_token(s, p: int, t: int, source: str) -> None:
    """Seat ``p`` takes progress token ``t``: its coins at once (Agriculture, Urbanism); Law is a
    science symbol (HU Törvény, P17)."""
    owned = s.progress_tokens
    s.progress_tokens = (owned[0] | 1 << t, owned[1]) if p == 0 else (owned[0], owned[1] | 1 << t)
    s.event("progress", p, token=t, source=source)
    tk = s.c.tokens[t]
    if tk.coins:
        s.coins[p] += tk.coins
    if t == LAW_TOKEN:
        s.science[p * NS + LAW] += 1
        _supremacy(s, p)


# --- the decision "progress_token": a science pair (P16) ----------------------------------------------
def token_legal(s) -> list:
    """The board's tokens, and declining when the data rule ``progress_token_must_be_taken`` is false
    (§11.2: HU says the player "may" choose)."""
    g = s.game
    table = g.action_space.table
    base = g.off["progress"]
    out = [table[base + t] for t in s.progress_board]
    if not s.c.rules["progress_token_must_be_taken"]:
        out.append(table[g.off["decline_token"]])
    return out


def take_board_token(s, t: int) -> None:
    s.progress_board = tuple(x for x in s.progress_board if x != t)
    s.step = NO_DECISION
    _gain_token(s, s.player, t, "board")


def decline_token(s, _arg: int) -> None:
    s.step = NO_DECISION
    s.event("decline_token", s.player)


def token_why(s, a) -> str:
    if a.kind == "decline_token":
        return "science pair (§11.2, data rule progress_token_must_be_taken): a progress token must be taken"
    return f"science pair (P16): {s.c.tokens[a.arg].name} is not on the board"


def token_not_now(s, a) -> str:
    """Why progress token ``a.arg`` cannot be taken outside a science pair, in words (issue 15,
    "why can't I do this?"): a token is taken only on gathering a pair of identical science symbols
    (or from the Great Library's draw)."""
    name = s.c.tokens[a.arg].name
    where = "it is on the board" if a.arg in s.progress_board else "it is not on the board"
    return (f"progress token (§11.2, P16): {name} can be taken only when you gather a pair of identical "
            f"science symbols ({where}); now you must take an accessible card")


# --- the decision "library": the Great Library (P11) -----------------------------------------------
def library_draw(s, p: int) -> None:
    """Seat ``p`` built the Great Library: it draws 3 tokens from the front of the box (P11), seen by
    it only; with an empty box nothing happens."""
    box = s.progress_box
    s.library_draw = box[:3]
    s.progress_box = box[3:]
    if s.library_draw:
        s.step = LIBRARY
        s.event("library_draw", p, visible_to=p, tokens=sorted(s.library_draw))


def library_legal(s) -> list:
    g = s.game
    table = g.action_space.table
    base = g.off["progress"]
    return [table[base + t] for t in sorted(s.library_draw)]


def keep_library_token(s, t: int) -> None:
    """Keep ``t``; the other drawn tokens go back to the box for good (P11)."""
    s.progress_box = s.progress_box + tuple(x for x in s.library_draw if x != t)
    s.library_draw = ()
    s.step = NO_DECISION
    _gain_token(s, s.player, t, "library")


def library_why(s, a) -> str:
    return f"Great Library (P11): {s.c.tokens[a.arg].name} is not among the 3 tokens drawn"


__all__ = ["science_symbols", "gain_symbol", "token_legal", "take_board_token", "decline_token", "token_why",
           "library_draw", "library_legal", "keep_library_token", "library_why"]
