// The multilevel solver's cubature elastic Hessian (Trusty et al. Sec. 3.8, Eq. 13 on the element
// Hessians): sum_k (w_k / V_k) H_k over the sampled elements only, so unit weights on every
// element give the full elastic Hessian, the quadrature is linear in the weights and an unsampled
// element adds nothing.
#include <gtest/gtest.h>

#include "model_fixture.hpp"

namespace simrun {
namespace {

testing::BoxModel make_model() {
  return testing::make_box_model(Vec3(1.0, 0.5, 0.5), Eigen::Vector3i(3, 2, 2), 6, true, {0, 1});
}

double max_abs(const SpMat& A) {
  double m = 0.0;
  for (int k = 0; k < A.nonZeros(); ++k) m = std::max(m, std::abs(A.valuePtr()[k]));
  return m;
}

TEST(ElasticCubature, UnitWeightsGiveTheFullElasticHessianAndTheRuleIsLinear) {
  testing::BoxModel box = make_model();
  Model& model = *box.model;
  const int tets = box.mesh.num_tets();
  VecX q = model.restrict_vector(VecX(as_flat(box.mesh.vertices)));
  for (Eigen::Index i = 0; i < q.size(); ++i) q[i] += 1e-3 * std::sin(1.0 + i);
  SpMat K, C;
  model.elastic_stiffness(q, K, false);
  model.set_elastic_cubature({VecX::Ones(tets)});
  ASSERT_TRUE(model.has_elastic_cubature());
  model.cubature_elastic_stiffness(q, C, false);
  EXPECT_LT(max_abs(SpMat(C - K)), 1e-12 * max_abs(K));

  // Weights w1 + w2 give the sum of the two rules.
  VecX w1 = VecX::Zero(tets), w2 = VecX::Zero(tets);
  for (int e = 0; e < tets; e += 3) w1[e] = 1.5 + 0.1 * e;
  for (int e = 1; e < tets; e += 4) w2[e] = 0.7;
  SpMat C1, C2, C12;
  model.set_elastic_cubature({w1});
  model.cubature_elastic_stiffness(q, C1, false);
  model.set_elastic_cubature({w2});
  model.cubature_elastic_stiffness(q, C2, false);
  model.set_elastic_cubature({VecX(w1 + w2)});
  model.cubature_elastic_stiffness(q, C12, false);
  EXPECT_LT(max_abs(SpMat(C12 - C1 - C2)), 1e-12 * max_abs(C12));

  // One sampled element fills at most its 12 x 12 block.
  VecX one = VecX::Zero(tets);
  one[5] = 2.0;
  model.set_elastic_cubature({one});
  model.cubature_elastic_stiffness(q, C, false);
  int nonzero = 0;
  for (int k = 0; k < C.nonZeros(); ++k) nonzero += C.valuePtr()[k] != 0.0 ? 1 : 0;
  EXPECT_GT(nonzero, 0);
  EXPECT_LE(nonzero, 144);
}

TEST(ElasticCubature, WeightsMustMatchTheElasticTermsElements) {
  testing::BoxModel box = make_model();
  EXPECT_THROW(box.model->set_elastic_cubature({VecX::Ones(3)}), std::invalid_argument);
  EXPECT_THROW(box.model->set_elastic_cubature({}), std::invalid_argument);
  EXPECT_FALSE(box.model->has_elastic_cubature());
}

}  // namespace
}  // namespace simrun
