"""Deterministic demo data in the Supermemory feed shape.

``generate(seed, now=...)`` returns the same :class:`DemoDataset` for the same seed,
``now`` and sizes: it draws from one ``random.Random(seed)`` and never reads the clock.
The data mixes a hand-written story (Maya Chen's frontend stack, the Atlas launch that
keeps slipping, Priya's LoRA experiments; see :mod:`memscope.demo.texts`) with facts
generated from templates, and scales to tens of thousands of memories.

>>> from datetime import UTC, datetime
>>> data = generate(7, now=datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
>>> len(data.documents), sum(1 for _ in data.memories())
(72, 360)
"""

from __future__ import annotations

import random
import re
import string
import time
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from memscope.demo import texts as T

_ALPHABET = string.ascii_letters + string.digits
_HOUR, _DAY = 3600, 86400
_LENGTH_WEIGHTS = ((1, 58), (2, 20), (3, 11), (4, 7), (5, 4))
_DATE_MARK = re.compile(r"\{d([+-]\d+)\}")


@dataclass
class DemoDataset:
    """Generated demo data: feed-shape ``documents`` (newest first, each with its
    ``memoryEntries``), ``spaces`` (container-tag list shape) and ``profiles``
    (``{container_tag: {"static": [{"text", "memoryIds"}], "dynamic": [...]}}``)."""

    documents: list[dict[str, Any]]
    spaces: list[dict[str, Any]]
    profiles: dict[str, dict[str, list[dict[str, Any]]]]
    seed: int = 7
    now: str = ""

    def to_feed_pages(self, limit: int = 200) -> list[dict[str, Any]]:
        """The documents as ``POST /v3/documents/documents`` response pages."""
        total = len(self.documents)
        pages = max(1, -(-total // limit))
        return [{"documents": self.documents[i * limit:(i + 1) * limit],
                 "pagination": {"currentPage": i + 1, "limit": limit, "totalItems": total,
                                "totalPages": -(-total // limit)}} for i in range(pages)]

    def memories(self) -> Iterator[dict[str, Any]]:
        """Every memory entry once (first occurrence), in document order."""
        seen: set[str] = set()
        for doc in self.documents:
            for entry in doc["memoryEntries"]:
                if entry["id"] not in seen:
                    seen.add(entry["id"])
                    yield entry


class _Mem:
    __slots__ = ("children", "created", "ctx", "docs", "fa", "fam", "forgot", "forgot_at", "id",
                 "inference", "latest", "parent", "rels", "root", "space", "static", "subj",
                 "text", "value", "version")

    def __init__(self, mem_id: str, space: str, text: str, created: int, static: bool) -> None:
        self.id, self.space, self.text, self.created, self.static = (mem_id, space, text,
                                                                     created, static)
        self.version = 1
        self.parent: str | None = None
        self.root: str | None = None
        self.rels: dict[str, str] = {}  # other memory id → relation kind
        self.children: list[_Mem] = []
        self.docs: list[_Doc] = []
        self.latest: bool | None = None  # None = derive from children
        self.forgot: str | None = None
        self.forgot_at: int | None = None
        self.fa: int | None = None  # forgetAfter, epoch seconds
        self.inference = False
        self.fam: dict[str, Any] | None = None
        self.ctx: dict[str, str] = {}
        self.subj: _Subject | None = None
        self.value = ""


def _family(mem: _Mem) -> dict[str, Any]:
    """The template family of a generated memory (hand-written ones have none)."""
    if mem.fam is None:
        raise ValueError(f"memory {mem.id} is hand-written: it has no template family")
    return mem.fam


class _Doc:
    __slots__ = ("created", "id", "mems", "space", "spec", "subj", "type")

    def __init__(self, doc_id: str, space: str, doc_type: str, created: int) -> None:
        self.id, self.space, self.type, self.created = doc_id, space, doc_type, created
        self.mems: list[_Mem] = []
        self.spec: dict[str, Any] | None = None
        self.subj: _Subject | None = None


class _Subject:
    """What a few documents are about (a person, a project): fixed template fields."""

    __slots__ = ("ctx", "docs", "fams", "mems", "used")

    def __init__(self, ctx: dict[str, str], fams: list[dict[str, Any]]) -> None:
        self.ctx, self.fams = ctx, fams
        self.docs: list[_Doc] = []
        self.mems: list[_Mem] = []
        self.used: set[int] = set()


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(int(ts)))


def _day(ts: float) -> str:
    d = time.gmtime(int(ts))
    return f"{T.MONTHS[d.tm_mon - 1]} {d.tm_mday}"


class _Builder:
    def __init__(self, rng: random.Random, now: datetime) -> None:
        self.rng, self.now = rng, int(now.timestamp())
        self.docs: list[_Doc] = []
        self.mems: list[_Mem] = []
        self.ids: set[str] = set()
        self.hero: dict[str, _Mem] = {}
        self._order: list[dict[str, str]] = []
        self.fams = {s["containerTag"]: [f for f in T.FAMILIES if f["space"] == s["containerTag"]]
                     for s in T.SPACES}

    def new_id(self, prefix: str) -> str:
        while True:
            new = prefix + "".join(self.rng.choices(_ALPHABET, k=12))
            if new not in self.ids:
                self.ids.add(new)
                return new

    def dates(self, text: str) -> str:
        return _DATE_MARK.sub(lambda m: _day(self.now + int(m.group(1)) * _DAY), text)

    # -- the hand-written story ------------------------------------------------------
    def add_hero(self, specs: tuple[dict[str, Any], ...] = T.HERO) -> None:
        for spec in specs:
            doc = _Doc(self.new_id("doc_"), spec["space"], spec["type"],
                       self.now - spec["ago"] * _HOUR)
            doc.spec = spec
            self.docs.append(doc)
            for i, ms in enumerate(spec["memories"]):
                if "ref" in ms:
                    self._link(self.hero[ms["ref"]], doc)
                    continue
                mem = _Mem(self.new_id("mem_"), doc.space, self.dates(ms["text"]),
                           doc.created + 300 * (i + 1), ms.get("static", False))
                if "parent" in ms:
                    self._set_parent(mem, self.hero[ms["parent"]])
                for key, kind in ms.get("rel", {}).items():
                    mem.rels[self.hero[key].id] = kind
                mem.inference = ms.get("inference", False)
                mem.latest = ms.get("latest")
                if "forgot" in ms:
                    mem.forgot = ms["forgot"]
                    mem.forgot_at = mem.created + (self.now - mem.created) // 2
                if "fa" in ms:
                    mem.fa = self.now + ms["fa"] * _HOUR
                self.hero[ms["key"]] = mem
                self.mems.append(mem)
                self._link(mem, doc)

    def add_planted(self, seed: int) -> None:
        """The planted cases, their ids drawn from their own random source (the main one
        is left exactly where it was)."""
        main, self.rng = self.rng, random.Random(f"planted-{seed}")
        try:
            self.add_hero(T.PLANTED)
        finally:
            self.rng = main

    @staticmethod
    def _link(mem: _Mem, doc: _Doc) -> None:
        doc.mems.append(mem)
        mem.docs.append(doc)

    @staticmethod
    def _set_parent(mem: _Mem, parent: _Mem) -> None:
        mem.parent, mem.root, mem.version = parent.id, parent.root or parent.id, \
            parent.version + 1
        mem.rels[parent.id] = "updates"
        parent.children.append(mem)

    # -- generated documents and chains ----------------------------------------------
    def add_documents(self, n: int, per_subject: int = 3) -> list[_Doc]:
        """``n`` documents over the last months (more recent ones denser), spread over
        the spaces, each about one subject shared with ~``per_subject`` other documents."""
        rng, tags = self.rng, [s["containerTag"] for s in T.SPACES]
        weights = [s["weight"] for s in T.SPACES]
        ages = {s["containerTag"]: s["age_days"] * 24 for s in T.SPACES}
        docs = []
        for i in range(n):
            space = tags[i] if i < len(tags) else rng.choices(tags, weights)[0]
            types = T.TYPE_WEIGHTS[space]
            doc_type = rng.choices([t for t, _ in types], [w for _, w in types])[0]
            if rng.random() < 0.03:
                ago = 1.5 + rng.random() * 21
            else:
                ago = 24 + rng.triangular(0, 1, 0) * (ages[space] - 48)
            docs.append(_Doc(self.new_id("doc_"), space, doc_type, int(self.now - ago * _HOUR)))
        for space in tags:
            mine = rng.sample([d for d in docs if d.space == space], sum(
                1 for d in docs if d.space == space))
            subjects = [self._subject(space, i) for i in range(-(-len(mine) // per_subject))]
            for i, doc in enumerate(mine):
                doc.subj = subjects[i % len(subjects)]
                doc.subj.docs.append(doc)
            for subj in subjects:
                subj.docs.sort(key=lambda d: (d.created, d.id))
        self.docs.extend(docs)
        return docs

    def _subject(self, space: str, i: int) -> _Subject:
        options = T.SUBJECTS[space]
        if i % len(options) == 0:  # a new round: the first subject first, then shuffled
            self._order = [options[0], *self.rng.sample(options[1:], len(options) - 1)]
        primary = self._order[i % len(options)]
        ctx = {name: self.rng.choice(pool) for name, pool in T.POOLS.items()} | primary
        first = next(iter(primary.values()))
        return _Subject(ctx, [f for f in self.fams[space] if first not in f.get("skip", ())])

    def add_chains(self, n_mems: int, docs: list[_Doc]) -> None:
        """Version chains of 1–5 memories, each one fact of one subject, until ``n_mems``;
        every document gets at least one memory."""
        rng = self.rng
        order, pos, n_needy = rng.sample(docs, len(docs)), 0, len(docs)
        lengths, length_w = zip(*_LENGTH_WEIGHTS, strict=True)
        remaining = n_mems
        while remaining > 0:
            while pos < len(order) and order[pos].mems:
                pos += 1
            if pos < len(order):
                doc = order[pos]
            else:  # every document has a memory: prefer subjects with facts left to tell
                for _ in range(8):
                    doc = rng.choice(docs)
                    if doc.subj is not None and len(doc.subj.used) < len(doc.subj.fams):
                        break
            subj = doc.subj
            assert subj is not None
            fresh = [f for f in subj.fams if id(f) not in subj.used] or subj.fams
            fam = rng.choice(fresh)
            subj.used.add(id(fam))
            k = min(rng.choices(lengths, length_w)[0], remaining)
            others = [d for d in subj.docs if not d.mems and d is not doc]
            takes = min(k - 1, len(others)) + (not doc.mems)
            if remaining - k < n_needy - takes:
                k, takes = 1, int(not doc.mems)
            picked = [doc, *others[:k - 1]]
            picked += [rng.choice(subj.docs) for _ in range(k - len(picked))]
            picked.sort(key=lambda d: (d.created, d.id))
            self._chain(subj, fam, picked, branch=k >= 3 and rng.random() < 0.06)
            remaining -= k
            n_needy -= takes

    def _values(self, fam: dict[str, Any], k: int) -> list[str]:
        rng, values = self.rng, fam["values"]
        if values == "@date":
            ts = self.now + rng.randint(-60, 45) * _DAY
            out = []
            for _ in range(k):
                out.append(_day(ts))
                ts += rng.randint(5, 20) * _DAY
            return out
        if fam.get("ordered"):
            return [values[i] for i in sorted(rng.sample(range(len(values)), k))]
        return rng.sample(values, k)

    def _chain(self, subj: _Subject, fam: dict[str, Any], docs: list[_Doc], *,
               branch: bool) -> None:
        rng, k, ctx, space = self.rng, len(docs), subj.ctx, docs[0].space
        values = self._values(fam, k)
        nodes: list[_Mem] = []
        for i, doc in enumerate(docs):
            parent = None if i == 0 else nodes[i - 3 if branch and i == k - 1 else i - 1]
            created = doc.created + rng.randint(60, 2400)
            if parent is not None:
                created = max(created, parent.created + 60)
            mem = _Mem(self.new_id("mem_"), space, fam["text"].format(v=values[i], **ctx),
                       min(created, self.now - 60), fam["static"])
            mem.fam, mem.ctx, mem.value, mem.subj = fam, ctx, values[i], subj
            subj.mems.append(mem)
            if parent is not None:
                self._set_parent(mem, parent)
            nodes.append(mem)
            self.mems.append(mem)
            self._link(mem, doc)
        if branch and rng.random() < 0.5:
            nodes[-2].forgot, nodes[-2].latest = T.FORGET_REASONS[-1], False
            nodes[-2].forgot_at = nodes[-1].created
        for mem in nodes:
            self._lifecycle(mem)

    def _lifecycle(self, mem: _Mem) -> None:
        """Random forgetting and scheduled expiry (forgetAfter) of one generated memory."""
        rng, span = self.rng, self.now - mem.created
        if mem.forgot is None and rng.random() < 0.025:
            own = mem.fam.get("forget") if mem.fam else None
            mem.forgot = own if own and rng.random() < 0.6 else rng.choice(T.FORGET_REASONS[:-1])
            mem.forgot_at = mem.created + int(span * rng.uniform(0.1, 0.95))
            if not mem.children:
                mem.latest = False
        elif not mem.static and not mem.children and rng.random() < 0.08:
            roll = rng.random()
            if roll < 0.35:
                mem.fa = self.now + rng.randint(2 * _HOUR, 6 * _DAY + 12 * _HOUR)
            elif roll < 0.55:
                mem.fa = self.now - int(span * rng.uniform(0.05, 0.9))
            else:
                mem.fa = self.now + rng.randint(8, 120) * _DAY

    def add_shared(self, rate: float = 0.01) -> None:
        """List a few memories under a second, later document about the same subject."""
        for mem in self.mems:
            if mem.subj is None or self.rng.random() >= rate:
                continue
            later = [d for d in mem.subj.docs if d.created > mem.created and d not in mem.docs]
            if later:
                self._link(mem, self.rng.choice(later))

    def add_relations(self, rate: float = 0.12) -> None:
        """Turn some single memories into details that extend an earlier memory of the
        same subject, or inferences that derive from one or two earlier memories (of the
        same subject, or now and then of another space); their text is rewritten to fit."""
        rng, tags = self.rng, [s["containerTag"] for s in T.SPACES]
        chosen = [(m, m.subj) for m in self.mems if m.subj is not None and not (
            m.parent or m.children or m.rels) and rng.random() < rate]
        skip = {id(m) for m, _ in chosen}

        def timeline(mems: list[_Mem]) -> tuple[list[_Mem], list[int]]:
            ordered = sorted((m for m in mems if id(m) not in skip),
                             key=lambda m: (m.created, m.id))
            return ordered, [m.created for m in ordered]

        by_space = {t: timeline([m for m in self.mems if m.subj and m.space == t])
                    for t in tags}
        by_subject: dict[int, tuple[list[_Mem], list[int]]] = {}
        for mem, subj in chosen:
            kind = "extends" if rng.random() < 0.65 else "derives"
            if kind == "derives" and rng.random() < 0.2:
                pool, starts = by_space[rng.choice([t for t in tags if t != mem.space])]
            else:
                key = id(subj)
                if key not in by_subject:
                    by_subject[key] = timeline(subj.mems)
                pool, starts = by_subject[key]
            j = bisect_left(starts, mem.created)
            if not j:
                continue
            n_src = 2 if kind == "derives" and rng.random() < 0.3 else 1
            sources = list(dict.fromkeys(pool[rng.randrange(j)] for _ in range(n_src)))
            target = sources[0]
            template = _family(target)["details" if kind == "extends" else "infers"]
            mem.text = template.format(v=target.value, **target.ctx)
            if target.space == mem.space:  # same subject: the document stays on topic
                mem.fam, mem.value = target.fam, target.value
            mem.static = target.static and kind == "extends"
            mem.inference = kind == "derives"
            for src in sources:
                mem.rels[src.id] = kind

    # -- output ----------------------------------------------------------------------
    def entry(self, mem: _Mem) -> dict[str, Any]:
        """The feed memory entry of ``mem`` (call after every link is made)."""
        updated = min((c.created for c in mem.children), default=mem.created)
        if mem.forgot_at is not None:
            updated = max(updated, min(mem.forgot_at, self.now))
        latest = mem.latest if mem.latest is not None else not mem.children
        return {
            "id": mem.id, "memory": mem.text, "spaceId": _SPACE_IDS[mem.space],
            "version": mem.version, "isLatest": latest, "parentMemoryId": mem.parent,
            "rootMemoryId": mem.root, "memoryRelations": dict(mem.rels),
            "sourceCount": len(mem.docs), "isInference": mem.inference,
            "isStatic": mem.static, "isForgotten": mem.forgot is not None,
            "forgetAfter": None if mem.fa is None else _iso(mem.fa),
            "forgetReason": mem.forgot,
            "metadata": {"confidence": round(self.rng.uniform(0.55, 0.95), 2)}
            if mem.inference else None,
            "createdAt": _iso(mem.created), "updatedAt": _iso(updated),
            "spaceContainerTag": mem.space,
        }

    def document(self, doc: _Doc, entries: dict[str, dict[str, Any]]) -> dict[str, Any]:
        rng, kind = self.rng, T.TYPES[doc.type]
        mems = sorted(doc.mems, key=lambda m: (m.created, m.id))
        source = rng.choice(kind["sources"])
        if doc.spec is not None:
            title, summary = doc.spec["title"], doc.spec["summary"]
            url = doc.spec.get("url")
        else:
            first = next((m for m in mems if m.fam is not None), mems[0])
            fam, fields = _family(first), {"v": first.value, **first.ctx}
            title = kind["title"].format(t=rng.choice(fam["titles"]).format(**fields))
            summary = kind["summary"].format(h=fam["hint"].format(**fields))
            url = self.url(doc.type, title)
        metadata: dict[str, Any] = {"origin": source}
        if doc.type == "pdf":
            metadata["pages"] = rng.randint(2, 40)
        elif doc.type == "video":
            metadata["durationSeconds"] = rng.randint(90, 3600)
        elif source == "slack":
            metadata["channel"] = "#" + title.lstrip("#").split(" ")[0].lower().strip(":")
        if doc.type == "conversation":
            content = "\n".join(f"user: {m.text}" for m in mems[:8])
        else:
            content = summary + "\n\n" + "\n".join(f"- {m.text}" for m in mems[:8])
        last = max((m.created for m in mems if m.docs[0] is doc), default=doc.created)
        updated = min(max(last, doc.created + rng.randint(30, 900)), self.now)
        return {
            "id": doc.id, "customId": f"gdrive:{doc.id[4:]}" if doc.type.startswith("google")
            else None, "title": title, "summary": summary, "url": url, "source": source,
            "type": doc.type, "status": "done", "content": content, "metadata": metadata,
            "containerTags": [doc.space], "createdAt": _iso(doc.created),
            "updatedAt": _iso(updated), "memoryEntries": [
                entries[m.id] if m.docs[0] is doc else dict(entries[m.id],
                memoryRelations=dict(entries[m.id]["memoryRelations"])) for m in mems],
        }

    def url(self, doc_type: str, title: str) -> str | None:
        pattern = T.URLS.get(doc_type)
        if pattern is None:
            return None
        token = "".join(self.rng.choices(_ALPHABET, k=32))
        slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60]
        return pattern.format(host=self.rng.choice(T.WEB_HOSTS), slug=slug, token=token,
                              short=token[:11], low=token.lower(),
                              handle=self.rng.choice(T.HANDLES),
                              num=self.rng.randrange(10**18, 10**19))

    def profiles(self) -> dict[str, dict[str, list[dict[str, Any]]]]:
        out: dict[str, dict[str, list[dict[str, Any]]]] = {}
        newest = sorted((m for m in self.mems if m.fam is not None),
                        key=lambda m: (-m.created, m.id))
        for space in (s["containerTag"] for s in T.SPACES):
            hero = T.HERO_PROFILES.get(space, {})
            prof: dict[str, list[dict[str, Any]]] = {}
            for kind in ("static", "dynamic"):
                lines = [{"text": self.dates(text), "memoryIds": [self.hero[k].id for k in keys]}
                         for text, keys in hero.get(kind, ())]
                fams: set[int] = set()
                recent = self.now - 30 * _DAY
                for mem in newest:
                    if len(lines) >= 8:
                        break
                    if (mem.space != space or mem.fam is None or mem.forgot or mem.children
                            or mem.inference or id(mem.fam) in fams
                            or mem.ctx.get("who", "Maya") != "Maya"
                            or mem.static != (kind == "static")
                            or (kind == "dynamic" and mem.created < recent)):
                        continue
                    fams.add(id(mem.fam))
                    text = mem.text.rstrip(".")
                    if text.startswith("Maya "):
                        text = text[5].upper() + text[6:]
                    lines.append({"text": text, "memoryIds": [mem.id] + (
                        [mem.parent] if mem.parent else [])})
                prof[kind] = lines
            out[space] = prof
        return out


_SPACE_IDS = {s["containerTag"]: s["id"] for s in T.SPACES}


def generate(seed: int = 7, *, now: datetime, n_documents: int = 72, n_memories: int = 360,
             shared_rate: float = 0.01, relation_rate: float = 0.12) -> DemoDataset:
    """Generate the demo dataset; identical output for identical arguments.

    ``n_documents`` and ``n_memories`` are exact. The hand-written story needs
    ``len(demo_text.HERO) + 3`` documents, and every document gets at least one memory.
    """
    return _generate(seed, now, n_documents, n_memories, shared_rate, relation_rate,
                     planted=False)


def generate_planted(seed: int = 7, *, now: datetime, n_documents: int = 72,
                     n_memories: int = 360) -> DemoDataset:
    """:func:`generate` and the semantic audit's planted cases (:data:`demo_text.PLANTED`:
    a few contradictions, compatible look-alikes, a resolved chain, bad updates,
    near-duplicates) as documents of their own on top of those counts, with ids from a
    random source of their own, so everything else is exactly as :func:`generate` makes
    it. The app's demo store is this."""
    return _generate(seed, now, n_documents, n_memories, 0.01, 0.12, planted=True)


def _generate(seed: int, now: datetime, n_documents: int, n_memories: int,
              shared_rate: float, relation_rate: float, *, planted: bool) -> DemoDataset:
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    n_hero_docs = len(T.HERO)
    n_hero_mems = sum(1 for d in T.HERO for m in d["memories"] if "ref" not in m)
    n_gen_docs, n_gen_mems = n_documents - n_hero_docs, n_memories - n_hero_mems
    if n_gen_docs < len(T.SPACES) or n_gen_mems < n_gen_docs:
        raise ValueError(f"The demo needs at least {n_hero_docs + len(T.SPACES)} documents and "
                         f"at least {n_hero_mems - n_hero_docs} more memories than documents; "
                         f"got {n_documents} documents and {n_memories} memories.")
    b = _Builder(random.Random(seed), now)
    b.add_hero()
    docs = b.add_documents(n_gen_docs)
    b.add_chains(n_gen_mems, docs)
    b.add_shared(shared_rate)
    b.add_relations(relation_rate)
    if planted:
        b.add_planted(seed)
    entries = {m.id: b.entry(m) for m in b.mems}
    feed = sorted((b.document(d, entries) for d in b.docs),
                  key=lambda d: (d["createdAt"], d["id"]), reverse=True)
    return DemoDataset(documents=feed, spaces=_spaces(feed, b), profiles=b.profiles(),
                       seed=seed, now=_iso(b.now))


def _spaces(docs: list[dict[str, Any]], b: _Builder) -> list[dict[str, Any]]:
    out = []
    for s in T.SPACES:
        tag = s["containerTag"]
        mems = [m for m in b.mems if m.space == tag]
        n_docs = sum(1 for d in docs if tag in d["containerTags"] or any(
            e["spaceContainerTag"] == tag for e in d["memoryEntries"]))
        out.append({"id": s["id"], "name": s["name"], "containerTag": tag,
                    "description": s["description"], "emoji": s["emoji"],
                    "createdAt": _iso(b.now - s["age_days"] * _DAY),
                    "updatedAt": _iso(max((m.created for m in mems), default=b.now)),
                    "documentCount": n_docs, "memoryCount": len(mems)})
    return sorted(out, key=lambda s: (s["createdAt"], s["id"]))
