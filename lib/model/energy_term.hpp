#pragma once
/// One named term of the potential energy (elastic, gravity, springs, wind, later contact...).
///
/// Positions x are full (3n, constrained DOFs at their prescribed values); gradients are full;
/// Hessians are written into the free-DOF system pattern the term was bound to. Besides energy,
/// gradient and Hessian, a term takes part in the solver's protocol through hooks that do
/// nothing by default (the PolyFEM "form" protocol; contact, friction and lagged terms need them):
///
///   per time step     set_time(t_next), begin_step(x_n)            (lagged quantities)
///   per Newton iterate on_iterate(x)                               (active sets)
///   per line search   begin_line_search(x), max_feasible_step(x, dx), is_valid(x_trial),
///                     end_line_search(x_accepted)
///   pattern           add_stencils(), pattern_version()            (changing couplings)
#include <map>
#include <string>

#include "core/step_stats.hpp"
#include "core/types.hpp"
#include "fem/dof_map.hpp"
#include "fem/tet_pattern.hpp"

namespace simrun {

class EnergyTerm {
 public:
  virtual ~EnergyTerm() = default;
  /// Column name in energy.csv.
  virtual std::string name() const = 0;
  virtual double energy(const VecX& x) const = 0;
  /// g += dE/dx (full space).
  virtual void add_gradient(const VecX& x, VecX& g) const = 0;
  /// Precomputes where the term's Hessian entries go in `pattern` (free DOFs). Called again
  /// whenever the pattern changes (a release, a term's new stencils).
  virtual void bind(const SpMat& pattern, const DofMap& dofs) = 0;
  /// values += d2E/dx2 restricted to free DOFs, into the bound pattern's value array. With
  /// project_psd, each element contribution is projected to be positive semidefinite.
  virtual void add_hessian(const VecX& x, double* values, bool project_psd) const = 0;
  /// values += d2E/dx2 and projected_values += its per-element PSD projection (what
  /// add_hessian adds with project_psd = false and true), in one pass where the term can share
  /// the work (EigenFit's projected elastic stiffness beside the integrator's). The default
  /// makes the two calls.
  virtual void add_hessian_pair(const VecX& x, double* values, double* projected_values) const {
    add_hessian(x, values, /*project_psd=*/false);
    add_hessian(x, projected_values, /*project_psd=*/true);
  }
  /// True when the Hessian does not depend on x (quadratic energy).
  virtual bool is_quadratic() const = 0;
  /// values += the material part of the Hessian (MSSI, Chen thesis Ch. 5): terms whose
  /// stiffness splits into a material and a geometric part (springs) leave the geometric one
  /// out; the default is the full, unprojected Hessian.
  virtual void add_material_hessian(const VecX& x, double* values) const {
    add_hessian(x, values, /*project_psd=*/false);
  }
  /// Terms integrated over elements: their count (0 for the others).
  virtual int element_count() const { return 0; }
  /// values += sum_e weight[e] H_e, a quadrature of the Hessian with one weight per element
  /// (the multilevel solver's cubature Hessian, Trusty et al. Sec. 3.8: weight = w_k / V_k, 0 for
  /// elements the rule does not sample). Terms without elements ignore the weights and add their
  /// full Hessian.
  virtual void add_weighted_hessian(const VecX& x, const VecX& /*weight*/, double* values,
                                    bool project_psd) const {
    add_hessian(x, values, project_psd);
  }

  /// Size of the rounding error of energy(x): the sum of the magnitudes of the quantities whose
  /// rounding errors add up in it, in joules. Line searches compare energy changes against
  /// (a small multiple of) eps times this, not eps |E|: E is computed by cancellation (element
  /// energies of opposite-sign parts, positions minus rest positions), so its rounding error can
  /// exceed eps |E| by orders of magnitude. The default, |E| + sum_i |dE/dx_i| |x_i|, covers
  /// sums of per-DOF terms (the second part is the error from rounding x itself); terms whose
  /// assembled gradient cancels between elements override it with per-element sums.
  virtual double energy_magnitude(const VecX& x) const;

  /// Time-dependent loads (wind) take the time at which the next step's forces act.
  virtual void set_time(double /*t*/) {}
  /// True when energy(x) changes with the time given to set_time (gusting or swaying wind).
  virtual bool depends_on_time() const { return false; }
  /// Start of a time step at positions x (update lagged quantities: friction bases, the barrier
  /// stiffness, a lagged Hessian).
  virtual void begin_step(const VecX& /*x*/) {}
  /// Newton accepted a new iterate x (update active sets: contact pairs).
  virtual void on_iterate(const VecX& /*x*/) {}
  /// Re-evaluates quantities the term lags over a step (IPC friction's normal forces and
  /// tangent bases) at x, the converged iterate; true when it did (the step is then solved
  /// again). Most terms lag nothing.
  virtual bool update_lagged(const VecX& /*x*/) { return false; }
  /// Augmented-Lagrangian terms: at x, a converged iterate, update the multipliers when the
  /// constraint is not met to the term's tolerance and return true (the step is then solved
  /// again); false when it is met. Most terms have no multipliers.
  virtual bool update_multipliers(const VecX& /*x*/) { return false; }
  /// A line search starts from x.
  virtual void begin_line_search(const VecX& /*x*/) {}
  /// The line search accepted x.
  virtual void end_line_search(const VecX& /*x*/) {}
  /// Largest alpha in [0, 1] such that every x + s dx, 0 <= s <= alpha, is admissible for this
  /// term (collision-free, inversion-free); dx is a full vector (zero on constrained DOFs).
  virtual double max_feasible_step(const VecX& /*x*/, const VecX& /*dx*/) const { return 1.0; }
  /// False when x is not an admissible state for this term (intersecting, inverted).
  virtual bool is_valid(const VecX& /*x*/) const { return true; }
  /// Adds what the term saw during the last step to stats.csv's counters (contact pairs, the
  /// smallest distance, ...); called after each taken step.
  virtual void add_step_stats(StepStats& /*stats*/) const {}
  /// Vertex groups whose DOFs the Hessian couples beyond the mesh's tets (springs, contact).
  virtual void add_stencils(StencilList& /*stencils*/) const {}
  /// Changes whenever add_stencils() would answer differently: the model then rebuilds the
  /// system pattern (one new symbolic analysis) and binds every term again.
  virtual long pattern_version() const { return 0; }
  /// Numbers the term carries from one step to the next (checkpoints save them, by name), and
  /// their restoration; most terms carry none.
  virtual std::map<std::string, double> persistent_state() const { return {}; }
  virtual void restore_state(const std::map<std::string, double>& /*state*/) {}
};

}  // namespace simrun
