#pragma once
/// Where simrun keeps precomputations between runs (numerical coarsening, EigenFit's rest modes,
/// TetGen meshes of surface files), and the envelope of their files: docs/caches.md.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace simrun {

/// $SIMRUN_CACHE_DIR, else $XDG_CACHE_HOME/simrun, else $HOME/.cache/simrun; empty (no caching)
/// when none is set, when SIMRUN_CACHE_DIR is "off" or "none", and, for the default folders,
/// when this build has no clean commit (a "-dirty" or unknown git hash: its results could differ
/// from another build of the same name). An explicit SIMRUN_CACHE_DIR is always used.
std::filesystem::path user_cache_dir();

/// What a cache entry's key must contain besides its inputs: the commit, the compiler and the
/// build type, so that another build never reuses a result.
std::string cache_build_id();

/// DIR/PREFIX-<16 hex digits of key>.bin
std::filesystem::path cache_file(const std::filesystem::path& dir, const char* prefix,
                                 std::uint64_t key);

/// Writes `payload` and its FNV-1a checksum to `file`, creating its folder, through a temporary
/// file of this process and a rename (io/atomic_file.hpp); false when that fails (an unwritable
/// cache only costs the reuse).
bool store_cache_file(const std::filesystem::path& file, std::string_view payload);

/// The payload of a file written by store_cache_file, or nothing when it is missing, larger than
/// max_bytes, unreadable or fails its checksum (damaged or truncated).
std::optional<std::string> load_cache_file(const std::filesystem::path& file,
                                           std::uintmax_t max_bytes = std::uintmax_t{1} << 34);

}  // namespace simrun
