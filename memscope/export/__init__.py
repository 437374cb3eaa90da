"""Exports of a view or analysis: GraphML, GEXF, JSON, CSV, offline HTML, evidence packs."""
