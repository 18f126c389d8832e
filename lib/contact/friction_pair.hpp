#pragma once
/// One contact pair of IPC's lagged smoothed friction (Li et al. 2020; Ascher et al. survey,
/// Sec. 5.2, Eqs. 32-34), derived here:
///
///   D_k(x) = mu lambda_k f0(|u_k|),   u_k = A_k (x_k - x_k^n)  (2-vector),   A_k = T_k^T Gamma_k
///
/// x_k are the pair's (up to) four vertices. Everything else is lagged, i.e. computed once at the
/// step's start x^n:
/// - the closest points of the pair as weights w: r = sum_i w_i x_i is the vector from the
///   closest point of the second primitive to that of the first (vertex-face: w = (1, -b0, -b1,
///   -b2) with b the closest point's barycentric coordinates; edge-edge: w = (1-a, a, -(1-b),
///   -b) with a, b the closest points' edge parameters; vertex-plane: w = (1, 0, 0, 0), the plane
///   is static). Gamma_k = [w_0 I, w_1 I, w_2 I, w_3 I] (3x12) gives the relative displacement
///   of the two closest points;
/// - the normal n = r / |r| and a tangent basis T_k (3x2, orthonormal, orthogonal to n);
/// - the normal force lambda_k = -kappa m b'(d^2, d_hat^2) 2 d, the magnitude of the barrier's
///   force d(kappa m b)/dd (m the edge-edge mollifier, 1 for other kinds).
///
/// The mollifier of the sliding/sticking switch, with s = eps_v h (h the step):
///   f0(y) = -y^3/(3 s^2) + y^2/s + s/3  (y < s),   y  (y >= s)
///   f1(y) = f0'(y) = 2y/s - y^2/s^2     (y < s),   1  (y >= s)
/// so the friction force -grad D_k = -mu lambda_k f1(y) A_k^T u / y: magnitude mu lambda_k in
/// sliding, shrinking linearly to 0 with the tangential displacement y below s (sticking).
#include <Eigen/Core>

#include "contact/contact_barrier.hpp"

namespace simrun {

using FrictionVec12 = Eigen::Matrix<double, 12, 1>;
using FrictionMat12 = Eigen::Matrix<double, 12, 12>;

/// The lagged quantities of one pair.
struct FrictionPair {
  Stencil vertices = {-1, -1, -1, -1};   ///< full vertex ids (-1 unused)
  Eigen::Matrix<double, 2, 12> tangent;  ///< A_k = T_k^T Gamma_k
  double normal_force = 0.0;             ///< lambda_k [N]
};

/// f0, f1 = f0' and f1'(y) of the mollifier above (s > 0, y >= 0).
double friction_f0(double y, double s);
double friction_f1(double y, double s);
double friction_f1_derivative(double y, double s);

/// The closest-point weights w (see above) of a vertex-face pair (p, t0, t1, t2) and of an
/// edge-edge pair (ea0, ea1, eb0, eb1), from the closest-feature type of distance_types.hpp.
Eigen::Vector4d vertex_face_weights(const Vec3& p, const Vec3& t0, const Vec3& t1, const Vec3& t2);
Eigen::Vector4d edge_edge_weights(const Vec3& ea0, const Vec3& ea1, const Vec3& eb0,
                                  const Vec3& eb1);

/// An orthonormal 3x2 basis of the plane orthogonal to the unit vector n.
Eigen::Matrix<double, 3, 2> tangent_basis(const Vec3& n);

/// The lagged pair at x^n (full positions) for a barrier pair; planes are the barrier's,
/// kappa and dhat (absolute) its stiffness and activation distance. A pair whose closest points
/// coincide (no normal) gets lambda = 0.
FrictionPair lagged_friction_pair(const ContactBarrier::Pair& pair, const VecX& x_n,
                                  const std::vector<ContactPlane>& planes, double kappa,
                                  double dhat);

/// mu lambda f0(|u|) for the pair's displacement dx over the step (12 coordinates, the pair's
/// vertices in stencil order), with its gradient and Hessian over dx when asked. With
/// project_psd the 2x2 Hessian in u is clamped to PSD in closed form: its eigenvalues are
/// mu lambda f1'(y) along u and mu lambda f1(y)/y across, and the first is clamped at 0 (it is
/// >= 0 for this f0 except for rounding; the clamp keeps the term PSD for any mollifier).
double friction_pair_energy(const FrictionPair& pair, const FrictionVec12& dx, double mu, double s,
                            FrictionVec12* gradient, FrictionMat12* hessian, bool project_psd);

/// The work of the pair's friction force over the displacement dx: mu lambda f1(y) y >= 0 [J].
double friction_pair_work(const FrictionPair& pair, const FrictionVec12& dx, double mu, double s);

}  // namespace simrun
