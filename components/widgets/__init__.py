"""Reusable widgets: the graph component, safe text, loading screen, once-only requests, links."""
