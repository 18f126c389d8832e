#pragma once
/// The discrete mechanical system integrators work on: potential energy terms, mass, Rayleigh
/// damping and Dirichlet constraints (DOF elimination). Integrator-facing vectors (q, v, g) are
/// over free DOFs; matrices share one free-DOF sparsity pattern (the tets' couplings plus the
/// terms' stencils) so linear combinations such as M + h D + h^2 K are sums of value arrays
/// (core/pattern_algebra.hpp). When a term's stencils change (pattern_version), the pattern, the
/// mass and the rest stiffness are rebuilt and every term is bound again; pattern_version()
/// tells holders of pattern-shaped matrices that they must conform them again.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/symmetric_product.hpp"
#include "fem/dof_map.hpp"
#include "fem/tet_elements.hpp"
#include "fem/tet_pattern.hpp"
#include "model/energy_term.hpp"

namespace simrun {

/// Rayleigh damping D = alpha M + beta K, with K the rest stiffness or the current one.
struct RayleighDamping {
  double mass = 0.0;       ///< alpha [1/s]
  double stiffness = 0.0;  ///< beta [s]
  bool stiffness_at_rest = true;
};

/// A system's linear and angular momentum (Model::momentum).
struct Momentum {
  Vec3 linear = Vec3::Zero();   ///< [kg m/s]
  Vec3 angular = Vec3::Zero();  ///< about the origin [kg m^2/s]
};

class Model {
 public:
  /// rest: n x 3 rest positions; elements: the tets (for mass and the matrix pattern);
  /// density: per element [kg/m^3]; terms: potential energy terms (bound here to the pattern).
  Model(const MatX3& rest, const TetElements& elements, const VecX& density, bool lumped_mass,
        DofMap dofs, std::vector<std::unique_ptr<EnergyTerm>> terms, RayleighDamping damping);
  /// The general form: objects may have no tets (mass-spring graphs). `point_mass` (full 3n,
  /// may be empty) adds lumped point masses [kg] per DOF on top of the tets' mass.
  Model(const MatX3& rest, const TetElements& elements, const VecX& density, bool lumped_mass,
        const VecX& point_mass, DofMap dofs, std::vector<std::unique_ptr<EnergyTerm>> terms,
        RayleighDamping damping);

  int num_free() const { return m_dofs.num_free(); }
  int num_vertices() const { return static_cast<int>(m_rest.size() / 3); }
  const DofMap& dofs() const { return m_dofs; }
  const VecX& rest_positions() const { return m_rest; }

  /// Full positions (3n) for free positions q, constrained DOFs at their prescribed values.
  VecX full_positions(const VecX& q) const;
  /// Holds the constrained DOFs at the entries of `x` (full 3n; default: the rest positions).
  void set_constrained_positions(const VecX& x) {
    set_constrained_state(x, m_constrained_velocity);
  }
  /// Prescribed positions and velocities of the constrained DOFs (full 3n vectors; the free
  /// entries are ignored). The velocities only enter full_velocities() and the kinetic energy.
  void set_constrained_state(const VecX& x, const VecX& v);
  /// Full velocities (3n) for free velocities v, constrained DOFs at their prescribed velocity.
  VecX full_velocities(const VecX& v) const;
  /// Changes which vertices are constrained (e.g. a release): rebuilds the DOF map, the matrix
  /// pattern, the mass and the terms' bindings. Free-DOF vectors and matrices taken before are
  /// invalid afterwards (map states through full_positions / full_velocities).
  void set_fixed_vertices(const std::vector<int>& fixed);
  /// Sets the time of time-dependent loads (wind) for the next evaluations.
  void set_time(double t);
  /// Increments whenever U(q) may have changed as a function of q: prescribed positions moved,
  /// the time changed for a time-dependent term, or the pattern (a release) was rebuilt. While it
  /// holds, a quadratic U is exactly U(q_ref) + g_ref (q - q_ref) + 1/2 |q - q_ref|_K^2.
  long potential_version() const { return m_potential_version; }

  /// The terms' protocol (model/energy_term.hpp) over free DOFs: start of a time step at q,
  /// a new Newton iterate, line-search begin and end.
  void begin_step(const VecX& q);
  void on_iterate(const VecX& q);
  /// EnergyTerm::update_lagged on every term at q; true when any term updated.
  bool update_lagged(const VecX& q);
  /// EnergyTerm::update_multipliers on every term at q; true when any constraint was not met.
  bool update_multipliers(const VecX& q);
  void begin_line_search(const VecX& q);
  void end_line_search(const VecX& q);
  /// Largest alpha in [0, 1] such that q + s dq is admissible for every term, 0 <= s <= alpha.
  double max_feasible_step(const VecX& q, const VecX& dq) const;
  /// False when some term finds q inadmissible (intersecting, inverted).
  /// Every term's add_step_stats (contact counters), after a taken step.
  void add_step_stats(StepStats& stats) const {
    for (const auto& term : m_terms) term->add_step_stats(stats);
  }
  bool is_valid(const VecX& q) const;
  /// Sum of the terms' energy_magnitude at q: the scale of U(q)'s rounding error over eps.
  double energy_magnitude(const VecX& q) const;

  /// Rebuilds the pattern when some term's stencils changed since the last build; true if so.
  bool refresh_pattern();
  /// Increments whenever the system pattern (and so mass(), pattern()) is rebuilt.
  long pattern_version() const { return m_pattern_version; }
  /// Free part of a full vector.
  VecX restrict_vector(const VecX& full) const { return m_dofs.restrict_vector(full); }

  /// Total potential energy U(q).
  double potential_energy(const VecX& q) const;
  /// g = dU/dq over free DOFs (the force is -g).
  void potential_gradient(const VecX& q, VecX& g) const;
  /// K = d2U/dq2 over free DOFs, written into the shared pattern (K takes the pattern if it has
  /// another one). Refreshes the pattern first when a term's stencils changed.
  void stiffness(const VecX& q, SpMat& K, bool project_psd);
  /// g = dU/dq and the gradient of the FEM elastic terms alone (energy.csv column "elastic":
  /// the internal force EigenFit corrects, without gravity, loads, springs or contact), in one
  /// pass over the terms.
  void potential_gradient(const VecX& q, VecX& g, VecX& g_elastic) const;
  /// The stiffness of the elastic terms alone, element Hessians PSD-projected when asked
  /// (EigenFit's modes: Chen et al. 2019 (EigenFit), Sec. 3.3.1).
  void elastic_stiffness(const VecX& q, SpMat& K, bool project_psd = false);
  /// stiffness(q, K, false) and elastic_stiffness(q, K_elastic_psd, true) in one pass over the
  /// elements (EnergyTerm::add_hessian_pair): EigenFit's per-step pair.
  void stiffness_and_projected_elastic(const VecX& q, SpMat& K, SpMat& K_elastic_psd);
  /// Gradient and stiffness of every term except the elastic ones (gravity, springs, obstacles,
  /// wind): what an integrator that treats the elastic force itself adds on top
  /// (integrate/reversible_corotated.hpp).
  void non_elastic_gradient(const VecX& q, VecX& g) const;
  void non_elastic_stiffness(const VecX& q, SpMat& K, bool project_psd = false);
  /// A quadrature of the elastic terms' Hessian (the multilevel solver's cubature, Trusty et al.
  /// Sec. 3.8): one weight vector per elastic term, in term order, with one weight per element
  /// (w_k / V_k; 0 for elements not sampled). Throws std::invalid_argument on a size mismatch.
  void set_elastic_cubature(std::vector<VecX> weights);
  bool has_elastic_cubature() const { return !m_elastic_cubature.empty(); }
  /// sum over the elastic terms of sum_e weight_e H_e (EnergyTerm::add_weighted_hessian).
  void cubature_elastic_stiffness(const VecX& q, SpMat& K, bool project_psd);
  static constexpr const char* kElasticTermName = "elastic";
  /// K of the elastic terms at the full rest configuration (constrained DOFs at rest too, not at
  /// their prescribed positions): the rest state of EigenFit's ratios.
  void rest_elastic_stiffness(SpMat& K);
  /// The material stiffness of MSSI (EnergyTerm::add_material_hessian) into the shared pattern.
  void material_stiffness(const VecX& q, SpMat& K);
  /// True when every term is quadratic: K is constant.
  bool is_quadratic() const;

  /// The potential terms, for computations over their data (viscous damping reads the elastic
  /// terms' elements and materials).
  const std::vector<std::unique_ptr<EnergyTerm>>& terms() const { return m_terms; }

  const SpMat& mass() const { return m_mass; }
  /// Row-sum lumped masses of the free DOFs (for residual norms).
  const VecX& lumped_mass() const { return m_lumped_free; }
  /// A matrix with the shared pattern (the mass matrix: use its structure, not its values).
  const SpMat& pattern() const { return m_mass; }

  const RayleighDamping& damping() const { return m_damping; }
  bool has_damping() const { return m_damping.mass != 0.0 || m_damping.stiffness != 0.0; }
  /// True when D does not change during the run.
  bool damping_is_constant() const {
    return m_damping.stiffness == 0.0 || m_damping.stiffness_at_rest || is_quadratic();
  }
  /// D = alpha M + beta K, with K = current_stiffness unless damping uses the rest stiffness.
  void damping_matrix(const SpMat& current_stiffness, SpMat& D) const;
  /// D at q: assembles K(q) into `stiffness_work` only when the damping uses the current
  /// stiffness (projected if asked), then damping_matrix().
  void damping_matrix_at(const VecX& q, bool project_psd, SpMat& stiffness_work, SpMat& D) {
    if (!m_damping.stiffness_at_rest && m_damping.stiffness != 0.0) {
      stiffness(q, stiffness_work, project_psd);
    }
    damping_matrix(stiffness_work, D);
  }

  /// 1/2 v^T M v over the free DOFs (what integrators conserve).
  /// True when M is the row-sum lumped (diagonal) mass: then M = diag(lumped_mass()).
  bool mass_is_lumped() const { return m_lumped; }
  /// M x over free DOFs; a diagonal scaling when the mass is lumped (M is stored in the full
  /// system pattern, where a sparse product would walk ~80 stored zeros per row).
  VecX apply_mass(const VecX& x) const {
    return m_lumped ? VecX(m_lumped_free.cwiseProduct(x)) : symmetric_product(m_mass, x);
  }
  /// M X for a block of columns X (one pass over M).
  MatX apply_mass_block(const MatX& X) const {
    return m_lumped ? MatX(m_lumped_free.asDiagonal() * X) : symmetric_product_block(m_mass, X);
  }
  /// 1/2 v^T M v over the free DOFs: a diagonal sum for lumped mass; for consistent mass an
  /// element sum, 1/2 rho V / 20 (sum_a |v_a|^2 + |sum_a v_a|^2) per tet (M_ab = rho V (1 +
  /// delta_ab) / 20, fem/mass.hpp), which reads 4 velocities per tet instead of the ~80
  /// entries per row of M.
  double kinetic_energy(const VecX& v) const;
  /// Kinetic energy of the prescribed motion of the constrained DOFs, with their lumped masses
  /// (consistent-mass couplings between free and constrained DOFs are left out).
  double constrained_kinetic_energy() const;
  /// Linear momentum P = sum_i p_i and angular momentum about the origin L = sum_i x_i x p_i,
  /// with p = M v over all DOFs (free and prescribed velocities, every mass coupling) and x the
  /// full positions: for a consistent mass, per tet p_a = rho V / 20 (v_a + sum_b v_b), so
  /// L_e = rho V / 20 (sum_a x_a x v_a + (sum_a x_a) x (sum_b v_b)) (fem/mass.hpp); P equals
  /// the lumped-mass momentum since M's rows sum to the lumped masses.
  Momentum momentum(const VecX& q, const VecX& v) const;
  /// (name, value) for kinetic (free + constrained_kinetic_energy) and every potential term,
  /// in energy.csv column order.
  std::vector<std::pair<std::string, double>> energies(const VecX& q, const VecX& v) const;

 private:
  void build_matrices();
  /// K = sum over terms of add_term(term, x, K values), in the shared pattern.
  template <class AddTerm>
  void assemble_hessian(const VecX& q, SpMat& K, const AddTerm& add_term);
  std::vector<long> term_pattern_versions() const;

  VecX m_rest;
  VecX m_constrained;  ///< full vector whose constrained entries are the prescribed positions
  VecX m_constrained_velocity;  ///< likewise for their velocities (zero unless moving)
  TetElements m_elements;       ///< tets and volumes, to rebuild the pattern and mass on a release
  VecX m_density;
  bool m_lumped = true;
  VecX m_lumped_full;  ///< lumped mass per full DOF [kg] (tets + point masses)
  VecX m_point_mass;   ///< point masses per full DOF [kg] (zero without particles)
  DofMap m_dofs;
  std::vector<std::unique_ptr<EnergyTerm>> m_terms;
  std::vector<VecX> m_elastic_cubature;  ///< per elastic term (set_elastic_cubature)
  RayleighDamping m_damping;
  SpMat m_mass;
  VecX m_lumped_free;
  SpMat m_rest_stiffness;  ///< filled when damping uses it
  long m_pattern_version = 0;
  long m_potential_version = 0;
  std::vector<long> m_term_versions;  ///< the terms' pattern_version() at the last build
};

}  // namespace simrun
