"""Helpers shared by the server tests (in-process app through Starlette's TestClient)."""

from __future__ import annotations

import faulthandler
import socket
import sys
import time
import warnings
from contextlib import contextmanager

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from citygames.server.app import create_app


@contextmanager
def watchdog(seconds: float = 90):
    """Dump every thread's stack and exit if the body hangs (a blocked socket read never returns)."""
    faulthandler.dump_traceback_later(seconds, exit=True, file=sys.stderr)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


def free_port() -> int:
    """A free TCP port on the loopback address (for a real server subprocess)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(pred, seconds: float = 30.0, what: str = "the condition", poll: float = 0.05):
    """Poll ``pred()`` until it is truthy and return its value; fail the test after ``seconds``
    (a generous bound, not a timing claim)."""
    deadline = time.monotonic() + seconds
    while True:
        value = pred()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what} did not happen within {seconds} s"
        time.sleep(poll)


@contextmanager
def server(db_path, **kwargs):
    """A running app (lifespan included) on the SQLite file ``db_path``; bots move at once; no rate
    limits unless ``rate_limits`` is given."""
    kwargs.setdefault("bot_delay", 0)
    # tests play far faster than people: rate limits off unless a test sets them (test_server_security.py)
    kwargs.setdefault("rate_limits", None)
    app = create_app(str(db_path), **kwargs)
    with TestClient(app) as client:
        yield client


def manager(client):
    return client.app.state.manager


def create(client, seats, seed=None, game="the_capitals", options=None) -> dict:
    """Create a table; ``seats`` like ``["human", "bot:greedy"]``."""
    body = {"game": game, "seats": []}
    for s in seats:
        if s == "human":
            body["seats"].append({"kind": "human"})
        else:
            body["seats"].append({"kind": "bot", "bot": s.split(":", 1)[1]})
    if seed is not None:
        body["seed"] = seed
    if options is not None:
        body["options"] = options
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def ws_path(table: dict, seat: int | None = None) -> str:
    tid = table["table_id"]
    if seat is None:
        return f"/ws/tables/{tid}"
    return f"/ws/tables/{tid}?seat={seat}&token={table['seats'][seat]['token']}"


def until(ws, pred, limit: int = 5000) -> dict:
    """Receive messages until ``pred(message)``; returns that message."""
    for _ in range(limit):
        m = ws.receive_json()
        if pred(m):
            return m
    raise AssertionError("expected message never came")


def next_state(ws, min_seq: int = 0) -> dict:
    """The next ``state`` message with ``seq >= min_seq`` (errors are raised)."""
    def pred(m):
        if m["type"] == "error":
            raise AssertionError(f"unexpected error: {m}")
        return m["type"] == "state" and m["seq"] >= min_seq
    return until(ws, pred)


def my_turn(ws, seat: int, min_seq: int = 0) -> dict:
    """Wait until ``seat`` is to move (or the game ended) at ``seq >= min_seq``; returns that state."""
    def pred(m):
        if m["type"] == "error":
            raise AssertionError(f"unexpected error: {m}")
        return m["type"] == "state" and m["seq"] >= min_seq and (seat in m["to_move"] or m["terminal"])
    return until(ws, pred)


def play_to_end(ws, seat: int, state: dict, choose=lambda legal: legal[0]) -> dict:
    """Play ``seat`` (first legal action by default) from ``state`` until the game ends."""
    while not state["terminal"]:
        if seat in state["to_move"]:
            ws.send_json({"type": "action", "seq": state["seq"], "action": choose(state["legal"])["id"]})
            state = my_turn(ws, seat, state["seq"] + 1)
        else:
            state = my_turn(ws, seat, state["seq"] + 1)
    return state


def next_error(ws) -> dict:
    return until(ws, lambda m: m["type"] == "error")
