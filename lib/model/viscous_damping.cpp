#include "model/viscous_damping.hpp"

#include "model/elastic_energy.hpp"

namespace simrun {

namespace {

/// Calls f(term, e, F_{a->b}, V_e(a), G) for every element of every elastic term whose volume
/// in a is positive, G being the 4x3 shape-function gradients with respect to a; returns the
/// number of elements skipped.
template <class F>
int for_each_step_element(const Model& model, const VecX& a, const VecX& b, const F& f) {
  int skipped = 0;
  for (const auto& term : model.terms()) {
    const auto* elastic = dynamic_cast<const ElasticEnergy*>(term.get());
    if (!elastic) continue;
    const TetElements& el = elastic->elements();
    for (int e = 0; e < el.size(); ++e) {
      double volume;
      TetGradients G;
      if (!reference_geometry(el, e, a, volume, G)) {
        ++skipped;
        continue;
      }
      f(*elastic, e, Mat3(edge_matrix(el, e, b) * G.bottomRows<3>()), volume, G);
    }
  }
  return skipped;
}

}  // namespace

int add_viscous_impulse(const Model& model, double k_d, const VecX& a, const VecX& b,
                        VecX& impulse) {
  return for_each_step_element(
      model, a, b,
      [&](const ElasticEnergy& term, int e, const Mat3& F, double volume, const TetGradients& G) {
        // grad_b of V psi(F) at node n is V P(F) grad N_n (as ElasticEnergy::add_gradient).
        const Mat3 P = term.material().first_piola(F, term.parameters()[e]);
        const Eigen::Matrix<double, 3, 4> g = volume * P * G.transpose();
        const auto t = term.elements().tets.row(e);
        for (int n = 0; n < 4; ++n) impulse.segment<3>(3 * t[n]) -= k_d * g.col(n);
      });
}

VecX viscous_impulse(const Model& model, double k_d, const VecX& q, const VecX& q_next) {
  VecX impulse = VecX::Zero(model.dofs().num_full());
  add_viscous_impulse(model, k_d, model.full_positions(q), model.full_positions(q_next), impulse);
  return model.restrict_vector(impulse);
}

double viscous_potential(const Model& model, const VecX& a, const VecX& b) {
  double total = 0.0;
  for_each_step_element(
      model, a, b,
      [&](const ElasticEnergy& term, int e, const Mat3& F, double volume, const TetGradients&) {
        total += volume * term.material().energy_density(F, term.parameters()[e]);
      });
  return total;
}

void add_viscous_hessian(const Model& model, const VecX& a, const VecX& b, double scale, SpMat& H,
                         bool project_psd) {
  for (const auto& term : model.terms())
    if (const auto* elastic = dynamic_cast<const ElasticEnergy*>(term.get()))
      elastic->add_hessian_from(a, b, scale, H.valuePtr(), project_psd);
}

}  // namespace simrun
