"""The drawable view: vis-network nodes and edges, layout, clusters, the drawing budget."""
