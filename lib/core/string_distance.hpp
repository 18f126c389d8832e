#pragma once
/// Edit distance for "did you mean" suggestions on misspelled names.
#include <string>
#include <string_view>
#include <vector>

namespace simrun {

/// Levenshtein distance between a and b.
int edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `name` if it is close enough to be a plausible typo, else "".
std::string nearest_name(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace simrun
