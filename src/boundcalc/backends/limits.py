"""Limits of certified evaluation (a module of its own so that checking a request against
them imports nothing heavy)."""
MAX_DIGITS = 10_000                              # the most significant digits `evaluate` certifies
MAX_PREC = 4 * (int(MAX_DIGITS * 3.33) + 48)     # bits: the precision loop stops here
SIGN_MAX_PREC = 20_000                           # bits: decide_sign gives up (None) beyond this
LOG2_LIMIT = 2 ** 4096                           # |log2 |value|| beyond this is refused (TooLarge)


def digits_error(digits: int) -> str | None:
    """Why ``digits`` certified digits cannot be delivered, or None if they can."""
    if digits < 1:
        return f"digits must be at least 1, not {digits}"
    if digits > MAX_DIGITS:
        return f"at most {MAX_DIGITS} certified digits can be delivered, not {digits}"
    return None
