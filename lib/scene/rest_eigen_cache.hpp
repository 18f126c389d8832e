#pragma once
/// EigenFit's rest eigensolves cached on disk (docs/caches.md). The lowest modes of
/// K u = lambda M u at rest (Chen et al. 2019 (EigenFit), Sec. 3.3.1) depend only on K, M and
/// the mode count, so the cache key is a hash of exactly those (and of the build): a sweep over
/// anything else (time step, damping, integrator, steps, ratio overrides) reuses the reference
/// mesh's eigensolve, which costs about as much as the whole reference run of a linear material.
#include <filesystem>
#include <string>
#include <vector>

#include "solve/eigen_solver.hpp"

namespace simrun {

class RestEigenCache {
 public:
  /// `dir` empty: no cache (every call solves).
  explicit RestEigenCache(std::filesystem::path dir) : m_dir(std::move(dir)) {}

  /// smallest_generalized_eigenpairs(K, M, count) read from the cache when this K, M and count
  /// were solved before by this build, else solved and written (a folder that cannot be written
  /// only costs the reuse). Failed solves are not cached.
  GeneralizedEigenResult solve(const SpMat& K, const SpMat& M, int count);

  int reused() const { return m_reused; }
  int stored() const { return m_stored; }
  const std::filesystem::path& dir() const { return m_dir; }
  /// "reused ..." / "cached ..." / "" for the log.
  std::string summary() const;

 private:
  std::filesystem::path m_dir;
  int m_reused = 0, m_stored = 0, m_unwritable = 0;
};

}  // namespace simrun
