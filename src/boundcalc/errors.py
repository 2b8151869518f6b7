"""The one error type users see.

Every problem caused by input (an unknown id or symbol, a missing value, a value
outside a symbol's domain, a malformed or malicious formula file, an impossible
requirement) raises a :class:`BoundcalcError` whose message names the culprit.
The CLI prints that message on one line and exits with status 2.
"""


class BoundcalcError(Exception):
    """A user-facing error: the message names the culprit."""


class FormulaFileError(BoundcalcError):
    """A formula file is malformed (or tries something the whitelist forbids)."""


class ExpressionError(BoundcalcError):
    """An expression could not be parsed or evaluated."""


class DomainError(BoundcalcError):
    """A value lies outside the domain of its symbol."""


class UnsatisfiableError(BoundcalcError):
    """A requirement cannot be met."""
