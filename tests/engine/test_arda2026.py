"""Tests of the Arda, Cayci & Eryilmaz (2026) shallow-transformer engine.

Derivatives are checked against central finite differences of model/loss values; closed
forms (paired init, eq. (11) consequence, Remark 3) are computed independently here.
"""
import numpy as np
import pytest

from boundcalc.engine import arda2026 as A
from boundcalc.engine import ops
from boundcalc.engine.data.transport import clipped_gaussian_inputs, make_teacher


def _instance(m=6, d=3, T=4, n=7, seed=0, jitter=0.3):
    g = ops.rng(seed)
    p0 = A.paired_init(m, d, seed=seed + 1)
    p = p0.like(p0.flat() + jitter * g.standard_normal(p0.size))
    X = clipped_gaussian_inputs(n, d, T, g)
    y = g.standard_normal(n)
    return p0, p, X, y


def _explicit_forward(p, X, q=None):
    """Per-sample, per-head loop straight from eqs. (2)-(4)."""
    out = []
    for j in range(X.shape[0]):
        x = X[j]
        qx = x[:, -1] if q is None else q
        tot = 0.0
        for i in range(p.m):
            z = x.T @ p.W[i] @ qx
            al = np.exp(z - z.max())
            al /= al.sum()
            tot += p.c[i] * np.tanh(p.U[i] @ (x @ al))
        out.append(tot / np.sqrt(p.m))
    return np.array(out)


def test_paired_init_structure_and_zero_output():
    p0 = A.paired_init(8, 3, seed=0)
    np.testing.assert_array_equal(p0.U[:4], p0.U[4:])
    np.testing.assert_array_equal(p0.W[:4], p0.W[4:])
    np.testing.assert_array_equal(p0.c[:4], -p0.c[4:])
    assert set(np.abs(p0.c)) == {1.0}
    X = clipped_gaussian_inputs(50, 3, 5, seed=1)
    np.testing.assert_allclose(A.forward(p0, X), 0.0, atol=1e-15)


@pytest.mark.parametrize("query", ["last", "fixed", "per-sample"])
def test_forward_matches_explicit_loop(query):
    _, p, X, _ = _instance()
    if query == "last":
        np.testing.assert_allclose(A.forward(p, X), _explicit_forward(p, X), rtol=1e-13)
    elif query == "fixed":
        q = np.array([0.3, -0.2, 0.5])
        np.testing.assert_allclose(A.forward(p, X, query=q), _explicit_forward(p, X, q), rtol=1e-13)
    else:
        Q = ops.rng(3).standard_normal((X.shape[0], 3))
        want = [_explicit_forward(p, X[j:j + 1], Q[j])[0] for j in range(X.shape[0])]
        np.testing.assert_allclose(A.forward(p, X, query=Q), want, rtol=1e-13)


@pytest.mark.parametrize("seed", [0, 1])
def test_gradient_matches_finite_differences(seed):
    _, p, X, y = _instance(seed=seed)
    L, g = A.loss_and_grad(p, X, y)
    assert L == pytest.approx(np.mean((_explicit_forward(p, X) - y) ** 2), rel=1e-13)
    fd = ops.finite_difference_grad(lambda v: A.loss(p.like(v), X, y), p.flat())
    np.testing.assert_allclose(g.flat(), fd, rtol=1e-6, atol=1e-9)


def test_gradient_with_custom_query_and_block_sizes():
    _, p, X, y = _instance(n=23)
    q = np.array([0.1, 0.7, -0.4])
    g = A.loss_and_grad(p, X, y, query=q)[1].flat()
    fd = ops.finite_difference_grad(lambda v: A.loss(p.like(v), X, y, query=q), p.flat())
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-9)
    Q = np.broadcast_to(q, (23, 3))
    a = A._loss_and_grad(p, X, Q, y, A.TANH, chunk=23)[1].flat()
    b = A._loss_and_grad(p, X, Q, y, A.TANH, chunk=2)[1].flat()
    np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-17)


def test_jvp_and_features_match_lemma1_by_finite_differences():
    _, p, X, _ = _instance(m=4)
    v = p.like(ops.rng(5).standard_normal(p.size))
    eps = 1e-6
    fd = (A.forward(p.like(p.flat() + eps * v.flat()), X)
          - A.forward(p.like(p.flat() - eps * v.flat()), X)) / (2 * eps)
    np.testing.assert_allclose(A.model_jvp(p, X, v), fd, rtol=1e-6, atol=1e-9)
    # random features: d f / d c_i = m^{-1/2} phi_c, grad_U_i f = m^{-1/2} c_i phi_u,
    # grad_W_i f = m^{-1/2} c_i phi_w (Lemma 1 / Sec. 5.4), head i = 1, sample j = 2
    F = A.random_features(p.U, p.W, X)
    i, j, m, d = 1, 2, p.m, p.d
    J = ops.finite_difference_grad(lambda w: A.forward(p.like(w), X[j:j + 1])[0], p.flat())
    per = J.reshape(m, 1 + d + d * d)[i]
    assert per[0] == pytest.approx(F["phi_c"][j, i] / np.sqrt(m), rel=1e-7)
    np.testing.assert_allclose(per[1:1 + d], p.c[i] * F["phi_u"][j, i] / np.sqrt(m), rtol=1e-6)
    phi_w = np.outer(F["phi_w_left"][j, i], F["q"][j])
    np.testing.assert_allclose(per[1 + d:].reshape(d, d), p.c[i] * phi_w / np.sqrt(m),
                               rtol=1e-6, atol=1e-10)


def test_head_MU_is_softmax_covariance_remark3():
    _, p, X, _ = _instance(m=4, d=3, T=5)
    t = A.head_terms(p.U, p.W, X, X[:, :, -1])
    MU = A.head_MU(t, X)
    for j in range(X.shape[0]):
        for i in range(p.m):
            al = t.alpha[j, i]
            mu = X[j] @ al
            M = (X[j] * al) @ X[j].T - np.outer(mu, mu)
            J = np.diag(al) - np.outer(al, al)
            np.testing.assert_allclose(M, X[j] @ J @ X[j].T, atol=1e-14)   # eq. (8)
            assert np.trace(M) <= 1 + 1e-12 and np.linalg.norm(M) <= 1 + 1e-12
            np.testing.assert_allclose(MU[j, i], M @ p.U[i], atol=1e-13)


def test_f_lin_is_first_order_taylor():
    p0, _, X, _ = _instance(m=6)
    D = p0.like(ops.rng(2).standard_normal(p0.size))
    errs = []
    for t in (1e-2, 5e-3):
        pt = p0.like(p0.flat() + t * D.flat())
        errs.append(np.max(np.abs(A.forward(pt, X) - A.f_lin(pt, p0, X))))
    assert errs[1] / errs[0] == pytest.approx(0.25, rel=0.05)       # O(t^2) remainder
    np.testing.assert_allclose(A.f_lin(p0, p0, X), 0.0, atol=1e-15)


def test_projection_onto_per_head_balls():
    p0 = A.paired_init(4, 3, seed=0)
    g = ops.rng(1)
    rho = (0.5, 1.0, 2.0)
    far = p0.like(p0.flat() + 10 * g.standard_normal(p0.size))
    P = A.project(far, p0, rho)
    d = A.distance(P, p0)
    r = np.array(rho) / np.sqrt(4)
    np.testing.assert_allclose(d.c, r[0]); np.testing.assert_allclose(d.U, r[1])
    np.testing.assert_allclose(d.W, r[2])
    # direction preserved (radial), idempotent, identity inside
    np.testing.assert_allclose(np.sign(P.c - p0.c), np.sign(far.c - p0.c))
    cos = np.sum((P.W - p0.W) * (far.W - p0.W), axis=(1, 2)) / (d.W * A.distance(far, p0).W)
    np.testing.assert_allclose(cos, 1.0)
    np.testing.assert_allclose(A.project(P, p0, rho).flat(), P.flat())
    near = p0.like(p0.flat() + 1e-3 * g.standard_normal(p0.size))
    np.testing.assert_array_equal(A.project(near, p0, rho).flat(), near.flat())
    # nearest point: no random feasible point is closer to `far`
    dist = np.linalg.norm(P.flat() - far.flat())
    for _ in range(50):
        cand = A.project(p0.like(p0.flat() + g.standard_normal(p0.size)), p0, rho)
        assert np.linalg.norm(cand.flat() - far.flat()) >= dist - 1e-12


def test_proj_gd_step_and_run():
    p0, _, X, y = _instance(m=8, n=30)
    rho = (0.5, 0.5, 0.5)
    eta = 0.5
    # one step by hand: gradient step then projection
    L, g = A.loss_and_grad(p0, X, y)
    manual = A.project(p0.like(p0.flat() - eta * g.flat()), p0, rho)
    step, L1, gn = A.proj_gd_step(p0.copy(), p0, X, y, eta=eta, rho=rho)
    np.testing.assert_allclose(step.flat(), manual.flat(), rtol=1e-14)
    assert L1 == pytest.approx(L) and gn == pytest.approx(np.linalg.norm(g.flat()))
    # a run: iterates stay in Omega_rho, history and average are consistent
    res = A.proj_gd(p0, X, y, eta=eta, steps=6, rho=rho)
    iters, p = [p0.copy()], p0.copy()
    for _ in range(6):
        p, _, _ = A.proj_gd_step(p, p0, X, y, eta=eta, rho=rho)
        iters.append(p.copy())
    np.testing.assert_allclose(res.params.flat(), iters[-1].flat(), rtol=1e-13)
    np.testing.assert_allclose(res.average.flat(), np.mean([q.flat() for q in iters[:6]], axis=0),
                               rtol=1e-13)
    np.testing.assert_allclose(res.train_loss, [A.loss(q, X, y) for q in iters[:6]], rtol=1e-13)
    assert res.min_train_loss == np.min(res.train_loss)
    assert res.train_loss[-1] < res.train_loss[0]
    d = A.distance(res.params, p0)
    r = 0.5 / np.sqrt(8)
    assert d.c.max() <= r + 1e-12 and d.U.max() <= r + 1e-12 and d.W.max() <= r + 1e-12


def test_runs_are_bit_reproducible():
    p0, _, X, y = _instance(m=6, n=20)
    a = A.proj_gd(p0, X, y, eta=0.3, steps=5, rho=(1, 1, 1), X_test=X[:5], y_test=y[:5], eval_every=2)
    b = A.proj_gd(p0, X, y, eta=0.3, steps=5, rho=(1, 1, 1), X_test=X[:5], y_test=y[:5], eval_every=2)
    assert np.array_equal(a.params.flat(), b.params.flat())
    assert np.array_equal(a.train_loss, b.train_loss) and np.array_equal(a.test_loss, b.test_loss)
    np.testing.assert_array_equal(a.test_steps, [0, 2, 4, 5])
    assert a.test_loss[0] == pytest.approx(np.mean(y[:5] ** 2), rel=1e-14)       # f(phi0) = 0
    assert a.test_loss[-1] == pytest.approx(A.loss(a.params, X[:5], y[:5]), rel=1e-13)
    s1 = A.proj_sgd(p0, X, y, eta=0.3, steps=8, rho=(1, 1, 1), seed=4, track_full_loss=True)
    s2 = A.proj_sgd(p0, X, y, eta=0.3, steps=8, rho=(1, 1, 1), seed=4, track_full_loss=True)
    s3 = A.proj_sgd(p0, X, y, eta=0.3, steps=8, rho=(1, 1, 1), seed=5)
    assert np.array_equal(s1.params.flat(), s2.params.flat())
    assert np.array_equal(s1.train_loss, s2.train_loss)
    assert not np.array_equal(s1.params.flat(), s3.params.flat())
    assert np.all(np.isnan(s3.train_loss))


def test_proj_sgd_uses_single_sample_gradients():
    p0, _, X, y = _instance(m=4, n=10)
    res = A.proj_sgd(p0, X, y, eta=0.2, steps=1, rho=(np.inf,) * 3, seed=7)
    j = ops.rng(7).integers(0, 10, size=1)
    g = A.loss_and_grad(p0, X[j], y[j])[1]
    np.testing.assert_allclose(res.params.flat(), p0.flat() - 0.2 * g.flat(), rtol=1e-14)


def test_boundary_points_lie_on_the_spheres():
    p0, _, X, _ = _instance(m=6, n=12)
    rho = (3.0, 2.0, 1.0)
    r = np.array(rho) / np.sqrt(6)
    for kind in ("random", "adversarial"):
        b = A.boundary_point(p0, rho, kind=kind, X=X, seed=1)
        d = A.distance(b, p0)
        np.testing.assert_allclose(d.c, r[0]); np.testing.assert_allclose(d.U, r[1])
        np.testing.assert_allclose(d.W, r[2])
    # adversarial direction: gradient of sum_j h(X_j; theta_i) at init, head 0
    b = A.boundary_point(p0, rho, kind="adversarial", X=X)
    d, i = p0.d, 0

    def H(theta):
        U, W = theta[:d], theta[d:].reshape(d, d)
        return np.sum(np.tanh(A.head_terms(U[None], W[None], X, X[:, :, -1]).pre))

    g = ops.finite_difference_grad(H, np.r_[p0.U[i], p0.W[i].ravel()])
    np.testing.assert_allclose((b.U[i] - p0.U[i]) / r[1], g[:d] / np.linalg.norm(g[:d]), rtol=1e-6)
    np.testing.assert_allclose((b.W[i] - p0.W[i]).ravel() / r[2], g[d:] / np.linalg.norm(g[d:]),
                               rtol=1e-6)
    np.testing.assert_allclose(b.c - p0.c, r[0])


def test_linearization_error_respects_lemma3_bound_v1():
    """eps_lin <= B_lin (Lemma 3, v1 constants) at boundary points: a check of the paper."""
    m, d = 16, 3
    p0 = A.paired_init(m, d, seed=2)
    X = clipped_gaussian_inputs(40, d, 5, seed=3)
    rho = np.array([1.0, 1.0, 1.0])
    _s0, s1, s2 = A.TANH.sigma_bar
    BU = np.max(np.linalg.norm(p0.U, axis=1)) + rho[1] / np.sqrt(m)
    L1 = s1 * np.sqrt(1 + BU ** 2)
    L2 = s2 * (1 + BU ** 2) + 8 * s1 * np.sqrt(1 + BU ** 2)
    Blin = (L1 * rho[0] * np.hypot(rho[2], rho[1]) + L2 * (rho[2] ** 2 + rho[1] ** 2)) / np.sqrt(m)
    for kind in ("random", "adversarial"):
        b = A.boundary_point(p0, rho, kind=kind, X=X, seed=0)
        sup, mean = A.linearization_error(b, p0, X)
        e = np.abs(A.forward(b, X) - A.f_lin(b, p0, X))
        assert sup == pytest.approx(e.max()) and mean == pytest.approx(e.mean())
        assert 0 < sup <= Blin


def test_transported_parameters_closed_form_and_membership():
    m, d, T = 10, 3, 4
    p0 = A.paired_init(m, d, seed=1)
    teacher = make_teacher(d, T, R=5, nu=(1.0, 2.0, 0.5), seed=2)
    X = clipped_gaussian_inputs(15, d, T, seed=3)
    tilde = A.transported_params(p0, teacher)
    vc, vu, vw = teacher(p0.c, p0.U, p0.W)
    np.testing.assert_allclose(tilde.c, p0.c + vc / np.sqrt(m))
    np.testing.assert_allclose(tilde.W, p0.W + (p0.c / np.sqrt(m))[:, None, None] * vw)
    # f_lin(X; phi~) = (1/m) sum_i [phi_c v_c + <phi_u, v_u> + <phi_w, v_w>](phi_i^(0)), c_i^2 = 1
    F = A.random_features(p0.U, p0.W, X)
    phi_w = np.einsum("nkd,ne->nkde", F["phi_w_left"], F["q"])
    want = (F["phi_c"] @ vc + np.einsum("nkd,kd->n", F["phi_u"], vu)
            + np.einsum("nkde,kde->n", phi_w, vw)) / m
    np.testing.assert_allclose(A.f_lin(tilde, p0, X), want, rtol=1e-12, atol=1e-15)
    sup, _mean = A.approximation_error(p0, teacher, X, want)
    assert sup < 1e-13
    # Remark 10: rho >= nu implies phi~ in Omega_rho
    dist = A.distance(tilde, p0)
    assert dist.c.max() <= 1.0 / np.sqrt(m) + 1e-12
    assert dist.U.max() <= 2.0 / np.sqrt(m) + 1e-12
    assert dist.W.max() <= 0.5 / np.sqrt(m) + 1e-12


def test_measurements():
    p0, p, X, y = _instance(m=4, n=9)
    d = A.distance(p, p0)
    D = (p - p0)
    np.testing.assert_allclose(d.per_head, np.sqrt(D.c ** 2 + np.sum(D.U ** 2, 1)
                                                   + np.sum(D.W ** 2, (1, 2))))
    assert d.total == pytest.approx(np.linalg.norm(p.flat() - p0.flat()))
    assert A.grad_norm(p, X, y) == pytest.approx(np.linalg.norm(A.loss_and_grad(p, X, y)[1].flat()))
    assert A.in_domain(X) and not A.in_domain(2 * X + 1)


def test_activation_configuration():
    a = A.activation("tanh", sigma_bar=(2, 3, 4))
    assert a.sigma_bar == (2.0, 3.0, 4.0) and a.f is np.tanh
    u = np.linspace(-3, 3, 7)
    np.testing.assert_allclose(A.TANH.d1(u), ops.finite_difference_grad(lambda v: np.sum(np.tanh(v)), u),
                               rtol=1e-8)
    np.testing.assert_allclose(A.TANH.d2(u), ops.finite_difference_grad(lambda v: np.sum(A.TANH.d1(v)), u),
                               rtol=1e-7, atol=1e-9)
    uu = np.linspace(-5, 5, 100001)
    assert np.max(np.abs(A.TANH.d2(uu))) == pytest.approx(A.TANH.sigma_bar[2], rel=1e-8)


@pytest.mark.parametrize("bad", [
    lambda: A.paired_init(5, 3),
    lambda: A.paired_init(4, 0),
    lambda: A.ShallowParams(np.zeros(4), np.zeros((4, 3)), np.zeros((4, 3, 2))),
    lambda: A.forward(A.paired_init(4, 3), np.zeros((2, 4, 5))),
    lambda: A.forward(A.paired_init(4, 3), np.zeros((2, 3, 5)), query="first"),
    lambda: A.forward(A.paired_init(4, 3), np.zeros((2, 3, 5)), query=np.zeros(4)),
    lambda: A.loss(A.paired_init(4, 3), np.zeros((2, 3, 5)), np.zeros(3)),
    lambda: A.project(A.paired_init(4, 3), A.paired_init(4, 3), (1, 0, 1)),
    lambda: A.proj_gd(A.paired_init(4, 3), np.zeros((2, 3, 5)), np.zeros(2), eta=-1, steps=2, rho=(1, 1, 1)),
    lambda: A.proj_sgd(A.paired_init(4, 3), np.zeros((2, 3, 5)), np.zeros(2), eta=1, steps=2,
                       rho=(1, 1, 1), batch_size=0),
    lambda: A.boundary_point(A.paired_init(4, 3), (1, 1, 1), kind="adversarial"),
    lambda: A.boundary_point(A.paired_init(4, 3), (1, 1, 1), kind="worst"),
    lambda: A.activation("relu"),
    lambda: A.activation("tanh", sigma_bar=(1, 1)),
    lambda: A.transported_params(A.paired_init(4, 3), (np.zeros(4), np.zeros((4, 3)), np.zeros((3, 3, 3)))),
])
def test_bad_input_raises_value_error(bad):
    with pytest.raises(ValueError):
        bad()


# --- the fused step (issue 20): against an unfused reference, at the softmax bound ------

def _reference_loss_and_grad(p, X, y):
    """Unfused gradient straight from Lemma 1, eqs. (5)-(8): max-shifted, normalised softmax
    (``head_terms``), a(X; W_i) formed explicitly, M(X; W_i) U_i from ``head_MU``."""
    q = X[:, :, -1]
    t = A.head_terms(p.U, p.W, X, q)
    sm = 1.0 / np.sqrt(p.m)
    h = np.tanh(t.pre)
    res = sm * h @ p.c - y
    r = 2.0 * res / X.shape[0]
    gpre = sm * r[:, None] * p.c[None, :] * (1.0 - h * h)             # (n, m)
    gc = sm * r @ h                                                   # (5)
    gU = np.einsum("nm,nmd->md", gpre, t.a)                           # (6)
    gW = np.einsum("nm,nma,nb->mab", gpre, A.head_MU(t, X), q)        # (7)-(8)
    return float(np.mean(res ** 2)), A.ShallowParams(gc, gU, gW)


def _rel(a, b):
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


@pytest.mark.parametrize("m,d,T,n,chunk", [(8, 8, 16, 300, None), (64, 8, 16, 200, None), (256, 8, 16, 40, 7),
                                           (256, 8, 16, 37, None), (6, 3, 5, 37, 4), (4, 2, 2, 9, 1)])
def test_fused_gradient_equals_unfused_reference(m, d, T, n, chunk):
    """The fused step (its sums from the products' row of ones, the head factors applied
    after the blocks, buffers reused from block to block) against Lemma 1 unfused; at
    m = 256 the default block (16 samples in float64, issue 37) gives n = 37 a short last
    block, and m = 64 (64 samples) n = 200."""
    if chunk is None and m >= 64:
        from boundcalc.engine.arda2026.model import _auto_chunk
        size = _auto_chunk(n, T, m, 8)
        assert size < n and n % size != 0
    _p0, p, X, y = _instance(m=m, d=d, T=T, n=n, seed=m + n)
    L, g = A._loss_and_grad(p, X, X[:, :, -1].copy(), y, A.TANH, chunk=chunk)
    Lr, gr = _reference_loss_and_grad(p, X, y)
    assert L == pytest.approx(Lr, rel=1e-13)
    assert _rel(g.flat(), gr.flat()) < 1e-12


def test_logit_bound_holds_and_is_attained_by_aligned_tokens():
    _p0, p, X, _y = _instance(m=6, d=3, T=5, n=40, seed=3, jitter=2.0)
    q = X[:, :, -1]
    z = np.einsum("nat,mab,nb->nmt", X, p.W, q)
    bound = A.logit_bound(p.W, A.input_scale(X, q))
    assert np.max(np.abs(z)) <= bound
    # a rank-one W_i = s u u^T with x = q = u attains it: |z| = s = ||W_i||_F
    u = np.array([0.6, 0.8, 0.0])
    Xa = np.repeat(u[None, :, None], 4, axis=2)
    Wa = 7.0 * np.outer(u, u)[None]
    assert A.logit_bound(Wa, A.input_scale(Xa, Xa[:, :, -1])) == pytest.approx(7.0, rel=1e-15)
    assert float(Xa[0, :, 0] @ Wa[0] @ u) == pytest.approx(7.0, rel=1e-15)


@pytest.mark.parametrize("side", [-1.0, 1.0])
def test_softmax_without_shift_is_exact_at_the_edge_of_the_bound(side):
    """Logits at +-599 (bound just under LOGIT_LIMIT = 600, no max subtraction) and at
    +-700 (bound over it: the shifted path); exp(700) alone would overflow float64."""
    d, T, m, n = 2, 3, 2, 4
    g = ops.rng(0)
    X = np.zeros((n, d, T))
    X[:, 0, :] = g.uniform(0.2, 1.0, size=(n, T))        # tokens along u, norms <= 1
    X[:, 0, -1] = 1.0                                      # the query q = X_T = u
    for s, shifted in ((599.0, False), (700.0, True)):
        W = np.zeros((m, d, d))
        W[:, 0, 0] = side * s                              # z_t = side * s * X_t[0]
        p = A.ShallowParams(np.array([1.0, -0.5]), np.array([[0.3, 0.1], [-0.2, 0.4]]), W)
        bound = A.logit_bound(p.W, A.input_scale(X, X[:, :, -1]))
        assert (bound > ops.LOGIT_LIMIT[np.dtype(np.float64)]) == shifted
        y = np.linspace(-1, 1, n)
        with np.errstate(over="raise", invalid="raise"):
            L, gr = A._loss_and_grad(p, X, X[:, :, -1].copy(), y, A.TANH)
        Lr, grr = _reference_loss_and_grad(p, X, y)
        assert np.all(np.isfinite(gr.flat()))
        assert L == pytest.approx(Lr, rel=1e-13)
        assert _rel(gr.c, grr.c) < 1e-12 and _rel(gr.U, grr.U) < 1e-12
        # the W-gradient of a saturated softmax is ~ exp(-s * gap): compare absolutely
        assert np.max(np.abs(gr.W - grr.W)) <= 1e-12 * max(1.0, np.max(np.abs(grr.W)))


def test_proj_gd_trajectory_equals_unfused_reference_steps():
    p0, _, X, y = _instance(m=8, d=4, T=6, n=60, seed=11)
    rho, eta = (2.0, 2.0, 2.0), 0.4
    run = A.proj_gd(p0, X, y, eta=eta, steps=40, rho=rho)
    p, losses = p0.copy(), []
    for _ in range(40):
        L, g = _reference_loss_and_grad(p, X, y)
        losses.append(L)
        p = A.project(p.like(p.flat() - eta * g.flat()), p0, rho)
    assert _rel(run.params.flat(), p.flat()) < 1e-12
    np.testing.assert_allclose(run.train_loss, losses, rtol=1e-12)


def test_float32_step_tracks_float64():
    p0, teacher, X, _ = _instance(m=16, d=8, T=16, n=400, seed=5, jitter=1.0)
    y = A.forward(teacher, X)                                           # a reachable target
    a = A.proj_gd(p0, X, y, eta=0.5, steps=200, rho=(3, 3, 3))
    b = A.proj_gd(p0, X, y, eta=0.5, steps=200, rho=(3, 3, 3), dtype="float32")
    assert b.train_loss[-1] < 0.5 * b.train_loss[0]                     # it trains
    np.testing.assert_allclose(b.train_loss, a.train_loss, rtol=1e-4)
    assert _rel(b.params.flat(), a.params.flat()) < 1e-4
    assert b.params.c.dtype == np.float64                               # iterates stay float64
    with pytest.raises(ValueError, match="dtype"):
        A.proj_gd(p0, X, y, eta=0.5, steps=2, rho=(3, 3, 3), dtype="float16")
