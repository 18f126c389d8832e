#include "coarsen/harmonic_displacements.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

#include "coarsen/rigid_motion.hpp"
#include "core/error.hpp"
#include "fem/dof_map.hpp"
#include "fem/tet_pattern.hpp"
#include "mesh/boundary.hpp"
#include "solve/linear_solver.hpp"

namespace simrun {

namespace {
// Voigt index pairs [11 22 33 23 13 12].
constexpr int kPairA[6] = {0, 1, 2, 1, 0, 0};
constexpr int kPairB[6] = {0, 1, 2, 2, 2, 1};

Vec3 vertex(const MatX3& v, int i) { return v.row(i).transpose(); }

/// Area vector (|A| = area, direction = outward normal) of triangle f.
Vec3 area_vector(const MatX3& v, const MatX3i& faces, int f) {
  const Vec3 a = vertex(v, faces(f, 0));
  return 0.5 * (vertex(v, faces(f, 1)) - a).cross(vertex(v, faces(f, 2)) - a);
}

Vec3 centroid(const MatX3& v, const MatX3i& faces, int f) {
  return (vertex(v, faces(f, 0)) + vertex(v, faces(f, 1)) + vertex(v, faces(f, 2))) / 3.0;
}

int find_root(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

/// The point of triangle (a, b, c) closest to p (Ericson, Real-Time Collision Detection 5.1.5:
/// the Voronoi regions of the vertices, then of the edges, then the face).
Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + d1 / (d1 - d3) * ab;
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + d2 / (d2 - d6) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0)
    return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  const double denominator = 1.0 / (va + vb + vc);
  return a + ab * (vb * denominator) + ac * (vc * denominator);
}

/// Per fine boundary face, the unit outward normal of the coarse boundary face nearest to its
/// centroid (point-to-triangle distance; ties, as at a coarse edge, go to the face whose normal
/// is closest to the fine face's own).
std::vector<Vec3> coarse_normals(const MatX3& fine_vertices, const MatX3i& fine_faces,
                                 const TetMesh& coarse) {
  const MatX3i faces = boundary_faces(coarse);
  std::vector<Vec3> normals(faces.rows());
  for (int f = 0; f < faces.rows(); ++f)
    normals[f] = area_vector(coarse.vertices, faces, f).normalized();
  std::vector<Vec3> result(fine_faces.rows());
  for (int f = 0; f < fine_faces.rows(); ++f) {
    const Vec3 c = centroid(fine_vertices, fine_faces, f);
    const Vec3 own = area_vector(fine_vertices, fine_faces, f).normalized();
    int best = -1;
    double best_distance = 0.0;
    for (int g = 0; g < faces.rows(); ++g) {
      const double d = (closest_point_on_triangle(c, vertex(coarse.vertices, faces(g, 0)),
                                                  vertex(coarse.vertices, faces(g, 1)),
                                                  vertex(coarse.vertices, faces(g, 2))) -
                        c)
                           .norm();
      const double tie = 1e-9 * (1.0 + best_distance);
      if (best < 0 || d < best_distance - tie ||
          (d <= best_distance + tie && normals[g].dot(own) > normals[best].dot(own)))
        best = g, best_distance = std::min(d, best < 0 ? d : best_distance);
    }
    result[f] = normals[best];
  }
  return result;
}

/// A without the rows and columns `dropped` marks (symmetric selection, order kept).
SpMat without_dofs(const SpMat& A, const std::vector<bool>& dropped, std::vector<int>& kept_index) {
  kept_index.assign(A.rows(), -1);
  int kept = 0;
  for (int i = 0; i < A.rows(); ++i)
    if (!dropped[i]) kept_index[i] = kept++;
  SpMat B(kept, kept);
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(A.nonZeros());
  for (int c = 0; c < A.outerSize(); ++c) {
    if (dropped[c]) continue;
    for (SpMat::InnerIterator it(A, c); it; ++it)
      if (!dropped[it.row()]) entries.emplace_back(kept_index[it.row()], kept_index[c], it.value());
  }
  B.setFromTriplets(entries.begin(), entries.end());
  return B;
}

VecX lumped_volumes(const TetElements& elements, int num_vertices) {
  VecX w = VecX::Zero(num_vertices);
  for (int e = 0; e < elements.size(); ++e)
    for (int a = 0; a < 4; ++a) w[elements.tets(e, a)] += elements.volume[e] / 4.0;
  return w;
}
}  // namespace

Mat3 load_case_stress(int j) {
  Mat3 S = Mat3::Zero();
  S(kPairA[j], kPairB[j]) += 0.5;
  S(kPairB[j], kPairA[j]) += 0.5;
  return S;
}

Eigen::Matrix<double, 6, 12> voigt_strain_operator(const TetGradients& G) {
  Eigen::Matrix<double, 6, 12> B = Eigen::Matrix<double, 6, 12>::Zero();
  for (int a = 0; a < 4; ++a) {
    const double gx = G(a, 0), gy = G(a, 1), gz = G(a, 2);
    const int x = 3 * a, y = x + 1, z = x + 2;
    B(0, x) = gx;
    B(1, y) = gy;
    B(2, z) = gz;
    B(3, y) = gz, B(3, z) = gy;  // 2 e23
    B(4, x) = gz, B(4, z) = gx;  // 2 e13
    B(5, x) = gy, B(5, y) = gx;  // 2 e12
  }
  return B;
}

SpMat voigt_stiffness(const TetElements& elements, const std::vector<VoigtTensor>& tensors,
                      const DofMap& dofs) {
  SpMat K = build_tet_pattern(elements.tets, dofs);
  const TetSlots slots(elements.tets, dofs, K);
  for (int e = 0; e < elements.size(); ++e) {
    const Eigen::Matrix<double, 6, 12> B = voigt_strain_operator(elements.grad[e]);
    const Mat12 Ke = elements.volume[e] * B.transpose() * tensors[e] * B;
    slots.add(e, Ke, K.valuePtr());
  }
  return K;
}

BoundaryShells boundary_shells(const TetMesh& mesh) {
  BoundaryShells shells;
  shells.faces = boundary_faces(mesh);
  const int nf = static_cast<int>(shells.faces.rows());
  std::map<std::pair<int, int>, std::vector<int>> edge_faces;
  for (int f = 0; f < nf; ++f)
    for (int k = 0; k < 3; ++k) {
      const int a = shells.faces(f, k), b = shells.faces(f, (k + 1) % 3);
      edge_faces[{std::min(a, b), std::max(a, b)}].push_back(f);
    }
  std::vector<int> parent(nf);
  std::iota(parent.begin(), parent.end(), 0);
  for (const auto& [edge, faces] : edge_faces)
    for (size_t k = 1; k < faces.size(); ++k)
      parent[find_root(parent, faces[k])] = find_root(parent, faces[0]);
  std::map<int, int> shell_of_root;
  shells.shell.resize(nf);
  for (int f = 0; f < nf; ++f) {
    const auto [it, added] =
        shell_of_root.emplace(find_root(parent, f), static_cast<int>(shell_of_root.size()));
    shells.shell[f] = it->second;
  }
  shells.volume.assign(shell_of_root.size(), 0.0);
  for (int f = 0; f < nf; ++f) {
    const Vec3 a = vertex(mesh.vertices, shells.faces(f, 0));
    const Vec3 b = vertex(mesh.vertices, shells.faces(f, 1));
    const Vec3 c = vertex(mesh.vertices, shells.faces(f, 2));
    shells.volume[shells.shell[f]] += a.dot(b.cross(c)) / 6.0;  // divergence theorem
  }
  return shells;
}

HarmonicDisplacements solve_harmonic_displacements(const TetMesh& fine, const TetElements& elements,
                                                   const std::vector<VoigtTensor>& tensors,
                                                   const HarmonicOptions& options,
                                                   const std::string& what) {
  const int n = fine.num_vertices();
  HarmonicDisplacements result;

  // The loads go on the boundary faces, which form closed shells unless tets overlap at a face
  // (mesh/boundary.hpp); such a boundary misses the overlapped faces and the load is wrong.
  const std::vector<OversharedFace> overshared = overshared_faces(fine);
  if (!overshared.empty()) {
    const OversharedFace& f = overshared.front();
    std::string tets;
    for (size_t k = 0; k < f.tets.size(); ++k) tets += (k ? ", " : "") + std::to_string(f.tets[k]);
    throw InputError(what +
                     ": the fine mesh has tets that overlap: " + std::to_string(overshared.size()) +
                     " triangle(s) are faces of more than two tets, the first (vertices " +
                     std::to_string(f.vertices[0]) + ", " + std::to_string(f.vertices[1]) + ", " +
                     std::to_string(f.vertices[2]) + ") of tets " + tets +
                     " (a duplicated tet?); its boundary, which the harmonic problems load, is "
                     "then not a closed surface");
  }

  // Loads: S_j A_f / 3 at each vertex of every outer-shell face (Kharevych Eq. 4.3, Sec. 4.4.2).
  const BoundaryShells shells = boundary_shells(fine);
  std::vector<Vec3> normals;
  if (options.normal == NeumannNormal::kCoarse) {
    require(options.coarse != nullptr, what + ": coarse Neumann normals need the coarse mesh");
    normals = coarse_normals(fine.vertices, shells.faces, *options.coarse);
  }
  result.loads = MatX::Zero(3 * n, 6);
  for (int f = 0; f < shells.faces.rows(); ++f) {
    const int s = shells.shell[f];
    if (!shells.is_outer(s)) {
      ++result.cavity_faces;
      continue;
    }
    ++result.outer_faces;
    Vec3 A = area_vector(fine.vertices, shells.faces, f);
    if (!normals.empty()) A = A.norm() * normals[f];
    for (int j = 0; j < 6; ++j) {
      const Vec3 nodal = load_case_stress(j) * A / 3.0;
      for (int k = 0; k < 3; ++k) result.loads.col(j).segment<3>(3 * shells.faces(f, k)) += nodal;
    }
  }
  require(result.outer_faces > 0, what + ": the fine mesh has no outer boundary shell");

  const bool pure_neumann = options.fixed_vertices.empty();
  const VecX weights = lumped_volumes(elements, n);
  if (pure_neumann) {
    double removed = 0.0, total = 0.0;
    for (int j = 0; j < 6; ++j) {
      VecX b = result.loads.col(j);
      remove_net_force_and_torque(fine.vertices, weights, b);
      removed = std::max(removed, (b - result.loads.col(j)).norm());
      total = std::max(total, result.loads.col(j).norm());
      result.loads.col(j) = b;
    }
    result.removed_load_fraction = removed / total;
  }

  const DofMap dofs(n, options.fixed_vertices);
  const SpMat K = voigt_stiffness(elements, tensors, dofs);

  std::vector<bool> dropped(dofs.num_free(), false);
  if (pure_neumann)
    for (int full : rigid_pin_dofs(fine.vertices)) dropped[dofs.free_index(full)] = true;
  std::vector<int> kept_index;
  const SpMat K_kept = without_dofs(K, dropped, kept_index);
  const int num_kept = static_cast<int>(K_kept.rows());

  MatX rhs(num_kept, 6);
  for (int j = 0; j < 6; ++j) {
    const VecX b = dofs.restrict_vector(result.loads.col(j));
    for (int i = 0; i < dofs.num_free(); ++i)
      if (kept_index[i] >= 0) rhs(kept_index[i], j) = b[i];
  }
  auto solver = make_cholmod_solver();
  if (solver->factorize_positive_definite(K_kept) != Status::kSuccess)
    throw InputError(what +
                     ": the fine stiffness is singular with the rigid motions fixed (a part of "
                     "the mesh not connected to the rest, or a zero-stiffness region?)");
  MatX solution(num_kept, 6);
  solver->solve(rhs, solution);

  result.fields = MatX::Zero(3 * n, 6);
  for (int j = 0; j < 6; ++j) {
    VecX free = VecX::Zero(dofs.num_free());
    for (int i = 0; i < dofs.num_free(); ++i)
      if (kept_index[i] >= 0) free[i] = solution(kept_index[i], j);
    const VecX b = dofs.restrict_vector(result.loads.col(j));
    const double residual = (K * free - b).norm() / b.norm();
    result.max_relative_residual = std::max(result.max_relative_residual, residual);
    VecX h = VecX::Zero(3 * n);
    dofs.scatter(free, h);
    if (pure_neumann) remove_rigid_motion(fine.vertices, weights, h);
    result.fields.col(j) = h;
  }
  return result;
}

}  // namespace simrun
