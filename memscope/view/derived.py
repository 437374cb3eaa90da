"""What the first view needs, computed once per data version and kept on disk.

The layout positions (:func:`~memscope.view.layout.layout_positions`), the cluster of
every node and the clusters' names (:func:`~memscope.view.groups.cluster_keys`) take
seconds on a large account and depend only on the data's content. :func:`load_or_compute`
reads them from ``<data folder>/derived/<digest>.json`` when that file holds them for this
exact content, else computes and saves them (written atomically), so a restart or another
replica starts warm. :func:`warm` does it ahead of the first request (``python -m
memscope warm``).

The digest (:func:`digest_of`) is a SHA-256 over exactly what these depend on: every
node of the graph in order with its kind and the texts clusters are named from, every
edge in order with its kind and predicate, the file format and the layout seed — never
the clock, a credential or a URL. A file is trusted only when it parses, carries this
format and digest and places exactly the graph's nodes; anything else is recomputed
and overwritten.

The overview itself is not kept: it depends on the clock (expired memories turn red,
tooltips say "added 3 days ago") and :func:`~memscope.view.budget.overview_of` builds it
from these in a fraction of a second.

>>> from memscope.graph.analysis import analyse
>>> from memscope.records.dataset import from_feed_pages
>>> an = analyse(from_feed_pages([{"documents": [{"id": "d", "title": "Lisbon trip",
...     "memoryEntries": [{"id": "m", "memory": "Maya flies to Lisbon."}]}]}]))
>>> d = compute(an)
>>> sorted(d.positions), d.clusters, d.labels["c1"]
(['d', 'm'], {'d': 'c1', 'm': 'c1'}, 'Lisbon')
>>> d.digest == digest_of(an) and len(d.digest) == 64
True
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import os
import tempfile
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memscope.graph.analysis import Analysis, analyse
from memscope.records.dataset import Dataset
from memscope.settings import data_dir
from memscope.view.groups import cluster_keys
from memscope.view.layout import Position, layout_positions

log = logging.getLogger(__name__)

#: bumped whenever what is computed (the layout, the clustering, the naming) or how it is
#: stored changes: files of another format are ignored
FORMAT = 2
#: the explorer's layout seed
LAYOUT_SEED = 7
FOLDER = "derived"
#: how many derived files the folder keeps (the newest)
KEEP = 8


@dataclass
class Derived:
    """The layout, the clusters and their names of one data version."""

    digest: str
    #: node id → (x, y) in vis-network pixels
    positions: dict[Hashable, Position]
    #: node id → cluster key (``""`` = unlinked)
    clusters: dict[str, str]
    #: cluster key → name (``""`` → ``"unlinked"``)
    labels: dict[str, str]
    #: the cluster keys by decreasing size
    order: list[str]


def digest_of(analysis: Analysis) -> str:
    """SHA-256 (hex) of what the derived data depends on (see the module docstring)."""
    g = analysis.graph.graph
    parts: list[Any] = [FORMAT, LAYOUT_SEED, g.number_of_nodes()]
    add = parts.append
    for node, attrs in g.nodes(data=True):
        kind, record = attrs["kind"], attrs["record"]
        add(node)
        add(kind)
        if kind == "memory":
            add(record.memory)
        elif kind == "document":
            add(record.title)
            add(record.summary)
        else:
            add(record.name)
    for u, v, data in g.edges(data=True):
        add(u)
        add(v)
        add(data.get("kind"))
        add(data.get("predicate"))
    text = json.dumps(parts, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def compute(analysis: Analysis, digest: str | None = None) -> Derived:
    """Lay out and cluster ``analysis``'s graph (seconds at 50,000 memories)."""
    positions = layout_positions(analysis.graph.graph, seed=LAYOUT_SEED)
    return _derived(digest or digest_of(analysis), positions, analysis)


def _derived(digest: str, positions: dict[Hashable, Position], analysis: Analysis) -> Derived:
    """``positions`` with the clusters of ``analysis`` and their names."""
    keys, labels, order = cluster_keys(analysis)
    return Derived(digest, positions, {str(k): v for k, v in keys.items()}, labels, order)


def folder_of(folder: str | Path | None = None) -> Path:
    """``<data folder>/derived`` (``folder`` is the data folder; default: the settings')."""
    return data_dir(folder) / FOLDER


def path_of(digest: str, folder: str | Path | None = None) -> Path:
    """The file that keeps the derived data of ``digest``."""
    return folder_of(folder) / f"{digest}.json"


def to_bytes(d: Derived) -> bytes:
    """``d`` as compact UTF-8 JSON (what :func:`save` writes; for other storages too)."""
    return _encode(d).encode("utf-8", "surrogatepass")


def from_bytes(blob: bytes, digest: str) -> Derived | None:
    """The derived data in ``blob`` when it is well formed and for ``digest``, else None
    (never an exception: a stored blob is not trusted)."""
    try:
        raw = json.loads(blob)
    except (ValueError, RecursionError):
        return None
    return _decode(raw, digest)


def _encode(d: Derived) -> str:
    ids = list(d.positions)
    index = {k: i for i, k in enumerate(["", *d.order])}
    return json.dumps({
        "format": FORMAT, "digest": d.digest,
        "ids": [str(n) for n in ids],
        "x": [d.positions[n][0] for n in ids], "y": [d.positions[n][1] for n in ids],
        "keys": ["", *d.order],
        "cluster": [index[d.clusters.get(str(n), "")] for n in ids],
        "labels": d.labels,
    }, ensure_ascii=False, separators=(",", ":"))


def save(d: Derived, folder: str | Path | None = None) -> Path:
    """Write ``d`` to its file atomically (a temporary file renamed over it); keep the
    :data:`KEEP` newest files of the folder."""
    target = path_of(d.digest, folder)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".derived-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(_encode(d))
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _prune(target.parent, keep=target)
    return target


def _prune(folder: Path, keep: Path) -> None:
    """Remove all but the :data:`KEEP` newest derived files (never ``keep``)."""
    try:
        files = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for old in files[KEEP:]:
        if old != keep:
            old.unlink(missing_ok=True)


def _str_list(value: Any, n: int | None = None) -> list[str] | None:
    if not isinstance(value, list) or (n is not None and len(value) != n):
        return None
    return value if all(isinstance(v, str) for v in value) else None


def _decode(raw: Any, digest: str) -> Derived | None:
    """The derived data in ``raw`` if it is well formed and for ``digest``, else None."""
    if not isinstance(raw, dict) or raw.get("format") != FORMAT or raw.get("digest") != digest:
        return None
    ids = _str_list(raw.get("ids"))
    if ids is None or len(set(ids)) != len(ids):
        return None
    n = len(ids)
    xs, ys, idx = raw.get("x"), raw.get("y"), raw.get("cluster")
    keys = _str_list(raw.get("keys"))
    labels = raw.get("labels")
    if not (isinstance(xs, list) and isinstance(ys, list) and isinstance(idx, list)
            and len(xs) == len(ys) == len(idx) == n and keys and keys[0] == ""
            and len(set(keys)) == len(keys) and isinstance(labels, dict)):
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
               for v in (*xs, *ys)):
        return None
    if not all(type(i) is int and 0 <= i < len(keys) for i in idx):
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in labels.items()) \
            or not all(k in labels for k in keys):
        return None
    positions: dict[Hashable, Position] = {
        i: (float(x), float(y)) for i, x, y in zip(ids, xs, ys, strict=True)}
    clusters = {i: keys[c] for i, c in zip(ids, idx, strict=True)}
    return Derived(digest, positions, clusters, dict(labels), keys[1:])


def load(digest: str, folder: str | Path | None = None) -> Derived | None:
    """The derived data kept for ``digest``; ``None`` when there is no such file or it
    cannot be trusted (unreadable, malformed, another format or digest)."""
    try:
        blob = path_of(digest, folder).read_bytes()
    except OSError:
        return None
    return from_bytes(blob, digest)


def _fits(d: Derived, analysis: Analysis) -> bool:
    """True when ``d`` places exactly the nodes of ``analysis``'s graph."""
    g = analysis.graph.graph
    return len(d.positions) == g.number_of_nodes() and all(n in d.positions for n in g)


def _subject(dataset: Dataset | None, analysis: Analysis | None, digest: str | None
             ) -> tuple[Analysis, str]:
    """The analysis to derive from (``analysis``, else ``dataset`` analysed) and its
    digest (``digest`` when the caller knows it)."""
    if analysis is None:
        if dataset is None:
            raise ValueError("Derived data needs a dataset or an analysis.")
        analysis = analyse(dataset)
    return analysis, digest or digest_of(analysis)


def _trusted(digest: str, analysis: Analysis, folder: str | Path | None) -> Derived | None:
    """The kept file of ``digest`` when it can be trusted and places ``analysis``'s nodes."""
    found = load(digest, folder)
    return found if found is not None and _fits(found, analysis) else None


def load_or_compute(dataset: Dataset | None = None, *, analysis: Analysis | None = None,
                    folder: str | Path | None = None, write: bool = True,
                    digest: str | None = None,
                    positions: Callable[[], Mapping[str, Position] | None] | None = None
                    ) -> Derived:
    """The derived data of ``dataset`` (or of ``analysis``, when given: pass the app's
    own, which saves analysing twice; and its ``digest`` when known): read from its file
    when it can be trusted, otherwise computed and (with ``write``) saved. ``positions``,
    when given, is asked for a layout kept elsewhere (a shared storage) before one is
    computed; it is used when it places every node. The clusters and names come with it:
    views drawn from them (the pipeline's ``groups`` step) compute neither again.
    """
    analysis, digest = _subject(dataset, analysis, digest)
    found = _trusted(digest, analysis, folder)
    if found is not None:
        log.info("derived data read for %s", digest[:12])
        return found
    shared = positions() if positions is not None else None
    g = analysis.graph.graph
    if shared is not None and all(str(n) in shared for n in g):
        fresh = _derived(digest, {n: tuple(shared[str(n)]) for n in g},  # type: ignore[misc]
                         analysis)
    else:
        fresh = compute(analysis, digest)
        log.info("derived data computed for %s (%d nodes)", digest[:12], len(fresh.positions))
    if write:
        with contextlib.suppress(OSError):  # a read-only folder: correct, not kept
            save(fresh, folder)
    return fresh


def warm(dataset: Dataset | None = None, *, analysis: Analysis | None = None,
         digest: str | None = None, folder: str | Path | None = None) -> Path:
    """Make sure the derived data of ``dataset`` (or of ``analysis``, with its ``digest``
    when known) is kept: computed and saved unless a trusted file already holds it.
    Returns the file; an unwritable folder raises :class:`OSError`."""
    analysis, digest = _subject(dataset, analysis, digest)
    if _trusted(digest, analysis, folder) is not None:
        return path_of(digest, folder)
    return save(compute(analysis, digest), folder)


__all__ = ["FORMAT", "Derived", "compute", "digest_of", "from_bytes", "load", "load_or_compute",
           "path_of", "save", "to_bytes", "warm"]
