#pragma once
/// SIERE (Chen thesis Ch. 6, Algorithm 1, eq. 6.1; survey eqs. 20, 23-25) and its BDF2 form
/// SBDF2ERE (survey eq. 22):
///   SIERE:     u_{n+1} = u_n + (I - h J_H)^-1 (h H(u_n) + h phi_1(h J_G) G(u_n))
///   SBDF2ERE:  u_{n+1} = u_n + (I - tau J_H)^-1 (c (u_n - u_{n-1}) + tau H(u_n)
///                                                + tau phi_1(t J_G) G(u_n))
/// with, for the ratio w = h / h_prev, c = w^2 / (1 + 2w) and tau = h (1 + w) / (1 + 2w): at
/// w = 1 the survey's 1/3 (u_n - u_{n-1}) + (2h/3)(H + phi_1 G). t = h as printed (first order,
/// unstable for undamped modes in G); t = 2h by default ("phi_argument": "consistent": second
/// order, docs/exponential_integrators.md). The split into the s lowest
/// modes (G, exact reduced exponential) and the rest (H, semi-implicit) is SpectralSplit; the
/// solve is one factorization of M + tau D + tau^2 K and a rank-2s Woodbury update. No Newton
/// iterations; s = 0 is SI. Start-up of SBDF2ERE (and restarts) is one SIERE step.
#include <string>

#include "integrate/first_order_system.hpp"
#include "integrate/spectral_split.hpp"

namespace simrun {

class Siere : public Integrator {
 public:
  Siere(const IntegratorSettings& settings, bool bdf2);
  explicit Siere(const IntegratorSettings& settings) : Siere(settings, false) {}
  std::string_view name() const override { return m_bdf2 ? "sbdf2ere" : "siere"; }
  Status step(Model& model, State& state, double h, StepStats& stats) override;
  std::string failure_detail() const override { return m_failure; }
  IntegratorHistory history() const override;
  void restore_history(const IntegratorHistory& history) override;

 private:
  SplitSolver m_solver;
  bool m_bdf2;
  bool m_printed_phi_argument;
  std::string m_failure;
  /// SBDF2ERE history: u_{n-1}, the step that led from it, and the state produced last.
  bool m_has_history = false;
  VecX m_prev_q, m_prev_v;
  double m_prev_h = 0.0;
  State m_last;
};

class Sbdf2Ere final : public Siere {
 public:
  explicit Sbdf2Ere(const IntegratorSettings& settings) : Siere(settings, true) {}
};

}  // namespace simrun
