#pragma once
/// Linear combinations of sparse matrices that usually share one sparsity pattern.
///
/// The system matrices (M, K, D, M + h D + h^2 K, ...) are assembled into one free-DOF pattern,
/// so their combinations are sums over value arrays. A term whose pattern changes (contact pairs)
/// breaks that; these functions check the patterns and fall back to a general sparse sum, so a
/// changed pattern costs one slower sum (and, downstream, one new symbolic analysis) and nothing
/// else breaks. This is the one place that relies on shared value arrays.
#include <initializer_list>
#include <utility>

#include "core/types.hpp"

namespace simrun {

/// True when A and B have the same size and the same stored entries (compressed storage).
bool same_pattern(const SpMat& A, const SpMat& B);

/// target += c * source: over the value arrays when the patterns agree, otherwise a general
/// sparse sum (target's pattern becomes the union).
void add_scaled(SpMat& target, double c, const SpMat& source);

/// out = sum_k c_k A_k over the given terms (at least one). out takes the first term's pattern
/// (or the union of all when they differ); out must not alias a term unless it is the first.
void assign_combination(SpMat& out, std::initializer_list<std::pair<double, const SpMat*>> terms);

/// True when A and B have the same pattern and the same values (a kept factorization of one
/// serves the other).
bool same_matrix(const SpMat& A, const SpMat& B);

/// Moves A's values onto `pattern` (A then has exactly that pattern): entries of A outside it
/// are dropped, so they must be zero for the matrix to stay the same (a term whose stencils sit
/// inside every pattern, such as the elastic Hessian kept while contact stencils come and go).
/// Nothing happens when A already has the pattern.
void move_onto_pattern(SpMat& A, const SpMat& pattern);

/// Makes A a zero matrix in `pattern` unless it already has that pattern (then A is untouched).
void conform_to_pattern(SpMat& A, const SpMat& pattern);

}  // namespace simrun
