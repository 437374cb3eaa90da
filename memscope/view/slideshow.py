"""A slideshow for demos: a few nodes of the graph, each with a caption, played in order.

A :class:`Slideshow` is plain data: its steps (a node id and the caption the user wrote),
an optional title, how many seconds a step stays before the next one (``0``: only by
hand) and the :class:`DataMark` of the data it was made on. It is saved as a small JSON
file (:func:`slideshow_bytes`) and read back leniently (:func:`read_slideshow`): a file
that is not a slideshow, or a hostile one, gives one :class:`SlideshowError` sentence;
a step that cannot be read is left out and said in the notes. Opened on other data,
:func:`coverage` says in one sentence which steps name nodes that data does not have.

The file holds no text of the data: node ids, the user's own captions and title, a
digest of the source's identity (never a credential, nor its fingerprint) and the
source's kind. Presenter-safe by construction: what it shows of a node is whatever the
(masked) view draws for it.

    >>> show = Slideshow().added("m1", "Where it starts").added("m2", "  and\\x00 then ")
    >>> [(s.node, s.caption) for s in show.steps]
    [('m1', 'Where it starts'), ('m2', 'and then')]
    >>> again, notes = read_slideshow(slideshow_bytes(show))
    >>> again == show, notes
    (True, [])
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, TypedDict

from memscope.records.jsonsafe import JsonError, bounded_number, load_json, safe_text
from memscope.records.text import counted

#: the file's format mark and the version this module writes (and the newest it reads)
FORMAT = "memscope-slideshow"
VERSION = 1
#: a caption's most characters (a sentence or two, read aloud in a demo)
CAPTION_MAX = 280
#: a caption's most lines
CAPTION_LINES = 4
TITLE_MAX = 80
#: the most steps a show holds (a demo, not a tour of every node)
STEPS_MAX = 50
#: the longest node id a step may name
NODE_ID_MAX = 300
#: the longest a step may stay before the next one, in seconds
ADVANCE_MAX = 120
#: the biggest file read (a full show is a few kB)
FILE_MAX = 256 * 1024
SUFFIX = ".json"
FILE_NAME = "memscope-slideshow.json"

# bidirectional overrides and isolates: they would make a caption read other than it is
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
_KIND = re.compile(r"[a-z0-9_-]{1,20}")
_DIGEST = re.compile(r"[0-9a-f]{16}")


class SlideshowError(ValueError):
    """A slideshow file that cannot be read; ``str()`` is one sentence."""


def clean_caption(text: str, limit: int = CAPTION_MAX, lines: int = CAPTION_LINES) -> str:
    """``text`` as a caption: no control or bidirectional-override characters, each line's
    whitespace made one space, at most ``lines`` lines and ``limit`` characters.

    >>> clean_caption("  Hello\\t\\tworld \\n\\n\\n second\\u202e line ")
    'Hello world\\nsecond line'
    >>> len(clean_caption("x" * 1000)), clean_caption("a\\nb\\nc", lines=2)
    (280, 'a\\nb c')
    """
    text = safe_text(text[: 8 * limit + 64])
    text = _BIDI.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    text = "".join(c for c in text if c == "\n" or unicodedata.category(c) != "Cc"
                   or c == "\t")
    parts = [" ".join(line.split()) for line in text.split("\n")]
    parts = [p for p in parts if p]
    if len(parts) > lines:
        parts = [*parts[: lines - 1], " ".join(parts[lines - 1:])]
    out = "\n".join(parts)
    return out if len(out) <= limit else out[: limit - 1].rstrip() + "…"


@dataclass(frozen=True)
class DataMark:
    """Which data a show was made on: the source's kind and a digest of its identity."""

    kind: str
    digest: str

    @classmethod
    def of(cls, identity: str) -> DataMark:
        """The mark of a source's identity (``kind|location|…``; see
        :meth:`memscope.sources.Source.identity`): its kind and a salted digest of the
        whole, so the file says nothing of the location or the key's fingerprint.

        >>> mark = DataMark.of("embedded|/data/memscope.sqlite3")
        >>> mark.kind, len(mark.digest), mark == DataMark.of("embedded|/elsewhere")
        ('embedded', 16, False)
        """
        kind = identity.split("|", 1)[0].lower()
        digest = hashlib.sha256(f"{FORMAT}\0{identity}".encode("utf-8", "surrogatepass"))
        return cls(kind if _KIND.fullmatch(kind) else "other", digest.hexdigest()[:16])


@dataclass(frozen=True)
class Step:
    """One step: the node shown and what the presenter says about it."""

    node: str
    caption: str = ""


@dataclass(frozen=True)
class Slideshow:
    """Ordered steps, a title, the seconds a step stays (0: by hand) and the data mark.

    Every change returns a new show (they are kept in the session and compared)."""

    steps: tuple[Step, ...] = ()
    title: str = ""
    advance_s: int = 0
    data: DataMark | None = field(default=None)

    @property
    def full(self) -> bool:
        """True when no step can be added."""
        return len(self.steps) >= STEPS_MAX

    def added(self, node: str, caption: str = "") -> Slideshow:
        """This show with a step for ``node`` at the end (a full show is unchanged)."""
        if self.full or not _node_ok(node):
            return self
        return replace(self, steps=(*self.steps, Step(node, clean_caption(caption))))

    def moved(self, index: int, delta: int) -> Slideshow:
        """Step ``index`` moved ``delta`` places (kept within the show)."""
        steps = list(self.steps)
        if not 0 <= index < len(steps):
            return self
        to = min(max(index + delta, 0), len(steps) - 1)
        steps.insert(to, steps.pop(index))
        return replace(self, steps=tuple(steps))

    def removed(self, index: int) -> Slideshow:
        """This show without step ``index``."""
        if not 0 <= index < len(self.steps):
            return self
        return replace(self, steps=self.steps[:index] + self.steps[index + 1:])

    def recaptioned(self, index: int, caption: str) -> Slideshow:
        """Step ``index`` with a new caption."""
        if not 0 <= index < len(self.steps):
            return self
        steps = list(self.steps)
        steps[index] = replace(steps[index], caption=clean_caption(caption))
        return replace(self, steps=tuple(steps))

    def titled(self, title: str) -> Slideshow:
        """This show with ``title`` (one line, bounded)."""
        return replace(self, title=clean_caption(title, TITLE_MAX, 1))

    def advancing(self, seconds: Any) -> Slideshow:
        """This show advancing every ``seconds`` (0: by hand; bounded)."""
        return replace(self, advance_s=_advance(seconds))

    def marked(self, identity: str) -> Slideshow:
        """This show marked as made on the data of the source ``identity``."""
        return replace(self, data=DataMark.of(identity))


def _node_ok(node: Any) -> bool:
    return (isinstance(node, str) and 0 < len(node) <= NODE_ID_MAX and node.strip() == node
            and not any(unicodedata.category(c) == "Cc" for c in node))


def _advance(seconds: Any) -> int:
    if not bounded_number(seconds):
        return 0
    return int(min(max(round(seconds), 0), ADVANCE_MAX))


# -- the file ----------------------------------------------------------------------------

def slideshow_object(show: Slideshow) -> dict[str, Any]:
    """The JSON object saved for ``show``."""
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "title": show.title,
                           "advance_s": show.advance_s,
                           "steps": [{"node": s.node, "caption": s.caption}
                                     for s in show.steps]}
    if show.data is not None:
        out["data"] = {"kind": show.data.kind, "digest": show.data.digest}
    return out


def slideshow_bytes(show: Slideshow) -> bytes:
    """``show`` as the file's bytes (UTF-8 JSON, indented: a person may read it)."""
    return (json.dumps(slideshow_object(show), ensure_ascii=False, indent=2) + "\n"
            ).encode("utf-8")


def _text(data: bytes) -> str:
    if len(data) > FILE_MAX:
        raise SlideshowError(f"This file is too big to be a slideshow ({len(data) // 1024} kB; "
                             f"a slideshow is at most {FILE_MAX // 1024} kB).")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SlideshowError("This file is not a Memscope slideshow: it is not UTF-8 "
                             "text.") from None


def _header(value: Any) -> None:
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise SlideshowError("This file is not a Memscope slideshow: it has no "
                             f"\"format\": \"{FORMAT}\" mark.")
    version = value.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise SlideshowError("This slideshow file names no format version Memscope "
                             "can read.")
    if version > VERSION:
        raise SlideshowError(f"This slideshow was saved by a newer Memscope (format version "
                             f"{min(version, 10**6)}); this one reads version {VERSION}.")
    if not isinstance(value.get("steps"), list):
        raise SlideshowError("This slideshow file has no list of steps.")


def _mark(value: Any) -> DataMark | None:
    if not isinstance(value, dict):
        return None
    kind, digest = value.get("kind"), value.get("digest")
    if (isinstance(kind, str) and _KIND.fullmatch(kind) and isinstance(digest, str)
            and _DIGEST.fullmatch(digest)):
        return DataMark(kind, digest)
    return None


def _steps(items: list[Any], notes: list[str]) -> tuple[Step, ...]:
    steps: list[Step] = []
    bad = cut = 0
    for item in items:
        node = item.get("node") if isinstance(item, dict) else None
        caption = item.get("caption", "") if isinstance(item, dict) else None
        if not _node_ok(node) or not isinstance(caption, str | None):
            bad += 1
            continue
        text = clean_caption(caption or "")
        if text.endswith("…") and len(clean_caption(caption or "", FILE_MAX)) > CAPTION_MAX:
            cut += 1
        steps.append(Step(node, text))  # type: ignore[arg-type]  # _node_ok: a str
    if bad:
        notes.append(f"{counted(bad, 'step')} could not be read (no node id, or not text) "
                     f"and {'was' if bad == 1 else 'were'} left out.")
    if cut:
        notes.append(f"{counted(cut, 'caption')} longer than {CAPTION_MAX} characters "
                     f"{'was' if cut == 1 else 'were'} shortened.")
    if len(steps) > STEPS_MAX:
        notes.append(f"Only the first {STEPS_MAX} of its {len(steps)} steps were kept.")
        steps = steps[:STEPS_MAX]
    return tuple(steps)


def read_slideshow(data: bytes) -> tuple[Slideshow, list[str]]:
    """A saved show read back, with notes on what was left out or shortened.

    Raises :class:`SlideshowError` (one sentence) when ``data`` is not a slideshow.

    >>> try:
    ...     read_slideshow(b"[1, 2]")
    ... except SlideshowError as exc:
    ...     print(exc)
    This file is not a Memscope slideshow: it has no "format": "memscope-slideshow" mark.
    """
    text = _text(data)
    try:
        value, _ = load_json(text)
    except JsonError as exc:
        raise SlideshowError(f"This file is not a Memscope slideshow: it is {exc}.") from None
    _header(value)
    notes: list[str] = []
    steps = _steps(value["steps"], notes)
    title = value.get("title")
    show = Slideshow(steps=steps, data=_mark(value.get("data")),
                     title=clean_caption(title, TITLE_MAX, 1) if isinstance(title, str) else "",
                     advance_s=_advance(value.get("advance_s", 0)))
    return show, notes


# -- a show on the data it is played on ----------------------------------------------------

@dataclass(frozen=True)
class Coverage:
    """Which steps of a show the data at hand can play."""

    #: the steps' numbers (from 1) whose node the data does not have
    missing: tuple[int, ...]
    #: the steps' numbers whose node the data has but the view does not draw
    hidden: tuple[int, ...]
    #: True when the show names the data it was made on and that is other data
    other_data: bool
    total: int

    @property
    def playable(self) -> tuple[int, ...]:
        """The steps' numbers that play."""
        skip = set(self.missing) | set(self.hidden)
        return tuple(i for i in range(1, self.total + 1) if i not in skip)

    def sentence(self) -> str | None:
        """One sentence on what cannot play, or on other data (``None``: all is well)."""
        parts: list[str] = []
        if self.missing:
            parts.append(f"{_numbers(self.missing)} of its {self.total} {_are(self.missing)} "
                         "not in this data")
        if self.hidden:
            parts.append(f"{_numbers(self.hidden)} {_are(self.hidden)} hidden by the "
                         "sidebar's filters or the as-of day")
        if parts:
            head = "This slideshow was made on other data: " if self.other_data else ""
            skipped = len(self.missing) + len(self.hidden)
            text = (head + "; ".join(parts) + ", and "
                    + ("it is" if skipped == 1 else "they are") + " skipped when it plays.")
            return text[0].upper() + text[1:]
        if self.other_data and self.total:
            return ("This slideshow was made on other data, but every one of its steps is "
                    "in this data.")
        return None


def _numbers(numbers: Collection[int]) -> str:
    items = sorted(numbers)
    word = "step" if len(items) == 1 else "steps"
    if len(items) > 8:
        return f"{len(items)} {word} ({', '.join(map(str, items[:8]))}…)"
    listed = ", ".join(map(str, items[:-1])) + (" and " if len(items) > 1 else "")
    return f"{word} {listed}{items[-1]}"


def _are(numbers: Collection[int]) -> str:
    return "is" if len(numbers) == 1 else "are"


def coverage(show: Slideshow, in_data: Iterable[str] | Collection[str],
             drawn: Collection[str] | None = None, identity: str | None = None) -> Coverage:
    """Which steps of ``show`` the data can play: ``in_data`` holds the data's node ids,
    ``drawn`` the ids the view draws (``None``: all of them), ``identity`` the source's
    (to tell whether the show was made on this data; a show that names no data was not
    made on other data).

    >>> show = Slideshow().added("a").added("b").added("c").marked("embedded|x")
    >>> c = coverage(show, {"a", "c"}, identity="embedded|y")
    >>> c.missing, c.playable
    ((2,), (1, 3))
    >>> print(c.sentence())  # doctest: +NORMALIZE_WHITESPACE
    This slideshow was made on other data: step 2 of its 3 is not in this data, and it is
    skipped when it plays.
    """
    ids = in_data if isinstance(in_data, Collection) else set(in_data)
    missing = tuple(i for i, s in enumerate(show.steps, 1) if s.node not in ids)
    hidden = tuple(i for i, s in enumerate(show.steps, 1)
                   if s.node in ids and drawn is not None and s.node not in drawn)
    other = (identity is not None and show.data is not None
             and show.data != DataMark.of(identity))
    return Coverage(missing, hidden, other and bool(show.steps), len(show.steps))


# -- what the browser plays -----------------------------------------------------------------

class PlayStep(TypedDict):
    """One step as the graph component plays it."""

    id: str
    caption: str


class PlayPayload(TypedDict):
    """The graph component's ``slideshow`` payload (``components/graph_view``'s
    ``slideshow.js``): the steps it can fly to, and the token of a Play click."""

    title: str
    advance_s: int
    steps: list[PlayStep]
    #: a new token starts the show once in the browser (``None``: do not start it)
    play: str | None


def play_payload(show: Slideshow, drawn: Collection[str], play: str | None = None
                 ) -> PlayPayload:
    """What the browser plays of ``show``: the steps whose node is in ``drawn`` (the
    view's node ids), in order; ``play`` a token that starts it.

    >>> play_payload(Slideshow().added("a", "Hi").added("b"), {"a"}, "t1")["steps"]
    [{'id': 'a', 'caption': 'Hi'}]
    """
    steps: list[PlayStep] = [{"id": s.node, "caption": s.caption} for s in show.steps
                             if s.node in drawn]
    return {"title": show.title, "advance_s": show.advance_s, "steps": steps, "play": play}


_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def checked_payload(value: Any, ids: Collection[str]) -> PlayPayload:
    """``value`` (a :class:`PlayPayload`) checked for the graph component: steps whose
    node is not in ``ids`` dropped, captions and title bounded again. Raises
    ``TypeError``/``ValueError`` with one sentence when it is not a payload."""
    if not isinstance(value, dict) or not isinstance(value.get("steps"), list):
        raise TypeError("graph_view: slideshow must be a play_payload() mapping with a list "
                        "of steps.")
    steps: list[PlayStep] = []
    for step in value["steps"][:STEPS_MAX]:
        if not isinstance(step, dict) or not isinstance(step.get("id"), str):
            raise TypeError("graph_view: each slideshow step needs a node 'id' (a string).")
        caption = step.get("caption", "")
        if step["id"] in ids:
            steps.append({"id": step["id"],
                          "caption": clean_caption(caption if isinstance(caption, str) else "")})
    play = value.get("play")
    if play is not None and not (isinstance(play, str) and _TOKEN.fullmatch(play)):
        raise ValueError("graph_view: the slideshow's play token must be a short word "
                         "(letters, digits, - and _).")
    title = value.get("title", "")
    return {"title": clean_caption(title if isinstance(title, str) else "", TITLE_MAX, 1),
            "advance_s": _advance(value.get("advance_s", 0)), "steps": steps, "play": play}


__all__ = ["ADVANCE_MAX", "CAPTION_MAX", "FILE_MAX", "FILE_NAME", "FORMAT", "STEPS_MAX",
           "TITLE_MAX", "VERSION", "Coverage", "DataMark", "PlayPayload", "PlayStep", "Slideshow",
           "SlideshowError", "Step", "checked_payload", "clean_caption", "coverage",
           "play_payload", "read_slideshow", "slideshow_bytes", "slideshow_object"]
