// IPC's lagged smoothed friction (contact/friction_pair.hpp, contact/friction.hpp): the f0/f1
// mollifier; the lagged closest points, normal force and tangent operator of vertex-plane,
// vertex-face and edge-edge pairs; per pair, the gradient and (unprojected) Hessian match finite
// differences while sticking (y < s) and sliding (y > s), the projected Hessian is PSD and
// motion without a tangential part gives no force; the whole term on two boxes and a floor.
#include "contact/friction.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <random>

#include "contact/barrier.hpp"
#include "contact/collision_mesh_build.hpp"
#include "contact/distance.hpp"
#include "contact/turned_boxes.hpp"
#include "fem/dof_map.hpp"
#include "fem/tet_pattern.hpp"
#include "mesh/box.hpp"
#include "support/finite_difference.hpp"

namespace simrun {
namespace {

using testing::fd_gradient;
using testing::fd_jacobian;
using testing::relative_error;
using Kind = ContactBarrier::Pair::Kind;

constexpr double kMu = 0.4;
constexpr double kS = 1e-3;  // eps_v h
constexpr double kDhat = 0.1;
constexpr double kKappa = 2.0;

/// A pair of each kind, with a positive gap below d_hat, and the positions x^n.
struct PairCase {
  const char* name;
  ContactBarrier::Pair pair;
  VecX x;
  std::vector<ContactPlane> planes;
};

VecX stack(std::initializer_list<Vec3> points) {
  VecX x(3 * static_cast<Eigen::Index>(points.size()));
  int i = 0;
  for (const Vec3& p : points) x.segment<3>(3 * i++) = p;
  return x;
}

std::vector<PairCase> pair_cases() {
  const Vec3 normal = Vec3(0.3, 1.0, 0.2).normalized();
  const Vec3 origin(0.1, -0.2, 0.3);
  std::vector<PairCase> cases;
  cases.push_back({"vertex-plane",
                   {Kind::kVertexPlane, {0, -1, -1, -1}, 0, 0.0},
                   stack({origin + 0.4 * kDhat * normal + Vec3(0.5, 0.0, -0.2).cross(normal)}),
                   {{origin, normal}}});
  cases.push_back(
      {"vertex-face",
       {Kind::kVertexFace, {0, 1, 2, 3}, -1, 0.0},
       stack({Vec3(0.3, 0.2, 0.05), Vec3(0, 0, 0.01), Vec3(1, 0.1, 0), Vec3(0, 1, -0.02)}),
       {}});
  cases.push_back(
      {"edge-edge",
       {Kind::kEdgeEdge, {0, 1, 2, 3}, -1, 1e-3},
       stack({Vec3(0, 0, 0), Vec3(1, 0.1, 0), Vec3(0.4, -0.5, 0.04), Vec3(0.6, 0.5, 0.06)}),
       {}});
  return cases;
}

/// A displacement of the pair's vertices with tangential size y = `ratio` s.
FrictionVec12 displacement_with_ratio(const FrictionPair& pair, double ratio, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  FrictionVec12 dx;
  for (int i = 0; i < 12; ++i) dx[i] = uniform(rng);
  for (int a = 0; a < 4; ++a)
    if (pair.vertices[a] < 0) dx.segment<3>(3 * a).setZero();
  return dx * (ratio * kS / (pair.tangent * dx).norm());
}

TEST(FrictionMollifier, F1IsTheDerivativeOfF0AndBothAreContinuousAtS) {
  EXPECT_NEAR(friction_f0(kS * (1 - 1e-12), kS), kS, 1e-14);
  EXPECT_NEAR(friction_f1(kS * (1 - 1e-12), kS), 1.0, 1e-9);
  EXPECT_NEAR(friction_f0(0.0, kS), kS / 3.0, 1e-18);
  EXPECT_EQ(friction_f1(0.0, kS), 0.0);
  for (const double y : {0.1 * kS, 0.7 * kS, 2.0 * kS}) {
    const double h = 1e-6 * kS;
    EXPECT_NEAR(friction_f1(y, kS), (friction_f0(y + h, kS) - friction_f0(y - h, kS)) / (2 * h),
                1e-8);
    EXPECT_NEAR(friction_f1_derivative(y, kS),
                (friction_f1(y + h, kS) - friction_f1(y - h, kS)) / (2 * h), 1e-6 / kS);
  }
}

TEST(FrictionPair, ClosestPointWeightsGiveTheBarrierDistance) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const auto random_point = [&] { return Vec3(uniform(rng), uniform(rng), uniform(rng)); };
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 p[4] = {random_point(), random_point(), random_point(), random_point()};
    const Eigen::Vector4d vf = vertex_face_weights(p[0], p[1], p[2], p[3]);
    const Eigen::Vector4d ee = edge_edge_weights(p[0], p[1], p[2], p[3]);
    Vec3 r_vf = Vec3::Zero(), r_ee = Vec3::Zero();
    for (int i = 0; i < 4; ++i) {
      r_vf += vf[i] * p[i];
      r_ee += ee[i] * p[i];
    }
    EXPECT_NEAR(r_vf.squaredNorm(), point_triangle_distance2(p[0], p[1], p[2], p[3], false).value,
                1e-12);
    EXPECT_NEAR(r_ee.squaredNorm(), edge_edge_distance2(p[0], p[1], p[2], p[3], false).value,
                1e-12);
    EXPECT_NEAR(vf.sum(), 0.0, 1e-14);  // a rigid translation moves both closest points alike
    EXPECT_NEAR(ee.sum(), 0.0, 1e-14);
  }
}

TEST(FrictionPair, NormalForceIsTheBarrierForceAndTheOperatorIsTangential) {
  for (const PairCase& c : pair_cases()) {
    SCOPED_TRACE(c.name);
    const FrictionPair pair = lagged_friction_pair(c.pair, c.x, c.planes, kKappa, kDhat);
    // lambda = |d/dd kappa b(d^2)| by a central difference in d.
    const Eigen::Vector4d w =
        c.pair.kind == Kind::kVertexFace ? vertex_face_weights(c.x.segment<3>(0), c.x.segment<3>(3),
                                                               c.x.segment<3>(6), c.x.segment<3>(9))
        : c.pair.kind == Kind::kEdgeEdge ? edge_edge_weights(c.x.segment<3>(0), c.x.segment<3>(3),
                                                             c.x.segment<3>(6), c.x.segment<3>(9))
                                         : Eigen::Vector4d(1, 0, 0, 0);
    Vec3 r = Vec3::Zero();
    for (int i = 0; i < 4 && 3 * i < c.x.size(); ++i) r += w[i] * c.x.segment<3>(3 * i);
    const Vec3 normal = c.planes.empty() ? Vec3(r.normalized()) : c.planes[0].normal;
    const double d =
        c.planes.empty() ? r.norm() : normal.dot(c.x.segment<3>(0) - c.planes[0].point);
    ASSERT_GT(d, 0.0);
    ASSERT_LT(d, kDhat);
    const double h = 1e-7 * d;
    const double force =
        -kKappa *
        (barrier((d + h) * (d + h), kDhat * kDhat) - barrier((d - h) * (d - h), kDhat * kDhat)) /
        (2 * h);
    EXPECT_NEAR(pair.normal_force, force, 1e-6 * force);
    EXPECT_GT(pair.normal_force, 0.0);
    // The tangent rows are orthonormal directions orthogonal to the normal (first vertex).
    const Eigen::Matrix<double, 2, 3> t = pair.tangent.block<2, 3>(0, 0) / w[0];
    EXPECT_LT((t * t.transpose() - Eigen::Matrix2d::Identity()).norm(), 1e-12);
    EXPECT_LT((t * normal).norm(), 1e-12);
  }
}

TEST(FrictionPair, GradientAndHessianMatchFiniteDifferencesWhileStickingAndSliding) {
  for (const PairCase& c : pair_cases()) {
    const FrictionPair pair = lagged_friction_pair(c.pair, c.x, c.planes, kKappa, kDhat);
    for (const double ratio : {0.3, 0.8, 1.5, 6.0}) {
      SCOPED_TRACE(std::string(c.name) + " y/s = " + std::to_string(ratio));
      const FrictionVec12 dx = displacement_with_ratio(pair, ratio, 11);
      FrictionVec12 g;
      FrictionMat12 H;
      friction_pair_energy(pair, dx, kMu, kS, &g, &H, false);
      const auto energy = [&](const VecX& y) {
        return friction_pair_energy(pair, y, kMu, kS, nullptr, nullptr, false);
      };
      const auto gradient = [&](const VecX& y) {
        FrictionVec12 out;
        friction_pair_energy(pair, y, kMu, kS, &out, nullptr, false);
        return VecX(out);
      };
      const double step = 1e-4 * kS;
      EXPECT_LT(relative_error(g, fd_gradient(energy, dx, step)), 1e-6);
      EXPECT_LT(relative_error(H, fd_jacobian(gradient, dx, step)), 1e-6);
      // Sliding: the force has magnitude mu lambda in the tangential displacement (one point).
      if (ratio > 1.0 && c.pair.kind == Kind::kVertexPlane) {
        EXPECT_NEAR(g.head<3>().norm(), kMu * pair.normal_force, 1e-9 * pair.normal_force);
      }
      // The force opposes the motion: its work is positive.
      EXPECT_GT(g.dot(dx), 0.0);
      EXPECT_NEAR(g.dot(dx), friction_pair_work(pair, dx, kMu, kS), 1e-9 * g.dot(dx));
      // Projected: PSD (and equal to the exact one, which is PSD for this f0).
      FrictionMat12 P;
      friction_pair_energy(pair, dx, kMu, kS, nullptr, &P, true);
      const Eigen::SelfAdjointEigenSolver<FrictionMat12> eig(P);
      EXPECT_GT(eig.eigenvalues().minCoeff(), -1e-10 * eig.eigenvalues().maxCoeff());
      EXPECT_LT(relative_error(P, H), 1e-12);
    }
  }
}

TEST(FrictionPair, MotionWithoutATangentialPartGivesNoForce) {
  for (const PairCase& c : pair_cases()) {
    SCOPED_TRACE(c.name);
    const FrictionPair pair = lagged_friction_pair(c.pair, c.x, c.planes, kKappa, kDhat);
    FrictionVec12 g;
    friction_pair_energy(pair, FrictionVec12::Zero(), kMu, kS, &g, nullptr, false);
    EXPECT_EQ(g.norm(), 0.0);
    // A rigid translation of the whole stencil (no relative motion), or for a plane pair a
    // motion along the plane's normal.
    FrictionVec12 dx = FrictionVec12::Zero();
    const Vec3 shift = c.planes.empty() ? Vec3(0.3, -0.2, 0.5) : c.planes[0].normal;
    for (int a = 0; a < 4; ++a)
      if (pair.vertices[a] >= 0) dx.segment<3>(3 * a) = 10 * kS * shift;
    friction_pair_energy(pair, dx, kMu, kS, &g, nullptr, false);
    EXPECT_LT(g.norm(), 1e-12 * kMu * pair.normal_force);
  }
}

using TwoBoxes = testing::TurnedBoxes;
constexpr auto two_boxes = testing::turned_boxes;

TEST(FrictionTerm, GradientAndHessianMatchFiniteDifferencesOnTwoBoxes) {
  const TwoBoxes boxes = two_boxes(0.02);
  BarrierSettings settings;
  settings.dhat = 0.05;
  settings.kappa = 1.0;
  settings.kappa_max = 100.0;
  settings.bbox_diagonal = 2.0;
  const ContactBarrier barrier(build_collision_mesh(boxes.mesh, boxes.tet_object, {true, true}),
                               {{Vec3(0, -0.03, 0), Vec3::UnitY()}}, settings, boxes.x);
  FrictionTerm term(barrier, {kMu, 1e-3, 1.0});  // s = 1e-3
  term.begin_step(boxes.x);
  int kinds[3] = {0, 0, 0};
  for (const auto& pair : barrier.active_pairs(boxes.x)) ++kinds[static_cast<int>(pair.kind)];
  ASSERT_GT(kinds[0], 0);
  ASSERT_GT(kinds[1], 0);
  ASSERT_GT(kinds[2], 0);
  ASSERT_FALSE(term.pairs().empty());

  const int n = boxes.mesh.num_vertices();
  VecX g = VecX::Zero(3 * n);
  term.add_gradient(boxes.x, g);
  EXPECT_EQ(g.norm(), 0.0);  // no motion yet
  EXPECT_EQ(term.work(boxes.x), 0.0);

  // Slide the upper box sideways and jiggle everything: pairs both sticking and sliding.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  VecX x = boxes.x;
  for (int i = 0; i < x.size(); ++i) x[i] += 1e-3 * uniform(rng);
  for (int v = n - 8; v < n; ++v) x[3 * v] += 2e-3;
  const DofMap dofs(n, {});
  StencilList stencils;
  term.add_stencils(stencils);
  SpMat pattern = build_tet_pattern(boxes.mesh.tets, dofs, stencils);
  term.bind(pattern, dofs);
  g.setZero();
  term.add_gradient(x, g);
  const auto energy = [&](const VecX& y) { return term.energy(y); };
  EXPECT_LT(relative_error(g, fd_gradient(energy, x, 1e-8)), 1e-6);
  std::fill(pattern.valuePtr(), pattern.valuePtr() + pattern.nonZeros(), 0.0);
  term.add_hessian(x, pattern.valuePtr(), false);
  const auto gradient = [&](const VecX& y) {
    VecX out = VecX::Zero(y.size());
    term.add_gradient(y, out);
    return out;
  };
  const MatX H = MatX(pattern);
  EXPECT_LT(relative_error(H, fd_jacobian(gradient, x, 1e-8)), 1e-5);
  std::fill(pattern.valuePtr(), pattern.valuePtr() + pattern.nonZeros(), 0.0);
  term.add_hessian(x, pattern.valuePtr(), true);
  const Eigen::SelfAdjointEigenSolver<MatX> eig{MatX(pattern)};
  EXPECT_GT(eig.eigenvalues().minCoeff(), -1e-10 * eig.eigenvalues().maxCoeff());
  EXPECT_GT(term.work(x), 0.0);
  term.on_iterate(x);
  StepStats stats;
  term.add_step_stats(stats);
  EXPECT_EQ(stats.friction_work, term.work(x));
}

}  // namespace
}  // namespace simrun
