"""engine.data.tokens: App. E random instances and the worked examples of Tarzanagh et al."""
import numpy as np
import pytest
from scipy import stats

from boundcalc.engine.data import tokens


def test_appendix_e_shapes_sphere_labels():
    d = tokens.appendix_e(n=4, T=6, d=10, seed=3)
    assert d.X.shape == (4, 6, 10) and d.X.dtype == np.float64
    np.testing.assert_allclose(np.linalg.norm(d.X, axis=2), 1.0, rtol=1e-14)
    assert np.linalg.norm(d.v) == pytest.approx(1.0, rel=1e-14)
    np.testing.assert_array_equal(d.W, np.eye(10))
    assert set(np.unique(d.Y)) <= {-1.0, 1.0}
    np.testing.assert_array_equal(d.keys, d.X)


def test_appendix_e_bit_reproducible_and_seed_dependent():
    a, b = tokens.appendix_e(seed=11), tokens.appendix_e(seed=11)
    for x, y in ((a.X, b.X), (a.v, b.v), (a.Y, b.Y)):
        assert x.tobytes() == y.tobytes()
    assert not np.array_equal(a.X, tokens.appendix_e(seed=12).X)


def test_sphere_is_uniform():
    # Archimedes: a coordinate of a uniform point on S^2 is uniform on [-1, 1]
    d = tokens.appendix_e(n=400, T=6, d=3, seed=0)
    coord = d.X[..., 0].ravel()
    assert stats.kstest(coord, stats.uniform(loc=-1, scale=2).cdf).pvalue > 1e-3
    # labels are fair coins
    big = tokens.appendix_e(n=2000, T=2, d=2, seed=1)
    assert abs(np.mean(big.Y)) < 4 / np.sqrt(2000)


def test_fig1_examples():
    a = tokens.fig1a()
    np.testing.assert_allclose(a.keys[0], [[-0.1, 1, 0], [1, 0, 0], [0, 0, 0]])
    np.testing.assert_allclose(a.Y[:, None] * (a.X @ a.v), [[1.0, 0.9, 0.9]])
    b = tokens.fig1b()
    np.testing.assert_allclose(b.Y[:, None] * (b.X @ b.v), [[1.0, 0.9, 0.0]])
    assert len(a.inits["p0"]) == 6
    c = tokens.fig1c(seed=0)
    assert c.X.shape == (3, 7, 3)
    np.testing.assert_allclose(c.X[:, :, 2], np.tile([1.0] + [0.5] * 6, (3, 1)))
    # keys are shifted clusters: the means of the noise-free shifts are recovered roughly
    assert np.all(np.abs(c.keys[:, 0, :2] - [1.0, 0.0]) < 1.0)
    assert c.X.tobytes() == tokens.fig1c(seed=0).X.tobytes()


def test_fig3_and_fig5():
    a, b = tokens.fig3a(), tokens.fig3b()
    assert a.v is None and a.X.shape == (3, 2, 2)
    np.testing.assert_allclose(b.X[2, 1], [0.5, 1.5])
    np.testing.assert_allclose(a.inits["v0"], [-1.0, 0.0])
    f = tokens.fig5(7.0)
    np.testing.assert_allclose(f.Y[:, None] * (f.X @ f.v), [[0.0, 7.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match="C must be finite"):
        tokens.fig5(np.inf)


def test_validation_errors():
    with pytest.raises(ValueError, match="shape"):
        tokens.TokenDataset(np.zeros((2, 3)), np.ones(2), np.eye(3))
    with pytest.raises(ValueError, match="labels"):
        tokens.TokenDataset(np.zeros((2, 3, 2)), np.array([1.0, 0.0]), np.eye(2))
    with pytest.raises(ValueError, match="W must"):
        tokens.TokenDataset(np.zeros((2, 3, 2)), np.ones(2), np.eye(3))
    with pytest.raises(ValueError, match="v must"):
        tokens.TokenDataset(np.zeros((2, 3, 2)), np.ones(2), np.eye(2), np.ones(3))
    with pytest.raises(ValueError, match="T must"):
        tokens.appendix_e(T=1)
    with pytest.raises(ValueError, match="n must"):
        tokens.appendix_e(n=0)
