#include "contact/broad_phase.hpp"

#include <algorithm>
#include <cassert>
#include <vector>

#include "contact/ccd.hpp"
#include "mesh/aabb_tree.hpp"

namespace simrun {

namespace {

/// Below this many queries the loops run on one thread (spawning costs more than they gain).
constexpr int kParallelQueryThreshold = 2000;

Vec3 position(const VecX& x, int v) { return x.segment<3>(3 * static_cast<Eigen::Index>(v)); }

/// Box of the vertices `ids` at x (and at x + dx when dx is given), grown by `grow` per side.
template <size_t N>
Aabb primitive_box(const std::array<int, N>& ids, const VecX& x, const VecX* dx, double grow) {
  Aabb box;
  for (int v : ids) {
    box.extend(position(x, v));
    if (dx) box.extend(Vec3(position(x, v) + position(*dx, v)));
  }
  box.lo.array() -= grow;
  box.hi.array() += grow;
  return box;
}

struct PrimitiveBoxes {
  std::vector<Aabb> vertices, edges, faces;
};

PrimitiveBoxes primitive_boxes(const CollisionMesh& mesh, const VecX& x, const VecX* dx,
                               double inflation) {
  assert(x.size() % 3 == 0 && (!dx || dx->size() == x.size()));
  const double grow = 0.5 * std::max(inflation, 0.0);
  PrimitiveBoxes b;
  b.vertices.resize(static_cast<size_t>(mesh.num_vertices()));
  b.edges.resize(static_cast<size_t>(mesh.num_edges()));
  b.faces.resize(static_cast<size_t>(mesh.num_faces()));
  for (int i = 0; i < mesh.num_vertices(); ++i)
    b.vertices[static_cast<size_t>(i)] =
        primitive_box(std::array<int, 1>{mesh.vertices[static_cast<size_t>(i)]}, x, dx, grow);
  for (int i = 0; i < mesh.num_edges(); ++i)
    b.edges[static_cast<size_t>(i)] =
        primitive_box(mesh.edges[static_cast<size_t>(i)], x, dx, grow);
  for (int f = 0; f < mesh.num_faces(); ++f)
    b.faces[static_cast<size_t>(f)] = primitive_box(
        std::array<int, 3>{mesh.faces(f, 0), mesh.faces(f, 1), mesh.faces(f, 2)}, x, dx, grow);
  return b;
}

/// One AABB tree per object over that object's primitives (ids: tree item -> primitive id).
struct ObjectTree {
  std::vector<int> ids;
  AabbTree tree;
};

std::vector<ObjectTree> object_trees(const std::vector<Aabb>& boxes, const std::vector<int>& object,
                                     int num_objects) {
  std::vector<ObjectTree> trees(static_cast<size_t>(num_objects));
  std::vector<std::vector<Aabb>> object_boxes(static_cast<size_t>(num_objects));
  for (size_t i = 0; i < boxes.size(); ++i) {
    trees[static_cast<size_t>(object[i])].ids.push_back(static_cast<int>(i));
    object_boxes[static_cast<size_t>(object[i])].push_back(boxes[i]);
  }
  for (int o = 0; o < num_objects; ++o)
    trees[static_cast<size_t>(o)].tree = AabbTree(object_boxes[static_cast<size_t>(o)]);
  return trees;
}

/// For every query box q (of object query_object[q]), the pairs (q, item) with keep(q, item)
/// among the primitives whose boxes overlap it, searching only the trees of the objects q may
/// touch (other objects, and its own if it has self contact: the far-away bulk of a
/// non-self-contacting object is then never traversed). Sorted (the OpenMP threads collect in
/// any order).
template <class Keep>
std::vector<std::array<int, 2>> overlapping_pairs(const CollisionMesh& mesh,
                                                  const std::vector<Aabb>& queries,
                                                  const std::vector<int>& query_object,
                                                  const std::vector<ObjectTree>& trees,
                                                  const Keep& keep) {
  std::vector<std::array<int, 2>> pairs;
  const int n = static_cast<int>(queries.size());
  const int num_objects = static_cast<int>(trees.size());
#pragma omp parallel if (n >= kParallelQueryThreshold)
  {
    std::vector<std::array<int, 2>> local;
#pragma omp for schedule(dynamic, 64) nowait
    for (int q = 0; q < n; ++q) {
      const int own = query_object[static_cast<size_t>(q)];
      for (int o = 0; o < num_objects; ++o) {
        if (o == own && !mesh.self_contact[static_cast<size_t>(o)]) continue;
        const ObjectTree& t = trees[static_cast<size_t>(o)];
        t.tree.for_each_overlap(queries[static_cast<size_t>(q)], [&](int item) {
          const int id = t.ids[static_cast<size_t>(item)];
          if (keep(q, id)) local.push_back({q, id});
        });
      }
    }
#pragma omp critical(simrun_broad_phase_merge)
    pairs.insert(pairs.end(), local.begin(), local.end());
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// Vertex boxes against face trees; edge boxes against edge trees (each unordered pair reported
// once, as (low, high)).
ContactCandidates candidates_from_boxes(const CollisionMesh& mesh, const PrimitiveBoxes& b) {
  int num_objects = static_cast<int>(mesh.self_contact.size());
  for (int o : mesh.vertex_object) num_objects = std::max(num_objects, o + 1);
  assert(num_objects == static_cast<int>(mesh.self_contact.size()));
  ContactCandidates c;
  const auto face_trees = object_trees(b.faces, mesh.face_object, num_objects);
  c.vertex_face = overlapping_pairs(mesh, b.vertices, mesh.vertex_object, face_trees,
                                    [&](int v, int f) { return vertex_face_allowed(mesh, v, f); });
  const auto edge_trees = object_trees(b.edges, mesh.edge_object, num_objects);
  c.edge_edge = overlapping_pairs(mesh, b.edges, mesh.edge_object, edge_trees, [&](int ea, int eb) {
    return ea < eb && edge_edge_allowed(mesh, ea, eb);
  });
  return c;
}

}  // namespace

ContactCandidates find_candidates(const CollisionMesh& mesh, const VecX& x, double inflation) {
  return candidates_from_boxes(mesh, primitive_boxes(mesh, x, nullptr, inflation));
}

ContactCandidates find_candidates(const CollisionMesh& mesh, const VecX& x, const VecX& dx,
                                  double inflation) {
  return candidates_from_boxes(mesh, primitive_boxes(mesh, x, &dx, inflation));
}

// The minimum over the candidates of the pairwise CCD steps; pairs outside the candidates keep
// a distance >= min_distance over the whole step by the swept boxes' containment argument.
CollisionFreeStep collision_free_step(const CollisionMesh& mesh, const VecX& x, const VecX& dx,
                                      double min_distance) {
  const ContactCandidates c = find_candidates(mesh, x, dx, min_distance);
  CollisionFreeStep result;
  result.num_candidates = c.size();
  const int num_vf = static_cast<int>(c.vertex_face.size());
  const int num_ee = static_cast<int>(c.edge_edge.size());
  double step = 1.0;
#pragma omp parallel for schedule(dynamic, 16) \
    reduction(min                              \
              : step) if (num_vf + num_ee >= kParallelQueryThreshold)
  for (int k = 0; k < num_vf + num_ee; ++k) {
    double t = 1.0;
    if (k < num_vf) {
      const auto [entry, f] = c.vertex_face[static_cast<size_t>(k)];
      const int v = mesh.vertices[static_cast<size_t>(entry)];
      const int a = mesh.faces(f, 0), b = mesh.faces(f, 1), d = mesh.faces(f, 2);
      t = point_triangle_ccd(position(x, v), position(x, a), position(x, b), position(x, d),
                             position(dx, v), position(dx, a), position(dx, b), position(dx, d),
                             min_distance);
    } else {
      const auto [ea, eb] = c.edge_edge[static_cast<size_t>(k - num_vf)];
      const auto& p = mesh.edges[static_cast<size_t>(ea)];
      const auto& q = mesh.edges[static_cast<size_t>(eb)];
      t = edge_edge_ccd(position(x, p[0]), position(x, p[1]), position(x, q[0]), position(x, q[1]),
                        position(dx, p[0]), position(dx, p[1]), position(dx, q[0]),
                        position(dx, q[1]), min_distance);
    }
    step = std::min(step, t);
  }
  result.step = step;
  return result;
}

double max_collision_free_step(const CollisionMesh& mesh, const VecX& x, const VecX& dx,
                               double min_distance) {
  return collision_free_step(mesh, x, dx, min_distance).step;
}

}  // namespace simrun
