"""Small text helpers shared by every layer: one way to shorten, one way to flatten.

Example::

    >>> shorten(one_line("Tea,\\n   not   coffee, every morning"), 16)
    'Tea, not coffee…'
"""

from __future__ import annotations

import hashlib
from typing import Any

ELLIPSIS = "…"


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, the last one an ellipsis when cut.

    Whitespace is left as it is (see :func:`one_line`); a ``limit`` below 1 gives ``""``.

    >>> shorten("abcdef", 6), shorten("abcdef", 4), shorten("abcdef", 1), shorten("abc", 0)
    ('abcdef', 'abc…', '…', '')
    """
    if len(text) <= limit:
        return text
    if limit < 1:
        return ""
    return text[: limit - 1] + ELLIPSIS


#: how long a piece of the data may be wherever it is shown in one line (a label, a name,
#: a table cell, a sentence's quoted part); the full text is shown only where it is the
#: point (the panel), and bounded there too (see :data:`FULL_MAX`)
LINE_MAX = 200
#: the most of one text the page shows at full length (the panel's text; the rest stays in
#: the export and the download)
FULL_MAX = 20_000
#: the most of one text a table cell shows (the node's panel shows more)
CELL_MAX = 2_000


def clip(text: str | None, limit: int = LINE_MAX) -> str:
    """``text`` on one line (:func:`one_line`) and at most ``limit`` characters
    (:func:`shorten`): the one way a text from the data is bounded where it is made.

    Only the start of ``text`` is read, so a 5 MB word costs what a short one does.

    >>> clip("a  very\\nlong line", 8), clip(None), clip("x" * 5_000_000, 5)
    ('a very …', '', 'xxxx…')
    >>> clip("short   " + " " * 10_000, 8)
    'short'
    """
    if not text:
        return ""
    head = text[: 4 * limit + 64]  # runs of whitespace shrink to one space
    flat = one_line(head)
    if len(head) < len(text) and not text[len(head):].isspace():
        return flat[: max(limit - 1, 0)] + ELLIPSIS if limit >= 1 else ""
    return shorten(flat, limit)


#: the longest key made from the data (a colour group's space or document type) the page
#: is sent; a longer one is cut and told apart by a digest (see :func:`bounded_key`)
KEY_MAX = 80


def bounded_key(key: str, limit: int = KEY_MAX) -> str:
    """``key`` when at most ``limit`` characters, else its start and a digest of the whole
    (``limit`` characters in all): two long keys with one start stay two keys.

    >>> bounded_key("personal"), len(bounded_key("s" * 5_000_000))
    ('personal', 80)
    >>> bounded_key("a" * 100, 20) != bounded_key("a" * 101, 20)
    True
    """
    if len(key) <= limit:
        return key
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return key[: max(limit - 13, 0)] + "#" + digest


#: the longest run of word characters taken as a word a person wrote (a name, a topic, a
#: cluster's word); longer runs (a 5 MB word, a hash, a pasted blob) name nothing
WORD_MAX = 30


def writable(word: str) -> bool:
    """True when ``word`` could be a word a person wrote: at most :data:`WORD_MAX`
    characters, a letter among them.

    >>> writable("Lisbon"), writable("A" * 5_000_000), writable("1234"), writable("")
    (True, False, False, False)
    """
    return 0 < len(word) <= WORD_MAX and any(c.isalpha() for c in word)


def one_line(text: str) -> str:
    """``text`` with every run of whitespace (newlines included) made one space, trimmed.

    >>> one_line("  a\\n\\tb  c ")
    'a b c'
    """
    return " ".join(text.split())


#: what keeps the three parts of a relation apart (never glued: "张三knowse_missing")
RELATION_SEPARATOR = " — "


def relation_label(subject: str, predicate: str, obj: str) -> str:
    """A relation as three parts kept apart: ``subject — predicate — object`` (each on
    one line; an empty part reads ``?``). The one rule for showing a relation: the
    graph's tooltips and the answers to Ask both use it.

    >>> relation_label("张三", "knows", "e_missing")
    '张三 — knows — e_missing'
    >>> relation_label("Ada", "", "  Bob\\n")
    'Ada — ? — Bob'
    """
    return RELATION_SEPARATOR.join(one_line(p) or "?" for p in (subject, predicate, obj))


#: plurals that do not just add an "s"
_PLURALS = {"memory": "memories", "entity": "entities"}


def counted(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word``, in the plural unless ``n`` is 1 (``many`` when given).

    >>> counted(1, "memory"), counted(16, "memory"), counted(3, "document")
    ('1 memory', '16 memories', '3 documents')
    """
    return f"{n} {word if n == 1 else many or _PLURALS.get(word, word + 's')}"


#: cells starting with these are read as formulas by spreadsheets
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(value: Any) -> Any:
    """A CSV cell that a spreadsheet will not run as a formula (a leading ``'`` is added
    to text that starts with ``=``, ``+``, ``-``, ``@``, tab or CR); the one rule of every
    CSV Memscope writes.

    >>> csv_safe("=1+1"), csv_safe("plain"), csv_safe(3)
    ("'=1+1", 'plain', 3)
    """
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value
