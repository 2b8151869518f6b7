"""Tests of the Sec. 6.1 teacher of Arda, Cayci & Eryilmaz (2026)."""
import numpy as np
import pytest

from boundcalc.engine import arda2026 as A
from boundcalc.engine import ops
from boundcalc.engine.data import transport as TR


def test_inputs_are_clipped_gaussian_tokens():
    X = TR.clipped_gaussian_inputs(200, 2, 6, seed=0)
    raw = ops.rng(0).standard_normal((200, 2, 6))
    norms = np.linalg.norm(raw, axis=1)
    assert np.all(np.linalg.norm(X, axis=1) <= 1 + 1e-15)
    small = norms <= 1
    assert small.any() and (~small).any()
    np.testing.assert_array_equal(X.transpose(0, 2, 1)[small], raw.transpose(0, 2, 1)[small])
    np.testing.assert_allclose(np.linalg.norm(X, axis=1)[~small], 1.0)


def _brute_v(teacher, U, W):
    """v(phi_i) from the definition, one anchor and one head at a time."""
    s0, s1, _ = teacher.act.sigma_bar
    k, d = U.shape
    vc, vu, vw = np.zeros(k), np.zeros((k, d)), np.zeros((k, d, d))
    for r, Xr in enumerate(teacher.anchors):
        for i in range(k):
            q = Xr[:, -1]
            z = Xr.T @ W[i] @ q
            al = np.exp(z - z.max()); al /= al.sum()
            a = Xr @ al
            pre = U[i] @ a
            M = Xr @ (np.diag(al) - np.outer(al, al)) @ Xr.T
            phw = (1 - np.tanh(pre) ** 2) * np.outer(M @ U[i], q)
            nrm = np.linalg.norm(phw)
            w = teacher.weights[r]
            vc[i] += w * teacher.nu[0] / s0 * np.tanh(pre)
            vu[i] += w * teacher.nu[1] / s1 * (1 - np.tanh(pre) ** 2) * a
            vw[i] += w * phw * min(1.0, teacher.nu[2] / nrm)
    return vc, vu, vw


@pytest.mark.parametrize("weights", ["uniform", "signed"])
def test_transport_map_matches_definition_and_lies_in_V_nu(weights):
    d, T = 3, 5
    t = TR.make_teacher(d, T, R=4, nu=(0.7, 0.9, 0.05), weights=weights, seed=1)
    assert np.sum(np.abs(t.weights)) == pytest.approx(1.0)
    U, W = TR.iid_pool(9, d, seed=2)
    vc, vu, vw = t(np.ones(9), U, W)
    bc, bu, bw = _brute_v(t, U, W)
    np.testing.assert_allclose(vc, bc, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(vu, bu, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(vw, bw, rtol=1e-12, atol=1e-15)
    assert np.abs(vc).max() <= 0.7 + 1e-12
    assert np.linalg.norm(vu, axis=1).max() <= 0.9 + 1e-12
    assert np.linalg.norm(vw, axis=(1, 2)).max() <= 0.05 + 1e-12


def test_mc_labels_match_explicit_feature_sum_for_any_block_size():
    d, T = 3, 4
    t = TR.make_teacher(d, T, R=3, nu=(3, 3, 3), weights="signed", seed=0)
    U, W = TR.iid_pool(11, d, seed=1)
    X = TR.clipped_gaussian_inputs(13, d, T, seed=2)
    vc, vu, vw = t(None, U, W)
    F = A.random_features(U, W, X)
    phi_w = np.einsum("nkd,ne->nkde", F["phi_w_left"], F["q"])
    want = (F["phi_c"] @ vc + np.einsum("nkd,kd->n", F["phi_u"], vu)
            + np.einsum("nkde,kde->n", phi_w, vw)) / 11
    for mb in (1, 1e8):
        np.testing.assert_allclose(t.value(X, U, W, max_bytes=mb), want, rtol=1e-12, atol=1e-16)


def test_dataset_is_reproducible_and_consistent():
    a = TR.teacher_student_data(20, d=3, T=4, R=2, pool_size=16, seed=5)
    b = TR.teacher_student_data(20, d=3, T=4, R=2, pool_size=16, seed=5)
    c = TR.teacher_student_data(20, d=3, T=4, R=2, pool_size=16, seed=6)
    assert np.array_equal(a.X, b.X) and np.array_equal(a.y, b.y)
    assert not np.array_equal(a.y, c.y)
    np.testing.assert_allclose(a.teacher.value(a.X, a.pool_U, a.pool_W), a.y)
    assert A.in_domain(a.X) and A.in_domain(a.teacher.anchors)


def test_mc_labels_converge_as_pool_grows():
    """y~ is an MC average: the pool-to-pool spread shrinks like pool_size^{-1/2}."""
    d, T = 3, 4
    t = TR.make_teacher(d, T, R=4, seed=0)
    X = TR.clipped_gaussian_inputs(10, d, T, seed=1)
    spread = []
    for k in (64, 4096):
        vals = np.stack([t.value(X, *TR.iid_pool(k, d, seed=s)) for s in range(6)])
        spread.append(vals.std(axis=0).mean())
    assert spread[1] < spread[0] / 4


@pytest.mark.parametrize("bad", [
    lambda: TR.clipped_gaussian_inputs(0, 3, 4),
    lambda: TR.make_teacher(3, 4, nu=(1, -1, 1)),
    lambda: TR.make_teacher(3, 4, weights="random"),
    lambda: TR.make_teacher(3, 4, anchors=np.zeros((2, 4, 4))),
    lambda: TR.iid_pool(0, 3),
    lambda: TR.make_teacher(3, 4, seed=0)(None, np.zeros((2, 4)), np.zeros((2, 4, 4))),
    lambda: TR.make_teacher(3, 4, seed=0).value(np.zeros((2, 4, 4)), np.zeros((2, 3)), np.zeros((2, 3, 3))),
])
def test_bad_input_raises_value_error(bad):
    with pytest.raises(ValueError):
        bad()


def _direct_labels(X, U, W, anchors, w, nu, diag):
    """Teacher labels by explicit loops (paper Sec. 6.1; authors' code: W_k -> diag(W_k))."""
    def feats(x, u, Wk):
        Wk = np.diag(np.diag(Wk)) if diag else Wk
        q = x[:, -1]
        z = x.T @ (Wk @ q)
        a_ = np.exp(z - z.max())
        a_ /= a_.sum()
        a = x @ a_
        s = u @ a
        d1 = 1.0 - np.tanh(s) ** 2
        M = x @ (np.diag(a_) - np.outer(a_, a_)) @ x.T
        return np.tanh(s), d1 * a, d1 * np.outer(M @ u, q)
    out = np.zeros(X.shape[0])
    for j in range(X.shape[0]):
        tot = 0.0
        for i in range(U.shape[0]):
            c, fu, fw = feats(X[j], U[i], W[i])
            for r in range(anchors.shape[0]):
                cr, ur, wr = feats(anchors[r], U[i], W[i])
                wr = wr * min(1.0, nu[2] / np.linalg.norm(wr))
                tot += w[r] * (nu[0] * c * cr + nu[1] * fu @ ur + np.sum(fw * wr))
        out[j] = tot / U.shape[0]
    return out


@pytest.mark.parametrize("teacher", ["paper", "authors-code"])
def test_teacher_variants_match_direct_loops(teacher):
    data = TR.teacher_student_data(5, 3, 4, R=3, nu=(3.0, 2.0, 0.5), pool_size=7, weights="signed",
                                          seed=4, teacher=teacher)
    t = data.teacher
    direct = _direct_labels(data.X, data.pool_U, data.pool_W, t.anchors, t.weights, t.nu,
                            diag=teacher == "authors-code")
    np.testing.assert_allclose(data.y, direct, rtol=1e-10, atol=1e-13)
    other = TR.teacher_student_data(5, 3, 4, R=3, nu=(3.0, 2.0, 0.5), pool_size=7, weights="signed",
                                           seed=4, teacher="paper" if teacher != "paper" else "authors-code")
    np.testing.assert_array_equal(other.X, data.X)          # same inputs, anchors, pool
    assert np.max(np.abs(other.y - data.y)) > 1e-3           # the variants give different labels
    with pytest.raises(ValueError, match="teacher"):
        TR.make_teacher(3, 4, teacher="code")
