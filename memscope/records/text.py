"""Small text helpers shared by every layer: one way to shorten, one way to flatten.

Example::

    >>> shorten(one_line("Tea,\\n   not   coffee, every morning"), 16)
    'Tea, not coffee…'
"""

from __future__ import annotations

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

