#pragma once
/// On-disk cache of the multilevel precomputation (partitions and SMS weights; the bases are
/// rebuilt from them in a fraction of the time): one file per input, named by a hash of
/// everything the precomputation reads, so a changed mesh, material, constraint or setting
/// misses the cache instead of reusing a stale one.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "multilevel/multilevel_setup.hpp"

namespace simrun {

/// FNV-1a over the rest positions, tets, E, materials, fixed vertices and the settings.
std::uint64_t multilevel_input_hash(const MultilevelInput& input,
                                    const MultilevelSetupSettings& settings);

/// DIR/multilevel_<hash as 16 hex digits>.bin.
std::filesystem::path multilevel_cache_file(const std::filesystem::path& dir, std::uint64_t hash);

/// The cached weights (everything compute_multilevel_weights makes; bases empty), or nothing when
/// the file is absent. A file that is unreadable, truncated, of another version, or of another
/// input (hash, sizes) is also a miss: `problem` then says why (for the log).
std::optional<MultilevelPrecompute> load_multilevel_cache(const std::filesystem::path& file,
                                                          std::uint64_t hash,
                                                          const MultilevelInput& input,
                                                          std::string* problem = nullptr);

/// Writes the weights to `file` (creating its folder), through a temporary file renamed into
/// place so that a reader never sees half a file. Throws std::runtime_error when it cannot.
void save_multilevel_cache(const std::filesystem::path& file, std::uint64_t hash,
                           const MultilevelPrecompute& precompute);

/// DIR/multilevel_<hash>_cubature.bin: the cubature rule fitted on the cached partitions (its
/// settings are fixed, so the precomputation's hash names it too).
std::filesystem::path multilevel_cubature_file(const std::filesystem::path& dir,
                                               std::uint64_t hash);

/// A fitted cubature rule as the solver uses it: w_k / V_k per tet (0 where not sampled) and the
/// fit's summary for the log.
struct CachedCubature {
  VecX weight;
  double worst_residual = 0.0;
  int weights_only_partitions = 0;
};

/// The cached rule for `num_tets` tets, or nothing (absent; or damaged, of another version or
/// input, or with a negative or non-finite weight: then `problem` says why).
std::optional<CachedCubature> load_multilevel_cubature(const std::filesystem::path& file,
                                                       std::uint64_t hash, int num_tets,
                                                       std::string* problem = nullptr);
/// Writes the rule like save_multilevel_cache (temporary file, rename); throws
/// std::runtime_error when it cannot.
void save_multilevel_cubature(const std::filesystem::path& file, std::uint64_t hash,
                              const CachedCubature& cubature);

}  // namespace simrun
