#include "fem/element_coloring.hpp"

#include <bit>
#include <cstdint>

namespace simrun {

ElementColoring color_element_blocks(const MatX4i& tets, int num_vertices, int block_size) {
  ElementColoring coloring;
  coloring.num_elements = static_cast<int>(tets.rows());
  coloring.block_size = block_size;
  const int num_blocks = (coloring.num_elements + block_size - 1) / block_size;
  // Per vertex, a bitmask of the colors already used by blocks touching it, 64 colors per word.
  std::vector<std::vector<std::uint64_t>> used(num_vertices);
  for (int b = 0; b < num_blocks; ++b) {
    const int begin = coloring.block_begin(b), end = coloring.block_end(b);
    for (int word = 0;; ++word) {
      std::uint64_t taken = 0;
      for (int e = begin; e < end; ++e) {
        for (int a = 0; a < 4; ++a) {
          const auto& masks = used[tets(e, a)];
          if (word < static_cast<int>(masks.size())) taken |= masks[word];
        }
      }
      if (taken == ~std::uint64_t{0}) continue;
      const int bit = std::countr_one(taken);
      for (int e = begin; e < end; ++e) {
        for (int a = 0; a < 4; ++a) {
          auto& masks = used[tets(e, a)];
          if (static_cast<int>(masks.size()) <= word) masks.resize(word + 1, 0);
          masks[word] |= std::uint64_t{1} << bit;
        }
      }
      const int color = 64 * word + bit;
      if (static_cast<int>(coloring.colors.size()) <= color) coloring.colors.resize(color + 1);
      coloring.colors[color].push_back(b);
      break;
    }
  }
  return coloring;
}

}  // namespace simrun
