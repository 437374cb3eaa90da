"""Redacting a sentence written by the app (a toast, an error) for presenter mode.

The app's own sentences sometimes quote the data ("the service removed '…' instead of
'…'"). In presenter mode every text of the dataset found in such a sentence is replaced.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from memscope.records.dataset import Dataset

HIDDEN = "[hidden text]"
#: one character is left alone (it would match inside ordinary words); two are kept, as
#: a two-character name ("张三") is a whole word in Chinese
MIN_LENGTH = 2
_QUOTED = re.compile(r"“[^”]*”")


def dataset_texts(ds: Dataset) -> tuple[str, ...]:
    """Every text of ``ds`` presenter mode hides — space tags, ids and names too —,
    longest first (for :func:`redact`)."""
    found: set[str] = set()
    for m in ds.memories.values():
        found.update(t for t in (m.memory, m.container_tag, m.space_id) if t)
    for s in ds.spaces:  # a space tag is often a customer's or a person's name
        found.update(t for t in (s.container_tag, s.id, s.name) if t)
    for d in ds.documents.values():
        found.update(t for t in (d.title, d.summary, d.content) if t)
    for e in ds.entities.values():
        found.update((e.name, *e.aliases))
    names = {e_id: e.name for e_id, e in ds.entities.items()}
    for r in ds.relations.values():
        found.update((r.predicate, r.sentence(names)))
    for p in ds.profiles.values():
        found.update(line.text for line in (*p.static, *p.dynamic))
    return tuple(sorted((t for t in found if t and len(t) >= MIN_LENGTH),
                        key=lambda t: (-len(t), t)))


def redact(sentence: str, texts: Iterable[str]) -> str:
    """``sentence`` with every one of ``texts`` in it replaced by :data:`HIDDEN`.

    >>> redact("Removed 'Maya is vegetarian' instead of 'Maya'", ["Maya is vegetarian",
    ...        "Maya"])
    "Removed '[hidden text]' instead of '[hidden text]'"
    """
    for text in texts:
        if text in sentence:
            sentence = sentence.replace(text, HIDDEN)
    return sentence


def hide_quoted(sentence: str, texts: Iterable[str]) -> str:
    """``sentence`` with every “quoted” part hidden — a source's preview quotes the data,
    clipped, so it need not match a text whole — and then every one of ``texts``.

    >>> hide_quoted("Deletes 2 facts: “Ana lives in Po…”; “Ana is Bo's sister”.", ["Ana"])
    'Deletes 2 facts: “[hidden text]”; “[hidden text]”.'
    """
    return redact(_QUOTED.sub(f"“{HIDDEN}”", sentence), texts)
