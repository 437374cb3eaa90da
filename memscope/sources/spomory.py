"""The Spomory source: one ``/v1/export`` call loads the whole graph.

Every call counts against the key's lifetime quota (~1000), so :meth:`SpomorySource.load`
returns the cached result unless asked to ``refresh``, and :attr:`SpomorySource.calls`
tells how many calls this source object made. Forgetting a fact re-reads the graph and
checks that exactly that relation disappeared (Spomory deletes the *nearest* fact).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, ClassVar

from memscope.records.dataset import Dataset
from memscope.records.models import ParseReport
from memscope.records.passport import decode_result, looks_like_passport
from memscope.sources._http import ApiConfig, ambiguous, ensure
from memscope.sources._remote import HttpSource
from memscope.sources.base import Capabilities
from memscope.sources.errors import ForgetMismatch, NotFound
from memscope.sources.results import (
    AddResult,
    ForgetAllPreview,
    ForgetAllResult,
    ForgetResult,
    LoadProgress,
    LoadResult,
    ProgressCallback,
    SearchHit,
    SearchResult,
)

SERVICE = "Spomory"
NOTHING_FOUND = "没有找到相关记忆。"
EMPTY_GRAPH = "记忆图谱是空的，没有可以忘记的内容。"
_COUNTS = re.compile(r"(\d+)\s*个实体[、，,\s]*(\d+)\s*条关系")
QUOTA = 1000


class SpomoryConfig(ApiConfig):
    """Spomory connection settings (``repr`` hides the key)."""

    base_url: str = "https://api.yliuai.com"
    subject_id: str = "default"


def _ambiguous(what: str) -> AbstractContextManager[None]:
    """A destructive call that failed after it may have reached the server: say so."""
    return ambiguous(SERVICE, what, "deleted something")


def parse_counts(sentence: str) -> tuple[int, int] | None:
    """``(entities, relations)`` from a forget-all sentence, if it names them."""
    match = _COUNTS.search(sentence)
    return (int(match.group(1)), int(match.group(2))) if match else None


class SpomorySource(HttpSource):
    """Spomory over HTTP (httpx); the key goes in ``x-api-key`` only."""

    kind = "spomory"
    service = SERVICE
    capabilities = Capabilities(
        forget=True, forget_all=True, search=True, add=True,
        why_not=(
            ("history", "Spomory keeps no version history: a corrected fact's old value is "
                        "archived on the server and never returned."),
            ("profile", "Spomory derives no user profile."),
            ("restore", "Spomory deletes facts for good; there is nothing to restore."),
            ("spaces", "Spomory has no spaces: the key decides whose graph it is."),
        ),
    )

    search_note: ClassVar[str | None] = (
        "Searching Spomory marks every fact it returns as retrieved (it changes their "
        "last_retrieved_at on the server) and uses one call of the key's quota.")
    add_note: ClassVar[str | None] = (
        "Spomory extracts facts from the text on the server (an LLM) and answers with a "
        "summary sentence; the graph is then re-read with one export call.")

    def __init__(self, config: SpomoryConfig, *,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        super().__init__(config, {"x-api-key": config.api_key.get_secret_value()},
                         sleep=sleep)
        self.config: SpomoryConfig = config

    def calls_note(self) -> str:
        """One sentence on the quota for the UI."""
        return (f"This session made {self.calls} Spomory call{'s' if self.calls != 1 else ''};"
                f" a key allows about {QUOTA} in its whole lifetime.")

    def cache_key(self) -> tuple[str, ...]:
        return (self.kind, self.config.base_url, self.config.credential_fingerprint(),
                self.config.subject_id)

    # -- loading -------------------------------------------------------------------------

    def _export(self) -> tuple[dict[str, Any], ParseReport]:
        """The decoded passport, and a report noting what decoding had to cut."""
        op = "export the memory graph"
        answer = self._http.request("GET", "/v1/export", operation=op,
                                    params={"subject_id": self.config.subject_id})
        ensure(isinstance(answer, dict) and isinstance(answer.get("result"), str),
               SERVICE, op, 'no "result" string')
        report = ParseReport()
        passport = decode_result(answer, report)
        ensure(looks_like_passport(passport), SERVICE, op,
               "the result is not a memory passport")
        return passport, report

    def _result(self, exported: tuple[dict[str, Any], ParseReport], calls: int) -> LoadResult:
        passport, report = exported
        ds = Dataset(report=report)
        ds.add_passport(passport)
        return LoadResult(dataset=ds, source=self.kind, label=self.label, calls=calls,
                          notes=[self.calls_note()], raw_passport=passport)

    def load(self, progress: ProgressCallback | None = None, *,
             refresh: bool = False) -> LoadResult:
        """The whole graph from one ``/v1/export`` call (decoded twice); cached — only
        ``refresh=True`` calls the service again."""
        if self._last is not None and not refresh:
            return self._last
        calls0 = self.calls
        result = self._result(self._export(), 0)
        result.calls = self.calls - calls0
        self._last = result
        if progress is not None:
            progress(LoadProgress(1, 1, len(result.dataset.entities),
                                  len(result.dataset.relations)))
        return result

    def neighbourhood(self, entity_name: str, hops: int = 1) -> Dataset:
        """``GET /v1/graph`` around one entity (name or alias) — only on explicit request;
        an empty dataset when nothing has that name."""
        op = f"read the graph around {entity_name}"
        answer = self._http.request("GET", "/v1/graph", operation=op,
                                    params={"entity_name": entity_name, "hops": hops})
        ensure(isinstance(answer, dict) and isinstance(answer.get("result"), str),
               SERVICE, op, 'no "result" string')
        ds = Dataset()
        decoded = decode_result(answer, ds.report)
        if decoded != {}:
            ensure(looks_like_passport(decoded), SERVICE, op, "no entities list")
            ds.add_passport(decoded)
        return ds

    def remember(self, text: str, source_id: str = "api") -> str:
        """``POST /v1/memories``: add text (the server extracts facts); its sentence.
        Sent once: a failure after the request may have arrived is not retried."""
        with ambiguous(SERVICE, "add request", "stored the text"):
            answer = self._http.request("POST", "/v1/memories", operation="add a memory",
                                        json={"text": text, "source_id": source_id},
                                        idempotent=False)
        return str(decode_result(answer))

    def add(self, text: str, *, container_tag: str | None = None,
            title: str | None = None) -> AddResult:
        """:meth:`remember` the text, then re-read the graph with one ``/v1/export`` call
        (``result.load``); two calls. ``container_tag`` and ``title`` do not apply."""
        said = self.remember(text, source_id="memscope")
        calls0 = self.calls
        after = self._result(self._export(), 0)
        after.calls = self.calls - calls0
        self._last = after
        return AddResult(None, "done", said, load=after)

    # -- search ----------------------------------------------------------------------------

    def search(self, query: str, *, container_tag: str | None = None,
               limit: int = 10) -> SearchResult:
        """``GET /v1/memories/search``: Spomory answers with one context text."""
        answer = self._http.request("GET", "/v1/memories/search", operation="search memories",
                                    params={"query": query, "top_k": limit})
        text = str(decode_result(answer))
        if text.strip() == NOTHING_FOUND:
            return SearchResult([], 0, text)
        return SearchResult([SearchHit("context", text)], 1, text)

    # -- forgetting ----------------------------------------------------------------------

    def forget(self, target_id: str, *, reason: str | None = None,
               container_tag: str | None = None) -> ForgetResult:
        """Forget the fact (relation id) ``target_id`` and verify it.

        Sends the fact's own text (``subject predicate object``) to
        ``/v1/memories/forget`` once, re-reads the graph with ``/v1/export`` and compares:
        if anything other than exactly ``target_id`` disappeared, raises
        :class:`ForgetMismatch` (its ``result`` holds the re-read graph). Two calls.
        """
        before = self.load().dataset
        rel = before.relations.get(target_id)
        if rel is None:
            raise NotFound(f"The fact {target_id} is not in the loaded Spomory graph; reload "
                           "and pick it again.", service=SERVICE)
        names = {e.id: e.name for e in before.entities.values()}
        query = rel.sentence(names)
        with _ambiguous("forget request"):
            answer = self._http.request("POST", "/v1/memories/forget", json={"query": query},
                                        operation="forget a fact", idempotent=False)
        said = str(decode_result(answer))
        calls0 = self.calls
        after = self._result(self._export(), 0)
        after.calls = self.calls - calls0
        self._last = after
        now = after.dataset
        removed = [r for r in before.relations if r not in now.relations]
        gone_entities = [e for e in before.entities if e not in now.entities]
        result = ForgetResult(target_id, removed == [target_id], said, snapshot=query,
                              removed_ids=removed, removed_entities=gone_entities, load=after)
        if result.ok:
            return result
        wrong = [(r, before.relations[r].sentence(names)) for r in removed if r != target_id]
        if not removed:
            text = (f"Spomory answered “{said}” but no fact disappeared when the graph was "
                    f"re-read; “{query}” ({target_id}) is still there.")
        elif target_id in removed:
            text = (f"Spomory forgot “{query}” ({target_id}) but also "
                    + ", ".join(f"“{s}” ({r})" for r, s in wrong) + f". Server said: {said}")
        else:
            text = (f"Spomory forgot a different fact: you picked “{query}” ({target_id}) but "
                    + ", ".join(f"“{s}” ({r})" for r, s in wrong)
                    + f" disappeared. Server said: {said}")
        raise ForgetMismatch(text, expected_id=target_id, removed=wrong, result=result,
                             service=SERVICE)

    def forget_all_preview(self, container_tag: str | None = None) -> ForgetAllPreview:
        """``forget-all?confirm=false``: the server's sentence; deletes nothing."""
        answer = self._http.request("POST", "/v1/memories/forget-all",
                                    params={"confirm": "false"},
                                    operation="preview forgetting everything")
        said = str(decode_result(answer))
        loaded = self._last.dataset if self._last is not None else None
        counts = parse_counts(said)
        if counts is None:
            counts = (len(loaded.entities), len(loaded.relations)) if loaded else (0, 0)
        if said.strip() == EMPTY_GRAPH:
            counts = (0, 0)
        ids = list(loaded.relations) if loaded else []
        return ForgetAllPreview(None, counts[1], ids, entity_count=counts[0], message=said,
                                confirm_words=(str(counts[1]),))

    def _forget_all(self, preview: ForgetAllPreview, *, confirm: str, reason: str | None,
                    **_: Any) -> ForgetAllResult:
        """``forget-all?confirm=true``: deletes the whole graph at once (after the typed
        confirmation); the cached graph becomes empty without another call."""
        with _ambiguous("forget-all request"):
            answer = self._http.request("POST", "/v1/memories/forget-all",
                                        params={"confirm": "true"}, idempotent=False,
                                        operation="forget everything")
        said = str(decode_result(answer))
        counts = parse_counts(said) or (preview.entity_count or 0, preview.count)
        empty = LoadResult(dataset=Dataset(), source=self.kind, label=self.label,
                           notes=["The graph was cleared: " + said, self.calls_note()],
                           raw_passport={"entities": [], "relations": []})
        self._last = empty
        return ForgetAllResult(None, counts[1], said, memory_ids=list(preview.memory_ids),
                               entity_count=counts[0])
