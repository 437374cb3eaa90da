"""mem0's history events as Memscope version chains (the platform API and ``history.db``).

mem0 keeps one record per memory and a **history of events** on it: ``ADD`` (the first
text), ``UPDATE`` (``old_memory`` → ``new_memory``) and ``DELETE``. Each ``ADD`` or
``UPDATE`` becomes one version node holding the text after the event, its parent the
version before (so the graph draws ``updates`` edges); a ``DELETE`` makes the last version
forgotten. The last version carries the mem0 memory's own id (what search finds and forget
deletes); an earlier one carries the id of the event that made it. An event's time is its
``updated_at`` (mem0's open-source library keeps the memory's first ``created_at`` on every
event), an ``ADD``'s its ``created_at``.

What cannot be represented is said in the parse report: an ``UPDATE`` whose old text is
not the text before it (an event is missing), a history that starts with an ``UPDATE``,
events after a ``DELETE``, unknown event kinds, events without text.

mem0's platform also retires memories on its own ("Dream", :func:`dream_links`): a memory
it **superseded** names the newer one in ``replaced_by`` (listed by default, with
``latest_only`` left out); one it **merged** into a canonical memory names it in
``merged_into`` (listed only with ``include_merged``); a ``synthesized`` memory is a
pattern it inferred from others. A superseded memory becomes the version before its
replacement (one chain, ``updates``); a merged one is forgotten, its reason naming the
canonical memory, which ``extends`` it.

>>> from memscope.records.models import ParseReport
>>> report = ParseReport()
>>> events = [{"id": "h1", "event": "ADD", "new_memory": "likes tea",
...            "created_at": "2025-01-01T10:00:00Z"},
...           {"id": "h2", "event": "UPDATE", "old_memory": "likes tea",
...            "new_memory": "likes green tea", "created_at": "2025-01-01T10:00:00Z",
...            "updated_at": "2025-02-01T10:00:00Z"}]
>>> [(m.id, m.memory, m.parent_id, m.is_latest) for m in chain("m1", events, report)]
[('h1', 'likes tea', None, False), ('m1', 'likes green tea', 'h1', True)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memscope.records.models import MemoryRecord, ParseReport, parse_memory
from memscope.records.text import clip, shorten
from memscope.records.time import format_time, parse_time

#: what a version made by mem0's DELETE is forgotten for
DELETED = "Deleted in mem0."
EVENTS = ("ADD", "UPDATE", "DELETE")
#: said once in the parse report of every mem0 load
NO_DOCUMENTS = ("mem0 keeps no source documents, so no memory is reported for lacking one; "
                "its history stands for its provenance.")
#: mem0's entity kinds, in the order a memory's space is chosen from them
ENTITY_KEYS = ("user_id", "agent_id", "app_id", "run_id")
#: the extra keys a version keeps of Dream's marks (on a memory's last version)
REPLACED_BY, MERGED_INTO = "mem0ReplacedBy", "mem0MergedInto"
#: the extra key of a memory's ADD version holding the conversation it most likely came
#: from (:mod:`memscope.sources.mem0_history`; read by the provenance trail)
CONVERSATION = "mem0Conversation"


def entity_tag(kind: str, name: str) -> str:
    """The space tag of one mem0 entity: ``user:alice``, ``agent:support-bot``…

    >>> entity_tag("user_id", "alice"), entity_tag("agent", "bot")
    ('user:alice', 'agent:bot')
    """
    return f"{kind.removesuffix('_id')}:{name}"


def split_tag(tag: str) -> tuple[str, str]:
    """``(filter key, name)`` of a space tag (a bare name is a user).

    >>> split_tag("agent:bot"), split_tag("alice")
    (('agent_id', 'bot'), ('user_id', 'alice'))
    """
    kind, sep, name = tag.partition(":")
    if sep and f"{kind}_id" in ENTITY_KEYS and name:
        return f"{kind}_id", name
    return "user_id", tag


def memory_space(raw: Mapping[str, Any]) -> str | None:
    """The space of a mem0 memory: its first entity (user, agent, app, run) as a tag. The
    v3 list names a run ``session_id`` (its search says ``run_id``).

    >>> memory_space({"user_id": None, "session_id": "s1"})
    'run:s1'
    """
    for key in ENTITY_KEYS:
        value = raw.get(key)
        if isinstance(value, str) and value:
            return entity_tag(key, value)
    session = raw.get("session_id")
    return entity_tag("run_id", session) if isinstance(session, str) and session else None


def _mark(raw: Mapping[str, Any] | None, key: str) -> str | None:
    """A Dream mark of a listed memory: the id it names (an integer read as text)."""
    value = raw.get(key) if raw is not None else None
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    return value if isinstance(value, str) and value else None


@dataclass
class _Version:
    id: str
    text: str
    event: str
    at: datetime | None
    actor: Any = None
    role: Any = None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def event_time(event: Mapping[str, Any]) -> datetime | None:
    """When an event happened: ``updated_at`` (``created_at`` for an ``ADD`` or when
    there is no ``updated_at``)."""
    kind = str(event.get("event") or "").upper()
    created, updated = parse_time(event.get("created_at")), parse_time(event.get("updated_at"))
    if kind == "ADD":
        return created or updated
    return updated or created


def ordered(events: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Events oldest first (by their time; the given order breaks ties and places events
    without a time last)."""
    rows = [e for e in events if isinstance(e, Mapping)]
    keyed = [(event_time(e), i, e) for i, e in enumerate(rows)]
    keyed.sort(key=lambda t: (t[0] is None, t[0].timestamp() if t[0] else 0.0, t[1]))
    return [e for _, _, e in keyed]


def chain(memory_id: str, events: Iterable[Mapping[str, Any]], report: ParseReport, *,
          current: Mapping[str, Any] | None = None, space: str | None = None
          ) -> list[MemoryRecord]:
    """The version records of one mem0 memory, oldest first.

    ``current`` is the memory as the service lists it (its text, times, expiry), when
    known; without any usable event it becomes the one version. ``space`` is its tag.
    """
    versions: list[_Version] = []
    deleted_at: datetime | None = None
    deleted = False
    where = f"mem0 memory {memory_id}"
    for i, ev in enumerate(ordered(events)):
        kind = str(ev.get("event") or "").upper()
        ev_id = ev.get("id")
        ev_id = ev_id if isinstance(ev_id, str) and ev_id else f"{memory_id}#event{i + 1}"
        at = event_time(ev)
        if kind not in EVENTS:
            report.skip(f"{where} event {ev_id}",
                        f"event {shorten(kind or 'without a kind', 40)!s} is not ADD, UPDATE "
                        "or DELETE; it is not shown")
            continue
        if kind == "DELETE":
            if not versions:
                report.note(where, "its history has a DELETE before any text; the deleted "
                                   "text is not shown")
            deleted, deleted_at = True, at
            continue
        text = _text(ev.get("new_memory"))
        if text is None:
            report.skip(f"{where} event {ev_id}", f"{kind} event has no new text")
            continue
        if deleted:
            report.note(where, f"an {kind} came after its DELETE; the memory is shown as "
                               "alive again from that version on")
            deleted, deleted_at = False, None
        old = _text(ev.get("old_memory"))
        if kind == "UPDATE" and not versions:
            report.note(where, "its history starts with an UPDATE: the text before it is not "
                               "a version Memscope can show")
        elif versions and old is not None and old != versions[-1].text:
            report.note(where, f"event {ev_id} updated a text that is not the version before "
                               "it: an event is missing from the history")
        versions.append(_Version(ev_id, text, kind, at, ev.get("actor_id"), ev.get("role")))
    cur_text = _text(current.get("memory")) if current is not None else None
    if not versions:
        if cur_text is None:
            report.skip(where, "no event of its history holds a text")
            return []
        report.note(where, "mem0 returned no usable history; the memory is shown as one "
                           "version")
        versions.append(_Version(memory_id, cur_text, "ADD",
                                 parse_time(current.get("created_at")) if current else None))
    elif cur_text is not None and cur_text != versions[-1].text:
        report.note(where, "its current text differs from its last history event; the "
                           "current text is shown as the latest version")
        versions[-1].text = cur_text
    versions[-1].id = memory_id
    return _records(memory_id, versions, report, current, space, deleted, deleted_at)


def _records(memory_id: str, versions: list[_Version], report: ParseReport,
             current: Mapping[str, Any] | None, space: str | None, deleted: bool,
             deleted_at: datetime | None) -> list[MemoryRecord]:
    out: list[MemoryRecord] = []
    root = versions[0].id
    expiry = current.get("expiration_date") if current is not None else None
    replaced_by, merged_into = _mark(current, "replaced_by"), _mark(current, "merged_into")
    synthesized = current is not None and current.get("synthesized") is True
    for n, ver in enumerate(versions, start=1):
        last = n == len(versions)
        wire: dict[str, Any] = {
            "id": ver.id, "memory": ver.text, "spaceContainerTag": space, "version": n,
            "isLatest": last, "parentMemoryId": versions[n - 2].id if n > 1 else None,
            "rootMemoryId": root if n > 1 else None, "createdAt": format_time(ver.at),
            "updatedAt": format_time(versions[n].at if not last else (
                deleted_at if deleted else
                parse_time(current.get("updated_at")) if current is not None else ver.at)),
            "mem0MemoryId": memory_id, "mem0Event": ver.event,
        }
        if last and deleted:
            wire.update(isForgotten=True, forgetReason=DELETED,
                        forgottenAt=format_time(deleted_at))
        if last and isinstance(expiry, str) and expiry:
            wire["forgetAfter"] = expiry
        if last and replaced_by:  # Dream retired it (dream_links draws the link)
            wire.update({"isLatest": False, REPLACED_BY: replaced_by})
        if last and merged_into:
            wire.update({"isLatest": False, "isForgotten": True, MERGED_INTO: merged_into,
                         "forgetReason": merged_reason(merged_into)})
        if synthesized:
            wire["isInference"] = True
        if ver.actor is not None:
            wire["mem0ActorId"] = ver.actor
        if ver.role is not None:
            wire["mem0Role"] = ver.role
        rec = parse_memory(wire, f"{memory_id} version {n}", report)
        if rec is not None:
            out.append(rec)
    return out


def merged_reason(target: str, text: str | None = None) -> str:
    """What a memory mem0's Dream merged into ``target`` is forgotten for.

    >>> merged_reason("m2", "Has a dog named Rex")
    'Merged by mem0’s Dream into “Has a dog named Rex” (m2).'
    >>> merged_reason("m2")
    'Merged by mem0’s Dream into memory m2.'
    """
    said = f"“{clip(text, 80)}” ({clip(target, 80)})" if text else f"memory {clip(target, 80)}"
    return f"Merged by mem0’s Dream into {said}."


def _newest_first(rec: MemoryRecord) -> tuple[bool, float, str]:
    made = rec.created_at
    return (made is None, -made.timestamp() if made else 0.0, rec.id)


def _loops(by_id: Mapping[str, MemoryRecord], start: str, avoid: set[str]) -> bool:
    """Whether the parents of ``start`` (itself included) reach one of ``avoid``."""
    seen: set[str] = set()
    node: str | None = start
    while node is not None and node in by_id and node not in seen:
        if node in avoid:
            return True
        seen.add(node)
        node = by_id[node].parent_id
    return False


def _renumber(records: list[MemoryRecord]) -> None:
    """Versions counted on from each chain's root (1, 2, …) and every later version's root
    id, after chains were joined."""
    by_id = {r.id: r for r in records}
    children: dict[str, list[MemoryRecord]] = {}
    for rec in records:
        if rec.parent_id in by_id:
            children.setdefault(rec.parent_id, []).append(rec)
    for top in (r for r in records if r.parent_id not in by_id):
        top.version, top.root_id = 1, None
        todo = [(top, 1)]
        while todo:
            rec, n = todo.pop()
            for kid in children.get(rec.id, []):
                kid.version, kid.root_id = n + 1, top.id
                todo.append((kid, n + 1))


def dream_links(chains: Mapping[str, list[MemoryRecord]], report: ParseReport
                ) -> list[MemoryRecord]:
    """Every version of ``chains`` (mem0 id → its versions from :func:`chain`, oldest
    first) with the links mem0's Dream marked:

    - a memory it **superseded** (``replaced_by`` names B) is the version before B: B's
      first version takes its last one as parent, so both are one chain (an ``updates``
      edge) numbered on from its root. When several memories name one B, the newest is
      its parent; the others, one whose B is not loaded and one that would close a loop
      stay superseded without a link (noted).
    - a memory it **merged** (``merged_into`` names B) is forgotten from the later of the
      two memories' creation, its reason quoting B; B's current version ``extends`` it
      (and keeps its ``updates`` from its own parent).
    """
    heads = {m: vs[-1] for m, vs in chains.items() if vs}
    by_id = {r.id: r for vs in chains.values() for r in vs}
    joined = False
    for head in sorted((h for h in heads.values() if h.extra.get(REPLACED_BY)),
                       key=_newest_first):
        target, where = str(head.extra[REPLACED_BY]), f"mem0 memory {head.id}"
        versions = chains.get(target) or []
        if not versions:
            report.note(where, f"mem0's Dream superseded it by {shorten(target, 80)}, which "
                               "is not loaded; it is shown superseded, without a link")
        elif versions[0].parent_id is not None:
            report.note(where, f"mem0's Dream superseded it by {shorten(target, 80)}, which "
                               "replaced a newer memory too; only that one is drawn as its "
                               "version before")
        elif _loops(by_id, head.id, {v.id for v in versions}):
            report.note(where, f"mem0's Dream superseded it by {shorten(target, 80)}, which "
                               "it replaced itself; the loop is not drawn")
        else:
            versions[0].parent_id, joined = head.id, True
    if joined:
        _renumber(list(by_id.values()))
    for head in heads.values():
        target = head.extra.get(MERGED_INTO)
        canon = heads.get(str(target)) if target else None
        if target and (canon is None or canon is head):
            report.note(f"mem0 memory {head.id}", f"mem0's Dream merged it into "
                        f"{shorten(str(target), 80)}, which is not loaded")
        if canon is None or canon is head:
            continue
        head.forget_reason = merged_reason(canon.id, canon.memory)
        made = [t for t in (head.created_at, canon.created_at) if t is not None]
        if made:
            head.extra["forgottenAt"] = format_time(max(made))
        rel = dict(canon.relations or {})
        if not rel and canon.parent_id is not None:
            rel[canon.parent_id] = "updates"
        rel[head.id] = "extends"
        canon.relations = rel
    return list(by_id.values())


__all__ = ["CONVERSATION", "DELETED", "ENTITY_KEYS", "MERGED_INTO", "NO_DOCUMENTS",
           "REPLACED_BY", "chain", "dream_links", "entity_tag", "event_time", "memory_space",
           "merged_reason", "ordered", "split_tag"]
