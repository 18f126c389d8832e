// Products with symmetric sparse matrices stored in full (core/symmetric_product.hpp): the vector
// product, the block product and SymmetricOperator against the dense matrix.
#include "core/symmetric_product.hpp"

#include <gtest/gtest.h>

#include <random>

namespace simrun {
namespace {

/// A random symmetric sparse matrix (about 10 % filled, both triangles stored).
SpMat random_symmetric(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0), fill(0.0, 1.0);
  std::vector<Eigen::Triplet<double>> entries;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j)
      if (i == j || fill(rng) < 0.1) {
        const double a = value(rng);
        entries.emplace_back(i, j, a);
        if (i != j) entries.emplace_back(j, i, a);
      }
  SpMat A(n, n);
  A.setFromTriplets(entries.begin(), entries.end());
  return A;
}

TEST(SymmetricProduct, BlockVectorAndOperatorProductsEqualTheDenseProduct) {
  const SpMat A = random_symmetric(60, 3);
  const MatX dense(A);
  const MatX X = MatX::Random(60, 7);
  const MatX expected = dense * X;
  EXPECT_LT((symmetric_product_block(A, X) - expected).norm(), 1e-13 * expected.norm());
  for (int threads : {1, 2}) {
    SymmetricOperator op;
    op.assign(A, threads);
    for (Eigen::Index c = 0; c < X.cols(); ++c) {
      VecX y;
      op.multiply(X.col(c), y);
      EXPECT_LT((y - expected.col(c)).norm(), 1e-13 * expected.norm()) << threads;
      EXPECT_LT((symmetric_product(A, X.col(c)) - expected.col(c)).norm(), 1e-13 * expected.norm());
    }
  }
  // No columns and a one-column block.
  EXPECT_EQ(symmetric_product_block(A, MatX(60, 0)).cols(), 0);
  EXPECT_LT((symmetric_product_block(A, X.leftCols(1)) - expected.leftCols(1)).norm(),
            1e-13 * expected.norm());
}

}  // namespace
}  // namespace simrun
