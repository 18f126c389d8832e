#include "mesh/aabb_tree.hpp"

#include <algorithm>

namespace simrun {

Aabb tet_box(const TetMesh& mesh, int t) {
  Aabb box;
  for (int a = 0; a < 4; ++a) box.extend(Vec3(mesh.vertices.row(mesh.tets(t, a)).transpose()));
  return box;
}

std::vector<Aabb> tet_boxes(const TetMesh& mesh) {
  std::vector<Aabb> boxes(static_cast<size_t>(mesh.num_tets()));
  for (int t = 0; t < mesh.num_tets(); ++t) boxes[static_cast<size_t>(t)] = tet_box(mesh, t);
  return boxes;
}

AabbTree::AabbTree(const std::vector<Aabb>& boxes) {
  const int n = static_cast<int>(boxes.size());
  if (n == 0) return;
  std::vector<int> order(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  m_nodes.reserve(static_cast<size_t>(2 * (n / kLeafSize + 1)));
  build(order, boxes, 0, n, 1);
  m_items = std::move(order);
  m_boxes.resize(m_items.size());
  for (size_t k = 0; k < m_items.size(); ++k) m_boxes[k] = boxes[static_cast<size_t>(m_items[k])];
}

// Median split along the longest axis of the box centres (nth_element: O(n) per level, so
// O(n log n) in all), depth-first node order so the left child is the next node.
int AabbTree::build(std::vector<int>& order, const std::vector<Aabb>& boxes, int begin, int end,
                    int depth) {
  assert(depth < kMaxDepth);
  const int self = static_cast<int>(m_nodes.size());
  m_nodes.emplace_back();
  Aabb box, centres;
  for (int k = begin; k < end; ++k) {
    const Aabb& b = boxes[static_cast<size_t>(order[static_cast<size_t>(k)])];
    box.extend(b);
    centres.extend(Vec3(0.5 * (b.lo + b.hi)));
  }
  m_nodes[static_cast<size_t>(self)].box = box;
  if (end - begin <= kLeafSize) {
    m_nodes[static_cast<size_t>(self)].first = begin;
    m_nodes[static_cast<size_t>(self)].count = end - begin;
    return self;
  }
  int axis = 0;
  (centres.hi - centres.lo).maxCoeff(&axis);
  const int mid = begin + (end - begin) / 2;
  std::nth_element(order.begin() + begin, order.begin() + mid, order.begin() + end,
                   [&](int i, int j) {
                     const Aabb& bi = boxes[static_cast<size_t>(i)];
                     const Aabb& bj = boxes[static_cast<size_t>(j)];
                     const double ci = bi.lo[axis] + bi.hi[axis], cj = bj.lo[axis] + bj.hi[axis];
                     return ci < cj || (ci == cj && i < j);  // ties by id: deterministic
                   });
  build(order, boxes, begin, mid, depth + 1);
  const int right = build(order, boxes, mid, end, depth + 1);
  m_nodes[static_cast<size_t>(self)].first = right;
  return self;
}

void AabbTree::overlapping(const Aabb& query, std::vector<int>& out) const {
  out.clear();
  for_each_overlap(query, [&](int i) { out.push_back(i); });
  std::sort(out.begin(), out.end());
}

}  // namespace simrun
