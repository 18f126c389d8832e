#pragma once
/// Test systems for the integrators: a small linear-elastic cantilever (a multi-DOF linear
/// oscillator with an exact modal solution) and a 1-DOF-per-axis damped spring.
#include <Eigen/Eigenvalues>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "integrate/integrator.hpp"
#include "model/model_fixture.hpp"

namespace simrun::testing {

/// A 0.2 x 0.1 x 0.1 m box, 2 x 1 x 1 cubes of 6 tets, linear material (E = 1e6, nu = 0.3,
/// rho = 1000), the 4 vertices at x = 0 fixed: 24 free DOFs, no gravity. Optional Rayleigh
/// damping D = alpha M + beta K (rest stiffness) keeps the modes decoupled: mode i has
/// 2 zeta_i omega_i = alpha + beta omega_i^2.
struct Cantilever {
  BoxModel box;
  VecX rest;   ///< free rest positions
  VecX omega;  ///< natural frequencies [rad/s], ascending
  MatX modes;  ///< M-orthonormal mode shapes (columns)
  double alpha = 0.0, beta = 0.0;

  explicit Cantilever(double mass_damping = 0.0, double stiffness_damping = 0.0)
      : alpha(mass_damping), beta(stiffness_damping) {
    std::vector<int> fixed;
    for (int v = 0; v < 12; ++v)
      if (v % 3 == 0) fixed.push_back(v);  // vertex (i, j, k) = i + 3 (j + 2 k); i = 0
    RayleighDamping damping;
    damping.mass = alpha;
    damping.stiffness = beta;
    damping.stiffness_at_rest = true;
    box = make_box_model(Vec3(0.2, 0.1, 0.1), Eigen::Vector3i(2, 1, 1), 6, /*lumped=*/true, fixed,
                         1000.0, Vec3::Zero(), damping);
    rest = box.model->restrict_vector(box.model->rest_positions());
    SpMat K;
    box.model->stiffness(rest, K, false);
    Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eig(MatX(K), MatX(box.model->mass()));
    omega = eig.eigenvalues().cwiseSqrt();
    modes = eig.eigenvectors();
  }
  Model& model() const { return *box.model; }

  /// Exact state at t from modal displacement c and modal velocity d at t = 0 (vectors over
  /// modes): q_i'' + 2 zeta_i omega_i q_i' + omega_i^2 q_i = 0, underdamped.
  State modal_state(const VecX& c, const VecX& d, double t) const {
    VecX qm(omega.size()), vm(omega.size());
    for (Eigen::Index i = 0; i < omega.size(); ++i) {
      const double w = omega[i];
      const double sigma = 0.5 * (alpha + beta * w * w);  // zeta * omega
      const double wd = std::sqrt(w * w - sigma * sigma);
      const double a = c[i], b = (d[i] + sigma * c[i]) / wd, decay = std::exp(-sigma * t);
      qm[i] = decay * (a * std::cos(wd * t) + b * std::sin(wd * t));
      vm[i] = decay *
              ((b * wd - sigma * a) * std::cos(wd * t) - (a * wd + sigma * b) * std::sin(wd * t));
    }
    return State{rest + modes * qm, modes * vm, t};
  }

  /// Energy norm of the difference of two states: sqrt(dq' K dq + dv' M dv).
  double energy_error(const State& a, const State& b) const {
    SpMat K;
    model().stiffness(rest, K, false);
    const VecX dq = a.q - b.q, dv = a.v - b.v;
    return std::sqrt(dq.dot(K * dq) + dv.dot(model().mass() * dv));
  }

  double total_energy(const State& s) const {
    return model().kinetic_energy(s.v) + model().potential_energy(s.q);
  }
};

}  // namespace simrun::testing
