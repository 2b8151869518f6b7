"""Two symbols of one file never share their LaTeX (issue 18: tarzanagh2023 wrote Γ, ε, A,
M and C for several symbols, so sheets and the LaTeX round trip could not tell them apart).
Where the paper itself reuses a letter, each symbol gets its own ``latex`` and the paper's
letter goes in ``printed``, which printed LaTeX is still read with."""
from __future__ import annotations

import pytest

from boundcalc.errors import FormulaFileError
from boundcalc.registry import get_registry
from boundcalc.registry.loader import load_file

HEAD = '''[paper]
key = "lx"
title = "t"
authors = "a"
reference = "template: none"
text = "none"

[symbols.A_q]
description = "A of Lemma 3"
latex = 'A'
domain = "positive"

[symbols.A_l]
description = "A of Lemma 14"
{A_l}
domain = "positive"
'''


def test_a_shared_latex_is_one_line_naming_both(tmp_path):
    p = tmp_path / "lx.toml"
    p.write_text(HEAD.format(A_l="latex = 'A'"))
    with pytest.raises(FormulaFileError) as e:
        load_file(p)
    msg = str(e.value)
    assert msg.startswith("lx.toml: [symbols.A_l]: latex 'A' is also the LaTeX of symbol 'A_q'") and "printed" in msg
    assert "\n" not in msg


def test_printed_letter_is_read_in_printed_latex(tmp_path):
    from boundcalc.expr import latex_in as L
    from boundcalc.expr.nodes import Sym
    p = tmp_path / "lx.toml"
    p.write_text(HEAD.format(A_l="latex = 'A_{\\ell}'\nprinted = 'A'"))
    paper = load_file(p)
    assert paper.symbols["A_l"].latex == r"A_{\ell}" and paper.symbols["A_l"].printed == "A"
    nm = L.names_of_paper(paper, {})
    # our own LaTeX names A_l alone; the paper's 'A' is settled by what the expression uses
    assert L.parse_statement(r"2 A_{\ell}", nm, kind="definition").node.symbols() == {"A_l"}
    node = L.parse_statement("2 A", nm, kind="definition", prefer=frozenset({Sym("A_l")})).node
    assert node.symbols() == {"A_l"}
    assert L.parse_statement("2 A", nm, kind="definition", prefer=frozenset({Sym("A_q")})).node.symbols() == {"A_q"}


def test_built_in_files_have_one_latex_per_symbol():
    reg = get_registry()
    for key, p in reg.papers.items():
        seen: dict = {}
        for n, s in p.symbols.items():
            k = " ".join(s.latex.split())
            if k:
                assert k not in seen, (key, n, seen.get(k), k)
                seen[k] = n
    t = reg.paper("tarzanagh2023").symbols
    assert {t[n].printed for n in ("Gamma_lab", "Gamma_mm")} == {r"\Gamma"} and t["Gamma"].latex == r"\Gamma"
