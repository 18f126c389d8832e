#include "integrate/semi_implicit_euler.hpp"

#include "core/parallel.hpp"
#include "core/pattern_algebra.hpp"
#include "core/symmetric_product.hpp"
#include "solve/solver_meter.hpp"

namespace simrun {

SemiImplicitEuler::SemiImplicitEuler(const IntegratorSettings& settings)
    : m_solver(settings.linear_solver()), m_eigenfit(settings.eigenfit) {}

Status SemiImplicitEuler::refactor(Model& model, const State& state, double h, bool constant,
                                   StepStats& stats) {
  // EigenFit's modes are those of the projected elastic stiffness (update_eigenfit): when this
  // step needs it, one pass over the elements assembles it beside K. (The price: that matrix is
  // alive during the factorization, one more K-sized matrix at peak; EigenFit's meshes are the
  // coarse ones.)
  const bool modes_need_stiffness =
      m_eigenfit && m_eigenfit->needs_stiffness(constant, model.num_free());
  if (modes_need_stiffness)
    model.stiffness_and_projected_elastic(state.q, m_K, m_modes_stiffness);
  else {
    model.stiffness(state.q, m_K, /*project_psd=*/false);
    m_modes_stiffness = SpMat();  // not read: the modes are kept this step
  }
  // Peak memory matters on large meshes: D only with damping, and M + h D + h^2 K is built in
  // the storage of K once the operator applied every step has its copy.
  SpMat D;
  if (model.has_damping()) model.damping_matrix(m_K, D);
  if (constant) {
    m_product.assign(m_K, thread_count());
  } else {
    SpMat velocity_matrix = m_K;  // D + h K
    Eigen::Map<VecX>(velocity_matrix.valuePtr(), velocity_matrix.nonZeros()) *= h;
    if (model.has_damping()) add_scaled(velocity_matrix, 1.0, D);
    m_product.assign(velocity_matrix, thread_count());
  }
  SpMat& system = m_K;  // M + h D + h^2 K, in place
  Eigen::Map<VecX>(system.valuePtr(), system.nonZeros()) *= h * h;
  add_scaled(system, 1.0, model.mass());
  if (model.has_damping()) add_scaled(system, h, D);
  m_pattern_version = model.pattern_version();
  if (!m_adopt_potential_version) m_has_reference = false;
  Status status = m_solver->factorize(system);
  if (constant) m_K = SpMat();  // factorized once: only the operator copy is needed
  if (m_eigenfit && status == Status::kSuccess)
    status = update_eigenfit(model, state, constant, stats);
  if (m_eigenfit && status == Status::kSuccess) {
    // K' = K + Y Z^T, and D' = D + beta Y_d Z_d^T (eigenfit_correction.hpp): the matrix gains
    // h^2 Y Z^T + h beta Y_d Z_d^T (rank s, or 2s with rest-stiffness damping).
    MatX left, right;
    m_eigenfit->system_update(h * h, h, model.damping().stiffness, left, right);
    const Eigen::Index k = left.cols();
    status = m_corrected.setup(*m_solver, left, MatX::Identity(k, k), right);
    stats.solves += static_cast<int>(k);
  }
  m_factored = status == Status::kSuccess;
  m_factored_h = h;
  m_factored_constant = constant;  // m_product is K (constant path) or D + h K
  return status;
}

Status SemiImplicitEuler::update_eigenfit(Model& model, const State& state, bool constant,
                                          StepStats& stats) {
  // The modes are the elastic stiffness' (EigenFit eq. 13 corrects the elastic force only):
  // springs, contact or a penalty floor in K would shift them. Element Hessians projected to PSD
  // (Chen et al. 2019 (EigenFit), Sec. 3.3.1): no negative eigenvalues to fit. m_modes_stiffness
  // was assembled with K in refactor() when needs_stiffness() said so. After the factorization,
  // so that the subspace tracking between Lanczos solves can iterate with it.
  if (const Status s =
          m_eigenfit->update(model, state.q, m_modes_stiffness, constant, stats, m_solver.get());
      s != Status::kSuccess)
    return s;
  if (constant) {
    // The elastic force's own stiffness, for U^T g_elastic(q) between factorizations.
    SpMat elastic;
    model.elastic_stiffness(state.q, elastic);
    m_elastic_KU = symmetric_product_block(elastic, m_eigenfit->modes());
    m_modes_stiffness = SpMat();  // the modes are kept for the run
  }
  return Status::kSuccess;
}

Status SemiImplicitEuler::step(Model& model, State& state, double h, StepStats& stats) {
  model.refresh_pattern();  // a term's new stencils invalidate a kept factorization
  const bool constant = model.is_quadratic() && model.damping_is_constant();
  const SolverMeter meter(*m_solver, stats);
  if (!constant || !m_factored || h != m_factored_h || !m_factored_constant ||
      m_pattern_version != model.pattern_version()) {
    if (const Status s = refactor(model, state, h, constant, stats); s != Status::kSuccess)
      return s;
  }
  const RayleighDamping& damping = model.damping();
  if (m_eigenfit) stats.eigenpairs = m_eigenfit->size();
  if (constant) {
    // Quadratic U with the prescribed boundary and loads unchanged since q_ref: the force is
    // affine, g(q) = g_ref + K (q - q_ref), and with D = alpha M + beta K the right-hand side
    //   h (-g - D v - h K v) = -h (g_ref + K (q - q_ref + (beta + h) v) + alpha M v)
    // costs one product with K (no element loop), plus a diagonal one for lumped M.
    if (m_adopt_potential_version) m_potential_version = model.potential_version();
    m_adopt_potential_version = false;
    if (!m_has_reference || m_potential_version != model.potential_version()) {
      gradient(model, state.q);
      m_reduced_ref = m_reduced;
      m_q_ref = state.q;
      m_potential_version = model.potential_version();
      m_has_reference = true;
    }
    m_work = state.q - m_q_ref + (damping.stiffness + h) * state.v;
    m_product.multiply(m_work, m_rhs);
    if (damping.mass != 0.0) m_rhs += damping.mass * model.apply_mass(state.v);
    // U^T g_elastic(q) = U^T g_elastic(q_ref) + (K_elastic U)^T (q - q_ref).
    if (m_eigenfit) m_reduced = m_reduced_ref + m_elastic_KU.transpose() * (state.q - m_q_ref);
  } else {
    gradient(model, state.q);
    m_product.multiply(state.v, m_rhs);
  }
  m_rhs += m_g_ref;
  if (m_eigenfit && m_eigenfit->damping_shares_modes()) {
    // g' - g + (beta + h) Y Z^T v = Y (U^T g_elastic + (beta + h) Z^T v)  (eq. 15c, 16).
    const VecX y = m_reduced + (damping.stiffness + h) * (m_eigenfit->Z().transpose() * state.v);
    m_rhs += m_eigenfit->lift_correction(y);
  } else if (m_eigenfit) {
    // Rest-mode damping correction: Y (U^T g_elastic + h Z^T v) + beta Y_r Z_r^T v.
    const VecX y = m_reduced + h * (m_eigenfit->Z().transpose() * state.v);
    m_rhs += m_eigenfit->lift_correction(y);
    m_rhs += damping.stiffness * m_eigenfit->damping_correction(state.v);
  }
  m_rhs *= -h;
  if (m_eigenfit)
    m_corrected.solve(m_rhs, m_dv);
  else
    m_solver->solve(m_rhs, m_dv);
  if (!m_dv.allFinite()) return Status::kNumericalIssue;
  state.v += m_dv;
  state.q += h * state.v;
  state.t += h;
  return Status::kSuccess;
}

void SemiImplicitEuler::gradient(const Model& model, const VecX& q) {
  if (!m_eigenfit) {
    model.potential_gradient(q, m_g_ref);
    return;
  }
  VecX g_elastic;
  model.potential_gradient(q, m_g_ref, g_elastic);
  m_reduced = m_eigenfit->reduce(g_elastic);
}

IntegratorHistory SemiImplicitEuler::history() const {
  IntegratorHistory h;
  if (!m_has_reference) return h;
  h.vectors["q_ref"] = m_q_ref;
  h.vectors["g_ref"] = m_g_ref;
  if (m_eigenfit) h.vectors["reduced_ref"] = m_reduced_ref;
  return h;
}

void SemiImplicitEuler::restore_history(const IntegratorHistory& h) {
  const auto q = h.vectors.find("q_ref"), g = h.vectors.find("g_ref");
  if (q == h.vectors.end() || g == h.vectors.end()) return;
  m_q_ref = q->second;
  m_g_ref = g->second;
  if (const auto r = h.vectors.find("reduced_ref"); r != h.vectors.end()) m_reduced_ref = r->second;
  m_has_reference = true;
  m_adopt_potential_version = true;
}

}  // namespace simrun
