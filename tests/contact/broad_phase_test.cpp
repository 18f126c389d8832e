// Broad phase (contact/broad_phase.hpp) against brute force over all pairs: on random triangle
// soups and on two box meshes, static and swept; and the collision-free step of two approaching
// boxes checked against the exact distances of all pairs.
#include "contact/broad_phase.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "contact/ccd.hpp"
#include "contact/collision_mesh_build.hpp"
#include "mesh/box.hpp"

namespace simrun {
namespace {

using Pairs = std::vector<std::array<int, 2>>;

/// Per-axis box of a primitive's vertices over x (and x + dx), without the tree's code.
struct Box {
  Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
};
Box box_of(const std::vector<int>& ids, const VecX& x, const VecX* dx, double grow) {
  Box b;
  for (int v : ids)
    for (int k = 0; k < 3; ++k) {
      const double a = x[3 * v + k], e = dx ? a + (*dx)[3 * v + k] : a;
      b.lo[k] = std::min({b.lo[k], a, e});
      b.hi[k] = std::max({b.hi[k], a, e});
    }
  b.lo.array() -= grow;
  b.hi.array() += grow;
  return b;
}
bool overlap(const Box& a, const Box& b) {
  for (int k = 0; k < 3; ++k)
    if (a.hi[k] < b.lo[k] || b.hi[k] < a.lo[k]) return false;
  return true;
}

std::vector<int> face_ids(const CollisionMesh& m, int f) {
  return {m.faces(f, 0), m.faces(f, 1), m.faces(f, 2)};
}
std::vector<int> edge_ids(const CollisionMesh& m, int e) {
  return {m.edges[static_cast<size_t>(e)][0], m.edges[static_cast<size_t>(e)][1]};
}
Vec3 at(const VecX& x, int v) { return x.segment<3>(3 * v); }

/// All allowed pairs whose boxes overlap, by brute force (sorted by construction).
ContactCandidates brute_force(const CollisionMesh& m, const VecX& x, const VecX* dx,
                              double inflation) {
  ContactCandidates c;
  for (int i = 0; i < m.num_vertices(); ++i)
    for (int f = 0; f < m.num_faces(); ++f)
      if (vertex_face_allowed(m, i, f) &&
          overlap(box_of({m.vertices[static_cast<size_t>(i)]}, x, dx, inflation / 2),
                  box_of(face_ids(m, f), x, dx, inflation / 2)))
        c.vertex_face.push_back({i, f});
  for (int a = 0; a < m.num_edges(); ++a)
    for (int b = a + 1; b < m.num_edges(); ++b)
      if (edge_edge_allowed(m, a, b) && overlap(box_of(edge_ids(m, a), x, dx, inflation / 2),
                                                box_of(edge_ids(m, b), x, dx, inflation / 2)))
        c.edge_edge.push_back({a, b});
  return c;
}

/// Exact distances of every allowed pair at positions y, calling f(kind, i, j, distance).
template <class F>
void for_each_allowed_pair_distance(const CollisionMesh& m, const VecX& y, F&& f) {
  for (int i = 0; i < m.num_vertices(); ++i)
    for (int k = 0; k < m.num_faces(); ++k)
      if (vertex_face_allowed(m, i, k))
        f(0, i, k,
          ccd_distance::point_triangle(at(y, m.vertices[static_cast<size_t>(i)]),
                                       at(y, m.faces(k, 0)), at(y, m.faces(k, 1)),
                                       at(y, m.faces(k, 2))));
  for (int a = 0; a < m.num_edges(); ++a)
    for (int b = a + 1; b < m.num_edges(); ++b)
      if (edge_edge_allowed(m, a, b)) {
        const auto& p = m.edges[static_cast<size_t>(a)];
        const auto& q = m.edges[static_cast<size_t>(b)];
        f(1, a, b,
          ccd_distance::segment_segment(at(y, p[0]), at(y, p[1]), at(y, q[0]), at(y, q[1])));
      }
}

/// A soup of random triangles over shared random vertices, two objects (only object 0 may
/// touch itself), so the filters are exercised.
CollisionMesh random_soup(std::mt19937& rng, int num_vertices, int num_faces) {
  CollisionMesh m;
  std::uniform_int_distribution<int> pick(0, num_vertices - 1);
  m.faces.resize(num_faces, 3);
  std::set<std::array<int, 2>> edges;
  for (int f = 0; f < num_faces; ++f) {
    int a = pick(rng), b = pick(rng), c = pick(rng);
    while (b == a) b = pick(rng);
    while (c == a || c == b) c = pick(rng);
    m.faces.row(f) << a, b, c;
    m.face_object.push_back(a % 2);
    for (auto [u, v] : {std::pair{a, b}, {b, c}, {c, a}})
      edges.insert({std::min(u, v), std::max(u, v)});
  }
  for (int v = 0; v < num_vertices; ++v) {
    m.vertices.push_back(v);
    m.vertex_object.push_back(v % 2);
  }
  for (const auto& e : edges) {
    m.edges.push_back(e);
    m.edge_object.push_back(e[0] % 2);
    m.edge_rest_length.push_back(1.0);
  }
  m.self_contact = {true, false};
  return m;
}

VecX random_positions(std::mt19937& rng, int num_vertices, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  VecX x(3 * num_vertices);
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = u(rng);
  return x;
}

/// Two 1 x 1 x 1 boxes of 4^3 cubes x 6 tets, B above A by `gap` and shifted sideways by
/// (0.3, 0.2) so edges and faces do not line up; object 1 may touch itself.
struct TwoBoxes {
  TetMesh mesh;
  std::vector<int> tet_object;
  CollisionMesh collision;
  VecX x;
};
TwoBoxes two_boxes(double gap) {
  const TetMesh a = make_box(Vec3::Ones(), Eigen::Vector3i(4, 4, 4), 6);
  TwoBoxes t;
  const int nv = a.num_vertices(), nt = a.num_tets();
  t.mesh.vertices.resize(2 * nv, 3);
  t.mesh.tets.resize(2 * nt, 4);
  t.mesh.vertices.topRows(nv) = a.vertices;
  t.mesh.vertices.bottomRows(nv) = a.vertices.rowwise() + Eigen::RowVector3d(0.3, 0.2, 1 + gap);
  t.mesh.tets.topRows(nt) = a.tets;
  t.mesh.tets.bottomRows(nt) = a.tets.array() + nv;
  t.tet_object.assign(static_cast<size_t>(nt), 0);
  t.tet_object.resize(static_cast<size_t>(2 * nt), 1);
  t.collision = build_collision_mesh(t.mesh, t.tet_object, {false, true});
  t.x = as_flat(t.mesh.vertices);
  return t;
}

void expect_same(const ContactCandidates& got, const ContactCandidates& want) {
  EXPECT_EQ(got.vertex_face, want.vertex_face);
  EXPECT_EQ(got.edge_edge, want.edge_edge);
}

/// Every allowed pair closer than `inflation` at y must be a candidate.
void expect_covers_close_pairs(const CollisionMesh& m, const VecX& y, double inflation,
                               const ContactCandidates& c) {
  const std::set<std::array<int, 2>> vf(c.vertex_face.begin(), c.vertex_face.end());
  const std::set<std::array<int, 2>> ee(c.edge_edge.begin(), c.edge_edge.end());
  for_each_allowed_pair_distance(m, y, [&](int kind, int i, int j, double d) {
    if (d < inflation) {
      EXPECT_EQ((kind == 0 ? vf : ee).count({i, j}), 1u) << kind << " " << i << " " << j;
    }
  });
}

TEST(BroadPhase, StaticCandidatesMatchBruteForceOnRandomSoups) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 6; ++trial) {
    const CollisionMesh m = random_soup(rng, 120, 150);
    const VecX x = random_positions(rng, 120, 1.0);
    const double inflation = 0.05 * (trial + 1);
    const ContactCandidates c = find_candidates(m, x, inflation);
    expect_same(c, brute_force(m, x, nullptr, inflation));
    expect_covers_close_pairs(m, x, inflation, c);
    EXPECT_GT(c.vertex_face.size(), 0u);
    EXPECT_GT(c.edge_edge.size(), 0u);
  }
}

TEST(BroadPhase, SweptCandidatesMatchBruteForceAndCoverTheTrajectory) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 4; ++trial) {
    const CollisionMesh m = random_soup(rng, 100, 120);
    const VecX x = random_positions(rng, 100, 1.0);
    const VecX dx = random_positions(rng, 100, 0.3);
    const double inflation = 0.02;
    const ContactCandidates c = find_candidates(m, x, dx, inflation);
    expect_same(c, brute_force(m, x, &dx, inflation));
    for (double t : {0.0, 0.25, 0.5, 0.75, 1.0})
      expect_covers_close_pairs(m, VecX(x + t * dx), inflation, c);
    // Swept candidates contain the static ones at both ends.
    const std::set<std::array<int, 2>> swept(c.edge_edge.begin(), c.edge_edge.end());
    for (const auto& p : find_candidates(m, VecX(x + dx), inflation).edge_edge)
      EXPECT_EQ(swept.count(p), 1u);
  }
}

TEST(BroadPhase, TwoBoxMeshesMatchBruteForceAndObeyTheFilters) {
  TwoBoxes t = two_boxes(0.01);
  const CollisionMesh& m = t.collision;
  const ContactCandidates c = find_candidates(m, t.x, 0.05);
  expect_same(c, brute_force(m, t.x, nullptr, 0.05));
  expect_covers_close_pairs(m, t.x, 0.05, c);
  // Object 0 has no self contact: all its pairs are with object 1. Object 1's self pairs are
  // there (neighbouring primitives that share no vertex).
  int self_pairs_1 = 0;
  for (const auto& [i, f] : c.vertex_face) {
    const int vo = m.vertex_object[static_cast<size_t>(i)],
              fo = m.face_object[static_cast<size_t>(f)];
    EXPECT_FALSE(vo == 0 && fo == 0);
    self_pairs_1 += vo == 1 && fo == 1;
  }
  EXPECT_GT(self_pairs_1, 0);
  for (const auto& [a, b] : c.edge_edge) {
    EXPECT_LT(a, b);
    EXPECT_FALSE(m.edge_object[static_cast<size_t>(a)] == 0 &&
                 m.edge_object[static_cast<size_t>(b)] == 0);
  }
  // Swept: B falls by 0.5 onto A.
  VecX dx = VecX::Zero(t.x.size());
  for (int v = t.mesh.num_vertices() / 2; v < t.mesh.num_vertices(); ++v) dx[3 * v + 2] = -0.5;
  expect_same(find_candidates(m, t.x, dx, 0.0), brute_force(m, t.x, &dx, 0.0));
}

TEST(BroadPhase, CollisionFreeStepOfTwoApproachingBoxes) {
  const double gap = 0.1;
  TwoBoxes t = two_boxes(gap);
  const CollisionMesh& m = t.collision;
  VecX dx = VecX::Zero(t.x.size());
  EXPECT_EQ(max_collision_free_step(m, t.x, dx, 0.0), 1.0);  // at rest
  // B falls by 0.3 (would sink 0.2 into A) and turns slightly (a shear of its x by z).
  for (int v = t.mesh.num_vertices() / 2; v < t.mesh.num_vertices(); ++v) {
    dx[3 * v + 2] = -0.3;
    dx[3 * v + 0] = 0.05 * (t.x[3 * v + 2] - 1.5);
  }
  const CollisionFreeStep r = collision_free_step(m, t.x, dx, 0.0);
  EXPECT_GT(r.num_candidates, 0u);
  EXPECT_LT(r.step, gap / 0.3);  // contact at t = 1/3
  EXPECT_GT(r.step, 0.8 * gap / 0.3);
  // At t* (and on a few t before it) every allowed pair is apart; at t = 1 some intersect.
  for (double f : {0.25, 0.5, 0.75, 1.0}) {
    double min_d = INFINITY;
    for_each_allowed_pair_distance(m, VecX(t.x + f * r.step * dx),
                                   [&](int, int, int, double d) { min_d = std::min(min_d, d); });
    EXPECT_GT(min_d, 0.5 * kAccdShrink * gap) << "at " << f << " t*";
  }
  double min_end = INFINITY;
  for_each_allowed_pair_distance(m, VecX(t.x + dx),
                                 [&](int, int, int, double d) { min_end = std::min(min_end, d); });
  EXPECT_LT(min_end, 1e-2);  // B sank 0.2 into A: crossing edges and faces
  // Brute force over all allowed pairs can only be as or more restrictive (it also keeps 10%
  // of the gap of far pairs); pairs the broad phase skipped are > min_distance apart anyway.
  double brute = 1.0;
  for (int i = 0; i < m.num_vertices(); ++i)
    for (int f = 0; f < m.num_faces(); ++f)
      if (vertex_face_allowed(m, i, f)) {
        const int v = m.vertices[static_cast<size_t>(i)];
        const int a = m.faces(f, 0), b = m.faces(f, 1), c = m.faces(f, 2);
        brute =
            std::min(brute, point_triangle_ccd(at(t.x, v), at(t.x, a), at(t.x, b), at(t.x, c),
                                               at(dx, v), at(dx, a), at(dx, b), at(dx, c), 0.0));
      }
  EXPECT_LE(brute, r.step);
  EXPECT_GT(brute, 0.8 * gap / 0.3);
}

}  // namespace
}  // namespace simrun
