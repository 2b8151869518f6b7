"""The evidence of a finding as one line of text (reports/printers/evidence.py): values are
printed as text a reader reads, never as Python's repr (issue 35: "labels from the result
record")."""
from boundcalc.reports.printers.evidence import evidence_text, plain


def test_a_list_of_records_is_text_not_repr():
    ev = {"hypotheses": [{"hypothesis": "cond_width", "from": "Lemma 4",
                          "quote": r"if $d_m \geq \tilde{\Omega}(N^3)$", "holds": False}],
          "at": {"m": "8", "d": "8"}}
    line = evidence_text(ev)
    assert "{'" not in line and "'" not in line and "\\\\" not in line, line
    assert line == (r"hypotheses: [hypothesis = cond_width, from = Lemma 4, quote = if $d_m \geq "
                    r"\tilde{\Omega}(N^3)$, holds = False]; at: m = 8, d = 8")


def test_plain_values():
    assert plain("a 'quoted' word") == "a 'quoted' word"
    assert plain([1, 2]) == "1, 2" and plain([[1, 2], [3]]) == "[1, 2], [3]"
    assert plain({"x": 1, "y": [2, 3]}) == "x = 1, y = [2, 3]"


def test_empty_values_are_left_out_and_long_lines_cut():
    assert evidence_text({"a": None, "b": [], "c": {}, "d": "", "e": 0}) == "e: 0"
    assert evidence_text({"k": "x" * 50}, limit=10) == "k: xxxxxxx …"
