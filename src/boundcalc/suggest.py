"""'Did you mean ...?' hints by string similarity (difflib), for ids, symbols, settings
and commands."""
from __future__ import annotations


def close_matches(word: str, choices, n: int = 3) -> list[str]:
    """The choices most similar to ``word`` (case-insensitive ratio >= 0.6), best first."""
    import difflib
    choices = list(dict.fromkeys(choices))
    lower = {c.lower(): c for c in choices}
    got = difflib.get_close_matches(word.lower(), list(lower), n=n, cutoff=0.6)
    return [lower[g] for g in got]


def did_you_mean(word: str, choices, n: int = 3) -> str:
    """``"; did you mean beta2?"`` or ``""``."""
    got = close_matches(word, choices, n)
    return f"; did you mean {', '.join(got)}?" if got else ""
