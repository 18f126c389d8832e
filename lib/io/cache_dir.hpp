#pragma once
/// Where simrun keeps precomputations between runs (numerical coarsening, EigenFit's rest modes,
/// TetGen meshes of surface files): docs/caches.md.
#include <cstdint>
#include <filesystem>
#include <string_view>

namespace simrun {

/// $SIMRUN_CACHE_DIR, else $XDG_CACHE_HOME/simrun, else $HOME/.cache/simrun; empty when none is
/// set (no caching). SIMRUN_CACHE_DIR=off (or none) turns the caches off.
std::filesystem::path user_cache_dir();

/// DIR/PREFIX-<16 hex digits of key>.bin
std::filesystem::path cache_file(const std::filesystem::path& dir, const char* prefix,
                                 std::uint64_t key);

/// Writes a cache entry atomically (io/atomic_file.hpp), creating its folder; false when that
/// fails (an unwritable cache only costs the reuse).
bool store_cache_file(const std::filesystem::path& file, std::string_view contents);

}  // namespace simrun
