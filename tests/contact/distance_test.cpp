// The IPC distance kernels (lib/contact/distance*.hpp): every formula against central finite
// differences of the value (gradient) and of the analytic gradient (Hessian) at random
// configurations of each closest-feature type and on either side of every type boundary; the
// value against a brute-force minimum over sampled points; the classifier on constructed cases;
// parallel and nearly parallel edges; degenerate inputs; the parallel-edge mollifier.
#include "contact/distance.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <array>
#include <cmath>
#include <functional>
#include <random>
#include <string>

#include "support/finite_difference.hpp"

namespace simrun {
namespace {

using testing::fd_gradient;
using testing::fd_jacobian;
using testing::relative_error;

/// A kernel as a function of the 12 stacked coordinates.
using Kernel = std::function<DistanceDerivatives(const Vec12&, bool)>;

Vec3 point(const Vec12& x, int i) { return x.segment<3>(3 * i); }

Vec12 stack(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  Vec12 x;
  x << a, b, c, d;
  return x;
}

Kernel point_triangle_kernel() {
  return [](const Vec12& x, bool h) {
    return point_triangle_distance2(point(x, 0), point(x, 1), point(x, 2), point(x, 3), h);
  };
}
Kernel point_triangle_kernel(PointTriangleType type) {
  return [type](const Vec12& x, bool h) {
    return point_triangle_distance2(point(x, 0), point(x, 1), point(x, 2), point(x, 3), type, h);
  };
}
Kernel edge_edge_kernel() {
  return [](const Vec12& x, bool h) {
    return edge_edge_distance2(point(x, 0), point(x, 1), point(x, 2), point(x, 3), h);
  };
}
Kernel edge_edge_kernel(EdgeEdgeType type) {
  return [type](const Vec12& x, bool h) {
    return edge_edge_distance2(point(x, 0), point(x, 1), point(x, 2), point(x, 3), type, h);
  };
}

// Step and tolerances for coordinates of order 1: the central difference's truncation error is
// O(h^2) = 1e-14 (the kernels are rational with denominators of order 1 here) and its rounding
// error about 1e-16 |f| / h = 1e-10 relative, so 1e-6 leaves a wide margin while a wrong
// derivative term (an O(1) relative error) fails by orders of magnitude.
constexpr double kStep = 1e-6;
constexpr double kTolerance = 1e-6;

/// The analytic gradient and Hessian of `kernel` at x against finite differences of its value
/// and of its gradient; the Hessian is symmetric; hessian == false gives the same value and
/// gradient and a zero Hessian.
void expect_derivatives_match(const Kernel& kernel, const Vec12& x, const std::string& label,
                              double step = kStep) {
  const DistanceDerivatives d = kernel(x, true);
  ASSERT_TRUE(std::isfinite(d.value)) << label;
  const VecX g_fd = fd_gradient([&](const VecX& y) { return kernel(y, false).value; }, x, step);
  const MatX H_fd =
      fd_jacobian([&](const VecX& y) { return VecX(kernel(y, false).gradient); }, x, step);
  const double value_scale = std::max(d.value, 1e-3);  // gradient entries are O(sqrt(value))
  EXPECT_LT(relative_error(d.gradient, g_fd, std::sqrt(value_scale)), kTolerance)
      << label << "\nanalytic " << d.gradient.transpose() << "\nfd       " << g_fd.transpose();
  EXPECT_LT(relative_error(d.hessian, H_fd, 1.0), 10 * kTolerance) << label << "\nanalytic\n"
                                                                   << d.hessian << "\nfd\n"
                                                                   << H_fd;
  EXPECT_LT((d.hessian - d.hessian.transpose()).cwiseAbs().maxCoeff(),
            1e-12 * std::max(1.0, d.hessian.cwiseAbs().maxCoeff()))
      << label;
  const DistanceDerivatives no_hessian = kernel(x, false);
  EXPECT_EQ(no_hessian.value, d.value) << label;
  EXPECT_EQ(no_hessian.gradient, d.gradient) << label;
  EXPECT_TRUE(no_hessian.hessian.isZero(0.0)) << label;
}

/// True if `type_of` gives the same type at every +-step perturbation of one coordinate (so a
/// central-difference stencil stays inside one formula's region).
template <class TypeOf>
bool stencil_keeps_type(const TypeOf& type_of, const Vec12& x, double step) {
  const auto type = type_of(x);
  for (int i = 0; i < 12; ++i)
    for (const double s : {-step, step}) {
      Vec12 y = x;
      y[i] += s;
      if (type_of(y) != type) return false;
    }
  return true;
}

PointTriangleType pt_type(const Vec12& x) {
  return point_triangle_type(point(x, 0), point(x, 1), point(x, 2), point(x, 3));
}
EdgeEdgeType ee_type(const Vec12& x) {
  return edge_edge_type(point(x, 0), point(x, 1), point(x, 2), point(x, 3));
}

Vec12 random_coordinates(std::mt19937& rng, double p_scale) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Vec12 x;
  for (int i = 0; i < 12; ++i) x[i] = unit(rng);
  x.head<3>() *= p_scale;  // the first point farther out, so every region is reached
  return x;
}

// ---------------------------------------------------------------------------------------------
// Random configurations of each type.

TEST(PointTriangleDistance, DerivativesMatchFiniteDifferencesInEveryRegion) {
  std::mt19937 rng(14);
  std::array<int, 7> checked{};
  for (int trial = 0; trial < 20000; ++trial) {
    const Vec12 x = random_coordinates(rng, 2.0);
    const PointTriangleType type = pt_type(x);
    int& count = checked[static_cast<size_t>(type)];
    if (count >= 6 || !stencil_keeps_type(pt_type, x, kStep)) continue;
    ++count;
    expect_derivatives_match(point_triangle_kernel(), x,
                             std::string(type_name(type)) + " trial " + std::to_string(trial));
    // The typed overload evaluates the same formula.
    EXPECT_EQ(point_triangle_kernel(type)(x, true).hessian,
              point_triangle_kernel()(x, true).hessian);
  }
  for (int t = 0; t < 7; ++t)
    EXPECT_EQ(checked[static_cast<size_t>(t)], 6)
        << type_name(static_cast<PointTriangleType>(t)) << " not reached often enough";
}

TEST(EdgeEdgeDistance, DerivativesMatchFiniteDifferencesInEveryRegion) {
  std::mt19937 rng(28);
  std::array<int, 9> checked{};
  for (int trial = 0; trial < 20000; ++trial) {
    Vec12 x = random_coordinates(rng, 1.0);
    x.segment<6>(6).array() += 0.5;  // some separation
    const EdgeEdgeType type = ee_type(x);
    int& count = checked[static_cast<size_t>(type)];
    if (count >= 6 || !stencil_keeps_type(ee_type, x, kStep)) continue;
    ++count;
    expect_derivatives_match(edge_edge_kernel(), x,
                             std::string(type_name(type)) + " trial " + std::to_string(trial));
  }
  for (int t = 0; t < 9; ++t)
    EXPECT_EQ(checked[static_cast<size_t>(t)], 6)
        << type_name(static_cast<EdgeEdgeType>(t)) << " not reached often enough";
}

TEST(PrimitiveDistances, DerivativesMatchFiniteDifferences) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 10; ++trial) {
    const Vec12 x = random_coordinates(rng, 1.0);
    const std::string label = "trial " + std::to_string(trial);
    expect_derivatives_match(
        [](const Vec12& y, bool h) { return point_point_distance2(point(y, 0), point(y, 1), h); },
        x, "point-point " + label);
    expect_derivatives_match(
        [](const Vec12& y, bool h) {
          return point_edge_distance2(point(y, 0), point(y, 1), point(y, 2), h);
        },
        x, "point-edge " + label);
    expect_derivatives_match(
        [](const Vec12& y, bool h) {
          return point_triangle_plane_distance2(point(y, 0), point(y, 1), point(y, 2), point(y, 3),
                                                h);
        },
        x, "point-triangle plane " + label);
    expect_derivatives_match(
        [](const Vec12& y, bool h) {
          return line_line_distance2(point(y, 0), point(y, 1), point(y, 2), point(y, 3), h);
        },
        x, "line-line " + label);
    const Vec3 normal = Vec3(0.3, -0.5, 0.8).normalized();
    expect_derivatives_match(
        [&](const Vec12& y, bool h) {
          return point_plane_distance2(point(y, 0), Vec3(0.1, 0.2, -0.3), normal, h);
        },
        x, "point-plane " + label);
  }
}

TEST(PrimitiveDistances, ValuesOnHandComputedCases) {
  const Vec3 o = Vec3::Zero();
  EXPECT_DOUBLE_EQ(point_point_distance2(Vec3(1, 2, 3), Vec3(0, 2, 5), false).value, 5.0);
  // (0.5, 3, 4) to the x axis: 9 + 16.
  EXPECT_DOUBLE_EQ(point_edge_distance2(Vec3(0.5, 3, 4), o, Vec3(2, 0, 0), false).value, 25.0);
  // Signed: the same square above and below.
  const Vec3 n(0, 0, 1);
  EXPECT_DOUBLE_EQ(point_plane_distance2(Vec3(7, 1, -0.5), o, n, false).value, 0.25);
  EXPECT_DOUBLE_EQ(point_plane_distance2(Vec3(7, 1, 0.5), o, n, false).value, 0.25);
  // Plane z = 1 through a triangle; the point at z = -2.
  EXPECT_DOUBLE_EQ(point_triangle_plane_distance2(Vec3(9, 9, -2), Vec3(0, 0, 1), Vec3(1, 0, 1),
                                                  Vec3(0, 1, 1), false)
                       .value,
                   9.0);
  // Skew lines: the x axis and the line {y = 0.5, z = 2} along y: distance 2.
  EXPECT_NEAR(line_line_distance2(o, Vec3(1, 0, 0), Vec3(3, 0, 2), Vec3(3, 1, 2), false).value, 4.0,
              1e-15);
}

// ---------------------------------------------------------------------------------------------
// Brute force: the minimum over a fine sampling of the triangle / segments bounds the value.

/// computed <= sampled minimum (the sample points lie on the primitive), and the sampled minimum
/// exceeds the true one by at most (d + delta)^2 - d^2, delta bounding the distance from the
/// true closest point to the nearest sample.
void expect_consistent_with_sampling(double computed, double sampled, double delta,
                                     const std::string& label) {
  EXPECT_LE(computed, sampled + 1e-12) << label;
  const double d = std::sqrt(computed);
  EXPECT_LE(sampled, (d + delta) * (d + delta) + 1e-12) << label;
}

TEST(PointTriangleDistance, ValueIsTheMinimumOverTheTriangle) {
  std::mt19937 rng(5);
  std::array<int, 7> seen{};
  constexpr int kN = 400;  // samples per edge direction
  for (int trial = 0; trial < 60; ++trial) {
    const Vec12 x = random_coordinates(rng, 2.0);
    const Vec3 p = point(x, 0), t0 = point(x, 1), a = point(x, 2) - t0, b = point(x, 3) - t0;
    double sampled = INFINITY;
    for (int i = 0; i <= kN; ++i)
      for (int j = 0; i + j <= kN; ++j)
        sampled =
            std::min(sampled, (t0 + (double(i) / kN) * a + (double(j) / kN) * b - p).squaredNorm());
    // Rounding the closest point's (u, v) down to the grid moves it by <= (|a| + |b|) / N.
    const double delta = (a.norm() + b.norm()) / kN;
    const PointTriangleType type = pt_type(x);
    ++seen[static_cast<size_t>(type)];
    expect_consistent_with_sampling(
        point_triangle_kernel()(x, false).value, sampled, delta,
        std::string(type_name(type)) + " trial " + std::to_string(trial));
  }
  for (int t = 0; t < 7; ++t) EXPECT_GT(seen[static_cast<size_t>(t)], 0) << t;
}

TEST(EdgeEdgeDistance, ValueIsTheMinimumOverBothSegments) {
  std::mt19937 rng(6);
  std::array<int, 9> seen{};
  constexpr int kN = 600;
  for (int trial = 0; trial < 120; ++trial) {
    Vec12 x = random_coordinates(rng, 1.0);
    x.segment<6>(6).array() += 0.5;
    const Vec3 ea0 = point(x, 0), a = point(x, 1) - ea0, eb0 = point(x, 2), b = point(x, 3) - eb0;
    double sampled = INFINITY;
    for (int i = 0; i <= kN; ++i) {
      const Vec3 pa = ea0 + (double(i) / kN) * a;
      for (int j = 0; j <= kN; ++j)
        sampled = std::min(sampled, (pa - eb0 - (double(j) / kN) * b).squaredNorm());
    }
    const double delta = (a.norm() + b.norm()) / (2 * kN);  // nearest grid node per parameter
    const EdgeEdgeType type = ee_type(x);
    ++seen[static_cast<size_t>(type)];
    expect_consistent_with_sampling(
        edge_edge_kernel()(x, false).value, sampled, delta,
        std::string(type_name(type)) + " trial " + std::to_string(trial));
  }
  for (int t = 0; t < 9; ++t) EXPECT_GT(seen[static_cast<size_t>(t)], 0) << t;
}

// ---------------------------------------------------------------------------------------------
// Type boundaries: just on either side of a Voronoi region switch. The composite's one-sided
// derivatives there are those of each side's formula (FD with a step well below the distance
// to the switch); on the switch itself both formulas give the same value and gradient (C^1),
// while their Hessians may differ.

constexpr double kSide = 1e-4;      // distance from the switch
constexpr double kSideStep = 1e-7;  // FD step: the stencil stays on its side

template <class Type, class TypeOf, class Typed>
void expect_boundary(const std::function<Vec12(double)>& config, Type inside, Type outside,
                     const TypeOf& type_of, const Typed& typed, const std::string& label) {
  const Vec12 x_in = config(-kSide), x_out = config(kSide), x_on = config(0.0);
  ASSERT_EQ(type_of(x_in), inside) << label << ": got " << type_name(type_of(x_in));
  ASSERT_EQ(type_of(x_out), outside) << label << ": got " << type_name(type_of(x_out));
  ASSERT_TRUE(stencil_keeps_type(type_of, x_in, kSideStep)) << label;
  ASSERT_TRUE(stencil_keeps_type(type_of, x_out, kSideStep)) << label;
  expect_derivatives_match(typed(inside), x_in, label + " inside", kSideStep);
  expect_derivatives_match(typed(outside), x_out, label + " outside", kSideStep);
  const DistanceDerivatives a = typed(inside)(x_on, true), b = typed(outside)(x_on, true);
  EXPECT_NEAR(a.value, b.value, 1e-13 * std::max(1.0, a.value)) << label;
  EXPECT_LT((a.gradient - b.gradient).cwiseAbs().maxCoeff(), 1e-12) << label;
}

TEST(PointTriangleDistance, OneSidedDerivativesAtEveryRegionSwitch) {
  std::mt19937 rng(9);
  for (int triangle = 0; triangle < 4; ++triangle) {
    const Vec12 tri = random_coordinates(rng, 1.0);
    const std::array<Vec3, 3> t = {point(tri, 1), point(tri, 2), point(tri, 3)};
    const Vec3 n = (t[1] - t[0]).cross(t[2] - t[0]).normalized();
    const auto config_at = [&](const Vec3& p) { return stack(p, t[0], t[1], t[2]); };
    for (int k = 0; k < 3; ++k) {
      const Vec3& start = t[static_cast<size_t>(k)];
      const Vec3& end = t[static_cast<size_t>((k + 1) % 3)];
      const Vec3& opposite = t[static_cast<size_t>((k + 2) % 3)];
      const Vec3 e = (end - start).normalized();
      Vec3 m = e.cross(n);  // in-plane, perpendicular to edge k, pointing away from the triangle
      if (m.dot(opposite - start) > 0) m = -m;
      const std::string label =
          "triangle " + std::to_string(triangle) + " edge " + std::to_string(k);
      const auto edge = static_cast<PointTriangleType>(3 + k);
      const auto start_vertex = static_cast<PointTriangleType>(k);
      const auto end_vertex = static_cast<PointTriangleType>((k + 1) % 3);
      // Face | edge k: across the edge's vertical plane, 0.3 above the triangle.
      expect_boundary<PointTriangleType>(
          [&](double s) { return config_at(start + 0.4 * (end - start) + 0.3 * n + s * m); },
          PointTriangleType::kP_T, edge, pt_type,
          [](PointTriangleType type) { return point_triangle_kernel(type); }, label + " face|edge");
      // Edge k | its end vertex, and its start vertex | edge k: across the plane perpendicular to
      // the edge at the vertex, 0.2 outside the triangle and 0.3 above it.
      expect_boundary<PointTriangleType>(
          [&](double s) { return config_at(end + 0.2 * m + 0.3 * n + s * e); }, edge, end_vertex,
          pt_type, [](PointTriangleType type) { return point_triangle_kernel(type); },
          label + " edge|end vertex");
      expect_boundary<PointTriangleType>(
          [&](double s) { return config_at(start + 0.2 * m - 0.3 * n - s * e); }, edge,
          start_vertex, pt_type, [](PointTriangleType type) { return point_triangle_kernel(type); },
          label + " edge|start vertex");
    }
  }
}

/// Rotates and shifts a local-frame configuration, so the boundary cases are not axis-aligned.
Vec12 place(const Vec12& local) {
  const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()).toRotationMatrix();
  Vec12 x;
  for (int i = 0; i < 4; ++i) x.segment<3>(3 * i) = R * local.segment<3>(3 * i) + Vec3(0.3, -1, 2);
  return x;
}

TEST(EdgeEdgeDistance, OneSidedDerivativesAtEveryRegionSwitch) {
  const auto typed = [](EdgeEdgeType type) { return edge_edge_kernel(type); };
  using T = EdgeEdgeType;
  // Two skew lines whose common perpendicular is the z axis: line a along x through the origin,
  // line b along (cos 1, sin 1, 0) through (0, 0, 0.3); the closest points sit at parameter s on
  // ea and t on eb. Moving s or t across 0 or 1 switches between the interiors and an
  // endpoint-vs-edge type.
  const Vec3 db(std::cos(1.0), std::sin(1.0), 0.0);
  const auto skew = [&](double s, double t) {
    const Vec3 ea0 = -s * Vec3(1.1, 0, 0), eb0 = Vec3(0, 0, 0.3) - t * 0.8 * db;
    return place(stack(ea0, ea0 + Vec3(1.1, 0, 0), eb0, eb0 + 0.8 * db));
  };
  expect_boundary<T>([&](double e) { return skew(0.4, -e); }, T::kEA_EB, T::kEA_EB0, ee_type, typed,
                     "interiors|EA_EB0");
  expect_boundary<T>([&](double e) { return skew(0.4, 1 + e); }, T::kEA_EB, T::kEA_EB1, ee_type,
                     typed, "interiors|EA_EB1");
  expect_boundary<T>([&](double e) { return skew(-e, 0.6); }, T::kEA_EB, T::kEA0_EB, ee_type, typed,
                     "interiors|EA0_EB");
  expect_boundary<T>([&](double e) { return skew(1 + e, 0.6); }, T::kEA_EB, T::kEA1_EB, ee_type,
                     typed, "interiors|EA1_EB");
  // An endpoint q of one edge near the other edge's end, the rest of its edge leaning away:
  // sliding q past the end switches point-edge to point-point. `near` is q's parameter along
  // the edge (0,0,0)-(1,0,0).
  const auto endpoint = [](double near) {
    const Vec3 q(near, 0.0, 0.25);
    return std::array<Vec3, 4>{Vec3::Zero(), Vec3(1, 0, 0), q, q + Vec3(0.1, 0.3, 0.6)};
  };
  // Arguments as (ea0, ea1, eb0, eb1) = the points listed in `order` of {edge0, edge1, q, far}.
  struct Case {
    std::array<int, 4> order;
    double at;
    T inside, outside;
    const char* label;
  };
  const Case cases[] = {
      {{0, 1, 2, 3}, 0.0, T::kEA_EB0, T::kEA0_EB0, "EA_EB0|EA0_EB0"},
      {{0, 1, 2, 3}, 1.0, T::kEA_EB0, T::kEA1_EB0, "EA_EB0|EA1_EB0"},
      {{0, 1, 3, 2}, 0.0, T::kEA_EB1, T::kEA0_EB1, "EA_EB1|EA0_EB1"},
      {{0, 1, 3, 2}, 1.0, T::kEA_EB1, T::kEA1_EB1, "EA_EB1|EA1_EB1"},
      {{2, 3, 0, 1}, 0.0, T::kEA0_EB, T::kEA0_EB0, "EA0_EB|EA0_EB0"},
      {{2, 3, 0, 1}, 1.0, T::kEA0_EB, T::kEA0_EB1, "EA0_EB|EA0_EB1"},
      {{3, 2, 0, 1}, 0.0, T::kEA1_EB, T::kEA1_EB0, "EA1_EB|EA1_EB0"},
      {{3, 2, 0, 1}, 1.0, T::kEA1_EB, T::kEA1_EB1, "EA1_EB|EA1_EB1"},
  };
  for (const Case& c : cases) {
    // Outside means q beyond the end: below 0 at the start, above 1 at the end.
    const double outward = c.at == 0.0 ? -1.0 : 1.0;
    expect_boundary<T>(
        [&](double e) {
          const auto pts = endpoint(c.at + outward * e);
          return place(
              stack(pts[static_cast<size_t>(c.order[0])], pts[static_cast<size_t>(c.order[1])],
                    pts[static_cast<size_t>(c.order[2])], pts[static_cast<size_t>(c.order[3])]));
        },
        c.inside, c.outside, ee_type, typed, c.label);
  }
}

// ---------------------------------------------------------------------------------------------
// The classifier on constructed cases.

TEST(DistanceTypes, PointTriangleClassifierOnConstructedCases) {
  const Vec3 t0(0, 0, 0), t1(1, 0, 0), t2(0, 1, 0);
  using T = PointTriangleType;
  EXPECT_EQ(point_triangle_type(Vec3(0.2, 0.2, 0.5), t0, t1, t2), T::kP_T);
  EXPECT_EQ(point_triangle_type(Vec3(0.2, 0.2, -0.5), t0, t1, t2), T::kP_T);
  EXPECT_EQ(point_triangle_type(Vec3(-0.5, -0.5, 0.1), t0, t1, t2), T::kP_T0);
  EXPECT_EQ(point_triangle_type(Vec3(1.5, -0.1, 0.1), t0, t1, t2), T::kP_T1);
  EXPECT_EQ(point_triangle_type(Vec3(-0.1, 1.5, 0.1), t0, t1, t2), T::kP_T2);
  EXPECT_EQ(point_triangle_type(Vec3(0.5, -0.3, 0.1), t0, t1, t2), T::kP_E0);
  EXPECT_EQ(point_triangle_type(Vec3(0.6, 0.6, 0.1), t0, t1, t2), T::kP_E1);
  EXPECT_EQ(point_triangle_type(Vec3(-0.3, 0.5, 0.1), t0, t1, t2), T::kP_E2);
  // The nearest of several candidate features when the point is outside two edges' lines.
  EXPECT_EQ(point_triangle_type(Vec3(1.2, 0.3, 0.0), t0, t1, t2), T::kP_E1);
}

TEST(DistanceTypes, EdgeEdgeClassifierOnConstructedCases) {
  using T = EdgeEdgeType;
  const Vec3 a0(0, 0, 0), a1(1, 0, 0);
  // Crossing above the middles.
  EXPECT_EQ(edge_edge_type(a0, a1, Vec3(0.5, -1, 1), Vec3(0.5, 1, 1)), T::kEA_EB);
  // eb entirely beyond ea1 along x, pointing away: endpoint pair.
  EXPECT_EQ(edge_edge_type(a0, a1, Vec3(2, 0, 0.5), Vec3(3, 0, 1)), T::kEA1_EB0);
  EXPECT_EQ(edge_edge_type(a0, a1, Vec3(3, 0, 1), Vec3(2, 0, 0.5)), T::kEA1_EB1);
  EXPECT_EQ(edge_edge_type(a0, a1, Vec3(-2, 0, 0.5), Vec3(-3, 0, 1)), T::kEA0_EB0);
  EXPECT_EQ(edge_edge_type(a0, a1, Vec3(-3, 0, 1), Vec3(-2, 0, 0.5)), T::kEA0_EB1);
  // eb0 above the middle of ea, eb leaning away: eb0 against ea's interior.
  EXPECT_EQ(edge_edge_type(a0, a1, Vec3(0.5, 0, 0.2), Vec3(0.5, 0.5, 1)), T::kEA_EB0);
  EXPECT_EQ(edge_edge_type(a0, a1, Vec3(0.5, 0.5, 1), Vec3(0.5, 0, 0.2)), T::kEA_EB1);
  // A long eb passing beside ea0 / ea1: those endpoints against eb's interior.
  EXPECT_EQ(edge_edge_type(a0, a1, Vec3(-0.2, -1, 0.3), Vec3(-0.2, 1, 0.3)), T::kEA0_EB);
  EXPECT_EQ(edge_edge_type(a0, a1, Vec3(1.2, -1, 0.3), Vec3(1.2, 1, 0.3)), T::kEA1_EB);
  // Parallel segments never get the interiors' type.
  EXPECT_NE(edge_edge_type(a0, a1, Vec3(0.2, 0.1, 0.1), Vec3(0.8, 0.1, 0.1)), T::kEA_EB);
}

// ---------------------------------------------------------------------------------------------
// Parallel and nearly parallel edges; degenerate inputs.

bool all_finite(const DistanceDerivatives& d) {
  return std::isfinite(d.value) && d.gradient.allFinite() && d.hessian.allFinite();
}

TEST(EdgeEdgeDistance, ParallelAndNearlyParallelEdgesKeepTheRightValue) {
  const Vec3 a0(0, 0, 0), a1(1, 0, 0);
  for (const double angle : {1e-2, 1e-4, 1e-6, 1e-7, 1e-9, 1e-12, 0.0}) {
    const std::string label = "angle " + std::to_string(angle);
    // eb leans away from ea (y grows from 0.1): the closest pair is eb0 and ea's interior,
    // d^2 = 0.1^2 + 0.05^2 whatever the angle.
    const Vec3 b0(0.2, 0.1, 0.05);
    const Vec3 b1 = b0 + Vec3(std::cos(angle), std::sin(angle), 0.0);
    DistanceDerivatives d = edge_edge_distance2(a0, a1, b0, b1, true);
    EXPECT_NEAR(d.value, 0.0125, 1e-15) << label;
    EXPECT_TRUE(all_finite(d)) << label;
    // Overlapping segments on lines that cross under ea's middle (at x = 0.5, y = 0) at height
    // h: the true distance is h; below the parallel bound the endpoint fallback may overstate
    // d^2 by up to kParallelSin2 (unit lengths).
    const double h = 0.01;
    const Vec3 c0 = Vec3(0.5, 0, h) - 0.5 * Vec3(std::cos(angle), std::sin(angle), 0.0);
    const Vec3 c1 = Vec3(0.5, 0, h) + 0.5 * Vec3(std::cos(angle), std::sin(angle), 0.0);
    d = edge_edge_distance2(a0, a1, c0, c1, true);
    EXPECT_TRUE(all_finite(d)) << label;
    EXPECT_GE(d.value, h * h - 1e-16) << label;
    EXPECT_LE(d.value, h * h + kParallelSin2 + 1e-16) << label;
  }
  // Exactly parallel, partly overlapping: the offset (0.2, 0.1)'s square.
  const DistanceDerivatives d =
      edge_edge_distance2(a0, a1, Vec3(0.3, 0.2, 0.1), Vec3(1.5, 0.2, 0.1), true);
  EXPECT_NEAR(d.value, 0.05, 1e-16);
  EXPECT_TRUE(all_finite(d));
  // Anti-parallel and disjoint along x: endpoint pair ea1-eb1 at (0.5, 0.2, 0.1).
  EXPECT_NEAR(edge_edge_distance2(a0, a1, Vec3(3, 0.2, 0.1), Vec3(1.5, 0.2, 0.1), false).value, 0.3,
              1e-15);
  // Exactly parallel lines through line_line_distance2 fall back to point-line.
  EXPECT_NEAR(line_line_distance2(a0, a1, Vec3(5, 0.3, 0.4), Vec3(7, 0.3, 0.4), false).value, 0.25,
              1e-15);
}

TEST(Distances, DegenerateInputsGiveFiniteDocumentedValues) {
  const Vec3 p(0.3, 0.4, 1.2), q(1, 1, 1);
  // Zero-length edge: the point-point distance to it.
  DistanceDerivatives d = point_edge_distance2(p, q, q, true);
  EXPECT_DOUBLE_EQ(d.value, (p - q).squaredNorm());
  EXPECT_TRUE(all_finite(d));
  // Edge-edge with one zero-length edge: the point-segment distance.
  d = edge_edge_distance2(q, q, Vec3(0, 0, 0), Vec3(2, 0, 0), true);
  EXPECT_DOUBLE_EQ(d.value, 2.0);
  EXPECT_TRUE(all_finite(d));
  d = edge_edge_distance2(q, q, p, p, true);  // both points
  EXPECT_DOUBLE_EQ(d.value, (p - q).squaredNorm());
  EXPECT_TRUE(all_finite(d));
  // Zero-area triangles: collinear corners are the segment t0-t2 they span ...
  const Vec3 t0(0, 0, 0), t1(1, 0, 0), t2(2, 0, 0);
  d = point_triangle_distance2(Vec3(1.5, 0.3, 0.4), t0, t1, t2, true);
  EXPECT_NEAR(d.value, 0.25, 1e-15);
  EXPECT_TRUE(all_finite(d));
  d = point_triangle_distance2(Vec3(3, 0, 0), t0, t1, t2, true);  // beyond the far end
  EXPECT_NEAR(d.value, 1.0, 1e-15);
  // ... two coincident corners are the edge to the third ...
  d = point_triangle_distance2(Vec3(0.5, 0.5, 0), t0, t0, t1, true);
  EXPECT_NEAR(d.value, 0.25, 1e-15);
  EXPECT_TRUE(all_finite(d));
  // ... and three coincident corners are a point.
  d = point_triangle_distance2(p, q, q, q, true);
  EXPECT_DOUBLE_EQ(d.value, (p - q).squaredNorm());
  EXPECT_TRUE(all_finite(d));
  // The plane formula alone on a flat triangle uses the line of its longest edge.
  d = point_triangle_plane_distance2(Vec3(1.5, 0.3, 0.4), t0, t1, t2, true);
  EXPECT_NEAR(d.value, 0.25, 1e-15);
  EXPECT_TRUE(all_finite(d));
}

// ---------------------------------------------------------------------------------------------
// The parallel-edge mollifier.

/// ea along x (unit length), eb of unit length at `angle` to it in a parallel plane: x =
/// |a x b|^2 = sin^2(angle).
Vec12 edges_at_angle(double angle) {
  const Vec3 b0(0.2, 0.3, 0.4);
  return stack(Vec3(0, 0, 0), Vec3(1, 0, 0), b0, b0 + Vec3(std::cos(angle), std::sin(angle), 0.0));
}

Mollifier mollifier_at(const Vec12& x, double eps_x, bool hessian) {
  return edge_edge_mollifier(point(x, 0), point(x, 1), point(x, 2), point(x, 3), eps_x, hessian);
}

TEST(EdgeEdgeMollifier, ThresholdIsAThousandthOfTheRestLengthsSquaredProduct) {
  EXPECT_DOUBLE_EQ(
      edge_edge_mollifier_threshold(Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(1, 1, 1), Vec3(1, 4, 1)),
      1e-3 * 4 * 9);
}

TEST(EdgeEdgeMollifier, IsOneBeyondEpsAndContinuousAtIt) {
  const double eps = 1e-3;
  const double angle_at_eps = std::asin(std::sqrt(eps));
  const Mollifier beyond = mollifier_at(edges_at_angle(angle_at_eps * 1.01), eps, true);
  EXPECT_EQ(beyond.value, 1.0);
  EXPECT_TRUE(beyond.gradient.isZero(0.0));
  EXPECT_TRUE(beyond.hessian.isZero(0.0));
  // m(x) = 1 - (1 - x/eps)^2, so just below eps: m -> 1 and m' -> 0 (C^1); halfway, m = 3/4.
  const Mollifier just_below = mollifier_at(edges_at_angle(angle_at_eps * (1 - 1e-7)), eps, true);
  const Mollifier halfway =
      mollifier_at(edges_at_angle(std::asin(std::sqrt(0.5 * eps))), eps, true);
  EXPECT_NEAR(just_below.value, 1.0, 1e-12);
  EXPECT_LT(just_below.gradient.norm(), 1e-5 * halfway.gradient.norm());
  EXPECT_NEAR(halfway.value, 0.75, 1e-12);
  // Parallel edges: m = 0.
  EXPECT_NEAR(mollifier_at(edges_at_angle(0.0), eps, false).value, 0.0, 1e-30);
  // eps_x <= 0 (a zero-length rest edge): no mollification.
  EXPECT_EQ(mollifier_at(edges_at_angle(0.0), 0.0, false).value, 1.0);
}

TEST(EdgeEdgeMollifier, DerivativesMatchFiniteDifferences) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int trial = 0; trial < 10; ++trial) {
    // Random nearly parallel edges (perturbed copies of one direction) and eps_x above x.
    Vec12 x;
    const Vec3 dir(unit(rng), unit(rng), unit(rng));
    x << unit(rng), unit(rng), unit(rng), Vec3::Zero(), unit(rng), unit(rng), unit(rng),
        Vec3::Zero();
    x.segment<3>(3) = x.segment<3>(0) + dir + 0.05 * Vec3(unit(rng), unit(rng), unit(rng));
    x.segment<3>(9) = x.segment<3>(6) + 0.8 * dir + 0.05 * Vec3(unit(rng), unit(rng), unit(rng));
    const Vec3 a = x.segment<3>(3) - x.segment<3>(0), b = x.segment<3>(9) - x.segment<3>(6);
    const double eps = 2.0 * a.cross(b).squaredNorm();  // x = eps / 2: inside the mollified band
    const Mollifier m = mollifier_at(x, eps, true);
    ASSERT_GT(m.value, 0.0);
    ASSERT_LT(m.value, 1.0);
    const VecX g_fd =
        fd_gradient([&](const VecX& y) { return mollifier_at(y, eps, false).value; }, x, kStep);
    const MatX H_fd = fd_jacobian(
        [&](const VecX& y) { return VecX(mollifier_at(y, eps, false).gradient); }, x, kStep);
    EXPECT_LT(relative_error(m.gradient, g_fd), kTolerance) << trial;
    EXPECT_LT(relative_error(m.hessian, H_fd), 10 * kTolerance) << trial;
    EXPECT_LT((m.hessian - m.hessian.transpose()).cwiseAbs().maxCoeff(),
              1e-12 * m.hessian.cwiseAbs().maxCoeff());
    const Mollifier no_hessian = mollifier_at(x, eps, false);
    EXPECT_EQ(no_hessian.gradient, m.gradient);
    EXPECT_TRUE(no_hessian.hessian.isZero(0.0));
  }
}

}  // namespace
}  // namespace simrun
