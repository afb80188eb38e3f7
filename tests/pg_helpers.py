"""A throwaway PostgreSQL server for the tests that need one (issue 16, part 5: several workers).

``postgres`` is a session-scoped fixture: it runs ``initdb`` in a temporary folder, starts
``postgres`` on a free loopback port (no Unix socket, trust authentication, no fsync: the data is
thrown away), creates the database ``citygames_test`` and yields a ``Postgres`` whose ``url`` is
that database's ``postgresql://`` URL and whose ``new_database(name)`` makes another one. The
server stops when the session ends. As root, ``initdb`` refuses to run, so the cluster is made
and run as the ``postgres`` user (``runuser -u postgres --``), the folder owned by it.

The tests are skipped, saying why, only when no PostgreSQL binaries are installed
(``apt-get install postgresql``; .ci/run does it).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import pytest


def pg_bin_dir() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``, or ``None`` when PostgreSQL is
    not installed (looked up on PATH, then under /usr/lib/postgresql/*/bin, newest first)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name)
                    if Path(p).parent.name.isdigit() else 0, reverse=True):
        if os.path.exists(os.path.join(d, "initdb")):
            return Path(d)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Postgres:
    """A running throwaway server: ``url`` (the test database), ``port``, ``new_database(name)``."""

    def __init__(self, port: int, dbname: str):
        self.port = port
        self.url = self.url_of(dbname)

    def url_of(self, dbname: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def new_database(self, name: str) -> str:
        """Create the database ``name`` (dropping an older one of that name); its URL."""
        import psycopg
        with psycopg.connect(self.url_of("postgres"), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url_of(name)


@contextmanager
def running_postgres(dbname: str = "citygames_test", durable: bool = False):
    """Start a throwaway PostgreSQL cluster; yields a ``Postgres``; stops and deletes it after.
    ``durable``: keep PostgreSQL's default fsync and synchronous commit (for benchmarks; tests
    turn them off, their data is thrown away).

    Raises:
        RuntimeError: initdb or the server failed (with their output).
    """
    bindir = pg_bin_dir()
    if bindir is None:
        raise RuntimeError("no PostgreSQL binaries (initdb, pg_ctl) found")
    root = Path(tempfile.mkdtemp(prefix="citygames-pg-"))
    data = root / "data"
    as_root = os.geteuid() == 0
    prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
    if as_root:
        shutil.chown(root, "postgres", "postgres")
    port = _free_port()
    env = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8")

    def run(*cmd, timeout=60):
        out = subprocess.run(prefix + [str(c) for c in cmd], cwd=root, env=env, capture_output=True, text=True,
                             timeout=timeout)
        if out.returncode != 0:
            raise RuntimeError(f"{cmd[0]} failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")
        return out

    try:
        run(bindir / "initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        opts = f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories='' -c max_connections=200"
        if not durable:
            opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        run(bindir / "pg_ctl", "-D", data, "-l", root / "server.log", "-o", opts, "-w", "-t", "60", "start",
            timeout=90)
        pg = Postgres(port, dbname)
        deadline = time.monotonic() + 30
        while True:
            try:
                pg.new_database(dbname)
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield pg
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run(prefix + [str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                           cwd=root, env=env, capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres():
    """Session-scoped throwaway PostgreSQL (see the module's docstring); skipped only when
    PostgreSQL is not installed."""
    if pg_bin_dir() is None:
        pytest.skip("PostgreSQL is not installed (no initdb/pg_ctl on PATH or under /usr/lib/postgresql); "
                    "apt-get install postgresql")
    with running_postgres() as pg:
        yield pg
