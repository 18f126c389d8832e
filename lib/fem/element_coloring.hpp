#pragma once
/// Greedy coloring of contiguous element blocks so that no two blocks of one color share a
/// vertex: assembly runs the blocks of one color in parallel (each block serially, in element
/// order, for cache locality) and scatters without races.
#include <vector>

#include "core/types.hpp"

namespace simrun {

struct ElementColoring {
  int num_elements = 0;
  int block_size = 1;                    ///< block b holds elements [b*size, (b+1)*size)
  std::vector<std::vector<int>> colors;  ///< block indices per color, vertex-disjoint blocks

  int block_begin(int block) const { return block * block_size; }
  int block_end(int block) const { return std::min(num_elements, (block + 1) * block_size); }
};

/// Colors blocks of `block_size` consecutive elements.
ElementColoring color_element_blocks(const MatX4i& tets, int num_vertices, int block_size = 64);

}  // namespace simrun
