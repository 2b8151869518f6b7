"""Formula files -> validated, cross-linked registry."""
from .loader import load_file
from .registry import Registry, get_registry, packaged_dir

__all__ = ["Registry", "get_registry", "load_file", "packaged_dir"]
