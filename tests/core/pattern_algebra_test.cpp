#include "core/pattern_algebra.hpp"

#include <gtest/gtest.h>

namespace simrun {
namespace {

SpMat from_dense(const MatX& D) {
  SpMat A = D.sparseView();
  A.makeCompressed();
  return A;
}

TEST(PatternAlgebra, SamePatternSumsValueArrays) {
  MatX a(3, 3), b(3, 3);
  a << 1, 2, 0, 2, 3, 4, 0, 4, 5;
  b << 6, 7, 0, 7, 8, 9, 0, 9, 1;
  SpMat A = from_dense(a), B = from_dense(b);
  ASSERT_TRUE(same_pattern(A, B));
  const int* inner = A.innerIndexPtr();
  add_scaled(A, 0.5, B);
  EXPECT_EQ(A.innerIndexPtr(), inner);  // no reallocation: values only
  EXPECT_EQ(MatX(A), a + 0.5 * b);
}

TEST(PatternAlgebra, DifferentPatternsFallBackToTheGeneralSum) {
  MatX a = MatX::Zero(3, 3), b = MatX::Zero(3, 3);
  a(0, 0) = 1;
  a(1, 1) = 2;
  b(2, 0) = 3;  // same count of entries, other positions
  b(1, 1) = 4;
  SpMat A = from_dense(a), B = from_dense(b);
  EXPECT_FALSE(same_pattern(A, B));
  add_scaled(A, 2.0, B);
  EXPECT_EQ(MatX(A), a + 2.0 * b);
  SpMat C;
  assign_combination(C, {{1.0, &B}, {-1.0, &A}});
  EXPECT_EQ(MatX(C), b - (a + 2.0 * b));
}

TEST(PatternAlgebra, ConformKeepsAMatchingMatrixAndResetsOthers) {
  MatX a(2, 2);
  a << 1, 2, 2, 3;
  const SpMat pattern = from_dense(MatX::Ones(2, 2));
  SpMat A = from_dense(a);
  conform_to_pattern(A, pattern);
  EXPECT_EQ(MatX(A), a);  // same pattern: untouched
  SpMat B = from_dense(MatX::Identity(2, 2));
  conform_to_pattern(B, pattern);
  EXPECT_TRUE(same_pattern(B, pattern));
  EXPECT_EQ(MatX(B), MatX::Zero(2, 2));
}

TEST(PatternAlgebra, MoveOntoPatternKeepsTheValuesInsideTheNewPattern) {
  // A kept elastic Hessian (diagonal blocks) moves from an old contact pattern (entry (2, 0))
  // onto a new one (entry (0, 1)) with its values and the new entries zero.
  MatX a = MatX::Zero(3, 3);
  a << 4, 0, 0, 0, 5, 0, 0, 0, 6;
  MatX old_pattern = MatX::Identity(3, 3), new_pattern = MatX::Identity(3, 3);
  old_pattern(2, 0) = old_pattern(0, 2) = 1;
  new_pattern(0, 1) = new_pattern(1, 0) = 1;
  SpMat A = from_dense(old_pattern);
  for (Eigen::Index j = 0; j < A.outerSize(); ++j)
    for (SpMat::InnerIterator it(A, j); it; ++it) it.valueRef() = a(it.row(), it.col());
  const SpMat pattern = from_dense(new_pattern);
  move_onto_pattern(A, pattern);
  EXPECT_TRUE(same_pattern(A, pattern));
  EXPECT_EQ(MatX(A), a);
}

}  // namespace
}  // namespace simrun
