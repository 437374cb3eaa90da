"""Showing text that came from the data: always as text, never as HTML or markdown."""

from __future__ import annotations

import re

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
