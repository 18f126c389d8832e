#pragma once
/// Kinematic vertices (moving obstacle meshes of IPC contact): free DOFs tied to their scripted
/// positions p_v(t) at the end of each step by the augmented Lagrangian of x_v = p_v(t)
/// (Li et al. 2020, Sec. 4.4, with one stiffness for every vertex)
///   E(x) = sum_v k/2 |x_v - p_v(t)|^2 - lambda_v . (x_v - p_v(t)),
/// so that the contact line search moves them with everything else. The multipliers start each
/// step at 0 (the penalty iterate); when contact forces hold a vertex back from p_v by more than
/// the step's tolerance (1e-3 of the largest motion the step prescribes, at least 1e-9 of the
/// vertices' rest box diagonal), update_multipliers sets lambda_v -= k (x_v - p_v) and the stage
/// is solved again. add_step_stats reports the largest lag left.
#include <vector>

#include "model/dirichlet_motion.hpp"
#include "model/energy_term.hpp"

namespace simrun {

struct KinematicGroup {
  std::vector<int> vertices;  ///< full vertex ids
  MatX3 rest;                 ///< their positions at t = 0 (the motion's X0), one row each
  PrescribedMotion motion;
};

class KinematicTarget final : public EnergyTerm {
 public:
  /// stiffness k [N/m] per vertex.
  KinematicTarget(std::vector<KinematicGroup> groups, double stiffness);

  std::string name() const override { return "kinematic"; }
  double energy(const VecX& x) const override;
  void add_gradient(const VecX& x, VecX& g) const override;
  void bind(const SpMat& pattern, const DofMap& dofs) override;
  void add_hessian(const VecX& x, double* values, bool project_psd) const override;
  bool is_quadratic() const override { return true; }
  /// The targets are the positions at t (the end of the coming step).
  void set_time(double t) override { m_t = t; }
  bool depends_on_time() const override { return true; }
  void on_iterate(const VecX& x) override;
  /// Multipliers back to 0; x_n kept for the step's lag tolerance.
  void begin_step(const VecX& x) override;
  bool update_multipliers(const VecX& x) override;
  void add_step_stats(StepStats& stats) const override;

  double stiffness() const { return m_k; }
  /// max_v |x_v - p_v(t)| [m].
  double lag(const VecX& x) const;
  /// The lag update_multipliers accepts in this step (after set_time to its end) [m].
  double lag_tolerance() const;
  /// lambda_v, three per vertex in groups order [N].
  const VecX& multipliers() const { return m_lambda; }

 private:
  std::vector<KinematicGroup> m_groups;
  double m_k;
  double m_t = 0.0;
  double m_lag = 0.0;        ///< at the last iterate
  VecX m_lambda;             ///< the multipliers, three per vertex in groups order
  double m_floor = 0.0;      ///< 1e-9 of the vertices' rest box diagonal [m]
  VecX m_start;              ///< the vertices' positions at the step's start, three each
  std::vector<int> m_slots;  ///< per vertex and coordinate: its diagonal entry in the pattern
};

}  // namespace simrun
