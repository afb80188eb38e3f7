"""The server's edge (issue 16): bad input never harms a table or a listing, and the security
posture (JSON only, the WebSocket Origin check, security headers, per-client rate limits).

In-process through Starlette's TestClient, except the rate limit across two clients, which runs
``citygames serve`` as a subprocess and connects from two loopback addresses (127.0.0.1 and
127.0.0.2) so that the server sees two client IPs.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sqlite3
import subprocess
import sys
import time

import warnings

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect

with warnings.catch_warnings():   # as in server_helpers: the TestClient's deprecation notice
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketDenialResponse

from pg_helpers import postgres  # noqa: F401  (the session fixture)
from server_helpers import create, free_port, next_error, next_state, server, until, watchdog, ws_path

HUMANS = ["human", "human", "human"]


@pytest.fixture(autouse=True)
def _watchdog():
    with watchdog(60):
        yield


def _post_raw(client, text: str, ctype: str = "application/json"):
    return client.post("/api/tables", content=text.encode("utf-8", "surrogatepass"), headers={"content-type": ctype})


def _table_body(**changes) -> dict:
    body = {"game": "the_capitals", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"},
                                              {"kind": "bot", "bot": "random"}]}
    body.update(changes)
    return body


def _assert_error(r, code: int, *words: str) -> None:
    assert r.status_code == code, r.text
    msg = r.json()["error"]
    assert isinstance(msg, str)
    for w in words:
        assert w in msg, msg


# --- defect 1: user strings ------------------------------------------------------------------------
def test_lone_surrogates_and_control_characters_are_refused_and_the_lobby_stays_up(tmp_path):
    with server(tmp_path / "t.sqlite3") as client:
        good = create(client, ["human", "bot:greedy", "bot:random"])
        surrogate = '"\\ud800"'      # a JSON escape that decodes to a lone surrogate
        seat = '{"kind": "human", "name": %s}'
        cases = [
            ('{"game": "the_capitals", "seats": [%s, {"kind": "human"}, {"kind": "human"}]}' % (seat % surrogate),
             "Unicode"),
            ('{"game": "the_capitals", "seats": [{"kind": "bot", "bot": %s}, {"kind": "human"}, {"kind": "human"}]}'
             % surrogate, "Unicode"),
            ('{"game": %s, "seats": [{"kind": "human"}]}' % surrogate, "Unicode"),
            ('{"game": "the_capitals", "options": {%s: 1}, "seats": [{"kind": "human"}, {"kind": "human"}]}'
             % surrogate, "Unicode"),
            ('{"game": "the_capitals", "options": {"num_players": %s}, "seats": [{"kind": "human"}]}' % surrogate,
             "Unicode"),
            ('{"game": "the_capitals", "seats": [%s, {"kind": "human"}, {"kind": "human"}]}'
             % (seat % '"Ann\\u0000"'), "control"),
            ('{"game": "the_capitals", "seats": [%s, {"kind": "human"}, {"kind": "human"}]}'
             % (seat % '"Ann\\u202egnp.exe"'), "control"),
            ('{"game": "the_capitals", "seats": [%s, {"kind": "human"}, {"kind": "human"}]}'
             % (seat % '"Ann\\u0085"'), "control"),
            ('{"game": "%s", "seats": [{"kind": "human"}]}' % ("g" * 65), "at most"),
            ('{"game": "the_capitals", "options": {"%s": 1}, "seats": [{"kind": "human"}]}' % ("o" * 65), "at most"),
            ('{"game": "the_capitals", "options": {"num_players": [3]}, "seats": [{"kind": "human"}]}', "number"),
            ('{"game": "the_capitals", "options": {"num_players": 1%s}, "seats": [{"kind": "human"}]}' % ("0" * 30),
             "range"),
        ]
        for text, word in cases:
            _assert_error(_post_raw(client, text), 422, word)
        # a name with letters beyond ASCII (and emoji) is fine; blanks fall back to the seat's name
        r = client.post("/api/tables", json=_table_body(seats=[{"kind": "human", "name": " Zoë 🎲 "},
                                                               {"kind": "human", "name": "  "},
                                                               {"kind": "bot", "bot": "greedy", "name": "Bøt"}]))
        assert r.status_code == 201, r.text
        assert [s["name"] for s in r.json()["seats"]][0] == "Zoë 🎲"
        lobby = client.get("/api/tables")
        assert lobby.status_code == 200
        assert {t["table_id"] for t in lobby.json()} == {good["table_id"], r.json()["table_id"]}
        # a query string is checked too: option names and values of the components route
        _assert_error(client.get("/api/games/the_capitals/components?num_players=%00"), 422, "control")


def test_a_stored_row_that_cannot_be_encoded_never_breaks_the_listing(tmp_path, caplog):
    db = tmp_path / "t.sqlite3"
    with server(db) as client:
        good = create(client, HUMANS)
        # rows written by an older server, which stored whatever it was sent: a lone surrogate in a
        # seat name (JSON text "\ud800", as json.dumps writes it) and a seat without kind or name
        with sqlite3.connect(db) as con:
            cols = "id, game, options, seed, seats, status, seq, created_at"
            con.execute(f"INSERT INTO tables ({cols}) VALUES (?, 'the_capitals', ?, 1, ?, 'finished', 0, "
                        f"'2030-01-01 00:00:00')",
                        ("oldsurrogat", json.dumps({"num_players": 2}),
                         json.dumps([{"seat": 0, "kind": "human", "name": "Ann\ud800"},
                                     {"seat": 1, "kind": "bot", "bot": "greedy", "name": "B"}])))
            con.execute(f"INSERT INTO tables ({cols}) VALUES (?, 'the_capitals', '{{}}', 1, ?, 'finished', 0, "
                        f"'2030-01-02 00:00:00')", ("oldbrokenrow", json.dumps([{"seat": 0}])))
            # and one the repository cannot even read as a table: options a list, seats a string
            con.execute(f"INSERT INTO tables ({cols}) VALUES ('oldunreadab', 'the_capitals', '[1]', 1, '\"x\"', "
                        f"'open', 0, '2030-01-03 00:00:00')")
        with caplog.at_level(logging.WARNING, logger="citygames.server"):
            for _ in range(2):
                r = client.get("/api/tables")
                assert r.status_code == 200, r.text
                listed = {t["table_id"]: t for t in r.json()}
                assert set(listed) == {good["table_id"], "oldsurrogat"}   # the unlistable row is left out
                assert listed["oldsurrogat"]["seats"][0]["name"] == "Ann\ufffd"
            one = client.get("/api/tables/oldsurrogat")
            assert one.status_code == 200 and one.json()["seats"][0]["name"] == "Ann\ufffd"
            assert client.get("/api/tables?status=finished").status_code == 200
            assert client.get("/api/tables?status=open").status_code == 200
            assert client.get("/api/tables/oldunreadab").status_code == 404
        logged = [rec.getMessage() for rec in caplog.records if "stored row" in rec.getMessage()]
        assert len([m for m in logged if "oldsurrogat" in m]) == 1, logged   # once, not per request
        assert len([m for m in logged if "oldbrokenrow" in m]) == 1, logged


# --- defect 2: ids, depth ----------------------------------------------------------------------------
BAD_IDS = ["%00", "abc%00def", "x" * 33, "%C3%A9t%C3%A9", "ABCDEF", "a%0Ab", "..%2F..%2Fetc", "%FF"]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_table_ids_outside_the_alphabet_are_unknown_tables_on_every_route(tmp_path, kind, request):
    """SQLite, and PostgreSQL (which refuses a NUL in a string: the audit's 500): the database
    CITYGAMES_TEST_POSTGRES names, else a fresh one on the throwaway server (tests/pg_helpers.py)."""
    db = tmp_path / "t.sqlite3"
    if kind == "postgresql":
        db = os.environ.get("CITYGAMES_TEST_POSTGRES") or request.getfixturevalue("postgres").new_database("ids")
    with server(db) as client:
        for bad in BAD_IDS:
            for path in (f"/api/tables/{bad}", f"/api/tables/{bad}/record", f"/api/tables/{bad}/replay",
                         f"/table/{bad}", f"/replay/{bad}", f"/table/{bad}?seat=0&token=abc"):
                r = client.get(path)
                assert r.status_code == 404, (path, r.status_code, r.text)
                assert isinstance(r.json()["error"], str), path
            with pytest.raises(WebSocketDisconnect) as exc, client.websocket_connect(f"/ws/tables/{bad}") as ws:
                ws.receive_json()
            # (an id with a slash is no table route at all: the socket is refused without a route)
            assert exc.value.code == (1000 if "%2F" in bad else 4404), bad


def test_seat_and_token_query_values_outside_their_alphabet_are_wrong_tokens(tmp_path):
    with server(tmp_path / "t.sqlite3") as client:
        t = create(client, HUMANS)
        tid = t["table_id"]
        token = t["seats"][0]["token"]
        for query in (f"seat=0&token={token}%00", f"seat=0&token=%C3%A9{token}", f"seat=00000000000&token={token}",
                      f"seat=-0&token={token}", f"seat=%00&token={token}", "seat=0&token=" + "a" * 5000, "seat=0"):
            with pytest.raises(WebSocketDisconnect) as exc, client.websocket_connect(f"/ws/tables/{tid}?{query}") as ws:
                ws.receive_json()
            assert exc.value.code == 4403, query
            assert client.get(f"/table/{tid}?{query}").status_code == 403, query
        with client.websocket_connect(ws_path(t, 0)) as ws:   # the right one still joins
            assert next_state(ws)["your_seat"] == 0


def test_deeply_nested_json_bodies_get_a_4xx(tmp_path):
    with server(tmp_path / "t.sqlite3") as client:
        for text in ("[" * 20000 + "]" * 20000, '{"a":' * 10000 + "1" + "}" * 10000,
                     '{"game": "the_capitals", "seats": ' + "[" * 100 + "]" * 100 + "}"):
            _assert_error(_post_raw(client, text), 400, "deeper")
        _assert_error(_post_raw(client, '{"game": "the_capitals", "seed": NaN, "seats": []}'), 400, "JSON")
        _assert_error(_post_raw(client, '{"game": "the_capitals", "options": {"num_players": 1e400}, "seats": []}'),
                      400, "JSON")
        _assert_error(_post_raw(client, "[" * 70000), 413, "too large")
        r = client.post("/api/tables", content=b'{"game": "\xff"}', headers={"content-type": "application/json"})
        _assert_error(r, 400, "UTF-8")
        # brackets inside strings are text, not nesting
        r = client.post("/api/tables", json=_table_body(seats=[{"kind": "human", "name": "[[[[" * 10},
                                                               {"kind": "human"}, {"kind": "human"}]))
        assert r.status_code == 201, r.text


def test_a_deeply_nested_socket_message_gets_an_error_and_the_socket_stays_open(tmp_path):
    with server(tmp_path / "t.sqlite3") as client:
        t = create(client, HUMANS)
        with client.websocket_connect(ws_path(t, 0)) as ws:
            st = next_state(ws)
            ws.send_text("[" * 1500 + "]" * 1500)
            assert "deeper" in next_error(ws)["message"]
            ws.send_text('{"type": "action", "seq": 0, "action": ' + "[" * 40 + "]" * 40 + "}")
            assert "deeper" in next_error(ws)["message"]
            ws.send_text('{"type": "ping", "x": NaN}')
            assert "JSON" in next_error(ws)["message"]
            ws.send_json({"type": "ping"})
            assert until(ws, lambda m: m["type"] == "pong")["seq"] == st["seq"]   # still open
        mover = st["to_move"][0]
        with client.websocket_connect(ws_path(t, mover)) as ws:                   # the table plays on
            st = next_state(ws)
            ws.send_json({"type": "action", "seq": st["seq"], "action": st["legal"][0]["id"]})
            assert next_state(ws, st["seq"] + 1)["seq"] == st["seq"] + 1


# --- JSON only -------------------------------------------------------------------------------------
def test_table_creation_accepts_json_only(tmp_path):
    with server(tmp_path / "t.sqlite3") as client:
        body = json.dumps(_table_body())
        for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                      "application/json-patch+json", "application/json; charset=latin-1"):
            _assert_error(_post_raw(client, body, ctype), 415, "application/json")
        r = client.post("/api/tables", content=body.encode())   # no Content-Type at all
        _assert_error(r, 415, "application/json")
        assert client.get("/api/tables").json() == []            # nothing was created
        assert _post_raw(client, body, "application/json; charset=UTF-8").status_code == 201


# --- Origin ----------------------------------------------------------------------------------------
def test_sockets_from_another_sites_page_are_refused(tmp_path, caplog):
    with server(tmp_path / "t.sqlite3", allowed_origins=["https://games.example.org"]) as client:
        t = create(client, HUMANS)
        path = ws_path(t, 0)
        with caplog.at_level(logging.WARNING, logger="citygames.server"):
            for origin in ("https://evil.example", "null", "http://testserver.evil.example", "http://testserver:81",
                           "https://games.example.org:8443", "not a url"):
                with pytest.raises(WebSocketDenialResponse) as exc:
                    with client.websocket_connect(path, headers={"origin": origin}):
                        pass
                assert exc.value.status_code == 403, origin
                assert "origin" in exc.value.json()["error"]
        assert any("evil.example" in r.getMessage() for r in caplog.records)
        # accepted: no Origin (not a browser), the server's own origin (TestClient's Host is
        # "testserver"), an allowed one, spelled in any case and with its default port
        for headers in ({}, {"origin": "http://testserver"}, {"origin": "https://testserver"},
                        {"origin": "https://games.example.org"}, {"origin": "HTTPS://Games.Example.org:443"}):
            with client.websocket_connect(path, headers=headers) as ws:
                assert next_state(ws)["your_seat"] == 0, headers


# --- headers ---------------------------------------------------------------------------------------
def test_security_headers_on_every_response(tmp_path):
    with server(tmp_path / "t.sqlite3") as client:
        t = create(client, HUMANS)
        tid = t["table_id"]
        for path in ("/", f"/table/{tid}", f"/replay/{tid}", "/api/tables", "/api/games", f"/api/tables/{tid}",
                     "/static/app.js", "/static/style.css", "/static/nothing.js", "/api/tables/nosuchtable",
                     f"/api/tables/{tid}/record"):
            r = client.get(path)
            h = r.headers
            assert h["x-content-type-options"] == "nosniff", path
            assert h["x-frame-options"] == "DENY", path
            assert h["referrer-policy"] == "no-referrer", path
            csp = {d.split()[0]: d.split()[1:] for d in h["content-security-policy"].split("; ")}
            assert csp["default-src"] == ["'none'"], path
            assert csp["script-src"] == ["'self'"], path
            assert csp["frame-ancestors"] == ["'none'"], path
            assert csp["style-src-elem"] == ["'self'"], path
            assert csp["connect-src"] == ["'self'", "ws://testserver", "wss://testserver"], path
        r = client.post("/api/tables", content=b"x", headers={"content-type": "text/plain"})
        assert r.status_code == 415 and r.headers["x-frame-options"] == "DENY"
        r = client.get("/api/tables", headers={"host": "evil\r\nx: y"})  # a strange Host is never echoed
        assert "evil" not in r.headers["content-security-policy"]


def test_an_unexpected_error_is_a_json_500_with_the_headers(tmp_path):
    from citygames.server.app import create_app
    app = create_app(str(tmp_path / "t.sqlite3"), rate_limits=None)

    @app.get("/api/boom")      # a route with a bug
    async def boom():
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/api/boom")
    assert r.status_code == 500 and r.json() == {"error": "internal server error"}
    assert r.headers["x-frame-options"] == "DENY" and "default-src 'none'" in r.headers["content-security-policy"]


def test_the_pages_run_only_script_files_of_the_server(tmp_path):
    """What script-src 'self' needs: no inline script, no handler attribute, no <style> element;
    every script a file served here (the pages were checked in headless Chromium too)."""
    import re
    with server(tmp_path / "t.sqlite3") as client:
        t = create(client, HUMANS)
        for path in ("/", f"/table/{t['table_id']}", f"/replay/{t['table_id']}"):
            html = client.get(path).text
            tags = re.findall(r"<script\b[^>]*>", html)
            assert tags, path
            for tag in tags:
                src = re.search(r'src="([^"]+)"', tag)
                assert src and src.group(1).startswith("/static/"), (path, tag)
                assert client.get(src.group(1)).status_code == 200, tag
            assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html), path     # nothing between the tags
            assert "<style" not in html and not re.search(r"\son[a-z]+=", html), path


# --- rate limits -----------------------------------------------------------------------------------
SMALL = {"create": "3/minute", "join": "3/minute", "watch": "2/minute", "replay": "2/minute",
         "message": "5/minute", "flood": "3/minute"}


def test_rate_limits_answer_429_with_retry_after(tmp_path):
    with server(tmp_path / "t.sqlite3", rate_limits=SMALL) as client:
        tables = [create(client, HUMANS) for _ in range(3)]
        r = client.post("/api/tables", json=_table_body())
        _assert_error(r, 429, "too many requests", "3 per 1 minute")
        assert 1 <= int(r.headers["retry-after"]) <= 60
        # replay/record requests (of an unfinished table: counted all the same)
        tid = tables[0]["table_id"]
        assert client.get(f"/api/tables/{tid}/record").status_code == 409
        assert client.get(f"/api/tables/{tid}/replay").status_code == 409
        r = client.get(f"/api/tables/{tid}/replay")
        _assert_error(r, 429, "too many requests")
        assert "retry-after" in r.headers
        # spectator connects: 2 a minute, then refused before the socket opens
        for _ in range(2):
            with client.websocket_connect(ws_path(tables[0])) as ws:
                next_state(ws)
        with pytest.raises(WebSocketDenialResponse) as exc, client.websocket_connect(ws_path(tables[0])):
            pass
        assert exc.value.status_code == 429 and "retry-after" in exc.value.headers
        assert "too many connections" in exc.value.json()["error"]
        # seat joins are counted apart from spectators: 3 a minute
        for seat in range(3):
            with client.websocket_connect(ws_path(tables[1], seat)) as ws:
                next_state(ws)
        with pytest.raises(WebSocketDenialResponse) as exc, client.websocket_connect(ws_path(tables[1], 0)):
            pass
        assert exc.value.status_code == 429
        # the lobby itself is not limited
        assert client.get("/api/tables").status_code == 200


def test_socket_messages_over_the_limit_get_an_error_and_a_flood_closes_the_socket(tmp_path):
    with server(tmp_path / "t.sqlite3", rate_limits=SMALL) as client:
        t = create(client, HUMANS)
        with client.websocket_connect(ws_path(t, 0)) as ws:
            next_state(ws)
            for _ in range(5):
                ws.send_json({"type": "ping"})
                until(ws, lambda m: m["type"] == "pong")
            for _ in range(3):        # refused but answered: the socket stays open
                ws.send_json({"type": "ping"})
                assert "too many messages" in next_error(ws)["message"]
            ws.send_json({"type": "ping"})   # the fourth refusal in a minute: a flood
            with pytest.raises(WebSocketDisconnect) as exc:
                until(ws, lambda m: False)
            assert exc.value.code == 1008


def test_rate_limits_can_be_turned_off_and_bad_ones_are_refused(tmp_path):
    from click.testing import CliRunner

    from citygames.cli import main
    from citygames.server.app import create_app
    with server(tmp_path / "t.sqlite3", rate_limits={"create": "off", "message": None}) as client:
        for _ in range(40):           # above the default 30 a minute, which is off here
            create(client, HUMANS)
    for bad in ({"tables": "1/minute"}, {"create": "lots"}):
        with pytest.raises(ValueError):
            create_app(str(tmp_path / "x.sqlite3"), rate_limits=bad)
    with pytest.raises(ValueError):
        create_app(str(tmp_path / "x.sqlite3"), allowed_origins=["javascript:alert(1)"])
    r = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "y.sqlite3"), "--rate-limit", "create"])
    assert r.exit_code == 2 and "NAME=N/PERIOD" in r.output
    r = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "y.sqlite3"), "--rate-limit", "nope=1/minute"])
    assert r.exit_code == 2 and "unknown rate limit" in r.output



def test_a_client_over_its_limits_does_not_harm_another_client(tmp_path):
    """A real server: client A (127.0.0.1) exhausts its table and spectator limits; client B
    (127.0.0.2) still creates, watches and plays."""
    from websockets.sync.client import connect

    port = free_port()
    log = open(tmp_path / "serve.log", "w+")
    proc = subprocess.Popen([sys.executable, "-m", "citygames.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--db", str(tmp_path / "s.sqlite3"), "--bot-delay", "0", "--rate-limit", "create=2/minute",
                             "--rate-limit", "watch=2/minute", "--allowed-origin", "https://games.example.org"],
                            stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        a = httpx.Client(base_url=base, transport=httpx.HTTPTransport(local_address="127.0.0.1"))
        b = httpx.Client(base_url=base, transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        deadline = time.monotonic() + 30
        while True:
            try:
                a.get("/api/games")
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, log.seek(0) or log.read()
                time.sleep(0.2)

        def ws(source: str, path: str, origin: str | None = None):
            sock = socket.socket()
            sock.bind((source, 0))
            sock.connect(("127.0.0.1", port))
            return connect(f"ws://127.0.0.1:{port}{path}", sock=sock, open_timeout=10, origin=origin)

        body = _table_body(seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}])
        made = [a.post("/api/tables", json=body) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 429]
        t = made[0].json()
        for _ in range(2):
            with ws("127.0.0.1", f"/ws/tables/{t['table_id']}") as spec:
                assert json.loads(spec.recv(timeout=10))["type"] == "state"
        from websockets.exceptions import InvalidStatus
        with pytest.raises(InvalidStatus) as exc:
            ws("127.0.0.1", f"/ws/tables/{t['table_id']}")
        assert exc.value.response.status_code == 429
        # client B: its own limits, untouched by A's
        rb = b.post("/api/tables", json=body)
        assert rb.status_code == 201, rb.text
        tb = rb.json()
        with ws("127.0.0.2", f"/ws/tables/{t['table_id']}", origin="https://games.example.org") as spec:
            assert json.loads(spec.recv(timeout=10))["type"] == "state"      # --allowed-origin
        with pytest.raises(InvalidStatus) as exc:
            ws("127.0.0.2", f"/ws/tables/{t['table_id']}", origin="https://evil.example")
        assert exc.value.response.status_code == 403
        assert "evil.example" in (tmp_path / "serve.log").read_text()     # the refusal is logged
        with ws("127.0.0.2", f"/ws/tables/{tb['table_id']}?seat=0&token={tb['seats'][0]['token']}") as seat:
            st = json.loads(seat.recv(timeout=10))
            while 0 not in st["to_move"]:       # the bots move first when they are to
                st = json.loads(seat.recv(timeout=10))
            assert st["your_seat"] == 0 and st["legal"]
            seat.send(json.dumps({"type": "action", "seq": st["seq"], "action": st["legal"][0]["id"]}))
            while True:
                m = json.loads(seat.recv(timeout=10))
                assert m["type"] == "state", m
                if m["seq"] > st["seq"]:
                    break
        a.close()
        b.close()
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
        log.close()
