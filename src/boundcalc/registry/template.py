"""The skeleton formula file that ``boundcalc new KEY`` writes (and that
``examples/my_paper.toml`` is, rendered for ``my_paper``): a commented toy
uniform-convergence bound that loads, evaluates and passes ``check`` as it is.

:func:`render` substitutes ``@KEY@`` (the paper key) and ``@PATH@`` (the file's path in
the comment's command lines); :func:`write_skeleton` writes it without ever overwriting.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import BoundcalcError

TEMPLATE = '''# A skeleton formula file, written by `boundcalc new @KEY@`: a toy uniform-convergence
# bound to replace with your paper's symbols, formulas, settings and checks (the key must
# stay equal to the file name stem). Format: formulas/README.md. It loads as it is:
#   boundcalc --formulas @PATH@ list --paper @KEY@
#   boundcalc --formulas @PATH@ check @KEY@
#   boundcalc --formulas @PATH@ require n --setting toy --target 'gen_gap <= 0.1'
[paper]
key = "@KEY@"                 # must equal the file stem; prefix of every id
title = "A toy uniform-convergence bound (template)"
authors = "A. Author, B. Author"
reference = "template: replace with your paper's arXiv id or DOI"
text = "No paper: a template. A real file cites a paper a reader can find (arxiv / doi / url)."
results = ["Thm. 1", "Cor. 1"]

[symbols.n]
description = "number of training samples"
latex = "n"
domain = "integer >= 1"

[symbols.d]
description = "parameter dimension"
latex = "d"
domain = "integer >= 1"

[symbols.B]
description = "norm bound on the parameters"
latex = "B"
domain = "positive"

[symbols.delta]
description = "failure probability"
latex = "\\\\delta"
domain = "(0, 1)"

[symbols.C]
description = "absolute constant hidden by the paper's O(.) (not given)"
latex = "C"
domain = "positive"
default = "1"
role = "constant"

[symbols.epsilon]
description = "target generalization gap"
latex = "\\\\varepsilon"
domain = "positive"

[formulas.gen_gap]
name = "Generalization gap of Thm. 1"
kind = "bound"
bounds = "L(theta) - L_hat(theta), with probability 1 - delta"
direction = "upper"
expr = "C*B*sqrt(d/n) + sqrt(log(1/delta)/(2*n))"
source = "Thm. 1, eq. (3)"
latex = 'L(\\theta) - \\hat L(\\theta) \\le C B \\sqrt{d/n} + \\sqrt{\\log(1/\\delta)/(2n)}'
status = "as printed"

[formulas.samples_cor1]
name = "Sample size of Cor. 1 for a gap of at most epsilon"
kind = "requirement"
expr = "n >= (2*C**2*B**2*d + log(1/delta))/epsilon**2"
solve_for = "n"
source = "Cor. 1"
status = "as printed"

# The condition under which the paper states a result, in its words: a check that covers
# "Cor. 1" runs under it (a quoted hypothesis is the paper's; an `assume` is ours).
[[hypotheses]]
result = "Cor. 1"
requirement = "samples_cor1"
quote = 'Corollary 1. If $n \\ge (2C^2B^2d + \\log(1/\\delta))/\\varepsilon^2$, then $L(\\theta) - \\hat L(\\theta) \\le \\varepsilon$ with probability $1 - \\delta$.'
source = "Cor. 1 (statement)"

[settings.toy]
name = "Thm. 1 at d = 100, B = 1, delta = 0.05"
source = "Sec. 5 (the paper's experiment)"
default = true
solve_for = "n"
values = { d = "100", B = "1", delta = "0.05", C = "1" }
requirements = ["samples_cor1"]

[[checks]]
id = "gap_decreases_in_n"
kind = "monotone"
location = "Thm. 1, remark after eq. (3)"
description = "The gap decreases as n grows."
formula = "gen_gap"
var = "n"
claim = "decreasing"
covers = ["Thm. 1"]

[[checks]]
id = "gap_order_in_n"
kind = "order"
location = "Thm. 1"
description = "The gap is O(1/sqrt(n))."
formula = "gen_gap"
var = "n"
order = "1/sqrt(n)"
relation = "Theta"
covers = ["Thm. 1"]

[[checks]]
id = "cor1_from_thm1"
kind = "compare"
location = "Cor. 1 from Thm. 1"
description = "At the sample size of Cor. 1 the gap of Thm. 1 is at most epsilon (the step (a + b)^2 <= 2a^2 + 2b^2)."
lhs = "C*B*sqrt(d/n) + sqrt(log(1/delta)/(2*n))"
rel = "<="
rhs = "epsilon"
covers = ["Cor. 1"]             # runs under Cor. 1's quoted hypothesis (samples_cor1)
'''


def render(key: str, path: str | None = None) -> str:
    """The skeleton for paper ``key``; ``path`` (default ``KEY.toml``) is the file name its
    comment's command lines use."""
    return TEMPLATE.replace("@KEY@", key).replace("@PATH@", path or f"{key}.toml")


def skeleton_path(key: str, output: str | None = None) -> Path:
    """Where ``new`` writes: ``KEY.toml`` in the current folder, ``--output`` itself, or
    ``KEY.toml`` inside ``--output`` when that is a folder. A file whose stem is not the key
    would not load (the key must equal the file stem): refused."""
    from ..paths import user_path
    if output is None:
        return Path(f"{key}.toml")
    out = user_path(output)
    try:
        is_dir = out.is_dir()
    except OSError:                     # a name too long for the file system, ...: not a folder
        is_dir = False
    if is_dir:
        return out / f"{key}.toml"
    if out.name != f"{key}.toml":
        raise BoundcalcError(f"--output {output!r}: a formula file for paper {key!r} must be named "
                             f"{key}.toml (the key equals the file name stem)")
    return out


def check_key(key: str) -> None:
    """A new paper's key is an identifier that no loaded paper has (one line otherwise)."""
    from .loader import _IDENT
    if not _IDENT.match(key):
        raise BoundcalcError(f"paper key {key!r} must be an identifier (letters, digits, underscores; "
                             "not starting with a digit)")
    from .registry import get_registry
    if get_registry(None).has_paper(key):
        raise BoundcalcError(f"paper key {key!r} is already taken by a loaded paper "
                             "(built-in or $BOUNDCALC_FORMULAS); choose another")


def write_skeleton(key: str, output: str | None = None) -> Path:
    """Write the skeleton of paper ``key`` (see :func:`skeleton_path`); refuse a key that is
    not an identifier, that names a built-in paper, or a path that already exists."""
    check_key(key)
    path = skeleton_path(key, output)
    if path.exists() or path.is_symlink():
        raise BoundcalcError(f"{path} already exists; not overwritten (choose another --output or remove it)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8") as fh:      # "x": never overwrite, even in a race
            fh.write(render(key, str(path)))
    except OSError as e:
        raise BoundcalcError(f"cannot write {path}: {e.strerror or e}") from None
    return path
