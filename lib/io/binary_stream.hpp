#pragma once
/// The binary layout of simrun's cache files: plain values, counted arrays and sized Eigen
/// matrices in the machine's byte order (a cache is read back by the build that wrote it). The
/// reader is bounded: a short read, an implausible count or one that needs more bytes than the
/// stream has left turns it !ok() instead of allocating.
#include <cstdint>
#include <istream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"

namespace simrun {

class BinaryWriter {
 public:
  template <class T>
  void pod(const T& x) {
    m_out.write(reinterpret_cast<const char*>(&x), sizeof x);
  }
  template <class T>
  void array(const std::vector<T>& v) {
    pod(static_cast<std::int64_t>(v.size()));
    m_out.write(reinterpret_cast<const char*>(v.data()),
                static_cast<std::streamsize>(sizeof(T) * v.size()));
  }
  void text(const std::string& s) { array(std::vector<char>(s.begin(), s.end())); }
  /// rows, cols, then the entries in the matrix type's storage order.
  template <class Matrix>
  void matrix(const Matrix& m) {
    pod(static_cast<std::int64_t>(m.rows()));
    pod(static_cast<std::int64_t>(m.cols()));
    m_out.write(reinterpret_cast<const char*>(m.data()),
                static_cast<std::streamsize>(sizeof(typename Matrix::Scalar) * m.size()));
  }
  std::string str() const { return m_out.str(); }

 private:
  std::ostringstream m_out{std::ios::binary};
};

class BinaryReader {
 public:
  explicit BinaryReader(std::istream& in) : m_in(in) {
    const std::streampos here = in.tellg();
    in.seekg(0, std::ios::end);
    m_end = in.tellg();
    in.seekg(here);
    m_ok = here != std::streampos(-1) && m_end != std::streampos(-1) && static_cast<bool>(in);
  }
  bool ok() const { return m_ok && static_cast<bool>(m_in); }
  template <class T>
  T pod() {
    T x{};
    if (m_ok && !m_in.read(reinterpret_cast<char*>(&x), sizeof x)) m_ok = false;
    return x;
  }
  /// An array of at most max_count entries (else !ok()).
  template <class T>
  std::vector<T> array(std::int64_t max_count) {
    const auto count = pod<std::int64_t>();
    std::vector<T> v;
    if (!m_ok || count < 0 || count > max_count || !left(count, sizeof(T))) return fail(v);
    v.resize(static_cast<size_t>(count));
    if (count > 0 && !m_in.read(reinterpret_cast<char*>(v.data()),
                                static_cast<std::streamsize>(sizeof(T) * count)))
      return fail(v);
    return v;
  }
  std::string text(std::int64_t max_length) {
    const std::vector<char> chars = array<char>(max_length);
    return {chars.begin(), chars.end()};
  }
  /// A matrix written by BinaryWriter::matrix; a size other than the expected one (-1: any, up to
  /// max_entries entries in all) makes the reader !ok().
  template <class Matrix>
  Matrix matrix(std::int64_t rows, std::int64_t cols, std::int64_t max_entries) {
    const auto r = pod<std::int64_t>(), c = pod<std::int64_t>();
    Matrix m;
    if (!m_ok || r < 0 || c < 0 || (rows >= 0 && r != rows) || (cols >= 0 && c != cols) ||
        (c > 0 && r > max_entries / c) || !left(r * c, sizeof(typename Matrix::Scalar)))
      return fail(m);
    if ((Matrix::RowsAtCompileTime != Eigen::Dynamic && r != Matrix::RowsAtCompileTime) ||
        (Matrix::ColsAtCompileTime != Eigen::Dynamic && c != Matrix::ColsAtCompileTime))
      return fail(m);
    m.resize(r, c);
    if (m.size() > 0 &&
        !m_in.read(reinterpret_cast<char*>(m.data()),
                   static_cast<std::streamsize>(sizeof(typename Matrix::Scalar) * m.size())))
      return fail(m);
    return m;
  }

 private:
  template <class T>
  T fail(T& value) {
    m_ok = false;
    return std::move(value);
  }
  /// Whether count values of `size` bytes are left in the stream.
  bool left(std::int64_t count, std::size_t size) {
    const std::streamoff remaining = m_end - m_in.tellg();
    return remaining >= 0 && (count == 0 || static_cast<std::uint64_t>(count) <=
                                                static_cast<std::uint64_t>(remaining) / size);
  }
  std::istream& m_in;
  std::streampos m_end;
  bool m_ok = true;
};

}  // namespace simrun
