#include "mesh/embedding.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>

#include "mesh/aabb_tree.hpp"

namespace simrun {

namespace {

/// Closest point to p on triangle (a, b, c), by the Voronoi regions of its vertices, edges and
/// face (Ericson, Real-Time Collision Detection, Sec. 5.1.5).
Vec3 closest_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + (d1 / (d1 - d3)) * ab;
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + (d2 / (d2 - d6)) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
    return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const double denom = 1.0 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

/// Barycentric coordinates of p in a tet with vertex d and inverse edge matrix inv = [a-d, b-d,
/// c-d]^-1.
Eigen::Vector4d barycentric(const Mat3& inv, const Vec3& d, const Vec3& p) {
  const Vec3 l = inv * (p - d);
  return {l[0], l[1], l[2], 1.0 - l.sum()};
}

struct TetGrid {
  Vec3 origin;
  double cell = 1.0;
  Eigen::Vector3i dims;
  std::vector<std::vector<int>> cells;

  Eigen::Vector3i index(const Vec3& p) const {
    Eigen::Vector3i i;
    for (int k = 0; k < 3; ++k)
      i[k] = std::clamp(static_cast<int>(std::floor((p[k] - origin[k]) / cell)), 0, dims[k] - 1);
    return i;
  }
  int flat(const Eigen::Vector3i& i) const { return (i[2] * dims[1] + i[1]) * dims[0] + i[0]; }
};

TetGrid build_grid(const TetMesh& mesh) {
  TetGrid grid;
  const Vec3 lo = mesh.vertices.colwise().minCoeff().transpose();
  const Vec3 hi = mesh.vertices.colwise().maxCoeff().transpose();
  const Vec3 extent = (hi - lo).cwiseMax(1e-12);
  // About one tet per cell on average, and at most ~1e6 cells.
  const double volume = extent.prod();
  const double n = std::clamp<double>(mesh.num_tets(), 1.0, 1e6);
  grid.cell = std::max(std::cbrt(volume / n), extent.maxCoeff() / 100.0);
  grid.origin = lo;
  for (int k = 0; k < 3; ++k)
    grid.dims[k] = std::max(1, static_cast<int>(std::ceil(extent[k] / grid.cell)));
  grid.cells.resize(static_cast<size_t>(grid.dims.prod()));
  for (int t = 0; t < mesh.num_tets(); ++t) {
    Vec3 tlo = mesh.vertices.row(mesh.tets(t, 0)).transpose(), thi = tlo;
    for (int a = 1; a < 4; ++a) {
      tlo = tlo.cwiseMin(mesh.vertices.row(mesh.tets(t, a)).transpose());
      thi = thi.cwiseMax(mesh.vertices.row(mesh.tets(t, a)).transpose());
    }
    const Eigen::Vector3i i0 = grid.index(tlo), i1 = grid.index(thi);
    for (int z = i0[2]; z <= i1[2]; ++z)
      for (int y = i0[1]; y <= i1[1]; ++y)
        for (int x = i0[0]; x <= i1[0]; ++x) grid.cells[grid.flat({x, y, z})].push_back(t);
  }
  return grid;
}

}  // namespace

Vec3 closest_point_on_tet(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c,
                          const Vec3& d) {
  Mat3 T;
  T << a - d, b - d, c - d;
  const Eigen::Vector4d l = barycentric(T.inverse(), d, p);
  if (l.minCoeff() >= 0.0) return p;
  double best = std::numeric_limits<double>::infinity();
  Vec3 closest = p;
  const Vec3* v[4] = {&a, &b, &c, &d};
  for (int skip = 0; skip < 4; ++skip) {
    const Vec3* f[3];
    for (int k = 0, j = 0; k < 4; ++k)
      if (k != skip) f[j++] = v[k];
    const Vec3 on_face = closest_on_triangle(p, *f[0], *f[1], *f[2]);
    const double dist = (p - on_face).norm();
    if (dist < best) {
      best = dist;
      closest = on_face;
    }
  }
  return closest;
}

double point_tet_distance(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c,
                          const Vec3& d) {
  return (p - closest_point_on_tet(p, a, b, c, d)).norm();
}

namespace {

/// The mesh's tets prepared for locating points: inverse edge matrices for barycentric
/// coordinates, a grid and an AABB tree of the tets, and their bounding boxes.
struct TetLocator {
  explicit TetLocator(const TetMesh& m)
      : mesh(m),
        inverse(static_cast<size_t>(m.num_tets())),
        grid(build_grid(m)),
        tree(tet_boxes(m)),  // points outside: the tets near them
        lower(m.num_tets(), 3),
        upper(m.num_tets(), 3) {
    const int nt = mesh.num_tets();
    for (int t = 0; t < nt; ++t) {
      const Vec3 d = mesh.vertices.row(mesh.tets(t, 3)).transpose();
      Mat3 T;
      for (int a = 0; a < 3; ++a) T.col(a) = mesh.vertices.row(mesh.tets(t, a)).transpose() - d;
      inverse[static_cast<size_t>(t)] = T.inverse();
    }
    for (int t = 0; t < nt; ++t) {
      lower.row(t) = mesh.vertices.row(mesh.tets(t, 0));
      upper.row(t) = lower.row(t);
      for (int a = 1; a < 4; ++a) {
        lower.row(t) = lower.row(t).cwiseMin(mesh.vertices.row(mesh.tets(t, a)));
        upper.row(t) = upper.row(t).cwiseMax(mesh.vertices.row(mesh.tets(t, a)));
      }
    }
    scale = nt > 0
                ? (mesh.vertices.colwise().maxCoeff() - mesh.vertices.colwise().minCoeff()).norm()
                : 1.0;
  }

  Eigen::Vector4d bary(int t, const Vec3& p) const {
    return barycentric(inverse[static_cast<size_t>(t)],
                       mesh.vertices.row(mesh.tets(t, 3)).transpose(), p);
  }
  Vec3 v(int t, int a) const { return Vec3(mesh.vertices.row(mesh.tets(t, a)).transpose()); }
  double window_of(double d) const { return d + std::max(kTieFraction * d, 1e-12 * scale); }
  double box_distance(int t, const Vec3& p) const {
    const Vec3 below = lower.row(t).transpose() - p;
    const Vec3 above = p - upper.row(t).transpose();
    return below.cwiseMax(above).cwiseMax(0.0).norm();
  }
  double tet_distance(int t, const Vec3& p) const {
    return point_tet_distance(p, v(t, 0), v(t, 1), v(t, 2), v(t, 3));
  }

  const TetMesh& mesh;
  std::vector<Mat3> inverse;
  TetGrid grid;
  AabbTree tree;
  MatX3 lower, upper;  // the tets' bounding boxes
  double scale = 1.0;
};

/// The tets near a point outside the mesh: (tet, distance) within the near-tie window of the
/// nearest, in index order, and the nearest distance.
struct NearTets {
  std::vector<std::pair<int, double>> near;
  double nearest = std::numeric_limits<double>::infinity();
};

/// The tets near p; `best` becomes the nearest (the lowest index among equals).
NearTets near_tets(const TetLocator& loc, const Vec3& p, int& best) {
  // The exact distance only where the tet's bounding box, a lower bound, is near enough:
  // tets in order of their box distance, until it exceeds the nearest distance (then the
  // near-tie window). The same tets, distances and ties as trying every tet.
  // An upper bound of the nearest distance: the nearest tet of the point's grid cell, or,
  // when that cell holds none, of the tet with the nearest box (a scan of every box).
  double upper = std::numeric_limits<double>::infinity();
  for (int t : loc.grid.cells[loc.grid.flat(loc.grid.index(p))])
    upper = std::min(upper, loc.tet_distance(t, p));
  if (!std::isfinite(upper)) {
    int box_nearest = 0;
    double nearest_box = loc.box_distance(0, p);
    for (int t = 1; t < loc.mesh.num_tets(); ++t)
      if (const double b = loc.box_distance(t, p); b < nearest_box) {
        nearest_box = b;
        box_nearest = t;
      }
    upper = loc.tet_distance(box_nearest, p);
  }
  // Only tets whose box lies within that bound's window can matter (a few): the tree finds
  // them, sorted by box distance.
  const double bound = loc.window_of(upper);
  std::vector<std::pair<double, int>> by_box;
  loc.tree.for_each_overlap(Aabb{p - Vec3::Constant(bound), p + Vec3::Constant(bound)}, [&](int t) {
    if (const double b = loc.box_distance(t, p); b <= bound) by_box.emplace_back(b, t);
  });
  std::sort(by_box.begin(), by_box.end());
  NearTets n;  // (tet, distance) within the window
  for (const auto& [lower_bound, t] : by_box) {
    if (lower_bound > loc.window_of(n.nearest)) break;
    const double d = loc.tet_distance(t, p);
    n.near.emplace_back(t, d);
    if (d < n.nearest || (d == n.nearest && t < best)) {  // the lowest index among equals
      n.nearest = d;
      best = t;
    }
  }
  std::sort(n.near.begin(), n.near.end());  // index order, as a loop over every tet
  return n;
}

/// Embeds point i, p, outside every tet (`best`: the grid's least-outside tet); true when
/// it was clamped (its row of e written), false when `best` is the tet to extrapolate from.
bool embed_outside_point(const TetLocator& loc, const Vec3& p, int i, int& best, Embedding& e) {
  // Outside every tet. The distance to the nearest tets (their closest points); among the
  // near-ties, within half as far again as the nearest, the tet whose
  // extrapolation is best conditioned: the smallest gain sum_a |w_a| (1 inside a tet; near a
  // sliver's face it grows like distance / sliver height). Extrapolating a little further
  // from a well-shaped tet beats extrapolating from a sliver, whose weights blow up.
  const NearTets n = near_tets(loc, p, best);
  // (A degenerate tet's weights are not finite: it never wins over the nearest.)
  const double window = loc.window_of(n.nearest);
  double best_gain = loc.bary(best, p).cwiseAbs().sum();
  double d_best = n.nearest;
  for (const auto& [t, d] : n.near) {
    if (d > window) continue;
    const double gain = loc.bary(t, p).cwiseAbs().sum();
    if (std::isfinite(gain) && !(gain >= best_gain)) {
      best_gain = gain;
      best = t;
      d_best = d;
    }
  }
  if (d_best > 0.0) {
    ++e.num_outside;
    e.max_outside_distance = std::max(e.max_outside_distance, d_best);
  }
  e.max_extrapolation_gain = std::max(e.max_extrapolation_gain, best_gain);
  if (!(best_gain > kMaxExtrapolationGain)) return false;
  // Clamp: the tet's closest point (weights in [0, 1]), which moves the point by d_best but
  // never amplifies the tet's values; no longer exact for affine fields.
  const Vec3 c =
      closest_point_on_tet(p, loc.v(best, 0), loc.v(best, 1), loc.v(best, 2), loc.v(best, 3));
  Eigen::Vector4d w = loc.bary(best, c).cwiseMax(0.0);
  w /= w.sum();
  ++e.num_clamped;
  e.tet[static_cast<size_t>(i)] = best;
  e.weights.row(i) = w.transpose();
  return true;
}

}  // namespace

Embedding embed_points(const TetMesh& mesh, const MatX3& points) {
  const TetLocator loc(mesh);
  Embedding e;
  const int np = static_cast<int>(points.rows());
  e.tet.assign(static_cast<size_t>(np), -1);
  e.weights.resize(np, 4);
  const double inside_tol = -1e-10;
  for (int i = 0; i < np; ++i) {
    const Vec3 p = points.row(i).transpose();
    // Inside the containing tet, or the tet of the cell where it is least outside.
    int best = -1;
    double best_min = -std::numeric_limits<double>::infinity();
    for (int t : loc.grid.cells[loc.grid.flat(loc.grid.index(p))]) {
      const double m = loc.bary(t, p).minCoeff();
      if (m > best_min) {
        best_min = m;
        best = t;
      }
      if (m >= inside_tol) break;
    }
    if ((best < 0 || best_min < inside_tol) && embed_outside_point(loc, p, i, best, e)) continue;
    e.tet[static_cast<size_t>(i)] = best;
    e.weights.row(i) = loc.bary(best, p).transpose();
  }
  return e;
}

MatX3 Embedding::interpolate(const TetMesh& mesh, const MatX3& vertex_values) const {
  MatX3 out(num_points(), 3);
  for (int i = 0; i < num_points(); ++i) {
    const int t = tet[static_cast<size_t>(i)];
    Eigen::RowVector3d value = Eigen::RowVector3d::Zero();
    for (int a = 0; a < 4; ++a) value += weights(i, a) * vertex_values.row(mesh.tets(t, a));
    out.row(i) = value;
  }
  return out;
}

VecX Embedding::interpolate_flat(const TetMesh& mesh, const VecX& vertex_values) const {
  VecX out(3 * num_points());
  for (int i = 0; i < num_points(); ++i) {
    const int t = tet[static_cast<size_t>(i)];
    Vec3 value = Vec3::Zero();
    for (int a = 0; a < 4; ++a)
      value += weights(i, a) * vertex_values.segment<3>(3 * mesh.tets(t, a));
    out.segment<3>(3 * i) = value;
  }
  return out;
}

}  // namespace simrun
