"""Lenses over a dataset or analysis: as-of, presenter masking, filters, impact, diff."""
