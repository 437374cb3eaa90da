"""Showing text that came from the data: always as text, never as HTML or markdown."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memscope.records.text import clip

# "@" too: an email would otherwise become a mailto: link
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&@])")


def md_escape(text: str | None) -> str:
    """Escape every markdown-significant character (CommonMark backslash escapes).

    Use this wherever Streamlit would read a string as markdown (labels, captions,
    ``st.markdown``); ``st.text``/``st.dataframe`` need no escaping.

    >>> print(md_escape("<b>*hi*</b> [x](javascript:y)"))
    \\<b\\>\\*hi\\*\\</b\\> \\[x\\]\\(javascript\\:y\\)
    """
    if not text:
        return ""
    return _MD_SPECIAL.sub(r"\\\1", text.replace("\n", " "))


def short(text: str | None, limit: int = 60) -> str:
    """One line of at most ``limit`` characters (:func:`memscope.records.text.clip`).

    >>> short("a  very\\nlong line", 8)
    'a very …'
    """
    return clip(text, limit)


def marked_side(segments: Sequence[tuple[str, str]], keep: str, color: str) -> str:
    """One side of a word diff (``(op, text)`` segments, op ``equal``/``insert``/
    ``delete``) as escaped markdown: the shared words plain, ``keep``'s words on a
    ``color`` mark — a run of changed words, with the spaces between them, as one mark.

    >>> marked_side([("equal", "Lives in "), ("delete", "Lisbon"), ("insert", "Porto")],
    ...             "insert", "green")
    'Lives in :green-background[Porto]'
    """
    runs: list[tuple[bool, str]] = []  # (marked, text); a space between marks joins them
    mine = [(op == keep, text) for op, text in segments if op in ("equal", keep)]
    for n, (marked, text) in enumerate(mine):
        joins = (not marked and not text.strip() and 0 < n < len(mine) - 1
                 and mine[n - 1][0] and mine[n + 1][0])
        marked = (marked and bool(text.strip())) or joins
        if runs and runs[-1][0] == marked:
            runs[-1] = (marked, runs[-1][1] + text)
        else:
            runs.append((marked, text))
    parts = []
    for marked, text in runs:
        body = text.strip() if marked else text
        lead = text[:len(text) - len(text.lstrip())] if marked else ""
        tail = text[len(text.rstrip()):] if marked else ""
        parts.append(f"{md_escape(lead)}:{color}-background[{md_escape(body)}]"
                     f"{md_escape(tail)}" if marked else md_escape(text))
    return "".join(parts) or "_(empty)_"
