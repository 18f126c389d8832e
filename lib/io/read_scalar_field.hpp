#pragma once
/// Per-element (or per-vertex) scalar fields from text files, e.g. a heterogeneous E.
#include <filesystem>

#include "core/types.hpp"

namespace simrun {

/// Reads white-space separated numbers ('#' starts a comment that runs to the end of the line).
/// Throws InputError naming the file and line for a missing file, a token that is not a number,
/// and naming the counts when the file does not hold exactly `expected_count` values.
VecX read_scalar_field(const std::filesystem::path& path, int expected_count);

}  // namespace simrun
