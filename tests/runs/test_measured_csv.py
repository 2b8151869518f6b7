"""boundcalc.runs.measured_csv: a CSV file of one's own runs, read and checked."""
from __future__ import annotations

import pytest

from boundcalc.errors import BoundcalcError
from boundcalc.runs.measured_csv import parse_map, read_csv


def test_read_csv_strips_the_header_and_drops_blank_lines(tmp_path):
    p = tmp_path / "runs.csv"
    p.write_text("\ufeff T , d\n8,16\n\n , \n4,2\n", encoding="utf-8")
    head, rows = read_csv(p)
    assert head == ["T", "d"]
    assert rows == [["8", "16"], ["4", "2"]]


def test_read_csv_refuses_a_missing_or_empty_file_in_one_line(tmp_path):
    with pytest.raises(BoundcalcError, match="does not exist"):
        read_csv(tmp_path / "nope.csv")
    (tmp_path / "empty.csv").write_text("\n\n")
    with pytest.raises(BoundcalcError, match="empty file"):
        read_csv(tmp_path / "empty.csv")


def test_parse_map_reads_column_equals_name_and_refuses_the_rest():
    assert parse_map(["N=n", " loss = L "]) == {"N": "n", "loss": "L"}
    assert parse_map(None) == {}
    for bad in (["N"], ["=n"], ["N="]):
        with pytest.raises(BoundcalcError, match="COLUMN=NAME"):
            parse_map(bad)
    with pytest.raises(BoundcalcError, match="mapped twice"):
        parse_map(["N=n", "N=m"])
