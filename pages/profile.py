"""Profile: each space's static and dynamic lines, with the memories they came from."""

import streamlit as st

from components.sections.profile import profile_section
from components.state import context
from components.widgets import nav

nav.through_router()  # never drawn without the router (app.py)
ctx = context.current()
analysis = nav.require(ctx)
st.title("Profile")
profile_section(ctx, analysis)
