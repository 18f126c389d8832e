#include "coarsen/tet_overlap.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <utility>

#include "core/parallel.hpp"
#include "mesh/aabb_tree.hpp"

namespace simrun {

namespace {

// Capacity of the clipped polyhedron. Every vertex of the graph has degree 3, and one clip keeps
// the n_in vertices inside and adds one per cut edge; a cut edge joins an inside and an outside
// vertex, so there are at most 3 min(n_in, n_out) of them and a clip leaves at most
// n_in + 3 min(n_in, n - n_in) <= 2n vertices. This holds for any inside/outside pattern, also
// one that roundoff made geometrically inconsistent. A tet has 4 vertices, one clip leaves at
// most 6 (a quad cross-section: 2 + 4), and three more at most 2 * 2 * 2 * 6 = 48. (Exact
// geometry allows 12: a simple polytope with 8 facets has 2 * 8 - 4 vertices.)
constexpr int kMaxVertices = 48;

/// Convex polyhedron as a graph of degree-3 vertices: nbr[v] lists v's three neighbours counter-
/// clockwise seen from outside, and back[v][k] is the slot of v in nbr[nbr[v][k]] (the twin of
/// the directed edge), so that walks never search a neighbour list: roundoff can make the
/// inside/outside pattern of a clip geometrically inconsistent (a vertex on the plane judged
/// inside, its neighbour on the plane outside), and the graph may then get two edges between the
/// same vertices. A face walk arriving at v through slot i leaves through slot (i + 1) % 3 (faces
/// run clockwise seen from outside).
struct Polyhedron {
  Vec3 x[kMaxVertices];
  int nbr[kMaxVertices][3];
  int back[kMaxVertices][3];
  int n = 0;
};

/// 6 x the signed volume of (x, p, q, r): det(p - x, q - x, r - x). Exactly 0 when x equals one
/// of p, q, r bitwise, so a shared vertex is never clipped by roundoff.
double orient(const Vec3& x, const Vec3& p, const Vec3& q, const Vec3& r) {
  return (p - x).dot((q - x).cross(r - x));
}

/// The tet (positively oriented) as a polyhedron. Neighbour orders checked by
/// det(n0 - v, n1 - v, n2 - v) < 0 on the unit corner tet.
void make_tet(const Vec3* v, Polyhedron& p) {
  static constexpr int kNeighbours[4][3] = {{1, 3, 2}, {0, 2, 3}, {0, 3, 1}, {0, 1, 2}};
  p.n = 4;
  for (int i = 0; i < 4; ++i) {
    p.x[i] = v[i];
    for (int k = 0; k < 3; ++k) {
      const int w = kNeighbours[i][k];
      p.nbr[i][k] = w;
      p.back[i][k] = kNeighbours[w][0] == i ? 0 : (kNeighbours[w][1] == i ? 1 : 2);
    }
  }
}

/// Keeps the part of p where d >= 0 (d per vertex, affine in exact arithmetic): cuts every edge
/// from an inside vertex v to an outside vertex w at x_v + t (x_w - x_v), t = d_v / (d_v - d_w),
/// links the new vertices around each cap by walking the faces through the outside vertices,
/// and drops the outside vertices. The walks are purely combinatorial, so the result is a closed
/// surface for any inside/outside pattern. Returns false when nothing is left.
bool clip(Polyhedron& p, const double* d) {
  const int n_old = p.n;
  int n_in = 0;
  for (int v = 0; v < n_old; ++v) n_in += d[v] >= 0.0;
  if (n_in == n_old) return true;
  if (n_in == 0) {
    p.n = 0;
    return false;
  }
  int cut[kMaxVertices][3];  // inside vertex, slot -> new vertex on that edge (or -1)
  for (int v = 0; v < n_old; ++v) {
    if (d[v] < 0.0) continue;
    for (int k = 0; k < 3; ++k) {
      const int w = p.nbr[v][k];
      cut[v][k] = -1;
      if (d[w] >= 0.0) continue;
      assert(p.n < kMaxVertices);  // guaranteed by the bound on kMaxVertices
      const int nv = p.n++;
      const double t = d[v] / (d[v] - d[w]);
      p.x[nv] = p.x[v] + t * (p.x[w] - p.x[v]);
      // Slot 0 back to v; slots 1 and 2 are set by the face walks below.
      p.nbr[nv][0] = v;
      p.back[nv][0] = k;
      cut[v][k] = nv;
    }
  }
  // From each cut edge v -> w, walk its face on through the outside vertices to the edge that
  // comes back inside, y -> x: that edge's new vertex follows nv along the face (nv's slot 1)
  // and nv precedes it around the cap (its slot 2). A walk passes each directed edge at most
  // once.
  for (int nv = n_old; nv < p.n; ++nv) {
    const int v = p.nbr[nv][0], k = p.back[nv][0];
    int cur = p.nbr[v][k], arrived = p.back[v][k];
    for (int step = 0; step < 3 * n_old; ++step) {
      const int s = (arrived + 1) % 3;
      const int next = p.nbr[cur][s];
      if (d[next] < 0.0) {
        arrived = p.back[cur][s];
        cur = next;
        continue;
      }
      const int other = cut[next][p.back[cur][s]];
      p.nbr[nv][1] = other;
      p.back[nv][1] = 2;
      p.nbr[other][2] = nv;
      p.back[other][2] = 1;
      break;
    }
  }
  // Inside vertices point to their new vertices, then compact (indices only move down).
  int remap[kMaxVertices];
  int m = 0;
  for (int v = 0; v < n_old; ++v) {
    if (d[v] < 0.0) continue;
    for (int k = 0; k < 3; ++k) {
      if (cut[v][k] < 0) continue;
      p.nbr[v][k] = cut[v][k];
      p.back[v][k] = 0;
    }
    remap[v] = m++;
  }
  for (int v = n_old; v < p.n; ++v) remap[v] = m++;
  for (int v = 0; v < p.n; ++v) {
    if (v < n_old && d[v] < 0.0) continue;
    const int to = remap[v];
    p.x[to] = p.x[v];
    for (int k = 0; k < 3; ++k) {
      p.nbr[to][k] = remap[p.nbr[v][k]];
      p.back[to][k] = p.back[v][k];
    }
  }
  p.n = m;
  return true;
}

/// Volume by the divergence theorem: each face fanned from its first vertex into triangles,
/// V = -1/6 sum det(q0, q_k, q_k+1) (faces run clockwise seen from outside, hence the sign).
/// Every directed edge lies on exactly one face walk and its twin on another, so the sum does
/// not depend on the origin even when roundoff left degenerate faces.
double volume(const Polyhedron& p) {
  bool walked[kMaxVertices][3] = {};
  double six_volume = 0.0;
  for (int v = 0; v < p.n; ++v) {
    for (int k = 0; k < 3; ++k) {
      if (walked[v][k]) continue;
      walked[v][k] = true;
      const Vec3& q0 = p.x[v];
      int cur = p.nbr[v][k], arrived = p.back[v][k];
      for (int step = 0; step < 3 * p.n; ++step) {
        const int s = (arrived + 1) % 3;
        if (cur == v && s == k) break;  // back at the first edge
        walked[cur][s] = true;
        const int next = p.nbr[cur][s];
        if (cur != v && next != v) six_volume -= q0.dot(p.x[cur].cross(p.x[next]));
        arrived = p.back[cur][s];
        cur = next;
      }
    }
  }
  return six_volume / 6.0;
}

/// A tet's faces as planes, inward unit normal n_k and offset c_k (n_k . x >= c_k on the tet's
/// side), for a cheap exact rejection before clipping: a tet lying wholly more than `margin`
/// beyond one face plane shares no volume. The margin (1e-9 of the tet's size and distance from
/// the origin) is far above the roundoff of n_k . x, and far below any volume that matters.
struct FacePlanes {
  Vec3 n[4];
  double c[4];
  double margin = 0.0;

  explicit FacePlanes(const std::array<Vec3, 4>& x) {
    double size = 0.0;
    for (int k = 0; k < 4; ++k) {
      const Vec3& xi = x[(k + 1) % 4];
      n[k] = (x[(k + 2) % 4] - xi).cross(x[(k + 3) % 4] - xi);
      const double length = n[k].norm();
      if (length > 0.0) n[k] /= length;
      if (n[k].dot(x[k] - xi) < 0.0) n[k] = -n[k];
      c[k] = n[k].dot(xi);
      size = std::max({size, (x[k] - xi).cwiseAbs().maxCoeff(), x[k].cwiseAbs().maxCoeff()});
    }
    margin = 1e-9 * size;
  }

  enum class Side { kOutside, kInside, kCrossing };

  /// Where tet y lies: wholly more than `margin` beyond one face plane (no shared volume),
  /// wholly more than `margin` inside all four (y is a subset of the tet: the overlap is y's
  /// own volume, no clipping needed), or neither.
  Side classify(const std::array<Vec3, 4>& y) const {
    bool inside = true;
    for (int k = 0; k < 4; ++k) {
      const double d0 = n[k].dot(y[0]), d1 = n[k].dot(y[1]), d2 = n[k].dot(y[2]),
                   d3 = n[k].dot(y[3]);
      if (std::max(std::max(d0, d1), std::max(d2, d3)) < c[k] - margin) return Side::kOutside;
      inside = inside && std::min(std::min(d0, d1), std::min(d2, d3)) > c[k] + margin;
    }
    return inside ? Side::kInside : Side::kCrossing;
  }

  /// Whether the box [lo, hi] lies wholly more than `margin` beyond one face plane: the largest
  /// n . x over the box is n . centre + sum_i |n_i| half_i.
  bool separates(const Aabb& box) const {
    const Vec3 centre = 0.5 * (box.lo + box.hi), half = 0.5 * (box.hi - box.lo);
    for (int k = 0; k < 4; ++k)
      if (n[k].dot(centre) + n[k].cwiseAbs().dot(half) < c[k] - margin) return true;
    return false;
  }
};

/// Broad phase of tet_overlaps: a uniform grid over the coarse tets' bounds whose cells list
/// the coarse tets that may overlap them (box overlap, then no face plane of the tet separating
/// the cell). A fine tet's candidates are the tets listed in the few cells its box touches.
/// Cells of about the fine tets' size make that 1-8 cells and, on the organ of
/// benchmarks/coarsening_precompute.py, a few candidates per fine tet where the AABB tree of
/// the coarse boxes gave 11.6 and cost a third of the whole computation in its traversal.
class CoarseTetGrid {
 public:
  CoarseTetGrid(const std::vector<Aabb>& boxes, const std::vector<FacePlanes>& planes,
                double cell_size, std::int64_t max_cells) {
    for (const Aabb& b : boxes) m_bounds.extend(b);
    if (boxes.empty()) return;
    const Vec3 extent = (m_bounds.hi - m_bounds.lo).cwiseMax(Vec3::Constant(1e-300));
    double h = cell_size > 0.0 ? cell_size : extent.maxCoeff();
    // Bounded memory: grow the cells until there are at most max_cells of them.
    for (;;) {
      std::int64_t cells = 1;
      for (int d = 0; d < 3; ++d) {
        m_count[d] = std::max(1, static_cast<int>(std::min(1e9, std::ceil(extent[d] / h))));
        cells *= m_count[d];
      }
      if (cells <= max_cells) break;
      h *= 1.5;
    }
    for (int d = 0; d < 3; ++d) m_size[d] = extent[d] / m_count[d];
    // Cells enlarged by a hair, so that roundoff in their corners never drops a touching tet.
    const Vec3 pad = 1e-9 * (extent + m_bounds.lo.cwiseAbs());
    std::vector<std::pair<std::int64_t, int>> entries;  // (cell, coarse tet)
    for (int q = 0; q < static_cast<int>(boxes.size()); ++q) {
      const auto range = cell_range(boxes[static_cast<size_t>(q)]);
      for (int k = range[0][2]; k <= range[1][2]; ++k)
        for (int j = range[0][1]; j <= range[1][1]; ++j)
          for (int i = range[0][0]; i <= range[1][0]; ++i) {
            Aabb cell;
            cell.lo = m_bounds.lo + Vec3(i * m_size[0], j * m_size[1], k * m_size[2]);
            cell.hi = cell.lo + m_size;
            cell.lo -= pad, cell.hi += pad;
            if (!planes[static_cast<size_t>(q)].separates(cell))
              entries.emplace_back(index(i, j, k), q);
          }
    }
    const std::int64_t num_cells = static_cast<std::int64_t>(m_count[0]) * m_count[1] * m_count[2];
    m_start.assign(static_cast<size_t>(num_cells) + 1, 0);
    for (const auto& e : entries) ++m_start[static_cast<size_t>(e.first) + 1];
    for (std::int64_t c = 0; c < num_cells; ++c)
      m_start[static_cast<size_t>(c) + 1] += m_start[static_cast<size_t>(c)];
    m_items.resize(entries.size());
    std::vector<int> next(m_start.begin(), m_start.end() - 1);
    for (const auto& e : entries)
      m_items[static_cast<size_t>(next[static_cast<size_t>(e.first)]++)] = e.second;
  }

  /// Calls f(q) for every coarse tet listed in a cell that `box` touches; a tet listed in
  /// several of them more than once (the caller removes repeats).
  template <class Visit>
  void for_each_candidate(const Aabb& box, Visit&& f) const {
    if (m_items.empty() || !m_bounds.overlaps(box)) return;
    const auto range = cell_range(box);
    for (int k = range[0][2]; k <= range[1][2]; ++k)
      for (int j = range[0][1]; j <= range[1][1]; ++j)
        for (int i = range[0][0]; i <= range[1][0]; ++i) {
          const auto c = static_cast<size_t>(index(i, j, k));
          for (int s = m_start[c]; s < m_start[c + 1]; ++s) f(m_items[static_cast<size_t>(s)]);
        }
  }

 private:
  std::int64_t index(int i, int j, int k) const {
    return i +
           static_cast<std::int64_t>(m_count[0]) * (j + static_cast<std::int64_t>(m_count[1]) * k);
  }
  /// The cells [lo, hi] (inclusive, clamped to the grid) that the box touches.
  std::array<std::array<int, 3>, 2> cell_range(const Aabb& box) const {
    std::array<std::array<int, 3>, 2> r;
    for (int d = 0; d < 3; ++d) {
      const auto cell = [&](double x) {
        const double t = std::floor((x - m_bounds.lo[d]) / m_size[d]);
        return static_cast<int>(std::clamp(t, 0.0, static_cast<double>(m_count[d] - 1)));
      };
      r[0][d] = cell(box.lo[d]);
      r[1][d] = cell(box.hi[d]);
    }
    return r;
  }

  Aabb m_bounds;
  int m_count[3] = {1, 1, 1};
  Vec3 m_size = Vec3::Ones();
  std::vector<int> m_start;  ///< per cell, its first item (CSR); int: at most 2^31 entries
  std::vector<int> m_items;  ///< coarse tets, cell by cell
};

}  // namespace

double signed_tet_volume(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return (b - a).dot((c - a).cross(d - a)) / 6.0;
}

std::array<Vec3, 4> tet_corners(const TetMesh& mesh, int t) {
  std::array<Vec3, 4> x;
  for (int a = 0; a < 4; ++a) x[a] = mesh.vertices.row(mesh.tets(t, a)).transpose();
  return x;
}

double tet_intersection_volume(const std::array<Vec3, 4>& a, const std::array<Vec3, 4>& b) {
  // Work relative to a's first vertex (smaller numbers, less cancellation in the volume).
  const Vec3 origin = a[0];
  Vec3 av[4], bv[4];
  for (int i = 0; i < 4; ++i) {
    av[i] = a[i] - origin;
    bv[i] = b[i] - origin;
  }
  const double six_a = orient(av[0], av[1], av[2], av[3]);
  const double six_b = orient(bv[0], bv[1], bv[2], bv[3]);
  if (!(six_a != 0.0) || !(six_b != 0.0)) return 0.0;  // degenerate (or not finite)
  if (six_a < 0.0) std::swap(av[2], av[3]);
  // Face k of b is opposite vertex k; d_k(x) = sign(b) det(b_i - x, b_j - x, b_l - x) is
  // positive on b's side: (x, b_i, b_j, b_l) is an even permutation of (b_0, b_1, b_2, b_3)
  // with x in place of b_k.
  static constexpr int kFace[4][3] = {{1, 2, 3}, {0, 3, 2}, {3, 0, 1}, {2, 1, 0}};
  const double sign_b = six_b > 0.0 ? 1.0 : -1.0;
  Polyhedron p;
  make_tet(av, p);
  bool clipped = false;
  double d[kMaxVertices];
  for (int k = 0; k < 4; ++k) {
    const Vec3& bi = bv[kFace[k][0]];
    const Vec3& bj = bv[kFace[k][1]];
    const Vec3& bl = bv[kFace[k][2]];
    bool all_inside = true;
    for (int v = 0; v < p.n; ++v) {
      d[v] = sign_b * orient(p.x[v], bi, bj, bl);
      all_inside = all_inside && d[v] >= 0.0;
    }
    if (all_inside) continue;
    clipped = true;
    if (!clip(p, d)) return 0.0;
  }
  // Untouched: a lies in b, and its own volume is the exact answer.
  if (!clipped) return std::abs(six_a) / 6.0;
  return std::max(0.0, volume(p));
}

TetOverlaps tet_overlaps(const TetMesh& fine, const TetMesh& coarse) {
  const int nc = coarse.num_tets(), nf = fine.num_tets();
  const std::vector<Aabb> coarse_boxes = tet_boxes(coarse);
  std::vector<std::array<Vec3, 4>> coarse_corners;
  std::vector<FacePlanes> coarse_planes;
  std::vector<double> coarse_volume;
  coarse_corners.reserve(static_cast<size_t>(nc));
  coarse_planes.reserve(static_cast<size_t>(nc));
  for (int q = 0; q < nc; ++q) {
    const auto& x = coarse_corners.emplace_back(tet_corners(coarse, q));
    coarse_planes.emplace_back(x);
    coarse_volume.push_back(std::abs(signed_tet_volume(x[0], x[1], x[2], x[3])));
  }
  // The grid over the (few) coarse tets, queried with each fine tet's box: building it is
  // cheap, the fine tets are visited in memory order, and the coarse data stays in cache. Cells
  // twice the mean fine tet's box, so a fine tet's box touches 1-8 cells (on the organ, cells of
  // 0.5, 1, 1.5, 2 and 4 mean boxes measured 1.14, 1.38, 1.44, 1.41 and 1.25e6 pairs/s); at
  // most 4 cells per fine tet (a coarse mesh reaching far beyond the fine one gets larger ones).
  double mean_extent = 0.0;
  for (int p = 0; p < nf; ++p) {
    const Aabb box = tet_box(fine, p);
    mean_extent += (box.hi - box.lo).maxCoeff() / nf;
  }
  const CoarseTetGrid grid(coarse_boxes, coarse_planes, 2.0 * mean_extent,
                           4 * static_cast<std::int64_t>(nf) + 64);
  // Blocks of consecutive fine tets, each with its entries in fine-tet order; concatenated in
  // block order and bucketed by coarse tet below, so the output does not depend on the schedule.
  struct Entry {
    int fine, coarse;
    double volume;
  };
  constexpr int kBlock = 1024;
  const int num_blocks = (nf + kBlock - 1) / kBlock;
  std::vector<std::vector<Entry>> per_block(static_cast<size_t>(num_blocks));
#pragma omp parallel for schedule(dynamic, 1) num_threads(thread_count())
  for (int b = 0; b < num_blocks; ++b) {
    auto& entries = per_block[static_cast<size_t>(b)];
    std::vector<int> seen(static_cast<size_t>(nc), -1);  // per coarse tet: the last fine tet
    for (int p = b * kBlock; p < std::min(nf, (b + 1) * kBlock); ++p) {
      const auto xp = tet_corners(fine, p);
      const double fine_volume = std::abs(signed_tet_volume(xp[0], xp[1], xp[2], xp[3]));
      const Aabb box = tet_box(fine, p);
      grid.for_each_candidate(box, [&](int q) {
        const auto uq = static_cast<size_t>(q);
        if (seen[uq] == p || !coarse_boxes[uq].overlaps(box)) return;
        seen[uq] = p;
        const FacePlanes::Side side = coarse_planes[uq].classify(xp);
        if (side == FacePlanes::Side::kOutside) return;  // most candidates of a tet's box
        // Clip the (usually smaller) fine tet, unless it lies wholly inside (most do).
        const double v = side == FacePlanes::Side::kInside
                             ? fine_volume
                             : tet_intersection_volume(xp, coarse_corners[uq]);
        if (v > kOverlapRoundoffFraction * std::min(fine_volume, coarse_volume[uq]))
          entries.push_back({p, q, v});
      });
    }
  }
  // Counting sort by coarse tet; stable, so each bucket stays in fine-tet order.
  std::vector<size_t> start(static_cast<size_t>(nc) + 1, 0);
  for (const auto& entries : per_block)
    for (const Entry& e : entries) ++start[static_cast<size_t>(e.coarse) + 1];
  for (int q = 0; q < nc; ++q) start[static_cast<size_t>(q) + 1] += start[static_cast<size_t>(q)];
  TetOverlaps out;
  const size_t total = start.back();
  out.fine.resize(total);
  out.coarse.resize(total);
  out.volume.resize(total);
  for (const auto& entries : per_block) {
    for (const Entry& e : entries) {
      const size_t i = start[static_cast<size_t>(e.coarse)]++;
      out.fine[i] = e.fine;
      out.coarse[i] = e.coarse;
      out.volume[i] = e.volume;
    }
  }
  return out;
}

std::vector<double> fine_covered_volume(const TetOverlaps& overlaps, int num_fine_tets) {
  std::vector<double> covered(static_cast<size_t>(num_fine_tets), 0.0);
  for (int i = 0; i < overlaps.size(); ++i)
    covered[static_cast<size_t>(overlaps.fine[static_cast<size_t>(i)])] +=
        overlaps.volume[static_cast<size_t>(i)];
  return covered;
}

std::vector<double> coarse_covered_volume(const TetOverlaps& overlaps, int num_coarse_tets) {
  std::vector<double> covered(static_cast<size_t>(num_coarse_tets), 0.0);
  for (int i = 0; i < overlaps.size(); ++i)
    covered[static_cast<size_t>(overlaps.coarse[static_cast<size_t>(i)])] +=
        overlaps.volume[static_cast<size_t>(i)];
  return covered;
}

}  // namespace simrun
