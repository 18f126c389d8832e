#include "contact/contact_barrier.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <limits>

#include "contact/barrier.hpp"
#include "contact/broad_phase.hpp"
#include "contact/ccd.hpp"
#include "contact/distance.hpp"
#include "contact/stencil_scatter.hpp"
#include "core/timer.hpp"

namespace simrun {

namespace {
using Vec12 = Eigen::Matrix<double, 12, 1>;
using Mat12x12 = Eigen::Matrix<double, 12, 12>;

Vec3 point(const VecX& x, int v) { return x.segment<3>(3 * v); }

/// The nearest PSD matrix (eigenvalues clamped at 0): IPC projects every pair's Hessian.
Mat12x12 project_to_psd(const Mat12x12& H) {
  const Eigen::SelfAdjointEigenSolver<Mat12x12> eig(H);
  const auto& values = eig.eigenvalues();
  if (values.minCoeff() >= 0.0) return H;
  return eig.eigenvectors() * values.cwiseMax(0.0).asDiagonal() * eig.eigenvectors().transpose();
}

/// Fraction of the distance that CCD keeps as a gap (additive CCD's target; Li et al. 2021).
constexpr double kCcdMinDistanceFraction = 0.0;
}  // namespace

double automatic_barrier_stiffness(double average_mass, double dhat, double bbox_diagonal,
                                   double dt) {
  const double d0 = (1e-8 * bbox_diagonal) * (1e-8 * bbox_diagonal);
  return 1e11 * average_mass / (4.0 * d0 * barrier_second_derivative(d0, dhat * dhat)) / (dt * dt);
}

ContactBarrier::ContactBarrier(CollisionMesh mesh, std::vector<ContactPlane> planes,
                               BarrierSettings settings, const VecX& rest)
    : m_mesh(std::move(mesh)), m_planes(std::move(planes)), m_settings(settings) {
  m_edge_eps.resize(m_mesh.edges.size());
  for (size_t e = 0; e < m_mesh.edges.size(); ++e)
    m_edge_eps[e] =
        (point(rest, m_mesh.edges[e][0]) - point(rest, m_mesh.edges[e][1])).squaredNorm();
  m_step_min_distance = m_settings.dhat;
}

std::vector<ContactBarrier::Pair> ContactBarrier::active_pairs(const VecX& x,
                                                               double* min_distance) const {
  Separation unused;
  return active_pairs(x, min_distance, unused);
}

std::vector<ContactBarrier::Pair> ContactBarrier::active_pairs(const VecX& x, double* min_distance,
                                                               Separation& separation) const {
  std::vector<Pair> pairs;
  const double s_hat = m_settings.dhat * m_settings.dhat;
  double min_s = s_hat;
  const ContactCandidates& candidates = candidates_near(x);
  for (const auto& [entry, face] : candidates.vertex_face) {
    const int v = m_mesh.vertices[entry];
    const Stencil s = {v, m_mesh.faces(face, 0), m_mesh.faces(face, 1), m_mesh.faces(face, 2)};
    const double d2 = point_triangle_distance2(point(x, s[0]), point(x, s[1]), point(x, s[2]),
                                               point(x, s[3]), false)
                          .value;
    min_s = std::min(min_s, d2);
    if (d2 < s_hat) pairs.push_back({Pair::Kind::kVertexFace, s, -1, 0.0});
  }
  for (const auto& [a, b] : candidates.edge_edge) {
    const auto& ea = m_mesh.edges[a];
    const auto& eb = m_mesh.edges[b];
    const Stencil s = {ea[0], ea[1], eb[0], eb[1]};
    const double d2 =
        edge_edge_distance2(point(x, s[0]), point(x, s[1]), point(x, s[2]), point(x, s[3]), false)
            .value;
    min_s = std::min(min_s, d2);
    if (d2 < s_hat)
      pairs.push_back({Pair::Kind::kEdgeEdge, s, -1, 1e-3 * m_edge_eps[a] * m_edge_eps[b]});
  }
  separation.planes.assign(m_planes.size(), std::numeric_limits<double>::infinity());
  for (size_t p = 0; p < m_planes.size(); ++p)
    for (size_t entry = 0; entry < m_mesh.vertices.size(); ++entry) {
      if (vertex_is_static(entry)) continue;  // obstacle meshes and planes never meet
      const int v = m_mesh.vertices[entry];
      const double height = m_planes[p].normal.dot(point(x, v) - m_planes[p].point);
      const double d2 = height > 0.0 ? height * height : 0.0;
      separation.planes[p] = std::min(separation.planes[p], std::max(height, 0.0));
      if (d2 < s_hat)
        pairs.push_back({Pair::Kind::kVertexPlane, {v, -1, -1, -1}, static_cast<int>(p), 0.0});
    }
  separation.pairs = std::sqrt(min_s);
  double nearest_plane = m_settings.dhat;
  for (double h : separation.planes) nearest_plane = std::min(nearest_plane, h);
  if (min_distance) *min_distance = std::min(separation.pairs, nearest_plane);
  return pairs;
}

const std::vector<ContactBarrier::Pair>& ContactBarrier::pairs_at(const VecX& x,
                                                                  double* min_distance) const {
  if (m_cached_x.size() != x.size() || m_cached_x != x) {
    const Timer timer;
    m_cached_separation = Separation{};
    m_cached_pairs = active_pairs(x, &m_cached_min_distance, m_cached_separation);
    m_cached_x = x;
    m_times.pairs += timer.seconds();
  }
  if (min_distance) *min_distance = m_cached_min_distance;
  return m_cached_pairs;
}

double ContactBarrier::pair_energy(const Pair& pair, const VecX& x, Vec12* gradient,
                                   Mat12x12* hessian) const {
  const bool need_hessian = hessian != nullptr;
  const Stencil& v = pair.vertices;
  DistanceDerivatives d;
  switch (pair.kind) {
    case Pair::Kind::kVertexFace:
      d = point_triangle_distance2(point(x, v[0]), point(x, v[1]), point(x, v[2]), point(x, v[3]),
                                   need_hessian);
      break;
    case Pair::Kind::kEdgeEdge:
      d = edge_edge_distance2(point(x, v[0]), point(x, v[1]), point(x, v[2]), point(x, v[3]),
                              need_hessian);
      break;
    case Pair::Kind::kVertexPlane: {
      const ContactPlane& plane = m_planes[static_cast<size_t>(pair.plane)];
      if (!(plane.normal.dot(point(x, v[0]) - plane.point) > 0.0))
        return std::numeric_limits<double>::infinity();  // on or through the plane
      d = point_plane_distance2(point(x, v[0]), plane.point, plane.normal, need_hessian);
      break;
    }
  }
  const double s_hat = m_settings.dhat * m_settings.dhat;
  const double kappa = m_settings.kappa;
  const double b = barrier(d.value, s_hat);
  if (!std::isfinite(b)) return b;
  if (pair.kind != Pair::Kind::kEdgeEdge) {
    const double db = barrier_first_derivative(d.value, s_hat);
    if (gradient) *gradient = kappa * db * d.gradient;
    if (hessian)
      *hessian =
          kappa * (barrier_second_derivative(d.value, s_hat) * d.gradient * d.gradient.transpose() +
                   db * d.hessian);
    return kappa * b;
  }
  // Mollified edge-edge: kappa m b, with m -> 0 as the edges turn parallel (IPC Sec. 4.3).
  const Mollifier m = edge_edge_mollifier(point(x, v[0]), point(x, v[1]), point(x, v[2]),
                                          point(x, v[3]), pair.eps_x, need_hessian);
  const double db = barrier_first_derivative(d.value, s_hat);
  if (gradient) *gradient = kappa * (m.value * db * d.gradient + b * m.gradient);
  if (hessian) {
    const double ddb = barrier_second_derivative(d.value, s_hat);
    *hessian =
        kappa * (m.value * (ddb * d.gradient * d.gradient.transpose() + db * d.hessian) +
                 db * (d.gradient * m.gradient.transpose() + m.gradient * d.gradient.transpose()) +
                 b * m.hessian);
  }
  return kappa * m.value * b;
}

double ContactBarrier::energy(const VecX& x) const {
  const AssemblyClock clock(m_times);
  double e = 0.0;
  for (const Pair& pair : pairs_at(x)) {
    e += pair_energy(pair, x, nullptr, nullptr);
    if (!std::isfinite(e)) return std::numeric_limits<double>::infinity();
  }
  return e;
}

void ContactBarrier::add_gradient(const VecX& x, VecX& g) const {
  const AssemblyClock clock(m_times);
  Vec12 local;
  for (const Pair& pair : pairs_at(x)) {
    if (!std::isfinite(pair_energy(pair, x, &local, nullptr))) continue;
    for (int a = 0; a < 4; ++a)
      if (pair.vertices[a] >= 0) g.segment<3>(3 * pair.vertices[a]) += local.segment<3>(3 * a);
  }
}

void ContactBarrier::bind(const SpMat& pattern, const DofMap& dofs) {
  m_pattern = &pattern;
  m_dofs = &dofs;
}

void ContactBarrier::add_hessian(const VecX& x, double* values, bool project_psd) const {
  const AssemblyClock clock(m_times);
  Vec12 gradient;
  Mat12x12 hessian;
  for (const Pair& pair : pairs_at(x)) {
    if (!std::isfinite(pair_energy(pair, x, &gradient, &hessian))) continue;
    if (project_psd) hessian = project_to_psd(hessian);
    // Entries outside the pattern (a pair that became active after the last iterate's
    // stencils) are left out; on_iterate adds them to the pattern for the next assembly.
    scatter_stencil_block(*m_pattern, *m_dofs, pair.vertices, hessian, values);
  }
}

std::map<std::string, double> ContactBarrier::persistent_state() const {
  return {{"kappa", m_settings.kappa}};
}

void ContactBarrier::restore_state(const std::map<std::string, double>& state) {
  if (const auto it = state.find("kappa"); it != state.end()) m_settings.kappa = it->second;
}

void ContactBarrier::begin_step(const VecX& x) {
  m_times = ContactTimes{};
  m_step_min_distance = m_settings.dhat;
  m_step_ccd = 1.0;
  m_previous_min_distance = m_settings.dhat;
  // A new step's pattern starts from the pairs at x_n (pairs of earlier steps are dropped).
  const std::vector<Stencil> previous = std::move(m_stencils);
  m_stencils.clear();
  on_iterate(x);
  if (m_stencils != previous) ++m_pattern_version;
}

void ContactBarrier::on_iterate(const VecX& x) {
  double min_distance = 0.0;
  const std::vector<Pair>& pairs = pairs_at(x, &min_distance);
  m_step_contacts = static_cast<int>(pairs.size());
  m_step_min_distance = std::min(m_step_min_distance, min_distance);
  // IPC's adaptive stiffness: double kappa while the gap keeps closing below 1e-9 bbox.
  const double threshold = 1e-9 * m_settings.bbox_diagonal;
  if (m_previous_min_distance < threshold && min_distance < m_previous_min_distance)
    m_settings.kappa = std::min(2.0 * m_settings.kappa, m_settings.kappa_max);
  m_previous_min_distance = min_distance;
  std::vector<Stencil> stencils;
  for (const Pair& pair : pairs)
    if (pair.kind != Pair::Kind::kVertexPlane) stencils.push_back(pair.vertices);
  std::sort(stencils.begin(), stencils.end());
  // The pattern only grows within a step's iterates (a pair that leaves keeps its entries).
  std::vector<Stencil> merged;
  std::set_union(m_stencils.begin(), m_stencils.end(), stencils.begin(), stencils.end(),
                 std::back_inserter(merged));
  if (merged != m_stencils) {
    m_stencils = std::move(merged);
    ++m_pattern_version;
  }
}

namespace {
/// max_v |d_v - c| over the collision mesh's vertices, c the centre of the box of the d_v: half
/// the largest relative motion of two vertices (a common translation does not count).
double max_relative_motion(const CollisionMesh& mesh, const VecX& d) {
  if (mesh.vertices.empty()) return 0.0;
  Vec3 lo = Vec3::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (int v : mesh.vertices) {
    lo = lo.cwiseMin(point(d, v));
    hi = hi.cwiseMax(point(d, v));
  }
  const Vec3 c = 0.5 * (lo + hi);
  double r = 0.0;
  for (int v : mesh.vertices) r = std::max(r, (point(d, v) - c).norm());
  return r;
}
}  // namespace

const ContactCandidates& ContactBarrier::candidates_near(const VecX& x) const {
  // A Verlet list: candidates found with boxes grown by d_hat + margin at x_ref hold every pair
  // closer than d_hat at x while no two vertices moved apart by more than the margin
  // (2 max |x - x_ref - c| <= margin), since a pair missing from the list was farther than
  // d_hat + margin at x_ref.
  const double margin = m_settings.dhat;
  if (m_verlet_x.size() != x.size() || 2.0 * max_relative_motion(m_mesh, x - m_verlet_x) > margin) {
    m_verlet = find_candidates(m_mesh, x, m_settings.dhat + margin);
    m_verlet_x = x;
  }
  return m_verlet;
}

bool ContactBarrier::step_is_collision_free(const VecX& x, const VecX& dx) const {
  // Only where the last pair search was made (its separations hold at x).
  if (m_cached_x.size() != x.size() || m_cached_x != x) return false;
  // Additive CCD's bound (Li et al. 2021): a pair's distance shrinks by at most the relative
  // motion of its points, |dx_a - dx_b| <= |dx_a - c| + |dx_b - c| <= 2 max_v |dx_v - c| for
  // any c, here the centre of the box of the displacements (a translation costs nothing); a
  // vertex approaches a fixed plane by -n . dx_v. Pairs beyond the search's d_hat boxes are
  // farther than d_hat (separation.pairs is capped there).
  const Separation& s = m_cached_separation;
  if (!(2.0 * max_relative_motion(m_mesh, dx) < s.pairs)) return false;
  for (size_t p = 0; p < m_planes.size(); ++p) {
    double approach = 0.0;
    for (size_t entry = 0; entry < m_mesh.vertices.size(); ++entry)
      if (!vertex_is_static(entry))
        approach = std::max(approach, -m_planes[p].normal.dot(point(dx, m_mesh.vertices[entry])));
    if (!(approach < s.planes[p])) return false;
  }
  return true;
}

double ContactBarrier::max_feasible_step(const VecX& x, const VecX& dx) const {
  const Timer timer;
  if (step_is_collision_free(x, dx)) {
    ++m_ccd_skipped;
    m_times.ccd += timer.seconds();
    return 1.0;
  }
  double alpha = max_collision_free_step(m_mesh, x, dx, kCcdMinDistanceFraction);
  for (const ContactPlane& plane : m_planes)
    for (size_t entry = 0; entry < m_mesh.vertices.size(); ++entry) {
      if (vertex_is_static(entry)) continue;
      const int v = m_mesh.vertices[entry];
      alpha = std::min(alpha, point_plane_ccd(point(x, v), point(dx, v), plane.point, plane.normal,
                                              kCcdMinDistanceFraction));
    }
  m_step_ccd = std::min(m_step_ccd, alpha);
  m_times.ccd += timer.seconds();
  return alpha;
}

void ContactBarrier::add_stencils(StencilList& stencils) const {
  stencils.insert(stencils.end(), m_stencils.begin(), m_stencils.end());
}

void ContactBarrier::add_step_stats(StepStats& stats) const {
  stats.contacts = m_step_contacts;
  stats.min_distance = m_step_min_distance;
  stats.barrier_stiffness = m_settings.kappa;
  stats.ccd_step = m_step_ccd;
  stats.contact_pairs_s += m_times.pairs;
  stats.contact_ccd_s += m_times.ccd;
  stats.contact_assembly_s += m_times.assembly;
}

}  // namespace simrun
