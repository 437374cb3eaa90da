"""A real PostgreSQL server for the tests: a throwaway cluster in a temporary directory.

:func:`start_cluster` finds Debian's server binaries (``/usr/lib/postgresql/<ver>/bin``,
``pg_config --bindir`` or ``PATH``), runs ``initdb`` and ``pg_ctl`` — as the ``postgres``
OS user through ``runuser`` when the tests run as root (``initdb`` refuses root) — and
listens on 127.0.0.1 on a free port, with a password for TCP connections so the tests
also check that it never leaks. The session fixture :func:`postgres` starts one cluster
for the whole run (one per pytest-xdist worker, each in its own directory on its own
port); :func:`fresh_database` makes an empty database per test.

Without PostgreSQL the fixture skips with the reason — unless
``MEMSCOPE_REQUIRE_POSTGRES=1`` (set by ``make test``), when it fails instead.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REQUIRE_ENV = "MEMSCOPE_REQUIRE_POSTGRES"
SERVER_USER = "postgres"


class Unavailable(Exception):
    """PostgreSQL cannot be had on this machine; the message says why."""


@dataclass
class Cluster:
    """A running throwaway cluster."""

    bindir: Path
    datadir: Path
    port: int
    password: str
    run_as: str | None

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of ``database`` (with the superuser's password)."""
        return (f"postgresql+psycopg://{SERVER_USER}:{self.password}@127.0.0.1:"
                f"{self.port}/{database}")

    def create_database(self) -> str:
        """A new empty database; returns its URL."""
        import psycopg
        from psycopg import sql

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(host="127.0.0.1", port=self.port, user=SERVER_USER,
                             password=self.password, dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.url(name)

    def stop(self) -> None:
        """Stop the server at once and delete its files."""
        _run(self, [str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-m",
                    "immediate", "-w", "stop"], check=False)
        shutil.rmtree(self.datadir.parent, ignore_errors=True)


def find_bindir() -> Path | None:
    """Where ``initdb`` and ``pg_ctl`` are: Debian's versioned folder (newest first),
    ``pg_config --bindir``, or ``PATH``."""
    for ver in sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                      key=lambda p: _version(p.parent.name), reverse=True):
        if (ver / "initdb").exists() and (ver / "pg_ctl").exists():
            return ver
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True,
                                 timeout=10, check=True).stdout.strip()
            if out and (Path(out) / "initdb").exists():
                return Path(out)
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def _version(name: str) -> tuple[int, ...]:
    return tuple(int(p) for p in name.split(".") if p.isdigit())


def _free_port() -> int:
    """A free loopback port, never one another pytest-xdist worker can pick."""
    from streamlit_server import free_port

    return free_port()


def _run(cluster: Cluster, args: list[str], *, check: bool = True
         ) -> subprocess.CompletedProcess[str]:
    cmd = ["runuser", "-u", cluster.run_as, "--", *args] if cluster.run_as else args
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "LC_ALL": "C"})
    if check and done.returncode != 0:
        raise Unavailable(f"{Path(args[0]).name} failed: {(done.stderr or done.stdout)[-800:]}")
    return done


def _server_user() -> str | None:
    """``None`` when not root; the ``postgres`` OS user when root (initdb refuses root)."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(SERVER_USER)
    except KeyError:
        raise Unavailable("the tests run as root and there is no 'postgres' OS user to run "
                          "the server as (install Debian's postgresql package)") from None
    if not shutil.which("runuser"):
        raise Unavailable("the tests run as root and 'runuser' is missing")
    return SERVER_USER


def start_cluster() -> Cluster:
    """initdb + pg_ctl start in a new temporary directory; raises :class:`Unavailable`."""
    bindir = find_bindir()
    if bindir is None:
        raise Unavailable("no PostgreSQL server binaries (initdb, pg_ctl) were found: "
                          "install Debian's postgresql package (make test does, as root)")
    run_as = _server_user()
    top = Path(tempfile.mkdtemp(prefix="memscope-pg-"))
    datadir = top / "data"
    password = secrets.token_urlsafe(16)
    pwfile = top / "pw"
    pwfile.write_text(password + "\n")
    if run_as:
        entry = pwd.getpwnam(run_as)
        os.chown(top, entry.pw_uid, entry.pw_gid)
        os.chown(pwfile, entry.pw_uid, entry.pw_gid)
    os.chmod(pwfile, 0o600)
    cluster = Cluster(bindir, datadir, _free_port(), password, run_as)
    try:
        _run(cluster, [str(bindir / "initdb"), "-D", str(datadir), "-U", SERVER_USER,
                       "--pwfile", str(pwfile), "--auth-local=trust",
                       "--auth-host=scram-sha-256", "-E", "UTF8", "--no-locale",
                       "--no-sync"])
        options = (f"-c listen_addresses=127.0.0.1 -p {cluster.port} "
                   f"-c unix_socket_directories={top} -c fsync=off "
                   "-c full_page_writes=off -c max_connections=60")
        _run(cluster, [str(bindir / "pg_ctl"), "-D", str(datadir), "-l",
                       str(top / "server.log"), "-o", options, "-w", "-t", "60", "start"])
    except Unavailable:
        log = top / "server.log"
        tail = log.read_text(errors="replace")[-800:] if log.exists() else ""
        shutil.rmtree(top, ignore_errors=True)
        if tail:
            raise Unavailable(f"the PostgreSQL server did not start: {tail}") from None
        raise
    return cluster


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """One throwaway PostgreSQL cluster for the test session."""
    try:
        cluster = start_cluster()
    except Unavailable as exc:
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"PostgreSQL is required here ({REQUIRE_ENV}=1) but {exc}")
        pytest.skip(f"PostgreSQL is not available: {exc}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def fresh_database(postgres: Cluster) -> str:
    """The URL of a new, empty database on the session's cluster."""
    return postgres.create_database()
