#pragma once
/// Static bounding-volume hierarchy of axis-aligned boxes (one per element), answering "which
/// boxes overlap this box". Built once, top-down, by median splits along the longest axis of the
/// box centres: O(n log n) time, depth ~log2(n / kLeafSize), 2n / kLeafSize nodes. Broad phase
/// for element-against-element work between two meshes (tet-tet overlap volumes).
#include <cassert>
#include <limits>
#include <vector>

#include "core/types.hpp"
#include "mesh/tet_mesh.hpp"

namespace simrun {

struct Aabb {
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 hi = Vec3::Constant(-std::numeric_limits<double>::infinity());

  void extend(const Vec3& p) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  void extend(const Aabb& b) {
    lo = lo.cwiseMin(b.lo);
    hi = hi.cwiseMax(b.hi);
  }
  /// Closed boxes: touching counts as overlapping.
  bool overlaps(const Aabb& b) const {
    return lo.x() <= b.hi.x() && b.lo.x() <= hi.x() && lo.y() <= b.hi.y() && b.lo.y() <= hi.y() &&
           lo.z() <= b.hi.z() && b.lo.z() <= hi.z();
  }
};

/// Bounding box of tet t of `mesh` (rest positions).
Aabb tet_box(const TetMesh& mesh, int t);
/// Bounding boxes of all tets of `mesh`, in tet order.
std::vector<Aabb> tet_boxes(const TetMesh& mesh);

class AabbTree {
 public:
  /// Items per leaf: the box tests of a leaf are cheaper than another level of nodes.
  static constexpr int kLeafSize = 4;
  /// Traversal stack; median splits give depth <= ceil(log2(n)) + 1, so this holds 2^60 boxes.
  static constexpr int kMaxDepth = 64;

  AabbTree() = default;
  /// Builds the tree over boxes[0..n); item i of a query is boxes[i].
  explicit AabbTree(const std::vector<Aabb>& boxes);

  int num_items() const { return static_cast<int>(m_items.size()); }
  int num_nodes() const { return static_cast<int>(m_nodes.size()); }
  /// Root box (empty for an empty tree).
  Aabb bounds() const { return m_nodes.empty() ? Aabb{} : m_nodes.front().box; }

  /// Calls f(i) for every item i whose box overlaps `query` (each once, in tree order).
  template <class Visit>
  void for_each_overlap(const Aabb& query, Visit&& f) const {
    if (m_nodes.empty()) return;
    int stack[kMaxDepth];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const Node& node = m_nodes[static_cast<size_t>(stack[--top])];
      if (!node.box.overlaps(query)) continue;
      if (node.count > 0) {
        for (int k = node.first; k < node.first + node.count; ++k)
          if (m_boxes[static_cast<size_t>(k)].overlaps(query)) f(m_items[static_cast<size_t>(k)]);
        continue;
      }
      assert(top + 2 <= kMaxDepth);
      const int self = static_cast<int>(&node - m_nodes.data());
      stack[top++] = node.first;  // right child
      stack[top++] = self + 1;    // left child, visited first
    }
  }

  /// The items whose boxes overlap `query`, ascending (out is overwritten).
  void overlapping(const Aabb& query, std::vector<int>& out) const;

 private:
  struct Node {
    Aabb box;
    int first = 0;  ///< leaf: first slot in m_items/m_boxes; inner: index of the right child
    int count = 0;  ///< leaf: number of items (> 0); inner: 0 (left child is the next node)
  };
  int build(std::vector<int>& order, const std::vector<Aabb>& boxes, int begin, int end, int depth);

  std::vector<Node> m_nodes;  ///< depth-first order, root first
  std::vector<int> m_items;   ///< item ids in leaf order
  std::vector<Aabb> m_boxes;  ///< their boxes, in the same order (contiguous leaf tests)
};

}  // namespace simrun
