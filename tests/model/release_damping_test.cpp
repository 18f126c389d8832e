// Rest-stiffness Rayleigh damping must stay the rest stiffness when a release rebuilds the
// model while constrained vertices sit at moved (prescribed) positions. Review finding: it was
// re-evaluated through full_positions(), i.e. at the moved positions.
#include <gtest/gtest.h>

#include <memory>

#include "fem/tet_elements.hpp"
#include "material/material.hpp"
#include "mesh/box.hpp"
#include "model/elastic_energy.hpp"
#include "model/model.hpp"

namespace simrun {
namespace {

std::unique_ptr<Model> neohookean_bar(const TetMesh& mesh, const std::vector<int>& fixed) {
  const TetElements elements = precompute_tet_elements(mesh.vertices, mesh.tets);
  std::vector<std::unique_ptr<EnergyTerm>> terms;
  terms.push_back(std::make_unique<ElasticEnergy>(
      elements, std::shared_ptr<const Material>(make_material("neohookean")),
      std::vector<LameParameters>(mesh.num_tets(), lame_from_young_poisson(1e5, 0.3)),
      mesh.num_vertices()));
  RayleighDamping damping;
  damping.stiffness = 0.01;
  damping.stiffness_at_rest = true;
  return std::make_unique<Model>(mesh.vertices, elements, VecX::Constant(mesh.num_tets(), 1000.0),
                                 true, DofMap(mesh.num_vertices(), fixed), std::move(terms),
                                 damping);
}

TEST(ModelRelease, RestDampingIsEvaluatedAtRestAfterARelease) {
  const TetMesh mesh = make_box(Vec3(1, 0.2, 0.2), Eigen::Vector3i(4, 1, 1), 6);
  auto released = neohookean_bar(mesh, {0, 1, 2, 3, 4, 5, 6, 7});
  // Move the vertices that stay constrained (0..3, a prescribed motion), then release 4..7.
  VecX x = released->rest_positions(), v = VecX::Zero(x.size());
  for (int vertex = 0; vertex < 4; ++vertex) x[3 * vertex] += 0.1;
  released->set_constrained_state(x, v);
  released->set_fixed_vertices({0, 1, 2, 3});
  const auto fresh = neohookean_bar(mesh, {0, 1, 2, 3});
  SpMat unused, D1, D2;
  released->damping_matrix(unused, D1);
  fresh->damping_matrix(unused, D2);
  // Same rest stiffness up to summation order.
  EXPECT_LT(SpMat(D1 - D2).norm(), 1e-12 * D2.norm());
}

}  // namespace
}  // namespace simrun
