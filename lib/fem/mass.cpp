#include "fem/mass.hpp"

namespace simrun {

void add_mass_values(const TetElements& el, const VecX& density, bool lumped, const TetSlots& slots,
                     double* values) {
  for (int e = 0; e < el.size(); ++e) {
    const double m = density[e] * el.volume[e];
    const int* s = slots.element(e);
    for (int a = 0; a < 4; ++a) {
      for (int b = 0; b < 4; ++b) {
        double mab;
        if (lumped) {
          mab = (a == b) ? m / 4.0 : 0.0;
        } else {
          mab = m * (a == b ? 2.0 : 1.0) / 20.0;
        }
        if (mab == 0.0) continue;
        for (int i = 0; i < 3; ++i) {
          const int slot = s[12 * (3 * a + i) + 3 * b + i];
          if (slot >= 0) values[slot] += mab;
        }
      }
    }
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
