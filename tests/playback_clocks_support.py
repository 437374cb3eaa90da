"""Playing a temporal graph's history on both clocks in a real Chromium (issue 34, item 4):
what the Graphiti and Zep journeys share.

The expected figures come from the as-of lens on the clock played (``as_of`` +
``analyse`` at the end of the day), the played days from
:func:`memscope.view.timeline.build_timeline` on the same data; the page is read off the
playback bar (its status line and ``data-`` attributes) and vis-network's drawn nodes.
"""

from __future__ import annotations

from datetime import date

from browser_support import GRAPH, wait_idle
from playwright.sync_api import Page
from test_mem0_browser import MAIN, sidebar
from test_playback_browser import BAR, SHOWN_IDS, STATUS
from test_playback_legend_browser import _lines

from memscope.graph.analysis import analyse
from memscope.lenses.asof import BELIEVED, TRUE, Clock, as_of
from memscope.records.dataset import Dataset
from memscope.records.time import day_end
from memscope.view.build import build_view
from memscope.view.timeline import build_timeline, day_label, status_line

#: the sidebar's two answers to "Time travel shows"
CLOCK_LABELS = {BELIEVED: "What the memory believed then", TRUE: "What was true then"}
#: the caption under the graph while the history plays on each clock
SAYS = {BELIEVED: "The history plays what the memory believed on each day",
        TRUE: "The history plays what was true on each day"}
UNDATED = ("1 fact does not say when it became true; it appears on the day the memory "
           "learnt it.")


def turn_playback(page: Page, on: bool) -> None:
    """The explorer's "Play the history" toggle, switched to ``on``."""
    bar = page.locator(BAR)
    if bar.is_visible() == on:
        return
    page.locator("label").filter(has_text="Play the history").click()
    wait_idle(page, 800)
    bar.wait_for(state="visible" if on else "hidden", timeout=30_000)


def pick_clock(page: Page, clock: Clock) -> None:
    """The sidebar's clock picked; returns once the caption and the bar follow it."""
    sidebar(page).get_by_role("radiogroup", name="Time travel shows").get_by_text(
        CLOCK_LABELS[clock], exact=True).click()
    wait_idle(page, 800)
    page.locator(f"{BAR}[data-clock='{clock}']").wait_for(timeout=30_000)
    page.locator(MAIN).get_by_text(SAYS[clock]).wait_for(timeout=30_000)


def played_start(ds: Dataset, clock: Clock) -> date:
    """The first played day of ``ds`` on ``clock`` (as the app builds it, judged now)."""
    an = analyse(ds)
    tl = build_timeline(an, build_view(an), clock=clock)
    assert tl is not None
    return date.fromisoformat(tl["start"])


def show_day(page: Page, start: date, day: date) -> None:
    """The slider moved to ``day`` (the playback steps by day from ``start``)."""
    index = (day - start).days
    bar = page.locator(BAR)
    assert bar.locator("[data-action='playback-unit']").input_value() == "day"
    bar.locator("[data-action='playback-slider']").fill(str(index))
    page.locator(f"{BAR}[data-day='{index}']").wait_for(timeout=30_000)


def shown(page: Page) -> set[str]:
    """The node ids vis-network draws now (those not there yet are hidden)."""
    return set(page.locator(GRAPH).evaluate(SHOWN_IDS))


def status(page: Page) -> str:
    """The playback bar's status line."""
    return page.locator(STATUS).inner_text()


def expected_status(ds: Dataset, start: date, day: date, clock: Clock) -> str:
    """The status line the as-of lens gives ``day`` on ``clock``."""
    when = day_end(day)
    past = analyse(as_of(ds, when, clock), now=when)
    mems = past.dataset.memories
    counts = [len(mems), sum(past.state(m) == "superseded" for m in mems),
              sum(past.state(m) == "forgotten" for m in mems)]
    return status_line(day_label(start, (day - start).days), counts, clock)


def legend_nodes(page: Page) -> int:
    """How many nodes the legend's colour lines count on the day shown."""
    return sum(line["count"] for line_id, line in _lines(page).items()
               if line_id.startswith("group:"))


#: whether vis-network draws node ``id`` with a dashed border now (a superseded look)
DASHED = ("(el, id) => { const n = el.__network.body.nodes[id];"
          " return Boolean(n && n.options.shapeProperties.borderDashes); }")


def dashed(page: Page, node_id: str) -> bool:
    """Whether node ``node_id`` is drawn with a dashed border now."""
    return bool(page.locator(GRAPH).evaluate(DASHED, node_id))
