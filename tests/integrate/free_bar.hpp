#pragma once
/// A small free neo-Hookean bar in a deformed, spinning, drifting state, for the tests of the
/// variational integrators (momentum, step-size independent damping).
#include <Eigen/Geometry>
#include <memory>

#include "fem/tet_elements.hpp"
#include "integrate/integrator.hpp"
#include "material/material.hpp"
#include "mesh/box.hpp"
#include "model/elastic_energy.hpp"

namespace simrun::testing {

/// A free neo-Hookean bar (1 x 0.2 x 0.2 m, 15 tets, E = 1e5 Pa, rho = 1000 kg/m^3), or of another
/// material.
inline std::unique_ptr<Model> free_neohookean_bar(bool lumped,
                                                  const char* material = "neohookean") {
  const TetMesh mesh = make_box(Vec3(1.0, 0.2, 0.2), Eigen::Vector3i(3, 1, 1), 5);
  const TetElements elements = precompute_tet_elements(mesh.vertices, mesh.tets);
  std::vector<std::unique_ptr<EnergyTerm>> terms;
  terms.push_back(std::make_unique<ElasticEnergy>(
      elements, std::shared_ptr<const Material>(make_material(material)),
      std::vector<LameParameters>(mesh.num_tets(), lame_from_young_poisson(1e5, 0.3)),
      mesh.num_vertices()));
  return std::make_unique<Model>(mesh.vertices, elements, VecX::Constant(mesh.num_tets(), 1000.0),
                                 lumped, DofMap(mesh.num_vertices(), {}), std::move(terms),
                                 RayleighDamping{});
}

/// Stretched by 20 % along x and sheared (large strain), spinning about an oblique axis through
/// the origin, drifting: every momentum component and the elastic energy are non-zero.
inline State deformed_spinning_state(const Model& model) {
  State s;
  s.q = model.rest_positions();
  s.v = VecX::Zero(s.q.size());
  const Vec3 omega(1.0, -2.0, 4.0), drift(0.3, -0.1, 0.2);
  for (Eigen::Index i = 0; i < s.q.size(); i += 3) {
    Vec3 x = s.q.segment<3>(i);
    x = Vec3(1.2 * x.x() + 0.3 * x.y(), x.y(), x.z() - 0.2 * x.x() * x.x());
    s.q.segment<3>(i) = x;
    s.v.segment<3>(i) = drift + omega.cross(x);
  }
  return s;
}

}  // namespace simrun::testing
