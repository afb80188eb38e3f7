"""The server's edge (issue 16, defects 1 and 2 and the security posture): the checks every
client input goes through before the tables see it, and the protections around them.

- ``parse_json``: size and nesting depth checked *before* ``json.loads`` (HTTP bodies and
  WebSocket messages), strict UTF-8, no ``NaN``/``Infinity``;
- ``check_text`` / ``text_problem``: a user string is valid Unicode text (no lone surrogates), has
  no control characters and fits a length limit; ``json_safe`` repairs a stored value that does not
  (a row written by an older server) so one bad row never breaks a listing;
- ``valid_table_id`` / ``valid_token`` / ``valid_seat``: identifiers outside their alphabet;
- ``origin_allowed``: the WebSocket ``Origin`` check;
- ``RateLimits``: per-client moving-window limits (the ``limits`` library, in memory);
- ``SecurityHeaders``: an ASGI middleware adding CSP, ``nosniff``, framing and referrer headers.

Everything here is pure and synchronous; ``app.py`` wires it to the routes.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
import unicodedata
from typing import Any, Iterable, Mapping
from urllib.parse import urlsplit

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

__all__ = [
    "MAX_JSON_DEPTH", "JsonError", "parse_json", "json_too_deep", "TextError", "check_text", "text_problem",
    "json_safe", "valid_table_id", "valid_token", "valid_seat", "normalise_origin", "origin_allowed",
    "DEFAULT_RATE_LIMITS", "RateLimits", "SecurityHeaders", "security_headers",
]

#: the deepest nesting of arrays/objects a client may send (a table request needs 3, a socket message 1)
MAX_JSON_DEPTH = 32

# --- JSON ---------------------------------------------------------------------------------------


class JsonError(ValueError):
    """A client's JSON refused before or while parsing. ``status`` is the HTTP answer (400 malformed,
    413 too large); ``str(exc)`` is the message for the client."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


# a JSON string (with its escapes) or one bracket: strings are skipped whole, so brackets inside
# them never count
_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)



def hash_token(token: str) -> str:
    """The SHA-256 hex digest (64 characters) under which a secret token is stored: seat tokens,
    creator tokens, rematch tokens (the database never holds a token itself; SECURITY.md)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()

def json_too_deep(text: str, max_depth: int = MAX_JSON_DEPTH) -> bool:
    """Whether the JSON text ``text`` nests arrays/objects deeper than ``max_depth`` (defect 2).

    Counts brackets outside strings without parsing (malformed text is judged by its brackets
    alone; ``json.loads`` then rejects it). Linear in ``len(text)``, at C speed: when the text holds
    no more opening brackets than ``max_depth`` it cannot be deeper and is not scanned at all.
    """
    if text.count("[") + text.count("{") <= max_depth:
        return False
    depth = 0
    for m in _STRUCTURE.finditer(text):
        c = m.group()
        if c == "[" or c == "{":
            depth += 1
            if depth > max_depth:
                return True
        elif c == "]" or c == "}":
            depth -= 1
    return False


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400
        raise ValueError(f"{text} is out of range")
    return value


def parse_json(raw: str | bytes | bytearray, *, max_bytes: int, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse a client's JSON after checking its size and depth (defect 2).

    Args:
        raw: the body or message: bytes must be UTF-8; a ``str`` must encode to UTF-8 (no lone
            surrogates).
        max_bytes: the largest accepted size in bytes (UTF-8).
        max_depth: the deepest accepted nesting of arrays and objects.

    Returns:
        the parsed value.

    Raises:
        JsonError: status 413 when larger than ``max_bytes``; 400 when not UTF-8, nested deeper
            than ``max_depth``, or not strict JSON (``NaN``/``Infinity`` are refused).
    """
    if isinstance(raw, (bytes, bytearray)):
        if len(raw) > max_bytes:
            raise JsonError(f"too large: {len(raw)} bytes (the limit is {max_bytes})", 413)
        try:
            text = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise JsonError("not valid UTF-8") from None
    else:
        text = raw
        if len(text) * 4 > max_bytes:  # only count bytes when it might matter
            try:
                size = len(text.encode("utf-8"))
            except UnicodeEncodeError:
                raise JsonError("not valid Unicode text (a lone surrogate)") from None
            if size > max_bytes:
                raise JsonError(f"too large: {size} bytes (the limit is {max_bytes})", 413)
    if json_too_deep(text, max_depth):
        raise JsonError(f"nested deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except (ValueError, RecursionError):
        raise JsonError("not valid JSON") from None


# --- text ---------------------------------------------------------------------------------------

# line/paragraph separators and the bidirectional overrides and isolates: invisible, and they can
# make a name display as something else
_FORBIDDEN_FORMAT = frozenset("\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class TextError(ValueError):
    """A user string refused by ``check_text``; ``str(exc)`` is the message for the client."""


def text_problem(value: Any, max_len: int) -> str | None:
    """Why ``value`` is not acceptable user text, or ``None``: it must be a ``str`` of at most
    ``max_len`` characters that encodes to UTF-8 (no lone surrogates) and holds no control
    characters (Unicode category Cc: C0, DEL, C1), line/paragraph separators or bidirectional
    overrides (defect 1)."""
    if not isinstance(value, str):
        return "must be a string"
    if len(value) > max_len:
        return f"may have at most {max_len} characters"
    if value.isascii():
        if value.isprintable():
            return None
        return "may not contain control characters"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "is not valid Unicode text (a lone surrogate)"
    for ch in value:
        if ch in _FORBIDDEN_FORMAT or unicodedata.category(ch) == "Cc":
            return "may not contain control characters"
    return None


def check_text(value: Any, what: str, max_len: int) -> str:
    """``value`` if ``text_problem`` finds nothing, else ``TextError(f"{what} {problem}")``."""
    problem = text_problem(value, max_len)
    if problem is not None:
        raise TextError(f"{what} {problem}")
    return value


_SURROGATE = re.compile("[\ud800-\udfff]")


def json_safe(value: Any) -> Any:
    """A copy of ``value`` that ``json.dumps(..., allow_nan=False)`` and UTF-8 can encode: lone
    surrogates become U+FFFD, non-finite floats ``None``, keys strings. For stored rows written
    before the inputs were checked (defect 1): the listing shows them rather than failing."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {json_safe(str(k)): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if value is None or isinstance(value, (bool, int)):
        return value
    return json_safe(str(value))


# --- identifiers --------------------------------------------------------------------------------

# table ids are ID_LENGTH (10) characters of tables.ID_ALPHABET; the column holds up to 32
_TABLE_ID = re.compile(r"[a-z0-9]{1,32}")
# seat tokens are secrets.token_urlsafe(24): 32 characters of the URL-safe base64 alphabet
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,128}")
_SEAT = re.compile(r"[0-9]{1,4}")


def valid_table_id(table_id: str) -> bool:
    """Whether ``table_id`` may name a table: 1-32 characters of ``a-z0-9`` (defect 2: ``%00``,
    slashes, long or non-ASCII ids are unknown tables without a database lookup)."""
    return _TABLE_ID.fullmatch(table_id) is not None


def valid_token(token: str | None) -> bool:
    """Whether ``token`` could be a seat token (URL-safe base64, at most 128 characters)."""
    return token is not None and _TOKEN.fullmatch(token) is not None


def valid_seat(seat: str | None) -> bool:
    """Whether the ``?seat=`` query value is a seat number (1-4 decimal digits)."""
    return seat is not None and _SEAT.fullmatch(seat) is not None


# --- Origin -------------------------------------------------------------------------------------

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def normalise_origin(origin: str) -> str:
    """``scheme://host[:port]`` in lower case with the scheme's default port left out.

    Raises:
        ValueError: not an ``http``/``https`` origin (``null``, paths, credentials, bad ports).
    """
    parts = urlsplit(origin.strip())
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname or parts.username or parts.password:
        raise ValueError(f"not an http(s) origin: {origin!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"an origin has no path: {origin!r}")
    port = parts.port  # raises ValueError when out of range
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}" + (f":{port}" if port is not None and port != _DEFAULT_PORTS[scheme] else "")


def _host_port(authority: str) -> tuple[str, int | None]:
    parts = urlsplit("//" + authority.strip())
    host = (parts.hostname or "").lower()
    return host, parts.port


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str] = ()) -> bool:
    """The WebSocket ``Origin`` check (security posture): a connection is accepted when it sends no
    ``Origin`` (not a browser), when the ``Origin``'s host and port are the request's ``Host``
    header's (the server's own pages; a ``Host`` without a port matches an origin on a default port,
    80 or 443, so a TLS-terminating proxy in front works), or when the normalised origin is in
    ``allowed`` (normalised with ``normalise_origin``). Anything else (another site, ``null``, a
    malformed value) is refused."""
    if origin is None:
        return True
    try:
        norm = normalise_origin(origin)
    except ValueError:
        return False
    if norm in allowed:
        return True
    if not host:
        return False
    try:
        o = urlsplit(norm)
        o_host, o_port = (o.hostname or "").lower(), o.port or _DEFAULT_PORTS[o.scheme]
        h_host, h_port = _host_port(host)
    except ValueError:
        return False
    if not o_host or o_host != h_host:
        return False
    if h_port is None:
        return o_port in (80, 443)
    return o_port == h_port


# --- rate limits --------------------------------------------------------------------------------

#: per client (IP address; ``message`` per socket), moving windows; see SECURITY.md. ``flood`` counts the
#: messages of one socket refused for ``message`` or ``client_messages``: past it the socket is closed (1008).
DEFAULT_RATE_LIMITS: dict[str, str] = {
    "create": "30/minute",      # POST /api/tables
    "join": "120/minute",       # seat sockets (/ws/tables/{id}?seat=..&token=..)
    "watch": "120/minute",      # spectator sockets
    "replay": "600/minute",     # /api/tables/{id}/record and /replay, the /replay/{id} page
    "message": "50/second",     # WebSocket messages of one socket (a script playing a seat stays under it)
    "client_messages": "200/second",  # WebSocket messages of all of a client's sockets together
    "flood": "40/10 seconds",   # messages refused for "message" on one socket before it is closed
    "chat": "5/10 seconds",     # chat messages of one socket (issue 15, "Chat")
    "name": "10/minute",        # name changes of one socket (issue 15, "Player names")
    "why": "20/10 seconds",     # "why not?" questions of one socket (issue 15, "Rules help"; why.py)
}


class RateLimits:
    """Per-client moving-window rate limits with the ``limits`` library (memory storage).

    Args:
        config: ``{name: "N/PERIOD"}`` (``limits`` notation: ``"30/minute"``, ``"40/10 seconds"``)
            overriding ``DEFAULT_RATE_LIMITS`` by name; a value ``None`` or ``"off"`` turns that
            limit off. ``None`` for ``config`` turns every limit off.

    Raises:
        ValueError: an unknown name or a value ``limits`` cannot parse.
    """

    def __init__(self, config: Mapping[str, str | None] | None = DEFAULT_RATE_LIMITS):
        self.items: dict[str, RateLimitItem] = {}
        if config is None:
            return
        merged: dict[str, str | None] = dict(DEFAULT_RATE_LIMITS)
        for name, value in config.items():
            if name not in DEFAULT_RATE_LIMITS:
                raise ValueError(f"unknown rate limit {name!r}; known: {', '.join(DEFAULT_RATE_LIMITS)}")
            merged[name] = value
        for name, value in merged.items():
            if value is None or str(value).strip().lower() in ("off", "none", ""):
                continue
            try:
                self.items[name] = parse(str(value))
            except ValueError as exc:
                raise ValueError(f"rate limit {name}={value!r}: {exc}") from None
        self._limiter = MovingWindowRateLimiter(MemoryStorage()) if self.items else None

    @property
    def enabled(self) -> bool:
        """Whether any limit is on."""
        return bool(self.items)

    def describe(self, name: str) -> str:
        """``"30 per 1 minute"``: the limit ``name`` in words (for messages)."""
        item = self.items[name]
        unit = item.GRANULARITY.name + ("s" if item.multiples != 1 else "")
        return f"{item.amount} per {item.multiples} {unit}"

    def hit(self, name: str, key: str) -> float | None:
        """Count one event ``name`` of client ``key``; ``None`` if within the limit (or the limit is
        off), else the seconds until one more event would be allowed (at least 1)."""
        item = self.items.get(name)
        if item is None:
            return None
        if self._limiter.hit(item, name, key):
            return None
        reset = self._limiter.get_window_stats(item, name, key).reset_time
        return max(1.0, math.ceil(reset - time.time()))


# --- headers ------------------------------------------------------------------------------------

_HOST_OK = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")


def security_headers(host: str | None = None) -> list[tuple[bytes, bytes]]:
    """The headers added to every HTTP response (security posture).

    Content-Security-Policy: only the server's own scripts, stylesheets, images (and ``data:``
    images: the pages' empty favicon) and connections (``'self'`` plus ``ws://``/``wss://`` of
    ``host``, the request's ``Host`` header when well-formed, for browsers whose ``'self'`` does not
    cover WebSockets); no plugins, no ``<base>``, forms only to the server, never framed. Style
    *attributes* stay allowed (``style-src 'self' 'unsafe-inline'`` with ``style-src-elem 'self'``):
    the game views colour tiles and swatches through ``style="..."``; style *elements* and sheets
    come only from the server. Then ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY``
    and ``Referrer-Policy: no-referrer`` (join links carry a seat token).
    """
    connect = "'self'"
    if host and _HOST_OK.fullmatch(host):
        connect += f" ws://{host} wss://{host}"
    csp = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; style-src-elem 'self'; "
           f"img-src 'self' data:; connect-src {connect}; base-uri 'none'; form-action 'self'; "
           "frame-ancestors 'none'; object-src 'none'")
    return [(b"content-security-policy", csp.encode("ascii")), (b"x-content-type-options", b"nosniff"),
            (b"x-frame-options", b"DENY"), (b"referrer-policy", b"no-referrer"),
            (b"cross-origin-opener-policy", b"same-origin")]


class SecurityHeaders:
    """ASGI middleware: ``security_headers`` on every HTTP response (pages, API, static files,
    errors, and an unexpected exception's 500, answered here as ``{"error": ...}``), replacing any
    of the same name the app set."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        host = None
        for k, v in scope.get("headers", ()):
            if k == b"host":
                host = v.decode("latin-1")
                break
        extra = security_headers(host)
        names = {k for k, _ in extra}
        started = False

        async def send_with_headers(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [(k, v) for k, v in message.get("headers", ()) if k.lower() not in names]
                message = {**message, "headers": headers + extra}
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            # an unexpected error: answer the 500 here, with the headers and a JSON message, and let
            # the exception go on to be logged (the server's error middleware sees a started answer)
            if not started:
                body = b'{"error":"internal server error"}'
                await send_with_headers({"type": "http.response.start", "status": 500, "headers": [
                    (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
            raise
