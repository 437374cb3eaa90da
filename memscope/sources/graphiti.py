"""A Graphiti temporal knowledge graph, read through graphiti-core's own drivers.

Graphiti keeps its graph in Neo4j, FalkorDB or an embedded Kuzu file, behind one driver
interface (``graphiti_core.driver``). This source reads it with graphiti-core's own read
helpers — ``EpisodicNode``, ``EntityNode`` and ``EntityEdge.get_by_group_ids``, page by
page — so one reading serves every backend; only the list of groups is one line of
Cypher that all three speak. The mapping to Memscope's records (episodes → documents,
facts → memories with both clocks, groups → spaces, retired facts → version chains) is
:mod:`memscope.sources.graphiti_map`.

Forget deletes one fact, or one episode with what Graphiti's own ``remove_episode`` takes
along (:mod:`memscope.sources.graphiti_forget`), for good; the dialog lists it first.

Nothing here calls a language model or an embedder, and graphiti-core's telemetry is
switched off before it is imported. graphiti-core is asynchronous: each source runs its
coroutines on one private event loop in a thread of its own (a driver stays on the loop
it first ran on). A Kuzu file is read read-only, so Graphiti may keep writing it; only a
forget opens it for writing, for that delete alone, and closes it again. A path that holds
no Graphiti database, or a file another program holds, is one sentence.

Only the Kuzu backend is exercised for real (tests build graphs in a temporary Kuzu file
with graphiti-core's classes); Neo4j and FalkorDB build graphiti-core's ``Neo4jDriver`` /
``FalkorDriver`` and go through the same read path, untested against a live server.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import sys
import threading
import warnings
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from pydantic import SecretStr

from memscope.records.models import Profile, SpaceRecord
from memscope.records.text import clip, counted
from memscope.sources._http import credential_fingerprint
from memscope.sources.base import Capabilities, Source, forget_each
from memscope.sources.errors import FileError, NetworkError, NotFound, SourceError
from memscope.sources.file_ask import KeptAsk
from memscope.sources.graphiti_forget import Removal, delete_episode, delete_fact, plan_episode
from memscope.sources.graphiti_map import Entity, Episode, Fact, dataset_of, utc
from memscope.sources.patch import patched
from memscope.sources.results import (
    ForgetReport,
    ForgetResult,
    LoadProgress,
    LoadResult,
    ProgressCallback,
    SearchResult,
)

if TYPE_CHECKING:
    from graphiti_core.driver.driver import GraphDriver

T = TypeVar("T")

#: the backends a Graphiti graph lives in, the Connection page's order, and their names
BACKENDS = ("kuzu", "neo4j", "falkordb")
BACKEND_LABELS = {"kuzu": "Kuzu file (embedded)", "neo4j": "Neo4j", "falkordb": "FalkorDB"}
#: rows read per call of a graphiti-core read helper
PAGE = 25_000
#: said with every forget, in the dialog and after it
FOREVER = "This cannot be undone: Graphiti keeps no copy of what is deleted."
NO_ADD = ("Memscope does not add to a Graphiti graph: adding goes through Graphiti itself, "
          "which needs its language model.")
NO_RESTORE = "A fact or episode deleted from a Graphiti graph is gone: there is nothing to restore."
NO_FORGET_ALL = ("A Graphiti graph is forgotten one fact or one episode at a time, never a "
                 "whole group at once.")
_GROUPS = "MATCH (n:{label}) RETURN DISTINCT n.group_id AS group_id"


def _graphiti() -> None:
    """Import graphiti-core with its telemetry off (it would post to the network) and
    without the ``load_dotenv()`` its modules run at import time (it would read a ``.env``
    file from the working folder into this process's environment)."""
    os.environ["GRAPHITI_TELEMETRY_ENABLED"] = "false"
    if "graphiti_core" in sys.modules:
        return
    import dotenv

    real = dotenv.load_dotenv
    dotenv.load_dotenv = lambda *_a, **_k: False  # bound by graphiti-core's imports below
    try:
        import graphiti_core  # noqa: F401  (the package imports its drivers and models)
    finally:
        dotenv.load_dotenv = real


@dataclass(frozen=True)
class GraphitiConfig:
    """Where a Graphiti graph lives. ``location`` is the Kuzu file's path, Neo4j's URI
    (``bolt://host:7687``) or FalkorDB's ``host:port``; ``password`` is never shown."""

    backend: str = "kuzu"
    location: str = ""
    user: str | None = None
    password: SecretStr | None = None
    group: str | None = None
    database: str | None = None

    def fingerprint(self) -> str:
        """A short SHA-256 of the password (``-`` without one), safe in cache keys."""
        return "-" if self.password is None else credential_fingerprint(self.password)


class _Loop:
    """One private event loop in a daemon thread: sync code runs coroutines on it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="graphiti-loop",
                                       daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the loop and wait for its result (its exception re-raised)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def close(self) -> None:
        """Stop the loop and its thread."""
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        if not self.thread.is_alive():
            self.loop.close()


def read_only_kuzu(path: Path) -> GraphDriver:
    """graphiti-core's ``KuzuDriver`` on ``path`` opened read-only (:func:`kuzu_driver`)."""
    return kuzu_driver(path)


def kuzu_driver(path: Path, *, read_only: bool = True) -> GraphDriver:
    """graphiti-core's ``KuzuDriver`` on an existing file ``path``: its constructor would
    create a missing file and write its schema, so the database is opened here (read-only
    unless a forget asks to write) and the driver's own operations are kept. Raises
    :class:`FileError` (one sentence)."""
    _graphiti()
    import kuzu
    from graphiti_core.driver.kuzu_driver import KuzuDriver

    if not path.exists():
        raise FileError(f"There is no Graphiti database at {path}.")
    try:
        db = kuzu.Database(str(path), read_only=read_only)
    except Exception as exc:  # kuzu raises RuntimeError for every kind of bad file
        if "lock" in str(exc).lower() and not read_only:
            raise FileError(f"Nothing was deleted: {path.name} is open in another program "
                            "(Graphiti itself?), and Kuzu lets only one program change it at "
                            "a time: close that program and try again.") from None
        if "lock" in str(exc).lower():
            raise FileError(f"{path.name} is open for writing in another program (Graphiti "
                            "itself?), and Kuzu lets no one else read it meanwhile: close "
                            "that program or open a copy of the file.") from None
        raise FileError(f"{path.name} cannot be opened as a Kuzu database "
                        f"({_first_line(exc)}).") from None
    with warnings.catch_warnings():  # "the Kuzu backend is deprecated": not the user's news
        warnings.simplefilter("ignore", DeprecationWarning)
        template = KuzuDriver.__new__(KuzuDriver)
        KuzuDriver.__init__(template, ":memory:")  # an in-memory twin lends its operations
    driver = KuzuDriver.__new__(KuzuDriver)
    for name, value in vars(template).items():  # its operations and anything else it set
        if name not in ("db", "client"):
            setattr(driver, name, value)
    driver.db = db
    driver.client = kuzu.AsyncConnection(db, max_concurrent_queries=1)
    template.client.close()
    template.db.close()
    return driver


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200].rstrip(".")


def open_driver(config: GraphitiConfig) -> GraphDriver:
    """graphiti-core's driver for ``config`` (outside any event loop, so Neo4j and
    FalkorDB do not schedule index builds: Memscope only reads)."""
    _graphiti()
    backend = config.backend
    secret = config.password.get_secret_value() if config.password else None
    if backend == "kuzu":
        if not config.location.strip():
            raise FileError("Enter the path of the Graphiti Kuzu database file.")
        return read_only_kuzu(Path(config.location.strip()).expanduser())
    if backend == "neo4j":
        from graphiti_core.driver.neo4j_driver import Neo4jDriver

        if not config.location.strip():
            raise NetworkError("Enter the Neo4j URI (for example bolt://localhost:7687).")
        try:
            return Neo4jDriver(config.location.strip(), config.user, secret,
                               database=config.database or "neo4j")
        except Exception as exc:  # the neo4j driver refuses a bad URI at once
            raise NetworkError(f"Neo4j cannot be reached at that URI "
                               f"({_first_line(exc)}).") from None
    if backend == "falkordb":
        try:
            from graphiti_core.driver.falkordb_driver import FalkorDriver
        except ImportError:
            raise SourceError("Reading FalkorDB needs the falkordb package, which this "
                              "installation lacks.") from None
        host, _, port = config.location.strip().rpartition(":")
        if not port.isdigit():
            host, port = config.location.strip() or "localhost", "6379"
        return FalkorDriver(host=host or "localhost", port=int(port), username=config.user,
                            password=secret, database=config.database or "default_db")
    raise SourceError(f"Memscope does not know the Graphiti backend {backend!r}.")


def _when_read(exc: BaseException, what: str) -> SourceError:
    """A failure of the database as one sentence (never its query or parameters)."""
    if isinstance(exc, SourceError):
        return exc
    return SourceError(f"The Graphiti graph could not be read ({what}: {_first_line(exc)}).")


async def _pages(fetch: Callable[[str | None], Awaitable[list[Any]]]) -> list[Any]:
    """Every row of a graphiti-core read helper, :data:`PAGE` at a time (its cursor is
    the last uuid: the helpers order by uuid, descending)."""
    out: list[Any] = []
    cursor: str | None = None
    while True:
        page = await fetch(cursor)
        out.extend(page)
        if len(page) < PAGE:
            return out
        cursor = page[-1].uuid


async def read_graph(driver: GraphDriver, groups: list[str] | None
                     ) -> tuple[list[str], list[Episode], list[Entity], list[Fact]]:
    """The groups, episodes, entities and facts of ``groups`` (``None``: every group),
    through graphiti-core's read helpers."""
    from graphiti_core.edges import EntityEdge
    from graphiti_core.errors import GroupsEdgesNotFoundError
    from graphiti_core.nodes import EntityNode, EpisodicNode

    if groups is None:
        found: set[str] = set()
        for label in ("Episodic", "Entity"):
            rows, _, _ = await driver.execute_query(_GROUPS.format(label=label),
                                                    routing_="r")
            found.update(str(r["group_id"]) for r in rows if r["group_id"] is not None)
        groups = sorted(found)
    if not groups:
        return [], [], [], []

    async def episodes(cursor: str | None) -> list[Any]:
        return await EpisodicNode.get_by_group_ids(driver, groups, PAGE, cursor)

    async def entities(cursor: str | None) -> list[Any]:
        return await EntityNode.get_by_group_ids(driver, groups, PAGE, cursor)

    async def facts(cursor: str | None) -> list[Any]:
        try:
            return await EntityEdge.get_by_group_ids(driver, groups, PAGE, cursor)
        except GroupsEdgesNotFoundError:  # raised for an empty page
            return []

    eps = [Episode(e.uuid, e.name or "", e.group_id, e.content or "",
                   getattr(e.source, "value", str(e.source)), e.source_description or "",
                   utc(e.valid_at), utc(e.created_at)) for e in await _pages(episodes)]
    ents = [Entity(n.uuid, n.name or n.uuid, n.group_id, n.summary or "",
                   tuple(n.labels)) for n in await _pages(entities)]
    rels = [Fact(e.uuid, e.group_id, e.name or "", e.fact or "", e.source_node_uuid,
                 e.target_node_uuid, tuple(e.episodes or ()), utc(e.created_at),
                 utc(e.expired_at), utc(e.valid_at), utc(e.invalid_at))
            for e in await _pages(facts)]
    return groups, eps, ents, rels


class GraphitiSource(Source):
    """A Graphiti graph (Kuzu, Neo4j or FalkorDB): read whole, a fact or an episode
    deleted on request."""

    kind = "graphiti"
    service = "Graphiti"
    capabilities = Capabilities(
        spaces=True, profile=True, search=True, forget=True,
        why_not=(("forget_all", NO_FORGET_ALL), ("restore", NO_RESTORE), ("add", NO_ADD),
                 ("history", "A Graphiti graph is read whole: every version of a fact is "
                             "already loaded.")),
    )
    forgets_documents: ClassVar[bool] = True

    def __init__(self, config: GraphitiConfig) -> None:
        self.config = config
        self._loop: _Loop | None = None
        self._driver: GraphDriver | None = None
        self._lock = threading.Lock()
        self._last: LoadResult | None = None
        self._every_group: list[SpaceRecord] | None = None
        self._ask = KeptAsk()
        self._previews: dict[str, Removal] = {}
        self._opened: str | None = None  # the data version the open driver was opened on

    @property
    def label(self) -> str:
        backend = BACKEND_LABELS.get(self.config.backend, self.config.backend)
        where = (Path(self.config.location).name if self.config.backend == "kuzu"
                 else self.config.location)
        return f"Graphiti graph in {backend} {where}".rstrip()

    @property
    def calls_service(self) -> bool:
        return self.config.backend != "kuzu"

    def cache_key(self) -> tuple[str, ...]:
        """Kind, backend, location, user, the password's fingerprint and the group."""
        c = self.config
        return (self.kind, c.backend, c.location, c.user or "", c.fingerprint(), c.group or "")

    def data_version(self) -> str | None:
        """A Kuzu file's size and change time (a server's graph has none to ask)."""
        if self.config.backend != "kuzu":
            return None
        path = Path(self.config.location).expanduser()
        parts = []
        for part in (path, path.with_name(path.name + ".wal")):  # Kuzu writes its log first
            try:
                st = part.stat()
            except OSError:
                parts.append("-")
                continue
            parts.append(f"{st.st_size}:{st.st_mtime_ns}")
        return "|".join(parts) if parts[0] != "-" else None

    def _run(self, what: str, make: Callable[[GraphDriver], Coroutine[Any, Any, T]], *,
             failed: Callable[[BaseException, str], SourceError] | None = None) -> T:
        """Run ``make(driver)`` on the private loop (the driver opened on first use, and
        again when a Kuzu file changed since: a read-only handle does not see another
        handle's writes); a failure is ``failed(exc, what)`` (by default a read's
        sentence)."""
        with self._lock:
            if self._driver is not None and self._opened != self.data_version():
                stale, self._driver = self._driver, None
                stale_loop, self._loop = self._loop, None
                _shut(stale, stale_loop)
            if self._driver is None:
                self._driver = open_driver(self.config)
                self._opened = self.data_version()
            if self._loop is None:
                self._loop = _Loop()
                weakref.finalize(self, self._loop.close)  # a session dropped unclosed
            try:
                return self._loop.run(make(self._driver))
            except Exception as exc:
                if self.config.backend == "kuzu" and "does not exist" in str(exc):
                    name = Path(self.config.location).name
                    raise FileError(f"{name} is a Kuzu database without Graphiti's "
                                    "tables.") from None
                raise (failed or _when_read)(exc, what) from None

    def load(self, progress: ProgressCallback | None = None, *,
             refresh: bool = False) -> LoadResult:
        """Every episode, fact and entity of the configured group (or of all groups)."""
        if self._last is not None and not refresh:
            return self._last
        found, eps, ents, facts = self.read()
        self._previews.clear()
        ds = dataset_of(eps, ents, facts)
        result = LoadResult(dataset=ds, source=self.kind, label=self.label)
        if not found:
            result.notes.append("This Graphiti graph holds no episodes or entities yet.")
        self._last = result
        if progress is not None:
            progress(LoadProgress(1, 1, len(ds.documents), len(ds.memories)))
        return result

    def read(self) -> tuple[list[str], list[Episode], list[Entity], list[Fact]]:
        """The groups, episodes, entities and facts as read, before they become records
        (:meth:`load` maps them; the bench times the two halves)."""
        groups = [self.config.group] if self.config.group else None
        return self._run("reading the graph", lambda d: read_graph(d, groups))

    def spaces(self) -> list[SpaceRecord]:
        """The graph's groups, with their episode and fact counts."""
        if not self.config.group:
            return list(self.load().dataset.spaces)
        if self._every_group is None:  # narrowed: the other groups are read once, apart
            with GraphitiSource(replace(self.config, group=None)) as every:
                self._every_group = list(every.load().dataset.spaces)
        return list(self._every_group)

    def profile(self, container_tag: str) -> Profile:
        """The group's entities that have a summary, each citing its facts."""
        return self.load().dataset.profiles.get(container_tag, Profile(container_tag))

    def search(self, query: str, *, container_tag: str | None = None,
               limit: int = 10) -> SearchResult:
        """Ask over the loaded facts and episodes, ranked on this computer (words and
        meaning; :mod:`memscope.sources.file_ask`): no embedder of Graphiti's is called."""
        return self._ask.search(self.load(), query, container_tag=container_tag, limit=limit)

    # -- forgetting ------------------------------------------------------------------

    def _what(self, target_id: str) -> tuple[str, str | None, str]:
        """``(kind, group, text)`` of a loaded fact (``fact``) or episode (``episode``)."""
        ds = self.load().dataset
        mem = ds.memories.get(target_id)
        if mem is not None:
            return "fact", mem.container_tag, mem.memory
        doc = ds.documents.get(target_id)
        if doc is not None:
            return "episode", doc.metadata.get("group"), doc.content or doc.title or ""
        raise NotFound(f"{target_id} is no fact or episode of this Graphiti graph; reload it.",
                       service=self.service)

    def _plan(self, episode_id: str) -> Removal:
        """What deleting ``episode_id`` takes along, read from the graph (kept until the
        next forget or load)."""
        if episode_id not in self._previews:
            self._previews[episode_id] = self._run(
                "reading what the episode takes along", lambda d: plan_episode(d, episode_id))
        return self._previews[episode_id]

    def _fact_texts(self, ids: tuple[str, ...]) -> list[str]:
        mems = self.load().dataset.memories
        return [f"“{clip(mems[f].memory, 80).rstrip('.')}”" for f in ids if f in mems]

    def forget_preview(self, target_id: str) -> str:
        """What forgetting ``target_id`` deletes, in plain words, and that it is for good
        (reads the graph, changes nothing)."""
        kind, _, _ = self._what(target_id)
        if kind == "fact":
            return (f"Memscope deletes this fact from the Graphiti graph; its entities and "
                    f"episodes stay. {FOREVER}")
        plan = self._plan(target_id)
        texts = self._fact_texts(plan.facts)
        words = (f"Memscope deletes this episode from the Graphiti graph and "
                 f"{counted(len(plan.facts), 'fact')} with it"
                 + (": " + "; ".join(texts[:12]) if texts else "") + ".")
        if plan.entities:
            names = ", ".join(f"“{name}”" for _, name in plan.entities[:12])
            words += (f" {counted(len(plan.entities), 'entity', 'entities')} only this "
                      f"episode mentions {'goes' if len(plan.entities) == 1 else 'go'} too: "
                      f"{names}.")
        if plan.kept:
            words += (f" {counted(len(plan.kept), 'fact')} also drawn from other episodes "
                      f"{'stays' if len(plan.kept) == 1 else 'stay'}.")
        return (f"{words} Entity summaries stay as they are (Graphiti would rewrite them "
                f"with its language model). {FOREVER}")

    def _write(self, what: str, make: Callable[[GraphDriver], Coroutine[Any, Any, T]]) -> T:
        """Run a change. A Kuzu file is opened for writing for this change alone (the
        read-only handle closed first, the writing one closed after); a server's graph
        goes through the open driver."""
        if self.config.backend != "kuzu":
            return self._run(what, make, failed=_when_changed)
        with self._lock:  # no read opens the file again meanwhile
            reader, self._driver = self._driver, None
            reading, self._loop = self._loop, None
            _shut(reader, reading)
            path = Path(self.config.location.strip()).expanduser()
            driver = kuzu_driver(path, read_only=False)
            loop = _Loop()
            try:
                return loop.run(make(driver))
            except Exception as exc:
                raise _when_changed(exc, what) from None
            finally:
                _shut(driver, loop)

    def forget(self, target_id: str, *, reason: str | None = None,
               container_tag: str | None = None) -> ForgetResult:
        """Delete one fact, or one episode with what it takes along
        (:mod:`memscope.sources.graphiti_forget`), for good; sent once, never retried.
        Graphiti keeps no reason (the ledger does)."""
        kind, group, text = self._what(target_id)
        self._previews.clear()
        if kind == "fact":
            self._write("deleting the fact", lambda d: delete_fact(d, target_id))
            return ForgetResult(target_id, True, f"Deleted the fact from the Graphiti graph. "
                                f"{FOREVER}", container_tag=group or container_tag,
                                snapshot=text, removed_ids=[target_id])
        gone = self._write("deleting the episode", lambda d: delete_episode(d, target_id))
        parts = ["the episode", counted(len(gone.facts), "fact")]
        if gone.entities:
            parts.append(f"{counted(len(gone.entities), 'entity', 'entities')} only it "
                         "mentioned")
        said = ", ".join(parts[:-1]) + " and " + parts[-1]
        return ForgetResult(target_id, True, f"Deleted from the Graphiti graph: {said}. "
                            f"{FOREVER}",
                            container_tag=group or container_tag, snapshot=text,
                            removed_ids=list(gone.facts),
                            removed_entities=[u for u, _ in gone.entities])

    def forget_many(self, ids: Sequence[str], *, reason: str | None = None,
                    container_tag: str | None = None) -> ForgetReport:
        """One delete per fact or episode, in turn."""
        return forget_each(self, ids, reason=reason, container_tag=container_tag)

    def patch_forgotten(self, previous: LoadResult, ids: Sequence[str], *,
                        reason: str | None = None) -> LoadResult | None:
        """``previous`` with the graph read again (it is on this computer or one server
        away, and a deleted episode changes facts and entities besides)."""
        return self.reread(previous, ids)

    def reread(self, previous: LoadResult, ids: Sequence[str]) -> LoadResult | None:
        """``previous`` with the whole graph read again."""
        return patched(previous, self.load(refresh=True).dataset)

    def _shut(self) -> None:
        """Close the open driver and its loop (the next read opens them again)."""
        with self._lock:
            driver, self._driver = self._driver, None
            loop, self._loop = self._loop, None
        _shut(driver, loop)

    def __enter__(self) -> GraphitiSource:
        return self

    def close(self) -> None:
        """Close the driver, stop the loop, then close a Kuzu file (idempotent)."""
        self._shut()
        self._ask.close()


def _when_changed(exc: BaseException, what: str) -> SourceError:
    """A failed change as one sentence: a fact or episode already gone, or the failure."""
    if isinstance(exc, SourceError):
        return exc
    if type(exc).__name__ in ("NodeNotFoundError", "EdgeNotFoundError"):
        return NotFound("It is no longer in the Graphiti graph (deleted elsewhere?); reload "
                        "to see what it holds.", service="Graphiti")
    return SourceError(f"The Graphiti graph could not be changed ({what}: "
                       f"{_first_line(exc)}); reload to see what it holds.",
                       service="Graphiti")


def _shut(driver: GraphDriver | None, loop: _Loop | None) -> None:
    """Close a driver, stop its loop, then close a Kuzu file. The loop is stopped first:
    a Kuzu query result still held by it and freed after its database closed would crash
    the process."""
    if driver is not None and loop is not None:
        with contextlib.suppress(Exception):  # closing is best effort
            loop.run(driver.close())
    if loop is not None:
        loop.close()
    held = [getattr(driver, part, None) for part in ("client", "db")]
    held = [h for h in held if h is not None and type(h).__module__.startswith("kuzu")]
    if held:
        gc.collect()  # results the loop's last callbacks held go before their database
        for part in held:  # the connection pool, then the file
            part.close()


__all__ = ["BACKENDS", "BACKEND_LABELS", "FOREVER", "GraphitiConfig", "GraphitiSource",
           "kuzu_driver", "open_driver", "read_graph", "read_only_kuzu"]
