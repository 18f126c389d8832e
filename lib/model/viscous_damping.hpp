#pragma once
/// Step-size independent visco-elastic damping (Kharevych thesis Sec. 2.3, Sec. 3.2.9 and
/// Fig. 3.5): the deformation that happens during one step is measured with the elastic energy
/// itself, taking the step's start a as the rest configuration and its end b as deformed,
///   W_d(a, b) = sum_e V_e(a) psi_e(F_{a->b}),   F_{a->b} = Ds(b) Ds(a)^-1,
/// and the step's damping impulse is -k_D grad_b W_d(a, b) (thesis' F_dampExp / F_dampImpApprox).
/// Linearized, W_d(a, b) ~ 1/2 (b - a)^T K (b - a) with b - a = h v, so the impulse is
/// -k_D h K v: summed over steps, the viscous force -k_D K v whatever h, and k_D is in
/// seconds (a Rayleigh stiffness coefficient). Multiplying the impulse by h again would make the
/// damping vanish as h -> 0, unlike the thesis' Fig. 3.5. The impulse is the elastic force of
/// configuration b against reference a: it sums to zero and exerts no torque about b, so it
/// keeps linear and angular momentum when applied at b.
#include "model/model.hpp"

namespace simrun {

/// impulse += -k_d grad_b W_d(a, b) over the model's elastic terms, on full (3n) vectors a and
/// b. An element inverted or degenerate in a contributes nothing and is counted in the return
/// value (0 when every element of a has positive volume).
int add_viscous_impulse(const Model& model, double k_d, const VecX& a, const VecX& b,
                        VecX& impulse);

/// The same over free DOFs: the impulse -k_d grad W_d for the step from free positions q to
/// q_next (prescribed DOFs at the model's current values in both).
VecX viscous_impulse(const Model& model, double k_d, const VecX& q, const VecX& q_next);

/// W_d(a, b) summed over the model's elastic terms.
double viscous_potential(const Model& model, const VecX& a, const VecX& b);

/// H += scale * d2 W_d(a, b) / db2 over the free DOFs, into the model's shared pattern (H must
/// hold it: Model::stiffness fills H with that pattern), element Hessians PSD-projected when
/// asked.
void add_viscous_hessian(const Model& model, const VecX& a, const VecX& b, double scale, SpMat& H,
                         bool project_psd);

}  // namespace simrun
