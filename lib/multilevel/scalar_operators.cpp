/// Scalar P1 operators (see scalar_operators.hpp).
#include "multilevel/scalar_operators.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <string>

#include "solve/linear_solver.hpp"

namespace simrun {

double tet_shape_gradients(const MatX3& rest, const MatX4i& tets, int e,
                           Eigen::Matrix<double, 4, 3>& grad) {
  Mat3 Dm;
  for (int c = 0; c < 3; ++c)
    Dm.col(c) = (rest.row(tets(e, c + 1)) - rest.row(tets(e, 0))).transpose();
  const double volume = Dm.determinant() / 6.0;
  const Mat3 inverse = Dm.inverse();  // row i is grad N_{i+1}
  grad.bottomRows<3>() = inverse;
  grad.row(0) = -inverse.colwise().sum();
  return volume;
}

SpMat weighted_laplacian(const MatX3& rest, const MatX4i& tets, const VecX& element_weight) {
  std::vector<Eigen::Triplet<double, int>> entries;
  entries.reserve(16 * tets.rows());
  Eigen::Matrix<double, 4, 3> grad;
  for (int e = 0; e < tets.rows(); ++e) {
    const double volume = std::abs(tet_shape_gradients(rest, tets, e, grad));
    const Eigen::Matrix4d local = volume * element_weight[e] * grad * grad.transpose();
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) entries.emplace_back(tets(e, a), tets(e, b), local(a, b));
  }
  SpMat L(rest.rows(), rest.rows());
  L.setFromTriplets(entries.begin(), entries.end());
  return L;
}

VecX tet_volumes(const MatX3& rest, const MatX4i& tets) {
  VecX volume(tets.rows());
  Eigen::Matrix<double, 4, 3> grad;
  for (int e = 0; e < tets.rows(); ++e) volume[e] = tet_shape_gradients(rest, tets, e, grad);
  return volume;
}

VecX lumped_vertex_volume(const MatX3& rest, const MatX4i& tets) {
  const VecX volume = tet_volumes(rest, tets);
  VecX lumped = VecX::Zero(rest.rows());
  for (int e = 0; e < tets.rows(); ++e)
    for (int a = 0; a < 4; ++a) lumped[tets(e, a)] += std::abs(volume[e]) / 4.0;
  return lumped;
}

MatX solve_with_fixed_values(const SpMat& K, const std::vector<bool>& constrained,
                             const MatX& values, const char* what) {
  const int n = static_cast<int>(K.rows());
  MatX u = MatX::Zero(n, values.cols());
  std::vector<int> free_index(n, -1);
  int num_free = 0;
  for (int i = 0; i < n; ++i) {
    if (constrained[i])
      u.row(i) = values.row(i);
    else
      free_index[i] = num_free++;
  }
  if (num_free == 0) return u;
  const MatX Ku_c = K * u;  // the constrained part only: u is zero on the free rows
  std::vector<Eigen::Triplet<double, int>> entries;
  MatX rhs(num_free, values.cols());
  for (int j = 0; j < n; ++j) {
    if (free_index[j] < 0) continue;
    rhs.row(free_index[j]) = -Ku_c.row(j);
    for (SpMat::InnerIterator it(K, j); it; ++it)
      if (free_index[it.row()] >= 0 && it.row() >= j)
        entries.emplace_back(free_index[it.row()], free_index[j], it.value());
  }
  SpMat K_ff(num_free, num_free);
  K_ff.setFromTriplets(entries.begin(), entries.end());
  auto solver = make_cholmod_solver();
  if (solver->factorize(K_ff) != Status::kSuccess)
    throw std::runtime_error(std::string(what) + " is singular");
  MatX u_f;
  solver->solve(rhs, u_f);
  for (int i = 0; i < n; ++i)
    if (free_index[i] >= 0) u.row(i) = u_f.row(free_index[i]);
  return u;
}

std::vector<std::vector<int>> face_adjacent_tets(const MatX4i& tets) {
  std::map<std::array<int, 3>, int> first_owner;
  std::vector<std::vector<int>> adjacency(tets.rows());
  for (int e = 0; e < tets.rows(); ++e) {
    for (int skip = 0; skip < 4; ++skip) {
      std::array<int, 3> face{};
      int k = 0;
      for (int a = 0; a < 4; ++a)
        if (a != skip) face[k++] = tets(e, a);
      std::sort(face.begin(), face.end());
      const auto [it, inserted] = first_owner.emplace(face, e);
      if (!inserted) {
        adjacency[e].push_back(it->second);
        adjacency[it->second].push_back(e);
      }
    }
  }
  return adjacency;
}

}  // namespace simrun
