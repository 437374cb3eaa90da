"""Reports over an analysis: audit tables, insights, ask, inspection JSON."""
