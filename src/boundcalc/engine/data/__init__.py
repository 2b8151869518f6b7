"""Data models and real data sets for the engine (one module per source)."""
