#include "core/pattern_algebra.hpp"

#include <algorithm>
#include <stdexcept>

namespace simrun {

bool same_pattern(const SpMat& A, const SpMat& B) {
  if (A.rows() != B.rows() || A.cols() != B.cols() || A.nonZeros() != B.nonZeros()) return false;
  if (!A.isCompressed() || !B.isCompressed()) return false;
  if (A.outerIndexPtr() == B.outerIndexPtr() && A.innerIndexPtr() == B.innerIndexPtr()) return true;
  return std::equal(A.outerIndexPtr(), A.outerIndexPtr() + A.outerSize() + 1, B.outerIndexPtr()) &&
         std::equal(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros(), B.innerIndexPtr());
}

bool same_matrix(const SpMat& A, const SpMat& B) {
  return same_pattern(A, B) && std::equal(A.valuePtr(), A.valuePtr() + A.nonZeros(), B.valuePtr());
}

void add_scaled(SpMat& target, double c, const SpMat& source) {
  if (same_pattern(target, source)) {
    Eigen::Map<VecX>(target.valuePtr(), target.nonZeros()) +=
        c * Eigen::Map<const VecX>(source.valuePtr(), source.nonZeros());
    return;
  }
  if (target.rows() != source.rows() || target.cols() != source.cols())
    throw std::invalid_argument("add_scaled: matrices of different sizes");
  SpMat sum = target + c * source;
  sum.makeCompressed();
  target = std::move(sum);
}

void assign_combination(SpMat& out, std::initializer_list<std::pair<double, const SpMat*>> terms) {
  if (terms.size() == 0) throw std::invalid_argument("assign_combination: no terms");
  const auto& [c0, A0] = *terms.begin();
  if (&out != A0) {
    if (same_pattern(out, *A0)) {
      std::copy_n(A0->valuePtr(), A0->nonZeros(), out.valuePtr());
    } else {
      out = *A0;
      out.makeCompressed();
    }
  }
  if (c0 != 1.0) Eigen::Map<VecX>(out.valuePtr(), out.nonZeros()) *= c0;
  for (auto it = terms.begin() + 1; it != terms.end(); ++it)
    add_scaled(out, it->first, *it->second);
}

void move_onto_pattern(SpMat& A, const SpMat& pattern) {
  if (same_pattern(A, pattern)) return;
  if (A.rows() != pattern.rows() || A.cols() != pattern.cols())
    throw std::invalid_argument("move_onto_pattern: matrices of different sizes");
  SpMat moved = pattern;
  moved.makeCompressed();
  for (Eigen::Index j = 0; j < moved.outerSize(); ++j) {
    SpMat::InnerIterator source(A, j);
    for (SpMat::InnerIterator target(moved, j); target; ++target) {
      while (source && source.row() < target.row()) ++source;
      target.valueRef() = source && source.row() == target.row() ? source.value() : 0.0;
    }
  }
  A = std::move(moved);
}

void conform_to_pattern(SpMat& A, const SpMat& pattern) {
  if (same_pattern(A, pattern)) return;
  A = pattern;
  A.makeCompressed();
  std::fill(A.valuePtr(), A.valuePtr() + A.nonZeros(), 0.0);
}

}  // namespace simrun
