#pragma once
/// The inversion-free step bound of the contact-aware line search (issue 14, part 6): along
/// x + t dx a tet's signed volume is det(Ds + t dDs) / 6, a cubic in t, and the step is limited
/// to where every tet keeps a fraction of its current volume.
#include "core/types.hpp"
#include "fem/tet_elements.hpp"

namespace simrun {

/// Fraction of its current signed volume every tet keeps over the returned step (like the
/// CCD's 10 % margin of the gap, contact/ccd.hpp).
inline constexpr double kKeptVolumeFraction = 0.1;

/// Coefficients c0..c3 of det(D + t E) = c0 + c1 t + c2 t^2 + c3 t^3 (multilinearity of the
/// determinant in the columns: c1 and c2 sum the determinants with one / two columns of D
/// replaced by E's).
Eigen::Vector4d determinant_cubic(const Mat3& D, const Mat3& E);

/// The largest t in [0, 1] such that det(D + s E) >= keep * det(D) for all s in [0, t], for
/// det(D) > 0 (1 when det(D) <= 0: an already inverted tet is not this bound's business).
/// The cubic q(s) = det(D + s E) - keep det(D) is split at the roots of q' into monotone pieces;
/// the first piece whose end value is <= 0 is bisected, returning the lower end of the final
/// bracket (where q > 0), so the bound is conservative up to the rounding of the coefficients.
double tet_volume_step(const Mat3& D, const Mat3& E, double keep = kKeptVolumeFraction);

/// min over the tets of tet_volume_step(Ds(x), Ds(dx)) (x, dx full flat vectors).
double max_inversion_free_step(const TetElements& elements, const VecX& x, const VecX& dx,
                               double keep = kKeptVolumeFraction);

}  // namespace simrun
