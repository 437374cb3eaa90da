"""Ledger: every destructive action Memscope performed or attempted, with its outcome."""

import streamlit as st

from components import ledger_ui
from components.bootstrap import bootstrap
from memscope.settings import store_path
from memscope.store.store import Store

ctx = bootstrap("Ledger")
st.title("Ledger")
st.caption("Time, source, space, target, the text as it was, reason, outcome and the "
           "service's message for every forget, restore and forget-all.")
ledger_ui.ledger_section(Store(store_path()).ledger(),
                         presenter=bool(getattr(ctx, "presenter", False)))
