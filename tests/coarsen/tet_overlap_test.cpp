// Exact tet-tet overlap volumes (Kharevych Sec. 4.3.7) and the AABB tree that finds the pairs:
// closed forms (nested and shifted corner tets), degenerate contacts, symmetry, orientation,
// Monte Carlo estimates, and the partition property of two box meshes of one (or a larger,
// rotated) box.
#include "coarsen/tet_overlap.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "core/parallel.hpp"
#include "mesh/aabb_tree.hpp"
#include "mesh/box.hpp"
#include "mesh/transform.hpp"

namespace simrun {
namespace {

using Tet = std::array<Vec3, 4>;

double volume_of(const Tet& t) { return std::abs(signed_tet_volume(t[0], t[1], t[2], t[3])); }

/// The unit corner tet {x, y, z >= 0, x + y + z <= 1}, positively oriented, volume 1/6.
Tet corner_tet() { return {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)}; }

Tet map(const Tet& t, const Mat3& A, const Vec3& shift) {
  Tet out;
  for (int i = 0; i < 4; ++i) out[i] = A * t[i] + shift;
  return out;
}

/// A random tet with volume at least 1e-3 of its bounding cube's (no slivers: the Monte Carlo
/// and roundoff tolerances below are relative to the tet's volume).
Tet random_tet(std::mt19937& rng, double size = 1.0) {
  std::uniform_real_distribution<double> u(-size, size);
  for (;;) {
    Tet t;
    for (auto& x : t) x = Vec3(u(rng), u(rng), u(rng));
    if (volume_of(t) > 1e-3 * std::pow(2 * size, 3)) return t;
  }
}

/// Uniform point in tet t: barycentric coordinates ~ Dirichlet(1, 1, 1, 1) (normalized
/// exponentials).
Vec3 random_point_in(const Tet& t, std::mt19937& rng) {
  std::exponential_distribution<double> e(1.0);
  double w[4], sum = 0.0;
  for (double& wi : w) sum += (wi = e(rng));
  Vec3 x = Vec3::Zero();
  for (int i = 0; i < 4; ++i) x += (w[i] / sum) * t[i];
  return x;
}

bool inside(const Tet& t, const Vec3& x) {
  const double s = signed_tet_volume(t[0], t[1], t[2], t[3]) > 0 ? 1.0 : -1.0;
  return s * signed_tet_volume(x, t[1], t[2], t[3]) >= 0 &&
         s * signed_tet_volume(t[0], x, t[2], t[3]) >= 0 &&
         s * signed_tet_volume(t[0], t[1], x, t[3]) >= 0 &&
         s * signed_tet_volume(t[0], t[1], t[2], x) >= 0;
}

TEST(TetIntersectionVolume, IdenticalTetsGiveTheirVolume) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 200; ++trial) {
    const Tet a = random_tet(rng);
    // The same four points, any order: the tet itself, either orientation. Tolerance: a few
    // roundoffs of the divergence-theorem sum over at most 12 faces.
    Tet b = {a[2], a[0], a[3], a[1]};
    EXPECT_NEAR(tet_intersection_volume(a, a), volume_of(a), 1e-14 * volume_of(a));
    EXPECT_NEAR(tet_intersection_volume(a, b), volume_of(a), 1e-14 * volume_of(a));
    EXPECT_NEAR(tet_intersection_volume(b, a), volume_of(a), 1e-14 * volume_of(a));
  }
}

TEST(TetIntersectionVolume, NestedCornerTetsGiveTheSmallerOne) {
  const Tet t = corner_tet();
  for (double s : {0.1, 0.5, 0.9, 1.0, 1.5}) {
    const Tet scaled = map(t, s * Mat3::Identity(), Vec3::Zero());
    const double expected = std::pow(std::min(s, 1.0), 3) / 6.0;
    EXPECT_NEAR(tet_intersection_volume(t, scaled), expected, 1e-15) << "s = " << s;
    EXPECT_NEAR(tet_intersection_volume(scaled, t), expected, 1e-15) << "s = " << s;
  }
}

TEST(TetIntersectionVolume, CornerTetShiftedAlongAnAxis) {
  // T ∩ (T + s e_x) = {x >= s, y, z >= 0, x + y + z <= 1}: a corner tet of edge 1 - s.
  const Tet t = corner_tet();
  for (int axis = 0; axis < 3; ++axis) {
    for (double s : {0.0, 0.125, 0.3, 0.5, 0.77, 0.999}) {
      const Tet shifted = map(t, Mat3::Identity(), s * Vec3::Unit(axis));
      const double expected = std::pow(1.0 - s, 3) / 6.0;
      EXPECT_NEAR(tet_intersection_volume(t, shifted), expected, 1e-15) << axis << " " << s;
      EXPECT_NEAR(tet_intersection_volume(shifted, t), expected, 1e-15) << axis << " " << s;
    }
  }
}

TEST(TetIntersectionVolume, DisjointAndTouchingTetsGiveZero) {
  const Tet t = corner_tet();
  EXPECT_EQ(tet_intersection_volume(t, map(t, Mat3::Identity(), Vec3(2, 0, 0))), 0.0);
  EXPECT_EQ(tet_intersection_volume(t, map(t, Mat3::Identity(), Vec3(1, 1, 1))), 0.0);
  // Shared face (mirror in x = 0), shared edge (the z axis), shared vertex (the origin), and the
  // face x + y + z = 1 against a tet on its far side. The touching tets clip a to a flat piece;
  // the divergence theorem then sums roundoff: 1e-15 of the volume.
  const Tet face = map(t, Vec3(-1, 1, 1).asDiagonal(), Vec3::Zero());
  const Tet edge = map(t, Vec3(-1, -1, 1).asDiagonal(), Vec3::Zero());
  const Tet vertex = map(t, -Mat3::Identity(), Vec3::Zero());
  const Tet far_side = {Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1), Vec3(1, 1, 1)};
  for (const Tet& other : {face, edge, vertex, far_side}) {
    EXPECT_LE(tet_intersection_volume(t, other), 1e-15 / 6);
    EXPECT_LE(tet_intersection_volume(other, t), 1e-15 / 6);
  }
  // Touching along part of a face (a shifted copy on the far side of x = 0).
  const Tet partial = map(face, Mat3::Identity(), Vec3(0, 0.3, 0.2));
  EXPECT_LE(tet_intersection_volume(t, partial), 1e-15 / 6);
  EXPECT_LE(tet_intersection_volume(partial, t), 1e-15 / 6);
  // Degenerate (flat) tets have no volume to share.
  const Tet flat = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0)};
  EXPECT_EQ(tet_intersection_volume(t, flat), 0.0);
  EXPECT_EQ(tet_intersection_volume(flat, t), 0.0);
}

TEST(TetIntersectionVolume, SymmetricAndIndependentOfOrientation) {
  std::mt19937 rng(2);
  int overlapping = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Tet a = random_tet(rng), b = random_tet(rng);
    const double ab = tet_intersection_volume(a, b);
    overlapping += ab > 0;
    // Both computations clip different polyhedra: agreement to roundoff of the smaller tet.
    const double tol = 1e-13 * std::min(volume_of(a), volume_of(b));
    EXPECT_NEAR(tet_intersection_volume(b, a), ab, tol);
    const Tet a_inverted = {a[1], a[0], a[2], a[3]}, b_inverted = {b[0], b[1], b[3], b[2]};
    EXPECT_NEAR(tet_intersection_volume(a_inverted, b), ab, tol);
    EXPECT_NEAR(tet_intersection_volume(a, b_inverted), ab, tol);
    EXPECT_NEAR(tet_intersection_volume(a_inverted, b_inverted), ab, tol);
    EXPECT_LE(ab, std::min(volume_of(a), volume_of(b)) * (1 + 1e-14));
  }
  EXPECT_GT(overlapping, 500);  // the cases above are not all trivially disjoint
}

TEST(TetIntersectionVolume, AgreesWithMonteCarlo) {
  std::mt19937 rng(3);
  constexpr int kSamples = 200000;
  for (int trial = 0; trial < 10; ++trial) {
    const Tet a = random_tet(rng);
    // b: a perturbed copy, so that the overlap is a sizable, nontrivial fraction.
    std::normal_distribution<double> jitter(0.0, 0.3);
    Tet b;
    for (int i = 0; i < 4; ++i) b[i] = a[i] + Vec3(jitter(rng), jitter(rng), jitter(rng));
    int hits = 0;
    for (int s = 0; s < kSamples; ++s) hits += inside(b, random_point_in(a, rng));
    const double f = static_cast<double>(hits) / kSamples;
    const double estimate = f * volume_of(a);
    // Binomial standard error of the estimate; 5 sigma (a false failure ~1 in 1.7 million).
    const double sigma = volume_of(a) * std::sqrt(std::max(f * (1 - f), 1.0 / kSamples) / kSamples);
    EXPECT_NEAR(tet_intersection_volume(a, b), estimate, 5 * sigma) << "trial " << trial;
  }
}

/// Sum of vol(t ∩ each tet of mesh).
double sum_over_mesh(const Tet& t, const TetMesh& mesh) {
  double sum = 0.0;
  for (int q = 0; q < mesh.num_tets(); ++q) sum += tet_intersection_volume(t, tet_corners(mesh, q));
  return sum;
}

TEST(TetIntersectionVolume, RoundoffInconsistentClipKeepsAClosedSurface) {
  // These two lattice tets only touch. Clipping the first (from its second vertex) by the
  // second's faces meets vertices on a plane with d = 0 next to cut points with d = -4e-16:
  // an inside set that no plane makes, and the graph gets a double edge. A neighbour-list search
  // then walked the wrong face and returned 0.117 for one vertex order; each order must give 0.
  const Tet a = {Vec3(1, 3, 3), Vec3(1, 0, 2), Vec3(3, 2, 0), Vec3(0, 0, 1)};
  const Tet b = {Vec3(1, 2, 2), Vec3(2, 1, 0), Vec3(1, 1, 0), Vec3(2, 3, 2)};
  std::array<int, 4> order = {0, 1, 2, 3};
  do {
    const Tet permuted = {a[order[0]], a[order[1]], a[order[2]], a[order[3]]};
    EXPECT_LE(tet_intersection_volume(permuted, b), 1e-15 * volume_of(b));
    EXPECT_LE(tet_intersection_volume(b, permuted), 1e-15 * volume_of(b));
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(TetIntersectionVolume, LatticeTetsArePartitionedByABoxMesh) {
  // Vertices on the integer lattice {0..3}^3 make faces, edges and vertices of the tet coincide
  // with those of the box meshes' tets in every way: the degenerate cases, en masse. Integer
  // coordinates give 6 V >= 1, so the relative tolerance is meaningful.
  const TetMesh kuhn = make_box(Vec3(3, 3, 3), Eigen::Vector3i(3, 3, 3), 6);
  const TetMesh five = make_box(Vec3(3, 3, 3), Eigen::Vector3i(3, 3, 3), 5);
  std::mt19937 rng(4);
  std::uniform_int_distribution<int> coordinate(0, 3);
  int tested = 0;
  while (tested < 300) {
    Tet t;
    for (auto& x : t) x = Vec3(coordinate(rng), coordinate(rng), coordinate(rng));
    if (volume_of(t) == 0.0) continue;
    ++tested;
    EXPECT_NEAR(sum_over_mesh(t, kuhn), volume_of(t), 1e-13 * volume_of(t));
    EXPECT_NEAR(sum_over_mesh(t, five), volume_of(t), 1e-13 * volume_of(t));
    // Each box tet against the lattice tet the other way round, too.
    double reverse = 0.0;
    for (int q = 0; q < kuhn.num_tets(); ++q)
      reverse += tet_intersection_volume(tet_corners(kuhn, q), t);
    EXPECT_NEAR(reverse, volume_of(t), 1e-13 * volume_of(t));
  }
}

TEST(AabbTree, FindsExactlyTheOverlappingBoxes) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const auto random_box = [&](double size) {
    Aabb b;
    const Vec3 c(u(rng), u(rng), u(rng));
    b.extend(c);
    b.extend(Vec3(c + size * Vec3(u(rng), u(rng), u(rng))));
    return b;
  };
  for (int n : {0, 1, 3, 4, 5, 17, 1000}) {
    std::vector<Aabb> boxes;
    for (int i = 0; i < n; ++i) boxes.push_back(random_box(0.1));
    const AabbTree tree(boxes);
    EXPECT_EQ(tree.num_items(), n);
    std::vector<int> found;
    for (int k = 0; k < 50; ++k) {
      const Aabb query = random_box(0.3);
      tree.overlapping(query, found);
      std::vector<int> expected;
      for (int i = 0; i < n; ++i)
        if (boxes[static_cast<size_t>(i)].overlaps(query)) expected.push_back(i);
      EXPECT_EQ(found, expected) << "n = " << n;
    }
  }
  // Touching boxes overlap (closed boxes), separated ones do not.
  Aabb a, b, c;
  a.extend(Vec3(0, 0, 0));
  a.extend(Vec3(1, 1, 1));
  b.extend(Vec3(1, 0, 0));
  b.extend(Vec3(2, 1, 1));
  c.extend(Vec3(1.5, 0, 0));
  c.extend(Vec3(2, 1, 1));
  EXPECT_TRUE(a.overlaps(b));
  EXPECT_FALSE(a.overlaps(c));
}

double total(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

std::vector<double> tet_volumes(const TetMesh& mesh) {
  std::vector<double> v(static_cast<size_t>(mesh.num_tets()));
  for (int t = 0; t < mesh.num_tets(); ++t)
    v[static_cast<size_t>(t)] = volume_of(tet_corners(mesh, t));
  return v;
}

/// Every fine tet covered: its overlaps sum to its volume (1e-12 relative: each sum adds a few
/// dozen clipped volumes, each exact to ~1e-15 of its tets).
void expect_fine_covered(const TetOverlaps& o, const TetMesh& fine) {
  const auto covered = fine_covered_volume(o, fine.num_tets());
  const auto volume = tet_volumes(fine);
  for (int p = 0; p < fine.num_tets(); ++p)
    ASSERT_NEAR(covered[static_cast<size_t>(p)], volume[static_cast<size_t>(p)],
                1e-12 * volume[static_cast<size_t>(p)])
        << "fine tet " << p;
}

void expect_sorted_and_positive(const TetOverlaps& o) {
  ASSERT_EQ(o.fine.size(), o.volume.size());
  ASSERT_EQ(o.coarse.size(), o.volume.size());
  for (int i = 0; i < o.size(); ++i) {
    EXPECT_GT(o.volume[static_cast<size_t>(i)], 0.0);
    if (i > 0) {
      const auto prev =
          std::make_pair(o.coarse[static_cast<size_t>(i - 1)], o.fine[static_cast<size_t>(i - 1)]);
      const auto here =
          std::make_pair(o.coarse[static_cast<size_t>(i)], o.fine[static_cast<size_t>(i)]);
      EXPECT_LT(prev, here);
    }
  }
}

TEST(TetOverlaps, TwoMeshesOfOneBoxPartitionEachOther) {
  const Vec3 size(1.0, 0.6, 0.4);
  const TetMesh fine = make_box(size, Eigen::Vector3i(10, 6, 4), 6);
  const TetMesh coarse = make_box(size, Eigen::Vector3i(3, 2, 1), 5);
  const TetOverlaps o = tet_overlaps(fine, coarse);
  expect_sorted_and_positive(o);
  expect_fine_covered(o, fine);
  const auto covered = coarse_covered_volume(o, coarse.num_tets());
  const auto volume = tet_volumes(coarse);
  for (int q = 0; q < coarse.num_tets(); ++q)
    EXPECT_NEAR(covered[static_cast<size_t>(q)], volume[static_cast<size_t>(q)],
                1e-12 * volume[static_cast<size_t>(q)])
        << "coarse tet " << q;
}

TEST(TetOverlaps, LargerRotatedCoarseMeshCoversTheFineOne) {
  const Vec3 size(1.0, 0.6, 0.4);
  const TetMesh fine = make_box(size, Eigen::Vector3i(8, 5, 4), 5);
  // Coarse boxes sticking out of the fine one: a larger box around it, and the same rotated by
  // 17 degrees about an oblique axis through the fine box's centre (still enclosing it).
  for (double degrees : {0.0, 17.0}) {
    TetMesh coarse = make_box(Vec3(2.0, 2.0, 2.0), Eigen::Vector3i(3, 3, 3), 6);
    transform_mesh(coarse, Vec3::Ones(), Vec3::Zero(), 0.0, -Vec3(1.0, 1.0, 1.0));
    transform_mesh(coarse, Vec3::Ones(), Vec3(1, 2, 3), degrees, 0.5 * size);
    const TetOverlaps o = tet_overlaps(fine, coarse);
    expect_sorted_and_positive(o);
    expect_fine_covered(o, fine);
    const auto fine_volume = tet_volumes(fine);
    const auto coarse_covered = coarse_covered_volume(o, coarse.num_tets());
    EXPECT_NEAR(total(coarse_covered), total(fine_volume), 1e-12 * total(fine_volume));
    // A coarse tet covers at most its volume.
    const auto coarse_volume = tet_volumes(coarse);
    for (int q = 0; q < coarse.num_tets(); ++q)
      EXPECT_LE(coarse_covered[static_cast<size_t>(q)],
                coarse_volume[static_cast<size_t>(q)] * (1 + 1e-12));
  }
}

TEST(TetOverlaps, FineVolumeOutsideTheCoarseMeshIsUncovered) {
  // The other way round: a fine mesh sticking out of the coarse one. Fine tets in [0, 0.5] x
  // [0, 1]^2 are covered, those beyond are not; covered volume = the coarse box's.
  const TetMesh fine = make_box(Vec3(1, 1, 1), Eigen::Vector3i(6, 5, 4), 6);
  const TetMesh coarse = make_box(Vec3(0.5, 1, 1), Eigen::Vector3i(2, 2, 2), 5);
  const TetOverlaps o = tet_overlaps(fine, coarse);
  const auto covered = fine_covered_volume(o, fine.num_tets());
  EXPECT_NEAR(total(covered), 0.5, 1e-12);
  const auto volume = tet_volumes(fine);
  for (int p = 0; p < fine.num_tets(); ++p) {
    const auto x = tet_corners(fine, p);
    double xmin = 2.0, xmax = -1.0;
    for (const Vec3& v : x) {
      xmin = std::min(xmin, v.x());
      xmax = std::max(xmax, v.x());
    }
    if (xmax <= 0.5) {
      EXPECT_NEAR(covered[static_cast<size_t>(p)], volume[static_cast<size_t>(p)],
                  1e-12 * volume[static_cast<size_t>(p)]);
    } else if (xmin >= 0.5) {
      // At most touching the coarse mesh's face x = 0.5: roundoff slivers are not entries.
      EXPECT_EQ(covered[static_cast<size_t>(p)], 0.0) << "fine tet " << p;
    }
  }
}

TEST(TetOverlaps, BroadPhaseMissesNoPair) {
  // Every (fine, coarse) pair clipped directly, against the tree + face-plane rejection.
  const TetMesh fine = make_box(Vec3(1, 0.8, 0.6), Eigen::Vector3i(4, 3, 3), 5);
  TetMesh coarse = make_box(Vec3(1, 1, 1), Eigen::Vector3i(2, 2, 2), 6);
  transform_mesh(coarse, Vec3::Ones(), Vec3(2, -1, 1), 25.0, Vec3(0.1, -0.1, 0.0));
  TetOverlaps expected;
  for (int q = 0; q < coarse.num_tets(); ++q) {
    const Tet xq = tet_corners(coarse, q);
    for (int p = 0; p < fine.num_tets(); ++p) {
      const Tet xp = tet_corners(fine, p);
      const double v = tet_intersection_volume(xp, xq);
      if (v > kOverlapRoundoffFraction * std::min(volume_of(xp), volume_of(xq))) {
        expected.fine.push_back(p);
        expected.coarse.push_back(q);
        expected.volume.push_back(v);
      }
    }
  }
  ASSERT_GT(expected.size(), fine.num_tets());  // the coarse mesh cuts through many fine tets
  const TetOverlaps o = tet_overlaps(fine, coarse);
  EXPECT_EQ(o.fine, expected.fine);
  EXPECT_EQ(o.coarse, expected.coarse);
  EXPECT_EQ(o.volume, expected.volume);
}

TEST(TetOverlaps, OutputDoesNotDependOnTheThreadCount) {
  const TetMesh fine = make_box(Vec3(1, 1, 1), Eigen::Vector3i(6, 6, 6), 5);
  TetMesh coarse = make_box(Vec3(1.2, 1.2, 1.2), Eigen::Vector3i(3, 2, 2), 6);
  transform_mesh(coarse, Vec3::Ones(), Vec3(0, 0, 1), 10.0, Vec3(-0.1, -0.1, -0.1));
  const int threads = thread_count();
  set_thread_count(1);
  const TetOverlaps one = tet_overlaps(fine, coarse);
  set_thread_count(2);
  const TetOverlaps two = tet_overlaps(fine, coarse);
  set_thread_count(threads);
  EXPECT_EQ(one.fine, two.fine);
  EXPECT_EQ(one.coarse, two.coarse);
  EXPECT_EQ(one.volume, two.volume);
}

}  // namespace
}  // namespace simrun
