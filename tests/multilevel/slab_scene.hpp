#pragma once
// Test fixtures shared by the weight-function tests: a box cut into slab partitions, and the
// check that an LBS basis built on weights reproduces affine fields.
#include <gtest/gtest.h>

#include <algorithm>

#include "mesh/box.hpp"
#include "multilevel/handle_weights.hpp"
#include "multilevel/subspace_basis.hpp"

namespace simrun {

/// A 2 x 1 x 1 box cut into `slabs` partitions along x, each partition's centre the vertex
/// nearest to its slab's centre.
struct SlabScene {
  TetMesh mesh;
  std::vector<int> label;
  std::vector<int> center;
  VecX youngs;
};

inline SlabScene slab_scene(int slabs) {
  SlabScene s;
  s.mesh = make_box(Vec3(2.0, 1.0, 1.0), Eigen::Vector3i(4 * slabs, 4, 4), 6);
  const MatX3& X = s.mesh.vertices;
  const double x_min = X.col(0).minCoeff(), width = (X.col(0).maxCoeff() - x_min) / slabs;
  s.label.resize(s.mesh.num_tets());
  for (int e = 0; e < s.mesh.num_tets(); ++e) {
    double cx = 0.0;
    for (int a = 0; a < 4; ++a) cx += X(s.mesh.tets(e, a), 0) / 4.0;
    s.label[e] = std::min(slabs - 1, static_cast<int>((cx - x_min) / width));
  }
  s.center.assign(slabs, -1);
  for (int p = 0; p < slabs; ++p) {
    const Eigen::RowVector3d c(x_min + (p + 0.5) * width, 0.0, 0.0);
    double best = 1e300;
    for (int e = 0; e < s.mesh.num_tets(); ++e) {
      if (s.label[e] != p) continue;
      for (int a = 0; a < 4; ++a) {
        const int v = s.mesh.tets(e, a);
        const double d = (X.row(v) - c).squaredNorm();
        if (d < best) best = d, s.center[p] = v;
      }
    }
  }
  s.youngs = VecX::Constant(s.mesh.num_tets(), 1e6);
  return s;
}

inline std::vector<int> identity_dofs(int num_vertices) {
  std::vector<int> full_to_free(3 * num_vertices);
  for (size_t i = 0; i < full_to_free.size(); ++i) full_to_free[i] = static_cast<int>(i);
  return full_to_free;
}

/// The LBS basis on `w` (arbitrary linear-DOF lengths) holds u(X) = A X + t exactly: handle h's
/// q is the translation A x_h + t and the linear part A l_h. Needs weights summing to one.
inline void expect_reproduces_affine_fields(const MatX3& rest, const HandleWeights& w,
                                            double tolerance = 1e-12) {
  const int n = static_cast<int>(rest.rows());
  const int handles = static_cast<int>(w.phi.cols());
  MatX3 origin(handles, 3);
  VecX length(handles);
  for (int h = 0; h < handles; ++h) {
    origin.row(h) = rest.row(w.origin_vertex[h]);
    length[h] = 0.5 + 0.4 * h;
  }
  const RowSpMat U = lbs_basis(rest, w.phi, origin, length, identity_dofs(n), 3 * n);
  Mat3 A;
  A << 0.1, -0.3, 0.2, 0.05, 0.4, -0.1, 0.3, 0.0, 0.25;
  const Vec3 t(1.0, -2.0, 0.5);
  VecX q(12 * handles);
  for (int h = 0; h < handles; ++h)
    for (int c = 0; c < 3; ++c) {
      q[12 * h + 4 * c] = A.row(c).dot(origin.row(h)) + t[c];
      for (int k = 0; k < 3; ++k) q[12 * h + 4 * c + 1 + k] = A(c, k) * length[h];
    }
  const VecX u = U * q;
  for (int v = 0; v < n; ++v) {
    const Vec3 expected = A * rest.row(v).transpose() + t;
    EXPECT_LT((u.segment<3>(3 * v) - expected).norm(), tolerance) << "vertex " << v;
  }
}

}  // namespace simrun
