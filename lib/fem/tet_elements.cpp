#include "fem/tet_elements.hpp"

#include <Eigen/LU>
#include <string>

#include "core/error.hpp"

namespace simrun {

TetElements precompute_tet_elements(const MatX3& rest, const MatX4i& tets) {
  TetElements el;
  el.tets = tets;
  const int n = static_cast<int>(tets.rows());
  el.volume.resize(n);
  el.grad.resize(n);
  el.dm_inverse.resize(n);
  for (int e = 0; e < n; ++e) {
    const Vec3 x0 = rest.row(tets(e, 0)).transpose();
    Mat3 Dm;
    for (int c = 0; c < 3; ++c) Dm.col(c) = rest.row(tets(e, c + 1)).transpose() - x0;
    const double det = Dm.determinant();
    if (!(det > 0.0)) {
      throw InputError("element " + std::to_string(e) + " has non-positive rest volume (" +
                       std::to_string(det / 6.0) + " m^3)");
    }
    el.volume[e] = det / 6.0;
    el.dm_inverse[e] = Dm.inverse();
    // Rows 1..3 of G are the rows of Dm^{-1}; row 0 makes the gradients sum to zero.
    el.grad[e].bottomRows<3>() = el.dm_inverse[e];
    el.grad[e].row(0) = -el.dm_inverse[e].colwise().sum();
  }
  return el;
}

}  // namespace simrun
