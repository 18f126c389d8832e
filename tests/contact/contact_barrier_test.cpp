// The IPC barrier term (contact/contact_barrier.hpp): its energy, gradient and PSD-free Hessian
// agree with finite differences on two boxes whose vertex-face and edge-edge pairs and a plane
// are inside d_hat; it is infinite at contact; its largest feasible step stops a motion before
// the surfaces meet; and the pattern grows with new pairs.
#include "contact/contact_barrier.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <random>
#include <tuple>

#include "contact/barrier.hpp"
#include "contact/collision_mesh_build.hpp"
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

using TwoBoxes = testing::TurnedBoxes;
constexpr auto two_boxes = testing::turned_boxes;

ContactBarrier make_barrier(const TwoBoxes& boxes, double dhat, double floor_height) {
  BarrierSettings settings;
  settings.dhat = dhat;
  settings.kappa = 1.0;
  settings.kappa_max = 100.0;
  settings.bbox_diagonal = 2.0;
  CollisionMesh mesh = build_collision_mesh(boxes.mesh, boxes.tet_object, {true, true});
  return ContactBarrier(std::move(mesh), {{Vec3(0, floor_height, 0), Vec3::UnitY()}}, settings,
                        boxes.x);
}

TEST(Barrier, IsC2AtDhatAndInfiniteAtContact) {
  const double s_hat = 1e-4;
  EXPECT_EQ(barrier(s_hat, s_hat), 0.0);
  EXPECT_EQ(barrier_first_derivative(s_hat, s_hat), 0.0);
  EXPECT_NEAR(barrier_second_derivative(s_hat * (1 - 1e-9), s_hat), 0.0, 1e-6);
  EXPECT_TRUE(std::isinf(barrier(0.0, s_hat)));
  const double s = 0.3 * s_hat, h = 1e-9 * s_hat;
  EXPECT_NEAR(barrier_first_derivative(s, s_hat),
              (barrier(s + h, s_hat) - barrier(s - h, s_hat)) / (2 * h), 1e-6);
  EXPECT_NEAR(
      barrier_second_derivative(s, s_hat),
      (barrier_first_derivative(s + h, s_hat) - barrier_first_derivative(s - h, s_hat)) / (2 * h),
      1e-3 * std::abs(barrier_second_derivative(s, s_hat)));
}

TEST(ContactBarrier, GradientAndHessianMatchFiniteDifferences) {
  const TwoBoxes boxes = two_boxes(0.02);
  ContactBarrier term = make_barrier(boxes, 0.05, -0.03);
  const auto pairs = term.active_pairs(boxes.x);
  int vf = 0, ee = 0, plane = 0;
  for (const auto& p : pairs) {
    vf += p.kind == ContactBarrier::Pair::Kind::kVertexFace;
    ee += p.kind == ContactBarrier::Pair::Kind::kEdgeEdge;
    plane += p.kind == ContactBarrier::Pair::Kind::kVertexPlane;
  }
  ASSERT_GT(vf, 0);
  ASSERT_GT(ee, 0);
  ASSERT_GT(plane, 0);
  const int n = boxes.mesh.num_vertices();
  VecX g = VecX::Zero(3 * n);
  term.add_gradient(boxes.x, g);
  const auto energy = [&](const VecX& y) { return term.energy(y); };
  EXPECT_LT(relative_error(g, fd_gradient(energy, boxes.x, 1e-7)), 1e-5);

  // Hessian over all DOFs: bind a full pattern holding the pairs' stencils.
  const DofMap dofs(n, {});
  term.on_iterate(boxes.x);
  StencilList stencils;
  term.add_stencils(stencils);
  SpMat pattern = build_tet_pattern(boxes.mesh.tets, dofs, stencils);
  term.bind(pattern, dofs);
  std::fill(pattern.valuePtr(), pattern.valuePtr() + pattern.nonZeros(), 0.0);
  term.add_hessian(boxes.x, pattern.valuePtr(), false);
  const auto gradient = [&](const VecX& y) {
    VecX out = VecX::Zero(y.size());
    term.add_gradient(y, out);
    return out;
  };
  const MatX H = MatX(pattern);
  EXPECT_LT(relative_error(H, fd_jacobian(gradient, boxes.x, 1e-7)), 1e-4);
  // The projected Hessian is PSD.
  std::fill(pattern.valuePtr(), pattern.valuePtr() + pattern.nonZeros(), 0.0);
  term.add_hessian(boxes.x, pattern.valuePtr(), true);
  const Eigen::SelfAdjointEigenSolver<MatX> eig{MatX(pattern)};
  EXPECT_GT(eig.eigenvalues().minCoeff(), -1e-8 * eig.eigenvalues().maxCoeff());
}

TEST(ContactBarrier, EnergyIsInfiniteAtContactAndZeroBeyondDhat) {
  const TwoBoxes far = two_boxes(0.5);
  const ContactBarrier apart = make_barrier(far, 0.05, -1.0);
  EXPECT_EQ(apart.energy(far.x), 0.0);
  const TwoBoxes touching = two_boxes(0.0);
  const ContactBarrier term = make_barrier(touching, 0.05, -1.0);
  EXPECT_TRUE(std::isinf(term.energy(touching.x)));
}

TEST(ContactBarrier, TheFeasibleStepStopsBeforeTheSurfacesMeet) {
  const TwoBoxes boxes = two_boxes(0.02);
  const ContactBarrier term = make_barrier(boxes, 1e-3, -0.5);
  // Move the upper box 0.1 down (through the lower one) and the lower box 1.0 down (through
  // the floor at -0.5).
  for (const double drop : {0.1, 1.0}) {
    VecX dx = VecX::Zero(boxes.x.size());
    const int first_b = boxes.mesh.num_vertices() - 8;
    for (int v = drop < 0.5 ? first_b : 0; v < (drop < 0.5 ? boxes.mesh.num_vertices() : first_b);
         ++v)
      dx[3 * v + 1] = -drop;
    const double alpha = term.max_feasible_step(boxes.x, dx);
    EXPECT_GT(alpha, 0.0);
    EXPECT_LT(alpha, 1.0);
    // At the allowed step every pair keeps a positive distance; at the full step they cross.
    double min_distance = 0.0;
    term.active_pairs(boxes.x + alpha * dx, &min_distance);
    EXPECT_GT(min_distance, 0.0) << drop;
    EXPECT_TRUE(std::isfinite(term.energy(boxes.x + alpha * dx))) << drop;
  }
}

TEST(ContactBarrier, NewPairsGrowThePatternWithinAStep) {
  const TwoBoxes boxes = two_boxes(0.2);
  ContactBarrier term = make_barrier(boxes, 0.05, -1.0);
  term.begin_step(boxes.x);
  const long before = term.pattern_version();
  StencilList none;
  term.add_stencils(none);
  EXPECT_TRUE(none.empty());
  VecX closer = boxes.x;
  for (int v = boxes.mesh.num_vertices() - 8; v < boxes.mesh.num_vertices(); ++v)
    closer[3 * v + 1] -= 0.17;
  term.on_iterate(closer);
  EXPECT_GT(term.pattern_version(), before);
  StencilList some;
  term.add_stencils(some);
  EXPECT_FALSE(some.empty());
}

}  // namespace
}  // namespace simrun

namespace simrun {
namespace {

TEST(ContactBarrier, CarriesItsAdaptedStiffnessThroughACheckpoint) {
  const TwoBoxes boxes = two_boxes(0.01);
  ContactBarrier term = make_barrier(boxes, 0.05, -1.0);
  const double e = term.energy(boxes.x);
  ASSERT_GT(e, 0.0);
  const auto state = term.persistent_state();
  ASSERT_EQ(state.count("kappa"), 1u);
  EXPECT_EQ(state.at("kappa"), term.kappa());
  ContactBarrier restored = make_barrier(boxes, 0.05, -1.0);
  restored.restore_state({{"kappa", 4.0 * term.kappa()}});
  EXPECT_EQ(restored.kappa(), 4.0 * term.kappa());
  EXPECT_NEAR(restored.energy(boxes.x), 4.0 * e, 1e-12 * e);  // B is linear in kappa
  restored.restore_state({});                                 // nothing saved: unchanged
  EXPECT_EQ(restored.kappa(), 4.0 * term.kappa());
}

}  // namespace
}  // namespace simrun

namespace simrun {
namespace {

/// The pairs as comparable tuples (kind, vertices, plane).
std::vector<std::tuple<int, Stencil, int>> pair_keys(const std::vector<ContactBarrier::Pair>& p) {
  std::vector<std::tuple<int, Stencil, int>> keys;
  for (const auto& pair : p)
    keys.emplace_back(static_cast<int>(pair.kind), pair.vertices, pair.plane);
  std::sort(keys.begin(), keys.end());
  return keys;
}

TEST(ContactBarrier, ReusedCandidatesFindTheSamePairsAsAFreshSearch) {
  // Box b sinks toward a in small steps with a wobble; the term reuses its candidate list while
  // the relative motion stays within the margin. At every step its pairs and smallest distance
  // must equal those of a fresh term (which searches from scratch).
  const TwoBoxes boxes = two_boxes(0.08);
  const double dhat = 0.05;
  const ContactBarrier reused = make_barrier(boxes, dhat, -0.3);
  VecX x = boxes.x;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> wobble(-2e-3, 2e-3);
  int steps_with_pairs = 0;
  for (int k = 0; k < 60; ++k) {
    for (Eigen::Index i = 0; i < x.size(); ++i) x[i] += wobble(rng);
    for (int v = boxes.mesh.num_vertices() - 8; v < boxes.mesh.num_vertices(); ++v)
      x[3 * v + 1] -= 1.5e-3;  // b sinks 9 cm in all: through d_hat into contact
    const ContactBarrier fresh = make_barrier(boxes, dhat, -0.3);
    double d_reused = 0.0, d_fresh = 0.0;
    const auto a = reused.active_pairs(x, &d_reused);
    const auto b = fresh.active_pairs(x, &d_fresh);
    EXPECT_EQ(pair_keys(a), pair_keys(b)) << "step " << k;
    EXPECT_EQ(d_reused, d_fresh) << "step " << k;
    if (!a.empty()) ++steps_with_pairs;
  }
  EXPECT_GT(steps_with_pairs, 10);
}

TEST(ContactBarrier, TheMotionBoundSkipsTheCcdOnlyWhereItIsSafe) {
  const TwoBoxes boxes = two_boxes(0.02);
  const ContactBarrier term = make_barrier(boxes, 0.05, -0.3);
  const ContactBarrier fresh = make_barrier(boxes, 0.05, -0.3);
  (void)term.energy(boxes.x);  // the pair search at x that the bound relies on
  const int n = boxes.mesh.num_vertices();
  // Both boxes translate together by 1 m sideways: no relative motion, no plane approached.
  VecX together = VecX::Zero(3 * n);
  for (int v = 0; v < n; ++v) together[3 * v] = 1.0;
  EXPECT_TRUE(term.step_is_collision_free(boxes.x, together));
  EXPECT_EQ(term.max_feasible_step(boxes.x, together), 1.0);
  // b moves 5 cm down onto a (2 cm below it): the bound cannot decide, CCD limits the step, and
  // exactly as a term without the cached search does.
  VecX down = VecX::Zero(3 * n);
  for (int v = n - 8; v < n; ++v) down[3 * v + 1] = -0.05;
  EXPECT_FALSE(term.step_is_collision_free(boxes.x, down));
  const double alpha = term.max_feasible_step(boxes.x, down);
  EXPECT_LT(alpha, 0.4);
  EXPECT_EQ(alpha, fresh.max_feasible_step(boxes.x, down));
  // Everything moves down 0.4 m toward the floor at -0.3 (a's bottom at 0): the plane bound
  // (absolute motion) refuses even though the motion is a translation.
  VecX sink = VecX::Zero(3 * n);
  for (int v = 0; v < n; ++v) sink[3 * v + 1] = -0.4;
  EXPECT_FALSE(term.step_is_collision_free(boxes.x, sink));
  EXPECT_LT(term.max_feasible_step(boxes.x, sink), 1.0);
  // Elsewhere than the cached search: never decided by the bound.
  EXPECT_FALSE(term.step_is_collision_free(boxes.x + 1e-6 * together, together));
}

}  // namespace
}  // namespace simrun
