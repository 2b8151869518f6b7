"""Tests of the DM1 tokenized-mixture data model (Deora et al. 2023, Sec. 5, Assumption 3)."""
import numpy as np
import pytest

from boundcalc.engine.data.dm1 import make_dm1


@pytest.mark.parametrize("basis_seed", [None, 4])
def test_patterns_are_orthogonal_with_norm_S(basis_seed):
    dm = make_dm1(T=6, d=9, M=4, S=2.5, zeta=0.5, basis_seed=basis_seed)
    P = dm.patterns
    np.testing.assert_allclose(P @ P.T, 2.5 ** 2 * np.eye(6), atol=1e-12)
    np.testing.assert_allclose(P @ dm.complement, 0.0, atol=1e-12)
    np.testing.assert_allclose(dm.complement.T @ dm.complement, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(dm.u_star, P[0] - P[1])


def test_tokens_follow_dm1():
    dm = make_dm1(T=8, d=12, M=3, S=1.5, zeta=0.25, z_mu=0.2, z_nu=0.3, z_perp_norm=0.5,
                  basis_seed=1)
    s = dm.sample(300, seed=0)
    assert s.X.shape == (300, 8, 12) and s.y.shape == (300,)
    assert set(np.unique(s.y)) == {-1.0, 1.0}
    assert np.all(s.relevant.sum(axis=1) == 2)                  # |R| = zeta T
    mu_y = np.where(s.y[:, None] > 0, 0, 1)
    for i in range(0, 300, 37):
        for t in range(8):
            if s.relevant[i, t]:
                np.testing.assert_array_equal(s.X[i, t], dm.patterns[mu_y[i, 0]])
                assert s.pattern_index[i, t] == -1
            else:
                j = s.pattern_index[i, t]
                np.testing.assert_allclose(s.X[i, t], dm.patterns[2 + j] + s.noise[i, t], atol=1e-15)


def test_noise_satisfies_assumption3_almost_surely_and_levels_are_reported():
    S, M, z_mu, z_nu, zp = 1.2, 4, 0.15, 0.4, 0.7
    dm = make_dm1(T=10, d=11, M=M, S=S, zeta=0.3, z_mu=z_mu, z_nu=z_nu, z_perp_norm=zp,
                  basis_seed=2)
    s = dm.sample(2000, seed=3)
    z = s.noise[~s.relevant]
    ip_mu = np.abs(z @ dm.patterns[:2].T)
    ip_nu = np.abs(z @ dm.nus.T)
    assert ip_mu.max() <= z_mu + 1e-12
    assert ip_nu.max() <= z_nu / M + 1e-12
    np.testing.assert_allclose(np.linalg.norm(z @ dm.complement, axis=1), zp, rtol=1e-12)
    b = dm.noise_bounds()
    assert np.linalg.norm(z, axis=1).max() <= b["Z"] + 1e-12
    # the reported (realised) levels are the sample maxima and respect the a.s. bounds
    assert s.Z == pytest.approx(np.linalg.norm(z, axis=1).max())
    assert s.Z_mu == pytest.approx(ip_mu.max())
    assert s.Z_nu == pytest.approx(M * ip_nu.max())
    assert s.R == pytest.approx(np.sqrt(S ** 2 + s.Z ** 2 + 2 * s.Z_nu / M))
    assert s.Z_mu <= b["Z_mu"] and s.Z_nu <= b["Z_nu"] + 1e-12 and s.R <= b["R"] + 1e-12
    # Assumption 1 then holds with that R
    assert np.linalg.norm(s.X, axis=2).max() <= s.R + 1e-12
    assert np.all(s.noise[s.relevant] == 0.0)


def test_noise_is_independent_of_label_on_average_and_labels_balanced():
    dm = make_dm1(T=4, d=8, M=2, S=1.0, zeta=0.5, z_mu=0.3, z_nu=0.3, z_perp_norm=0.5)
    s = dm.sample(20000, seed=5)
    assert abs(s.y.mean()) < 0.03
    z = s.noise.sum(axis=1)
    diff = z[s.y > 0].mean(axis=0) - z[s.y < 0].mean(axis=0)
    assert np.max(np.abs(diff)) < 0.03


def test_sampling_is_reproducible():
    dm = make_dm1(T=4, d=8, M=2, S=1.0, zeta=0.5, z_mu=0.1, z_nu=0.2, z_perp_norm=0.3)
    a, b, c = dm.sample(50, seed=9), dm.sample(50, seed=9), dm.sample(50, seed=10)
    assert np.array_equal(a.X, b.X) and np.array_equal(a.y, b.y)
    assert not np.array_equal(a.X, c.X)


def test_sec52_targets():
    dm = make_dm1(T=3, d=6, M=2, S=2.0, zeta=1 / 3)
    mp, mm, n1, n2 = dm.patterns
    np.testing.assert_allclose(dm.W_star, np.outer(mp, mp) + np.outer(mm, mm)
                               + np.outer(n1, mp + mm) + np.outer(n2, mp + mm))
    np.testing.assert_allclose(dm.U_star, np.ones((3, 1)) * (mp - mm))


@pytest.mark.parametrize("kwargs, match", [
    ({"T": 4, "d": 3, "M": 2}, "d >= M \\+ 2"),
    ({"T": 4, "d": 4, "M": 2, "z_perp_norm": 0.1}, "M \\+ 3"),
    ({"T": 5, "d": 6, "M": 2, "zeta": 0.5}, "integer"),
    ({"T": 4, "d": 6, "M": 2, "zeta": 1.0}, "zeta"),
    ({"T": 4, "d": 6, "M": 2, "S": 0.0}, "S"),
    ({"T": 4, "d": 6, "M": 2, "z_mu": -1.0}, "z_mu"),
    ({"T": 4, "d": 6, "M": 0}, "M"),
])
def test_bad_configuration_raises(kwargs, match):
    kw = {"S": 1.0, "zeta": 0.5}
    kw.update(kwargs)
    with pytest.raises(ValueError, match=match):
        make_dm1(**kw)


def test_bad_sample_size_raises():
    with pytest.raises(ValueError, match="n"):
        make_dm1(T=4, d=6, M=2).sample(0)
