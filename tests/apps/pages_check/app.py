"""The smallest app with a ``pages/`` folder beside its entry point, run through
``st.navigation`` on every run (tests/test_pages_check.py drives it under AppTest).

The entry point counts its own runs, so a test sees whether a page ran through it or alone
(Streamlit's old multipage mode runs a ``pages/`` script without the entry point)."""

import streamlit as st

st.session_state["entry_runs"] = st.session_state.get("entry_runs", 0) + 1
page = st.navigation([st.Page("pages/a.py", title="A", default=True),
                      st.Page("pages/b.py", title="B")])
page.run()
