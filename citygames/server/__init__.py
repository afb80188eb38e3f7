"""The browser table: an authoritative HTTP + WebSocket server (``citygames serve``).

``create_app(db_url)`` (in ``app.py``) builds the FastAPI application; ``tables.py`` holds the
in-memory tables, ``db.py`` the SQLAlchemy models and repository. The protocol is documented in
``PROTOCOL.md`` next to this file; the front end lives in ``static/``.
"""

from __future__ import annotations

__all__ = ["create_app", "resolve_db_url"]


def __getattr__(name):  # lazy: importing citygames.server must not require the web stack
    if name in __all__:
        from . import app
        return getattr(app, name)
    raise AttributeError(name)
