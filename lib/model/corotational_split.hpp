#pragma once
/// The corotational split of Kharevych's time-reversible corotational integrator (thesis
/// Sec. 3.4.2, Eq. 3.33; corotation as in Sec. 2.2.3): the linear elastic response of each tet
/// about a rotation R_e taken from another configuration (the polar rotation of F there, R =
/// U V^T of its signed SVD):
///   g_R(x) = sum_e R_e K_e (R_e^T x_e - X_e),   K_R = sum_e R_e K_e R_e^T,
/// per element the first Piola stress P = R [2 mu sym(R^T F - I) + lambda tr(R^T F - I) I] and its
/// R-frozen tangent dP_ij/dF_kl = mu d_ik d_jl + mu R_il R_kj + lambda R_kl R_ij. At R = the polar
/// rotation of F itself, P is simrun's `corotated` stress (mu |F - R|^2 + lambda/2 tr^2(R^T F -
/// I)): g_R(x) is then that material's gradient.
#include "model/model.hpp"

namespace simrun {

/// g += g_R(x) over the model's elastic terms, R from the full positions `x_rot`.
void add_corotational_gradient(const Model& model, const VecX& x_rot, const VecX& x, VecX& g);

/// K += scale * K_R over the model's elastic terms (R from `x_rot`), into the model's shared
/// pattern (K must hold it).
void add_corotational_stiffness(const Model& model, const VecX& x_rot, double scale, SpMat& K);

/// True when every elastic term of the model uses the `corotated` material.
bool all_elastic_terms_corotated(const Model& model);

}  // namespace simrun
