// Model::stiffness_and_projected_elastic: EigenFit's per-step pair (the integrator's K and the
// projected elastic stiffness its modes come from) in one pass over the elements must be the
// two separate assemblies exactly, with the non-elastic terms in K only.
#include <gtest/gtest.h>

#include <memory>

#include "fem/tet_elements.hpp"
#include "material/arap.hpp"
#include "material/lame.hpp"
#include "mesh/box.hpp"
#include "model/elastic_energy.hpp"
#include "model/model.hpp"
#include "model/spring_energy.hpp"

namespace simrun {
namespace {

bool same_values(const SpMat& a, const SpMat& b) {
  return a.nonZeros() == b.nonZeros() && Eigen::Map<const VecX>(a.valuePtr(), a.nonZeros()) ==
                                             Eigen::Map<const VecX>(b.valuePtr(), b.nonZeros());
}

TEST(StiffnessPair, EqualsTheTwoAssembliesAndLeavesOtherTermsOutOfTheProjectedOne) {
  const TetMesh mesh = make_box(Vec3(1.0, 0.4, 0.4), Eigen::Vector3i(4, 2, 2), 5);
  const TetElements elements = precompute_tet_elements(mesh.vertices, mesh.tets);
  const int n = mesh.num_vertices();
  std::vector<std::unique_ptr<EnergyTerm>> terms;
  terms.push_back(std::make_unique<ElasticEnergy>(
      elements, std::make_shared<Arap>(),
      std::vector<LameParameters>(mesh.num_tets(), lame_from_young_poisson(1e6, 0.3)), n));
  // A spring across the box, compressed below: its Hessian is indefinite until projected.
  terms.push_back(std::make_unique<SpringEnergy>(EdgeList{{0, n - 1}}, VecX::Constant(1, 1e5),
                                                 VecX(as_flat(mesh.vertices))));
  Model model(mesh.vertices, elements, VecX::Constant(mesh.num_tets(), 1000.0), false,
              DofMap(n, {0}), std::move(terms), RayleighDamping{});

  // Squeezed to 60 % along x and sheared: ARAP's twist eigenvalues 2k - 4k / (s_i + s_j) turn
  // negative where s_i + s_j < 2.
  VecX x = as_flat(mesh.vertices);
  for (int v = 0; v < n; ++v) {
    x[3 * v] *= 0.6;
    x[3 * v + 1] += 0.1 * x[3 * v + 2];
  }
  const VecX q = model.dofs().restrict_vector(x);

  SpMat K, K_projected, pair_K, pair_projected, elastic;
  model.stiffness(q, K, /*project_psd=*/false);
  model.elastic_stiffness(q, K_projected, /*project_psd=*/true);
  model.stiffness_and_projected_elastic(q, pair_K, pair_projected);
  EXPECT_TRUE(same_values(pair_K, K));
  EXPECT_TRUE(same_values(pair_projected, K_projected));

  // The state is one where the projection matters, and the spring is in K only.
  model.elastic_stiffness(q, elastic, /*project_psd=*/false);
  EXPECT_GT((SpMat(K_projected - elastic)).norm(), 1e-3 * elastic.norm());
  EXPECT_GT((SpMat(K - elastic)).norm(), 0.0);
}

}  // namespace
}  // namespace simrun
