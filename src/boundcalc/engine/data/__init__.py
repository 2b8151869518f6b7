"""Data models and real data sets for the engine (one module per source).

``dm1``: Deora et al.'s tokenized mixture DM1; ``transport``: Arda et al.'s teacher of
Sec. 6.1; ``digits`` and ``tokens``: see those modules.  Import the one you need.
"""

# the package exports no names itself: its data sets are imported as modules (listed above)
__all__: list[str] = []
