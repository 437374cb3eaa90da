"""Connection: choose the source, enter credentials, pick a space, save or open a snapshot."""

import streamlit as st

from components import connect_form
from components.bootstrap import bootstrap
from components.safe import md_escape

ctx = bootstrap("Connection")
st.title("Connection")
connect_form.source_form(ctx)
if ctx.error:
    st.error(md_escape(ctx.error))
connect_form.spaces_picker(ctx)
st.subheader("Snapshot files")
connect_form.save_snapshot(ctx)
connect_form.files_form()
