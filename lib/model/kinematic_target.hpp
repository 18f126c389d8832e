#pragma once
/// Kinematic vertices (moving obstacle meshes of IPC contact): free DOFs tied to their scripted
/// positions p_v(t) at the end of each step by
///   E(x) = k/2 sum_v |x_v - p_v(t)|^2,
/// so that the contact line search moves them with everything else (IPC's treatment of
/// prescribed motion as a stiff potential; Li et al. 2020 Sec. 4.4 use an augmented Lagrangian,
/// of which this is the first, penalty, iterate). Contact forces can hold a vertex back from p_v;
/// add_step_stats reports the largest such lag.
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
  void add_step_stats(StepStats& stats) const override;

  double stiffness() const { return m_k; }
  /// max_v |x_v - p_v(t)| [m].
  double lag(const VecX& x) const;

 private:
  std::vector<KinematicGroup> m_groups;
  double m_k;
  double m_t = 0.0;
  double m_lag = 0.0;        ///< at the last iterate
  std::vector<int> m_slots;  ///< per vertex and coordinate: its diagonal entry in the pattern
};

}  // namespace simrun
