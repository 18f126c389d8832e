/// LBS bases (see subspace_basis.hpp).
#include "multilevel/subspace_basis.hpp"

namespace simrun {

RowSpMat lbs_basis(const MatX3& rest, const SpMat& phi, const MatX3& origin, const VecX& length,
                   const std::vector<int>& full_to_free, int num_free) {
  std::vector<Eigen::Triplet<double, int>> entries;
  entries.reserve(static_cast<size_t>(phi.nonZeros()) * 12);
  for (int h = 0; h < phi.outerSize(); ++h) {
    for (SpMat::InnerIterator it(phi, h); it; ++it) {
      const int v = it.row();
      const Eigen::RowVector3d delta = (rest.row(v) - origin.row(h)) / length[h];
      const double monomial[4] = {1.0, delta[0], delta[1], delta[2]};
      for (int c = 0; c < 3; ++c) {
        const int row = full_to_free[3 * v + c];
        if (row < 0) continue;
        for (int k = 0; k < 4; ++k)
          entries.emplace_back(row, 12 * h + 4 * c + k, it.value() * monomial[k]);
      }
    }
  }
  RowSpMat U(num_free, 12 * phi.cols());
  U.setFromTriplets(entries.begin(), entries.end());
  return U;
}

AffineHandles affine_handles(const MatX3& rest, const VecX& mass,
                             const std::vector<int>& object_of_vertex, int num_objects,
                             const VecX& dirichlet_weight) {
  AffineHandles handles;
  handles.origin = MatX3::Zero(num_objects, 3);
  handles.length = VecX::Zero(num_objects);
  VecX total = VecX::Zero(num_objects);
  for (int v = 0; v < rest.rows(); ++v) {
    const int o = object_of_vertex[v];
    if (o < 0) continue;
    handles.origin.row(o) += mass[v] * rest.row(v);
    total[o] += mass[v];
  }
  for (int o = 0; o < num_objects; ++o)
    if (total[o] > 0.0) handles.origin.row(o) /= total[o];
  for (int v = 0; v < rest.rows(); ++v) {
    const int o = object_of_vertex[v];
    if (o >= 0) handles.length[o] += mass[v] * (rest.row(v) - handles.origin.row(o)).squaredNorm();
  }
  std::vector<Eigen::Triplet<double, int>> entries;
  for (int o = 0; o < num_objects; ++o) {
    handles.length[o] = total[o] > 0.0 ? std::sqrt(handles.length[o] / total[o]) : 1.0;
    if (!(handles.length[o] > 0.0)) handles.length[o] = 1.0;
  }
  for (int v = 0; v < rest.rows(); ++v) {
    const int o = object_of_vertex[v];
    const double weight = 1.0 - (dirichlet_weight.size() ? dirichlet_weight[v] : 0.0);
    // Negative where an unclipped Dirichlet weight overshoots 1 (the biharmonic comparison
    // basis): kept, so that the affine level stays in the span of the handle level.
    if (o >= 0 && weight != 0.0) entries.emplace_back(v, o, weight);
  }
  handles.phi.resize(rest.rows(), num_objects);
  handles.phi.setFromTriplets(entries.begin(), entries.end());
  return handles;
}

MatX affine_in_handles(const MatX3& handle_origin, const VecX& handle_length,
                       const std::vector<int>& handle_object, const AffineHandles& affine) {
  const int handles = static_cast<int>(handle_origin.rows());
  MatX Z = MatX::Zero(12 * handles, 12 * affine.origin.rows());
  for (int h = 0; h < handles; ++h) {
    const int o = handle_object[h];
    if (o < 0) continue;
    const double l_o = affine.length[o];
    const Eigen::RowVector3d offset = (handle_origin.row(h) - affine.origin.row(o)) / l_o;
    for (int c = 0; c < 3; ++c) {
      const int row = 12 * h + 4 * c, col = 12 * o + 4 * c;
      Z(row, col) = 1.0;
      for (int k = 0; k < 3; ++k) {
        Z(row, col + 1 + k) = offset[k];
        Z(row + 1 + k, col + 1 + k) = handle_length[h] / l_o;
      }
    }
  }
  return Z;
}

}  // namespace simrun
