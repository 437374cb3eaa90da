"""A widget bound to a session slot tells the browser the slot's value on every run.

The browser draws a widget whose element carries no value at the widget's own default,
and sends that default back on the next click as if the user had chosen it. A run cut
short by a click can leave the server holding a widget the browser dropped; the next run
then sent the element without its value and the sidebar's filters came back at their
defaults (no relation kinds, superseded and forgotten unticked: a graph with no edges). So
every run carries the value: these tests read it off the element the browser receives.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _app() -> None:
    import streamlit as st

    from components.sections.sidebar import F_EDGE_KINDS, F_SUPERSEDED
    from components.state import session

    if not F_EDGE_KINDS.is_set():  # as the sidebar does: all kinds to start with
        F_EDGE_KINDS.set(["updates", "extends", "derives"])
    if not st.session_state.get("hide"):
        st.checkbox("Show superseded versions", **session.bind(F_SUPERSEDED))
        st.multiselect("Relation kinds", ["updates", "extends", "derives"],
                       **session.bind(F_EDGE_KINDS))
    st.write(f"slot={F_SUPERSEDED.get()!r} kinds={F_EDGE_KINDS.get()!r}")


def _sent(at: AppTest) -> tuple[bool, bool, bool, list[str]]:
    """What the browser receives: (box carries a value, its value, the kinds carry a
    value, the kinds)."""
    box = at.checkbox[0].proto
    kinds = at.multiselect[0].proto
    return box.set_value, box.value, kinds.set_value, list(kinds.raw_values)


def test_every_run_sends_the_slots_value_not_only_the_first() -> None:
    at = AppTest.from_function(_app)
    at.run()
    assert not at.exception
    assert _sent(at) == (True, True, True, ["updates", "extends", "derives"])
    at.run()  # a plain rerun, nothing changed: the value is sent again
    assert _sent(at) == (True, True, True, ["updates", "extends", "derives"])


def test_a_users_change_is_kept_and_sent_after_the_widget_was_not_drawn() -> None:
    at = AppTest.from_function(_app)
    at.run()
    at.checkbox[0].uncheck().run()
    assert at.session_state["f_superseded"] is False
    at.session_state["hide"] = True
    at.run()  # a run that does not draw the filters (no data loaded yet)
    assert not at.checkbox
    at.session_state["hide"] = False
    at.run()
    box = at.checkbox[0].proto
    assert (box.set_value, box.value) == (True, False)
    assert "slot=False" in at.markdown[0].value
