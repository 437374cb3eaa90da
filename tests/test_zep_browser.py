"""The Zep journey in a real Chromium (issue 34's second "Done when"): the app connects to
the sandbox's Zep API through the environment, the graph loads, the history plays the
contradicted fact's chain on both clocks (on 2 March 2026 the memory still believed the
old fact alone — it learnt the promotion on 4 March —, while what was true that day is
the new fact, the old one no longer true), the fact opens as a two-version chain, its
"Why does it believe this?" trail quotes the episodes each version came from, and an
episode is forgotten with its preview (the facts it takes along, "cannot be undone"),
sent once and ledgered; on the Connection page, Zep's fields and a wrong key refused in
one sentence. Screenshots (light, dark) go to ``test-screenshots/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path

import pytest
from browser_support import assert_loopback_only, chromium, wait_graph, wait_idle
from playback_clocks_support import (
    SAYS,
    UNDATED,
    dashed,
    expected_status,
    legend_nodes,
    pick_clock,
    played_start,
    show_day,
    shown,
    status,
    turn_playback,
)
from pydantic import SecretStr
from sandbox_fixture import deleted, running_sandbox
from streamlit_server import StreamlitServer, free_port, start_streamlit
from test_mem0_browser import (
    MAIN,
    SHOTS,
    both_schemes,
    click_node,
    drawn,
    go,
    no_exception,
    shoot,
)

from components.sections.connection_form import SPACE_LABELS
from memscope.demo.seeding import seed_if_missing
from memscope.lenses.asof import BELIEVED, TRUE
from memscope.records.dataset import Dataset
from memscope.sandbox import Sandbox
from memscope.settings import STORE_FILE
from memscope.sources.zep import ZepConfig, ZepSource
from memscope.store.store import Store

pytestmark = pytest.mark.browser

WHY = "Why does it believe this?"
INTRO = "Alice: I'm a junior engineer at Acme, I live in Porto and I mostly write Python."
PROMOTION = "Alice was promoted to lead the platform team at Acme on 1 March 2026."


@contextmanager
def zep_app(data: Path, sandbox: Sandbox) -> Iterator[StreamlitServer]:
    """``serve.py`` connected to the sandbox's Zep API by the environment."""
    server = start_streamlit("serve.py", free_port(), env={
        "MEMSCOPE_DATA_DIR": str(data), "MEMSCOPE_LOG_LEVEL": "INFO",
        "MEMSCOPE_SOURCE": "zep", "MEMSCOPE_API_KEY": sandbox.zep_key,
        "MEMSCOPE_BASE_URL": sandbox.zep_url, "MEMSCOPE_SPACE": "user:alice"}, timeout=60)
    try:
        yield server
    finally:
        server.stop()


def alice(sandbox: Sandbox) -> Dataset:
    """Alice's graph as the Zep source reads it."""
    src = ZepSource(ZepConfig(api_key=SecretStr(sandbox.zep_key), base_url=sandbox.zep_url,
                              graphs=("user:alice",)))
    try:
        return src.load().dataset
    finally:
        src.close()


def ids(sandbox: Sandbox) -> tuple[str, str, str]:
    """``(older fact, newer fact, onboarding episode)`` of Alice's graph."""
    ds = alice(sandbox)
    by_text = {m.memory: m.id for m in ds.memories.values()}
    intro = next(d.id for d in ds.documents.values()
                 if (d.content or "").startswith("Alice: I'm"))
    return (by_text["Alice is a junior engineer at Acme."],
            by_text["Alice leads the platform team at Acme."], intro)


def test_a_zep_graph_shows_a_two_version_chain_and_forgets_an_episode(tmp_path: Path
                                                                       ) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    data = tmp_path / "data"
    seed_if_missing(data / STORE_FILE)
    urls: list[str] = []
    with running_sandbox(tmp_path / "sandbox", data="synthetic", documents=2) as sandbox, \
            zep_app(data, sandbox) as server, chromium() as browser:
        old, new, intro = ids(sandbox)
        ds = alice(sandbox)
        sandbox.clear_requests()
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("request", lambda r: urls.append(r.url))
        page.goto(server.url)
        wait_idle(page)
        go(page, "Explorer")
        wait_graph(page)
        no_exception(page)
        assert {old, new, intro} <= drawn(page)
        assert sandbox.zep_key not in page.content()
        main = page.locator(MAIN)

        # the history plays the chain on what the memory believed: on 2 March 2026 the old
        # fact alone (the memory learnt the promotion on 4 March) …
        turn_playback(page, True)
        main.get_by_text(SAYS[BELIEVED]).wait_for(timeout=30_000)
        start = played_start(ds, BELIEVED)
        mar2 = date(2026, 3, 2)
        show_day(page, start, mar2)
        believed_mar2 = status(page)
        assert believed_mar2 == expected_status(ds, start, mar2, BELIEVED)
        assert old in shown(page) and new not in shown(page)
        assert not dashed(page, old)  # still believed
        assert legend_nodes(page) == len(shown(page))
        no_exception(page)
        shoot(page, "zep-playback-believed-light.png")
        # … and on what was true: the new fact from 1 March, the old one no longer true;
        # the fact that does not say when it became true is placed, in words
        pick_clock(page, TRUE)
        start = played_start(ds, TRUE)
        assert UNDATED in main.inner_text()
        show_day(page, start, mar2)
        assert status(page) == expected_status(ds, start, mar2, TRUE) != believed_mar2
        assert status(page).startswith("2 Mar 2026, what was true · ")
        assert {old, new} <= shown(page)
        assert dashed(page, old) and not dashed(page, new)
        assert legend_nodes(page) == len(shown(page))
        no_exception(page)
        both_schemes(page, "zep-playback-true")
        pick_clock(page, BELIEVED)
        turn_playback(page, False)
        no_exception(page)

        # the contradicted fact: two versions, the older one retired
        click_node(page, new)
        main.get_by_text("History", exact=True).first.wait_for(timeout=20_000)
        text = main.inner_text()
        assert "Alice is a junior engineer at Acme." in text
        assert main.get_by_role("button", name="v1 · ").count() >= 1
        no_exception(page)
        both_schemes(page, "zep-chain")

        # Why? opens the episode each version came from, its text quoted
        main.get_by_role("button", name=WHY, exact=True).first.click()
        dialog = page.get_by_role("dialog")
        dialog.get_by_text("Where it came from").wait_for(timeout=60_000)
        wait_idle(page, 500)
        said = dialog.inner_text()
        assert PROMOTION in said and INTRO in said
        no_exception(page)
        both_schemes(page, "zep-why")
        page.keyboard.press("Escape")
        dialog.wait_for(state="detached", timeout=30_000)
        wait_idle(page, 500)

        # the episode: forgotten with its preview, sent once, ledgered
        page.goto(f"{server.url}/?space=user%3Aalice&node={intro}")  # the episode, opened
        wait_idle(page, 1000)
        wait_graph(page)
        page.get_by_role("button", name="Forget this episode…").click()
        dialog = page.get_by_role("dialog")
        dialog.get_by_text("2 facts drawn from it alone", exact=False).wait_for(
            timeout=20_000)
        assert "cannot be undone" in dialog.inner_text()
        assert "Nothing else depends on it." not in dialog.inner_text()
        shoot(page, "zep-forget-episode-light.png")
        page.get_by_label("Reason (optional)").fill("wrong onboarding notes")
        dialog.get_by_role("button", name="Forget", exact=True).click()
        wait_idle(page, 1500)
        no_exception(page)
        graph = next(g for g in sandbox.zep.account.graphs.values()
                     if g.record.get("name") == "Alice Moreau")
        sent = deleted(sandbox, f"/zep/api/v4/graphs/{graph.uuid}/episodes/{intro}")
        assert len(sent) == 1 and sent[0].status == 202
        assert intro not in graph.episodes and old not in graph.edges
        rows = [r for r in Store(data / STORE_FILE).ledger() if r.action == "forget"]
        assert [(r.target_id, r.outcome, r.reason) for r in rows] == [
            (intro, "ok", "wrong onboarding notes")]
        page.emulate_media(color_scheme="dark")
        page.wait_for_timeout(800)
        shoot(page, "zep-after-forget-dark.png")
        page.emulate_media(color_scheme="light")

        # the Connection page: Zep's own fields; a wrong key is one sentence
        go(page, "Connection")
        page.get_by_role("radiogroup", name="Source").get_by_text(
            "Zep Cloud — graph API", exact=True).click()
        wait_idle(page, 800)
        page.get_by_label("Base URL (optional; self-hosted URLs allowed)").fill(
            sandbox.zep_url)
        page.get_by_role("textbox", name="API key").fill("z_wrong_key_for_this_test")
        page.get_by_role("textbox", name=SPACE_LABELS["zep"]).fill("user:bob")
        page.get_by_role("button", name="Connect").click()
        wait_idle(page, 2500)
        no_exception(page)
        refusal = page.get_by_text("Zep rejected the API key")
        refusal.first.wait_for(timeout=20_000)
        page.wait_for_timeout(1500)  # any toast has landed
        assert refusal.count() == 1, refusal.all_inner_texts()
        assert "z_wrong_key_for_this_test" not in page.content()
        assert page.get_by_text("Connected to").count() == 0
    assert_loopback_only(urls)
