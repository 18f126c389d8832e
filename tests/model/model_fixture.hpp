#pragma once
/// Small linear-elastic box models for the model tests.
#include <memory>

#include "fem/tet_elements.hpp"
#include "material/linear_elastic.hpp"
#include "mesh/box.hpp"
#include "model/elastic_energy.hpp"
#include "model/gravity_energy.hpp"
#include "model/model.hpp"

namespace simrun::testing {

struct BoxModel {
  TetMesh mesh;
  TetElements elements;
  std::unique_ptr<Model> model;
};

/// A box of linear material with the given fixed vertices; density rho, E = 1e6, nu = 0.3.
inline BoxModel make_box_model(const Vec3& size, const Eigen::Vector3i& cells, int split,
                               bool lumped, const std::vector<int>& fixed, double rho = 1000.0,
                               const Vec3& gravity = Vec3::Zero(),
                               RayleighDamping damping = RayleighDamping{}) {
  BoxModel b;
  b.mesh = make_box(size, cells, split);
  b.elements = precompute_tet_elements(b.mesh.vertices, b.mesh.tets);
  const VecX density = VecX::Constant(b.mesh.num_tets(), rho);
  std::vector<std::unique_ptr<EnergyTerm>> terms;
  terms.push_back(std::make_unique<ElasticEnergy>(
      b.elements, std::make_shared<LinearElastic>(),
      std::vector<LameParameters>(b.mesh.num_tets(), lame_from_young_poisson(1e6, 0.3)),
      b.mesh.num_vertices()));
  const VecX lumped_mass = [&] {
    VecX m = VecX::Zero(3 * b.mesh.num_vertices());
    for (int e = 0; e < b.mesh.num_tets(); ++e)
      for (int a = 0; a < 4; ++a)
        m.segment<3>(3 * b.mesh.tets(e, a)).array() += rho * b.elements.volume[e] / 4;
    return m;
  }();
  terms.push_back(
      std::make_unique<GravityEnergy>(gravity, lumped_mass, VecX(as_flat(b.mesh.vertices))));
  b.model =
      std::make_unique<Model>(b.mesh.vertices, b.elements, density, lumped,
                              DofMap(b.mesh.num_vertices(), fixed), std::move(terms), damping);
  return b;
}

}  // namespace simrun::testing
