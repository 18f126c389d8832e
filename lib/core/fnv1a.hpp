#pragma once
/// FNV-1a (64 bit), the key of simrun's on-disk caches: a hash of everything a cached result
/// depends on. Not cryptographic; every cache also checks the sizes of what it reads back.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/types.hpp"

namespace simrun {

class Fnv1a {
 public:
  void bytes(const void* data, size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < size; ++i) m_value = (m_value ^ p[i]) * 1099511628211ull;
  }
  template <class T>
  void pod(const T& x) {
    bytes(&x, sizeof x);
  }
  void text(std::string_view s) {
    pod(static_cast<std::uint64_t>(s.size()));
    bytes(s.data(), s.size());
  }
  /// Sizes, then the entries column by column (whatever the storage order).
  template <class Derived>
  void matrix(const Eigen::DenseBase<Derived>& m) {
    pod(static_cast<std::int64_t>(m.rows()));
    pod(static_cast<std::int64_t>(m.cols()));
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      for (Eigen::Index i = 0; i < m.rows(); ++i) pod(m(i, j));
  }
  /// Sizes, pattern and values of a compressed sparse matrix.
  void sparse(const SpMat& m) {
    pod(static_cast<std::int64_t>(m.rows()));
    pod(static_cast<std::int64_t>(m.cols()));
    for (Eigen::Index j = 0; j < m.outerSize(); ++j) {
      for (SpMat::InnerIterator it(m, j); it; ++it) {
        pod(static_cast<std::int64_t>(it.index()));
        pod(it.value());
      }
      pod(static_cast<std::int64_t>(-1));  // end of column j
    }
  }
  template <class T>
  void values(const std::vector<T>& v) {
    pod(static_cast<std::uint64_t>(v.size()));
    if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
  }
  std::uint64_t value() const { return m_value; }

 private:
  std::uint64_t m_value = 14695981039346656037ull;  // the FNV-1a 64-bit offset basis
};

}  // namespace simrun
