"""engine.svm: hard-margin SVMs and the (ATT-SVM)/(SVM)/(10) problems of Tarzanagh et al.

Solutions are checked against hand-solved cases, against an independent solver (SLSQP on
the primal) and by the KKT conditions computed here from scratch.
"""
import numpy as np
import pytest
from scipy.optimize import minimize

from boundcalc.engine import svm
from boundcalc.engine.data import tokens


def slsqp_min_norm(G, h):
    """Independent primal solve of min 1/2||x||^2 s.t. G x >= h."""
    res = minimize(lambda x: 0.5 * x @ x, np.zeros(G.shape[1]), jac=lambda x: x,
                   constraints=[{"type": "ineq", "fun": lambda x: G @ x - h, "jac": lambda x: G}],
                   method="SLSQP", options={"ftol": 1e-12, "maxiter": 2000})
    assert res.success, res.message
    return res.x


def assert_kkt(G, h, x, lam, tol=1e-9):
    """KKT of min 1/2||x||^2 s.t. G x >= h, checked directly."""
    slack = G @ x - h
    assert np.all(slack >= -tol)                           # primal feasibility
    assert np.all(lam >= -tol)                             # dual feasibility
    assert np.max(np.abs(lam * slack)) <= tol * max(1.0, lam.sum())  # complementary slackness
    np.testing.assert_allclose(x, G.T @ lam, atol=tol * max(1.0, np.linalg.norm(x)))  # stationarity


def separable(seed, n, p):
    g = np.random.default_rng(seed)
    F = g.standard_normal((n, p))
    y = np.sign(F @ g.standard_normal(p))
    return F, y


# --- hand-solved cases ------------------------------------------------------------------

def test_two_orthogonal_points_by_hand():
    # y1<w,e1> >= 1, -<w,e2> >= 1  ->  w* = (1, -1), margin 1/sqrt2, both constraints active
    r = svm.max_margin([[1.0, 0.0], [0.0, 1.0]], [1, -1])
    assert r.status == "optimal"
    np.testing.assert_allclose(r.solution, [1.0, -1.0], atol=1e-12)
    np.testing.assert_allclose(r.w, np.array([1.0, -1.0]) / np.sqrt(2), atol=1e-12)
    assert r.margin == pytest.approx(1 / np.sqrt(2), abs=1e-12)
    np.testing.assert_allclose(r.alpha, [1.0, 1.0], atol=1e-12)


def test_one_dimensional_inactive_point_by_hand():
    # z = (2, 1): constraints 2w >= 1 and w >= 1 -> w* = 1, only the second is active
    r = svm.max_margin([[2.0], [-1.0]], [1, -1])
    np.testing.assert_allclose(r.solution, [1.0], atol=1e-12)
    np.testing.assert_allclose(r.alpha, [0.0, 1.0], atol=1e-12)
    assert r.margin == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_array_equal(svm.support_vectors([[2.0], [-1.0]], [1, -1], r), [1])


def test_gram_matches_hand_case_and_features():
    F = np.array([[1.0, 0.0], [0.0, 1.0], [3.0, -1.0]])
    y = np.array([1.0, -1.0, 1.0])
    rg = svm.max_margin_gram(F @ F.T, y)
    rf = svm.max_margin(F, y)
    assert rg.status == rf.status == "optimal"
    assert rg.margin == pytest.approx(1 / np.sqrt(2), abs=1e-12)
    np.testing.assert_allclose(rg.alpha, [1.0, 1.0, 0.0], atol=1e-12)
    assert rg.w is None and rg.kkt_residual < 1e-12


# --- random instances: KKT and a second solver --------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_random_separable_kkt_and_slsqp(seed):
    g = np.random.default_rng(100 + seed)
    n, p = int(g.integers(3, 25)), int(g.integers(2, 9))
    F, y = separable(seed, n, p)
    r = svm.max_margin(F, y)
    assert r.status == "optimal"
    Z = y[:, None] * F
    wstar = r.solution
    assert_kkt(Z, np.ones(n), wstar, r.alpha)
    assert r.kkt_residual < 1e-9
    np.testing.assert_allclose(wstar, slsqp_min_norm(Z, np.ones(n)), rtol=1e-6, atol=1e-8)
    # geometric margin definition: min_i y_i <w, f_i> with ||w|| = 1
    assert np.linalg.norm(r.w) == pytest.approx(1.0)
    assert r.margin == pytest.approx(np.min(Z @ r.w), rel=1e-10)
    rg = svm.max_margin_gram(F @ F.T, y)
    assert rg.margin == pytest.approx(r.margin, rel=1e-8)
    assert rg.kkt_residual < 1e-8
    # dual optimality: the Gram dual variables give the same primal vector
    np.testing.assert_allclose(Z.T @ rg.alpha, wstar, rtol=1e-7, atol=1e-9)


def test_inseparable_certificate():
    g = np.random.default_rng(7)
    F = g.standard_normal((12, 3))
    y = np.where(g.random(12) < 0.5, -1.0, 1.0)
    F = np.vstack([F, F[0]])            # same point with the opposite label: inseparable
    y = np.append(y, -y[0])
    r = svm.max_margin(F, y)
    assert r.status == "inseparable" and r.margin <= 0
    assert np.all(r.alpha >= 0) and r.alpha.sum() == pytest.approx(1.0)
    np.testing.assert_allclose((y[:, None] * F).T @ r.alpha, 0.0, atol=1e-9)
    rg = svm.max_margin_gram(F @ F.T, y)
    assert rg.status == "inseparable" and rg.margin <= 0


def test_min_norm_point_mixed_rhs_and_infeasible():
    g = np.random.default_rng(3)
    G = g.standard_normal((9, 4))
    x0 = g.standard_normal(4)
    h = G @ x0 - np.abs(g.standard_normal(9))       # feasible at x0, mixed signs
    r = svm.min_norm_point(G, h)
    assert r.status == "optimal"
    assert_kkt(G, h, r.x, r.multipliers)
    np.testing.assert_allclose(r.x, slsqp_min_norm(G, h), atol=1e-7)
    bad = svm.min_norm_point(np.array([[1.0], [-1.0]]), np.array([1.0, 1.0]))   # x>=1, x<=-1
    assert bad.status == "infeasible"
    assert svm.min_norm_point(np.zeros((2, 3)), np.array([0.0, 1.0])).status == "infeasible"
    triv = svm.min_norm_point(G, -np.ones(9))
    assert triv.status == "optimal" and not np.any(triv.x)


def test_bad_input_raises():
    with pytest.raises(ValueError, match="y must contain"):
        svm.max_margin(np.eye(2), [1, 0])
    with pytest.raises(ValueError, match="shape"):
        svm.max_margin(np.eye(2), [1, -1, 1])
    with pytest.raises(ValueError, match="symmetric"):
        svm.max_margin_gram(np.array([[1.0, 2.0], [0.0, 1.0]]), [1, -1])
    with pytest.raises(ValueError, match="positive semidefinite"):
        svm.max_margin_gram(np.array([[1.0, 0.0], [0.0, -1.0]]), [1, -1])
    with pytest.raises(ValueError, match="NaN"):
        svm.max_margin(np.array([[np.nan, 1.0]]), [1])
    with pytest.raises(ValueError, match="alpha"):
        svm.att_svm(np.zeros((2, 3, 2)), np.array([0, 3]))
    with pytest.raises(ValueError, match="alpha"):
        svm.att_svm(np.zeros((2, 3, 2)), np.array([0.0, 1.0]))


# --- (ATT-SVM), (SVM), (10), Definitions 2-3 -------------------------------------------------

def test_att_svm_fig1_by_hand():
    # Fig. 1(a): constraints -1.1 p1 + p2 >= 1 and -0.1 p1 + p2 >= 1; only the second is
    # active at the least-norm point p = (-0.1, 1)/1.01, whose SVM-neighbour is token (0, 0)
    d = tokens.fig1a()
    r = svm.att_svm(d.keys, np.array([0]))
    np.testing.assert_allclose(r.p, np.array([-0.1, 1.0, 0.0]) / 1.01, atol=1e-12)
    assert r.margin == pytest.approx(np.sqrt(1.01), rel=1e-12)
    assert [list(t) for t in svm.svm_neighbours(r)] == [[2]]
    scores = svm.token_scores(d.X, d.Y, d.v)
    assert svm.is_locally_optimal(scores, r)
    # Fig. 1(b): the LMM of token (1, 0) is p = (1, 0), neighbour (0, 0) with score 0 < 0.9
    b = tokens.fig1b()
    rb = svm.att_svm(b.keys, np.array([1]))
    np.testing.assert_allclose(rb.p, [1.0, 0.0, 0.0], atol=1e-12)
    assert svm.is_locally_optimal(svm.token_scores(b.X, b.Y, b.v), rb)
    # in Fig. 1(a) the same token is not locally optimal (its neighbour ties at 0.9)
    ra = svm.att_svm(d.keys, np.array([1]))
    assert not svm.is_locally_optimal(scores, ra)
    assert svm.min_neighbour_score_gap(scores, ra) == pytest.approx(0.0, abs=1e-12)


def test_fig3_svm_and_relaxed_by_hand():
    # v^mm = (0, 1) for both; in 3(b) S = {0, 1} and p^relax = (1, 0) while
    # p^mm = (1.25, 0.25) with multipliers 0.875 (input 2) and 0.75 (input 3)
    b = tokens.fig3b()
    alpha = np.array([1, 1, 1])
    R = svm.selected_features(b.X, alpha)
    v = svm.v_mm(R, b.Y)
    np.testing.assert_allclose(v.solution, [0.0, 1.0], atol=1e-12)
    np.testing.assert_array_equal(svm.svm_support_set(R, b.Y), [0, 1])
    pm = svm.att_svm(b.keys, alpha)
    np.testing.assert_allclose(pm.p, [1.25, 0.25], atol=1e-12)
    np.testing.assert_allclose(pm.dual[:, 0], [0.0, 0.875, 0.75], atol=1e-12)
    pr = svm.att_svm_relaxed(b.keys, alpha, [0, 1])
    np.testing.assert_allclose(pr.p, [1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(pr.rhs, [1.0, 1.0, 0.0])
    a = tokens.fig3a()
    np.testing.assert_array_equal(svm.svm_support_set(svm.selected_features(a.X, alpha), a.Y),
                                  [0, 1, 2])
    np.testing.assert_allclose(svm.att_svm_relaxed(a.keys, alpha, [0, 1, 2]).p,
                               svm.att_svm(a.keys, alpha).p, atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_att_svm_random_kkt_and_slsqp(seed):
    data = tokens.appendix_e(n=3, T=4, d=8, seed=seed)
    g = np.random.default_rng(seed)
    alpha = g.integers(0, 4, size=3)
    r = svm.att_svm(data.keys, alpha)
    assert r.status == "optimal"       # d = 8 >= n(T-1) = 9 - 1 rows in general position
    rows = np.array([data.keys[i, alpha[i]] - data.keys[i, t]
                     for i in range(3) for t in range(4) if t != alpha[i]])
    lam = np.array([r.dual[i, t] for i in range(3) for t in range(4) if t != alpha[i]])
    assert_kkt(rows, np.ones(len(rows)), r.p, lam)
    np.testing.assert_allclose(r.p, slsqp_min_norm(rows, np.ones(len(rows))), atol=1e-7)
    np.testing.assert_allclose(r.gaps[np.arange(3), alpha], np.nan)
    for i, Ti in enumerate(svm.svm_neighbours(r)):
        np.testing.assert_allclose(r.gaps[i, Ti], 1.0, atol=1e-9)
        assert np.all(r.dual[i, np.setdiff1d(np.arange(4), np.append(Ti, alpha[i]))] < 1e-9)


def test_att_svm_infeasible():
    # two identical tokens cannot be separated
    keys = np.array([[[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]])
    r = svm.att_svm(keys, np.array([0]))
    assert r.status == "infeasible" and not r.feasible and r.margin == 0.0
    with pytest.raises(ValueError, match="infeasible"):
        svm.svm_neighbours(r)


def test_definition3_directional_quantities():
    # keys of one input: q = e1 selects token 0 with gaps 1 (token 1) and 1 (token 2), 3 (token 3)
    keys = np.array([[[2.0, 0.0], [1.0, 5.0], [1.0, -5.0], [-1.0, 0.0]]])
    q = np.array([1.0, 0.0])
    np.testing.assert_array_equal(svm.selected_tokens(keys, q), [0])
    assert svm.directional_margin(keys, q) == pytest.approx(1.0)
    assert svm.directional_neighbours(keys, q) == [(0, 1), (0, 2)]
    assert svm.is_neighbour_optimal(keys, q, np.array([[1.0, 0.5, 0.2, 2.0]]))
    assert not svm.is_neighbour_optimal(keys, q, np.array([[1.0, 0.5, 1.5, 0.0]]))


@pytest.mark.parametrize("n,p,seed", [(100, 45, 1), (100, 55, 1), (40, 20, 2), (60, 40, 3)])
def test_separability_agrees_with_linear_programming(n, p, seed):
    # random labels near the capacity n = 2p: compare with LP feasibility of Z w >= 1 (HiGHS)
    from scipy.optimize import linprog
    g = np.random.default_rng(seed)
    F = g.standard_normal((n, p))
    y = np.where(g.random(n) < 0.5, -1.0, 1.0)
    Z = y[:, None] * F
    lp = linprog(np.zeros(p), A_ub=-Z, b_ub=-np.ones(n), bounds=[(None, None)] * p,
                 method="highs")
    r = svm.max_margin(F, y)
    assert (r.status == "optimal") == (lp.status == 0)
    if r.status == "optimal":
        assert_kkt(Z, np.ones(n), r.solution, r.alpha)
    else:
        assert r.margin <= 0 and np.all(r.alpha >= 0)
        np.testing.assert_allclose(Z.T @ r.alpha, 0.0, atol=1e-10)
