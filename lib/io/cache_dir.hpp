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

/// Writes a cache entry: `magic` (the format and its version), `key` (what it was computed from),
/// `body`, and an FNV-1a checksum of all three, creating the folder, through a temporary file of
/// this process and a rename (io/atomic_file.hpp); false when that fails (an unwritable cache
/// only costs the reuse).
bool store_cache_file(const std::filesystem::path& file, std::string_view magic, std::uint64_t key,
                      std::string_view body);

/// The body of an entry written by store_cache_file with this magic and key, or nothing when the
/// file is missing, larger than max_bytes, unreadable, fails its checksum (damaged or truncated),
/// or holds another format or key.
std::optional<std::string> load_cache_file(const std::filesystem::path& file,
                                           std::string_view magic, std::uint64_t key,
                                           std::uintmax_t max_bytes = std::uintmax_t{1} << 34);

}  // namespace simrun
