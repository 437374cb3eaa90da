"""A cheap test before a regular expression runs: a piece of text every match contains.

The rules rewrite and read a note with a few hundred patterns, and most of them find
nothing in most notes; running each one costs a scan of the text. :func:`needle` reads a
compiled pattern once and finds what any match must hold: a run of plain characters ("has
no " in ``\\bhas no (?!known\\b)…``), or one of the runs of an alternative ("single",
"married" … in ``single|married|…``); :func:`holds` then answers "no" with substring tests
when the text lacks it, and the pattern runs only when it may match (:class:`Guarded`,
:class:`Rewrites`).

It only ever skips a pattern that cannot match: the runs are read from the pattern's own
parse (characters it must consume in a row; zero-width checks such as ``\\b`` or a
lookahead in between are passed over, anything optional ends a run, an alternative counts
only when each of its branches needs something). A case-insensitive run is compared with
the lower-cased text, and only when the text is ASCII (in Unicode "ſ" matches "s" without
case, which lower-casing would not show). A pattern the parser cannot read gets no needle
and always runs. ``tests/test_prefilter.py`` checks every rule pattern on 12,000 notes.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

_parser: Any
try:  # the parser of the standard library's own ``re`` (Python 3.11+)
    _parser = importlib.import_module("re._parser")
except ImportError:  # pragma: no cover - an interpreter without it: no needles
    _parser = None

#: a needle: pieces of text of which every match holds at least one, and whether they are
#: compared without case
Needle = tuple[tuple[str, ...], bool]


def _best(options: Sequence[tuple[str, ...]]) -> tuple[str, ...] | None:
    """The most telling of several requirements: a piece of one or two characters is in
    most texts, one of three or four in few; then the fewest pieces (each is a test)."""
    return max(options, key=lambda o: (min(min(map(len, o)), 4), -len(o)), default=None)


def _requirements(items: Any, icase: bool) -> list[tuple[tuple[str, ...], bool]]:
    """Requirements of the parsed sequence ``items``: each a set of pieces (characters a
    match consumes in a row), one of which every match holds."""
    out: list[tuple[tuple[str, ...], bool]] = []
    run: list[str] = []

    def close() -> None:
        if run:
            out.append((("".join(run),), icase))
            run.clear()

    literal, subpattern, branch = _parser.LITERAL, _parser.SUBPATTERN, _parser.BRANCH
    zero_width = (_parser.AT, _parser.ASSERT, _parser.ASSERT_NOT)
    repeats = (_parser.MAX_REPEAT, _parser.MIN_REPEAT, _parser.POSSESSIVE_REPEAT)
    for op, av in items:
        if op is literal:
            run.append(chr(av))
            continue
        if op in zero_width:
            continue  # consumes nothing: the characters on both sides are adjacent
        close()
        if op is subpattern:
            _group, add, _del, inner = av
            out.extend(_requirements(inner, icase or bool(add & re.IGNORECASE)))
        elif op in repeats and av[0] >= 1:
            out.extend(_requirements(av[2], icase))
        elif op is branch:  # one alternative or another: one of their pieces
            pieces: list[str] = []
            any_case = icase
            for alternative in av[1]:
                found = _requirements(alternative, icase)
                best = _best([o for o, _ in found])
                if best is None:
                    break  # an alternative that needs nothing: the branch needs nothing
                pieces.extend(best)
                any_case = any_case or any(c for o, c in found if o == best)
            else:
                out.append((tuple(dict.fromkeys(pieces)), any_case))
    close()
    return out


def needle(pattern: re.Pattern[str]) -> Needle | None:
    """Pieces of text of which every match of ``pattern`` holds one, or ``None``.

    >>> needle(re.compile(r"\\bhas no (?!known\\b)(?P<what>[a-z]+)"))
    (('has no ',), False)
    >>> needle(re.compile(r"\\b(?:cat|dog)s?\\b"))
    (('cat', 'dog'), False)
    >>> needle(re.compile(r"\\b(?:cat|dog)?s\\b"))
    (('s',), False)
    >>> needle(re.compile(r"\\b(?:cat|dog)?\\b"))
    >>> needle(re.compile(r"^(?:Lives|Works) in", re.I))
    (('lives', 'works'), True)
    """
    if _parser is None or not isinstance(pattern.pattern, str):
        return None
    try:
        found = _requirements(_parser.parse(pattern.pattern, pattern.flags),
                              bool(pattern.flags & re.IGNORECASE))
    except Exception:
        return None
    best = _best([o for o, _ in found])
    if best is None:
        return None
    icase = any(c for o, c in found if o == best)
    return (tuple(p.lower() for p in best), True) if icase else (best, False)


def holds(found: Needle | None, text: str, lower: str | None = None) -> bool:
    """False only when ``text`` holds none of the needle's pieces (``None``: no needle, so
    always true). ``lower``: ``text.lower()`` when the caller has it (several patterns,
    one text)."""
    if found is None:
        return True
    pieces, icase = found
    if icase:
        if not text.isascii():
            return True
        text = lower if lower is not None else text.lower()
    for piece in pieces:  # noqa: SIM110 - a loop: any() of a generator costs half again
        if piece in text:
            return True
    return False


class Rewrites:
    """Substitutions applied one after another (``pattern.sub(written, text)`` in turn),
    each skipped on a text that lacks its needle; the needles are read once, on first use
    (not when the module loads)."""

    __slots__ = ("_needled", "_ways")

    def __init__(self, ways: Iterable[tuple[re.Pattern[str],
                                            str | Callable[[re.Match[str]], str]]]) -> None:
        self._ways = tuple(ways)
        self._needled: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str],
                                   Needle | None], ...] = ()

    def __call__(self, text: str) -> str:
        if not self._needled:
            self._needled = tuple((pattern, written, needle(pattern))
                                  for pattern, written in self._ways)
        lower = text.lower()
        for pattern, written, found in self._needled:
            if holds(found, text, lower):
                new = pattern.sub(written, text)
                if new != text:
                    text, lower = new, new.lower()
        return text


class Guarded:
    """A compiled pattern that tests its needle before it runs: the same answers as the
    pattern, cheaper on the texts it cannot match. For the rules' long lists of words
    ("single|bachelor|married|…"), which the engine tries at every position of every
    note. The needle is read on first use."""

    __slots__ = ("_found", "_read", "re")

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.re = pattern
        self._found: Needle | None = None
        self._read = False

    def _may(self, text: str) -> bool:
        if not self._read:
            self._found, self._read = needle(self.re), True
        return holds(self._found, text)

    @property
    def pattern(self) -> str:
        return self.re.pattern

    @property
    def flags(self) -> int:
        return self.re.flags

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.re.search(text, pos) if self._may(text) else None

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.re.match(text, pos) if self._may(text) else None

    def fullmatch(self, text: str) -> re.Match[str] | None:
        return self.re.fullmatch(text) if self._may(text) else None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.re.finditer(text) if self._may(text) else iter(())

    def findall(self, text: str) -> list[Any]:
        return self.re.findall(text) if self._may(text) else []

    def sub(self, written: str | Callable[[re.Match[str]], str], text: str,
            count: int = 0) -> str:
        return self.re.sub(written, text, count) if self._may(text) else text


def guarded(pattern: re.Pattern[str]) -> Guarded:
    """``pattern`` behind its needle (:class:`Guarded`)."""
    return Guarded(pattern)


__all__ = ["Guarded", "Needle", "Rewrites", "guarded", "holds", "needle"]
