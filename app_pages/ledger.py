"""Ledger: every destructive action Memscope performed or attempted, with its outcome."""

import streamlit as st

from components.sections import ledger
from components.state import context

ctx = context.current()
st.title("Ledger")
st.caption("Time, source, space, target, the text as it was, reason, outcome and the "
           "service's message for every forget, restore and forget-all.")
ledger.ledger_section(ctx)
