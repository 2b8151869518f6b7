"""Tests of the Deora et al. (2023) multi-head attention engine.

Every derivative is compared with central finite differences of the model/loss *values*;
closed forms (W = 0 -> mean pooling, Lemma 2's first phase) are computed independently here.
"""
import numpy as np
import pytest
from scipy.optimize import minimize

from boundcalc.engine import deora2023 as D
from boundcalc.engine import ops
from boundcalc.engine.data.dm1 import make_dm1

DEC = D.DECODERS


def _instance(decoder, H=3, T=4, d=3, n=6, seed=0, std_W=0.7):
    g = ops.rng(seed)
    p = D.init_gaussian(H, T, d, decoder, std_U=1.0, std_W=std_W, seed=seed + 1)
    X = g.standard_normal((n, T, d))
    y = g.choice([-1.0, 1.0], size=n)
    return p, X, y


def _fd_hessian(f_grad, x, eps=1e-5):
    cols = [(f_grad(x + eps * e) - f_grad(x - eps * e)) / (2 * eps) for e in np.eye(x.size)]
    Hm = np.column_stack(cols)
    return 0.5 * (Hm + Hm.T)


@pytest.mark.parametrize("decoder", DEC)
@pytest.mark.parametrize("loss", ["logistic", "exponential"])
def test_gradient_matches_finite_differences(decoder, loss):
    p, X, y = _instance(decoder)
    L, g = D.loss_and_grad(p, X, y, loss)
    fd = ops.finite_difference_grad(lambda v: D.loss(p.like(v), X, y, loss), p.flat())
    assert L == pytest.approx(D.loss(p, X, y, loss), rel=1e-14)
    np.testing.assert_allclose(g.flat(), fd, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("decoder", DEC)
def test_hvp_matches_finite_differences_of_gradient(decoder):
    p, X, y = _instance(decoder, seed=3)
    v = ops.rng(9).standard_normal(p.size)
    eps = 1e-6
    th = p.flat()
    fd = (D.loss_and_grad(p.like(th + eps * v), X, y)[1].flat()
          - D.loss_and_grad(p.like(th - eps * v), X, y)[1].flat()) / (2 * eps)
    np.testing.assert_allclose(D.hvp(p, X, y, v).flat(), fd, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("decoder", DEC)
def test_model_jvp_features_and_gram_match_finite_differences(decoder):
    p, X, _y = _instance(decoder, seed=5)
    th = p.flat()
    n = X.shape[0]
    J_fd = np.stack([ops.finite_difference_grad(lambda v, i=i: D.forward(p.like(v), X)[i], th)
                     for i in range(n)])
    J = D.ntk_features(p, X, max_bytes=1)          # one head per chunk
    np.testing.assert_allclose(J, J_fd, rtol=1e-6, atol=1e-8)
    K = D.ntk_gram(p, X, max_bytes=1, sample_chunk=4)
    np.testing.assert_allclose(K, J_fd @ J_fd.T, rtol=1e-6, atol=1e-7)
    v = ops.rng(2).standard_normal(p.size)
    np.testing.assert_allclose(D.model_jvp(p, X, v), J_fd @ v, rtol=1e-6, atol=1e-8)
    c = ops.rng(3).standard_normal(n)
    np.testing.assert_allclose(D.model_vjp(p, X, c).flat(), c @ J_fd, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("decoder", DEC)
def test_model_hvp_matches_finite_differences(decoder):
    p, X, _ = _instance(decoder, seed=11)
    c = ops.rng(1).standard_normal(X.shape[0])
    v = ops.rng(2).standard_normal(p.size)
    eps = 1e-6
    th = p.flat()
    fd = (D.model_vjp(p.like(th + eps * v), X, c).flat()
          - D.model_vjp(p.like(th - eps * v), X, c).flat()) / (2 * eps)
    np.testing.assert_allclose(D.model_hvp(p, X, c, v).flat(), fd, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("decoder", DEC)
def test_zero_attention_weights_give_mean_pooling(decoder):
    p, X, _ = _instance(decoder, H=4, T=5, d=3, n=7, std_W=0.0)
    T = X.shape[1]
    xbar = X.mean(axis=1)                                   # softmax(0) = uniform rows
    want = np.zeros(X.shape[0])
    for h in range(p.H):
        Uh = D.decoder_matrix(p, h, T)
        want += np.einsum("td,nd->n", Uh, xbar)
    want /= np.sqrt(p.H)
    np.testing.assert_allclose(D.forward(p, X), want, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(D.head_outputs(p, X).sum(axis=1) / np.sqrt(p.H), want,
                               rtol=1e-13, atol=1e-14)


def test_forward_matches_explicit_per_sample_loop():
    p, X, _ = _instance("full", H=3, T=4, d=3, n=5)
    want = []
    for x in X:
        tot = 0.0
        for h in range(p.H):
            Z = x @ p.W[h] @ x.T
            S = np.exp(Z - Z.max(axis=1, keepdims=True))
            S /= S.sum(axis=1, keepdims=True)
            tot += np.sum(p.U[h] * (S @ x))
        want.append(tot / np.sqrt(p.H))
    np.testing.assert_allclose(D.forward(p, X), want, rtol=1e-13)


def test_softmax_is_stable_for_huge_logits():
    p, X, y = _instance("full", std_W=0.0)
    p.W[:] = 1e6 * np.eye(X.shape[2])
    L, g = D.loss_and_grad(p, X, y)
    assert np.isfinite(L) and np.all(np.isfinite(g.flat()))


def test_block_size_does_not_change_the_gradient():
    p, X, y = _instance("full", H=5, T=6, d=4, n=37)
    a = D.loss_and_grad(p, X, y, chunk=37)
    b = D.loss_and_grad(p, X, y, chunk=4)
    assert a[0] == pytest.approx(b[0], rel=1e-14)
    np.testing.assert_allclose(a[1].flat(), b[1].flat(), rtol=1e-13, atol=1e-16)


@pytest.mark.parametrize("decoder", DEC)
def test_first_phase_matches_lemma2_closed_form(decoder):
    g = ops.rng(4)
    n1, T, d, H = 50, 5, 4, 6
    X1 = g.standard_normal((n1, T, d))
    y1 = g.choice([-1.0, 1.0], size=n1)
    p1, alphas = D.first_phase(X1, y1, H, decoder, seed=8)
    assert set(np.unique(alphas)) <= {-1.0, 1.0}
    # theta^(1)_h = -alpha_h sqrt(H) grad_h L(0); at 0: Phi = 0, l'(0) = -1/2, softmax rows 1/T
    v = (y1[:, None] * X1.mean(axis=1)).sum(axis=0) / (2 * n1)
    np.testing.assert_array_equal(p1.W, 0.0)
    for h in range(H):
        if decoder == "full":
            np.testing.assert_allclose(p1.U[h], alphas[h] * np.outer(np.ones(T), v), rtol=1e-12)
        elif decoder == "pooling":       # u enters T rows: gradient T * xbar
            np.testing.assert_allclose(p1.U[h], alphas[h] * T * v, rtol=1e-12)
        else:
            np.testing.assert_allclose(p1.U[h], alphas[h] * v, rtol=1e-12)


def test_first_phase_on_dm1_projects_onto_patterns_exactly():
    """Noise without components along mu_pm: <U_h row, mu_+> = alpha zeta S^2 n_+/(2 n1) exactly.

    (Lemma 2 writes the leading term as (zeta/2) u_*; with equiprobable labels n_+ ~ n1/2,
    so the coefficient of u_* is zeta/4 -- see the engine report.)"""
    dm = make_dm1(T=8, d=10, M=3, S=1.5, zeta=0.25, z_nu=0.3, z_perp_norm=0.4)
    s = dm.sample(400, seed=2)
    p1, al = D.first_phase(s.X, s.y, 3, "full", seed=1)
    npos, nneg = np.sum(s.y > 0), np.sum(s.y < 0)
    row = p1.U[0, 0] / al[0]
    assert row @ dm.mu_plus == pytest.approx(dm.zeta * dm.S ** 2 * npos / (2 * 400), rel=1e-12)
    assert row @ dm.mu_minus == pytest.approx(-dm.zeta * dm.S ** 2 * nneg / (2 * 400), rel=1e-12)


def test_runs_are_bit_reproducible():
    dm = make_dm1(T=4, d=6, M=2, S=1.0, zeta=0.5, z_nu=0.2, z_perp_norm=0.3)
    out = []
    for _ in range(2):
        s1, s2 = dm.sample(30, seed=1), dm.sample(40, seed=2)
        p1, _ = D.first_phase(s1.X, s1.y, 8, "full", seed=3)
        r = D.train(p1, s2.X, s2.y, eta=0.5, steps=5, X_test=s1.X, y_test=s1.y, eval_every=2)
        out.append(r)
    a, b = out
    assert np.array_equal(a.params.flat(), b.params.flat())
    for k in ("train_loss", "grad_norm", "dist_init", "test_loss"):
        assert np.array_equal(getattr(a, k), getattr(b, k))


def test_training_decreases_loss_and_history_is_consistent():
    dm = make_dm1(T=4, d=6, M=2, S=1.0, zeta=0.5, z_nu=0.2, z_perp_norm=0.3)
    s1, s2 = dm.sample(100, seed=1), dm.sample(60, seed=2)
    p1, _ = D.first_phase(s1.X, s1.y, 8, "full", seed=3)
    r = D.train(p1, s2.X, s2.y, eta=0.5, steps=20)
    assert r.train_loss[-1] < r.train_loss[0]
    assert r.train_loss[0] == pytest.approx(D.loss(p1, s2.X, s2.y), rel=1e-14)
    assert r.grad_norm[0] == pytest.approx(D.grad_norm(p1, s2.X, s2.y), rel=1e-12)
    assert r.dist_init[0] == 0.0
    assert D.distance(r.params, p1).total <= 20 * 0.5 * r.grad_norm.max() + 1e-12


def test_measurements_match_direct_numpy():
    p, X, y = _instance("full", H=4, seed=7)
    q, _, _ = _instance("full", H=4, seed=8)
    dd = D.distance(p, q)
    dU = np.linalg.norm((p.U - q.U).reshape(4, -1), axis=1)
    dW = np.linalg.norm((p.W - q.W).reshape(4, -1), axis=1)
    np.testing.assert_allclose(dd.per_head, np.hypot(dU, dW))
    assert dd.total == pytest.approx(np.linalg.norm(p.flat() - q.flat()))
    assert dd.U_total == pytest.approx(np.linalg.norm(p.U - q.U))
    assert D.norm_2inf(p) == pytest.approx(max(np.linalg.norm(np.r_[p.U[h].ravel(), p.W[h].ravel()])
                                               for h in range(4)))
    assert D.B2(p) == D.norm_2inf(p)
    assert D.B_Phi(p, X) == pytest.approx(np.max(np.abs(D.forward(p, X))))
    np.testing.assert_allclose(D.margins(p, X, y), y * D.forward(p, X))


def test_hessian_extreme_eigenvalues_dense_and_lanczos_agree_with_fd_hessian():
    p, X, y = _instance("pooling", H=2, T=3, d=3, n=5, seed=2)
    Hfd = _fd_hessian(lambda v: D.loss_and_grad(p.like(v), X, y)[1].flat(), p.flat())
    w = np.linalg.eigvalsh(Hfd)
    for dense_below in (200, 0):
        lo, hi = D.hessian_extreme_eigenvalues(p, X, y, dense_below=dense_below, tol=1e-10)
        assert lo == pytest.approx(w[0], abs=1e-6)
        assert hi == pytest.approx(w[-1], abs=1e-6)


@pytest.mark.parametrize("decoder", DEC)
def test_single_head_gradient_and_hessian_norms(decoder):
    p, X, _ = _instance(decoder, H=3, T=3, d=2, n=4, seed=6)
    h, i = 1, 2
    sub = p.heads(slice(h, h + 1))

    def phi(v):                      # unscaled single-head output = sqrt(1) * Phi~ of 1 head
        return D.forward(sub.like(v), X[i:i + 1])[0]

    g = ops.finite_difference_grad(phi, sub.flat())
    assert D.head_gradient_norms(p, X)[i, h] == pytest.approx(np.linalg.norm(g), rel=1e-7)
    Hfd = _fd_hessian(lambda v: ops.finite_difference_grad(phi, v, 1e-5), sub.flat(), 1e-4)
    assert D.head_hessian_norm(p, X[i], h) == pytest.approx(np.max(np.abs(np.linalg.eigvalsh(Hfd))),
                                                            rel=1e-4)


@pytest.mark.parametrize("decoder", DEC)
def test_prop1_bounds_hold_on_random_instances(decoder):
    """Sanity of Prop. 1 (a claim of the paper) against the measured norms."""
    p, X, _ = _instance(decoder, H=4, T=4, d=3, n=5, seed=12, std_W=1.0)
    gn = D.head_gradient_norms(p, X)
    for h in range(p.H):
        U = D.decoder_matrix(p, h, X.shape[1])
        for i in range(X.shape[0]):
            gb, hb = D.prop1_bounds(X[i], U)
            assert gn[i, h] <= gb
            assert D.head_hessian_norm(p, X[i], h) <= hb


def test_ntk_margin_normalisation_against_independent_primal_solve():
    dm = make_dm1(T=4, d=6, M=2, S=1.0, zeta=0.5, z_mu=0.05, z_nu=0.2, z_perp_norm=0.3)
    s1, s2 = dm.sample(200, seed=1), dm.sample(12, seed=2)
    p1, _ = D.first_phase(s1.X, s1.y, 4, "full", seed=0)
    res = D.ntk_margin(p1, s2.X, s2.y)
    assert res.status == "optimal"
    F = np.stack([ops.finite_difference_grad(lambda v, i=i: D.forward(p1.like(v), s2.X)[i], p1.flat())
                  for i in range(12)])
    Z = s2.y[:, None] * F
    w0 = np.linalg.lstsq(Z, np.ones(12), rcond=None)[0]
    sol = minimize(lambda w: w @ w, w0, jac=lambda w: 2 * w, method="SLSQP",
                   constraints=[{"type": "ineq", "fun": lambda w: Z @ w - 1, "jac": lambda w: Z}],
                   options={"ftol": 1e-14, "maxiter": 500})
    gamma_primal = np.sqrt(2.0) / np.linalg.norm(sol.x)
    assert res.gamma == pytest.approx(gamma_primal, rel=1e-5)
    assert res.gamma == pytest.approx(np.sqrt(2.0) * res.geometric_margin)
    # theta* has norm sqrt 2 and attains the margin: min_i y_i <grad Phi~_i, theta*> = gamma
    assert np.linalg.norm(res.theta_star.flat()) == pytest.approx(np.sqrt(2.0))
    assert np.min(Z @ res.theta_star.flat()) == pytest.approx(res.gamma, rel=1e-5)


@pytest.mark.parametrize("bad", [
    lambda: D.MHAParams(np.zeros((2, 3)), np.zeros((2, 3, 3)), "middle"),
    lambda: D.MHAParams(np.zeros((2, 3)), np.zeros((2, 3, 3)), "full"),
    lambda: D.init_zero(0, 3, 3),
    lambda: D.forward(D.init_zero(2, 3, 3), np.zeros((4, 3, 2))),
    lambda: D.forward(D.init_zero(2, 3, 3), np.zeros((4, 5, 3))),
    lambda: D.loss(D.init_zero(2, 3, 3), np.zeros((4, 3, 3)), np.array([1, 0, 1, 1])),
    lambda: D.train(D.init_zero(2, 3, 3), np.zeros((4, 3, 3)), np.ones(4), eta=0.0, steps=3),
    lambda: D.loss_and_grad(D.init_zero(2, 3, 3), np.zeros((4, 3, 3)), np.ones(4), chunk=0),
    lambda: D.loss(D.init_zero(2, 3, 3), np.zeros((4, 3, 3)), np.ones(4), loss="hinge"),
    lambda: D.head_hessian_norm(D.init_zero(2, 3, 3), np.zeros((3, 3)), h=5),
])
def test_bad_input_raises_value_error(bad):
    with pytest.raises(ValueError):
        bad()


def test_two_phase_is_first_phase_then_gd_on_fresh_samples():
    dm = make_dm1(T=4, d=6, M=2, S=1.0, zeta=0.5, z_nu=0.2, z_perp_norm=0.3)
    s1, s2 = dm.sample(40, seed=1), dm.sample(30, seed=2)
    res = D.two_phase(s1.X, s1.y, s2.X, s2.y, 6, "last", eta=0.3, steps=4, seed=5)
    p1, al = D.first_phase(s1.X, s1.y, 6, "last", seed=5)
    assert np.array_equal(res.alphas, al) and np.array_equal(res.theta1.flat(), p1.flat())
    p = p1.copy()
    for _ in range(4):
        _, g = D.loss_and_grad(p, s2.X, s2.y)
        p = p.like(p.flat() - 0.3 * g.flat())
    np.testing.assert_allclose(res.run.params.flat(), p.flat(), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("decoder", DEC)
def test_blocked_tangent_passes_equal_single_block(decoder):
    p, X, y = _instance(decoder, n=9, seed=21)
    v = ops.rng(1).standard_normal(p.size)
    c = ops.rng(2).standard_normal(9)
    for f in (lambda ch: D.hvp(p, X, y, v, chunk=ch).flat(),
              lambda ch: D.model_hvp(p, X, c, v, chunk=ch).flat(),
              lambda ch: D.model_vjp(p, X, c, chunk=ch).flat(),
              lambda ch: D.model_jvp(p, X, v, chunk=ch)):
        np.testing.assert_allclose(f(2), f(9), rtol=1e-12, atol=1e-15)


# --- the fused step (issue 20) ----------------------------------------------------------

def _reference_grad(p, X, y):
    """The unfused path (max-shifted softmax, ``_forward``/``_backward``) with the logistic
    weights c_i = l'(y_i Phi_i) y_i / n computed here."""
    f = D._forward(p, X)
    m = y * f.phi
    c = -np.exp(-np.logaddexp(0.0, m)) * y / X.shape[0]
    return float(np.mean(np.logaddexp(0.0, -m))), D._to_params(p, *D._backward(p, f, c))


@pytest.mark.parametrize("decoder", DEC)
def test_fused_step_equals_unfused_path(decoder):
    p, X, y = _instance(decoder, H=4, T=6, d=5, n=40, seed=2)
    assert D.logit_bound(p, X) < ops.LOGIT_LIMIT[np.dtype(np.float64)]       # the unshifted path
    L, g = D.loss_and_grad(p, X, y)
    Lr, gr = _reference_grad(p, X, y)
    assert L == pytest.approx(Lr, rel=1e-13)
    assert np.max(np.abs(g.flat() - gr.flat())) <= 1e-12 * np.max(np.abs(gr.flat()))


@pytest.mark.parametrize("decoder", DEC)
def test_fused_step_in_several_default_blocks_equals_unfused_path(decoder):
    """At the bench's shape (T = 8, d = 16, H = 32) the default block is 16 samples in
    float64 and 32 in float32 (issue 37; 128 and 256 for the 'last' decoder, K = H), so
    n = 70 (300) runs in several blocks, a short last one."""
    from boundcalc.engine.deora2023.kernels import _step_chunk

    n, K = (300, 32) if decoder == "last" else (70, 8 * 32)
    p, X, y = _instance(decoder, H=32, T=8, d=16, n=n, seed=3, std_W=0.1)
    for itemsize in (8, 4):
        chunk = _step_chunk(n, 8, K, itemsize)
        assert chunk < n and n % chunk != 0
    L, g = D.loss_and_grad(p, X, y)
    Lr, gr = _reference_grad(p, X, y)
    assert L == pytest.approx(Lr, rel=1e-13)
    assert np.max(np.abs(g.flat() - gr.flat())) <= 1e-12 * np.max(np.abs(gr.flat()))
    # float32: the block arithmetic in single precision, the result within its rounding
    L32, gU32, gW32 = D.kernels._loss_grad_blocks(p, X.astype(np.float32), y, "logistic", dtype=np.float32)
    g32 = D.kernels._to_params(p, gU32, gW32)
    assert gU32.dtype == np.float64 and L32 == pytest.approx(Lr, rel=1e-5)
    assert np.max(np.abs(g32.flat() - gr.flat())) <= 1e-4 * np.max(np.abs(gr.flat()))


@pytest.mark.parametrize("decoder", ["full", "pooling"])
def test_all_queries_step_with_the_shift_in_short_blocks_equals_unfused_path(decoder):
    """The step around large products (every token a query, issue 37): head-major query
    rows, phi from the adjoint's centring, grad U_eff and grad W from products over the
    block's tokens, the loss summed after the blocks. Against the unfused path with the
    max subtraction taken (logit bound > 600, logits up to 315-503), in blocks of 3 with a
    short last one, and a batch of two problems (one shifted, one not) against each alone."""
    from boundcalc.engine.deora2023.kernels import _loss_grad_batch

    p, X, y = _instance(decoder, H=3, T=5, d=4, n=11, seed=6, std_W=20.0)
    q, _, _ = _instance(decoder, H=3, T=5, d=4, n=11, seed=7, std_W=0.3)
    assert ops.softmax_needs_shift(D.logit_bound(p, X), np.float64)
    assert not ops.softmax_needs_shift(D.logit_bound(q, X), np.float64)
    Lr, gr = _reference_grad(p, X, y)
    L, gU, gW = D.kernels._loss_grad_blocks(p, X, y, "logistic", chunk=3)
    g = D.kernels._to_params(p, gU, gW)
    assert L == pytest.approx(Lr, rel=1e-13)
    assert np.max(np.abs(g.flat() - gr.flat())) <= 1e-12 * np.max(np.abs(gr.flat()))
    Lb, gUb, gWb = _loss_grad_batch([p, q], np.stack([X, X]), np.stack([y, y]), "logistic", 3)
    for b, pb in enumerate((p, q)):
        Lq, gq = _reference_grad(pb, X, y)
        gb = D.kernels._to_params(pb, gUb[b], gWb[b])
        assert Lb[b] == pytest.approx(Lq, rel=1e-13)
        assert np.max(np.abs(gb.flat() - gq.flat())) <= 1e-12 * np.max(np.abs(gq.flat()))


def test_logit_bound_bounds_every_logit_and_the_edge_of_the_limit():
    p, X, _y = _instance("full", H=3, T=5, d=4, n=20, seed=4, std_W=3.0)
    Z = np.einsum("nta,hab,nsb->nhts", X, p.W, X)
    assert np.max(np.abs(Z)) <= D.logit_bound(p, X)
    # logits up to 599 (bound under the limit: no shift) and 700 (shifted); exp(700) alone
    # would overflow float64
    for s, shifted in ((599.0, False), (700.0, True)):
        q = D.init_gaussian(2, 3, 2, "full", std_U=1.0, std_W=0.0, seed=0)
        q.W[:, 0, 0] = s
        Xe = np.zeros((4, 3, 2))
        Xe[:, :, 0] = np.linspace(0.3, 1.0, 3)                # token norms <= 1, aligned
        Xe[:, :, 1] = 0.0
        ye = np.array([1.0, -1.0, 1.0, -1.0])
        assert ops.softmax_needs_shift(D.logit_bound(q, Xe), np.float64) == shifted
        with np.errstate(over="raise", invalid="raise"):
            L, g = D.loss_and_grad(q, Xe, ye)
        Lr, gr = _reference_grad(q, Xe, ye)
        assert L == pytest.approx(Lr, rel=1e-13)
        assert np.max(np.abs(g.flat() - gr.flat())) <= 1e-12 * max(1.0, np.max(np.abs(gr.flat())))


def test_float32_training_tracks_float64():
    dm = make_dm1(T=8, d=16, M=2, S=1.0, zeta=0.5, z_mu=0.01, z_nu=0.01, z_perp_norm=0.1)
    s1, s2 = dm.sample(64, seed=0), dm.sample(300, seed=1)
    p, _ = D.first_phase(s1.X, s1.y, 8, "full", seed=0)
    a = D.train(p, s2.X, s2.y, eta=0.5, steps=100)
    b = D.train(p, s2.X, s2.y, eta=0.5, steps=100, dtype="float32")
    assert b.train_loss[-1] < 0.5 * b.train_loss[0]
    np.testing.assert_allclose(b.train_loss, a.train_loss, rtol=1e-4)
    assert b.params.W.dtype == np.float64
    with pytest.raises(ValueError, match="dtype"):
        D.train(p, s2.X, s2.y, eta=0.5, steps=1, dtype="int8")


@pytest.mark.parametrize("decoder", ["full", "pooling", "last"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_train_batch_equals_each_problem_alone(decoder, dtype):
    """B independent problems in lock-step (a leading batch axis): each gets the iterates,
    losses, gradient norms and distances it gets from train() alone."""
    from boundcalc.engine.data.dm1 import make_dm1

    dm = make_dm1(T=4, d=7, M=2, S=1.0, zeta=0.5, z_mu=0.05, z_nu=0.05, z_perp_norm=0.1)
    probs = []
    for b in range(3):
        s1, s = dm.sample(30, seed=10 + b), dm.sample(150, seed=20 + b)    # 150 > one block: chunks
        p, _ = D.first_phase(s1.X, s1.y, 5, decoder, seed=b)
        p.W += 0.3 * np.random.default_rng(b).standard_normal(p.W.shape)
        probs.append((p, s.X, s.y))
    probs[1][0].W *= 400.0                  # problem 1 needs the max-shifted softmax, the others not
    assert [ops.softmax_needs_shift(D.logit_bound(p, X), np.dtype(dtype)) for p, X, _ in probs] == [False, True, False]
    got = D.train_batch([p for p, _, _ in probs], np.stack([X for _, X, _ in probs]),
                        np.stack([y for _, _, y in probs]), eta=0.5, steps=12, dtype=dtype)
    tol = 1e-12 if dtype == "float64" else 1e-6
    for (p, X, y), g in zip(probs, got):
        one = D.train(p, X, y, eta=0.5, steps=12, dtype=dtype)
        for a, b in ((g.params.U, one.params.U), (g.params.W, one.params.W), (g.train_loss, one.train_loss),
                     (g.grad_norm, one.grad_norm), (g.dist_init, one.dist_init)):
            np.testing.assert_allclose(a, b, rtol=tol, atol=tol * np.max(np.abs(b)))
        assert not np.array_equal(g.params.W, p.W)                    # it trained


def test_train_batch_names_the_diverging_problem_and_checks_shapes():
    from boundcalc.engine.budget import Divergence
    from boundcalc.engine.data.dm1 import make_dm1

    dm = make_dm1(T=4, d=7, M=2, S=1.0, zeta=0.5, z_mu=0.05, z_nu=0.05, z_perp_norm=0.1)
    s1, s = dm.sample(20, seed=1), dm.sample(20, seed=2)
    p, _ = D.first_phase(s1.X, s1.y, 3, "full", seed=0)
    X = np.stack([s.X, s.X])
    y = np.stack([s.y, s.y])
    q = p.copy()
    q.W[0, 0, 0] = np.inf                                      # only problem 1 is not finite
    with pytest.raises(Divergence, match="problem 1"):
        D.train_batch([p, q], X, y, eta=0.1, steps=3)
    assert np.isfinite(D.train(p, s.X, s.y, eta=0.1, steps=3).train_loss).all()
    with pytest.raises(ValueError, match="shape"):
        D.train_batch([p, p], s.X, y, eta=0.1, steps=1)
    with pytest.raises(ValueError, match="y must"):
        D.train_batch([p, p], X, s.y, eta=0.1, steps=1)
