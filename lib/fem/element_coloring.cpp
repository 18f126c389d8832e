#include "fem/element_coloring.hpp"

#include <bit>
#include <cstdint>

namespace simrun {

std::vector<std::vector<int>> color_elements(const MatX4i& tets, int num_vertices) {
  // Per vertex, a bitmask of the colors already used by its elements, in blocks of 64 colors.
  std::vector<std::vector<int>> colors;
  std::vector<std::vector<std::uint64_t>> used(num_vertices);
  for (int e = 0; e < tets.rows(); ++e) {
    for (int block = 0;; ++block) {
      std::uint64_t taken = 0;
      for (int a = 0; a < 4; ++a) {
        const auto& masks = used[tets(e, a)];
        if (block < static_cast<int>(masks.size())) taken |= masks[block];
      }
      if (taken == ~std::uint64_t{0}) continue;
      const int bit = std::countr_one(taken);
      const int color = 64 * block + bit;
      for (int a = 0; a < 4; ++a) {
        auto& masks = used[tets(e, a)];
        if (static_cast<int>(masks.size()) <= block) masks.resize(block + 1, 0);
        masks[block] |= std::uint64_t{1} << bit;
      }
      if (static_cast<int>(colors.size()) <= color) colors.resize(color + 1);
      colors[color].push_back(e);
      break;
    }
  }
  return colors;
}

}  // namespace simrun
