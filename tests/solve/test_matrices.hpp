#pragma once
/// Small sparse test matrices with known properties, shared by the solve tests.
#include <random>
#include <vector>

#include "core/types.hpp"

namespace simrun::test {

using Triplets = std::vector<Eigen::Triplet<double>>;

/// Adds the edge (i, j) with weight w to a graph Laplacian (fully stored).
inline void add_edge(Triplets& t, int i, int j, double w) {
  t.emplace_back(i, i, w);
  t.emplace_back(j, j, w);
  t.emplace_back(i, j, -w);
  t.emplace_back(j, i, -w);
}

inline SpMat from_triplets(int n, const Triplets& t) {
  SpMat A(n, n);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

/// tridiag(-1, 2, -1): the 1D Dirichlet Laplacian, eigenvalues 4 sin^2(k pi / (2 (n + 1))).
inline SpMat laplacian_1d_dirichlet(int n) {
  Triplets t;
  for (int i = 0; i < n; ++i) {
    t.emplace_back(i, i, 2.0);
    if (i + 1 < n) {
      t.emplace_back(i, i + 1, -1.0);
      t.emplace_back(i + 1, i, -1.0);
    }
  }
  return from_triplets(n, t);
}

/// Path graph Laplacian (1D Neumann): singular, nullspace = constants, eigenvalues
/// 4 sin^2(k pi / (2 n)), k = 0..n-1.
inline SpMat laplacian_1d_free(int n) {
  Triplets t;
  for (int i = 0; i + 1 < n; ++i) add_edge(t, i, i + 1, 1.0);
  return from_triplets(n, t);
}

/// 5-point Dirichlet Laplacian on an nx x ny grid (fully stored, SPD).
inline SpMat laplacian_2d_dirichlet(int nx, int ny) {
  Triplets t;
  auto id = [nx](int i, int j) { return j * nx + i; };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      t.emplace_back(id(i, j), id(i, j), 4.0);
      if (i + 1 < nx) {
        t.emplace_back(id(i, j), id(i + 1, j), -1.0);
        t.emplace_back(id(i + 1, j), id(i, j), -1.0);
      }
      if (j + 1 < ny) {
        t.emplace_back(id(i, j), id(i, j + 1), -1.0);
        t.emplace_back(id(i, j + 1), id(i, j), -1.0);
      }
    }
  return from_triplets(nx * ny, t);
}

/// Diagonal matrix with the given entries.
inline SpMat diagonal(const VecX& d) {
  Triplets t;
  for (int i = 0; i < d.size(); ++i) t.emplace_back(i, i, d[i]);
  return from_triplets(static_cast<int>(d.size()), t);
}

/// Random sparse SPD "mass-like" matrix: a weighted graph Laplacian of a random ring-plus-chords
/// graph plus a positive diagonal, so it is strictly diagonally dominant.
inline SpMat random_spd(int n, std::mt19937& rng, double diag_min = 1.0) {
  std::uniform_real_distribution<double> w(0.1, 1.0);
  std::uniform_int_distribution<int> node(0, n - 1);
  Triplets t;
  for (int i = 0; i < n; ++i) {
    add_edge(t, i, (i + 1) % n, w(rng));
    const int j = node(rng);
    if (j != i) add_edge(t, i, j, w(rng));
    t.emplace_back(i, i, diag_min + w(rng));
  }
  return from_triplets(n, t);
}

}  // namespace simrun::test
