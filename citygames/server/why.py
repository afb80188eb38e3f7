"""'Why can't I do this?' (issue 15, "Rules help"): the socket message ``{"type": "why", ...}``.

A seated player asks why a choice the page shows greyed out (an occupied initiative space, a card
they cannot pay for, ...) is not open to them. The answer is the engine's own refusal: the action
is tried on a *clone* of the table's state, so the table itself (its state, seq, log, database
rows) is never touched, and the ``IllegalActionError`` it raises names the rule in words.

The message names the action by its id (``"action": ID``) or by its kind and argument
(``"kind": K, "arg": A``: the page knows the argument of a greyed target from the components and
the observation, e.g. initiative space 3 is ``{"kind": "initiative", "arg": 2}``; the server maps
it to the id with the game's action space). The answer goes to the sender only (PROTOCOL.md,
"## Why not").
"""

from __future__ import annotations

from typing import Any

from citygames.core import SIMULTANEOUS, IllegalActionError

def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _resolve(game, msg: dict) -> tuple[int | None, str | None]:
    """The action id a "why" message names, or ``(None, refusal)``."""
    space = game.action_space
    if "action" in msg:
        a = msg.get("action")
        if not _is_int(a) or not 0 <= a < len(space):
            return None, f'"action" must be an action id in 0..{len(space) - 1}'
        return a, None
    kind, arg = msg.get("kind"), msg.get("arg", 0)
    if not isinstance(kind, str) or kind not in space.offsets:
        return None, 'name the action: "action": ID, or "kind" (an action kind of this game) and "arg"'
    if not _is_int(arg) or not 0 <= arg < space.sizes[kind]:
        return None, f'"arg" of kind {kind[:40]!r} must be in 0..{space.sizes[kind] - 1}'
    return space.offsets[kind] + arg, None


def why_answer(table, seat: int | None, msg: dict, refused: str | None = None) -> dict:
    """The answer to a "why" message of ``seat`` (``None``: a spectator) at ``table``.

    Returns ``{"type": "why", "action": ID | None, "legal": bool | None, "reason": str}``;
    ``legal`` is ``None`` (and ``reason`` the refusal) when the question itself is refused: a
    spectator, an unknown action, a finished game, or ``refused`` (the socket's rate-limit refusal,
    the limit ``why`` of ``security.DEFAULT_LIMITS``, checked by the caller). Never raises for bad
    input; never changes ``table``.
    """
    echo = msg.get("action") if _is_int(msg.get("action")) else None
    if seat is None:
        return {"type": "why", "action": echo, "legal": None, "reason": "spectators cannot ask: only a seated player can act"}
    if refused:
        return {"type": "why", "action": echo, "legal": None, "reason": refused}
    aid, refusal = _resolve(table.game, msg)
    if aid is None:
        return {"type": "why", "action": echo, "legal": None, "reason": refusal}
    state = table.state
    if table.finished or state.is_terminal():
        return {"type": "why", "action": aid, "legal": False, "reason": "the game is over"}
    to_move = state.players_to_move()
    if seat not in to_move:
        who = ", ".join(str(s) for s in to_move)
        return {"type": "why", "action": aid, "legal": False, "reason": f"it is not your turn: seat {who} is to move"}
    trial = state.clone()
    try:
        if trial.current_player() == SIMULTANEOUS:
            trial.apply_action(aid, player=seat)
        else:
            trial.apply_action(aid)
    except IllegalActionError as exc:
        reason = exc.rule + (f" ({exc.detail})" if exc.detail else "")
        return {"type": "why", "action": aid, "legal": False, "reason": reason}
    return {"type": "why", "action": aid, "legal": True, "reason": "this action is legal now"}
