// Conservative CCD (contact/ccd.hpp): the distance helpers against dense sampling, the hard
// cases of issue 14 part 5, and random trajectories checked against a dense sampling of the
// exact distance (no sampled t <= t* below the guarantee; t* not absurdly small).
#include "contact/ccd.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>

namespace simrun {
namespace {

constexpr double kShrink = kAccdShrink;
using ccd_distance::point_triangle;
using ccd_distance::segment_segment;

/// A point against a triangle, all moving linearly.
struct PointTriangleMotion {
  Vec3 p, a, b, c, dp, da, db, dc;
  double distance(double t) const {
    return point_triangle(p + t * dp, a + t * da, b + t * db, c + t * dc);
  }
  double ccd(double min_distance, int max_iterations = kAccdMaxIterations) const {
    return point_triangle_ccd(p, a, b, c, dp, da, db, dc, min_distance, max_iterations);
  }
};

/// Two segments moving linearly.
struct EdgeEdgeMotion {
  Vec3 a0, a1, b0, b1, da0, da1, db0, db1;
  double distance(double t) const {
    return segment_segment(a0 + t * da0, a1 + t * da1, b0 + t * db0, b1 + t * db1);
  }
  double ccd(double min_distance, int max_iterations = kAccdMaxIterations) const {
    return edge_edge_ccd(a0, a1, b0, b1, da0, da1, db0, db1, min_distance, max_iterations);
  }
};

/// The ccd.hpp guarantee checked on `samples` + 1 equally spaced t in [0, t*]: the distance
/// stays >= xi + s (d0 - xi). Tolerance: rounding of the distance evaluations, relative 1e-12
/// of the distance scale (coordinates are O(1..100)).
template <class Motion>
void expect_conservative(const Motion& m, double t_star, double xi, int samples = 2000) {
  const double d0 = m.distance(0.0);
  const double bound = xi + kShrink * (d0 - xi);
  for (int k = 0; k <= samples; ++k) {
    const double t = t_star * k / samples;
    ASSERT_GE(m.distance(t), bound - 1e-12 * std::max(1.0, d0))
        << "t = " << t << ", t* = " << t_star;
  }
}

Vec3 random_vec(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vec3(u(rng), u(rng), u(rng));
}

// ---------------------------------------------------------------------------------------------
// Distance helpers: exact cases and dense sampling (they define the CCD's d(t)).

TEST(CcdDistance, ExactCases) {
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  EXPECT_NEAR(point_triangle(Vec3(0.2, 0.3, 0.7), a, b, c), 0.7, 1e-15);  // above the inside
  EXPECT_NEAR(point_triangle(Vec3(-3, -4, 0), a, b, c), 5.0, 1e-15);      // beyond vertex a
  EXPECT_NEAR(point_triangle(Vec3(0.5, -1, 1), a, b, c), std::sqrt(2.0), 1e-15);  // edge ab
  EXPECT_EQ(point_triangle(Vec3(0.1, 0.1, 0), a, b, c), 0.0);                     // in the plane
  // Degenerate (collinear) triangle: its longest edge.
  EXPECT_NEAR(point_triangle(Vec3(0.5, 2, 0), a, b, Vec3(0.5, 0, 0)), 2.0, 1e-15);
  // Parallel overlapping segments 0.1 apart; collinear disjoint; crossing; skew.
  EXPECT_NEAR(segment_segment(a, b, Vec3(0.5, 0.1, 0), Vec3(1.5, 0.1, 0)), 0.1, 1e-15);
  EXPECT_NEAR(segment_segment(a, b, Vec3(3, 0, 0), Vec3(4, 0, 0)), 2.0, 1e-15);
  EXPECT_EQ(segment_segment(Vec3(-1, 0, 0), b, Vec3(0, -1, 0), Vec3(0, 1, 0)), 0.0);
  EXPECT_NEAR(segment_segment(Vec3(-1, 0, 0), b, Vec3(0, -1, 0.25), Vec3(0, 1, 0.25)), 0.25, 1e-15);
  EXPECT_NEAR(segment_segment(a, a, b, b), 1.0, 1e-15);  // both degenerate: point-point
}

// Sampling the closed primitives on an N-grid finds a pair of points no closer than the true
// minimum (so helper <= sampled + rounding) and within one grid cell of it (so sampled - helper
// <= the cell diameter, here <= 2 * longest edge / N).
TEST(CcdDistance, MatchesDenseSamplingOnRandomConfigurations) {
  std::mt19937 rng(7);
  const int n = 120;
  for (int trial = 0; trial < 60; ++trial) {
    const Vec3 p = random_vec(rng, 1.0), a = random_vec(rng, 1.0), b = random_vec(rng, 1.0),
               c = random_vec(rng, 1.0), q = random_vec(rng, 1.0);
    const double longest =
        std::max({(b - a).norm(), (c - a).norm(), (c - b).norm(), (q - p).norm()});
    double sampled_pt = INFINITY, sampled_ee = INFINITY;
    for (int i = 0; i <= n; ++i)
      for (int j = 0; j <= n; ++j) {
        const double u = double(i) / n, v = double(j) / n;
        if (i + j <= n)
          sampled_pt = std::min(sampled_pt, (p - (a + u * (b - a) + v * (c - a))).norm());
        sampled_ee = std::min(sampled_ee, ((p + u * (q - p)) - (a + v * (b - a))).norm());
      }
    const double pt = point_triangle(p, a, b, c), ee = segment_segment(p, q, a, b);
    EXPECT_LE(pt, sampled_pt + 1e-14);
    EXPECT_GE(pt, sampled_pt - 2.0 * longest / n);
    EXPECT_LE(ee, sampled_ee + 1e-14);
    EXPECT_GE(ee, sampled_ee - 2.0 * longest / n);
  }
}

// ---------------------------------------------------------------------------------------------
// Point-triangle hard cases. Unit right triangle in z = 0.

PointTriangleMotion static_triangle(const Vec3& p, const Vec3& dp) {
  return {p,  Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0),
          dp, Vec3::Zero(),  Vec3::Zero(),  Vec3::Zero()};
}

TEST(PointTriangleCcd, PointThroughTheTriangleStopsBeforeTheCrossing) {
  const auto m = static_triangle(Vec3(0.2, 0.2, 1), Vec3(0, 0, -2));  // crosses at t = 0.5
  const double t = m.ccd(0.0);
  EXPECT_LT(t, 0.5);
  EXPECT_GT(m.distance(t), 0.0);
  // Head-on at speed l_p: the first step lands exactly on the 10% margin, t* = 0.9 * 0.5.
  EXPECT_NEAR(t, (1 - kShrink) * 0.5, 1e-12);
  expect_conservative(m, t, 0.0);
}

TEST(PointTriangleCcd, PointPassingBesideGivesTheFullStep) {
  // Closest approach, from (2, 2, 0) to the hypotenuse, |(1.5, 1.5)| = 2.12 > 10% of d0.
  const auto m = static_triangle(Vec3(2, 2, 1), Vec3(0, 0, -2));
  EXPECT_EQ(m.ccd(0.0), 1.0);
}

TEST(PointTriangleCcd, BothMovingThroughEachOther) {
  PointTriangleMotion m = static_triangle(Vec3(0.25, 0.25, 1), Vec3(0.3, -0.1, -1));
  m.da = m.db = m.dc = Vec3(0.1, 0.2, 1);  // relative normal speed 2: crossing at t = 0.5
  const double t = m.ccd(0.0);
  EXPECT_LT(t, 0.5);
  EXPECT_GT(t, 0.4);  // 0.9 of the crossing up to the lateral motion's share of l_p
  expect_conservative(m, t, 0.0);
}

TEST(PointTriangleCcd, TouchingExactlyAtTheEndOfTheStep) {
  const auto m = static_triangle(Vec3(0.3, 0.3, 1), Vec3(0, 0, -1));  // d(1) = 0
  const double t = m.ccd(0.0);
  EXPECT_LT(t, 1.0);
  EXPECT_NEAR(t, 1 - kShrink, 1e-12);
  expect_conservative(m, t, 0.0);
  // With min_distance = 0.5 the pair may only come to 0.5 + 0.1 * 0.5.
  const double t_xi = m.ccd(0.5);
  EXPECT_NEAR(1 - t_xi, 0.5 + kShrink * 0.5, 1e-12);
  expect_conservative(m, t_xi, 0.5);
}

TEST(PointTriangleCcd, TinyInitialGap) {
  const double gap = 1e-8;
  // Approaching: crossing at t = 1e-8.
  const auto in = static_triangle(Vec3(0.3, 0.3, gap), Vec3(0.1, 0, -1));
  const double t = in.ccd(0.0);
  EXPECT_GT(t, 0.0);
  EXPECT_LT(t, gap);
  EXPECT_GT(in.distance(t), 0.0);
  expect_conservative(in, t, 0.0);
  // Leaving: the full step, in a few iterations (the gap grows geometrically).
  const auto out = static_triangle(Vec3(0.3, 0.3, gap), Vec3(0.1, 0, 1));
  EXPECT_EQ(out.ccd(0.0, 200), 1.0);
  // Sliding along the face at the tiny gap: ACCD needs ~l_p / (s (1 - s) gap) iterations; the
  // cap returns the conservative t reached so far.
  const auto slide = static_triangle(Vec3(0.1, 0.1, gap), Vec3(0.5, 0.3, 0));
  const double t_capped = slide.ccd(0.0, 1000);
  EXPECT_GT(t_capped, 0.0);
  EXPECT_LT(t_capped, 1.0);
  expect_conservative(slide, t_capped, 0.0);
  // Touching already: no progress, at once.
  EXPECT_EQ(static_triangle(Vec3(0.3, 0.3, 0), Vec3(0, 0, 1)).ccd(0.0), 0.0);
}

TEST(PointTriangleCcd, VeryFastMotion) {
  // 100 sizes per step, crossing at t = 0.5.
  const auto through = static_triangle(Vec3(0.2, 0.2, 50), Vec3(0, 0, -100));
  const double t = through.ccd(0.0);
  EXPECT_LT(t, 0.5);
  EXPECT_GT(t, 0.44);
  expect_conservative(through, t, 0.0, 20000);
  // Same speed passing 19 away (more than 10% of d0 ~ 50): full step.
  EXPECT_EQ(static_triangle(Vec3(20, 0.2, 50), Vec3(0, 0, -100)).ccd(0.0), 1.0);
}

TEST(PointTriangleCcd, RotationLikeMotionOfBoth) {
  // Point and triangle each carried by a quarter turn about the vertical line x = y = 1. The
  // trajectories are chords, x(t) = o + ((1 - t) I + t R)(x - o): in the xy-plane a similarity
  // (scaled rotation), z untouched, so the point stays 0.2 above the triangle's inside.
  const Eigen::AngleAxisd turn(M_PI / 2, Vec3::UnitZ());
  const Vec3 o(1, 1, 0);
  PointTriangleMotion m = static_triangle(Vec3(0.6, 0.3, 0.2), Vec3::Zero());
  for (auto [x, dx] :
       {std::pair<Vec3*, Vec3*>{&m.p, &m.dp}, {&m.a, &m.da}, {&m.b, &m.db}, {&m.c, &m.dc}})
    *dx = turn * (*x - o) + o - *x;
  EXPECT_EQ(m.ccd(0.0), 1.0);
  // The point also sinks by 0.4 during the turn: it crosses the face at t = 0.5.
  m.dp.z() -= 0.4;
  const double t = m.ccd(0.0);
  EXPECT_LT(t, 0.5);
  EXPECT_GT(t, 0.25);
  expect_conservative(m, t, 0.0);
}

// ---------------------------------------------------------------------------------------------
// Edge-edge hard cases. Edge a along x in z = 0.

EdgeEdgeMotion moving_edge_b(const Vec3& b0, const Vec3& b1, const Vec3& db) {
  return {Vec3(0, 0, 0), Vec3(1, 0, 0), b0, b1, Vec3::Zero(), Vec3::Zero(), db, db};
}

TEST(EdgeEdgeCcd, ParallelEdgesSlidingPastEachOther) {
  // 0.1 apart, b slides 3 lengths along a: the distance never drops below 0.1 > 10% of d0.
  const auto m = moving_edge_b(Vec3(-1.2, 0.1, 0), Vec3(-0.2, 0.1, 0), Vec3(3, 0, 0));
  EXPECT_EQ(m.ccd(0.0), 1.0);
}

TEST(EdgeEdgeCcd, ParallelEdgesMovingIntoEachOther) {
  const auto m = moving_edge_b(Vec3(0.5, 0.1, 0), Vec3(1.5, 0.1, 0), Vec3(0, -0.2, 0));
  const double t = m.ccd(0.0);  // touch (overlap) at t = 0.5
  EXPECT_NEAR(t, (1 - kShrink) * 0.5, 1e-12);
  EXPECT_GT(m.distance(t), 0.0);
  expect_conservative(m, t, 0.0);
  // Collinear and sliding into each other end to end: touch at t = 0.5.
  const auto ends = moving_edge_b(Vec3(2, 0, 0), Vec3(3, 0, 0), Vec3(-2, 0, 0));
  const double te = ends.ccd(0.0);
  EXPECT_NEAR(te, (1 - kShrink) * 0.5, 1e-12);
  expect_conservative(ends, te, 0.0);
}

TEST(EdgeEdgeCcd, CrossingEdges) {
  // b along y at height 1, moving down by 2: the edges cross at t = 0.5.
  const auto m = moving_edge_b(Vec3(0.5, -0.5, 1), Vec3(0.5, 0.5, 1), Vec3(0, 0, -2));
  const double t = m.ccd(0.0);
  EXPECT_LT(t, 0.5);
  EXPECT_NEAR(t, (1 - kShrink) * 0.5, 1e-12);
  EXPECT_GT(m.distance(t), 0.0);
  expect_conservative(m, t, 0.0);
}

TEST(EdgeEdgeCcd, TouchingExactlyAtTheEndOfTheStep) {
  const auto m = moving_edge_b(Vec3(0.5, -0.5, 1), Vec3(0.5, 0.5, 1), Vec3(0, 0, -1));
  const double t = m.ccd(0.0);
  EXPECT_LT(t, 1.0);
  EXPECT_NEAR(t, 1 - kShrink, 1e-12);
  expect_conservative(m, t, 0.0);
}

TEST(EdgeEdgeCcd, TinyGapAndVeryFastMotion) {
  const auto tiny = moving_edge_b(Vec3(0.5, -0.5, 1e-8), Vec3(0.5, 0.5, 1e-8), Vec3(0, 0, -1));
  const double t = tiny.ccd(0.0);
  EXPECT_GT(t, 0.0);
  EXPECT_LT(t, 1e-8);
  expect_conservative(tiny, t, 0.0);
  const auto fast = moving_edge_b(Vec3(0.5, -0.5, 50), Vec3(0.5, 0.5, 50), Vec3(0, 0, -100));
  const double tf = fast.ccd(0.0);
  EXPECT_LT(tf, 0.5);
  EXPECT_GT(tf, 0.44);
  expect_conservative(fast, tf, 0.0, 20000);
}

TEST(EdgeEdgeCcd, HalfTurnOfBothKeepsTheirDistance) {
  // a along x, b along y at height 0.5, both turned by 180 deg about the z axis: the chords run
  // through the axis, each edge shrinks to a point at t = 0.5 and the distance stays 0.5.
  EdgeEdgeMotion m{Vec3(-1, 0, 0), Vec3(1, 0, 0),  Vec3(0, -1, 0.5), Vec3(0, 1, 0.5),
                   Vec3(2, 0, 0),  Vec3(-2, 0, 0), Vec3(0, 2, 0),    Vec3(0, -2, 0)};
  EXPECT_EQ(m.ccd(0.0), 1.0);
  // Now b also drops by 1 during the turn: the two points meet on the axis at t = 0.5.
  m.db0.z() = m.db1.z() = -1.0;
  const double t = m.ccd(0.0);
  EXPECT_LT(t, 0.5);
  EXPECT_GT(t, 0.25);
  expect_conservative(m, t, 0.0);
}

// ---------------------------------------------------------------------------------------------
// Random trajectories against dense sampling.

/// Checks conservativeness on [0, t*] and compares t* with two sampled times: t_g, the first
/// sample where d < xi + s (d0 - xi) (the guarantee forbids t* >= t_g), and t_c, the first
/// sample where d < xi + 1e-3 (d0 - xi) (contact). Expects t* >= 0.5 t_g: ACCD does not stop
/// far before it has to. Returns {t* / t_g, t* / t_c}, -1 for a time not sampled.
template <class Motion>
std::array<double, 2> check_random_motion(const Motion& m, double xi) {
  const double t_star = m.ccd(xi);
  expect_conservative(m, t_star, xi, 1000);
  const double d0 = m.distance(0.0);
  const int samples = 4000;
  std::array<double, 2> ratios{-1.0, -1.0};
  for (int k = 1; k <= samples; ++k) {
    const double t = double(k) / samples, d = m.distance(t);
    if (ratios[0] < 0.0 && d < xi + kShrink * (d0 - xi)) {
      EXPECT_LT(t_star, t);
      EXPECT_GE(t_star, 0.5 * t) << "guarantee level first crossed at " << t;
      ratios[0] = t_star / t;
    }
    if (d < xi + 1e-3 * (d0 - xi)) {
      ratios[1] = t_star / t;
      break;
    }
  }
  return ratios;
}

/// Runs 400 random motions from make(rng, trial); expects > 20 sampled contacts.
template <class MakeMotion>
void check_random_motions(unsigned seed, const MakeMotion& make) {
  std::mt19937 rng(seed);
  int touched = 0;
  std::array<double, 2> smallest{1.0, 1.0};
  for (int trial = 0; trial < 400; ++trial) {
    const auto ratios = check_random_motion(make(rng, trial), trial % 2 ? 0.0 : 1e-6);
    for (int i = 0; i < 2; ++i)
      if (ratios[i] >= 0.0) smallest[i] = std::min(smallest[i], ratios[i]);
    touched += ratios[1] >= 0.0;
  }
  EXPECT_GT(touched, 20);  // the contact checks above must have run on real contacts
  std::printf("%d sampled contacts; smallest t*/t_g %.3f, smallest t*/t_contact %.3f\n", touched,
              smallest[0], smallest[1]);
}

TEST(PointTriangleCcd, RandomTrajectoriesAreConservativeAndNotTimid) {
  check_random_motions(11, [](std::mt19937& rng, int trial) {
    PointTriangleMotion m{random_vec(rng, 1), random_vec(rng, 1), random_vec(rng, 1),
                          random_vec(rng, 1), random_vec(rng, 2), random_vec(rng, 2),
                          random_vec(rng, 2), random_vec(rng, 2)};
    if (trial % 4 < 2) {  // half of them aimed at the triangle's centroid, to hit it often
      m.da *= 0.25, m.db *= 0.25, m.dc *= 0.25;
      m.dp = 1.5 * ((m.a + m.b + m.c) / 3 - m.p) + random_vec(rng, 0.3);
    }
    return m;
  });
}

TEST(EdgeEdgeCcd, RandomTrajectoriesAreConservativeAndNotTimid) {
  check_random_motions(13, [](std::mt19937& rng, int) {
    return EdgeEdgeMotion{random_vec(rng, 1), random_vec(rng, 1), random_vec(rng, 1),
                          random_vec(rng, 1), random_vec(rng, 2), random_vec(rng, 2),
                          random_vec(rng, 2), random_vec(rng, 2)};
  });
}

// ---------------------------------------------------------------------------------------------
// Point-plane: exact.

TEST(PointPlaneCcd, ExactTimeOfTheMargin) {
  const Vec3 origin(0, 0, 1), normal(0, 0, 2);  // z >= 1, normal not unit
  // d0 = 1, falling by 4: d reaches 0.1 at t = 0.9 / 4.
  EXPECT_NEAR(point_plane_ccd(Vec3(3, 4, 2), Vec3(1, 0, -4), origin, normal, 0.0),
              (1 - kShrink) / 4, 1e-15);
  // With xi = 0.5: target 0.55, reached at t = 0.45 / 4.
  EXPECT_NEAR(point_plane_ccd(Vec3(3, 4, 2), Vec3(1, 0, -4), origin, normal, 0.5), 0.45 / 4, 1e-15);
  EXPECT_EQ(point_plane_ccd(Vec3(3, 4, 2), Vec3(1, 0, -0.5), origin, normal, 0.0), 1.0);
  EXPECT_EQ(point_plane_ccd(Vec3(3, 4, 2), Vec3(1, 0, 5), origin, normal, 0.0), 1.0);
  EXPECT_EQ(point_plane_ccd(Vec3(3, 4, 1), Vec3(0, 0, 1), origin, normal, 0.0), 0.0);  // on it
  EXPECT_EQ(point_plane_ccd(Vec3(3, 4, 0), Vec3(0, 0, 1), origin, normal, 0.0), 0.0);  // below
}

}  // namespace
}  // namespace simrun
