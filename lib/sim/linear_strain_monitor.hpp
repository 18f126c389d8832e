#pragma once
/// Warns once when an object with the linear material strains beyond where the model holds.
/// The linear model measures strain as eps = sym(F) - I, which also grows with rotation (a
/// rotation by theta reads as a strain of about theta^2 / 2), so past a few percent its forces
/// inflate and bend the body in ways no real material does; corotated or neo-Hookean models
/// stay right there.
#include <string>
#include <vector>

#include "core/types.hpp"
#include "sim/step_observer.hpp"

namespace simrun {

class LinearStrainMonitor final : public StepObserver {
 public:
  /// `linear_tets`: the tets (rows of `tets`) made of the linear material, and for each the
  /// name of its object. `rest`: rest vertex positions. `threshold`: the largest |eps| eigenvalue
  /// tolerated.
  LinearStrainMonitor(const MatX3& rest, const MatX4i& tets, std::vector<int> linear_tets,
                      std::vector<std::string> object_of_tet, double threshold = 0.05,
                      int check_every = 10);
  void after_step(const Simulation& simulation, const StepRecord& record) override;
  void finish(const Simulation& simulation, RunResult& result) override;

  /// The largest |eigenvalue| of eps = sym(F) - I over the linear tets at full positions x, and
  /// the index (into linear_tets) where it occurs.
  double max_strain(const VecX& x, int& where) const;

 private:
  void check(const Simulation& simulation, const StepRecord& record);

  MatX4i m_tets;                     ///< the linear tets only
  std::vector<Mat3> m_rest_inverse;  ///< Dm^-1 per linear tet
  std::vector<std::string> m_object;
  double m_threshold;
  int m_every;
  std::string m_warning;  ///< set once
};

}  // namespace simrun
