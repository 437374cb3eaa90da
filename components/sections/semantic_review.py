"""The Audit page's review queue: what the semantic audit suspects, one item at a time.

Suspected contradictions, suspicious updates and near-duplicate groups
(:func:`memscope.meaning.audit.semantic_findings`, computed once per load revision by the
process's pipeline, never on a click) are shown side by side — texts, dates, documents,
spaces, a word diff, why each was flagged and a score — with these actions:

- **Not a conflict**: ledgered as ``reviewed`` under the finding's key (kind, ids and a
  digest of both texts), so the item stays hidden until either memory changes, for
  everyone using the same source;
- **Forget the older** / **Forget this one**: the normal forget
  (:mod:`components.sections.forget`: its impact preview, its confirmation, its ledger
  row);
- **Open both in the graph**: selects the first memory, marks every member and opens the
  explorer, which draws the suspected-contradiction edge between them.

Presenter mode masks it all: the texts and document titles come from the masked data,
spaces are named by their pseudonyms and the reason is a sentence of the finding's kind
(the audit's own reason quotes the words that differ).
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable, Sequence

import streamlit as st

from components.sections import forget, judge_form
from components.state import session
from components.state.context import AppContext, flash
from components.state.pipeline import pipeline
from components.state.session import Family, slot
from components.widgets import nav
from components.widgets.safe import marked_side, md_escape
from memscope.graph.analysis import Analysis
from memscope.lenses.diff import word_diff
from memscope.meaning.findings import SemanticFinding
from memscope.meaning.judge import JudgeConfig
from memscope.records.text import CELL_MAX, FULL_MAX, LINE_MAX, clip, counted
from memscope.reports.judging import (
    Candidate,
    JudgeClient,
    JudgeFailed,
    Verdict,
    candidates,
    fingerprint,
    host,
    is_local,
    verdict_key,
    verdicts_for,
)
from memscope.sources import Source
from memscope.storage import LOCAL_ACTOR, Storage, StorageError

# -- the session slots this module owns (components.state.session collects them) --
SEMANTIC_REVIEW_HELD = slot("semantic_review_held", __name__,
                            "(source identity, finding keys) reviewed as not a conflict: "
                            "read from the ledger once, kept in step by the review.")
SEMANTIC_REVIEW_KEYS = Family("semantic_review_", __name__,
                              "The review queue's buttons (not a conflict, forget, open), "
                              "per action and finding key.")
JUDGE_VERDICTS = slot("judge_verdicts", __name__,
                      "A model's verdicts by pair digest and model "
                      "(memscope.reports.judging.verdict_key → Verdict).", dict)
JUDGE_FOUND = slot("judge_found", __name__,
                   "Near misses a model was asked about, by finding key (SemanticFinding).",
                   dict)
JUDGE_ASK = slot("judge_ask", __name__,
                 "The 'Check these with a model' confirmation is open (True) or not.")
JUDGE_RUN = slot("judge_run", __name__,
                 "The model check in progress: its configuration, the pairs left, counts.")
SEMANTIC_REVIEW_MARKS = slot("semantic_review_marks", __name__,
                             "(source key, memory ids) 'Open both in the graph' asked the "
                             "explorer to mark.")
JUDGE_PRESENTER_OK = slot("judge_presenter_ok", __name__,
                          "The presenter-mode confirmation checkbox (widget key).")

#: the ledger action of a "Not a conflict" review; its ``target_id`` is the finding's key
REVIEWED = "reviewed"
#: items drawn at once (the rest are counted)
MAX_ITEMS = 30
KIND_TITLES = {"suspected_contradiction": "Suspected contradiction",
               "suspicious_update": "Suspicious update",
               "near_duplicate": "Near-duplicates"}
#: the reason presenter mode shows (the audit's quotes the data)
MASKED_REASONS = {
    "suspected_contradiction": "Both are about the same subject and attribute but cannot "
                               "both hold, and no update links them.",
    "suspicious_update": "The newer version shares no subject or attribute with the one it "
                         "replaced, so the service may have retired a fact by mistake.",
    "near_duplicate": "These memories state the same fact in several documents.",
}
#: how each kind was found: the rule, named in words
FOUND_BY = {
    "suspected_contradiction": "the contradiction rule (one subject and attribute, two "
                               "values that cannot both hold, no update between them)",
    "suspicious_update": "the update rule (the new version keeps to no subject, attribute or "
                         "value of the one it replaced)",
    "near_duplicate": "the near-duplicate rule (the same fact, in the same names and numbers, "
                      "in several documents)",
}
#: said once above the queue: what the rules cannot see
BLIND_SPOT = ("The rules read what each sentence claims, word by word; they cannot know what "
              "the world knows — that someone who “doesn't play any instrument” would not "
              "“play cello in an orchestra”. A model can check those.")
#: the same in presenter mode (its example could read as the audience's data)
BLIND_SPOT_MASKED = ("The rules read what each sentence claims, word by word; they cannot "
                     "know what the world knows. A model can check those.")
#: the ledger action of a model's verdict; its ``target_id`` is the pair's key and the model
JUDGED = "judged"
#: what the page says when the audit itself fails (the rest of the page still works)
FAILED = ("The review queue is unavailable: the semantic audit failed on this data (the "
          "details are in the server's log).")
log = logging.getLogger("memscope.app")


# -- the ledger ----------------------------------------------------------------------------


def reviewed_keys(storage: Storage, scope: str) -> set[str]:
    """The finding keys marked "not a conflict" under ``scope`` (a source identity)."""
    return {str(e.target_id) for e in storage.ledger(scope=scope)
            if e.action == REVIEWED and e.outcome == "ok" and e.target_id}


def dismissed(ctx: AppContext) -> frozenset[str]:
    """The keys this source's findings were reviewed under as "not a conflict" (so the
    graph draws no ``contradicts`` edge for them): read from the ledger once per session
    and source, then kept in step by the review itself and by the Audit page."""
    if ctx.source is None:
        return frozenset()
    identity = ctx.source.identity()
    held = SEMANTIC_REVIEW_HELD.get()
    if not held or held[0] != identity:
        try:
            held = (identity, frozenset(reviewed_keys(ctx.ledger, identity)))
        except StorageError:  # the Audit page says so; the graph draws every edge
            return frozenset()
        SEMANTIC_REVIEW_HELD.set(held)
    return held[1]


def not_a_conflict(storage: Storage, source: Source, finding: SemanticFinding, *,
                   actor: str = LOCAL_ACTOR, viewer: bool = False) -> str:
    """Ledger ``finding`` as reviewed ("not a conflict") under the source's identity;
    returns the sentence to show, naming the memories by their text, not their ids. A
    viewer is refused (nothing is written); a ledger that cannot be written says so in one
    sentence."""
    if viewer:
        return f"Nothing was recorded: {actor} may view these memories but not review them."
    ids = " and ".join(finding.nodes)
    try:
        storage.record_ledger(action=REVIEWED, source=source.kind, outcome="ok",
                              scope=source.identity(), actor=actor, space=finding.space,
                              target_id=finding.key, snapshot=" ⟷ ".join(finding.texts),
                              message=f"Reviewed: not a conflict ({ids}).")
    except StorageError as exc:
        return f"Nothing was recorded: {exc}"
    said = " and ".join(f"“{clip(text, 70)}”" for text in finding.texts) or "these memories"
    return f"Marked as not a conflict: {said} — it stays hidden until either memory changes."


def record_verdict(storage: Storage, source: Source, finding: SemanticFinding,
                   verdict: Verdict, *, actor: str = LOCAL_ACTOR) -> None:
    """Ledger a model's verdict on ``finding`` (``judged``, under its pair and model)."""
    said = f"{verdict.label[0].upper()}{verdict.label[1:]}"
    storage.record_ledger(action=JUDGED, source=source.kind, outcome="ok",
                          scope=source.identity(), actor=actor, space=finding.space,
                          target_id=verdict_key(finding, verdict.model),
                          snapshot=" ⟷ ".join(finding.texts), reason=verdict.reason,
                          message=said + (f": {verdict.reason}" if verdict.reason else "."))


def recorded_verdicts(storage: Storage, scope: str) -> dict[str, Verdict]:
    """The models' verdicts the ledger holds under ``scope``, by pair and model (the last
    of each)."""
    out: dict[str, Verdict] = {}
    rows = sorted((e for e in storage.ledger(scope=scope)
                   if e.action == JUDGED and e.outcome == "ok" and e.target_id
                   and "|" in e.target_id), key=lambda e: (e.time, e.id or 0))
    for e in rows:
        out[str(e.target_id)] = Verdict(e.message.startswith("Confirmed"), e.reason or "",
                                        str(e.target_id).split("|", 1)[1])
    return out


# -- what the queue holds ------------------------------------------------------------------


def queue(findings: Iterable[SemanticFinding], reviewed: Collection[str],
          visible: Collection[str] | None, present: Collection[str]) -> list[SemanticFinding]:
    """The findings to review: not reviewed (by key), every memory still loaded
    (``present``) and passing the sidebar's filters (``visible``; ``None``: no filter).
    Contradictions first, then suspicious updates, then near-duplicates; surest first."""
    order = {k: i for i, k in enumerate(KIND_TITLES)}
    kept = [f for f in findings if f.key not in reviewed
            and all(n in present for n in f.nodes)
            and (visible is None or all(n in visible for n in f.nodes))]
    return sorted(kept, key=lambda f: (order.get(f.kind, len(order)), -f.score, f.nodes))


def marked_ids(ctx: AppContext, analysis: Analysis) -> set[str]:
    """The memories "Open both in the graph" asked the explorer to highlight."""
    marks = SEMANTIC_REVIEW_MARKS.get()
    if not marks or marks[0] != ctx.key:
        return set()
    return {i for i in marks[1] if i in analysis.dataset.memories}


# -- the callbacks -------------------------------------------------------------------------


def _review(ctx: AppContext, finding: SemanticFinding) -> None:
    if ctx.source is None:
        return
    message = not_a_conflict(ctx.ledger, ctx.source, finding, **ctx.acting())
    flash(message, "success" if message.startswith("Marked") else "error")
    SEMANTIC_REVIEW_HELD.clear()  # read again from the ledger, which now holds this review


def _open(ctx: AppContext, finding: SemanticFinding) -> None:
    session.select(finding.nodes[0])
    SEMANTIC_REVIEW_MARKS.set((ctx.key, tuple(finding.nodes), finding.kind))
    flash(opened_sentence(finding.kind, len(finding.nodes)), "info")


def opened_sentence(kind: str, members: int) -> str:
    """What the explorer says about memories opened from the queue."""
    title = KIND_TITLES.get(kind, "A finding").lower()
    what = "both memories" if members == 2 else f"its {members} memories"
    return (f"Opened from the review queue: a {title}; {what} are marked in the graph, the "
            "first selected.")


def opened_from(ctx: AppContext, node_id: str | None) -> str | None:
    """For a memory panel: the finding that brought the person there (one sentence), when
    "Open both in the graph" marked ``node_id``; else ``None``."""
    marks = SEMANTIC_REVIEW_MARKS.get()
    if not marks or marks[0] != ctx.key or node_id not in marks[1]:
        return None
    return opened_sentence(marks[2] if len(marks) > 2 else "", len(marks[1]))


# -- drawing -------------------------------------------------------------------------------


def _space(ctx: AppContext, space: str | None) -> str:
    if space is None:
        return "no space"
    return clip(ctx.space_label(space), 60)


def _text(ctx: AppContext, analysis: Analysis, finding: SemanticFinding, i: int) -> str:
    """The text shown for member ``i``: masked in presenter mode (from the masked data)."""
    if ctx.presenter:
        mem = analysis.dataset.memories.get(finding.nodes[i])
        return mem.memory if mem is not None else "(masked)"
    return finding.texts[i] if i < len(finding.texts) else ""


def _member(ctx: AppContext, analysis: Analysis, finding: SemanticFinding, i: int,
            body: str, *, markdown: bool) -> None:
    """One side of an item: its text, date, documents, space, id, its forget button."""
    mem_id = finding.nodes[i]
    ds = analysis.dataset
    mem = ds.memories.get(mem_id)
    with st.container(border=True):
        if markdown:
            st.markdown(body)
        else:
            st.text(body)
        when = f"{mem.created_at:%Y-%m-%d %H:%M} UTC" if mem and mem.created_at else "no date"
        titles = [ds.documents[d].title or d for d in ds.memory_documents.get(mem_id, ())
                  if d in ds.documents]
        docs = "; ".join(clip(t, 60) for t in titles[:3]) or "no document"
        if len(titles) > 3:
            docs += f" and {len(titles) - 3} more"
        st.caption(md_escape(f"{clip(mem_id, 80)} · created {when} · "
                             f"{_space(ctx, finding.space)} · {docs}"))
        _forget_button(ctx, finding, mem_id, "Forget this one", f"this{i}")


def _forget_button(ctx: AppContext, finding: SemanticFinding, mem_id: str, label: str,
                   tag: str) -> None:
    """The normal forget (preview and confirmation) for ``mem_id``, where allowed."""
    if ctx.source is None or not ctx.user.may_change:
        return
    if ctx.source.capabilities.reason("forget"):
        return  # said once, above the queue
    st.button(label, key=SEMANTIC_REVIEW_KEYS.key(f"forget-{tag}-{finding.key}"),
              on_click=forget.request, args=(mem_id,),
              help="Opens the usual confirmation, which shows what else this touches.")


def _how_found(ctx: AppContext, finding: SemanticFinding, near_miss: bool,
               verdicts: Sequence[Verdict]) -> None:
    """How the item was found (a rule, named; a model) and each model's verdict."""
    if near_miss:
        st.caption("Found by a model: no rule flagged these two, but they are about the same "
                   "subject and close in meaning, and a model was asked.")
    else:
        st.caption(md_escape(f"Found by {FOUND_BY.get(finding.kind, 'a rule')}."))
    for v in verdicts:
        icon = ":material/check_circle:" if v.conflict else ":material/cancel:"
        reason = "" if ctx.presenter or not v.reason else f" — {v.reason}"
        st.markdown(f"{icon} **{md_escape(v.label.capitalize())}**{md_escape(reason)}")


def _item(ctx: AppContext, analysis: Analysis, finding: SemanticFinding, *,
          near_miss: bool = False, verdicts: Sequence[Verdict] = ()) -> None:
    title = "Possible contradiction" if near_miss else KIND_TITLES.get(finding.kind,
                                                                       finding.kind)
    st.markdown(f"**{md_escape(title)}** · score {finding.score:.2f} · "
                f"{md_escape(_space(ctx, finding.space))}")
    st.caption(md_escape(MASKED_REASONS.get(finding.kind, "")
                         if ctx.presenter else clip(finding.reason, 2 * LINE_MAX)))
    _how_found(ctx, finding, near_miss, verdicts)
    texts = [_text(ctx, analysis, finding, i) for i in range(len(finding.nodes))]
    pair = len(texts) == 2
    diffable = pair and not ctx.presenter and max(map(len, texts)) <= FULL_MAX
    if diffable:
        segments = word_diff(texts[0], texts[1])
        bodies = [marked_side(segments, "delete", "blue"), marked_side(segments, "insert", "blue")]
    else:
        bodies = [clip(t, CELL_MAX) for t in texts]
    columns = st.columns(min(len(texts), 3))
    for i in range(len(texts)):
        with columns[i % len(columns)]:
            _member(ctx, analysis, finding, i, bodies[i], markdown=diffable)
    actions = st.columns(3)
    if ctx.source is not None and ctx.user.may_change and finding.kind != "near_duplicate":
        actions[0].button("Not a conflict", key=SEMANTIC_REVIEW_KEYS.key(f"ok-{finding.key}"),
                          on_click=_review, args=(ctx, finding),
                          help="Written to the ledger; hidden until either memory changes.")
    if pair and finding.kind == "suspected_contradiction":
        with actions[1]:
            _forget_button(ctx, finding, finding.nodes[0], "Forget the older", "older")
    label = "Open both in the graph" if pair else "Open them in the graph"
    if actions[2].button(label, key=SEMANTIC_REVIEW_KEYS.key(f"open-{finding.key}"),
                         on_click=_open, args=(ctx, finding)):
        st.switch_page(nav.EXPLORER, query_params={"node": finding.nodes[0]})


# -- checking with a model -------------------------------------------------------------------


def _kept_verdicts(ctx: AppContext) -> dict[str, Verdict]:
    """This session's verdicts, with those the ledger holds for this source."""
    kept: dict[str, Verdict] = JUDGE_VERDICTS.setdefault()
    if ctx.source is not None:
        try:
            for key, v in recorded_verdicts(ctx.ledger, ctx.source.identity()).items():
                kept.setdefault(key, v)
        except StorageError:
            pass  # the reviews' warning says the ledger cannot be read
    return kept


def _ask_open() -> None:
    JUDGE_ASK.set(True)


def _ask_close() -> None:
    JUDGE_ASK.clear()
    JUDGE_PRESENTER_OK.clear()


def _start(config: JudgeConfig, pairs: list[Candidate]) -> None:
    JUDGE_ASK.clear()
    JUDGE_PRESENTER_OK.clear()
    found: dict[str, SemanticFinding] = JUDGE_FOUND.setdefault()
    for c in pairs:
        if c.near_miss:
            found[c.finding.key] = c.finding
    JUDGE_RUN.set({"config": config, "fingerprint": fingerprint(config),
                   "todo": list(pairs), "total": len(pairs), "done": 0,
                   "confirmed": 0, "rejected": 0, "failed": 0, "problem": ""})


def _stop() -> None:
    run = JUDGE_RUN.get()
    JUDGE_RUN.clear()
    if run:
        flash(_summary(run, stopped=True), "info")


def _summary(run: dict, *, stopped: bool = False) -> str:
    model = run["config"].model
    said = (f"{'Stopped' if stopped else 'Done'}: {model} checked {run['done']} of "
            f"{counted(run['total'], 'pair')} — {run['confirmed']} confirmed, "
            f"{run['rejected']} rejected")
    if run["failed"]:
        said += f", {run['failed']} not checked ({run['problem']})"
    return said + "."


def _run(ctx: AppContext, run: dict) -> None:
    """Send the pairs left, one at a time, keeping and ledgering each verdict as it comes
    (Stop, a rerun, keeps what came)."""
    config: JudgeConfig = run["config"]
    kept: dict[str, Verdict] = JUDGE_VERDICTS.setdefault()
    with st.container(border=True, key="judge-run"):
        st.markdown(md_escape(f"Checking with {config.model} at {host(config)}…"))
        bar = st.progress(run["done"] / max(run["total"], 1),
                          text=f"{run['done']} of {counted(run['total'], 'pair')} checked")
        st.button("Stop", key="judge-stop", on_click=_stop)
        with JudgeClient(config) as client:
            while run["todo"]:
                candidate: Candidate = run["todo"][0]
                try:
                    verdict = client.check(candidate.finding)
                except JudgeFailed as exc:
                    run["failed"] += 1
                    run["problem"] = str(exc).rstrip(".")
                    log.info("the model could not check a pair: %s", exc)
                else:
                    kept[verdict_key(candidate.finding, verdict.model)] = verdict
                    run["confirmed" if verdict.conflict else "rejected"] += 1
                    if ctx.source is not None:
                        try:
                            record_verdict(ctx.ledger, ctx.source, candidate.finding,
                                           verdict, actor=ctx.user.email)
                        except StorageError as exc:
                            run["problem"] = f"a verdict could not be ledgered: {exc}"
                run["todo"].pop(0)
                run["done"] += 1
                bar.progress(run["done"] / max(run["total"], 1),
                             text=f"{run['done']} of {counted(run['total'], 'pair')} checked")
    JUDGE_RUN.clear()
    flash(_summary(run), "success" if not run["failed"] else "info")
    st.rerun()


def _check_section(ctx: AppContext, analysis: Analysis,
                   findings: Sequence[SemanticFinding]) -> None:
    """"Check these with a model": where to, how many, the warning, the run."""
    run = JUDGE_RUN.get()
    config, problem = judge_form.settings()
    if run and (config is None or run["fingerprint"] != fingerprint(config)):
        JUDGE_RUN.clear()  # the model changed under it: start again
        run = None
    if run:
        _run(ctx, run)
        return
    if problem:
        st.caption(md_escape(problem))
        return
    if config is None:
        st.caption("To have a model check these, set one on the Connection page (any "
                   "OpenAI-compatible chat endpoint, local or hosted).")
        return
    if not JUDGE_ASK.get():
        st.button("Check these with a model", key="judge-open", on_click=_ask_open,
                  icon=":material/psychology:",
                  help=md_escape(f"{config.model} at {host(config)}; asks before sending."))
        return
    pairs = candidates(ctx.current or analysis, findings)  # real texts, never the masked
    misses = sum(1 for c in pairs if c.near_miss)
    with st.container(border=True, key="judge-confirm"):
        if not pairs:
            st.info("There is nothing to check: no suspected contradiction and no near miss.")
            st.button("Close", key="judge-close", on_click=_ask_close)
            return
        leaves = ("It stays on this machine (a local server)." if is_local(config) else
                  "The memories' text leaves this machine.")
        st.warning(md_escape(
            f"Send {counted(len(pairs), 'pair')} of memories ({len(pairs) - misses} the rules "
            f"flagged, {misses} near {'miss' if misses == 1 else 'misses'}) to {config.model} "
            f"at {host(config)}? Each pair's two texts are sent as they are. {leaves} "
            "Each verdict is written to the ledger."))
        allowed = True
        if ctx.presenter:
            st.caption("Presenter mode is on: the audience may see the texts being sent.")
            allowed = st.checkbox("Send memory text while presenting",
                                  key=JUDGE_PRESENTER_OK.name)
        with st.container(horizontal=True):
            st.button("Send", type="primary", key="judge-send", on_click=_start,
                      args=(config, pairs), disabled=not allowed)
            st.button("Cancel", key="judge-cancel", on_click=_ask_close)
        if not allowed:
            st.caption("Refused while presenting unless you tick the box above.")


def review_section(ctx: AppContext, visible: Collection[str] | None) -> None:
    """The review queue: the semantic audit of today's data, less what was reviewed."""
    if ctx.request is None or ctx.current is None:
        st.info("No data is loaded.")
        return
    p = pipeline()
    try:
        if p.semantic(ctx.request, wait=False) is None:
            with st.spinner("Reading what the memories claim…"):
                p.semantic(ctx.request)
        findings = p.semantic(ctx.request) or []
    except Exception:  # one sentence here; the integrity findings and chains still show
        log.exception("the semantic audit failed")
        st.warning(FAILED)
        return
    analysis = ctx.analysis or ctx.current
    reviewed: set[str] = set()
    if ctx.source is not None:
        try:
            reviewed = reviewed_keys(ctx.ledger, ctx.source.identity())
            SEMANTIC_REVIEW_HELD.set((ctx.source.identity(), frozenset(reviewed)))
        except StorageError as exc:
            st.warning(md_escape(f"Reviews could not be read from the ledger: {exc}"))
    found = JUDGE_FOUND.get()
    kept = _kept_verdicts(ctx)
    misses = [f for f in found.values()
              if any(v.conflict for v in verdicts_for(kept, f)) and f.key not in
              {x.key for x in findings}]
    items = queue([*findings, *misses], reviewed, visible, ctx.current.dataset.memories)
    missed = {f.key for f in misses}
    hidden = sum(1 for f in findings if f.key in reviewed)
    counts = {k: sum(1 for f in items if f.kind == k) for k in KIND_TITLES}
    st.caption(md_escape(
        f"{counted(counts['suspected_contradiction'], 'suspected contradiction')}, "
        f"{counted(counts['suspicious_update'], 'suspicious update')}, "
        f"{counted(counts['near_duplicate'], 'group')} of near-duplicates to review"
        + (f"; {counted(hidden, 'finding')} reviewed as not a conflict" if hidden else "")
        + (". The audit reads today's data." if ctx.as_of is not None else ".")))
    reason = ctx.source.capabilities.reason("forget") if ctx.source is not None else None
    if reason and items:
        st.caption(f"Forget is unavailable: {md_escape(reason)}")
    st.caption(BLIND_SPOT_MASKED if ctx.presenter else BLIND_SPOT)
    _check_section(ctx, analysis, findings)
    if not items:
        st.info("Nothing to review: no memory contradicts another, and every update "
                "keeps to its subject.")
    for i, finding in enumerate(items[:MAX_ITEMS]):
        if i:
            st.divider()
        with st.container(key=f"review-item-{i}"):
            _item(ctx, analysis, finding, near_miss=finding.key in missed,
                  verdicts=verdicts_for(kept, finding))
    if len(items) > MAX_ITEMS:
        st.caption(f"… and {len(items) - MAX_ITEMS} more: the surest are shown first.")
    forget.dialog(ctx)
