"""The FastAPI application of the browser table: ``create_app(db_url)``.

HTTP and WebSocket endpoints exactly as in ``PROTOCOL.md``; the tables themselves live in
``tables.TableManager``. Run it with ``citygames serve`` (uvicorn).
"""

from __future__ import annotations

import asyncio
import html
import itertools
import json
import logging
import re
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import quote

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from citygames.bots import BOT_ABOUT, BOTS, LEVEL_NAMES
from citygames.core import GameOptionError, load_game, registered_games
from citygames.core.data import DATA_OVERRIDES
from citygames.core.events import named_seats
from citygames.core.errors import CitygamesError
from citygames.core.registry import game_info
from citygames.core.records import replay as replay_record

from . import social
from . import lifecycle
from .db import Repository, resolve_db_url
from .health import STORAGE_REFUSAL, StorageUnavailable
from .rules_page import rules_page
from .security import (DEFAULT_RATE_LIMITS, JsonError, RateLimits, SecurityHeaders, TextError, check_text, json_safe,
                       normalise_origin, origin_allowed, parse_json, valid_seat, valid_table_id, valid_token)
from .stats import StatsCache
from .tables import IDLE_EVICT, Connection, TableManager, event_json, public_seat, summary, token_ok

log = logging.getLogger("citygames.server")

STATIC_DIR = Path(__file__).parent / "static"
#: largest accepted request body (bytes)
MAX_BODY = 64 * 1024
#: largest WebSocket frame uvicorn accepts at all (bigger ones close the socket with 1009);
#: frames between 4 KiB and this get an ``error`` message and the socket stays open
WS_MAX_FRAME = 64 * 1024
MAX_NAME = 40
#: longest game id, option name and option text value a client may send (defect 1)
MAX_GAME_ID = 64
MAX_OPTION_NAME = 64
MAX_OPTION_TEXT = 200
MAX_OPTIONS = 32
PAGES = {"index.html": "Lobby", "table.html": "Table", "replay.html": "Replay"}

__all__ = ["create_app", "resolve_db_url", "WS_MAX_FRAME", "DEFAULT_RATE_LIMITS"]


class ApiError(StarletteHTTPException):
    """An HTTP error answered as ``{"error": message}``."""


def _games_json() -> list[dict]:
    out = []
    for gid in registered_games():
        try:
            info = game_info(gid)
        except Exception:  # pragma: no cover - a broken or half-written game package must not take the lobby down
            log.warning("game %s cannot be loaded; left out of /api/games", gid, exc_info=True)
            continue
        out.append({
            "id": info.id, "name": info.name, "min_players": info.min_players, "max_players": info.max_players,
            "options": [{"name": o.name, "default": o.default, "doc": o.doc, "min": o.min, "max": o.max,
                         "choices": list(o.choices) if o.choices is not None else None} for o in info.options],
        })
    return out


_JSON_TYPE = re.compile(r"\s*application/json\s*(;\s*charset\s*=\s*\"?utf-8\"?\s*)?", re.I)


async def _read_json(request: Request):
    """The request's JSON body (issue 16, security posture and defect 2).

    Only ``Content-Type: application/json`` (optionally ``; charset=utf-8``) is read, so a form of
    another site (``text/plain``, urlencoded, multipart: no CORS preflight) cannot post; the size is
    checked while reading and the depth before parsing (``security.parse_json``).

    Raises:
        ApiError: 415 another content type; 413 over ``MAX_BODY`` bytes; 400 not UTF-8, nested
            deeper than ``security.MAX_JSON_DEPTH`` or not JSON.
    """
    ctype = request.headers.get("content-type")
    if ctype is None or not _JSON_TYPE.fullmatch(ctype):
        raise ApiError(415, "the body must be JSON sent with Content-Type: application/json")
    length = request.headers.get("content-length")
    if length and length.isdigit() and int(length) > MAX_BODY:
        raise ApiError(413, f"request body too large (limit {MAX_BODY} bytes)")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, f"request body too large (limit {MAX_BODY} bytes)")
    try:
        return parse_json(body, max_bytes=MAX_BODY)
    except JsonError as exc:
        msg = f"request body too large (limit {MAX_BODY} bytes)" if exc.status == 413 else f"malformed JSON body: {exc}"
        raise ApiError(exc.status, msg) from None


def _clean_name(name, default: str, what: str = "a seat name") -> str:
    """A seat or bot name as given (surrounding white space removed) or ``default`` when it is
    missing or blank; ``ApiError`` 422 when it is not valid text (``security.check_text``: lone
    surrogates, control characters) or longer than ``MAX_NAME`` characters (defect 1)."""
    if name is None:
        return default
    try:
        name = check_text(name, what, MAX_NAME).strip()
    except TextError as exc:
        raise ApiError(422, str(exc)) from None
    return name or default


def _check_text(value, what: str, max_len: int) -> str:
    try:
        return check_text(value, what, max_len)
    except TextError as exc:
        raise ApiError(422, str(exc)) from None


def _check_options(options: dict) -> None:
    """Game options from a client (table body or query string): at most ``MAX_OPTIONS`` names of
    valid text, values scalars whose text is valid; ``ApiError`` 422 (defect 1)."""
    if len(options) > MAX_OPTIONS:
        raise ApiError(422, f"at most {MAX_OPTIONS} options")
    for name, value in options.items():
        _check_text(name, "an option name", MAX_OPTION_NAME)
        if name == DATA_OVERRIDES:
            continue  # refused with its own message
        if isinstance(value, str):
            _check_text(value, f"option {name}", MAX_OPTION_TEXT)
        elif value is not None and not isinstance(value, (bool, int, float)):
            raise ApiError(422, f"option {name} must be a number, a string, true/false or null")
        elif isinstance(value, int) and not -2 ** 63 <= value < 2 ** 63:
            raise ApiError(422, f"option {name} is out of range")


def _seat_number(raw: str | None) -> int:
    """The seat a ``?seat=`` query parameter names; -1 (no seat: every token check fails) when it
    is missing or not a number."""
    try:
        return int(raw) if raw is not None else -1
    except ValueError:
        return -1


def _parse_table_request(body) -> tuple:
    """Check a ``POST /api/tables`` body; returns ``(game, seats, seed)``; ``ApiError`` 400/422."""
    if not isinstance(body, dict):
        raise ApiError(400, "the body must be a JSON object")
    game_id = _check_text(body.get("game"), "game", MAX_GAME_ID)
    if game_id not in registered_games():
        raise ApiError(422, f"unknown game {game_id!r}; known games: {', '.join(registered_games())}")
    options = body.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ApiError(422, "options must be an object")
    _check_options(options)
    seats_in = body.get("seats")
    if not isinstance(seats_in, list) or not seats_in:
        raise ApiError(422, "seats must be a non-empty list")
    info = game_info(game_id)
    n = len(seats_in)
    if not info.min_players <= n <= info.max_players:
        raise ApiError(422, f"{info.name} is for {info.min_players}-{info.max_players} players, got {n} seats")
    kinds = []
    for i, s in enumerate(seats_in):
        if not isinstance(s, dict):
            raise ApiError(422, f"seat {i} must be an object")
        kind = s.get("kind")
        if kind == "bot":
            bot = _check_text(s.get("bot", "greedy"), f"seat {i}: the bot", MAX_NAME)
            if bot not in BOTS:
                raise ApiError(422, f"seat {i}: unknown bot {bot!r}; known bots: {', '.join(sorted(BOTS))}")
        elif kind != "human":
            raise ApiError(422, f'seat {i}: kind must be "human" or "bot"')
        kinds.append(kind)
    options = dict(options)
    if DATA_OVERRIDES in options:
        raise ApiError(422, f"{DATA_OVERRIDES} are for studies (citygames simulate --set); a table plays the "
                            f"game's own data")
    if any(o.name == "num_players" for o in info.options):
        if "num_players" in options and str(options["num_players"]) != str(n):
            raise ApiError(422, f"options.num_players is {options['num_players']!r} but {n} seats are given")
        options["num_players"] = n
    try:
        game = load_game(game_id, **options)
    except (GameOptionError, TypeError) as exc:
        raise ApiError(422, str(exc)) from None
    if game.num_players != n:
        raise ApiError(422, f"the options make {game.num_players} players but {n} seats are given")
    seats = []
    for i, (s, kind) in enumerate(zip(seats_in, kinds)):
        default = game.seat_name(i) if hasattr(game, "seat_name") else f"Seat {i}"
        if kind == "human":
            seats.append({"kind": "human", "name": _clean_name(s.get("name"), default)})
        else:
            bot = s.get("bot", "greedy")
            seats.append({"kind": "bot", "bot": bot, "name": _clean_name(s.get("name"), f"{default} ({bot})")})
    seed = body.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 63):
        raise ApiError(422, "seed must be an integer between 0 and 2**63 - 1")
    return game, seats, seed


async def _deny(websocket: WebSocket, status: int, message: str, headers: dict | None = None) -> None:
    """Refuse a socket before accepting it: an HTTP ``status`` answer with ``{"error": message}``
    where the server supports denial responses (uvicorn, the TestClient), else a close (1008)."""
    try:
        await websocket.send_denial_response(JSONResponse({"error": message}, status_code=status, headers=headers))
    except RuntimeError:  # pragma: no cover - a server without the websocket.http.response extension
        await websocket.close(code=1008, reason=message[:120])


def _page(name: str, static_dir: Path):
    path = static_dir / name
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    title = PAGES[name]
    return HTMLResponse(f"<!doctype html><html><head><meta charset='utf-8'><title>citygames: {title}</title>"
                        f"</head><body><h1>citygames: {title}</h1><p>The front end ({name}) is not installed; "
                        f"the API is at <a href='/api/tables'>/api/tables</a>.</p></body></html>")


def _wants_html(request: Request) -> bool:
    """Whether the client asked for a page (a browser's ``Accept: text/html``), not for JSON."""
    return "text/html" in request.headers.get("accept", "")


def _message_page(status: int, title: str, message: str, links: list[tuple[str, str]]) -> HTMLResponse:
    """A small HTML page (status ``status``) saying ``message`` with ``links`` ``[(href, text)]``:
    what a browser gets instead of ``{"error": ...}`` on a page route. The stylesheet is the
    server's file and there is no script (the Content-Security-Policy allows nothing inline)."""
    esc = html.escape
    items = "".join(f'<li><a href="{esc(href)}">{esc(text)}</a></li>' for href, text in links)
    return HTMLResponse(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>citygames: {esc(title)}</title><link rel="stylesheet" href="/static/style.css">'
        f'<link rel="icon" href="data:,"></head><body class="message-page">'
        f'<header class="topbar"><a class="brand" href="/">city<span>games</span></a></header>'
        f'<main class="message"><section class="card"><h1>{esc(title)}</h1>'
        f'<p class="message-text">{esc(message)}</p><ul class="message-links">{items}</ul></section></main>'
        f'</body></html>', status_code=status)


def _sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a full stop."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _page_error(request: Request, exc: StarletteHTTPException, table_id: str) -> HTMLResponse:
    """The page a browser gets for a refused page route (a wrong seat token: 403; an unknown table:
    404): the server's message and the way back (the lobby; for a wrong token, watching the table)."""
    links = [("/", "Back to the lobby")]
    if exc.status_code == 403:
        links.insert(0, (f"/table/{quote(table_id, safe='')}", "Watch this table as a spectator"))
        title = "Wrong seat or token"
    elif exc.status_code == 404:
        title = "No such table"
    else:
        title = "Cannot open this page"
    return _message_page(exc.status_code, title, _sentence(str(exc.detail)), links)


def _client(conn) -> str:
    """The client key of a request or socket for rate limits: its IP address (uvicorn puts the
    ``X-Forwarded-For`` address there when the proxy is trusted, by default one on 127.0.0.1)."""
    return conn.client.host if conn.client is not None and conn.client.host else "unknown"


def _printable(text: str, limit: int = 200) -> str:
    """``text`` shortened and made safe for a log line or a JSON message (repr of odd characters)."""
    text = text if len(text) <= limit else text[:limit] + "…"
    return text if text.isprintable() and text.isascii() else repr(text)[1:-1]


def create_app(db_url: str | None = None, bot_delay: float = 0.6, data_dir: str | Path | None = None,
               static_dir: str | Path | None = None, bot_processes: int = 0,
               allowed_origins: list[str] | tuple[str, ...] = (),
               rate_limits: dict[str, str | None] | None = DEFAULT_RATE_LIMITS,
               idle_evict: float | None = IDLE_EVICT, away_grace: float = lifecycle.AWAY_GRACE,
               search_processes: int | None = None) -> FastAPI:
    """The browser table's ASGI application.

    Args:
        db_url: SQLAlchemy URL, a file path (SQLite) or ``None`` (``data_dir/citygames.sqlite3``).
        bot_delay: seconds each bot waits before moving (0 in tests).
        data_dir: folder of the default SQLite file (default ``data`` under the current directory).
        static_dir: the front end's folder (default: ``static/`` next to this module).
        bot_processes: run bots in this many worker processes (default 0: a thread pool).
        allowed_origins: origins (``https://example.org[:port]``) whose pages may open table
            sockets besides the server's own (issue 16, the ``Origin`` check; see SECURITY.md).
        rate_limits: per-client limits ``{name: "N/PERIOD"}`` overriding
            ``security.DEFAULT_RATE_LIMITS`` by name (a value ``None``/``"off"`` turns one off);
            ``None`` turns them all off (load tests).
        idle_evict: seconds after which an open table with no connection and no bot task leaves
            memory (loaded again on its next use); ``None`` or 0: never (issue 16).
        away_grace: seconds a seat to move must have had no open socket before another seated
            player may hand it to a bot (issue 15, "Presence"; default 120; ``lifecycle.py``).
        search_processes: processes for the search bots (mcts, ismcts, the difficulty levels) when
            ``bot_processes`` is 0 (default: one per core), so a search never holds up the event
            loop (issue 12).

    Raises:
        ValueError: a malformed origin or rate limit, or a negative ``away_grace``.
    """
    if not away_grace >= 0:
        raise ValueError(f"away_grace must be a number of seconds >= 0, not {away_grace!r}")
    url = resolve_db_url(db_url, data_dir)
    static = Path(static_dir) if static_dir is not None else STATIC_DIR
    origins = frozenset(normalise_origin(o) for o in allowed_origins)
    limits = RateLimits(rate_limits)
    refused_origins: set[str] = set()   # logged once each (a few hundred at most)
    socket_numbers = itertools.count()  # the flood limit counts per socket

    def limit(request: Request, name: str) -> None:
        """``ApiError`` 429 with ``Retry-After`` when the client is over the limit ``name``."""
        retry = limits.hit(name, _client(request))
        if retry is not None:
            raise ApiError(429, f"too many requests: the limit is {limits.describe(name)}; try again in "
                                f"{int(retry)} s", headers={"Retry-After": str(int(retry))})

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        repo = await asyncio.to_thread(Repository, url)
        manager = TableManager(repo, bot_delay=bot_delay, bot_processes=bot_processes, idle_evict=idle_evict,
                               search_processes=search_processes)
        app.state.manager = manager
        manager.limits = limits   # the chat and name limits of social.py (issue 15)
        manager.away_grace = away_grace   # a seat away may be handed to a bot after this (lifecycle.py)
        # PostgreSQL (issue 16, part 5 and defect 3): every server process on the database -- the
        # workers of one `serve --workers N`, or separate servers -- listens for the others' changes
        # before any table is loaded, so they never split the tables; None on SQLite (one process)
        from .cluster import install, start_cluster
        if not repo.is_sqlite:
            await asyncio.to_thread(install, url)
            app.state.cluster_url = url
        cluster = await start_cluster(app, manager)
        # the port opens now: tables load on first use, those with bots in the background (issue 16,
        # defect 4); on PostgreSQL the cluster's sweep claims and loads the bot tables instead
        manager.start(restore=cluster is None)
        try:
            yield
        finally:
            if cluster is not None:
                await cluster.stop()
            await manager.close()
            repo.close()

    # no Swagger UI page: it runs scripts from a CDN, which the Content-Security-Policy refuses (a
    # foreign script on this origin could read the join links the lobby keeps); the schema stays
    app = FastAPI(title="citygames", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json")

    app.add_middleware(SecurityHeaders)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request, exc: StarletteHTTPException):
        # json_safe: a message quoting client input can never make the error itself fail
        return JSONResponse({"error": json_safe(str(exc.detail))}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request, exc: RequestValidationError):
        parts = []
        for e in exc.errors():
            where = ".".join(str(x) for x in e.get("loc", ()) if x not in ("query", "path", "body"))
            parts.append(f"{where}: {e.get('msg')}" if where else str(e.get("msg")))
        return JSONResponse({"error": json_safe("; ".join(parts) or "invalid request")}, status_code=422)

    def manager(request_or_ws) -> TableManager:
        return request_or_ws.app.state.manager

    # --- pages -------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby_page():
        return _page("index.html", static)

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(request: Request, table_id: str, seat: str | None = None, token: str | None = None):
        """The table page; a wrong seat or token (403) or an unknown table (404) answers a page
        with the message and a way back to a browser, ``{"error": ...}`` to other clients."""
        try:
            _, data = await _stored(request, table_id)
            if seat is not None or token is not None:
                if not valid_seat(seat) or not valid_token(token) or not token_ok(data, _seat_number(seat), token):
                    raise ApiError(403, "wrong seat or token")
        except ApiError as exc:
            if _wants_html(request):
                return _page_error(request, exc, table_id)
            raise
        return _page("table.html", static)

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(request: Request, table_id: str):
        """The replay viewer; an unknown table (404) answers as ``table_page`` does."""
        try:
            await _stored(request, table_id)
        except ApiError as exc:
            if _wants_html(request):
                return _page_error(request, exc, table_id)
            raise
        return _page("replay.html", static)

    @app.get("/rules/{game_id}", include_in_schema=False)
    async def how_to_play(game_id: str):
        """The game's "How to play" page (issue 15, rules help; ``rules_page``); 404 page if unknown."""
        return await asyncio.to_thread(rules_page, game_id)

    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")

    # --- games and bots ----------------------------------------------------------------------
    @app.get("/api/games")
    async def games():
        return _games_json()

    @app.get("/api/games/{game_id}/components")
    async def components(request: Request, game_id: str):
        """``game.components_json()``; query parameters are game options (``?num_players=4``)."""
        if game_id not in registered_games():
            raise ApiError(404, f"unknown game {game_id!r}")
        opts = dict(request.query_params)
        _check_options(opts)
        if DATA_OVERRIDES in opts:
            raise ApiError(422, f"{DATA_OVERRIDES} are for studies (citygames simulate --set)")
        try:
            game = load_game(game_id, **opts)
        except GameOptionError as exc:
            raise ApiError(422, str(exc)) from None
        return game.components_json()

    @app.get("/api/bots")
    async def bots():
        return sorted(BOTS)

    @app.get("/api/bots/info")
    async def bots_info():
        """The bots for the lobby, in the order to offer them: the difficulty levels first (easy to
        expert), then the others; ``[{name, about, level}]``."""
        order = list(LEVEL_NAMES) + sorted(b for b in BOTS if b not in LEVEL_NAMES)
        return [{"name": b, "about": BOT_ABOUT.get(b, ""), "level": b in LEVEL_NAMES} for b in order]

    @app.get("/api/health")
    async def health(request: Request):
        """For the operator: ``TableManager.health()`` (whether the storage takes writes; counts of
        tables in memory, connections, bot tasks, tables still restoring, broken tables, slow
        clients closed); no ids, tokens, seeds or paths."""
        return manager(request).health()

    # --- tables ------------------------------------------------------------------------------
    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request):
        limit(request, "create")
        body = await _read_json(request)
        game, seats, seed = _parse_table_request(body)
        try:   # clock and creator token (lifecycle.py, issue 15)
            life, creator_token = lifecycle.new_life(body)
        except lifecycle.LifeError as exc:
            raise ApiError(exc.status, exc.message) from None
        try:
            table, tokens = await manager(request).create(game, seats, seed)
            await lifecycle.attach_life(manager(request), table, life)
        except StorageUnavailable as exc:  # full disk, read-only database (issue 16, defect 10)
            raise ApiError(503, f"{STORAGE_REFUSAL}: the table could not be stored ({exc.reason}); try again later",
                           headers={"Retry-After": "30"}) from None
        out = []
        for i, s in enumerate(seats):
            d = public_seat(i, s)
            if s["kind"] != "bot":
                d["token"] = tokens[i]
                d["join_url"] = f"/table/{table.id}?seat={i}&token={tokens[i]}"
            out.append(d)
        return JSONResponse({"table_id": table.id, "seats": out, "watch_url": f"/table/{table.id}",
                             "creator_token": creator_token, "clock": life.get("clock")}, status_code=201)

    @app.get("/api/tables")
    async def list_tables(request: Request, status: str | None = None, limit: int = 200):
        if status is not None and status not in ("open", "finished", "abandoned"):
            raise ApiError(422, 'status must be "open", "finished" or "abandoned"')
        limit = max(1, min(limit, 1000))
        m = manager(request)
        rows = await m.db(m.repo.list_tables, status, limit)
        summaries = [(r, s) for r in rows if (s := _summary(r)) is not None]
        try:  # the usual case: every row encodes, each is encoded once
            return JSONResponse([s for _, s in summaries])
        except (ValueError, TypeError):   # UnicodeEncodeError is a ValueError
            return JSONResponse([_listable(r, s) for r, s in summaries])

    bad_rows: set[str] = set()   # ids of stored rows already logged as unlistable

    def _summary(data) -> dict | None:
        """``summary(data)``, or ``None`` (logged once per table) when the stored row cannot be
        summarised at all (a row damaged or written by an older server: defect 1)."""
        try:
            return summary(data)
        except Exception as exc:
            if data.id not in bad_rows:
                bad_rows.add(data.id)
                log.error("table %s: stored row cannot be listed (%s); left out", _printable(str(data.id)), exc)
            return None

    def _listable(data, s: dict) -> dict:
        """The summary ``s`` of a stored row, repaired (``json_safe``, logged once per table) when
        it cannot be encoded (text that is not valid Unicode, written before names were checked:
        defect 1)."""
        try:
            json.dumps(s, ensure_ascii=False, allow_nan=False).encode("utf-8")
            return s
        except (ValueError, TypeError):   # UnicodeEncodeError is a ValueError
            if data.id not in bad_rows:
                bad_rows.add(data.id)
                log.warning("table %s: stored row holds text that is not valid Unicode or numbers that are not "
                            "JSON; listed with those replaced", _printable(str(data.id)))
            return json_safe(s)

    async def _stored(request: Request, table_id: str):
        if not valid_table_id(table_id):
            raise ApiError(404, f"no table '{_printable(table_id, 40)}'")
        m = manager(request)
        data = await m.db(m.repo.get_table, table_id)
        if data is None:
            raise ApiError(404, f"no table {table_id!r}")
        return m, data

    @app.get("/api/tables/{table_id}")
    async def get_table(request: Request, table_id: str):
        _, data = await _stored(request, table_id)
        s = _summary(data)
        if s is None:
            raise ApiError(404, f"table {table_id} cannot be shown (its stored row is damaged)")
        return JSONResponse(_listable(data, s))

    async def _finished_record(request: Request, table_id: str) -> dict:
        limit(request, "replay")
        m, data = await _stored(request, table_id)
        if data.status != "finished":
            raise ApiError(409, "the game is not finished: its record (with the seed) is hidden until the end")
        try:
            actions = await m.finished_actions(data)
        except CitygamesError as exc:
            raise ApiError(409, f"the table's actions do not replay: {exc}") from None
        version = load_game(data.game, **data.options).info.version
        rec = {"game": data.game, "version": version, "options": data.options, "seed": data.seed,
               "actions": list(actions), "players": [str(s.get("name", "")) for s in data.seats]}
        if isinstance(data.result, dict) and data.result.get("resigned"):   # ended by a resignation (issue 15)
            rec["resigned"] = list(data.result["resigned"])
        return rec

    @app.get("/api/tables/{table_id}/record")
    async def record(request: Request, table_id: str):
        rec = await _finished_record(request, table_id)
        return Response(json.dumps(rec, separators=(",", ":")) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{rec["game"]}-{table_id}.json"'})

    @app.get("/api/tables/{table_id}/replay")
    async def replay(request: Request, table_id: str, step: int = 0):
        rec = await _finished_record(request, table_id)
        steps = len(rec["actions"])
        if not 0 <= step <= steps:
            raise ApiError(422, f"step must be between 0 and {steps}")

        def build():
            st = replay_record(rec, upto=step)
            with named_seats(rec["players"]):   # the log names the players (issue 15, defect 4)
                log_items = [event_json(i, e) for i, e in enumerate(st.log) if e.visible(None)]
            return {"step": step, "steps": steps, "observation": st.observation(None),
                    "to_move": list(st.players_to_move()), "log": log_items}

        out = await asyncio.to_thread(build)
        _, data = await _stored(request, table_id)
        out["result"] = data.result
        out["seats"] = [public_seat(i, s) for i, s in enumerate(data.seats)]   # names for the viewer (issue 15)
        return out

    stats_cache = StatsCache()
    @app.get("/api/tables/{table_id}/stats")
    async def stats(request: Request, table_id: str):
        """End-of-game statistics (issue 15, "End of game"; ``stats.game_stats``): 409 until the
        game is finished, as ``/record``; computed once per table in a worker thread."""
        rec = await _finished_record(request, table_id)
        try:
            return await stats_cache.get(table_id, rec)
        except (CitygamesError, ValueError) as exc:
            raise ApiError(409, f"the table's statistics cannot be computed: {exc}") from None
    lifecycle.add_routes(app, _read_json, ApiError, limit)   # abandon, rematch (issue 15)

    # --- the table socket --------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str):
        client = _client(websocket)
        origin = websocket.headers.get("origin")
        if not origin_allowed(origin, websocket.headers.get("host"), origins):
            shown = _printable(origin or "", 100)
            if shown not in refused_origins and len(refused_origins) < 500:
                refused_origins.add(shown)
                log.warning("refused a table socket from origin %s (client %s); allow it with --allowed-origin",
                            shown, client)
            await _deny(websocket, 403, "this page's origin may not open table sockets")
            return
        seat_raw = websocket.query_params.get("seat")
        token = websocket.query_params.get("token")
        kind = "watch" if seat_raw is None and token is None else "join"
        retry = limits.hit(kind, client)
        if retry is not None:
            await _deny(websocket, 429, f"too many connections: the limit is {limits.describe(kind)}; try again in "
                                        f"{int(retry)} s", {"Retry-After": str(int(retry))})
            return
        await websocket.accept()
        socket_number = next(socket_numbers)
        m = manager(websocket)
        table = await m.get(table_id) if valid_table_id(table_id) else None
        if table is None:
            await websocket.close(code=4404, reason="no such table")
            return
        seat = None
        if kind == "join":
            seat = _seat_number(seat_raw) if valid_seat(seat_raw) else -1
            if not valid_token(token) or not table.check_token(seat, token):
                await websocket.close(code=4403, reason="wrong seat or token")
                return

        async def close(code: int):
            await websocket.close(code=code)

        conn = Connection(websocket.send_text, close, seat)
        writer = asyncio.create_task(conn.writer())
        try:
            await m.attach(table, conn)
            await social.send_history(m, table, conn)   # the table's chat (issue 15)
            while not conn.closed:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                raw = msg.get("text")
                if raw is None:
                    raw = msg.get("bytes") or b""
                over = next((name for name, key in (("message", f"{client}/{socket_number}"),
                                                    ("client_messages", client))
                             if limits.hit(name, key) is not None), None)
                if over is not None:
                    conn.error(f"too many messages: the limit is {limits.describe(over)}; this one was "
                               f"ignored", table.seq)
                    if limits.hit("flood", f"{client}/{socket_number}") is not None:
                        log.warning("table %s: closing a socket of %s that floods messages", table_id, client)
                        conn.closed = True
                        await websocket.close(code=1008, reason="too many messages")
                        break
                    continue
                await m.handle_message(table, conn, raw)
        except WebSocketDisconnect:
            pass
        except Exception:  # a bug must not take other sockets or tables down: log it, drop this one
            if not conn.closed:
                log.exception("table %s: socket handler failed", table_id)
                try:
                    await websocket.close(code=1011)
                except Exception:
                    pass
        finally:
            await m.detach(table, conn)
            writer.cancel()

    return app
