"""Services over the expression tree: simplify, monotone, asymptotic, solve (requirements),
verify, check. Symbolic ones import SymPy on demand; ``solve`` never does."""

__all__: list[str] = []     # nothing here: import the service you need (verify, monotone, ...)
