"""The Streamlit side's one handle on the application object: one
:class:`~memscope.app.Memscope` per process (a cached resource), its settings read on
every use from the environment and Streamlit's secrets — the environment wins, as on the
command line (:class:`memscope.app.Settings`)."""

from __future__ import annotations

import os
from collections.abc import Mapping

import streamlit as st

from memscope.app import Memscope, Settings


def read_settings() -> Settings:
    """The settings now: the environment, then Streamlit's secrets (``st.secrets``, which
    tests may set per app run)."""
    try:
        tables = {k: dict(v) for k, v in st.secrets.items() if isinstance(v, Mapping)}
    except (FileNotFoundError, KeyError, AttributeError):  # no secrets file at all
        tables = {}
    return Settings.read(os.environ, tables)


@st.cache_resource(show_spinner=False)
def application() -> Memscope:
    """The process's application object (storage and pipeline made once, on first use)."""
    return Memscope(read_settings)
