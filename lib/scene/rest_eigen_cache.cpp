#include "scene/rest_eigen_cache.hpp"

#include <optional>
#include <sstream>

#include "core/fnv1a.hpp"
#include "io/binary_stream.hpp"
#include "io/cache_dir.hpp"

namespace simrun {

namespace {

constexpr char kMagic[] = "simrun-rest-eigen-v2";

std::uint64_t key_of(const SpMat& K, const SpMat& M, int count,
                     const GeneralizedEigenSettings& settings) {
  Fnv1a h;
  h.bytes(kMagic, sizeof kMagic);
  h.text(cache_build_id());  // another build may solve differently
  h.sparse(K);
  h.sparse(M);
  h.pod(count);
  h.pod(settings.ncv);
  h.pod(settings.max_iterations);
  h.pod(settings.tolerance);
  return h.value();
}

bool read(const std::filesystem::path& file, std::uint64_t key, Eigen::Index n, int count,
          GeneralizedEigenResult& r) {
  const std::optional<std::string> body = load_cache_file(file, kMagic, key);
  if (!body) return false;
  std::istringstream in(*body, std::ios::binary);
  BinaryReader reader(in);
  r.values = reader.matrix<VecX>(count, 1, count);
  r.vectors = reader.matrix<MatX>(n, count, n * count);
  r.iterations = reader.pod<int>();
  r.operator_products = reader.pod<int>();
  r.shift = reader.pod<double>();
  r.status = Status::kSuccess;
  return reader.ok();
}

bool write(const std::filesystem::path& file, std::uint64_t key, const GeneralizedEigenResult& r) {
  BinaryWriter out;
  out.matrix(r.values);
  out.matrix(r.vectors);
  out.pod(r.iterations);
  out.pod(r.operator_products);
  out.pod(r.shift);
  return store_cache_file(file, kMagic, key, out.str());
}

}  // namespace

GeneralizedEigenResult RestEigenCache::solve(const SpMat& K, const SpMat& M, int count) {
  const GeneralizedEigenSettings settings;
  if (m_dir.empty()) return smallest_generalized_eigenpairs(K, M, count, settings);
  const std::uint64_t key = key_of(K, M, count, settings);
  const std::filesystem::path file = cache_file(m_dir, "rest-eigen", key);
  GeneralizedEigenResult r;
  if (read(file, key, K.rows(), count, r)) {
    ++m_reused;
    return r;
  }
  r = smallest_generalized_eigenpairs(K, M, count, settings);
  if (r.status != Status::kSuccess || r.values.size() != count) return r;
  if (write(file, key, r))
    ++m_stored;
  else
    ++m_unwritable;
  return r;
}

std::string RestEigenCache::summary() const {
  std::string s;
  if (m_reused > 0)
    s += "reused " + std::to_string(m_reused) + " rest eigensolve" + (m_reused > 1 ? "s" : "") +
         " from the cache " + m_dir.string();
  if (m_stored > 0)
    s += std::string(s.empty() ? "" : "; ") + "cached " + std::to_string(m_stored) +
         " rest eigensolve" + (m_stored > 1 ? "s" : "") + " in " + m_dir.string();
  if (m_unwritable > 0)
    s += std::string(s.empty() ? "" : "; ") + "warning: could not write the cache folder " +
         m_dir.string();
  return s;
}

}  // namespace simrun
