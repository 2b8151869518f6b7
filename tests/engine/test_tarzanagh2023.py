"""engine.tarzanagh2023: gradients and HVPs against finite differences, closed forms,
Lemma 1, the smoothness bound (24), Theorems 2/3/5/6 on the worked examples, determinism."""
import numpy as np
import pytest

from boundcalc.engine import ops, svm
from boundcalc.engine import tarzanagh2023 as tz
from boundcalc.engine.data import tokens

LOSSES = ("logistic", "exponential", "correlation")


def instance(seed, n=3, T=4, d=3):
    g = np.random.default_rng(seed)
    X = g.standard_normal((n, T, d))
    Y = np.where(g.random(n) < 0.5, -1.0, 1.0)
    return X, Y, g.standard_normal(d), g.standard_normal((d, d)), g.standard_normal(d)


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("seed", [0, 1])
def test_gradients_match_finite_differences(loss, seed):
    X, Y, v, W, p = instance(seed)
    d = v.size
    gp = tz.grad_p(X, Y, v, W, p, loss)
    fd = ops.finite_difference_grad(lambda q: tz.loss_value(X, Y, v, W, q, loss), p)
    np.testing.assert_allclose(gp, fd, rtol=1e-6, atol=1e-8)
    gW = tz.grad_W(X, Y, v, W, p, loss)
    fdW = ops.finite_difference_grad(
        lambda w: tz.loss_value(X, Y, v, w.reshape(d, d), p, loss), W.ravel())
    np.testing.assert_allclose(gW.ravel(), fdW, rtol=1e-6, atol=1e-8)
    gv = tz.grad_v(X, Y, v, W, p, loss)
    fdv = ops.finite_difference_grad(lambda u: tz.loss_value(X, Y, u, W, p, loss), v)
    np.testing.assert_allclose(gv, fdv, rtol=1e-6, atol=1e-8)
    val, gv2, gp2, gW2 = tz.value_and_grads(X, Y, v, W, p, loss)
    assert val == tz.loss_value(X, Y, v, W, p, loss)
    np.testing.assert_array_equal(gp2, gp)
    np.testing.assert_array_equal(gW2, gW)
    np.testing.assert_array_equal(gv2, gv)


@pytest.mark.parametrize("loss", LOSSES)
def test_hvp_matches_finite_differences_and_hessian_spectrum(loss):
    X, Y, v, W, p = instance(5, n=4, T=5, d=4)
    g = np.random.default_rng(9)
    eps = 1e-5
    H = np.empty((4, 4))
    for j in range(4):
        e = np.zeros(4)
        e[j] = eps
        H[:, j] = (tz.grad_p(X, Y, v, W, p + e, loss) - tz.grad_p(X, Y, v, W, p - e, loss)) / (2 * eps)
    u = g.standard_normal(4)
    np.testing.assert_allclose(tz.hvp_p(X, Y, v, W, p, u, loss), H @ u, rtol=1e-6, atol=1e-8)
    lo, hi = tz.hessian_extremes_p(X, Y, v, W, p, loss)
    ev = np.linalg.eigvalsh(0.5 * (H + H.T))
    assert lo == pytest.approx(ev[0], abs=1e-6) and hi == pytest.approx(ev[-1], abs=1e-6)


def test_hessian_lanczos_path_on_larger_dimension():
    # d = 210 >= 200 exercises the ARPACK path of ops.extreme_eigenvalues; compare with the
    # dense eigenvalues of the Hessian assembled column by column from the HVP
    data = tokens.appendix_e(n=3, T=3, d=210, seed=2)
    p = 3 * np.random.default_rng(0).standard_normal(210) / np.sqrt(210)
    hv = lambda u: tz.hvp_p(data.X, data.Y, data.v, data.W, p, u)
    H = np.column_stack([hv(e) for e in np.eye(210)])
    ev = np.linalg.eigvalsh(0.5 * (H + H.T))
    lo, hi = tz.hessian_extremes_p(data.X, data.Y, data.v, data.W, p)
    assert lo == pytest.approx(ev[0], abs=1e-7) and hi == pytest.approx(ev[-1], abs=1e-7)


@pytest.mark.parametrize("loss", LOSSES)
def test_local_smoothness_below_Lp(loss):
    # Lemma 6: ||Hessian|| <= L_p of (24) everywhere
    for seed in range(5):
        X, Y, v, W, _ = instance(20 + seed)
        Lp = tz.smoothness_bound(X, Y, v, W, loss)
        for p in np.random.default_rng(seed).standard_normal((4, 3)) * 3:
            lo, hi = tz.hessian_extremes_p(X, Y, v, W, p, loss)
            assert max(abs(lo), abs(hi)) <= Lp


def test_loss_constants_against_grid():
    for loss, (lo, hi) in (("logistic", (-2.0, 3.0)), ("logistic", (0.5, 4.0)),
                           ("exponential", (-1.5, 2.0)), ("correlation", (-1.0, 1.0))):
        _, d1, d2 = ops.margin_loss(loss)
        grid = np.linspace(lo, hi, 200001)
        M0, M1 = tz.loss_constants(loss, lo, hi)
        assert M1 == pytest.approx(np.max(np.abs(d1(grid))), rel=1e-9)
        assert M0 == pytest.approx(np.max(np.abs(d2(grid))), rel=1e-6, abs=1e-12)
    with pytest.raises(ValueError, match="interval"):
        tz.loss_constants("logistic", 1.0, 0.0)


def test_descent_lemma_with_step_one_over_Lp():
    # (25): L(p(t+1)) <= L(p(t)) - eta/2 ||grad||^2 for eta = 1/L_p
    d = tokens.appendix_e(n=4, T=6, d=5, seed=4)
    eta = 1.0 / tz.smoothness_bound(d.X, d.Y, d.v, d.W)
    tr = tz.train(d, lr=eta, steps=30, p0=np.ones(5))
    assert np.all(np.diff(tr.loss) <= -eta / 2 * tr.grad_norm[:-1] ** 2 + 1e-15)


def test_zero_key_query_is_mean_pooling():
    X, _Y, v, W, p = instance(3)
    np.testing.assert_allclose(tz.attention_features(X, np.zeros_like(W), p), X.mean(axis=1),
                               rtol=1e-14)
    np.testing.assert_allclose(tz.predict(X, v, W, np.zeros(3)), X.mean(axis=1) @ v, rtol=1e-13)


def test_saturation_along_pmm():
    # p = R p^mm: s_{i alpha_i} = 1 / (1 + sum_{t != alpha} exp(-R gap_it)), the closed form
    d = tokens.fig1a()
    r = tz.gmm(d)
    last = 0.0
    for R in (1.0, 5.0, 20.0, 60.0):
        s = tz.saturation(d.X, d.W, R * r.p, r.alpha)
        gaps = np.delete(r.gaps[0], r.alpha[0])
        assert s == pytest.approx(1 / (1 + np.sum(np.exp(-R * gaps))), rel=1e-13)
        assert s > last
        last = s
    # the mass left on the other tokens decays as exp(-R gap) (relative accuracy kept)
    s = tz.attention(d.X, d.W, 60 * r.p)[0]
    gaps = r.gaps[0, 1:]
    np.testing.assert_allclose(s[1:], np.exp(-60 * gaps) / (1 + np.sum(np.exp(-60 * gaps))),
                               rtol=1e-12)
    assert s[1:].sum() < 1e-25
    np.testing.assert_allclose(tz.attention_features(d.X, d.W, 60 * r.p), d.X[:, 0], atol=1e-20)


def test_lemma1_gd_on_W_tracks_gd_on_p():
    # W(0) = u p(0)^T/||u||^2 and step eta/||u||^2  =>  W(t) = u p(t)^T/||u||^2
    d = tokens.appendix_e(n=3, T=4, d=3, seed=8)
    g = np.random.default_rng(1)
    u, p0 = g.standard_normal(3), g.standard_normal(3)
    eta = 0.5
    trp = tz.train(tokens.TokenDataset(d.X, d.Y, np.eye(3), d.v), params="p", lr=eta,
                   steps=25, p0=p0)
    W0 = np.outer(u, p0) / (u @ u)
    trw = tz.train(d, params="W", lr=eta / (u @ u), steps=25, p0=u, W0=W0)
    expect = np.einsum("i,tj->tij", u, trp.p) / (u @ u)
    np.testing.assert_allclose(trw.W, expect, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(trw.loss, trp.loss, rtol=1e-12)


def test_theorem2_fig1a_gmm_and_theorem3_fig1b_lmm():
    a = tokens.fig1a()
    pmm = tz.gmm(a).p
    tr = tz.train(a, lr=0.1, steps=1000, normalized=True, p0=np.zeros(3), reference=pmm,
                  record_every=500)
    assert np.isnan(tr.correlation[0]) and tr.correlation[-1] > 0.9995
    assert np.all(np.diff(tr.correlation[1:]) > 0)
    b = tokens.fig1b()
    rep = tz.selection_report(b, tz.train(b, lr=0.1, steps=600, normalized=True,
                                          p0=np.array([0.0, -1.0, 0.0])).p[-1])
    np.testing.assert_array_equal(rep.alpha, [1])
    assert rep.saturated and rep.locally_optimal and not rep.globally_optimal
    np.testing.assert_allclose(rep.svm.p, [1.0, 0.0, 0.0], atol=1e-12)
    assert rep.correlation > 0.999 and rep.score_gap == pytest.approx(0.9)


def test_theorems5_6_fig3_joint_training():
    for data, target in ((tokens.fig3a(), "p_mm"), (tokens.fig3b(), "p_relax")):
        tr = tz.train(data, params="vp", lr=0.1, steps=400, normalized=True, record_every=400)
        jm = tz.joint_max_margin(data, np.array([1, 1, 1]))
        assert tz.correlation(tr.v[-1], jm.v.solution) > 0.9999
        assert tz.correlation(tr.p[-1], getattr(jm, target).p) > 0.9998
        assert tr.max_attention[-1] > 0.9999
    # in Fig. 3(b) the relaxed direction differs from p^mm (Theorem 6 vs Theorem 5)
    assert tz.correlation(jm.p_relax.p, jm.p_mm.p) < 0.99


def test_measurements():
    X, Y, v, W, p = instance(2)
    f = tz.predict(X, v, W, p)
    assert tz.logistic_probability(X, Y, v, W, p) == pytest.approx(np.mean(1 / (1 + np.exp(-Y * f))))
    s = tz.attention(X, W, p)
    assert tz.max_attention(X, W, p) == pytest.approx(np.mean(s.max(axis=1)))
    np.testing.assert_allclose(tz.soft_nnz(np.full((2, 4), 0.25)), 4.0)
    np.testing.assert_allclose(tz.soft_nnz(np.array([1.0, 0, 0])), 1.0)
    assert tz.correlation([1.0, 0.0], [2.0, 2.0]) == pytest.approx(1 / np.sqrt(2))


def test_selection_report_random_instances():
    # App. E / Fig. 9 pipeline: normalised GD (lr 1) on random instances with d = 10 saturates
    # and its direction matches p^mm(alpha) of the selected tokens (paper: 0.997 on average)
    for seed in range(3):
        d = tokens.appendix_e(n=4, T=6, d=10, seed=seed)
        tr = tz.train(d, lr=1.0, steps=300, normalized=True, p0=np.zeros(10))
        rep = tz.selection_report(d, tr.p[-1])
        s = tz.attention(d.X, d.W, tr.p[-1])
        np.testing.assert_array_equal(rep.alpha, np.argmax(s, axis=1))
        assert rep.saturated and rep.saturation >= 1 - 1e-5
        assert rep.svm.feasible and rep.correlation > 0.999
        scores = svm.token_scores(d.X, d.Y, d.v)
        assert rep.locally_optimal == svm.is_locally_optimal(scores, rep.svm)
        assert rep.locally_optimal == (rep.score_gap > 0)


def test_bit_identical_reruns():
    runs = []
    for _ in range(2):
        d = tokens.appendix_e(n=4, T=6, d=5, seed=42)
        tr = tz.train(d, params="vp", lr=0.3, steps=50, normalized=True, p0=np.zeros(5))
        runs.append(tr)
    for name in ("p", "v", "W", "loss", "grad_norm", "max_attention"):
        assert getattr(runs[0], name).tobytes() == getattr(runs[1], name).tobytes()


def test_bad_input_raises():
    X, Y, v, W, p = instance(0)
    with pytest.raises(ValueError, match="unknown loss"):
        tz.loss_value(X, Y, v, W, p, "hinge")
    with pytest.raises(ValueError, match="p must"):
        tz.grad_p(X, Y, v, W, np.zeros(4))
    with pytest.raises(ValueError, match="Y must"):
        tz.grad_p(X, np.zeros(3), v, W, p)
    with pytest.raises(ValueError, match="u must"):
        tz.hvp_p(X, Y, v, W, p, np.zeros(2))
    d = tokens.fig3a()
    with pytest.raises(ValueError, match="no head v"):
        tz.train(tokens.TokenDataset(d.X, d.Y, d.W), lr=0.1, steps=1)
    with pytest.raises(ValueError, match="params"):
        tz.train(tokens.fig1a(), params="q", lr=0.1, steps=1)
    with pytest.raises(ValueError, match="lr"):
        tz.train(tokens.fig1a(), lr=0.0, steps=1)
    with pytest.raises(ValueError, match="zero vector"):
        tz.correlation(np.zeros(2), np.ones(2))


def test_torch_bench_matches_numpy_gradients():
    # the benchmark's PyTorch autograd model is the same model: gradients agree
    pytest.importorskip("torch")
    from support import load_bench

    bench = load_bench("torch_tarzanagh2023").setup(0)
    assert bench["check"]() < 1e-12
    bench["numpy_step"]()
    bench["torch_step"]()


def test_gradient_accurate_when_softmax_saturates():
    # at p = R p^mm the softmax is one-hot to ~e^{-R}; the gradient must keep its relative
    # accuracy (no cancellation in S'(a) gamma). Reference: 60-digit mpmath central differences.
    import mpmath as mp

    d = tokens.appendix_e(n=2, T=3, d=3, seed=6)
    r = svm.att_svm(d.keys, np.array([0, 1]))
    p = 60.0 * r.p / np.linalg.norm(r.p)       # 1 - max_t s_it ~ 1e-18: below float64 eps
    mp.mp.dps = 60

    def loss_mp(q):
        tot = mp.mpf(0)
        for i in range(2):
            a = [mp.fsum(mp.mpf(d.keys[i, t, j]) * q[j] for j in range(3)) for t in range(3)]
            e = [mp.exp(x - max(a)) for x in a]
            z = mp.fsum(e)
            f = mp.fsum(e[t] / z * mp.fsum(mp.mpf(d.X[i, t, j]) * mp.mpf(d.v[j]) for j in range(3))
                        for t in range(3))
            tot += mp.log(1 + mp.exp(-mp.mpf(d.Y[i]) * f))
        return tot / 2

    h = mp.mpf("1e-25")
    ref = []
    for j in range(3):
        qp = [mp.mpf(x) for x in p]
        qm = list(qp)
        qp[j] += h
        qm[j] -= h
        ref.append(float((loss_mp(qp) - loss_mp(qm)) / (2 * h)))
    ref = np.array(ref)
    g = tz.grad_p(d.X, d.Y, d.v, d.W, p)
    assert np.linalg.norm(ref) < 1e-15                    # genuinely saturated
    np.testing.assert_allclose(g, ref, rtol=1e-9, atol=1e-12 * np.linalg.norm(ref))


def test_trajectory_estimate_covers_the_measured_peak():
    import tracemalloc

    from boundcalc.engine import tarzanagh2023 as tz
    from boundcalc.engine.data import tokens
    data = tokens.fig3a()
    tracemalloc.start()
    tz.train(data, params="vp", lr=0.1, steps=3000, normalized=True)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    est = tz.trajectory_bytes(3000, data.X.shape[2])
    assert peak <= est <= 3 * peak, (peak, est)


def _gd_p_by_hand_float32(keys, gamma, p0, lr, steps):
    """Normalised GD on p with (15a) written out independently: every step's softmax and
    gradient in float32 (max-shifted softmax, s * (gamma - s^T gamma) centring), p in float64."""
    K, G = keys.astype(np.float32), gamma.astype(np.float32)
    n = K.shape[0]
    p = np.array(p0, dtype=np.float64)
    for _ in range(steps):
        z = K @ p.astype(np.float32)
        e = np.exp(z - z.max(axis=1, keepdims=True))
        s = e / e.sum(axis=1, keepdims=True)
        m = np.sum(s * G, axis=1)
        dl = -1.0 / (1.0 + np.exp(m))                                 # logistic l'
        g = np.einsum("nt,ntd->d", (dl / n)[:, None] * s * (G - m[:, None]), K).astype(np.float64)
        p = p - lr * g / np.linalg.norm(g)
    return p


def test_gd_p_in_float32_tracks_float64_and_keeps_float64_iterates():
    data = tokens.appendix_e(4, 6, 10, seed=3)
    gamma = data.Y[:, None] * (data.X @ data.v)
    p0 = 0.01 * ops.rng(2).standard_normal(10)
    kw = {"lr": 0.5, "steps": 40, "loss": "logistic", "normalized": True}
    a = tz.gd_p(data.keys, gamma, p0, **kw)
    b = tz.gd_p(data.keys, gamma, p0, dtype="float32", **kw)
    assert b["p"].dtype == np.float64 and b["grad_norm"].dtype == np.float64
    assert 0 < np.max(np.abs(b["p"] - a["p"])) < 1e-4 * np.linalg.norm(a["p"])   # float32 changed it, a little
    np.testing.assert_allclose(b["p"], _gd_p_by_hand_float32(data.keys, gamma, p0, 0.5, 40), rtol=1e-4, atol=1e-6)
    # batched float32 = each problem alone in float32
    many = [tokens.appendix_e(4, 6, 10, seed=s) for s in range(3)]
    keys = np.stack([x.keys for x in many])
    gam = np.stack([x.Y[:, None] * (x.X @ x.v) for x in many])
    P0 = 0.01 * ops.rng(5).standard_normal((3, 10))
    got = tz.gd_p(keys, gam, P0, dtype="float32", **kw)["p"]
    for k in range(3):
        np.testing.assert_allclose(got[k], tz.gd_p(keys[k], gam[k], P0[k], dtype="float32", **kw)["p"],
                                   rtol=1e-5, atol=1e-7)
    with pytest.raises(ValueError, match="dtype"):
        tz.gd_p(data.keys, gamma, p0, dtype="float16", **kw)


@pytest.mark.parametrize("params", ["p", "vp"])
def test_train_in_float32_tracks_float64(params):
    data = tokens.fig3a() if params == "vp" else tokens.fig1b()
    a = tz.train(data, params=params, lr=0.1, steps=100, normalized=True)
    b = tz.train(data, params=params, lr=0.1, steps=100, normalized=True, dtype="float32")
    assert b.p.dtype == np.float64 and b.loss.dtype == np.float64
    np.testing.assert_allclose(b.p, a.p, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(b.loss, a.loss, rtol=1e-4)
    assert np.any(b.loss != a.loss)                       # the steps really ran in float32
    with pytest.raises(ValueError, match="dtype"):
        tz.train(data, params=params, lr=0.1, steps=2, dtype="int8")


def _grad_p_keys_reference(keys, gamma, p, loss):
    """(15a) term by term, with the softmax Jacobian S' = diag(s) - s s^T formed explicitly
    and the margin y_i f(X_i) = s_i^T gamma_i (no centring, no shared t*)."""
    _, d1, _ = ops.margin_loss(loss)
    n = keys.shape[0]
    g = np.zeros(keys.shape[-1])
    for i in range(n):
        z = keys[i] @ p
        s = np.exp(z - z.max())
        s /= s.sum()
        J = np.diag(s) - np.outer(s, s)
        g += d1(float(s @ gamma[i])) * keys[i].T @ (J @ gamma[i])
    return g / n


@pytest.mark.parametrize("loss", LOSSES)
def test_grad_p_keys_batched_equals_reference_and_each_problem_alone(loss):
    """The fused (15a) of gd_p (issue 37: one matrix-vector product per problem) against
    the term-by-term reference to 1e-12, and a batch against each problem alone bit for bit."""
    from boundcalc.engine.tarzanagh2023.model import _grad_p_keys

    _, d1, _ = ops.margin_loss(loss)
    B, n, T, d = 7, 4, 6, 10
    data = [tokens.appendix_e(n, T, d, seed=s) for s in range(B)]
    keys = np.stack([x.keys for x in data])
    gamma = np.stack([x.Y[:, None] * (x.X @ x.v) for x in data])
    P = 0.5 * np.random.default_rng(1).standard_normal((B, d))
    gb, sb = _grad_p_keys(keys, gamma, P, d1)
    for b in range(B):
        ref = _grad_p_keys_reference(keys[b], gamma[b], P[b], loss)
        assert np.max(np.abs(gb[b] - ref)) <= 1e-12 * max(1.0, np.max(np.abs(ref)))
        g1, s1 = _grad_p_keys(keys[b], gamma[b], P[b], d1)
        np.testing.assert_array_equal(gb[b], g1)
        np.testing.assert_array_equal(sb[b], s1)
