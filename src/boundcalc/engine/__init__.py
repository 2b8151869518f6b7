"""A small, deterministic, torch-free NumPy gradient-descent engine.

One module per paper's model (``deora2023``, ``anon2025``, ``tarzanagh2023``,
``arda2026``), data models in ``data``, shared primitives in ``ops``.
Import the submodule you need; nothing heavy is imported here.
"""

# the package exports no names itself: its models and primitives are imported as modules (listed above)
__all__: list[str] = []
