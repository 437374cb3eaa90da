"""The Supermemory source: the v3 document feed, spaces, profiles, search, history, forget.

>>> src = SupermemorySource(SupermemoryConfig(api_key="sk-…"))      # doctest: +SKIP
>>> result = src.load(progress=lambda p: print(p.pages_done, p.pages_total))  # doctest: +SKIP
>>> result.missing_pages, result.dataset.memory_count               # doctest: +SKIP
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, ClassVar, Literal
from urllib.parse import quote

from pydantic import Field

from memscope.records import patch as rp
from memscope.records.dataset import from_feed_pages
from memscope.records.models import (
    MemoryRecord,
    ParseReport,
    Profile,
    SpaceRecord,
    parse_memory,
    parse_profile,
    parse_spaces,
)
from memscope.sources._feed import FeedState, fetch_pages, pages_from
from memscope.sources._http import ApiConfig, ambiguous, ensure
from memscope.sources._remote import HttpSource
from memscope.sources._spaces import add_spaces_and_profiles, space_of_memory, spaces_seen
from memscope.sources.base import Capabilities, forget_each, merge_history
from memscope.sources.dialects import Dialect, legacy_gone, neither, probe_v5
from memscope.sources.errors import (
    AuthError,
    BadRequest,
    DialectMismatch,
    Forbidden,
    NotFound,
    SourceError,
    route_missing,
)
from memscope.sources.patch import now, patched, profiles_again, with_profiles_read_again
from memscope.sources.processing import document_ids, parse_status, status_sentence
from memscope.sources.results import (
    AddResult,
    ForgetAllPreview,
    ForgetAllResult,
    ForgetReport,
    ForgetResult,
    LoadResult,
    ProgressCallback,
    SearchHit,
    SearchResult,
)

SERVICE = "Supermemory"
DEFAULT_SPACE = "sm_project_default"
_EPOCH = datetime.min.replace(tzinfo=UTC)
FEED = "/v3/documents/documents"
#: what Add says on both dialects
ADD_NOTE = ("Supermemory stores the text as a document and extracts memories from it "
            "asynchronously; Memscope polls its status and reloads the graph when it is done.")


class SupermemoryConfig(ApiConfig):
    """Supermemory connection settings (``repr`` hides the key)."""

    base_url: str = "https://api.supermemory.ai"
    page_limit: int = Field(default=200, ge=1, le=1000)
    container_tags: tuple[str, ...] = ()
    sort: Literal["createdAt", "updatedAt"] = "createdAt"
    order: Literal["asc", "desc"] = "desc"
    load_spaces: bool = True
    load_profiles: bool = True
    max_profiles: int = Field(default=50, ge=0)
    max_pages: int = Field(default=10_000, ge=1)
    history_page_limit: int = Field(default=100, ge=1, le=1000)
    max_history_pages: int = Field(default=50, ge=1)
    #: which API the service is spoken to in: ``v5`` (current, SupermemoryV5Source),
    #: ``legacy`` (v3/v4, SupermemorySource) or ``auto`` (v5 unless it answers 404, then
    #: legacy); :func:`~memscope.sources.supermemory_v5.supermemory_source` picks the class
    dialect: Dialect = "auto"
    #: v5: history views in flight at once during a load (see ``_history_v5``)
    history_concurrency: int = Field(default=8, ge=1, le=32)
    #: v5: ``relatedLimit`` of a history view (parents, children, siblings each)
    history_related_limit: int = Field(default=50, ge=1, le=100)


def auth_headers(config: SupermemoryConfig) -> dict[str, str]:
    """The headers every Supermemory request carries, on both dialects (the key only here)."""
    return {"Authorization": f"Bearer {config.api_key.get_secret_value()}",
            "x-sm-source": config.client_name}


class SupermemorySource(HttpSource):
    """Supermemory over HTTP (httpx). Thread-safe for concurrent page fetches."""

    kind = "supermemory"
    service = SERVICE
    capabilities = Capabilities(
        history=True, profile=True, forget=True, forget_all=True, search=True, spaces=True,
        add=True, forget_all_by_ids=True, forget_many=True,
        why_not=(("semantic_forget", "Supermemory's legacy API (v3/v4) has no dry run of a "
                                     "forget by meaning; connect with the current API (v5)."),
                 ("restore", "Supermemory's API cannot restore a forgotten memory; add the "
                             "fact again instead."),),
    )

    add_note: ClassVar[str | None] = ADD_NOTE
    #: the API this source speaks (the v5 source says ``v5``)
    dialect: ClassVar[str] = "legacy"

    def __init__(self, config: SupermemoryConfig, *,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        super().__init__(config, auth_headers(config), sleep=sleep)
        self.config: SupermemoryConfig = config
        #: chosen by ``auto`` because v5 answered 404 (then it is known not to answer v5)
        self.auto = False
        self._answers_v5: bool | None = None

    @property
    def label(self) -> str:
        return f"{SERVICE} (legacy API) at {self.config.host}"

    def fell_back(self) -> None:
        """Mark this source as chosen by ``auto`` after v5 answered 404."""
        self.auto, self._answers_v5 = True, False

    def answers_v5(self) -> bool | None:
        """Whether this account already answers the current API (v5): one ``GET /ns`` the
        first time it is asked (``None`` when that request failed for another reason)."""
        if self._answers_v5 is None:
            try:
                self._answers_v5 = probe_v5(lambda: self._http.request(
                    "GET", "/ns", params={"page": 1, "limit": 1},
                    operation="ask whether the service answers the current API (v5)")).answers
            except SourceError:
                return None
        return self._answers_v5

    def cache_key(self) -> tuple[str, ...]:
        return (self.kind, self.config.base_url, self.config.credential_fingerprint(),
                ",".join(self.config.container_tags))

    # -- the feed ------------------------------------------------------------------------

    def _page(self, number: int) -> tuple[list[Any], dict[str, Any]]:
        cfg = self.config
        body: dict[str, Any] = {"page": number, "limit": cfg.page_limit, "sort": cfg.sort,
                                "order": cfg.order}
        if cfg.container_tags:
            body["containerTags"] = list(cfg.container_tags)
        op = f"load page {number} of the documents"
        answer = self._http.request("POST", FEED, json=body, operation=op)
        ensure(isinstance(answer, dict) and isinstance(answer.get("documents"), list),
               SERVICE, op, "no documents list")
        pagination = answer.get("pagination")
        return answer["documents"], pagination if isinstance(pagination, dict) else {}

    def load(self, progress: ProgressCallback | None = None, *,
             refresh: bool = False) -> LoadResult:
        """Every page of the feed (page 1, then the rest concurrently), the spaces and
        the profiles. A page that still fails is named in ``missing_pages``; page 1
        failing raises its :class:`SourceError`."""
        if self._last is not None and not refresh:
            return self._last
        calls0, cfg = self.calls, self.config
        state, notes = FeedState(), []
        try:
            docs, pagination = self._page(1)
        except NotFound as exc:
            missing = route_missing(exc, "legacy", f"POST {FEED}")
            if not isinstance(missing, DialectMismatch):
                raise missing from None
            if self.auto:  # v5 answered 404 as well
                raise neither("GET /ns", f"POST {FEED}") from None
            raise legacy_gone(f"POST {FEED}") from None
        state.add(1, docs, pagination)
        total = pages_from(pagination, cfg.page_limit)
        state.total_pages = None if total is None else max(1, min(total, cfg.max_pages))
        if progress is not None:
            progress(state.progress())
        if total is None:  # no pagination object: follow full pages one at a time
            total = 1
            while len(state.pages.get(total, ())) >= cfg.page_limit and total < cfg.max_pages:
                total += 1
                state.total_pages = total
                fetch_pages([total], self._page, state, 1, progress)
        if total > cfg.max_pages:
            notes.append(f"The feed has {total} pages; only the first {cfg.max_pages} were "
                         "loaded.")
        state.total_pages = max(1, min(total, cfg.max_pages))
        self._fetch_rest(state, [p for p in range(2, state.total_pages + 1)
                                 if p not in state.pages and p not in state.errors], progress)
        result = self._result(state, notes, calls0)
        add_spaces_and_profiles(
            result, list_spaces=self._list_spaces if cfg.load_spaces else None,
            fetch_profile=self._raw_profile if cfg.load_profiles else None,
            tags=cfg.container_tags, max_profiles=cfg.max_profiles,
            concurrency=cfg.concurrency)
        result.calls = self.calls - calls0
        self._last = result
        return result

    def _fetch_rest(self, state: FeedState, numbers: list[int],
                    progress: ProgressCallback | None) -> None:
        fetch_pages(numbers, self._page, state, self.config.concurrency, progress)
        # Documents added while loading push the last ones onto new pages: fetch those too.
        for _ in range(3):
            grown = max(state.reported_pages.values(), default=0)
            grown = min(grown, self.config.max_pages)
            if grown <= (state.total_pages or 0):
                break
            extra = list(range((state.total_pages or 0) + 1, grown + 1))
            state.total_pages = grown
            fetch_pages(extra, self._page, state, self.config.concurrency, progress)

    def _result(self, state: FeedState, notes: list[str], calls0: int) -> LoadResult:
        ds, kept, dropped = state.build()
        missing = state.missing()
        shifted = state.shifted()
        if shifted is not None:
            notes.append(f"The feed changed while loading ({shifted[0]} → {shifted[1]} "
                         f"documents); {dropped} repeated document{'s' if dropped != 1 else ''}"
                         " were dropped — reload to be sure nothing was missed.")
        return LoadResult(
            dataset=ds, source=self.kind, label=self.label, pages_total=state.total_pages or 0,
            pages_fetched=sorted(state.pages), missing_pages=missing,
            page_errors={p: state.errors.get(p, "not fetched") for p in missing},
            calls=self.calls - calls0, notes=notes, duplicates_dropped=dropped,
            raw_pages=kept,
        )

    def resume(self, previous: LoadResult,
               progress: ProgressCallback | None = None) -> LoadResult:
        """Fetch only ``previous.missing_pages`` and return the completed result (spaces,
        profiles and history records of ``previous`` are kept, not fetched again)."""
        if previous.complete:
            return previous
        calls0 = self.calls
        state = FeedState.from_pages(previous.raw_pages, previous.pages_total)
        fetch_pages(previous.missing_pages, self._page, state, self.config.concurrency,
                    progress)
        notes = [n for n in previous.notes if not n.startswith("The feed changed")]
        result = self._result(state, notes, calls0)
        old = previous.dataset
        result.dataset.spaces = list(old.spaces)
        result.dataset.profiles = dict(old.profiles)
        merge_history(result.dataset, [m for i, m in old.memories.items()
                                       if not old.memory_documents.get(i)])
        result.calls = self.calls - calls0
        self._last = result
        return result

    # -- spaces and profiles -------------------------------------------------------------

    def _list_spaces(self, report: ParseReport) -> list[SpaceRecord]:
        raw = self._http.request("GET", "/v3/container-tags/list", operation="list spaces")
        return parse_spaces(raw, report)

    def _raw_profile(self, tag: str) -> Any:
        return self._http.request("POST", "/v4/profile", json={"containerTag": tag},
                                  operation=f"load the profile of {tag}")

    def spaces(self) -> list[SpaceRecord]:
        """``GET /v3/container-tags/list``; when the key may not list spaces (401/403),
        the tags seen in the loaded memories."""
        try:
            return self._list_spaces(ParseReport())
        except (AuthError, Forbidden):
            if self._last is None:
                raise
            return spaces_seen(self._last.dataset, self.config.container_tags)

    def profile(self, container_tag: str) -> Profile:
        """``POST /v4/profile`` for one space (null lists read as empty)."""
        return parse_profile(self._raw_profile(container_tag), container_tag, ParseReport())

    # -- history and search ------------------------------------------------------------

    def _tag_of(self, memory_id: str, container_tag: str | None) -> str | None:
        """The space to name for ``memory_id``: the caller's, the loaded data's, or the
        one space this source is limited to; ``None`` when none of them knows."""
        if container_tag:
            return container_tag
        if self._last is not None:
            tag = space_of_memory(self._last.dataset, memory_id)
            if tag:
                return tag
        return self.config.container_tags[0] if len(self.config.container_tags) == 1 else None

    def history(self, memory_id: str, *, container_tag: str | None = None
                ) -> list[MemoryRecord]:
        """The chain holding ``memory_id`` from ``POST /v4/memories/list`` (the latest
        entry and the versions it replaced), oldest first. Merge it into a dataset with
        :func:`~memscope.sources.base.merge_history`."""
        tag = self._tag_of(memory_id, container_tag)
        if tag is None:
            raise BadRequest(f"Memscope needs the space of memory {memory_id} to read its "
                             "history from Supermemory.", service=SERVICE)
        op = f"read the history of memory {memory_id}"
        cfg, page = self.config, 1
        while page <= cfg.max_history_pages:
            body = {"containerTags": [tag], "page": page, "limit": cfg.history_page_limit,
                    "sort": "createdAt", "order": "desc"}
            answer = self._http.request("POST", "/v4/memories/list", json=body, operation=op)
            ensure(isinstance(answer, dict) and isinstance(answer.get("memoryEntries"), list),
                   SERVICE, op, "no memoryEntries list")
            for entry in answer["memoryEntries"]:
                if not isinstance(entry, dict):
                    continue
                past = [h for h in entry.get("history") or [] if isinstance(h, dict)]
                if memory_id in {entry.get("id"), *(h.get("id") for h in past)}:
                    return self._chain(entry, past, tag)
            pagination = answer.get("pagination")
            total = pages_from(pagination if isinstance(pagination, dict) else {},
                               cfg.history_page_limit)
            if not answer["memoryEntries"] or total is None or page >= total:
                break
            page += 1
        raise NotFound(f"Supermemory has no history for memory {memory_id} in space {tag}.",
                       service=SERVICE, status=404, operation=op)

    @staticmethod
    def _chain(entry: dict[str, Any], past: list[dict[str, Any]],
               tag: str) -> list[MemoryRecord]:
        report = ParseReport()
        latest = {k: v for k, v in entry.items() if k != "history"}
        records = []
        for i, raw in enumerate([latest, *past]):
            mem = parse_memory({"spaceContainerTag": tag, **raw}, f"history[{i}]", report)
            if mem is not None:
                records.append(mem)
        records.sort(key=lambda m: (m.created_at or _EPOCH, m.id))
        return records

    def search(self, query: str, *, container_tag: str | None = None,
               limit: int = 10) -> SearchResult:
        """``POST /v4/search`` (hybrid): memory hits and document-chunk hits, each with
        the ids of its documents when the answer names them."""
        body: dict[str, Any] = {"q": query, "searchMode": "hybrid", "limit": limit}
        if container_tag:
            body["containerTag"] = container_tag
        op = "search memories"
        answer = self._http.request("POST", "/v4/search", json=body, operation=op)
        ensure(isinstance(answer, dict) and isinstance(answer.get("results"), list),
               SERVICE, op, "no results list")
        hits, report = [], ParseReport()
        for i, raw in enumerate(answer["results"]):
            if not isinstance(raw, dict):
                continue
            sim = raw.get("similarity")
            sim = float(sim) if isinstance(sim, int | float) else None
            docs = document_ids(raw)
            hit_id = raw.get("id") if isinstance(raw.get("id"), str) else None
            if raw.get("memory") is not None:
                hits.append(SearchHit("memory", str(raw["memory"]), hit_id, sim,
                                      parse_memory(raw, f"results[{i}]", report), raw, docs))
            elif raw.get("chunk") is not None:
                hits.append(SearchHit("chunk", str(raw["chunk"]), hit_id, sim, raw=raw,
                                      document_ids=docs))
        total = answer.get("total")
        return SearchResult(hits, total if isinstance(total, int) else len(hits))

    # -- adding --------------------------------------------------------------------------

    def add(self, text: str, *, container_tag: str | None = None,
            title: str | None = None) -> AddResult:
        """``POST /v3/documents`` with the text and the space, sent once. The answer is
        usually ``queued``: poll :meth:`document_status` (or use
        :func:`~memscope.sources.wait_until_processed`) until ``done`` or ``failed``."""
        tags = self.config.container_tags
        tag = container_tag or (tags[0] if len(tags) == 1 else DEFAULT_SPACE)
        body: dict[str, Any] = {"content": text, "containerTag": tag}
        if title:
            body["metadata"] = {"title": title}
        op = f"add a document to {tag}"
        with ambiguous(SERVICE, "add request", "created the document"):
            answer = self._http.request("POST", "/v3/documents", json=body, operation=op,
                                        idempotent=False)
        ensure(isinstance(answer, dict) and isinstance(answer.get("id"), str), SERVICE, op,
               "no document id")
        status = str(answer.get("status") or "queued")
        return AddResult(answer["id"], status, status_sentence(SERVICE, answer["id"], status),
                         container_tag=tag, title=title, raw=answer)

    def document_status(self, document_id: str) -> AddResult:
        """``GET /v3/documents/{id}``: the document's processing status."""
        op = f"read the status of document {document_id}"
        answer = self._http.request("GET", f"/v3/documents/{quote(document_id, safe='')}",
                                    operation=op)
        ensure(isinstance(answer, dict), SERVICE, op, "not an object")
        return parse_status(SERVICE, document_id, answer)

    # -- forgetting ----------------------------------------------------------------------

    def _mark_forgotten(self, ids: list[str], reason: str | None) -> None:
        """This source's last load with ``ids`` forgotten: a new result (the old one may
        be shared; :meth:`patch_forgotten` is what the UI hands on)."""
        if self._last is None:
            return
        self._last = patched(self._last, rp.mark_forgotten(self._last.dataset, ids,
                                                           at=now(), reason=reason))

    # -- patching the loaded data after an action (memscope.sources.patch) -------------

    def patch_forgotten(self, previous: LoadResult, ids: Sequence[str], *,
                        reason: str | None = None) -> LoadResult | None:
        """Forgotten memories as the feed shows them: ``isForgotten``, the reason and
        ``updatedAt`` now; the profiles of the spaces touched are read again (a request
        each). Nothing else is asked."""
        ds = rp.mark_forgotten(previous.dataset, ids, at=now(), reason=reason)
        self._last = with_profiles_read_again(self, previous, ds, ids, self._raw_profile)
        return self._last

    def patch_added(self, previous: LoadResult, added: AddResult) -> LoadResult | None:
        """The added document as the feed lists it: page 1 of the feed, newest first,
        holds it (one request; ``None`` when the feed is sorted otherwise or the document
        is not there); a version it replaced is no longer latest; the spaces are listed
        again (their counts) and the space's profile when the load has it."""
        cfg = self.config
        if added.id is None or (cfg.sort, cfg.order) != ("createdAt", "desc"):
            return None
        calls0 = self.calls
        docs, _ = self._page(1)
        raw = next((d for d in docs if isinstance(d, dict) and d.get("id") == added.id), None)
        if raw is None:
            return None
        fragment = from_feed_pages([[raw]])
        replaced = [m.parent_id for m in fragment.memories.values()
                    if m.parent_id and m.id not in previous.dataset.memories]
        ds = rp.add_records(previous.dataset, fragment, not_latest=replaced)
        tags = {m.container_tag for m in fragment.memories.values() if m.container_tag}
        notes: list[str] = []
        if cfg.load_spaces:  # their counts changed, and the space may be new
            try:
                ds = rp.with_spaces(ds, self._list_spaces(ParseReport()))
            except SourceError as exc:
                notes.append(f"The spaces could not be listed again: {exc}")
        profiles, said = profiles_again(ds, sorted(tags), self._raw_profile)
        result = patched(previous, rp.with_profiles(ds, profiles), calls=self.calls - calls0,
                         notes=notes + said)
        self._last = result
        return result

    def forget(self, target_id: str, *, reason: str | None = None,
               container_tag: str | None = None) -> ForgetResult:
        """``DELETE /v4/memories`` with ``{"id", "containerTag", "reason"}`` — by id only.
        A soft delete; the loaded record is marked forgotten too.

        The API requires the memory's space: when neither the caller nor the loaded data
        knows it, nothing is sent and :class:`BadRequest` says so.
        """
        tag = self._tag_of(target_id, container_tag)
        if tag is None:
            raise BadRequest(f"Nothing was sent: Memscope does not know which space memory "
                             f"{target_id} is in, and Supermemory needs the space to forget "
                             "it — load the graph that shows it (or choose its space) and "
                             "try again.", service=SERVICE, operation=f"forget memory "
                             f"{target_id}")
        body: dict[str, Any] = {"id": target_id, "containerTag": tag}
        if reason:
            body["reason"] = reason
        answer = self._http.request("DELETE", "/v4/memories", json=body,
                                    operation=f"forget memory {target_id}")
        ok = isinstance(answer, dict) and answer.get("forgotten") is True
        mem = self._last.dataset.memories.get(target_id) if self._last else None
        if ok:
            self._mark_forgotten([target_id], reason)
        message = (f"Supermemory forgot memory {target_id}." if ok else
                   f"Supermemory did not confirm forgetting memory {target_id}.")
        return ForgetResult(target_id, ok, message, container_tag=tag,
                            snapshot=mem.memory if mem else None)

    def forget_many(self, ids: Sequence[str], *, reason: str | None = None,
                    container_tag: str | None = None) -> ForgetReport:
        """The v3/v4 API forgets one id per call: :meth:`forget` for each id in turn."""
        return forget_each(self, ids, reason=reason, container_tag=container_tag)

    def forget_all_preview(self, container_tag: str | None = None) -> ForgetAllPreview:
        """A dry run of ``POST /v4/memories/forget-matching`` over the loaded,
        not-yet-forgotten memories of the space; deletes nothing."""
        if not container_tag:
            raise BadRequest("Choose a space to forget everything in.", service=SERVICE)
        ds = self.load().dataset
        ids = [m.id for m in ds.memories.values()
               if m.container_tag == container_tag and not m.is_forgotten]
        already = sum(1 for m in ds.memories.values()
                      if m.container_tag == container_tag and m.is_forgotten)
        candidates: list[str] = []
        summary = ""
        if ids:
            op = f"preview forgetting everything in {container_tag}"
            answer = self._http.request("POST", "/v4/memories/forget-matching", operation=op,
                                        json={"ids": ids, "containerTag": container_tag,
                                              "dryRun": True})
            ensure(isinstance(answer, dict), SERVICE, op, "not an object")
            candidates = [c["id"] for c in answer.get("candidates") or []
                          if isinstance(c, dict) and isinstance(c.get("id"), str)]
            summary = str(answer.get("summary") or "")
        docs = {d for i in candidates for d in ds.memory_documents.get(i, [])}
        message = (f"{len(candidates)} memories from {len(docs)} documents in "
                   f"{container_tag} would be forgotten (of the memories loaded). "
                   + summary).strip()
        return ForgetAllPreview(container_tag, len(candidates), candidates, len(docs),
                                already_forgotten=already, message=message,
                                confirm_words=(container_tag, str(len(candidates))))

    def _forget_all(self, preview: ForgetAllPreview, *, confirm: str, reason: str | None,
                    **_: Any) -> ForgetAllResult:
        """Forget the previewed memories in one request (``forget-matching`` with
        ``dryRun: false``), not one per id as :meth:`forget_many` must."""
        tag = preview.container_tag
        body: dict[str, Any] = {"ids": preview.memory_ids, "containerTag": tag,
                                "dryRun": False}
        if reason:
            body["reason"] = reason
        op = f"forget everything in {tag}"
        answer = self._http.request("POST", "/v4/memories/forget-matching", json=body,
                                    operation=op)
        ensure(isinstance(answer, dict), SERVICE, op, "not an object")
        done = [c["id"] for c in answer.get("forgotten") or []
                if isinstance(c, dict) and isinstance(c.get("id"), str)]
        self._mark_forgotten(done, reason)
        return ForgetAllResult(tag, len(done), f"Supermemory forgot {len(done)} memories in "
                               f"{tag}.", memory_ids=done)

