// GeneralizedEigenSolver keeps its symbolic analysis and warm-starts from its last eigenvectors.
#include <gtest/gtest.h>

#include "solve/eigen_solver.hpp"
#include "test_matrices.hpp"

namespace simrun {
namespace {

/// A 2D grid Laplacian plus a diagonal shift: well separated, slowly changing eigenpairs.
SpMat grid_stiffness(int n, double shift) {
  test::Triplets t;
  auto id = [n](int i, int j) { return i + n * j; };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      if (i + 1 < n) test::add_edge(t, id(i, j), id(i + 1, j), 1.0);
      if (j + 1 < n) test::add_edge(t, id(i, j), id(i, j + 1), 1.0);
      t.emplace_back(id(i, j), id(i, j), shift * (1.0 + 0.01 * i));
    }
  return test::from_triplets(n * n, t);
}

TEST(GeneralizedEigenSolver, ReusesTheAnalysisAndWarmStarts) {
  const int n = 40;
  SpMat M(n * n, n * n);
  M.setIdentity();
  GeneralizedEigenSolver solver;
  const GeneralizedEigenResult first = solver.compute(grid_stiffness(n, 1e-3), M, 6);
  ASSERT_EQ(first.status, Status::kSuccess);
  EXPECT_FALSE(first.warm_started);
  // A slightly changed K (as K(q) from one time step to the next): same pattern.
  const SpMat K2 = grid_stiffness(n, 1.02e-3);
  const GeneralizedEigenResult second = solver.compute(K2, M, 6);
  ASSERT_EQ(second.status, Status::kSuccess);
  EXPECT_TRUE(second.warm_started);
  EXPECT_EQ(solver.solver_stats().symbolic_analyses, 1);
  EXPECT_EQ(solver.solver_stats().factorizations, 2);
  EXPECT_LT(second.operator_products, first.operator_products);
  // The warm start changes the path, not the answer.
  const GeneralizedEigenResult cold = smallest_generalized_eigenpairs(K2, M, 6);
  EXPECT_LT((second.values - cold.values).cwiseAbs().maxCoeff(), 1e-10 * cold.values.maxCoeff());
}

}  // namespace
}  // namespace simrun
