"""What is kept on disk and shared, behind one interface: :class:`Keeper`.

A large load with its analysis and digest (:mod:`memscope.kept`, signed pickles beside
the embedded store): :meth:`Keeper.read_load` and :meth:`Keeper.keep_load`, the hooks
:class:`~memscope.pipeline.loads.Loads` is given. What a content digest names — ONE
path for the layout:

The derived file (``<data folder>/derived/<digest>.json``: layout, clusters, names;
:mod:`memscope.view.derived`) is this server's copy; the storage's layout cache
(:mod:`memscope.storage`, shared by every replica) is the shared copy of the layout,
under :func:`~memscope.storage.layout_key` of the source identity and the same digest.
:meth:`Keeper.derived` reads the file, else the shared layout (clusters computed here),
else computes — from the positions this server drew while the load arrived when there are
any, so there is one layout — then writes the file and shares a layout it did not find.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from memscope import kept
from memscope.graph.analysis import Analysis
from memscope.pipeline.loads import Positions, keep_in_background
from memscope.sources import LoadResult, Source
from memscope.storage import layout_key
from memscope.view.derived import LAYOUT_SEED, Derived, load_or_compute
from memscope.view.layout import extend_positions

Position = tuple[float, float]
VARIANT = f"seed={LAYOUT_SEED}"


class Layouts(Protocol):
    """The shared layout cache (a :class:`~memscope.storage.Storage` is one)."""

    def get_layout(self, key: str) -> dict[str, Position] | None: ...

    def put_layout(self, key: str, positions: Mapping[str, Position]) -> None: ...


class Keeper:
    """The derived data of a digest: kept in ``folder`` (default: the settings' data
    folder) and its layout shared through ``layouts`` (``None``: not shared)."""

    def __init__(self, folder: str | Path | None = None, layouts: Layouts | None = None,
                 *, write: bool = True, background: bool = True) -> None:
        self.folder = folder
        self.layouts = layouts
        self.write = write
        self.background = background

    def read_load(self, source: Source) -> kept.Kept | None:
        """The load, analysis and digest kept for ``source``'s current data, if any."""
        return kept.read(source)

    def keep_load(self, source: Source, result: LoadResult, base: Analysis,
                  digest: str) -> None:
        """Keep a large load (in a background thread unless ``background`` is off)."""
        if self.background:
            keep_in_background(source, result, base, digest)
        else:
            kept.keep(source, result, base, digest=digest)

    @staticmethod
    def shared_key(identity: str, digest: str) -> str:
        """The storage key of the layout of ``digest`` for ``identity``."""
        return layout_key(identity, digest, VARIANT)

    def derived(self, base: Analysis, digest: str, identity: str, *,
                preview: Positions | None = None) -> Derived:
        """Layout, clusters and names of ``base`` (whose digest is ``digest``)."""
        key = self.shared_key(identity, digest)
        shared: list[bool] = []

        def elsewhere() -> Mapping[str, Position] | None:
            layout = self.layouts.get_layout(key) if self.layouts is not None else None
            shared.append(layout is not None)
            if layout is None and preview:  # the places this server already drew
                extended = extend_positions(base.graph.graph, preview, seed=LAYOUT_SEED)
                return {str(n): xy for n, xy in extended.items()}
            return layout

        d = load_or_compute(analysis=base, digest=digest, folder=self.folder,
                            write=self.write, positions=elsewhere)
        if shared == [False] and self.layouts is not None:  # laid out here: share it
            self.layouts.put_layout(key, {str(n): xy for n, xy in d.positions.items()})
        return d


__all__ = ["Keeper", "Layouts"]
