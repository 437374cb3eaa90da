"""Page A: a counter button and a switch to page B."""

import streamlit as st

st.title("Page A")
st.session_state.setdefault("clicks", 0)
if st.button("Count", key="count"):
    st.session_state.clicks += 1
st.write(f"clicks: {st.session_state.clicks}")
if st.button("Go to B", key="to_b"):
    st.switch_page("pages/b.py")
