"""The graph: records → networkx graph, version chains, states, integrity findings, analysis."""
