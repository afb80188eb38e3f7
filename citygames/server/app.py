"""The FastAPI application of the browser table: ``create_app(db_url)``.

HTTP and WebSocket endpoints exactly as in ``PROTOCOL.md``; the tables themselves live in
``tables.TableManager``. Run it with ``citygames serve`` (uvicorn).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from citygames.bots import BOTS
from citygames.core import GameOptionError, load_game, registered_games
from citygames.core.data import DATA_OVERRIDES
from citygames.core.errors import CitygamesError
from citygames.core.registry import game_info
from citygames.core.records import replay as replay_record

from .db import Repository, resolve_db_url
from .tables import Connection, TableManager, event_json, public_seat, summary, token_ok

log = logging.getLogger("citygames.server")

STATIC_DIR = Path(__file__).parent / "static"
#: largest accepted request body (bytes)
MAX_BODY = 64 * 1024
#: largest WebSocket frame uvicorn accepts at all (bigger ones close the socket with 1009);
#: frames between 4 KiB and this get an ``error`` message and the socket stays open
WS_MAX_FRAME = 64 * 1024
MAX_NAME = 40
PAGES = {"index.html": "Lobby", "table.html": "Table", "replay.html": "Replay"}

__all__ = ["create_app", "resolve_db_url", "WS_MAX_FRAME"]


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


async def _read_json(request: Request):
    length = request.headers.get("content-length")
    if length and length.isdigit() and int(length) > MAX_BODY:
        raise ApiError(413, f"request body too large (limit {MAX_BODY} bytes)")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, f"request body too large (limit {MAX_BODY} bytes)")
    try:
        return json.loads(bytes(body))
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "malformed JSON body") from None


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _clean_name(name, default: str) -> str:
    if name is None:
        return default
    if not isinstance(name, str):
        raise ApiError(422, "a seat name must be a string")
    name = _CONTROL.sub("", name).strip()
    if len(name) > MAX_NAME:
        raise ApiError(422, f"a seat name may have at most {MAX_NAME} characters")
    return name or default


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
    game_id = body.get("game")
    if not isinstance(game_id, str) or game_id not in registered_games():
        raise ApiError(422, f"unknown game {game_id!r}; known games: {', '.join(registered_games())}")
    options = body.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ApiError(422, "options must be an object")
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
            bot = s.get("bot", "greedy")
            if not isinstance(bot, str) or bot not in BOTS:
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


def _page(name: str, static_dir: Path):
    path = static_dir / name
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    title = PAGES[name]
    return HTMLResponse(f"<!doctype html><html><head><meta charset='utf-8'><title>citygames: {title}</title>"
                        f"</head><body><h1>citygames: {title}</h1><p>The front end ({name}) is not installed; "
                        f"the API is at <a href='/api/tables'>/api/tables</a>.</p></body></html>")


def create_app(db_url: str | None = None, bot_delay: float = 0.6, data_dir: str | Path | None = None,
               static_dir: str | Path | None = None, bot_processes: int = 0) -> FastAPI:
    """The browser table's ASGI application.

    Args:
        db_url: SQLAlchemy URL, a file path (SQLite) or ``None`` (``data_dir/citygames.sqlite3``).
        bot_delay: seconds each bot waits before moving (0 in tests).
        data_dir: folder of the default SQLite file (default ``data`` under the current directory).
        static_dir: the front end's folder (default: ``static/`` next to this module).
        bot_processes: run bots in this many worker processes (default 0: a thread pool).
    """
    url = resolve_db_url(db_url, data_dir)
    static = Path(static_dir) if static_dir is not None else STATIC_DIR

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        repo = await asyncio.to_thread(Repository, url)
        manager = TableManager(repo, bot_delay=bot_delay, bot_processes=bot_processes)
        app.state.manager = manager
        # several workers (issue 16, part 5): listen for the other workers' changes before any table
        # is loaded; None (nothing started) in one process
        from .cluster import start_cluster
        cluster = await start_cluster(app, manager)
        restored = await manager.restore()
        if restored:
            log.info("restored %d unfinished table(s)", restored)
        try:
            yield
        finally:
            if cluster is not None:
                await cluster.stop()
            await manager.close()
            repo.close()

    app = FastAPI(title="citygames", lifespan=lifespan, docs_url="/api/docs", redoc_url=None,
                  openapi_url="/api/openapi.json")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request, exc: StarletteHTTPException):
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request, exc: RequestValidationError):
        parts = []
        for e in exc.errors():
            where = ".".join(str(x) for x in e.get("loc", ()) if x not in ("query", "path", "body"))
            parts.append(f"{where}: {e.get('msg')}" if where else str(e.get("msg")))
        return JSONResponse({"error": "; ".join(parts) or "invalid request"}, status_code=422)

    def manager(request_or_ws) -> TableManager:
        return request_or_ws.app.state.manager

    # --- pages -------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby_page():
        return _page("index.html", static)

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(request: Request, table_id: str, seat: str | None = None, token: str | None = None):
        _, data = await _stored(request, table_id)
        if seat is not None or token is not None:
            if not token_ok(data, _seat_number(seat), token):
                raise ApiError(403, "wrong seat or token")
        return _page("table.html", static)

    @app.get("/replay/{table_id}", include_in_schema=False)
    async def replay_page(request: Request, table_id: str):
        await _stored(request, table_id)
        return _page("replay.html", static)

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

    # --- tables ------------------------------------------------------------------------------
    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request):
        game, seats, seed = _parse_table_request(await _read_json(request))
        table, tokens = await manager(request).create(game, seats, seed)
        out = []
        for i, s in enumerate(seats):
            d = public_seat(i, s)
            if s["kind"] != "bot":
                d["token"] = tokens[i]
                d["join_url"] = f"/table/{table.id}?seat={i}&token={tokens[i]}"
            out.append(d)
        return JSONResponse({"table_id": table.id, "seats": out, "watch_url": f"/table/{table.id}"}, status_code=201)

    @app.get("/api/tables")
    async def list_tables(request: Request, status: str | None = None, limit: int = 200):
        if status is not None and status not in ("open", "finished"):
            raise ApiError(422, 'status must be "open" or "finished"')
        limit = max(1, min(limit, 1000))
        m = manager(request)
        rows = await m.db(m.repo.list_tables, status, limit)
        return [summary(r) for r in rows]

    async def _stored(request: Request, table_id: str):
        m = manager(request)
        data = await m.db(m.repo.get_table, table_id)
        if data is None:
            raise ApiError(404, f"no table {table_id!r}")
        return m, data

    @app.get("/api/tables/{table_id}")
    async def get_table(request: Request, table_id: str):
        _, data = await _stored(request, table_id)
        return summary(data)

    async def _finished_record(request: Request, table_id: str) -> dict:
        m, data = await _stored(request, table_id)
        if data.status != "finished":
            raise ApiError(409, "the game is not finished: its record (with the seed) is hidden until the end")
        try:
            actions = await m.finished_actions(data)
        except CitygamesError as exc:
            raise ApiError(409, f"the table's actions do not replay: {exc}") from None
        version = load_game(data.game, **data.options).info.version
        return {"game": data.game, "version": version, "options": data.options, "seed": data.seed,
                "actions": list(actions)}

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
            return {"step": step, "steps": steps, "observation": st.observation(None),
                    "to_move": list(st.players_to_move()),
                    "log": [event_json(i, e) for i, e in enumerate(st.log) if e.visible(None)]}

        out = await asyncio.to_thread(build)
        _, data = await _stored(request, table_id)
        out["result"] = data.result
        return out

    # --- the table socket --------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str):
        await websocket.accept()
        m = manager(websocket)
        seat_raw = websocket.query_params.get("seat")
        token = websocket.query_params.get("token")
        table = await m.get(table_id)
        if table is None:
            await websocket.close(code=4404, reason="no such table")
            return
        seat = None
        if seat_raw is not None or token is not None:
            seat = _seat_number(seat_raw)
            if not token or not table.check_token(seat, token):
                await websocket.close(code=4403, reason="wrong seat or token")
                return

        async def close(code: int):
            await websocket.close(code=code)

        conn = Connection(websocket.send_text, close, seat)
        writer = asyncio.create_task(conn.writer())
        try:
            await m.attach(table, conn)
            while not conn.closed:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                raw = msg.get("text")
                if raw is None:
                    raw = msg.get("bytes") or b""
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
