"""Back ends of the one expression tree: exact rationals (``exact``), mpmath at any
precision with certified interval enclosures (``mp``), NumPy grids (``np``) and SymPy
(``sym``; imported only by the symbolic services)."""

# the package exports no names itself: its back ends are imported as modules (listed above)
__all__: list[str] = []
