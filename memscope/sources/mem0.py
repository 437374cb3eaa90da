"""The mem0 source: its platform API (``mem0ai``'s ``MemoryClient`` routes).

Every request carries ``Authorization: Token <key>`` (and nothing else of the key). A
load lists the chosen entities' memories (``POST /v3/memories/`` with ``filters`` and
``include_merged`` in the body, ``page`` and ``page_size`` in the query; ``{count, next,
previous, results}``: Dream's superseded and merged memories too, drawn by
:func:`~memscope.sources.mem0_events.dream_links`), the
first page of each entity, then its other pages on a pool of ``concurrency``, and reads
every memory's history (``GET /v1/memories/{id}/history/``) on a pool of
``history_concurrency``; each history becomes a version chain
(:mod:`memscope.sources.mem0_events`). Entities (``GET /v1/entities/``) are the spaces:
``user:alice``, ``agent:support-bot``… Retries, 429 pauses and errors are the shared HTTP
layer's (:mod:`memscope.sources._http`).

A load of N memories in E entities costs ``1 + E·⌈n/page_size⌉ + N`` requests (the
entity list unless entities were chosen, the list pages, one history per memory).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, ClassVar
from urllib.parse import quote

from pydantic import Field

from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord, ParseReport, SpaceRecord
from memscope.records.text import counted
from memscope.sources._http import ApiConfig, ambiguous, ensure
from memscope.sources.base import Capabilities
from memscope.sources.errors import BadRequest, SourceError
from memscope.sources.mem0_events import (
    NO_DOCUMENTS,
    chain,
    dream_links,
    entity_tag,
    memory_space,
    split_tag,
)
from memscope.sources.mem0_forget import BATCH_LIMIT, Mem0Forgetting
from memscope.sources.results import (
    AddResult,
    LoadProgress,
    LoadResult,
    ProgressCallback,
    SearchHit,
    SearchResult,
)

SERVICE = "mem0"
LIST = "/v3/memories/"
#: how the note on unread histories begins (a resume replaces it)
HISTORY_NOTE = "The history of "
#: what a list page asks for besides its filters: Dream's merged memories too (its
#: superseded ones come by default, unless ``latest_only``)
READ_MERGED = {"include_merged": True}


class Mem0Config(ApiConfig):
    """mem0 platform settings (``repr`` hides the key)."""

    base_url: str = "https://api.mem0.ai"
    #: the entities to load, as space tags (``user:alice``, ``agent:bot``; a bare name is a
    #: user); empty: every entity ``GET /v1/entities/`` lists
    entities: tuple[str, ...] = ()
    page_size: int = Field(default=100, ge=1, le=1000)
    max_pages: int = Field(default=10_000, ge=1)
    #: history reads in flight at once during a load
    history_concurrency: int = Field(default=8, ge=1, le=32)


def _q(value: str) -> str:
    return quote(value, safe="")


@dataclass(frozen=True)
class _Listing:
    """What a load listed, kept with its result for a resume: the entities, the listed
    memories by id and what listing noted (never changed afterwards)."""

    spaces: list[SpaceRecord]
    listed: dict[str, dict[str, Any]]
    report: ParseReport
    #: every list page the load planned, ``(entity tag, page)``, in order: page ``i`` of
    #: the load is ``pages[i - 1]``
    pages: tuple[tuple[str, int], ...] = ()
    #: the pages that still failed after the retry budget, with their sentence
    failed: dict[tuple[str, int], str] = field(default_factory=dict)


def _filters(tag: str) -> dict[str, str]:
    key, name = split_tag(tag)
    return {key: name}


def _results(answer: Any) -> list[Any] | None:
    """The ``results`` list of an answer (or a bare list), else ``None``."""
    if isinstance(answer, list):
        return answer
    if isinstance(answer, dict) and isinstance(answer.get("results"), list):
        return answer["results"]
    return None


class _Tally:
    """Requests settled and planned during a load — list pages, then histories (``unit``)
    — reported after each (caller's thread)."""

    def __init__(self, progress: ProgressCallback | None) -> None:
        self.progress = progress
        self.done = self.planned = self.memories = 0
        self.unit = "pages"

    def report(self) -> None:
        if self.progress is not None:
            self.progress(LoadProgress(self.done, self.planned, 0, self.memories,
                                       unit=self.unit))

    def step(self) -> None:
        self.done += 1
        self.report()


class Mem0Source(Mem0Forgetting):
    """mem0's platform over HTTP (httpx). Thread-safe for its pools."""

    kind = "mem0"
    service = SERVICE
    capabilities = Capabilities(
        history=True, forget=True, forget_all=True, search=True, spaces=True, add=True,
        forget_many=True, forget_all_by_ids=True,
        why_not=(
            ("profile", "Memscope does not read mem0's user profiles."),
            ("restore", "mem0 deletes memories for good; add the fact again instead."),
            ("semantic_forget", "mem0 has no dry run of a forget by meaning; search, then "
                                "forget the memories you picked."),
        ),
    )
    search_note: ClassVar[str | None] = ("mem0 searches on its platform (one request); the "
                                         "results are its ranking.")
    add_note: ClassVar[str | None] = (
        "mem0 extracts memories from the text on its platform (an LLM) and may merge them "
        "into memories it already has; the graph is then reloaded.")

    def __init__(self, config: Mem0Config, *,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        super().__init__(config, {"Authorization": f"Token {config.api_key.get_secret_value()}"},
                         sleep=sleep)
        self.config: Mem0Config = config
        self._merged = True  # list with include_merged (cleared when mem0 refuses it)

    def cache_key(self) -> tuple[str, ...]:
        return (self.kind, self.config.base_url, self.config.credential_fingerprint(),
                ",".join(self.config.entities))

    # -- entities ------------------------------------------------------------------------

    def _entities(self, report: ParseReport | None = None) -> list[SpaceRecord]:
        op = "list the entities"
        found = _results(self._http.request("GET", "/v1/entities/", operation=op))
        ensure(found is not None, SERVICE, op, "no results list")
        out: list[SpaceRecord] = []
        for i, raw in enumerate(found or []):
            kind = raw.get("type") if isinstance(raw, dict) else None
            name = raw.get("name") or raw.get("id") if isinstance(raw, dict) else None
            if not isinstance(kind, str) or not isinstance(name, str) or not name or \
                    f"{kind}_id" not in ("user_id", "agent_id", "app_id", "run_id"):
                if report is not None:
                    report.skip(f"entities[{i}]", "entity has no known type and name")
                continue
            total = raw.get("total_memories")
            out.append(SpaceRecord(container_tag=entity_tag(kind, name), name=name,
                                   memory_count=total if isinstance(total, int) else None))
        return out

    def spaces(self) -> list[SpaceRecord]:
        """The entities as spaces (``GET /v1/entities/``)."""
        return self._entities()

    # -- loading -------------------------------------------------------------------------

    def _page(self, tag: str, number: int) -> tuple[list[Any], int | None]:
        """One list page; with ``include_merged`` (Dream's merged memories too) unless mem0
        refused it on a first page, which is then asked again without it."""
        op = f"load page {number} of the memories of {tag}"
        body = {"filters": _filters(tag), **(READ_MERGED if self._merged else {})}
        try:
            answer = self._http.request("POST", LIST, operation=op, json=body,
                                        params={"page": number,
                                                "page_size": self.config.page_size})
        except BadRequest:
            if number != 1 or not self._merged:
                raise
            self._merged = False
            return self._page(tag, number)
        found = _results(answer)
        ensure(found is not None, SERVICE, op, "no results list")
        count = answer.get("count") if isinstance(answer, dict) else None
        return found or [], count if isinstance(count, int) and count >= 0 else None

    def _history(self, memory_id: str) -> list[Any]:
        op = f"read the history of memory {memory_id}"
        found = _results(self._http.request("GET", f"/v1/memories/{_q(memory_id)}/history/",
                                            operation=op))
        ensure(found is not None, SERVICE, op, "not a list of events")
        return found or []

    def _pooled(self, jobs: dict[Any, Callable[[], Any]], size: int,
                settled: Callable[[Any, Any, SourceError | None], None]) -> None:
        """Run ``jobs`` with at most ``size`` in flight; ``settled(key, value, error)`` on
        the calling thread after each."""
        if not jobs:
            return
        with ThreadPoolExecutor(max_workers=max(1, min(size, len(jobs))),
                                thread_name_prefix="memscope-mem0") as pool:
            running: dict[Future[Any], Any] = {pool.submit(fn): key for key, fn in jobs.items()}
            while running:
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in done:
                    key = running.pop(fut)
                    try:
                        settled(key, fut.result(), None)
                    except SourceError as exc:
                        settled(key, None, exc)

    def _list(self, spaces: list[SpaceRecord], tally: _Tally, ds: Dataset,
              notes: list[str], failed: dict[tuple[str, int], str] | None = None,
              planned: list[tuple[str, int]] | None = None) -> dict[str, dict[str, Any]]:
        """Every listed memory of ``spaces`` by id (first listing wins): each entity's
        first page, then every other page on the pool. A page that still fails goes into
        ``failed``; every page planned into ``planned``."""
        cfg = self.config
        pages: dict[tuple[str, int], list[Any]] = {}
        more: dict[Any, Callable[[], Any]] = {}
        self._merged = True
        for space in spaces:
            tag = space.container_tag
            first, count = self._page(tag, 1)
            pages[(tag, 1)] = first
            total = -(-count // cfg.page_size) if count is not None else 1
            for n in range(2, min(total, cfg.max_pages) + 1):
                more[(tag, n)] = lambda tag=tag, n=n: self._page(tag, n)[0]
        if planned is not None:
            planned.extend(sorted([*pages, *more]))
        tally.done, tally.planned = len(pages), len(pages) + len(more)
        tally.report()
        if not self._merged:
            notes.append("mem0 refused include_merged, so the memories its Dream merged "
                         "into others are not shown (the superseded ones are).")

        def settled(key: Any, value: Any, error: SourceError | None) -> None:
            if error is None:
                pages[key] = value
            elif failed is not None:
                failed[key] = f"Page {key[1]} of {key[0]} could not be read: {error}"
            tally.step()

        self._pooled(more, cfg.concurrency, settled)
        listed: dict[str, dict[str, Any]] = {}
        for key in sorted(pages):
            for i, raw in enumerate(pages[key]):
                mem_id = raw.get("id") if isinstance(raw, dict) else None
                if not isinstance(mem_id, str) or not mem_id:
                    ds.report.skip(f"{key[0]} page {key[1]} results[{i}]", "memory has no id")
                elif mem_id not in listed:
                    listed[mem_id] = raw
        return listed

    def _histories(self, ids: Sequence[str], tally: _Tally,
                   unread: dict[str, str]) -> dict[str, list[Any]]:
        """The history events of ``ids`` on the pool; one that still fails after the
        retry budget is left out and its sentence put in ``unread``."""
        out: dict[str, list[Any]] = {}
        tally.done, tally.planned, tally.unit = 0, len(ids), "histories"

        def settled(key: Any, value: Any, error: SourceError | None) -> None:
            if error is None:
                out[key] = value or []
            else:
                unread[key] = str(error)
            tally.memories += 1
            tally.step()

        self._pooled({m: (lambda m=m: self._history(m)) for m in ids},
                     self.config.history_concurrency, settled)
        return out

    def load(self, progress: ProgressCallback | None = None, *,
             refresh: bool = False) -> LoadResult:
        """Every memory of the chosen entities with its history; cached unless ``refresh``.

        A list page that still fails after the retry budget is named in the notes; a
        history that does leaves its memory unread (shown as one version, the load
        incomplete: :meth:`resume` reads only those); the first page of an entity failing
        raises its :class:`SourceError`."""
        if self._last is not None and not refresh:
            return self._last
        calls0, cfg = self.calls, self.config
        ds, notes, tally = Dataset(keeps_documents=False), [], _Tally(progress)
        spaces = ([SpaceRecord(container_tag=t) for t in cfg.entities] if cfg.entities
                  else self._entities(ds.report))
        failed: dict[tuple[str, int], str] = {}
        planned: list[tuple[str, int]] = []
        listed = self._list(spaces, tally, ds, notes, failed, planned)
        unread: dict[str, str] = {}
        histories = self._histories(list(listed), tally, unread)
        listing = _Listing(spaces, listed, ds.report, tuple(planned), failed)
        result = self._build(listing, histories, unread, notes)
        result.calls = self.calls - calls0
        self._last = result
        return result

    def _build(self, listing: _Listing, histories: dict[str, list[Any]],
               unread: dict[str, str], notes: list[str]) -> LoadResult:
        """The result of the listed memories and the histories read; a memory whose
        history is unread is its listed text as one version, and the load incomplete."""
        ds = Dataset(keeps_documents=False)
        ds.report.skipped.extend(listing.report.skipped)
        ds.report.issues.extend(listing.report.issues)
        chains = {mem_id: chain(mem_id, histories.get(mem_id, []), ds.report, current=raw,
                                space=memory_space(raw))
                  for mem_id, raw in listing.listed.items()}
        for rec in dream_links(chains, ds.report):  # Dream's superseded and merged ones
            ds.add_memory(rec, None)
        ds.spaces = list(listing.spaces)
        if ds.memories:
            ds.report.note("mem0", NO_DOCUMENTS)
        ds.unread = {i for i in unread if i in ds.memories}
        notes = [n for n in notes if not n.startswith(HISTORY_NOTE)]
        if unread:
            n = len(unread)
            notes.append(f"{HISTORY_NOTE}{n:,} {'memory' if n == 1 else 'memories'} could "
                         "not be read, so each is shown as one version until a resume "
                         f"reads it: {next(iter(unread.values()))}")
        number = {key: i for i, key in enumerate(listing.pages, start=1)}
        missing = sorted(number[k] for k in listing.failed if k in number)
        return LoadResult(dataset=ds, source=self.kind, label=self.label, notes=notes,
                          pages_total=len(listing.pages),
                          pages_fetched=[i for i in number.values() if i not in missing],
                          missing_pages=missing,
                          page_errors={number[k]: e for k, e in listing.failed.items()
                                       if k in number},
                          unread_histories=dict(unread),
                          resume_state=(listing, histories, ds))

    def resume(self, previous: LoadResult,
               progress: ProgressCallback | None = None) -> LoadResult:
        """Read only the list pages and histories ``previous`` could not (and the
        histories of the memories those pages list), and return a new result with
        everything else it read (``previous`` is left as it is)."""
        if previous.complete:
            return previous
        state = previous.resume_state
        # a result changed since (a forget patched its dataset) is read again in full
        if not (isinstance(state, tuple) and len(state) == 3
                and isinstance(state[0], _Listing) and state[2] is previous.dataset):
            return self.load(progress, refresh=True)
        listing, read, _ = state
        calls0, unread, tally = self.calls, {}, _Tally(progress)
        failed: dict[tuple[str, int], str] = {}
        listed = dict(listing.listed)
        pages: dict[tuple[str, int], list[Any]] = {}

        def settled(key: Any, value: Any, error: SourceError | None) -> None:
            if error is None:
                pages[key] = value
            else:
                failed[key] = f"Page {key[1]} of {key[0]} could not be read: {error}"

        self._pooled({key: (lambda key=key: self._page(key[0], key[1])[0])
                      for key in listing.failed}, self.config.concurrency, settled)
        new: list[str] = []
        for key in sorted(pages):
            for raw in pages[key]:
                mem_id = raw.get("id") if isinstance(raw, dict) else None
                if isinstance(mem_id, str) and mem_id and mem_id not in listed:
                    listed[mem_id] = raw
                    new.append(mem_id)
        wanted = [*previous.unread_histories, *new]
        fresh = self._histories(wanted, tally, unread)
        again = _Listing(listing.spaces, listed, listing.report, listing.pages, failed)
        result = self._build(again, {**read, **fresh}, unread, list(previous.notes))
        result.calls = self.calls - calls0
        self._last = result
        return result

    # -- history ---------------------------------------------------------------------------

    def history(self, memory_id: str, *, container_tag: str | None = None
                ) -> list[MemoryRecord]:
        """Every version of the memory holding ``memory_id``, oldest first (one request)."""
        owner = self._memory_of(memory_id)
        known = self._last.dataset.memories.get(owner) if self._last else None
        report = ParseReport()
        current = {"memory": known.memory} if known is not None else None
        return chain(owner, self._history(owner), report, current=current,
                     space=known.container_tag if known else container_tag)

    # -- search and add ----------------------------------------------------------------------

    def _scope(self, container_tag: str | None) -> dict[str, Any]:
        tags = [container_tag] if container_tag else list(self.config.entities) or [
            s.container_tag for s in (self._last.dataset.spaces if self._last else [])]
        if not tags:
            raise BadRequest("Choose an entity to search in: mem0 searches one or more "
                             "entities.", service=SERVICE)
        return _filters(tags[0]) if len(tags) == 1 else {"OR": [_filters(t) for t in tags]}

    def search(self, query: str, *, container_tag: str | None = None,
               limit: int = 10) -> SearchResult:
        """``POST /v3/memories/search/`` with ``query``, ``filters`` and ``top_k``."""
        op = "search memories"
        found = _results(self._http.request(
            "POST", "/v3/memories/search/", operation=op,
            json={"query": query, "filters": self._scope(container_tag), "top_k": limit}))
        ensure(found is not None, SERVICE, op, "no results list")
        loaded = self._last.dataset.memories if self._last else {}
        hits = []
        for raw in found or []:
            if not isinstance(raw, dict) or not isinstance(raw.get("memory"), str):
                continue
            mem_id = raw.get("id") if isinstance(raw.get("id"), str) else None
            score = raw.get("score")
            hits.append(SearchHit("memory", raw["memory"], id=mem_id,
                                  similarity=float(score) if isinstance(score, int | float)
                                  and not isinstance(score, bool) else None,
                                  record=loaded.get(mem_id) if mem_id else None, raw=raw))
        return SearchResult(hits, len(hits), note="mem0 ranked these memories.")

    def add(self, text: str, *, container_tag: str | None = None,
            title: str | None = None) -> AddResult:
        """``POST /v3/memories/add/`` with the text as one user message, sent once."""
        tags = list(self.config.entities)
        tag = container_tag or (tags[0] if len(tags) == 1 else None)
        if tag is None:
            raise BadRequest("Choose the entity to add to: mem0 keeps every memory under a "
                             "user, agent, app or run.", service=SERVICE)
        body: dict[str, Any] = {"messages": [{"role": "user", "content": text}],
                                **_filters(tag)}
        op = f"add a memory to {tag}"
        with ambiguous(SERVICE, "add request", "stored the text"):
            answer = self._http.request("POST", "/v3/memories/add/", json=body, operation=op,
                                        idempotent=False)
        found = _results(answer) or []
        ids = [r["id"] for r in found if isinstance(r, dict) and isinstance(r.get("id"), str)]
        if ids:
            return AddResult(ids[0], "done", f"mem0 stored {counted(len(ids), 'memory')} from "
                             "the text.", container_tag=tag, title=title, memory_ids=ids,
                             raw=answer if isinstance(answer, dict) else {})
        return AddResult(None, "done", "mem0 accepted the text and processes it on its "
                         "platform; reload in a moment to see what it extracted.",
                         container_tag=tag, title=title,
                         raw=answer if isinstance(answer, dict) else {})


__all__ = ["BATCH_LIMIT", "Mem0Config", "Mem0Source"]
