"""Page B: a switch back to page A."""

import streamlit as st

st.title("Page B")
if st.button("Go to A", key="to_a"):
    st.switch_page("pages/a.py")
