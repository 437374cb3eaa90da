"""jieba, Chinese word segmentation and its word tags, loaded once per process (for Ask's
full-text index, :mod:`memscope.store.search`, and for where a Chinese name ends and whether
a note opens on one, :mod:`~memscope.meaning.clauses`).

Built from the dictionary file inside the package: jieba's own loader reads and writes a
cache under the temporary folder, where another user could leave one for it to read. It
is imported only when a Chinese text needs it (about half a second, once); nothing is
fetched.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

_lock = threading.Lock()
_tokenizer: Any = None


def segmenter() -> Any:
    """jieba's tokenizer with its packaged dictionary (``ImportError`` without jieba)."""
    global _tokenizer
    if _tokenizer is None:
        with _lock:
            if _tokenizer is None:
                import jieba

                jieba.setLogLevel(logging.WARNING)
                tokenizer = jieba.Tokenizer()
                with tokenizer.lock:
                    tokenizer.FREQ, tokenizer.total = tokenizer.gen_pfdict(
                        tokenizer.get_dict_file())
                    tokenizer.initialized = True
                _tokenizer = tokenizer
    return _tokenizer


_tagger: Any = None


def tagger() -> Any:
    """jieba's part-of-speech tagger on :func:`segmenter` (its word tags read from the same
    packaged dictionary; ``ImportError`` without jieba)."""
    global _tagger
    if _tagger is None:
        tokenizer = segmenter()
        with _lock:
            if _tagger is None:
                from jieba import posseg

                _tagger = posseg.POSTokenizer(tokenizer)
    return _tagger


__all__ = ["segmenter", "tagger"]
