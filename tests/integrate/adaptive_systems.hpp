#pragma once
// Small mass-spring systems for the time-adaptivity tests (Kharevych thesis Sec. 3.3-3.4):
// Skeel's 1D spring and a chain of point masses (1 kg each), the first particle fixed.
#include <Eigen/Geometry>
#include <memory>
#include <vector>

#include "integrate/integrator.hpp"
#include "model/gravity_energy.hpp"
#include "model/spring_energy.hpp"

namespace simrun::test {

struct AdaptiveChain {
  std::unique_ptr<Model> model;
  State initial;
};

/// A chain of `particles` particles along -y, 1 m long, springs of stiffness k, particle 0
/// fixed; the free particles start at `stretch` times their rest offsets with velocities
/// `velocity` + omega x (x - x_0) (a spin about the fixed particle).
inline AdaptiveChain adaptive_chain(int particles, double k, double stretch, const Vec3& velocity,
                                    const Vec3& omega = Vec3::Zero(),
                                    const Vec3& gravity = Vec3::Zero(),
                                    const RayleighDamping& damping = {}) {
  MatX3 rest(particles, 3);
  EdgeList springs;
  for (int i = 0; i < particles; ++i) {
    rest.row(i) = Vec3(0.0, -static_cast<double>(i) / (particles - 1), 0.0).transpose();
    if (i > 0) springs.push_back({i - 1, i});
  }
  const VecX point_mass = VecX::Constant(3 * particles, 1.0);
  std::vector<std::unique_ptr<EnergyTerm>> terms;
  terms.push_back(std::make_unique<SpringEnergy>(
      springs, VecX::Constant(static_cast<Eigen::Index>(springs.size()), k), VecX(as_flat(rest))));
  if (gravity != Vec3::Zero())
    terms.push_back(std::make_unique<GravityEnergy>(gravity, point_mass, VecX(as_flat(rest))));
  TetElements no_tets;
  no_tets.tets.resize(0, 4);
  no_tets.volume.resize(0);
  AdaptiveChain chain;
  chain.model = std::make_unique<Model>(rest, no_tets, VecX(), true, point_mass,
                                        DofMap(particles, {0}), std::move(terms), damping);
  VecX x = as_flat(rest), v = VecX::Zero(3 * particles);
  for (int i = 1; i < particles; ++i) {
    const Vec3 offset = stretch * Vec3(rest.row(i).transpose());
    x.segment<3>(3 * i) = offset;
    v.segment<3>(3 * i) = velocity + omega.cross(offset);
  }
  chain.initial = State{chain.model->restrict_vector(x), chain.model->restrict_vector(v), 0.0};
  return chain;
}

/// Skeel's 1D linear spring (thesis Fig. 3.6): one particle on a 100 N/m spring (w = 10 rad/s),
/// pushed along it at 1 m/s (E = 0.5 J).
inline AdaptiveChain skeel_spring() { return adaptive_chain(2, 100.0, 1.0, Vec3(0, -1, 0)); }

/// Three point masses and three springs (thesis Figs. 3.9-3.10): a 4-particle chain stretched by
/// 30 % and spinning, so every spring changes length (nonlinear in the positions); optionally
/// with Rayleigh damping.
inline AdaptiveChain three_masses(double k = 1000.0, const RayleighDamping& damping = {}) {
  return adaptive_chain(4, k, 1.3, Vec3::Zero(), Vec3(0, 0, 2.0), Vec3::Zero(), damping);
}

}  // namespace simrun::test
