"""The measurement: two-phase training on DM1 for one configuration, one seed or several
seeds batched.
"""
from __future__ import annotations

import time

import numpy as np

from .settings import parse_settings


def _first_phase_vector(theta1, alphas, T: int) -> np.ndarray:
    """The vector v with U_h^(1) = alpha_h 1_T v^T (Lemma 2), read off head 0."""
    U0 = theta1.U[0]
    if theta1.decoder == "full":
        return U0[0] / alphas[0]
    if theta1.decoder == "pooling":          # u_h = alpha_h T v
        return U0 / (alphas[0] * T)
    return U0 / alphas[0]                    # 'last': u_h = alpha_h v


def measure(config: dict) -> dict:
    """Train the two-phase scheme at one configuration and return every measured number.

    ``config`` = parsed settings + ``seed``.  Module-level and JSON-in/JSON-out so that it can
    be run by ``boundcalc.runs.sweep.run``.  One generator (seeded by ``seed``) draws, in
    order: the first-phase sample, the second-phase sample, the test sample, the alphas.
    """
    from ...engine import deora2023 as E

    c = parse_settings({k: v for k, v in config.items() if k != "seed"})
    prep = _prepare(c, int(config.get("seed", 0)))
    t1 = time.process_time()
    run = E.train(prep["theta1"], prep["s"].X, prep["s"].y, eta=c["eta"], steps=c["K"], dtype=c["dtype"])
    return _measured(c, prep, run, time.process_time() - t1)


def measure_seeds(config: dict) -> list[dict]:
    """:func:`measure` for every seed of ``config["seeds"]`` (one shape: the same settings),
    with the second-phase GD of all of them run as one batch (``engine.deora2023.train_batch``,
    the seed a leading batch axis); each point equals :func:`measure` of its seed alone (to
    rounding, tested to 1e-12), except ``train_cpu_seconds``, the batch's CPU time shared
    equally.  If the batch diverges, each seed is run alone, so that the divergence is
    reported as for one point (naming its seed)."""
    from ...engine import deora2023 as E
    from ...engine.budget import Divergence
    from ...runs.sweep import _call

    seeds = [int(x) for x in config["seeds"]]
    one = {k: v for k, v in config.items() if k != "seeds"}
    c = parse_settings(one)
    preps = [_prepare(c, sd) for sd in seeds]
    t1 = time.process_time()
    try:
        runs = E.train_batch([p["theta1"] for p in preps], np.stack([p["s"].X for p in preps]),
                             np.stack([p["s"].y for p in preps]), eta=c["eta"], steps=c["K"], dtype=c["dtype"])
    except Divergence:
        return [_call(measure, dict(one, seed=sd)) for sd in seeds]
    cpu = (time.process_time() - t1) / len(seeds)
    return [_measured(c, p, r, cpu) for p, r in zip(preps, runs)]


def _prepare(c: dict, seed: int) -> dict:
    """Everything of a point before the second phase: the samples, theta^(1) and its NTK margin."""
    from ...engine import deora2023 as E
    from ...engine import ops
    from ...engine.data import dm1

    D = dm1.make_dm1(c["T"], c["d"], c["M"], c["S"], c["zeta"], z_mu=c["z_mu"], z_nu=c["z_nu"],
                     z_perp_norm=c["z_perp"])
    g = ops.rng(seed)
    s1 = D.sample(c["n1"], g)
    s = D.sample(c["n"], g)
    st = D.sample(c["n_test"], g)
    alphas = g.choice(np.array([-1.0, 1.0]), size=c["H"])
    theta1, _ = E.first_phase(s1.X, s1.y, c["H"], c["decoder"], alphas=alphas)
    return {"seed": seed, "D": D, "s": s, "st": st, "alphas": alphas, "theta1": theta1,
            "ntk": E.ntk_margin(theta1, s.X, s.y)}


def _measured(c: dict, prep: dict, run, train_cpu_seconds: float) -> dict:
    """The point's numbers from its preparation and its second-phase run."""
    from ...engine import deora2023 as E

    s, st, D, theta1, ntk = prep["s"], prep["st"], prep["D"], prep["theta1"], prep["ntk"]
    pK = run.params
    marg = E.margins(pK, s.X, s.y)
    unorm = float(np.linalg.norm(pK.U))
    v = _first_phase_vector(theta1, prep["alphas"], c["T"])
    p_actual = float(np.linalg.norm(v - (c["zeta"] / 4.0) * D.u_star))
    p_printed = float(np.linalg.norm(v - (c["zeta"] / 2.0) * D.u_star))
    train_loss = E.loss(pK, s.X, s.y)
    test_loss = E.loss(pK, st.X, st.y)
    test_err = float(np.mean(st.y * E.forward(pK, st.X) <= 0))
    return {
        "seed": prep["seed"], "n": c["n"], "H": c["H"], "K": c["K"],
        "R": s.R, "Z": s.Z, "Z_mu": s.Z_mu, "Z_nu": s.Z_nu,
        "max_token_norm": float(np.max(np.linalg.norm(s.X, axis=2))),
        "B_2": E.B2(theta1), "B_Phi": E.B_Phi(theta1, s.X),
        "gamma_ntk": float(ntk.gamma), "ntk_status": ntk.status,
        "p_norm": p_actual, "p_norm_printed_lemma2": p_printed,
        "margin_min": float(np.min(marg)), "decoder_norm": unorm,
        "margin_normalised": float(np.min(marg)) / unorm,
        "train_loss_start": float(run.train_loss[0]) if c["K"] else train_loss,
        "train_loss": float(train_loss), "test_loss": float(test_loss),
        "gap": float(test_loss - train_loss), "test_error": test_err,
        "dist": E.distance(pK, theta1).total,
        "dtype": c["dtype"], "train_cpu_seconds": train_cpu_seconds,
    }
