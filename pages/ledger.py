"""Ledger: every destructive action Memscope performed or attempted, with its outcome."""

import streamlit as st

from components.sections import ledger
from components.state import context
from components.widgets import nav

nav.through_router()  # never drawn without the router (app.py)
ctx = context.current()
st.title("Ledger")
# the left of the page only: a toast (top right) never covers it
st.columns([3, 2])[0].caption("What was done, when, where, the text as it was, the reason, "
                              "the outcome and the service's message, for every forget, "
                              "restore and forget-all.")
ledger.ledger_section(ctx)
