#pragma once
/// Per-element (or per-vertex) scalar fields from text files, e.g. a heterogeneous E.
#include <filesystem>

#include "core/types.hpp"

namespace simrun {

/// Reads white-space separated finite numbers ('#' starts a comment that runs to the end of the
/// line). Throws InputError naming the file and line for a missing or non-regular file, a token
/// that is not a finite number, a NUL byte or an overlong line, and naming the counts when the
/// file does not hold exactly `expected_count` values. Reads are bounded: a file over
/// 64 KiB + 128 bytes per expected value is rejected from its size, and reading stops at the
/// first value too many.
VecX read_scalar_field(const std::filesystem::path& path, int expected_count);

}  // namespace simrun
