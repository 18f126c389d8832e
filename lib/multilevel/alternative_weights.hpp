#pragma once
/// The weight functions Trusty et al. compare their SMS weights with in Figs. 3-5 (and discuss in
/// Sec. 2.1): compactly supported radial basis functions, global biharmonic coordinates (Wang et
/// al. 2015) and skinning eigenmodes (Benchekroun et al. 2023). Each gives one weight function
/// per partition handle, so a basis built from them has the same number of DOFs as the SMS basis
/// of the same partition. The solver setting `"basis"` selects them; only the comparison figures
/// use anything but the SMS weights.
#include <string>
#include <vector>

#include "multilevel/handle_weights.hpp"

namespace simrun {

enum class HandleBasis { kSms, kRbf, kBiharmonic, kEigenmodes };

/// "sms", "rbf", "biharmonic", "eigenmodes".
const char* handle_basis_name(HandleBasis basis);
/// The inverse of handle_basis_name; std::invalid_argument for any other name.
HandleBasis handle_basis_from_name(const std::string& name);

/// Wendland's C2 function psi(s) = (1 - s)^4 (4 s + 1) of the Euclidean distance from each handle
/// origin, s = |x - x_i| / r_i, with r_i the larger of the distance from handle i's origin to the
/// farthest origin of a partition sharing a face with its partition (so a support reaches as far
/// as the SMS subdomain) and the distance to the farthest vertex of its own partition (so every
/// vertex is reached); a lone partition covers the object. Normalised to a partition of unity
/// (a vertex of a partition without a handle that no support reaches goes to no handle). Geometry-
/// and material-blind: a support crosses cuts and material interfaces. Fixed vertices get no
/// weight; there is no Dirichlet weight.
HandleWeights rbf_handle_weights(const MatX3& rest, const MatX4i& tets,
                                 const std::vector<int>& element_label,
                                 const std::vector<int>& center_vertex,
                                 const std::vector<bool>& fixed_vertex);

/// Global biharmonic coordinates: per handle i, u_i minimizes u^T L M^-1 L u on the whole mesh
/// (L the unweighted P1 Laplacian, M the lumped volume) with u_i = 1 at its origin and 0 at the
/// other origins (and, when `dirichlet_aware`, at fixed vertices), natural boundary conditions
/// elsewhere. One factorization, one column per handle; unclipped (they may be negative) and
/// not compactly supported. Without fixed vertices the rows sum to one (the constant solves
/// the constraints with zero energy); with them, dirichlet_weight = 1 - sum_i u_i, the
/// biharmonic function that is 1 at the fixed vertices (Eq. 11's u_DBC).
HandleWeights biharmonic_coordinate_weights(const MatX3& rest, const MatX4i& tets,
                                            const std::vector<int>& element_label,
                                            const std::vector<int>& center_vertex,
                                            const std::vector<bool>& fixed_vertex,
                                            bool dirichlet_aware);

/// Skinning eigenmodes: the lowest eigenvectors of L_w w = lambda M w (L_w the Laplacian
/// weighted by E_e / min E, M the lumped volume), one per handle, on the free vertices when
/// `dirichlet_aware` and the mesh has fixed vertices (so they vanish there), else on all. Each
/// scaled to max |w| = 1 with its largest entry positive (a free body's first mode is the
/// constant 1). With the fixed vertices left out, the first mode is positive and vanishes at
/// them, and dirichlet_weight = 1 - that mode (the affine handle's weight, so the affine level
/// stays inside the span). Global, signed, material- and geometry-aware; the handle origins only
/// scale the linear DOFs (the span of phi [1, x - o] does not depend on o). Where eigenvalues
/// repeat (a symmetric mesh), a count that splits a degenerate cluster keeps whichever vectors of
/// it the eigensolver returns. std::runtime_error when the eigensolver does not converge.
///
/// All three: handles whose partition has no free vertex get no weight; an object without any
/// such handle gets none at all and a Dirichlet weight of one at its fixed vertices.
HandleWeights skinning_eigenmode_weights(const MatX3& rest, const MatX4i& tets, const VecX& youngs,
                                         const std::vector<int>& element_label,
                                         const std::vector<int>& center_vertex,
                                         const std::vector<bool>& fixed_vertex,
                                         bool dirichlet_aware);

/// The weights of `basis` for one object (the SMS ones by sms_handle_weights).
HandleWeights handle_weights_of(HandleBasis basis, const MatX3& rest, const MatX4i& tets,
                                const VecX& youngs, const std::vector<int>& element_label,
                                const std::vector<int>& center_vertex,
                                const std::vector<bool>& fixed_vertex, bool dirichlet_aware);

}  // namespace simrun
