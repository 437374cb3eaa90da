"""Text embeddings, offline: WordLlama's static token vectors, shipped inside its wheel.

:func:`embed` turns texts into float32 rows of :data:`DIM` numbers, each of length 1, so
that a dot product is the cosine similarity (:func:`similarity`). The model is WordLlama
0.4 ``l2_supercat`` at 256 dimensions (MIT): a table of one vector per token of Llama 2's
tokenizer, averaged over a text's tokens — no neural network runs, so 50,000 short texts
take seconds on one core and the same text always gives the same row.

Nothing is ever fetched. The weights ship in the wheel (``wordllama/weights/``); so does
the tokenizer's config, but under ``wordllama/tokenizers/`` while the loader looks for it
under ``tokenizer/`` beside its code, then in ``<cache>/tokenizers/``, then downloads it.
:func:`model` therefore copies the shipped config into a temporary cache folder and loads
with ``disable_download=True``: a missing file is an :class:`EmbedderUnavailable` with one
sentence, never a request. One model is loaded per process, on first use, under a lock.

>>> rows = embed(["Maya flies to Lisbon on Friday.", "Where is Maya travelling?", ""])
>>> rows.shape, rows.dtype.name
((3, 256), 'float32')
>>> [round(float(n), 3) for n in (rows[:2] ** 2).sum(axis=1)], float(abs(rows[2]).sum())
([1.0, 1.0], 0.0)
>>> embed([]).shape
(0, 256)
>>> similarity("Maya flies to Lisbon.", "Maya's trip to Portugal") > similarity(
...     "Maya flies to Lisbon.", "The database is PostgreSQL.")
True
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import threading
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

import numpy as np

CONFIG = "l2_supercat"
DIM = 256
TOKENIZER_FILE = f"{CONFIG}_tokenizer_config.json"
#: texts are cut to this many characters before tokenising (a 2 MB memory would otherwise
#: pad its whole batch to its length; the first few hundred words carry its topic)
MAX_CHARS = 2_000
#: texts per tokeniser batch (sorted by length first, so a batch pads little)
BATCH = 512

_lock = threading.Lock()
_model: _Model | None = None


class EmbedderUnavailable(RuntimeError):
    """The shipped embedding model could not be loaded (its message is one sentence)."""


class _Model(Protocol):
    def embed(self, texts: list[str], norm: bool = ..., return_np: bool = ...,
              pool_embeddings: bool = ..., batch_size: int = ...) -> Any: ...


def _quiet_import() -> Any:
    """Import :mod:`wordllama` without the ``logging.basicConfig(level=INFO)`` it runs at
    import time (it would reconfigure the app's root logger).

    ``basicConfig`` does nothing while the root logger has a handler, so a root without
    one gets a :class:`logging.NullHandler` for the import: a handler added and removed
    around it instead would print what other threads log meanwhile a second time."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    placeholder = logging.NullHandler() if not handlers else None
    if placeholder is not None:
        root.addHandler(placeholder)
    try:
        import wordllama
    finally:
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)
    return wordllama


def _load() -> _Model:
    try:
        wordllama = _quiet_import()
        shipped = resources.files("wordllama") / "tokenizers" / TOKENIZER_FILE
        with tempfile.TemporaryDirectory(prefix="memscope-wordllama-") as cache:
            folder = Path(cache) / "tokenizers"  # where the loader's cache lookup goes
            folder.mkdir()
            with resources.as_file(shipped) as source:
                shutil.copyfile(source, folder / TOKENIZER_FILE)
            return wordllama.WordLlama.load(CONFIG, cache_dir=Path(cache), dim=DIM,
                                            disable_download=True)
    except (ImportError, OSError, ValueError) as exc:  # FileNotFoundError is an OSError
        raise EmbedderUnavailable(
            "The offline text model (WordLlama) is not installed completely: reinstall "
            "Memscope's dependencies.") from exc


def model() -> _Model:
    """The process's one loaded model (loaded on first call; thread-safe)."""
    global _model
    if _model is None:
        with _lock:
            if _model is None:
                _model = _load()
    return _model


def embed(texts: Sequence[str]) -> np.ndarray:
    """One L2-normalised float32 row of :data:`DIM` numbers per text, in order; a text
    with no tokens (e.g. empty) gives a row of zeros. No texts → shape ``(0, DIM)``."""
    if len(texts) == 0:
        return np.zeros((0, DIM), dtype=np.float32)
    cut = [t[:MAX_CHARS] if isinstance(t, str) else "" for t in texts]
    order = sorted(range(len(cut)), key=lambda i: len(cut[i]))
    rows = np.asarray(model().embed([cut[i] for i in order], norm=False, batch_size=BATCH),
                      dtype=np.float32)
    out = np.empty_like(rows)
    out[np.asarray(order)] = rows
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    np.divide(out, norms, out=out, where=norms > 0)
    return out


def similarity(a: str, b: str) -> float:
    """Cosine similarity of two texts, in [-1, 1] (0 when either has no tokens)."""
    rows = embed([a, b])
    return float(rows[0] @ rows[1])


__all__ = ["DIM", "EmbedderUnavailable", "embed", "model", "similarity"]
