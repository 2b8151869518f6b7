"""Formula files -> validated, cross-linked registry."""
from .loader import load_file  # noqa: F401
from .registry import Registry, get_registry, packaged_dir  # noqa: F401
