#include "integrate/adaptive_sigma.hpp"

#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace simrun {

namespace {

constexpr double kUndefined = std::numeric_limits<double>::quiet_NaN();

/// sigma = c: sigma == 1 is the fixed-step integrator (Eq. 3.22).
class ConstantSigma final : public SigmaRule {
 public:
  explicit ConstantSigma(double c) : m_c(c) {}
  double value(Model&, const VecX&) const override { return m_c; }
  void gradient(Model&, const VecX& x, VecX& g) const override { g = VecX::Zero(x.size()); }

 private:
  double m_c;
};

/// Equispaced poses (thesis Sec. 3.3.6): sigma = sigma_min + 1 / sqrt(E_0 - W(x) + eps), with
/// E_0 - W clamped at 0 (it is the kinetic energy of the exact motion, >= 0, but a numerical
/// one may dip below) so the root stays defined.
class EquispacedPosesSigma final : public SigmaRule {
 public:
  EquispacedPosesSigma(double eps, double sigma_min) : m_eps(eps), m_min(sigma_min) {}
  double value(Model& model, const VecX& x) const override {
    return m_min +
           1.0 / std::sqrt(std::max(m_initial_energy - model.potential_energy(x), 0.0) + m_eps);
  }
  void gradient(Model& model, const VecX& x, VecX& g) const override {
    const double gap = m_initial_energy - model.potential_energy(x);
    model.potential_gradient(x, g);
    if (gap <= 0.0) {
      g.setZero();
      return;
    }
    g *= 0.5 * std::pow(gap + m_eps, -1.5);  // d/dx (gap + eps)^-1/2, d gap/dx = -dW/dx
  }

 private:
  double m_eps, m_min;
};

/// Equispaced phase-space points (thesis Sec. 3.3.6):
/// sigma = sigma_min + 1 / sqrt(E_0 - W(x) + |dW/dx(x)|^2 + eps), E_0 - W clamped at 0.
class EquispacedPhaseSpaceSigma final : public SigmaRule {
 public:
  EquispacedPhaseSpaceSigma(double eps, double sigma_min) : m_eps(eps), m_min(sigma_min) {}
  double value(Model& model, const VecX& x) const override {
    VecX g;
    model.potential_gradient(x, g);
    const double gap = std::max(m_initial_energy - model.potential_energy(x), 0.0);
    return m_min + 1.0 / std::sqrt(gap + g.squaredNorm() + m_eps);
  }
  void gradient(Model& model, const VecX& x, VecX& out) const override {
    VecX g;
    model.potential_gradient(x, g);
    SpMat K;
    model.stiffness(x, K, /*project_psd=*/false);
    const double gap = m_initial_energy - model.potential_energy(x);
    const double s = std::max(gap, 0.0) + g.squaredNorm() + m_eps;
    VecX ds = 2.0 * (K * g);  // d|g|^2/dx = 2 K g (K symmetric)
    if (gap > 0.0) ds -= g;
    out = -0.5 * std::pow(s, -1.5) * ds;
  }

 private:
  double m_eps, m_min;
};

/// Acceleration-adapted (thesis Sec. 3.3.6, |dW(q_k) + dW(q_k+1) + eps|^-1, implemented as
/// 1 / (|.| + eps), eps against division by 0): at one configuration x the two gradients are
/// 2 dW/dx(x), which with x the midpoint equals the thesis' sum to second order and is symmetric.
/// sigma = sigma_min + 1 / (2 |dW/dx(x)| + eps).
class AccelerationSigma final : public SigmaRule {
 public:
  AccelerationSigma(double eps, double sigma_min) : m_eps(eps), m_min(sigma_min) {}
  double value(Model& model, const VecX& x) const override {
    VecX g;
    model.potential_gradient(x, g);
    return m_min + 1.0 / (2.0 * g.norm() + m_eps);
  }
  void gradient(Model& model, const VecX& x, VecX& out) const override {
    VecX g;
    model.potential_gradient(x, g);
    const double n = g.norm();
    if (n == 0.0) {
      out = VecX::Zero(x.size());
      return;
    }
    SpMat K;
    model.stiffness(x, K, /*project_psd=*/false);
    const double d = 2.0 * n + m_eps;
    out = -(2.0 / (d * d * n)) * (K * g);  // d|g|/dx = K g / |g|
  }

 private:
  double m_eps, m_min;
};

/// The rule of thesis Figs. 3.9-3.10: sigma = sigma_min + c / (W(x) / scale + 1) (scale = 10 J
/// in the thesis). Undefined (NaN) where W / scale + 1 <= 0.
class EnergySigma final : public SigmaRule {
 public:
  EnergySigma(double c, double scale, double sigma_min)
      : m_c(c), m_scale(scale), m_min(sigma_min) {}
  double value(Model& model, const VecX& x) const override {
    const double u = model.potential_energy(x) / m_scale + 1.0;
    return u > 0.0 ? m_min + m_c / u : kUndefined;
  }
  void gradient(Model& model, const VecX& x, VecX& g) const override {
    const double u = model.potential_energy(x) / m_scale + 1.0;
    model.potential_gradient(x, g);
    g *= -m_c / (m_scale * u * u);
  }

 private:
  double m_c, m_scale, m_min;
};

}  // namespace

const std::vector<std::string>& sigma_rule_names() {
  static const std::vector<std::string> names = {
      "constant", "equispaced_poses", "equispaced_phase_space", "acceleration", "energy"};
  return names;
}

std::unique_ptr<SigmaRule> make_sigma_rule(const AdaptiveSettings& s) {
  if (s.rule == "constant") return std::make_unique<ConstantSigma>(s.c);
  if (s.rule == "equispaced_poses")
    return std::make_unique<EquispacedPosesSigma>(s.epsilon, s.sigma_min);
  if (s.rule == "equispaced_phase_space")
    return std::make_unique<EquispacedPhaseSpaceSigma>(s.epsilon, s.sigma_min);
  if (s.rule == "acceleration") return std::make_unique<AccelerationSigma>(s.epsilon, s.sigma_min);
  if (s.rule == "energy") return std::make_unique<EnergySigma>(s.c, s.energy_scale, s.sigma_min);
  std::string known;
  for (const auto& name : sigma_rule_names()) known += (known.empty() ? "" : ", ") + name;
  throw InputError("/time/adaptive/rule: unknown sigma rule '" + s.rule + "' (known: " + known +
                   ")");
}

}  // namespace simrun
