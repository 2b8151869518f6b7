"""Tokenized-mixture data model DM1 of Deora et al. (2023), Sec. 5 and Assumption 3.

M + 2 orthogonal patterns of norm S: mu_+, mu_- (label-relevant) and nu_1..nu_M.  Given the
label y (equiprobable in {-1,+1}) and a label-relevant set R of |R| = zeta T token positions
(uniformly random), tokens are independent with

    x_t = mu_y                       for t in R,
    x_t = nu_{j_t} + z_t,  j_t ~ Unif{1..M}   for t not in R.                     (DM1)

Assumption 3 only asks the noise to satisfy, almost surely,
|<z, mu_y>| <= Z_mu, |<z, nu_l>| <= Z_nu / M and ||z|| <= Z.  We use this concrete
distribution (our choice; documented so it can be reproduced):

    <z, mu_+>, <z, mu_->      IID Unif[-z_mu, z_mu]
    <z, nu_l>, l = 1..M       IID Unif[-z_nu / M, z_nu / M]
    z_perp                    z_perp_norm * (uniform direction on the unit sphere of the
                              orthogonal complement of span(patterns))

i.e. z = sum_p (<z, p> / S^2) p + z_perp.  Hence, almost surely, Z_mu <= z_mu, Z_nu <= z_nu and
||z||^2 <= z_perp_norm^2 + (2 z_mu^2 + z_nu^2 / M) / S^2.  The noise is independent of y.

A sample reports the *realised* levels (maxima over its noise tokens) Z, Z_mu, Z_nu and
R = sqrt(S^2 + Z^2 + 2 Z_nu / M) (Assumption 3 => Assumption 1), next to the a.s. bounds.
Requires d >= M + 2, and d >= M + 3 when z_perp_norm > 0.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import ops

Array = np.ndarray


@dataclass(frozen=True)
class DM1Sample:
    """n samples of DM1 with the realised noise levels of Assumption 3."""

    X: Array            # (n, T, d) tokens as rows
    y: Array            # (n,) labels in {-1, +1}
    relevant: Array     # (n, T) bool, the set R of each sample
    pattern_index: Array  # (n, T) int: j_t in 0..M-1 for irrelevant tokens, -1 for relevant
    noise: Array        # (n, T, d): z_t (zero rows at relevant positions)
    Z: float            # max ||z_t||
    Z_mu: float         # max |<z_t, mu_y>| over y in {+,-}
    Z_nu: float         # M * max |<z_t, nu_l>|
    R: float            # sqrt(S^2 + Z^2 + 2 Z_nu / M)

    @property
    def n(self) -> int:
        return self.X.shape[0]


@dataclass(frozen=True)
class DM1:
    """DM1 model: geometry + noise levels.  Build with :func:`make_dm1`; draw with :meth:`sample`."""

    T: int
    d: int
    M: int
    S: float
    zeta: float
    z_mu: float
    z_nu: float
    z_perp_norm: float
    patterns: Array     # (M+2, d) rows mu_+, mu_-, nu_1, ..., nu_M (orthogonal, norm S)
    complement: Array   # (d, d-M-2) orthonormal basis of the orthogonal complement

    @property
    def mu_plus(self) -> Array:
        return self.patterns[0]

    @property
    def mu_minus(self) -> Array:
        return self.patterns[1]

    @property
    def nus(self) -> Array:
        return self.patterns[2:]

    @property
    def u_star(self) -> Array:
        """Oracle classifier u_* = mu_+ - mu_- (Sec. 5.1)."""
        return self.mu_plus - self.mu_minus

    @property
    def n_relevant(self) -> int:
        """|R| = zeta T."""
        return round(self.zeta * self.T)

    @property
    def W_star(self) -> Array:
        """W_* = mu_+ mu_+^T + mu_- mu_-^T + sum_l nu_l (mu_+ + mu_-)^T (Sec. 5.2)."""
        mp, mm = self.mu_plus, self.mu_minus
        return np.outer(mp, mp) + np.outer(mm, mm) + np.outer(self.nus.sum(axis=0), mp + mm)

    @property
    def U_star(self) -> Array:
        """U_* = 1_T u_*^T (Sec. 5.2)."""
        return np.tile(self.u_star, (self.T, 1))

    def noise_bounds(self) -> dict:
        """Almost-sure bounds of Assumption 3 implied by the chosen noise distribution."""
        Z = float(np.sqrt(self.z_perp_norm ** 2
                          + (2 * self.z_mu ** 2 + self.z_nu ** 2 / self.M) / self.S ** 2))
        return {"Z": Z, "Z_mu": float(self.z_mu), "Z_nu": float(self.z_nu),
                "R": float(np.sqrt(self.S ** 2 + Z ** 2 + 2 * self.z_nu / self.M))}

    def sample(self, n: int, seed: int | np.random.Generator | None = None) -> DM1Sample:
        """Draw n IID pairs (X, y) from DM1 (vectorised; ``seed`` makes it reproducible)."""
        if int(n) != n or n < 1:
            raise ValueError(f"n must be a positive integer, got {n!r}")
        g = seed if isinstance(seed, np.random.Generator) else ops.rng(seed)
        T, M, S = self.T, self.M, self.S
        y = g.choice(np.array([-1.0, 1.0]), size=n)
        # R: the first zeta*T entries of a uniformly random permutation of the positions
        ranks = np.argsort(g.random((n, T)), axis=1)
        relevant = np.zeros((n, T), dtype=bool)
        np.put_along_axis(relevant, ranks[:, :self.n_relevant], True, axis=1)
        j = g.integers(0, M, size=(n, T))
        coef_mu = g.uniform(-self.z_mu, self.z_mu, size=(n, T, 2))
        coef_nu = g.uniform(-self.z_nu / M, self.z_nu / M, size=(n, T, M))
        inner = np.concatenate([coef_mu, coef_nu], axis=2)          # <z, p> for every pattern
        z = (inner / S ** 2) @ self.patterns
        if self.z_perp_norm > 0:
            k = self.complement.shape[1]
            w = g.standard_normal((n, T, k))
            w /= np.linalg.norm(w, axis=2, keepdims=True)
            z += self.z_perp_norm * (w @ self.complement.T)
        z[relevant] = 0.0
        mu_y = np.where(y[:, None] > 0, 0, 1)                        # index of mu_y
        X = self.patterns[2 + j] + z
        X[relevant] = self.patterns[np.broadcast_to(mu_y, (n, T))[relevant]]
        pattern_index = np.where(relevant, -1, j)
        zi = z[~relevant]
        if zi.size:
            Zr = float(np.max(np.linalg.norm(zi, axis=1)))
            Zmu = float(np.max(np.abs(zi @ self.patterns[:2].T)))
            Znu = float(M * np.max(np.abs(zi @ self.nus.T)))
        else:
            Zr = Zmu = Znu = 0.0
        R = float(np.sqrt(S ** 2 + Zr ** 2 + 2 * Znu / M))
        return DM1Sample(X, y, relevant, pattern_index, z, Zr, Zmu, Znu, R)


def make_dm1(T: int, d: int, M: int, S: float = 1.0, zeta: float = 0.5, *,
             z_mu: float = 0.0, z_nu: float = 0.0, z_perp_norm: float = 0.0,
             basis_seed: int | None = None) -> DM1:
    """Build DM1 (Sec. 5).  Patterns are S e_1, ..., S e_{M+2} (``basis_seed=None``) or S times
    the first M+2 columns of a random orthogonal matrix (QR of a Gaussian, ``basis_seed``)."""
    for name, v in (("T", T), ("d", d), ("M", M)):
        if int(v) != v or v < 1:
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    if not (np.isfinite(S) and S > 0):
        raise ValueError(f"S must be positive, got {S!r}")
    if not 0 < zeta < 1:
        raise ValueError(f"zeta must lie in (0, 1), got {zeta!r}")
    k = zeta * T
    if abs(k - round(k)) > 1e-9 or round(k) < 1:
        raise ValueError(f"zeta * T = {k} must be a positive integer (|R| = zeta T)")
    for name, x in (("z_mu", z_mu), ("z_nu", z_nu), ("z_perp_norm", z_perp_norm)):
        if not (np.isfinite(x) and x >= 0):
            raise ValueError(f"{name} must be a finite number >= 0, got {x!r}")
    if d < M + 2:
        raise ValueError(f"d = {d} is too small: DM1 needs d >= M + 2 = {M + 2} orthogonal patterns")
    if z_perp_norm > 0 and d < M + 3:
        raise ValueError(f"d = {d} leaves no room for noise orthogonal to the patterns: "
                         f"z_perp_norm > 0 needs d >= M + 3 = {M + 3}")
    if basis_seed is None:
        Q = np.eye(d)
    else:
        Q, r = np.linalg.qr(ops.rng(basis_seed).standard_normal((d, d)))
        Q = Q * np.sign(np.diag(r))
    patterns = S * Q[:, :M + 2].T.copy()
    complement = Q[:, M + 2:].copy()
    return DM1(int(T), int(d), int(M), float(S), float(zeta), float(z_mu), float(z_nu),
               float(z_perp_norm), patterns, complement)
