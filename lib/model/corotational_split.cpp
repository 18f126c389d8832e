#include "model/corotational_split.hpp"

#include "material/principal_stretch.hpp"
#include "model/elastic_energy.hpp"

namespace simrun {

namespace {

/// The polar rotation of element e's F at full positions x (U V^T of the signed SVD).
Mat3 element_rotation(const TetElements& el, int e, const VecX& x) {
  const SignedSvd svd = signed_svd(deformation_gradient(el, e, x));
  return svd.U * svd.V.transpose();
}

template <class F>
void for_each_elastic(const Model& model, const F& f) {
  for (const auto& term : model.terms())
    if (const auto* elastic = dynamic_cast<const ElasticEnergy*>(term.get())) f(*elastic);
}

}  // namespace

void add_corotational_gradient(const Model& model, const VecX& x_rot, const VecX& x, VecX& g) {
  for_each_elastic(model, [&](const ElasticEnergy& term) {
    const TetElements& el = term.elements();
    for (int e = 0; e < el.size(); ++e) {
      const Mat3 R = element_rotation(el, e, x_rot);
      const Mat3 F = deformation_gradient(el, e, x);
      const MaterialParameters& p = term.parameters()[e];
      // P = R [2 mu sym(R^T F - I) + lambda tr(R^T F - I) I] = mu (F + R F^T R) - 2 mu R + ...
      const Mat3 S = R.transpose() * F;
      const Mat3 P = R * (p.mu * (S + S.transpose() - 2.0 * Mat3::Identity()) +
                          p.lambda * (S.trace() - 3.0) * Mat3::Identity());
      const Eigen::Matrix<double, 3, 4> ga = el.volume[e] * P * el.grad[e].transpose();
      for (int a = 0; a < 4; ++a) g.segment<3>(3 * el.tets(e, a)) += ga.col(a);
    }
  });
}

void add_corotational_stiffness(const Model& model, const VecX& x_rot, double scale, SpMat& K) {
  for_each_elastic(model, [&](const ElasticEnergy& term) {
    term.add_element_tangents(scale, K.valuePtr(), [&](int e) {
      const Mat3 R = element_rotation(term.elements(), e, x_rot);
      const MaterialParameters& p = term.parameters()[e];
      // dP_ij/dF_kl = mu d_ik d_jl + mu R_il R_kj + lambda R_kl R_ij at (i + 3j, k + 3l).
      Mat9 T = Mat9::Zero();
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          for (int k = 0; k < 3; ++k)
            for (int l = 0; l < 3; ++l)
              T(i + 3 * j, k + 3 * l) = (i == k && j == l ? p.mu : 0.0) + p.mu * R(i, l) * R(k, j) +
                                        p.lambda * R(k, l) * R(i, j);
      return T;
    });
  });
}

bool all_elastic_terms_corotated(const Model& model) {
  bool all = true;
  for_each_elastic(
      model, [&](const ElasticEnergy& term) { all &= term.material().name() == "corotated"; });
  return all;
}

}  // namespace simrun
