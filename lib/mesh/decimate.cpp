#include "mesh/decimate.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <queue>
#include <vector>

namespace simrun {

namespace {

using Quadric = Eigen::Matrix4d;

struct Candidate {
  double cost;
  int a, b;
  long stamp_a, stamp_b;  ///< vertex versions when computed (stale entries are skipped)
  Vec3 target;
  bool operator>(const Candidate& o) const { return cost > o.cost; }
};

class Decimator {
 public:
  explicit Decimator(const SurfaceMesh& s)
      : m_x(s.vertices),
        m_faces(s.faces),
        m_face_alive(static_cast<size_t>(s.num_faces()), true),
        m_vertex_alive(static_cast<size_t>(s.num_vertices()), true),
        m_stamp(static_cast<size_t>(s.num_vertices()), 0),
        m_q(static_cast<size_t>(s.num_vertices()), Quadric::Zero()),
        m_vertex_faces(static_cast<size_t>(s.num_vertices())) {
    for (int f = 0; f < s.num_faces(); ++f) {
      for (int k = 0; k < 3; ++k) m_vertex_faces[static_cast<size_t>(m_faces(f, k))].push_back(f);
      const Vec3 p0 = m_x.row(m_faces(f, 0)), p1 = m_x.row(m_faces(f, 1)),
                 p2 = m_x.row(m_faces(f, 2));
      Vec3 n = (p1 - p0).cross(p2 - p0);
      const double norm = n.norm();
      if (norm == 0.0) continue;
      n /= norm;
      const Eigen::Vector4d plane(n.x(), n.y(), n.z(), -n.dot(p0));
      const Quadric K = plane * plane.transpose();
      for (int k = 0; k < 3; ++k) m_q[static_cast<size_t>(m_faces(f, k))] += K;
    }
    m_live_faces = s.num_faces();
    m_live_vertices = s.num_vertices();
    for (int f = 0; f < s.num_faces(); ++f)
      for (int k = 0; k < 3; ++k) push(m_faces(f, k), m_faces(f, (k + 1) % 3));
  }

  DecimationResult run(int target_faces) {
    DecimationResult result;
    while (m_live_faces > target_faces && !m_heap.empty() && m_live_vertices > 4) {
      const Candidate c = m_heap.top();
      m_heap.pop();
      if (!m_vertex_alive[static_cast<size_t>(c.a)] || !m_vertex_alive[static_cast<size_t>(c.b)] ||
          c.stamp_a != m_stamp[static_cast<size_t>(c.a)] ||
          c.stamp_b != m_stamp[static_cast<size_t>(c.b)])
        continue;
      if (!collapse(c.a, c.b, c.target)) continue;
      ++result.collapses;
      result.max_error = std::max(result.max_error, std::sqrt(std::max(c.cost, 0.0)));
    }
    result.surface = compact();
    return result;
  }

 private:
  std::vector<int> neighbours(int v) const {
    std::vector<int> n;
    for (int f : m_vertex_faces[static_cast<size_t>(v)])
      for (int k = 0; k < 3; ++k)
        if (m_faces(f, k) != v) n.push_back(m_faces(f, k));
    std::sort(n.begin(), n.end());
    n.erase(std::unique(n.begin(), n.end()), n.end());
    return n;
  }

  void push(int a, int b) {
    if (a > b) std::swap(a, b);
    const Quadric Q = m_q[static_cast<size_t>(a)] + m_q[static_cast<size_t>(b)];
    // The minimizer of v^T Q v over v = (x, 1): solve the top-left 3x3 system when it is well
    // conditioned, else the best of the endpoints and the midpoint.
    const Mat3 A = Q.topLeftCorner<3, 3>();
    const Vec3 rhs = -Q.topRightCorner<3, 1>();
    const auto cost = [&](const Vec3& x) {
      const Eigen::Vector4d h(x.x(), x.y(), x.z(), 1.0);
      return h.dot(Q * h);
    };
    Vec3 best = 0.5 * (m_x.row(a) + m_x.row(b)).transpose();
    double best_cost = cost(best);
    const Eigen::FullPivLU<Mat3> lu(A);
    if (lu.rank() == 3 && lu.rcond() > 1e-10) {
      const Vec3 x = lu.solve(rhs);
      // Only near the edge: a far optimum of an almost flat quadric makes spikes.
      const double length = (m_x.row(a) - m_x.row(b)).norm();
      if ((x - best).norm() <= length && cost(x) < best_cost) {
        best = x;
        best_cost = cost(x);
      }
    }
    for (const int v : {a, b}) {
      const Vec3 x = m_x.row(v).transpose();
      if (cost(x) < best_cost) {
        best = x;
        best_cost = cost(x);
      }
    }
    m_heap.push(
        {best_cost, a, b, m_stamp[static_cast<size_t>(a)], m_stamp[static_cast<size_t>(b)], best});
  }

  /// Collapses edge (a, b) into a at position p; false (nothing changed) when a check fails.
  bool collapse(int a, int b, const Vec3& p) {
    const std::vector<int> na = neighbours(a), nb = neighbours(b);
    if (!std::binary_search(na.begin(), na.end(), b)) return false;  // no longer an edge
    std::vector<int> common;
    std::set_intersection(na.begin(), na.end(), nb.begin(), nb.end(), std::back_inserter(common));
    if (common.size() != 2) return false;  // link condition
    // Two valence-3 vertices on the edge: a tetrahedral component (or part of one) that would
    // fold into a doubly covered triangle.
    if (na.size() == 3 && nb.size() == 3) return false;
    // Faces that survive around a and b must keep their orientation and area.
    for (const int v : {a, b})
      for (int f : m_vertex_faces[static_cast<size_t>(v)]) {
        bool has_a = false, has_b = false;
        for (int k = 0; k < 3; ++k) {
          has_a |= m_faces(f, k) == a;
          has_b |= m_faces(f, k) == b;
        }
        if (has_a && has_b) continue;  // removed by the collapse
        Vec3 before[3], after[3];
        for (int k = 0; k < 3; ++k) {
          before[k] = m_x.row(m_faces(f, k)).transpose();
          after[k] = m_faces(f, k) == v ? p : before[k];
        }
        const Vec3 n0 = (before[1] - before[0]).cross(before[2] - before[0]);
        const Vec3 n1 = (after[1] - after[0]).cross(after[2] - after[0]);
        if (n1.norm() < 1e-12 * n0.norm() || n0.dot(n1) <= 0.2 * n0.norm() * n1.norm())
          return false;
      }
    // Apply: b's faces now use a; the two faces on the edge disappear.
    std::vector<int> merged;
    for (const int v : {a, b})
      for (int f : m_vertex_faces[static_cast<size_t>(v)]) {
        if (!m_face_alive[static_cast<size_t>(f)]) continue;
        bool has_a = false, has_b = false;
        for (int k = 0; k < 3; ++k) {
          has_a |= m_faces(f, k) == a;
          has_b |= m_faces(f, k) == b;
        }
        if (has_a && has_b) {
          m_face_alive[static_cast<size_t>(f)] = false;
          --m_live_faces;
          for (int k = 0; k < 3; ++k) {
            auto& list = m_vertex_faces[static_cast<size_t>(m_faces(f, k))];
            if (m_faces(f, k) != a && m_faces(f, k) != b)
              list.erase(std::remove(list.begin(), list.end(), f), list.end());
          }
          continue;
        }
        for (int k = 0; k < 3; ++k)
          if (m_faces(f, k) == b) m_faces(f, k) = a;
        merged.push_back(f);
      }
    std::sort(merged.begin(), merged.end());
    merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
    m_vertex_faces[static_cast<size_t>(a)] = merged;
    m_vertex_faces[static_cast<size_t>(b)].clear();
    m_vertex_alive[static_cast<size_t>(b)] = false;
    --m_live_vertices;
    m_x.row(a) = p.transpose();
    m_q[static_cast<size_t>(a)] += m_q[static_cast<size_t>(b)];
    ++m_stamp[static_cast<size_t>(a)];
    for (int n : neighbours(a)) {
      ++m_stamp[static_cast<size_t>(n)];  // costs around a changed
    }
    for (int n : neighbours(a)) {
      for (int m : neighbours(n)) push(n, m);
    }
    return true;
  }

  SurfaceMesh compact() const {
    SurfaceMesh out;
    std::vector<int> index(m_vertex_alive.size(), -1);
    int n = 0;
    for (size_t v = 0; v < m_vertex_alive.size(); ++v)
      if (m_vertex_alive[v] && !m_vertex_faces[v].empty()) index[v] = n++;
    out.vertices.resize(n, 3);
    for (size_t v = 0; v < index.size(); ++v)
      if (index[v] >= 0) out.vertices.row(index[v]) = m_x.row(static_cast<Eigen::Index>(v));
    out.faces.resize(m_live_faces, 3);
    int f_out = 0;
    for (size_t f = 0; f < m_face_alive.size(); ++f)
      if (m_face_alive[f]) {
        for (int k = 0; k < 3; ++k)
          out.faces(f_out, k) =
              index[static_cast<size_t>(m_faces(static_cast<Eigen::Index>(f), k))];
        ++f_out;
      }
    return out;
  }

  MatX3 m_x;
  MatX3i m_faces;
  std::vector<bool> m_face_alive, m_vertex_alive;
  std::vector<long> m_stamp;
  std::vector<Quadric> m_q;
  std::vector<std::vector<int>> m_vertex_faces;
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> m_heap;
  int m_live_faces = 0, m_live_vertices = 0;
};

}  // namespace

DecimationResult decimate_surface(const SurfaceMesh& surface, int target_faces) {
  Decimator d(surface);
  return d.run(std::max(target_faces, 4));
}

}  // namespace simrun
