#pragma once
/// P1 tetrahedron mass matrices.
///   consistent: M_ab = rho V (1 + delta_ab) / 20 * I_3   (exact integral of N_a N_b)
///   lumped (row sum): M_aa = rho V / 4 * I_3
/// Both have total mass rho V per element.
#include "core/types.hpp"
#include "fem/tet_elements.hpp"
#include "fem/tet_pattern.hpp"

namespace simrun {

/// Adds the mass matrix into the value array of the free-DOF pattern (slots from TetSlots).
void add_mass_values(const TetElements& el, const VecX& density, bool lumped, const TetSlots& slots,
                     double* values);

/// Row-sum lumped mass per full DOF (3n): m_i repeated for x, y, z [kg]. Also the row sums of
/// the consistent matrix, so gravity and momentum use it for either choice.
VecX lumped_mass_per_dof(const TetElements& el, const VecX& density, int num_vertices);

}  // namespace simrun
