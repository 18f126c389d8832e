#pragma once
/// Greedy coloring of elements so that no two elements of one color share a vertex: assembly
/// loops run the elements of one color in parallel and scatter without races.
#include <vector>

#include "core/types.hpp"

namespace simrun {

/// Elements grouped by color (each group's elements are vertex-disjoint).
std::vector<std::vector<int>> color_elements(const MatX4i& tets, int num_vertices);

}  // namespace simrun
