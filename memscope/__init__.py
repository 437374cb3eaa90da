"""Memscope core: records, graph rules, sources and views. Never imports Streamlit."""

__version__ = "0.1.0"
