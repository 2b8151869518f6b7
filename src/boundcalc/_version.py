"""The package's version, single-sourced here (pyproject's [tool.hatch.version] reads it), in a
bottom module that imports nothing, so that any module can name it without importing the
package's public API (``boundcalc/__init__`` imports ``api``, which imports the reports)."""
__all__ = ["__version__"]
__version__ = "0.1.0"
