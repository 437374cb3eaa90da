"""The provenance trail as data and as text: the frozen records a trail is made of
(:class:`Trail` and its parts), its plain-text rendering, and a change told in words.

Built by :func:`memscope.reports.why.trail`; every text is bounded here or there with
:func:`memscope.records.text.clip`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from memscope.lenses.diff import word_diff
from memscope.records.text import FULL_MAX, LINE_MAX, clip, counted

#: how long a quoted part of a change is, and how many changes one version lists
QUOTE_MAX, CHANGES_MAX = 80, 4
#: how long an id is where the trail shows one (JSON keeps it whole)
ID_MAX = 80
#: how long a passage from a document is
PASSAGE_MAX = 5 * LINE_MAX


class UnknownTrail(ValueError):
    """No trail for this id; the text is one sentence for the user."""


@dataclass(frozen=True, slots=True)
class Statement:
    """What the chain says now, and the version that was asked about."""

    id: str
    text: str
    version: str
    state: str | None
    asked_id: str
    asked_version: str
    asked_state: str | None
    note: str | None = None
    #: the other versions that hold beside it (a branch), each “text” (id)
    also: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Version:
    """One version on the way to the statement, oldest first."""

    id: str
    version: str
    created: str | None
    state: str | None
    text: str
    change: str
    #: the service inferred it (``isInference``) or derived it from other memories
    inferred: bool
    derived_from: tuple[str, ...] = ()
    asked: bool = False


@dataclass(frozen=True, slots=True)
class Source:
    """A document (or a Spomory provenance entry) a version came from."""

    version_id: str
    document_id: str | None
    title: str
    type: str
    date: str | None
    passage: str | None = None
    passage_from: str | None = None  # "content" | "summary" | "provenance"


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn of a conversation: who said it and what."""

    role: str
    text: str
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Conversation:
    """The conversation a version most likely came from (a mem0 ``history.db``'s saved
    turns), and how it was matched: most likely, never a record."""

    version_id: str
    session: str
    saved: str | None
    how: str
    turns: tuple[Turn, ...]


@dataclass(frozen=True, slots=True)
class Link:
    """A relation touching the statement, its other end named."""

    kind: str
    words: str
    other_id: str
    other: str


@dataclass(frozen=True, slots=True)
class CitingLine:
    """A profile line citing a version of the statement."""

    space: str
    kind: str
    text: str
    cites: tuple[str, ...]
    #: "cites" (the line names the versions) or "says what" (a line naming no memory
    #: says what they say: most of its words are theirs)
    how: str = "cites"


@dataclass(frozen=True, slots=True)
class Trail:
    """The provenance trail of one memory or fact, top to bottom."""

    kind: str  # "memory" | "fact"
    judged_at: str | None
    statement: Statement
    versions: tuple[Version, ...]
    sources: tuple[Source, ...]
    relations: tuple[Link, ...]
    profile_lines: tuple[CitingLine, ...]
    impact: tuple[str, ...]
    notes: tuple[str, ...] = ()
    #: the conversations its versions most likely came from (mem0's saved turns)
    conversations: tuple[Conversation, ...] = ()
    #: what "where it came from" says when no version has a loaded document
    sourceless: str = "No source document is loaded."

    def as_json(self) -> dict[str, Any]:
        """The trail as plain JSON values (lists for tuples)."""
        return asdict(self)

    def as_text(self) -> str:
        """The trail as plain text that reads top to bottom."""
        return "\n".join(_text_lines(self)) + "\n"

def quote(text: str | None, limit: int = LINE_MAX) -> str:
    """``text`` bounded, in quotation marks."""
    return f"“{clip(text, limit)}”"


def ident(node_id: str | None) -> str:
    """An id as the text shows it: bounded like any text from the data."""
    return clip(node_id, ID_MAX)


def versions_heading(n: int, title: str = "How it got there") -> str:
    """The versions' heading: "How it got there (1 version)", "… (3 versions, oldest
    first)" (an order is worth saying only when there are several).

    >>> versions_heading(1), versions_heading(3)
    ('How it got there (1 version)', 'How it got there (3 versions, oldest first)')
    """
    order = ", oldest first" if n > 1 else ""
    return f"{title} ({counted(n, 'version')}{order})"


def stated_note(versions: Iterable[Version]) -> str | None:
    """Said once under the heading when no version was inferred ("stated, not inferred"
    on every version says nothing); ``None`` when some were (those are marked).

    >>> stated_note([])
    """
    vs = list(versions)
    if not vs or any(v.inferred for v in vs):
        return None
    return "Stated, not inferred." if len(vs) == 1 else \
        "Every version was stated, not inferred."


def _versions_text(versions: Iterable[Version]) -> list[str]:
    out = []
    vs = list(versions)
    note = stated_note(vs)
    if note:
        out.append(f"  {note}")
    for n, v in enumerate(vs, start=1):
        here = " ◀ asked" if v.asked else ""
        out.append(f"  {n}. {v.version} · {_when(v.created)} · {v.state or '—'} · "
                   f"{ident(v.id)}{here}")
        out.append(f"     {quote(v.text)}")
        out.append(f"     {v.change}")
        if v.inferred:
            came = f"; inferred from {', '.join(v.derived_from)}" if v.derived_from else ""
            out.append(f"     Inferred by the service, not stated by you{came}.")
    return out


def _text_lines(t: Trail) -> list[str]:
    s = t.statement
    what = "Fact" if t.kind == "fact" else "Memory"
    lines = ["Why does it believe this?",
             f"{what} {ident(s.asked_id)} · judged at {_when(t.judged_at)}", "", "STATEMENT",
             f"  {quote(s.text, FULL_MAX)}", f"  {s.version} · {s.state or '—'} · {ident(s.id)}"]
    if s.note:
        lines.append(f"  {s.note}")
    lines += [f"  Also holds: {other}" for other in s.also]
    lines += ["", versions_heading(len(t.versions), "HOW IT GOT THERE")]
    lines += _versions_text(t.versions)
    lines += ["", "WHERE IT CAME FROM"]
    by_id = {v.id: v.version for v in t.versions}
    for src in t.sources:
        doc = f", {ident(src.document_id)}" if src.document_id else ""
        lines.append(f"  {by_id.get(src.version_id, ident(src.version_id))} — {quote(src.title)} "
                     f"({src.type}, {_when(src.date)}{doc})")
        if src.passage:
            lines.append(f"     passage ({src.passage_from}): {quote(src.passage, PASSAGE_MAX)}")
    if not t.sources:
        lines.append(f"  {t.sourceless}")
    for c in t.conversations:
        lines += ["", f"THE CONVERSATION IT MOST LIKELY CAME FROM "
                      f"({by_id.get(c.version_id, ident(c.version_id))})",
                  f"  Session: {c.session} · saved {_when(c.saved)}", f"  {c.how}"]
        lines += [f"  {turn_label(turn)}: {quote(turn.text, PASSAGE_MAX)}" for turn in c.turns]
    lines += ["", "RELATIONS"]
    lines += [f"  {link.words} {quote(link.other)} ({ident(link.other_id)})"
              for link in t.relations]
    if not t.relations:
        lines.append("  None.")
    lines += ["", "PROFILE LINES THAT CITE IT"]
    lines += [f"  {c.kind}, {c.space}: {quote(c.text)} ({c.how} {', '.join(c.cites)})"
              for c in t.profile_lines]
    if not t.profile_lines:
        lines.append("  None.")
    lines += ["", "IF IT WERE FORGOTTEN"]
    lines += [f"  {s}" for s in t.impact] or ["  Nothing else depends on it."]
    if t.notes:
        lines += ["", "NOTES", *(f"  {n}" for n in t.notes)]
    return lines


def turn_label(turn: Turn) -> str:
    """Who said a turn: its role, and its speaker's name when it has one.

    >>> turn_label(Turn("user", "hi", "Ana")), turn_label(Turn("assistant", "hello"))
    ('user (Ana)', 'assistant')
    """
    return f"{turn.role} ({turn.name})" if turn.name else turn.role


def _when(iso: str | None) -> str:
    return iso[:19].replace("T", " ") + " UTC" if iso else "undated"

def _hunks(old: str, new: str) -> list[tuple[str, str]]:
    """``(removed, added)`` runs of a word diff; a run goes on over a bare space."""
    hunks: list[tuple[str, str]] = []
    gone = came = ""
    for op, text in word_diff(old, new):
        if op == "equal" and not text.isspace():
            if gone.strip() or came.strip():
                hunks.append((gone.strip(), came.strip()))
            gone = came = ""
        elif op == "equal":
            gone, came = (gone + text if gone else gone), (came + text if came else came)
        elif op == "delete":
            gone += text
        else:
            came += text
    if gone.strip() or came.strip():
        hunks.append((gone.strip(), came.strip()))
    return hunks


def change_words(old: str | None, new: str | None) -> str:
    """What changed from ``old`` to ``new``, in words (each quoted part bounded).

    >>> change_words("Prefers Vue for frontend", "Prefers React for frontend work")
    '“Vue” became “React”; added “work”.'
    >>> change_words("Drinks three coffees", "Drinks green tea")
    '“three coffees” became “green tea”.'
    >>> change_words("same", "same"), change_words(None, "new")
    ('The text did not change.', 'First stated.')
    """
    if old is None:
        return "First stated."
    parts = []
    for gone, came in _hunks(old[:FULL_MAX], (new or "")[:FULL_MAX]):
        if gone and came:
            parts.append(f"{quote(gone, QUOTE_MAX)} became {quote(came, QUOTE_MAX)}")
        elif gone:
            parts.append(f"removed {quote(gone, QUOTE_MAX)}")
        else:
            parts.append(f"added {quote(came, QUOTE_MAX)}")
    if not parts:
        return "The text did not change."
    more = len(parts) - CHANGES_MAX
    shown = "; ".join(parts[:CHANGES_MAX]) + (f"; and {counted(more, 'more change')}"
                                               if more > 0 else "")
    stop = "" if shown[-2:] in (".”", "!”", "?”") else "."
    return shown[0].upper() + shown[1:] + stop


def masked_change(old: str | None, new: str) -> str:
    """A change told without its words (presenter mode)."""
    if old is None:
        return "First stated."
    return ("The text changed (what changed is hidden in presenter mode)." if old != new
            else "The text did not change.")
