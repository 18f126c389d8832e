#pragma once
/// Sigma rules of Kharevych's time adaptivity (thesis Sec. 3.3.1 and 3.3.6, Eqs. 3.22-3.23): the
/// real step is t_k+1 - t_k = h sigma, with h the fixed "fictitious" step (the scene's dt) and
/// sigma a differentiable function of the configuration, bounded below by sigma_min > 0. A rule
/// here is a function of one configuration x (free DOFs); AdaptiveVariational samples it at q_k,
/// (q_k + q_k+1) / 2 or q_k+1 (settings.sigma_at).
/// W is the model's total potential energy (elastic, springs, gravity, ...).
#include <memory>
#include <string>
#include <vector>

#include "integrate/adaptive_settings.hpp"
#include "model/model.hpp"

namespace simrun {

class SigmaRule {
 public:
  virtual ~SigmaRule() = default;
  /// Called once before the first step with E_0, the initial state's total energy
  /// 1/2 p_0^T M^-1 p_0 + W(q_0) (the equispaced rules measure E_0 - W).
  virtual void begin(double initial_energy) { m_initial_energy = initial_energy; }
  double initial_energy() const { return m_initial_energy; }
  /// sigma(x); NaN where the rule is undefined (the step then fails).
  virtual double value(Model& model, const VecX& x) const = 0;
  /// d sigma / dx.
  virtual void gradient(Model& model, const VecX& x, VecX& g) const = 0;

 protected:
  double m_initial_energy = 0.0;
};

/// The rule `settings.rule` names; throws InputError naming the known rules otherwise.
std::unique_ptr<SigmaRule> make_sigma_rule(const AdaptiveSettings& settings);
/// The known rule names.
const std::vector<std::string>& sigma_rule_names();

}  // namespace simrun
