#include "fem/mass.hpp"

namespace simrun {

void add_mass_values(const TetElements& el, const VecX& density, bool lumped, const TetSlots& slots,
                     double* values) {
  Mat12 block;
  for (int e = 0; e < el.size(); ++e) {
    const double m = density[e] * el.volume[e];
    block.setZero();
    for (int a = 0; a < 4; ++a) {
      for (int b = 0; b < 4; ++b) {
        const double mab = lumped ? (a == b ? m / 4.0 : 0.0) : m * (a == b ? 2.0 : 1.0) / 20.0;
        for (int i = 0; i < 3; ++i) block(3 * a + i, 3 * b + i) = mab;
      }
    }
    slots.add(e, block, values);
  }
}

VecX lumped_mass_per_dof(const TetElements& el, const VecX& density, int num_vertices) {
  VecX m = VecX::Zero(3 * num_vertices);
  for (int e = 0; e < el.size(); ++e) {
    const double quarter = density[e] * el.volume[e] / 4.0;
    for (int a = 0; a < 4; ++a) {
      for (int i = 0; i < 3; ++i) m[3 * el.tets(e, a) + i] += quarter;
    }
  }
  return m;
}

}  // namespace simrun
