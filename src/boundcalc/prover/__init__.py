"""The decision procedure (layers added by issue 22; the existing layers move here from services/)."""
__all__: list[str] = []
