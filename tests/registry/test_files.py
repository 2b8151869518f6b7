"""registry/files.py: which paths are opened as formula files, and how their text is read."""
import os

import pytest

from boundcalc.errors import FormulaFileError
from boundcalc.registry import files


def test_a_regular_file_is_read_as_utf8_text(tmp_path):
    p = tmp_path / "a.toml"
    p.write_bytes("[paper]\ntitle = \"\u03b2\"\n".encode())
    assert files.check_formula_file(p) == p
    assert files.read_formula_text(p) == "[paper]\ntitle = \"\u03b2\"\n"


def test_what_is_not_a_formula_file_is_named(tmp_path):
    with pytest.raises(FormulaFileError, match="does not exist"):
        files.check_formula_file(tmp_path / "none.toml")
    (tmp_path / "d.toml").mkdir()
    with pytest.raises(FormulaFileError, match="is a folder, not a regular file"):
        files.check_formula_file(tmp_path / "d.toml")
    fifo = tmp_path / "f.toml"
    os.mkfifo(fifo)
    with pytest.raises(FormulaFileError, match="FIFO"):
        files.read_formula_text(fifo)


def test_size_nul_bytes_and_encoding_are_refused(tmp_path):
    big = tmp_path / "big.toml"
    with open(big, "wb") as fh:                      # 1 byte over the 2 MiB cap
        fh.truncate(2 * 1024 * 1024 + 1)
    with pytest.raises(FormulaFileError, match="2.0 MB limit"):
        files.check_formula_file(big)
    nul = tmp_path / "nul.toml"
    nul.write_bytes(b"a = 1\x00")
    with pytest.raises(FormulaFileError, match="binary file"):
        files.read_formula_text(nul)
    latin = tmp_path / "latin.toml"
    latin.write_bytes("title = '\u00e9'".encode("latin-1"))
    with pytest.raises(FormulaFileError, match="not a UTF-8 text file"):
        files.read_formula_text(latin)


def test_the_loader_still_exports_what_moved():
    from boundcalc.registry import loader
    assert loader.check_formula_file is files.check_formula_file and loader.MAX_FILE_BYTES == 2 * 1024 * 1024
