// The subtree-parallel substitution that CholmodSolver uses on several threads gives CHOLMOD's
// answer to round-off, on connected and disconnected (forest) systems, whatever the thread
// count (more threads than OpenMP grants included).
#include <gtest/gtest.h>
#include <omp.h>

#include "core/parallel.hpp"
#include "solve/linear_solver.hpp"
#include "test_matrices.hpp"

namespace simrun {
namespace {

/// A 3D grid Laplacian (7-point) plus `shift` on the diagonal, `blocks` disconnected copies.
SpMat grid(int n, int blocks, double shift) {
  test::Triplets t;
  const int per_block = n * n * n;
  auto id = [n](int i, int j, int k) { return i + n * (j + n * k); };
  for (int b = 0; b < blocks; ++b) {
    const int o = b * per_block;
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const int v = o + id(i, j, k);
          t.emplace_back(v, v, shift * (1.0 + 0.1 * b));
          if (i + 1 < n) test::add_edge(t, v, o + id(i + 1, j, k), 1.0 + 0.01 * i);
          if (j + 1 < n) test::add_edge(t, v, o + id(i, j + 1, k), 1.0);
          if (k + 1 < n) test::add_edge(t, v, o + id(i, j, k + 1), 2.0);
        }
  }
  return test::from_triplets(blocks * per_block, t);
}

void expect_parallel_matches_serial(const SpMat& A) {
  auto solver = make_cholmod_solver();
  ASSERT_EQ(solver->factorize(A), Status::kSuccess);
  const VecX b = VecX::LinSpaced(A.rows(), -1.0, 3.0);
  set_thread_count(1);
  VecX serial;
  solver->solve(b, serial);
  // Residual of the serial answer: the reference is itself accurate.
  EXPECT_LT((A.selfadjointView<Eigen::Lower>() * serial - b).norm(), 1e-10 * b.norm());
  for (int threads : {2, 3, 8}) {
    set_thread_count(threads);
    VecX parallel;
    solver->solve(b, parallel);
    // The same operations in another order: round-off only.
    EXPECT_LT((parallel - serial).cwiseAbs().maxCoeff(), 1e-12 * serial.cwiseAbs().maxCoeff())
        << threads << " threads";
    VecX aliased = b;
    solver->solve(aliased, aliased);
    EXPECT_EQ(aliased, parallel) << threads << " threads (b and x alias)";
  }
  set_thread_count(1);
}

TEST(ParallelSolve, MatchesCholmodOnAConnectedSystem) {
  expect_parallel_matches_serial(grid(24, 1, 0.01));  // 13824 unknowns
}

TEST(ParallelSolve, MatchesCholmodOnAForest) {
  expect_parallel_matches_serial(grid(17, 3, 0.5));  // three disconnected blocks, 14739 unknowns
}

TEST(ParallelSolve, ARefactorizationWithANewPatternGetsANewPlan) {
  auto solver = make_cholmod_solver();
  set_thread_count(2);
  for (const SpMat& A : {grid(24, 1, 0.01), grid(17, 3, 0.5), grid(24, 1, 0.02)}) {
    ASSERT_EQ(solver->factorize(A), Status::kSuccess);
    const VecX b = VecX::Ones(A.rows());
    VecX x;
    solver->solve(b, x);
    EXPECT_LT((A.selfadjointView<Eigen::Lower>() * x - b).norm(), 1e-10 * b.norm());
  }
  set_thread_count(1);
}

}  // namespace
}  // namespace simrun
