"""Formula files -> validated, cross-linked registry."""
from .registry import Registry, get_registry, packaged_dir

__all__ = ["Registry", "get_registry", "load_file", "packaged_dir"]


def __getattr__(name: str):
    """``load_file`` from :mod:`.loader`, imported on first use (the parser and the validators
    are not needed when the registry's papers come from its cache, :mod:`.cache`)."""
    if name == "load_file":
        from .loader import load_file
        return load_file
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
