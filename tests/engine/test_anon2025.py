"""engine.anon2025: gradients against finite differences, closed forms, LeCun statistics,
the norm quantities of Lemma 4, GD on real digits, determinism."""
import numpy as np
import pytest

from boundcalc.engine import anon2025 as an
from boundcalc.engine import ops
from boundcalc.engine.data import digits


def small(seed, N=5, ds=4, d=3, dm=6):
    g = np.random.default_rng(seed)
    X = g.standard_normal((N, ds, d))
    y = np.where(g.random(N) < 0.5, -1.0, 1.0)
    return X, y, an.init_lecun(d, dm, seed)


@pytest.mark.parametrize("loss", an.LOSSES)
@pytest.mark.parametrize("seed", [0, 1])
def test_gradient_matches_finite_differences(loss, seed):
    X, y, P = small(seed)
    val, g = an.value_and_grad(P, X, y, loss)
    assert val == an.loss_value(P, X, y, loss)
    fd = ops.finite_difference_grad(
        lambda t: an.loss_value(an.Params.from_vector(t, 6, 3), X, y, loss), P.vector())
    np.testing.assert_allclose(g.vector(), fd, rtol=1e-6, atol=1e-8)


def test_forward_by_explicit_formula():
    # Sec. 3.1.2 written out row by row for one input
    X, _y, P = small(3, N=1)
    X0 = X[0]
    dm = P.dims[0]
    out = 0.0
    for i in range(X0.shape[0]):
        beta = ops.softmax(X0 @ P.WK.T @ P.WQ @ X0[i] / np.sqrt(dm))
        out += P.wO @ np.maximum(P.WV @ X0.T @ beta, 0.0)
    assert an.predict(P, X)[0] == pytest.approx(out / X0.shape[0], rel=1e-13)


def test_zero_query_gives_uniform_attention():
    # W_Q = 0: beta_i uniform, so f(X) = w_O^T ReLU(W_V mean_t x_t)
    X, _y, P = small(4)
    P0 = an.Params(np.zeros_like(P.WQ), P.WK, P.WV, P.wO)
    expect = np.maximum(X.mean(axis=1) @ P.WV.T, 0.0) @ P.wO
    np.testing.assert_allclose(an.predict(P0, X), expect, rtol=1e-13)
    np.testing.assert_allclose(an.features(P0, X), np.maximum(X.mean(axis=1) @ P.WV.T, 0.0),
                               rtol=1e-13)


def test_loss_definitions():
    X, y, P = small(6)
    f = an.predict(P, X)
    assert an.loss_value(P, X, y, "logistic") == pytest.approx(np.mean(np.log1p(np.exp(-y * f))))
    assert an.loss_value(P, X, y, "squared") == pytest.approx(0.5 * np.sum((f - y) ** 2))


def test_lecun_initialisation_statistics():
    P = an.init_lecun(d=64, dm=128, seed=0)
    assert P.WQ.shape == (128, 64) and P.wO.shape == (128,)
    # sample variances of 8192 (resp. 128) Gaussians: 6 standard errors of tolerance
    for W in (P.WQ, P.WK, P.WV):
        assert np.var(W) == pytest.approx(1 / 64, rel=6 * np.sqrt(2 / W.size))
        assert abs(np.mean(W)) < 6 / np.sqrt(64 * W.size)
    assert np.var(P.wO) == pytest.approx(1 / 128, rel=6 * np.sqrt(2 / 128))
    again = an.init_lecun(d=64, dm=128, seed=0)
    assert P.vector().tobytes() == again.vector().tobytes()


def test_alpha_and_input_radius():
    X, _y, P = small(7, N=4, dm=10)
    F = an.features(P, X)
    # second method: sigma_min^2 = smallest eigenvalue of F F^T when N <= d_m
    lam = np.linalg.eigvalsh(F @ F.T)[0]
    assert an.alpha_min_singular(P, X) == pytest.approx(np.sqrt(max(lam, 0.0)), rel=1e-8)
    rx = an.input_radius(X)
    assert np.all(np.linalg.norm(X, axis=(1, 2)) <= np.sqrt(4) * rx * (1 + 1e-15))
    assert np.max(np.linalg.norm(X, axis=(1, 2))) == pytest.approx(2 * rx)


def test_norm_quantities_definitions():
    _, _, P = small(8)
    q = an.norm_quantities(P, 0.1, 0.2, 0.3, 0.4)
    assert q.R == pytest.approx(np.sqrt(0.01 + 0.04 + 0.09 + 0.16))
    assert q.eta_V == pytest.approx(np.sqrt(np.sum(P.WV ** 2)) + 0.3)
    assert q.eta_O == pytest.approx(np.sqrt(np.sum(P.wO ** 2)) + 0.4)
    assert q.xi_K == pytest.approx(np.linalg.svd(P.WK, compute_uv=False)[0] + 0.2)
    for a, b in ((q.xi_Q, q.eta_Q), (q.xi_K, q.eta_K), (q.xi_V, q.eta_V)):
        assert a <= b                     # ||A||_2 <= ||A||_F
    with pytest.raises(ValueError, match="R_V"):
        an.norm_quantities(P, 0.1, 0.2, -1.0, 0.4)


def test_gd_on_digits_logistic():
    data = digits.load_digits_tokens()
    tr, te = data.split(120, seed=0)
    P0 = an.init_lecun(d=8, dm=16, seed=0)
    h = an.train(P0, tr.X, tr.y, lr=0.1, steps=60, X_test=te.X, y_test=te.y, record_every=20)
    np.testing.assert_array_equal(h.step, [0, 20, 40, 60])
    assert np.all(np.diff(h.train_loss) < 0) and h.test_loss[-1] < h.test_loss[0]
    assert h.test_error[-1] < 0.1
    # radii are the largest distances to theta^0 seen, and the last distance is a lower bound
    np.testing.assert_array_equal(h.dist[-1], an.distances(h.params, P0))
    assert all(r >= dlast for r, dlast in zip(h.radii, h.dist[-1]))
    assert h.norms.R_Q == h.radii[0] and h.alpha == an.alpha_min_singular(P0, tr.X)
    # one manual GD step reproduces the first update
    _, g = an.value_and_grad(P0, tr.X, tr.y)
    h1 = an.train(P0, tr.X, tr.y, lr=0.1, steps=1)
    np.testing.assert_array_equal(h1.params.vector(), P0.vector() - 0.1 * g.vector())


def test_gd_squared_loss_phi_decreases():
    X, _, P = small(9, N=6)
    y = np.random.default_rng(0).standard_normal(6)       # real targets are fine for Phi
    h = an.train(P, X, y, lr=0.02, steps=40, loss="squared", record_every=10)
    assert np.all(np.diff(h.train_loss) < 0)
    assert np.isnan(h.test_loss).all()


def test_bit_identical_reruns():
    data = digits.load_digits_tokens()
    runs = [an.train(an.init_lecun(8, 8, seed=5), data.X[:50], data.y[:50], lr=0.2, steps=15)
            for _ in range(2)]
    assert runs[0].params.vector().tobytes() == runs[1].params.vector().tobytes()
    assert runs[0].train_loss.tobytes() == runs[1].train_loss.tobytes()


def test_bad_input_raises():
    X, y, P = small(0)
    with pytest.raises(ValueError, match="unknown loss"):
        an.loss_value(P, X, y, "hinge")
    with pytest.raises(ValueError, match="labels"):
        an.loss_value(P, X, np.zeros(5), "logistic")
    with pytest.raises(ValueError, match="token dimension"):
        an.predict(P, np.zeros((2, 4, 5)))
    with pytest.raises(ValueError, match="WK must"):
        an.Params(np.zeros((3, 2)), np.zeros((2, 3)), np.zeros((3, 2)), np.zeros(3))
    with pytest.raises(ValueError, match="lr"):
        an.train(P, X, y, lr=-1.0, steps=2)
    with pytest.raises(ValueError, match="y_test"):
        an.train(P, X, y, lr=0.1, steps=2, y_test=y)
    with pytest.raises(ValueError, match="dm must"):
        an.init_lecun(3, 0, 0)


def test_torch_bench_matches_numpy_gradients():
    # the benchmark's PyTorch autograd model is the same model: gradients agree
    pytest.importorskip("torch")
    from support import load_bench

    bench = load_bench("torch_anon2025").setup(0)
    assert bench["check"]() < 1e-12
    bench["numpy_step"]()
    bench["torch_step"]()


@pytest.mark.parametrize("loss", an.LOSSES)
def test_float32_gradient_is_the_float64_gradient_to_single_precision(loss):
    X, y, P = small(4, N=7, ds=5, d=4, dm=8)
    v64, g64, f64 = an._value_grad_outputs(P, X, y, loss)
    v32, g32, f32 = an._value_grad_outputs(P, X, y, loss, np.float32)
    assert g32.WQ.dtype == np.float64 and f32.dtype == np.float64
    assert v32 == pytest.approx(v64, rel=1e-5) and v32 != v64
    np.testing.assert_allclose(g32.vector(), g64.vector(), rtol=1e-4, atol=1e-6 * np.abs(g64.vector()).max())
    np.testing.assert_allclose(f32, f64, rtol=1e-5, atol=1e-6)


def test_float32_training_tracks_float64_and_keeps_float64_iterates():
    X, y, P = small(5, N=20, ds=4, d=3, dm=6)
    Xt, yt, _ = small(6, N=10, ds=4, d=3, dm=6)
    a = an.train(P, X, y, lr=0.1, steps=50, X_test=Xt, y_test=yt)
    b = an.train(P, X, y, lr=0.1, steps=50, X_test=Xt, y_test=yt, dtype="float32")
    assert b.params.WQ.dtype == np.float64
    np.testing.assert_allclose(b.train_loss, a.train_loss, rtol=1e-5)
    np.testing.assert_allclose(b.test_loss, a.test_loss, rtol=1e-5)
    np.testing.assert_allclose(b.params.vector(), a.params.vector(), rtol=1e-4, atol=1e-6)
    assert b.radii != a.radii                                   # the steps really ran in float32
    with pytest.raises(ValueError, match="dtype"):
        an.train(P, X, y, lr=0.1, steps=2, dtype="float16")
