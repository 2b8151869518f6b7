"""The data of one run: an App.-E or Fig.-1 instance, its scores, the SVM constants and
the max-margin directions it is compared with.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from boundcalc.errors import BoundcalcError
from boundcalc.experiments.settings import derive_seed as _seed
from boundcalc.experiments.settings import require as _require

from .settings import INSTANCES


def _instance(s: dict, seed: int):
    from boundcalc.engine.data import tokens

    name = s["instance"]
    if name == "appendix_e":
        for k in ("n", "T", "d"):
            _require(s[k] >= (2 if k == "T" else 1), k, "a positive integer (T >= 2)", s[k])
        return tokens.appendix_e(s["n"], s["T"], s["d"], seed=_seed(seed, 1))
    if name in ("fig1a", "fig1b"):
        return getattr(tokens, name)()
    if name == "fig1c":
        return tokens.fig1c(seed=seed)
    raise BoundcalcError(f"option --instance: must be one of {', '.join(INSTANCES)}, got {name!r} "
                         "(Fig. 3 trains v as well: see the reproduction tarzanagh2023-fig3)")


def _scores(data) -> np.ndarray:
    return data.Y[:, None] * (data.X @ data.v)


def _svm_constants(data, res, tol: float = 1e-7) -> dict:
    """Lemma 7 / (32), (39) quantities of an (ATT-SVM) solution ``res`` (feasible)."""
    from boundcalc.engine import svm

    keys = data.keys
    scores = _scores(data)
    n, T, _ = keys.shape
    neigh = svm.svm_neighbours(res, tol)
    alpha = res.alpha
    gaps_delta, gap, gap_bar = [], [], []
    for i in range(n):
        Ti = neigh[i]
        nonn = np.array([t for t in range(T) if t != alpha[i] and t not in set(Ti.tolist())], dtype=int)
        if Ti.size:
            g_ia = scores[i, alpha[i]]
            gap.append(g_ia - np.max(scores[i, Ti]))
            gap_bar.append(g_ia - np.min(scores[i, Ti]))
            if nonn.size:
                diffs = (keys[i, Ti][:, None, :] - keys[i, nonn][None, :, :]) @ res.p
                gaps_delta.append(float(np.min(diffs)))
    delta = 0.5 * min(gaps_delta) if gaps_delta else math.inf
    Gamma = float(np.max(np.max(scores, axis=1) - np.min(scores, axis=1)))
    return {
        "pmm_norm": float(np.linalg.norm(res.p)),
        "K_max": float(np.max(np.linalg.norm(keys, axis=2))),
        "delta": delta,
        "Gamma": Gamma,
        "gamma_gap_min": float(min(gap)) if gap else math.inf,
        "gamma_gap_bar_max": float(max(gap_bar)) if gap_bar else math.nan,
        "T": int(T),
    }


def _directions(data) -> dict:
    """GMM and every other LMM (Def. 2) of a small instance, by enumerating alpha."""
    from boundcalc.engine import svm
    from boundcalc.engine import tarzanagh2023 as tz

    n, T, _ = data.X.shape
    scores = _scores(data)
    g = tz.gmm(data)
    out = {"GMM": {"alpha": g.alpha.tolist(), "p": g.p.tolist(), "norm": float(np.linalg.norm(g.p))}}
    k = 0
    for alpha in itertools.product(range(T), repeat=n):
        a = np.array(alpha)
        if np.array_equal(a, g.alpha):
            continue
        r = svm.att_svm(data.keys, a)
        if r.feasible and svm.is_locally_optimal(scores, r):
            k += 1
            out[f"LMM{k}"] = {"alpha": a.tolist(), "p": r.p.tolist(), "norm": float(np.linalg.norm(r.p))}
    return out
