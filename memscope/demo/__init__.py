"""The deterministic demo dataset and its texts."""
