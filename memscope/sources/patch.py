"""What an action changed, applied to the loaded data instead of reading the account again.

After a forget (one, many, by meaning, all), a restore or an add, the UI asks here for a
new :class:`~memscope.sources.base.LoadResult`: the loaded one with a patched *copy* of
its dataset (:mod:`memscope.records.patch`), built from what the service answered and,
where the service must be asked, from re-reading only the memories or documents the
action touched. ``None`` means the source cannot patch — the caller falls back to reading
the whole load again. Nothing here raises a :class:`SourceError`: a re-read that fails is
``None`` too.

>>> from memscope.records.dataset import Dataset
>>> from memscope.sources.results import LoadResult
>>> load = LoadResult(Dataset(), "file", "f")
>>> patched(load, Dataset(), calls=2).calls, load.calls
(2, 0)
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from memscope.records import patch as rp
from memscope.records.dataset import Dataset
from memscope.records.models import ParseReport, Profile, parse_profile
from memscope.records.time import utc_now
from memscope.sources.base import Source
from memscope.sources.errors import SourceError
from memscope.sources.results import AddResult, ForgetReport, LoadResult

log = logging.getLogger("memscope")


def now() -> datetime:
    """The time a patch stamps on what changed: now, to the second (as services store it)."""
    return utc_now().replace(microsecond=0)


def patched(previous: LoadResult, dataset: Dataset, *, calls: int = 0,
            notes: Sequence[str] = ()) -> LoadResult:
    """``previous`` with ``dataset`` in its place, ``calls`` more requests, ``notes`` added
    and the time it shows (``loaded_at``) now — a new result; ``previous`` is unchanged."""
    return replace(previous, dataset=dataset, calls=previous.calls + calls,
                   notes=[*previous.notes, *notes], loaded_at=utc_now())


def profiles_again(dataset: Dataset, tags: Sequence[str],
                   fetch: Callable[[str], object]) -> tuple[dict[str, Profile], list[str]]:
    """The profiles of ``tags`` read again (only those the load holds), and a note per
    failure: a profile that cannot be read keeps its loaded lines."""
    out: dict[str, Profile] = {}
    notes: list[str] = []
    for tag in dict.fromkeys(t for t in tags if t in dataset.profiles):
        try:
            out[tag] = parse_profile(fetch(tag), tag, ParseReport())
        except SourceError as exc:
            notes.append(f"The profile of {tag} could not be read again: {exc}")
    return out, notes


def with_profiles_read_again(source: Source, previous: LoadResult, ds: Dataset,
                             ids: Sequence[str], fetch: Callable[[str], object]
                             ) -> LoadResult:
    """The new result of a forget: ``ds`` (``previous``'s dataset after the forget) with the
    profiles of the spaces the forgotten ``ids`` were in read again through ``fetch`` (a
    request each); ``previous`` is unchanged."""
    before, calls0 = previous.dataset, source.calls
    tags = [m.container_tag for i in ids
            if (m := before.memories.get(i)) is not None and m.container_tag]
    profiles, notes = profiles_again(ds, tags, fetch)
    return patched(previous, rp.with_profiles(ds, profiles), calls=source.calls - calls0,
                   notes=notes)


def _guard(what: str, call: Callable[[], LoadResult | None]) -> LoadResult | None:
    try:
        return call()
    except SourceError as exc:
        log.info("Could not patch the load after %s: %s", what, exc)
        return None


def after_forget(source: Source, previous: LoadResult | None, ids: Sequence[str], *,
                 reason: str | None = None) -> LoadResult | None:
    """``previous`` with the memories ``ids`` — those the service said it forgot — shown
    as a load made now would show them; ``previous`` itself when nothing was forgotten;
    ``None`` when the source cannot patch (read the load again)."""
    if previous is None:
        return None
    wanted = list(dict.fromkeys(ids))
    if not wanted:
        return previous
    return _guard("a forget", lambda: source.patch_forgotten(previous, wanted, reason=reason))


def after_restore(source: Source, previous: LoadResult | None, ids: Sequence[str]
                  ) -> LoadResult | None:
    """``previous`` with the memories ``ids`` restored, or ``None`` (read it again)."""
    if previous is None:
        return None
    wanted = list(dict.fromkeys(ids))
    if not wanted:
        return previous
    return _guard("a restore", lambda: source.patch_restored(previous, wanted))


def after_add(source: Source, previous: LoadResult | None, added: AddResult
              ) -> LoadResult | None:
    """``previous`` with the added document and its memories (``added`` is the service's
    last answer about it: processed, ``done``); ``previous`` itself when nothing was
    stored; ``None`` when the source cannot patch (read the load again)."""
    if previous is None:
        return None
    if not added.ok:
        return previous
    return _guard("an add", lambda: source.patch_added(previous, added))


def after_error(source: Source, previous: LoadResult | None, ids: Sequence[str]
                ) -> LoadResult | None:
    """``previous`` with the memories an action touched (``ids``) read again from the
    service — after an error in the middle, what it did is unknown — or ``None`` (read
    the whole load again)."""
    if previous is None:
        return None
    wanted = list(dict.fromkeys(ids))
    if not wanted:
        return previous
    return _guard("an error", lambda: source.reread(previous, wanted))


def after_report(source: Source, previous: LoadResult | None, report: ForgetReport, *,
                 reason: str | None = None) -> LoadResult | None:
    """``previous`` after a forget by ids with a per-id report: what the service forgot
    marked (:func:`after_forget`), then the ids it refused or did not match read again
    (:func:`after_error`; their state is not what the load says). When that re-read
    fails the forget's patch stands; ``None`` when the source cannot patch at all."""
    new = after_forget(source, previous, report.forgotten, reason=reason)
    failed = [*report.errors, *report.not_matched]
    if new is None or not failed:
        return new
    return after_error(source, new, failed) or new


__all__ = ["after_add", "after_error", "after_forget", "after_report", "after_restore", "now",
           "patched", "profiles_again"]
