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
from memscope.records.text import shorten
from memscope.records.time import format_time, parse_time

#: what a version made by mem0's DELETE is forgotten for
DELETED = "Deleted in mem0."
EVENTS = ("ADD", "UPDATE", "DELETE")
#: said once in the parse report of every mem0 load
NO_DOCUMENTS = ("mem0 keeps no source documents, so no memory is reported for lacking one; "
                "its history stands for its provenance.")
#: mem0's entity kinds, in the order a memory's space is chosen from them
ENTITY_KEYS = ("user_id", "agent_id", "app_id", "run_id")


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
    """The space of a mem0 memory: its first entity (user, agent, app, run) as a tag."""
    for key in ENTITY_KEYS:
        value = raw.get(key)
        if isinstance(value, str) and value:
            return entity_tag(key, value)
    return None


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
        if ver.actor is not None:
            wire["mem0ActorId"] = ver.actor
        if ver.role is not None:
            wire["mem0Role"] = ver.role
        rec = parse_memory(wire, f"{memory_id} version {n}", report)
        if rec is not None:
            out.append(rec)
    return out


__all__ = ["DELETED", "ENTITY_KEYS", "NO_DOCUMENTS", "chain", "entity_tag", "event_time",
           "memory_space", "ordered", "split_tag"]
