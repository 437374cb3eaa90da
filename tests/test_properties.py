"""Property-based tests (Hypothesis): arbitrary JSON in every field of feed documents,
memory entries and passports, through the whole path.

The property: parse → dataset → graph → analysis (at any ``now``) → view → every export →
snapshot save and reopen → ``memscope inspect`` raises nothing but the documented errors
(:class:`~memscope.sources.FileError` / exit code 2, one line), and every well-formed
record of a mixed input survives.

The inputs are JSON *text*, as files are: lone surrogates travel as ``\\udXXX`` escapes,
and markers in the generated values are replaced by JSON nested thousands of levels deep
or by integers of thousands of digits (which Python objects cannot carry through
``json.dumps``).

Profiles: the normal run is deterministic (``derandomize``, no example database) with
about 240 examples; ``MEMSCOPE_FUZZ=1`` (``make fuzz``) runs many more, randomly.
The number of examples that ran is printed at the end of the run.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import tempfile
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pipeline_support import every_stage

from memscope.cli import main
from memscope.records.time import EARLIEST, LATEST
from memscope.sources import FileError, FileSource

FUZZ = bool(os.environ.get("MEMSCOPE_FUZZ"))
_COMMON = {"deadline": None, "database": None,
           "suppress_health_check": (HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.filter_too_much)}
settings.register_profile("memscope", max_examples=120, derandomize=True, **_COMMON)
settings.register_profile("memscope-fuzz", max_examples=int(os.environ.get(
    "MEMSCOPE_FUZZ_EXAMPLES", "3000")), derandomize=False, **_COMMON)
PROFILE = settings.get_profile("memscope-fuzz" if FUZZ else "memscope")
RAN: dict[str, int] = {}

# -- values -----------------------------------------------------------------------------

_DEEP = "\x00\ufdd0deep:"
_HUGE = "\x00\ufdd0huge:"

#: strings with lone surrogates, control characters and everything else
texts = st.text(st.characters(codec=None, categories=None), max_size=12)
#: a few ids shared by everything, so duplicates, collisions and cycles are common
pool_ids = st.sampled_from(["a", "b", "c", "d", "1", "\ud800", "x\udfff"])
numeric_ids = st.sampled_from([0, 1, -1, 10**400, 2**63])
huge_ints = st.one_of(st.integers(min_value=-(10**420), max_value=10**420),
                      st.sampled_from([2**53, 2**53 + 1, -(2**63), 10**308, 10**309]))
markers = st.one_of(st.integers(33, 3000).map(lambda n: f"{_DEEP}{n}"),
                    st.integers(4301, 6000).map(lambda n: f"{_HUGE}{n}"))
floats = st.floats(allow_nan=True, allow_infinity=True)
scalars = st.one_of(st.none(), st.booleans(), st.integers(), huge_ints, floats, texts,
                    markers)
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(texts, inner, max_size=3)), max_leaves=8)


def _stamp(when: datetime, offset_minutes: int, style: int) -> str:
    tz = timezone(timedelta(minutes=offset_minutes))
    try:
        local = when.replace(tzinfo=UTC).astimezone(tz)
    except OverflowError:
        local = when.replace(tzinfo=tz)
    text = local.isoformat()
    return (text.replace("+00:00", "Z") if style == 0 else
            text[:19] if style == 1 else text)


edge_times = st.builds(_stamp, st.datetimes(min_value=datetime(1, 1, 1),
                                            max_value=datetime(9999, 12, 31, 23, 59, 59)),
                       st.integers(-14 * 60, 14 * 60), st.integers(0, 2))
fixed_edges = st.sampled_from(["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59.999999-14:00",
                               "1677-09-21T00:12:43Z", "2262-04-11T23:47:17Z",
                               "1700-01-01T00:00:00Z", "2199-12-31T23:59:59.999999Z",
                               "2026-02-30T00:00:00Z", "yesterday", ""])
times = st.one_of(edge_times, fixed_edges, json_values)
any_id = st.one_of(pool_ids, numeric_ids, json_values)
kinds = st.sampled_from(["updates", "extends", "derives", "replaces", ""])


def _maybe(fields: dict[str, st.SearchStrategy]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects with any subset of ``fields`` and the odd unknown key."""
    return st.fixed_dictionaries({}, optional=fields).flatmap(
        lambda obj: st.dictionaries(texts, json_values, max_size=1).map(
            lambda extra: {**extra, **obj}))


hostile_memories = _maybe({
    "id": any_id, "memory": st.one_of(texts, json_values), "content": json_values,
    "spaceId": any_id, "spaceContainerTag": any_id, "containerTag": any_id,
    "version": st.one_of(huge_ints, floats, json_values), "isLatest": json_values,
    "isForgotten": json_values, "isStatic": json_values, "parentMemoryId": any_id,
    "rootMemoryId": any_id,
    "memoryRelations": st.one_of(st.dictionaries(st.one_of(pool_ids, texts),
                                                 st.one_of(kinds, json_values), max_size=3),
                                 json_values),
    "forgetAfter": times, "forgetReason": json_values, "createdAt": times,
    "updatedAt": times,
})
hostile_documents = _maybe({
    "id": any_id, "customId": any_id, "title": json_values, "summary": json_values,
    "url": json_values, "source": json_values, "type": json_values,
    "documentType": json_values, "status": json_values, "metadata": json_values,
    "createdAt": times, "updatedAt": times, "content": json_values,
    "memoryEntries": st.one_of(st.lists(st.one_of(hostile_memories, json_values),
                                        max_size=4), json_values),
    "memories": st.lists(hostile_memories, max_size=2),
})
provenance = st.lists(st.one_of(_maybe({k: json_values for k in (
    "source_id", "source_span", "extractor", "client_name", "session_id")}), json_values),
    max_size=2)
hostile_entities = _maybe({
    "id": any_id, "name": json_values, "type": json_values, "memory_type": json_values,
    "attributes": json_values, "aliases": st.one_of(st.lists(json_values, max_size=3),
                                                    json_values),
    "provenance": st.one_of(provenance, json_values), "created_at": times,
    "updated_at": times,
})
hostile_relations = _maybe({
    "id": any_id, "subject_id": any_id, "object_id": any_id, "predicate": json_values,
    "confidence": st.one_of(huge_ints, floats, json_values), "memory_type": json_values,
    "provenance": st.one_of(provenance, json_values), "created_at": times,
    "updated_at": times, "last_retrieved_at": times,
    "mention_count": st.one_of(huge_ints, json_values), "valid_from": times,
})

# -- well-formed records (unique ids no hostile record can take) -------------------------

good_times = st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2100, 1, 1),
                          timezones=st.just(UTC)).map(lambda t: t.isoformat())


@st.composite
def good_documents(draw: st.DrawFn, n: int, tag: str) -> dict[str, Any]:
    """A well-formed document ``good-doc-<tag>n`` with well-formed memories."""
    count = draw(st.integers(0, 3))
    memories = []
    for i in range(count):
        mem: dict[str, Any] = {"id": f"good-mem-{tag}{n}-{i}", "memory": draw(texts),
                               "createdAt": draw(good_times), "version": i + 1,
                               "isLatest": i == count - 1}
        if i:
            mem["parentMemoryId"] = f"good-mem-{tag}{n}-{i - 1}"
        if draw(st.booleans()):
            mem["forgetAfter"] = draw(good_times)
        memories.append(mem)
    return {"id": f"good-doc-{tag}{n}", "title": draw(texts), "type": "text",
            "createdAt": draw(good_times), "memoryEntries": memories}


@st.composite
def feed_inputs(draw: st.DrawFn, tag: str = "") -> tuple[Any, set[str]]:
    """A feed page mixing good and hostile documents; the ids that must survive (``tag``
    keeps the good ids of several files apart)."""
    good = [draw(good_documents(n, tag)) for n in range(draw(st.integers(0, 3)))]
    hostile = draw(st.lists(st.one_of(hostile_documents, json_values), max_size=4))
    docs = draw(st.permutations(good + hostile))
    survivors = {d["id"] for d in good} | {m["id"] for d in good for m in d["memoryEntries"]}
    shape = draw(st.sampled_from(["page", "bare"]))
    return ({"documents": docs, "pagination": draw(json_values)} if shape == "page"
            else docs), survivors


@st.composite
def passport_inputs(draw: st.DrawFn, tag: str = "") -> tuple[Any, set[str]]:
    """A passport (maybe wrapped in ``{"result": …}``) mixing good and hostile facts."""
    good = [{"id": f"good-ent-{tag}{i}", "name": draw(texts), "type": "person",
             "created_at": draw(good_times)} for i in range(draw(st.integers(0, 3)))]
    rels = [{"id": f"good-rel-{tag}{i}", "subject_id": good[i]["id"], "object_id": good[0]["id"],
             "predicate": draw(texts), "confidence": draw(st.floats(0, 1))}
            for i in range(len(good))]
    entities = draw(st.permutations(good + draw(st.lists(st.one_of(
        hostile_entities, json_values), max_size=3))))
    relations = draw(st.permutations(rels + draw(st.lists(st.one_of(
        hostile_relations, json_values), max_size=3))))
    passport = {"entities": entities, "relations": relations}
    if draw(st.booleans()):
        return {"result": _text(passport)}, {e["id"] for e in good}
    return passport, {e["id"] for e in good}


def _expand(match: re.Match[str]) -> str:
    kind, n = match.group(1), max(1, int(match.group(2)))
    return "[" * n + "]" * n if kind == "deep" else "-" * (n % 2) + "9" * n


#: a marker in a value position (not a key: no colon follows)
_MARKER = re.compile(r'"\\u0000\\ufdd0(deep|huge):(\d+)"(?!\s*:)')


def _text(value: Any) -> str:
    """JSON text of ``value`` (surrogates as escapes) with markers expanded."""
    text = json.dumps(value)  # ensure_ascii: lone surrogates become \\udXXX escapes
    return _MARKER.sub(_expand, text)


# -- the property ---------------------------------------------------------------------

nows = st.one_of(st.datetimes(timezones=st.just(UTC)),
                 st.sampled_from([EARLIEST, LATEST - timedelta(microseconds=1)]))


def _inspect(path: Path, now: datetime) -> tuple[int, bytes, str]:
    """``memscope inspect`` in-process: exit code, stdout bytes, stderr text."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["inspect", str(path), "--now", now.isoformat()])
    out.flush()
    return code, out.buffer.getvalue(), err.getvalue()  # type: ignore[attr-defined]


def _whole_path(inputs: list[tuple[Any, set[str]]], now: datetime) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths = []
        for i, (value, _) in enumerate(inputs):
            path = folder / f"in{i}.json"
            path.write_text(_text(value), "ascii")
            paths.append(path)
        survivors = set().union(*(s for _, s in inputs))
        try:
            loaded = FileSource(paths).load()
        except FileError as exc:
            assert "\n" not in str(exc)
            code, _, err = _inspect(paths[0], now)
            assert code == 2 and len(err.strip().splitlines()) == 1
            assert not survivors  # a file with well-formed records is never refused
            return
        ds = loaded.dataset
        assert survivors <= set(ds.documents) | set(ds.memories) | set(ds.entities)
        loaded.summary()
        every_stage(ds, now, folder, charts=False)
        for path in paths:
            code, out, err = _inspect(path, now)
            if EARLIEST <= now < LATEST:
                assert code == 0, err
                json.loads(out.decode("utf-8"))
            else:
                assert code == 2 and "outside the supported range" in err


@settings(PROFILE)
@given(st.one_of(feed_inputs(), passport_inputs()), nows)
def test_any_feed_or_passport_goes_the_whole_path(given_input, now):
    RAN["single input"] = RAN.get("single input", 0) + 1
    _whole_path([given_input], now)


@settings(PROFILE)
@given(st.tuples(*(st.one_of(feed_inputs(f"f{i}-"), passport_inputs(f"f{i}-"))
                   for i in range(3))), nows)
def test_several_files_mixed_go_the_whole_path(given_inputs, now):
    RAN["several inputs"] = RAN.get("several inputs", 0) + 1
    _whole_path(given_inputs, now)


@pytest.fixture(scope="module", autouse=True)
def _say_how_many_ran(request: pytest.FixtureRequest):
    yield
    plugins = request.config.pluginmanager
    reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin(
        "capturemanager")
    if reporter is None or capture is None or not RAN:
        return
    counts = ", ".join(f"{k}: {v}" for k, v in RAN.items())
    with capture.global_and_fixture_disabled():
        reporter.write_line(f"\nHypothesis examples run ({'fuzz' if FUZZ else 'normal'} "
                            f"profile): {sum(RAN.values())} ({counts})")
