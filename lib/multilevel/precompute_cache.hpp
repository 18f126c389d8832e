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

}  // namespace simrun
