"""Connection: choose the source, enter credentials, pick a space, save or open a snapshot."""

import streamlit as st

from components.sections import connection_form, judge_form, migration
from components.state import context
from components.widgets import nav
from components.widgets.safe import md_escape

nav.through_router()  # never drawn without the router (app.py)
ctx = context.current()
st.title("Connection")
connection_form.source_form(ctx)
if ctx.error:
    st.error(md_escape(ctx.error))
connection_form.spaces_picker(ctx)
migration.section(ctx)
st.subheader("Snapshot files")
connection_form.save_snapshot(ctx)
connection_form.files_form()
judge_form.judge_form()
