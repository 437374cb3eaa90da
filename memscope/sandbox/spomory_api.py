"""The sandbox's Spomory routes (``/v1``) over an in-memory knowledge graph.

Forget deletes the relation *nearest* to the query (character-bigram overlap with the
fact's ``subject predicate object`` text) with no threshold, like the real service —
or, with ``faults.spomory_wrong_forget``, deliberately the second nearest.
"""

from __future__ import annotations

import copy
import json
import re
import threading
import uuid
from datetime import UTC, datetime
from typing import Any

from memscope.sandbox.faults import Faults
from memscope.sandbox.supermemory_api import ApiError, Reply

EMPTY = "记忆图谱是空的，没有可以忘记的内容。"
NOTHING = "没有找到相关记忆。"
PREDICATES = ("任职于", "住在", "喜欢", "使用", "擅长", "认识", " works at ", " lives in ",
              " likes ", " uses ")
BOOL_TRUE, BOOL_FALSE = {"true", "1", "yes", "on"}, {"false", "0", "no", "off"}


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _bigrams(text: str) -> set[str]:
    text = re.sub(r"\s+", "", text.casefold())
    return {text[i:i + 2] for i in range(len(text) - 1)} or ({text} if text else set())


def _missing(loc: str, name: str) -> ApiError:
    return ApiError(422, [{"loc": [loc, name], "msg": "Field required", "type": "missing"}])


class SpomoryGraph:
    """Entities and relations in memory, shaped like the passport."""

    def __init__(self, passport: dict[str, Any] | None = None) -> None:
        passport = passport or {}
        self.meta = {k: v for k, v in passport.items() if k not in ("entities", "relations")}
        self.entities = {e["id"]: copy.deepcopy(e) for e in passport.get("entities") or []}
        self.relations = {r["id"]: copy.deepcopy(r) for r in passport.get("relations") or []}
        self.lock = threading.RLock()

    def name(self, entity_id: str) -> str:
        ent = self.entities.get(entity_id)
        return ent["name"] if ent else entity_id

    def sentence(self, rel: dict[str, Any]) -> str:
        return f"{self.name(rel['subject_id'])}{rel['predicate']}{self.name(rel['object_id'])}"

    def export(self) -> dict[str, Any]:
        with self.lock:
            return {**self.meta, "exported_at": _now(),
                    "entities": list(self.entities.values()),
                    "relations": [{k: v for k, v in r.items() if k not in (
                        "last_retrieved_at", "mention_count", "valid_from")}
                        for r in self.relations.values()]}

    def ranked(self, query: str) -> list[tuple[float, str]]:
        """``(score, relation id)``, nearest first (ties keep insertion order)."""
        grams = _bigrams(query)
        scores = []
        for n, (rel_id, rel) in enumerate(self.relations.items()):
            other = _bigrams(self.sentence(rel))
            union = grams | other
            scores.append((len(grams & other) / len(union) if union else 0.0, -n, rel_id))
        scores.sort(reverse=True)
        return [(s, r) for s, _, r in scores]

    def neighbourhood(self, name: str, hops: int) -> dict[str, Any]:
        with self.lock:
            start = {i for i, e in self.entities.items()
                     if e.get("name") == name or name in (e.get("aliases") or [])}
            if not start:
                return {}
            seen, frontier, rels = set(start), set(start), {}
            for _ in range(max(0, hops)):
                nxt = set()
                for rel_id, rel in self.relations.items():
                    ends = {rel["subject_id"], rel["object_id"]}
                    if ends & frontier:
                        rels[rel_id] = rel
                        nxt |= ends - seen
                seen |= nxt
                frontier = nxt
            return {"entities": [self.entities[i] for i in seen if i in self.entities],
                    "relations": [{"last_retrieved_at": None, "mention_count": 1,
                                   "valid_from": r.get("created_at"), **r}
                                  for r in rels.values()]}

    def search(self, query: str, top_k: int) -> str:
        with self.lock:
            hits = [(s, r) for s, r in self.ranked(query) if s > 0][: max(1, top_k)]
            if not hits:
                return NOTHING
            lines = []
            for _, rel_id in hits:
                rel = self.relations[rel_id]
                rel["last_retrieved_at"] = _now()
                lines.append(f"- {self.sentence(rel)}（置信度 {rel.get('confidence', 1.0)}）")
            return "相关记忆：\n" + "\n".join(lines)

    def _entity(self, name: str, created: list[str], merged: list[str]) -> str:
        for ent_id, ent in self.entities.items():
            if ent["name"] == name or name in ent.get("aliases", []):
                merged.append(ent_id)
                return ent_id
        ent_id = str(uuid.uuid4())
        now = _now()
        self.entities[ent_id] = {"id": ent_id, "name": name, "type": "unknown",
                                 "memory_type": "semantic", "attributes": {}, "aliases": [],
                                 "provenance": [], "created_at": now, "updated_at": now}
        created.append(ent_id)
        return ent_id

    def add(self, text: str, source_id: str) -> str:
        """A toy extractor: ``<subject><known predicate><object>`` per sentence."""
        created: list[str] = []
        merged: list[str] = []
        added = 0
        with self.lock:
            for sentence in re.split(r"[。.!！?？\n]+", text):
                for pred in PREDICATES:
                    subject, found, obj = sentence.partition(pred)
                    if found and subject.strip() and obj.strip():
                        s_id = self._entity(subject.strip(), created, merged)
                        o_id = self._entity(obj.strip(), created, merged)
                        now, rel_id = _now(), str(uuid.uuid4())
                        self.relations[rel_id] = {
                            "id": rel_id, "subject_id": s_id, "predicate": pred.strip(),
                            "object_id": o_id, "confidence": 0.9, "memory_type": "semantic",
                            "provenance": [{"source_id": source_id, "source_span": sentence,
                                            "extractor": "sandbox", "client_name": "rest-api",
                                            "session_id": None}],
                            "created_at": now, "updated_at": now}
                        added += 1
                        break
        return (f"新增实体 {len(created)} 个，合并已有实体 {len(set(merged))} 个，"
                f"新增关系 {added} 条")

    def forget(self, query: str, wrong: bool) -> str:
        with self.lock:
            ranked = self.ranked(query)
            if not ranked:
                return EMPTY
            rel_id = ranked[1][1] if wrong and len(ranked) > 1 else ranked[0][1]
            rel = self.relations.pop(rel_id)
            said = f"已忘记：{self.sentence(rel)}"
            used = {e for r in self.relations.values() for e in (r["subject_id"],
                                                                  r["object_id"])}
            for ent_id in (rel["subject_id"], rel["object_id"]):
                if ent_id not in used:
                    self.entities.pop(ent_id, None)
            return said

    def forget_all(self, confirm: bool) -> str:
        with self.lock:
            n_ent, n_rel = len(self.entities), len(self.relations)
            if not confirm:
                return (f"这将永久删除整个记忆图谱：{n_ent} 个实体、{n_rel} 条关系，且不可恢复。"
                        "还没有执行任何删除。确认要继续的话，再调用一次 "
                        "forget_all_memory(confirm=true)。")
            self.entities.clear()
            self.relations.clear()
            return f"已清空整个记忆图谱：删除了 {n_ent} 个实体、{n_rel} 条关系"


class SpomoryApi:
    """Routes of the Spomory REST API; every answer is ``{"result": "<string>"}``."""

    def __init__(self, graph: SpomoryGraph, faults: Faults) -> None:
        self.graph, self.faults = graph, faults

    def route(self, method: str, path: str, query: dict[str, str], body: Any) -> Reply:
        """Answer one request (auth already checked): ``{"result": <string>}``."""
        routes = {
            ("GET", "/v1/export"): self.export,
            ("GET", "/v1/graph"): self.graph_of,
            ("GET", "/v1/memories/search"): self.search,
            ("POST", "/v1/memories"): self.add,
            ("POST", "/v1/memories/forget"): self.forget,
            ("POST", "/v1/memories/forget-all"): self.forget_all,
        }
        handler = routes.get((method, path))
        if handler is None:
            raise ApiError(404, "Not Found")
        return Reply(200, {"result": handler(query, body if isinstance(body, dict) else {})})

    def export(self, query: dict[str, str], body: dict[str, Any]) -> str:
        """The passport as a JSON string (cut in half with ``spomory_bad_export``)."""
        passport = json.dumps(self.graph.export(), ensure_ascii=False)
        return passport[: len(passport) // 2] if self.faults.spomory_bad_export else passport

    def graph_of(self, query: dict[str, str], body: dict[str, Any]) -> str:
        """The neighbourhood of ``entity_name`` within ``hops`` as a JSON string."""
        if not query.get("entity_name"):
            raise _missing("query", "entity_name")
        found = self.graph.neighbourhood(query["entity_name"], self._int(query, "hops", 1))
        return json.dumps(found, ensure_ascii=False)

    def search(self, query: dict[str, str], body: dict[str, Any]) -> str:
        if not query.get("query"):
            raise _missing("query", "query")
        return self.graph.search(query["query"], self._int(query, "top_k", 10))

    def add(self, query: dict[str, str], body: dict[str, Any]) -> str:
        if not isinstance(body.get("text"), str):
            raise _missing("body", "text")
        return self.graph.add(body["text"], str(body.get("source_id", "api")))

    def forget(self, query: dict[str, str], body: dict[str, Any]) -> str:
        if not isinstance(body.get("query"), str):
            raise _missing("body", "query")
        return self.graph.forget(body["query"], self.faults.spomory_wrong_forget)

    def forget_all(self, query: dict[str, str], body: dict[str, Any]) -> str:
        """A preview, or with ``confirm=true`` the cleared graph's summary."""
        raw = query.get("confirm", "false").strip().lower()
        if raw not in BOOL_TRUE | BOOL_FALSE:
            raise ApiError(422, [{
                "loc": ["query", "confirm"], "type": "bool_parsing",
                "msg": "Input should be a valid boolean, unable to interpret input"}])
        return self.graph.forget_all(raw in BOOL_TRUE)

    @staticmethod
    def _int(query: dict[str, str], name: str, default: int) -> int:
        try:
            return int(query.get(name, default))
        except ValueError:
            raise ApiError(422, [{
                "loc": ["query", name], "type": "int_parsing",
                "msg": "Input should be a valid integer, unable to parse string as an "
                       "integer"}]) from None
