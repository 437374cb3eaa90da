"""The graph component's browser files (a package of their own; see ``pyproject.toml``).

``assets/`` holds vis-network's standalone build, the component's ES modules (the entry
``graph_view.js`` and the modules it imports) and its stylesheet. Streamlit serves the
folder at ``/_stcore/bidi-components/<ASSET_COMPONENT>/``; nothing here imports Streamlit.
"""

from __future__ import annotations

from pathlib import Path

#: the folder Streamlit serves
ASSETS = Path(__file__).resolve().parent / "assets"
#: the name it serves it under: ``<project name>.<component name>`` of ``pyproject.toml``
ASSET_COMPONENT = "memscope-graph-frontend.graph"
